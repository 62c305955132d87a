"""NumPy and DLPack interop, pickling, asarray, devices and backends. (DLPack with PyTorch:
test_torch_interop.py.)"""
import gc
import pickle

import numpy as np
import pytest

import ember as em


def test_numpy_zero_copy_out(backend):
    x = em.asarray(np.arange(6.0).reshape(2, 3))
    if em._ember_c.ember_py_host_address(x._h) is None:
        pytest.skip("device backend: np.asarray copies")
    n = np.asarray(x)
    assert n.ctypes.data == em._ember_c.ember_py_host_address(x._h)
    x[0, 0] = 42.0
    assert n[0, 0] == 42.0
    t = x.T   # strided view, still zero-copy
    nt = np.asarray(t)
    np.testing.assert_array_equal(nt, np.asarray(x).T)
    f = x[:, ::-1]
    np.testing.assert_array_equal(np.asarray(f), np.asarray(x)[:, ::-1])
    del x
    gc.collect()
    assert n[0, 0] == 42.0   # the NumPy array keeps the storage alive


def test_numpy_byte_orders_and_dtypes_in(backend):
    """Every NumPy dtype with an ember equivalent, in either byte order (the dtype lookup is
    cached per NumPy dtype: '>f4' and '<f4' must not share an entry's handling)."""
    for name in ("bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
                 "float16", "float32", "float64", "complex64", "complex128"):
        for order in ("<", ">"):
            dt = np.dtype(name).newbyteorder(order)
            a = (np.arange(12) % 5).astype(dt).reshape(3, 4)[:, ::2]
            for _ in range(2):  # the second lookup hits the cache
                x = em.asarray(a)
                assert x.dtype == getattr(em, name), (name, order)
                np.testing.assert_array_equal(np.asarray(x), a)
            if not dt.isnative and em._ember_c.ember_py_host_address(x._h) is not None:
                with pytest.raises(ValueError, match="without a copy"):
                    em.asarray(a, copy=False)
    with pytest.raises(TypeError, match="no ember equivalent"):
        em.asarray(np.array(["a", "b"]))


def test_numpy_in_copy_and_zero_copy(backend):
    a = np.arange(6.0)
    c = em.asarray(a)
    a[0] = 100
    assert float(c[0]) == 0.0          # copied
    host = em._ember_c.ember_py_host_address(c._h) is not None
    if not host:
        with pytest.raises(Exception):
            em.asarray(a, copy=False)
        return
    w = em.asarray(a, copy=False)
    a[1] = 200
    assert float(w[1]) == 200          # shared
    w[2] = 300.0
    assert a[2] == 300
    s = np.arange(12.0).reshape(3, 4)[:, ::2]
    ws = em.asarray(s, copy=False)
    np.testing.assert_array_equal(np.asarray(ws), s)
    del a
    gc.collect()
    assert float(w[1]) == 200          # the wrapped NumPy array is kept alive


@pytest.mark.parametrize("dtype", ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                                   "float16", "float32", "float64", "complex64", "complex128"])
def test_numpy_dtypes_round_trip(backend, dtype):
    a = (np.arange(6) % 3).astype(dtype).reshape(2, 3)
    x = em.asarray(a)
    assert x.dtype == dtype
    b = np.asarray(x)
    assert b.dtype == a.dtype
    np.testing.assert_array_equal(b, a)
    assert pickle.loads(pickle.dumps(x)).dtype == x.dtype


def test_bfloat16_to_numpy(backend):
    x = em.asarray([1.0, 2.5]).astype(em.bfloat16)
    assert x.dtype == em.bfloat16
    np.testing.assert_array_equal(np.asarray(x), np.array([1.0, 2.5], dtype=np.float32))
    assert x.tolist() == [1.0, 2.5]


def test_pickle_round_trip(backend):
    x = em.asarray(np.arange(12, dtype=np.int16).reshape(3, 4))[:, 1:]
    y = pickle.loads(pickle.dumps(x))
    assert y.dtype == em.int16 and y.shape == (3, 3)
    assert y.backend == x.backend and y.device == x.device
    np.testing.assert_array_equal(np.asarray(y), np.asarray(x))
    z = pickle.loads(pickle.dumps(em.asarray(1.5 + 2j)))
    assert z.dtype == em.complex64 and complex(z) == 1.5 + 2j
    assert pickle.loads(pickle.dumps(em.float32)) == em.float32


