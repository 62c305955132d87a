"""NumPy's statistics under NumPy's signatures: quantile/percentile with several q and
tuple axes, the NaN-ignoring quantiles, median with tuple axes, histogram with bin edges
and density, histogram2d/histogramdd/histogram_bin_edges, and cov/corrcoef with a second
set of variables. Composites over sort, take_along_axis, searchsorted, bincount and the
em.stats functions; checked against NumPy by tests/python/test_numpy_math.py on every
backend."""
import builtins
import math

from . import _dtypes as _dt
from . import _functions as F
from . import stats as _stats
from ._creation import asarray, zeros

__all__ = [
    "quantile", "percentile", "nanquantile", "nanpercentile", "median", "nanmedian", "histogram",
    "histogram_bin_edges", "histogramdd", "histogram2d", "cov", "corrcoef",
]


# ---------------------------------------------------------------- quantiles


_METHODS = ("linear", "lower", "higher", "nearest", "midpoint")


def _lerp(lo, hi, t):
    """lo + (hi - lo) t, from the nearer end (NumPy's form: exact at t = 0 and 1, monotone)."""
    d = hi - lo
    return F.where(t >= 0.5, hi - d * (1.0 - t), lo + d * t)


def _quantiles_along_last(s, count, q, method):
    """The q-th quantile of the first count[...] values of each sorted row of s (NaN where
    count is 0)."""
    last = F.maximum(count - 1, 0)
    pos = (count - 1).astype(_dt.float64) * q
    lo = F.clip(F.floor(pos), 0, None).astype(_dt.int64)
    lo = F.minimum(lo, last)
    hi = F.minimum(lo + 1, last)
    v_lo, v_hi = F.take_along_axis(s, lo, axis=-1), F.take_along_axis(s, hi, axis=-1)
    frac = pos - lo.astype(_dt.float64)
    if method == "linear":
        r = _lerp(v_lo.astype(_dt.float64) if s.dtype.kind != "c" else v_lo, v_hi.astype(_dt.float64), frac)
    elif method == "lower":
        r = v_lo
    elif method == "higher":
        r = F.where(frac > 0, v_hi, v_lo)
    elif method == "nearest":
        r = F.where(frac > 0.5, v_hi, F.where(frac < 0.5, v_lo, F.where(F.remainder(lo, 2) == 0, v_lo, v_hi)))
    else:
        r = F.where(frac > 0, (v_lo.astype(_dt.float64) + v_hi.astype(_dt.float64)) / 2, v_lo.astype(_dt.float64))
    r = r.astype(s.dtype) if s.dtype.kind == "f" else r
    return F.where(count == 0, math.nan, r) if s.dtype.kind == "f" else r


def _quantile(a, q, axis, keepdims, method, skip_nan, name):
    if method not in _METHODS:
        raise ValueError(f"{name}: method must be one of {_METHODS}, not {method!r}")
    a = asarray(a)
    qs = asarray(q, dtype=_dt.float64)
    if builtins.bool(F.any(F.logical_or(qs < 0, qs > 1))) or builtins.bool(F.any(F.isnan(qs))):
        raise ValueError(f"{name}: quantiles must be in the range [0, 1]" if name.endswith("quantile")
                         else f"{name}: percentiles must be in the range [0, 100]")
    nd = a.ndim
    if axis is None:
        x, shape_kept = F.reshape(a, (1, -1)) if nd else F.reshape(a, (1, 1)), (1,) * nd
    else:
        axes = (axis,) if isinstance(axis, int) else tuple(axis)
        axes = tuple(ax % nd for ax in axes)
        others = [d for d in range(nd) if d not in axes]
        x = F.permute_dims(a, tuple(others + list(axes)))
        x = F.reshape(x, tuple(a.shape[d] for d in others) + (-1,))
        shape_kept = tuple(1 if d in axes else a.shape[d] for d in range(nd))
    if a.dtype.kind in "biu":
        x = x.astype(_dt.float64)
    s = F.sort(x, axis=-1)
    width = s.shape[-1]
    if width == 0 and not skip_nan:
        raise IndexError(f"{name}: the slices are empty")
    if skip_nan and s.dtype.kind == "f":
        count = F.sum(F.logical_not(F.isnan(s)), axis=-1, keepdims=True, dtype=_dt.int64)
    else:
        count = zeros(s.shape[:-1] + (1,), dtype=_dt.int64) + width
    if width == 0:
        s = zeros(s.shape[:-1] + (1,), dtype=s.dtype)
    results = []
    for qv in (qs.tolist() if qs.ndim else [float(qs)]):
        r = _quantiles_along_last(s, count, qv, method)
        if not skip_nan and s.dtype.kind == "f":
            r = F.where(F.isnan(s[..., -1:]), math.nan, r)  # NaNs sort last; NumPy's quantile is NaN then
        if keepdims:
            r = F.reshape(r, shape_kept)
        else:
            r = F.reshape(r, r.shape[:-1] if axis is not None else ())
        results.append(r)
    return results[0] if qs.ndim == 0 else F.stack(results, axis=0)


