"""NumPy's names for what the array API namespace spells otherwise (arcsin for asin,
concatenate for concat, amax for max) and NumPy's small convenience functions (ptp,
atleast_2d, isin, nanvar, ...), so that NumPy code ports by changing its import. Each is an
alias or a composite of the namespace's functions: none has a kernel of its own."""
import builtins
import math
import sys

from . import _dtypes as _dt
from . import _functions as F
from . import linalg as _linalg
from . import ops as _ops
from . import stats as _stats
from . import tensor as _tensor
from ._array import Array
from ._creation import asarray, eye, ones, zeros, ones_like, zeros_like, arange, meshgrid, tril

__all__ = [
    "arcsin", "arccos", "arctan", "arcsinh", "arccosh", "arctanh", "arctan2", "absolute", "power", "amax", "amin",
    "true_divide", "mod", "invert", "bitwise_not", "left_shift", "right_shift", "conjugate", "around", "concatenate",
    "nanmean", "nansum", "nanmax", "nanmin", "bincount", "average", "kron", "cross", "diag", "vstack", "hstack",
    "gradient",
    "array", "copyto", "array_equal", "array_equiv", "divmod", "float_power", "logaddexp2", "isposinf", "isneginf",
    "atleast_1d", "atleast_2d", "atleast_3d", "ptp", "fliplr", "flipud", "rot90", "ravel", "deg2rad", "radians",
    "rad2deg", "degrees", "exp2", "fmax", "fmin", "nan_to_num", "ndim", "shape", "size", "isscalar", "iscomplexobj",
    "isrealobj", "iscomplex", "isreal", "angle", "heaviside", "sinc", "array_split", "hsplit", "vsplit", "inner",
    "vdot", "identity", "argwhere", "flatnonzero", "append", "delete", "unravel_index", "isin", "digitize",
    "trapezoid", "tri", "indices", "vander", "lexsort", "partition", "argpartition", "nanargmax", "nanargmin",
    "nancumsum", "nanprod", "nanvar", "nanstd", "unique", "interp", "polyval", "polyfit", "rint",
]

arcsin, arccos, arctan = F.asin, F.acos, F.atan
arcsinh, arccosh, arctanh, arctan2 = F.asinh, F.acosh, F.atanh, F.atan2
absolute, power, amax, amin = F.abs, F.pow, F.max, F.min
true_divide, mod, conjugate = F.divide, F.remainder, F.conj
invert = bitwise_not = F.bitwise_invert
left_shift, right_shift = F.bitwise_left_shift, F.bitwise_right_shift
nanmean, nansum, nanmax, nanmin = _stats.nanmean, _stats.nansum, _stats.nanmax, _stats.nanmin
bincount, average = _stats.bincount, _stats.average
kron, cross, diag = _linalg.kron, _linalg.cross, _linalg.diag
vstack, hstack, gradient = _tensor.vstack, _tensor.hstack, _ops.gradient


def around(a, decimals=0):
    return F.round(asarray(a), decimals=decimals)


def concatenate(arrays, axis=0):
    return F.concat([asarray(a) for a in arrays], axis=axis)


def array(obj, dtype=None, *, copy=True):
    """NumPy's array: asarray that copies by default."""
    return asarray(obj, dtype=dtype, copy=copy)


def copyto(dst, src):
    dst[...] = src


def _float_kind(x):
    return x.dtype.kind in "fc"


def array_equal(a1, a2, equal_nan=False):
    a1, a2 = asarray(a1), asarray(a2)
    if a1.shape != a2.shape:
        return False
    same = a1 == a2
    if equal_nan and (_float_kind(a1) or _float_kind(a2)):
        same = F.logical_or(same, F.logical_and(F.isnan(a1), F.isnan(a2)))
    return builtins.bool(F.all(same))


