#!lua
-- uses lib/fields.lua
-- uses lib/proposal.lua
-- proposal-reject.lua: reject a proposed redrive; nothing moves, and it can be approved no more.
--
-- KEYS[1]  the proposal hash
-- KEYS[2]  the stream's waiting proposals (a sorted set; the rejected one leaves it)
-- ARGV[1]  now, epoch ms
-- ARGV[2]  who rejects it
-- ARGV[3]  their note, or ''
--
-- Returns: { 'rejected' }
--          { 'gone' } (no such proposal)        { 'decided', state } (approved or rejected before)
--          { 'expired' }                         { 'own' } (the rejecter proposed it)
--          { 'wrong-type', sentence } (the waiting set holds another type)
--          nothing written in all but the first

local proposal, waiting = KEYS[1], KEYS[2]
local now, actor, note = tonumber(ARGV[1]), ARGV[2], ARGV[3]

local refused = undecidable(proposal, now, actor)
if refused then
  return refused
end
local wrong = wrongType({ { waiting, 'zset' } })
if wrong then
  return { 'wrong-type', wrong }
end
redis.call('HSET', proposal, 'state', 'rejected', 'decided-by', actor, 'decided-at', ARGV[1], 'decision-note', note)
redis.call('ZREM', waiting, redis.call('HGET', proposal, 'id'))
return { 'rejected' }
