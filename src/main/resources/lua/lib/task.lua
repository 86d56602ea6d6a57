-- lib/task.lua: what the redrive scripts ask of a task hash (redrive-count.lua, redrive-step.lua).
-- The state names are redrive/RedriveState's and the fields redrive/RedriveTask's (RedriveStateTest
-- checks every name used here and in the redrive-*.lua scripts is one of them).

-- A redrive's runner goes on only while it holds the task in a state it works on (`states`, a
-- set of state names); returns that and the task's state.
local function holds(task, owner, states)
  local state = redis.call('HGET', task, 'state')
  return states[state] and redis.call('HGET', task, 'owner') == owner, state
end
