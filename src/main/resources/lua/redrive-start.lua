#!lua
-- uses lib/fields.lua
-- uses lib/clock.lua
-- uses lib/instant.lua
-- uses lib/start-task.lua
-- redrive-start.lua: create a bulk redrive and its audit record, unless another one of the same
-- dead-letter stream runs.
--
-- Two redrives walking one stream at once would each count entries the other moves, so their
-- reports would be wrong; one at a time per stream keeps every task's matched, moved and skipped
-- exact. The check and the creation are one step, so of two simultaneous starts exactly one wins.
-- The stream's pointer names its last real (not dry-run) task; that task blocks a new one only
-- while it is unfinished (counting, canary or running). A dry run moves nothing: it neither checks
-- nor takes the pointer. Either is audited (action=redrive) in this step, after the audit stream's
-- type is checked, so no task starts without its record.
--
-- The caller reads the pointer first and passes the task hash it names (a script takes its keys
-- from KEYS, never builds them); if the pointer changed in between the script writes nothing and
-- says so, and the caller reads it again.
--
-- KEYS[1]  the stream's audit stream
-- KEYS[2]  the stream's running-redrive pointer (a string: a task id)
-- KEYS[3]  the task hash the pointer named when read (the new task's hash when it named none)
-- KEYS[4]  the new task hash
-- KEYS[5]  the stream's task index (a sorted set of ids by creation time)
-- ARGV[1]  the task id the pointer named when read, or ''
-- ARGV[2]  the new task id
-- ARGV[3]  now, epoch ms (the index score)
-- ARGV[4]  '1' for a dry run, else '0'
-- ARGV[5..] the new task's fields as name, value pairs (a fixed, small number)
--
-- Returns: { 'started' }
--          { 'running', task id, state } (that task of the stream is unfinished; nothing written)
--          { 'changed' } (the pointer moved since it was read; nothing written)
--          { 'wrong-type', sentence } (the audit stream holds another type; nothing written)

local audit, pointer, seen, task, index = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local seenId, id, now, dryRun = ARGV[1], ARGV[2], ARGV[3], ARGV[4] == '1'

local refused = not dryRun and startRefused(pointer, seen, seenId)
if refused then
  return refused
end
local wrong = wrongType({ { audit, 'stream' } })
if wrong then
  return { 'wrong-type', wrong }
end
createTask(pointer, task, index, id, now, dryRun, 5)
local actor = redis.call('HGET', task, 'created-by') or ''
local note = redis.call('HGET', task, 'note') or ''
local dlq = redis.call('HGET', task, 'dlq') or ''
redis.call('XADD', audit, '*', 'action', 'redrive', 'actor', actor, 'at', instantText(redisMillis()), 'note', note,
  'dlq', dlq, 'task', id)
return { 'started' }
