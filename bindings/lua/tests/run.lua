--[[ A plain Lua test runner (no busted needed):
  lua5.4 bindings/lua/tests/run.lua [pattern]
Loads every tests/test_*.lua (each returns { name = function(T) ... end }), runs the tests
whose "file:name" contains pattern, prints one line per failure and a summary, and exits
non-zero when anything failed. T.skip(reason) marks a test skipped. ]]
package.path = arg[0]:gsub("run%.lua$", "?.lua") .. ";" .. package.path
local pattern = arg[1]
local dir = arg[0]:gsub("run%.lua$", "")
local files = {}
local p = io.popen('ls "' .. (dir == "" and "." or dir) .. '"')
for f in p:lines() do if f:match("^test_.*%.lua$") then files[#files + 1] = f end end
p:close()
table.sort(files)

local SKIP = {}
local T = {}
function T.skip(reason) error(setmetatable({ reason = reason }, SKIP), 0) end

local passed, failed, skipped = 0, 0, 0
for _, f in ipairs(files) do
  local suite = dofile(dir .. f)
  local names = {}
  for n in pairs(suite) do names[#names + 1] = n end
  table.sort(names)
  for _, n in ipairs(names) do
    local id = f:gsub("%.lua$", "") .. ":" .. n
    if not pattern or id:find(pattern, 1, true) then
      local ok, err = xpcall(suite[n], function(e)
        if getmetatable(e) == SKIP then return e end
        return debug.traceback(tostring(e), 2)
      end, T)
      if ok then passed = passed + 1
      elseif getmetatable(err) == SKIP then skipped = skipped + 1; print("SKIP " .. id .. ": " .. tostring(err.reason))
      else failed = failed + 1; print("FAIL " .. id .. ": " .. tostring(err)) end
    end
  end
end
print(string.format("%d passed, %d failed, %d skipped", passed, failed, skipped))
os.exit(failed == 0 and 0 or 1)
