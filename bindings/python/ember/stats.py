"""Ember ML's stats: mean var median std percentile max min sum cumsum argmax sort argsort gaussian."""
from . import _functions as F
from . import _dtypes as _dt

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


def percentile(x, q, axis=None, keepdims=False):
    """Linear interpolation between closest ranks (numpy's default method)."""
    if axis is None:
        x = F.reshape(x, (-1,))
        axis = 0
    s = F.sort(x, axis=axis)
    if s.dtype.kind not in "fc":
        s = F.astype(s, _dt.float64)
    n = s.shape[axis]
    pos = (n - 1) * float(q) / 100.0
    lo = int(pos)
    hi = lo if lo + 1 >= n else lo + 1
    frac = pos - lo
    a = F.take(s, F.asarray([lo], dtype=_dt.int64), axis=axis)
    b = F.take(s, F.asarray([hi], dtype=_dt.int64), axis=axis)
    r = a + (b - a) * frac
    return r if keepdims else F.squeeze(r, axis=axis)


def median(x, axis=None, keepdims=False):
    return percentile(x, 50.0, axis=axis, keepdims=keepdims)


def gaussian(x, mu=0.0, sigma=1.0):
    return F.exp(-0.5 * F.square((x - mu) / sigma)) / (sigma * 2.5066282746310002)
