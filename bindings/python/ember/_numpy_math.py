"""More of NumPy's names for computing: convolve/correlate, fix/modf/frexp/ldexp/
fabs, gcd/lcm, spacing, bitwise_count, packbits/unpackbits, matvec/vecmat, unwrap,
real_if_close and the floating-point error settings (einsum is in _numpy_einsum.py, the
statistics in _numpy_stats.py). Composites of the namespace's functions (no kernel of their own), checked
against NumPy by tests/python/test_numpy_math.py on every backend."""
import builtins
import math

from . import _dtypes as _dt
from . import _functions as F
from . import fft as _fft
from ._backend import on_device
from ._creation import asarray, zeros

__all__ = [
    "convolve", "correlate", "fix", "modf", "frexp", "ldexp", "fabs", "gcd", "lcm",
    "real_if_close", "matvec", "vecmat", "unwrap", "spacing", "bitwise_count", "seterr", "geterr", "errstate",
    "geterrcall", "seterrcall", "getbufsize", "setbufsize", "packbits", "unpackbits",
]


# ---------------------------------------------------------------- convolution


def _full_convolution(a, v):
    if a.dtype == _dt.bool_:  # NumPy's: whether any product is true (Ember multiplies no bools)
        return _full_convolution(a.astype(_dt.int64), v.astype(_dt.int64)) != 0
    return _full_numeric_convolution(a, v)


def _full_numeric_convolution(a, v):
    """Full discrete convolution of 1-d a and v (len(v) <= len(a)): len(v) shifted
    multiply-adds for short kernels and for integers the FFT might round wrongly, an FFT
    product otherwise (rounded back for integers)."""
    n, m = a.shape[0], v.shape[0]
    size = n + m - 1
    if m <= 64 or (a.dtype.kind in "iu" and not _fft_exact_for(a, v, size)):
        padded = F.concat([zeros((m - 1,), dtype=a.dtype), a, zeros((m - 1,), dtype=a.dtype)])
        r = None
        for j in range(m):
            term = v[j] * padded[m - 1 - j: m - 1 - j + size]
            r = term if r is None else r + term
        return r
    if a.dtype.kind == "c":
        return _fft.ifft(_fft.fft(a, n=size) * _fft.fft(v, n=size), n=size)
    real = a if a.dtype.kind == "f" else a.astype(_dt.float64)
    r = _fft.irfft(_fft.rfft(real, n=size) * _fft.rfft(v.astype(real.dtype), n=size), n=size)
    return F.round(r).astype(a.dtype) if a.dtype.kind in "biu" else r


def _fft_exact_for(a, v, size):
    """Whether a float64 FFT convolution of the integers a and v rounds back to the sums
    the multiply-adds give: each sum is at most max|a| sum|v|; the dtype must hold that
    (the multiply-adds wrap, as NumPy's) and the FFT's error stays far below 1/2 while the
    bound times the length is below 2^53 / 64."""
    bound = float(F.max(F.abs(a.astype(_dt.float64)))) * float(F.sum(F.abs(v.astype(_dt.float64))))
    return bound <= _dt.iinfo(a.dtype).max and bound * size * 64 < 2.0 ** 53


def _convolution_mode(full, n, m, mode):
    if mode == "full":
        return full
    if mode == "same":
        start = (builtins.min(n, m) - 1) // 2
        return full[start: start + builtins.max(n, m)]
    if mode == "valid":
        start = builtins.min(n, m) - 1
        return full[start: start + builtins.max(n, m) - builtins.min(n, m) + 1]
    raise ValueError(f"convolve: mode must be 'full', 'same' or 'valid', not {mode!r}")


def _as_1d(x, name):
    x = asarray(x)
    if x.ndim > 1:
        raise ValueError(f"{name}: object too deep for desired array (1-d inputs only)")
    x = F.reshape(x, (-1,))
    if x.shape[0] == 0:
        raise ValueError(f"{name}: inputs cannot be empty")
    return x


def convolve(a, v, mode="full"):
    """Discrete linear convolution of two 1-d sequences (modes 'full', 'same', 'valid')."""
    a, v = _as_1d(a, "convolve"), _as_1d(v, "convolve")
    common = _dt.result_type(a, v)
    a, v = a.astype(common), v.astype(common)
    n, m = a.shape[0], v.shape[0]
    full = _full_convolution(a, v) if m <= n else _full_convolution(v, a)
    return _convolution_mode(full, n, m, mode)


