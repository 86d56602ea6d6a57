#!lua
-- uses lib/fields.lua
-- uses lib/clock.lua
-- uses lib/instant.lua
-- uses lib/new-proposal.lua
-- outage-propose.lua: store redrive's own proposal to redrive what a queue's outage exhausted,
-- once per outage however many replicas saw it end.
--
-- Each replica has its own circuit breaker, so each sees the outage end and calls this script
-- with the outage as it measured it: from its first transient failure until it was over (its
-- circuit closed and a call succeeded since it opened: worker/OutageWatch), as epoch ms on Redis'
-- clock. The queue's proposed outages (KEYS[5]) hold each outage a proposal was
-- made for, as "<start> <end> <proposal id>" scored by its end: a call whose outage overlaps one of
-- them (it began before that one ended, and ended after it began) is the same outage, seen by
-- another replica, and stores nothing. The check and the store are one script, so of replicas that
-- call at once exactly one proposes. Outages are remembered ARGV[6] ms after they ended (the set
-- and its key expire), so the set stays small. The proposal itself is stored as any other
-- (lib/new-proposal.lua), its time and expiry Redis'. Every key's type is checked before the first
-- write.
--
-- KEYS[1]  the proposal hash (new)
-- KEYS[2]  the stream's proposal index (a sorted set of ids by creation time, epoch ms)
-- KEYS[3]  the stream's waiting proposals (a sorted set of ids by expiry, epoch ms)
-- KEYS[4]  the stream's audit stream
-- KEYS[5]  the queue's proposed outages (a sorted set, above)
-- ARGV[1]  the proposal id
-- ARGV[2]  how long the proposal waits for a decision, ms (its expiry is now plus this)
-- ARGV[3]  how long the hash is kept, ms (index entries older than this are forgotten)
-- ARGV[4]  the outage's first failure, epoch ms (Redis' clock)
-- ARGV[5]  when it was over, epoch ms (Redis' clock)
-- ARGV[6]  how long a proposed outage is remembered after it ended, ms
-- ARGV[7..] the proposal's fields as name, value pairs (a fixed, small number; proposed-at and
--          expires-at are this script's)
--
-- Returns: { 'created', now (epoch ms, Redis' clock) }
--          { 'proposed-before', proposal id } (an overlapping outage has its proposal: nothing written)
--          { 'wrong-type', sentence } (a key it would write holds another type: nothing written)

local proposal, index, waiting, audit, outages = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local id, ttl, keep = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local first, ended, remember = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])

local refusal = wrongType({ { index, 'zset' }, { waiting, 'zset' }, { audit, 'stream' }, { outages, 'zset' } })
if refusal then
  return { 'wrong-type', refusal }
end
-- Those that ended at or after this one began; of them, one that began before this one ended.
for _, member in ipairs(redis.call('ZRANGEBYSCORE', outages, millisText(first), '+inf')) do
  local began, proposedAs = string.match(member, '^(%d+) %d+ (.+)$')
  if began and tonumber(began) <= ended then
    return { 'proposed-before', proposedAs }
  end
end

local now = storeProposal(proposal, index, waiting, audit, id, ttl, keep, 7)
redis.call('ZADD', outages, millisText(ended), millisText(first) .. ' ' .. millisText(ended) .. ' ' .. id)
redis.call('ZREMRANGEBYSCORE', outages, '-inf', '(' .. millisText(now - remember))
redis.call('PEXPIRE', outages, remember)
return { 'created', millisText(now) }
