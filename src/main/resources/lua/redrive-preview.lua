#!lua flags=no-writes
-- uses lib/record.lua
-- uses lib/filter.lua
-- uses lib/snapshot.lua
-- uses lib/patch.lua
-- redrive-preview.lua: what a redrive's patch would do to its first matching entries, before and
-- after, written nowhere.
--
-- A dry run and a proposal show it, so an operator confirms and an approver approves what will be
-- written: the patch is lib/patch.lua, the moves' own, and the filter lib/filter.lua, theirs too.
-- Only the fields the patch changes are answered, each value cut to a view's value limit.
--
-- KEYS[1]  dead-letter stream
-- ARGV[1..8] the filter (lib/filter.lua)
-- ARGV[9]  the last entry id the redrive may move ('+': any)
-- ARGV[10] the patch, as its task stores it (lib/patch.lua)
-- ARGV[11] samples wanted at most
-- ARGV[12] entries to examine at most
-- ARGV[13] bytes of each value answered at most
--
-- Returns { id, reason ('' when it applies), { field, before?, before, before's length, after?,
--           after, after's length, ... } } for each sample, oldest first; before? and after? are
--           '1' when the field is there, '0' when absent (before) or removed (after).

local dlq, filter, untilId, patch = KEYS[1], filterAt(1), ARGV[9], patchOf(ARGV[10])
local wanted, budget, valueLimit = tonumber(ARGV[11]), tonumber(ARGV[12]), tonumber(ARGV[13])

local function valueOf(fields, name)
  for j = 1, #fields, 2 do
    if fields[j] == name then
      return fields[j + 1]
    end
  end
  return nil
end

local function side(changes, value)
  changes[#changes + 1] = value and '1' or '0'
  changes[#changes + 1] = value and string.sub(value, 1, valueLimit) or ''
  changes[#changes + 1] = value and #value or 0
end

local samples = {}
for _, entry in ipairs(redis.call('XRANGE', dlq, '-', untilId, 'COUNT', budget)) do
  if #samples >= wanted then
    break
  end
  local record, snapshot = recordOf(entry[2])
  local old = matches(filter, entry[1], record) and record['snapshot'] ~= 'missing'
    and snapshotFields(entry[2], record, snapshot)
  if old then
    local new, why = patchFields(old, patch)
    local changes = {}
    if new then
      for _, name in ipairs(patch.names) do
        local before, after = valueOf(old, name), valueOf(new, name)
        if before ~= after then
          changes[#changes + 1] = name
          side(changes, before)
          side(changes, after)
        end
      end
    end
    samples[#samples + 1] = { entry[1], why or '', changes }
  end
end
return samples
