-- replay.lua: send one parked job back to its origin stream, in one atomic step.
--
-- Reads the dead-letter entry here, so what goes back is the snapshot byte for byte (patched
-- only where the operator asked). Adding the new entry, deleting the dead letter, counting it out
-- and writing the audit record happen together: two operators replaying the same entry at the
-- same moment get one job between them, and a second replay finds the entry gone.
--
-- KEYS[1]  dead-letter stream
-- KEYS[2]  its stats hash                  (same hash slot)
-- KEYS[3]  its audit stream                (same hash slot)
-- KEYS[4]  the origin stream the record names (same hash slot; the caller checks)
-- KEYS[5]  the answer key of the request's Idempotency-Key (same hash slot; unused when ARGV[5] is '')
-- KEYS[6]  optional: the redrive task hash this move belongs to (same hash slot)
-- ARGV[1]  dead-letter entry id; a bulk redrive passes several, comma-separated, in stream order,
--          all of one origin (then ARGV[5] is '' and there is no patch). A batch is read with one
--          XRANGE and deleted and counted out with one call per key, so a move costs Redis a
--          fraction of a single replay; each entry still gets its own new entry and audit record.
-- ARGV[2]  who asks (the principal, for the audit record)
-- ARGV[3]  when (ISO-8601, for the audit record)
-- ARGV[4]  note (why; may be '')
-- ARGV[5]  the request's Idempotency-Key, or ''
-- ARGV[6]  seconds the answer to that key is kept
-- ARGV[7]  redrive task id, or '' (tags the new entry with redrive-task = <dlq>/<task>)
-- ARGV[8..] patched or added fields, as name, value pairs (values are any bytes)
--
-- Returns, for one id, an array whose first item names the outcome; for several,
--   { 'batch', { outcome of the first id }, { outcome of the second }, ... }
-- Outcomes:
--   { 'replayed', new entry id }
--   { 'again', new entry id, stream } the same Idempotency-Key already replayed this entry
--   { 'key-reused', entry id }   the Idempotency-Key was used for another entry
--   { 'gone' }                   no such dead-letter entry (never parked, or already replayed or discarded)
--   { 'no-snapshot' }            the job was trimmed before it was parked: nothing to send back
--   { 'origin-mismatch', origin } KEYS[4] is not the record's origin stream

local dlq, stats, audit, origin, answerKey, task = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local ids, actor, at, note, idemKey, ttl, taskId = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6], ARGV[7]

if idemKey ~= '' then
  local prior = redis.call('GET', answerKey)
  if prior then
    local sep = string.find(prior, ' ', 1, true)
    local sep2 = string.find(prior, ' ', sep + 1, true)
    if string.sub(prior, 1, sep - 1) == ids then
      return { 'again', string.sub(prior, sep + 1, sep2 - 1), string.sub(prior, sep2 + 1) }
    end
    return { 'key-reused', string.sub(prior, 1, sep - 1) }
  end
end

local patch, patchOrder = {}, {}
for i = 8, #ARGV, 2 do
  if patch[ARGV[i]] == nil then
    patchOrder[#patchOrder + 1] = ARGV[i]
  end
  patch[ARGV[i]] = ARGV[i + 1]
end


-- Fields redrive itself sets on the new entry; a stale copy in the snapshot is dropped.
local own = { ['replay-of'] = true, ['redrive-replays'] = true, ['redrive-task'] = true }

-- Deletions and counter changes are gathered and applied once at the end.
local deleted, deltas, deltaOrder, moved = {}, {}, {}, 0
local function countOut(field)
  if deltas[field] == nil then
    deltas[field] = 0
    deltaOrder[#deltaOrder + 1] = field
  end
  deltas[field] = deltas[field] - 1
end

local function replayEntry(id, flat)
  local record, snapshot = {}, {}
  for i = 1, #flat, 2 do
    local name, value = flat[i], flat[i + 1]
    if string.sub(name, 1, 2) == 'f:' then
      snapshot[#snapshot + 1] = { string.sub(name, 3), value }
    else
      record[name] = value
    end
  end
  if record['origin-stream'] ~= origin then
    return { 'origin-mismatch', record['origin-stream'] or '' }
  end
  if record['snapshot'] == 'missing' then
    return { 'no-snapshot' }
  end


  local args = { origin, '*' }
  local present = {}
  for _, field in ipairs(snapshot) do
    local name = field[1]
    if not own[name] then
      args[#args + 1] = name
      if patch[name] ~= nil then
        args[#args + 1] = patch[name]
      else
        args[#args + 1] = field[2]
      end
      present[name] = true
    end
  end
  for _, name in ipairs(patchOrder) do
    if not present[name] and not own[name] then
      args[#args + 1] = name
      args[#args + 1] = patch[name]
      present[name] = true
    end
  end
  -- Handlers deduplicate on this key: a replay must look like the same job, not a new one.
  if not present['idempotency-key'] then
    args[#args + 1] = 'idempotency-key'
    args[#args + 1] = origin .. '/' .. record['origin-id']
  end
  args[#args + 1] = 'replay-of'
  args[#args + 1] = dlq .. '/' .. id
  args[#args + 1] = 'redrive-replays'
  args[#args + 1] = tostring((tonumber(record['replays']) or 0) + 1)
  if taskId ~= '' then
    args[#args + 1] = 'redrive-task'
    args[#args + 1] = dlq .. '/' .. taskId
  end

  local newId = redis.call('XADD', unpack(args))
  deleted[#deleted + 1] = id

  countOut('parked')
  countOut('failure:' .. (record['failure'] or ''))
  countOut('origin:' .. origin)
  countOut('fingerprint:' .. (record['fingerprint'] or ''))

  redis.call('XADD', audit, '*', 'action', 'replay', 'actor', actor, 'at', at, 'note', note,
    'dlq', dlq, 'dlq-id', id, 'new-id', newId, 'origin-stream', origin, 'origin-id', record['origin-id'] or '',
    'patched', table.concat(patchOrder, ','), 'task', taskId)

  if idemKey ~= '' then
    redis.call('SET', answerKey, id .. ' ' .. newId .. ' ' .. origin, 'EX', tonumber(ttl))
  end
  moved = moved + 1
  return { 'replayed', newId }
end

local function flush()
  if #deleted > 0 then
    redis.call('XDEL', dlq, unpack(deleted))
  end
  for _, field in ipairs(deltaOrder) do
    if redis.call('HINCRBY', stats, field, deltas[field]) <= 0 then
      redis.call('HDEL', stats, field)
      if string.sub(field, 1, 12) == 'fingerprint:' then
        redis.call('HDEL', stats, 'fingerprint-text:' .. string.sub(field, 13))
      end
    end
  end
  if task and taskId ~= '' and moved > 0 then
    redis.call('HINCRBY', task, 'moved', moved)
  end
end

if not string.find(ids, ',', 1, true) then
  local entry = redis.call('XRANGE', dlq, ids, ids)
  local result = #entry == 0 and { 'gone' } or replayEntry(ids, entry[1][2])
  flush()
  return result
end

local list = {}
for one in string.gmatch(ids, '[^,]+') do
  list[#list + 1] = one
end
local found = {}
for _, entry in ipairs(redis.call('XRANGE', dlq, list[1], list[#list])) do
  found[entry[1]] = entry[2]
end
local results = { 'batch' }
for _, one in ipairs(list) do
  results[#results + 1] = found[one] and replayEntry(one, found[one]) or { 'gone' }
end
flush()
return results
