"""NumPy's polynomial functions of coefficient sequences, highest power first (poly, roots,
polyadd, polysub, polymul, polyder, polyint, polydiv; polyval and polyfit are in
_numpy_names.py), and its window functions (bartlett, blackman, hamming, hanning, kaiser,
with i0). Composites of the namespace's functions; checked against NumPy by
tests/python/test_numpy_sets.py on every backend."""
import math

from . import _dtypes as _dt
from . import _functions as F
from . import linalg as _linalg
from ._creation import asarray, zeros, ones, arange, eye
from ._numpy_math import convolve
from ._numpy_names import atleast_1d

__all__ = ["poly", "roots", "polyadd", "polysub", "polymul", "polyder", "polyint", "polydiv", "bartlett", "blackman",
           "hamming", "hanning", "kaiser", "i0"]


def _coefficients(p, floating=True):
    """p as a 1-d array: floating (float64 for integers) where the operation divides, else
    integers kept (NumPy's polyadd of ints gives ints)."""
    p = atleast_1d(asarray(p))
    if p.ndim != 1:
        raise ValueError("polynomial coefficients must be a 1-d sequence")
    if p.dtype.kind == "b":
        p = p.astype(_dt.int64)
    return p if p.dtype.kind in "fc" or not floating else p.astype(_dt.float64)


def _strip_leading_zeros(p):
    nz = F.nonzero(p != 0)[0]
    return p[int(nz[0]):] if nz.shape[0] else p[p.shape[0] - 1:] if p.shape[0] else p


def poly(seq_of_zeros):
    """The monic polynomial with the given roots (of a square matrix: of its eigenvalues);
    real when the complex roots come in conjugate pairs."""
    z = asarray(seq_of_zeros)
    if z.ndim == 2 and z.shape[0] == z.shape[1] and z.shape[0] > 0:
        z = _linalg.eigvals(z if z.dtype.kind in "fc" else z.astype(_dt.float64))
    elif z.ndim != 1:
        raise ValueError("poly: input must be 1-d or a non-empty square 2-d array")
    if z.shape[0] == 0:  # NumPy's 1.0, a scalar: here a 0-d array
        return ones((), dtype=_dt.float64)
    z = z if z.dtype.kind in "fc" else z.astype(_dt.float64)
    c = ones((1,), dtype=z.dtype)
    for k in range(z.shape[0]):
        c = convolve(c, F.stack([ones((), dtype=z.dtype), -z[k]]))
    if c.dtype.kind == "c":
        pos = sorted(complex(v) for v in z.tolist() if complex(v).imag > 0)
        neg = sorted(complex(v).conjugate() for v in z.tolist() if complex(v).imag < 0)
        if pos == neg:
            c = F.real(c)
    return c


def roots(p):
    """The roots of the polynomial p: the eigenvalues of its companion matrix, with one 0
    for each trailing zero coefficient."""
    p = _coefficients(p)
    nz = F.nonzero(p != 0)[0]
    if nz.shape[0] == 0:
        return zeros((0,), dtype=p.dtype)
    first, last = int(nz[0]), int(nz[nz.shape[0] - 1])
    trailing = p.shape[0] - last - 1
    p = p[first:last + 1]
    n = p.shape[0]
    found = zeros((0,), dtype=_dt.complex128 if p.dtype == _dt.float64 or p.dtype == _dt.complex128 else _dt.complex64)
    if n > 1:
        companion = eye(n - 1, k=-1, dtype=p.dtype) if n > 2 else zeros((1, 1), dtype=p.dtype)
        companion[0, :] = -p[1:] / p[0]
        found = _linalg.eigvals(companion)
    if trailing:
        found = F.concat([found, zeros((trailing,), dtype=found.dtype)])
    if found.dtype.kind == "c" and p.dtype.kind != "c" and bool(F.all(F.imag(found) == 0)):
        found = F.real(found)
    return found


def _aligned(a1, a2):
    a1, a2 = _coefficients(a1, False), _coefficients(a2, False)
    common = _dt.result_type(a1, a2)
    a1, a2 = a1.astype(common), a2.astype(common)
    d = a1.shape[0] - a2.shape[0]
    if d > 0:
        a2 = F.concat([zeros((d,), dtype=common), a2])
    elif d < 0:
        a1 = F.concat([zeros((-d,), dtype=common), a1])
    return a1, a2


def polyadd(a1, a2):
    a1, a2 = _aligned(a1, a2)
    return a1 + a2


def polysub(a1, a2):
    a1, a2 = _aligned(a1, a2)
    return a1 - a2


def polymul(a1, a2):
    return convolve(_coefficients(a1, False), _coefficients(a2, False))


