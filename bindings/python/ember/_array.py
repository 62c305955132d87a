"""The array object. Operators go through the C fast path of bindings/ember.i
(ember_py_binop / ember_py_unop): Arrays and Python scalars (weak, ember_scalar_*) in,
a new Array out, no Python code in between."""
import builtins
import math
import operator

from . import _ember_c as _c
from . import _dtypes as _dt
from ._backend import Device, as_device, on_device
from ._errors import EmberIndexError

_UNARY, _BINARY, _REDUCE = _c.ember_py_fast_ops()
U = {n: i for i, n in enumerate(_UNARY)}
B = {n: i for i, n in enumerate(_BINARY)}
R = {n: i for i, n in enumerate(_REDUCE)}

_unop = _c.unop
_binop = _c.binop
_ibinop = _c.ibinop
_reduceop = _c.ember_py_reduceop
_shape_of = _c.ember_py_shape
_BY_CODE = _dt.BY_CODE
_new = object.__new__

SLICE_END = (1 << 63) - 1
AXIS_NONE = -(1 << 63)
_SCALARS = (builtins.bool, builtins.int, builtins.float, builtins.complex)


def _wrap(h):
    """Array owning the Tensor handle h."""
    a = _new(Array)
    a._h = h
    return a


def _scalar_handle(v, target=None):
    """Weak 0-d tensor for a Python scalar; target: the dtype it is to meet, if known."""
    if isinstance(v, builtins.bool):
        return _c.ember_scalar_bool(int(v))
    if isinstance(v, builtins.int):
        if -(1 << 63) <= v < 1 << 63:
            return _c.ember_scalar_i64(v)
        if target is not None and target.kind in "fc":  # NumPy 2: a weak float for a float target
            return _c.ember_scalar_f64(float(v))
        if 0 < v < 1 << 64 and (target is None or target.kind not in "iu" or target == _dt.uint64):
            from ._creation import _from_python  # a (strong) uint64 while it fits, as NumPy's
            return _from_python(v, _dt.uint64)._h
        raise OverflowError(f"Python integer {v} out of bounds for {'int64' if target is None else target.name}")
    if isinstance(v, builtins.float):
        return _c.ember_scalar_f64(v)
    if isinstance(v, builtins.complex):
        return _c.ember_scalar_c128(v.real, v.imag)
    raise TypeError(f"expected an ember array or a Python scalar, got {type(v).__name__}")


def _handle(x):
    """Tensor handle of an Array or Python scalar (others go through asarray)."""
    if type(x) is Array:
        return x._h
    if isinstance(x, _SCALARS):
        return _scalar_handle(x)
    if isinstance(x, Array):
        return x._h
    from ._creation import asarray
    return asarray(x)._h


def _assign_source(value, dtype):
    """Handle of value to assign into an array of dtype. A list is made in that dtype, as
    NumPy does, so that its Python ints are range-checked (x[:2] = [1, 300] for uint8 fails);
    the core checks scalars."""
    if type(value) is Array:
        return value._h
    if type(value) is list or type(value) is tuple:
        from ._creation import asarray
        return asarray(value, dtype=dtype)._h
    return _scalar_handle(value, dtype) if isinstance(value, _SCALARS) else _handle(value)


def _coerce(other):
    """An Array for array-likes the fast path does not take (NumPy arrays and scalars,
    lists, DLPack producers); None when other is not array-like (-> NotImplemented)."""
    if isinstance(other, (str, bytes)) or other is None:
        return None
    if hasattr(other, "__array_interface__") or hasattr(other, "__array__") or hasattr(other, "__dlpack__") \
            or isinstance(other, (list, tuple)) or hasattr(other, "__index__") or hasattr(other, "__float__"):
        from ._creation import asarray
        try:
            return asarray(other)
        except (TypeError, ValueError):
            return None
    return None


# comparison op -> (answer when the int lies above every value of the dtype, when below)
_CONSTANT_COMPARISONS = {"equal": (False, False), "not_equal": (True, True), "less": (True, False),
                         "less_equal": (True, False), "greater": (False, True), "greater_equal": (False, True)}
_MIRRORED = {"less": "greater", "less_equal": "greater_equal", "greater": "less", "greater_equal": "less_equal"}


def _is_big_int(v):
    return type(v) is builtins.int and not -(1 << 63) <= v < (1 << 63)


def _has_float_result(op, dtype):
    """Whether op of a dtype array and a Python int computes in a floating dtype (divide,
    atan2, hypot, ...: NumPy converts the int to that float, however large)."""
    from ._creation import zeros
    return _binop(op, zeros((1,), dtype=dtype), 1).dtype.kind in "fc"


