-- uses lib/json-scan.lua
-- lib/json-object.lua: a JSON object's members read off its text, and RFC 7396's JSON Merge Patch
-- applied to that text (lib/patch.lua): members the patch does not name keep their bytes (numbers
-- as written, strings with their escapes, the whitespace between them); a member it names is
-- replaced by the patch's text, removed (null), or, both objects, merged the same way. Objects and
-- arrays nested deeper than MAX_DEPTH are not read: cjson, which would read them, turns every
-- number into a double, so 2^63-1 would come back rounded.

local MAX_DEPTH = 64

local scanValue

-- What follows an object's member or an array's element ending before `stop`: the index after the
-- container and true when `close` ends it, the index after the comma and false when another item
-- follows, nil when anything else does.
local function afterItem(s, stop, close)
  local after = skipSpace(s, stop)
  local c = string.sub(s, after, after)
  if c == close then
    return after + 1, true
  elseif c == ',' then
    return after + 1, false
  end
  return nil
end

-- Reads the members of the object opening at i; returns the index after it, or nil when it is not
-- one. `members`, when given, gets each member's decoded name, raw name, and where its text starts
-- (after the comma or brace before it, so its leading whitespace stays with it), where its value
-- starts and the index after its value.
local function scanObject(s, i, depth, members)
  if depth > MAX_DEPTH then
    return nil
  end
  local j = skipSpace(s, i + 1)
  if string.sub(s, j, j) == '}' then
    return j + 1
  end
  local from = i + 1
  while true do
    if string.sub(s, j, j) ~= '"' then
      return nil
    end
    local nameEnd = scanString(s, j)
    local colon = nameEnd and skipSpace(s, nameEnd)
    if not colon or string.sub(s, colon, colon) ~= ':' then
      return nil
    end
    local value = skipSpace(s, colon + 1)
    local stop = scanValue(s, value, depth + 1)
    if not stop then
      return nil
    end
    if members then
      local raw = string.sub(s, j + 1, nameEnd - 2)
      members[#members + 1] = { name = decodeString(raw), raw = raw, from = from, value = value, stop = stop }
    end
    local at, closed = afterItem(s, stop, '}')
    if not at or closed then
      return at
    end
    from = at
    j = skipSpace(s, at)
  end
end

local function scanArray(s, i, depth)
  if depth > MAX_DEPTH then
    return nil
  end
  local j = skipSpace(s, i + 1)
  if string.sub(s, j, j) == ']' then
    return j + 1
  end
  while true do
    local stop = scanValue(s, j, depth + 1)
    if not stop then
      return nil
    end
    local at, closed = afterItem(s, stop, ']')
    if not at or closed then
      return at
    end
    j = skipSpace(s, at)
  end
end

local literals = { t = 'true', f = 'false', n = 'null' }

scanValue = function(s, i, depth)
  local c = string.sub(s, i, i)
  if c == '{' then
    return scanObject(s, i, depth)
  elseif c == '[' then
    return scanArray(s, i, depth)
  elseif c == '"' then
    return scanString(s, i)
  elseif literals[c] then
    local word = literals[c]
    return string.sub(s, i, i + #word - 1) == word and i + #word or nil
  end
  return scanNumber(s, i)
end

-- A text that is exactly one JSON object (whitespace around it allowed): its members, and where
-- its braces are; nil when it is anything else.
local function objectOf(s)
  local open = skipSpace(s, 1)
  if string.sub(s, open, open) ~= '{' then
    return nil
  end
  local members = {}
  local stop = scanObject(s, open, 1, members)
  if not stop or skipSpace(s, stop) <= #s then
    return nil
  end
  return members, open, stop - 1
end

-- RFC 7396 on text: `target` and `patch` are JSON objects (objectOf); the merged object's text.
local function merge(target, patch)
  local members, open, close = objectOf(target)
  local changes = objectOf(patch)
  local byName, used, pieces = {}, {}, {}
  for _, m in ipairs(changes) do
    byName[m.name] = m
  end
  local function patched(m, old)
    local text = string.sub(patch, m.value, m.stop - 1)
    if string.sub(text, 1, 1) == '{' then
      return merge(old and string.sub(old, 1, 1) == '{' and old or '{}', text)
    end
    return text
  end
  for _, m in ipairs(members) do
    local change = byName[m.name]
    if not change then
      pieces[#pieces + 1] = string.sub(target, m.from, m.stop - 1)
    else
      used[m.name] = true
      if string.sub(patch, change.value, change.stop - 1) ~= 'null' then
        pieces[#pieces + 1] = string.sub(target, m.from, m.value - 1) .. patched(change, string.sub(target, m.value,
          m.stop - 1))
      end
    end
  end
  for _, change in ipairs(changes) do
    if not used[change.name] then
      used[change.name] = true
      if string.sub(patch, change.value, change.stop - 1) ~= 'null' then
        pieces[#pieces + 1] = '"' .. change.raw .. '":' .. patched(change, nil)
      end
    end
  end
  local tailFrom = #members > 0 and members[#members].stop or open + 1
  return string.sub(target, 1, open) .. table.concat(pieces, ',') .. string.sub(target, tailFrom)
end

