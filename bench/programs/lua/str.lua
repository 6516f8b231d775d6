-- string work: concat, format, gsub with patterns, find, byte/char, table.concat, sort
local words = {}
local seed = 42
local function rnd(n) seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n end
for i = 1, tonumber(arg[1] or 200000) do
  local t = {}
  for j = 1, 3 + rnd(8) do t[j] = string.char(97 + rnd(26)) end
  words[i] = table.concat(t)
end
local count = {}
for _, w in ipairs(words) do count[w] = (count[w] or 0) + 1 end
local keys = {}
for k in pairs(count) do keys[#keys + 1] = k end
table.sort(keys, function(a, b) if count[a] ~= count[b] then return count[a] > count[b] end return a < b end)
local out = {}
for i = 1, 20 do out[#out + 1] = string.format("%s=%d", keys[i], count[keys[i]]) end
local text = table.concat(words, " ")
local n = 0
for w in text:gmatch("%a+") do if w:find("^[aeiou]") then n = n + 1 end end
local up = text:gsub("(%a)(%a*)", function(a, b) return a:upper() .. b end)
local h = 0
for i = 1, #up, 7 do h = (h * 31 + up:byte(i)) % 1000000007 end
print("str", table.concat(out, ","), n, h, #up)