def _big_int_binop(op, variant, arr, v):
    """Binary op between the Array arr and a Python int v past int64, which the C fast path
    declines. As NumPy 2: float and complex arrays take v as a weak float, uint64 arrays as a
    uint64 while it fits, and so do ops that compute in a float for integer arrays (divide,
    atan2, ...); other integer arrays compare exactly (every element lies on one
    side of v); anything else overflows."""
    kind = arr.dtype.kind
    if kind in "fc" or _has_float_result(op, arr.dtype):
        other = _wrap(_c.ember_scalar_f64(float(v)))
    elif arr.dtype == _dt.uint64 and 0 <= v < 1 << 64:
        from ._creation import _from_python
        other = _from_python(v, _dt.uint64)
    elif kind in "iu" and variant != _INPLACE and _BINARY[op] in _CONSTANT_COMPARISONS:
        name = _BINARY[op] if variant == _FORWARD else _MIRRORED.get(_BINARY[op], _BINARY[op])
        above, below = _CONSTANT_COMPARISONS[name]
        from ._creation import full_like
        return full_like(arr, above if v > 0 else below, dtype=_dt.bool_)
    else:
        raise OverflowError(f"{_BINARY[op]}: Python int {v} out of bounds for {arr.dtype}")
    if variant == _FORWARD:
        return _binop(op, arr, other)
    if variant == _REFLECTED:
        return _binop(op, other, arr)
    return _ibinop(op, arr, other)


def _operator_fallback(op, variant, self, other):
    """Called by the C operators when an operand is not an Array or a Python scalar:
    array-likes (NumPy arrays, lists, DLPack producers) are converted and the op retried;
    Python ints past int64 go to _big_int_binop."""
    if _is_big_int(other):
        return _big_int_binop(op, variant, self, other)
    o = _coerce(other)
    if o is None:
        return NotImplemented
    if variant == _FORWARD:
        return _binop(op, self, o)
    if variant == _REFLECTED:
        return _binop(op, o, self)
    return _ibinop(op, self, o)


_FORWARD, _REFLECTED, _INPLACE, _UNARY_OPERATOR = 0, 1, 2, 3
# Python operator name -> op-table op; each gets __x__, __rx__ and __ix__.
_ARITHMETIC_OPERATORS = {
    "add": "add", "sub": "subtract", "mul": "multiply", "truediv": "divide", "floordiv": "floor_divide",
    "mod": "remainder", "pow": "pow", "matmul": "matmul", "and": "bitwise_and", "or": "bitwise_or",
    "xor": "bitwise_xor", "lshift": "bitwise_left_shift", "rshift": "bitwise_right_shift",
}
_COMPARISON_OPERATORS = {"eq": "equal", "ne": "not_equal", "lt": "less", "le": "less_equal", "gt": "greater",
                         "ge": "greater_equal"}
_UNARY_OPERATORS = {"neg": "negative", "pos": "positive", "abs": "abs", "invert": "bitwise_invert"}


def _operator_specs():
    specs = []
    for name, op in _ARITHMETIC_OPERATORS.items():
        specs += [(f"__{name}__", B[op], _FORWARD), (f"__r{name}__", B[op], _REFLECTED),
                  (f"__i{name}__", B[op], _INPLACE)]
    specs += [(f"__{name}__", B[op], _FORWARD) for name, op in _COMPARISON_OPERATORS.items()]
    specs += [(f"__{name}__", U[op], _UNARY_OPERATOR) for name, op in _UNARY_OPERATORS.items()]
    return specs


_VALID_INDICES = ("only integers, slices (`:`), ellipsis (`...`), None and integer or boolean arrays are valid "
                  "indices")