def array_equiv(a1, a2):
    a1, a2 = asarray(a1), asarray(a2)
    try:
        F.broadcast_shapes(a1.shape, a2.shape)
    except ValueError:
        return False
    return builtins.bool(F.all(a1 == a2))


def divmod(x1, x2):
    return F.floor_divide(x1, x2), F.remainder(x1, x2)


def float_power(x1, x2):
    x1 = asarray(x1)
    wide = _dt.complex128 if x1.dtype.kind == "c" or (isinstance(x2, Array) and x2.dtype.kind == "c") else _dt.float64
    return F.pow(x1.astype(wide), asarray(x2).astype(wide) if isinstance(x2, Array) else x2)


def logaddexp2(x1, x2):
    return F.logaddexp(F.multiply(x1, math.log(2)), F.multiply(x2, math.log(2))) / math.log(2)


def isposinf(x):
    x = asarray(x)
    return F.logical_and(F.isinf(x), x > 0)


def isneginf(x):
    x = asarray(x)
    return F.logical_and(F.isinf(x), x < 0)


def _atleast(arys, nd):
    out = []
    for a in arys:
        a = asarray(a)
        if a.ndim < nd:
            if nd == 3 and a.ndim == 2:
                a = a[:, :, None]
            elif nd == 3 and a.ndim == 1:
                a = a[None, :, None]
            else:
                a = F.reshape(a, (1,) * (nd - a.ndim) + a.shape)
        out.append(a)
    return out[0] if len(out) == 1 else tuple(out)


def atleast_1d(*arys):
    return _atleast(arys, 1)


def atleast_2d(*arys):
    return _atleast(arys, 2)


def atleast_3d(*arys):
    return _atleast(arys, 3)


def ptp(a, axis=None, keepdims=False):
    a = asarray(a)
    return F.max(a, axis=axis, keepdims=keepdims) - F.min(a, axis=axis, keepdims=keepdims)


def fliplr(m):
    m = asarray(m)
    if m.ndim < 2:
        raise ValueError("fliplr needs an array of at least 2 dimensions")
    return F.flip(m, axis=1)


def flipud(m):
    m = asarray(m)
    if m.ndim < 1:
        raise ValueError("flipud needs an array of at least 1 dimension")
    return F.flip(m, axis=0)


def rot90(m, k=1, axes=(0, 1)):
    m = asarray(m)
    a0, a1 = (ax % m.ndim for ax in axes) if m.ndim else (0, 1)
    if m.ndim < 2 or a0 == a1:
        raise ValueError("rot90 needs two different axes of an array of at least 2 dimensions")
    k %= 4
    if k == 0:
        return m[...]
    if k == 2:
        return F.flip(F.flip(m, axis=a0), axis=a1)
    perm = list(range(m.ndim))
    perm[a0], perm[a1] = perm[a1], perm[a0]
    if k == 1:
        return F.permute_dims(F.flip(m, axis=a1), tuple(perm))
    return F.flip(F.permute_dims(m, tuple(perm)), axis=a1)


def ravel(a):
    return F.reshape(asarray(a), (-1,))


def deg2rad(x):
    return F.multiply(x, math.pi / 180)


def rad2deg(x):
    return F.multiply(x, 180 / math.pi)


radians, degrees = deg2rad, rad2deg


def exp2(x):
    x = asarray(x)
    return F.pow(2.0, x if _float_kind(x) else x.astype(_dt.default_float()))


def _nan_ignoring(pick, x1, x2):
    """pick(x1, x2) where both are numbers, the other one where one is NaN."""
    x1, x2 = asarray(x1), asarray(x2)
    m = pick(x1, x2)
    if _float_kind(x1) or _float_kind(x2):
        m = F.where(F.isnan(x2), x1, F.where(F.isnan(x1), x2, m))
    return m


def fmax(x1, x2):
    """The larger of each pair, a NaN counting as missing (NumPy's fmax)."""
    return _nan_ignoring(F.maximum, x1, x2)


