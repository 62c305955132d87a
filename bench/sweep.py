"""A sweep for slow paths: times Ember (through the Python binding) and NumPy on the same
operation for many (op, dtype, layout) combinations and prints the lowest ratios first.

    EMBER_BACKEND=cpu python3 bench/sweep.py [--all] [--reps N] [--dtypes int8,float16,...] [substring ...]

ratio = NumPy time / Ember time (best of --reps calls each, after one warm-up call);
below 1 means NumPy is faster. Unlike bench/run this is a search, not a record: it finds
the combinations that bench/run does not cover (an op on a dtype or layout that falls back
to the reference's code, say), which then get a case in bench/ and a kernel. It needs the
ember package and NumPy importable by the python3 that runs it (scripts/test.sh installs
both into its venv). Takes about three minutes on 2 cores.
"""
import argparse
import sys
import time

import numpy as np

import ember as em
from numpy_baseline import best_of  # beside this file: one warm-up call, then the best of reps


UNARY_FLOAT = ["sqrt", "exp", "log", "sin", "cos", "tanh", "floor", "ceil", "trunc", "round",
               "expm1", "log1p", "reciprocal", "isnan", "isfinite", "atan"]
BINARY_FLOAT = ["divide", "pow", "atan2", "hypot", "copysign", "logaddexp"]
BINARY_INT = ["floor_divide", "remainder", "bitwise_and", "bitwise_xor", "bitwise_left_shift"]
NUMPY_NAME = {"atan": "arctan", "atan2": "arctan2", "pow": "power", "bitwise_invert": "invert",
              "bitwise_left_shift": "left_shift"}
AXIS_OPS = ["sum", "prod", "max", "min", "mean", "argmax", "argmin", "cumsum", "cumprod", "sort", "argsort"]


