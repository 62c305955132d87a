"""NumPy's ndarray methods on ember.Array: each call is compared with the same call on a
NumPy array holding the same values, on every backend."""
import numpy as np
import pytest

import ember as em

RNG = np.random.default_rng(7)
A = RNG.normal(size=(3, 4, 5))
B = A > 0.2
I = RNG.integers(-5, 6, size=(4, 6))

# (name, data, call): call(x) runs on both arrays; the name says what it checks.
CASES = [
    ("sum", A, lambda x: x.sum()),
    ("sum_axis_positional", A, lambda x: x.sum(1)),
    ("sum_axes_keepdims", A, lambda x: x.sum((0, 2), keepdims=True)),
    ("sum_int", I, lambda x: x.sum(axis=0)),
    ("prod", A, lambda x: x.prod(-1)),
    ("mean", A, lambda x: x.mean(axis=(1, 2))),
    ("mean_int_dtype", I, lambda x: x.mean(dtype="float64")),
    ("var_ddof", A, lambda x: x.var(0, ddof=1)),
    ("std", A, lambda x: x.std(keepdims=True)),
    ("max", A, lambda x: x.max(2)),
    ("min", I, lambda x: x.min()),
    ("all", B, lambda x: x.all(0)),
    ("any", B, lambda x: x.any(axis=-1, keepdims=True)),
    ("argmax", A, lambda x: x.argmax()),
    ("argmin_axis", A, lambda x: x.argmin(1)),
    ("argsort", A, lambda x: x.argsort()),
    ("argsort_axis0", I[:, :1] * 0 + np.arange(4)[::-1, None], lambda x: x.argsort(0)),
    ("cumsum_flat", A, lambda x: x.cumsum()),
    ("cumsum_axis", I, lambda x: x.cumsum(1)),
    ("cumprod_axis", A, lambda x: x.cumprod(0)),
    ("clip", A, lambda x: x.clip(-0.5, 0.5)),
    ("clip_min_only", I, lambda x: x.clip(0)),
    ("round", A, lambda x: x.round()),
    ("round_decimals", A, lambda x: x.round(2)),
    ("transpose", A, lambda x: x.transpose()),
    ("transpose_axes", A, lambda x: x.transpose(1, 0, 2)),
    ("transpose_tuple", A, lambda x: x.transpose((2, 0, 1))),
    ("swapaxes", A, lambda x: x.swapaxes(0, 2)),
    ("squeeze", A[:1, :, :1], lambda x: x.squeeze()),
    ("squeeze_axis", A[:1, :, :1], lambda x: x.squeeze(0)),
    ("ravel", A, lambda x: x.ravel()),
    ("ravel_of_transpose", A, lambda x: x.transpose().ravel()),
    ("take", A, lambda x: x.take([0, 7, 59])),
    ("take_axis", A, lambda x: x.take([3, 0], axis=1)),
    ("repeat", I, lambda x: x.repeat(2)),
    ("repeat_axis", I, lambda x: x.repeat(3, axis=1)),
    ("dot", A[0], lambda x: x.dot(x.T)),
    ("dot_numpy_operand", A[0], lambda x: x.dot(np.ones(5))),
    ("dot_list_operand", A[0, 0], lambda x: x.dot([1.0, 2.0, 3.0, 4.0, 5.0])),
    ("conj", A, lambda x: x.conj()),
]


@pytest.mark.parametrize("name,data,call", CASES, ids=[c[0] for c in CASES])
def test_method_matches_numpy(backend, name, data, call):
    got, want = call(em.asarray(data)), call(data)
    assert isinstance(got, em.Array)
    g = np.asarray(got)
    assert g.shape == np.shape(want)
    if np.asarray(want).dtype.kind in "biu":
        np.testing.assert_array_equal(g, want)
    else:
        np.testing.assert_allclose(g, want, rtol=1e-10, atol=1e-12)


def test_nonzero_and_fill(backend):
    x = em.asarray(I)
    for g, w in zip(x.nonzero(), I.nonzero()):
        np.testing.assert_array_equal(np.asarray(g), w)
    view = x[1:3, ::2]
    assert view.fill(7) is None
    want = I.copy()
    want[1:3, ::2] = 7
    np.testing.assert_array_equal(np.asarray(x), want)


def test_methods_raise_like_the_functions(backend):
    x = em.asarray(A)
    with pytest.raises(em.EmberError):
        x.sum(3)
    with pytest.raises(em.EmberError):
        x.transpose(0, 1)
    with pytest.raises(TypeError):
        x.sum(0, True)  # keepdims is keyword-only, as in the function


def test_stub_declares_every_public_member():
    import ast
    import os
    stub = os.path.join(os.path.dirname(em.__file__), "_array.pyi")
    cls = next(n for n in ast.parse(open(stub).read()).body if isinstance(n, ast.ClassDef) and n.name == "Array")
    declared = {n.name for n in cls.body if isinstance(n, ast.FunctionDef)}
    public = {n for n in dir(em.Array) if not n.startswith("_")}
    assert sorted(public - declared) == []
    import inspect
    for node in cls.body:  # the Python methods' parameters, in order
        member = em.Array.__dict__.get(node.name)
        if isinstance(node, ast.FunctionDef) and inspect.isfunction(member):
            a = node.args
            stub = [p.arg for p in a.posonlyargs + a.args] + ([a.vararg.arg] if a.vararg else []) + [p.arg for p in a.kwonlyargs]
            assert stub == list(inspect.signature(member).parameters), node.name


