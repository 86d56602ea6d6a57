#!lua
-- forget-consumers.lua: remove consumers that are gone and own nothing.
--
-- A consumer name is a pod's hostname plus a pid, so every restart leaves one behind. Checking
-- "no pending entries, idle long enough" and deleting in one step matters: XGROUP DELCONSUMER
-- drops the consumer's pending entries, so a consumer that took an entry in between must never
-- be deleted.
--
-- KEYS[1]  stream
-- ARGV[1]  consumer group
-- ARGV[2]  least idle time in ms before a consumer counts as gone
-- ARGV[3..] names never to delete (this process, the retry consumer)
--
-- Returns the names deleted.

local stream, group, minIdle = KEYS[1], ARGV[1], tonumber(ARGV[2])
local keep = {}
for i = 3, #ARGV do
  keep[ARGV[i]] = true
end

local deleted = {}
for _, consumer in ipairs(redis.call('XINFO', 'CONSUMERS', stream, group)) do
  local info = {}
  for i = 1, #consumer, 2 do
    info[consumer[i]] = consumer[i + 1]
  end
  if not keep[info['name']] and tonumber(info['pending']) == 0 and tonumber(info['idle']) >= minIdle then
    redis.call('XGROUP', 'DELCONSUMER', stream, group, info['name'])
    deleted[#deleted + 1] = info['name']
  end
end
return deleted
