#!lua
-- uses lib/clock.lua
-- redrive-claim.lua: take or renew the lease on a bulk redrive, so one process runs it.
--
-- The runner renews its lease before every batch; a process that starts finds tasks whose
-- lease ran out (their runner died or shut down) and takes them over from their stored cursor.
-- Cancelling sets the state, so the next renewal fails and the runner stops. The unfinished states
-- (counting, canary, running) are redrive/RedriveState's that can still move.
--
-- KEYS[1]  the redrive task hash
-- KEYS[2]  the stream's task index (redrive-start.lua adds every task to it)
-- ARGV[1]  this process (owner name)
-- ARGV[2]  lease length, ms
-- ARGV[3]  the task id (its member in KEYS[2])
--
-- The lease's end is written and tested on Redis' clock (TIME, lib/clock.lua), not the runner's:
-- a runner whose clock is behind would otherwise take a live runner's task, or hold its own long
-- after it died.
--
-- A task that is finished, or gone (its hash expired after the retention), leaves the index
-- here: the index is what every replica walks each lease period to find abandoned tasks, so it
-- holds the unfinished ones and a few just finished, not every task the stream ever had.
--
-- Returns: 1 when this process holds the lease now
--          0 when the task is finished, cancelled or held by another live process

local task, index = KEYS[1], KEYS[2]
local owner, lease, id = ARGV[1], tonumber(ARGV[2]), ARGV[3]

local state = redis.call('HGET', task, 'state')
if state ~= 'counting' and state ~= 'canary' and state ~= 'running' then
  redis.call('ZREM', index, id)
  return 0
end
local holder = redis.call('HGET', task, 'owner')
local leaseUntil = tonumber(redis.call('HGET', task, 'lease-until') or '0') or 0
local now = redisMillis()
if holder ~= owner and leaseUntil > now then
  return 0
end
redis.call('HSET', task, 'owner', owner, 'lease-until', millisText(now + lease))
return 1