def test_dlpack_numpy(backend):
    x = em.asarray(np.arange(12.0).reshape(3, 4))
    n = np.from_dlpack(x)
    np.testing.assert_array_equal(n, np.arange(12.0).reshape(3, 4))
    if x.__dlpack_device__() == (1, 0):
        x[0, 0] = -1.0
        assert n[0, 0] == -1.0         # zero-copy
    a = np.arange(8, dtype=np.int32)
    y = em.from_dlpack(a)
    assert y.dtype == em.int32
    if em._ember_c.ember_py_host_address(y._h) is not None:
        a[0] = 77
        assert int(y[0]) == 77
    c = em.from_dlpack(a, copy=True)
    a[1] = 88
    assert int(c[1]) == 1
    t = np.from_dlpack(x.T)            # strided export
    np.testing.assert_array_equal(t, np.arange(12.0).reshape(3, 4).T if x.__dlpack_device__() != (1, 0) else np.asarray(x).T)


def test_dlpack_read_only_memory_is_never_written(backend, tmp_path):
    # A read-only NumPy array imported without a copy stays read-only: writes raise (as
    # NumPy's "assignment destination is read-only") instead of reaching its memory, which
    # for a read-only mapping would be a segmentation fault.
    path = tmp_path / "ro.npy"
    np.save(path, np.arange(6.0))
    m = np.load(path, mmap_mode="r")
    y = em.from_dlpack(m)
    shared = em._ember_c.ember_py_host_address(y._h) is not None
    if shared:
        with pytest.raises(ValueError, match="read-only"):
            y += 1
        with pytest.raises(ValueError, match="read-only"):
            y[1:] = 5.0
        with pytest.raises(ValueError, match="read-only"):
            em.exp(y, out=y)
        v = np.from_dlpack(y)          # exported with DLPack's read-only flag
        assert not v.flags.writeable
        with pytest.raises(BufferError):
            y.__dlpack__()             # an unversioned capsule cannot say read-only
        assert not np.asarray(y).flags.writeable
    np.testing.assert_array_equal(np.asarray(y), np.arange(6.0))
    z = y + 1                          # new results are ordinary arrays
    z += 1
    np.testing.assert_array_equal(np.asarray(z), np.arange(6.0) + 2)
    c = em.from_dlpack(m, copy=True)
    c += 1
    np.testing.assert_array_equal(np.asarray(m), np.arange(6.0))
    if shared:
        w = em.asarray(np.broadcast_to(np.arange(3.0), (2, 3)), copy=False)
        with pytest.raises(ValueError, match="read-only"):
            w[0, 0] = 1.0


def test_dlpack_capsules(backend):
    x = em.asarray([1.0, 2.0])
    cap = x.__dlpack__(max_version=(1, 0))
    assert "dltensor_versioned" in repr(cap)
    legacy = x.__dlpack__()
    assert '"dltensor"' in repr(legacy)
    del cap, legacy                    # unconsumed capsules release their reference
    gc.collect()
    y = em.from_dlpack(x)
    assert y is x or bool(em.all(y == x))


def test_asarray_python_objects(backend):
    assert em.asarray([1, 2, 3]).dtype == em.int64
    assert em.asarray([1.0, 2]).dtype == em.float32
    assert em.asarray([True, False]).dtype == em.bool
    assert em.asarray([1j, 2]).dtype == em.complex64
    assert em.asarray([[1, 2], [3, 4]], dtype=em.float64).shape == (2, 2)
    assert em.asarray(5).shape == ()
    assert em.asarray([]).shape == (0,)
    assert em.asarray([2 ** 62]).tolist() == [2 ** 62]
    with pytest.raises(ValueError):
        em.asarray([[1, 2], [3]])
    x = em.asarray([1.0, 2.0])
    assert em.asarray(x) is x
    assert em.asarray(x, copy=True) is not x
    assert em.asarray(x, dtype=em.float64).dtype == em.float64


