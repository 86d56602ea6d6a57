#!lua
-- uses lib/fields.lua
-- uses lib/cut.lua
-- replay.lua: find dead letters and send them back to their origin stream.
--
-- One file holds the filter and the replay, so a listing, a redrive's count and a redrive's moves
-- can never disagree about which entries match, and a single replay and a bulk one are the same
-- step. A redrive runs here page by page: its entries never travel to the service and back, and
-- its cursor and counters change in the same step as the moves, so a runner that dies or loses
-- its lease can neither skip an entry nor move one twice.
--
-- Replaying an entry reads it here, so what goes back is the snapshot byte for byte (patched only
-- where the operator asked). Adding the new entry, deleting the dead letter, counting it out and
-- writing the audit record happen together: two operators replaying the same entry at the same
-- moment get one job between them, and a second replay finds the entry gone.
--
-- ARGV[1] says what to do; every key of a call is in the dead-letter stream's hash slot.
--
-- 'one': replay one entry.
--   KEYS  dead-letter stream, its stats hash, its audit stream, the answer key of the request's
--         Idempotency-Key (any key of the slot when there is none), the replay ledger and its times
--         (below), then every stream a replay may write to in this hash slot
--   ARGV  [2] entry id, [3] who asks (for the audit record), [4] when (ISO-8601), [5] note (may be ''),
--         [6] the request's Idempotency-Key or '', [7] seconds its answer is kept,
--         [8..] patched or added fields as name, value pairs (values are any bytes)
--   The key's earlier answer is looked up in the same step as the replay, and the entry is read
--   here too: of concurrent requests with one key, one replays and every other gets its answer.
--   Returns { 'replayed', new id, origin } | { 'again', new id, stream } (same Idempotency-Key, same
--         entry) | { 'key-reused', entry id } (the key answered another entry) | { 'gone' } (never
--         parked, or already replayed or discarded) | { 'no-snapshot' } (trimmed before it was parked)
--         | { 'not-writable', origin } (the record's origin is none of the writable streams)
--         | { 'unreadable' } (no origin id, or a packed snapshot that does not decode: nothing written)
--         | { 'wrong-type', sentence } (a key it would write is of another type: nothing written)
--
-- 'list': a page of matching entries, oldest or newest first, for a listing.
--   KEYS  dead-letter stream
--   ARGV  [2..8] the filter (below), [9] 'newest' or 'oldest', [10] cursor (exclusive) or '',
--         [11] entries wanted, [12] entries to examine at most, [13] bytes kept of each value,
--         [14] bytes kept of one entry and of the whole page (the page ends early past it)
--   Only the record's fields are returned, each cut short here so the reply stays bounded
--   whatever the snapshot holds (the rule of read-entries.lua); the snapshot is left out.
--   Returns { next cursor or '' at the end, entries examined,
--             { id, { name, value cut short, full length, ... }, fields left out }, ... }
--
-- 'count': the next page of a redrive's count.
--   KEYS  dead-letter stream, the redrive task hash
--   ARGV  [2..8] the filter, [9] the runner (must hold the task), [10] entries to examine at most
--   An empty filter is counted from the stream's length, less what was parked since the task began.
--   Returns { 'stopped' } (finished, cancelled, or another runner holds it) | { 'ok', 1 when done }
--
-- 'step': the next page of a redrive's moves.
--   KEYS  dead-letter stream, its stats hash, its audit stream, the redrive task hash, the task's
--         canary list, the replay ledger and its times (below), then every stream a replay may
--         write to in this hash slot
--   ARGV  [2..8] the filter, [9] the runner, [10] who started the task, [11] when, [12] note,
--         [13] task id, [14] entries to examine at most, [15] entries to move at most (the pace)
--   In the canary phase it moves no more than the canary still needs and lists what it moved; the
--   phase is done when the canary is full (over as many steps as the pace takes) or the end is reached.
--   One audit record (action redrive-moves) names every move of the step, one line each:
--   dead-letter id, new id, origin id, origin stream.
--   Matching entries it can't move (origin not writable here, no snapshot, unreadable) count as skipped.
--   Returns { 'stopped' } | { 'ok', 1 when done (the canary is full, or the task's end is
--   reached), entries moved }
--
-- Every replay writes what it put in the new entry for itself into the ledger (a hash of
-- "<origin> <new id>" -> "<replays> <task key>") and its times (a zset of the same fields by ms):
-- dead-letter.lua believes a job's replay count and redrive task from there only, never from
-- the entry's own redrive-replays and redrive-task fields, which any producer can write.
-- A replay of more than PACK_ABOVE fields (lib/fields.lua) goes back packed in the one field
-- redrive-packed, beside the fields redrive adds; redrive's own worker unpacks it.
-- Errors: a key of the wrong type is found before the first write ('wrong-type', or an error
-- reply from 'step'), so nothing is ever half done.
--
-- The filter, '' meaning any: origin stream, job, failure kind, fingerprint, dead from (inclusive)
-- and dead to (exclusive) as normalised times (below), entry ids comma-separated.

local mode = ARGV[1]
local dlq = KEYS[1]

-- Fields redrive itself sets on the new entry; a stale copy in the snapshot is dropped.
local own = { ['replay-of'] = true, ['redrive-replays'] = true, ['redrive-task'] = true, ['redrive-packed'] = true }

-- The record's own fields by name, and where the snapshot's fields (prefixed f:) are in the entry.
local function recordOf(flat)
  local record, snapshot = {}, {}
  for i = 1, #flat, 2 do
    local name = flat[i]
    if string.byte(name, 1) == 102 and string.byte(name, 2) == 58 then -- 'f:'
      snapshot[#snapshot + 1] = i
    else
      record[name] = flat[i + 1]
    end
  end
  return record, snapshot
end

-- An ISO-8601 instant as Java writes it (0, 3, 6 or 9 fraction digits) made comparable as text:
-- 2024-05-01T12:00:00.500000000. Unreadable text matches no time range.
local function normalise(t)
  if not t then
    return nil
  end
  local base, fraction = string.match(t, '^(%d%d%d%d%-%d%d%-%d%dT%d%d:%d%d:%d%d)%.?(%d*)Z$')
  if not base or #fraction > 9 then
    return nil
  end
  return base .. '.' .. fraction .. string.rep('0', 9 - #fraction)
end

local function filterAt(at)
  local f = { origin = ARGV[at], job = ARGV[at + 1], failure = ARGV[at + 2], fingerprint = ARGV[at + 3],
    from = ARGV[at + 4], to = ARGV[at + 5] }
  if ARGV[at + 6] ~= '' then
    f.ids = {}
    for one in string.gmatch(ARGV[at + 6], '[^,]+') do
      f.ids[one] = true
    end
  end
  f.any = not f.ids and f.origin == '' and f.job == '' and f.failure == '' and f.fingerprint == '' and f.from == ''
    and f.to == ''
  return f
end

local function matches(f, id, record)
  if f.origin ~= '' and record['origin-stream'] ~= f.origin then return false end
  if f.job ~= '' and record['job'] ~= f.job then return false end
  if f.failure ~= '' and record['failure'] ~= f.failure then return false end
  if f.fingerprint ~= '' and record['fingerprint'] ~= f.fingerprint then return false end
  if f.ids and not f.ids[id] then return false end
  if f.from ~= '' or f.to ~= '' then
    local dead = normalise(record['dead-at'])
    if not dead or (f.from ~= '' and dead < f.from) or (f.to ~= '' and dead >= f.to) then return false end
  end
  return true
end

-- Deletions and counter changes are gathered and applied once at the end of a call.
local stats, audit = KEYS[2], KEYS[3]
-- The replay ledger and its times: KEYS[6] and KEYS[7] of a redrive's step; 'one' sets its own below.
local ledger, ledgerAt = KEYS[6], KEYS[7]
local deleted, deltas, deltaOrder, ledgerItems, ledgerTimes = {}, {}, {}, {}, {}
local function countOut(field)
  if deltas[field] == nil then
    deltas[field] = 0
    deltaOrder[#deltaOrder + 1] = field
  end
  deltas[field] = deltas[field] - 1
end

local function flush()
  inSlices('XDEL', dlq, deleted)
  inSlices('HSET', ledger, ledgerItems)
  inSlices('ZADD', ledgerAt, ledgerTimes)
  for _, field in ipairs(deltaOrder) do
    if addTo(stats, field, deltas[field]) <= 0 then
      if string.sub(field, 1, 12) == 'fingerprint:' then
        redis.call('HDEL', stats, 'fingerprint-text:' .. string.sub(field, 13))
      end
    end
  end
end

-- The snapshot as name, value, ... whatever its form: f: fields, or packed by dead-letter.lua,
-- with a packed replay's redrive-packed field (the first field, where this script writes it)
-- unpacked in place. nil when the record can't be replayed (a packed snapshot that does not
-- decode, no origin id): that is found before anything is written, so it is refused or skipped.
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

-- Why a replay to these origins can't write every key it would, or nil: checked before the first write.
local function replayRefusal(origins, others)
  local wanted = { { stats, 'hash' }, { audit, 'stream' }, { ledger, 'hash' }, { ledgerAt, 'zset' } }
  for _, w in ipairs(others) do
    wanted[#wanted + 1] = w
  end
  for _, origin in ipairs(origins) do
    wanted[#wanted + 1] = { origin, 'stream' }
  end
  return wrongType(wanted)
end

-- Sends one entry back to its origin: a new entry there, the dead letter gone, counted out and
-- audited, and what redrive wrote for itself recorded in the ledger. `how` carries who, when,
-- note, patch and task (key and id), and for a redrive's step the list its moves are gathered in
-- (one audit record per step). `old` is what snapshotFields found; returns the new entry id.
local function replayEntry(id, old, record, origin, how)
  -- The XADD's arguments are built in place (most replays fit one command); only a replay of more
  -- than PACK_ABOVE fields is packed afterwards.
  local args, present = { origin, '*' }, {}
  for j = 1, #old, 2 do
    local name = old[j]
    if not own[name] then
      args[#args + 1] = name
      if how.patch[name] ~= nil then
        args[#args + 1] = how.patch[name]
      else
        args[#args + 1] = old[j + 1]
      end
      present[name] = true
    end
  end
  for _, name in ipairs(how.patchOrder) do
    if not present[name] and not own[name] then
      args[#args + 1] = name
      args[#args + 1] = how.patch[name]
      present[name] = true
    end
  end
  -- Handlers deduplicate on this key: a replay must look like the same job, not a new one.
  if not present['idempotency-key'] then
    args[#args + 1] = 'idempotency-key'
    args[#args + 1] = origin .. '/' .. record['origin-id']
  end
  if #args - 2 > 2 * PACK_ABOVE then
    args = { origin, '*', 'redrive-packed', packFields(args, 3, #args) }
  end
  local replays = tostring((tonumber(record['replays']) or 0) + 1)
  args[#args + 1] = 'replay-of'
  args[#args + 1] = dlq .. '/' .. id
  args[#args + 1] = 'redrive-replays'
  args[#args + 1] = replays
  if how.task ~= '' then
    args[#args + 1] = 'redrive-task'
    args[#args + 1] = dlq .. '/' .. how.task
  end

  local newId = redis.call('XADD', unpack(args))
  local ledgerField = origin .. ' ' .. newId
  ledgerItems[#ledgerItems + 1] = ledgerField
  ledgerItems[#ledgerItems + 1] = replays .. ' ' .. how.taskKey
  ledgerTimes[#ledgerTimes + 1] = string.match(newId, '^%d+')
  ledgerTimes[#ledgerTimes + 1] = ledgerField
  deleted[#deleted + 1] = id
  countOut('parked')
  countOut('failure:' .. (record['failure'] or ''))
  countOut('origin:' .. origin)
  countOut('fingerprint:' .. (record['fingerprint'] or ''))
  if how.moves then
    how.moves[#how.moves + 1] = id .. ' ' .. newId .. ' ' .. (record['origin-id'] or '') .. ' ' .. origin
  else
    redis.call('XADD', audit, '*', 'action', 'replay', 'actor', how.actor, 'at', how.at, 'note', how.note,
      'dlq', dlq, 'dlq-id', id, 'new-id', newId, 'origin-stream', origin, 'origin-id', record['origin-id'] or '',
      'patched', table.concat(how.patchOrder, ','))
  end
  return newId
end

-- A redrive's runner goes on only while it holds the task in the state it works on.
local function holds(task, owner, states)
  local state = redis.call('HGET', task, 'state')
  return states[state] and redis.call('HGET', task, 'owner') == owner, state
end

local function after(cursor)
  return (cursor and cursor ~= '') and '(' .. cursor or '-'
end

if mode == 'one' then
  local answerKey = KEYS[4]
  ledger, ledgerAt = KEYS[5], KEYS[6]
  local id, idemKey, ttl = ARGV[2], ARGV[6], ARGV[7]
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
  local entry = redis.call('XRANGE', dlq, id, id)
  if #entry == 0 then
    return { 'gone' }
  end
  local flat = entry[1][2]
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
  local refusal = replayRefusal({ origin }, idemKey ~= '' and { { answerKey, 'string' } } or {})
  if refusal then
    return { 'wrong-type', refusal }
  end
  local how = { actor = ARGV[3], at = ARGV[4], note = ARGV[5], task = '', taskKey = '', patch = {}, patchOrder = {} }
  for i = 8, #ARGV, 2 do
    if how.patch[ARGV[i]] == nil then
      how.patchOrder[#how.patchOrder + 1] = ARGV[i]
    end
    how.patch[ARGV[i]] = ARGV[i + 1]
  end
  local newId = replayEntry(id, old, record, origin, how)
  flush()
  if idemKey ~= '' then
    redis.call('SET', answerKey, id .. ' ' .. newId .. ' ' .. origin, 'EX', tonumber(ttl))
  end
  return { 'replayed', newId, origin }
end

local filter = filterAt(2)

-- The record's fields of an entry (not the snapshot's f: fields) cut short by lib/cut.lua's rule.
local function isRecordField(name)
  return not (string.byte(name, 1) == 102 and string.byte(name, 2) == 58) -- not 'f:'
end

local function cutRecord(id, flat, valueLimit, entryLimit)
  local cut, leftOut, used = cutFields(flat, valueLimit, entryLimit, isRecordField)
  return { id, cut, leftOut }, used
end

if mode == 'list' then
  local newest, cursor, wanted, budget = ARGV[9] == 'newest', ARGV[10], tonumber(ARGV[11]), tonumber(ARGV[12])
  local valueLimit, byteLimit = tonumber(ARGV[13]), tonumber(ARGV[14])
  local out = { '', 0 }
  local examined, found, bytes = 0, 0, 0
  while examined < budget do
    local ask = math.min(100, budget - examined)
    local page
    if newest then
      page = redis.call('XREVRANGE', dlq, cursor ~= '' and '(' .. cursor or '+', '-', 'COUNT', ask)
    else
      page = redis.call('XRANGE', dlq, after(cursor), '+', 'COUNT', ask)
    end
    for _, entry in ipairs(page) do
      examined = examined + 1
      cursor = entry[1]
      if matches(filter, entry[1], recordOf(entry[2])) then
        local cut, size = cutRecord(entry[1], entry[2], valueLimit, byteLimit)
        out[#out + 1] = cut
        found, bytes = found + 1, bytes + size
        if found == wanted or bytes >= byteLimit then
          out[1], out[2] = cursor, examined
          return out
        end
      end
    end
    if #page < ask then
      out[2] = examined
      return out
    end
  end
  out[1], out[2] = cursor, examined
  return out
end

if mode == 'count' then
  local task, owner, budget = KEYS[2], ARGV[9], tonumber(ARGV[10])
  if not holds(task, owner, { counting = true }) then
    return { 'stopped' }
  end
  local untilId = redis.call('HGET', task, 'until')
  if filter.any then
    -- Everything up to the task's end matches: the length less what was parked since it began,
    -- without reading every entry (unless a page's worth was parked meanwhile).
    local newer = redis.call('XREVRANGE', dlq, '+', '(' .. untilId, 'COUNT', budget)
    if #newer < budget then
      redis.call('HSET', task, 'matched', redis.call('XLEN', dlq) - #newer)
      return { 'ok', 1 }
    end
  end
  local page = redis.call('XRANGE', dlq, after(redis.call('HGET', task, 'count-cursor')), untilId, 'COUNT', budget)
  local matched = 0
  for _, entry in ipairs(page) do
    if matches(filter, entry[1], recordOf(entry[2])) then
      matched = matched + 1
    end
  end
  if #page > 0 then
    redis.call('HSET', task, 'count-cursor', page[#page][1])
    redis.call('HINCRBY', task, 'matched', matched)
  end
  return { 'ok', #page < budget and 1 or 0 }
end

if mode == 'step' then
  local task, canaryList = KEYS[4], KEYS[5]
  local owner, budget, limit = ARGV[9], tonumber(ARGV[14]), tonumber(ARGV[15])
  local held, state = holds(task, owner, { canary = true, running = true })
  if not held then
    return { 'stopped' }
  end
  local canary = state == 'canary'
  -- The pace bounds a step, not the canary: the canary phase ends when the canary is full, which
  -- may take several steps.
  local canaryLeft
  if canary then
    canaryLeft = tonumber(redis.call('HGET', task, 'canary')) - tonumber(redis.call('HGET', task, 'canary-moved') or '0')
    limit = math.min(limit, canaryLeft)
  end
  local writable, origins = {}, {}
  for i = 8, #KEYS do
    writable[KEYS[i]] = true
    origins[#origins + 1] = KEYS[i]
  end
  local refusal = replayRefusal(origins, { { task, 'hash' }, { canaryList, 'list' } })
  if refusal then
    return redis.error_reply('replay.lua: nothing moved: ' .. refusal)
  end
  local how = { actor = ARGV[10], at = ARGV[11], note = ARGV[12], task = ARGV[13], taskKey = task, patch = {},
    patchOrder = {}, moves = {} }
  local moved, skipped, cursor = 0, 0, nil
  local page = {}
  if limit > 0 then
    page = redis.call('XRANGE', dlq, after(redis.call('HGET', task, 'cursor')), redis.call('HGET', task, 'until'),
      'COUNT', budget)
  end
  local examined = 0
  for _, entry in ipairs(page) do
    if moved >= limit then
      break
    end
    examined = examined + 1
    cursor = entry[1]
    local record, snapshot = recordOf(entry[2])
    if matches(filter, entry[1], record) then
      local origin = record['origin-stream']
      local old = writable[origin] and record['snapshot'] ~= 'missing' and snapshotFields(entry[2], record, snapshot)
      if not old then
        skipped = skipped + 1
      else
        local newId = replayEntry(entry[1], old, record, origin, how)
        moved = moved + 1
        if canary then
          redis.call('RPUSH', canaryList, origin .. ' ' .. newId)
        end
      end
    end
  end
  flush()
  if moved > 0 then
    redis.call('XADD', audit, '*', 'action', 'redrive-moves', 'actor', how.actor, 'at', how.at, 'note', how.note,
      'dlq', dlq, 'task', how.task, 'count', moved, 'moves', table.concat(how.moves, '\n'))
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
  local done = (canary and moved >= canaryLeft) or (examined == #page and #page < budget)
  return { 'ok', done and 1 or 0, moved }
end

return redis.error_reply('replay.lua: unknown mode ' .. tostring(mode))