def cases(rng, dtypes):
    """Yields (name, numpy callable, ember callable)."""
    for dt in dtypes:
        is_float = dt.startswith("float") or dt.startswith("complex")
        if dt == "bool":  # random bits: any positive float would make every element true
            a, b = rng.random(10**6) < 0.5, rng.random(10**6) < 0.5
        else:
            a = (rng.random(10**6) * 100 + 1).astype(dt)
            b = (rng.random(10**6) * 100 + 1).astype(dt)
        A, B = em.asarray(a), em.asarray(b)
        for op in ["negative", "abs", "square", "sign"] + (UNARY_FLOAT if is_float else ["bitwise_invert"]):
            f = getattr(np, NUMPY_NAME.get(op, op))
            yield f"{op}_{dt}", (lambda f=f: f(a)), (lambda op=op: getattr(em, op)(A))
        for op in ["add", "subtract", "multiply", "maximum", "minimum", "equal", "less", "greater_equal"] + (BINARY_FLOAT if is_float else BINARY_INT):
            f = getattr(np, NUMPY_NAME.get(op, op))
            y, Y = (b % 7, em.asarray(b % 7)) if op == "bitwise_left_shift" else (b, B)
            yield f"{op}_{dt}", (lambda f=f, y=y: f(a, y)), (lambda op=op, Y=Y: getattr(em, op)(A, Y))
        square, tall = a.reshape(1000, 1000), a.reshape(100000, 10)
        for layout, x in [("1000x1000", square), ("1e5x10", tall)]:
            X = em.asarray(x)
            for op in AXIS_OPS + (["var", "std"] if is_float else []):
                f = getattr(np, op)
                for axis in (0, 1):
                    yield (f"{op}_{dt}_{layout}_axis{axis}", (lambda f=f, x=x, axis=axis: f(x, axis=axis)),
                           (lambda op=op, X=X, axis=axis: getattr(em, op)(X, axis=axis)))
        S = em.asarray(square)
        # Layouts of operands: a row or a column broadcast, a transposed operand, steps.
        row, col = square[:1], square[:, :1]
        R, C, T = em.asarray(row), em.asarray(col), em.matrix_transpose(S)
        for op in ["add", "multiply"] + (["divide"] if is_float else []):
            f = getattr(np, op)
            g = getattr(em, op)
            yield f"{op}_{dt}_row_broadcast", (lambda f=f: f(square, row)), (lambda g=g: g(S, R))
            yield f"{op}_{dt}_column_broadcast", (lambda f=f: f(square, col)), (lambda g=g: g(S, C))
            yield f"{op}_{dt}_transposed", (lambda f=f: f(square, square.T)), (lambda g=g: g(S, T))
            yield f"{op}_{dt}_stepped", (lambda f=f: f(a[::2], b[::2])), (lambda g=g: g(A[::2], B[::2]))
        for op in ["negative", "square"] + (["reciprocal"] if is_float else []):  # unary ops of the same layouts
            f = getattr(np, op)
            g = getattr(em, op)
            yield f"{op}_{dt}_transposed", (lambda f=f: f(square.T)), (lambda g=g: g(T))
            yield f"{op}_{dt}_stepped", (lambda f=f: f(a[::2])), (lambda g=g: g(A[::2]))
        yield f"sum_{dt}_stepped", lambda: a[::2].sum(), lambda: em.sum(A[::2])
        limit = em.asarray(np.array(50, dt))
        idx = rng.integers(0, 1000, 1000)
        IDX, W = em.asarray(idx), em.asarray(square[0])
        yield f"transpose_copy_{dt}", lambda: np.ascontiguousarray(square.T), lambda: em.copy(em.matrix_transpose(S))
        yield f"flip_copy_{dt}", lambda: np.ascontiguousarray(np.flip(square, 1)), lambda: em.copy(em.flip(S, axis=1))
        yield f"where_{dt}", lambda: np.where(a > 50, a, b), lambda: em.where(em.greater(A, limit), A, B)
        yield f"clip_{dt}", lambda: np.clip(a, 10, 50), lambda: em.clip(A, 10, 50)
        yield f"concat_{dt}", lambda: np.concatenate([square, square], axis=1), lambda: em.concat([S, S], axis=1)
        yield f"astype_f64_{dt}", lambda: a.astype("float64"), lambda: em.astype(A, em.float64)
        yield f"unique_{dt}", lambda: np.unique(a), lambda: em.unique_values(A)
        yield f"unique_counts_{dt}", lambda: np.unique(a, return_counts=True), lambda: em.unique_counts(A)
        yield f"one_hot_{dt}", lambda: np.eye(1000, dtype=dt)[idx], lambda: em.one_hot(IDX, 1000, dtype=getattr(em, dt))
        if not is_float and dt != "bool":  # NumPy's integer matmul is a plain loop; Ember's the ISA's kernels
            sq, SQ = square[:256, :256], em.asarray(square[:256, :256])
            yield f"matmul_{dt}_256", lambda: sq @ sq, lambda: SQ @ SQ
        if dt in ("float32", "float64"):  # ops of the statistics and layout families
            yield f"topk10_rows_{dt}", lambda: np.partition(square, -10, axis=1)[:, -10:], lambda: em.stats.topk(S, 10)
            yield f"topk10_{dt}", lambda: np.partition(a, -10)[-10:], lambda: em.stats.topk(A, 10)
            yield f"nanmax_{dt}_axis0", lambda: np.nanmax(square, axis=0), lambda: em.stats.nanmax(S, axis=0)
            yield f"nanmin_{dt}_axis1", lambda: np.nanmin(square, axis=1), lambda: em.stats.nanmin(S, axis=1)
            yield f"roll_{dt}_axis1", lambda: np.roll(square, 7, axis=1), lambda: em.roll(S, 7, axis=1)
            yield f"pad_{dt}", lambda: np.pad(square, 3), lambda: em.pad(S, 3)
            yield f"take_{dt}_axis1", lambda: np.take(square, idx, axis=1), lambda: em.take(S, IDX, axis=1)
            yield f"median_{dt}", lambda: np.median(a), lambda: em.stats.median(A)
            yield f"median_{dt}_rows", lambda: np.median(square, axis=1), lambda: em.stats.median(S, axis=1)
            yield f"quantile90_{dt}_axis0", lambda: np.quantile(square, 0.9, axis=0), lambda: em.stats.quantile(S, 0.9, axis=0)
            vecs, vecs_b = a[:300000].reshape(100000, 3), b[:300000].reshape(100000, 3)
            V, VB = em.asarray(vecs), em.asarray(vecs_b)
            yield f"cross_{dt}", lambda: np.cross(vecs, vecs_b), lambda: em.linalg.cross(V, VB)
            bins = rng.integers(0, 1000, 10**6)
            BINS = em.asarray(bins)
            yield f"scatter_add_{dt}", lambda: np.add.at(np.zeros(1000, dt), bins, a), lambda: em.scatter(A, BINS, dim_size=1000, reduce="add")
            wide = a[:200 * 4096].reshape(200, 4096)
            WIDE = em.asarray(wide)
            yield f"gram_{dt}_200x4096", lambda: wide @ wide.T, lambda: em.matmul(WIDE, em.matrix_transpose(WIDE))
            yield f"cov_{dt}_200x4096", lambda: np.cov(wide), lambda: em.stats.cov(WIDE)
            yield f"average_{dt}_axis0", lambda: np.average(square, axis=0, weights=square[0]), lambda: em.stats.average(S, axis=0, weights=W)


