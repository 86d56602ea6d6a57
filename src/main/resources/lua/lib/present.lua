-- uses lib/ranges.lua
-- lib/present.lua: which pending ids of a stream are surely still in it, told without reading
-- them (transfer.lua: a claim must never meet a trimmed entry, lib/claims.lua).

-- An id's millisecond part as a Lua number, when it is exact as one (at most 15 digits: a number
-- is exact to 2^53); nil for any other id.
local function idMillis(id)
  local ms = string.match(id, '^(%d+)-%d+$')
  if ms and #ms <= 15 then
    return tonumber(ms)
  end
  return nil
end

-- Which ids of `stream` are surely still there, told without reading them: a predicate, or nil
-- when Redis does not say (then every id has to be looked up). An entry leaves a stream in one of
-- two ways. Trimming (XTRIM, XADD's MAXLEN/MINID) removes from the head, and Redis moves the
-- first entry's id with it (recorded-first-entry-id); a deletion from the middle (XDEL) raises
-- max-deleted-entry-id, which Redis keeps exact because a group's lag depends on whether a range
-- holds a deleted entry. So an id that was added, at or after the first entry and after the
-- greatest deleted id, is still there; only the others need a range read. One XINFO per call,
-- O(1), instead of reading every entry (a job that fails three times is claimed twice).
-- (A stream loaded from a Redis 6 file with entries deleted before the upgrade has no record of
-- them: max-deleted-entry-id starts at 0-0 there; Redis 7's own lag has the same blind spot.)
local function presentTest(stream)
  local info = redis.pcall('XINFO', 'STREAM', stream)
  if type(info) ~= 'table' or info.err then
    return nil
  end
  local length, first, deleted
  for i = 1, #info - 1, 2 do
    local name = info[i]
    if name == 'length' then
      length = info[i + 1]
    elseif name == 'recorded-first-entry-id' then
      first = info[i + 1]
    elseif name == 'max-deleted-entry-id' then
      deleted = info[i + 1]
    end
  end
  if not length or length == 0 or not first or not deleted then
    return nil
  end
  local firstKey, deletedKey = idKey(first), idKey(deleted)
  -- An id idKey can't read (its key is itself) is looked up, never assumed.
  local function byKey(id)
    local key = idKey(id)
    return key ~= id and key >= firstKey and key > deletedKey
  end
  -- Most ids are told without making a string (idKey makes five, and was most of an immediate
  -- retry's check). Every id of a millisecond after both the first entry's and the greatest
  -- deleted one's is there. Such an id sorts at or after `later` ('<that ms + 1>-') as plain
  -- strings when it is digits with its '-' where later's is: both millisecond parts then have as
  -- many digits, and equal widths sort as numbers do (and a sequence of under 20 digits is one
  -- Redis takes). Any other id (the bound's own millisecond, another width, not an id) is told
  -- by idKey.
  local fms, dms = idMillis(first), idMillis(deleted)
  if not fms or not dms then
    return byKey
  end
  local later = string.format('%.0f-', math.max(fms, dms) + 1)
  local dash = #later
  return function(id)
    if string.byte(id, dash) == 45 and #id - dash < 20 and id >= later and string.find(id, '^%d+-%d+$') then
      return true
    end
    return byKey(id)
  end
end

