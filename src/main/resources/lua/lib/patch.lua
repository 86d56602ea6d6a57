-- uses lib/json-object.lua
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
-- `json` is RFC 7396's JSON Merge Patch applied to the field's text (lib/json-object.lua). A field
-- that is missing or not one JSON object is not patched: the entry is skipped with that reason,
-- never moved unpatched.

local B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
-- Each character's value, made on the first decode: every call of a script runs this file's top
-- level, and building the table there cost ~90k instructions per redrive step, patch or not.
local b64Value

local function base64Decode(text)
  if not b64Value then
    b64Value = {}
    for i = 1, 64 do
      b64Value[string.byte(B64, i)] = i - 1
    end
  end
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
    -- Checked here, before a caller's first write: merge (lib/json-object.lua) reads it as an object.
    if not objectOf(pair[2]) then
      error('lib/patch.lua: the stored merge patch of ' .. pair[1] .. ' is not a JSON object')
    end
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
