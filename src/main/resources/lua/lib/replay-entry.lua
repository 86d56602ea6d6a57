-- uses lib/fields.lua
-- uses lib/counters.lua
-- uses lib/snapshot.lua
-- uses lib/ledger.lua
-- lib/replay-entry.lua: sending one dead letter back to its origin stream, the step that a single
-- replay (replay.lua) and a redrive's moves (redrive-step.lua) share.
--
-- What goes back is the snapshot byte for byte (patched only where the operator asked). Adding
-- the new entry, deleting the dead letter, counting it out and writing the audit record happen in
-- the calling script's one step: two operators replaying the same entry at the same moment get one
-- job between them, and a second replay finds the entry gone.
--
-- Every replay notes what it put in the new entry for itself in the replay ledger (lib/ledger.lua),
-- which dead-letter.lua believes rather than the entry's own fields. The snapshot is read as
-- lib/snapshot.lua keeps it; a replay of more than PACK_ABOVE fields (lib/fields.lua) goes back
-- packed in the one field redrive-packed, beside the fields redrive adds; redrive's own worker
-- unpacks it.
--
-- `how` carries the keys (dlq, stats, audit, ledger, ledgerAt), who, when and note (actor, at,
-- note), the patch (patch by name, patchOrder), the redrive task (task id and taskKey, '' for a
-- single replay), for a redrive's step the list its moves are gathered in (moves: one audit
-- record per step instead of one per entry), and the replay span's traceparent (traceparent, ''
-- with tracing off), which replaces the entry's own so its next attempt links to the replay.

-- Fields redrive itself sets on the new entry; a stale copy in the snapshot is dropped.
local own = { ['replay-of'] = true, ['redrive-replays'] = true, ['redrive-task'] = true, ['redrive-packed'] = true }

-- Why a replay to these origins can't write every key it would (the keys of `how`, the origins
-- and `others`, a list of { key, type }), or nil: checked before the first write.
local function replayRefusal(how, origins, others)
  local wanted = { { how.stats, 'hash' }, { how.audit, 'stream' }, { how.ledger, 'hash' }, { how.ledgerAt, 'zset' } }
  for _, w in ipairs(others) do
    wanted[#wanted + 1] = w
  end
  for _, origin in ipairs(origins) do
    wanted[#wanted + 1] = { origin, 'stream' }
  end
  return wrongType(wanted)
end

-- Dead letters replayed so far: deleted together by finishReplays.
local replayedIds = {}

-- Sends one entry back to its origin: a new entry there and (for a single replay) audited; the
-- dead letter's deletion, its counting out and its ledger field wait for finishReplays. `old` is
-- what snapshotFields (lib/snapshot.lua) found. Returns the new entry id.
local function replayEntry(id, old, record, origin, how)
  -- The XADD's arguments are built in place (most replays fit one command); only a replay of more
  -- than PACK_ABOVE fields is packed afterwards.
  local args, present = { origin, '*' }, {}
  local traced = how.traceparent ~= nil and how.traceparent ~= ''
  if traced then
    present['traceparent'] = true
  end
  for j = 1, #old, 2 do
    local name = old[j]
    if not own[name] and not (traced and name == 'traceparent') then
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
  if traced then
    args[#args + 1] = 'traceparent'
    args[#args + 1] = how.traceparent
  end
  if #args - 2 > 2 * PACK_ABOVE then
    args = { origin, '*', 'redrive-packed', packFields(args, 3, #args) }
  end
  local replays = tostring((tonumber(record['replays']) or 0) + 1)
  args[#args + 1] = 'replay-of'
  args[#args + 1] = how.dlq .. '/' .. id
  args[#args + 1] = 'redrive-replays'
  args[#args + 1] = replays
  if how.task ~= '' then
    args[#args + 1] = 'redrive-task'
    args[#args + 1] = how.dlq .. '/' .. how.task
  end

  local newId = redis.call('XADD', unpack(args))
  noteReplay(origin, newId, replays, how.taskKey)
  replayedIds[#replayedIds + 1] = id
  countDeadLetter(-1, record['failure'] or '', origin, record['fingerprint'] or '', record['job'] or '')
  if how.moves then
    how.moves[#how.moves + 1] = id .. ' ' .. newId .. ' ' .. record['origin-id'] .. ' ' .. origin
  else
    redis.call('XADD', how.audit, '*', 'action', 'replay', 'actor', how.actor, 'at', how.at, 'note', how.note,
      'dlq', how.dlq, 'dlq-id', id, 'new-id', newId, 'origin-stream', origin, 'origin-id', record['origin-id'],
      'patched', table.concat(how.patchOrder, ','), 'trace-id', string.sub(how.traceparent or '', 4, 35))
  end
  return newId
end

-- Deletes the dead letters replayed, writes their ledger fields and counts them out, once per call.
-- `page` and `opening` (a redrive's step, optional): the page of the dead-letter stream it read, and
-- how many entries from its start were all replayed, in the order replayed. When the page opens the
-- stream, they go with one XTRIM MINID, which drops whole listpack nodes, instead of an XDEL that
-- has to find each entry inside its node: a bulk replay of everything deletes nothing else.
local function finishReplays(how, page, opening)
  opening = opening or 0
  if opening > 0 then
    local head = redis.call('XRANGE', how.dlq, '-', '+', 'COUNT', 1)[1]
    if head and head[1] == page[1][1] then
      local beyond = page[opening + 1] or redis.call('XRANGE', how.dlq, '(' .. page[opening][1], '+', 'COUNT', 1)[1]
      if beyond then
        redis.call('XTRIM', how.dlq, 'MINID', beyond[1])
      else
        redis.call('XTRIM', how.dlq, 'MAXLEN', 0)
      end
    else
      opening = 0
    end
  end
  local rest = {}
  for i = opening + 1, #replayedIds do
    rest[#rest + 1] = replayedIds[i]
  end
  inSlices('XDEL', how.dlq, rest)
  writeLedger(how.ledger, how.ledgerAt)
  flushCounts(how.stats)
end
