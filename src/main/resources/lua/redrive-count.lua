#!lua
-- uses lib/record.lua
-- uses lib/filter.lua
-- uses lib/task.lua
-- redrive-count.lua: count the next page of what a redrive will move (its `matched`).
--
-- The filter is lib/filter.lua, the listing's and the moves' own. The count runs in Redis page by
-- page, and its cursor and total change in the same step as the page is read, so a runner that
-- dies or loses its lease can neither skip a page nor count one twice. An empty filter is counted
-- from the stream's length, less what was parked since the task began, without reading entries.
--
-- KEYS[1]  dead-letter stream
-- KEYS[2]  the redrive task hash                 (same hash slot)
-- ARGV[1..8] the filter (lib/filter.lua)
-- ARGV[9]  the runner (must hold the task, in state counting)
-- ARGV[10] entries to examine at most
--
-- Returns { 'stopped' }       (finished, cancelled, or another runner holds it: nothing written)
--         { 'ok', done }      (done: 1 when the count reached the task's end, else 0)

local dlq, task = KEYS[1], KEYS[2]
local filter, owner, budget = filterAt(1), ARGV[9], tonumber(ARGV[10])

if not holds(task, owner, { counting = true }) then
  return { 'stopped' }
end
local untilId = redis.call('HGET', task, 'until')
if filter.any then
  -- Everything up to the task's end matches: the length less what was parked since it began,
  -- without reading every entry (unless a page's worth was parked meanwhile).
  local newer = redis.call('XREVRANGE', dlq, '+', '(' .. untilId, 'COUNT', budget)
  if #newer < budget then
    redis.call('HSET', task, 'matched', redis.call('XLEN', dlq) - #newer)
    return { 'ok', 1 }
  end
end
local page = redis.call('XRANGE', dlq, after(redis.call('HGET', task, 'count-cursor')), untilId, 'COUNT', budget)
local matched = 0
for _, entry in ipairs(page) do
  if matches(filter, entry[1], recordOf(entry[2])) then
    matched = matched + 1
  end
end
if #page > 0 then
  redis.call('HSET', task, 'count-cursor', page[#page][1])
  redis.call('HINCRBY', task, 'matched', matched)
end
return { 'ok', #page < budget and 1 or 0 }
