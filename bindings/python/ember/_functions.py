"""The array API functions (elementwise, statistical, manipulation, searching, sorting,
sets, linear algebra, utility, indexing, data types) over the C ABI."""
import builtins
import math

from . import _ember_c as _c
from . import _dtypes as _dt
from ._array import Array, _wrap, _handle, _unop, _binop, _reduceop, U, B, R, AXIS_NONE, _SCALARS
from ._array import _is_big_int, _big_int_binop, _scalar_handle, _FORWARD, _REFLECTED
from ._creation import asarray, zeros, full, empty, arange, _from_python
from ._errors import missing

__all__ = []


def _export(f):
    __all__.append(f.__name__)
    return f


def _arr(x):
    return x if isinstance(x, Array) else asarray(x)


# ---------------------------------------------------------------- elementwise
def _into(op, xs, out):
    """NumPy's out=: op's result written into the Array out in one pass (ember_elementwise_into);
    out keeps its dtype and may be one of the inputs."""
    if not isinstance(out, Array):
        raise TypeError(f"{op}: out must be an ember array, got {type(out).__name__}")
    _c.ember_elementwise_into(op, [_handle(x) for x in xs], out._h)
    return out


def _make_unary(name, cname=None):
    op = cname or name
    i = U[op]

    def f(x, /, *, out=None):
        if out is None:
            return _unop(i, x)
        return _into(op, (x,), out)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"Elementwise {op} (ember_{op}); out=: written into that array (ember_elementwise_into)."
    globals()[name] = f
    __all__.append(name)


for _n in ("negative", "positive", "abs", "sign", "sqrt", "square", "exp", "expm1", "log", "log1p", "log2",
           "log10", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh",
           "atanh", "erf", "erfc", "cbrt", "floor", "ceil", "trunc", "reciprocal", "isnan", "isinf", "isfinite", "signbit",
           "conj", "logical_not", "bitwise_invert", "sigmoid", "relu", "softplus", "silu", "real", "imag"):
    _make_unary(_n)


def _make_binary(name, cname=None):
    op = cname or name
    i = B[op]

    def f(x1, x2, /, *, out=None):
        if out is not None and op == "matmul":  # not elementwise: the product, then assigned
            if not isinstance(out, Array):
                raise TypeError(f"matmul: out must be an ember array, got {type(out).__name__}")
            _c.ember_assign(out._h, f(x1, x2)._h)
            return out
        if out is not None and (_is_big_int(x1) or _is_big_int(x2)):  # as without out=, then assigned
            if not isinstance(out, Array):
                raise TypeError(f"{op}: out must be an ember array, got {type(out).__name__}")
            _c.ember_assign(out._h, f(x1, x2)._h)
            return out
        if out is not None:
            return _into(op, (x1, x2), out)
        r = _binop(i, x1, x2)
        if r is NotImplemented:
            if _is_big_int(x2) and isinstance(x1, Array):
                return _big_int_binop(i, _FORWARD, x1, x2)
            if _is_big_int(x1) and isinstance(x2, Array):
                return _big_int_binop(i, _REFLECTED, x2, x1)
            return _binop(i, _arr(x1), _arr(x2))
        return r
    f.__name__ = f.__qualname__ = name
    f.__doc__ = (f"Elementwise {op} with broadcasting; Python scalars are weak (ember_{op}); "
                 "out=: written into that array (ember_elementwise_into).")
    globals()[name] = f
    __all__.append(name)


for _n in ("add", "subtract", "multiply", "divide", "floor_divide", "remainder", "fmod", "pow", "maximum", "minimum",
           "atan2", "hypot", "copysign", "nextafter", "logaddexp", "equal", "not_equal", "less", "less_equal",
           "greater", "greater_equal", "logical_and", "logical_or", "logical_xor", "bitwise_and", "bitwise_or",
           "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift"):
    _make_binary(_n)
