"""The cpu backend against the reference backend on random cases large enough to take the
cpu kernels' threaded, blocked and vector paths (up to ~2e5 elements, lines of up to 70000),
on transposed, reversed and stepped views, with NaN, infinities, signed zeros and
subnormals: elementwise ops (also written into a converting, transposed out=), where,
astype, reductions over axis tuples, scans, softmax, sorts and data movers. Seeded: a failure
names its case and reruns the same way. test_numpy_differential.py covers the small shapes
against NumPy; this one covers the sizes where the cpu kernels split their work.

Left out, because the two backends differ on purpose: matmul of non-finite or overflowing
values (docs/numerics-linalg.md) and var/std of float32 values whose squares overflow
float32 (the cpu kernel works in double)."""
import numpy as np
import pytest

import ember as em

pytestmark = pytest.mark.skipif("cpu" not in em.backends(), reason="the cpu backend is not available")

DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float16", "bfloat16",
          "float32", "float64", "complex64", "complex128"]
DIMS = [0, 1, 2, 3, 7, 16, 17, 64, 100, 257, 1000, 4099, 70000]
UNARY = ["negative", "abs", "sign", "square", "sqrt", "exp", "expm1", "log", "log1p", "log2", "sin", "cos", "tan",
         "tanh", "sinh", "atan", "asinh", "erf", "erfc", "sigmoid", "relu", "silu", "softplus", "floor", "ceil",
         "round", "trunc", "reciprocal", "isnan", "isfinite", "signbit", "logical_not", "bitwise_invert", "conj", "real"]
BINARY = ["add", "subtract", "multiply", "divide", "floor_divide", "remainder", "pow", "maximum", "minimum", "atan2",
          "hypot", "copysign", "logaddexp", "nextafter", "equal", "less", "greater_equal", "logical_and", "logical_xor",
          "bitwise_and", "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift"]
REDUCTIONS = ["sum", "prod", "mean", "max", "min", "argmax", "argmin", "var", "std", "any", "all", "count_nonzero",
              "logsumexp"]
ALONG_AXIS = ["cumulative_sum", "cumulative_prod", "softmax", "log_softmax", "sort", "argsort", "flip", "diff"]
MOVERS = ["concat", "pad", "roll", "repeat", "tile", "take", "moveaxis"]
SPECIALS = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-40, 5e-324, 3e38]
CASES = 3000


