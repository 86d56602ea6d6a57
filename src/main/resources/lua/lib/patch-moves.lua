-- uses lib/patch.lua
-- lib/patch-moves.lua: what redrive-step.lua writes for a patched redrive besides the moves.
--
-- Each patched move gets its own audit record (action redrive-patch) holding the original value of
-- every patched field the entry had, as record:f:<name> (the discard record's names, which every
-- audit view masks for redrive.console.redact-fields, api/RedactedFields), so the job as it was parked stays findable from the new entry
-- (its replay-of names the dead letter, the record names both). Entries the patch could not apply
-- to are listed in the task's skipped-entries, "<id> <reason>" a line, the first SKIPS_LISTED only,
-- so the task hash stays small however many are skipped.

local SKIPS_LISTED = 100

-- The fields to move for the snapshot `old` (nil: none to move) under `patch` (nil: none), or nil
-- and why the patch can't apply to it.
local function movedFields(old, patch)
  if old and patch then
    return patchFields(old, patch)
  end
  return old, nil
end

-- Names the patched fields in the step's audit record (XADD's arguments so far), if it patches.
local function notePatched(record, patch)
  if patch then
    record[#record + 1] = 'patched'
    record[#record + 1] = table.concat(patch.names, ',')
  end
end

-- The audit record of one patched move; `how` as lib/replay-entry.lua takes it, `old` the snapshot.
local function auditPatch(how, patch, id, newId, old)
  local args = { how.audit, '*', 'action', 'redrive-patch', 'actor', how.actor, 'at', how.at, 'dlq', how.dlq, 'dlq-id', id,
    'new-id', newId, 'task', how.task, 'patched', table.concat(patch.names, ',') }
  local wanted = {}
  for _, name in ipairs(patch.names) do
    wanted[name] = true
  end
  for j = 1, #old, 2 do
    if wanted[old[j]] then
      args[#args + 1] = 'record:f:' .. old[j]
      args[#args + 1] = old[j + 1]
      wanted[old[j]] = false
    end
  end
  redis.call('XADD', unpack(args))
end

-- Adds `lines` to the task's list of skipped entries, up to SKIPS_LISTED in all.
local function listSkips(task, lines)
  if #lines == 0 then
    return
  end
  local listed = redis.call('HGET', task, 'skipped-entries') or ''
  local _, count = string.gsub(listed, '\n', '')
  for i = 1, math.min(#lines, SKIPS_LISTED - count) do
    listed = listed .. lines[i] .. '\n'
  end
  redis.call('HSET', task, 'skipped-entries', listed)
end
