#!lua
-- uses lib/fields.lua
-- uses lib/ranges.lua
-- uses lib/claims.lua
-- uses lib/clock.lua
-- claim.lua: give pending entries to a worker, each only if it is still where the caller saw it.
--
-- Two callers: the retry scheduler (entries waiting under the retry consumer whose backoff has
-- passed) and the stall reclaimer (entries of a consumer that stopped, idle past the visibility
-- timeout). Between the caller's XPENDING and this script another replica may have claimed the
-- entry, or a heartbeat may have renewed it; checking owner and idle time and claiming in one
-- step means no entry is ever run by two workers at once, whatever the timings. The claim counts
-- a delivery (RETRYCOUNT: the count + 1), and that count is the attempt number; JUSTID because
-- the entry was just read with XRANGE and a second copy in XCLAIM's reply would be thrown away.
--
-- KEYS[1]  stream
-- KEYS[2]  the stream's not-before hash (entry id -> epoch ms on Redis' clock, from Retry-After;
--          same hash slot)
-- ARGV[1]  consumer group
-- ARGV[2]  worker consumer (who runs the attempt)
-- ARGV[3]  least idle time in ms the entry must still have (0 for due retries)
-- ARGV[4..] triples of: entry id, consumer the caller saw owning it, delivery count the caller saw
--
-- A not-before is compared with Redis' clock (TIME, lib/clock.lua), never the caller's: the
-- replica that wrote it and the one claiming may disagree on the time by an hour.
--
-- Returns an array, one item per entry taken or not yet due:
--   { id, delivery count after the claim, { field, value, ... } }  claimed, to run
--   { id, delivery count so far, owner }  the entry was trimmed from the stream: it is not
--                                          claimed (lib/claims.lua) and stays pending for the
--                                          caller to park as missing
--   { id, delivery count so far, ms }     where the caller saw it, but its Retry-After has ms to
--                                          go on Redis' clock: not claimed; the caller times it
--                                          again for then (its own timer fired in the millisecond
--                                          before, or its clock runs fast), rather than leaving
--                                          it to the safety-net poll seconds later
-- Entries owned by someone else by now, delivered again since (another count) or renewed are
-- skipped.
-- Everything that can fail (the stream's and the hash's types, the group) fails in the reads
-- before the first claim; claims and unhints go in slices, so no page is too long for Lua's stack.

local stream, notBefore = KEYS[1], KEYS[2]
local group, worker, minIdle = ARGV[1], ARGV[2], tonumber(ARGV[3])
local taken = {}
-- Retry-After hints are rare: look them up (and ask Redis the time) only when the stream has any.
local hinted = redis.call('HLEN', notBefore) > 0
local now = hinted and redisMillis()
-- Claimed ids grouped by their new delivery count: one XCLAIM per count, not one per entry
-- (the call itself is most of XCLAIM's cost, and a page of due retries mostly shares a count).
local byCount, counts = {}, {}

-- The page's pending entries and their stream entries, read a range at a time (lib/ranges.lua).
local ids = {}
for i = 4, #ARGV, 3 do
  ids[#ids + 1] = ARGV[i]
end
local pending = pendingOf(stream, group, minIdle, ids)
local claimable, seen = {}, {}
for i = 4, #ARGV, 3 do
  local p = pending[ARGV[i]]
  if p and not seen[ARGV[i]] and p[2] == ARGV[i + 1] and p[4] == tonumber(ARGV[i + 2]) then
    seen[ARGV[i]] = true
    -- A value that is no time (not a number, NaN) holds nothing: the job is not stuck behind it.
    local hint = hinted and tonumber(redis.call('HGET', notBefore, ARGV[i]))
    if (not hint) or hint ~= hint or hint <= now then
      claimable[#claimable + 1] = ARGV[i]
    else
      -- Whole ms, rounded up (a reply truncates a fraction, and a wait answered short would only
      -- come back here), at most a week, the longest hint transfer.lua writes (max-retry-after):
      -- a value someone else wrote in the hash is still an integer reply, never one past 64 bits.
      taken[#taken + 1] = { ARGV[i], p[4], math.min(math.ceil(hint - now), 604800000) }
    end
  end
end
local entries = entriesOf(stream, claimable)

for _, id in ipairs(claimable) do
  local count = pending[id][4]
  local entry = entries[id]
  if not entry then
    taken[#taken + 1] = { id, count, pending[id][2] }
  else
    count = count + 1
    if not byCount[count] then
      byCount[count] = {}
      counts[#counts + 1] = count
    end
    table.insert(byCount[count], id)
    taken[#taken + 1] = { id, count, entry[2] }
  end
end

for _, count in ipairs(counts) do
  local ids = byCount[count]
  claimIds(stream, group, worker, ids, count)
  if hinted then
    inSlices('HDEL', notBefore, ids)
  end
end

return taken
