#!/usr/bin/env python3
"""Common ops on float32 (1e6 values, (1000, 1000) rows, 512^2 matmul), Ember against PyTorch.

    python bench/torch_compare.py ember            (the Python that has Ember's package)
    /usr/bin/python3 bench/torch_compare.py torch  (Debian's python3-torch)

PyTorch from Debian is built for Debian's Python, Ember's package for the one the tests use,
so each side runs in its own process on the same values (NumPy's default_rng(0); the
1e6-value operand is N(0, 3)). log takes |y| + 1e-3.
Prints one JSON object per case: {"case", "library", "threads", "best_us", "median_us"}.
`python bench/torch_compare.py table FILE...` reads such lines (any number of runs of both)
and prints, per case, the range of medians of each and PyTorch's median / Ember's.
PyTorch is given EMBER_NUM_THREADS threads (default: 2, the pool's size on this machine).
"""
import json
import os
import sys
import time


def timed(fn, reps=60):
    import numpy as np

    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        r = fn()
        times.append(time.perf_counter() - t0)
        del r
    return min(times) * 1e6, float(np.median(times)) * 1e6


def table(paths):
    medians = {}
    for path in paths:
        with open(path) as f:
            for line in f:
                if line.startswith("{"):
                    r = json.loads(line)
                    medians.setdefault(r["case"], {}).setdefault(r["library"], []).append(r["median_us"])
    print("| case | Ember median (us) | PyTorch median (us) | PyTorch / Ember |")
    print("|---|---:|---:|---:|")
    for case, by in medians.items():
        e, t = by.get("ember", []), by.get("torch", [])
        if e and t:
            print("| %s | %.0f-%.0f | %.0f-%.0f | %.2f-%.2f |" % (case, min(e), max(e), min(t), max(t), min(t) / max(e), max(t) / min(e)))


def main():
    library = sys.argv[1] if len(sys.argv) > 1 else "ember"
    if library == "table":
        return table(sys.argv[2:])
    threads = int(os.environ.get("EMBER_NUM_THREADS", "2"))
    import numpy as np

    rng = np.random.default_rng(0)
    values = (rng.standard_normal(10**6) * 3).astype(np.float32)
    other = rng.standard_normal(10**6).astype(np.float32)
    positive = np.abs(other) + np.float32(1e-3)
    rows = rng.standard_normal((1000, 1000)).astype(np.float32)
    square = rng.standard_normal((512, 512)).astype(np.float32)
    if library == "torch":
        import torch
        import torch.nn.functional as F

        torch.set_num_threads(threads)
        x, y, p, m, s = (torch.from_numpy(v) for v in (values, other, positive, rows, square))
        cases = {"gelu_erf": lambda: F.gelu(x), "gelu_tanh": lambda: F.gelu(x, approximate="tanh"),
                 "sigmoid": lambda: torch.sigmoid(x), "tanh": lambda: torch.tanh(x), "exp": lambda: torch.exp(x),
                 "log": lambda: torch.log(p), "silu": lambda: F.silu(x), "softplus": lambda: F.softplus(x),
                 "relu": lambda: F.relu(x), "erf": lambda: torch.erf(x), "add": lambda: x + y, "mul": lambda: x * y,
                 "sum": lambda: x.sum(), "mean_rows": lambda: m.mean(dim=1), "var_rows": lambda: m.var(dim=1, unbiased=False),
                 "softmax_rows": lambda: torch.softmax(m, dim=1), "log_softmax_rows": lambda: torch.log_softmax(m, dim=1),
                 "logsumexp_rows": lambda: torch.logsumexp(m, dim=1), "cumsum": lambda: torch.cumsum(x, 0),
                 "argmax": lambda: torch.argmax(x), "max_rows": lambda: m.amax(dim=1), "sort": lambda: torch.sort(x),
                 "topk10_rows": lambda: torch.topk(m, 10, dim=1), "matmul512": lambda: s @ s,
                 "transpose_copy": lambda: m.t().contiguous(), "norm": lambda: torch.linalg.vector_norm(x)}
    else:
        import ember as em

        x, y, p, m, s = (em.asarray(v) for v in (values, other, positive, rows, square))
        cases = {"gelu_erf": lambda: em.gelu(x), "gelu_tanh": lambda: em.gelu(x, approximate=True),
                 "sigmoid": lambda: em.sigmoid(x), "tanh": lambda: em.tanh(x), "exp": lambda: em.exp(x),
                 "log": lambda: em.log(p), "silu": lambda: em.silu(x), "softplus": lambda: em.softplus(x),
                 "relu": lambda: em.relu(x), "erf": lambda: em.erf(x), "add": lambda: x + y, "mul": lambda: x * y,
                 "sum": lambda: em.sum(x), "mean_rows": lambda: em.mean(m, axis=1), "var_rows": lambda: em.var(m, axis=1),
                 "softmax_rows": lambda: em.softmax(m, axis=1), "log_softmax_rows": lambda: em.log_softmax(m, axis=1),
                 "logsumexp_rows": lambda: em.logsumexp(m, axis=1), "cumsum": lambda: em.cumsum(x),
                 "argmax": lambda: em.argmax(x), "max_rows": lambda: em.max(m, axis=1), "sort": lambda: em.sort(x),
                 "topk10_rows": lambda: em.stats.topk(m, 10, axis=1), "matmul512": lambda: s @ s,
                 "transpose_copy": lambda: em.copy(em.matrix_transpose(m)), "norm": lambda: em.linalg.norm(x)}
    # Warm up for 0.3 s first: for about 70 ms after loading, a freshly started OpenBLAS
    # (Ember's, loaded with the cpu backend) spins its threads, and Ember's pool worker then
    # waits for a core (gelu ran at its one-thread speed in the first 50 ms).
    until = time.perf_counter() + 0.3
    while time.perf_counter() < until:
        for fn in cases.values():
            fn()
    for name, fn in cases.items():
        best, median = timed(fn)
        print(json.dumps({"case": name, "library": library, "threads": threads, "best_us": round(best, 1),
                          "median_us": round(median, 1)}))


if __name__ == "__main__":
    main()