def quantile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False):
    """NumPy's quantile: q a number or an array of them (the result gains q's axis first),
    axis None, an int or a tuple."""
    if out is not None:
        raise NotImplementedError("quantile: out=")
    if isinstance(q, (int, float)) and (axis is None or isinstance(axis, int)):
        return _stats.quantile(asarray(a), q, axis=axis, keepdims=keepdims, method=method)
    return _quantile(a, q, axis, keepdims, method, False, "quantile")


def _hundredths(q):
    return q / 100.0 if isinstance(q, (int, float)) else F.divide(asarray(q, dtype=_dt.float64), 100.0)


def percentile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False):
    return quantile(a, _hundredths(q), axis, out, overwrite_input, method, keepdims)


def nanquantile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False):
    """quantile ignoring NaNs (an all-NaN slice gives NaN)."""
    if out is not None:
        raise NotImplementedError("nanquantile: out=")
    return _quantile(a, q, axis, keepdims, method, True, "nanquantile")


def nanpercentile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False):
    return nanquantile(a, _hundredths(q), axis, out, overwrite_input, method, keepdims)


def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """NumPy's median: axis None, an int or a tuple."""
    if out is not None:
        raise NotImplementedError("median: out=")
    if axis is None or isinstance(axis, int):
        return _stats.median(asarray(a), axis=axis, keepdims=keepdims)
    return _quantile(a, 0.5, axis, keepdims, "linear", False, "median")


def nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    return nanquantile(a, 0.5, axis, out, overwrite_input, "linear", keepdims)


# ---------------------------------------------------------------- histograms


def _bin_edges(values, bins, value_range, name):
    if isinstance(bins, str):
        raise NotImplementedError(f"{name}: bins given by a rule name ({bins!r}); give a count or the edges")
    if not isinstance(bins, int):
        edges = asarray(bins, dtype=_dt.float64)
        if edges.ndim != 1 or builtins.bool(F.any(edges[1:] < edges[:-1])):
            raise ValueError(f"{name}: bins must increase monotonically")
        return edges
    if bins < 1:
        raise ValueError(f"{name}: the number of bins must be positive")
    if value_range is not None:
        lo, hi = float(value_range[0]), float(value_range[1])
        if lo > hi:
            raise ValueError(f"{name}: max must be larger than min in range parameter")
    elif values.size:
        lo, hi = float(F.min(values)), float(F.max(values))
    else:
        lo, hi = 0.0, 1.0
    if not (math.isfinite(lo) and math.isfinite(hi)):
        raise ValueError(f"{name}: autodetected range of [{lo}, {hi}] is not finite")
    if lo == hi:
        lo, hi = lo - 0.5, hi + 0.5
    from ._creation import linspace
    return linspace(lo, hi, bins + 1, dtype=_dt.float64)


def histogram_bin_edges(a, bins=10, range=None, weights=None):
    a = asarray(a)
    return _bin_edges(F.reshape(a, (-1,)).astype(_dt.float64), bins, range, "histogram_bin_edges")


