"""Random cases against NumPy: elementwise ops, reductions, scans, sorts and manipulation on
random shapes (0-d and empty included), every dtype NumPy shares with Ember, and
transposed, reversed and stepped views, on the reference and cpu backends. Seeded: a
failure names its case and reruns the same way. Skipped, because Ember differs on purpose:
integer inputs to float functions (Ember gives the default float, float32), arithmetic on
bool and ordering of complex numbers (the array API refuses them), and non-finite complex
results (Ember follows C99 Annex G, NumPy does not)."""
import operator
import warnings

import numpy as np
import pytest

import ember as em

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32", "float64",
          "complex64", "complex128"]
SIZES = [0, 1, 1, 2, 3, 5, 8, 17, 40]
UNARY = ["abs", "negative", "positive", "square", "sign", "floor", "ceil", "trunc", "round", "isnan", "isinf", "isfinite",
         "logical_not", "bitwise_invert", "signbit", "real", "imag", "conj", "exp", "log", "sqrt", "sin", "cos", "tanh",
         "asinh", "log1p", "expm1", "reciprocal", "cbrt"]
BINARY = ["add", "subtract", "multiply", "divide", "floor_divide", "remainder", "fmod", "maximum", "minimum", "equal", "not_equal",
          "less", "less_equal", "greater", "greater_equal", "logical_and", "logical_or", "logical_xor", "bitwise_and",
          "bitwise_or", "bitwise_xor", "atan2", "hypot", "copysign", "logaddexp"]
