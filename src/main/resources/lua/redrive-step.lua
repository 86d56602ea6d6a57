#!lua
-- uses lib/record.lua
-- uses lib/filter.lua
-- uses lib/task.lua
-- uses lib/replay-entry.lua
-- uses lib/patch-moves.lua
-- redrive-step.lua: move the next page of a redrive's matching dead letters back to their origins.
--
-- A redrive runs here page by page: its entries never travel to the service and back, and its
-- cursor and counters change in the same step as the moves, so a runner that dies or loses its
-- lease can neither skip an entry nor move one twice. Each move is lib/replay-entry.lua, the step
-- of a single replay; the filter is lib/filter.lua, the listing's and the count's own.
-- In the canary phase it moves no more than the canary still needs and lists what it moved; the
-- phase is done when the canary is full (over as many steps as the pace takes) or the end is
-- reached. One audit record (action redrive-moves) names every move of the step, one line each:
-- dead-letter id, new id, origin id, origin stream. Matching entries it can't move (origin not
-- writable here, no snapshot, unreadable) count as skipped; an origin of another type than a stream is
-- named in the task's skip-reason.
-- A task's patch (lib/patch-moves.lua) changes each entry in the step that moves it, never twice.
-- Moved dead letters are deleted in the same step; those that open the stream (a bulk replay of
-- everything moves nothing else) go with one XTRIM MINID instead of an XDEL each.
--
-- KEYS[1]  dead-letter stream
-- KEYS[2]  its stats hash                        (every key in KEYS[1]'s hash slot)
-- KEYS[3]  its audit stream
-- KEYS[4]  the redrive task hash
-- KEYS[5]  the task's canary list ("<origin> <new id>" of each canary job)
-- KEYS[6]  the replay ledger (lib/replay-entry.lua)
-- KEYS[7]  the ledger's times
-- KEYS[8..] every stream a replay may write to in this hash slot
-- ARGV[1..8] the filter (lib/filter.lua)
-- ARGV[9]  the runner (must hold the task, in state canary or running)
-- ARGV[10] who started the task
-- ARGV[11] when (ISO-8601)
-- ARGV[12] note
-- ARGV[13] task id
-- ARGV[14] entries to examine at most
-- ARGV[15] entries to move at most (the pace)
-- ARGV[16] the step's span's traceparent, written into every entry it moves and into its audit
--          record ('' with tracing off: the entries keep the producer's traceparent)
--
-- Returns { 'stopped' }             (finished, cancelled, or another runner holds it: nothing written)
--         { 'ok', done, moved, traces } (done: 1 when the canary is full or the task's end is reached;
--                                    traces: the last-attempt-trace of each moved record that has one)
-- Errors: a key it would write (but an origin) is of another type; found before the first write, nothing
--         moved. An origin of another type only skips its own entries.

local dlq, task, canaryList = KEYS[1], KEYS[4], KEYS[5]
local filter, owner, budget, limit = filterAt(1), ARGV[9], tonumber(ARGV[14]), tonumber(ARGV[15])

local held, state = holds(task, owner, { canary = true, running = true })
if not held then
  return { 'stopped' }
end
local canary = state == 'canary'
local patch = patchOf(redis.call('HGET', task, 'patch'))
-- The pace bounds a step, not the canary: the canary phase ends when the canary is full, which
-- may take several steps.
local canaryLeft
if canary then
  canaryLeft = tonumber(redis.call('HGET', task, 'canary')) - tonumber(redis.call('HGET', task, 'canary-moved') or '0')
  limit = math.min(limit, canaryLeft)
end
local writable = {}
for i = 8, #KEYS do
  writable[KEYS[i]] = true
end
local how = { dlq = dlq, stats = KEYS[2], audit = KEYS[3], ledger = KEYS[6], ledgerAt = KEYS[7], actor = ARGV[10],
  at = ARGV[11], note = ARGV[12], task = ARGV[13], taskKey = task, patch = {}, patchOrder = {}, moves = {},
  traceparent = ARGV[16] or '' }
local traces = {}
local refusal = replayRefusal(how, {}, { { task, 'hash' }, { canaryList, 'list' } })
if refusal then
  return redis.error_reply('redrive-step.lua: nothing moved: ' .. refusal)
end

local moved, skipped, cursor, skipReason = 0, 0, nil, nil
local skipLines = {}
local page = {}
if limit > 0 then
  page = redis.call('XRANGE', dlq, after(redis.call('HGET', task, 'cursor')), redis.call('HGET', task, 'until'),
    'COUNT', budget)
end
-- Only the origins of the entries this page would move are checked, each once, before the first
-- write: an origin of another type (SET on a queue's name) skips its own entries, with its reason,
-- and holds up no other origin's moves.
local unwritable = {}
for e = 1, #page do
  local origin = recordOf(page[e][2])['origin-stream']
  if writable[origin] and unwritable[origin] == nil then
    unwritable[origin] = wrongType({ { origin, 'stream' } }) or false
  end
end
local examined = 0
-- How many entries from the page's start were all moved: when the page opens the stream, they are
-- trimmed off its head in one call (finishReplays, lib/replay-entry.lua).
local opening = 0
for e = 1, #page do
  local entry = page[e]
  if moved >= limit then
    break
  end
  examined = examined + 1
  cursor = entry[1]
  local record, snapshot = recordOf(entry[2])
  if matches(filter, entry[1], record) then
    local origin = record['origin-stream']
    local old = writable[origin] and not unwritable[origin] and record['snapshot'] ~= 'missing'
      and snapshotFields(entry[2], record, snapshot)
    local patchedFields, why = movedFields(old, patch)
    if not patchedFields then
      skipped = skipped + 1
      skipReason = why or unwritable[origin] or skipReason
      skipLines[#skipLines + 1] = why and entry[1] .. ' ' .. why or nil
    else
      local newId = replayEntry(entry[1], patchedFields, record, origin, how)
      if patch then
        auditPatch(how, patch, entry[1], newId, old)
      end
      moved = moved + 1
      if opening == e - 1 then
        opening = e
      end
      if record['last-attempt-trace'] and record['last-attempt-trace'] ~= '' then
        traces[#traces + 1] = record['last-attempt-trace']
      end
      if canary then
        redis.call('RPUSH', canaryList, origin .. ' ' .. newId)
      end
    end
  end
end
finishReplays(how, page, opening)
if moved > 0 then
  local record = { how.audit, '*', 'action', 'redrive-moves', 'actor', how.actor, 'at', how.at, 'note', how.note,
    'dlq', dlq, 'task', how.task, 'count', moved, 'moves', table.concat(how.moves, '\n'),
    'trace-id', string.sub(how.traceparent, 4, 35) }
  notePatched(record, patch)
  redis.call('XADD', unpack(record))
end
if cursor then
  redis.call('HSET', task, 'cursor', cursor)
end
if moved > 0 then
  redis.call('HINCRBY', task, 'moved', moved)
  if canary then
    redis.call('HINCRBY', task, 'canary-moved', moved)
  end
end
if skipped > 0 then
  redis.call('HINCRBY', task, 'skipped', skipped)
end
if skipReason then
  redis.call('HSET', task, 'skip-reason', 'skipped entries: ' .. skipReason)
end
listSkips(task, skipLines)
local done = (canary and moved >= canaryLeft) or (examined == #page and #page < budget)
return { 'ok', done and 1 or 0, moved, traces }
