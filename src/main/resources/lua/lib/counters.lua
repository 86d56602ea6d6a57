-- lib/counters.lua: the dead-letter stream's counters (its stats hash), kept by every script that
-- parks, replays or discards, so a dead letter is counted in and out by one rule.
--
-- A dead letter counts in `parked` and under its failure kind, origin stream and fingerprint
-- (failure:<kind>, origin:<stream>, fingerprint:<hash>); the fingerprint's text is kept beside its
-- counter (fingerprint-text:<hash>) for listings, and dropped with it when the counter reaches zero.

-- Adds `delta` to a counter of a hash (dropped at zero or below) and returns the new value. Read
-- and set rather than HINCRBY, which fails on a value that is not an integer: a counter someone
-- overwrote starts again from zero instead of stopping a script half way.
local function addTo(hash, field, delta)
  local value = (tonumber(redis.call('HGET', hash, field)) or 0) + delta
  if value <= 0 then
    redis.call('HDEL', hash, field)
  else
    redis.call('HSET', hash, field, string.format('%d', value))
  end
  return value
end

-- Changes are gathered while a script works and written once at its end (flushCounts): a call
-- that parks or moves many entries writes each counter once.
local counted = { deltas = {}, order = {}, texts = {} }

local function countField(field, delta)
  if counted.deltas[field] == nil then
    counted.deltas[field] = 0
    counted.order[#counted.order + 1] = field
  end
  counted.deltas[field] = counted.deltas[field] + delta
end

-- One dead letter counted in (delta 1, with its fingerprint's text) or out (delta -1, text nil).
local function countDeadLetter(delta, failure, origin, fingerprint, text)
  countField('parked', delta)
  countField('failure:' .. failure, delta)
  countField('origin:' .. origin, delta)
  countField('fingerprint:' .. fingerprint, delta)
  if text then
    counted.texts[fingerprint] = text
  end
end

-- Writes what was counted into the stats hash.
local function flushCounts(stats)
  for _, field in ipairs(counted.order) do
    if addTo(stats, field, counted.deltas[field]) <= 0 and string.sub(field, 1, 12) == 'fingerprint:' then
      redis.call('HDEL', stats, 'fingerprint-text:' .. string.sub(field, 13))
    end
  end
  for fingerprint, text in pairs(counted.texts) do
    redis.call('HSETNX', stats, 'fingerprint-text:' .. fingerprint, text)
  end
end
