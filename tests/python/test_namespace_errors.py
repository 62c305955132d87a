"""The array API namespace surface, dtypes and promotion, errors, and handle lifetime."""
import gc
import math

import numpy as np
import pytest

import ember as em

ARRAY_API = """arange asarray empty empty_like eye from_dlpack full full_like linspace meshgrid ones ones_like tril
triu zeros zeros_like abs acos acosh add asin asinh atan atan2 atanh bitwise_and bitwise_left_shift bitwise_invert
bitwise_or bitwise_right_shift bitwise_xor ceil clip conj copysign cos cosh divide equal exp expm1 floor
floor_divide greater greater_equal hypot imag isfinite isinf isnan less less_equal log log1p log2 log10 logaddexp
logical_and logical_not logical_or logical_xor maximum minimum multiply negative nextafter not_equal positive pow
real reciprocal remainder round sign signbit sin sinh square sqrt subtract tan tanh trunc cumulative_sum
cumulative_prod max mean min prod std sum var broadcast_arrays broadcast_to concat expand_dims flip moveaxis
permute_dims repeat reshape roll squeeze stack tile unstack argmax argmin count_nonzero nonzero searchsorted where
argsort sort unique_all unique_counts unique_inverse unique_values matmul matrix_transpose tensordot vecdot all any
diff take take_along_axis astype can_cast finfo iinfo isdtype result_type bool int8 int16 int32 int64 uint8 uint16
uint32 uint64 float32 float64 complex64 complex128 e inf nan newaxis pi __array_namespace_info__
__array_api_version__""".split()

LINALG = """cholesky cross det diagonal eigh eigvalsh inv matmul matrix_norm matrix_power matrix_rank matrix_transpose
outer pinv qr slogdet solve svd svdvals tensordot trace vecdot vector_norm""".split()
FFT = "fft ifft fftn ifftn rfft irfft rfftn irfftn hfft ihfft fftfreq rfftfreq fftshift ifftshift".split()
EMBER_ML_OPS = """add subtract multiply divide matmul dot exp log log10 log2 pow power sqrt square abs sign sin cos
tan sinh cosh clip negative mod floor_divide floor ceil gradient equal not_equal less less_equal greater
greater_equal logical_and logical_or logical_not logical_xor allclose isclose all any where isnan to_device
get_device get_available_devices memory_usage memory_info synchronize set_default_device get_default_device
is_available save load""".split()


def test_array_api_names_present():
    missing = [n for n in ARRAY_API if not hasattr(em, n)]
    assert not missing, missing
    assert [n for n in LINALG if not hasattr(em.linalg, n)] == []
    assert [n for n in FFT if not hasattr(em.fft, n)] == []
    assert em.__array_api_version__ == "2024.12"
    assert em.newaxis is None and em.pi == math.pi and math.isnan(em.nan) and em.inf == float("inf")


def test_ember_ml_frontend_names():
    assert [n for n in EMBER_ML_OPS if not hasattr(em.ops, n)] == []
    for n in ("relu", "sigmoid", "tanh", "softmax", "softplus"):
        assert callable(getattr(em.nn.activations, n))
    for n in ("convert_to_tensor", "zeros", "ones", "eye", "full", "arange", "linspace", "reshape", "concatenate",
              "stack", "cast", "to_numpy"):
        assert callable(getattr(em.tensor, n))
    for n in ("set_backend", "get_backend", "auto_select_backend", "using_backend"):
        assert callable(getattr(em, n))
    t = em.tensor.convert_to_tensor([[1, 2], [3, 4]], dtype="float64")
    assert t.dtype == em.float64 and em.ops.power(t, 2).tolist() == [[1, 4], [9, 16]]
    np.testing.assert_allclose(np.asarray(em.ops.gradient(em.asarray([1.0, 4.0, 9.0, 16.0], dtype=em.float64))),
                               np.gradient([1.0, 4.0, 9.0, 16.0]))
    # edge_order 2 and a spacing along each axis of a 2-d array; integers give float64, as in numpy
    z = np.random.default_rng(3).standard_normal((5, 7))
    for ax in (0, 1):
        for eo in (1, 2):
            np.testing.assert_allclose(np.asarray(em.ops.gradient(em.asarray(z), 0.5, axis=ax, edge_order=eo)),
                                       np.gradient(z, 0.5, axis=ax, edge_order=eo), rtol=1e-13, atol=1e-13)
    got = em.ops.gradient(em.asarray(np.arange(12).reshape(3, 4) ** 2), edge_order=2)
    for g, w in zip(got, np.gradient(np.arange(12).reshape(3, 4) ** 2, edge_order=2)):
        assert g.dtype == em.float64
        np.testing.assert_allclose(np.asarray(g), w, rtol=1e-13)
    with pytest.raises(ValueError):
        em.ops.gradient(em.asarray([1.0, 2.0]), edge_order=2)