def correlate(a, v, mode="valid"):
    """Cross-correlation of two 1-d sequences, c[k] = sum_n a[n + k] conj(v[n]), as NumPy's
    correlate (default mode 'valid')."""
    a, v = _as_1d(a, "correlate"), _as_1d(v, "correlate")
    common = _dt.result_type(a, v)
    a, v = a.astype(common), v.astype(common)
    if common.kind == "c":
        v = F.conj(v)
    n, m = a.shape[0], v.shape[0]
    if m <= n:
        return _convolution_mode(_full_convolution(a, F.flip(v)), n, m, mode)
    # NumPy's correlate with the longer second sequence: the reversed correlation of the pair swapped
    return F.flip(_convolution_mode(_full_convolution(F.flip(a), v), n, m, mode))


# ---------------------------------------------------------------- elementwise


def _float_of(x):
    x = asarray(x)
    return x if x.dtype.kind in "fc" else x.astype(_dt.default_float())


def fix(x):
    """Rounds toward zero (integers unchanged)."""
    return F.trunc(asarray(x))


def fabs(x):
    x = asarray(x)
    if x.dtype.kind == "c":
        raise TypeError("fabs: complex input (use abs)")
    return F.abs(_float_of(x))


def modf(x):
    """(fractional part, integral part), both with x's sign (inf: 0 and inf)."""
    x = _float_of(x)
    whole = F.trunc(x)
    frac = F.where(F.isinf(x), 0.0, x - whole)
    return F.copysign(frac, x), whole


# 2.0 ** k for k in [-1074, 1023], exact: the scale factors of ldexp and frexp.
_POW2_LOW, _POW2_HIGH = -1074, 1023
_pow2_table = {}  # one table per device


def _pow2(k):
    """2.0 ** k (float64, exact) for an int64 array k clipped to the float64 range."""
    key = repr(k.device)
    table = _pow2_table.get(key)
    if table is None:
        with on_device(k.device):
            table = _pow2_table[key] = asarray([math.ldexp(1.0, e) for e in range(_POW2_LOW, _POW2_HIGH + 1)],
                                               dtype=_dt.float64)
    return F.take(table, F.clip(k, _POW2_LOW, _POW2_HIGH) - _POW2_LOW)


def _scale(w, k):
    """w * 2 ** k for float64 w and int64 k, in two exact steps of normal powers of two (one
    rounding unless the first product is already subnormal)."""
    first = F.clip(k, -1022, _POW2_HIGH)
    return w * _pow2(first) * _pow2(F.clip(k - first, -1022, _POW2_HIGH))


def ldexp(x1, x2):
    """x1 * 2 ** x2, exact wherever the result is a normal number (two exact scalings when
    x2 lies beyond float64's exponent range)."""
    x1 = _float_of(x1)
    e = asarray(x2)
    if e.dtype.kind not in "iu":
        raise TypeError("ldexp: the exponent must hold integers")
    if x1.dtype.kind == "c":
        raise TypeError("ldexp: complex input")
    return _scale(x1.astype(_dt.float64), F.clip(e.astype(_dt.int64), -2200, 2200)).astype(x1.dtype)


def frexp(x):
    """(mantissa, exponent): x = mantissa * 2 ** exponent with 0.5 <= |mantissa| < 1
    (0, inf and NaN: x itself and 0); exponent int32."""
    x = _float_of(x)
    if x.dtype.kind == "c":
        raise TypeError("frexp: complex input")
    w = x.astype(_dt.float64)
    special = F.logical_or(w == 0, F.logical_not(F.isfinite(w)))
    a = F.where(special, 1.0, F.abs(w))
    e = F.floor(F.log2(a)).astype(_dt.int64) + 1
    m = _scale(a, -e)
    # log2 may round across a power of two: one step fixes the exponent
    e = F.where(m >= 1.0, e + 1, F.where(m < 0.5, e - 1, e))
    m = _scale(a, -e)
    mant = F.where(special, w, F.copysign(m, w))
    return mant.astype(x.dtype), F.where(special, 0, e).astype(_dt.int32)


def _integer_operands(x1, x2, name):
    """x1 and x2 broadcast, in their common integer dtype (Python ints weak)."""
    a, b = asarray(x1), asarray(x2)
    if a.dtype.kind not in "biu" or b.dtype.kind not in "biu":
        raise TypeError(f"{name}: integer inputs only")
    weak1, weak2 = type(x1) is int, type(x2) is int
    common = _dt.result_type(b, x1) if weak1 and not weak2 else _dt.result_type(a, x2) if weak2 and not weak1 \
        else _dt.result_type(a, b)
    if common.kind == "b":
        common = _dt.int64
    shape = F.broadcast_shapes(a.shape, b.shape)
    return F.broadcast_to(a.astype(common), shape), F.broadcast_to(b.astype(common), shape)


