"""Indexing and assignment vs NumPy."""
import operator

import numpy as np
import pytest

import ember as em

A = np.arange(60, dtype=np.float64).reshape(3, 4, 5)

KEYS = [
    0, -1, (1, 2), (1, 2, 3), (-1, -2, -3), slice(None), slice(1, None), slice(None, None, -1),
    slice(None, None, 2), (slice(None), slice(3, 0, -2)), (Ellipsis, 1), (0, Ellipsis), (None, 0),
    (slice(None), None, 1), (Ellipsis, None), (1, slice(None), None, slice(1, 4)), (slice(5, 10),),
    (slice(-100, 100, 3),), (slice(None), slice(None), slice(None, None, -2)), (),
    (slice(None), -1), (2, slice(None, None, -1)), (-1, slice(1, 3), -2), (slice(4, None, -1), 1), (slice(1, 1), 0),
    # one int with every other axis whole (one ember_select in the C fast path), beside keys
    # that differ from it by one slice
    (Ellipsis, -2), (slice(None), slice(None), 4), (slice(None), 0, slice(None)), (slice(None), 0, slice(1, None)),
    (slice(None, None, -1), 2), (Ellipsis, 0, None),
    # empty slices with a negative step whose start lies below -n (adjusted to -1, which
    # ember_slice would read as the last element)
    (slice(-5, None, -1),), (slice(-5, 0, -1),), (slice(None), slice(-9, 0, -2)), (slice(-4, None, -1), 1),
]


@pytest.mark.parametrize("key", KEYS, ids=[repr(k) for k in KEYS])
def test_basic_indexing(backend, key):
    x = em.asarray(A)
    got = x[key]
    want = A[key]
    np.testing.assert_array_equal(np.asarray(got), want)


# Keys the C fast path of __getitem__ takes (ints, slices, tuples of them) or hands back
# to Python: huge bounds, NumPy integers, bools, an int too big for int64.
B = np.arange(10, dtype=np.float32)
FAST_KEYS = [
    3, -10, slice(2, 5), slice(None, None, -3), slice(8, None, -1), slice(-2**70, 2**70), slice(2**70, None, -2),
    slice(np.int64(1), np.int32(9), np.int8(3)), np.int64(4), True, False, (slice(1, 4),), (-1,),
]


@pytest.mark.parametrize("key", FAST_KEYS, ids=[repr(k) for k in FAST_KEYS])
def test_fast_getitem_keys(backend, key):
    np.testing.assert_array_equal(np.asarray(em.asarray(B)[key]), B[key])


def test_fast_getitem_is_installed_and_gives_views(backend):
    assert type(em.Array.__getitem__).__name__ == "method_descriptor"
    x = em.asarray(A.copy())
    w = A.copy()
    v = x[1, 1:4, ::-2]
    v[...] = -1.0
    w[1, 1:4, ::-2] = -1.0
    np.testing.assert_array_equal(np.asarray(x), w)
    with pytest.raises(IndexError, match="out of bounds for axis 0"):
        em.asarray(B)[2**70]
    with pytest.raises(IndexError, match="out of bounds for axis 1"):
        x[0, -6]
    with pytest.raises(ValueError, match="step cannot be zero"):
        em.asarray(B)[1:3:0]
    with pytest.raises(IndexError):
        x[..., 0, ...]
    s = np.float32(2.5)
    for key in [(), Ellipsis, None, (None, Ellipsis, None)]:  # 0-d
        got = em.asarray(s)[key]
        assert got.shape == np.asarray(s)[key].shape
        np.testing.assert_array_equal(np.asarray(got), np.asarray(s)[key])
    for key in [(None, Ellipsis, 0, None), (Ellipsis, None, slice(None, None, -1)), (None, None, 1, 2, 3)]:
        np.testing.assert_array_equal(np.asarray(x[key]), w[key])


