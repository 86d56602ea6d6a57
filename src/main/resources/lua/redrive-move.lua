#!lua
-- redrive-move.lua: move a bulk redrive task to another state, if it is still in the state the
-- caller saw.
--
-- A task's runner moves it on (counting, then canary or running, then completed; aborted after a
-- bad canary) while an operator may cancel it from any process at any moment. A move written
-- without looking could undo the other: a runner setting 'running' just after a cancel would
-- bring the task back to life, and its steps would go on moving entries. So each move compares and
-- sets in one step: a move from a state the task has already left writes nothing, and the caller
-- reads the task again (redrive/RedriveTaskStore). The states and which moves are allowed are
-- redrive/RedriveState's; this script only refuses a move from a state that is no longer so.
--
-- KEYS[1]  the task hash
-- KEYS[2]  the task's canary list (expires with the hash)
-- ARGV[1]  the state the caller saw
-- ARGV[2]  the state to move to
-- ARGV[3]  ms the hash and the canary list are kept from now ('' to keep them: the task goes on)
-- ARGV[4..] more fields to set with the move, as name, value pairs (a fixed, small number)
--
-- Returns: { 'moved' }
--          { 'changed', the state the task is in now ('' when there is no such task); nothing written }
-- Errors: the task key holds another type (HGET fails before anything is written).

local task, canaryList = KEYS[1], KEYS[2]
local current = redis.call('HGET', task, 'state')
if current ~= ARGV[1] then
  return { 'changed', current or '' }
end
local fields = { task, 'state', ARGV[2] }
for i = 4, #ARGV do
  fields[#fields + 1] = ARGV[i]
end
redis.call('HSET', unpack(fields))
if ARGV[3] ~= '' then
  redis.call('PEXPIRE', task, ARGV[3])
  redis.call('PEXPIRE', canaryList, ARGV[3])
end
return { 'moved' }
