-- Conversion between Lua values and tensors, both ways.
local ember = require("ember")
local H = require("helpers")
local S = {}

function S.nested_ints_roundtrip()
  local t = ember.tensor({ { 1, 2, 3 }, { 4, 5, 6 } })
  H.eq(t.dtype, "int64"); H.close(t.shape, { 2, 3 })
  local back = t:totable()
  H.close(back, { { 1, 2, 3 }, { 4, 5, 6 } })
  H.eq(back[2][3], 6) -- a Lua integer, not 6.0
end

function S.floats_come_back_as_floats()
  local t = ember.tensor({ 0.5, 1, 2 })
  H.eq(t.dtype, ember.get_default_float())
  local back = t:totable()
  H.eq(back[1], 0.5); H.eq(back[2], 1.0); H.eq(math.type(back[2]), "float")
  local d = ember.tensor({ 1.25, -3 }, "float64")
  H.close(d:totable(), { 1.25, -3.0 }, 0, 0)
end

function S.booleans()
  local t = ember.tensor({ true, false, true })
  H.eq(t.dtype, "bool")
  H.close(t:totable(), { true, false, true })
  H.close(ember.tensor({ 1, 0, 2 }, "bool"):totable(), { true, false, true })
end

function S.scalars_and_0d()
  H.eq(ember.tensor(7):item(), 7)
  H.eq(ember.tensor(7).ndim, 0)
  H.eq(ember.tensor(2.5):item(), 2.5)
  H.eq(ember.tensor(true):item(), true)
  H.eq(ember.tensor(7):totable(), 7)
  H.eq(ember.tensor(3, "float64"):item(), 3.0)
end

function S.explicit_dtypes_all()
  for _, d in ipairs(ember.dtypes) do
    local t = ember.tensor({ { 0, 1 }, { 2, 3 } }, d)
    H.eq(t.dtype, d, d)
    local back = t:totable()
    if d == "bool" then H.close(back, { { false, true }, { true, true } })
    elseif d:match("^complex") then H.close(back, { { { 0.0, 0.0 }, { 1.0, 0.0 } }, { { 2.0, 0.0 }, { 3.0, 0.0 } } })
    elseif d:match("int") then H.close(back, { { 0, 1 }, { 2, 3 } })
    else H.close(back, { { 0.0, 1.0 }, { 2.0, 3.0 } }) end
  end
end

function S.int64_extremes_exact()
  local t = ember.tensor({ math.maxinteger, math.mininteger, -1 })
  H.close(t:totable(), { math.maxinteger, math.mininteger, -1 })
  H.eq((t + 0):totable()[1], math.maxinteger)
end

function S.float_to_int_dtype_truncates()
  H.close(ember.tensor({ 1.7, -1.7 }, "int32"):totable(), { 1, -1 })
end

function S.three_dims_and_empty()
  local data = { { { 1, 2 }, { 3, 4 } }, { { 5, 6 }, { 7, 8 } } }
  local t = ember.tensor(data)
  H.close(t.shape, { 2, 2, 2 })
  H.close(t:totable(), data)
  local e = ember.tensor({})
  H.close(e.shape, { 0 })
  H.close(e:totable(), {})
end

function S.ragged_and_bad_elements_fail()
  H.raises(ember.status.SHAPE, ember.tensor, { { 1, 2 }, { 3 } })
  H.raises(ember.status.SHAPE, ember.tensor, { 1, { 2 } })
  H.raises(ember.status.INVALID_ARGUMENT, ember.tensor, { "x" })
  H.raises(ember.status.INVALID_ARGUMENT, ember.tensor, { 1 }, "float128")
end

function S.tensor_copy_and_views_read_in_order()
  local t = ember.tensor({ { 1, 2, 3 }, { 4, 5, 6 } })
  H.close(t.T:totable(), { { 1, 4 }, { 2, 5 }, { 3, 6 } })
  H.close(t:slice { {}, { 3, 1, -1 } }:totable(), { { 3, 2, 1 }, { 6, 5, 4 } })
  local c = ember.tensor(t)
  H.close(c:totable(), t:totable())
end

function S.roundtrip_every_backend()
  H.each_backend(function(b)
    local t = ember.tensor({ { 1.5, -2 }, { 3, 4 } }, "float64")
    H.eq(t.backend, b)
    H.close(t:totable(), { { 1.5, -2.0 }, { 3.0, 4.0 } }, 0, 0, b)
    H.close(ember.tensor({ 1, 2, 3 }, "int16"):totable(), { 1, 2, 3 })
  end)
end

return S