_make_binary("matmul")


@_export
def round(x, /, *, decimals=0):
    if decimals:
        return _wrap(_c.ember_round_decimals(x._h, int(decimals)))
    return _unop(U["round"], x)


def _big_int_bound(bound, dtype, upper):
    """A clip bound that is a Python int past int64, as NumPy 2 takes it: a float for float
    arrays; for integer arrays none at all when no element can pass it (an upper bound above
    the dtype's range, a lower one below), else OverflowError."""
    if dtype.kind in "fc":
        return float(bound)
    if dtype == _dt.uint64 and 0 <= bound < 1 << 64:
        return bound
    info = _dt.iinfo(dtype)
    if (upper and bound > info.max) or (not upper and bound < info.min):
        return None
    raise OverflowError(f"clip: Python integer {bound} out of bounds for {dtype.name}")


@_export
def clip(x, /, min=None, max=None):
    if _is_big_int(min):
        min = _big_int_bound(min, x.dtype, upper=False)
    if _is_big_int(max):
        max = _big_int_bound(max, x.dtype, upper=True)
    lo = None if min is None else _handle(min)
    hi = None if max is None else _handle(max)
    return _wrap(_c.ember_clip(x._h, lo, hi))


def _branch(v, other):
    """where's branch v as a handle; a Python int past int64 meeting a float branch is a
    weak float, as in NumPy 2."""
    if _is_big_int(v) and isinstance(other, Array):
        return _scalar_handle(v, other.dtype)
    return _handle(v)


@_export
def where(condition, x1, x2, /):
    return _wrap(_c.ember_where(_handle(condition), _branch(x1, x2), _branch(x2, x1)))


@_export
def isclose(a, b, /, *, rtol=1e-05, atol=1e-08, equal_nan=False):
    return _wrap(_c.ember_isclose(_handle(a), _handle(b), float(rtol), float(atol), 1 if equal_nan else 0))


@_export
def allclose(a, b, /, *, rtol=1e-05, atol=1e-08, equal_nan=False):
    return builtins.bool(_c.ember_allclose(_handle(a), _handle(b), float(rtol), float(atol), 1 if equal_nan else 0))


@_export
def leaky_relu(x, /, negative_slope=0.01):
    return _wrap(_c.ember_leaky_relu(x._h, float(negative_slope)))


@_export
def gelu(x, /, approximate=False):
    return _wrap(_c.ember_gelu(x._h, 1 if approximate else 0))


@_export
def softmax(x, /, axis=-1):
    return _wrap(_c.ember_softmax(x._h, int(axis)))


@_export
def log_softmax(x, /, axis=-1):
    return _wrap(_c.ember_log_softmax(x._h, int(axis)))


# ---------------------------------------------------------------- data types
@_export
def astype(x, dtype, /, *, copy=True, device=None):
    d = _dt.as_dtype(dtype)
    if device is not None:
        x = x.to_device(device)
    if d == x.dtype:
        return x.copy() if copy else x
    return _wrap(_c.ember_astype(x._h, d.code))


# ---------------------------------------------------------------- statistics
def _axes(axis):
    if axis is None:
        return None
    if isinstance(axis, (tuple, list)):
        return tuple(int(a) for a in axis)
    return (int(axis),)


def _make_reduce(name, cname=None):
    i = R[cname or name]

    def f(x, /, *, axis=None, keepdims=False):
        return _reduceop(i, x, _axes(axis), 1 if keepdims else 0)
    f.__name__ = f.__qualname__ = name
    globals()[name] = f
    __all__.append(name)


for _n in ("max", "min", "all", "any", "logsumexp"):
    _make_reduce(_n)
_SUM, _PROD, _MEAN = R["sum"], R["prod"], R["mean"]


