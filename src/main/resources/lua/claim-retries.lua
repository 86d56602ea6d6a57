-- claim-retries.lua: move due retries from the retry consumer to a worker, as one step.
--
-- A failed entry waits, still pending, under the shared retry consumer. The caller has found it
-- due (its idle time passed the backoff for its delivery count). Checking the owner and claiming
-- in one script means two replicas that see the same entry due can't both run it, whatever the
-- backoff (even zero). XCLAIM without JUSTID counts a delivery: that count is the attempt number.
--
-- KEYS[1]  stream
-- KEYS[2]  the stream's not-before hash (entry id -> epoch ms from Retry-After; same hash slot)
-- ARGV[1]  consumer group
-- ARGV[2]  retry consumer (where failed entries wait)
-- ARGV[3]  worker consumer (who runs the attempt)
-- ARGV[4]  now, epoch ms
-- ARGV[5..] candidate entry ids
--
-- Returns an array, one item per claimed entry:
--   { id, delivery count after the claim, { field, value, ... } }
--   { id, delivery count so far }  when the entry was trimmed from the stream: it stays pending
--                                  under the retry consumer for the caller to park as missing
-- Entries no longer owned by the retry consumer, or not yet past their Retry-After, are skipped.

local stream, notBefore = KEYS[1], KEYS[2]
local group, retryConsumer, worker, now = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4])
local claimed = {}

for i = 5, #ARGV do
  local id = ARGV[i]
  local pending = redis.call('XPENDING', stream, group, id, id, 1, retryConsumer)
  if #pending == 1 then
    local hint = redis.call('HGET', notBefore, id)
    if (not hint) or tonumber(hint) <= now then
      local entry = redis.call('XRANGE', stream, id, id)
      if #entry == 0 then
        claimed[#claimed + 1] = { id, pending[1][4] }
      else
        redis.call('XCLAIM', stream, group, worker, 0, id)
        redis.call('HDEL', notBefore, id)
        claimed[#claimed + 1] = { id, pending[1][4] + 1, entry[1][2] }
      end
    end
  end
end

return claimed