def polyder(p, m=1):
    """The m-th derivative of p."""
    if m < 0:
        raise ValueError("polyder: order of derivative must be positive")
    p = _coefficients(p, False)
    for _ in range(m):
        n = max(p.shape[0] - 1, 0)
        p = p[:n] * arange(n, 0, -1).astype(p.dtype)
    return p


def polyint(p, m=1, k=None):
    """The m-th antiderivative of p; k: the integration constants (one number for all, or
    m of them, the first for the first integration), 0 by default."""
    if m < 0:
        raise ValueError("polyint: order of integral must be positive")
    p = _coefficients(p)
    ks = [0.0] * m if k is None else [k] * m if isinstance(k, (int, float, complex)) else list(k)
    if len(ks) != m:
        raise ValueError("polyint: k must be a scalar or a sequence of m numbers")
    for j in range(m):
        n = p.shape[0]
        p = F.concat([p / arange(n, 0, -1).astype(p.dtype), F.reshape(asarray(ks[j], dtype=p.dtype), (1,))])
    return p


def polydiv(u, v):
    """(quotient, remainder) of the polynomial division u / v (long division; the
    remainder without its leading near-zero coefficients)."""
    u, v = _coefficients(u), _strip_leading_zeros(_coefficients(v))
    if v.shape[0] == 0 or bool(F.all(v == 0)):
        raise ZeroDivisionError("polydiv: division by the zero polynomial")
    common = _dt.result_type(u, v)
    num, den = u.astype(common).tolist(), v.astype(common).tolist()
    m, n = len(num) - 1, len(den) - 1
    q = [0.0] * max(m - n + 1, 1)
    for k in range(m - n + 1):
        d = num[k] / den[0]
        q[k] = d
        for j in range(n + 1):
            num[k + j] -= d * den[j]
    while len(num) > 1 and abs(num[0]) <= 1e-8:  # NumPy's allclose(r[0], 0)
        num = num[1:]
    return asarray(q, dtype=common), asarray(num, dtype=common)


# ---------------------------------------------------------------- windows (symmetric, float64)


def _window_positions(M):
    return arange(M, dtype=_dt.float64)


def bartlett(M):
    if M < 1:
        return zeros((0,), dtype=_dt.float64)
    if M == 1:
        return ones((1,), dtype=_dt.float64)
    n = _window_positions(M)
    return 1.0 - F.abs(2.0 * n / (M - 1) - 1.0)


def _cosine_window(M, coefficients):
    if M < 1:
        return zeros((0,), dtype=_dt.float64)
    if M == 1:
        return ones((1,), dtype=_dt.float64)
    t = 2.0 * math.pi * _window_positions(M) / (M - 1)
    w = zeros((M,), dtype=_dt.float64)
    for k, a in enumerate(coefficients):
        w = w + a * F.cos(k * t)
    return w


def blackman(M):
    return _cosine_window(M, (0.42, -0.5, 0.08))


def hamming(M):
    return _cosine_window(M, (0.54, -0.46))


def hanning(M):
    return _cosine_window(M, (0.5, -0.5))


def i0(x):
    """The modified Bessel function of the first kind, order 0: its power series
    sum ((x/2)^k / k!)^2 up to |x| = 30, the asymptotic e^|x| / sqrt(2 pi |x|) series above
    (both about 1e-15 relative)."""
    x = asarray(x)
    if x.dtype.kind == "c":
        raise TypeError("i0: complex input")
    w = F.abs(x.astype(_dt.float64))
    small = F.minimum(w, 30.0)
    q = (small / 2.0) ** 2
    term, total = ones(w.shape, dtype=_dt.float64), ones(w.shape, dtype=_dt.float64)
    for k in range(1, 121):
        term = term * q / (k * k)
        total = total + term
    big = F.maximum(w, 30.0)
    inv = 1.0 / (8.0 * big)
    # e^x / sqrt(2 pi x) (1 + 1/(8x) + 9/(2 (8x)^2) + 225/(6 (8x)^3) + ...): (2k-1)!!^2 / (k! (8x)^k)
    series, c = ones(w.shape, dtype=_dt.float64), ones(w.shape, dtype=_dt.float64)
    for k in range(1, 12):
        c = c * ((2 * k - 1) ** 2) * inv / k
        series = series + c
    asym = F.exp(big) / F.sqrt(2.0 * math.pi * big) * series
    r = F.where(w <= 30.0, total, asym)
    return r if x.dtype.kind != "f" else r.astype(x.dtype)


def kaiser(M, beta):
    if M < 1:
        return zeros((0,), dtype=_dt.float64)
    if M == 1:
        return ones((1,), dtype=_dt.float64)
    n = _window_positions(M)
    alpha = (M - 1) / 2.0
    r = (n - alpha) / alpha
    return i0(beta * F.sqrt(F.maximum(1.0 - r * r, 0.0))) / i0(asarray(float(beta), dtype=_dt.float64))
