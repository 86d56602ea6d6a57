-- dead-letter.lua: park one job in one atomic step.
--
-- Copies the origin entry, read here from the stream so the snapshot is byte for byte what the
-- producer wrote, into the dead-letter stream together with its record; then acks the origin
-- entry and counts the dead letter. Nothing else can run in between, so a job is never acked
-- without being parked, and never parked twice (a second call finds it no longer pending).
--
-- KEYS[1]  origin stream
-- KEYS[2]  dead-letter stream           (same hash slot as KEYS[1])
-- KEYS[3]  dead-letter stats hash       (same hash slot)
-- KEYS[4]  origin's not-before hash     (same hash slot)
-- KEYS[5]  optional: the redrive task hash that replayed this job (same hash slot); its
--          'failed' count goes up, so a canary sees its jobs come back
-- ARGV[1]  consumer group
-- ARGV[2]  origin entry id
-- ARGV[3]  failure kind (terminal, exhausted, missing, max-receive), counted in KEYS[3]
-- ARGV[4]  fingerprint of the cause (a short hash), counted in KEYS[3]
-- ARGV[5]  the fingerprint's normalised text, kept once in KEYS[3] so listings can show it
-- ARGV[6..] the record's own fields, as name, value pairs (the snapshot is added here, as f:<name>)
--
-- Returns: the new dead-letter entry id
--          0 when the entry is not pending in the group any more (someone acked or parked it)

local origin, dlq, stats, notBefore = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local group, id, kind, fingerprint, fingerprintText = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5]

if #redis.call('XPENDING', origin, group, id, id, 1) == 0 then
  return 0
end

local args = { dlq, '*' }
for i = 6, #ARGV do
  args[#args + 1] = ARGV[i]
end

local entry = redis.call('XRANGE', origin, id, id)
if #entry == 0 then
  -- Trimmed away before it completed: park what we still know rather than drop it.
  args[#args + 1] = 'snapshot'
  args[#args + 1] = 'missing'
else
  local fields = entry[1][2]
  for i = 1, #fields, 2 do
    args[#args + 1] = 'f:' .. fields[i]
    args[#args + 1] = fields[i + 1]
  end
end

local dlqId = redis.call('XADD', unpack(args))
redis.call('XACK', origin, group, id)
redis.call('HDEL', notBefore, id)
redis.call('HINCRBY', stats, 'parked', 1)
redis.call('HINCRBY', stats, 'failure:' .. kind, 1)
redis.call('HINCRBY', stats, 'origin:' .. origin, 1)
redis.call('HINCRBY', stats, 'fingerprint:' .. fingerprint, 1)
redis.call('HSETNX', stats, 'fingerprint-text:' .. fingerprint, fingerprintText)
if KEYS[5] and redis.call('EXISTS', KEYS[5]) == 1 then
  redis.call('HINCRBY', KEYS[5], 'failed', 1)
end
return dlqId