def test_asarray_nested_lists_in_c_match_the_python_path(backend):
    # asarray of nested lists and tuples runs in C (bindings/python/ember_from_nested.i) and
    # hands what it declines to the Python path (_from_python): both give the same array
    from ember import _creation
    fast = em._ember_c.from_nested
    assert fast([1, 2], -1) is not None and fast(((1.5,), [2]), em.float64.code) is not None
    for declined in ([1j], [[1, 2], [3]], [], [[]], [np.float32(1)], [em.asarray(1.0)], [2 ** 64], [None], "ab"):
        assert fast(declined, -1) is None, declined
    assert fast([1, 2], em.complex64.code) is None
    cases = [[1, 2, 3], [1.5, -2, True], [True, False], [[1, 2], [3, 4]], ((1, 2.5), [3, 4]), [[[1.0]]], (7,),
             [2 ** 62, -2 ** 63], [2 ** 63], [2 ** 53 + 1], [10 ** 30], [1e300, -0.0], [float("nan"), -float("inf")],
             [[True], [2]], [[1, 2], [3]], [[1, 2], 3], [1, [2]], [2 ** 64], [2 ** 64 - 1, 0.5], [1, "a"]]
    dtypes = [None, em.float32, em.float64, em.float16, em.bfloat16, em.int8, em.int32, em.int64, em.uint8, em.uint64,
              em.bool, em.complex64]
    for obj in cases:
        for dt in dtypes:
            try:
                want, error = _creation._from_python(obj, dt), None
            except Exception as e:  # the same exception type must come out of asarray
                want, error = None, TypeError if isinstance(e, TypeError) else type(e)
            label = f"{obj!r} dtype={dt}"
            if error is not None:
                try:
                    em.asarray(obj, dtype=dt)
                except error:
                    continue
                pytest.fail(f"{label}: no {error.__name__}")
            got = em.asarray(obj, dtype=dt)
            assert (got.dtype, got.shape) == (want.dtype, want.shape), label
            assert repr(got.tolist()) == repr(want.tolist()), label  # NaN and -0.0 by their repr
    for name in em.backends():
        with em.using_backend(name):
            assert em.asarray([[1.0, 2.0]]).device.backend == name


def test_devices_and_backends(backend):
    assert backend in em.backends()
    assert em.get_backend() == backend
    x = em.ones((2,))
    assert x.device.backend == backend
    assert x.__array_namespace__() is em
    info = em.__array_namespace_info__()
    assert any(d.backend == backend for d in info.devices())
    assert info.capabilities()["boolean indexing"] is True
    assert em.float64 in info.dtypes().values()
    for other in em.backends():
        y = x.to_device(other)
        assert y.device.backend == other
        np.testing.assert_array_equal(np.asarray(y), [1.0, 1.0])
        with em.using_backend(other):
            z = em.zeros((2,), device=em.Device(backend, 0))
            assert z.device.backend == backend


def test_dropped_arrays_release_their_memory(backend):
    """Tensor has a destructor of its own (bindings/ember.i): every way an Array's handle
    is made must give its memory back when the Array goes."""
    gc.collect()
    before = em.memory_info()["allocated"]
    x = em.arange(4096, dtype=em.float32).reshape((64, 64))
    made = [x + 1.0, -x, x.sum(axis=0), x[3], x[::2, 1:], x.T, em.zeros((100,)),
            em.asarray(np.ones(300)), em.matmul(x, x), em.split(x, 4)[1], x.astype(em.float64)]
    alive = em.memory_info()["allocated"]
    if before == 0 and alive == 0:
        pytest.skip(f"{backend} does not report allocated bytes")
    assert alive > before
    del x, made
    gc.collect()
    assert em.memory_info()["allocated"] == before

def test_backend_mismatch_error():
    names = em.backends()
    if len(names) < 2:
        pytest.skip("needs two backends")
    with em.using_backend(names[0]):
        a = em.ones((2,))
    with em.using_backend(names[1]):
        b = em.ones((2,))
        with pytest.raises(em.BackendMismatchError) as info:
            a + b
        assert isinstance(info.value, ValueError)


def test_set_backend_and_threads():
    import threading
    original = em.get_backend()
    try:
        for name in em.backends():
            em.set_backend(name)
            assert em.get_backend() == name
            seen = []
            t = threading.Thread(target=lambda: seen.append(em.get_backend()))
            t.start()
            t.join()
            assert seen == [name]
        with pytest.raises(ValueError):
            em.set_backend("no-such-backend")
    finally:
        em.set_backend(original)
    name, dev = em.auto_select_backend()
    assert name in em.backends()


