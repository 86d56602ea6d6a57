-- lib/filter.lua: which dead letters a listing, a redrive's count and a redrive's moves select.
-- One copy, so the three can never disagree about which entries match.
--
-- The filter travels as eight ARGV items, '' meaning any: origin stream, job, failure kind,
-- fingerprint, dead from (inclusive) and dead to (exclusive) as normalised times (below), entry
-- ids comma-separated, and a text to find in the reason or the error type (lower case; the
-- record's are lowered to compare, plain text, no patterns). An entry's record comes from
-- recordOf (lib/record.lua).

-- An ISO-8601 instant as Java writes it (0, 3, 6 or 9 fraction digits) made comparable as text:
-- 2024-05-01T12:00:00.500000000. Unreadable text matches no time range.
local function normalise(t)
  if not t then
    return nil
  end
  local base, fraction = string.match(t, '^(%d%d%d%d%-%d%d%-%d%dT%d%d:%d%d:%d%d)%.?(%d*)Z$')
  if not base or #fraction > 9 then
    return nil
  end
  return base .. '.' .. fraction .. string.rep('0', 9 - #fraction)
end

-- The filter from ARGV[at] to ARGV[at + 7].
local function filterAt(at)
  local f = { origin = ARGV[at], job = ARGV[at + 1], failure = ARGV[at + 2], fingerprint = ARGV[at + 3],
    from = ARGV[at + 4], to = ARGV[at + 5], text = ARGV[at + 7] }
  if ARGV[at + 6] ~= '' then
    f.ids = {}
    for one in string.gmatch(ARGV[at + 6], '[^,]+') do
      f.ids[one] = true
    end
  end
  f.any = not f.ids and f.origin == '' and f.job == '' and f.failure == '' and f.fingerprint == '' and f.from == ''
    and f.to == '' and f.text == ''
  return f
end

local function matches(f, id, record)
  if f.origin ~= '' and record['origin-stream'] ~= f.origin then return false end
  if f.job ~= '' and record['job'] ~= f.job then return false end
  if f.failure ~= '' and record['failure'] ~= f.failure then return false end
  if f.fingerprint ~= '' and record['fingerprint'] ~= f.fingerprint then return false end
  if f.ids and not f.ids[id] then return false end
  if f.text ~= '' and not string.find(string.lower(record['reason'] or ''), f.text, 1, true)
    and not string.find(string.lower(record['error-type'] or ''), f.text, 1, true) then
    return false
  end
  if f.from ~= '' or f.to ~= '' then
    local dead = normalise(record['dead-at'])
    if not dead or (f.from ~= '' and dead < f.from) or (f.to ~= '' and dead >= f.to) then return false end
  end
  return true
end

-- XRANGE's start after an exclusive cursor ('' or nil: from the beginning).
local function after(cursor)
  return (cursor and cursor ~= '') and '(' .. cursor or '-'
end
