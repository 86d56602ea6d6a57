#!lua
-- uses lib/fields.lua
-- uses lib/ranges.lua
-- uses lib/present.lua
-- uses lib/claims.lua
-- uses lib/clock.lua
-- transfer.lua: give pending entries to a consumer without counting a delivery, each only if its
-- stream entry still exists.
--
-- Four callers: the lease heartbeat (a worker's running jobs, to itself), the hand-over of failed
-- jobs to the retry consumer (with the provider's Retry-After of some), an immediate retry (to
-- itself, counting the next attempt) and the hand-back of a job that never ran. A plain XCLAIM
-- would delete a trimmed entry from the PEL and the job would vanish (lib/claims.lua); here each
-- id is looked up in the PEL and in the stream before anything is written, only entries that
-- still exist are claimed, and the trimmed ones are returned, still pending, for the caller to
-- park as missing. Ids no longer pending (acked, parked) are skipped, as XCLAIM would skip them.
--
-- KEYS[1]  stream
-- KEYS[2]  the stream's not-before hash (entry id -> epoch ms on Redis' clock, from Retry-After;
--          same hash slot)
-- ARGV[1]  consumer group
-- ARGV[2]  consumer to give the entries to
-- ARGV[3]  delivery count to set (RETRYCOUNT), or -1 to keep each entry's
-- ARGV[4..] pairs of: entry id, ms from now it may not run again for (the provider's Retry-After;
--          -1: no hint)
--
-- The not-before stored is Redis' clock (TIME, lib/clock.lua) plus the wait, the clock claim.lua
-- reads it with: a caller whose own clock is off writes the same not-before as any other.
--
-- Returns an array, one item per trimmed entry (none claimed, nothing written for it):
--   { id, delivery count so far, owner }
-- The not-before hash's type is checked before the first write (the stream's fails in the reads).

local stream, notBefore = KEYS[1], KEYS[2]
local group, consumer, count = ARGV[1], ARGV[2], tonumber(ARGV[3])

local hinted = false
for i = 5, #ARGV, 2 do
  if ARGV[i] ~= '-1' then
    hinted = true
    break
  end
end
local refusal = hinted and wrongType({ { notBefore, 'hash' } })
if refusal then
  return redis.error_reply('WRONGTYPE ' .. refusal)
end

-- The stream first: an id it surely still holds (presentTest, no read) goes straight into the
-- claim (XCLAIM skips one no longer pending); only the others are read from the stream, and only
-- those not found there, rare, are looked up in the PEL. One pass, no list per id kept twice.
local claim, at, seen, unsure = {}, {}, {}, {}
-- (An XINFO costs more than reading one entry by id, bench/README.md: a single id is read.)
local surely = #ARGV >= 7 and presentTest(stream)
for i = 4, #ARGV, 2 do
  local id = ARGV[i]
  if not seen[id] then
    seen[id] = true
    if surely and surely(id) then
      claim[#claim + 1] = id
    else
      unsure[#unsure + 1] = id
    end
  end
  if hinted and ARGV[i + 1] ~= '-1' then
    at[id] = i -- an id given twice with hints takes its last one, as HSET would
  end
end
local trimmed = {}
if #unsure > 0 then
  local entries = entriesOf(stream, unsure)
  local absent = {}
  for _, id in ipairs(unsure) do
    if entries[id] then
      claim[#claim + 1] = id
    else
      absent[#absent + 1] = id
    end
  end
  if #absent > 0 then
    local pending = pendingOf(stream, group, 0, absent)
    for _, id in ipairs(absent) do
      if pending[id] then
        trimmed[#trimmed + 1] = { id, pending[id][4], pending[id][2] }
      end
    end
  end
end

if hinted then
  local hintArgs, now = {}, redisMillis()
  for _, id in ipairs(claim) do
    if at[id] then
      hintArgs[#hintArgs + 1] = id
      hintArgs[#hintArgs + 1] = millisText(now + tonumber(ARGV[at[id] + 1]))
    end
  end
  if #hintArgs > 0 then
    inSlices('HSET', notBefore, hintArgs)
  end
end
claimIds(stream, group, consumer, claim, count >= 0 and count or nil)
return trimmed