# Functions whose integer inputs keep an integer or bool result (the others are float functions).
INTEGER_OK = {"abs", "negative", "positive", "square", "sign", "floor", "ceil", "trunc", "round", "isnan", "isinf",
              "isfinite", "logical_not", "bitwise_invert", "real", "imag", "conj", "add", "subtract", "multiply",
              "floor_divide", "remainder", "fmod", "maximum", "minimum", "equal", "not_equal", "less", "less_equal", "greater",
              "greater_equal", "logical_and", "logical_or", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor"}
NUMPY_NAME = {"bitwise_invert": "invert", "atan2": "arctan2", "asinh": "arcsinh", "cumulative_sum": "cumsum"}
REDUCTIONS = ["sum", "prod", "max", "min", "mean", "var", "std", "argmax", "argmin", "any", "all", "count_nonzero"]
CASES = 1500


def random_array(rng, shape, dtype):
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return rng.random(shape) < 0.5
    if dt.kind in "iu":
        info = np.iinfo(dt)
        lo, hi = (max(info.min, -100), min(info.max, 100)) if rng.random() < 0.7 else (info.min, info.max)
        return rng.integers(lo, hi, shape, dtype=dt, endpoint=True)
    x = rng.standard_normal(shape) * 10.0 ** int(rng.integers(-2, 3))
    if dt.kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    x = x.astype(dt)
    if x.size and rng.random() < 0.3:
        flat = x.reshape(-1)
        for special in (np.nan, np.inf, -np.inf, 0.0, -0.0):
            if rng.random() < 0.5:
                flat[rng.integers(0, x.size)] = special
    if x.size and rng.random() < 0.2:  # many zeros of both signs, whose signs results must keep
        signed_zeros = np.where(rng.random(x.shape) < 0.5, 0.0, -0.0).astype(dt)
        x = np.where(rng.random(x.shape) < 0.3, signed_zeros, x)
    return x


def random_shape(rng, max_ndim=4):
    return tuple(int(rng.choice(SIZES)) for _ in range(int(rng.integers(0, max_ndim + 1))))


def random_view(rng, x):
    """A random view of x and the same view of its Ember copy."""
    ex = em.asarray(x)
    for _ in range(int(rng.integers(0, 3))):
        if x.ndim >= 2 and rng.random() < 0.4:
            perm = tuple(int(p) for p in rng.permutation(x.ndim))
            x, ex = x.transpose(perm), em.permute_dims(ex, perm)
        elif x.ndim >= 1:
            key = tuple(slice(None, None, [1, -1, 2, -3][int(rng.integers(0, 4))]) for _ in range(x.ndim))
            x, ex = x[key], ex[key]
    return x, ex


def mismatch(got, want, atol=None, integer_input=False, rtol=None):
    """Why got (an Ember array) differs from want (NumPy's), or None. A float result of
    integer input may differ in width (Ember's default float is float32), and so may one
    compared with float64 math (atol given). rtol defaults to a few ulp of the width."""
    got, want = got.numpy(), np.asarray(want)
    if got.shape != want.shape:
        return f"shape {got.shape}, NumPy {want.shape}"
    if got.dtype != want.dtype:
        if got.dtype.kind in "fc" and want.dtype.kind in "fc" and (atol is not None or integer_input):
            want = want.astype(got.dtype)
        else:
            return f"dtype {got.dtype}, NumPy {want.dtype}"
    if want.dtype.kind not in "fc":
        bad = got != want
    else:
        width = want.dtype.itemsize // (2 if want.dtype.kind == "c" else 1)
        rtol = rtol or {2: 2e-3, 4: 2e-5, 8: 1e-12}[width]
        bad = np.zeros(got.shape, bool)
        for part in (np.real, np.imag):
            g, w = part(got).astype(np.float64), part(want).astype(np.float64)
            bad |= ~(np.isclose(g, w, rtol=rtol, atol=rtol * 1e-3 if atol is None else atol, equal_nan=True) | (g == w))
            if atol is None:  # exact zeros keep their sign: -(+0.0) is -0.0
                bad |= (g == 0) & (w == 0) & (np.signbit(g) != np.signbit(w))
    if np.any(bad):
        at = tuple(int(i) for i in np.argwhere(bad)[0])
        return f"at {at}: {got[at]!r}, NumPy {want[at]!r}"
    return None


def draw_elementwise(rng):
    dtype = str(rng.choice(DTYPES))
    if rng.random() < 0.5:
        name = str(rng.choice(UNARY))
        if name not in INTEGER_OK and np.dtype(dtype).kind in "iub":
            return None
        x, ex = random_view(rng, random_array(rng, random_shape(rng), dtype))
        return f"{name}({dtype}{x.shape}, strides {x.strides})", lambda: getattr(em, name)(ex), \
            lambda: getattr(np, NUMPY_NAME.get(name, name))(x), {}, dtype
    name = str(rng.choice(BINARY))
    if name not in INTEGER_OK and np.dtype(dtype).kind in "iub":
        return None
    shape = random_shape(rng)
    other = tuple(n if rng.random() < 0.7 else 1 for n in shape)[int(rng.integers(0, len(shape) + 1)):]
    if rng.random() < 0.5:
        shape, other = other, shape
    x, ex = random_view(rng, random_array(rng, shape, dtype))
    y = random_array(rng, other, dtype)
    return f"{name}({dtype}{x.shape} strides {x.strides}, {y.shape})", lambda: getattr(em, name)(ex, em.asarray(y)), \
        lambda: getattr(np, NUMPY_NAME.get(name, name))(x, y), {}, dtype


def draw_reduction(rng):
    dtype = str(rng.choice(DTYPES))
    name = str(rng.choice(REDUCTIONS + ["cumulative_sum", "sort", "argsort"]))
    x, ex = random_view(rng, random_array(rng, random_shape(rng), dtype))
    axis = None if x.ndim == 0 or rng.random() < 0.3 else int(rng.integers(-x.ndim, x.ndim))
    label = f"{name}({dtype}{x.shape}, strides {x.strides}, axis={axis})"
    if name in ("cumulative_sum", "sort", "argsort"):
        if x.ndim == 0 or (name == "cumulative_sum" and np.dtype(dtype).kind in "fc"):  # float scans: their own order
            return None
        axis = -1 if axis is None else axis
        kw = {} if name == "cumulative_sum" else {"kind": "stable"}
        return label, lambda: getattr(em, name)(ex, axis=axis), lambda: getattr(np, NUMPY_NAME.get(name, name))(x, axis=axis, **kw), {}, dtype
    if name in ("sum", "mean", "var", "std", "prod") and np.dtype(dtype).kind in "fc" and x.size:
        # Against float64 math: NumPy's own float32 sums along strided axes are naive.
        wide = x.astype(np.complex128 if np.dtype(dtype).kind == "c" else np.float64)
        atol = None
        if name in ("sum", "mean"):
            count = x.size if axis is None else x.shape[axis]
            scale = np.sum(np.abs(wide), axis=axis) / (count if name == "mean" else 1)
            width = np.dtype(dtype).itemsize // (2 if np.dtype(dtype).kind == "c" else 1)
            atol = 50 * {2: 1e-3, 4: 1e-6, 8: 1e-15}[width] * np.nan_to_num(np.max(scale), posinf=0)
        return label, lambda: getattr(em, name)(ex, axis=axis), lambda: getattr(np, name)(wide, axis=axis), \
            {"atol": atol if atol is not None else 0.0}, dtype
    if name in ("mean", "var", "std") and np.dtype(dtype).kind in "iub":
        # NumPy's float64 result rounded once: within 2 ulp of float32.
        return label, lambda: getattr(em, name)(ex, axis=axis), lambda: getattr(np, name)(x, axis=axis), {"rtol": 2.4e-7}, dtype
    return label, lambda: getattr(em, name)(ex, axis=axis), lambda: getattr(np, name)(x, axis=axis), {}, dtype


def draw_manipulation(rng):
    dtype = str(rng.choice(DTYPES))
    shape = tuple(int(rng.choice(SIZES)) for _ in range(int(rng.integers(1, 4))))
    x, ex = random_view(rng, random_array(rng, shape, dtype))
    axis = int(rng.integers(-x.ndim, x.ndim))
    name = str(rng.choice(["concat", "stack", "roll", "flip", "tile", "repeat", "take", "where", "moveaxis", "expand_dims"]))
    label = f"{name}({dtype}{x.shape}, strides {x.strides}, axis={axis})"
    if name == "concat":
        y = random_array(rng, x.shape, dtype)
        return label, lambda: em.concat([ex, em.asarray(y)], axis=axis), lambda: np.concatenate([x, y], axis=axis), {}, dtype
    if name == "stack":
        y = random_array(rng, x.shape, dtype)
        return label, lambda: em.stack([ex, em.asarray(y)], axis=axis), lambda: np.stack([x, y], axis=axis), {}, dtype
    if name == "roll":
        shift = int(rng.integers(-50, 50))
        return label, lambda: em.roll(ex, shift, axis=axis), lambda: np.roll(x, shift, axis=axis), {}, dtype
    if name == "flip":
        return label, lambda: em.flip(ex, axis=axis), lambda: np.flip(x, axis=axis), {}, dtype
    if name == "tile":
        reps = tuple(int(r) for r in rng.integers(0, 3, int(rng.integers(1, 4))))
        return label + f" reps {reps}", lambda: em.tile(ex, reps), lambda: np.tile(x, reps), {}, dtype
    if name == "repeat":
        count = int(rng.integers(0, 4))
        return label, lambda: em.repeat(ex, count, axis=axis), lambda: np.repeat(x, count, axis=axis), {}, dtype
    if name == "take":
        if x.shape[axis] == 0:
            return None
        idx = rng.integers(-x.shape[axis], x.shape[axis], int(rng.integers(0, 10)))
        return label, lambda: em.take(ex, em.asarray(idx), axis=axis), lambda: np.take(x, idx, axis=axis), {}, dtype
    if name == "where":
        cond, y = rng.random(x.shape) < 0.5, random_array(rng, x.shape[-1:], dtype)
        return label, lambda: em.where(em.asarray(cond), ex, em.asarray(y)), lambda: np.where(cond, x, y), {}, dtype
    if name == "moveaxis":
        dest = int(rng.integers(-x.ndim, x.ndim))
        return label, lambda: em.moveaxis(ex, axis, dest), lambda: np.moveaxis(x, axis, dest), {}, dtype
    dest = int(rng.integers(-x.ndim - 1, x.ndim + 1))
    return label, lambda: em.expand_dims(ex, axis=dest), lambda: np.expand_dims(x, dest), {}, dtype


def run_cases(draw, seed):
    """Runs CASES draws: each gives (label, Ember's call, NumPy's call, tolerance keywords for
    mismatch, input dtype), or None for a case it does not compare."""
    failures, checked = [], 0
    for case in range(CASES):
        rng = np.random.default_rng([seed, case])
        drawn = draw(rng)
        if drawn is None:
            continue
        label, ours, numpy_result, tolerance, dtype = drawn
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                want = numpy_result()
            except (TypeError, ValueError):
                continue  # NumPy refuses the case (an empty max, a bool subtract)
            try:
                got = ours()
            except em.DTypeError:
                continue  # the array API's refusals (bool arithmetic, complex ordering)
            if np.asarray(want).dtype.kind == "c" and not np.all(np.isfinite(want)):
                continue  # non-finite complex results: C99 Annex G (Ember) against NumPy's own rules
            checked += 1
            why = mismatch(got, want, integer_input=np.dtype(dtype).kind in "iub", **tolerance)
        if why:
            failures.append(f"case {case}: {label}: {why}")
    return failures, checked


@pytest.mark.parametrize("backend_name", ["reference", "cpu"])
@pytest.mark.parametrize("draw", [draw_elementwise, draw_reduction, draw_manipulation], ids=["elementwise", "reductions", "manipulation"])
def test_random_cases_match_numpy(backend_name, draw):
    if backend_name not in em.backends():
        pytest.skip(f"no {backend_name} backend")
    with em.using_backend(backend_name):
        failures, checked = run_cases(draw, seed=2026)
    assert checked >= CASES // 3, f"only {checked} of {CASES} cases were comparable"
    assert not failures, "\n".join(failures[:10])


INT_DTYPES = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]


