-- uses lib/fields.lua
-- lib/claims.lua: XCLAIM for claim.lua and transfer.lua, which check before they call it.
--
-- On Redis 7, XCLAIM (and XAUTOCLAIM) deletes from the PEL, without a word, a pending entry whose
-- stream entry was trimmed: nobody could park it afterwards, and the job is gone without a trace.
-- So these scripts look every id up in the PEL and in the stream first (lib/ranges.lua) and call
-- claimIds only with ids whose entry still exists; the trimmed ones stay pending, for the caller
-- to park as missing.

-- Gives `ids` to `consumer` without returning them (JUSTID), restarting their idle time; with
-- `count`, sets their delivery count to it (RETRYCOUNT).
local function claimIds(stream, group, consumer, ids, count)
  inSlices('XCLAIM', { stream, group, consumer, 0 }, ids, count and { 'JUSTID', 'RETRYCOUNT', count } or { 'JUSTID' })
end
