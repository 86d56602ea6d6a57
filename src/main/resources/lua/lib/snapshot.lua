-- lib/snapshot.lua: a dead-letter record's snapshot as views see it (needs lib/fields.lua first).
--
-- A snapshot of more than PACK_ABOVE fields is stored packed in one `snapshot-packed` field
-- (dead-letter.lua). Views and downloads show it as the f:<name> fields of any other record, so an
-- operator sees the job either way; the entry stays as stored.
--
-- Returns `flat` with a decodable `snapshot-packed` item replaced by its f:<name>, value items,
-- or `flat` itself when there is none (or it does not decode: then it is shown as stored).
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