def test_using_backend_nests_and_restores():
    before = em.get_backend()
    with em.using_backend("reference"):
        assert em.get_backend() == "reference"
        with em.using_backend(em.backends()[-1]):
            assert em.get_backend() == em.backends()[-1]
        assert em.get_backend() == "reference"
    assert em.get_backend() == before


def test_save_load(tmp_path, backend):
    x = em.asarray(np.arange(6, dtype=np.int32).reshape(2, 3))
    p = tmp_path / "x.ember"
    em.save(str(p), x)
    y = em.load(str(p))
    assert y.dtype == em.int32 and y.tolist() == x.tolist()


def test_asarray_keeps_numpy_scalar_dtypes(backend):
    # np.float64 and np.complex128 subclass Python's float and complex, but carry a dtype
    for v in (np.float64(2.25), np.complex128(1 - 2j), np.float32(1.5), np.int8(-3), np.uint16(7), np.bool_(True)):
        x = em.asarray(v)
        assert x.shape == () and x.dtype == getattr(em, v.dtype.name), type(v)
        assert x.item() == v.item()
    assert em.asarray(2.25).dtype == em.float32 and em.asarray(1j).dtype == em.complex64  # Python scalars: the defaults
    assert em.asarray(np.float64(2.5), dtype=em.float16).dtype == em.float16


def test_numpy_operands_in_operators(backend):
    x = em.asarray([1.0, 2.0], dtype=em.float64)
    n = np.array([10.0, 20.0])
    for r in (x + n, n + x, x * np.float64(2), np.int64(3) - x, x + [1, 1]):
        assert isinstance(r, em.Array)
    assert (n + x).tolist() == [11.0, 22.0]
    assert (np.int64(3) - x).tolist() == [2.0, 1.0]
    assert (x == None) is False  # noqa: E711  (not array-like: identity comparison)


def test_operator_slots_on_array_and_a_subclass(backend):
    """Array's number slots and tp_richcompare are C functions (bindings/ember.i,
    ember_py_take_number_slots); a subclass keeps CPython's, which call the same methods by
    name. Every operator, forward, reflected and in place, with Arrays, Python scalars,
    NumPy arrays and lists on either side, gives NumPy's values on both."""
    class Sub(em.Array):
        __slots__ = ()

    import operator as op
    a_np, b_np = np.array([5, 6, 7], dtype=np.int64), np.array([1, 2, 3], dtype=np.int64)
    binary = [op.add, op.sub, op.mul, op.truediv, op.floordiv, op.mod, op.pow, op.and_, op.or_, op.xor, op.lshift,
              op.rshift, op.lt, op.le, op.eq, op.ne, op.gt, op.ge]
    for cls in (em.Array, Sub):
        def arr(v):
            x = em.asarray(v)
            x.__class__ = cls
            return x
        for f in binary:
            for left, right in ((arr(a_np), arr(b_np)), (arr(a_np), 2), (7, arr(b_np)), (arr(a_np), b_np), (a_np, arr(b_np)),
                                (arr(a_np), [1, 2, 3]), ([5, 6, 7], arr(b_np))):
                want = f(np.asarray(left), np.asarray(right))
                got = f(left, right)
                assert isinstance(got, em.Array), (cls, f, left, right)
                np.testing.assert_allclose(np.asarray(got).astype(np.float64), want.astype(np.float64), rtol=1e-6,
                                           err_msg=f"{cls.__name__} {f.__name__}")  # int / int: the default float
        for f in (op.neg, op.pos, op.abs, op.invert):
            np.testing.assert_array_equal(np.asarray(f(arr(a_np))), f(a_np))
        m = arr(np.eye(2))
        np.testing.assert_array_equal(np.asarray(m @ m), np.eye(2))
        x = arr(np.array([1.0, 2.0]))
        x += 1
        x *= arr(np.array([2.0, 2.0]))
        x -= [1.0, 1.0]
        x **= 2
        assert x.tolist() == [9.0, 25.0] and type(x) is cls
        with pytest.raises(TypeError):
            pow(arr(a_np), 2, 5)
        assert (arr(a_np) == None) is False and (arr(a_np) != "x") is True  # noqa: E711