def _normalize_key(key, shape):
    """Splits an index into per-axis items. Returns (items, has_advanced) where items is a
    list of ('int', i) | ('slice', s) | ('none',) | ('adv', Array int64) aligned to axes,
    Ellipsis expanded, boolean masks converted to integer arrays (nonzero)."""
    if not isinstance(key, tuple):
        key = (key,)
    # Convert array-likes first (lists, NumPy arrays, Arrays)
    conv = []
    for k in key:
        if k is None or k is Ellipsis or isinstance(k, slice):
            conv.append(k)
        elif isinstance(k, builtins.bool):
            conv.append(Array._from_any(k))
        elif isinstance(k, builtins.int) or (hasattr(k, "__index__") and not isinstance(k, Array)
                                              and not hasattr(k, "__len__") and not hasattr(k, "shape")):
            conv.append(operator.index(k))
        elif isinstance(k, Array):
            conv.append(k)
        elif isinstance(k, (str, bytes, dict, set)) or k is NotImplemented:
            raise IndexError(_VALID_INDICES)
        else:
            try:
                conv.append(Array._from_any(k, index=True))
            except TypeError:
                raise IndexError(_VALID_INDICES) from None
    consumed = 0
    n_ell = 0
    for k in conv:
        if k is Ellipsis:
            n_ell += 1
        elif k is None:
            pass
        elif isinstance(k, Array) and k.dtype == _dt.bool_:
            consumed += k.ndim
        else:
            consumed += 1
    if n_ell > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    ndim = len(shape)
    if consumed > ndim:
        raise IndexError(f"too many indices for array: array is {ndim}-dimensional, but {consumed} were indexed")
    items = []
    axis = 0
    adv = False
    for k in conv:
        if k is Ellipsis:
            for _ in range(ndim - consumed):
                items.append(("slice", slice(None)))
                axis += 1
        elif k is None:
            items.append(("none",))
        elif isinstance(k, slice):
            items.append(("slice", k))
            axis += 1
        elif isinstance(k, builtins.int):
            n = shape[axis]
            if k < -n or k >= n:
                raise IndexError(f"index {k} is out of bounds for axis {axis} with size {n}")
            items.append(("int", k + n if k < 0 else k))
            axis += 1
        elif k.dtype == _dt.bool_:
            adv = True
            if k.ndim == 0:
                # x[True] adds an axis of 1, x[False] an axis of 0
                items.append(("none",))
                items.append(("mask0", builtins.bool(k)))
                continue
            mshape = shape[axis:axis + k.ndim]
            if tuple(k.shape) != tuple(mshape):
                raise IndexError(f"boolean index of shape {k.shape} does not match the indexed shape {tuple(mshape)}")
            nz = _wrap(_c.ember_nonzero(k._h))  # (count, k.ndim)
            for j in range(k.ndim):
                items.append(("adv", _wrap(_c.ember_select(nz._h, 1, j)), mshape[j]))
                axis += 1
        else:
            if k.dtype.kind not in "iu":
                raise IndexError(f"arrays used as indices must be of integer (or boolean) type, not {k.dtype.name}")
            adv = True
            items.append(("adv", k, shape[axis]))
            axis += 1
    for _ in range(ndim - axis):
        items.append(("slice", slice(None)))
    return items, adv


def _slice_bounds(s, n):
    """(start, stop, step) of slice s over an axis of n elements, as ember_slice takes them."""
    if s.step == 0:
        raise ValueError("slice step cannot be zero")
    a, b, c = s.indices(n)
    if not len(range(a, b, c)):
        return 0, 0, 1  # empty: ember_slice would read an adjusted start of -1 as the last element
    if c < 0 and b < 0:
        b = SLICE_END  # a negative step down to element 0 inclusive
    return a, b, c


def _int_slice_view(h, key, shape):
    """x[key] for a tuple of ints and slices (the common basic index): one ember_slice, then
    one squeeze for the int axes: x[2:5] 1.3 us against ~4 us on the general path."""
    starts, stops, steps, squeeze = [], [], [], []
    for axis, k in enumerate(key):
        n = shape[axis]
        if type(k) is slice:
            a, b, c = _slice_bounds(k, n)
        else:
            if k < -n or k >= n:
                raise IndexError(f"index {k} is out of bounds for axis {axis} with size {n}")
            a = k + n if k < 0 else k
            b, c = a + 1, 1
            squeeze.append(axis)
        starts.append(a); stops.append(b); steps.append(c)
    h = _c.ember_slice(h, starts, stops, steps, len(key))
    return _wrap(_c.ember_squeeze(h, squeeze) if squeeze else h)


def _basic_view(x, items):
    """Applies ints, slices and None (advanced entries kept as full slices). Returns
    (view, positions of the advanced entries among the view's axes)."""
    shape = x.shape
    starts, stops, steps = [], [], []
    squeeze_axes = []
    axis = 0
    any_slice = False
    for it in items:
        kind = it[0]
        if kind in ("none", "mask0", "newadv"):
            continue
        n = shape[axis]
        if kind == "int":
            starts.append(it[1]); stops.append(it[1] + 1); steps.append(1)
            squeeze_axes.append(axis)
            any_slice = True
        elif kind == "slice":
            s = it[1]
            if s.start is None and s.stop is None and s.step in (None, 1):
                starts.append(0); stops.append(SLICE_END); steps.append(1)
            else:
                a, b, c = _slice_bounds(s, n)
                starts.append(a); stops.append(b); steps.append(c)
                any_slice = True
        else:  # adv
            starts.append(0); stops.append(SLICE_END); steps.append(1)
        axis += 1
    h = x._h
    if any_slice:
        last = max(i for i in range(len(steps)) if not (starts[i] == 0 and stops[i] == SLICE_END and steps[i] == 1)) + 1
        h = _c.ember_slice(h, starts[:last], stops[:last], steps[:last], last)
    if squeeze_axes:
        h = _c.ember_squeeze(h, squeeze_axes)
    # insert new axes and find where the advanced axes are
    out_pos = 0
    adv_pos = []
    for it in items:
        kind = it[0]
        if kind == "none" or kind == "newadv":
            h = _c.ember_expand_dims(h, out_pos)
            if kind == "newadv":
                adv_pos.append(out_pos)
            out_pos += 1
        elif kind == "int":
            continue
        elif kind == "mask0":
            continue
        else:
            if kind == "adv":
                adv_pos.append(out_pos)
            out_pos += 1
    return _wrap(h), adv_pos


