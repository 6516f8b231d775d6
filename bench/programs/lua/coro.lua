-- coroutines: generators, nested resumes, yields across pcall, errors inside coroutines
local function gen(n)
  return coroutine.wrap(function()
    for i = 1, n do coroutine.yield(i) end
  end)
end
local function perm(a, n)
  n = n or #a
  if n <= 1 then coroutine.yield(a) else
    for i = 1, n do
      a[n], a[i] = a[i], a[n]
      perm(a, n - 1)
      a[n], a[i] = a[i], a[n]
    end
  end
end
local function permgen(a)
  return coroutine.wrap(function() perm(a) end)
end
local total = 0
for round = 1, tonumber(arg[1] or 20) do
  for v in gen(20000) do total = total + v end
  local c = 0
  for p in permgen({1,2,3,4,5,6,7}) do c = c + p[1] end
  total = total + c
  -- nested coroutines
  local outer = coroutine.create(function()
    local inner = coroutine.create(function()
      for i = 1, 100 do coroutine.yield(i * 2) end
      error("inner done")
    end)
    while true do
      local ok, v = coroutine.resume(inner)
      if not ok then coroutine.yield(-1) break end
      coroutine.yield(v)
    end
  end)
  while true do
    local ok, v = coroutine.resume(outer)
    if not ok or v == nil then break end
    total = total + v
  end
  -- yield across pcall (Lua 5.4 allows it)
  local co = coroutine.wrap(function()
    for i = 1, 500 do
      local ok, err = pcall(function()
        coroutine.yield(i)
        if i % 3 == 0 then error("e" .. i) end
      end)
      if not ok then total = total + #err end
    end
  end)
  for i = 1, 500 do total = total + co() end
end
print("coro", total)