def fmin(x1, x2):
    return _nan_ignoring(F.minimum, x1, x2)


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    x = asarray(x)
    if x.dtype.kind == "c":
        re = nan_to_num(F.real(x), nan=nan, posinf=posinf, neginf=neginf)
        im = nan_to_num(F.imag(x), nan=nan, posinf=posinf, neginf=neginf)
        out = re + im * 1j
    elif x.dtype.kind == "f":
        info = _dt.finfo(x.dtype)
        out = F.where(F.isnan(x), nan, x)
        out = F.where(isposinf(x), info.max if posinf is None else posinf, out)
        out = F.where(isneginf(x), info.min if neginf is None else neginf, out)
        out = out.astype(x.dtype)
    else:
        out = x.copy() if copy else x
    if not copy:
        x[...] = out
        return x
    return out


def ndim(a):
    return asarray(a).ndim


def shape(a):
    return asarray(a).shape


def size(a, axis=None):
    a = asarray(a)
    return a.size if axis is None else a.shape[axis]


def isscalar(element):
    if isinstance(element, (builtins.bool, builtins.int, builtins.float, builtins.complex, str, bytes)):
        return True
    np = sys.modules.get("numpy")
    return np is not None and isinstance(element, np.generic)


def iscomplexobj(x):
    return asarray(x).dtype.kind == "c"


def isrealobj(x):
    return not iscomplexobj(x)


def iscomplex(x):
    x = asarray(x)
    return F.imag(x) != 0 if x.dtype.kind == "c" else zeros_like(x, dtype=_dt.bool_)


def isreal(x):
    x = asarray(x)
    return F.imag(x) == 0 if x.dtype.kind == "c" else ones_like(x, dtype=_dt.bool_)


def angle(z, deg=False):
    z = asarray(z)
    if z.dtype.kind == "c":
        a = F.atan2(F.imag(z), F.real(z))
    else:
        zf = z if z.dtype.kind == "f" else z.astype(_dt.default_float())
        a = F.atan2(zeros_like(zf), zf)
    return rad2deg(a) if deg else a


def heaviside(x1, x2):
    x1 = asarray(x1)
    x1 = x1 if _float_kind(x1) else x1.astype(_dt.default_float())
    step = F.where(x1 < 0, 0.0, F.where(x1 > 0, 1.0, F.multiply(ones_like(x1), x2)))
    return F.where(F.isnan(x1), x1, step)


def sinc(x):
    x = asarray(x)
    x = x if _float_kind(x) else x.astype(_dt.default_float())
    y = F.multiply(F.where(x == 0, 1.0e-20, x), math.pi)
    return F.sin(y) / y


def array_split(ary, indices_or_sections, axis=0):
    """NumPy's array_split: sections of nearly equal length (the first n % k one longer)."""
    ary = asarray(ary)
    n = ary.shape[axis]
    if isinstance(indices_or_sections, builtins.int):
        k = indices_or_sections
        if k <= 0:
            raise ValueError("array_split: the number of sections must be larger than 0")
        q, r = builtins.divmod(n, k)
        bounds = [0]
        for i in range(k):
            bounds.append(bounds[-1] + q + (1 if i < r else 0))
    else:
        bounds = [0] + [builtins.min(builtins.max(builtins.int(i) if i >= 0 else n + builtins.int(i), 0), n)
                        for i in indices_or_sections] + [n]
    key = [slice(None)] * ary.ndim
    parts = []
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        key[axis] = slice(lo, builtins.max(lo, hi))
        parts.append(ary[tuple(key)])
    return parts


def hsplit(ary, indices_or_sections):
    ary = asarray(ary)
    if ary.ndim == 0:
        raise ValueError("hsplit needs an array of at least 1 dimension")
    return F.split(ary, indices_or_sections, axis=1 if ary.ndim > 1 else 0)


