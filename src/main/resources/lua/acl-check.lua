#!lua flags=no-writes
-- acl-check.lua: which of the commands redrive sends its Redis user may not run.
--
-- Redis 7 checks a command against the calling user's ACL (commands and key patterns) without
-- running it (redis.acl_check_cmd), and a script may ask that of any user: ACL DRYRUN would need
-- @admin, which a least-privilege user must not have. Run at start-up, so a missing permission
-- refuses the start naming the command and key instead of failing jobs later. Writes nothing.
--
-- ARGV[1..] groups of: the group's length n, then n words: a command, its arguments (the keys
--           where that command takes them)
--
-- Returns the numbers of the groups the user may not run (1 for the first group).

local refused = {}
local i, group = 1, 1
while i <= #ARGV do
  local n = tonumber(ARGV[i])
  local words = { unpack(ARGV, i + 1, i + n) }
  if not redis.acl_check_cmd(unpack(words)) then
    refused[#refused + 1] = group
  end
  i = i + n + 1
  group = group + 1
end
return refused