def test_random_is_seeded(backend):
    em.random.set_seed(5)
    a = em.random.random_uniform((3,)).tolist()
    em.random.set_seed(5)
    assert em.random.random_uniform((3,)).tolist() == a
    assert em.random.random_normal((2, 2), dtype=em.float64).dtype == em.float64
    em.random.set_seed(1)
    u = np.asarray(em.random.random_uniform((20000,), 2.0, 4.0, dtype=em.float64))
    assert u.min() >= 2.0 and u.max() < 4.0 and abs(u.mean() - 3.0) < 0.05
    n = np.asarray(em.random.random_normal((20000,), 1.0, 2.0, dtype=em.float64))
    assert abs(n.mean() - 1.0) < 0.1 and abs(n.std() - 2.0) < 0.1
    p = em.random.random_permutation(10)
    assert sorted(p.tolist()) == list(range(10))
    k = np.asarray(em.random.randint(3, 7, (1000,)))
    assert k.min() >= 3 and k.max() < 7
    assert em.random.shuffle(em.arange(5)).shape == (5,)


PROMOTIONS = [
    ("int8", "uint8", "int16"), ("int32", "uint32", "int64"), ("float16", "float32", "float32"),
    ("float32", "complex64", "complex64"), ("float64", "complex64", "complex128"), ("bool", "int8", "int8"),
    ("uint8", "uint16", "uint16"), ("float16", "bfloat16", "float32"), ("int64", "float16", "float16"),
]


@pytest.mark.parametrize("a,b,want", PROMOTIONS)
def test_promotion(backend, a, b, want):
    assert em.result_type(getattr(em, a), getattr(em, b)) == want
    x = em.ones((2,), dtype=getattr(em, a))
    y = em.ones((2,), dtype=getattr(em, b))
    assert (x + y).dtype == want


def test_int64_uint64_has_no_common_type(backend):
    with pytest.raises(TypeError):
        em.result_type(em.int64, em.uint64)
    with pytest.raises(TypeError):
        em.ones((1,), dtype=em.int64) + em.ones((1,), dtype=em.uint64)


def test_weak_scalars(backend):
    assert (em.ones((2,), dtype=em.float16) + 0.5).dtype == em.float16
    assert (em.ones((2,), dtype=em.int8) + 1).dtype == em.int8
    assert (em.ones((2,), dtype=em.int8) + 1.5).dtype == em.float32
    assert (em.ones((2,), dtype=em.bool) + 1).dtype == em.int64
    assert (em.ones((2,), dtype=em.float32) * 1j).dtype == em.complex64
    assert (2 * em.ones((2,), dtype=em.uint8)).dtype == em.uint8
    assert em.result_type(em.int8, 1) == em.int8
    assert em.result_type(em.int8, 1.0) == em.float32
    assert (em.ones((1,)) + 2 ** 70).dtype == em.float32  # NumPy 2: a float array takes it as a float
    with pytest.raises(OverflowError):
        em.ones((1,), dtype=em.int64) + 2 ** 70


def test_python_ints_out_of_the_dtypes_range_match_numpy(backend):
    """NumPy 2: arithmetic, assignment and creation raise OverflowError; comparisons are exact."""
    values = [0, 7, 255]
    x, ref = em.asarray(values, dtype=em.uint8), np.asarray(values, dtype=np.uint8)
    for s in (-1, 256, 1000):
        for op in ("__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__"):
            np.testing.assert_array_equal(getattr(x, op)(s).numpy(), getattr(ref, op)(s), err_msg=f"{op} {s}")
        np.testing.assert_array_equal((s < x).numpy(), s < ref)
        for f in (lambda a: a + s, lambda a: s - a, lambda a: a * s, lambda a: np.maximum(a, s) if isinstance(a, np.ndarray) else em.maximum(a, s)):
            with pytest.raises(OverflowError):
                f(ref)
            with pytest.raises(em.EmberOverflowError):
                f(x)
    np.testing.assert_array_equal((x / 300).numpy(), (ref / 300).astype(np.float32), strict=False)
    np.testing.assert_array_equal(em.clip(x, -1, 10).numpy(), np.clip(ref, -1, 10))
    np.testing.assert_array_equal(x.clip(-5, 300).numpy(), ref.clip(-5, 300))
    for lo, hi in ((300, None), (None, -1)):
        with pytest.raises(OverflowError):
            em.clip(x, lo, hi)
    with pytest.raises(OverflowError):
        x[0] = 256
    with pytest.raises(OverflowError):
        x += 300
    with pytest.raises(OverflowError):
        em.full((2,), -1, dtype=em.uint8)
    for bad in (300, [1, 300], [[1], [-1]]):
        with pytest.raises(OverflowError):
            em.asarray(bad, dtype=em.uint8)
    with pytest.raises(OverflowError):
        em.asarray([1, 2 ** 40], dtype=em.int32)
    np.testing.assert_array_equal(x.numpy(), ref)  # nothing above wrote
    assert em.asarray([1, True, 255], dtype=em.uint8).tolist() == [1, 1, 255]
    assert em.asarray([-128, 127], dtype=em.int8).tolist() == [-128, 127]
    assert (em.asarray([0, 2 ** 63 + 5], dtype=em.uint64) > -1).tolist() == [True, True]


