#!lua flags=no-writes
-- uses lib/cut.lua
-- read-entries.lua: entries of a stream with every value cut short, for views.
--
-- One value of a parked job can be hundreds of megabytes. The cut happens here, in Redis, so the
-- service never receives a whole payload just to show its first bytes: the reply is bounded by
-- the limits below, whatever the entries hold. Each value's full length comes with it, so a view
-- can say how much it left out. Reads only (no-writes: it may run on a replica).
--
-- KEYS[1]  the stream (a dead-letter stream or its audit stream)
-- ARGV[1]  'oldest' (XRANGE) or 'newest' (XREVRANGE)
-- ARGV[2]  start, ARGV[3] end, as XRANGE or XREVRANGE takes them
-- ARGV[4]  entries at most
-- ARGV[5]  bytes kept of each value
-- ARGV[6]  bytes kept of one entry, names and values together; fields past it are left out
--
-- Returns { { id, { name, value cut short, full length, ... }, fields left out }, ... }
-- (the same shape as list.lua's entries, which are cut by the same rule).

local stream, order = KEYS[1], ARGV[1]
local count, valueLimit, entryLimit = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])

local page
if order == 'newest' then
  page = redis.call('XREVRANGE', stream, ARGV[2], ARGV[3], 'COUNT', count)
else
  page = redis.call('XRANGE', stream, ARGV[2], ARGV[3], 'COUNT', count)
end

local out = {}
for _, entry in ipairs(page) do
  local cut, leftOut = cutFields(entry[2], valueLimit, entryLimit)
  out[#out + 1] = { entry[1], cut, leftOut }
end
return out
