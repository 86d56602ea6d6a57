-- uses lib/fields.lua
-- lib/ledger.lua: the replay ledger, what each replay put in the new entry it added for itself.
-- Replays write it (lib/replay-entry.lua); dead-letter.lua reads it when a job fails again.
--
-- A hash "<origin> <new id>" -> "<replays> <task key>" (the task key '' for a single replay) and
-- the same fields in a zset, scored by the ms they were written. dead-letter.lua believes a job's
-- replay count and redrive task from here only, never from the entry's own redrive-replays and
-- redrive-task fields, which any producer can write. A field goes when its job is parked again,
-- when it is done (DeadLetterScripts.forgetReplays), or when it is older than dead-letter.lua's
-- horizon and its job never came back.

-- The fields and times of the replays noted so far, written once per call by writeLedger.
local ledgerItems, ledgerTimes = {}, {}

-- Notes that a replay added entry `newId` to `origin`, as its `replays`th replay, for the task
-- `taskKey` ('' for none).
local function noteReplay(origin, newId, replays, taskKey)
  local field = origin .. ' ' .. newId
  ledgerItems[#ledgerItems + 1] = field
  ledgerItems[#ledgerItems + 1] = replays .. ' ' .. taskKey
  ledgerTimes[#ledgerTimes + 1] = string.match(newId, '^%d+')
  ledgerTimes[#ledgerTimes + 1] = field
end

local function writeLedger(ledger, ledgerAt)
  inSlices('HSET', ledger, ledgerItems)
  inSlices('ZADD', ledgerAt, ledgerTimes)
end

-- What a replay noted for entry `id` of `origin`: its replay count and task key (nil for what it
-- can't read), and the ledger field, or nothing when no replay added that entry. Reads only.
local function replayedAs(ledger, origin, id)
  local field = origin .. ' ' .. id
  local noted = redis.call('HGET', ledger, field)
  if not noted then
    return nil
  end
  local replays, taskKey = string.match(noted, '^(%d+) (.*)$')
  return replays, taskKey, field
end

-- Forgets the ledger fields `fields`, and then, a page at a time, those written before `before`
-- (epoch ms) whose jobs never came back.
local function forgetReplays(ledger, ledgerAt, fields, before)
  inSlices('HDEL', ledger, fields)
  inSlices('ZREM', ledgerAt, fields)
  local old = redis.call('ZRANGEBYSCORE', ledgerAt, '-inf', '(' .. before, 'LIMIT', 0, 100)
  inSlices('HDEL', ledger, old)
  inSlices('ZREM', ledgerAt, old)
end