# Past int64: the C operator path declines these and Python decides (_big_int_binop).
BEYOND_INT64 = [2 ** 63, 2 ** 64 - 1, 2 ** 64, 2 ** 70, -2 ** 63 - 1, -2 ** 70]


def edge_scalars(dtype):
    info = np.iinfo(dtype)
    values = {0, 1, -1, 2, info.max, info.min, info.max + 1, info.min - 1, 300, -300, 2 ** 40, 2 ** 63 - 1, -2 ** 63}
    return sorted(v for v in values if -2 ** 63 <= v < 2 ** 63) + BEYOND_INT64


@pytest.mark.parametrize("backend_name", ["reference", "cpu", "opencl"])
def test_python_ints_at_the_edges_of_integer_dtypes_match_numpy(backend_name):
    """A Python int beside an integer array: NumPy 2 raises OverflowError where the array's
    dtype cannot hold it, except in comparisons, which are exact; Ember must agree on
    which calls fail and on the values of the others."""
    if backend_name not in em.backends():
        pytest.skip(f"no {backend_name} backend")
    failures, checked = [], 0
    with em.using_backend(backend_name), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for dtype in INT_DTYPES:
            info = np.iinfo(dtype)
            ref = np.array([info.min, -1 if info.min else 0, 0, 1, 7, info.max], dtype=dtype)
            x = em.asarray(ref)
            for name in BINARY:
                np_fn, em_fn = getattr(np, NUMPY_NAME.get(name, name)), getattr(em, name)
                for s in edge_scalars(dtype):
                    for swap in (False, True):
                        label = f"{name}({'s, x' if swap else 'x, s'}) for {dtype} x, s = {s}"
                        try:
                            want, want_error = (np_fn(s, ref) if swap else np_fn(ref, s)), None
                        except Exception as e:
                            want, want_error = None, type(e)
                        try:
                            got, got_error = (em_fn(s, x) if swap else em_fn(x, s)).numpy(), None
                        except Exception as e:
                            got, got_error = None, e
                        checked += 1
                        if name.startswith("logical_") and dtype == "uint64" and 2 ** 63 <= s < 2 ** 64 \
                                and want_error is OverflowError and got_error is None:
                            continue  # NumPy 2.4 converts the int to int64 for its logical loops;
                            # Ember takes it as the uint64 it fits (documented in dtypes.md)
                        if want_error is OverflowError or got_error is not None:
                            if not (want_error is OverflowError and isinstance(got_error, OverflowError)):
                                failures.append(f"{label}: NumPy {want_error}, Ember {got_error!r}")
                            continue
                        if want_error is not None:
                            continue  # NumPy refuses for another reason (a float function of uint64, say)
                        if name in INTEGER_OK:
                            same = got.dtype == want.dtype and np.array_equal(got, want)
                        else:  # a float function: Ember computes in float32, NumPy in float16 (inf
                            # where float16 overflows) to float64
                            fin = np.isfinite(want)
                            same = np.allclose(got[fin].astype(np.float64), want[fin].astype(np.float64), rtol=2e-3, equal_nan=True)
                        if not same:
                            failures.append(f"{label}: {got!r} != NumPy's {want!r}")
    assert checked > 3000
    assert not failures, f"{len(failures)} mismatches:\n" + "\n".join(failures[:40])


