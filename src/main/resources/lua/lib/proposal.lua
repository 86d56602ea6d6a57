-- lib/proposal.lua: whether a proposal may be decided now (proposal-approve.lua, proposal-reject.lua).
-- The fields are redrive/Proposal's; 'proposed' is redrive/ProposalState's only undecided state.

-- Why `actor` may not decide the proposal at `now` (epoch ms), as the script's reply, or nil when
-- they may: { 'gone' } (no such proposal), { 'decided', state }, { 'expired' }, or { 'own' } (the
-- proposer decides nothing of their own: four eyes). Reads only.
local function undecidable(proposal, now, actor)
  local state = redis.call('HGET', proposal, 'state')
  if not state then
    return { 'gone' }
  end
  if state ~= 'proposed' then
    return { 'decided', state }
  end
  if tonumber(redis.call('HGET', proposal, 'expires-at')) <= now then
    return { 'expired' }
  end
  if redis.call('HGET', proposal, 'proposed-by') == actor then
    return { 'own' }
  end
  return nil
end
