-- lib/fields.lua: what the scripts that copy whole entries share (LuaScripts puts it in place of
-- the line `-- uses lib/fields.lua` of each, which comes right after the shebang line).
--
-- redis.call takes no more arguments than Lua's C stack holds (LUAI_MAXCSTACK, 8,000 slots), and
-- unpack() fails the same way ("too many results to unpack"). An entry of more than PACK_ABOVE
-- fields therefore never goes field by field into one command: its fields travel packed in one
-- value, "<bytes>:<name><bytes>:<value>..." (each item's length in bytes, a colon, the item),
-- which table.concat builds without any such limit and which keeps every byte.
-- 3,500 fields are 7,000 arguments, with room under the limit for the record's own fields.
local PACK_ABOVE = 3500

-- name, value, ... as one packed value.
local function packFields(flat, from, to)
  local parts = {}
  for i = from or 1, to or #flat do
    parts[#parts + 1] = #flat[i] .. ':' .. flat[i]
  end
  return table.concat(parts)
end

-- Appends the name, value, ... items of a packed value to `out`; false (out untouched) when the
-- text is not a whole packed value.
local function unpackFields(text, out)
  local items, at, n = {}, 1, #text
  while at <= n do
    local colon = string.find(text, ':', at, true)
    local length = colon and string.match(string.sub(text, at, colon - 1), '^%d+$') and
      tonumber(string.sub(text, at, colon - 1))
    if not length or colon + length > n then
      return false
    end
    items[#items + 1] = string.sub(text, colon + 1, colon + length)
    at = colon + length + 1
  end
  if #items % 2 == 1 then
    return false
  end
  for _, item in ipairs(items) do
    out[#out + 1] = item
  end
  return true
end

-- Redis never rolls a script back, so a key of the wrong type must be found before the first
-- write. `wanted` is a list of { key, type }; returns a sentence naming the first wrong one, or nil.
local function wrongType(wanted)
  for _, w in ipairs(wanted) do
    local found = redis.call('TYPE', w[1])['ok']
    if found ~= 'none' and found ~= w[2] then
      return w[1] .. ' is a ' .. found .. ', not a ' .. w[2]
    end
  end
  return nil
end

-- Runs `command head... item... tail...` over the list `items` in slices, so no call is too long
-- for Lua's stack: `head` is a key or a list of the arguments before the items, `tail` (optional)
-- a list of those after them.
local function inSlices(command, head, items, tail)
  for from = 1, #items, 1000 do
    local slice = type(head) == 'table' and { unpack(head) } or { head }
    for i = from, math.min(from + 999, #items) do
      slice[#slice + 1] = items[i]
    end
    for _, item in ipairs(tail or {}) do
      slice[#slice + 1] = item
    end
    redis.call(command, unpack(slice))
  end
end
