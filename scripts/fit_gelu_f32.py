#!/usr/bin/env python3
"""Fit the tables of the float32 gelu (erf form) kernel (backends/cpu/simd_gelu_erf.hpp).

    python3 scripts/fit_gelu_f32.py [--check N]   (needs numpy, mpmath)

With a = |x| and T = Phi(-a) = e^(-a^2/2) G(a), G(a) = erfc(a / sqrt 2) e^(a^2/2) / 2 (the
scaled Mills ratio, smooth, from 0.5 at 0 to about 1 / (a sqrt(2 pi))), the kernel evaluates
G by a degree-7 polynomial in t = a - m on [0, 0.5) and on the half-binades [0.5, 0.75),
[0.75, 1), ..., [8, 12), m the interval's midpoint. Each is a least-squares fit for the
error relative to G on Chebyshev nodes, reweighted towards the largest errors (40 rounds),
against 40-digit mpmath. The table is printed as the header's C++ (float32 literals); then
the kernel is simulated in float32 with numpy (fma through float64) on N points of
(-12, 12) and compared with float64 math, in float32 ulp.
"""
import argparse
import math

import mpmath as mp
import numpy as np

mp.mp.dps = 40
EDGES = [0.5, 0.75, 1, 1.5, 2, 3, 4, 6, 8, 12]
DEGREE = 7


def mills(a):
    a = mp.mpf(a)
    return 0.5 * mp.erfc(a / mp.sqrt(2)) * mp.exp(a * a / 2)


def fit_relative(lo, hi, m, nodes=300):
    k = np.arange(nodes)
    v = 0.5 * (lo + hi) + 0.5 * (hi - lo) * np.cos(np.pi * (k + 0.5) / nodes)
    ys = np.array([float(mills(x)) for x in v])
    A = np.vander(v - m, DEGREE + 1, increasing=True) / ys[:, None]
    w = np.ones(nodes)
    for _ in range(40):
        c, *_ = np.linalg.lstsq(A * w[:, None], w, rcond=None)
        r = np.abs(A @ c - 1)
        w = w * (r / r.max() + 1e-2)
        w /= w.max()
    grid = np.linspace(lo, hi, 3001)
    exact = np.array([float(mills(x)) for x in grid])
    return c, np.max(np.abs(np.polyval(c[::-1], grid - m) / exact - 1))


def literal(v):
    s = "%.9g" % np.float32(v)
    return (s if ("." in s or "e" in s) else s + ".0") + "f"


def tables():
    intervals = list(zip(EDGES[:-1], EDGES[1:]))
    fits = []
    for lo, hi in intervals + [(0.0, 0.5)]:
        m = float(np.float32(0.5 * (lo + hi)))
        c, err = fit_relative(lo, hi, m)
        print("// G on [%g, %g): relative error of the fit %.2e" % (lo, hi, err))
        fits.append((m, c))
    rows = []
    for k in range(DEGREE + 2):  # m, then c0..c7
        vals = [f[0] if k == 0 else f[1][k - 1] for f in fits[:-1]]
        vals += [vals[-1]] * (15 - len(vals))
        vals.append(fits[-1][0] if k == 0 else fits[-1][1][k - 1])
        rows.append(np.array(vals, dtype=np.float32))
    print("alignas(64) constexpr float kGeluTail[%d][16] = {" % len(rows))
    for r in rows:
        print("    {%s}," % ", ".join(literal(v) for v in r))
    print("};")
    return rows


def f32(v):
    return np.asarray(v, dtype=np.float32)


def fma(a, b, c):
    return f32(a.astype(np.float64) * b.astype(np.float64) + c.astype(np.float64))


def kernel(x, rows):
    """The kernel's near path, step by step in float32 (|x| < 12)."""
    x = f32(x)
    a = np.abs(x)
    b = f32(f32(-0.5) * a)
    h = f32(b * a)
    lo = fma(b, a, -h)
    q = f32(f32(h * f32(1.44269504088896341) + f32(12582912.0)) - f32(12582912.0))
    r1 = fma(q, f32(np.full_like(q, -0.693145751953125)), h)
    c = fma(q, f32(np.full_like(q, -1.428606765330187045e-06)), lo)
    r = f32(r1 + c)
    u = f32(np.full_like(r, 0.000198527617612853646278381))
    for k in (0.00139304355252534151077271, 0.00833336077630519866943359, 0.0416664853692054748535156,
              0.166666671633720397949219, 0.5):
        u = fma(u, r, f32(np.full_like(r, k)))
    em1 = fma(f32(r * r), u, r)
    idx = np.maximum((a.view(np.int32) >> 22) - 252, -1) & 15
    coef = [rows[k + 1][idx] for k in range(DEGREE + 1)]
    t = f32(a - rows[0][idx])
    t2 = f32(t * t)
    p12, p34, p56 = fma(coef[2], t, coef[1]), fma(coef[4], t, coef[3]), fma(coef[6], t, coef[5])
    g1 = fma(fma(coef[7], t2, p56), f32(t2 * t2), fma(p34, t2, p12))
    g = fma(g1, t, coef[0])
    scale = f32(np.ldexp(1.0, q.astype(np.int32)))
    neg = f32(fma(x, coef[0], fma(f32(x * g), em1, f32(f32(x * t) * g1))) * scale)
    pos = fma(-x, f32(fma(g, em1, g) * scale), x)
    return np.where(x < 0, neg, pos)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", type=int, default=1000001, help="points of (-12, 12) simulated")
    args = ap.parse_args()
    rows = tables()
    x = f32(np.linspace(-11.99, 11.99, args.check))
    got = kernel(x, rows).astype(np.float64)
    want = np.array([0.5 * float(v) * math.erfc(-float(v) / math.sqrt(2)) for v in x])
    ulp = np.ldexp(1.0, np.maximum(np.frexp(np.abs(want))[1] - 1, -126) - 23)
    err = np.abs(got - want) / ulp
    i = int(np.argmax(err))
    print("// simulated in float32: max %.3f ulp at x = %.9g, mean %.3f" % (err[i], x[i], err.mean()))


if __name__ == "__main__":
    main()