ADV = [
    ([0, 2],), (np.array([2, 0, -1]),), (slice(None), [3, 1]), (slice(None), slice(None), [0, 4, 4]),
    ([0, 2], [1, 3]), ([[0], [2]], [1, 3]), (0, [1, 2], slice(None)), ([0, 1], slice(None), [2, 3]),
    (Ellipsis, [1]), (np.array([True, False, True]),), (A[:, :, 0] > 20,), (A > 30,),
    (slice(None), np.array([True, False, True, True])), (1, A[1] > 28), (None, [0, 1]),
    # one index array (a take) and one leading mask (a nonzero and a take): 2-d, negative,
    # int8 indices, a mask that selects nothing, a 2-d mask
    (np.array([[2, -1], [0, 1]]),), (np.array([-3, 1], dtype=np.int8),), (slice(None), [-4]), (A < -1,),
    (A[:, :, 0] < 0,), (A[:, :, 1] % 3 == 0,),
    # an integer and an index array apart (a slice, `...` or None between): NumPy puts the
    # advanced axes first
    (0, slice(None), [0, 1]), (0, slice(None), np.array([True, False, True, False, False])), (0, Ellipsis, [0, 1]),
    (slice(None), [0, 1], None, 0), ([0, 1], None, [0, 1]), (slice(None), 0, [1, 2]), ([2], slice(1, 3), -1),
    # a 0-d bool beside index arrays: its new axis is indexed by [0] or [] and broadcast
    (True, [0, 1]), ([0, 1], True), (slice(None), True, [1, 2]), (True, slice(None), [1, 2]), (True, 0, [1]),
    (True, False, [0]), (True, [[0], [1]], [1, 2]), (None, True, [2]), ([1], Ellipsis, True), (True, [0, 1], True),
]


@pytest.mark.parametrize("key", ADV, ids=[f"adv{i}" for i in range(len(ADV))])
def test_advanced_indexing(backend, key):
    x = em.asarray(A)
    conv = tuple(em.asarray(k) if isinstance(k, np.ndarray) else k for k in key)
    got = x[conv]
    want = A[key]
    np.testing.assert_array_equal(np.asarray(got), want)


def test_mask_and_index_array_on_views(backend):
    x = em.asarray(A)
    for view, w in [(x.T, A.T), (x[::-1, 1:, ::2], A[::-1, 1:, ::2]), (x[1], A[1])]:
        m = w > 25
        np.testing.assert_array_equal(np.asarray(view[em.asarray(m)]), w[m])
        strided = em.asarray(np.ascontiguousarray(m.T)).T  # the mask itself a transposed view
        np.testing.assert_array_equal(np.asarray(view[strided]), w[m])
        lead = m[..., 0]  # over the leading axes only
        np.testing.assert_array_equal(np.asarray(view[em.asarray(lead)]), w[lead])
        np.testing.assert_array_equal(np.asarray(view[em.asarray([-1, 0, -1])]), w[[-1, 0, -1]])


def test_python_path_selects_masks_as_the_c_path(backend):
    # x[mask] is the C fast path's (ember_py_mask_select); the Python method it falls back to
    # takes a mask as index arrays and must give the same
    from ember._array import _getitem
    x = em.asarray(A)
    for m in [A > 30, A[:, :, 0] > 20, A > 1e9, A[:, :, 1] % 3 == 0]:
        key = em.asarray(m)
        got = _getitem(x, key)
        assert got.shape == x[key].shape == A[m].shape
        np.testing.assert_array_equal(np.asarray(got), A[m])


