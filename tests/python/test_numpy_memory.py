"""NumPy's names about memory (bindings/python/ember/_numpy_memory.py): shares_memory and
may_share_memory answer as NumPy's on the same views, asfortranarray/ascontiguousarray/
require give NumPy's values and layouts, on every backend."""
import numpy as np
import pytest

import ember as em

VIEWS = {
    "whole": lambda x: x, "transpose": lambda x: x.T, "row 1": lambda x: x[1], "column 2": lambda x: x[:, 2],
    "even columns": lambda x: x[:, ::2], "odd columns": lambda x: x[:, 1::2], "reversed": lambda x: x[::-1],
    "last row tail": lambda x: x[2, 3:], "empty": lambda x: x[:0], "flat": lambda x: x.reshape(-1),
}


@pytest.mark.parametrize("first", VIEWS)
@pytest.mark.parametrize("second", VIEWS)
def test_shares_memory_answers_as_numpy(backend, first, second):
    base = np.arange(20.0).reshape(4, 5)
    x = em.asarray(base)
    a_np, b_np = VIEWS[first](base), VIEWS[second](base)
    a, b = VIEWS[first](x), VIEWS[second](x)
    assert em.shares_memory(a, b) == np.shares_memory(a_np, b_np)
    assert em.may_share_memory(a, b) == np.may_share_memory(a_np, b_np)
    assert em.may_share_memory(a, b, max_work=-1) == np.shares_memory(a_np, b_np)
    assert not em.shares_memory(a, em.asarray(base).copy())


def test_shares_memory_of_other_objects_and_parts(backend):
    x = em.asarray([1.0, 2.0])
    assert not em.shares_memory(x, [1.0, 2.0]) and not em.may_share_memory([1], [1])
    z = em.asarray(np.array([1 + 2j, 3 - 4j], dtype=np.complex64))
    if z.real.backend == z.backend and em.shares_memory(z, z.real):  # a view: then as NumPy's parts
        assert not em.shares_memory(z.real, z.imag) and em.may_share_memory(z.real, z.imag)


