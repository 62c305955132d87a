--[[
Ember for Lua: the idiomatic layer over the SWIG module `ember_c` (bindings/lua/ember_lua.i).

  local ember = require("ember")
  local a = ember.tensor({{1, 2}, {3, 4}})          -- int64, shape {2, 2}
  local b = (a * 2.5 + 1):sum()                      -- operators take Lua numbers on either side
  print(a, b:item(), a:totable())

Conventions (docs/lua.md has the full guide):
  * element indices are 1-based like Lua (t[1], t:slice{{1, 3}}, t:get(1, 2)), negative ones
    count from the end (-1 is the last); axes are 0-based as in the C API (-1 is the last axis).
  * errors are raised as ember.Error objects {code, message, status}; tostring(err) is the
    C message. pcall catches them.
  * every op of the op table is ember.<name>(...) and, for tensor ops, t:<name>(...).
--]]
local C = require("ember_c")

local ember = {}
ember._C = C
local math_type, type, select, getmetatable, rawequal = math.type, type, select, getmetatable, rawequal
local AXIS_NONE = math.mininteger -- EMBER_AXIS_NONE (INT64_MIN)
local SLICE_END = math.maxinteger -- EMBER_SLICE_END (INT64_MAX)
ember.AXIS_NONE, ember.SLICE_END = AXIS_NONE, SLICE_END

-- ------------------------------------------------------------------ errors
local ErrorMT = C.error_metatable()
ember.Error = ErrorMT
ErrorMT.__index = ErrorMT
ErrorMT.__eq = nil
--- true when v is an error object raised by Ember
function ember.is_error(v) return getmetatable(v) == ErrorMT end

ember.status = {}
for k, v in pairs(C) do
  local s = type(k) == "string" and k:match("^EMBER_ERR_(.*)$")
  if s then ember.status[s] = v end
end
ember.status.OK = C.EMBER_OK

local function raise(code, fmt, ...)
  error(C.make_error(code, select("#", ...) > 0 and string.format(fmt, ...) or fmt), 2)
end
ember._raise = raise
local INVALID = C.EMBER_ERR_INVALID_ARGUMENT

-- ------------------------------------------------------------------ dtypes
local dtype_code, dtype_name = {}, {}
for code = 0, C.EMBER_DTYPE_COUNT - 1 do
  local name = C.ember_dtype_name(code)
  dtype_code[name], dtype_name[code] = code, name
  ember[name] = name -- ember.float32 == "float32"
end
ember.dtypes = {}
for code = 0, C.EMBER_DTYPE_COUNT - 1 do ember.dtypes[code + 1] = dtype_name[code] end

--- dtype argument (name, code or nil) -> C code (nil -> EMBER_DTYPE_DEFAULT)
local function dtype_arg(d)
  if d == nil then return C.EMBER_DTYPE_DEFAULT end
  if type(d) == "string" then
    local c = dtype_code[d]
    if not c then raise(INVALID, "unknown dtype '%s'", d) end
    return c
  end
  if math_type(d) == "integer" then return d end
  raise(INVALID, "expected a dtype name, got %s", type(d))
end
ember._dtype_arg = dtype_arg
function ember.dtype_size(d) return C.ember_dtype_size(dtype_arg(d)) end
function ember.result_type(a, b) return dtype_name[C.ember_result_type(dtype_arg(a), dtype_arg(b))] end
function ember.can_cast(from, to) return C.ember_can_cast(dtype_arg(from), dtype_arg(to)) ~= 0 end
local function is_float_dtype(code) return code >= C.EMBER_FLOAT16 and code <= C.EMBER_FLOAT64 end
local function is_complex_dtype(code) return code == C.EMBER_COMPLEX64 or code == C.EMBER_COMPLEX128 end

-- ------------------------------------------------------------------ the Tensor metatable
-- SWIG gives every Tensor userdata one class metatable (its __gc releases the handle);
-- this layer replaces its __index and adds the operators.
local TensorMT
do
  local probe = C.ember_scalar_i64(0)
  TensorMT = getmetatable(probe)
  C.release(probe)
end
local function is_tensor(v) return getmetatable(v) == TensorMT end
ember.is_tensor = is_tensor

local methods = {}   -- t:name(...)
local props = {}     -- t.name

-- ------------------------------------------------------------------ conversion from Lua values
local function default_float() return C.ember_ctx_get_default_float() end

local function flatten(data, shape, depth, flat, info)
  local n = #data
  if shape[depth] == nil then shape[depth] = n
  elseif shape[depth] ~= n then raise(C.EMBER_ERR_SHAPE, "ember.tensor: ragged nested table (length %d, expected %d at depth %d)", n, shape[depth], depth) end
  for i = 1, n do
    local v = data[i]
    local tv = type(v)
    if tv == "table" and not is_tensor(v) then
      if info.leaf_depth and info.leaf_depth ~= depth + 1 and info.leaf_depth <= depth then
        raise(C.EMBER_ERR_SHAPE, "ember.tensor: ragged nested table")
      end
      flatten(v, shape, depth + 1, flat, info)
    else
      if info.leaf_depth == nil then info.leaf_depth = depth
      elseif info.leaf_depth ~= depth then raise(C.EMBER_ERR_SHAPE, "ember.tensor: ragged nested table") end
      if tv == "number" then
        if math_type(v) == "float" then info.float = true else info.int = true end
      elseif tv == "boolean" then info.bool = true
      elseif is_tensor(v) then
        v = v:item(); if math_type(v) == "float" then info.float = true elseif type(v) == "boolean" then info.bool = true else info.int = true end
      else raise(INVALID, "ember.tensor: element of type %s (expected numbers or booleans)", tv) end
      flat[#flat + 1] = v
    end
  end
end

-- Lua integers that integer dtype `code` cannot hold fail (as NumPy's asarray([300],
-- dtype=uint8)), where the cast would wrap them.
local function check_int_range(flat, code)
  local bits = 8 * C.ember_dtype_size(code)
  if bits == 64 and code <= C.EMBER_INT64 then return end
  local lo = code <= C.EMBER_INT64 and -(1 << (bits - 1)) or 0
  local hi = code <= C.EMBER_INT64 and (1 << (bits - 1)) - 1 or bits == 64 and math.maxinteger or (1 << bits) - 1
  for i = 1, #flat do
    local v = flat[i]
    if math_type(v) == "integer" and (v < lo or v > hi) then
      raise(C.EMBER_ERR_OVERFLOW, "ember.tensor: %d is out of range for %s", v, C.ember_dtype_name(code))
    end
  end
