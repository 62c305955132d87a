"""Ember ML's random functions over the C ABI's counter-based generator (ember_random.h:
Philox 4x32-10, state in the context). The binding keeps one context per thread, so
set_seed seeds the calling thread's generator. A libember without that family falls back
to Python's `random` module on the host (seeded by set_seed as well)."""
import math
import random as _pyrandom

from . import _ember_c as _c
from . import _dtypes as _dt
from ._array import Array, _wrap
from ._backend import on_device
from ._creation import asarray

_NATIVE = hasattr(_c, "ember_random_uniform")
_rng = _pyrandom.Random()
_seed = None


def set_seed(seed):
    """Seeds the calling thread's generator (reproducible streams)."""
    global _seed
    _seed = int(seed)
    if _NATIVE:
        _c.ember_random_seed(_seed & ((1 << 64) - 1))
    _rng.seed(_seed)


def get_seed():
    return _seed


def _shape(shape):
    return (int(shape),) if isinstance(shape, int) else tuple(int(s) for s in shape)


def _code(dtype):
    return -1 if dtype is None else _dt.as_dtype(dtype).code


def _host(values, shape, dtype, device, default=None):
    shape = _shape(shape)
    with on_device(device):
        a = asarray(values(math.prod(shape)), dtype=_dt.float64).reshape(shape)
    d = _dt.as_dtype(dtype) if dtype is not None else (default or _dt.default_float())
    return a if a.dtype == d else a.astype(d)


def random_uniform(shape, minval=0.0, maxval=1.0, dtype=None, device=None):
    if _NATIVE:
        with on_device(device):
            return _wrap(_c.ember_random_uniform(_shape(shape), float(minval), float(maxval), _code(dtype)))
    return _host(lambda n: [_rng.uniform(minval, maxval) for _ in range(n)], shape, dtype, device)


def random_normal(shape, mean=0.0, stddev=1.0, dtype=None, device=None):
    if _NATIVE:
        with on_device(device):
            return _wrap(_c.ember_random_normal(_shape(shape), float(mean), float(stddev), _code(dtype)))
    return _host(lambda n: [_rng.gauss(mean, stddev) for _ in range(n)], shape, dtype, device)


def truncated_normal(shape, mean=0.0, stddev=1.0, lo=-2.0, hi=2.0, dtype=None, device=None):
    if not _NATIVE:
        raise NotImplementedError("truncated_normal needs libember's random family")
    with on_device(device):
        return _wrap(_c.ember_random_truncated_normal(_shape(shape), float(mean), float(stddev), float(lo), float(hi),
                                                      _code(dtype)))


def random_exponential(shape, scale=1.0, dtype=None, device=None):
    if _NATIVE:
        with on_device(device):
            return _wrap(_c.ember_random_exponential(_shape(shape), 1.0 / float(scale), _code(dtype)))
    return _host(lambda n: [_rng.expovariate(1.0 / scale) for _ in range(n)], shape, dtype, device)


def random_gamma(shape, alpha=1.0, beta=1.0, dtype=None, device=None):
    if _NATIVE:
        with on_device(device):
            return _wrap(_c.ember_random_gamma(_shape(shape), float(alpha), float(beta), _code(dtype)))
    return _host(lambda n: [_rng.gammavariate(alpha, beta) for _ in range(n)], shape, dtype, device)


def random_beta(shape, a=1.0, b=1.0, dtype=None, device=None):
    if _NATIVE:
        with on_device(device):
            return _wrap(_c.ember_random_beta(_shape(shape), float(a), float(b), _code(dtype)))
    return _host(lambda n: [_rng.betavariate(a, b) for _ in range(n)], shape, dtype, device)


def random_bernoulli(shape, p=0.5, dtype=None, device=None):
    if _NATIVE:
        with on_device(device):
            pt = p if isinstance(p, Array) else asarray(float(p), dtype=_dt.float64)
            r = _wrap(_c.ember_random_bernoulli(pt._h, _shape(shape)))
        return r if dtype is None else r.astype(dtype)
    return _host(lambda n: [1.0 if _rng.random() < p else 0.0 for _ in range(n)], shape, dtype, device)


def random_binomial(shape, n=1, p=0.5, dtype=None, device=None):
    if _NATIVE:
        with on_device(device):
            return _wrap(_c.ember_random_binomial(_shape(shape), int(n), float(p), _code(dtype)))
    return _host(lambda k: [float(sum(_rng.random() < p for _ in range(n))) for _ in range(k)], shape, dtype, device,
                 _dt.int64)


def random_poisson(shape, lam=1.0, dtype=None, device=None):
    if _NATIVE:
        with on_device(device):
            return _wrap(_c.ember_random_poisson(_shape(shape), float(lam), _code(dtype)))

    def draw(n):
        out, L = [], math.exp(-lam)
        for _ in range(n):
            k, prod = 0, _rng.random()
            while prod > L:
                k += 1
                prod *= _rng.random()
            out.append(float(k))
        return out
    return _host(draw, shape, dtype, device, _dt.int64)


def randint(low, high, shape, dtype=None, device=None):
    if _NATIVE:
        with on_device(device):
            return _wrap(_c.ember_random_randint(int(low), int(high), _shape(shape), _code(dtype)))
    return _host(lambda n: [float(_rng.randrange(low, high)) for _ in range(n)], shape, dtype, device, _dt.int64)


def random_permutation(n, device=None):
    if _NATIVE:
        with on_device(device):
            return _wrap(_c.ember_random_permutation(int(n)))
    idx = list(range(n))
    _rng.shuffle(idx)
    return asarray(idx, dtype=_dt.int64, device=device)


def shuffle(x, axis=0):
    if _NATIVE:
        return _wrap(_c.ember_random_shuffle(x._h, int(axis)))
    from ._functions import take
    return take(x, random_permutation(x.shape[axis], device=x.device), axis=axis)


def random_categorical(logits, num_samples, from_logits=True, device=None):
    if _NATIVE:
        return _wrap(_c.ember_random_categorical(logits._h, int(num_samples), 1 if from_logits else 0))
    from ._functions import softmax
    p = (softmax(logits, axis=-1) if from_logits else logits).tolist()
    rows = p if isinstance(p[0], list) else [p]
    out = [[_rng.choices(range(len(r)), weights=r)[0] for _ in range(num_samples)] for r in rows]
    return asarray(out if isinstance(p[0], list) else out[0], dtype=_dt.int64, device=device)


uniform = random_uniform
normal = random_normal
bernoulli = random_bernoulli