def random_values(rng, dtype, shape, moderate=False):
    n = int(np.prod(shape))
    if dtype == "bool":
        return (rng.random(n) < 0.5).reshape(shape)
    if dtype.startswith(("int", "uint")):
        info = np.iinfo(dtype)
        lo, hi = (max(info.min, -9), min(info.max, 9)) if moderate or rng.random() < 0.5 else (info.min, info.max)
        return rng.integers(lo, hi, n, dtype=dtype, endpoint=True).reshape(shape)
    x = rng.standard_normal(n) * 10.0 ** float(rng.integers(-1, 3))
    if not moderate and n and rng.random() < 0.4:
        x[rng.integers(0, n, max(1, n // 50))] = rng.choice(SPECIALS, max(1, n // 50))
    if dtype.startswith("complex"):
        x = x + 1j * rng.permutation(x)
    return x.astype("float32" if dtype == "bfloat16" else dtype).reshape(shape)


def random_shape(rng):
    shape = [int(rng.choice(DIMS)) for _ in range(int(rng.integers(0, 4)))]
    if shape and rng.random() < 0.4:  # one long axis: the sizes where the cpu kernels split work
        shape[int(rng.integers(0, len(shape)))] = int(rng.choice([4099, 70000, 150001]))
    shape = tuple(shape)
    while shape and np.prod(shape) > 200_000:
        shape = shape[1:]
    return shape


def tensor_on(backend, x, dtype):
    with em.using_backend(backend):
        t = em.asarray(x)
        return t.astype(em.bfloat16) if dtype == "bfloat16" else t


def stepped_base(rng, shape):
    """The steps of a view of the given shape and the shape of the base it is cut from:
    each axis stepped by 1, -1, 2 or -3."""
    steps = tuple(int(rng.choice([1, 1, -1, 2, -3])) for _ in shape)
    if np.prod([n * abs(k) for n, k in zip(shape, steps)]) > 400_000:
        steps = tuple(1 if k > 0 else -1 for k in steps)
    return steps, tuple(n * abs(k) for n, k in zip(shape, steps))


def view_of(t, steps, perm):
    """t cut to its view: every |step|-th element (reversed for a negative step), then
    transposed by perm (None: not transposed)."""
    if steps:
        t = t[tuple(slice(None, None, k) for k in steps)]
    return em.permute_dims(t, perm) if perm else t


def host(t):
    if isinstance(t, (list, tuple)):
        return [host(u) for u in t]
    return (t.astype(em.float32) if t.dtype == em.bfloat16 else t).numpy()


def difference(got, want, compute, slack=0, atol=0.0):
    """Why cpu's result got differs from the reference's want, or None. compute: the dtype
    the result was computed in (its precision sets the tolerance); slack: how far integers
    may differ (a float result a few ulp apart, then converted to an integer); atol: an
    absolute tolerance in units of the relative one (log-sum-exp results near 0 carry the
    error of their terms)."""
    if isinstance(got, list):
        return next((d for g, w in zip(got, want) if (d := difference(g, w, compute))), None) if len(got) == len(want) else "count"
    if got.shape != want.shape or got.dtype != want.dtype:
        return f"{got.dtype}{got.shape}, reference {want.dtype}{want.shape}"
    if got.dtype.kind not in "fc":
        bad = np.abs(got.astype(np.float64) - want.astype(np.float64)) > slack if slack else got != want
    else:
        rtol = {"float16": 2e-3, "bfloat16": 1.6e-2, "float64": 1e-10, "complex128": 1e-10}.get(compute, 1e-4)
        bad = np.zeros(got.shape, bool)
        for part in (np.real, np.imag):
            g, w = part(got).astype(np.float64), part(want).astype(np.float64)
            bad |= ~(np.isclose(g, w, rtol=rtol, atol=rtol * max(atol, 1e-6), equal_nan=True) | (g == w))
    if np.any(bad):
        at = tuple(int(i) for i in np.argwhere(bad)[0])
        return f"{int(np.count_nonzero(bad))} of {bad.size} differ, first at {at}: cpu {got[at]!r}, reference {want[at]!r}"
    return None


def draw(rng):
    """(label, dtype, inputs, views, fn): fn(tensors) runs the case on whichever backend
    made the tensors."""
    family = str(rng.choice(["unary", "binary", "into", "where", "astype", "reduce", "axis", "mover"]))
    dtype = str(rng.choice(DTYPES))
    shape = random_shape(rng)
    name = None
    if family in ("binary", "where") or family == "into" and rng.random() < 0.5:
        other = tuple(n if rng.random() < 0.75 else 1 for n in shape)[int(rng.integers(0, len(shape) + 1)):]
        if rng.random() < 0.5:
            shape, other = other, shape
        name = str(rng.choice(BINARY))
        shapes = [shape, other] + ([other] if family == "where" else [])
        dtypes = [dtype, str(rng.choice(DTYPES)) if rng.random() < 0.2 else dtype, "bool"]
    else:
        if family in ("unary", "into"):
            name = str(rng.choice(UNARY))
        shapes, dtypes = [shape], [dtype]
    # var/std of float32: no squares past float32's range (the cpu kernel works in double)
    moderate = family == "reduce" and dtype in ("float16", "bfloat16", "float32")
    inputs, views = [], []
    for i, (sh, dt) in enumerate(zip(shapes, dtypes)):
        steps, base = stepped_base(rng, sh)
        # a transpose only where nothing is broadcast against the result's axes
        perm = tuple(int(p) for p in rng.permutation(len(sh))) if len(shapes) == 1 and len(sh) > 1 and rng.random() < 0.4 else None
        inputs.append((random_values(rng, dt, base, moderate), dt))
        views.append((steps, perm))
    nd = len(shape)
    if family == "unary":
        fn = lambda ts: getattr(em, name)(ts[0])
    elif family == "binary":
        fn = lambda ts: getattr(em, name)(ts[0], ts[1])
    elif family == "where":
        fn = lambda ts: em.where(ts[2], ts[0], ts[1])
    elif family == "into":
        out_dtype = getattr(em, str(rng.choice(DTYPES[1:-2] + ["complex128"])))
        order = int(rng.integers(0, 1 << 30))

        def fn(ts):
            ins = ts if len(ts) == 1 else ts[:2]
            result = getattr(em, name)(*ins)
            perm = tuple(int(p) for p in np.random.default_rng(order).permutation(result.ndim))
            base = em.zeros(tuple(result.shape[p] for p in perm), dtype=out_dtype)
            out = em.permute_dims(base, tuple(int(i) for i in np.argsort(perm)))
            getattr(em, name)(*ins, out=out)
            return base
    elif family == "astype":
        to = getattr(em, str(rng.choice(DTYPES)))
        fn = lambda ts: ts[0].astype(to)
    elif family == "reduce":
        name = str(rng.choice(REDUCTIONS))
        axes = sorted({int(a) for a in rng.integers(0, max(nd, 1), int(rng.integers(1, max(nd, 1) + 1)))}) if nd else []
        axis = None if not axes or rng.random() < 0.25 else (axes[0] if name in ("argmax", "argmin") or len(axes) == 1 else tuple(axes))
        keep = bool(rng.random() < 0.3)
        fn = lambda ts: getattr(em, name)(ts[0], axis=axis, keepdims=keep)
    elif family == "axis":
        name = str(rng.choice(ALONG_AXIS))
        axis = int(rng.integers(-nd, nd)) if nd else -1
        fn = lambda ts: getattr(em, name)(ts[0], axis=axis)
    else:
        name = str(rng.choice(MOVERS))
        axis = int(rng.integers(-nd, nd)) if nd else 0
        fns = {"concat": lambda t: em.concat([t, t], axis=axis),
               "pad": lambda t: em.pad(t, 1, mode="reflect" if min(t.shape) > 1 else "edge"),
               "roll": lambda t: em.roll(t, 3, axis=axis),
               "repeat": lambda t: em.repeat(t, 2, axis=axis),
               "tile": lambda t: em.tile(t, (2, 1, 2)[:t.ndim]),
               "take": lambda t: em.take(t, em.asarray(np.array([0, t.shape[axis] - 1, t.shape[axis] // 2], np.int64)), axis=axis),
               "moveaxis": lambda t: em.copy(em.moveaxis(t, 0, -1))}
        fn = lambda ts: fns[name](ts[0]) if ts[0].ndim and min(ts[0].shape) > 0 else em.copy(ts[0])
    label = f"{family} {name or ''} {dtype}{shape}, views {views}"
    return label, dtype, inputs, views, fn


def run(backend, inputs, views, fn):
    with em.using_backend(backend):
        ts = [view_of(tensor_on(backend, x, dt), *v) for (x, dt), v in zip(inputs, views)]
        try:
            return "ok", host(fn(ts))
        except (em.EmberError, TypeError, ValueError, IndexError) as e:
            return "error", type(e).__name__


def compare(label, dtype, got, want):
    """difference() with the tolerances of the case: a result is as precise as the dtype it
    was computed in (float32 for integer inputs to float functions, also when written into
    a wider out=)."""
    family, name = label.split()[:2]
    if dtype in ("float16", "bfloat16"):
        compute = dtype
    elif dtype in ("float64", "complex128") or family != "into" and got.dtype in (np.float64, np.complex128):
        compute = "float64"  # also the means and variances of integers, float64 on both backends
    else:
        compute = "float32"
    return difference(got, want, compute, slack=1 if family == "into" else 0, atol=1.0 if name in ("logsumexp", "log_softmax") else 0.0)


@pytest.mark.parametrize("block", range(5))
def test_cpu_matches_reference(block):
    failures = []
    per_block = CASES // 5
    with np.errstate(all="ignore"):
        for case in range(block * per_block, (block + 1) * per_block):
            label, dtype, inputs, views, fn = draw(np.random.default_rng([62, case]))
            got = run("cpu", inputs, views, fn)
            want = run("reference", inputs, views, fn)
            if got[0] != want[0]:
                failures.append(f"case {case} {label}: cpu {got[0]} {got[1] if got[0] == 'error' else ''}, "
                                f"reference {want[0]} {want[1] if want[0] == 'error' else ''}")
            elif got[0] == "ok" and (why := compare(label, dtype, got[1], want[1])):
                failures.append(f"case {case} {label}: {why}")
    assert not failures, "\n".join(failures[:10])
