-- lib/cut.lua: how views cut an entry short (read-entries.lua and list.lua), so a
-- reply is bounded whatever the entry holds and both cut by one rule.
--
-- Takes the name, value, ... items of `flat` that `wanted(name)` accepts (all when it is nil):
-- each value cut to valueLimit bytes, names and values together to entryLimit bytes; fields past
-- that are left out and counted. Returns { name, value cut short, full length, ... }, the number
-- of fields left out, and the bytes kept.
local function cutFields(flat, valueLimit, entryLimit, wanted)
  local cut, leftOut, room = {}, 0, entryLimit
  for i = 1, #flat, 2 do
    local name, value = flat[i], flat[i + 1]
    if wanted == nil or wanted(name) then
      if #name > room then
        leftOut = leftOut + 1
      else
        local keep = math.min(#value, valueLimit, room - #name)
        room = room - #name - keep
        cut[#cut + 1] = name
        cut[#cut + 1] = string.sub(value, 1, keep)
        cut[#cut + 1] = string.len(value)
      end
    end
  end
  return cut, leftOut, entryLimit - room
end