@_export
def sum(x, /, *, axis=None, dtype=None, keepdims=False):
    if dtype is not None and _dt.as_dtype(dtype) != x.dtype:
        x = astype(x, dtype)
        r = _reduceop(_SUM, x, _axes(axis), 1 if keepdims else 0)
        return r if r.dtype == _dt.as_dtype(dtype) else astype(r, dtype)
    r = _reduceop(_SUM, x, _axes(axis), 1 if keepdims else 0)
    return r


@_export
def prod(x, /, *, axis=None, dtype=None, keepdims=False):
    if dtype is not None and _dt.as_dtype(dtype) != x.dtype:
        x = astype(x, dtype)
        r = _reduceop(_PROD, x, _axes(axis), 1 if keepdims else 0)
        return r if r.dtype == _dt.as_dtype(dtype) else astype(r, dtype)
    return _reduceop(_PROD, x, _axes(axis), 1 if keepdims else 0)


@_export
def mean(x, /, *, axis=None, keepdims=False):
    return _reduceop(_MEAN, x, _axes(axis), 1 if keepdims else 0)


@_export
def var(x, /, *, axis=None, correction=0.0, keepdims=False, ddof=None):
    c = float(ddof if ddof is not None else correction)
    return _wrap(_c.ember_var(x._h, _axes(axis), 1 if keepdims else 0, c))


@_export
def std(x, /, *, axis=None, correction=0.0, keepdims=False, ddof=None):
    c = float(ddof if ddof is not None else correction)
    return _wrap(_c.ember_std(x._h, _axes(axis), 1 if keepdims else 0, c))


def _scan(fn, x, axis, dtype, include_initial, initial):
    if axis is None:
        if x.ndim > 1:
            raise ValueError("cumulative functions need an axis for arrays of more than one dimension")
        axis = 0
    if x.ndim == 0:
        raise ValueError("cumulative functions need at least one dimension")
    if dtype is not None:
        x = astype(x, dtype, copy=False)
    r = _wrap(fn(x._h, int(axis)))
    if dtype is not None and r.dtype != _dt.as_dtype(dtype):
        r = astype(r, dtype)
    if include_initial:
        ax = axis % x.ndim
        shape = list(r.shape)
        shape[ax] = 1
        r = concat([full(tuple(shape), initial, dtype=r.dtype, device=r.device), r], axis=ax)
    return r


@_export
def cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False):
    return _scan(_c.ember_cumsum, x, axis, dtype, include_initial, 0)


@_export
def cumulative_prod(x, /, *, axis=None, dtype=None, include_initial=False):
    return _scan(_c.ember_cumprod, x, axis, dtype, include_initial, 1)


@_export
def cumsum(x, /, axis=None):
    """Ember ML / NumPy cumsum: axis None scans the flattened tensor."""
    return _wrap(_c.ember_cumsum(x._h, AXIS_NONE if axis is None else int(axis)))


@_export
def cumprod(x, /, axis=None):
    return _wrap(_c.ember_cumprod(x._h, AXIS_NONE if axis is None else int(axis)))


# ---------------------------------------------------------------- searching
def _arg(fn, x, axis, keepdims):
    if axis is None:
        r = _wrap(fn(x._h, AXIS_NONE, 0))
        if keepdims:
            r = reshape(r, (1,) * x.ndim)
        return r
    return _wrap(fn(x._h, int(axis), 1 if keepdims else 0))


@_export
def argmax(x, /, *, axis=None, keepdims=False):
    return _arg(_c.ember_argmax, x, axis, keepdims)


@_export
def argmin(x, /, *, axis=None, keepdims=False):
    return _arg(_c.ember_argmin, x, axis, keepdims)


@_export
def count_nonzero(x, /, *, axis=None, keepdims=False):
    return _wrap(_c.ember_count_nonzero(x._h, _axes(axis), 1 if keepdims else 0))


@_export
def nonzero(x, /):
    if x.ndim == 0:
        raise ValueError("nonzero is not defined for 0-d arrays")
    nz = _c.ember_nonzero(x._h)
    return tuple(_wrap(_c.ember_select(nz, 1, j)) for j in range(x.ndim))


