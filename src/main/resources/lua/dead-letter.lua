-- dead-letter.lua: park jobs, each in one atomic step with its record.
--
-- Acks each job (XACK also says whether it was still pending: if not, someone else settled it and
-- it is left alone), copies its origin entry, read here from the stream so the snapshot is byte
-- for byte what the producer wrote, into the dead-letter stream together with its record, and
-- counts the dead letter. Nothing else can run in between, so a job is never acked without being
-- parked, and never parked twice (a second call finds it no longer pending). A call may carry
-- several jobs of one stream (a worker parks what failed in the same turn together): they are
-- unhinted and counted with one call per key at the end, which is most of what a park costs Redis.
--
-- KEYS[1]  origin stream
-- KEYS[2]  dead-letter stream           (same hash slot as KEYS[1], or any key on a single Redis)
-- KEYS[3]  dead-letter stats hash       (with KEYS[2])
-- KEYS[4]  origin's not-before hash     (with KEYS[1])
-- KEYS[5]  optional: the redrive task that sent the (single) job back; its failed count goes up
-- ARGV[1]  consumer group
-- ARGV[2..] one block per job:
--          origin entry id,
--          failure kind (terminal, exhausted, missing, max-receive), counted in KEYS[3],
--          fingerprint of the cause (a short hash), counted in KEYS[3],
--          the fingerprint's normalised text, kept once in KEYS[3] so listings can show it,
--          n, then the record's own fields as n name, value items (the snapshot is added here,
--          as f:<name>)
--
-- Returns one item per job: the new dead-letter entry id, or 0 when the entry is not pending in
-- the group any more (someone acked or parked it).

local origin, dlq, stats, notBefore, task = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local group = ARGV[1]

local results, acked, deltas, deltaOrder, texts = {}, {}, {}, {}, {}
local function countIn(field)
  if deltas[field] == nil then
    deltas[field] = 0
    deltaOrder[#deltaOrder + 1] = field
  end
  deltas[field] = deltas[field] + 1
end

local i = 2
while i <= #ARGV do
  local id, kind, fingerprint, fingerprintText, n = ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], tonumber(ARGV[i + 4])
  local first = i + 5
  i = first + n
  -- XACK answers whether the job was still pending, and acks it: one call for the check and the ack.
  if redis.call('XACK', origin, group, id) == 0 then
    results[#results + 1] = 0
  else
    local args = { dlq, '*' }
    for j = first, first + n - 1 do
      args[#args + 1] = ARGV[j]
    end
    local entry = redis.call('XRANGE', origin, id, id)
    if #entry == 0 then
      -- Trimmed away before it completed: park what we still know rather than drop it.
      args[#args + 1] = 'snapshot'
      args[#args + 1] = 'missing'
    else
      local fields = entry[1][2]
      for j = 1, #fields, 2 do
        args[#args + 1] = 'f:' .. fields[j]
        args[#args + 1] = fields[j + 1]
      end
    end
    results[#results + 1] = redis.call('XADD', unpack(args))
    acked[#acked + 1] = id
    countIn('parked')
    countIn('failure:' .. kind)
    countIn('origin:' .. origin)
    countIn('fingerprint:' .. fingerprint)
    texts[fingerprint] = fingerprintText
  end
end

if #acked > 0 then
  redis.call('HDEL', notBefore, unpack(acked))
  for _, field in ipairs(deltaOrder) do
    redis.call('HINCRBY', stats, field, deltas[field])
  end
  for fingerprint, text in pairs(texts) do
    redis.call('HSETNX', stats, 'fingerprint-text:' .. fingerprint, text)
  end
  if task and redis.call('EXISTS', task) == 1 then
    redis.call('HINCRBY', task, 'failed', #acked)
  end
end
return results