def _into_out(result, out):
    """NumPy's out=: result assigned into out (an Array or a NumPy array), which is returned."""
    if out is None:
        return result
    out[...] = result
    return out


def _mask0_as_index_arrays(items):
    """items with each ("none",) ("mask0", b) pair made one ("newadv", [0] or [], 1): a new
    axis of length 1 indexed by an index array."""
    out = []
    for it in items:
        if it[0] == "mask0":
            out[-1] = ("newadv", F.zeros((1 if it[1] else 0,), dtype=_dt.int64), 1)
        else:
            out.append(it)
    return out


def _getitem(x, key):
    # (x[mask] with a boolean Array over x's leading axes is the C fast path's,
    # ember_py_mask_select in bindings/ember.i; here such a mask is an index array like any other.)
    shape = x.shape
    items, adv = _normalize_key(key, shape)
    mask0 = [it for it in items if it[0] == "mask0"]
    if mask0 and any(it[0] == "adv" for it in items):
        # beside index arrays, NumPy indexes the new axis of x[True] / x[False] with [0] / []
        # and broadcasts that with them: x[True, [0, 1]] has shape (2, ...)
        items = _mask0_as_index_arrays(items)
    view, adv_pos = _basic_view(x, items)
    if not adv:
        return view
    advs = [it for it in items if it[0] in ("adv", "newadv")]
    if mask0 and not advs:
        # x[True] / x[False]: the new axis holds 1 or 0 copies
        return view if mask0[0][1] else F._take_axis(view, F._empty_index(), 0)
    # NumPy's placement: with an index array present, integers count as advanced indices
    # too; when the advanced ones are not side by side (a slice, `...` or None between
    # them, as in x[0, :, idx]), the result's advanced axes come first.
    group = [i for i, it in enumerate(items) if it[0] in ("adv", "newadv", "int")]
    adjacent = group == list(range(group[0], group[-1] + 1))
    if len(advs) == 1 and not mask0 and adjacent and _c.ember_py_host_address(x._h) is not None:
        # one index array on a host backend: NumPy's result is take's (ember_take wraps
        # negative indices and raises EmberIndexError, an IndexError, for ones out of range;
        # a device backend reports those at the next synchronisation, so it is checked below)
        return F._take_axis(view, advs[0][1], adv_pos[0])
    idx = [a[1] for a in advs]
    sizes = [a[2] for a in advs]
    if len(idx) > 1:
        try:
            idx = F.broadcast_arrays(*idx)
        except ValueError:  # NumPy: an IndexError
            shapes = " ".join(str(i.shape) for i in idx)
            raise IndexError(f"shape mismatch: indexing arrays could not be broadcast together with shapes {shapes}") from None
    bshape = idx[0].shape
    # normalise negative indices and check bounds
    lin = None
    for k, (ix, n) in enumerate(zip(idx, sizes)):
        ix = ix.astype(_dt.int64) if ix.dtype != _dt.int64 else ix
        if ix.size:
            lo, hi = builtins.int(F.min(ix)), builtins.int(F.max(ix))
            if lo < -n or hi >= n:
                bad = lo if lo < -n else hi
                raise IndexError(f"index {bad} is out of bounds for axis with size {n}")
            if lo < 0:
                ix = F.where(ix < 0, ix + n, ix)
        lin = ix if lin is None else lin * n + ix
    if not adjacent:
        rest = [i for i in range(view.ndim) if i not in adv_pos]
        view = F.permute_dims(view, tuple(adv_pos) + tuple(rest))
        start = 0
    else:
        start = adv_pos[0]
    vshape = view.shape
    k = len(adv_pos)
    merged = vshape[:start] + (math.prod(vshape[start:start + k]),) + vshape[start + k:]
    view = F.reshape(view, merged)
    flat = F.reshape(lin, (-1,))
    out = F._take_axis(view, flat, start)
    return F.reshape(out, vshape[:start] + tuple(bshape) + vshape[start + k:])


