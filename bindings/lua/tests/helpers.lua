-- Shared assertions for the Lua tests.
local ember = require("ember")
local H = {}

local function fmt(v)
  if type(v) == "table" then
    local parts = {}
    for i = 1, #v do parts[i] = fmt(v[i]) end
    return "{" .. table.concat(parts, ", ") .. "}"
  end
  return tostring(v) .. (math.type(v) == "float" and "f" or "")
end
H.fmt = fmt

function H.eq(got, want, msg)
  if got ~= want or math.type(got) ~= math.type(want) then
    error(string.format("%sexpected %s (%s), got %s (%s)", msg and (msg .. ": ") or "", fmt(want), math.type(want) or type(want),
      fmt(got), math.type(got) or type(got)), 2)
  end
end

-- deep comparison; floats within rtol/atol, integers exactly, and the same number kinds
local function close(a, b, rtol, atol, path)
  if type(a) == "table" and type(b) == "table" then
    if #a ~= #b then return false, path .. ": length " .. #a .. " ~= " .. #b end
    for i = 1, #b do
      local ok, why = close(a[i], b[i], rtol, atol, path .. "[" .. i .. "]")
      if not ok then return false, why end
    end
    return true
  end
  if type(a) == "number" and type(b) == "number" then
    if b ~= b then return a ~= a, path .. ": expected nan, got " .. tostring(a) end
    if math.type(b) == "integer" and math.type(a) ~= "integer" then return false, path .. ": expected an integer, got " .. fmt(a) end
    if math.type(b) == "float" and math.type(a) ~= "float" then return false, path .. ": expected a float, got " .. fmt(a) end
    if math.type(a) == "integer" and math.type(b) == "integer" then return a == b, path .. ": " .. a .. " ~= " .. b end
    if b == math.huge or b == -math.huge then return a == b, path .. ": expected " .. b .. ", got " .. a end
    return math.abs(a - b) <= atol + rtol * math.abs(b), path .. ": " .. fmt(a) .. " ~= " .. fmt(b)
  end
  return a == b, path .. ": " .. fmt(a) .. " ~= " .. fmt(b)
end

function H.close(got, want, rtol, atol, msg)
  if ember.is_tensor(got) then got = got:totable() end
  local ok, why = close(got, want, rtol or 1e-5, atol or 1e-6, msg or "value")
  if not ok then error(why .. "\n  got  " .. fmt(got) .. "\n  want " .. fmt(want), 2) end
end

function H.raises(code, fn, ...)
  local ok, err = pcall(fn, ...)
  if ok then error("expected an error with code " .. tostring(code), 2) end
  if not ember.is_error(err) then error("expected an ember.Error, got " .. tostring(err), 2) end
  if code and err.code ~= code then error(string.format("expected code %d, got %d (%s)", code, err.code, err.message), 2) end
  return err
end

function H.map(t, f)
  local out = {}
  for i, v in ipairs(t) do out[i] = type(v) == "table" and H.map(v, f) or f(v) end
  return out
end

-- Runs fn(backend) under every available backend. An op the backend does not have must
-- fail cleanly with EMBER_ERR_UNSUPPORTED; that counts as a gap, not a failure.
function H.each_backend(fn)
  for _, b in ipairs(ember.available_backends()) do
    local ok, err = pcall(ember.using_backend, b, fn, b)
    if not ok then
      if ember.is_error(err) and err.code == ember.status.UNSUPPORTED then
        -- a clean device gap
      else
        error("[backend " .. b .. "] " .. tostring(err), 0)
      end
    end
  end
end

-- calls fn(); an EMBER_ERR_UNSUPPORTED error (a backend gap) returns false instead
function H.supported(fn, ...)
  local ok, err = pcall(fn, ...)
  if ok then return true end
  if ember.is_error(err) and err.code == ember.status.UNSUPPORTED then return false end
  error(err, 0)
end

return H
