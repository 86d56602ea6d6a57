-- lib/park-args.lua: dead-letter.lua's arguments read (its header says what they are).
--
-- A job's record comes as a shape (what the records of a call share: the failure, the cause, the
-- origin, the group, the consumer, the dead-at, the names of every field) and the job's own
-- values for it (its id, its attempts, its times). A batch mostly fails alike, so the call sends
-- each shared value once rather than once per job: each argument costs Redis more, parsed and
-- turned into a Lua string, than the script's work with it (bench/README.md, issue 37).

-- The jobs, in order: { id, shape, where its own values start in ARGV }, and their ids. A shape
-- is { kind, fingerprint, text, first (its record's first item in ARGV), n, places }. Arguments
-- that do not fit (a place that is no value of the record, a job naming no shape or short of its
-- values) are an error here, before anything is written.
local function parkedJobs()
  local shapes, jobs, ids = {}, {}, {}
  local i = 4
  for _ = 1, tonumber(ARGV[3]) do
    local n = tonumber(ARGV[i + 3])
    local m = tonumber(ARGV[i + 4 + n])
    local places = { unpack(ARGV, i + 5 + n, i + 4 + n + m) }
    for k, place in ipairs(places) do
      places[k] = tonumber(place)
      if not places[k] or places[k] % 2 ~= 0 or places[k] < 2 or places[k] > n then
        error('dead-letter.lua: a shape names place ' .. tostring(place) .. ', not a value of its record')
      end
    end
    shapes[#shapes + 1] = { kind = ARGV[i], fingerprint = ARGV[i + 1], text = ARGV[i + 2], first = i + 4, n = n,
      places = places }
    i = i + 5 + n + m
  end
  while i <= #ARGV do
    local shape = shapes[tonumber(ARGV[i + 1])] or error('dead-letter.lua: job ' .. ARGV[i] .. ' names no shape')
    if i + 1 + #shape.places > #ARGV then
      error('dead-letter.lua: job ' .. ARGV[i] .. ' is missing values of its shape')
    end
    jobs[#jobs + 1] = { ARGV[i], shape, i + 2 }
    ids[#ids + 1] = ARGV[i]
    i = i + 2 + #shape.places
  end
  return jobs, ids
end
