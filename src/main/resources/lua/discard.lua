#!lua
-- uses lib/fields.lua
-- uses lib/counters.lua
-- uses lib/record.lua
-- discard.lua: drop one parked job on purpose, leaving it in the audit trail.
--
-- A discard is never a silent drop: the audit record keeps the whole dead-letter record,
-- snapshot included (as record:<field>; a snapshot of more than PACK_ABOVE fields packed in
-- record:snapshot-packed, as dead-letter.lua packs it), with who discarded it and why. Copy,
-- delete and count-out happen in one step, so the job is never lost in between or discarded
-- twice; the key types are checked first, so the entry is never deleted without its audit record.
--
-- KEYS[1]  dead-letter stream
-- KEYS[2]  its stats hash    (same hash slot)
-- KEYS[3]  its audit stream  (same hash slot)
-- ARGV[1]  dead-letter entry id
-- ARGV[2]  who asks (the principal)
-- ARGV[3]  when (ISO-8601)
-- ARGV[4]  reason (required by the API)
--
-- Returns { 'discarded', audit entry id }
--         { 'gone' }                    (never parked, or already replayed or discarded)
--         { 'wrong-type', sentence }    (a key it would write holds another type: nothing written)

local dlq, stats, audit = KEYS[1], KEYS[2], KEYS[3]
local id, actor, at, reason = ARGV[1], ARGV[2], ARGV[3], ARGV[4]

local refusal = wrongType({ { dlq, 'stream' }, { stats, 'hash' }, { audit, 'stream' } })
if refusal then
  return { 'wrong-type', refusal }
end
local flat = entryFields(dlq, id)
if not flat then
  return { 'gone' }
end

local record = recordOf(flat)
local snapshot = {}
local args = { audit, '*', 'action', 'discard', 'actor', actor, 'at', at, 'note', reason, 'dlq', dlq, 'dlq-id', id }
for i = 1, #flat, 2 do
  if #flat > 2 * PACK_ABOVE and isSnapshotField(flat[i]) then
    snapshot[#snapshot + 1] = string.sub(flat[i], 3)
    snapshot[#snapshot + 1] = flat[i + 1]
  else
    args[#args + 1] = 'record:' .. flat[i]
    args[#args + 1] = flat[i + 1]
  end
end
if #snapshot > 0 then
  args[#args + 1] = 'record:snapshot'
  args[#args + 1] = 'packed'
  args[#args + 1] = 'record:snapshot-packed'
  args[#args + 1] = packFields(snapshot)
end
args[#args + 1] = 'origin-stream'
args[#args + 1] = record['origin-stream'] or ''
args[#args + 1] = 'origin-id'
args[#args + 1] = record['origin-id'] or ''
local auditId = redis.call('XADD', unpack(args))
redis.call('XDEL', dlq, id)

countDeadLetter(-1, record['failure'] or '', record['origin-stream'] or '', record['fingerprint'] or '',
  record['job'] or '')
flushCounts(stats)
return { 'discarded', auditId }
