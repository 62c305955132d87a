"""NumPy's Generator interface (numpy.random.default_rng) over Ember's counter-based
generator. Each Generator owns a Philox state {key, counter} and swaps it into the calling
thread's context for the length of one draw (ember_random_get_state / set_state), so
generators, the module's set_seed stream and other threads never disturb one another, and
default_rng(seed) gives the same numbers on every backend (bit for bit for integers,
permutations and choices). The values differ from NumPy's own generator (another bit
generator); shapes, dtypes and errors follow NumPy, except that float results take the
default float (float32 unless changed) where NumPy gives float64, and size=None gives a 0-d
array where NumPy gives a Python scalar."""
import builtins
import math
import os

from . import _ember_c as _c
from . import _dtypes as _dt
from . import _functions as F
from ._array import Array
from ._creation import asarray

__all__ = ["Generator", "default_rng", "choice", "permutation", "rand", "randn", "random"]

_MASK64 = (1 << 64) - 1


def _random():
    from . import random as r  # the module that imports this one
    return r


def _size(size):
    return None if size is None else (int(size),) if isinstance(size, int) else tuple(int(s) for s in size)


def _choice(a, size, replace, p, axis, shuffle):
    """choice on the context's current stream."""
    r = _random()
    if isinstance(a, int):
        if a <= 0:
            raise ValueError("choice: a must be a positive integer unless no samples are taken")
        population, n = None, a
    else:
        population = asarray(a)
        if population.ndim == 0:
            raise ValueError("choice: a must be 1-dimensional or an integer")
        axis %= population.ndim
        n = population.shape[axis]
    shape = _size(size)
    k = 1 if shape is None else math.prod(shape)
    if n == 0 and k > 0:
        raise ValueError("choice: a cannot be empty unless no samples are taken")
    if p is not None:
        p = asarray(p, dtype=_dt.float64)
        if p.ndim != 1 or p.shape[0] != n:
            raise ValueError("choice: p must be 1-dimensional and as long as a")
        if builtins.bool(F.any(F.logical_or(p < 0, F.isnan(p)))):
            raise ValueError("choice: probabilities are not non-negative")
        if abs(float(F.sum(p)) - 1.0) > math.sqrt(2.220446049250313e-16):
            raise ValueError("choice: probabilities do not sum to 1")
    if k == 0:
        idx = asarray([], dtype=_dt.int64)
    elif replace and p is None:
        idx = r.randint(0, n, (k,))
    elif replace:
        cdf = F.cumulative_sum(p)
        u = r.random_uniform((k,), 0.0, float(cdf[n - 1]), dtype=_dt.float64)
        idx = F.minimum(F.searchsorted(cdf, u, side="right"), n - 1)
    elif p is None:
        if k > n:
            raise ValueError("choice: cannot take a larger sample than the population when replace=False")
        idx = r.random_permutation(n)[:k]
    else:
        if k > int(F.count_nonzero(p)):
            raise ValueError("choice: fewer non-zero entries in p than size")
        # Gumbel top-k: the k largest log p - log(-log u) are a weighted sample without replacement
        u = r.random_uniform((n,), 0.0, 1.0, dtype=_dt.float64)
        keys = F.log(p) - F.log(-F.log(F.maximum(u, 1e-300)))
        idx = F.argsort(keys, descending=True)[:k]
        if not shuffle:
            idx = F.sort(idx)
    idx = F.reshape(idx, () if shape is None else shape)
    if population is None:
        return idx
    return F.take(population, idx, axis=axis) if idx.ndim == 1 else _take_shaped(population, idx, axis)


def _take_shaped(x, idx, axis):
    """take with an index array of any shape: its shape replaces axis."""
    flat = F.take(x, F.reshape(idx, (-1,)), axis=axis)
    return F.reshape(flat, x.shape[:axis] + idx.shape + x.shape[axis + 1:])


def _permutation(x, axis=0):
    r = _random()
    if isinstance(x, int):
        return r.random_permutation(x)
    x = asarray(x)
    if x.ndim == 0:
        raise ValueError("permutation: x must be an integer or at least 1-dimensional")
    return r.shuffle(x, axis=axis)


