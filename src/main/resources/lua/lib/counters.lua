-- lib/counters.lua: the dead-letter stream's counters (its stats hash), kept by every script that
-- parks, replays or discards, so a dead letter is counted in and out by one rule.
--
-- A dead letter counts in `parked` and under its failure kind, origin stream and fingerprint
-- (failure:<kind>, origin:<stream>, fingerprint:<hash>); the fingerprint's text is kept beside its
-- counter (fingerprint-text:<hash>) for listings, and dropped with it when the counter reaches zero.
-- For the console's causes, a fingerprint also counts its dead letters per origin and per job
-- (fingerprint-origin:<hash>:<origin>, fingerprint-job:<hash>:<job>; a hash is 12 hex digits, so
-- the key splits after it) and keeps the dead-at of its first and latest park since it last had
-- none (fingerprint-first:<hash>, fingerprint-last:<hash>) and the id of its latest dead letter
-- (fingerprint-sample:<hash>): all dropped with its counter. parked-minute:<MM> holds
-- '<YYYY-MM-DDTHH:MM> <n>', the parks in the latest minute with that minute of the hour, so the
-- rate of the last minutes is read from at most 60 fields, whatever the depth. parked-hour:<HH> and,
-- per fingerprint, fingerprint-hour:<hash>:<HH> hold '<YYYY-MM-DDTHH> <n>' the same way for the
-- console's chart of the last 24 hours: 24 fields a stream and 24 a cause (dropped with its counter),
-- each slot overwritten by the next day's park in that hour, so they never grow with time.

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
local counted = { deltas = {}, order = {}, texts = {}, first = {}, last = {}, sample = {}, minutes = {}, hours = {},
  causeHours = {} }

local function countField(field, delta)
  if counted.deltas[field] == nil then
    counted.deltas[field] = 0
    counted.order[#counted.order + 1] = field
  end
  counted.deltas[field] = counted.deltas[field] + delta
end

-- The counters of one cause (failure, origin, fingerprint, job) changed by `delta`.
local function countCause(cause, delta)
  countField('parked', delta)
  countField('failure:' .. cause.failure, delta)
  countField('origin:' .. cause.origin, delta)
  countField('fingerprint:' .. cause.fingerprint, delta)
  countField('fingerprint-origin:' .. cause.fingerprint .. ':' .. cause.origin, delta)
  countField('fingerprint-job:' .. cause.fingerprint .. ':' .. cause.job, delta)
end

-- Dead letters of a call mostly share one cause and one dead-at (a batch of one failure parked
-- together, a redrive of one fingerprint): a run of equal ones is counted once when it ends, not
-- its six field names, its minute and its hour worked out per entry.
local run = { n = 0 }

local function endRun()
  if run.n == 0 then
    return
  end
  countCause(run, run.n)
  local fingerprint, deadAt = run.fingerprint, run.deadAt
  if run.text then
    counted.texts[fingerprint] = run.text
  end
  if deadAt and deadAt ~= '' then
    if not counted.first[fingerprint] then
      counted.first[fingerprint] = deadAt
    end
    counted.last[fingerprint] = deadAt
    local minute = string.sub(deadAt, 1, 16)
    local hour = string.sub(minute, 1, 13)
    counted.minutes[minute] = (counted.minutes[minute] or 0) + run.n
    counted.hours[hour] = (counted.hours[hour] or 0) + run.n
    local causeHours = counted.causeHours[fingerprint] or {}
    counted.causeHours[fingerprint] = causeHours
    causeHours[hour] = (causeHours[hour] or 0) + run.n
  end
  counted.sample[fingerprint] = run.id or counted.sample[fingerprint]
  run.n, run.text, run.id = 0, nil, nil
end

-- One dead letter counted in (delta 1, with its fingerprint's text, its dead-at and its new id) or
-- out (delta -1, text, deadAt and id nil).
local function countDeadLetter(delta, failure, origin, fingerprint, job, text, deadAt, id)
  if run.failure ~= failure or run.origin ~= origin or run.fingerprint ~= fingerprint or run.job ~= job
      or run.deadAt ~= deadAt or run.n * delta < 0 then
    endRun()
    run.failure, run.origin, run.fingerprint, run.job, run.deadAt = failure, origin, fingerprint, job, deadAt
  end
  run.n = run.n + delta
  if text then
    run.text = text
  end
  if id then
    run.id = id
  end
end

-- Adds n parks to a ring slot (parked-minute:<MM>, parked-hour:<HH>, fingerprint-hour:<hash>:<HH>:
-- `prefix` then the stamp's last two digits), starting again where the stored value is of an older
-- minute or hour.
local function countSlot(stats, prefix, stamp, n)
  local slot = string.match(stamp, '(%d%d)$')
  if not slot then
    return
  end
  local field = prefix .. slot
  local stored = redis.call('HGET', stats, field)
  local at, count = string.match(stored or '', '^(%S+) (%d+)$')
  if at == stamp then
    n = n + tonumber(count)
  elseif at and at > stamp then
    return -- a later minute or hour already took the slot
  end
  redis.call('HSET', stats, field, stamp .. ' ' .. string.format('%d', n))
end

-- The fields of a fingerprint's ring of hours, dropped with its counter.
local function causeHourFields(fingerprint)
  local fields = {}
  for hh = 0, 23 do
    fields[#fields + 1] = string.format('fingerprint-hour:%s:%02d', fingerprint, hh)
  end
  return fields
end

-- Writes what was counted into the stats hash.
local function flushCounts(stats)
  endRun()
  for _, field in ipairs(counted.order) do
    if addTo(stats, field, counted.deltas[field]) <= 0 and string.sub(field, 1, 12) == 'fingerprint:' then
      local fingerprint = string.sub(field, 13)
      redis.call('HDEL', stats, 'fingerprint-text:' .. fingerprint, 'fingerprint-first:' .. fingerprint,
        'fingerprint-last:' .. fingerprint, 'fingerprint-sample:' .. fingerprint)
      redis.call('HDEL', stats, unpack(causeHourFields(fingerprint)))
    end
  end
  -- A cause's text and first park are kept from its first; its latest park and sample replaced.
  for _, put in ipairs({ { 'HSETNX', 'fingerprint-text:', counted.texts }, { 'HSETNX', 'fingerprint-first:', counted.first },
    { 'HSET', 'fingerprint-last:', counted.last }, { 'HSET', 'fingerprint-sample:', counted.sample } }) do
    for fingerprint, value in pairs(put[3]) do
      redis.call(put[1], stats, put[2] .. fingerprint, value)
    end
  end
  for minute, n in pairs(counted.minutes) do
    countSlot(stats, 'parked-minute:', minute, n)
  end
  for hour, n in pairs(counted.hours) do
    countSlot(stats, 'parked-hour:', hour, n)
  end
  for fingerprint, hours in pairs(counted.causeHours) do
    for hour, n in pairs(hours) do
      countSlot(stats, 'fingerprint-hour:' .. fingerprint .. ':', hour, n)
    end
  end
end
