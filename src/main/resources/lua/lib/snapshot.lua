-- uses lib/fields.lua
-- lib/snapshot.lua: how a dead-letter record keeps the origin entry it parked (the snapshot):
-- written by dead-letter.lua, read back by a replay (lib/replay-entry.lua) and by views.
--
-- Each field of the entry is a record field f:<name> (lib/record.lua tells them from the record's
-- own). An entry of more than PACK_ABOVE fields (lib/fields.lua) is kept packed in one field,
-- snapshot=packed and snapshot-packed, so no entry Redis accepts is too big to park; an entry
-- trimmed before it was parked leaves snapshot=missing, and the record of what is still known.

-- Appends to `args` the snapshot of an entry's fields (name, value, ...; nil: it was trimmed).
local function addSnapshot(args, fields)
  if not fields then
    args[#args + 1] = 'snapshot'
    args[#args + 1] = 'missing'
  elseif #fields > 2 * PACK_ABOVE then
    args[#args + 1] = 'snapshot'
    args[#args + 1] = 'packed'
    args[#args + 1] = 'snapshot-packed'
    args[#args + 1] = packFields(fields)
  else
    for j = 1, #fields, 2 do
      args[#args + 1] = 'f:' .. fields[j]
      args[#args + 1] = fields[j + 1]
    end
  end
end

-- The snapshot as name, value, ... whatever its form: f: fields, or packed, with a packed replay's
-- redrive-packed field (the first field, where lib/replay-entry.lua writes it) unpacked in place.
-- `flat` is the record's entry, `record` and `snapshot` what recordOf (lib/record.lua) made of it.
-- nil when the record can't be replayed (a packed snapshot that does not decode, no origin id):
-- the callers look before anything is written, so it is refused or skipped.
local function snapshotFields(flat, record, snapshot)
  if not record['origin-id'] then
    return nil
  end
  local fields = {}
  if record['snapshot-packed'] and not unpackFields(record['snapshot-packed'], fields) then
    return nil
  end
  for _, i in ipairs(snapshot) do
    fields[#fields + 1] = string.sub(flat[i], 3)
    fields[#fields + 1] = flat[i + 1]
  end
  if fields[1] == 'redrive-packed' then
    local inner = {}
    if unpackFields(fields[2], inner) then
      for k = 3, #fields do
        inner[#inner + 1] = fields[k]
      end
      return inner
    end
  end
  return fields
end

-- A record's fields as views show them: `flat` with a decodable `snapshot-packed` item replaced by
-- its f:<name>, value items, so an operator sees the job either way (the entry stays as stored);
-- `flat` itself when there is none (or it does not decode: then it is shown as stored).
local function viewFields(flat)
  for i = 1, #flat, 2 do
    if flat[i] == 'snapshot-packed' then
      local inner = {}
      if not unpackFields(flat[i + 1], inner) then
        return flat
      end
      local out = {}
      for j = 1, i - 1 do
        out[#out + 1] = flat[j]
      end
      for j = 1, #inner, 2 do
        out[#out + 1] = 'f:' .. inner[j]
        out[#out + 1] = inner[j + 1]
      end
      for j = i + 2, #flat do
        out[#out + 1] = flat[j]
      end
      return out
    end
  end
  return flat
end
