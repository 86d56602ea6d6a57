#!lua flags=no-writes
-- uses lib/record.lua
-- uses lib/filter.lua
-- uses lib/cut.lua
-- list.lua: a page of the dead letters a filter selects, oldest or newest first, for a listing.
--
-- The filter is lib/filter.lua, the one a redrive's count and moves use, so a listing shows what a
-- redrive with the same filter would move. Only the record's fields are returned, each cut short
-- here by lib/cut.lua's rule (that of read-entries.lua), so the reply stays bounded whatever the
-- snapshot holds; the snapshot is left out. Reads only (no-writes: it may run on a replica).
--
-- KEYS[1]  dead-letter stream
-- ARGV[1..8] the filter (lib/filter.lua)
-- ARGV[9]  'newest' or 'oldest'
-- ARGV[10] cursor (exclusive) or ''
-- ARGV[11] entries wanted
-- ARGV[12] entries to examine at most
-- ARGV[13] bytes kept of each value
-- ARGV[14] bytes kept of one entry and of the whole page (the page ends early past it)
--
-- Returns { next cursor or '' at the end, entries examined,
--           { id, { name, value cut short, full length, ... }, fields left out }, ... }

local dlq, filter = KEYS[1], filterAt(1)
local newest, cursor, wanted, budget = ARGV[9] == 'newest', ARGV[10], tonumber(ARGV[11]), tonumber(ARGV[12])
local valueLimit, byteLimit = tonumber(ARGV[13]), tonumber(ARGV[14])

local out = { '', 0 }
local examined, found, bytes = 0, 0, 0
while examined < budget do
  local ask = math.min(100, budget - examined)
  local page
  if newest then
    page = redis.call('XREVRANGE', dlq, cursor ~= '' and '(' .. cursor or '+', '-', 'COUNT', ask)
  else
    page = redis.call('XRANGE', dlq, after(cursor), '+', 'COUNT', ask)
  end
  for _, entry in ipairs(page) do
    examined = examined + 1
    cursor = entry[1]
    if matches(filter, entry[1], recordOf(entry[2])) then
      local cut, leftOut, size = cutFields(entry[2], valueLimit, byteLimit, isRecordField)
      out[#out + 1] = { entry[1], cut, leftOut }
      found, bytes = found + 1, bytes + size
      if found == wanted or bytes >= byteLimit then
        out[1], out[2] = cursor, examined
        return out
      end
    end
  end
  if #page < ask then
    out[2] = examined
    return out
  end
end
out[1], out[2] = cursor, examined
return out