@pytest.mark.parametrize("view", ["whole", "transpose", "even columns", "reversed", "column 2"])
def test_layout_functions_give_numpy_values_and_layouts(backend, view):
    base = np.arange(20.0, dtype=np.float32).reshape(4, 5)
    x = VIEWS[view](em.asarray(base))
    want = VIEWS[view](base)
    f, c = em.asfortranarray(x), em.ascontiguousarray(x)
    np.testing.assert_array_equal(f.numpy(), want)
    np.testing.assert_array_equal(c.numpy(), want)
    itemsize = want.itemsize
    assert f.strides == tuple(s // itemsize for s in np.asfortranarray(want).strides) or want.ndim < 2
    assert c.strides == tuple(s // itemsize for s in np.ascontiguousarray(want).strides) or want.ndim < 2
    assert c.is_contiguous
    for req in ("C", "F", ["O"], ["F", "W"], "A", None):
        r = em.require(x, requirements=req)
        np.testing.assert_array_equal(r.numpy(), want)
        if req in ("C", ["O"]):
            assert r.is_contiguous
        if req == ["O"]:
            assert not em.shares_memory(r, x)
    assert em.require(x, np.float64).dtype == em.float64
    assert em.asfortranarray(3.0).shape == (1,)
    with pytest.raises(ValueError):
        em.require(x, requirements="CF")
    with pytest.raises(KeyError):
        em.require(x, requirements="Q")


def test_isfortran_answers_as_numpy(backend):
    base = np.arange(12.0).reshape(3, 4)
    for make in (lambda m: m, lambda m: m.T, lambda m: m[:, 0], lambda m: m[:1], lambda m: m.reshape(12)):
        assert em.isfortran(make(em.asarray(base))) == np.isfortran(make(base))
    assert em.isfortran(em.asfortranarray(em.asarray(base)))


def _random_view(rng, ndim_shape):
    """A random basic-index key (slices with any step, integers; the trailing Ellipsis keeps
    NumPy's result a view when every axis takes an integer) and axis order for a base of
    shape ndim_shape."""
    key = []
    for n in ndim_shape:
        if rng.random() < 0.2:
            key.append(int(rng.integers(-n, n)))
        else:
            step = int(rng.choice([1, 2, 3, -1, -2]))
            a, b = sorted(int(v) for v in rng.integers(0, n + 1, 2))
            key.append(slice(a, b, step) if step > 0 else slice(b, a if a > 0 else None, step))
    return tuple(key) + (Ellipsis,), rng.permutation(len(ndim_shape) - sum(isinstance(k, int) for k in key))


def test_shares_memory_on_random_views_matches_numpy(backend):
    rng = np.random.default_rng(71)
    for shape in ((12,), (5, 6), (3, 4, 5)):
        base = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
        x = em.asarray(base)
        for _ in range(150):
            (ka, pa), (kb, pb) = _random_view(rng, shape), _random_view(rng, shape)
            a_np, b_np = base[ka].transpose(pa), base[kb].transpose(pb)
            a, b = em.permute_dims(x[ka], tuple(int(p) for p in pa)), em.permute_dims(x[kb], tuple(int(p) for p in pb))
            assert em.shares_memory(a, b) == np.shares_memory(a_np, b_np), (ka, kb)
            assert em.may_share_memory(a, b) == np.may_share_memory(a_np, b_np), (ka, kb)


def test_shares_memory_with_broadcast_views_matches_numpy(backend):
    """Broadcast views repeat elements (stride 0): x[0::5] as a (2, 3) block spans x[0..5]
    with x[1..4] in its gaps."""
    base = np.arange(12.0)
    x = em.asarray(base)
    pairs = [(lambda m, v: m.broadcast_to(v[0:9:5].reshape(2, 1), (2, 3)), lambda m, v: v[1:5]),
             (lambda m, v: m.broadcast_to(v[0:9:5].reshape(2, 1), (2, 3)), lambda m, v: v[4:6]),
             (lambda m, v: m.broadcast_to(v[3:4], (4, 5)), lambda m, v: v[::3]),
             (lambda m, v: m.broadcast_to(v[3:4], (4, 5)), lambda m, v: v[::2])]
    for first, second in pairs:
        a_np, b_np = first(np, base), second(np, base)
        a, b = first(em, x), second(em, x)
        assert em.shares_memory(a, b) == np.shares_memory(a_np, b_np)
        assert em.shares_memory(b, a) == np.shares_memory(b_np, a_np)
        assert em.may_share_memory(a, b) == np.may_share_memory(a_np, b_np)


WINDOWS = [((3,), None), (2, 0), ((2, 3), None), ((2,), (1,)), ((2, 2), (1, 1)), ((0,), (0,)), ((4,), (-1,)),
           ((1, 2), (0, -1))]


@pytest.mark.parametrize("view", ["whole", "transpose", "even columns", "reversed", "last row tail"])
@pytest.mark.parametrize("window", WINDOWS, ids=[str(w) for w in WINDOWS])
def test_sliding_window_view_as_numpy(backend, view, window):
    base = np.arange(20.0, dtype=np.float32).reshape(4, 5)
    a, x = VIEWS[view](base), VIEWS[view](em.asarray(base))
    shape, axis = window
    if axis is None and np.ndim(shape) and len(shape) != a.ndim or axis is not None and max(np.atleast_1d(axis), default=0) >= a.ndim:
        pytest.skip("a window for another rank")
    try:
        want = np.lib.stride_tricks.sliding_window_view(a, shape, axis)
    except ValueError:
        with pytest.raises(ValueError):
            em.sliding_window_view(x, shape, axis)
        return
    got = em.sliding_window_view(x, shape, axis)
    assert got.shape == want.shape
    np.testing.assert_array_equal(np.asarray(got), want)
    assert got.size == 0 or em.shares_memory(got, x)


def test_as_strided_views_and_bounds(backend):
    base = np.arange(12.0)
    x = em.asarray(base)

    def expect(shape, strides, offset):  # base at offset + sum(i_d * strides_d)
        idx = np.full(shape, offset, dtype=np.int64)
        for d, s in enumerate(strides):
            idx += np.arange(shape[d]).reshape((-1,) + (1,) * (len(shape) - d - 1)) * s
        return base[idx]

    for shape, strides, offset in [((5, 3), (2, 1), 0), ((3, 4), (0, 1), 2), ((4,), (-3,), 11), ((), (), 5), ((2, 0), (1, 1), 0)]:
        got = em.as_strided(x, shape, strides, offset=offset)
        assert got.shape == shape and got.strides == strides
        np.testing.assert_array_equal(np.asarray(got), expect(shape, strides, offset))
    windows = np.lib.stride_tricks.as_strided(base, (5, 3), (16, 8))  # NumPy's byte strides for the first case
    np.testing.assert_array_equal(np.asarray(em.as_strided(x, (5, 3), (2, 1))), windows)
    tail = x[6:]
    np.testing.assert_array_equal(np.asarray(em.as_strided(tail, (3,), (1,), offset=-6)), base[:3])
    np.testing.assert_array_equal(np.asarray(em.as_strided(x[::2])), base[::2])  # shape and strides default to x's
    for shape, strides, offset in [((13,), (1,), 0), ((3,), (1,), -1), ((4,), (4,), 0), ((2,), (1,), 11)]:
        with pytest.raises(IndexError):
            em.as_strided(x, shape, strides, offset=offset)
    with pytest.raises(ValueError):
        em.as_strided(x, (2, 2), (1,))
    if em._ember_c.ember_py_host_address(x._h) is not None:  # a host backend, which can wrap NumPy's memory:
        # a view of a slice of it may reach all that was wrapped
        wrapped = em.asarray(base, copy=False)
        np.testing.assert_array_equal(np.asarray(em.as_strided(wrapped[6:8], (12,), (1,), offset=-6)), base)
        with pytest.raises(IndexError):
            em.as_strided(wrapped[6:8], (12,), (1,), offset=-5)
    w = em.as_strided(x, (3,), (2,), offset=1)  # writes reach x
    w[...] = -1.0
    np.testing.assert_array_equal(np.asarray(x)[:7], [0, -1, 2, -1, 4, -1, 6])
