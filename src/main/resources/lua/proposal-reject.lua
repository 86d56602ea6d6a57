#!lua
-- uses lib/proposal.lua
-- proposal-reject.lua: reject a proposed redrive; nothing moves, and it can be approved no more.
--
-- KEYS[1]  the proposal hash
-- ARGV[1]  now, epoch ms
-- ARGV[2]  who rejects it
-- ARGV[3]  their note, or ''
--
-- Returns: { 'rejected' }
--          { 'gone' } (no such proposal)        { 'decided', state } (approved or rejected before)
--          { 'expired' }                         { 'own' } (the rejecter proposed it)
--          nothing written in all but the first

local proposal = KEYS[1]
local now, actor, note = tonumber(ARGV[1]), ARGV[2], ARGV[3]

local refused = undecidable(proposal, now, actor)
if refused then
  return refused
end
redis.call('HSET', proposal, 'state', 'rejected', 'decided-by', actor, 'decided-at', ARGV[1], 'decision-note', note)
return { 'rejected' }
