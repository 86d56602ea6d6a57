-- lib/patch.lua: a bulk redrive's patch, applied to each entry's snapshot as it moves
-- (redrive-step.lua) and to the samples a preview shows (redrive-preview.lua): one copy, so
-- what the operator previews and approves is what is written.
--
-- A patch is stored in its task (or proposal) hash as the JSON redrive/RedrivePatch writes:
--   {"set": [[name, base64 value], ...], "remove": [name, ...], "json": [[field, merge patch text], ...]}
-- Pairs keep their order (a Lua table does not). Set values travel as base64 because a value may
-- be any bytes; a merge patch travels as its JSON text, never decoded by cjson, which reads every
-- number as a double: 2^63-1 would come back rounded.
--
-- `json` is RFC 7396's JSON Merge Patch, applied to the text of the field, not to a decoded
-- value: members the patch does not name keep their bytes (numbers as written, strings with their
-- escapes, the whitespace between them); a member it names is replaced by the patch's text, or
-- removed (null), or, both objects, merged the same way. A field that is missing, not one JSON
-- object, or nested deeper than MAX_DEPTH is not patched: the entry is skipped with that reason,
-- never moved unpatched.

local MAX_DEPTH = 64

local B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
local b64Value = {}
for i = 1, 64 do
  b64Value[string.byte(B64, i)] = i - 1
end