def gcd(x1, x2):
    """Greatest common divisor of |x1| and |x2| (gcd(0, 0) = 0), by Euclid's steps over the
    whole array until every remainder is 0 (at most ~92 steps for 64-bit integers)."""
    a, b = _integer_operands(x1, x2, "gcd")
    a, b = F.abs(a), F.abs(b)
    while builtins.bool(F.any(b != 0)):
        nz = b != 0
        a, b = F.where(nz, b, a), F.where(nz, F.remainder(a, F.where(nz, b, 1)), 0)
    return a


def lcm(x1, x2):
    """Least common multiple of |x1| and |x2| (0 when either is 0)."""
    a, b = _integer_operands(x1, x2, "lcm")
    g = gcd(a, b)
    return F.where(g == 0, 0, F.abs(F.floor_divide(a, F.where(g == 0, 1, g)) * b))


def real_if_close(a, tol=100):
    """The real part when every imaginary part is within tol machine epsilons of 0 (tol > 1)
    or of tol itself; a unchanged otherwise."""
    a = asarray(a)
    if a.dtype.kind != "c":
        return a
    limit = tol * _dt.finfo(a.dtype).eps if tol > 1 else tol
    return F.real(a) if builtins.bool(F.all(F.abs(F.imag(a)) < limit)) else a


def spacing(x):
    """The distance from x to the next number of its dtype away from 0, with x's sign."""
    x = _float_of(x)
    a = F.abs(x)
    return F.copysign(F.nextafter(a, math.inf) - a, x)


_POPCOUNT_MASKS = (0x5555555555555555, 0x3333333333333333, 0x0F0F0F0F0F0F0F0F, 0x0101010101010101)


def bitwise_count(x):
    """The number of 1 bits in |x| (uint8), as NumPy 2's bitwise_count."""
    x = asarray(x)
    if x.dtype.kind not in "biu":
        raise TypeError("bitwise_count: integer inputs only")
    v = (F.abs(x) if x.dtype.kind == "i" else x).astype(_dt.uint64)
    m1, m2, m4, h01 = (asarray(c, dtype=_dt.uint64) for c in _POPCOUNT_MASKS)
    v = v - ((v >> 1) & m1)
    v = (v & m2) + ((v >> 2) & m2)
    v = (v + (v >> 4)) & m4
    return ((v * h01) >> 56).astype(_dt.uint8)


def matvec(x1, x2):
    """Matrix-vector products over the last axes: (..., m, n) and (..., n) give (..., m)."""
    x1, x2 = asarray(x1), asarray(x2)
    if x1.ndim < 2 or x2.ndim < 1:
        raise ValueError("matvec: x1 needs 2 dimensions and x2 one at least")
    return F.matmul(x1, x2[..., None])[..., 0]


def vecmat(x1, x2):
    """Vector-matrix products over the last axes, x1 conjugated: (..., n) and (..., n, m) give
    (..., m)."""
    x1, x2 = asarray(x1), asarray(x2)
    if x1.ndim < 1 or x2.ndim < 2:
        raise ValueError("vecmat: x1 needs one dimension and x2 two at least")
    if x1.dtype.kind == "c":
        x1 = F.conj(x1)
    return F.matmul(x1[..., None, :], x2)[..., 0, :]


def unwrap(p, discont=None, axis=-1, *, period=2 * math.pi):
    """p with jumps between neighbours larger than discont (default period / 2) removed by
    adding multiples of period."""
    p = _float_of(p)
    dd = F.diff(p, axis=axis)
    half = period / 2
    discont = half if discont is None else builtins.max(discont, half)
    ddmod = F.remainder(dd + half, period) - half
    ddmod = F.where(F.logical_and(ddmod == -half, dd > 0), half, ddmod)
    correction = F.where(F.abs(dd) < discont, 0.0, ddmod - dd)
    first = [slice(None)] * p.ndim
    first[axis] = slice(0, 1)
    rest = [slice(None)] * p.ndim
    rest[axis] = slice(1, None)
    out = F.concat([p[tuple(first)], p[tuple(rest)] + F.cumulative_sum(correction, axis=axis)], axis=axis)
    return out.astype(p.dtype)


# Ember never warns about or raises on floating-point errors (division by zero, overflow,
# invalid operations give inf and NaN silently, as with NumPy's "ignore"); NumPy code that
# sets its error handling runs unchanged, and these only keep the settings it asked for.
_ERR_KINDS = ("divide", "over", "under", "invalid")
_ERR_MODES = ("ignore", "warn", "raise", "call", "print", "log")
_err_settings = dict.fromkeys(_ERR_KINDS, "ignore")


