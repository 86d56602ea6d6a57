-- lib/new-proposal.lua: storing a new proposal with its audit record, the one copy for
-- proposal-create.lua (a person's or an agent's proposal) and outage-propose.lua (redrive's own,
-- after an outage), so a proposal is stored, indexed, expired and audited alike whoever made it.
--
-- The proposal's hash lives in its dead-letter stream's slot, beside the stream's redrive keys, so
-- its approval can start the task in one step (proposal-approve.lua). The hash expires a while
-- after the proposal does (`keep`), and the index forgets ids older than that, so proposals nobody
-- decides do not pile up. The waiting set holds the undecided ones by expiry, so what waits is
-- counted without reading every proposal; expired ones leave it here. The proposal's time and
-- expiry are Redis' (lib/clock.lua): every process decides on them against the same clock.

-- Writes the proposal `id` (its fields: name, value, ... from ARGV[fieldsAt] on, a fixed small
-- number; proposed-at and expires-at are added here) into `proposal`, indexes it in `index` (a
-- zset by creation time), puts it among the `waiting` (a zset by expiry) for `ttl` ms, keeps the
-- hash `keep` ms and adds its audit record (action proposal) to `audit`. Call only after every
-- check passed, the types of index, waiting and audit among them. Returns now (epoch ms).
local function storeProposal(proposal, index, waiting, audit, id, ttl, keep, fieldsAt)
  local now = redisMillis()
  local fields = {}
  for i = fieldsAt, #ARGV do
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
  return now
end
