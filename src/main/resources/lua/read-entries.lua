#!lua flags=no-writes
-- uses lib/fields.lua
-- uses lib/snapshot.lua
-- uses lib/cut.lua
-- read-entries.lua: entries of a stream with every value cut short, for views.
--
-- One value of a parked job can be hundreds of megabytes. The cut happens here, in Redis, so the
-- service never receives a whole payload just to show its first bytes: the reply is bounded by
-- the limits below, whatever the entries hold. Each value's full length comes with it, so a view
-- can say how much it left out. A packed snapshot is shown as f:<name> fields (lib/snapshot.lua).
-- Reads only (no-writes: it may run on a replica).
--
-- KEYS[1]  the stream (a dead-letter stream or its audit stream)
-- ARGV[1]  'oldest' (XRANGE) or 'newest' (XREVRANGE)
-- ARGV[2]  start, ARGV[3] end, as XRANGE or XREVRANGE takes them
-- ARGV[4]  entries at most
-- ARGV[5]  bytes kept of each value
-- ARGV[6]  bytes kept of one entry, names and values together; fields past it are left out
-- ARGV[7]  bytes of the whole page: it ends early once they are used (so a page holds at most these
--          and one entry more), but never before its first entry
--
-- Returns { 1 when the page ended early on ARGV[7], else 0,
--           { { id, { name, value cut short, full length, ... }, fields left out }, ... } }
-- (entries in the same shape as list.lua's entries, which cuts by the same rule).

local stream, order = KEYS[1], ARGV[1]
local count, valueLimit, entryLimit, pageLimit = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6]),
  tonumber(ARGV[7])

local page
if order == 'newest' then
  page = redis.call('XREVRANGE', stream, ARGV[2], ARGV[3], 'COUNT', count)
else
  page = redis.call('XRANGE', stream, ARGV[2], ARGV[3], 'COUNT', count)
end

local out, used = {}, 0
for _, entry in ipairs(page) do
  if #out > 0 and used >= pageLimit then
    return { 1, out }
  end
  local cut, leftOut, kept = cutFields(viewFields(entry[2]), valueLimit, entryLimit)
  used = used + kept
  out[#out + 1] = { entry[1], cut, leftOut }
end
return { 0, out }
