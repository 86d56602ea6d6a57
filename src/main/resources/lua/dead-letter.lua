#!lua
-- uses lib/fields.lua
-- uses lib/ranges.lua
-- uses lib/counters.lua
-- dead-letter.lua: park jobs, each in one atomic step with its record.
--
-- Acks each job, copies its origin entry, read here from the stream so the snapshot is byte for
-- byte what the producer wrote, into the dead-letter stream together with its record, and counts
-- the dead letter. Nothing else can run in between, so a job is never acked without being parked,
-- and never parked twice (a second call finds it no longer pending). A call may carry several jobs
-- of one stream (a worker parks what failed in the same turn together): their pending and stream
-- entries are read a range at a time (lib/ranges.lua), and they are acked, unhinted and counted
-- once per key at the end (lib/counters.lua): per job, the record's XADD is most of what is left.
--
-- Redis never rolls a script back, so everything that can fail is checked before the first write:
-- the types of every key written, and which jobs are still pending. A snapshot of more than
-- PACK_ABOVE fields (lib/fields.lua) is kept packed in one field, so no entry Redis accepts is too
-- big to park. The shebang makes Redis refuse the whole call up front when it is out of memory.
--
-- A job's replay count and the redrive that sent it back are taken from what a replay recorded
-- for its entry id (KEYS[5], lib/replay-entry.lua), never from the entry's fields, which any
-- producer can write.
--
-- KEYS[1]  origin stream
-- KEYS[2]  dead-letter stream           (same hash slot as KEYS[1], or any key on a single Redis)
-- KEYS[3]  dead-letter stats hash       (with KEYS[2])
-- KEYS[4]  origin's not-before hash     (with KEYS[1])
-- KEYS[5]  what redrive replayed from KEYS[2]: hash "<origin> <id>" -> "<replays> <task key>"
-- KEYS[6]  the same fields scored by when they were written (zset)
-- KEYS[7..] the redrive tasks the jobs' redrive-task fields name (none, one, or a few: jobs of a
--          call may come from different redrives); a task's failed count goes up for a job only
--          when KEYS[5] says that task sent it
-- ARGV[1]  consumer group
-- ARGV[2]  epoch ms: what KEYS[5] holds from before then is forgotten
-- ARGV[3..] one block per job:
--          origin entry id,
--          failure kind (terminal, exhausted, missing, max-receive), counted in KEYS[3],
--          fingerprint of the cause (a short hash), counted in KEYS[3],
--          the fingerprint's normalised text, kept once in KEYS[3] so listings can show it,
--          n, then the record's own fields as n name, value items (the script adds `replays`
--          and the snapshot: f:<name> fields, or snapshot=packed and snapshot-packed)
--
-- Returns one item per job, in order:
--   { 'parked', new dead-letter entry id }
--   { 'not-pending' }               not pending in the group any more (someone acked or parked it)
--   { 'wrong-type', sentence }      not parked, nothing written for it: it stays pending
--   { 'trimmed' }                   its stream entry is gone and its failure kind is not missing:
--                                   nothing written for it, it stays pending for the caller to
--                                   park again as missing (a record that says what happened)

