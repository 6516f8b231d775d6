-- all four shapes in one run: coroutines, errors, recursion, strings
local dir = arg[0]:match("^(.*)/") or "."
for _, t in ipairs({{"coro", 60}, {"err", 60000}, {"rec", 20}, {"str", 100000}}) do
  arg = {[0] = t[1], tostring(t[2])}
  dofile(dir .. "/" .. t[1] .. ".lua")
end