def vsplit(ary, indices_or_sections):
    ary = asarray(ary)
    if ary.ndim < 2:
        raise ValueError("vsplit needs an array of at least 2 dimensions")
    return F.split(ary, indices_or_sections, axis=0)


def inner(a, b):
    a, b = asarray(a), asarray(b)
    if a.ndim == 0 or b.ndim == 0:
        return a * b
    return F.tensordot(a, b, axes=([-1], [-1]))


def vdot(a, b):
    a, b = ravel(a), ravel(b)
    return F.sum(F.conj(a) * b if a.dtype.kind == "c" else a * b)


def identity(n, dtype=None):
    return eye(n, dtype=dtype)


def argwhere(a):
    a = asarray(a)
    if a.ndim == 0:
        return zeros((1 if builtins.bool(a) else 0, 0), dtype=_dt.int64)
    return F.stack(F.nonzero(a), axis=1)


def flatnonzero(a):
    return F.nonzero(ravel(a))[0]


def append(arr, values, axis=None):
    arr, values = asarray(arr), asarray(values)
    if axis is None:
        return F.concat([ravel(arr), ravel(values)], axis=0)
    return F.concat([arr, values], axis=axis)


def delete(arr, obj, axis=None):
    arr = asarray(arr)
    if axis is None:
        arr, axis = ravel(arr), 0
    n = arr.shape[axis]
    keep = ones((n,), dtype=_dt.bool_)
    keep[obj] = False
    return F.take(arr, F.nonzero(keep)[0], axis=axis)


def unravel_index(indices, shape):
    idx = asarray(indices)
    if idx.dtype.kind not in "iu":
        raise TypeError("unravel_index: indices must be integers")
    total = math.prod(shape)
    if idx.size and (builtins.int(F.min(idx)) < 0 or builtins.int(F.max(idx)) >= total):
        raise ValueError(f"unravel_index: an index is out of bounds for an array of size {total}")
    idx = idx.astype(_dt.int64)
    out = []
    for dim in reversed(shape):
        out.append(F.remainder(idx, dim))
        idx = F.floor_divide(idx, dim)
    return tuple(reversed(out))


def isin(element, test_elements, invert=False):
    """Elementwise membership, by a binary search of the sorted test elements (complex ones,
    which do not sort, by comparing with each in turn, a block of them at a time)."""
    e, t = asarray(element), ravel(test_elements)
    if t.size == 0:
        hit = zeros_like(e, dtype=_dt.bool_)
    elif e.dtype.kind == "c" or t.dtype.kind == "c":
        dt = _dt.result_type(e.dtype, t.dtype)
        flat, t = ravel(e.astype(dt)), t.astype(dt)
        hit = None
        for start in range(0, t.size, 256):
            block = F.any(flat[:, None] == t[None, start:start + 256], axis=1)
            hit = block if hit is None else F.logical_or(hit, block)
        hit = F.reshape(hit, e.shape)
    else:
        dt = _dt.result_type(e.dtype, t.dtype)
        e2, t2 = e.astype(dt), F.sort(t.astype(dt))
        pos = F.clip(F.searchsorted(t2, ravel(e2)), 0, t2.size - 1)
        hit = F.reshape(F.take(t2, pos) == ravel(e2), e.shape)
    return F.logical_not(hit) if invert else hit


def digitize(x, bins, right=False):
    x, bins = asarray(x), asarray(bins)
    side = "left" if right else "right"
    if bins.size > 1 and builtins.bool(bins[0] > bins[-1]):  # decreasing
        return bins.size - F.searchsorted(F.flip(bins), x, side=side)
    return F.searchsorted(bins, x, side=side)


def trapezoid(y, x=None, dx=1.0, axis=-1):
    y = asarray(y)
    n = y.ndim
    lo = [slice(None)] * n
    hi = [slice(None)] * n
    lo[axis], hi[axis] = slice(None, -1), slice(1, None)
    if x is None:
        d = dx
    else:
        x = asarray(x)
        d = F.diff(x, axis=axis if x.ndim > 1 else -1)
        if x.ndim == 1 and n > 1:
            shape_d = [1] * n
            shape_d[axis] = d.shape[0]
            d = F.reshape(d, tuple(shape_d))
    return F.sum((y[tuple(hi)] + y[tuple(lo)]) * d / 2.0, axis=axis)


