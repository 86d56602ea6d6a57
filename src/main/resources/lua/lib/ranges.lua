-- lib/ranges.lua: looks up many entries of a stream (or of its PEL) with range reads, not one
-- call per id (LuaScripts puts it in place of the line `-- uses lib/ranges.lua`).
--
-- The jobs of one batch (a page of due retries, the jobs parked in one call) mostly sit close
-- together in their stream, so a window of them is one XRANGE or XPENDING of that range. A window
-- whose range holds many other entries (jobs that succeeded in between) is read no further than
-- twice its ids; its ids past that are looked up one at a time, as before: the cost stays bounded
-- by the ids asked for, however sparse they are.

local RANGE_WINDOW = 100

-- Zeros to pad a part with, by how many: made once, not per id.
local ZEROS = {}
for n = 0, 20 do
  ZEROS[n] = string.rep('0', n)
end

-- A key that sorts as Redis orders stream ids: both parts zero-padded to 20 digits (a 64-bit
-- part has at most 20), so plain string order is id order, exact for any part (a Lua number is
-- not). Made once per id in a call (a park looks its jobs up in the PEL and in the stream), so
-- sorting costs no parsing per comparison.
local idKeys = {}
local function idKey(id)
  local key = idKeys[id]
  if key then
    return key
  end
  local ms, seq = string.match(id, '^(%d+)-(%d+)$')
  if not ms or #ms > 20 or #seq > 20 then
    key = id
  else
    key = ZEROS[20 - #ms] .. ms .. '-' .. ZEROS[20 - #seq] .. seq
  end
  idKeys[id] = key
  return key
end

-- The items of `ids` found by `readRange(from, to, count)` / `readOne(id)` (each returning a list
-- of items whose [1] is the id), by id; an id with no item is absent, and so is every item of a
-- range that was not asked for.
local function inRanges(ids, readRange, readOne)
  local keys, sorted, wanted = {}, {}, {}
  for _, id in ipairs(ids) do
    if not wanted[id] then
      wanted[id] = true
      keys[#keys + 1] = idKey(id)
      sorted[#sorted + 1] = id
    end
  end
  -- A batch mostly comes in stream order: one pass tells, and only one out of order is sorted
  -- (sorting an ordered batch still cost a few comparisons per id).
  for i = 2, #keys do
    if keys[i] < keys[i - 1] then
      local byKey = {}
      for k, key in ipairs(keys) do
        byKey[key] = sorted[k]
      end
      table.sort(keys)
      for k, key in ipairs(keys) do
        sorted[k] = byKey[key]
      end
      break
    end
  end
  local found = {}
  for from = 1, #sorted, RANGE_WINDOW do
    local to = math.min(from + RANGE_WINDOW - 1, #sorted)
    local limit = 2 * (to - from + 1)
    local page = readRange(sorted[from], sorted[to], limit)
    for _, item in ipairs(page) do
      if wanted[item[1]] then
        found[item[1]] = item
      end
    end
    if #page >= limit then
      local last = idKey(page[#page][1])
      for k = from, to do
        if last < keys[k] then
          local one = readOne(sorted[k])
          if #one > 0 then
            found[sorted[k]] = one[1]
          end
        end
      end
    end
  end
  return found
end

-- Entries of `stream` by id: { id, { field, value, ... } }.
local function entriesOf(stream, ids)
  return inRanges(ids, function(from, to, count)
    return redis.call('XRANGE', stream, from, to, 'COUNT', count)
  end, function(id)
    return redis.call('XRANGE', stream, id, id)
  end)
end

-- Pending entries of a group by id, idle at least `minIdle` ms: { id, owner, idle ms, deliveries }.
local function pendingOf(stream, group, minIdle, ids)
  return inRanges(ids, function(from, to, count)
    return redis.call('XPENDING', stream, group, 'IDLE', minIdle, from, to, count)
  end, function(id)
    return redis.call('XPENDING', stream, group, 'IDLE', minIdle, id, id, 1)
  end)
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
  return function(id)
    local key = idKey(id)
    return key ~= id and key >= firstKey and key > deletedKey
  end
end

