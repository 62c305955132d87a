// float32 exp and log and the functions built on them, in vector lanes,
// for the ISA simd_impl.cpp is being compiled for (included there, inside its anonymous
// namespace, after the vector types and helpers it defines).

using VF = V<float>;
using VI = V<int32_t>;

inline VF bits_f(VI v) { return (VF)v; }
inline VI bits_i(VF v) { return (VI)v; }
inline VF vabs(VF x) { return bits_f(bits_i(x) & 0x7fffffff); }
inline VF copysign_v(VF mag, VF sgn) { return bits_f((bits_i(mag) & 0x7fffffff) | (bits_i(sgn) & (int32_t)0x80000000)); }

// e**s = 1 + s + s*s * exp_u(s) for |s| <= ln2/2: the degree-6 minimax polynomial of
// SLEEF's expf.
inline VF exp_u(VF s) {
    VF u = splat(0.000198527617612853646278381f);
    u = u * s + 0.00139304355252534151077271f;
    u = u * s + 0.00833336077630519866943359f;
    u = u * s + 0.0416664853692054748535156f;
    u = u * s + 0.166666671633720397949219f;
    return u * s + 0.5f;
}
// e**x. Cody-Waite reduction x = q*ln2 + s, |s| <= ln2/2, e**s by exp_u. exp_poly returns
// e**s and q (an integer-valued float).
inline VF exp_poly(VF x, VF& q) {
    const float magic = 12582912.0f;  // 1.5 * 2**23: adding it rounds to an integer
    q = (x * 1.44269504088896341f + magic) - magic;
    VF s = x - q * 0.693145751953125f;
    s = s - q * 1.428606765330187045e-06f;
    return (s * s) * exp_u(s) + s + 1.0f;
}
#if defined(__AVX512F__)
// u * 2**q in one instruction (vscalefps), rounded once, overflow and subnormals included.
inline VF scale_by_pow2(VF u, VF q) {
    __m512 a, b;
    memcpy(&a, &u, 64);
    memcpy(&b, &q, 64);
    __m512 r = _mm512_mask_scalef_ps(a, (__mmask16)0xffff, a, b);
    VF v;
    memcpy(&v, &r, 64);
    return v;
}
#else
// u * 2**q in two steps so that results in the subnormal range are rounded once.
inline VF scale_by_pow2(VF u, VF q) {
    VI n = __builtin_convertvector(q, VI);
    VI n1 = n >> 1, n2 = n - n1;
    return u * bits_f((n1 + 127) << 23) * bits_f((n2 + 127) << 23);
}
#endif
// e**x for vectors with a lane below -87, whose result is subnormal or zero. No lane is
// scaled into underflow: that cost its vector a microcode assist (exp of 1e6 values below
// -104 took 2.8 ms against 0.15 in range, of values in (-100, -88) 2.9 ms; masked logits
// in a softmax, the sigmoid of large negative values). Below -104 (e**x under half the
// smallest subnormal) the result is +0 by a select, the lane computed on 0; for q <= -126,
// u * 2**(q + 149) is a normal float whose value rounded to an integer is the bit pattern
// of u * 2**q rounded once (a subnormal, or the smallest binade's normal).
inline VF exp_f32_low(VF x) {
    const auto underflows = x < -104.0f;
    VF xc = underflows ? splat(0.0f) : x;
    xc = xc > 89.0f ? splat(89.0f) : xc;
    VF q;
    const VF u = exp_poly(xc, q);
    const auto tiny = q <= -126.0f;
    const VF r = scale_by_pow2(u, tiny ? q + 149.0f : q);  // tiny: r in [0.35, 2**24)
    // to the nearest integer, ties to even: below 2**23 by adding and subtracting 2**23
    const VF whole = r < 8388608.0f ? (r + 8388608.0f) - 8388608.0f : r;
    const VF subnormal = bits_f(__builtin_convertvector(whole, VI));
    return underflows ? splat(0.0f) : tiny ? subnormal : r;
}
// Full range. NaN needs no special case: it reaches u, and NaN times anything is NaN. From
// -87 on every result is a normal float (e**-87 > 2**-126).
inline VF exp_f32(VF x) {
    if (__builtin_expect(any_set((VI)(x < -87.0f)), 0)) return exp_f32_low(x);
    const VF xc = x > 89.0f ? splat(89.0f) : x;  // NaN compares false and passes through
    VF q;
    const VF u = exp_poly(xc, q);
    return scale_by_pow2(u, q);
}

