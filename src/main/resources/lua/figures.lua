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

-- pcall, not TYPE then the command: a missing or foreign key costs nothing extra and fails only
-- its own queue's figures, and three commands per queue stay three.
local out = {}
for i = 1, #ARGV do
  local stream, dlq, group = KEYS[2 * i - 1], KEYS[2 * i], ARGV[i]
  local depth = redis.pcall('XLEN', dlq)
  if type(depth) ~= 'number' then
    depth = 0
  end
  local lag, consumers, pending, oldest, owners = -1, 0, 0, '', {}
  local groups = redis.pcall('XINFO', 'GROUPS', stream)
  if type(groups) == 'table' and not groups.err then
    for _, g in ipairs(groups) do
      local info = {}
      for j = 1, #g, 2 do
        info[g[j]] = g[j + 1]
      end
      if info['name'] == group then
        consumers = info['consumers']
        if type(info['lag']) == 'number' then
          lag = info['lag']
        end
        -- Redis 7.0 computes lag from the group's entries-read, which a replica does not follow
        -- (its XREADGROUPs arrive without it): after a failover a group that read everything can
        -- show thousands forever, a lag alert and an autoscaler acting on nothing. An entry after
        -- the last delivered one is what lag counts; none means none, whatever entries-read says.
        if lag > 0 and #redis.call('XRANGE', stream, '(' .. info['last-delivered-id'], '+', 'COUNT', 1) == 0 then
          lag = 0
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
