-- lib/ranges.lua: looks up many entries of a stream (or of its PEL) with range reads, not one
-- call per id (LuaScripts puts it in place of the line `-- uses lib/ranges.lua`).
--
-- The jobs of one batch (a page of due retries, the jobs parked in one call) mostly sit close
-- together in their stream, so a window of them is one XRANGE or XPENDING of that range. A window
-- whose range holds many other entries (jobs that succeeded in between) is read no further than
-- twice its ids; its ids past that are looked up one at a time, as before: the cost stays bounded
-- by the ids asked for, however sparse they are.

local RANGE_WINDOW = 100

-- Zeros to pad a part with: cut from one literal, never built (a loop of string.rep at the top of
-- this file cost 38k instructions per call of every script that uses it, more than an XCLAIM).
local ZEROS = '00000000000000000000'

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
    key = string.sub(ZEROS, #ms + 1) .. ms .. '-' .. string.sub(ZEROS, #seq + 1) .. seq
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
