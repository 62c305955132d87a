"""More of NumPy's names, for making, reshaping and indexing arrays: mgrid/ogrid/ix_,
fromfunction, logspace/geomspace, the triangle and diagonal index helpers, block and the
stacking shortcuts, resize, insert, put/place/choose/select/compress and friends. Each is
a composite of the namespace's functions (no kernel of its own) and follows NumPy's
semantics, which tests/python/test_numpy_names.py checks against NumPy on every backend."""
import builtins
import itertools
import math

from . import _dtypes as _dt
from . import _functions as F
from ._array import Array
from ._creation import asarray, arange, linspace, zeros, full, meshgrid, tril as _tril
from ._numpy_names import atleast_3d, ravel, array_split, unravel_index, diag as _diag, indices as _indices

__all__ = [
    "mgrid", "ogrid", "ix_", "fromfunction", "logspace", "geomspace", "diagflat", "tril_indices", "triu_indices",
    "tril_indices_from", "triu_indices_from", "diag_indices", "diag_indices_from", "fill_diagonal",
    "ravel_multi_index", "asanyarray", "ascontiguousarray", "column_stack", "dstack", "dsplit", "block", "resize",
    "insert", "ndindex", "ndenumerate", "iterable", "put", "put_along_axis", "place", "extract", "compress",
    "choose", "select", "promote_types", "rollaxis", "putmask", "asarray_chkfinite",
    "fromiter", "issubdtype", "row_stack", "mask_indices",
]

asanyarray = asarray


def asarray_chkfinite(a, dtype=None):
    """asarray that refuses NaN and infinities."""
    a = asarray(a, dtype=dtype)
    if a.dtype.kind in "fc" and not builtins.bool(F.all(F.isfinite(a))):
        raise ValueError("array must not contain infs or NaNs")
    return a


def fromiter(iterable, dtype, count=-1):
    """A 1-d array of the first count items of iterable (all of them for count=-1)."""
    items = list(itertools.islice(iterable, None if count < 0 else count))
    if 0 <= count != len(items):
        raise ValueError(f"fromiter: iterator too short: expected {count} but iterator had only {len(items)} items")
    return asarray(items, dtype=dtype) if items else zeros((0,), dtype=dtype)


def ascontiguousarray(a, dtype=None):
    """a in C order (a copy of a view that is not), at least 1-d."""
    a = asarray(a, dtype=dtype)
    if a.ndim == 0:
        return F.reshape(a, (1,))
    return a if a.is_contiguous else a.copy()


def promote_types(type1, type2):
    return _dt.result_type_pair(_dt.as_dtype(type1), _dt.as_dtype(type2))


# NumPy's abstract scalar kinds, as the array API's kind names isdtype takes
_NUMPY_KINDS = {"floating": "real floating", "complexfloating": "complex floating", "integer": "integral",
                "signedinteger": "signed integer", "unsignedinteger": "unsigned integer", "number": "numeric",
                "bool": "bool", "bool_": "bool", "inexact": ("real floating", "complex floating"),
                "generic": ("bool", "numeric")}


def issubdtype(arg1, arg2):
    """Whether dtype arg1 is arg2 or of its kind: arg2 a dtype, an array API kind name
    ("real floating", "integral", ...) or one of NumPy's abstract names as a string
    ("floating", "integer", "signedinteger", "number", "inexact", ...)."""
    d = arg1.dtype if isinstance(arg1, Array) else _dt.as_dtype(arg1)
    if isinstance(arg2, str) and arg2 in _NUMPY_KINDS:
        return _dt.isdtype(d, _NUMPY_KINDS[arg2])
    if isinstance(arg2, str):
        try:
            return _dt.isdtype(d, arg2)
        except ValueError:
            pass
    return d == _dt.as_dtype(arg2)


def iterable(y):
    try:
        iter(y)
    except TypeError:
        return False
    return True


# ---------------------------------------------------------------- grids