end

--- ember.tensor(data [, dtype]): a new tensor from a number, boolean, nested table or tensor.
-- The shape is inferred; the dtype too when not given: bool for booleans, int64 for Lua
-- integers, the default float (float32 unless changed) when any element is a float.
function ember.tensor(data, dtype)
  local want = dtype ~= nil and dtype_arg(dtype) or nil
  local t
  if is_tensor(data) then
    t = C.ember_copy(data)
  else
    local flat, shape, info = {}, {}, {}
    local td = type(data)
    if td == "number" or td == "boolean" then
      flat[1] = data
      if td == "boolean" then info.bool = true elseif math_type(data) == "float" then info.float = true else info.int = true end
      shape = {}
    elseif td == "table" then
      flatten(data, shape, 1, flat, info)
      if info.leaf_depth then
        for i = #shape, info.leaf_depth + 1, -1 do shape[i] = nil end
      end
    else
      raise(INVALID, "ember.tensor: cannot make a tensor from a %s", td)
    end
    local kind = info.float and "float" or info.int and "int" or info.bool and "bool" or "float"
    if want and (is_float_dtype(want) or is_complex_dtype(want)) then kind = "float" end
    if want and want >= C.EMBER_INT8 and want <= C.EMBER_UINT64 and not info.float then
      kind = "int"
      check_int_range(flat, want)
    end
    t = C.from_flat(flat, shape, kind)
    if not want then
      if kind == "float" then want = default_float() end
    end
  end
  if want and C.ember_tensor_dtype(t) ~= want then
    local c = C.ember_astype(t, want)
    C.release(t)
    t = c
  end
  return t
end
ember.asarray = ember.tensor

--- An operand: tensors as they are, Lua numbers and booleans as weak scalars, tables as tensors.
local scalar_i64, scalar_f64, scalar_bool = C.ember_scalar_i64, C.ember_scalar_f64, C.ember_scalar_bool
local function operand(v)
  if getmetatable(v) == TensorMT then return v end
  local tv = type(v)
  if tv == "number" then
    if math_type(v) == "integer" then return scalar_i64(v) end
    return scalar_f64(v)
  elseif tv == "boolean" then return scalar_bool(v and 1 or 0)
  elseif tv == "table" then return ember.tensor(v)
  end
  raise(INVALID, "expected a tensor, number, boolean or table, got %s", tv)
end
ember._operand = operand

--- axes argument: nil (all), an integer, or a table of integers
local function axes_arg(axes)
  if axes == nil then return nil end
  if math_type(axes) == "integer" then return { axes } end
  if type(axes) == "table" then return axes end
  if math_type(axes) == "float" and axes == math.floor(axes) then return { math.tointeger(axes) } end
  raise(INVALID, "expected axes as an integer or a table of integers, got %s", type(axes))
end
local function axis_arg(axis) if axis == nil then return AXIS_NONE end return axis end
local function flag(v) if v == true then return 1 elseif v == false or v == nil then return 0 end return v end
local function shape_arg(shape, ...)
  if math_type(shape) == "integer" then return { shape, ... } end
  if shape == nil then return {} end
  if type(shape) ~= "table" then raise(INVALID, "expected a shape (table of integers), got %s", type(shape)) end
  return shape
end
ember._axes_arg, ember._shape_arg = axes_arg, shape_arg

-- ------------------------------------------------------------------ conversion back
local function nest(flat, shape, dim, pos)
  local n = shape[dim]
  local out = {}
  if dim == #shape then
    for i = 1, n do out[i] = flat[pos + i] end
    return out, pos + n
  end
  for i = 1, n do out[i], pos = nest(flat, shape, dim + 1, pos) end
  return out, pos
end

--- t:totable(): nested Lua tables (a Lua value for 0-d). Integers come back as Lua
-- integers, floats as floats, bool as booleans, complex as {re, im}.
function methods.totable(t)
  local flat = C.to_flat(t)
  local shape = C.shape(t)
  if #shape == 0 then return flat[1] end
  return (nest(flat, shape, 1, 0))
end
--- t:item(): the Lua value of a 1-element tensor
function methods.item(t)
  local n = C.ember_tensor_size(t)
  if n ~= 1 then raise(INVALID, "item: tensor has %d elements, expected 1", n) end
  return C.to_flat(t)[1]
end
--- t:flat(): the elements in C order as a flat Lua array
function methods.flat(t) return C.to_flat(t) end

props.shape = C.shape
props.strides = C.strides
props.ndim = C.ember_tensor_ndim
props.size = C.ember_tensor_size
props.dtype = function(t) return dtype_name[C.ember_tensor_dtype(t)] end
props.backend = function(t) return (C.ember_tensor_backend(t)) end
props.device = function(t) local _, d = C.ember_tensor_backend(t); return d end
props.is_contiguous = function(t) return C.ember_tensor_is_contiguous(t) ~= 0 end
props.is_weak = function(t) return C.ember_tensor_is_weak(t) ~= 0 end
props.T = function(t) return C.ember_transpose(t) end
props.mT = function(t) return C.ember_matrix_transpose(t) end
function methods.dims(t) return table.unpack(C.shape(t)) end
function methods.release(t) C.release(t) end

-- ------------------------------------------------------------------ indexing (1-based)
local function norm_index(i, n, what)
  if math_type(i) ~= "integer" then
    if math_type(i) == "float" and i == math.floor(i) then i = math.tointeger(i)
    else raise(INVALID, "%s: expected an integer index, got %s", what, tostring(i)) end
  end
  if i == 0 or i > n or i < -n then raise(C.EMBER_ERR_INDEX, "%s: index %d out of range for length %d", what, i, n) end
  if i > 0 then return i - 1 end
  return n + i
end

local function value_or_tensor(r)
  if C.ember_tensor_ndim(r) == 0 then
    local v = C.to_flat(r)[1]
    C.release(r)
    return v
  end
  return r
end

