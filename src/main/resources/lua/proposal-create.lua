#!lua
-- uses lib/fields.lua
-- proposal-create.lua: store a proposed bulk redrive; nothing moves until another operator approves it.
--
-- The proposal's hash lives in its dead-letter stream's slot, beside the stream's redrive keys, so
-- its approval can start the task in one step (proposal-approve.lua). The hash expires a while
-- after the proposal does (the caller's keep), and the index forgets ids older than that, so
-- proposals nobody decides do not pile up. The waiting set holds the undecided ones by expiry, so
-- what waits is counted without reading every proposal; expired ones leave it here.
--
-- KEYS[1]  the proposal hash (new)
-- KEYS[2]  the stream's proposal index (a sorted set of ids by creation time, epoch ms)
-- KEYS[3]  the stream's waiting proposals (a sorted set of ids by expiry, epoch ms)
-- ARGV[1]  the proposal id
-- ARGV[2]  now, epoch ms (the index score)
-- ARGV[3]  how long the hash is kept, ms
-- ARGV[4]  index entries scored below this (epoch ms) are forgotten
-- ARGV[5]  the proposal's expiry, epoch ms (the waiting score)
-- ARGV[6..] the proposal's fields as name, value pairs (a fixed, small number)
--
-- Returns: { 'created' }
--          { 'wrong-type', sentence } (the index or the waiting set holds another type: nothing written)

local proposal, index, waiting = KEYS[1], KEYS[2], KEYS[3]
local id, now, keep, forget, expires = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5]

local refusal = wrongType({ { index, 'zset' }, { waiting, 'zset' } })
if refusal then
  return { 'wrong-type', refusal }
end

local fields = {}
for i = 6, #ARGV do
  fields[#fields + 1] = ARGV[i]
end
redis.call('HSET', proposal, unpack(fields))
redis.call('PEXPIRE', proposal, keep)
redis.call('ZADD', index, now, id)
redis.call('ZREMRANGEBYSCORE', index, '-inf', '(' .. forget)
redis.call('ZADD', waiting, expires, id)
redis.call('ZREMRANGEBYSCORE', waiting, '-inf', now)
return { 'created' }
