-- lib/instant.lua: an epoch ms as ISO-8601 text, as Java's Instant reads it ("2026-12-04T17:30:00.123Z"),
-- for the 'at' of audit records a script writes with the time it read from Redis (lib/clock.lua),
-- so a record's time is the time of the decision it records, whatever the caller's clock says.

-- The civil date of a day count since 1970-01-01 (proleptic Gregorian; H. Hinnant's days_from_civil, inverted).
local function civil(days)
  local z = days + 719468
  local era = math.floor(z / 146097)
  local doe = z - era * 146097
  local yoe = math.floor((doe - math.floor(doe / 1460) + math.floor(doe / 36524) - math.floor(doe / 146096)) / 365)
  local doy = doe - (365 * yoe + math.floor(yoe / 4) - math.floor(yoe / 100))
  local mp = math.floor((5 * doy + 2) / 153)
  local day = doy - math.floor((153 * mp + 2) / 5) + 1
  local month = mp < 10 and mp + 3 or mp - 9
  return yoe + era * 400 + (month <= 2 and 1 or 0), month, day
end

local function instantText(ms)
  local seconds = math.floor(ms / 1000)
  local year, month, day = civil(math.floor(seconds / 86400))
  local inDay = seconds % 86400
  return string.format('%04d-%02d-%02dT%02d:%02d:%02d.%03dZ', year, month, day, math.floor(inDay / 3600),
    math.floor(inDay % 3600 / 60), inDay % 60, ms % 1000)
end
