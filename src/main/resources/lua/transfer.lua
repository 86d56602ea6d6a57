#!lua
-- uses lib/fields.lua
-- uses lib/ranges.lua
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

local ids, hints, hinted = {}, {}, false
for i = 4, #ARGV, 2 do
  ids[#ids + 1] = ARGV[i]
  if ARGV[i + 1] ~= '-1' then
    hints[ARGV[i]] = ARGV[i + 1]
    hinted = true
  end
end
local refusal = hinted and wrongType({ { notBefore, 'hash' } })
if refusal then
  return redis.error_reply('WRONGTYPE ' .. refusal)
end

-- The stream first: an id it surely still holds (presentTest, no read) or an entry found there is
-- claimed (XCLAIM skips one no longer pending), and only the ids not found, rare, are looked up in
-- the PEL, so the common call reads no entry at all.
local unique, seen, unsure = {}, {}, {}
local surely = presentTest(stream)
for _, id in ipairs(ids) do
  if not seen[id] then
    seen[id] = surely and surely(id) and 'there' or 'unsure'
    unique[#unique + 1] = id
    if seen[id] == 'unsure' then
      unsure[#unsure + 1] = id
    end
  end
end
local entries = #unsure > 0 and entriesOf(stream, unsure) or {}
local present, absent, hintArgs = {}, {}, {}
for _, id in ipairs(unique) do
  if seen[id] == 'there' or entries[id] then
    present[#present + 1] = id
    if hints[id] then
      hintArgs[#hintArgs + 1] = id
      hintArgs[#hintArgs + 1] = hints[id]
    end
  else
    absent[#absent + 1] = id
  end
end
local trimmed = {}
if #absent > 0 then
  local pending = pendingOf(stream, group, 0, absent)
  for _, id in ipairs(absent) do
    if pending[id] then
      trimmed[#trimmed + 1] = { id, pending[id][4], pending[id][2] }
    end
  end
end

if #hintArgs > 0 then
  local now = redisMillis()
  for i = 2, #hintArgs, 2 do
    hintArgs[i] = millisText(now + tonumber(hintArgs[i]))
  end
  inSlices('HSET', notBefore, hintArgs)
end
claimIds(stream, group, consumer, present, count >= 0 and count or nil)
return trimmed