def _grid_axis(s):
    """The values one slice of mgrid/ogrid stands for: arange, or linspace for a complex
    step (its magnitude is the number of points, the stop included)."""
    if not isinstance(s, slice):
        raise TypeError("mgrid/ogrid take slices, such as mgrid[0:5, 0:1:5j]")
    start = 0 if s.start is None else s.start
    step = 1 if s.step is None else s.step
    if isinstance(step, complex):
        return linspace(float(start), float(s.stop), int(abs(step)))
    if all(isinstance(v, int) for v in (start, s.stop, step)):
        return arange(start, s.stop, step)
    n = max(0, math.ceil((s.stop - start) / step))
    return arange(n, dtype=_dt.default_float()) * float(step) + float(start)


class _Grid:
    def __init__(self, sparse):
        self._sparse = sparse

    def __getitem__(self, key):
        if not isinstance(key, tuple):
            return _grid_axis(key)
        axes = [_grid_axis(s) for s in key]
        if any(a.dtype.kind == "f" for a in axes):
            axes = [a if a.dtype.kind == "f" else a.astype(_dt.default_float()) for a in axes]
        if self._sparse:
            n = len(axes)
            return tuple(F.reshape(a, (1,) * k + (a.shape[0],) + (1,) * (n - k - 1)) for k, a in enumerate(axes))
        return F.stack(list(meshgrid(*axes, indexing="ij")), axis=0)


mgrid = _Grid(sparse=False)
ogrid = _Grid(sparse=True)


def ix_(*args):
    """Open index arrays: the k-th sequence shaped to run along axis k (booleans: their
    nonzero positions), for a[ix_(rows, cols)] cross-product indexing."""
    out = []
    n = len(args)
    for k, a in enumerate(args):
        a = asarray(a) if not (isinstance(a, (list, tuple)) and len(a) == 0) else asarray(a, dtype=_dt.int64)
        if a.ndim != 1:
            raise ValueError("ix_: every argument must be 1-dimensional")
        if a.dtype.kind == "b":
            a = F.nonzero(a)[0]
        out.append(F.reshape(a, (1,) * k + (a.shape[0],) + (1,) * (n - k - 1)))
    return tuple(out)


def fromfunction(function, shape, *, dtype=None, **kwargs):
    """function(*coordinate_arrays, **kwargs): each coordinate array holds its axis' index
    at every position (dtype: the default float, as NumPy's float)."""
    grids = _indices(tuple(shape), dtype=dtype or _dt.default_float())
    return function(*[grids[k] for k in range(len(shape))], **kwargs)


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    if axis != 0:
        raise NotImplementedError("logspace: axis other than 0")
    y = linspace(float(start), float(stop), num, endpoint=endpoint, dtype=_dt.float64)
    r = F.pow(float(base), y)
    return r.astype(dtype) if dtype is not None else r.astype(_dt.default_float())


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """Numbers spaced evenly on a log scale from start to stop (both ends exact; both of
    one sign, neither 0)."""
    if axis != 0:
        raise NotImplementedError("geomspace: axis other than 0")
    if start == 0 or stop == 0:
        raise ValueError("geomspace: neither start nor stop may be 0")
    if (start < 0) != (stop < 0):
        raise NotImplementedError("geomspace: start and stop of different signs (a complex result)")
    sign = -1.0 if start < 0 else 1.0
    y = linspace(math.log10(abs(start)), math.log10(abs(stop)), num, endpoint=endpoint, dtype=_dt.float64)
    r = F.pow(10.0, y) * sign
    if num > 0:
        r[0] = float(start)
        if endpoint and num > 1:
            r[num - 1] = float(stop)
    return r.astype(dtype) if dtype is not None else r.astype(_dt.default_float())


# ---------------------------------------------------------------- diagonals and triangles


def diagflat(v, k=0):
    return _diag(ravel(asarray(v)), k)


def _triangle(n, k, m, lower):
    m = n if m is None else m
    mask = _tril(full((n, m), True, dtype=_dt.bool_), k=k) if lower else \
        F.logical_not(_tril(full((n, m), True, dtype=_dt.bool_), k=k - 1))
    return F.nonzero(mask)


