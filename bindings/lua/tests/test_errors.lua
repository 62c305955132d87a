-- Errors are ember.Error objects; pcall catches them; nothing crashes the interpreter.
local ember = require("ember")
local H = require("helpers")
local S = {}

function S.status_error_object()
  local ok, err = pcall(ember.matmul, ember.ones({ 2, 3 }), ember.ones({ 4, 5 }))
  H.eq(ok, false)
  assert(ember.is_error(err), "an ember.Error")
  H.eq(err.code, ember.status.SHAPE)
  H.eq(type(err.message), "string")
  assert(err.message:find("ember_matmul", 1, true), err.message)
  H.eq(tostring(err), err.message)
  H.eq(err.status, "shape mismatch")
  H.eq(ember._C.ember_last_error(), err.message)
end

function S.error_codes()
  H.raises(ember.status.BACKEND_UNAVAILABLE, ember.set_backend, "no-such-backend")
  H.raises(ember.status.BACKEND_UNAVAILABLE, ember.using_backend, "no-such-backend", function() end)
  H.raises(ember.status.SHAPE, ember.add, ember.ones({ 2 }), ember.ones({ 3 }))
  H.raises(ember.status.INDEX, ember.as_strided, ember.arange(6), { 4 }, { 2 })
  H.raises(ember.status.INVALID_ARGUMENT, ember.as_strided, ember.arange(6), { 2, 2 }, { 1 })
  H.raises(ember.status.INDEX, ember.sum, ember.ones({ 2 }), 5)
  H.raises(ember.status.UNSUPPORTED_DTYPE, ember.bitwise_and, ember.ones({ 2 }, "float32"), 1)
  H.raises(ember.status.INVALID_ARGUMENT, ember.zeros, { 2 }, "nodtype")
  -- an integer the tensor's dtype cannot hold is not wrapped; comparisons answer exactly
  local u8 = ember.tensor({ 0, 255 }, "uint8")
  local e = H.raises(ember.status.OVERFLOW, ember.add, u8, 300)
  assert(e.message:find("300 is out of range for uint8", 1, true), e.message)
  H.raises(ember.status.OVERFLOW, ember.multiply, -1, u8)
  H.close(ember.equal(u8, -1):totable(), { false, false })
  H.close(ember.less(u8, 256):totable(), { true, true })
  H.raises(ember.status.OVERFLOW, ember.tensor, { 1, 300 }, "uint8")
  H.raises(ember.status.OVERFLOW, ember.tensor, { { -129 } }, "int8")
  H.raises(ember.status.OVERFLOW, ember.tensor, -1, "uint64")
  H.close(ember.tensor({ 0, 255 }, "uint8"):totable(), { 0, 255 })
  H.close(ember.tensor({ -2147483648, 2147483647 }, "int32"):totable(), { -2147483648, 2147483647 })
end

function S.wrong_argument_types_are_error_objects()
  local e = H.raises(ember.status.INVALID_ARGUMENT, ember.add, "a", 1)
  e = H.raises(ember.status.INVALID_ARGUMENT, ember._C.ember_add, 1, 2) -- SWIG's own type check
  assert(e.message:find("ember_add"), e.message)
  H.raises(ember.status.INVALID_ARGUMENT, ember._C.ember_add)           -- argument count
  H.raises(ember.status.INVALID_ARGUMENT, ember._C.ember_argmax, ember.ones({ 2 }), 1.5, 0) -- non-integer int64
  H.raises(ember.status.INVALID_ARGUMENT, function() return ember.ones({ 2 }) + { "x" } end)
  H.raises(ember.status.INVALID_ARGUMENT, function() return ember.ones({ 2 }) + "x" end)
  H.raises(ember.status.INVALID_ARGUMENT, function() local t = ember.ones({ 2 }); t.foo = 1 end)
end

function S.nothing_crashes()
  -- NULL handles, released handles, nil where a tensor is expected
  H.raises(ember.status.INVALID_ARGUMENT, ember._C.ember_add, nil, nil)
  local t = ember.ones({ 2 })
  t:release()
  H.raises(nil, ember.sum, t)
  H.raises(nil, function() return t:totable() end)
  t:release() -- twice is fine
  H.raises(nil, ember.tensor, { { { { { { { { { { { { { { { { { 1 } } } } } } } } } } } } } } } } })
  H.raises(nil, ember.reshape, ember.ones({ 4 }), { 3 })
  H.raises(nil, ember.split, ember.ones({ 4 }), 3)
end

function S.pcall_and_error_in_using_backend_restores()
  local before = table.pack(ember.get_backend())
  local ok, err = pcall(ember.using_backend, "reference", function()
    H.eq((ember.get_backend()), "reference")
    error("boom")
  end)
  H.eq(ok, false)
  assert(tostring(err):find("boom"))
  local after = table.pack(ember.get_backend())
  H.eq(after[1], before[1]); H.eq(after[2], before[2])
end

return S