def test_index_errors(backend):
    x = em.asarray(A)
    with pytest.raises(IndexError):
        x[3]
    with pytest.raises(IndexError):
        x[0, 0, 0, 0]
    with pytest.raises(IndexError):
        x[[0, 7]]
    with pytest.raises(IndexError):
        x[[0, -4]]
    with pytest.raises(IndexError):
        x[:, em.asarray([4], dtype=em.uint8)]
    with pytest.raises(IndexError):
        x[em.asarray(A[0] > 1)]  # a mask of the wrong shape
    with pytest.raises(IndexError):
        x[..., ...]
    with pytest.raises(IndexError):
        x[em.asarray([1.5])]
    with pytest.raises(IndexError):
        em.asarray(1.0)[0]
    with pytest.raises(IndexError):
        em.asarray(1.0)[:]
    with pytest.raises(IndexError):
        x[0, 9]
    with pytest.raises(IndexError):
        x[:, -5]
    with pytest.raises(IndexError):
        x[:, :, :, 0]
    with pytest.raises(ValueError):
        x[::0]
    with pytest.raises(ValueError):
        x[1, ::0]
    # as NumPy: IndexError for keys that are no index and index arrays that do not broadcast
    for key in ("a", (0, "a"), b"x", {0: 1}, 1.0, (0, 1.5), ([0, 1], [0, 1, 2]), (False, [0, 1])):
        with pytest.raises(IndexError):
            x[key]
        with pytest.raises(IndexError):
            A[key]


def test_setitem(backend):
    x = em.asarray(A.copy())
    w = A.copy()
    for key, val in [((0, 1), 7.0), ((slice(None), 2), -1.0), ((Ellipsis, slice(None, None, 2)), 3),
                     ((1,), np.arange(20.0).reshape(4, 5)), ((slice(None), slice(1, 3), 0), np.array([1.0, 2.0])),
                     (2, 8), (slice(0, 1), -2.5), ((None, 0, Ellipsis, 1), np.array([5.0])), ((-1, -1, -1), True),
                     (slice(-5, None, -1), 9.0), ((0, slice(-9, None, -1)), 9.0),
                     ((1, 2), np.array([[1.0, 2.0, 3.0, 4.0, 5.0]])), (Ellipsis, np.full((1, 1, 1, 5), 4.0))]:
        x[key] = em.asarray(val) if isinstance(val, np.ndarray) else val
        w[key] = val
        np.testing.assert_array_equal(np.asarray(x), w)
    m = A > 40
    x[em.asarray(m)] = 0.5
    w[m] = 0.5
    np.testing.assert_array_equal(np.asarray(x), w)
    x[[0, 2], 1] = 9.0
    w[[0, 2], 1] = 9.0
    np.testing.assert_array_equal(np.asarray(x), w)
    # an empty target still checks the value's shape
    for key, val in ((slice(0, 0), []), ((slice(None), slice(2, 2)), [1.0, 2.0])):
        with pytest.raises(ValueError):
            w[key] = val
        with pytest.raises(ValueError):
            x[key] = val
    x[0:0] = np.zeros((4, 5))
    w[0:0] = np.zeros((4, 5))
    np.testing.assert_array_equal(np.asarray(x), w)


def test_setitem_through_view_and_dtype_conversion(backend):
    x = em.zeros((3, 3), dtype=em.int32)
    row = x[1]
    row[...] = 5.7           # assign converts (toward zero) into the int32 view
    assert x.tolist() == [[0, 0, 0], [5, 5, 5], [0, 0, 0]]
    x[:, 0] = em.asarray([1, 2, 3])
    assert x[:, 0].tolist() == [1, 2, 3]
    b = em.zeros((2, 4), dtype=em.bfloat16)  # integer-array assignment without a NumPy dtype
    b[[1, 0], [3, 1]] = em.asarray([2.5, -1.0])
    assert b.dtype == em.bfloat16 and b.tolist() == [[0.0, -1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 2.5]]


