#!lua
-- uses lib/start-task.lua
-- redrive-start.lua: create a bulk redrive, unless another one of the same dead-letter stream runs.
--
-- Two redrives walking one stream at once would each count entries the other moves, so their
-- reports would be wrong; one at a time per stream keeps every task's matched, moved and skipped
-- exact. The check and the creation are one step, so of two simultaneous starts exactly one wins.
-- The stream's pointer names its last real (not dry-run) task; that task blocks a new one only
-- while it is unfinished (counting, canary or running). A dry run moves nothing: it neither checks
-- nor takes the pointer.
--
-- The caller reads the pointer first and passes the task hash it names (a script takes its keys
-- from KEYS, never builds them); if the pointer changed in between the script writes nothing and
-- says so, and the caller reads it again.
--
-- KEYS[1]  the stream's running-redrive pointer (a string: a task id)
-- KEYS[2]  the task hash the pointer named when read (the new task's hash when it named none)
-- KEYS[3]  the new task hash
-- KEYS[4]  the stream's task index (a sorted set of ids by creation time)
-- ARGV[1]  the task id the pointer named when read, or ''
-- ARGV[2]  the new task id
-- ARGV[3]  now, epoch ms (the index score)
-- ARGV[4]  '1' for a dry run, else '0'
-- ARGV[5..] the new task's fields as name, value pairs (a fixed, small number)
--
-- Returns: { 'started' }
--          { 'running', task id, state } (that task of the stream is unfinished; nothing written)
--          { 'changed' } (the pointer moved since it was read; nothing written)

local pointer, seen, task, index = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local seenId, id, now, dryRun = ARGV[1], ARGV[2], ARGV[3], ARGV[4] == '1'

local refused = not dryRun and startRefused(pointer, seen, seenId)
if refused then
  return refused
end
createTask(pointer, task, index, id, now, dryRun, 5)
return { 'started' }