def test_assigned_values_are_checked_against_the_target_dtype(backend):
    """As NumPy: lists are made in the target's dtype, complex numbers do not go into reals."""
    for make in (lambda: em.asarray([0, 5, 255], dtype=em.uint8), lambda: np.asarray([0, 5, 255], dtype=np.uint8)):
        x = make()
        for key, value in ((slice(0, 2), [1, 300]), (x > 3, 300), (0, -1), (Ellipsis, [300, 1, 1])):
            with pytest.raises(OverflowError):
                x[key] = value
        x[:2] = [1.7, 3]
        x[x > 200] = 7
        assert x.tolist() == [1, 3, 7]
    for make in (lambda: em.asarray([0.0, 5.0]), lambda: np.asarray([0.0, 5.0], dtype=np.float32)):
        x = make()
        for key, value in ((0, 1j), (slice(None), [1j, 2]), (x > 3, 2j)):
            with pytest.raises(TypeError):
                x[key] = value
        assert x.tolist() == [0.0, 5.0]
    with pytest.raises(TypeError):
        em.asarray([1j, 2], dtype=em.float32)
    assert em.asarray([1j, 2]).dtype == em.complex64


def test_lists_of_numpy_scalars_take_numpys_dtype(backend):
    for leaves in ([np.float64(1.5), 2], [np.float32(1.5), 2], [np.float32(1.5)], [np.uint8(1), True], [[np.complex64(1j)], [2.5]]):
        assert em.asarray(leaves).dtype == np.asarray(leaves).dtype, leaves
        np.testing.assert_array_equal(em.asarray(leaves).numpy(), np.asarray(leaves))
    assert em.asarray([np.int16(3), np.int16(4)]).tolist() == [3, 4]
    assert em.asarray([np.int16(3)]).dtype == em.int16
    assert em.asarray([np.int64(3)], dtype=em.float32).dtype == em.float32
    with pytest.raises(TypeError):
        em.asarray([object()])


def test_dtype_objects():
    assert em.float32 == "float32" and em.float32 == np.float32 and em.float32 != em.float64
    assert em.int64.itemsize == 8 and em.complex64.itemsize == 8
    assert em.isdtype(em.float32, "real floating") and em.isdtype(em.int8, ("bool", "integral"))
    assert not em.isdtype(em.uint8, "signed integer")
    assert em.can_cast(em.int8, em.int16) and not em.can_cast(em.int16, em.int8)
    assert em.finfo(em.float64).eps == np.finfo(np.float64).eps
    assert em.finfo(em.float32).max == float(np.finfo(np.float32).max)
    assert em.finfo(em.float16).smallest_normal == float(np.finfo(np.float16).smallest_normal)
    assert em.iinfo(em.uint16).max == 65535 and em.iinfo(em.int64).min == -(2 ** 63)
    assert em.astype(em.asarray([1.7, -1.7]), em.int32).tolist() == [1, -1]
    assert em.astype(em.asarray([1.0, 0.0]), em.bool).tolist() == [True, False]
    assert len({em.float32, em.float32, em.int8}) == 2


def test_errors_map_to_python_exceptions(backend):
    a = em.ones((2, 3))
    with pytest.raises(ValueError, match="ember_add"):
        a + em.ones((4,))
    with pytest.raises(em.ShapeError):
        em.matmul(a, a)
    with pytest.raises(TypeError):
        em.bitwise_and(a, a)                  # float bitwise: dtype error
    with pytest.raises(em.DTypeError):
        em.sqrt(em.ones((1,), dtype=em.int64)) & 1
    with pytest.raises(IndexError):
        em.sum(a, axis=5)
    with pytest.raises(ValueError):
        em.reshape(a, (4, 4))
    with pytest.raises(ValueError):
        em.max(em.zeros((0,)))
    try:
        a + em.ones((4,))
    except em.EmberError as e:
        assert e.status == 200 and "cannot be broadcast" in str(e)
    assert issubclass(em.BackendMismatchError, ValueError)
    assert issubclass(em.LinAlgError, ValueError)
    with pytest.raises(TypeError):
        a + "text"
    with pytest.raises(TypeError):
        em.Array()


