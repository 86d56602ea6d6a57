#!lua
-- uses lib/record.lua
-- uses lib/replay-entry.lua
-- replay.lua: send one dead letter back to its origin stream, answering its Idempotency-Key.
--
-- The key's earlier answer is looked up in the same step as the replay, and the entry is read
-- here too: of concurrent requests with one key, one replays and every other gets its answer, and
-- two operators replaying one entry at once get one job between them (lib/replay-entry.lua).
-- Every key it would write is checked for its type before the first write.
--
-- KEYS[1]  dead-letter stream
-- KEYS[2]  its stats hash                                  (every key in KEYS[1]'s hash slot)
-- KEYS[3]  its audit stream
-- KEYS[4]  the answer key of the request's Idempotency-Key (any key of the slot when there is none)
-- KEYS[5]  the replay ledger: hash "<origin> <new id>" -> "<replays> <task key>"
-- KEYS[6]  the ledger's times (zset of the same fields by ms)
-- KEYS[7..] every stream a replay may write to in this hash slot
-- ARGV[1]  entry id
-- ARGV[2]  who asks (for the audit record)
-- ARGV[3]  when (ISO-8601)
-- ARGV[4]  note (may be '')
-- ARGV[5]  the request's Idempotency-Key, or ''
-- ARGV[6]  seconds its answer is kept
-- ARGV[7]  the replay span's traceparent, written into the new entry and its audit record
--          ('' with tracing off: the entry keeps the producer's traceparent)
-- ARGV[8..] patched or added fields as name, value pairs (values are any bytes)
--
-- Returns { 'replayed', new id, origin, the record's last-attempt-trace ('' when none) }
--         { 'again', new id, stream }   (same Idempotency-Key, same entry: its first answer)
--         { 'key-reused', entry id }    (the key answered another entry)
--         { 'gone' }                    (never parked, or already replayed or discarded)
--         { 'no-snapshot' }             (trimmed before it was parked)
--         { 'unreadable' }              (no origin id, or a packed snapshot that does not decode:
--                                        nothing written)
--         { 'not-writable', origin }    (the record's origin is none of KEYS[7..])
--         { 'wrong-type', sentence }    (a key it would write is of another type: nothing written)

local dlq, answerKey = KEYS[1], KEYS[4]
local id, idemKey, ttl, traceparent = ARGV[1], ARGV[5], ARGV[6], ARGV[7]

if idemKey ~= '' then
  local prior = redis.call('GET', answerKey)
  if prior then
    local sep = string.find(prior, ' ', 1, true)
    local sep2 = string.find(prior, ' ', sep + 1, true)
    if string.sub(prior, 1, sep - 1) == id then
      return { 'again', string.sub(prior, sep + 1, sep2 - 1), string.sub(prior, sep2 + 1) }
    end
    return { 'key-reused', string.sub(prior, 1, sep - 1) }
  end
end
local flat = entryFields(dlq, id)
if not flat then
  return { 'gone' }
end
local record, snapshot = recordOf(flat)
local origin = record['origin-stream'] or ''
local writable = false
for i = 7, #KEYS do
  writable = writable or KEYS[i] == origin
end
if not writable then
  return { 'not-writable', origin }
end
if record['snapshot'] == 'missing' then
  return { 'no-snapshot' }
end
local old = snapshotFields(flat, record, snapshot)
if not old then
  return { 'unreadable' }
end
local how = { dlq = dlq, stats = KEYS[2], audit = KEYS[3], ledger = KEYS[5], ledgerAt = KEYS[6], actor = ARGV[2],
  at = ARGV[3], note = ARGV[4], task = '', taskKey = '', patch = {}, patchOrder = {}, traceparent = traceparent }
local refusal = replayRefusal(how, { origin }, idemKey ~= '' and { { answerKey, 'string' } } or {})
if refusal then
  return { 'wrong-type', refusal }
end
for i = 8, #ARGV, 2 do
  if how.patch[ARGV[i]] == nil then
    how.patchOrder[#how.patchOrder + 1] = ARGV[i]
  end
  how.patch[ARGV[i]] = ARGV[i + 1]
end
local newId = replayEntry(id, old, record, origin, how)
finishReplays(how)
if idemKey ~= '' then
  redis.call('SET', answerKey, id .. ' ' .. newId .. ' ' .. origin, 'EX', tonumber(ttl))
end
return { 'replayed', newId, origin, record['last-attempt-trace'] or '' }