NUMPY_FUNCTIONS = [
    ("sum", lambda m, x: m.sum(x)), ("sum_axis_dtype", lambda m, x: m.sum(x, axis=1, dtype=m.float64)),
    ("prod", lambda m, x: m.prod(x, axis=0)), ("mean", lambda m, x: m.mean(x)), ("mean_keepdims", lambda m, x: m.mean(x, 0, keepdims=True)),
    ("std", lambda m, x: m.std(x, ddof=1)), ("var", lambda m, x: m.var(x, axis=-1)), ("max", lambda m, x: m.max(x, axis=0)),
    ("min", lambda m, x: m.min(x)), ("amax", lambda m, x: m.amax(x)), ("any", lambda m, x: m.any(x > 0.5, axis=1)),
    ("all", lambda m, x: m.all(x > -9)), ("argmax", lambda m, x: m.argmax(x)), ("argmin", lambda m, x: m.argmin(x, axis=1)),
    ("cumsum", lambda m, x: m.cumsum(x, axis=0)), ("cumprod", lambda m, x: m.cumprod(x)), ("round", lambda m, x: m.round(x, 1)),
    ("clip", lambda m, x: m.clip(x, -0.5, 0.5)), ("transpose", lambda m, x: m.transpose(x)), ("squeeze", lambda m, x: m.squeeze(x[None])),
    ("take", lambda m, x: m.take(x, [1, 3])), ("repeat", lambda m, x: m.repeat(x, 2, axis=0)), ("swapaxes", lambda m, x: m.swapaxes(x, 0, 1)),
    ("argsort", lambda m, x: m.argsort(x, axis=1)), ("ravel", lambda m, x: m.ravel(x)),
]


@pytest.mark.parametrize("name,call", NUMPY_FUNCTIONS, ids=[c[0] for c in NUMPY_FUNCTIONS])
def test_numpy_functions_take_arrays(backend, name, call):
    # NumPy's functions call the method of that name on an Array (np.sum(x) is
    # x.sum(axis=None, out=None)) or convert it; either way NumPy's values.
    a = RNG.normal(size=(4, 6))
    got = call(np, em.asarray(a))
    want = call(np, a)
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-12, atol=1e-12)


def test_out_argument(backend):
    a = RNG.normal(size=(4, 6))
    x = em.asarray(a)
    out_np = np.empty(6)
    assert np.sum(x, axis=0, out=out_np) is out_np
    np.testing.assert_allclose(out_np, a.sum(axis=0), rtol=1e-12)
    out_em = em.zeros((4,), dtype=em.float64)
    assert x.max(axis=1, out=out_em) is out_em
    np.testing.assert_array_equal(np.asarray(out_em), a.max(axis=1))
    ints = em.zeros((), dtype=em.int64)
    assert np.argmax(x, out=ints) is ints and int(ints) == a.argmax()


def test_python_protocols(backend):
    x = em.asarray(np.array([1.25, -2.5, 7.75]))
    assert isinstance(round(x), em.Array) and np.asarray(round(x)).tolist() == [1.0, -2.0, 8.0]
    assert np.asarray(round(x, 1)).tolist() == [1.2, -2.5, 7.8]
    q, r = divmod(x, 2)
    np.testing.assert_array_equal(np.asarray(q), np.floor_divide([1.25, -2.5, 7.75], 2))
    np.testing.assert_array_equal(np.asarray(r), np.remainder([1.25, -2.5, 7.75], 2))
    q, r = divmod(7, em.asarray(np.array([2, -3])))
    assert np.asarray(q).tolist() == [3, -3] and np.asarray(r).tolist() == [1, -2]
    assert (x.itemsize, x.nbytes) == (8, 24)
    assert (em.zeros((2, 3), dtype=em.float16).nbytes, em.zeros(0).nbytes) == (12, 0)


def test_item_with_indices_as_numpy(backend):
    # NumPy's a.item(k) (the k-th element in C order), a.item(i, j) and a.item((i, j)), on
    # strided views and every kind of dtype; errors of the same kind.
    base = np.arange(24, dtype=np.float64).reshape(2, 3, 4) * 1.5 - 7
    cases = [base, base.transpose(2, 0, 1), base[:, ::-2, 1::2], base.astype(np.int64), base > 0,
             (base + 2j * base).astype(np.complex64), np.array([2**64 - 1, 5], dtype=np.uint64), np.array(3.5)]
    for a in cases:
        x = em.asarray(a)
        if a.ndim == 3:
            view_keys = [(0,), (-1,), (a.size - 1,), (1, a.shape[1] - 1, 0), ((0, -1, a.shape[2] - 1),), (-2, 0, -1)]
        else:
            view_keys = [(0,), (-1,), ((0,) * a.ndim,)] + ([(1,)] if a.size > 1 else [()])
        for key in view_keys:
            want = a.item(*key)
            got = x.item(*key)
            assert type(got) is type(want) and got == want, (a.dtype, key)
        for bad in [(a.size,), (-a.size - 1,)] + ([(0, 0), (0, 0, 0, 0)] if a.ndim == 3 else []):
            with pytest.raises(Exception) as want_err:
                a.item(*bad)
            with pytest.raises(want_err.type):
                x.item(*bad)
    with pytest.raises(TypeError):
        em.asarray(base).item(1.5)
    assert em.asarray(base)[1].item(np.int64(2), 3) == base[1].item(2, 3)
