"""Ember ML's random functions over the C ABI's counter-based generator (ember_random.h:
Philox 4x32-10, state in the context). The binding keeps one context per thread, so
set_seed seeds the calling thread's generator. A libember without that family falls back
to Python's `random` module on the host (seeded by set_seed as well).

Distribution parameters may be Arrays or array-likes (NumPy arrays, lists, tuples) as well
as numbers, as in NumPy's Generator: they broadcast against each other, and `shape=None`
gives their broadcast shape (NumPy's `size=None`); a given shape must be one they broadcast
to. Then the `ember_random_*_t` entry points run: each element is drawn exactly as with
scalar parameters equal to its own (a constant array gives the scalar result bit for bit),
and invalid parameters raise InvalidArgumentError naming the first offending element. The
result dtype (dtype=None) is the promoted float dtype of the Array / NumPy parameters (lists
and numbers have none: the default float); int64 for binomial and poisson."""
import math
import random as _pyrandom

from . import _ember_c as _c
from . import _dtypes as _dt
from ._array import Array, _wrap
from ._backend import on_device
from ._creation import asarray

_NATIVE = hasattr(_c, "ember_random_uniform")
_TENSOR_PARAMS = hasattr(_c, "ember_random_normal_t")
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
    if shape is None:
        return ()
    return (int(shape),) if isinstance(shape, int) else tuple(int(s) for s in shape)


def _is_tensor(v):
    """Parameters other than Python numbers take the tensor path."""
    return not isinstance(v, (bool, int, float))


def _typed(v):
    return isinstance(v, Array) or (not isinstance(v, (list, tuple, bool, int, float)) and hasattr(v, "dtype") and hasattr(v, "shape"))


def _tensor_call(name, params, shape, dtype, device, count=False):
    """Runs ember_random_<name>_t on params (Arrays or array-likes; shape None: broadcast)."""
    if not _TENSOR_PARAMS:
        raise NotImplementedError(f"{name} with array parameters needs libember's ember_random_{name}_t")
    with on_device(device):
        arrays = [p if isinstance(p, Array) else asarray(p) if _typed(p) else asarray(p, dtype=_dt.float64)
                  for p in params]
        if dtype is not None:
            code = _dt.as_dtype(dtype).code
        elif count:
            code = -1
        else:
            typed = [a.dtype for p, a in zip(params, arrays) if _typed(p)]
            d = typed[0] if typed else None
            for t in typed[1:]:
                d = _dt.result_type_pair(d, t)
            d = d if d is not None and d.kind == "f" else _dt.default_float()
            code = d.code
        fn = getattr(_c, f"ember_random_{name}_t")
        return _wrap(fn(*[a._h for a in arrays], None if shape is None else _shape(shape), code))


def _code(dtype):
    return -1 if dtype is None else _dt.as_dtype(dtype).code


def _host(values, shape, dtype, device, default=None):
    shape = _shape(shape)
    with on_device(device):
        a = asarray(values(math.prod(shape)), dtype=_dt.float64).reshape(shape)
    d = _dt.as_dtype(dtype) if dtype is not None else (default or _dt.default_float())
    return a if a.dtype == d else a.astype(d)


def random_uniform(shape=None, minval=0.0, maxval=1.0, dtype=None, device=None):
    if _is_tensor(minval) or _is_tensor(maxval):
        return _tensor_call("uniform", [minval, maxval], shape, dtype, device)
    if _NATIVE:
        with on_device(device):
            return _wrap(_c.ember_random_uniform(_shape(shape), float(minval), float(maxval), _code(dtype)))
    return _host(lambda n: [_rng.uniform(minval, maxval) for _ in range(n)], shape, dtype, device)


def random_normal(shape=None, mean=0.0, stddev=1.0, dtype=None, device=None):
    if _is_tensor(mean) or _is_tensor(stddev):
        return _tensor_call("normal", [mean, stddev], shape, dtype, device)
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


def random_exponential(shape=None, scale=1.0, dtype=None, device=None):
    """Exponential with mean `scale` (rate 1/scale; with an array scale, errors name the rate)."""
    if _is_tensor(scale):
        with on_device(device):
            sc = scale if isinstance(scale, Array) else asarray(scale) if _typed(scale) else asarray(scale, dtype=_dt.float64)
            if sc.dtype.kind != "f":
                sc = sc.astype(_dt.float64)
            rate = 1.0 / sc
        if dtype is None and not _typed(scale):
            dtype = _dt.default_float()
        return _tensor_call("exponential", [rate], shape, dtype, device)
    if _NATIVE:
        with on_device(device):
            return _wrap(_c.ember_random_exponential(_shape(shape), 1.0 / float(scale), _code(dtype)))
    return _host(lambda n: [_rng.expovariate(1.0 / scale) for _ in range(n)], shape, dtype, device)


def random_gamma(shape=None, alpha=1.0, beta=1.0, dtype=None, device=None):
    """Gamma with shape `alpha` and scale `beta` (numpy's gamma(shape, scale))."""
    if _is_tensor(alpha) or _is_tensor(beta):
        return _tensor_call("gamma", [alpha, beta], shape, dtype, device)
    if _NATIVE:
        with on_device(device):
            return _wrap(_c.ember_random_gamma(_shape(shape), float(alpha), float(beta), _code(dtype)))
    return _host(lambda n: [_rng.gammavariate(alpha, beta) for _ in range(n)], shape, dtype, device)


def random_beta(shape=None, a=1.0, b=1.0, dtype=None, device=None):
    if _is_tensor(a) or _is_tensor(b):
        return _tensor_call("beta", [a, b], shape, dtype, device)
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


def random_binomial(shape=None, n=1, p=0.5, dtype=None, device=None):
    if _is_tensor(n) or _is_tensor(p):
        return _tensor_call("binomial", [n, p], shape, dtype, device, count=True)
    if _NATIVE:
        with on_device(device):
            return _wrap(_c.ember_random_binomial(_shape(shape), int(n), float(p), _code(dtype)))
    return _host(lambda k: [float(sum(_rng.random() < p for _ in range(n))) for _ in range(k)], shape, dtype, device,
                 _dt.int64)


def random_poisson(shape=None, lam=1.0, dtype=None, device=None):
    if _is_tensor(lam):
        return _tensor_call("poisson", [lam], shape, dtype, device, count=True)
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

# NumPy's Generator interface and its module-level shortcuts (bindings/python/ember/_generator.py)
from ._generator import Generator, default_rng, choice, permutation, rand, randn, random  # noqa: E402,F401
