-- lib/record.lua: how a dead-letter entry is read (replay.lua, discard.lua, list.lua and the
-- redrive scripts, and dead-letter.lua the record it is about to write). Its fields are the record's own (origin-stream, failure, dead-at, ...) and the
-- snapshot of the origin entry, each snapshot field prefixed f: (or the whole snapshot packed in
-- snapshot-packed, see dead-letter.lua).

local function isSnapshotField(name)
  local f, colon = string.byte(name, 1, 2) -- one call for both bytes: this runs for every field read
  return f == 102 and colon == 58 -- 'f:'
end

-- The fields of one entry as name, value, ..., or nil when there is no such entry.
local function entryFields(stream, id)
  local entry = redis.call('XRANGE', stream, id, id)
  return entry[1] and entry[1][2]
end

-- Whether each field name read so far is a snapshot field: a page's entries share their names,
-- so each name is looked at once per call.
local snapshotNames = {}

-- The record's own fields by name, and where the snapshot's fields are in the entry.
local function recordOf(flat)
  local record, snapshot = {}, {}
  for i = 1, #flat, 2 do
    local name = flat[i]
    local inSnapshot = snapshotNames[name]
    if inSnapshot == nil then
      inSnapshot = isSnapshotField(name)
      snapshotNames[name] = inSnapshot
    end
    if inSnapshot then
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

-- A record field's value among XADD's arguments (name, value pairs after the key and '*'), '' if
-- absent. The records of one call share their layout: where a name was found for one is checked,
-- not searched again, for the next (a search per job and field was 5% of a parked job's cost).
local fieldAt = {}
local function recordValue(args, name)
  local at = fieldAt[name]
  if at and args[at] == name then
    return args[at + 1]
  end
  for j = 3, #args - 1, 2 do
    if args[j] == name then
      fieldAt[name] = j
      return args[j + 1]
    end
  end
  return ''
end
