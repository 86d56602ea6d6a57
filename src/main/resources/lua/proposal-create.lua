#!lua
-- uses lib/fields.lua
-- uses lib/clock.lua
-- uses lib/instant.lua
-- uses lib/new-proposal.lua
-- proposal-create.lua: store a proposed bulk redrive and its audit record; nothing moves until
-- another operator approves it.
--
-- How a proposal is stored, indexed and expired is lib/new-proposal.lua's (outage-propose.lua
-- stores redrive's own the same way). Every key's type is checked before the first write, so a
-- proposal is never stored without its audit record.
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

local now = storeProposal(proposal, index, waiting, audit, id, ttl, keep, 4)
return { 'created', millisText(now) }