// Natural logarithm. x = 2**k * m with m in [0.75, 1.5), f = m - 1 (exact) in [-0.25, 0.5),
// log(x) = k*ln2 + (f + f*f * R(f)), R(f) = -1/2 + f*P(f) with P a degree-7 minimax polynomial
// fitted by scripts/fit_simd_math.py for the error relative to the result. No division.
// k*ln2 is added by one fma with ln2 rounded to float: its error, |k| * 1.9e-9, is at most
// ~0.1 ulp of the result because |log(x)| >= 0.28 |k| whenever k != 0.
inline VF log1p_kernel(VF f, VF dk) {
    VF r = splat(-4.515220597e-02f);
    r = r * f + 1.047255397e-01f;
    r = r * f + -1.316394210e-01f;
    r = r * f + 1.447763145e-01f;
    r = r * f + -1.664687842e-01f;
    r = r * f + 1.999084800e-01f;
    r = r * f + -2.500011027e-01f;
    r = r * f + 3.333345056e-01f;
    r = r * f + -0.5f;
    VF l = (f * f) * r + f;
    return dk * 0.693147180559945309f + l;
}
#if defined(__AVX512F__)
// vgetmantps: m in [0.75, 1.5) (subnormals included); vgetexpps: floor(log2 .) as a float, so
// k = exp(x) - exp(m). vfixupimmps then sets the special inputs from x's class in one
// instruction: NaN -> NaN, +-0 -> -inf, +inf -> +inf, -inf and x < 0 -> NaN.
inline VF log_f32(VF x) {
    __m512 vx;
    memcpy(&vx, &x, 64);
    __m512 vm = _mm512_maskz_getmant_ps((__mmask16)0xffff, vx, _MM_MANT_NORM_p75_1p5, _MM_MANT_SIGN_src);
    __m512 vk = _mm512_sub_ps(_mm512_maskz_getexp_ps((__mmask16)0xffff, vx), _mm512_maskz_getexp_ps((__mmask16)0xffff, vm));
    VF m, dk;
    memcpy(&m, &vm, 64);
    memcpy(&dk, &vk, 64);
    VF r = log1p_kernel(m - 1.0f, dk);
    __m512 vr;
    memcpy(&vr, &r, 64);
    // response nibbles by class: QNaN 2 (QNaN(x)), SNaN 2, +-0 4 (-inf), +1 0 (keep),
    // -inf 3 (default NaN), +inf 5 (+inf), negative 3 (default NaN), positive 0 (keep)
    vr = _mm512_maskz_fixupimm_ps((__mmask16)0xffff, vr, vx, _mm512_set1_epi32(0x03530422), 0);
    memcpy(&r, &vr, 64);
    return r;
}
#else
// k and f = m - 1 from the bit pattern of a positive normal x.
inline VF log_reduce_bits(VF x, VF& dk) {
    using VU = V<uint32_t>;  // bit arithmetic without signed overflow
    VI ix = (VI)((VU)bits_i(x) + (uint32_t)(0x3f800000 - 0x3f400000));
    dk = __builtin_convertvector((ix >> 23) - 0x7f, VF);
    return bits_f((ix & 0x007fffff) + 0x3f400000) - 1.0f;
}

// Inputs that are not positive normal numbers, handled branch-free: subnormals scaled by
// 2**23, then 0 -> -inf, x < 0 -> NaN, +inf -> +inf, NaN -> NaN.
__attribute__((noinline)) VF log_f32_rare(VF x) {
    auto sub = x < 1.17549435e-38f;
    VF xs = sub ? x * 8388608.0f : x;
    VF dk;
    VF f = log_reduce_bits(xs, dk);
    dk = sub ? dk - 23.0f : dk;
    VF r = log1p_kernel(f, dk);
    const float inf = __builtin_inff();
    r = x == 0.0f ? splat(-inf) : r;
    r = x < 0.0f ? splat(__builtin_nanf("")) : r;
    r = x == inf ? splat(inf) : r;
    return x != x ? x : r;
}
inline VF log_f32(VF x) {
    using VU = V<uint32_t>;
    // not in [FLT_MIN, inf): zero, negative, subnormal, inf, NaN (a branch: rare in practice)
    if (__builtin_expect(any_set((VI)((VU)bits_i(x) - 0x00800000u >= 0x7f000000u)), 0)) return log_f32_rare(x);
    VF dk;
    VF f = log_reduce_bits(x, dk);
    return log1p_kernel(f, dk);
}
#endif