def histogramdd(sample, bins=10, range=None, density=None, weights=None):
    """(counts, [edges per dimension]) of the N points of sample (N, D) (or a sequence of D
    coordinate arrays); each bin holds [edge, next edge) except the last, which holds its
    right edge too; points outside the edges are not counted."""
    if isinstance(sample, (list, tuple)) and sample and not isinstance(sample[0], (int, float)):
        coords = [F.reshape(asarray(c), (-1,)).astype(_dt.float64) for c in sample]
    else:
        s = asarray(sample)
        if s.ndim == 1:
            s = F.reshape(s, (-1, 1))
        coords = [s[:, d].astype(_dt.float64) for d in builtins.range(s.shape[1])]
    dims = len(coords)
    bins_per = list(bins) if isinstance(bins, (list, tuple)) else [bins] * dims
    ranges = list(range) if range is not None else [None] * dims
    if len(bins_per) != dims or len(ranges) != dims:
        raise ValueError("histogramdd: bins and range need one entry per dimension")
    edges = [_bin_edges(c, b, r, "histogramdd") for c, b, r in zip(coords, bins_per, ranges)]
    n = coords[0].shape[0]
    inside = None
    flat = zeros((n,), dtype=_dt.int64)
    for c, e in zip(coords, edges):
        nb = e.shape[0] - 1
        k = F.searchsorted(e, c, side="right") - 1
        k = F.where(c == e[nb], nb - 1, k)  # the last bin includes its right edge
        ok = F.logical_and(k >= 0, k < nb)
        inside = ok if inside is None else F.logical_and(inside, ok)
        flat = flat * nb + F.clip(k, 0, nb - 1)
    shape = tuple(e.shape[0] - 1 for e in edges)
    w = None if weights is None else F.reshape(asarray(weights), (-1,)).astype(_dt.float64)
    from ._numpy_names import bincount
    if n:
        keep = F.nonzero(inside)[0]
        counts = bincount(F.take(flat, keep), weights=None if w is None else F.take(w, keep),
                          minlength=math.prod(shape))
    else:
        counts = zeros((math.prod(shape),), dtype=_dt.float64)
    counts = F.reshape(counts.astype(_dt.float64), shape)
    if density:
        total = F.sum(counts)
        widths = [e[1:] - e[:-1] for e in edges]
        volume = widths[0]
        for wd in widths[1:]:
            volume = volume[..., None] * wd
        counts = counts / total / volume
    return counts, edges


def histogram2d(x, y, bins=10, range=None, density=None, weights=None):
    """(counts, x edges, y edges) of the points (x[i], y[i]) (histogramdd of two)."""
    if isinstance(bins, (list, tuple)) and len(bins) != 2:
        bins = [bins, bins]
    counts, edges = histogramdd([x, y], bins, range, density, weights)
    return counts, edges[0], edges[1]



def histogram(a, bins=10, range=None, density=None, weights=None):
    """NumPy's histogram: (counts, edges); bins a count or the edges; density divides by
    the total and the bin widths. Equal-width bins without density run ember_histogram."""
    if isinstance(bins, int) and not density:
        return _stats.histogram(asarray(a), bins, range, weights)
    counts, edges = histogramdd([F.reshape(asarray(a), (-1,))], [bins], None if range is None else [range],
                                density, weights)
    return (counts if weights is not None or density else counts.astype(_dt.int64)), edges[0]


def _observations(m, y, rowvar, name):
    """m and y (NumPy's second set of variables) as one 2-d array of variables by rows."""
    m = asarray(m)
    if m.ndim > 2:
        raise ValueError(f"{name}: m has more than 2 dimensions")
    m = F.reshape(m, (1, -1)) if m.ndim < 2 else m
    if not rowvar and m.shape[0] != 1:
        m = F.permute_dims(m, (1, 0))
    if y is not None:
        y = asarray(y)
        y = F.reshape(y, (1, -1)) if y.ndim < 2 else y
        if not rowvar and y.shape[0] != 1:
            y = F.permute_dims(y, (1, 0))
        m = F.concat([m.astype(_dt.result_type(m, y)), y.astype(_dt.result_type(m, y))], axis=0)
    return m


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, *, dtype=None):
    """NumPy's cov, with its second set of variables y (fweights / aweights not taken)."""
    if fweights is not None or aweights is not None:
        raise NotImplementedError("cov: fweights / aweights")
    x = _observations(m, y, rowvar, "cov")
    if dtype is not None:
        x = x.astype(dtype)
    r = _stats.cov(x, rowvar=True, bias=bias, ddof=ddof)
    return F.reshape(r, ()) if x.shape[0] == 1 else r


def corrcoef(x, y=None, rowvar=True, *, dtype=None):
    """NumPy's corrcoef, with its second set of variables y."""
    v = _observations(x, y, rowvar, "corrcoef")
    if dtype is not None:
        v = v.astype(dtype)
    r = _stats.corrcoef(v, rowvar=True)
    return F.reshape(r, ()) if v.shape[0] == 1 else r