@_export
def searchsorted(x1, x2, /, *, side="left", sorter=None):
    """Insertion points of x2 in the sorted 1-d x1 (binary search; NaN sorts last, as in NumPy)."""
    if x1.ndim != 1:
        raise ValueError("searchsorted: x1 must be 1-dimensional")
    if side not in ("left", "right"):
        raise ValueError(f"searchsorted: side must be 'left' or 'right', got {side!r}")
    if sorter is not None:
        x1 = take(x1, sorter)
    return _wrap(_c.ember_searchsorted(x1._h, _arr(x2)._h, 1 if side == "right" else 0))


# ---------------------------------------------------------------- sorting
@_export
def sort(x, /, *, axis=-1, descending=False, stable=True):
    return _wrap(_c.ember_sort(x._h, int(axis), 1 if descending else 0))


@_export
def argsort(x, /, *, axis=-1, descending=False, stable=True):
    return _wrap(_c.ember_argsort(x._h, int(axis), 1 if descending else 0))


# ---------------------------------------------------------------- sets (sort-based)
def _starts(s):
    """True where a run of equal values begins in the sorted 1-d s (non-empty)."""
    first = full((1,), True, device=s.device)
    if s.size == 1:
        return first
    # NaNs compare unequal: each is its own value (array API)
    return concat([first, not_equal(s[1:], s[:-1])])


def _unique_core(x):
    flat = reshape(x, (-1,))
    perm = argsort(flat)
    s = take(flat, perm)
    if s.size == 0:
        return flat, perm, s, s.astype(_dt.bool_)
    return flat, perm, s, _starts(s)


class UniqueAllResult(tuple):
    values = property(lambda s: s[0])
    indices = property(lambda s: s[1])
    inverse_indices = property(lambda s: s[2])
    counts = property(lambda s: s[3])


class UniqueCountsResult(tuple):
    values = property(lambda s: s[0])
    counts = property(lambda s: s[1])


class UniqueInverseResult(tuple):
    values = property(lambda s: s[0])
    inverse_indices = property(lambda s: s[1])


def _unique_integers(x):
    """(values, counts) of an integer x from the C API's ember_unique, which counts values
    of a narrow range instead of sorting them; floats stay below (NaNs are distinct here)."""
    values, counts = _c.ember_binding_unique_counts(x._h)
    return _wrap(values), _wrap(counts)


@_export
def unique_values(x, /):
    if x.dtype.kind in "iu":
        return _unique_integers(x)[0]
    # The values alone need no permutation: a stable sort of values gives the same s as
    # take(flat, argsort(flat)) and costs less than the argsort.
    s = sort(reshape(x, (-1,)))
    return s[_starts(s)] if s.size else s


def _counts(starts, n):
    pos = nonzero(starts)[0]
    ends = concat([pos[1:], full((1,), n, dtype=_dt.int64, device=pos.device)])
    return pos, ends - pos


@_export
def unique_counts(x, /):
    if x.dtype.kind in "iu":
        return UniqueCountsResult(_unique_integers(x))
    s = sort(reshape(x, (-1,)))  # no permutation needed, as for unique_values
    if not s.size:
        return UniqueCountsResult((s, zeros((0,), dtype=_dt.int64)))
    starts = _starts(s)
    pos, counts = _counts(starts, s.size)
    return UniqueCountsResult((take(s, pos), counts))


def _inverse(x, perm, starts):
    group = cumulative_sum(astype(starts, _dt.int64)) - 1
    # inv[perm[i]] = group[i]: a scatter, where take(group, argsort(perm)) sorted perm again
    inv = scatter(group, perm, dim_size=perm.size, reduce="replace")
    return reshape(inv, x.shape)