def tril_indices(n, k=0, m=None):
    return _triangle(n, k, m, lower=True)


def triu_indices(n, k=0, m=None):
    return _triangle(n, k, m, lower=False)


def mask_indices(n, mask_func, k=0):
    """The indices where mask_func(ones((n, n)), k) is nonzero (triu, tril, ...; Ember's
    own triu and tril take k by keyword)."""
    ones = full((n, n), 1, dtype=_dt.int64)
    try:
        m = mask_func(ones, k)
    except TypeError:
        m = mask_func(ones, k=k)
    return F.nonzero(asarray(m) != 0)


def tril_indices_from(arr, k=0):
    arr = asarray(arr)
    if arr.ndim != 2:
        raise ValueError("tril_indices_from: input array must be 2-d")
    return tril_indices(arr.shape[0], k, arr.shape[1])


def triu_indices_from(arr, k=0):
    arr = asarray(arr)
    if arr.ndim != 2:
        raise ValueError("triu_indices_from: input array must be 2-d")
    return triu_indices(arr.shape[0], k, arr.shape[1])


def diag_indices(n, ndim=2):
    i = arange(n)
    return (i,) * ndim


def diag_indices_from(arr):
    arr = asarray(arr)
    if arr.ndim < 2 or len(set(arr.shape)) != 1:
        raise ValueError("diag_indices_from: all dimensions of the input must be of equal length")
    return diag_indices(arr.shape[0], arr.ndim)