class Generator:
    """A random number generator with its own stream (NumPy's Generator methods)."""

    def __init__(self, seed=None):
        if seed is None:
            seed = int.from_bytes(os.urandom(8), "little")
        if not isinstance(seed, int) or seed < 0:
            raise ValueError("default_rng: seed must be a non-negative integer or None")
        self._key, self._counter = seed & _MASK64, 0

    def _run(self, draw):
        saved, mine = _c.ember_random_state_t(), _c.ember_random_state_t()
        _c.ember_random_get_state(saved)
        mine.key, mine.counter = self._key, self._counter
        _c.ember_random_set_state(mine)
        try:
            return draw()
        finally:
            _c.ember_random_get_state(mine)
            self._counter = mine.counter
            _c.ember_random_set_state(saved)

    def __repr__(self):
        return f"Generator(Philox key={self._key:#x}, counter={self._counter})"

    def random(self, size=None, dtype=None):
        return self._run(lambda: _random().random_uniform(_size(size), 0.0, 1.0, dtype=dtype))

    def uniform(self, low=0.0, high=1.0, size=None, dtype=None):
        return self._run(lambda: _random().random_uniform(_size(size), low, high, dtype=dtype))

    def normal(self, loc=0.0, scale=1.0, size=None, dtype=None):
        return self._run(lambda: _random().random_normal(_size(size), loc, scale, dtype=dtype))

    def standard_normal(self, size=None, dtype=None):
        return self.normal(0.0, 1.0, size, dtype)

    def exponential(self, scale=1.0, size=None, dtype=None):
        return self._run(lambda: _random().random_exponential(_size(size), scale, dtype=dtype))

    def standard_exponential(self, size=None, dtype=None):
        return self.exponential(1.0, size, dtype)

    def gamma(self, shape, scale=1.0, size=None, dtype=None):
        return self._run(lambda: _random().random_gamma(_size(size), shape, scale, dtype=dtype))

    def beta(self, a, b, size=None, dtype=None):
        return self._run(lambda: _random().random_beta(_size(size), a, b, dtype=dtype))

    def binomial(self, n, p, size=None):
        return self._run(lambda: _random().random_binomial(_size(size), n, p))

    def poisson(self, lam=1.0, size=None):
        return self._run(lambda: _random().random_poisson(_size(size), lam))

    def integers(self, low, high=None, size=None, dtype=_dt.int64, endpoint=False):
        """Integers in [low, high) ([low, high] with endpoint=True); high None: [0, low)."""
        if high is None:
            low, high = 0, low
        high = int(high) + (1 if endpoint else 0)
        if int(low) >= high:
            raise ValueError("integers: low >= high" if not endpoint else "integers: low > high")
        shape = _size(size)
        r = self._run(lambda: _random().randint(int(low), high, shape if shape is not None else (), dtype=dtype))
        return r

    def choice(self, a, size=None, replace=True, p=None, axis=0, shuffle=True):
        """Samples of a (an int n: of arange(n)) along axis, uniform or weighted by p, with or
        without replacement."""
        return self._run(lambda: _choice(a, size, replace, p, axis, shuffle))

    def permutation(self, x, axis=0):
        """A permuted copy of x along axis (an int n: a permutation of arange(n))."""
        return self._run(lambda: _permutation(x, axis))

    def shuffle(self, x, axis=0):
        """Permutes x along axis in place."""
        if not isinstance(x, Array):
            raise TypeError("shuffle: x must be an ember array (it is shuffled in place)")
        x[...] = self.permutation(x, axis)


def default_rng(seed=None):
    """A Generator seeded with seed (None: from the operating system); a Generator passes
    through unchanged."""
    return seed if isinstance(seed, Generator) else Generator(seed)


def choice(a, size=None, replace=True, p=None):
    """choice on the module's stream (set_seed)."""
    return _choice(a, size, replace, p, 0, True)


def permutation(x):
    return _permutation(x)


def rand(*shape):
    """Uniform [0, 1) of the given shape, on the module's stream."""
    return _random().random_uniform(tuple(int(s) for s in shape), 0.0, 1.0)


def randn(*shape):
    return _random().random_normal(tuple(int(s) for s in shape), 0.0, 1.0)


def random(size=None):
    return _random().random_uniform(_size(size), 0.0, 1.0)
