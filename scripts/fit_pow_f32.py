#!/usr/bin/env python3
"""Tables and polynomials of the float32 pow kernel (backends/cpu/simd_pow.hpp).

    python3 scripts/fit_pow_f32.py [--degree-log N] [--degree-exp2 N]   (needs numpy, mpmath)

pow(x, y) = 2^(y * log2 x), in float64 lanes:
log2:  x = 2^k * z, z in [LOW, 2 LOW) where LOW = 0x3f32aaab as float bits: 2^23 bit
       patterns in 16 runs of 2^19, the run holding 1.0 centred on it. c = the centre of z's
       run (1 for that run), r = z * (1/c) - 1, log2 x = k + log2 c + r * Q(r); the table
       holds 1/c rounded to float64 and -log2 of that float64, so the identity is exact.
       Q is fitted for the error relative to Q (= relative to log2(1 + r)).
exp2:  w = n + r, n = round(w), |r| <= 1/2: 2^r = E(r), relative error.
Lawson's weighted minimax (iteratively reweighted least squares) on a dense grid in a
variable scaled to [-1, 1], targets in mpmath. Then the whole kernel is simulated in float64
(numpy) on random inputs and compared with mpmath's pow, in float32 ulp.
"""
import argparse
import struct

import mpmath as mp
import numpy as np

from fit_simd_math import lawson  # Lawson's weighted minimax; sets mpmath to 50 digits

LOW = 0x3F800000 - 9 * (1 << 19) - 0x55555  # 1.0 sits in the middle of run 9


def f32_of_bits(b):
    return struct.unpack("<f", struct.pack("<I", b))[0]


def horner(c, x):
    p = np.full_like(x, c[-1])
    for v in reversed(c[:-1]):
        p = p * x + v
    return p


def tables():
    inv, logc, lo_r, hi_r = [], [], [], []
    for i in range(16):
        lo = mp.mpf(f32_of_bits(LOW + i * (1 << 19)))
        hi = mp.mpf(f32_of_bits(LOW + (i + 1) * (1 << 19)))
        ic = 1.0 if i == 9 else float(2 / (lo + hi))
        inv.append(ic)
        logc.append(float(-mp.log(mp.mpf(ic), 2)))
        lo_r.append(lo * ic - 1)
        hi_r.append(hi * ic - 1)
    return inv, logc, min(lo_r), max(hi_r)


def fit(lo, hi, target, degree, points):
    """Minimax polynomial (relative error) on [lo, hi], fitted in u = (x - mid) / half."""
    mid, half = (hi + lo) / 2, (hi - lo) / 2
    us = [mp.mpf(-1) + 2 * mp.mpf(j) / (points - 1) for j in range(points)]
    xs = [mid + half * u for u in us]
    basis = [(lambda j: (lambda u: u ** j))(j) for j in range(degree + 1)]
    cu, err = lawson(us, [target(x) for x in xs], [1 / target(x) for x in xs], basis, iters=400)
    coef = [mp.mpf(0)] * (degree + 1)
    for j, cj in enumerate(cu):
        for k in range(j + 1):
            coef[k] += mp.mpf(float(cj)) * mp.binomial(j, k) * (-mid) ** (j - k) / half ** j
    return [float(v) for v in coef], err


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--degree-log", type=int, default=6)
    ap.add_argument("--degree-exp2", type=int, default=7)
    ap.add_argument("--points", type=int, default=800)
    a = ap.parse_args()
    inv, logc, rlo, rhi = tables()
    print(f"kPowLogLow = {LOW:#x} ({f32_of_bits(LOW)!r}), r in [{float(rlo):.6f}, {float(rhi):.6f}]")
    print("  1/c = " + ", ".join(v.hex() for v in inv))
    print("  -log2(1/c) = " + ", ".join(v.hex() for v in logc))
    q = lambda r: 1 / mp.log(2) if r == 0 else mp.log(1 + r, 2) / r
    cq, eq = fit(rlo, rhi, q, a.degree_log, a.points)
    ce, ee = fit(mp.mpf(-0.5), mp.mpf(0.5), lambda r: mp.power(2, r), a.degree_exp2, a.points)
    print(f"log2: Q degree {a.degree_log}, relative error {eq:.3g} (2^{np.log2(eq):.1f})")
    print("  Q = " + ", ".join(f"{v:.17g}" for v in cq))
    print(f"exp2: E degree {a.degree_exp2}, relative error {ee:.3g} (2^{np.log2(ee):.1f})")
    print("  E = " + ", ".join(f"{v:.17g}" for v in ce))

    rng = np.random.default_rng(0)
    n = 20000
    x = np.concatenate([rng.uniform(0, 4, n), np.exp(rng.uniform(-80, 80, n)), 1 + rng.uniform(-1e-3, 1e-3, n)]).astype(np.float32)
    y = np.concatenate([rng.uniform(-30, 30, n), rng.uniform(-1.5, 1.5, n), rng.uniform(-6e4, 6e4, n)]).astype(np.float32)
    yd = y.astype(np.float64)
    bits = x.view(np.uint32).astype(np.int64)
    from_low = bits - LOW
    idx = (from_low >> 19) & 15
    k = from_low >> 23
    z = (bits - (k << 23)).astype(np.uint32).view(np.float32).astype(np.float64)
    r = z * np.array(inv)[idx] - 1
    l = k + np.array(logc)[idx] + r * horner(cq, r)
    w = np.clip(yd * l, -160, 130)
    nn = np.round(w)
    with np.errstate(over="ignore"):
        got = (horner(ce, w - nn) * np.exp2(nn)).astype(np.float32)
    worst = 0.0
    for xi, yi, gi in zip(x[::7], y[::7], got[::7]):
        want = mp.power(mp.mpf(float(xi)), mp.mpf(float(yi)))
        with np.errstate(over="ignore"):
            wf = np.float32(float(want))
        if not np.isfinite(wf) or wf == 0 or abs(wf) < np.finfo(np.float32).tiny:
            continue
        ulp = float(np.spacing(wf))
        worst = max(worst, abs(float(gi) - float(want)) / ulp)
    print(f"  simulated kernel: max error {worst:.4f} float32 ulp (normal results)")


if __name__ == "__main__":
    main()