def settle_threads(seconds=0.3):
    """Runs pooled Ember work for a moment before timing. For about 0.1 s after the cpu
    backend loads, its OpenBLAS's idle threads spin, and the pool's worker can share the
    caller's core meanwhile: the first cases of a sweep ran at one-thread speed (a (1000,
    1000) row max at 74 us instead of 39) in about two starts of three."""
    x = em.ones((1000, 1000), dtype=em.float32)
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        em.max(x, axis=1)


# Cases that NumPy runs in its OpenBLAS's threads. Those threads spin for a while after a
# call, and Ember's pool timed right after shared a core with them: gram of (100, 10000)
# float32 took 1.16 ms there and 0.59 ms after a pause.
NUMPY_BLAS_CASES = ("gram_", "cov_")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--all", action="store_true", help="print every case, not the lowest 60")
    ap.add_argument("--reps", type=int, default=30)
    ap.add_argument("--dtypes", default="float32,float64,int32,int64,int16,uint8",
                    help="comma-separated NumPy dtype names (int8,uint16,uint32,float16,complex64 also work;"
                         " ops a dtype lacks on either side are reported on stderr and skipped)")
    ap.add_argument("only", nargs="*", help="run the cases whose name contains one of these")
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    settle_threads()
    rows = []
    with np.errstate(all="ignore"):
        for name, np_fn, em_fn in cases(rng, args.dtypes.split(",")):
            if args.only and not any(s in name for s in args.only):
                continue
            try:
                t_np = best_of(args.reps, np_fn)
                if name.startswith(NUMPY_BLAS_CASES):
                    time.sleep(0.3)
                t_em = best_of(args.reps, em_fn)
            except Exception as e:  # an op that one side lacks for a dtype: shown, not fatal
                print(f"{name}: {type(e).__name__}: {e}", file=sys.stderr)
                continue
            rows.append((t_np / t_em, name, t_np, t_em))
    rows.sort()
    print(f"{'ratio':>6}  {'case':<40} {'numpy us':>10} {'ember us':>10}")
    for ratio, name, t_np, t_em in rows if args.all else rows[:60]:
        print(f"{ratio:6.2f}  {name:<40} {t_np * 1e6:10.1f} {t_em * 1e6:10.1f}")


if __name__ == "__main__":
    main()