--- t:select(i [, axis]): the view at 1-based index i along a 0-based axis (drops the axis)
function methods.select(t, i, axis)
  axis = axis or 0
  local shape = C.shape(t)
  local ax = axis < 0 and #shape + axis or axis
  if ax < 0 or ax >= #shape then raise(C.EMBER_ERR_INDEX, "select: axis %d out of range for %d dimensions", axis, #shape) end
  return C.ember_select(t, ax, norm_index(i, shape[ax + 1], "select"))
end

--- t:slice{spec1, spec2, ...}: a view; one spec per leading axis:
--   an integer i (1-based, negative from the end): that index, the axis is dropped;
--   {first, last [, step]} (1-based, inclusive, negative from the end; nil = to the edge);
--   {} or true: the whole axis.
function methods.slice(t, spec)
  if type(spec) ~= "table" then raise(INVALID, "slice: expected a table of per-axis specs") end
  local shape = C.shape(t)
  local n = #spec
  if n > #shape then raise(C.EMBER_ERR_INDEX, "slice: %d specs for %d dimensions", n, #shape) end
  if n == 0 then return C.ember_reshape(t, shape) end
  local start, stop, step, drop = {}, {}, {}, {}
  for k = 1, n do
    local s, len = spec[k], shape[k]
    if s == true then s = {} end
    if type(s) == "number" then
      local i = norm_index(s, len, "slice")
      start[k], stop[k], step[k] = i, i + 1, 1
      drop[#drop + 1] = k - 1
    elseif type(s) == "table" then
      local a, b, st = s[1], s[2], s[3] or 1
      if math_type(st) ~= "integer" or st == 0 then raise(INVALID, "slice: step must be a non-zero integer") end
      if st > 0 then
        start[k] = a == nil and 0 or (a > 0 and a - 1 or a)
        if b == nil or b == -1 then stop[k] = SLICE_END
        else stop[k] = b > 0 and b or b + 1 end
      else
        start[k] = a == nil and -1 or (a > 0 and a - 1 or a)
        if b == nil then stop[k] = SLICE_END
        else
          local b0 = b > 0 and b - 1 or len + b -- 0-based inclusive
          stop[k] = b0 - 1 < 0 and SLICE_END or b0 - 1
        end
      end
      step[k] = st
    else
      raise(INVALID, "slice: bad spec for axis %d (%s)", k - 1, type(s))
    end
  end
  local r = C.ember_slice(t, start, stop, step, n)
  if #drop > 0 then
    local sq = C.ember_squeeze(r, drop)
    C.release(r)
    r = sq
  end
  return r
end

--- t:get(i, j, ...): the Lua value at 1-based indices (all of them: a scalar)
function methods.get(t, ...)
  local spec = { ... }
  local r = methods.slice(t, spec)
  if C.ember_tensor_ndim(r) == 0 then return value_or_tensor(r) end
  return r
end
--- t:set(value, i, j, ...): assigns (broadcasting) into the view at the indices
function methods.set(t, value, ...)
  local view = select("#", ...) > 0 and methods.slice(t, { ... }) or t
  C.ember_assign(view, operand(value))
  return t
end
--- t:assign(src): copies src (broadcast, converted) into t in place
function methods.assign(t, src) C.ember_assign(t, operand(src)); return t end

-- ------------------------------------------------------------------ printing (NumPy-like)
local function fmt_value(v, is_float)
  local tv = type(v)
  if tv == "boolean" then return v and "true" or "false" end
  if tv == "table" then -- complex
    local re, im = fmt_value(v[1], true), v[2]
    return string.format("%s%s%sj", re, im < 0 and "-" or "+", fmt_value(math.abs(im), true))
  end
  if is_float then
    if v ~= v then return "nan" end
    if v == math.huge then return "inf" elseif v == -math.huge then return "-inf" end
    if v == math.floor(v) and math.abs(v) < 1e16 then return string.format("%.0f.", v) end
    local s = string.format("%.8g", v)
    return s
  end
  return tostring(v)
end

local function tensor_tostring(t)
  if C.handle_id(t) == 0 then return "tensor(<released>)" end
  local shape, dt = C.shape(t), C.ember_tensor_dtype(t)
  local flat = C.to_flat(t)
  local is_float = is_float_dtype(dt) or is_complex_dtype(dt)
  local strs, width = {}, 0
  for i = 1, #flat do
    local s = fmt_value(flat[i], is_float)
    strs[i] = s
    if #s > width then width = #s end
  end
  local nd = #shape
  local body
  local summarize = #flat > 1000
  local function rec(dim, pos, indent)
    if dim > nd then return string.rep(" ", width - #strs[pos + 1]) .. strs[pos + 1], pos + 1 end
    local n = shape[dim]
    local stride = 1
    for d = dim + 1, nd do stride = stride * shape[d] end
    local parts = {}
    local i = 0
    while i < n do
      if summarize and n > 6 and i == 3 then
        parts[#parts + 1] = "..."
        i = n - 3
      end
      parts[#parts + 1] = (rec(dim + 1, pos + i * stride, indent .. " "))
      i = i + 1
    end
    local sep = dim == nd and ", " or ("," .. string.rep("\n", nd - dim) .. indent .. " ")
    return "[" .. table.concat(parts, sep) .. "]", pos + n * stride
  end
  if nd == 0 then body = strs[1] else body = (rec(1, 0, string.rep(" ", 7))) end
  local extra = ""
  local be, dev = C.ember_tensor_backend(t)
  local cur, cdev = C.ember_ctx_get_backend()
  if be ~= cur or dev ~= cdev then extra = string.format(", backend=%s:%d", be, dev) end
  return string.format("tensor(%s, dtype=%s%s)", body, dtype_name[dt], extra)
end
methods.tostring = tensor_tostring

-- ------------------------------------------------------------------ the metatable
TensorMT.__index = function(t, k)
  local m = methods[k]
  if m ~= nil then return m end
  local p = props[k]
  if p ~= nil then return p(t) end
  if type(k) == "number" then return value_or_tensor(methods.select(t, k, 0)) end
  return nil
end
TensorMT.__newindex = function(t, k, v)
  if type(k) == "number" then
    C.ember_assign(methods.select(t, k, 0), operand(v))
    return
  end
  raise(INVALID, "cannot set field '%s' of a tensor", tostring(k))
end
TensorMT.__len = function(t)
  local s = C.shape(t)
  if #s == 0 then raise(INVALID, "len() of a 0-d tensor") end
  return s[1]
end
TensorMT.__tostring = tensor_tostring
TensorMT.__name = "ember.Tensor"
TensorMT.__close = function(t) C.release(t) end
-- Lua turns __eq / __lt / __le results into booleans, so they cannot be elementwise:
-- == is identity of the handle; < and <= raise (use ember.less, ember.less_equal, ...).
TensorMT.__eq = function(a, b) return C.handle_id(a) == C.handle_id(b) and C.handle_id(a) ~= 0 end
TensorMT.__lt = function() raise(INVALID, "tensors do not support < (Lua forces a boolean): use ember.less(a, b)") end
TensorMT.__le = function() raise(INVALID, "tensors do not support <= (Lua forces a boolean): use ember.less_equal(a, b)") end

local function binop(f) return function(a, b) return f(operand(a), operand(b)) end end
local function unop(f) return function(a) return f(operand(a)) end end
TensorMT.__add = binop(C.ember_add)
TensorMT.__sub = binop(C.ember_subtract)
TensorMT.__mul = binop(C.ember_multiply)
TensorMT.__div = binop(C.ember_divide)
TensorMT.__mod = binop(C.ember_remainder)
TensorMT.__pow = binop(C.ember_pow)
TensorMT.__idiv = binop(C.ember_floor_divide)
TensorMT.__band = binop(C.ember_bitwise_and)
TensorMT.__bor = binop(C.ember_bitwise_or)
TensorMT.__bxor = binop(C.ember_bitwise_xor)
TensorMT.__shl = binop(C.ember_bitwise_left_shift)
TensorMT.__shr = binop(C.ember_bitwise_right_shift)
TensorMT.__unm = unop(C.ember_negative)
TensorMT.__bnot = unop(C.ember_bitwise_invert)

-- ------------------------------------------------------------------ the op table
-- Uniform signatures (unary, binary, reduce) are bound from ember_op_count / ember_op_info,
-- so an op added to the table appears here once the module is rebuilt against its header.
ember.ops = {}
local custom_ops = {}
for i = 0, C.ember_op_count() - 1 do
  local name, kind, sig, doc = C.ember_op_info(i)
  local f = C["ember_" .. name]
  ember.ops[#ember.ops + 1] = { name = name, kind = kind, signature = sig, doc = doc, bound = f ~= nil }
  if f then
    if sig == "unary" then
      ember[name] = function(x) return f(operand(x)) end
      methods[name] = ember[name]
    elseif sig == "binary" then
      ember[name] = function(a, b) return f(operand(a), operand(b)) end
      methods[name] = ember[name]
    elseif sig == "reduce" then
      ember[name] = function(x, axes, keepdims) return f(operand(x), axes_arg(axes), flag(keepdims)) end
      methods[name] = ember[name]
    else
      custom_ops[name] = f
    end
  end
end
function ember.op_info(name)
  for _, op in ipairs(ember.ops) do if op.name == name then return op end end
end
function ember.op_binding(backend, op) return C.ember_op_binding(backend, op) end

-- Everything else the C module wraps: ember_<name>(...) as ember.<name>(...), booleans as
-- 0/1; functions whose first argument is a tensor also as methods. Hand-written wrappers
-- below replace the ones whose arguments deserve defaults.
local function passthrough(f)
  return function(...)
    local n = select("#", ...)
    local args = { ... }
    for i = 1, n do
      local v = args[i]
      if v == true then args[i] = 1 elseif v == false then args[i] = 0 end
    end
    return f(table.unpack(args, 1, n))
  end
end
local skip = { binding_set_backend = true }
for k, f in pairs(C) do
  local name = type(k) == "string" and k:match("^ember_(.*)$")
  if name and type(f) == "function" and ember[name] == nil and not skip[name] then
    ember[name] = passthrough(f)
    if custom_ops[name] and not name:match("^random_") and not name:match("freq$") then methods[name] = ember[name] end
  end
end

-- ------------------------------------------------------------------ hand-written wrappers
local function def(name, f, as_method)
  ember[name] = f
  if as_method ~= false then methods[name] = f end
end
local function tensor_first(f) return function(x, ...) return f(operand(x), ...) end end

def("astype", function(x, dtype) return C.ember_astype(operand(x), dtype_arg(dtype)) end)
def("copy", function(x) return C.ember_copy(operand(x)) end)
def("reshape", function(x, shape, ...) return C.ember_reshape(operand(x), shape_arg(shape, ...)) end)
def("view", function(x, shape, ...) return C.ember_view(operand(x), shape_arg(shape, ...)) end)
def("broadcast_to", function(x, shape, ...) return C.ember_broadcast_to(operand(x), shape_arg(shape, ...)) end)
-- as_strided(x, shape, strides [, offset]): any geometry over x's memory, in elements (offset:
-- elements from x's first one; a stride may be negative or 0); an error past x's memory.
def("as_strided", function(x, shape, strides, offset)
  shape, strides = shape_arg(shape), shape_arg(strides)
  if #shape ~= #strides then raise(INVALID, "as_strided: %d sizes but %d strides", #shape, #strides) end
  return C.ember_as_strided(operand(x), shape, strides, #shape, offset or 0)
end)
def("permute_dims", function(x, axes, ...) return C.ember_permute_dims(operand(x), shape_arg(axes, ...)) end)
def("transpose", function(x, axes, ...)
  if axes == nil then return C.ember_transpose(operand(x)) end
  return C.ember_permute_dims(operand(x), shape_arg(axes, ...))
end)
def("squeeze", function(x, axes) return C.ember_squeeze(operand(x), axes_arg(axes)) end)
def("flip", function(x, axes) return C.ember_flip(operand(x), axes_arg(axes)) end)
def("flatten", function(x) return C.ember_flatten(operand(x)) end)
def("expand_dims", function(x, axis) return C.ember_expand_dims(operand(x), axis or 0) end)
def("moveaxis", function(x, s, d) return C.ember_moveaxis(operand(x), s, d) end)
def("swapaxes", function(x, a, b) return C.ember_swapaxes(operand(x), a, b) end)
def("diagonal", function(x, offset) return C.ember_diagonal(operand(x), offset or 0) end)
def("tril", function(x, k) return C.ember_tril(operand(x), k or 0) end)
def("triu", function(x, k) return C.ember_triu(operand(x), k or 0) end)
def("clip", function(x, lo, hi)
  return C.ember_clip(operand(x), lo ~= nil and operand(lo) or nil, hi ~= nil and operand(hi) or nil)
end)
def("where", function(cond, a, b) return C.ember_where(operand(cond), operand(a), operand(b)) end)
def("isclose", function(a, b, rtol, atol, equal_nan)
  return C.ember_isclose(operand(a), operand(b), rtol or 1e-5, atol or 1e-8, flag(equal_nan))
end)
def("allclose", function(a, b, rtol, atol, equal_nan)
  return C.ember_allclose(operand(a), operand(b), rtol or 1e-5, atol or 1e-8, flag(equal_nan)) ~= 0
end)
-- Tensors only: a Lua table converted here is new memory, which shares nothing.
local function shares(a, b, exact)
  if not (is_tensor(a) and is_tensor(b)) then return false end
  return C.ember_tensor_shares_memory(a, b, exact) ~= 0
end
def("shares_memory", function(a, b) return shares(a, b, 1) end)
def("may_share_memory", function(a, b) return shares(a, b, 0) end)
def("round", function(x, decimals)
  if decimals == nil or decimals == 0 then return C.ember_round(operand(x)) end
  return C.ember_round_decimals(operand(x), decimals)
end)
def("leaky_relu", function(x, slope) return C.ember_leaky_relu(operand(x), slope or 0.01) end)
def("gelu", function(x, approximate) return C.ember_gelu(operand(x), flag(approximate)) end)
def("var", function(x, axes, keepdims, ddof) return C.ember_var(operand(x), axes_arg(axes), flag(keepdims), ddof or 0) end)
def("std", function(x, axes, keepdims, ddof) return C.ember_std(operand(x), axes_arg(axes), flag(keepdims), ddof or 0) end)
def("argmax", function(x, axis, keepdims) return C.ember_argmax(operand(x), axis_arg(axis), flag(keepdims)) end)
def("argmin", function(x, axis, keepdims) return C.ember_argmin(operand(x), axis_arg(axis), flag(keepdims)) end)
def("cumsum", function(x, axis) return C.ember_cumsum(operand(x), axis_arg(axis)) end)
def("cumprod", function(x, axis) return C.ember_cumprod(operand(x), axis_arg(axis)) end)
def("softmax", function(x, axis) return C.ember_softmax(operand(x), axis or -1) end)
def("log_softmax", function(x, axis) return C.ember_log_softmax(operand(x), axis or -1) end)
local function tensor_list(xs)
  if type(xs) ~= "table" then raise(INVALID, "expected a table of tensors") end
  local out = {}
  for i = 1, #xs do out[i] = operand(xs[i]) end
  return out
end
def("concat", function(xs, axis) return C.ember_concat(tensor_list(xs), axis or 0) end, false)
def("stack", function(xs, axis) return C.ember_stack(tensor_list(xs), axis or 0) end, false)
--- ember.elementwise_into(op, {a, b}, out): the elementwise op written into out (which keeps
--- its dtype and may be one of the inputs: ember.elementwise_into("add", {a, b}, a) is a += b)
def("elementwise_into", function(op, xs, out)
  if getmetatable(out) ~= TensorMT then raise(INVALID, "ember.elementwise_into: out must be a tensor") end
  C.ember_elementwise_into(op, tensor_list(xs), out)
  return out
end, false)
def("split", function(x, sections, axis) return C.split(operand(x), sections, axis or 0) end)
def("meshgrid", function(xs, indexing) return C.meshgrid(tensor_list(xs), indexing) end, false)
def("tile", function(x, reps, ...) return C.ember_tile(operand(x), shape_arg(reps, ...)) end)
def("repeat_", function(x, repeats, axis) return C.ember_repeat(operand(x), repeats, axis_arg(axis)) end)
ember["repeat"] = ember.repeat_; methods["repeat"] = ember.repeat_
def("roll", function(x, shifts, axes)
  shifts = axes_arg(shifts)
  return C.ember_roll(operand(x), shifts, axes ~= nil and axes_arg(axes) or nil, #shifts)
end)
local pad_modes = { constant = 0, edge = 1, reflect = 2, wrap = 3 }
def("pad", function(x, pad_width, mode, value)
  local flatw = {}
  for i, p in ipairs(pad_width) do
    if type(p) == "table" then flatw[#flatw + 1] = p[1]; flatw[#flatw + 1] = p[2] else flatw[i] = p end
  end
  return C.ember_pad(operand(x), flatw, pad_modes[mode or "constant"] or mode, value or 0)
end)
def("take", function(x, idx, axis) return C.ember_take(operand(x), operand(idx), axis_arg(axis)) end)
def("take_along_axis", function(x, idx, axis) return C.ember_take_along_axis(operand(x), operand(idx), axis or -1) end)
def("one_hot", function(idx, depth, dtype) return C.ember_one_hot(operand(idx), depth, dtype_arg(dtype)) end)
def("nonzero", function(x) return C.ember_nonzero(operand(x)) end)
def("count_nonzero", function(x, axes, keepdims) return C.ember_count_nonzero(operand(x), axes_arg(axes), flag(keepdims)) end)
def("sort", function(x, axis, descending) return C.ember_sort(operand(x), axis or -1, flag(descending)) end)
def("argsort", function(x, axis, descending) return C.ember_argsort(operand(x), axis or -1, flag(descending)) end)
def("matmul", function(a, b) return C.ember_matmul(operand(a), operand(b)) end)
def("dot", function(a, b) return C.ember_dot(operand(a), operand(b)) end)
def("outer", function(a, b) return C.ember_outer(operand(a), operand(b)) end)
def("vecdot", function(a, b, axis) return C.ember_vecdot(operand(a), operand(b), axis or -1) end)
def("trace", function(x, offset) return C.ember_trace(operand(x), offset or 0) end)
def("tensordot", function(a, b, axes)
  axes = axes or 2
  if type(axes) == "table" then
    return C.ember_tensordot(operand(a), operand(b), 0, axes_arg(axes[1]), axes_arg(axes[2]), #axes_arg(axes[1]))
  end
  return C.ember_tensordot(operand(a), operand(b), axes, nil, nil, -1)
end)
def("to", function(x, backend, device)
  if backend == nil then return C.ember_tensor_to(x) end
  return ember.using_backend(backend, device or -1, function() return C.ember_tensor_to(x) end)
end)
def("real", function(x) return C.ember_real(operand(x)) end)
def("imag", function(x) return C.ember_imag(operand(x)) end)

-- ------------------------------------------------------------------ creation
def("zeros", function(shape, dtype) return C.ember_zeros(shape_arg(shape), dtype_arg(dtype)) end, false)
def("ones", function(shape, dtype) return C.ember_ones(shape_arg(shape), dtype_arg(dtype)) end, false)
def("empty", function(shape, dtype) return C.ember_empty(shape_arg(shape), dtype_arg(dtype)) end, false)
def("full", function(shape, value, dtype)
  if dtype == nil then
    dtype = math_type(value) == "integer" and "int64" or type(value) == "boolean" and "bool" or nil
  end
  if type(value) == "boolean" then value = value and 1 or 0 end
  return C.ember_full(shape_arg(shape), value, dtype_arg(dtype))
end, false)
def("zeros_like", function(x, dtype) return C.ember_zeros_like(x, dtype_arg(dtype)) end)
def("ones_like", function(x, dtype) return C.ember_ones_like(x, dtype_arg(dtype)) end)
def("empty_like", function(x, dtype) return C.ember_empty_like(x, dtype_arg(dtype)) end)
def("full_like", function(x, value, dtype) return C.ember_full_like(x, value, dtype_arg(dtype)) end)
--- arange(stop) / arange(start, stop [, step [, dtype]])
def("arange", function(a, b, step, dtype)
  if b == nil then a, b = 0, a end
  step = step or 1
  -- A float argument makes the result floating, as in Python (arange(6.0)); Lua 5.3+ tells
  -- 6.0 from 6, and the C default alone would make integral values int64.
  if dtype == nil and (math_type(a) == "float" or math_type(b) == "float" or math_type(step) == "float") then
    return C.ember_arange(a, b, step, default_float())
  end
  return C.ember_arange(a, b, step, dtype_arg(dtype))
end, false)
def("linspace", function(a, b, num, endpoint, dtype)
  if endpoint == nil then endpoint = true end
  return C.ember_linspace(a, b, num or 50, flag(endpoint), dtype_arg(dtype))
end, false)
def("eye", function(n, m, k, dtype) return C.ember_eye(n, m or n, k or 0, dtype_arg(dtype)) end, false)
def("scalar", function(v)
  if type(v) == "table" then return C.ember_scalar_c128(v[1] or 0, v[2] or 0) end
  return operand(v)
end, false)

-- ------------------------------------------------------------------ backends and devices
--- ember.set_backend(name [, device [, persist]]): the process-wide choice
function ember.set_backend(name, device, persist)
  C.ember_binding_set_backend(name, device or -1, persist and C.EMBER_PERSIST or 0)
end
--- ember.get_backend() -> name, device
function ember.get_backend() return C.ember_ctx_get_backend() end
--- ember.using_backend(name [, device], fn, ...) -> fn's results; the previous backend is
-- restored even when fn raises (the error is re-raised).
function ember.using_backend(name, device, fn, ...)
  if type(device) == "function" then return ember.using_backend(name, -1, device, fn, ...) end
  C.ember_ctx_push_backend(name, device or -1)
  local res = table.pack(pcall(fn, ...))
  C.ember_ctx_pop_backend()
  if not res[1] then error(res[2], 0) end
  return table.unpack(res, 2, res.n)
end
--- ember.backends() -> { {name=, available=, path=, reason=, score=, devices=}, ... }
function ember.backends()
  local out = {}
  for i = 0, C.ember_backend_count() - 1 do
    local name, available, path, reason = C.ember_backend_get(i)
    local b = { name = name, available = available ~= 0, path = path, reason = reason }
    if b.available then
      b.score = C.ember_backend_score(name)
      b.devices = C.ember_backend_device_count(name)
    end
    out[#out + 1] = b
  end
  return out
end
--- names of the backends that loaded
function ember.available_backends()
  local out = {}
  for _, b in ipairs(ember.backends()) do if b.available then out[#out + 1] = b.name end end
  return out
end
local function info_table(i)
  return { name = i.name, vendor = i.vendor, driver = i.driver, type = i.type, compute_units = i.compute_units,
           memory_bytes = math.tointeger(i.memory_bytes) or i.memory_bytes,
           supports_fp64 = i.supports_fp64 ~= 0, supports_fp16 = i.supports_fp16 ~= 0 }
end
--- devices of the active backend: device_count(), device_info(i) (0-based device numbers)
function ember.device_count(backend)
  if backend then return C.ember_backend_device_count(backend) end
  return C.ember_ctx_device_count()
end
function ember.device_info(device, backend)
  if backend then return info_table(C.ember_backend_device_info(backend, device or 0)) end
  return info_table(C.ember_ctx_device_info(device or 0))
end
function ember.memory_info()
  local m = C.ember_ctx_memory_info()
  local t = {}
  for _, k in ipairs { "total_bytes", "free_bytes", "allocated_bytes", "cached_bytes", "limit_bytes" } do
    t[k] = math.tointeger(m[k]) or m[k]
  end
  return t
end
function ember.synchronize() C.ember_synchronize() end
function ember.set_default_float(d) C.ember_ctx_set_default_float(dtype_arg(d)) end
function ember.get_default_float() return dtype_name[C.ember_ctx_get_default_float()] end
function ember.live_tensor_count() return C.ember_live_tensor_count() end
function ember.version() local n, s = C.ember_version(); return s, n end
ember._VERSION = (C.ember_version())

-- ------------------------------------------------------------------ submodules
local function submodule(names, prefix)
  local m = {}
  for _, n in ipairs(names) do
    local f = ember[(prefix or "") .. n]
    if f then m[n] = f end
  end
  return m
end

ember.linalg = submodule { "matmul", "dot", "tensordot", "outer", "vecdot", "trace", "diagonal", "matrix_transpose",
  "cholesky", "qr", "svd", "eigh", "eig", "solve", "inv", "det", "slogdet", "svdvals", "eigvalsh", "eigvals", "lstsq",
  "pinv", "matrix_rank", "matrix_power", "matrix_norm", "vector_norm", "norm", "cross", "kron", "multi_dot", "expm",
  "diag", "diag_embed", "lu_factor", "lu_solve" }
if C.ember_multi_dot then ember.linalg.multi_dot = function(xs) return C.ember_multi_dot(tensor_list(xs)) end end

-- fft: n (-1: input length), axis (default -1), norm "backward" | "ortho" | "forward"
local norms = { backward = 0, ortho = 1, forward = 2 }
local function norm_arg(n)
  if n == nil then return 0 end
  local v = norms[n] or (math_type(n) == "integer" and n)
  if not v then raise(INVALID, "fft: unknown norm '%s'", tostring(n)) end
  return v
end
ember.fft = {}
for _, n in ipairs { "fft", "ifft", "rfft", "irfft", "hfft", "ihfft" } do
  local f = C["ember_" .. n]
  if f then ember.fft[n] = function(x, len, axis, norm) return f(operand(x), len or -1, axis or -1, norm_arg(norm)) end end
end
for _, n in ipairs { "fftn", "ifftn", "rfftn", "irfftn" } do
  local f = C["ember_" .. n]
  if f then ember.fft[n] = function(x, s, axes, norm) return f(operand(x), s, axes, math.max(s and #s or 0, axes and #axes or 0), norm_arg(norm)) end end
end
for _, n in ipairs { "fft2", "ifft2", "rfft2", "irfft2" } do
  local f = C["ember_" .. n]
  if f then ember.fft[n] = function(x, s, axes, norm) return f(operand(x), s, axes, norm_arg(norm)) end end
end
for _, n in ipairs { "fftfreq", "rfftfreq" } do
  local f = C["ember_" .. n]
  if f then ember.fft[n] = function(len, d, dtype) return f(len, d or 1.0, dtype_arg(dtype)) end end
end
for _, n in ipairs { "fftshift", "ifftshift" } do
  local f = C["ember_" .. n]
  if f then ember.fft[n] = function(x, axes) return f(operand(x), axes_arg(axes)) end end
end

-- random: every ember_random_* function, with defaults for the common ones
ember.random = {}
for k, f in pairs(C) do
  local n = type(k) == "string" and k:match("^ember_random_(.*)$")
  if n and type(f) == "function" then ember.random[n] = passthrough(f) end
end
if C.ember_random_seed then ember.random.seed = function(s) C.ember_random_seed(s) end end
-- Parameters may be tensors or tables (as NumPy's rng.normal(loc=array, ...)): they broadcast
-- against each other and, with shape nil, give the result's shape (ember_random_*_t).
local function rparam(v) return is_tensor(v) and v or ember.tensor(v, "float64") end
local function rshape(shape) return math_type(shape) == "integer" and { shape } or shape end
local function sampler(name, defaults, scalar)
  local f, ft = C["ember_random_" .. name], C["ember_random_" .. name .. "_t"]
  if not f then return end
  ember.random[name] = function(shape, ...)
    local n = #defaults
    local ps, tensor = { ... }, false
    for i = 1, n do
      if ps[i] == nil then ps[i] = defaults[i] end
      if is_tensor(ps[i]) or type(ps[i]) == "table" then tensor = true end
    end
    local dtype = dtype_arg(ps[n + 1])
    if tensor and ft then
      local args = {}
      for i = 1, n do args[i] = rparam(ps[i]) end
      args[n + 1], args[n + 2] = rshape(shape), dtype
      return ft(table.unpack(args, 1, n + 2))
    end
    return scalar(f, shape_arg(shape), ps, dtype)
  end
end
sampler("uniform", { 0.0, 1.0 }, function(f, s, p, d) return f(s, p[1], p[2], d) end)
sampler("normal", { 0.0, 1.0 }, function(f, s, p, d) return f(s, p[1], p[2], d) end)
sampler("exponential", { 1.0 }, function(f, s, p, d) return f(s, p[1], d) end)
sampler("gamma", { 1.0, 1.0 }, function(f, s, p, d) return f(s, p[1], p[2], d) end)
sampler("beta", { 1.0, 1.0 }, function(f, s, p, d) return f(s, p[1], p[2], d) end)
sampler("binomial", { 1, 0.5 }, function(f, s, p, d) return f(s, p[1], p[2], d) end)
sampler("poisson", { 1.0 }, function(f, s, p, d) return f(s, p[1], d) end)
if C.ember_random_randint then
  ember.random.randint = function(low, high, shape, dtype) return C.ember_random_randint(low, high, shape_arg(shape), dtype_arg(dtype)) end
end
if C.ember_random_shuffle then ember.random.shuffle = function(x, axis) return C.ember_random_shuffle(operand(x), axis or 0) end end

-- statistics with defaults: reductions over axes (nil: all), single-axis ones (nil: flattened)
for _, n in ipairs { "nansum", "nanmean", "nanmax", "nanmin" } do
  local f = C["ember_" .. n]
  if f then def(n, function(x, axes, keepdims) return f(operand(x), axes_arg(axes), flag(keepdims)) end) end
end
local qmethods = { linear = 0, lower = 1, higher = 2, nearest = 3, midpoint = 4 }
local function qmethod(m) return m == nil and 0 or qmethods[m] or m end
if C.ember_median then def("median", function(x, axis, keepdims) return C.ember_median(operand(x), axis_arg(axis), flag(keepdims)) end) end
if C.ember_quantile then
  def("quantile", function(x, q, axis, method, keepdims) return C.ember_quantile(operand(x), q, axis_arg(axis), qmethod(method), flag(keepdims)) end)
end
if C.ember_percentile then
  def("percentile", function(x, p, axis, method, keepdims) return C.ember_percentile(operand(x), p, axis_arg(axis), qmethod(method), flag(keepdims)) end)
end
if C.ember_topk then def("topk", function(x, k, axis, largest) if largest == nil then largest = true end return C.ember_topk(operand(x), k, axis or -1, flag(largest)) end) end
if C.ember_unique then def("unique", function(x) return C.ember_unique(operand(x)) end) end
if C.ember_diff then def("diff", function(x, n, axis) return C.ember_diff(operand(x), n or 1, axis or -1) end) end
if C.ember_cummax then def("cummax", function(x, axis) return C.ember_cummax(operand(x), axis_arg(axis)) end) end
if C.ember_cummin then def("cummin", function(x, axis) return C.ember_cummin(operand(x), axis_arg(axis)) end) end

-- stats: the statistics family (order statistics, NaN reductions, counting, losses)
ember.stats = submodule { "quantile", "percentile", "median", "nansum", "nanmean", "nanmax", "nanmin", "average",
  "histogram", "bincount", "unique", "searchsorted", "topk", "cummax", "cummin", "diff", "gradient", "cov", "corrcoef",
  "standardize", "normalize", "var", "std", "mean" }
ember.losses = submodule { "mse", "mean_absolute_error", "huber_loss", "log_cosh", "binary_crossentropy",
  "categorical_crossentropy", "sparse_categorical_crossentropy", "kl_divergence", "cosine_similarity", "euclidean_distance" }
ember.reduction = { none = 0, mean = 1, sum = 2 }
-- losses take two tensors (or Lua tables / numbers) first; the other arguments as in C
for name, f in pairs(ember.losses) do
  local cf = C["ember_" .. name]
  local function lossfn(a, b, ...)
    local rest = table.pack(...)
    for i = 1, rest.n do
      local v = rest[i]
      if v == true then rest[i] = 1 elseif v == false then rest[i] = 0
      elseif type(v) == "string" and ember.reduction[v] then rest[i] = ember.reduction[v] end
    end
    return cf(operand(a), operand(b), table.unpack(rest, 1, rest.n))
  end
  ember.losses[name], ember[name], methods[name] = lossfn, lossfn, lossfn
end

-- signal: windows, framing, stft/istft with torch's defaults; o is an options table
-- {hop_length, win_length, window, center, pad_mode, normalized, onesided, length, return_complex}
ember.signal = {}
for _, n in ipairs { "hann_window", "hamming_window", "blackman_window" } do
  local f = C["ember_" .. n]
  if f then ember.signal[n] = function(len, periodic, dtype) return f(len, periodic == false and 0 or 1, dtype_arg(dtype)) end end
end
local function onesided_arg(v) if v == nil then return -1 end return flag(v) end
local stft_pad_modes = setmetatable({ replicate = 1, circular = 3 }, { __index = pad_modes })  -- torch's names too
if C.ember_frame then
  ember.signal.frame = function(x, frame_length, hop_length, axis, pad_end, pad_value)
    return C.ember_frame(operand(x), frame_length, hop_length, axis or -1, flag(pad_end), pad_value or 0.0)
  end
end
if C.ember_stft then
  ember.signal.stft = function(x, n_fft, o)
    o = o or {}
    return C.ember_stft(operand(x), n_fft, o.hop_length or -1, o.win_length or -1, o.window and operand(o.window),
      o.center == false and 0 or 1, stft_pad_modes[o.pad_mode or "reflect"] or o.pad_mode, flag(o.normalized), onesided_arg(o.onesided))
  end
end
if C.ember_istft then
  ember.signal.istft = function(spec, n_fft, o)
    o = o or {}
    return C.ember_istft(operand(spec), n_fft, o.hop_length or -1, o.win_length or -1, o.window and operand(o.window),
      o.center == false and 0 or 1, flag(o.normalized), onesided_arg(o.onesided), o.length or -1, flag(o.return_complex))
  end
end
-- features: PCA as three functions; pca_fit returns components, explained_variance,
-- explained_variance_ratio, mean, singular_values
ember.features = {}
if C.ember_pca_fit then
  ember.features.pca_fit = function(x, n_components, center)
    return C.ember_pca_fit(operand(x), n_components or -1, center == false and 0 or 1)
  end
  ember.features.pca_transform = function(x, components, mean, explained_variance, whiten)
    return C.ember_pca_transform(operand(x), components, mean, explained_variance, flag(whiten))
  end
  ember.features.pca_inverse_transform = function(y, components, mean, explained_variance, whiten)
    return C.ember_pca_inverse_transform(operand(y), components, mean, explained_variance, flag(whiten))
  end
end

-- io: save / load one tensor by extension; dictionaries of named tensors
ember.io = {}
if C.ember_save then
  ember.io.save = function(path, t) C.ember_save(path, operand(t)) end
  ember.io.load = function(path) return C.ember_load(path) end
  ember.save, ember.load = ember.io.save, ember.io.load
end
local function dict_from(tbl, meta)
  local d = C.ember_tensor_dict_create()
  local names = {}
  for k in pairs(tbl) do names[#names + 1] = k end
  table.sort(names)
  for _, k in ipairs(names) do C.ember_tensor_dict_set(d, k, operand(tbl[k])) end
  for k, v in pairs(meta or {}) do C.ember_tensor_dict_set_metadata(d, k, v) end
  return d
end
local function dict_to(d)
  local out, meta = {}, {}
  for i = 0, C.ember_tensor_dict_size(d) - 1 do
    local name, t = C.ember_tensor_dict_entry(d, i)
    out[name] = t
  end
  for i = 0, C.ember_tensor_dict_metadata_count(d) - 1 do
    local k, v = C.ember_tensor_dict_metadata_entry(d, i)
    meta[k] = v
  end
  return out, meta
end
if C.ember_tensor_dict_create then
  for _, fmt in ipairs { "safetensors", "npz" } do
    local save, load = C["ember_save_" .. fmt], C["ember_load_" .. fmt]
    local saveb, loadb = C["ember_save_" .. fmt .. "_buffer"], C["ember_load_" .. fmt .. "_buffer"]
    if save then ember.io["save_" .. fmt] = function(path, tensors, meta) save(path, dict_from(tensors, meta)) end end
    if load then ember.io["load_" .. fmt] = function(path) return dict_to(load(path)) end end
    if saveb then ember.io["save_" .. fmt .. "_string"] = function(tensors, meta) return saveb(dict_from(tensors, meta)) end end
    if loadb then ember.io["load_" .. fmt .. "_string"] = function(s) return dict_to(loadb(s)) end end
  end
  if C.ember_save_npz_compressed then
    ember.io.save_npz_compressed = function(path, tensors) C.ember_save_npz_compressed(path, dict_from(tensors)) end
    ember.io.save_npz_compressed_string = function(tensors) return C.ember_save_npz_compressed_buffer(dict_from(tensors)) end
  end
  if C.ember_save_npy_buffer then ember.io.save_npy_string = function(t) return C.ember_save_npy_buffer(operand(t)) end end
  if C.ember_load_npy_buffer then ember.io.load_npy_string = function(s) return C.ember_load_npy_buffer(s) end end
end

ember.Tensor = methods
return ember
