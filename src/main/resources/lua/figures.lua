#!lua flags=no-writes
-- figures.lua: what the gauges and the safety nets need to know of many queues, in one round.
--
-- Refreshing a thousand queues one command at a time is three thousand round trips every gauge
-- interval; this is one call per hash slot (one in all on a single Redis). Besides the gauges, the
-- pending summary tells the retry scheduler and the stall reclaimer whether there is anything for
-- them to look for, so an idle queue sends nothing more. Missing keys and groups are not errors
-- here: a queue whose group does not exist yet reports zeros. Reads only.
--
-- KEYS[1..] pairs of: stream, its dead-letter stream
-- ARGV[1..] the group of each pair, in the same order
--
-- Returns one item per pair:
--   { dead letters, lag (-1 when unknown), consumers, pending, oldest pending id or '',
--     { consumer, entries pending, ... } }

local out = {}
for i = 1, #ARGV do
  local stream, dlq, group = KEYS[2 * i - 1], KEYS[2 * i], ARGV[i]
  local depth = 0
  if redis.call('TYPE', dlq).ok == 'stream' then
    depth = redis.call('XLEN', dlq)
  end
  local lag, consumers, pending, oldest, owners = -1, 0, 0, '', {}
  if redis.call('TYPE', stream).ok == 'stream' then
    for _, g in ipairs(redis.call('XINFO', 'GROUPS', stream)) do
      local info = {}
      for j = 1, #g, 2 do
        info[g[j]] = g[j + 1]
      end
      if info['name'] == group then
        consumers = info['consumers']
        if type(info['lag']) == 'number' then
          lag = info['lag']
        end
        local summary = redis.call('XPENDING', stream, group)
        pending = summary[1]
        if pending > 0 then
          oldest = summary[2]
          for _, owner in ipairs(summary[4]) do
            owners[#owners + 1] = owner[1]
            owners[#owners + 1] = tonumber(owner[2])
          end
        end
      end
    end
  end
  out[i] = { depth, lag, consumers, pending, oldest, owners }
end
return out