def test_setitem_from_an_overlapping_view_matches_numpy(backend):
    x = em.asarray(np.arange(10.0))
    w = np.arange(10.0)
    x[1:] = x[:-1]
    w[1:] = w[:-1]
    np.testing.assert_array_equal(np.asarray(x), w)
    x[:-2] = x[2:]
    w[:-2] = w[2:]
    np.testing.assert_array_equal(np.asarray(x), w)
    y = em.asarray(np.arange(16).reshape(4, 4))
    v = np.arange(16).reshape(4, 4)
    y[...] = y.T
    v[...] = v.T
    np.testing.assert_array_equal(np.asarray(y), v)
    y[::-1] = y
    v[::-1] = v
    np.testing.assert_array_equal(np.asarray(y), v)


def test_len_iter_conversions(backend):
    x = em.asarray(A)
    assert len(x) == 3
    rows = list(x)
    assert len(rows) == 3 and isinstance(rows[0], em.Array)
    np.testing.assert_array_equal(np.asarray(rows[2]), A[2])
    assert int(em.asarray(7)) == 7
    assert float(em.asarray(2.5, dtype=em.float64)) == 2.5
    assert complex(em.asarray(1 + 1j)) == 1 + 1j
    assert bool(em.asarray([1])) is True
    assert bool(em.asarray(0.0)) is False
    assert [10, 20, 30][em.asarray(1)] == 20
    with pytest.raises(TypeError):
        [1, 2][em.asarray(1.0)]
    for values in ([1, 2], []):  # NumPy: ValueError, also for no elements
        with pytest.raises(ValueError):
            bool(em.asarray(values))
    with pytest.raises(TypeError):
        len(em.asarray(1.0))
    # the C conversions (install_properties): every kind, as Python's own scalars would
    for value, dt in ((-7, em.int8), (2 ** 64 - 1, em.uint64), (2 ** 63 + 5, em.uint64), (True, em.bool), (-2.75, em.float32),
                      (0.5, em.float16), (1.5 - 2j, em.complex64), (0, em.uint8), (-0.0, em.float64)):
        a = em.asarray(value, dtype=dt)
        assert a.item() == value and type(a.item()) is type(value), (value, dt)
        assert bool(a) == bool(value) and bool(a[None]) == bool(value)
        if dt.kind != "c":
            assert float(a) == float(value) and type(float(a)) is float
            assert int(a) == int(value) and type(int(a)) is int
        else:
            for convert in (float, int):
                with pytest.raises(TypeError):
                    convert(a)
        if dt.kind in "iu":
            assert operator.index(a) == value
        else:
            with pytest.raises(TypeError):
                operator.index(a)
    assert len(em.zeros((4, 2))) == 4 and len(em.zeros((0,))) == 0
    assert em.asarray(2 ** 64 - 1).dtype == em.uint64 == np.asarray(2 ** 64 - 1).dtype
    assert em.full((2,), 2 ** 63, dtype=em.uint64).tolist() == [2 ** 63] * 2
    with pytest.raises(OverflowError):
        em.asarray(2 ** 64)
    with pytest.raises(ValueError):
        int(em.asarray(float("nan")))
    with pytest.raises(OverflowError):
        int(em.asarray(float("inf")))
    with pytest.raises(ValueError):
        em.zeros(2).item()
    with pytest.raises(TypeError):
        float(em.zeros(2))
    assert x.tolist() == A.tolist()
    assert em.asarray(3).item() == 3 and isinstance(em.asarray(3).item(), int)
    assert em.asarray(True).item() is True
    assert em.asarray([2 ** 64 - 1], dtype=em.uint64).item() == 2 ** 64 - 1
    assert em.zeros((2, 0, 3)).tolist() == [[], []]
    for dt in (em.float16, em.bfloat16):  # no "e" memoryview format before Python 3.12
        h = em.asarray([[1.5, -2.25], [0.0, 65504.0 if dt == em.float16 else 3.0]], dtype=dt)
        assert h.tolist() == [[1.5, -2.25], [0.0, 65504.0 if dt == em.float16 else 3.0]]
        assert isinstance(h.tolist()[0][0], float) and h[0, 1].item() == -2.25


