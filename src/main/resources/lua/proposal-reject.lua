#!lua
-- uses lib/fields.lua
-- uses lib/clock.lua
-- uses lib/instant.lua
-- uses lib/proposal.lua
-- proposal-reject.lua: reject a proposed redrive, with its audit record; nothing moves, and it can
-- be approved no more.
--
-- Expiry and the decision's time are Redis' (lib/clock.lua), never the caller's: a replica whose
-- clock is behind can't decide a proposal that has expired. Every check runs before the first write.
--
-- KEYS[1]  the proposal hash
-- KEYS[2]  the stream's waiting proposals (a sorted set; the rejected one leaves it)
-- KEYS[3]  the stream's audit stream
-- ARGV[1]  who rejects it (their name as it is recorded)
-- ARGV[2]  that name's four-eyes key (redrive/FourEyes: compared with the proposer's)
-- ARGV[3]  their note, or ''
--
-- Returns: { 'rejected' }
--          { 'gone' } (no such proposal)        { 'decided', state } (approved or rejected before)
--          { 'expired' }                         { 'own' } (the rejecter proposed it)
--          { 'wrong-type', sentence } (the waiting set or the audit stream holds another type)
--          nothing written in all but the first

local proposal, waiting, audit = KEYS[1], KEYS[2], KEYS[3]
local actor, actorKey, note = ARGV[1], ARGV[2], ARGV[3]

local now = redisMillis()
local refused = undecidable(proposal, now, actorKey)
if refused then
  return refused
end
local wrong = wrongType({ { waiting, 'zset' }, { audit, 'stream' } })
if wrong then
  return { 'wrong-type', wrong }
end
redis.call('HSET', proposal, 'state', 'rejected', 'decided-by', actor, 'decided-at', millisText(now),
  'decision-note', note)
local about = { redis.call('HGET', proposal, 'id'), redis.call('HGET', proposal, 'dlq') }
redis.call('ZREM', waiting, about[1])
redis.call('XADD', audit, '*', 'action', 'proposal-reject', 'actor', actor, 'at', instantText(now), 'note', note,
  'dlq', about[2], 'proposal', about[1])
return { 'rejected' }
