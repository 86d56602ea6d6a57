#!lua
-- uses lib/fields.lua
-- uses lib/ranges.lua
-- uses lib/counters.lua
-- uses lib/record.lua
-- uses lib/snapshot.lua
-- uses lib/ledger.lua
-- uses lib/park-args.lua
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
-- the types of every key written, and which jobs are still pending. The snapshot is kept as
-- lib/snapshot.lua says (packed when it is big, so no entry Redis accepts is too big to park). The
-- shebang makes Redis refuse the whole call up front when it is out of memory.
--
-- A job's replay count and the redrive that sent it back are what a replay noted for its entry id
-- (KEYS[5], lib/ledger.lua), never the entry's fields, which any producer can write.
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
-- ARGV[3]  s, the number of record shapes (lib/park-args.lua): what the records of a call share,
--          sent once, not once per job. Each shape:
--          failure kind (terminal, exhausted, missing, max-receive), counted in KEYS[3],
--          fingerprint of the cause (a short hash), counted in KEYS[3],
--          the fingerprint's normalised text, kept once in KEYS[3] so listings can show it,
--          n, the record's own fields as n name, value items (the script adds `replays` and the
--          snapshot: f:<name> fields, or snapshot=packed and snapshot-packed),
--          m, the m places (1..n) among those items each job fills with a value of its own
-- then one block per job: origin entry id, its shape (1..s), its m values
--
-- Returns one item per job, in order:
--   { 'parked', new dead-letter entry id }
--   { 'not-pending' }               not pending in the group any more (someone acked or parked it)
--   { 'wrong-type', sentence }      not parked, nothing written for it: it stays pending
--   { 'trimmed' }                   its stream entry is gone and its failure kind is not missing:
--                                   nothing written for it, it stays pending for the caller to
--                                   park again as missing (a record that says what happened)

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

local jobs, ids = parkedJobs()

-- The jobs' pending entries and stream entries, read a range at a time (lib/ranges.lua); the
-- replay ledger only when it holds anything (a job redrive replayed is the exception).
local pendingNow, entries, ledgerUsed = {}, {}, false
if not refusal and redis.call('EXISTS', origin) == 1 then
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
for _, job in ipairs(jobs) do
  local id, shape, own = job[1], job[2], job[3]
  local kind = shape.kind
  if refusal then
    results[#results + 1] = { 'wrong-type', refusal }
  elseif taken[id] or not pendingNow[id] then
    results[#results + 1] = { 'not-pending' }
  elseif not entries[id] and kind ~= 'missing' then
    results[#results + 1] = { 'trimmed' }
  else
    taken[id] = true
    -- The shape's record as one table of the right size at once, then the job's own values.
    local args = { dlq, '*', unpack(ARGV, shape.first, shape.first + shape.n - 1) }
    for k, place in ipairs(shape.places) do
      args[2 + place] = ARGV[own + k - 1]
    end
    local replays, byTask, noted
    if ledgerUsed then
      replays, byTask, noted = replayedAs(ledger, origin, id)
    end
    args[#args + 1] = 'replays'
    args[#args + 1] = replays or '0'
    -- Trimmed away before it completed (kind missing): park what is still known, never drop it.
    addSnapshot(args, entries[id] and entries[id][2])
    -- A list, not a table of named fields: one per job, and a list is the cheaper table to make.
    -- id, XADD arguments, kind, fingerprint, its text, its ledger field (or nil), the task it
    -- counts for (or false), where its result goes.
    toPark[#toPark + 1] = { id, args, kind, shape.fingerprint, shape.text, noted or false,
      byTask ~= nil and failedBy[byTask] ~= nil and byTask or false, #results + 1 }
    results[#results + 1] = false
  end
end

if #toPark == 0 then
  return results
end

local done, back = {}, {}

for _, job in ipairs(toPark) do
  local id, args, kind, fingerprint, text, noted, task, at = unpack(job)
  results[at] = { 'parked', redis.call('XADD', unpack(args)) }
  done[#done + 1] = id
  if noted then
    back[#back + 1] = noted -- a replayed job is back: a replay of this record notes it anew
  end
  if task then
    failedBy[task] = failedBy[task] + 1
  end
  countDeadLetter(1, kind, origin, fingerprint, recordValue(args, 'job'), text, recordValue(args, 'dead-at'),
    results[at][2])
end

-- Acked together: each job's record is written above, in this same script.
inSlices('XACK', { origin, group }, done)
if redis.call('HLEN', notBefore) > 0 then
  inSlices('HDEL', notBefore, done)
end
flushCounts(stats)
for task, failed in pairs(failedBy) do
  if failed > 0 then
    addTo(task, 'failed', failed)
  end
end
forgetReplays(ledger, ledgerAt, back, forgetBefore)
return results