// min(|a|, 10); NaN passes through.
inline VF abs_min10(VF a) {
    VF ax = vabs(a);
#if defined(__AVX512F__)
    __m512 v;
    memcpy(&v, &ax, 64);
    v = _mm512_maskz_min_ps((__mmask16)0xffff, _mm512_set1_ps(10.0f), v);  // the second operand if NaN
    memcpy(&ax, &v, 64);
    return ax;
#else
    return 10.0f < ax ? splat(10.0f) : ax;
#endif
}
inline VF two_pow_q1(VF q) {  // 2**(q + 1) for integer-valued q in [0, 29]
#if defined(__AVX512F__)
    return scale_by_pow2(splat(2.0f), q);
#else
    return bits_f((__builtin_convertvector(q, VI) + 128) << 23);
#endif
}

// tanh(x) = sign(x) * e / (e + 2) with e = expm1(2|x|): relative accuracy for small |x| (e
// carries it), and near +-1 the roundings of e and e + 2 enter the result at most ~1.5 ulp.
// One division per vector, no branch and no select: an earlier form that divided (d - 2)/d
// above |x| = 0.55 (1 - 2/d rounded once, 1.0 ulp there) cost two more operations per vector,
// ~11% of the kernel. (On this file's targets the divider runs beside the FMA units; vrcp14ps
// plus a Newton step measured slower.)
// expm1(2|x|) = 2**q * (2p + 1) - 1 with q = round(2|x|/ln2), h = |x| - q*ln2/2 and
// p = expm1(2h)/2 = h + h*h * U(h), U a degree-4 minimax polynomial (scripts/fit_simd_math.py).
// ln2/2 is rounded to float: the error q * 5e-10 in h is negligible next to 2/(e + 2) for q >= 1.
inline VF tanh_f32(VF x) {
    VF xc = abs_min10(x);  // tanh rounds to 1 long before |x| = 10
    const float magic = 12582912.0f;  // 1.5 * 2**23: adding it rounds to an integer
    VF q = (xc * 2.88539008177792681f + magic) - magic;  // round(2|x| / ln2)
    VF h = xc - q * 0.346573590279972655f;
    VF u = splat(4.438364506e-02f);
    u = u * h + 1.338600367e-01f;
    u = u * h + 3.333395422e-01f;
    u = u * h + 6.666618586e-01f;
    u = u * h + 9.999999404e-01f;
    VF p = (h * h) * u + h;  // expm1(2h) / 2
    VF t2 = two_pow_q1(q);
    VF e = t2 * p + (t2 * 0.5f - 1.0f);  // expm1(2|x|), exact 2h when q = 0
    VF t = e / (e + 2.0f);
    return bits_f(bits_i(t) ^ (bits_i(x) & (int32_t)0x80000000));  // NaN propagates throughout
}

// Vectors with a lane beyond |x| = 87, where e**-|x| is subnormal or 0, out of line: tested
// inside the hot path (exp_f32's test, then a second one for the division) the two
// mask-to-branch sequences made the common case 40% slower (1e6 float32 on one Zen 5 core:
// 243 us against tanh's 122; one test on x up front: 175).
__attribute__((noinline)) VF sigmoid_f32_far(VF x) {
    VF e = exp_f32_low(-vabs(x));
    VF num = x >= 0.0f ? splat(1.0f) : e;
    // Below -87, e is subnormal or 0 and 1 + e is 1: the quotient is e itself, and dividing a
    // subnormal cost the vector a microcode assist.
    const auto tiny = x < -87.0f;
    return tiny ? e : (tiny ? splat(1.0f) : num) / (1.0f + e);
}
inline VF sigmoid_f32(VF x) {
    const VF a = vabs(x);
    if (__builtin_expect(any_set((VI)(a > 87.0f)), 0)) return sigmoid_f32_far(x);
    VF q;
    const VF p = exp_poly(-a, q);
    const VF e = scale_by_pow2(p, q);  // e**-|x| in [e**-87, 1]: a normal float; NaN stays NaN
    return (x >= 0.0f ? splat(1.0f) : e) / (1.0f + e);
}
