#!lua
-- uses lib/fields.lua
-- uses lib/clock.lua
-- uses lib/instant.lua
-- uses lib/proposal.lua
-- uses lib/start-task.lua
-- proposal-approve.lua: approve a proposed redrive and start its task, exactly as proposed, in one
-- step, with both audit records (the approval, and the redrive it starts).
--
-- The decision and the start are one script, so of two approvers at once exactly one starts a
-- task and the other is told the proposal is decided; a proposal is never applied twice. The
-- start follows redrive-start.lua's rule (lib/start-task.lua): while another redrive of the
-- stream is unfinished nothing is written, and the proposal stays open for a later approval.
-- Expiry, the decision's time and the task's index score are Redis' (lib/clock.lua), never the
-- caller's: a replica whose clock is behind can't approve a proposal that has expired. The task
-- moves only what the proposal covered: its fields (the caller's) carry the proposal's until.
-- Every check runs before the first write.
--
-- KEYS[1]  the proposal hash
-- KEYS[2]  the stream's waiting proposals (a sorted set; the approved one leaves it)
-- KEYS[3]  the stream's audit stream
-- KEYS[4]  the stream's running-redrive pointer (a string: a task id)
-- KEYS[5]  the task hash the pointer named when read (the new task's hash when it named none)
-- KEYS[6]  the new task hash
-- KEYS[7]  the stream's task index
-- ARGV[1]  the task id the pointer named when read, or ''
-- ARGV[2]  the new task id
-- ARGV[3]  the caller's now (redrive-start.lua's layout); unused: this script reads Redis' clock
-- ARGV[4]  the approver (their name as it is recorded)
-- ARGV[5]  that name's four-eyes key (redrive/FourEyes: compared with the proposer's)
-- ARGV[6]  the approver's note, or ''
-- ARGV[7..] the new task's fields as name, value pairs (a fixed, small number)
--
-- Returns: { 'approved' }
--          { 'gone' } (no such proposal)        { 'decided', state } (approved or rejected before)
--          { 'expired' }                         { 'own' } (the approver proposed it)
--          { 'running', task id, state } (another redrive of the stream is unfinished)
--          { 'changed' } (the pointer moved since it was read: read it again)
--          { 'wrong-type', sentence } (a key it would write holds another type)
--          nothing written in all but the first

local proposal, waiting, audit, pointer, seen, task, index = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6],
  KEYS[7]
local seenId, id, approver, approverKey, note = ARGV[1], ARGV[2], ARGV[4], ARGV[5], ARGV[6]

local now = redisMillis()
local refused = undecidable(proposal, now, approverKey) or startRefused(pointer, seen, seenId)
if refused then
  return refused
end
local wrong = wrongType({ { waiting, 'zset' }, { audit, 'stream' }, { task, 'hash' }, { index, 'zset' } })
if wrong then
  return { 'wrong-type', wrong }
end
createTask(pointer, task, index, id, millisText(now), false, 7)
redis.call('HSET', proposal, 'state', 'approved', 'decided-by', approver, 'decided-at', millisText(now),
  'decision-note', note, 'task', id)
local about = { redis.call('HGET', proposal, 'id'), redis.call('HGET', proposal, 'dlq') }
redis.call('ZREM', waiting, about[1])
local at = instantText(now)
redis.call('XADD', audit, '*', 'action', 'proposal-approve', 'actor', approver, 'at', at, 'note', note,
  'dlq', about[2], 'proposal', about[1], 'task', id)
redis.call('XADD', audit, '*', 'action', 'redrive', 'actor', approver, 'at', at,
  'note', redis.call('HGET', task, 'note') or '', 'dlq', about[2], 'task', id, 'proposal', about[1])
return { 'approved' }
