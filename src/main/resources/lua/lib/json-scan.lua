-- lib/json-scan.lua: the tokens of JSON text, read where they stand (lib/json-object.lua builds on
-- them): each scanner takes the text and the index a token opens at and returns the index after
-- it, or nil when the text there is not that token. Nothing is decoded but member names
-- (decodeString), so a value the caller keeps keeps its bytes.

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