@_export
def unique_inverse(x, /):
    flat, perm, s, starts = _unique_core(x)
    if not s.size:
        return UniqueInverseResult((s, zeros(x.shape, dtype=_dt.int64)))
    return UniqueInverseResult((s[starts], _inverse(x, perm, starts)))


@_export
def unique_all(x, /):
    flat, perm, s, starts = _unique_core(x)
    if not s.size:
        e = zeros((0,), dtype=_dt.int64)
        return UniqueAllResult((s, e, zeros(x.shape, dtype=_dt.int64), e))
    pos, counts = _counts(starts, s.size)
    return UniqueAllResult((take(s, pos), take(perm, pos), _inverse(x, perm, starts), counts))


# ---------------------------------------------------------------- manipulation
@_export
def reshape(x, /, shape, *, copy=None):
    # shape goes to the C typemap as it is: an int or a sequence of ints (TypeError else)
    if copy is None:
        return x.reshape(shape)  # the C method (install_properties): no SWIG proxy
    if copy is False:
        return _wrap(_c.ember_view(x._h, shape))
    r = _wrap(_c.ember_reshape(x._h, shape))
    return r.copy() if copy else r


@_export
def broadcast_to(x, /, shape):
    return _wrap(_c.ember_broadcast_to(x._h, tuple(int(s) for s in shape)))


def _broadcast_shapes(*shapes):
    nd = builtins.max((len(s) for s in shapes), default=0)
    out = []
    for i in range(nd):
        dim = 1
        for s in shapes:
            j = i - (nd - len(s))
            if j < 0:
                continue
            d = s[j]
            if d != 1:
                if dim != 1 and dim != d:
                    raise ValueError(f"shapes {' '.join(str(tuple(s)) for s in shapes)} cannot be broadcast together")
                dim = d
        out.append(dim)
    return tuple(out)


@_export
def broadcast_shapes(*shapes):
    return _broadcast_shapes(*[tuple(s) for s in shapes])


@_export
def broadcast_arrays(*arrays):
    shape = _broadcast_shapes(*[a.shape for a in arrays])
    return [a if a.shape == shape else broadcast_to(a, shape) for a in arrays]


@_export
def concat(arrays, /, *, axis=0):
    arrays = list(arrays)
    if axis is None:
        arrays = [reshape(a, (-1,)) for a in arrays]
        axis = 0
    return _wrap(_c.ember_concat([a._h for a in arrays], int(axis)))


@_export
def stack(arrays, /, *, axis=0):
    return _wrap(_c.ember_stack([a._h for a in arrays], int(axis)))


@_export
def expand_dims(x, /, *, axis=0):
    if isinstance(axis, (tuple, list)):
        nd = x.ndim + len(axis)
        for a in sorted(ax % nd for ax in axis):
            x = _wrap(_c.ember_expand_dims(x._h, a))
        return x
    return _wrap(_c.ember_expand_dims(x._h, int(axis)))


@_export
def squeeze(x, /, axis=None):
    if axis is None:
        return _wrap(_c.ember_squeeze(x._h, None))
    return _wrap(_c.ember_squeeze(x._h, _axes(axis)))


@_export
def flip(x, /, *, axis=None):
    return _wrap(_c.ember_flip(x._h, _axes(axis)))


@_export
def permute_dims(x, /, axes):
    axes = tuple(int(a) for a in axes)
    return _wrap(_c.ember_permute_dims(x._h, axes))


