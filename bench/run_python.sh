#!/usr/bin/env bash
# Python binding overhead, printed as bench JSON lines (bench/bench.hpp):
#  - "py_add_1elem": `a + b` on 1-element float32 tensors vs NumPy's `a + b` (per op)
#  - "py_add_1e6":   `a + b` on 1e6-element float32 tensors vs the bare C call
#                    (_ember_c.ember_add on the handles: the C function plus SWIG's thin
#                    argument conversion, ~0.3 us), i.e. what the Python layer adds
#  - "py_add_1e6_vs_numpy": the same `a + b` vs NumPy's, for scale
#  - "py_iadd_1e6_vs_numpy": `a += b` on 1e6-element float32 tensors vs NumPy's `a += b`
#  - "py_load_npz[_compressed]_*": em.load of an np.savez / np.savez_compressed archive of
#    1e6 elements vs np.load reading the entry
#  - "py_savez_compressed_*": em.savez_compressed vs np.savez_compressed of the same array
#  - "py_small_*": the Python cost of small everyday calls on a 10-element float32 array
#    (x[2:5], x[3], x.reshape, em.zeros(10), em.asarray of a 3-element list, x[3] = 1.0,
#    x.astype; x[..., 1], x.shape and x.T of a (3, 4, 5) array; x[x > 50] and x.sum(0) of a
#    (10, 10) array; float(x[2, 3, 1]), x[2, 3, 1].item() and x.item(2, 3, 1) of the
#    (3, 4, 5) array) vs NumPy's
#  - "py_searchsorted_1e6": 1e6 values into a sorted 1e4 sequence vs np.searchsorted
# Uses EMBER_PYTHON (default: the venv of scripts/test-python.sh if present, else python3)
# with the ember package installed; prints nothing (exit 0) when it cannot import ember.
#   bench/run_python.sh [--quick]
set -euo pipefail
py="${EMBER_PYTHON:-}"
if [ -z "$py" ]; then
  if [ -x "${TMPDIR:-/tmp}/ember-py-test-venv/bin/python" ]; then py="${TMPDIR:-/tmp}/ember-py-test-venv/bin/python"; else py=python3; fi
fi
quick=0
for a in "$@"; do [ "$a" = "--quick" ] && quick=1; done
cd "${TMPDIR:-/tmp}"
"$py" - "$quick" <<'PY' || true
import json, operator, sys, time
try:
    import ember as em
except ImportError:
    sys.exit(0)
quick = sys.argv[1] == "1"

def best(fn, n, reps):
    fn()
    b = 1e300
    for _ in range(reps):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        b = min(b, (time.perf_counter() - t0) / n)
    return b

def emit(case, size, backend, baseline, e, b):
    print(json.dumps({"case": case, "size": size, "backend": backend, "baseline": baseline,
                      "ember_s": e, "baseline_s": b, "ratio": round(b / e, 4) if e else 0}))

try:
    import numpy as np
except ImportError:
    np = None
raw_add = em._ember_c.ember_add
for name in em.backends():
    with em.using_backend(name):
        n, reps = (20000, 3) if quick else (200000, 5)
        a = em.ones((1,), dtype=em.float32)
        bb = em.ones((1,), dtype=em.float32)
        e = best(lambda: a + bb, n, reps)
        if np is not None:
            x = np.ones(1, dtype=np.float32); y = np.ones(1, dtype=np.float32)
            base = best(lambda: x + y, n, reps)
            emit("py_add_1elem", "1", name, "numpy_add", e, base)
        big_a = em.ones((1_000_000,), dtype=em.float32)
        big_b = em.ones((1_000_000,), dtype=em.float32)
        m, r2 = (5, 3) if quick else (20, 5)
        sync = em._ember_c.ember_synchronize  # asynchronous backends: time the finished op
        e = best(lambda: (big_a + big_b, sync()), m, r2)
        ha, hb = big_a._h, big_b._h
        base = best(lambda: (raw_add(ha, hb), sync()), m, r2)
        emit("py_add_1e6", "1e6", name, "c_api_add", e, base)
        if np is not None:
            xa = np.ones(1_000_000, dtype=np.float32); xb = np.ones(1_000_000, dtype=np.float32)
            emit("py_add_1e6_vs_numpy", "1e6", name, "numpy_add", e, best(lambda: xa + xb, m, r2))
            e = best(lambda: (operator.iadd(big_a, big_b), sync()), m, r2)
            emit("py_iadd_1e6_vs_numpy", "1e6", name, "numpy_iadd", e, best(lambda: operator.iadd(xa, xb), m, r2))

