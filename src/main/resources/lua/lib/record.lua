-- lib/record.lua: how a dead-letter entry is read (replay.lua, discard.lua, list.lua and the
-- redrive scripts). Its fields are the record's own (origin-stream, failure, dead-at, ...) and the
-- snapshot of the origin entry, each snapshot field prefixed f: (or the whole snapshot packed in
-- snapshot-packed, see dead-letter.lua).

local function isSnapshotField(name)
  return string.byte(name, 1) == 102 and string.byte(name, 2) == 58 -- 'f:'
end

-- The fields of one entry as name, value, ..., or nil when there is no such entry.
local function entryFields(stream, id)
  local entry = redis.call('XRANGE', stream, id, id)
  return entry[1] and entry[1][2]
end

-- The record's own fields by name, and where the snapshot's fields are in the entry.
local function recordOf(flat)
  local record, snapshot = {}, {}
  for i = 1, #flat, 2 do
    local name = flat[i]
    if isSnapshotField(name) then
      snapshot[#snapshot + 1] = i
    else
      record[name] = flat[i + 1]
    end
  end
  return record, snapshot
end

local function isRecordField(name)
  return not isSnapshotField(name)
end
