-- pcall/error: longjmp out of deep stacks, error objects, xpcall with tracebacks
local function deep(n, k)
  if n == 0 then
    if k % 2 == 0 then error({code = k}) else error("fail " .. k) end
  end
  return deep(n - 1, k) + 1
end
local sum = 0
for i = 1, tonumber(arg[1] or 20000) do
  local ok, e = pcall(deep, i % 50, i)
  if type(e) == "table" then sum = sum + e.code else sum = sum + #e end
  local ok2, e2 = xpcall(function() local t = nil; return t.x end, function(m) return #m end)
  sum = sum + e2
  local ok3, e3 = pcall(string.rep)
  sum = sum + #e3
  -- errors inside metamethods
  local mt = setmetatable({}, {__index = function(t, k) error("no " .. k) end})
  local ok4, e4 = pcall(function() return mt.foo end)
  sum = sum + #e4
end
print("err", sum)