def test_array_slots_and_a_subclass(backend):
    """Array's slots for len, bool, float, int, index, x[k] and x[k] = v are the C functions
    themselves (bindings/ember.i, ember_py_owns_slots); a subclass reaches the same C methods
    by name through CPython's slots. del x[k] raises NumPy's error."""
    class Sub(em.Array):
        __slots__ = ()

    for cls in (em.Array, Sub):
        x = em.asarray(A)
        x.__class__ = cls
        assert len(x) == 3 and type(x[1]) is em.Array
        np.testing.assert_array_equal(np.asarray(x[1]), A[1])
        x[0, 0, 0] = 42.0  # one element: the C path
        x[2] = x[1]  # not one element: the Python method
        want = A.copy()
        want[0, 0, 0], want[2] = 42.0, A[1]
        np.testing.assert_array_equal(np.asarray(x), want)
        one, zero_d = em.asarray([5], dtype=em.int32), em.asarray(1.0)
        one.__class__ = zero_d.__class__ = cls
        assert (float(one), int(one), operator.index(one), bool(one)) == (5.0, 5, 5, True)
        with pytest.raises(TypeError):
            len(zero_d)
        with pytest.raises(IndexError):
            x[3]
    with pytest.raises(ValueError, match="cannot delete"):
        del em.asarray(A)[0]

def test_tolist_with_and_without_numpy(backend, monkeypatch):
    """tolist goes through NumPy when it imports, else through memoryview: the same scalars."""
    from ember import _array
    cases = [em.asarray(np.arange(12, dtype=np.float32).reshape(3, 4))[:, ::2], em.asarray(np.array([1 + 2j, -0.5j])),
             em.asarray([True, False]), em.asarray([2 ** 64 - 1], dtype=em.uint64), em.asarray(-7), em.zeros((2, 0, 3)),
             em.asarray([[1.5, -2.25]], dtype=em.bfloat16), em.asarray([65504.0], dtype=em.float16)]
    with_numpy = [x.tolist() for x in cases]
    monkeypatch.setattr(_array, "_NUMPY", [None])
    without = [x.tolist() for x in cases]
    assert repr(with_numpy) == repr(without)
    assert without[0] == [[0.0, 2.0], [4.0, 6.0], [8.0, 10.0]] and without[1] == [1 + 2j, -0.5j] and without[4] == -7


def test_repr_str(backend):
    x = em.asarray([[1.0, 2.5], [3.0, 4.0]], dtype=em.float64)
    r = repr(x)
    assert r.startswith("Array([[1. , 2.5],") and "dtype=float64" in r
    assert str(x) == "[[1.  2.5]\n [3.  4. ]]"
    assert str(em.asarray(3)) == "3"
    assert "dtype=int64" in repr(em.asarray([1, 2]))
    assert "bool" in repr(em.asarray([True]))


_ELEMENT_VALUES = [True, False, 0, 1, -1, 7, 127, 128, 255, 256, -128, -129, 65535, 65536, -32769, 2**31 - 1,
                   2**31, -2**31 - 1, 2**32, 2**53, 2**53 + 1, -2**53 - 1, 2**63 - 1, -2**63, 2**63, 2**64,
                   0.0, -0.0, 1.5, -2.75, 1e-45, 3.5e38, 1e300, float("inf"), float("nan"), 1 + 2j,
                   np.float32(2.5), np.int64(3)]


def _outcome(fn):
    try:
        fn()
        return None
    except Exception as e:  # noqa: BLE001 - the class is what is compared
        return type(e)


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
                                   "float16", "bfloat16", "float32", "float64", "complex64", "complex128"])