class Array:
    """An Ember tensor. Create with ember.asarray / zeros / ...; never directly."""
    __slots__ = ("_h", "__weakref__")
    __hash__ = None
    __array_priority__ = 100  # NumPy defers binary operators to us

    def __init__(self, *args, **kwargs):
        raise TypeError("ember.Array cannot be created directly; use ember.asarray(...)")

    # ---------------------------------------------------------------- attributes
    # dtype, shape, ndim, size and T are C getset descriptors (install_properties, below).

    @property
    def device(self):
        name, dev = _c.ember_tensor_backend(self._h)
        return Device(name, dev)

    @property
    def backend(self):
        return _c.ember_tensor_backend(self._h)[0]

    @property
    def mT(self):
        if self.ndim < 2:
            raise ValueError("mT needs at least 2 dimensions")
        return _unop(U["matrix_transpose"], self)

    @property
    def real(self):
        return _unop(U["real"], self)

    @property
    def imag(self):
        return _unop(U["imag"], self)

    @property
    def strides(self):
        """Strides in elements."""
        return _c.ember_py_strides(self._h)

    @property
    def is_contiguous(self):
        return builtins.bool(_c.ember_tensor_is_contiguous(self._h))

    # ---------------------------------------------------------------- operators
    # Arithmetic, bitwise, comparison and unary operators are C method descriptors
    # installed below the class (_operator_specs): no Python frame per operator call.

    # ---------------------------------------------------------------- conversions
    def _item_checked(self, what):
        if self.size != 1:
            raise TypeError(f"only arrays of one element can be converted to Python {what} (shape {self.shape})")

    # item(), __bool__, __int__, __index__, __float__ and __len__ are C methods
    # (install_properties, below the class).

    def __complex__(self):
        self._item_checked("complex")
        re, im = _c.ember_tensor_item_c128(self._h)
        return builtins.complex(re, im)

    def tolist(self):
        """Nested Python lists of Python scalars (a scalar for 0-d)."""
        return _tolist(self)

    def tobytes(self):
        return _c.ember_py_to_bytes(self._h)

    def tofile(self, fid, sep="", format="%s"):
        """Writes the elements in C order to fid (a path or an open file): their bytes for
        sep="", else each formatted by format and separated by sep (ember.fromfile reads both)."""
        import os
        if sep == "":
            data = self.tobytes()
        else:
            data = sep.join(format % v for v in _tolist(F.reshape(self, (-1,)))).encode()
        if isinstance(fid, (str, bytes, os.PathLike)):
            with open(fid, "wb") as f:
                f.write(data)
        else:
            fid.write(data if "b" in getattr(fid, "mode", "b") else data.decode())

    # ---------------------------------------------------------------- sequence protocol
    def __iter__(self):
        sh = self.shape
        if not sh:
            raise TypeError("iteration over a 0-d array")
        h = self._h
        for i in range(sh[0]):
            yield _wrap(_c.ember_select(h, 0, i))

    # x[key]: install_getitem (below the class) puts a C fast path in front of this method
    # for an int, a slice, or a tuple of ints and slices; it calls this one for the rest.
    def __getitem__(self, key):
        if type(key) is builtins.int:
            sh = _shape_of(self._h)
            if not sh:
                raise IndexError("too many indices for array: array is 0-dimensional, but 1 were indexed")
            n = sh[0]
            if key < -n or key >= n:
                raise IndexError(f"index {key} is out of bounds for axis 0 with size {n}")
            return _wrap(_c.ember_select(self._h, 0, key + n if key < 0 else key))
        if type(key) is slice:
            key = (key,)
        if type(key) is tuple and key and all(type(k) is builtins.int or type(k) is slice for k in key):
            sh = _shape_of(self._h)
            if len(key) <= len(sh):
                return _int_slice_view(self._h, key, sh)
        return _getitem(self, key)

    def __setitem__(self, key, value):
        t = type(key)
        if t is builtins.int or t is slice or (t is tuple and all(
                type(k) is builtins.int or type(k) is slice or k is Ellipsis or k is None for k in key)):
            # a basic index: the view from __getitem__'s C path, assigned in place
            _c.ember_assign(self[key]._h, _assign_source(value, self.dtype))
            return
        items, adv = _normalize_key(key, self.shape)
        if not adv:
            view, _ = _basic_view(self, items)
            _c.ember_assign(view._h, _assign_source(value, self.dtype))
            return
        # a single boolean mask over the leading axes: where(mask, value, x)
        k = key[0] if isinstance(key, tuple) and len(key) == 1 else key
        if isinstance(k, Array) and k.dtype == _dt.bool_ and k.ndim >= 1:
            m = k
            if m.shape != self.shape[:m.ndim]:
                raise IndexError(f"boolean index of shape {m.shape} does not match the indexed shape {self.shape[:m.ndim]}")
            while m.ndim < self.ndim:
                m = F.expand_dims(m, axis=-1)
            v = value if isinstance(value, _SCALARS) else Array._from_any(value)
            if isinstance(v, Array) and v.ndim >= 1 and v.size != 1 and v.shape[0] != self.size:
                v = None
            if v is not None and (not isinstance(v, Array) or v.size == 1):
                if not isinstance(v, Array):  # checked as x[0] = v would be (300 into uint8)
                    v = _wrap(_c.ember_empty((), self.dtype.code))
                    _c.ember_assign(v._h, _scalar_handle(value, self.dtype))
                _c.ember_assign(self._h, F.where(m, v, self)._h)
                return
        # integer-array assignment: through NumPy, on a zero-copy view of host memory, or
        # on a host copy written back (device backends)
        try:
            import numpy as np
        except ImportError:  # pragma: no cover
            raise NotImplementedError("assignment with integer-array indices needs NumPy") from None
        if self.dtype == _dt.bfloat16:  # NumPy has no bfloat16: assign in float32, round back
            wide = self.astype(_dt.float32)
            wide[key] = value
            _c.ember_assign(self._h, wide.astype(_dt.bfloat16)._h)
            return
        nkey = _to_numpy_key(key)
        val = value if isinstance(value, _SCALARS) else np.asarray(Array._from_any(value))
        if _c.ember_py_host_address(self._h) is not None:
            target = np.asarray(self)
            target[nkey] = val
        else:
            host = np.array(self)
            host[nkey] = val
            _c.ember_py_write_from(self._h, np.ascontiguousarray(host))

    # ---------------------------------------------------------------- methods
    # x.astype(dtype) with an Ember dtype object is a C method in front of this one
    # (install_astype, below the class).
    def astype(self, dtype, copy=True):
        return F.astype(self, dtype, copy=copy)

    def to_device(self, device, /, *, stream=None):
        d = as_device(device)
        if d is None or d == self.device:
            return self
        with on_device(d):
            return _wrap(_c.ember_tensor_to(self._h))

    def copy(self):
        return _unop(U["copy"], self)

    # reshape is a C method descriptor (install_properties, below).

    def flatten(self):
        return _unop(U["flatten"], self)

    def numpy(self):
        import numpy as np
        return np.asarray(self)

    # NumPy's ndarray methods, for code written against NumPy (the array API standard has
    # none of them). Arguments after the first are keyword-only where NumPy's positional
    # order would put its `out=` or `dtype=` in between. NumPy's own functions call these for
    # an Array (np.sum(x) is x.sum(axis=None, out=None)), hence `out=`: the result is
    # assigned into it (an Array or a NumPy array) and it is returned. `sort` is absent on
    # purpose: NumPy's sorts in place and returns None, PyTorch's returns (values, indices).
    def sum(self, axis=None, *, dtype=None, out=None, keepdims=False):
        return _into_out(F.sum(self, axis=axis, dtype=dtype, keepdims=keepdims), out)

    def prod(self, axis=None, *, dtype=None, out=None, keepdims=False):
        return _into_out(F.prod(self, axis=axis, dtype=dtype, keepdims=keepdims), out)

    def mean(self, axis=None, *, dtype=None, out=None, keepdims=False):
        x = self if dtype is None else F.astype(self, dtype, copy=False)
        return _into_out(F.mean(x, axis=axis, keepdims=keepdims), out)

    def var(self, axis=None, *, dtype=None, out=None, ddof=0, keepdims=False):
        x = self if dtype is None else F.astype(self, dtype, copy=False)
        return _into_out(F.var(x, axis=axis, correction=ddof, keepdims=keepdims), out)

    def std(self, axis=None, *, dtype=None, out=None, ddof=0, keepdims=False):
        x = self if dtype is None else F.astype(self, dtype, copy=False)
        return _into_out(F.std(x, axis=axis, correction=ddof, keepdims=keepdims), out)

    def max(self, axis=None, *, out=None, keepdims=False):
        return _into_out(F.max(self, axis=axis, keepdims=keepdims), out)

    def min(self, axis=None, *, out=None, keepdims=False):
        return _into_out(F.min(self, axis=axis, keepdims=keepdims), out)

    def all(self, axis=None, *, out=None, keepdims=False):
        return _into_out(F.all(self, axis=axis, keepdims=keepdims), out)

    def any(self, axis=None, *, out=None, keepdims=False):
        return _into_out(F.any(self, axis=axis, keepdims=keepdims), out)

    def argmax(self, axis=None, *, out=None, keepdims=False):
        return _into_out(F.argmax(self, axis=axis, keepdims=keepdims), out)

    def argmin(self, axis=None, *, out=None, keepdims=False):
        return _into_out(F.argmin(self, axis=axis, keepdims=keepdims), out)

    def argsort(self, axis=-1, *, descending=False, stable=True):
        return F.argsort(self, axis=axis, descending=descending, stable=stable)

    def cumsum(self, axis=None, *, dtype=None, out=None):
        x = self if dtype is None else F.astype(self, dtype, copy=False)
        return _into_out(F.cumsum(x, axis), out)

    def cumprod(self, axis=None, *, dtype=None, out=None):
        x = self if dtype is None else F.astype(self, dtype, copy=False)
        return _into_out(F.cumprod(x, axis), out)

    def clip(self, min=None, max=None, *, out=None):
        return _into_out(F.clip(self, min, max), out)

    def round(self, decimals=0, *, out=None):
        return _into_out(F.round(self, decimals=decimals), out)

    def __round__(self, ndigits=None):
        return F.round(self, decimals=ndigits or 0)

    def __divmod__(self, other):
        return self // other, self % other

    def __rdivmod__(self, other):
        return other // self, other % self

    @property
    def itemsize(self):
        return self.dtype.itemsize

    @property
    def nbytes(self):
        return self.size * self.dtype.itemsize

    def conj(self):
        return F.conj(self)

    def transpose(self, *axes):
        """x.transpose() reverses the axes; x.transpose(1, 0, 2) or x.transpose((1, 0, 2)) permutes."""
        if len(axes) == 1 and (axes[0] is None or isinstance(axes[0], (tuple, list))):
            axes = axes[0]
        return F.transpose(self, axes or None)

    def swapaxes(self, axis1, axis2):
        return F.swapaxes(self, axis1, axis2)

    def squeeze(self, axis=None):
        return F.squeeze(self, axis)

    def ravel(self):
        """The elements in C order: a view when the layout allows one (reshape), else a copy."""
        return F.reshape(self, (-1,))

    def take(self, indices, axis=None, *, out=None):
        return _into_out(F.take(self, indices, axis=axis), out)

    def repeat(self, repeats, axis=None):
        return F.repeat(self, repeats, axis=axis)

    def nonzero(self):
        return F.nonzero(self)

    def dot(self, other):
        return F.dot(self, other)

    def fill(self, value):
        """Sets every element to value, in place (NumPy's ndarray.fill)."""
        self[...] = value

    def __array_namespace__(self, /, *, api_version=None):
        if api_version not in (None, "2021.12", "2022.12", "2023.12", "2024.12"):
            raise ValueError(f"unsupported array API version {api_version!r}")
        import ember
        return ember

    # ---------------------------------------------------------------- NumPy interop
    @property
    def __array_interface__(self):
        d = self.dtype
        ts = _dt.TYPESTR.get(d.name)
        addr = _c.ember_py_host_address(self._h) if ts else None
        # A null address (an empty tensor imported through DLPack) is refused: NumPy 1.24 then
        # read the array as a sequence and failed; __array__ makes the empty array instead.
        if not addr:
            raise AttributeError("__array_interface__: not a host tensor of a NumPy dtype")
        item = d.itemsize
        return {"version": 3, "shape": self.shape, "typestr": ts, "data": (addr, bool(_c.ember_tensor_is_read_only(self._h))),
                "strides": tuple(s * item for s in _c.ember_py_strides(self._h))}

    def __array__(self, dtype=None, copy=None):
        import numpy as np
        x = self
        if x.dtype == _dt.bfloat16:
            x = x.astype(_dt.float32)
        elif copy is not True:
            try:
                a = np.asarray(_InterfaceOnly(x))
                return a if dtype is None else a.astype(dtype, copy=False)
            except AttributeError:
                pass
        if copy is False and x is not self:
            raise ValueError("converting this array to NumPy needs a copy")
        if copy is False:
            raise ValueError("converting a device array to NumPy needs a copy")
        raw = _c.ember_py_to_bytes(x._h)
        a = np.frombuffer(bytearray(raw), dtype=_dt.TYPESTR[x.dtype.name]).reshape(x.shape)
        return a if dtype is None else a.astype(dtype, copy=False)

    # ---------------------------------------------------------------- DLPack
    def __dlpack_device__(self):
        if _c.ember_py_host_address(self._h) is None:
            return (4, self.device.index)  # kDLOpenCL: device memory, not importable zero-copy
        return (1, 0)                       # kDLCPU

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        versioned = max_version is not None and tuple(max_version)[0] >= 1
        x = self
        copied = False
        host = _c.ember_py_host_address(self._h) is not None
        if dl_device is not None and tuple(dl_device)[0] != 1 and not host:
            raise BufferError(f"__dlpack__: dl_device {dl_device} is not supported")
        if dl_device is not None and tuple(dl_device)[0] not in (1,):
            if tuple(dl_device) != self.__dlpack_device__():
                raise BufferError(f"__dlpack__: cannot export to dl_device {dl_device}")
        if not host:
            if copy is False:
                raise BufferError("__dlpack__: a device tensor needs a copy to host (copy=False given)")
            from ._backend import backend_list
            host_backend = "reference"
            with on_device(Device(host_backend, 0)):
                x = _wrap(_c.ember_tensor_to(self._h))
            copied = True
        elif copy:
            x = self.copy()
            copied = True
        return _c.ember_py_to_dlpack(x._h, 1 if versioned else 0, 1 if copied else 0)

    # ---------------------------------------------------------------- printing and pickling
    def __repr__(self):
        return _format(self, True)

    def __str__(self):
        return _format(self, False)

    def __format__(self, spec):
        if self.ndim == 0 and spec:
            return format(self.item(), spec)
        return str(self)

    def __reduce__(self):
        x = self if self.dtype != _dt.bfloat16 else self
        return (_rebuild, (_c.ember_py_to_bytes(x._h), self.dtype.name, self.shape, self.backend, self.device.index))

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self.copy()

    # ---------------------------------------------------------------- conversion of inputs
    @staticmethod
    def _from_any(obj, index=False):
        if isinstance(obj, Array):
            return obj
        from ._creation import asarray
        a = asarray(obj)
        if index and a.size == 0 and a.dtype.kind == "f":
            a = a.astype(_dt.int64)
        return a