def tri(N, M=None, k=0, dtype=None):
    m = tril(ones((N, N if M is None else M), dtype=_dt.float64), k=k)
    return m.astype(dtype if dtype is not None else _dt.default_float())


def indices(dimensions, dtype=None):
    dtype = dtype if dtype is not None else _dt.int64
    grids = meshgrid(*[arange(d, dtype=dtype) for d in dimensions], indexing="ij")
    if not dimensions:
        return zeros((0,), dtype=dtype)
    return F.stack(grids, axis=0)


def vander(x, N=None, increasing=False):
    x = asarray(x)
    N = x.shape[0] if N is None else N
    powers = arange(N, dtype=_dt.int64)
    if not increasing:
        powers = F.flip(powers)
    return F.pow(x[:, None], powers.astype(x.dtype) if _float_kind(x) else powers)


def lexsort(keys, axis=-1):
    """Indices sorting by the last key first, then the one before it, ... (stable)."""
    keys = [asarray(k) for k in keys]
    if not keys:
        raise TypeError("lexsort needs at least one key")
    order = F.argsort(keys[0], axis=axis, stable=True)
    for k in keys[1:]:
        order = F.take_along_axis(order, F.argsort(F.take_along_axis(k, order, axis=axis), axis=axis, stable=True), axis=axis)
    return order


def partition(a, kth, axis=-1):
    """A full sort satisfies NumPy's contract (kth in place, smaller before, larger after)."""
    return F.sort(asarray(a), axis=axis)


def argpartition(a, kth, axis=-1):
    return F.argsort(asarray(a), axis=axis, stable=True)


def _all_nan_check(x, axis, what):
    if _float_kind(x) and x.size and builtins.bool(F.any(F.all(F.isnan(x), axis=axis))):
        raise ValueError(f"{what}: all-NaN slice encountered")


def nanargmax(a, axis=None):
    a = asarray(a)
    _all_nan_check(a, axis, "nanargmax")
    return F.argmax(F.where(F.isnan(a), -math.inf, a) if _float_kind(a) else a, axis=axis)


def nanargmin(a, axis=None):
    a = asarray(a)
    _all_nan_check(a, axis, "nanargmin")
    return F.argmin(F.where(F.isnan(a), math.inf, a) if _float_kind(a) else a, axis=axis)


def nancumsum(a, axis=None):
    a = asarray(a)
    a = F.where(F.isnan(a), 0, a) if _float_kind(a) else a
    return F.cumsum(ravel(a) if axis is None else a, axis=0 if axis is None else axis)


def nanprod(a, axis=None, keepdims=False):
    a = asarray(a)
    return F.prod(F.where(F.isnan(a), 1, a) if _float_kind(a) else a, axis=axis, keepdims=keepdims)


def nanvar(a, axis=None, ddof=0, keepdims=False):
    a = asarray(a)
    if not _float_kind(a):
        return F.var(a, axis=axis, correction=ddof, keepdims=keepdims)
    ok = F.logical_not(F.isnan(a))
    n = F.sum(ok, axis=axis, keepdims=True).astype(a.dtype)
    mean = F.sum(F.where(ok, a, 0), axis=axis, keepdims=True) / n
    dev = F.where(ok, a - mean, 0)
    sq = F.real(dev * F.conj(dev)) if a.dtype.kind == "c" else dev * dev
    v = F.sum(sq, axis=axis, keepdims=True) / F.maximum(F.real(n) - ddof, 0)
    return v if keepdims else F.squeeze(v, axis=tuple(range(a.ndim)) if axis is None else axis)