def test_element_assignment_matches_the_python_path(backend, dtype):
    """x[i, j] = v runs in C for host tensors (ember_setitem.i); the Python method it falls
    back to is the oracle: the same stored bits, or the same exception, for every value."""
    from ember._array import _setitem_in_python
    dt = getattr(em, dtype)
    base = em.zeros((4, 6), dtype=dt)
    views = [(base, (2, -1)), (base.T, (-1, 3)), (base[::2, 1::2], (1, 2)), (base[1], (4,)),
             (em.zeros((), dtype=dt), ())]
    for value in _ELEMENT_VALUES:
        for target, key in views:
            fast, slow = em.asarray(target, copy=True), em.asarray(target, copy=True)
            fast_error = _outcome(lambda: fast.__setitem__(key, value))
            slow_error = _outcome(lambda: _setitem_in_python(slow, key, value))
            assert fast_error == slow_error, (dtype, value, key)
            np.testing.assert_array_equal(np.asarray(fast.astype(em.float64) if dtype == "bfloat16" else fast),
                                          np.asarray(slow.astype(em.float64) if dtype == "bfloat16" else slow),
                                          err_msg=f"{dtype} {value!r} {key}")


def test_element_assignment_keeps_the_python_paths_errors(backend):
    x = em.zeros((3, 4))
    for key, error in [((3, 0), IndexError), ((0, -5), IndexError), ((0, 0, 0), IndexError), ((True, 0), None),
                       ((2**70, 0), IndexError)]:
        assert _outcome(lambda: x.__setitem__(key, 1.0)) == error, key
    y = em.zeros((2, 2), dtype=em.uint8)
    with pytest.raises(OverflowError):
        y[0, 0] = 256
    with pytest.raises(OverflowError):
        y[0, 0] = -1
    assert y.tolist() == [[0, 0], [0, 0]]
    other = "reference" if backend != "reference" else next((b for b in em.backends() if b != "reference"), None)
    if other is not None:
        with em.using_backend(other), pytest.raises(em.BackendMismatchError):
            x[2, 3] = 2.0
    assert x.tolist()[2][3] == 0.0
    if em.Array.__dlpack_device__(x)[0] == 1:  # host memory: a read-only wrap stays unwritten
        source = np.zeros(3)
        source.flags.writeable = False
        r = em.from_dlpack(source)
        with pytest.raises(ValueError):
            r[1] = 5.0
        assert source[1] == 0.0


def test_fast_getitem_matches_the_python_path_on_random_keys(backend):
    # The C __getitem__ computes a basic key's view itself (one ember_as_strided); the Python
    # method builds it from slice, squeeze and expand_dims. Random keys of ints, slices, None
    # and `...` over a C-order, a transposed and a stepped view: NumPy's values, and the
    # Python path's shape and strides.
    import random
    from ember._array import _getitem
    rng = random.Random(5)
    x0 = em.asarray(A)
    bases = [x0, x0.T, x0[::-1, 1:, ::2]]

    def bound():
        return rng.choice([None, rng.randint(-7, 7)])

    checked = 0
    for _ in range(3000):
        x = rng.choice(bases)
        a = np.asarray(x)
        items, dim = [], 0
        for _ in range(rng.randint(0, 4)):
            if dim >= x.ndim:
                break
            r = rng.random()
            if r < 0.3:
                items.append(rng.randint(-x.shape[dim], x.shape[dim] - 1))
            elif r < 0.5:
                items.append(None)
                continue
            else:
                items.append(slice(bound(), bound(), rng.choice([None, 1, 2, -1, -2, 3])))
            dim += 1
        if rng.random() < 0.2:
            items.insert(rng.randint(0, len(items)), Ellipsis)
        key = tuple(items)
        try:
            want = a[key]
        except IndexError:  # an int behind a `...` may land on a shorter axis
            with pytest.raises(IndexError):
                x[key]
            continue
        got, slow = x[key], _getitem(x, key)
        assert got.shape == slow.shape == want.shape, key
        assert got.strides == slow.strides, key
        np.testing.assert_array_equal(np.asarray(got), want)
        checked += 1
    assert checked > 2500
