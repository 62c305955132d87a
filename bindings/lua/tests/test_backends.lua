-- Backends, devices and garbage collection.
local ember = require("ember")
local H = require("helpers")
local S = {}

function S.backend_listing()
  local names = ember.available_backends()
  assert(#names >= 1)
  local found = false
  for _, n in ipairs(names) do if n == "reference" then found = true end end
  assert(found, "the reference backend is always available")
  for _, b in ipairs(ember.backends()) do
    H.eq(type(b.name), "string")
    if b.available then assert(math.type(b.score) == "integer" and b.devices >= 1) end
  end
end

function S.set_get_using()
  local name, dev = ember.get_backend()
  H.eq(type(name), "string"); H.eq(math.type(dev), "integer")
  for _, b in ipairs(ember.available_backends()) do
    local r1, r2 = ember.using_backend(b, function(x) return ember.get_backend(), x end, 5)
    H.eq(r1, b); H.eq(r2, 5)
    local t = ember.using_backend(b, function() return ember.ones({ 2 }) end)
    H.eq(t.backend, b)
    H.close(t:to(name), { 1.0, 1.0 })
  end
  H.eq((ember.get_backend()), name)
  ember.set_backend("reference")
  H.eq((ember.get_backend()), "reference")
  H.eq(ember.ones({ 1 }).backend, "reference")
  ember.set_backend(name, dev)
  H.eq((ember.get_backend()), name)
end

function S.devices()
  local n = ember.device_count()
  assert(n >= 1)
  local info = ember.device_info(0)
  H.eq(type(info.name), "string")
  assert(info.compute_units >= 1)
  local m = ember.memory_info()
  assert(math.type(m.allocated_bytes) == "integer")
  ember.synchronize()
  H.eq(ember.device_info(0, "reference").supports_fp64, true)
end

function S.default_float()
  local old = ember.get_default_float()
  ember.set_default_float("float64")
  H.eq(ember.tensor({ 0.5 }).dtype, "float64")
  ember.set_default_float(old)
  H.eq(ember.tensor({ 0.5 }).dtype, old)
end

function S.gc_returns_live_count()
  collectgarbage(); collectgarbage()
  local start = ember.live_tensor_count()
  for _, b in ipairs(ember.available_backends()) do
    ember.using_backend(b, function()
      local keep = {}
      for i = 1, 2000 do
        local t = ember.tensor({ i, i + 1 }) + 1.5
        t = (t * 2):sum()
        if i % 100 == 0 then keep[#keep + 1] = t end
      end
      local parts = ember.split(ember.arange(10), 5)
      local x = ember.ones({ 3, 3 })[2]
      assert(ember.live_tensor_count() > start)
    end)
  end
  collectgarbage(); collectgarbage()
  H.eq(ember.live_tensor_count(), start, "live tensors after collectgarbage()")
end

function S.version()
  local s, n = ember.version()
  assert(s:match("^%d+%.%d+%.%d+$"), s)
  H.eq(math.type(n), "integer")
end

return S
