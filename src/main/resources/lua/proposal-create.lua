#!lua
-- uses lib/fields.lua
-- uses lib/clock.lua
-- uses lib/instant.lua
-- proposal-create.lua: store a proposed bulk redrive and its audit record; nothing moves until
-- another operator approves it.
--
-- The proposal's hash lives in its dead-letter stream's slot, beside the stream's redrive keys, so
-- its approval can start the task in one step (proposal-approve.lua). The hash expires a while
-- after the proposal does (the caller's keep), and the index forgets ids older than that, so
-- proposals nobody decides do not pile up. The waiting set holds the undecided ones by expiry, so
-- what waits is counted without reading every proposal; expired ones leave it here. The proposal's
-- time and expiry are Redis' (lib/clock.lua): every process decides on them against the same clock.
-- Every key's type is checked before the first write, so a proposal is never stored without its
-- audit record.
--
-- KEYS[1]  the proposal hash (new)
-- KEYS[2]  the stream's proposal index (a sorted set of ids by creation time, epoch ms)
-- KEYS[3]  the stream's waiting proposals (a sorted set of ids by expiry, epoch ms)
-- KEYS[4]  the stream's audit stream
-- ARGV[1]  the proposal id
-- ARGV[2]  how long the proposal waits for a decision, ms (its expiry is now plus this)
-- ARGV[3]  how long the hash is kept, ms (index entries older than this are forgotten)
-- ARGV[4..] the proposal's fields as name, value pairs (a fixed, small number; proposed-at and
--          expires-at are this script's)
--
-- Returns: { 'created', now (epoch ms, Redis' clock) }
--          { 'wrong-type', sentence } (a key it would write holds another type: nothing written)

local proposal, index, waiting, audit = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local id, ttl, keep = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])

local refusal = wrongType({ { index, 'zset' }, { waiting, 'zset' }, { audit, 'stream' } })
if refusal then
  return { 'wrong-type', refusal }
end

local now = redisMillis()
local fields = {}
for i = 4, #ARGV do
  fields[#fields + 1] = ARGV[i]
end
table.insert(fields, 'proposed-at')
table.insert(fields, millisText(now))
table.insert(fields, 'expires-at')
table.insert(fields, millisText(now + ttl))
redis.call('HSET', proposal, unpack(fields))
redis.call('PEXPIRE', proposal, keep)
redis.call('ZADD', index, millisText(now), id)
redis.call('ZREMRANGEBYSCORE', index, '-inf', '(' .. millisText(now - keep))
redis.call('ZADD', waiting, millisText(now + ttl), id)
redis.call('ZREMRANGEBYSCORE', waiting, '-inf', millisText(now))
redis.call('XADD', audit, '*', 'action', 'proposal', 'actor', redis.call('HGET', proposal, 'proposed-by'),
  'at', instantText(now), 'note', redis.call('HGET', proposal, 'note'), 'dlq', redis.call('HGET', proposal, 'dlq'),
  'proposal', id)
return { 'created', millisText(now) }
