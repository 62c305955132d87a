#!/usr/bin/env python3
"""Fit the float32 polynomials of backends/cpu/simd_impl.cpp (log and tanh kernels).

    python3 scripts/fit_simd_math.py [--degree-log N] [--degree-expm1 N]

Weighted discrete minimax (Lawson's iteratively reweighted least squares on a dense grid,
then a few exchange-free refinement rounds), computed in mpmath at 50 digits, then the
coefficients are rounded to float32 one at a time from the lowest order up, refitting the
remaining ones after each rounding so that the rounding errors are absorbed. Finally the
kernel is evaluated in simulated float32 arithmetic (each operation rounded; fma rounded
once) and the max error against mpmath is printed in ulp.

log:   log(1 + f) = f + f^2 * (-1/2 + f * P(f)),  f = m - 1,  m in [0.75, 1.5)
       weight: f^3 / log1p(f)   (error of the result relative to the result)
expm1: expm1(2h)/2 = h + h^2 * U(h),  |h| <= ln2/4   (tanh via expm1(2|x|), h = |x| - q*ln2/2)
       weight: h^2 / (expm1(2h)/2)
"""
import argparse
import mpmath as mp
import numpy as np

mp.mp.dps = 50


def f32(v):
    return float(np.float32(float(v)))


def lawson(xs, target, weight, basis, iters=300):
    """min over c of max_i |weight_i * (sum_j c_j basis_j(x_i) - target_i)|."""
    A = np.array([[float(b(x)) for b in basis] for x in xs])
    t = np.array([float(v) for v in target])
    w = np.array([float(v) for v in weight])
    Aw = A * w[:, None]
    tw = t * w
    lam = np.full(len(xs), 1.0 / len(xs))
    c = None
    for _ in range(iters):
        s = np.sqrt(lam)
        c, *_ = np.linalg.lstsq(Aw * s[:, None], tw * s, rcond=None)
        e = np.abs(Aw @ c - tw)
        lam = lam * e
        lam /= lam.sum()
    e = np.abs(Aw @ c - tw)
    return c, e.max()


def fit_rounded(xs, target_fn, weight_fn, degree, fixed_lo=()):
    """Coefficients c_0..c_degree (float32), rounded from the lowest order up."""
    xs = list(xs)
    fixed = []
    for k in range(degree + 1):
        # remaining polynomial: sum_{j>=k} c_j x^j ; subtract the fixed part from the target
        tgt = [target_fn(x) - sum(fc * x ** j for j, fc in enumerate(fixed)) for x in xs]
        basis = [(lambda j: (lambda x: x ** j))(j) for j in range(k, degree + 1)]
        c, err = lawson(xs, tgt, [weight_fn(x) for x in xs], basis)
        fixed.append(f32(c[0]))
    return fixed, err


def grid(lo, hi, n):
    return [mp.mpf(lo) + (mp.mpf(hi) - mp.mpf(lo)) * i / (n - 1) for i in range(n)]


# ---------------------------------------------------------------- float32 simulation
F = np.float32


def fma32(a, b, c):
    return F(np.float64(a) * np.float64(b) + np.float64(c))  # exact product; double rounding is rare


def ulp32(v):
    v = abs(np.float32(v))
    return float(np.nextafter(v, np.float32(np.inf)) - v)


def horner(coefs, x):
    p = F(coefs[-1])
    for c in reversed(coefs[:-1]):
        p = fma32(p, x, F(c))
    return p


def log_kernel(x, P):
    # mirrors log1p_kernel / log_reduce_bits in simd_impl.cpp (k and m from the bit pattern)
    b = np.float32(x).view(np.uint32)
    ix = np.uint32((int(b) + (0x3F800000 - 0x3F400000)) & 0xFFFFFFFF)
    k = (int(ix) >> 23) - 127
    m = np.uint32((int(ix) & 0x7FFFFF) + 0x3F400000).view(np.float32)
    f = F(m - F(1))
    r = horner(list(P) + [], f)      # P(f)
    r = fma32(r, f, F(-0.5))         # R(f) = -1/2 + f*P(f)
    l = fma32(F(f * f), r, f)        # f + f^2 R(f)
    return fma32(F(k), F(LN2), l)    # k*ln2 (ln2 rounded to float) in one fma


LN2 = f32(mp.log(2))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--degree-log", type=int, default=7)
    ap.add_argument("--degree-expm1", type=int, default=4)
    ap.add_argument("--points", type=int, default=800)
    args = ap.parse_args()

    # ---------------- log
    lo, hi = mp.mpf("0.75") - 1, mp.mpf("1.5") - 1
    xs = [x for x in grid(lo, hi, args.points) if abs(x) > mp.mpf("1e-4")]
    tgt = lambda f: (mp.log1p(f) - f + f * f / 2) / f ** 3
    wgt = lambda f: abs(f ** 3 / mp.log1p(f)) * 2 ** 24  # error in units of 2^-24 of the result
    P, err = fit_rounded(xs, tgt, wgt, args.degree_log)
    print(f"log: P degree {args.degree_log}, weighted error {err:.3g} (units of 2^-24 relative)")
    print("  P (constant term first) = " + ", ".join(f"{c:.9e}f" for c in P))
    worst = 0
    rng = np.random.default_rng(0)
    xs32 = np.concatenate([rng.uniform(0.5, 2.0, 200000), rng.uniform(1e-3, 1e3, 50000)]).astype(np.float32)
    for x in xs32:
        got = log_kernel(x, P)
        want = mp.log(mp.mpf(float(x)))
        e = abs(float(got) - float(want)) / ulp32(float(want))
        worst = max(worst, e)
    print(f"  simulated float32 kernel: max error {worst:.3f} ulp over {len(xs32)} inputs")

    # ---------------- expm1 (for tanh): expm1(2h)/2 = h + h^2 * U(h), |h| <= ln2/4
    h = mp.log(2) / 4
    xs = [x for x in grid(-h, h, args.points) if abs(x) > mp.mpf("1e-4")]
    tgt = lambda v: (mp.expm1(2 * v) / 2 - v) / v ** 2
    wgt = lambda v: abs(v ** 2 / (mp.expm1(2 * v) / 2)) * 2 ** 24
    U, err = fit_rounded(xs, tgt, wgt, args.degree_expm1)
    print(f"expm1(2h)/2: U degree {args.degree_expm1}, weighted error {err:.3g} (units of 2^-24 relative)")
    print("  U (constant term first) = " + ", ".join(f"{c:.9e}f" for c in U))


if __name__ == "__main__":
    main()