class _InterfaceOnly:
    """Hands NumPy only __array_interface__ (so np.asarray does not recurse into __array__)."""
    __slots__ = ("a", "__array_interface__")

    def __init__(self, a):
        self.a = a
        self.__array_interface__ = a.__array_interface__


def _rebuild(raw, dtype_name, shape, backend, device):
    from ._backend import backend_list
    from ._creation import _from_bytes
    d = _dt.BY_NAME[dtype_name]
    if backend in backend_list(True):
        with on_device(Device(backend, device)):
            return _from_bytes(raw, d, shape)
    return _from_bytes(raw, d, shape)


def _to_numpy_key(key):
    import numpy as np
    if not isinstance(key, tuple):
        key = (key,)
    out = []
    for k in key:
        if isinstance(k, Array):
            out.append(np.asarray(k))
        else:
            out.append(k)
    return tuple(out)


def _flat_list(x):
    """Elements in C order as Python scalars, without NumPy."""
    d = x.dtype
    # memoryview cannot cast to "e" (half) before Python 3.12; float32 holds both exactly
    if d in (_dt.bfloat16, _dt.float16):
        x = x.astype(_dt.float32)
        d = _dt.float32
    raw = _c.ember_py_to_bytes(x._h)
    if d.kind == "c":
        vals = memoryview(raw).cast("f" if d == _dt.complex64 else "d").tolist()
        return [builtins.complex(vals[i], vals[i + 1]) for i in range(0, len(vals), 2)]
    return memoryview(raw).cast(_dt.FORMAT[d.name]).tolist()


