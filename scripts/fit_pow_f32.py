#!/usr/bin/env python3
"""Fit the float64 polynomials of the float32 pow kernel (backends/cpu/simd_impl.cpp, pow_f32).

    python3 scripts/fit_pow_f32.py [--degree-log N] [--degree-exp2 N]   (needs numpy, mpmath)

pow(x, y) = 2^(y * log2 x), in float64 lanes:
log2:  x = 2^k * m, m in [sqrt(1/2), sqrt(2)), t = (m - 1) / (m + 1) (|t| < 0.1716),
       log2(m) = t * L(t^2),  L(s) = 2 atanh(sqrt s) / (sqrt(s) ln 2); fitted for the error
       relative to L (= relative to log2 m)
exp2:  w = n + r, n = round(w), |r| <= 1/2: 2^r = E(r), relative error
Lawson's weighted minimax (iteratively reweighted least squares) on a dense grid, targets in
mpmath; the coefficients are printed as float64 literals. Then the whole kernel
is simulated in float64 (numpy) on random inputs and compared with mpmath's pow, rounded to
float32, in float32 ulp.
"""
import argparse
import mpmath as mp
import numpy as np

from fit_simd_math import lawson  # Lawson's weighted minimax; sets mpmath to 50 digits


def horner(c, x):
    p = np.full_like(x, c[-1])
    for v in reversed(c[:-1]):
        p = p * x + v
    return p


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--degree-log", type=int, default=4)
    ap.add_argument("--degree-exp2", type=int, default=7)
    ap.add_argument("--points", type=int, default=600)
    a = ap.parse_args()
    tmax = (mp.sqrt(2) - 1) / (mp.sqrt(2) + 1)
    ss = [tmax ** 2 * i / (a.points - 1) for i in range(a.points)]
    L = lambda s: 2 / mp.log(2) if s == 0 else 2 * mp.atanh(mp.sqrt(s)) / (mp.sqrt(s) * mp.log(2))
    powers = lambda degree: [(lambda j: (lambda x: x ** j))(j) for j in range(degree + 1)]
    cl, el = lawson(ss, [L(s) for s in ss], [1 / L(s) for s in ss], powers(a.degree_log), iters=400)
    rs = [mp.mpf(-0.5) + mp.mpf(i) / (a.points - 1) for i in range(a.points)]
    ce, ee = lawson(rs, [mp.power(2, r) for r in rs], [1 / mp.power(2, r) for r in rs], powers(a.degree_exp2), iters=400)
    print(f"log2: L degree {a.degree_log} in t^2, relative error {el:.3g} (2^{np.log2(el):.1f})")
    print("  L = " + ", ".join(f"{v:.17g}" for v in cl))
    print(f"exp2: E degree {a.degree_exp2}, relative error {ee:.3g} (2^{np.log2(ee):.1f})")
    print("  E = " + ", ".join(f"{v:.17g}" for v in ce))

    rng = np.random.default_rng(0)
    n = 20000
    x = np.concatenate([rng.uniform(0, 4, n), np.exp(rng.uniform(-80, 80, n)), 1 + rng.uniform(-1e-3, 1e-3, n)]).astype(np.float32)
    y = np.concatenate([rng.uniform(-30, 30, n), rng.uniform(-1.5, 1.5, n), rng.uniform(-6e4, 6e4, n)]).astype(np.float32)
    xd, yd = x.astype(np.float64), y.astype(np.float64)
    bits = x.view(np.int32).astype(np.int64)
    k = (bits - 0x3F3504F3) >> 23
    m = (bits - (k << 23)).astype(np.int32).view(np.float32).astype(np.float64)
    t = (m - 1) / (m + 1)
    l = k + t * horner(cl, t * t)
    w = np.clip(yd * l, -160, 130)
    nn = np.round(w)
    got = (horner(ce, w - nn) * np.exp2(nn)).astype(np.float32)
    worst = 0.0
    for xi, yi, gi in zip(x[::7], y[::7], got[::7]):
        want = mp.power(mp.mpf(float(xi)), mp.mpf(float(yi)))
        wf = np.float32(float(want))
        if not np.isfinite(wf) or wf == 0 or abs(wf) < np.finfo(np.float32).tiny:
            continue
        ulp = float(np.spacing(wf))
        worst = max(worst, abs(float(gi) - float(want)) / ulp)
    print(f"  simulated kernel: max error {worst:.3f} float32 ulp (normal results)")


if __name__ == "__main__":
    main()
