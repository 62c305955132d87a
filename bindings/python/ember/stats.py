"""Ember ML's stats (mean var median std percentile max min sum cumsum argmax sort argsort gaussian),
and the C API's statistics (ember_stats.h): quantile, the nan reductions, average, histogram,
bincount, cov, corrcoef, cummax, cummin, topk."""
from . import _functions as F
from . import _dtypes as _dt
from . import _ember_c as _c
from ._array import _wrap, AXIS_NONE

mean = F.mean
max = F.max
min = F.min
sum = F.sum
argmax = F.argmax
argmin = F.argmin


def var(x, axis=None, keepdims=False, ddof=0):
    return F.var(x, axis=axis, keepdims=keepdims, correction=ddof)


def std(x, axis=None, keepdims=False, ddof=0):
    return F.std(x, axis=axis, keepdims=keepdims, correction=ddof)


def cumsum(x, axis=None):
    return F.cumsum(x, axis)


def sort(x, axis=-1, descending=False):
    return F.sort(x, axis=axis, descending=descending)


def argsort(x, axis=-1, descending=False):
    return F.argsort(x, axis=axis, descending=descending)


_QUANTILE_METHODS = {"linear": 0, "lower": 1, "higher": 2, "nearest": 3, "midpoint": 4}


def _axis(axis):
    return AXIS_NONE if axis is None else int(axis)


def _method(method):
    try:
        return _QUANTILE_METHODS[method]
    except KeyError:
        raise ValueError(f"method must be one of {sorted(_QUANTILE_METHODS)}, got {method!r}") from None


def _float_input(x):
    # Integers as float64, as numpy (the C API would use the default float, float32).
    x = F._arr(x)
    return x if x.dtype.kind in "fc" else F.astype(x, _dt.float64)


def quantile(x, q, axis=None, keepdims=False, method="linear"):
    """The q-th quantile, 0 <= q <= 1, along axis (None: of the flattened x); numpy's methods
    linear (default), lower, higher, nearest, midpoint. A slice holding a NaN gives NaN.
    Integer x gives float64, as in numpy."""
    x = _float_input(x)
    return _wrap(_c.ember_quantile(x._h, float(q), _axis(axis), _method(method), 1 if keepdims else 0))


def percentile(x, q, axis=None, keepdims=False, method="linear"):
    """quantile with q in percent (0 <= q <= 100)."""
    x = _float_input(x)
    return _wrap(_c.ember_percentile(x._h, float(q), _axis(axis), _method(method), 1 if keepdims else 0))


def median(x, axis=None, keepdims=False):
    x = _float_input(x)
    return _wrap(_c.ember_median(x._h, _axis(axis), 1 if keepdims else 0))


def _nan_reduction(cfn, doc):
    def f(x, axis=None, keepdims=False):
        x = F._arr(x)
        return _wrap(cfn(x._h, F._axes(axis), 1 if keepdims else 0))
    f.__doc__ = doc
    return f


nansum = _nan_reduction(_c.ember_nansum, "Sum over axis (None: all) with NaNs counted as zero.")
nanmean = _nan_reduction(_c.ember_nanmean, "Mean of the values that are not NaN (NaN where there are none).")
nanmax = _nan_reduction(_c.ember_nanmax, "Maximum ignoring NaNs (NaN where every value is NaN).")
nanmin = _nan_reduction(_c.ember_nanmin, "Minimum ignoring NaNs (NaN where every value is NaN).")
for _f, _n in ((nansum, "nansum"), (nanmean, "nanmean"), (nanmax, "nanmax"), (nanmin, "nanmin")):
    _f.__name__ = _f.__qualname__ = _n


def average(x, axis=None, weights=None, returned=False, keepdims=False):
    """Weighted mean along axis (numpy.average): weights of x's shape, or 1-d along axis.
    returned=True also gives the sum of the weights."""
    x = F._arr(x)
    w = None if weights is None else F._arr(weights)._h
    r, sw = _c.ember_average(x._h, w, _axis(axis), 1 if keepdims else 0)
    return (_wrap(r), _wrap(sw)) if returned else _wrap(r)


def histogram(x, bins=10, range=None, weights=None):
    """Counts of the flattened x in `bins` equal-width bins over range (None: x's min and max),
    the last bin closed; returns (counts, edges) as numpy.histogram does."""
    x = F._arr(x)
    lo, hi = (0.0, 0.0) if range is None else (float(range[0]), float(range[1]))
    if range is not None and lo == 0.0 and hi == 0.0:
        lo, hi = -0.5, 0.5  # numpy widens an empty range by 0.5 each side; (0, 0) means "automatic" in C
    w = None if weights is None else F._arr(weights)._h
    counts, edges = _c.ember_histogram(x._h, int(bins), lo, hi, w)
    return _wrap(counts), _wrap(edges)


def bincount(x, weights=None, minlength=0):
    """Occurrences of each value 0..max(x) of a 1-d non-negative integer x (numpy.bincount);
    with weights, their sums in float64 (as numpy; complex weights stay complex)."""
    x = F._arr(x)
    w = None
    if weights is not None:
        w = F._arr(weights)
        w = (w if w.dtype.kind == "c" or w.dtype == _dt.float64 else F.astype(w, _dt.float64))._h
    return _wrap(_c.ember_bincount(x._h, w, int(minlength)))


def cov(x, *, rowvar=True, bias=False, ddof=None):
    """Covariance matrix (numpy.cov): rows are variables when rowvar, normalised by N - ddof
    (ddof None: 0 with bias, else 1). numpy's second argument y is not taken: the options
    are keyword-only, so cov(a, b) fails instead of reading b as rowvar."""
    x = F._arr(x)
    if ddof is None:
        ddof = 0 if bias else 1
    return _wrap(_c.ember_cov(x._h, 1 if rowvar else 0, float(ddof)))


def corrcoef(x, *, rowvar=True):
    """Pearson correlation matrix (numpy.corrcoef)."""
    x = F._arr(x)
    return _wrap(_c.ember_corrcoef(x._h, 1 if rowvar else 0))


def cummax(x, axis=None):
    """Running maximum along axis (None: of the flattened x); NaN propagates."""
    x = F._arr(x)
    return _wrap(_c.ember_cummax(x._h, _axis(axis)))


def cummin(x, axis=None):
    """Running minimum along axis (None: of the flattened x); NaN propagates."""
    x = F._arr(x)
    return _wrap(_c.ember_cummin(x._h, _axis(axis)))


def topk(x, k, axis=-1, largest=True):
    """The k largest (smallest) values along axis and their indices, in order (torch.topk)."""
    x = F._arr(x)
    values, indices = _c.ember_topk(x._h, int(k), int(axis), 1 if largest else 0)
    return _wrap(values), _wrap(indices)


def gaussian(x, mu=0.0, sigma=1.0):
    return F.exp(-0.5 * F.square((x - mu) / sigma)) / (sigma * 2.5066282746310002)
