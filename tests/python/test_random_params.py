"""ember.random with array parameters (NumPy's Generator semantics): broadcasting, shape=None,
dtypes, equality with the scalar path, moments compared with NumPy's generator and with the
exact laws (|z| < 5 per check, about 6e-7 false-failure rate each; fixed seeds), errors.
Runs on every backend."""
import numpy as np
import pytest

import ember as em
from ember import random as er

N = 20000


def z_ok(sample, mean, var, kurt):
    """Sample mean and variance z-scores below 5 (Var(s^2) ~ var^2 (kurt + 2) / n)."""
    n = len(sample)
    m, s = float(np.mean(sample)), float(np.var(sample, ddof=1))
    assert abs(m - mean) / np.sqrt(var / n) < 5, (m, mean)
    if var > 0:
        assert abs(s - var) / (var * np.sqrt((kurt + 2) / n)) < 5, (s, var)


CALLS = {
    "uniform": lambda a, b, **k: er.random_uniform(minval=a, maxval=b, **k),
    "normal": lambda a, b, **k: er.random_normal(mean=a, stddev=b, **k),
    "gamma": lambda a, b, **k: er.random_gamma(alpha=a, beta=b, **k),
    "beta": lambda a, b, **k: er.random_beta(a=a, b=b, **k),
    "binomial": lambda a, b, **k: er.random_binomial(n=a, p=b, **k),
}
PARAMS = {"uniform": ([[-3.0], [-2.0], [-1.0]], [0.0, 0.5, 1.0, 2.0]), "normal": ([[0.0], [1.0], [2.0]], [0.5, 1.0, 2.0, 3.0]),
          "gamma": ([[0.3], [1.0], [6.0]], [0.5, 1.0, 2.0, 3.0]), "beta": ([[0.3], [1.0], [6.0]], [0.5, 1.0, 2.0, 3.0]),
          "binomial": ([[0], [7], [300]], [0.0, 0.2, 0.7, 1.0])}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_broadcast_shapes(backend, name):
    a, b = PARAMS[name]
    fn = CALLS[name]
    assert fn(np.array(a), np.array(b)).shape == (3, 4)           # size=None: broadcast shape
    assert fn(a, b, shape=(2, 3, 4)).shape == (2, 3, 4)
    assert fn(em.asarray(np.array(a)), b, shape=(5, 3, 4)).shape == (5, 3, 4)
    assert fn(np.array(a)[0, 0], b).shape == (4,)                  # numpy 0-d scalar + list
    with pytest.raises(em.ShapeError):
        fn(a, b, shape=(4,))
    with pytest.raises(em.ShapeError):
        fn(np.ravel(a), [0.5, 0.5], shape=None)
    e = fn(np.zeros((0,)) + np.array(a).flat[-1], b[:1])
    assert e.shape == (0,)


def test_dtypes(backend):
    x64 = np.array([1.0, 2.0])
    assert er.random_normal(mean=x64).dtype == em.float64              # NumPy arrays keep float64
    assert er.random_normal(mean=x64.astype(np.float32)).dtype == em.float32
    assert er.random_normal(mean=x64.astype(np.float32), stddev=x64).dtype == em.float64
    assert er.random_normal(mean=[0.0, 1.0]).dtype == em.float32        # lists: the default float
    assert er.random_gamma(alpha=[1.0, 2.0], dtype=em.float64).dtype == em.float64
    assert er.random_exponential(scale=x64).dtype == em.float64
    assert er.random_exponential(scale=[1, 2]).dtype == em.float32
    assert er.random_poisson(lam=x64).dtype == em.int64
    assert er.random_binomial(n=np.array([3, 4]), p=0.5, dtype=em.int32).dtype == em.int32
    assert er.random_uniform(minval=np.array(0.0), maxval=1.0).shape == ()


def test_constant_arrays_equal_the_scalar_path(backend):
    def same(scalar, array):
        er.set_seed(99)
        x = np.asarray(scalar())
        er.set_seed(99)
        y = np.asarray(array())
        assert x.dtype == y.dtype and x.shape == y.shape
        np.testing.assert_array_equal(x, y)
    for dt in (em.float64, em.float32):
        same(lambda: er.random_normal((3, 4), 0.5, 2.0, dtype=dt), lambda: er.random_normal((3, 4), [0.5] * 4, np.full((3, 1), 2.0), dtype=dt))
        same(lambda: er.random_uniform((3, 4), -1.0, 2.5, dtype=dt), lambda: er.random_uniform(None, np.full((3, 4), -1.0), 2.5, dtype=dt))
        same(lambda: er.random_exponential((3, 4), 0.5, dtype=dt), lambda: er.random_exponential((3, 4), [0.5], dtype=dt))
        same(lambda: er.random_gamma((3, 4), 0.7, 2.0, dtype=dt), lambda: er.random_gamma((3, 4), np.full(4, 0.7), 2.0, dtype=dt))
        same(lambda: er.random_beta((3, 4), 0.7, 2.0, dtype=dt), lambda: er.random_beta((3, 4), 0.7, [2.0], dtype=dt))
    same(lambda: er.random_binomial((3, 4), 50, 0.3), lambda: er.random_binomial((3, 4), np.full((3, 1), 50), 0.3))
    same(lambda: er.random_poisson((3, 4), 45.0), lambda: er.random_poisson(None, np.full((3, 4), 45.0)))