def _outcome(call):
    """(call's result, None), or (None, the exception it raised)."""
    try:
        return call(), None
    except Exception as e:
        return None, e


def _check_errors(label, want_error, got_error, failures):
    """Where either side raised: both must have, and Ember's error is an OverflowError
    exactly where NumPy's is."""
    if want_error is None or got_error is None or \
            isinstance(want_error, OverflowError) != isinstance(got_error, OverflowError):
        failures.append(f"{label}: NumPy {want_error!r}, Ember {got_error!r}")


@pytest.mark.parametrize("backend_name", ["reference", "cpu", "opencl"])
def test_python_ints_past_int64_in_operators_match_numpy(backend_name):
    """Operators (forward, reflected, in place) between arrays of every kind and Python ints
    past int64: NumPy 2 gives float arrays a float, uint64 arrays a uint64 while it fits,
    integer comparisons an exact answer, and raises OverflowError otherwise."""
    if backend_name not in em.backends():
        pytest.skip(f"no {backend_name} backend")
    ops = [operator.add, operator.sub, operator.mul, operator.truediv, operator.floordiv, operator.mod,
           operator.pow, operator.and_, operator.or_, operator.xor, operator.lt, operator.le, operator.eq,
           operator.ne, operator.gt, operator.ge]
    ORDERINGS = (operator.lt, operator.le, operator.gt, operator.ge)
    inplace = [operator.iadd, operator.isub, operator.imul, operator.itruediv]
    failures, checked = [], 0
    with em.using_backend(backend_name), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for dtype in ["bool", "int8", "int64", "uint64", "float16", "float32", "float64", "complex64"]:
            ref = np.array([0, 1, 1, 0] if dtype == "bool" else [0, 1, 3, 100], dtype=dtype)
            for s in BEYOND_INT64 + [2 ** 63 - 1]:
                # Ember refuses to order complex numbers (the array API leaves it undefined)
                valid = [op for op in ops if dtype[0] != "c" or op not in ORDERINGS]
                calls = [(f"{op.__name__}(x, s)", lambda m, op=op: op(m, s)) for op in valid]
                calls += [(f"{op.__name__}(s, x)", lambda m, op=op: op(s, m)) for op in valid]
                if dtype[0] in "fc" or dtype == "uint64":  # NumPy refuses others' in-place results
                    calls += [(f"{op.__name__}(x, s)", lambda m, op=op: op(m.copy(), s)) for op in inplace
                              if dtype != "uint64" or op is not operator.itruediv]
                for label, call in calls:
                    label = f"{label} for {dtype} x, s = {s}"
                    want, want_error = _outcome(lambda: np.asarray(call(ref.copy())))
                    got, got_error = _outcome(lambda: call(em.asarray(ref)).numpy())
                    checked += 1
                    if want_error is not None or got_error is not None:
                        _check_errors(label, want_error, got_error, failures)
                        continue
                    float_of_ints = dtype[0] in "biu" and want.dtype == np.float64  # Ember: float32 (dtypes.md)
                    if (got.dtype != want.dtype and not float_of_ints) or not np.allclose(got.astype(np.complex128), want.astype(np.complex128),
                                                                  rtol=1e-6, equal_nan=True):
                        failures.append(f"{label}: {got!r} != NumPy's {want!r}")
    assert checked > 1500
    assert not failures, f"{len(failures)} mismatches:\n" + "\n".join(failures[:40])


