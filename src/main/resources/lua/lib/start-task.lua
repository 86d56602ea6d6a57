-- lib/start-task.lua: the one-redrive-at-a-time check and the creation of a task, shared by
-- redrive-start.lua (an operator's start) and proposal-approve.lua (an approved proposal's start),
-- so an approval starts its task by exactly the rules a direct start follows.
-- The state names are redrive/RedriveState's (RedriveStateTest checks them).

-- Why a real (not dry-run) task may not start now, as the script's reply, or nil when it may:
-- { 'changed' } when the stream's pointer no longer names seenId (the caller reads it again), or
-- { 'running', id, state } of the stream's unfinished task. Writes nothing.
local function startRefused(pointer, seen, seenId)
  local current = redis.call('GET', pointer) or ''
  if current ~= seenId then
    return { 'changed' }
  end
  if current ~= '' then
    local state = redis.call('HGET', seen, 'state')
    if state == 'counting' or state == 'canary' or state == 'running' then
      return { 'running', current, state }
    end
  end
  return nil
end

-- Writes the task hash (its fields: name, value, ... from ARGV[fieldsAt] on, a fixed small number),
-- indexes it and, unless a dry run, points the stream's pointer at it. Call only after every check
-- passed.
local function createTask(pointer, task, index, id, now, dryRun, fieldsAt)
  redis.call('HSET', task, unpack(ARGV, fieldsAt))
  redis.call('ZADD', index, now, id)
  if not dryRun then
    redis.call('SET', pointer, id)
  end
end
