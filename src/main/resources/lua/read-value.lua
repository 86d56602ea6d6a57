#!lua flags=no-writes
-- uses lib/fields.lua
-- uses lib/snapshot.lua
-- read-value.lua: one slice of one field of one stream entry, for a raw download.
--
-- A whole value may be far larger than what the service can hold at once, so it is fetched in
-- slices: the service asks for the next slice when the client has taken the last. Entries never
-- change once written (a deleted id is never reused), so the slices of one value fit together.
-- A packed snapshot's fields are found as f:<name> like any other (lib/snapshot.lua).
-- Reads only (no-writes: it may run on a replica).
--
-- KEYS[1]  the stream
-- ARGV[1]  entry id
-- ARGV[2]  field name, as stored (a snapshot's fields carry the f: prefix)
-- ARGV[3]  first byte of the slice, from 0
-- ARGV[4]  bytes at most
--
-- Returns { 'value', full length, slice } | { 'gone' } (no such entry) | { 'no-field' }

local entry = redis.call('XRANGE', KEYS[1], ARGV[1], ARGV[1])
if #entry == 0 then
  return { 'gone' }
end
local flat, wanted = viewFields(entry[1][2]), ARGV[2]
for i = 1, #flat, 2 do
  if flat[i] == wanted then
    local value, from = flat[i + 1], tonumber(ARGV[3])
    return { 'value', string.len(value), string.sub(value, from + 1, from + tonumber(ARGV[4])) }
  end
end
return { 'no-field' }