def nanstd(a, axis=None, ddof=0, keepdims=False):
    return F.sqrt(nanvar(a, axis=axis, ddof=ddof, keepdims=keepdims))


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, *, equal_nan=True):
    """NumPy's unique of the flattened array (axis=None only); NaNs count as one value unless
    equal_nan=False (the array API's unique_* keep each NaN apart)."""
    if axis is not None:
        raise NotImplementedError("ember.unique: only axis=None (use unique_values for the array API's form)")
    ar = asarray(ar)
    r = F.unique_all(ravel(ar))
    values, indices, inverse, counts = r.values, r.indices, r.inverse_indices, r.counts
    n = values.shape[0]
    nans = builtins.int(F.sum(F.isnan(values))) if equal_nan and _float_kind(ar) and n else 0
    if nans > 1:  # the sort put them last, one entry each: fold them into the first
        keep = n - nans + 1
        values = values[:keep]
        indices = F.concat([indices[:keep - 1], F.reshape(F.min(indices[keep - 1:]), (1,))])
        counts = F.concat([counts[:keep - 1], F.reshape(F.sum(counts[keep - 1:]), (1,))])
        inverse = F.minimum(inverse, keep - 1)
    if not (return_index or return_inverse or return_counts):
        return values
    out = [values]
    if return_index:
        out.append(indices)
    if return_inverse:  # NumPy 2: in the input's shape
        out.append(F.reshape(inverse, ar.shape))
    if return_counts:
        out.append(counts)
    return tuple(out)


def rint(x):
    """Round half to even, in a float dtype (NumPy's rint; integers give the default float)."""
    x = asarray(x)
    return F.round(x if _float_kind(x) else x.astype(_dt.default_float()))


def interp(x, xp, fp, left=None, right=None):
    """Piecewise-linear interpolation of (xp, fp) at x; xp increasing (NumPy's interp)."""
    x, xp, fp = asarray(x), asarray(xp), asarray(fp)
    if xp.ndim != 1 or fp.shape != xp.shape or xp.size == 0:
        raise ValueError("interp: xp and fp must be 1-D sequences of the same nonzero length")
    dt = _dt.result_type(x.dtype, xp.dtype, fp.dtype, _dt.default_float())
    x, xp, fp = x.astype(dt), xp.astype(dt), fp.astype(dt)
    n = xp.shape[0]
    if n == 1:
        y = F.multiply(ones_like(x), fp[0])
    else:
        hi = F.clip(F.searchsorted(xp, x, side="right"), 1, n - 1)
        x0, x1 = F.take(xp, hi - 1), F.take(xp, hi)
        y0, y1 = F.take(fp, hi - 1), F.take(fp, hi)
        y = y0 + (x - x0) * ((y1 - y0) / (x1 - x0))
        y = F.where(x == x1, y1, y)  # exact at the samples (and past a zero-width step)
    y = F.where(x < xp[0], fp[0] if left is None else left, y)
    y = F.where(x > xp[-1], fp[-1] if right is None else right, y)
    return F.where(F.isnan(x), x, y)


def polyval(p, x):
    """p[0] * x**(n-1) + ... + p[-1], by Horner's rule."""
    p = asarray(p)
    x = asarray(x)
    y = zeros_like(x, dtype=_dt.result_type(p.dtype, x.dtype))
    for c in p:
        y = y * x + c
    return y


def polyfit(x, y, deg):
    """Least-squares polynomial coefficients, highest power first (NumPy's polyfit without
    weights; the columns are scaled to unit norm first, as NumPy does)."""
    x, y = asarray(x), asarray(y)
    dt = _dt.result_type(x.dtype, y.dtype, _dt.float64)
    a = vander(x.astype(dt), deg + 1)
    scale = F.sqrt(F.sum(a * a, axis=0))
    coef = _linalg.lstsq(a / scale, y.astype(dt))[0]
    return (coef.T / scale).T