local function base64Decode(text)
  local out, bits, count = {}, 0, 0
  for i = 1, #text do
    local v = b64Value[string.byte(text, i)]
    if v then
      bits = bits * 64 + v
      count = count + 6
      if count >= 8 then
        count = count - 8
        local byte = math.floor(bits / 2 ^ count)
        out[#out + 1] = string.char(byte)
        bits = bits - byte * 2 ^ count
      end
    end
  end
  return table.concat(out)
end

local function skipSpace(s, i)
  return string.find(s, '[^ \t\r\n]', i) or #s + 1
end

-- The index after the JSON string opening at i, or nil when it is not one.
local function scanString(s, i)
  local j = i + 1
  while true do
    local k = string.find(s, '[%z\1-\31"\\]', j)
    if not k then
      return nil
    end
    local c = string.byte(s, k)
    if c == 34 then
      return k + 1
    elseif c ~= 92 then
      return nil
    end
    local escape = string.sub(s, k + 1, k + 1)
    if escape == 'u' then
      if not string.find(s, '^%x%x%x%x', k + 2) then
        return nil
      end
      j = k + 6
    elseif escape ~= '' and string.find('"\\/bfnrt', escape, 1, true) then
      j = k + 2
    else
      return nil
    end
  end
end

local function scanNumber(s, i)
  local j = i
  if string.sub(s, j, j) == '-' then
    j = j + 1
  end
  local _, last = string.find(s, '^0', j)
  if not last then
    _, last = string.find(s, '^[1-9]%d*', j)
  end
  if not last then
    return nil
  end
  j = last + 1
  if string.sub(s, j, j) == '.' then
    _, last = string.find(s, '^%d+', j + 1)
    if not last then
      return nil
    end
    j = last + 1
  end
  local e = string.sub(s, j, j)
  if e == 'e' or e == 'E' then
    _, last = string.find(s, '^[+-]?%d+', j + 1)
    if not last then
      return nil
    end
    j = last + 1
  end
  return j
end

-- A JSON string's text between its quotes, decoded (escapes, \u with surrogate pairs, as UTF-8):
-- members are matched by what their names say, not by how they are escaped.
local function utf8(code)
  if code < 0x80 then
    return string.char(code)
  elseif code < 0x800 then
    return string.char(0xC0 + math.floor(code / 0x40), 0x80 + code % 0x40)
  elseif code < 0x10000 then
    return string.char(0xE0 + math.floor(code / 0x1000), 0x80 + math.floor(code / 0x40) % 0x40, 0x80 + code % 0x40)
  end
  return string.char(0xF0 + math.floor(code / 0x40000), 0x80 + math.floor(code / 0x1000) % 0x40,
    0x80 + math.floor(code / 0x40) % 0x40, 0x80 + code % 0x40)
end

local simpleEscapes = { ['"'] = '"', ['\\'] = '\\', ['/'] = '/', b = '\b', f = '\f', n = '\n', r = '\r', t = '\t' }

local function decodeString(raw)
  if not string.find(raw, '\\', 1, true) then
    return raw
  end
  local out, i = {}, 1
  while i <= #raw do
    local k = string.find(raw, '\\', i, true)
    if not k then
      out[#out + 1] = string.sub(raw, i)
      break
    end
    out[#out + 1] = string.sub(raw, i, k - 1)
    local escape = string.sub(raw, k + 1, k + 1)
    if escape == 'u' then
      local code = tonumber(string.sub(raw, k + 2, k + 5), 16)
      i = k + 6
      local low = code >= 0xD800 and code < 0xDC00 and string.match(raw, '^\\u(%x%x%x%x)', i)
      if low and tonumber(low, 16) >= 0xDC00 and tonumber(low, 16) < 0xE000 then
        code = 0x10000 + (code - 0xD800) * 0x400 + (tonumber(low, 16) - 0xDC00)
        i = i + 6
      end
      out[#out + 1] = utf8(code)
    else
      out[#out + 1] = simpleEscapes[escape]
      i = k + 2
    end
  end
  return table.concat(out)
end

local scanValue

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
    local after = skipSpace(s, stop)
    local c = string.sub(s, after, after)
    if c == '}' then
      return after + 1
    elseif c ~= ',' then
      return nil
    end
    from = after + 1
    j = skipSpace(s, after + 1)
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
    local after = skipSpace(s, stop)
    local c = string.sub(s, after, after)
    if c == ']' then
      return after + 1
    elseif c ~= ',' then
      return nil
    end
    j = skipSpace(s, after + 1)
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

-- The stored patch (the task's `patch` field) as the tables patchFields takes; nil when there is none.
local function patchOf(stored)
  if not stored or stored == '' then
    return nil
  end
  local decoded = cjson.decode(stored)
  local p = { set = {}, setOrder = {}, remove = {}, json = {}, jsonOrder = {}, names = {} }
  for _, pair in ipairs(decoded['set'] or {}) do
    p.set[pair[1]] = base64Decode(pair[2])
    p.setOrder[#p.setOrder + 1] = pair[1]
    p.names[#p.names + 1] = pair[1]
  end
  for _, name in ipairs(decoded['remove'] or {}) do
    p.remove[name] = true
    p.names[#p.names + 1] = name
  end
  for _, pair in ipairs(decoded['json'] or {}) do
    p.json[pair[1]] = pair[2]
    p.jsonOrder[#p.jsonOrder + 1] = pair[1]
    p.names[#p.names + 1] = pair[1]
  end
  return p
end

-- The snapshot `old` (name, value, ...) with the patch applied, in its order (set fields it lacked
-- come last, in the patch's order); or nil and the reason the entry can't be patched.
local function patchFields(old, p)
  local out, present = {}, {}
  for j = 1, #old, 2 do
    local name, value = old[j], old[j + 1]
    if not p.remove[name] then
      if p.set[name] ~= nil then
        value = p.set[name]
      elseif p.json[name] then
        if not objectOf(value) then
          return nil, "patch: field '" .. name .. "' is not a JSON object"
        end
        value = merge(value, p.json[name])
      end
      out[#out + 1] = name
      out[#out + 1] = value
      present[name] = true
    end
  end
  for _, name in ipairs(p.jsonOrder) do
    if not present[name] then
      return nil, "patch: field '" .. name .. "' is missing"
    end
  end
  for _, name in ipairs(p.setOrder) do
    if not present[name] then
      out[#out + 1] = name
      out[#out + 1] = p.set[name]
    end
  end
  return out
end
