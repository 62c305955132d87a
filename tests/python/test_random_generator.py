"""em.random.default_rng: NumPy's Generator interface over Ember's Philox streams."""
import numpy as np
import pytest

import ember as em


def test_a_seed_gives_one_stream_that_nothing_else_disturbs(backend):
    a, b = em.random.default_rng(7), em.random.default_rng(7)
    first = a.random(5).numpy()
    em.random.set_seed(1)
    em.random.random_uniform((100,))  # the module's stream moves; b's must not
    other = em.random.default_rng(8).random(5).numpy()
    assert np.array_equal(b.random(5).numpy(), first)
    assert not np.array_equal(other, first)
    assert not np.array_equal(a.random(5).numpy(), first)  # a moved on
    em.random.set_seed(3)
    want = em.random.random_uniform((4,)).numpy()
    em.random.set_seed(3)
    em.random.default_rng(9).normal(size=1000)  # a generator's draws leave the module's stream alone
    assert np.array_equal(em.random.random_uniform((4,)).numpy(), want)
    assert em.random.default_rng(a) is a


def test_integers_permutations_and_choices_are_the_same_on_every_backend():
    draws = {}
    for name in em.backends():
        with em.using_backend(name):
            g = em.random.default_rng(2026)
            draws[name] = [g.integers(0, 1000, size=50).numpy(), g.permutation(30).numpy(),
                           g.choice(100, 20, replace=False).numpy(), g.choice(4, 50, p=[0.1, 0.2, 0.3, 0.4]).numpy()]
    ref = draws["reference"]
    for name, d in draws.items():
        for got, want in zip(d, ref):
            np.testing.assert_array_equal(got, want, err_msg=name)


def test_distributions_shapes_and_dtypes(backend):
    g = em.random.default_rng(11)
    u = g.random(200000, dtype=em.float64).numpy()
    assert u.dtype == np.float64 and 0 <= u.min() and u.max() < 1 and abs(u.mean() - 0.5) < 0.005
    n = g.normal(2.0, 3.0, size=(400, 500)).numpy()
    assert n.shape == (400, 500) and abs(n.mean() - 2.0) < 0.03 and abs(n.std() - 3.0) < 0.03
    k = g.integers(1, 6, size=60000, endpoint=True).numpy()
    assert k.dtype == np.int64 and k.min() == 1 and k.max() == 6
    assert np.allclose(np.bincount(k)[1:] / k.size, 1 / 6, atol=0.01)
    assert g.integers(5).shape == () and g.random().shape == () and g.choice(5).shape == ()
    assert g.integers(3, size=(2, 3), dtype=em.int32).dtype == em.int32
    assert g.uniform(-2.0, -1.0, size=100).numpy().max() < -1.0
    assert abs(g.exponential(2.0, size=100000).numpy().mean() - 2.0) < 0.05
    assert abs(g.gamma(3.0, 2.0, size=100000).numpy().mean() - 6.0) < 0.1
    assert abs(g.poisson(4.0, size=100000).numpy().mean() - 4.0) < 0.05
    assert abs(g.binomial(10, 0.3, size=100000).numpy().mean() - 3.0) < 0.05
    assert abs(g.beta(2.0, 6.0, size=100000).numpy().mean() - 0.25) < 0.01


def test_choice_and_permutation(backend):
    g = em.random.default_rng(5)
    sample = g.choice(50, 50, replace=False).numpy()
    assert sorted(sample.tolist()) == list(range(50))
    w = g.choice(4, 40000, p=[0.1, 0.0, 0.3, 0.6]).numpy()
    freq = np.bincount(w, minlength=4) / w.size
    assert freq[1] == 0 and np.allclose(freq, [0.1, 0.0, 0.3, 0.6], atol=0.01)
    picked = g.choice(5, 3, replace=False, p=[0.5, 0.0, 0.2, 0.2, 0.1]).numpy()
    assert len(set(picked.tolist())) == 3 and 1 not in picked.tolist()
    rows = g.choice(em.asarray(np.arange(12).reshape(4, 3)), size=(2, 5), axis=0)
    assert rows.shape == (2, 5, 3) and np.all(rows.numpy()[..., 0] % 3 == 0)
    m = em.asarray(np.arange(12).reshape(3, 4))
    p = g.permutation(m, axis=1).numpy()
    assert p.shape == (3, 4) and sorted(p[0].tolist()) == [0, 1, 2, 3] and np.all(p - p[:, :1] == p[0] - p[0, 0])
    x = em.arange(10)
    g.shuffle(x)
    assert sorted(x.tolist()) == list(range(10)) and x.tolist() != list(range(10))
    assert em.random.choice(3, 4).shape == (4,) and em.random.rand(2, 3).shape == (2, 3)
    assert em.random.randn(4).shape == (4,) and sorted(em.random.permutation(5).tolist()) == list(range(5))


@pytest.mark.parametrize("call,error", [
    (lambda g: g.integers(5, 5), ValueError), (lambda g: g.choice(3, 4, replace=False), ValueError),
    (lambda g: g.choice(3, 2, p=[0.5, 0.6, 0.1]), ValueError), (lambda g: g.choice(3, 2, p=[0.5, 0.5]), ValueError),
    (lambda g: g.choice(3, 3, replace=False, p=[0.5, 0.5, 0.0]), ValueError), (lambda g: g.choice(0, 1), ValueError),
    (lambda g: g.shuffle((1, 2, 3)), TypeError), (lambda g: g.permutation(em.asarray(3.0)), ValueError),
], ids=["integers empty", "choice too many", "p sum", "p length", "p zeros", "choice of 0", "shuffle tuple", "permute 0-d"])
def test_generator_refuses_what_numpy_refuses(backend, call, error):
    with pytest.raises(error):
        call(np.random.default_rng(0))
    g = em.random.default_rng(0)
    with pytest.raises(error):
        call(g)
    assert g._counter == 0  # the checks come before any draw
    with pytest.raises(ValueError):
        em.random.default_rng(-1)