@pytest.mark.parametrize("backend_name", ["reference", "cpu", "opencl"])
def test_python_ints_past_int64_in_where_clip_out_and_fills_match_numpy(backend_name):
    """where, clip, out=, full/full_like, item assignment and fill with Python ints past
    int64, for arrays of every kind: NumPy 2 takes them as a float for float arrays, drops a
    clip bound no integer element reaches, and raises OverflowError otherwise. One
    deliberate difference: NumPy 2.4's where wraps an int in [2^63, 2^64) into an integer
    array's dtype (where(c, int8_array, 2**63) holds 0); Ember raises OverflowError there, as
    every other function does (docs/dtypes.md)."""
    if backend_name not in em.backends():
        pytest.skip(f"no {backend_name} backend")

    def fill(m, x, s):
        x.fill(s)
        return x

    def setitem(m, x, s):
        x[1] = s
        return x
    calls = {
        "where(c, x, s)": lambda m, x, s: m.where(m.asarray([True, False, True, False]), x, s),
        "where(c, s, x)": lambda m, x, s: m.where(m.asarray([True, False, True, False]), s, x),
        "clip(x, 0, s)": lambda m, x, s: m.clip(x, 0, s), "clip(x, s, None)": lambda m, x, s: m.clip(x, s, None),
        "clip(x, None, s)": lambda m, x, s: m.clip(x, None, s), "clip(x, s, 1)": lambda m, x, s: m.clip(x, s, 1),
        "add(x, s, out=x)": lambda m, x, s: m.add(x, s, out=x), "multiply(s, x, out=x)": lambda m, x, s: m.multiply(s, x, out=x),
        "full_like(x, s)": lambda m, x, s: m.full_like(x, s), "full(4, s, dtype)": lambda m, x, s: m.full(4, s, dtype=x.dtype),
        "x[1] = s": setitem, "x.fill(s)": fill,
    }
    failures, checked = [], 0
    with em.using_backend(backend_name), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for dtype in ["int8", "int64", "uint8", "uint64", "float16", "float32", "float64", "complex64"]:
            ref = np.array([0, 1, 3, 100], dtype=dtype)
            for s in BEYOND_INT64:
                for label, call in calls.items():
                    if label.startswith("clip") and dtype[0] == "c":
                        continue  # Ember does not order complex numbers (the array API leaves it undefined)
                    label = f"{label} for {dtype} x, s = {s}"
                    want, want_error = _outcome(lambda: np.asarray(call(np, ref.copy(), s)))
                    if label.startswith("where") and dtype[0] in "iu" and dtype != "uint64" and s > 0:
                        want, want_error = None, OverflowError()  # NumPy wraps it (see above)
                    got, got_error = _outcome(lambda: call(em, em.asarray(ref), s).numpy())
                    checked += 1
                    if want_error is not None or got_error is not None:
                        _check_errors(label, want_error, got_error, failures)
                        continue
                    if got.dtype != want.dtype or not np.allclose(got.astype(np.complex128), want.astype(np.complex128),
                                                                  rtol=1e-6, equal_nan=True):
                        failures.append(f"{label}: {got!r} != NumPy's {want!r}")
    assert checked > 500
    assert not failures, f"{len(failures)} mismatches:\n" + "\n".join(failures[:40])