def fill_diagonal(a, val, wrap=False):
    """Writes val along a's main diagonal in place (a tall 2-d a with wrap=True restarts it
    every n + 1 rows, as NumPy's flat-stride definition does); array vals repeat."""
    if not isinstance(a, Array):
        raise TypeError("fill_diagonal: a must be an ember array (it is written in place)")
    if a.ndim < 2:
        raise ValueError("fill_diagonal: array must be at least 2-d")
    if a.ndim == 2:
        rows, cols = a.shape
        end = a.size if wrap else min(a.size, cols * cols)
        flat = list(range(0, end, cols + 1))
        where = (asarray([p // cols for p in flat], dtype=_dt.int64),
                 asarray([p % cols for p in flat], dtype=_dt.int64))
    else:
        if len(set(a.shape)) != 1:
            raise ValueError("fill_diagonal: all dimensions of an array of more than 2 must be equal")
        where = diag_indices(a.shape[0], a.ndim)
    count = where[0].shape[0]
    if count == 0:
        return
    v = asarray(val)
    a[where] = v if v.ndim == 0 else resize(v, (count,))


def _in_range(idx, n, mode, message):
    """Indices into n places by NumPy's mode: 'wrap' (modulo n), 'clip', or 'raise' (ValueError
    with message for any outside [0, n))."""
    if mode == "wrap":
        return F.remainder(idx, n)
    if mode == "clip":
        return F.clip(idx, 0, n - 1)
    if builtins.bool(F.any(F.logical_or(idx < 0, idx >= n))):
        raise ValueError(message)
    return idx


def ravel_multi_index(multi_index, dims, mode="raise", order="C"):
    """Flat indices of the coordinate arrays in multi_index into an array of shape dims
    (mode 'raise', 'wrap' or 'clip', one per dimension or one for all; order 'C' or 'F')."""
    dims = tuple(int(d) for d in dims)
    if len(multi_index) != len(dims):
        raise ValueError(f"ravel_multi_index: {len(multi_index)} coordinate arrays for {len(dims)} dimensions")
    modes = [mode] * len(dims) if isinstance(mode, str) else list(mode)
    stride, strides = 1, [0] * len(dims)
    for d in (range(len(dims) - 1, -1, -1) if order == "C" else range(len(dims))):
        strides[d] = stride
        stride *= dims[d]
    flat = None
    for idx, n, s, m in zip(multi_index, dims, strides, modes):
        idx = asarray(idx)
        if idx.dtype.kind not in "iu":
            raise TypeError("ravel_multi_index: only int indices permitted")
        idx = _in_range(idx.astype(_dt.int64), n, m, "ravel_multi_index: invalid entry in coordinates array")
        term = idx * s
        flat = term if flat is None else flat + term
    return flat


# ---------------------------------------------------------------- stacking and splitting


def column_stack(tup):
    cols = []
    for a in tup:
        a = asarray(a)
        cols.append(F.reshape(a, (a.shape[0], 1)) if a.ndim < 2 else a)
    return F.concat(cols, axis=1)


def dstack(tup):
    arrays = atleast_3d(*tup)
    return F.concat(list(arrays) if isinstance(arrays, tuple) else [arrays], axis=2)


def row_stack(tup):
    """NumPy's older name of vstack."""
    return F.concat([F.reshape(a, (1, -1)) if a.ndim < 2 else a for a in (asarray(t) for t in tup)], axis=0)


def dsplit(ary, indices_or_sections):
    ary = asarray(ary)
    if ary.ndim < 3:
        raise ValueError("dsplit only works on arrays of 3 or more dimensions")
    if isinstance(indices_or_sections, int) and ary.shape[2] % indices_or_sections:
        raise ValueError("array split does not result in an equal division")
    return array_split(ary, indices_or_sections, axis=2)


def _block_depth(x):
    return 1 + _block_depth(x[0]) if isinstance(x, list) and x else (1 if isinstance(x, list) else 0)


def block(arrays):
    """Assembles an array from nested lists of blocks: the innermost lists join along the
    last axis, the next ones along the one before, and so on."""
    if isinstance(arrays, tuple):
        raise TypeError("block: arrays is a tuple; only lists may be used to arrange blocks")
    depth = _block_depth(arrays)
    leaves = []

    def collect(x, level):
        if isinstance(x, list):
            if level >= depth:
                raise ValueError("block: list depths are mismatched")
            if not x:
                raise ValueError("block: lists cannot be empty")
            for y in x:
                collect(y, level + 1)
        elif level != depth:
            raise ValueError("block: list depths are mismatched")
        else:
            leaves.append(asarray(x))

    collect(arrays, 0)
    ndim = builtins.max([depth] + [a.ndim for a in leaves])

    def join(x, level):
        if not isinstance(x, list):
            a = asarray(x)
            return F.reshape(a, (1,) * (ndim - a.ndim) + a.shape) if a.ndim < ndim else a
        return F.concat([join(y, level + 1) for y in x], axis=-(depth - level))

    return join(arrays, 0)


def resize(a, new_shape):
    """A new array of new_shape filled with a's elements in order, repeated as needed."""
    a = ravel(asarray(a))
    shape = (int(new_shape),) if isinstance(new_shape, int) else tuple(int(s) for s in new_shape)
    if any(s < 0 for s in shape):
        raise ValueError("resize: all elements of new_shape must be non-negative")
    n = math.prod(shape)
    if n == 0 or a.shape[0] == 0:
        return zeros(shape, dtype=a.dtype)
    reps = -(-n // a.shape[0])
    return F.reshape(F.tile(a, (reps,))[:n], shape)


def insert(arr, obj, values, axis=None):
    """arr with values inserted before index obj (an int, a slice or a sequence of ints)
    along axis (None: of the flattened arr), as NumPy's insert."""
    arr = asarray(arr)
    if axis is None:
        arr, axis = ravel(arr), 0
    if not -arr.ndim <= axis < arr.ndim:
        raise ValueError(f"insert: axis {axis} is out of bounds for an array of dimension {arr.ndim}")
    axis %= arr.ndim
    n = arr.shape[axis]
    values = asarray(values, dtype=arr.dtype) if not isinstance(values, Array) else values.astype(arr.dtype)
    if isinstance(obj, slice):
        obj = list(range(*obj.indices(n)))
    scalar = isinstance(obj, int) or (isinstance(obj, Array) and obj.ndim == 0)
    if scalar:
        index = int(obj)
        if not -n <= index <= n:
            raise IndexError(f"insert: index {index} is out of bounds for axis {axis} with size {n}")
        index = index + n if index < 0 else index
        if values.ndim < arr.ndim:
            values = F.reshape(values, (1,) * (arr.ndim - values.ndim) + values.shape)
        values = F.moveaxis(values, 0, axis)
        shape = list(arr.shape)
        shape[axis] = values.shape[axis]
        values = F.broadcast_to(values, tuple(shape))
        before = tuple(slice(None) if d != axis else slice(0, index) for d in range(arr.ndim))
        after = tuple(slice(None) if d != axis else slice(index, None) for d in range(arr.ndim))
        return F.concat([arr[before], values, arr[after]], axis=axis)
    positions = [int(i) for i in (obj.tolist() if isinstance(obj, Array) else obj)]
    for i in positions:
        if not -n <= i <= n:
            raise IndexError(f"insert: index {i} is out of bounds for axis {axis} with size {n}")
    positions = [i + n if i < 0 else i for i in positions]
    k = len(positions)
    shape = list(arr.shape)
    shape[axis] = k
    values = F.broadcast_to(values, tuple(shape))
    # Which element of concat([arr, values]) lands at each place of the result: the new
    # ones before the old element their index names, in the order of their indices.
    order = sorted(range(k), key=lambda j: positions[j])
    take, j = [], 0
    for old in range(n + 1):
        while j < k and positions[order[j]] == old:
            take.append(n + order[j])
            j += 1
        if old < n:
            take.append(old)
    return F.take(F.concat([arr, values], axis=axis), asarray(take, dtype=_dt.int64), axis=axis)


# ---------------------------------------------------------------- iteration


def ndindex(*shape):
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = tuple(shape[0])
    return itertools.product(*[range(int(s)) for s in shape])


def ndenumerate(arr):
    arr = asarray(arr)
    return zip(ndindex(arr.shape), F.reshape(arr, (-1,)).tolist())


# ---------------------------------------------------------------- selecting and placing


def _flat_count_values(values, count, dtype):
    v = asarray(values, dtype=dtype) if not isinstance(values, Array) else values.astype(dtype)
    return resize(v, (count,))


def put(a, ind, v, mode="raise"):
    """a.flat[ind] = v in place (v repeats; mode 'raise', 'wrap' or 'clip')."""
    if not isinstance(a, Array):
        raise TypeError("put: a must be an ember array (it is written in place)")
    ind = ravel(asarray(ind)).astype(_dt.int64)
    if ind.shape[0] == 0:
        return
    n = a.size
    if mode == "wrap":
        ind = F.remainder(ind, n)
    elif mode == "clip":
        ind = F.clip(ind, 0, n - 1)
    else:
        if builtins.bool(F.any(F.logical_or(ind < -n, ind >= n))):
            raise IndexError(f"put: index out of range for an array of size {n}")
        ind = F.where(ind < 0, ind + n, ind)
    where = unravel_index(ind, a.shape) if a.ndim != 1 else (ind,)
    a[tuple(where)] = _flat_count_values(v, ind.shape[0], a.dtype)


def _along_axis_index(shape, indices, axis):
    """The advanced index that picks indices along axis and every position elsewhere."""
    nd = len(shape)
    def position(d):
        return F.reshape(arange(indices.shape[d]), (1,) * d + (indices.shape[d],) + (1,) * (nd - d - 1))
    return tuple(indices if d == axis else position(d) for d in range(nd))


def put_along_axis(arr, indices, values, axis):
    """arr[...indices along axis...] = values in place (the inverse of take_along_axis)."""
    if not isinstance(arr, Array):
        raise TypeError("put_along_axis: arr must be an ember array (it is written in place)")
    indices = asarray(indices)
    if axis is None:
        raise NotImplementedError("put_along_axis: axis=None")
    axis %= arr.ndim
    if indices.ndim != arr.ndim:
        raise ValueError("put_along_axis: indices and arr must have the same number of dimensions")
    indices = F.where(indices < 0, indices + arr.shape[axis], indices)
    arr[_along_axis_index(arr.shape, indices, axis)] = values


def putmask(a, mask, values):
    """a[mask] = values in place, where each masked place takes the value at its own flat
    position in values repeated over a (not the next value in turn, as place does)."""
    if not isinstance(a, Array):
        raise TypeError("putmask: a must be an ember array (it is written in place)")
    v = asarray(values)
    if v.size == 0:
        return
    mask = F.broadcast_to(asarray(mask, dtype=_dt.bool_), a.shape)
    a[mask] = resize(v.astype(a.dtype), a.shape)[mask]


def place(arr, mask, vals):
    """arr[mask] = the first mask.sum() values of vals, repeated as needed, in place."""
    if not isinstance(arr, Array):
        raise TypeError("place: arr must be an ember array (it is written in place)")
    mask = asarray(mask, dtype=_dt.bool_)
    count = int(F.count_nonzero(mask))
    if count == 0:
        return
    vals = asarray(vals)
    if vals.size == 0:
        raise ValueError("place: cannot insert from an empty array")
    arr[mask] = _flat_count_values(vals, count, arr.dtype)


def extract(condition, arr):
    return ravel(asarray(arr))[ravel(asarray(condition)).astype(_dt.bool_)]


def compress(condition, a, axis=None):
    a = asarray(a)
    if axis is None:
        a, axis = ravel(a), 0
    cond = ravel(asarray(condition)).astype(_dt.bool_)
    if cond.shape[0] > a.shape[axis]:
        cond = cond[: a.shape[axis]] if not builtins.bool(F.any(cond[a.shape[axis]:])) else None
        if cond is None:
            raise IndexError(f"compress: index out of bounds for axis {axis} with size {a.shape[axis]}")
    return F.take(a, F.nonzero(cond)[0], axis=axis)


def choose(a, choices, mode="raise"):
    """choices[a[i]][i] at every i (all broadcast together; mode 'raise', 'wrap', 'clip')."""
    a = asarray(a)
    if a.dtype.kind not in "iu":
        raise TypeError("choose: a must hold integers")
    choices = [asarray(c) for c in choices]
    a = _in_range(a, len(choices), mode, "choose: invalid entry in choice array")
    shape = F.broadcast_shapes(a.shape, *[c.shape for c in choices])
    dtype = _dt.result_type(*choices)
    stacked = F.stack([F.broadcast_to(c.astype(dtype), shape) for c in choices], axis=0)
    pick = F.reshape(F.broadcast_to(a.astype(_dt.int64), shape), (1,) + shape)
    return F.reshape(F.take_along_axis(stacked, pick, axis=0), shape)


def select(condlist, choicelist, default=0):
    """The choice of the first condition that holds at each place, default where none does."""
    if len(condlist) != len(choicelist):
        raise ValueError("select: list of cases must be same length as list of conditions")
    if not condlist:
        raise ValueError("select with an empty condition list is not possible")
    conds = [asarray(c) for c in condlist]
    for c in conds:
        if c.dtype.kind != "b":
            raise TypeError("select: condlist must hold boolean arrays")
    choices = [asarray(c) for c in choicelist]
    dtype = _dt.result_type(*choices, default)
    result = asarray(default).astype(dtype)
    for c, v in zip(reversed(conds), reversed(choices)):
        result = F.where(c, v.astype(dtype), result)
    shape = F.broadcast_shapes(*[c.shape for c in conds], *[v.shape for v in choices])
    return F.broadcast_to(result, shape) if result.shape != shape else result


def rollaxis(a, axis, start=0):
    """NumPy's older moveaxis: axis moves to before position start."""
    a = asarray(a)
    n = a.ndim
    if not -n <= axis < n or not -n <= start <= n:
        raise ValueError(f"rollaxis: axis {axis} or start {start} out of range for {n} dimensions")
    axis %= n
    start = start + n if start < 0 else start
    if axis < start:
        start -= 1
    return F.moveaxis(a, axis, start) if axis != start else a