-- A record field's value among XADD's arguments (name, value pairs after the key and '*'), '' if absent.
-- The records of one call share their layout: where a name was found for one job is checked, not
-- searched again, for the next (a search per job and field was 5% of a parked job's cost).
local fieldAt = {}
local function recordField(args, name)
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

local origin, dlq, stats, notBefore, ledger, ledgerAt = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local group, forgetBefore = ARGV[1], ARGV[2]

local results, toPark, taken = {}, {}, {}

local refusal = wrongType({ { origin, 'stream' }, { dlq, 'stream' }, { stats, 'hash' }, { notBefore, 'hash' },
  { ledger, 'hash' }, { ledgerAt, 'zset' } })
-- KEYS[7..] come from a field any producer can write: a key that is not a task is ignored, not
-- refused. failedBy[task] counts the jobs each real task sent back that fail again.
local failedBy = {}
for k = 7, #KEYS do
  if redis.call('TYPE', KEYS[k])['ok'] == 'hash' then
    failedBy[KEYS[k]] = 0
  end
end

local originExists = redis.call('EXISTS', origin) == 1

-- The jobs' pending entries and stream entries, read a range at a time (lib/ranges.lua); the
-- replay ledger only when it holds anything (a job redrive replayed is the exception).
local pendingNow, entries, ledgerUsed = {}, {}, false
if not refusal and originExists then
  local ids = {}
  local k = 3
  while k <= #ARGV do
    ids[#ids + 1] = ARGV[k]
    k = k + 5 + tonumber(ARGV[k + 4])
  end
  pendingNow = pendingOf(origin, group, 0, ids)
  local present = {}
  for _, id in ipairs(ids) do
    if pendingNow[id] then
      present[#present + 1] = id
    end
  end
  entries = entriesOf(origin, present)
  ledgerUsed = redis.call('HLEN', ledger) > 0
end

-- Checks: nothing is written until every job of the call is decided.
local i = 3
while i <= #ARGV do
  local id, kind, fingerprint, fingerprintText, n = ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], tonumber(ARGV[i + 4])
  local first = i + 5
  i = first + n
  if refusal then
    results[#results + 1] = { 'wrong-type', refusal }
  elseif taken[id] or not pendingNow[id] then
    results[#results + 1] = { 'not-pending' }
  elseif not entries[id] and kind ~= 'missing' then
    results[#results + 1] = { 'trimmed' }
  else
    taken[id] = true
    -- One table of the right size at once (the record is most of a job's arguments), not grown
    -- item by item.
    local args = { dlq, '*', unpack(ARGV, first, first + n - 1) }
    local replayed = ledgerUsed and redis.call('HGET', ledger, origin .. ' ' .. id) or nil
    local replays, byTask = string.match(replayed or '', '^(%d+) (.*)$')
    args[#args + 1] = 'replays'
    args[#args + 1] = replays or '0'
    local entry = entries[id]
    if not entry then
      -- Trimmed away before it completed (kind missing): park what is still known, never drop it.
      args[#args + 1] = 'snapshot'
      args[#args + 1] = 'missing'
    else
      local fields = entry[2]
      if #fields > 2 * PACK_ABOVE then
        args[#args + 1] = 'snapshot'
        args[#args + 1] = 'packed'
        args[#args + 1] = 'snapshot-packed'
        args[#args + 1] = packFields(fields)
      else
        for j = 1, #fields, 2 do
          args[#args + 1] = 'f:' .. fields[j]
          args[#args + 1] = fields[j + 1]
        end
      end
    end
    -- A list, not a table of named fields: one per job, and a list is the cheaper table to make.
    -- id, XADD arguments, kind, fingerprint, its text, replayed?, the task it counts for (or
    -- false), where its result goes.
    toPark[#toPark + 1] = { id, args, kind, fingerprint, fingerprintText, replayed ~= nil,
      byTask ~= nil and failedBy[byTask] ~= nil and byTask or false, #results + 1 }
    results[#results + 1] = false
  end
end

if #toPark == 0 then
  return results
end

local done = {}

for _, job in ipairs(toPark) do
  local id, args, kind, fingerprint, text, replayed, task, at = unpack(job)
  results[at] = { 'parked', redis.call('XADD', unpack(args)) }
  done[#done + 1] = id
  if replayed then
    redis.call('HDEL', ledger, origin .. ' ' .. id)
    redis.call('ZREM', ledgerAt, origin .. ' ' .. id)
  end
  if task then
    failedBy[task] = failedBy[task] + 1
  end
  countDeadLetter(1, kind, origin, fingerprint, recordField(args, 'job'), text, recordField(args, 'dead-at'),
    results[at][2])
end

-- Acked together: each job's record is written above, in this same script.
for from = 1, #done, 1000 do
  local ack = { origin, group }
  for j = from, math.min(from + 999, #done) do
    ack[#ack + 1] = done[j]
  end
  redis.call('XACK', unpack(ack))
end
if redis.call('HLEN', notBefore) > 0 then
  inSlices('HDEL', notBefore, done)
end
flushCounts(stats)
for task, failed in pairs(failedBy) do
  if failed > 0 then
    addTo(task, 'failed', failed)
  end
end
-- What redrive replayed long ago and that never came back is forgotten a page at a time.
local old = redis.call('ZRANGEBYSCORE', ledgerAt, '-inf', '(' .. forgetBefore, 'LIMIT', 0, 100)
if #old > 0 then
  inSlices('HDEL', ledger, old)
  inSlices('ZREM', ledgerAt, old)
end
return results
