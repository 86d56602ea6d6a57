-- lib/task.lua: what the redrive scripts ask of a task hash (redrive-count.lua, redrive-step.lua).

-- A redrive's runner goes on only while it holds the task in a state it works on (`states`, a
-- set of state names); returns that and the task's state.
local function holds(task, owner, states)
  local state = redis.call('HGET', task, 'state')
  return states[state] and redis.call('HGET', task, 'owner') == owner, state
end