@_export
def moveaxis(x, source, destination, /):
    if isinstance(source, builtins.int) and isinstance(destination, builtins.int):
        return _wrap(_c.ember_moveaxis(x._h, source, destination))
    src = [s % x.ndim for s in source]
    dst = [d % x.ndim for d in destination]
    if len(src) != len(dst):
        raise ValueError("moveaxis: source and destination must have the same number of elements")
    order = [n for n in range(x.ndim) if n not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return permute_dims(x, order)


@_export
def swapaxes(x, axis1, axis2, /):
    return _wrap(_c.ember_swapaxes(x._h, int(axis1), int(axis2)))


@_export
def matrix_transpose(x, /):
    if x.ndim < 2:
        raise ValueError("matrix_transpose needs at least 2 dimensions")
    return _unop(U["matrix_transpose"], x)


@_export
def transpose(x, /, axes=None):
    if axes is None:
        return _unop(U["transpose"], x)
    return permute_dims(x, axes)


@_export
def repeat(x, repeats, /, *, axis=None):
    if isinstance(repeats, builtins.int) or (isinstance(repeats, Array) and repeats.ndim == 0):
        return _wrap(_c.ember_repeat(x._h, int(repeats), AXIS_NONE if axis is None else int(axis)))
    counts = _arr(repeats).tolist()
    if axis is None:
        x = reshape(x, (-1,))
        axis = 0
    n = x.shape[axis]
    if len(counts) != n:
        raise ValueError(f"repeat: {len(counts)} counts for an axis of length {n}")
    idx = [i for i, c in enumerate(counts) for _ in range(int(c))]
    return _take_axis(x, asarray(idx, dtype=_dt.int64, device=x.device), axis)


@_export
def roll(x, /, shift, *, axis=None):
    if axis is None:
        return _wrap(_c.ember_roll(x._h, (int(shift),), None, 1))
    shifts = (shift,) if isinstance(shift, builtins.int) else tuple(shift)
    axes = (axis,) if isinstance(axis, builtins.int) else tuple(axis)
    if len(shifts) == 1 and len(axes) > 1:
        shifts = shifts * len(axes)
    if len(shifts) != len(axes):
        raise ValueError("roll: shift and axis must have the same length")
    return _wrap(_c.ember_roll(x._h, shifts, axes, len(axes)))


@_export
def tile(x, repetitions, /):
    return _wrap(_c.ember_tile(x._h, tuple(int(r) for r in repetitions)))


@_export
def unstack(x, /, *, axis=0):
    n = x.shape[axis]
    return tuple(_wrap(_c.ember_select(x._h, int(axis), i)) for i in range(n))


@_export
def split(x, indices_or_sections, /, axis=0):
    if isinstance(indices_or_sections, builtins.int):
        return [_wrap(h) for h in _c.ember_py_split(x._h, indices_or_sections, None, int(axis))]
    return [_wrap(h) for h in _c.ember_py_split(x._h, 0, tuple(int(i) for i in indices_or_sections), int(axis))]


_PAD_MODES = {"constant": 0, "edge": 1, "reflect": 2, "wrap": 3}


@_export
def pad(x, pad_width, mode="constant", constant_values=0):
    nd = x.ndim
    if isinstance(pad_width, builtins.int):
        pw = [(pad_width, pad_width)] * nd
    else:
        pw = [tuple(p) if not isinstance(p, builtins.int) else (p, p) for p in pad_width]
        if len(pw) == 1:
            pw = pw * nd
    flat = [int(v) for p in pw for v in p]
    if mode not in _PAD_MODES:
        raise ValueError(f"pad: unknown mode {mode!r}")
    return _wrap(_c.ember_pad(x._h, flat, _PAD_MODES[mode], float(constant_values)))


@_export
def diff(x, /, *, axis=-1, n=1, prepend=None, append=None):
    x = _arr(x)
    if x.ndim == 0:
        raise ValueError("diff needs at least one dimension, got a 0-d array")
    if not -x.ndim <= axis < x.ndim:
        raise ValueError(f"diff: axis {axis} is out of range for an array of {x.ndim} dimensions")
    if n < 0:
        raise ValueError(f"diff: order n must be non-negative, got {n}")
    if prepend is not None or append is not None:
        parts = []
        shape = list(x.shape)
        for extra in (prepend,):
            if extra is not None:
                e = _arr(extra)
                if e.ndim == 0:
                    shape[axis] = 1
                    e = broadcast_to(e, tuple(shape))
                parts.append(astype(e, x.dtype, copy=False))
        parts.append(x)
        if append is not None:
            e = _arr(append)
            if e.ndim == 0:
                shape[axis] = 1
                e = broadcast_to(e, tuple(shape))
            parts.append(astype(e, x.dtype, copy=False))
        x = concat(parts, axis=axis)
    ax = axis % x.ndim
    for _ in range(n):
        lo = [slice(None)] * x.ndim
        hi = [slice(None)] * x.ndim
        lo[ax] = slice(1, None)
        hi[ax] = slice(None, -1)
        if x.dtype == _dt.bool_:
            x = not_equal(x[tuple(lo)], x[tuple(hi)])
        else:
            x = subtract(x[tuple(lo)], x[tuple(hi)])
    return x


# ---------------------------------------------------------------- indexing
def _empty_index():
    return zeros((0,), dtype=_dt.int64)


def _take_axis(x, indices, axis):
    return _wrap(_c.ember_take(x._h, indices._h, int(axis)))


@_export
def take(x, indices, /, *, axis=None):
    indices = _arr(indices)
    if axis is None:
        if x.ndim != 1:
            x = reshape(x, (-1,))
        axis = 0
    return _wrap(_c.ember_take(x._h, indices._h, int(axis)))


@_export
def take_along_axis(x, indices, /, *, axis=-1):
    return _wrap(_c.ember_take_along_axis(x._h, _arr(indices)._h, int(axis)))


_SCATTER = {"add": 0, "sum": 0, "mean": 1, "max": 2, "min": 3, "replace": 4}


@_export
def scatter(src, index, /, *, axis=0, dim_size=-1, reduce="add"):
    """out[..., index[i], ...] (reduce)= src[..., i, ...] along axis (ember_scatter)."""
    return _wrap(_c.ember_scatter(src._h, _arr(index)._h, int(axis), int(dim_size), _SCATTER[reduce]))


@_export
def one_hot(indices, depth, /, *, dtype=None):
    return _wrap(_c.ember_one_hot(_arr(indices)._h, int(depth), -1 if dtype is None else _dt.as_dtype(dtype).code))


# ---------------------------------------------------------------- linear algebra (main namespace)
@_export
def tensordot(x1, x2, /, *, axes=2):
    if isinstance(axes, builtins.int):
        return _wrap(_c.ember_tensordot(x1._h, x2._h, axes, None, None, -1))
    a, b = axes
    a = (a,) if isinstance(a, builtins.int) else tuple(a)
    b = (b,) if isinstance(b, builtins.int) else tuple(b)
    if len(a) != len(b):
        raise ValueError("tensordot: axes lists differ in length")
    return _wrap(_c.ember_tensordot(x1._h, x2._h, 0, a, b, len(a)))


@_export
def vecdot(x1, x2, /, *, axis=-1):
    return _wrap(_c.ember_vecdot(x1._h, x2._h, int(axis)))


@_export
def dot(a, b, /):
    r = _binop(B["dot"], a, b)
    return _binop(B["dot"], _arr(a), _arr(b)) if r is NotImplemented else r  # lists, NumPy arrays


@_export
def outer(a, b, /):
    r = _binop(B["outer"], a, b)
    return _binop(B["outer"], _arr(a), _arr(b)) if r is NotImplemented else r  # lists, NumPy arrays


@_export
def trace(x, /, *, offset=0, dtype=None):
    r = _wrap(_c.ember_trace(x._h, int(offset)))
    return astype(r, dtype, copy=False) if dtype is not None else r


@_export
def diagonal(x, /, *, offset=0):
    return _wrap(_c.ember_diagonal(x._h, int(offset)))


@_export
def copy(x, /):
    return x.copy()


@_export
def flatten(x, /):
    return x.flatten()
