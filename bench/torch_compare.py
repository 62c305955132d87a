#!/usr/bin/env python3
"""Activations of 1e6 float32 values, Ember against PyTorch, one library per process.

    python bench/torch_compare.py ember            (the Python that has Ember's package)
    /usr/bin/python3 bench/torch_compare.py torch  (Debian's python3-torch)

PyTorch from Debian is built for Debian's Python, Ember's package for the one the tests use,
so each side runs in its own process on the same values (NumPy's default_rng(0), N(0, 3)).
Prints one JSON object per case: {"case", "library", "threads", "best_us", "median_us"}.
PyTorch is given EMBER_NUM_THREADS threads (default: 2, the pool's size on this machine).
"""
import json
import os
import sys
import time

import numpy as np


def timed(fn, reps=60):
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        r = fn()
        times.append(time.perf_counter() - t0)
        del r
    return min(times) * 1e6, float(np.median(times)) * 1e6


def main():
    library = sys.argv[1] if len(sys.argv) > 1 else "ember"
    threads = int(os.environ.get("EMBER_NUM_THREADS", "2"))
    values = (np.random.default_rng(0).standard_normal(10**6) * 3).astype(np.float32)
    if library == "torch":
        import torch
        import torch.nn.functional as F

        torch.set_num_threads(threads)
        x = torch.from_numpy(values)
        cases = {"gelu_erf": lambda: F.gelu(x), "gelu_tanh": lambda: F.gelu(x, approximate="tanh"),
                 "sigmoid": lambda: torch.sigmoid(x), "tanh": lambda: torch.tanh(x), "exp": lambda: torch.exp(x)}
    else:
        import ember as em

        x = em.asarray(values)
        cases = {"gelu_erf": lambda: em.gelu(x), "gelu_tanh": lambda: em.gelu(x, approximate=True),
                 "sigmoid": lambda: em.sigmoid(x), "tanh": lambda: em.tanh(x), "exp": lambda: em.exp(x)}
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