def geterr():
    return dict(_err_settings)


def seterr(all=None, divide=None, over=None, under=None, invalid=None):
    """Records NumPy-style error handling (Ember always ignores); returns the old settings."""
    old = geterr()
    asked = {"divide": divide, "over": over, "under": under, "invalid": invalid}
    for kind in _ERR_KINDS:
        mode = asked[kind] if asked[kind] is not None else all
        if mode is not None:
            if mode not in _ERR_MODES:
                raise ValueError(f"seterr: invalid mode {mode!r} for {kind}")
            _err_settings[kind] = mode
    return old


_err_call = [None]
_buffer_size = [8192]


def geterrcall():
    return _err_call[0]


def seterrcall(func):
    """Records the function NumPy would call for "call" errors (Ember never calls it);
    returns the old one."""
    if func is not None and not callable(func) and not callable(getattr(func, "write", None)):
        raise ValueError("seterrcall: only callable or objects with a write method can be used")
    old, _err_call[0] = _err_call[0], func
    return old


def getbufsize():
    return _buffer_size[0]


def setbufsize(size):
    """Records a ufunc buffer size, as NumPy (Ember's kernels need none); returns the old one."""
    size = builtins.int(size)
    if size < 0 or size > 10 ** 7:
        raise ValueError(f"setbufsize: buffer size {size} is out of range")
    old, _buffer_size[0] = _buffer_size[0], size
    return old


class errstate:
    """with em.errstate(divide="ignore"): ... as in NumPy (see seterr)."""

    def __init__(self, **kwargs):
        self._kwargs, self._old = kwargs, None

    def __enter__(self):
        self._old = seterr(**self._kwargs)
        return self

    def __exit__(self, *exc):
        _err_settings.clear()
        _err_settings.update(self._old)
        return False


def _bit_weights(bitorder, dtype):
    if bitorder not in ("big", "little"):
        raise ValueError("bitorder must be either 'big' or 'little'")
    w = [1 << k for k in range(8)]
    return asarray(w[::-1] if bitorder == "big" else w, dtype=dtype)


def packbits(a, axis=None, bitorder="big"):
    """The elements of a (nonzero: 1) packed 8 to a uint8 along axis (None: of the flattened
    a), the last byte padded with zeros."""
    a = asarray(a)
    if a.dtype.kind not in "biu":
        raise TypeError("packbits: expected an input array of integer or boolean data type")
    if axis is None:
        a, axis = F.reshape(a, (-1,)), 0
    axis %= a.ndim
    bits = F.moveaxis((a != 0).astype(_dt.uint8), axis, -1)
    n = bits.shape[-1]
    pad = -n % 8
    if pad:
        bits = F.concat([bits, zeros(bits.shape[:-1] + (pad,), dtype=_dt.uint8)], axis=-1)
    groups = F.reshape(bits, bits.shape[:-1] + ((n + pad) // 8, 8))
    packed = F.sum(groups * _bit_weights(bitorder, _dt.uint8), axis=-1, dtype=_dt.uint8)
    return F.moveaxis(packed, -1, axis)


def unpackbits(a, axis=None, count=None, bitorder="big"):
    """The bits of the uint8 array a, 8 per byte, along axis (None: of the flattened a);
    count keeps that many (negative: drops that many from the end; more: pads zeros)."""
    a = asarray(a)
    if a.dtype != _dt.uint8:
        raise TypeError("unpackbits: expected an input array of unsigned byte data type")
    if axis is None:
        a, axis = F.reshape(a, (-1,)), 0
    axis %= a.ndim
    moved = F.moveaxis(a, axis, -1)
    shifts = asarray([7 - k for k in range(8)] if bitorder == "big" else list(range(8)), dtype=_dt.uint8)
    _bit_weights(bitorder, _dt.uint8)  # checks bitorder
    bits = (moved[..., None] >> shifts) & asarray(1, dtype=_dt.uint8)
    bits = F.reshape(bits, moved.shape[:-1] + (moved.shape[-1] * 8,))
    if count is not None:
        n = bits.shape[-1]
        keep = count if count >= 0 else builtins.max(n + count, 0)
        if keep > n:
            bits = F.concat([bits, zeros(bits.shape[:-1] + (keep - n,), dtype=_dt.uint8)], axis=-1)
        else:
            bits = bits[..., :keep]
    return F.moveaxis(bits, -1, axis)
