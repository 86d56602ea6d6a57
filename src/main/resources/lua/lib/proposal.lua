-- lib/proposal.lua: whether a proposal may be decided now (proposal-approve.lua, proposal-reject.lua).
-- The fields are redrive/Proposal's; 'proposed' is redrive/ProposalState's only undecided state.

-- Why the person whose name normalises to `actorKey` (redrive/FourEyes) may not decide the proposal
-- at `now` (epoch ms, Redis' clock), as the script's reply, or nil when they may: { 'gone' } (no
-- such proposal), { 'decided', state }, { 'expired' }, or { 'own' } (the proposer decides nothing
-- of their own: four eyes). A proposal made before proposer-key was kept compares its proposer's
-- name trimmed and lower-cased (FourEyes' key of a plain ASCII name). Reads only.
local function undecidable(proposal, now, actorKey)
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
  local proposer = redis.call('HGET', proposal, 'proposer-key') or
    string.lower(string.match(redis.call('HGET', proposal, 'proposed-by') or '', '^%s*(.-)%s*$'))
  if proposer == actorKey then
    return { 'own' }
  end
  return nil
end