_NUMPY = []  # [numpy module or None] once looked up


def _numpy_or_none():
    if not _NUMPY:
        try:
            import numpy
            _NUMPY.append(numpy)
        except ImportError:
            _NUMPY.append(None)
    return _NUMPY[0]


def _tolist(x):
    np = _numpy_or_none()
    if np is not None:  # NumPy's tolist makes Python scalars 1.6x as fast as memoryview's (1e4 float32)
        return np.asarray(x).tolist()
    flat = _flat_list(x)
    shape = x.shape
    if not shape:
        return flat[0]

    def build(offset, dim):
        n = shape[dim]
        if dim == len(shape) - 1:
            return flat[offset:offset + n], offset + n
        out = []
        for _ in range(n):
            sub, offset = build(offset, dim + 1)
            out.append(sub)
        return out, offset
    if 0 in shape:
        # keep the nesting of the leading non-zero axes
        def empty(dim):
            if dim == len(shape) or shape[dim] == 0:
                return []
            return [empty(dim + 1) for _ in range(shape[dim])]
        return empty(0)
    return build(0, 0)[0]


def _format(x, is_repr):
    d = x.dtype
    try:
        import numpy as np
        a = np.asarray(x.astype(_dt.float32) if d == _dt.bfloat16 else x)
        if is_repr:
            body = np.array2string(a, separator=", ", prefix="Array(")
            extra = f", dtype={d.name}"
            dev = x.device
            if dev.backend != "reference" or dev.index != 0:
                extra += f", device='{dev}'"
            return f"Array({body}{extra})"
        return np.array2string(a) if a.ndim else str(a[()])
    except ImportError:  # pragma: no cover - NumPy is optional
        body = repr(x.tolist())
        return f"Array({body}, dtype={d.name})" if is_repr else body


_c.ember_py_register_array(Array)
_c.install_operators(Array, _operator_specs(), _operator_fallback)
_c.install_getitem(Array, Array.__getitem__)
_setitem_in_python = Array.__setitem__  # what the C path hands on (and the tests' oracle)
_c.install_setitem(Array, _setitem_in_python)
_c.install_properties(Array, tuple(_BY_CODE))
_astype_in_python = Array.astype  # what the C method hands on (and the tests' oracle)
_c.install_astype(Array, _astype_in_python)

# Last: _functions imports this module, and the methods above reach its functions at call time.
from . import _functions as F  # noqa: E402
