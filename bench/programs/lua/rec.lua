-- deep recursion: non-tail recursion to a depth of 150000 (C stack untouched: Lua calls), ackermann, fib
local function depth(n) if n == 0 then return 0 end return 1 + depth(n - 1) end
local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end
local function ack(m, n)
  if m == 0 then return n + 1 end
  if n == 0 then return ack(m - 1, 1) end
  return ack(m - 1, ack(m, n - 1))
end
-- recursion through C: table.sort comparators and string.gsub callbacks calling Lua again
local function nest(n) if n == 0 then return 0 end
  local r
  string.gsub("x", "x", function() r = nest(n - 1) + 1 end)
  return r
end
local s = 0
for i = 1, tonumber(arg[1] or 10) do
  s = s + depth(150000) + fib(24) + ack(2, 300) + nest(150)
end
local ok, e = pcall(function() local function inf(n) return 1 + inf(n + 1) end return inf(1) end)
print("rec", s, ok, (tostring(e):gsub("^.-:%d+: ", "")))
