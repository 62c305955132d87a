"""More of NumPy's names for computing: einsum, convolve/correlate, fix/modf/frexp/ldexp/
fabs, gcd/lcm, spacing, bitwise_count, packbits/unpackbits, matvec/vecmat, unwrap,
real_if_close and the floating-point error settings (the statistics are in
_numpy_stats.py). Composites of the namespace's functions (no kernel of their own), checked
against NumPy by tests/python/test_numpy_math.py on every backend."""
import builtins
import math

from . import _dtypes as _dt
from . import _functions as F
from . import fft as _fft
from ._backend import on_device
from ._creation import asarray, zeros

__all__ = [
    "einsum", "einsum_path", "convolve", "correlate", "fix", "modf", "frexp", "ldexp", "fabs", "gcd", "lcm", "real_if_close",
    "matvec", "vecmat", "unwrap", "spacing", "bitwise_count", "seterr", "geterr", "errstate", "packbits",
    "unpackbits",
]


# ---------------------------------------------------------------- einsum


def _einsum_terms(subscripts, operands):
    """Input terms with '...' spelt out as letters of their own (right-aligned, as
    broadcasting aligns them) and the output term (NumPy's implicit one without '->')."""
    s = subscripts.replace(" ", "")
    ins, out = s.split("->") if "->" in s else (s, None)
    terms = ins.split(",")
    if len(terms) != len(operands):
        raise ValueError(f"einsum: {len(terms)} operand terms in {subscripts!r} for {len(operands)} operands")
    used = set(c for c in s if c.isalpha())
    spare = [c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz" if c not in used]
    named = []
    for t, x in zip(terms, operands):
        bare = t.replace("...", "")
        if any(not c.isalpha() for c in bare) or t.count("...") > 1:
            raise ValueError(f"einsum: invalid subscript term {t!r}")
        named.append(len(bare))
        if "..." not in t and len(t) != x.ndim:
            raise ValueError(f"einsum: term {t!r} has {len(t)} subscripts for an operand of {x.ndim} dimensions")
    ell = builtins.max([x.ndim - n for t, x, n in zip(terms, operands, named) if "..." in t] or [0])
    if ell > len(spare):
        raise ValueError("einsum: too many broadcast dimensions")
    ell_letters = "".join(spare[:ell])
    full = []
    for t, x, n in zip(terms, operands, named):
        if "..." in t:
            k = x.ndim - n
            if k < 0:
                raise ValueError(f"einsum: term {t!r} has more subscripts than its operand has dimensions")
            t = t.replace("...", ell_letters[ell - k:])
        full.append(t)
    if out is None:
        letters = "".join(full)
        out = ell_letters + "".join(sorted(c for c in set(letters) if letters.count(c) == 1 and c not in ell_letters))
    else:
        if out.count("...") > 1 or any(not c.isalpha() for c in out.replace("...", "")):
            raise ValueError(f"einsum: invalid output subscripts {out!r}")
        out = out.replace("...", ell_letters)
        if len(set(out)) != len(out):
            raise ValueError(f"einsum: output subscripts {out!r} repeat a letter")
        for c in out:
            if not any(c in t for t in full):
                raise ValueError(f"einsum: output subscript {c!r} appears in no input")
    return full, out


def _einsum_diagonal(x, term):
    """Repeated letters of one term become one axis (the diagonal)."""
    while True:
        dup = next((c for c in term if term.count(c) > 1), None)
        if dup is None:
            return x, term
        i = term.index(dup)
        j = term.index(dup, i + 1)
        if x.shape[i] != x.shape[j]:
            raise ValueError(f"einsum: dimensions of repeated subscript {dup!r} differ ({x.shape[i]} and {x.shape[j]})")
        rest = [k for k in range(x.ndim) if k not in (i, j)]
        x = F.diagonal(F.permute_dims(x, tuple(rest + [i, j])))
        term = "".join(term[k] for k in rest) + dup


def _einsum_sum(x, term, keep):
    axes = tuple(k for k, c in enumerate(term) if c not in keep)
    if not axes:
        return x, term
    return F.sum(x, axis=axes, dtype=x.dtype), "".join(c for c in term if c in keep)


def _einsum_pair(a, ta, b, tb, keep, sizes):
    """The product of a and b summed over their shared letters that keep lacks, as one
    (batched) matmul: a as (batch, left, shared), b as (batch, shared, right)."""
    a, ta = _einsum_sum(a, ta, set(keep) | set(tb))
    b, tb = _einsum_sum(b, tb, set(keep) | set(ta))
    batch = [c for c in ta if c in tb and c in keep]
    shared = [c for c in ta if c in tb and c not in keep]
    left = [c for c in ta if c not in tb]
    right = [c for c in tb if c not in ta]
    a = F.permute_dims(a, tuple(ta.index(c) for c in batch + left + shared))
    b = F.permute_dims(b, tuple(tb.index(c) for c in batch + shared + right))
    a = F.broadcast_to(a, tuple(sizes[c] for c in batch + left + shared))
    b = F.broadcast_to(b, tuple(sizes[c] for c in batch + shared + right))
    nb, nl, ns, nr = (math.prod(sizes[c] for c in g) for g in (batch, left, shared, right))
    r = F.matmul(F.reshape(a, (nb, nl, ns)), F.reshape(b, (nb, ns, nr)))
    return F.reshape(r, tuple(sizes[c] for c in batch + left + right)), "".join(batch + left + right)


def _einsum_prepare(subscripts, operands, dtype):
    if not isinstance(subscripts, str):
        raise NotImplementedError("einsum: only the subscripts-string form")
    if not operands:
        raise ValueError("einsum: no operands")
    ops = [asarray(x) for x in operands]
    if dtype is not None:
        ops = [x.astype(dtype) for x in ops]
    else:
        common = _dt.result_type(*ops)
        ops = [x if x.dtype == common else x.astype(common) for x in ops]
    terms, out = _einsum_terms(subscripts, ops)
    sizes = {}
    for t, x in zip(terms, ops):
        for c, n in zip(t, x.shape):
            if sizes.get(c, 1) != 1 and n != 1 and sizes[c] != n:
                raise ValueError(f"einsum: subscript {c!r} has sizes {sizes[c]} and {n}")
            sizes[c] = n if sizes.get(c, 1) == 1 else sizes[c]
    return ops, terms, out, sizes


def _einsum_step(terms, i, j, out):
    """The letters the contraction of terms i and j keeps (those another term or the output
    needs), and every letter it loops over."""
    others = set(out).union(*[set(t) for k, t in enumerate(terms) if k not in (i, j)])
    both = set(terms[i]) | set(terms[j])
    return both & others, both


def _einsum_path(terms, out, sizes, optimize):
    """Pairs of positions in the operand list, NumPy's path form: each pair leaves the list
    and its product joins the end. optimize=False: from the left; True, 'greedy' or
    'optimal': greedily the pair whose product is smallest against its two operands (pairs
    that share a letter first, then the fewer multiply-adds); a list ['einsum_path', (i, j), ...]: that path."""
    n = len(terms)
    if isinstance(optimize, (list, tuple)):
        if not optimize or optimize[0] != "einsum_path":
            raise TypeError("einsum: a path must be a list that starts with 'einsum_path'")
        path, left = [], n
        for p in optimize[1:]:
            p = tuple(builtins.int(k) for k in p)
            if len(p) == 1 and left == 1:
                continue
            if len(p) != 2 or len(set(p)) != 2 or not all(0 <= k < left for k in p):
                raise ValueError(f"einsum: the path step {p} does not name two of the {left} operands left")
            path.append(p)
            left -= 1
        return path + [(0, 1)] * (left - 1)
    if optimize not in (False, None, True, "greedy", "optimal"):
        raise ValueError(f"einsum: optimize must be a bool, 'greedy', 'optimal' or a path, not {optimize!r}")
    if optimize is False or optimize is None or n <= 2:
        return [(0, 1)] * (n - 1) if n <= 2 else [(0, 1)] + [(0, n - 2 - k) for k in range(n - 2)]
    terms, path = list(terms), []
    size = lambda letters: math.prod(sizes[c] for c in letters)  # noqa: E731
    while len(terms) > 1:
        best = None
        for i in range(len(terms)):
            for j in range(i + 1, len(terms)):
                kept, looped = _einsum_step(terms, i, j, out)
                key = (not set(terms[i]) & set(terms[j]), size(kept) - size(terms[i]) - size(terms[j]), size(looped),
                       i, j)
                if best is None or key < best[0]:
                    best = (key, i, j, kept)
        _, i, j, kept = best
        path.append((i, j))
        terms = [t for k, t in enumerate(terms) if k not in (i, j)] + ["".join(sorted(kept))]
    return path


def _einsum_run(ops, terms, out, sizes, path):
    pairs = [_einsum_diagonal(x, t) for x, t in zip(ops, terms)]
    for i, j in path:
        keep, _ = _einsum_step([t for _, t in pairs], i, j, out)
        a, b = pairs[i], pairs[j]
        pairs = [p for k, p in enumerate(pairs) if k not in (i, j)]
        pairs.append(_einsum_pair(a[0], a[1], b[0], b[1], keep, sizes))
    x, t = pairs[0]
    x, t = _einsum_sum(x, t, set(out))
    x = F.broadcast_to(x, tuple(sizes[c] for c in t))
    return F.permute_dims(x, tuple(t.index(c) for c in out)) if t != out else x


def einsum(subscripts, *operands, dtype=None, optimize=False):
    """Einstein summation in NumPy's notation ('ij,jk->ik', 'ii->i', '...ij,...jk', implicit
    outputs): repeated letters of one operand take its diagonal, letters no later term or the
    output needs are summed, and each pair of operands multiplies as one batched matmul. The
    pairs go from the left (optimize=False), in the greedy order einsum_path finds
    (optimize=True, 'greedy', 'optimal'), or along a path einsum_path returned."""
    ops, terms, out, sizes = _einsum_prepare(subscripts, operands, dtype)
    return _einsum_run(ops, terms, out, sizes, _einsum_path(terms, out, sizes, optimize))


def einsum_path(subscripts, *operands, optimize="greedy", einsum_call=False):
    """The order einsum(..., optimize=...) contracts the operands in, as NumPy's einsum_path
    gives it: (['einsum_path', (i, j), ...], a report of the naive and planned costs)."""
    if optimize is False:
        optimize = "greedy"  # NumPy's einsum_path plans even then
    ops, terms, out, sizes = _einsum_prepare(subscripts, operands, None)
    path = _einsum_path(terms, out, sizes, optimize)
    size = lambda letters: math.prod(sizes[c] for c in letters)  # noqa: E731
    letters = set("".join(terms))
    naive = size(letters) * builtins.max(len(terms) - 1, 1) * (2 if letters - set(out) else 1)
    planned, largest, lines, current = 0, 0, [], list(terms)
    for i, j in path:
        kept, looped = _einsum_step(current, i, j, out)
        planned += size(looped) * (2 if looped - kept else 1)
        largest = builtins.max(largest, size(kept))
        step = f"{current[i]},{current[j]}->{''.join(sorted(kept))}"
        current = [t for k, t in enumerate(current) if k not in (i, j)] + ["".join(sorted(kept))]
        lines.append(f"{len(looped):>4}    {step:<24}{','.join(current)}->{out}")
    planned = builtins.max(planned, 1)
    report = "\n".join([
        f"  Complete contraction:  {','.join(terms)}->{out}",
        f"         Naive scaling:  {len(letters)}",
        f"     Optimized scaling:  {builtins.max([int(l.split()[0]) for l in lines] or [len(letters)])}",
        f"      Naive FLOP count:  {naive:.3e}",
        f"  Optimized FLOP count:  {planned:.3e}",
        f"   Theoretical speedup:  {naive / planned:.3f}",
        f"  Largest intermediate:  {largest:.3e} elements",
        "-" * 74,
        "scaling  current                 remaining",
        "-" * 74] + lines)
    return ["einsum_path"] + path, report


# ---------------------------------------------------------------- convolution


def _full_convolution(a, v):
    """Full discrete convolution of 1-d a and v (len(v) <= len(a)): len(v) shifted
    multiply-adds for short kernels, an FFT product for long ones (rounded for integers)."""
    n, m = a.shape[0], v.shape[0]
    size = n + m - 1
    if m <= 64:
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