def test_low_level_wrappers_reject_bad_calls_without_crashing():
    # A wrapper that fails before converting its int64-array argument (wrong argument count,
    # an earlier argument of the wrong type) used to free that argument's uninitialised
    # buffer: "free(): invalid pointer" and an abort.
    from ember import _ember_c as c
    a = em.ones((4, 5))
    calls = [
        lambda: c.ember_standardize(a._h, [1], 0),             # one argument too many
        lambda: c.ember_standardize("text", [1]),              # x not a tensor
        lambda: c.ember_reshape("not a tensor", (5, 4)),
        lambda: c.ember_sum(a._h, list(range(40)), 0, 1),      # a long (heap) axes list, extra argument
        lambda: c.ember_permute_dims(a._h),                    # axes missing
        lambda: c.ember_pad(1.5, [1, 1, 1, 1], 0, 0.0),
    ]
    for _ in range(20):
        for call in calls:
            with pytest.raises(TypeError):
                call()
    assert em.sum(a).item() == 20.0


def test_live_count_returns_to_start():
    gc.collect()
    start = em.live_tensor_count()
    a = em.ones((1,))
    for _ in range(1_000_000):
        b = a + a
    del a, b
    gc.collect()
    assert em.live_tensor_count() == start


def test_views_and_zero_copy_keep_count_balanced(backend):
    gc.collect()
    start = em.live_tensor_count()
    arr = np.arange(10.0)
    for _ in range(1000):
        x = em.asarray(arr, copy=False) if em._ember_c.ember_py_host_address(em.ones((1,))._h) else em.asarray(arr)
        y = x[::2].T
        n = np.asarray(em.asarray([1.0, 2.0]))
        c = np.from_dlpack(x)
        d = em.from_dlpack(np.arange(3.0))
    del x, y, n, c, d
    gc.collect()
    assert em.live_tensor_count() == start


def test_gil_released_for_large_ops():
    # The worker loops over large ops until the main thread has run three times. With a
    # switch interval far longer than the worker's deadline, the interpreter never takes
    # the GIL from the worker: the main thread can run only while an op has released it.
    # (Counting ticks during a fixed amount of work instead depended on the OS scheduling
    # the main thread while both cores ran the op's threads, and failed at random.)
    import sys
    import threading
    import time
    x = em.ones((2_000_000,), dtype=em.float64)
    ticks = [0]
    finished_by = []

    def work():
        deadline = time.monotonic() + 5.0
        while ticks[0] < 3 and time.monotonic() < deadline:
            em.sum(em.exp(x))
        finished_by.append("ticks" if ticks[0] >= 3 else "deadline")
    old_interval = sys.getswitchinterval()
    sys.setswitchinterval(60.0)
    try:
        t = threading.Thread(target=work)
        t.start()
        while t.is_alive():
            ticks[0] += 1
            time.sleep(0.001)
        t.join()
    finally:
        sys.setswitchinterval(old_interval)
    assert finished_by == ["ticks"], ticks[0]


def test_type_stubs_match_the_runtime():
    # __init__.pyi is written by hand next to the code: every public callable must be in it,
    # with the runtime's parameter names in the runtime's order (out= included).
    import ast
    import inspect
    import os
    stub = os.path.join(os.path.dirname(em.__file__), "__init__.pyi")
    tree = ast.parse(open(stub).read())
    declared, functions = set(), {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            declared.add(node.name)
        if isinstance(node, ast.FunctionDef):
            functions[node.name] = node.args
        elif isinstance(node, ast.AnnAssign):
            declared.add(node.target.id)
        elif isinstance(node, ast.Assign):
            declared.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.ImportFrom):
            declared.update(a.asname or a.name for a in node.names)
    public = [n for n in dir(em) if not n.startswith("_") and callable(getattr(em, n))
              and not inspect.ismodule(getattr(em, n))]
    assert len(public) > 150
    assert [n for n in public if n not in declared] == []
    checked = 0
    for name, a in functions.items():
        try:
            runtime = list(inspect.signature(getattr(em, name)).parameters)
        except (TypeError, ValueError):  # a class or builtin without a signature
            continue
        stub_params = [p.arg for p in a.posonlyargs + a.args] + ([a.vararg.arg] if a.vararg else []) \
            + [p.arg for p in a.kwonlyargs] + ([a.kwarg.arg] if a.kwarg else [])
        assert stub_params == runtime, name
        checked += 1
    assert checked > 150
