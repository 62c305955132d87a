"""NumPy's set routines of 1-d arrays (intersect1d, union1d, setdiff1d, setxor1d) and its
small sequence helpers (ediff1d, trim_zeros, sort_complex, nancumprod). Composites of
unique, isin and sort; checked against NumPy by tests/python/test_numpy_sets.py on every
backend."""
import builtins

from . import _dtypes as _dt
from . import _functions as F
from ._creation import asarray
from ._numpy_names import ravel, unique, isin, lexsort

__all__ = ["intersect1d", "union1d", "setdiff1d", "setxor1d", "ediff1d", "trim_zeros", "sort_complex", "nancumprod"]


def _flat_pair(ar1, ar2):
    """Both flattened, in their common dtype (NumPy concatenates them)."""
    a, b = ravel(asarray(ar1)), ravel(asarray(ar2))
    common = _dt.result_type(a, b)
    return a.astype(common), b.astype(common)


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    """The sorted values in both; return_indices adds where each first occurs in ar1 and ar2."""
    a, b = _flat_pair(ar1, ar2)
    if return_indices:
        ua, ia = unique(a, return_index=True)
        ub, ib = unique(b, return_index=True)
        in_b, in_a = isin(ua, ub), isin(ub, ua)
        return ua[in_b], ia[in_b], ib[in_a]
    if not assume_unique:
        a, b = unique(a), unique(b)
    return F.sort(a[isin(a, b)])


def union1d(ar1, ar2):
    a, b = _flat_pair(ar1, ar2)
    return unique(F.concat([a, b]))


def setdiff1d(ar1, ar2, assume_unique=False):
    """The values of ar1 not in ar2: sorted and unique, or in ar1's order with
    assume_unique=True."""
    a, b = _flat_pair(ar1, ar2)
    if not assume_unique:
        a = unique(a)
    return a[isin(a, b, invert=True)]


def setxor1d(ar1, ar2, assume_unique=False):
    """The sorted values in exactly one of the two."""
    a, b = _flat_pair(ar1, ar2)
    if not assume_unique:
        a, b = unique(a), unique(b)
    return F.sort(F.concat([a[isin(a, b, invert=True)], b[isin(b, a, invert=True)]]))


def ediff1d(ary, to_end=None, to_begin=None):
    """Differences of consecutive elements of the flattened ary, with to_begin before them
    and to_end after (in ary's dtype)."""
    a = ravel(asarray(ary))
    parts = []
    if to_begin is not None:
        parts.append(ravel(asarray(to_begin)).astype(a.dtype))
    parts.append(a[1:] - a[:-1] if a.shape[0] else a)
    if to_end is not None:
        parts.append(ravel(asarray(to_end)).astype(a.dtype))
    return F.concat(parts) if len(parts) > 1 else parts[0]


def trim_zeros(filt, trim="fb"):
    """A 1-d filt without its leading ('f') and / or trailing ('b') zeros."""
    a = asarray(filt)
    if a.ndim != 1:
        raise ValueError("trim_zeros: filt must be 1-dimensional")
    trim = trim.lower()
    if not set(trim) <= {"f", "b"} or not trim:
        raise ValueError(f"trim_zeros: unexpected character(s) in trim: {trim!r}")
    nz = F.nonzero(a != 0)[0]
    if nz.shape[0] == 0:
        return a[:0]
    first = builtins.int(nz[0]) if "f" in trim else 0
    last = builtins.int(nz[nz.shape[0] - 1]) + 1 if "b" in trim else a.shape[0]
    return a[first:last]


def sort_complex(a):
    """a sorted by real part, then imaginary part, as a complex array."""
    a = asarray(a)
    wide = (_dt.float64, _dt.int64, _dt.uint64, _dt.int32, _dt.uint32)  # NumPy: complex128 for these
    z = a if a.dtype.kind == "c" else a.astype(_dt.complex128 if a.dtype in wide else _dt.complex64)
    order = lexsort([F.imag(z), F.real(z)], axis=-1)
    return F.take_along_axis(z, order, axis=-1)


def nancumprod(a, axis=None, dtype=None):
    """Cumulative product treating NaNs as 1 (the flattened array when axis is None)."""
    a = asarray(a)
    if a.dtype.kind in "fc":
        a = F.where(F.isnan(a), 1, a)
    if axis is None:
        a, axis = ravel(a), 0
    return F.cumulative_prod(a, axis=axis, dtype=dtype)