def test_moments_match_numpy(backend):
    er.set_seed(2024)
    g = np.random.default_rng(2024)
    # gamma(alpha_j, scale_j): columns of an (N, 3) draw
    al, sc = np.array([0.4, 2.0, 9.0]), np.array([2.0, 0.5, 1.0])
    x = np.asarray(er.random_gamma((N, 3), al, sc))
    ref = g.gamma(al, sc, size=(N, 3))
    assert x.dtype == np.float64
    for j in range(3):
        z_ok(x[:, j], al[j] * sc[j], al[j] * sc[j] ** 2, 6 / al[j])
        assert abs(x[:, j].mean() - ref[:, j].mean()) < 6 * np.sqrt(2 * al[j] * sc[j] ** 2 / N)
    # normal(loc (3, 1), scale (3, 1)) over shape (3, N)
    loc, scale = np.array([[-4.0], [0.0], [10.0]]), np.array([[0.5], [1.0], [3.0]])
    x = np.asarray(er.random_normal((3, N), loc, scale))
    ref = g.normal(loc, scale, size=(3, N))
    for j in range(3):
        z_ok(x[j], loc[j, 0], scale[j, 0] ** 2, 0)
        assert abs(x[j].std() - ref[j].std()) < 6 * scale[j, 0] * np.sqrt(1 / N)
    # binomial(n_j, p_j) in the three regimes; poisson(lam_j) in both
    n, p = np.array([12, 500, 80]), np.array([0.3, 0.4, 0.9])
    x = np.asarray(er.random_binomial((N, 3), n, p))
    ref = g.binomial(n, p, size=(N, 3))
    assert x.dtype == np.int64
    for j in range(3):
        v = n[j] * p[j] * (1 - p[j])
        z_ok(x[:, j], n[j] * p[j], v, (1 - 6 * p[j] * (1 - p[j])) / v)
        assert abs(x[:, j].mean() - ref[:, j].mean()) < 6 * np.sqrt(2 * v / N)
    lam = np.array([0.5, 4.0, 30.0, 2000.0])
    x = np.asarray(er.random_poisson(None, np.broadcast_to(lam, (N, 4))))
    for j in range(4):
        z_ok(x[:, j], lam[j], lam[j], 1 / lam[j])
    # beta, uniform, exponential
    a, b = np.array([0.5, 2.0]), np.array([0.5, 5.0])
    x = np.asarray(er.random_beta((N, 2), a, b))
    for j in range(2):
        m = a[j] / (a[j] + b[j])
        z_ok(x[:, j], m, a[j] * b[j] / ((a[j] + b[j]) ** 2 * (a[j] + b[j] + 1)), 3)
    lo, hi = np.array([-1.0, 100.0]), np.array([1.0, 300.0])
    x = np.asarray(er.random_uniform((N, 2), lo, hi))
    for j in range(2):
        assert (x[:, j] >= lo[j]).all() and (x[:, j] < hi[j]).all()
        z_ok(x[:, j], (lo[j] + hi[j]) / 2, (hi[j] - lo[j]) ** 2 / 12, -1.2)
    s = np.array([0.1, 10.0])
    x = np.asarray(er.random_exponential((N, 2), s))
    for j in range(2):
        z_ok(x[:, j], s[j], s[j] ** 2, 6)


def test_errors_name_the_offending_element(backend):
    er.set_seed(1)
    with pytest.raises(em.InvalidArgumentError, match=r"ember_random_gamma_t: alpha .*alpha\[1\] is -1"):
        er.random_gamma(None, [1.0, -1.0, 2.0])
    with pytest.raises(em.InvalidArgumentError, match=r"p\[0, 1\] is 1.5"):
        er.random_binomial(None, 5, np.array([[0.5, 1.5]]))
    with pytest.raises(em.InvalidArgumentError, match=r"n\[2\] is 2.5"):
        er.random_binomial(None, [1, 2, 2.5], 0.5)
    with pytest.raises(em.InvalidArgumentError, match=r"lam\[0\] is nan"):
        er.random_poisson(None, [float("nan")])
    with pytest.raises(em.InvalidArgumentError, match=r"std\[1\] is -2"):
        er.random_normal(None, 0.0, [1.0, -2.0])
    with pytest.raises(em.InvalidArgumentError, match=r"low < high"):
        er.random_uniform(None, [0.0, 2.0], 1.0)
    with pytest.raises(ValueError):
        er.random_exponential(None, [1.0, 0.0])
    with pytest.raises(em.InvalidArgumentError, match=r"b\[0\] is inf"):
        er.random_beta(None, 1.0, [np.inf])