# Small everyday calls, where the Python layer is most of the cost. Default backend.
if np is not None:
    n, reps = (5000, 3) if quick else (50000, 5)
    x = np.arange(10, dtype=np.float32)
    ex = em.asarray(x)
    x3 = np.zeros((3, 4, 5), dtype=np.float32)
    ex3 = em.asarray(x3)
    small = {"py_small_slice": (lambda: ex[2:5], lambda: x[2:5]),
             "py_small_getitem_int": (lambda: ex[3], lambda: x[3]),
             "py_small_ellipsis": (lambda: ex3[..., 1], lambda: x3[..., 1]),
             "py_small_reshape": (lambda: em.reshape(ex, (2, 5)), lambda: x.reshape(2, 5)),
             "py_small_zeros": (lambda: em.zeros(10), lambda: np.zeros(10, dtype=np.float32)),
             "py_small_asarray_list": (lambda: em.asarray([1.0, 2.0, 3.0]), lambda: np.asarray([1.0, 2.0, 3.0])),
             "py_small_setitem_int": (lambda: ex.__setitem__(3, 1.0), lambda: x.__setitem__(3, 1.0)),
             "py_small_shape": (lambda: ex3.shape, lambda: x3.shape),
             "py_small_transpose": (lambda: ex3.T, lambda: x3.T),
             "py_small_astype": (lambda: ex.astype(em.float64), lambda: x.astype(np.float64)),
             "py_small_len": (lambda: len(ex3), lambda: len(x3)),
             "py_small_float_element": (lambda: float(ex3[2, 3, 1]), lambda: float(x3[2, 3, 1])),
             "py_small_item": (lambda: ex3[2, 3, 1].item(), lambda: x3[2, 3, 1].item()),
             "py_small_item_index": (lambda: ex3.item(2, 3, 1), lambda: x3.item(2, 3, 1))}
    for case, (ours, theirs) in small.items():
        size = "3x4x5" if case in ("py_small_ellipsis", "py_small_shape", "py_small_transpose", "py_small_len", "py_small_float_element",
                                   "py_small_item", "py_small_item_index") else "10"
        emit(case, size, em.get_backend(), "numpy", best(ours, n, reps), best(theirs, n, reps))
    x2 = np.arange(100, dtype=np.float32).reshape(10, 10)
    ex2 = em.asarray(x2)
    emit("py_small_mask", "10x10", em.get_backend(), "numpy", best(lambda: ex2[ex2 > 50], n // 10, reps),
         best(lambda: x2[x2 > 50], n // 10, reps))
    emit("py_small_method_sum", "10x10", em.get_backend(), "numpy", best(lambda: ex2.sum(0), n, reps), best(lambda: x2.sum(0), n, reps))
    rng = np.random.default_rng(1)
    seq, vals = np.sort(rng.uniform(-1, 1, 10_000)).astype(np.float32), rng.uniform(-1, 1, 1_000_000).astype(np.float32)
    eseq, evals = em.asarray(seq), em.asarray(vals)
    m, r2 = (2, 3) if quick else (5, 5)
    emit("py_searchsorted_1e6", "1e6", em.get_backend(), "numpy_searchsorted",
         best(lambda: em.searchsorted(eseq, evals), m, r2), best(lambda: np.searchsorted(seq, vals), m, r2))

# Loading .npz archives (the C loader, our DEFLATE decoder for savez_compressed) against
# np.load reading every entry (zipfile + zlib). Backend-independent: the default backend.
if np is not None and hasattr(em, "savez_compressed"):
    import os, tempfile
    rng = np.random.default_rng(0)
    arrays = {"noise_f32": rng.normal(size=1_000_000).astype(np.float32),   # mostly literals
              "ramp_i64": np.arange(1_000_000, dtype=np.int64) // 3}       # long matches
    m, r2 = (2, 3) if quick else (5, 5)
    with tempfile.TemporaryDirectory() as d:
        for kind, saver in (("npz", np.savez), ("npz_compressed", np.savez_compressed)):
            for key, arr in arrays.items():
                p = os.path.join(d, f"{kind}_{key}.npz")
                saver(p, a=arr)
                def np_load(p=p):
                    with np.load(p) as z:
                        return z["a"]
                emit(f"py_load_{kind}_{key}", "1e6", em.get_backend(), "numpy_load", best(lambda: em.load(p), m, r2), best(np_load, m, r2))
        for key, arr in arrays.items():  # writing: our DEFLATE encoder against zlib's (level 6)
            x = em.asarray(arr)
            ours, theirs = os.path.join(d, "ours.npz"), os.path.join(d, "numpy.npz")
            e = best(lambda: em.savez_compressed(ours, a=x), m, r2)
            emit(f"py_savez_compressed_{key}", "1e6", em.get_backend(), "numpy_savez_compressed", e,
                 best(lambda: np.savez_compressed(theirs, a=arr), m, r2))
PY
