#!lua
-- uses lib/fields.lua
-- uses lib/proposal.lua
-- uses lib/start-task.lua
-- proposal-approve.lua: approve a proposed redrive and start its task, exactly as proposed, in one step.
--
-- The decision and the start are one script, so of two approvers at once exactly one starts a
-- task and the other is told the proposal is decided; a proposal is never applied twice. The
-- start follows redrive-start.lua's rule (lib/start-task.lua): while another redrive of the
-- stream is unfinished nothing is written, and the proposal stays open for a later approval.
-- Every check runs before the first write.
--
-- KEYS[1]  the proposal hash
-- KEYS[2]  the stream's waiting proposals (a sorted set; the approved one leaves it)
-- KEYS[3]  the stream's running-redrive pointer (a string: a task id)
-- KEYS[4]  the task hash the pointer named when read (the new task's hash when it named none)
-- KEYS[5]  the new task hash
-- KEYS[6]  the stream's task index
-- ARGV[1]  the task id the pointer named when read, or ''
-- ARGV[2]  the new task id
-- ARGV[3]  now, epoch ms
-- ARGV[4]  the approver
-- ARGV[5]  the approver's note, or ''
-- ARGV[6..] the new task's fields as name, value pairs (a fixed, small number)
--
-- Returns: { 'approved' }
--          { 'gone' } (no such proposal)        { 'decided', state } (approved or rejected before)
--          { 'expired' }                         { 'own' } (the approver proposed it)
--          { 'running', task id, state } (another redrive of the stream is unfinished)
--          { 'changed' } (the pointer moved since it was read: read it again)
--          { 'wrong-type', sentence } (a key it would write holds another type)
--          nothing written in all but the first

local proposal, waiting, pointer, seen, task, index = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local seenId, id, now, approver, note = ARGV[1], ARGV[2], tonumber(ARGV[3]), ARGV[4], ARGV[5]

local refused = undecidable(proposal, now, approver) or startRefused(pointer, seen, seenId)
if refused then
  return refused
end
local wrong = wrongType({ { waiting, 'zset' }, { task, 'hash' }, { index, 'zset' } })
if wrong then
  return { 'wrong-type', wrong }
end
createTask(pointer, task, index, id, ARGV[3], false, 6)
redis.call('HSET', proposal, 'state', 'approved', 'decided-by', approver, 'decided-at', ARGV[3],
  'decision-note', note, 'task', id)
redis.call('ZREM', waiting, redis.call('HGET', proposal, 'id'))
return { 'approved' }
