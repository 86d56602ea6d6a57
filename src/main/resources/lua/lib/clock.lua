-- lib/clock.lua: the one clock of decisions that more than one process must agree on.
--
-- A retry's not-before written by one replica and checked by another, a redrive task's lease
-- taken by one runner and tested by the next: each process's own clock may be off (a replica an
-- hour behind held every Retry-After retry an hour late), so these scripts read Redis' clock
-- (TIME) and never take "now" from ARGV. Writing after TIME is safe: Redis 7 replicates a
-- script's effects, not the script, and every script declares itself with a #!lua line.

-- Now on Redis' clock, epoch ms.
local function redisMillis()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

-- An epoch ms as the text Redis stores (no exponent, whatever Lua's number formatting).
local function millisText(ms)
  return string.format('%.0f', ms)
end
