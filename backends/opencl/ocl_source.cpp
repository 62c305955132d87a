// OpenCL C sources of the backend, generated per dtype from templates.
//
// Program dtype_prog(d, group) holds one group of the kernels whose element type is dtype
// d (KernelGroup in ocl_backend.hpp: unary, math, arith, compare, cast, reduce, other).
// PROG_MISC moves bytes (copy, where, gather) by item size and makes random bits;
// PROG_SOFT64 converts float64/complex128 bit patterns on devices without cl_khr_fp64. Semantics follow backends/reference/ref_*.cpp exactly (see docs/opencl.md).
#include <cstring>
#include <initializer_list>
#include <string>
#include <utility>

#include "ocl_backend.hpp"

namespace ember_ocl {

namespace {

// Kind of a dtype for the generator.
enum Kind { KB, KI, KU, KF, KX };

struct DtypeDesc {
    const char* tag;   // kernel suffix
    const char* stor;  // OpenCL storage type
    const char* comp;  // compute type
    const char* real;  // real compute type (components of complex; float for integers)
    const char* wrap;  // unsigned type for wrap-around integer arithmetic
    Kind kind;
    int bits;          // integer width
    int half;          // 1 float16, 2 bfloat16
    bool needs_fp64;
};

const DtypeDesc kDt[EMBER_DTYPE_COUNT] = {
    {"bool", "uchar", "uchar", "float", "uint", KB, 8, 0, false},
    {"i8", "char", "char", "float", "uint", KI, 8, 0, false},
    {"i16", "short", "short", "float", "uint", KI, 16, 0, false},
    {"i32", "int", "int", "float", "uint", KI, 32, 0, false},
    {"i64", "long", "long", "float", "ulong", KI, 64, 0, false},
    {"u8", "uchar", "uchar", "float", "uint", KU, 8, 0, false},
    {"u16", "ushort", "ushort", "float", "uint", KU, 16, 0, false},
    {"u32", "uint", "uint", "float", "uint", KU, 32, 0, false},
    {"u64", "ulong", "ulong", "float", "ulong", KU, 64, 0, false},
    {"f16", "ushort", "float", "float", "uint", KF, 0, 1, false},
    {"bf16", "ushort", "float", "float", "uint", KF, 0, 2, false},
    {"f32", "float", "float", "float", "uint", KF, 0, 0, false},
    {"f64", "double", "double", "double", "uint", KF, 0, 0, true},
    {"c64", "float2", "float2", "float", "uint", KX, 0, 0, false},
    {"c128", "double2", "double2", "double", "uint", KX, 0, 0, true},
};

std::string sub(std::string t, std::initializer_list<std::pair<const char*, std::string>> reps) {
    for (auto& [from, to] : reps) {
        size_t flen = std::strlen(from);
        for (size_t p = t.find(from); p != std::string::npos; p = t.find(from, p + to.size())) t.replace(p, flen, to);
    }
    return t;
}

// The loop templates behind EW_LOOP(g, body) and OUT_LOOP(g, body) in kernel sources. A
// body holds commas, so a plain macro would need __VA_ARGS__, which OpenCL C 1.2 lacks
// (PoCL accepts it; NVIDIA's compiler does not). One line each: a use inside a #define
// stays one logical line.
//
// EW_LOOP: elementwise over geometry G; p0..p3 are the element offsets of operands 0..3.
const char* kEwLoop =
    "{ const long ch_ = (G).ch, n_ = (G).n; "
    "if ((G).unit) { "
    "const long o0 = (G).off[0], o1 = (G).off[1], o2 = (G).off[2], o3 = (G).off[3]; "
    "RANGE(i, n_, ch_) { const long p0 = o0 + i, p1 = o1 + i, p2 = o2 + i, p3 = o3 + i; "
    "(void)p1; (void)p2; (void)p3; BODY; } "
    "} else if ((G).nd <= 1) { "
    "const long s0 = (G).st[0][0], s1 = (G).st[1][0], s2 = (G).st[2][0], s3 = (G).st[3][0]; "
    "const long o0 = (G).off[0], o1 = (G).off[1], o2 = (G).off[2], o3 = (G).off[3]; "
    "RANGE(i, n_, ch_) { const long p0 = o0 + i * s0, p1 = o1 + i * s1, p2 = o2 + i * s2, p3 = o3 + i * s3; "
    "(void)p1; (void)p2; (void)p3; BODY; } "
    "} else { const int nd_ = (G).nd; "
    "RANGE(i, n_, ch_) { long r_ = i, p0 = (G).off[0], p1 = (G).off[1], p2 = (G).off[2], p3 = (G).off[3]; "
    "for (int d_ = nd_ - 1; d_ >= 0; --d_) { const long s_ = (G).shape[d_]; const long x_ = r_ % s_; r_ /= s_; "
    "p0 += x_ * (G).st[0][d_]; p1 += x_ * (G).st[1][d_]; p2 += x_ * (G).st[2][d_]; p3 += x_ * (G).st[3][d_]; } "
    "(void)p1; (void)p2; (void)p3; BODY; } } }";
// OUT_LOOP: per output of reduction geometry G; j, pi (input base), po (output offset).
const char* kOutLoop =
    "{ const long ch_ = (G).ch; "
    "RANGE(j, (G).n_out, ch_) { long r_ = j, pi = (G).off_in, po = (G).off_out; "
    "for (int d_ = (G).nd_out - 1; d_ >= 0; --d_) { const long s_ = (G).oshape[d_]; const long x_ = r_ % s_; r_ /= s_; "
    "pi += x_ * (G).ost_in[d_]; po += x_ * (G).ost_out[d_]; } "
    "BODY; } }";

// Replaces each NAME(g, body) in src by its template, with G and BODY substituted.
std::string expand_loop(const std::string& src, const std::string& name, const char* tmpl) {
    std::string out;
    const std::string open = name + "(";
    size_t at = 0;
    for (size_t p = src.find(open); p != std::string::npos; p = src.find(open, at)) {
        out.append(src, at, p - at);
        size_t q = p + open.size(), comma = std::string::npos;
        for (int depth = 1; depth > 0; ++q) {
            const char c = src.at(q);  // throws on an unbalanced use: a generator bug, caught by every test
            if (c == '(') ++depth;
            else if (c == ')') --depth;
            else if (c == ',' && depth == 1 && comma == std::string::npos) comma = q;
        }
        const std::string g = src.substr(p + open.size(), comma - p - open.size());
        const std::string body = src.substr(comma + 1, q - 1 - comma - 1);
        out += sub(sub(tmpl, {{"(G)", "(" + g + ")"}}), {{"BODY", body}});
        at = q;
    }
    return out.append(src, at, std::string::npos);
}

std::string expand_loops(const std::string& src) { return expand_loop(expand_loop(src, "EW_LOOP", kEwLoop), "OUT_LOOP", kOutLoop); }

// ------------------------------------------------------------------ prelude (every program)
const char* kPrelude = R"CLC(
#pragma OPENCL FP_CONTRACT OFF
#ifdef EMB_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#ifdef EMB_FP64
/* double -> float rounded to odd (ember_float16::to_float_odd): rounded once more to
   float16 or bfloat16, that is the correctly rounded conversion of the double. */
inline float d2f_odd(double d) {
    float f = (float)d;
    const double back = (double)f;
    if (back == d || isnan(d)) return f;
    if (fabs(back) > fabs(d)) f = nextafter(f, 0.0f);
    return as_float(as_uint(f) | 1u);
}
#endif
#define EMB_MAXD 16
typedef struct { long n, ch; int nd, unit; long shape[EMB_MAXD]; long off[4]; long st[4][EMB_MAXD]; } geo;
typedef struct { long n_out, n_in, ch; int nd_out, nd_in; long oshape[EMB_MAXD], ost_in[EMB_MAXD], ost_out[EMB_MAXD];
                 long ishape[EMB_MAXD], ist[EMB_MAXD]; long off_in, off_out, os_axis, pad; } rgeo;

/* Work distribution: each work item walks chunks of CH_ consecutive units (CH_ = 1 on
   GPUs: a grid-stride loop; larger on CPU devices, where chunks vectorise). */
#define RANGE(I, N, CH) for (long b_ = (long)get_global_id(0) * (CH); b_ < (N); b_ += (long)get_global_size(0) * (CH)) \
    for (long I = b_, e_ = min((long)(N), b_ + (CH)); I < e_; ++I)

/* The generator expands each EW_LOOP and OUT_LOOP use before the source is compiled
   (expand_loops in ocl_source.cpp): OpenCL C 1.2 has no variadic macros. */

/* Offset of the k-th reduced element (C order over the reduced dims) from base pi. */
inline long inner_off(const rgeo* g, long pi, long k) {
    if (g->nd_in <= 1) return pi + k * g->ist[0];
    for (int d = g->nd_in - 1; d >= 0; --d) { const long s = g->ishape[d]; pi += (k % s) * g->ist[d]; k /= s; }
    return pi;
}

/* Deferred error report: the first failing work item wins. */
inline void report_err(__global int* err, int seq, long value) {
    if (atomic_cmpxchg((volatile __global int*)err, 0, 1) == 0) { err[1] = seq; ((__global long*)err)[1] = value; }
}

/* IEEE binary16 and bfloat16 bit patterns <-> float (round to nearest even). */
inline float h2f(ushort h) {
    const uint sign = ((uint)h & 0x8000u) << 16, e = ((uint)h >> 10) & 0x1fu, m = (uint)h & 0x3ffu;
    if (e == 0) { const float v = (float)m * 5.9604644775390625e-8f; return sign ? -v : v; }
    if (e == 31) return as_float(sign | 0x7f800000u | (m << 13));
    return as_float(sign | ((e + 112u) << 23) | (m << 13));
}
inline ushort f2h(float f) {
    const uint x = as_uint(f), sign = (x >> 16) & 0x8000u, ax = x & 0x7fffffffu;
    if (ax > 0x7f800000u) return (ushort)(sign | 0x7e00u);
    if (ax >= 0x477ff000u) return (ushort)(sign | 0x7c00u);
    if (ax < 0x38800000u) {
        if (ax < 0x33000000u) return (ushort)sign;
        const uint mant = (ax & 0x7fffffu) | 0x800000u;
        const int sh = 126 - (int)(ax >> 23);
        uint r = mant >> sh;
        const uint rem = mant & ((1u << sh) - 1u), halfway = 1u << (sh - 1);
        if (rem > halfway || (rem == halfway && (r & 1u))) ++r;
        return (ushort)(sign | r);
    }
    uint r = (ax >> 13) - (112u << 10);
    const uint rem = ax & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (r & 1u))) ++r;
    return (ushort)(sign | r);
}
inline float b2f(ushort b) { return as_float((uint)b << 16); }
inline ushort f2b(float f) {
    uint u = as_uint(f);
    if ((u & 0x7fffffffu) > 0x7f800000u) return (ushort)((u >> 16) | 0x40u);
    u += 0x7fffu + ((u >> 16) & 1u);
    return (ushort)(u >> 16);
}
)CLC";

// ------------------------------------------------------------------ complex helpers
// @CT complex type, @RT its component type, @L literal suffix, @P name prefix.
const char* kComplexHelpers = R"CLC(
inline @CT @Pmul(@CT x, @CT y) {
    @RT a = x.x, b = x.y, c = y.x, d = y.y;
    const @RT ac = a * c, bd = b * d, ad = a * d, bc = b * c;
    @RT re = ac - bd, im = ad + bc;
    if (isnan(re) && isnan(im)) {   /* C11 Annex G: recover infinities */
        int recalc = 0;
        if (isinf(a) || isinf(b)) {
            a = copysign(isinf(a) ? 1.0@L : 0.0@L, a); b = copysign(isinf(b) ? 1.0@L : 0.0@L, b);
            if (isnan(c)) c = copysign(0.0@L, c);
            if (isnan(d)) d = copysign(0.0@L, d);
            recalc = 1;
        }
        if (isinf(c) || isinf(d)) {
            c = copysign(isinf(c) ? 1.0@L : 0.0@L, c); d = copysign(isinf(d) ? 1.0@L : 0.0@L, d);
            if (isnan(a)) a = copysign(0.0@L, a);
            if (isnan(b)) b = copysign(0.0@L, b);
            recalc = 1;
        }
        if (!recalc && (isinf(ac) || isinf(bd) || isinf(ad) || isinf(bc))) {
            if (isnan(a)) a = copysign(0.0@L, a);
            if (isnan(b)) b = copysign(0.0@L, b);
            if (isnan(c)) c = copysign(0.0@L, c);
            if (isnan(d)) d = copysign(0.0@L, d);
            recalc = 1;
        }
        if (recalc) { re = (@RT)INFINITY * (a * c - b * d); im = (@RT)INFINITY * (a * d + b * c); }
    }
    return (@CT)(re, im);
}
)CLC";

const char* kComplexMath = R"CLC(
/* Division as the reference's (libgcc's, GCC 12) and the cpu backend's (simd_complex.hpp):
   complex64 in double where the device has it (products of floats are exact there);
   complex128 by Smith's method on the divisor's larger part, after libgcc's scalings, and
   its other order where the ratio is subnormal or zero; then C99 Annex G's recovery of
   infinities where both parts are NaN. */
inline @CT @Pdiv(@CT x, @CT y) {
    @RT a = x.x, b = x.y, c = y.x, d = y.y, re, im;
@DIVCORE
    if (isnan(re) && isnan(im)) {
        const @RT inf = (@RT)INFINITY;
        if (c == 0.0@L && d == 0.0@L && (!isnan(a) || !isnan(b))) { re = copysign(inf, c) * a; im = copysign(inf, c) * b; }
        else if ((isinf(a) || isinf(b)) && isfinite(c) && isfinite(d)) {
            a = copysign(isinf(a) ? 1.0@L : 0.0@L, a); b = copysign(isinf(b) ? 1.0@L : 0.0@L, b);
            re = inf * (a * c + b * d); im = inf * (b * c - a * d);
        } else if ((isinf(c) || isinf(d)) && isfinite(a) && isfinite(b)) {
            c = copysign(isinf(c) ? 1.0@L : 0.0@L, c); d = copysign(isinf(d) ? 1.0@L : 0.0@L, d);
            re = 0.0@L * (a * c + b * d); im = 0.0@L * (b * c - a * d);
        }
    }
    return (@CT)(re, im);
}
/* exp(|x|) past the overflow threshold, its cosine and sine factors applied between two
   halves: e^800 cos(1e-310) is finite where e^800 is not (the reference's cexp, ccosh and
   csinh are finite there too). */
inline @CT @Pbig_exp(@RT ax, @RT c, @RT s, @RT scale) {
    const @RT h = exp(0.5@L * ax);
    return (@CT)(scale * h * c * h, scale * h * s * h);
}
/* 1/z as conj(z) / |z|^2 with Smith's scaling: backends/common/complex_reciprocal.hpp's steps. */
inline @CT @Precip(@CT z) {
    const @RT x = z.x, y = z.y;
    if (isinf(x) || isinf(y)) return (@CT)(copysign(0.0@L, x), copysign(0.0@L, -y));
    if (isnan(x) || isnan(y)) return (@CT)((@RT)NAN, (@RT)NAN);
    if (x == 0.0@L && y == 0.0@L) return (@CT)(copysign((@RT)INFINITY, x), (@RT)NAN);
    if (fabs(x) >= fabs(y)) { const @RT r = y / x, d = x + y * r; return (@CT)(1.0@L / d, -r / d); }
    const @RT r = x / y, d = y + x * r;
    return (@CT)(r / d, -1.0@L / d);
}
inline @CT @Pexp(@CT z) {
    const @RT x = z.x, y = z.y;
    if (isfinite(x)) {
        if (isfinite(y)) {
            if (y == 0.0@L) return (@CT)(exp(x), y);
            if (x > @XBIG) return @Pbig_exp(x, cos(y), sin(y), 1.0@L);
            const @RT e = exp(x);
            return (@CT)(e * cos(y), e * sin(y));
        }
        return (@CT)((@RT)NAN, (@RT)NAN);
    }
    if (isinf(x)) {
        if (isfinite(y)) {
            const @RT v = x > 0.0@L ? (@RT)INFINITY : 0.0@L;
            if (y == 0.0@L) return (@CT)(v, y);
            return (@CT)(copysign(v, cos(y)), copysign(v, sin(y)));
        }
        if (x > 0.0@L) return (@CT)((@RT)INFINITY, y - y);
        return (@CT)(0.0@L, copysign(0.0@L, y));
    }
    if (y == 0.0@L) return (@CT)((@RT)NAN, y);
    return (@CT)((@RT)NAN, (@RT)NAN);
}
/* log|z| near |z| = 1 through log1p of |z|^2 - 1 = (a - 1)(a + 1) + b^2 (a - 1 exact there):
   log(1 - 1e-40 i) has the real part 5e-81, which log(hypot) rounds to 0. */
inline @CT @Plog(@CT z) {
    @RT a = fabs(z.x), b = fabs(z.y);
    if (a < b) { const @RT t = a; a = b; b = t; }
    const @RT re = a >= 0.5@L && a <= 2.0@L && b < 1.0@L ? 0.5@L * log1p((a - 1.0@L) * (a + 1.0@L) + b * b) : log(hypot(a, b));
    return (@CT)(re, atan2(z.y, z.x));
}
/* expm1 and log1p without the cancellation of exp(z) - 1 and log(1 + z) inside |re|, |im| < 1/2
   (the reference's forms); outside it, and for infinities and NaNs, through exp and log. */
inline @CT @Pexpm1(@CT z) {
    if (!(fabs(z.x) < 0.5@L && fabs(z.y) < 0.5@L)) return @Pexp(z) - (@CT)(1.0@L, 0.0@L);
    const @RT half_sin = sin(z.y / 2.0@L);
    return (@CT)(expm1(z.x) * cos(z.y) - 2.0@L * half_sin * half_sin, exp(z.x) * sin(z.y));
}
inline @CT @Plog1p(@CT z) {
    if (!(fabs(z.x) < 0.5@L && fabs(z.y) < 0.5@L)) return @Plog((@CT)(1.0@L, 0.0@L) + z);
    return (@CT)(log1p(z.x * (2.0@L + z.x) + z.y * z.y) / 2.0@L, atan2(z.y, 1.0@L + z.x));
}
inline @CT @Psqrt(@CT z) {
    const @RT x = z.x, y = z.y;
    if (isinf(y)) return (@CT)((@RT)INFINITY, y);
    if (isnan(x) || isnan(y)) {
        if (isinf(x) && x < 0.0@L) return (@CT)(fabs(y - y), copysign((@RT)INFINITY, y));
        if (isinf(x)) return (@CT)(x, y - y);
        return (@CT)((@RT)NAN, (@RT)NAN);
    }
    if (y == 0.0@L) {
        if (x < 0.0@L) return (@CT)(0.0@L, copysign(sqrt(-x), y));
        return (@CT)(fabs(sqrt(x)), copysign(0.0@L, y));
    }
    if (x == 0.0@L) { const @RT r = sqrt(0.5@L * fabs(y)); return (@CT)(r, copysign(r, y)); }
    const @RT d = hypot(x, y);
    @RT r, s;
    if (x > 0.0@L) { r = sqrt(0.5@L * (d + x)); s = 0.5@L * (y / r); }
    else { s = sqrt(0.5@L * (d - x)); r = fabs(0.5@L * (y / s)); }
    return (@CT)(r, copysign(s, y));
}
inline @CT @Psign(@CT z) { const @RT a = hypot(z.x, z.y); return a == 0.0@L ? (@CT)(0.0@L, 0.0@L) : (@CT)(z.x / a, z.y / a); }
/* sinh and cosh with C99 Annex G's special values (the reference's), and exact parts on
   the axes; sin(z) = -i sinh(iz), cos(z) = cosh(iz). */
inline @CT @Psinh(@CT z) {
    const @RT x = z.x, y = z.y;
    if (isfinite(x) && isfinite(y)) {
        if (y == 0.0@L) return (@CT)(sinh(x), y);
        if (x == 0.0@L) return (@CT)(x * cos(y), sin(y));
        if (fabs(x) > @XBIG) {
            const @CT r = @Pbig_exp(fabs(x), cos(y), sin(y), 0.5@L);
            return (@CT)(copysign(1.0@L, x) * r.x, r.y);
        }
        return (@CT)(sinh(x) * cos(y), cosh(x) * sin(y));
    }
    if (x == 0.0@L) return (@CT)(x, y - y);
    if (isinf(x)) {
        if (y == 0.0@L) return (@CT)(x, y);
        if (isfinite(y)) return (@CT)(x * cos(y), (@RT)INFINITY * sin(y));
        return (@CT)((@RT)INFINITY, y - y);  /* the real part's sign is unspecified: the reference's + */
    }
    if (y == 0.0@L) return (@CT)(x, y);
    return (@CT)((@RT)NAN, (@RT)NAN);
}
inline @CT @Pcosh(@CT z) {
    const @RT x = z.x, y = z.y;
    if (isfinite(x) && isfinite(y)) {
        if (y == 0.0@L) return (@CT)(cosh(x), copysign(0.0@L, x) * y);
        if (x == 0.0@L) return (@CT)(cos(y), x * sin(y));
        if (fabs(x) > @XBIG) {
            const @CT r = @Pbig_exp(fabs(x), cos(y), sin(y), 0.5@L);
            return (@CT)(r.x, copysign(1.0@L, x) * r.y);
        }
        return (@CT)(cosh(x) * cos(y), sinh(x) * sin(y));
    }
    if (x == 0.0@L) return (@CT)(y - y, 0.0@L);
    if (isinf(x)) {
        if (y == 0.0@L) return (@CT)((@RT)INFINITY, copysign(0.0@L, x) * y);
        if (isfinite(y)) return (@CT)((@RT)INFINITY * cos(y), x * sin(y));
        return (@CT)((@RT)INFINITY, y - y);
    }
    if (y == 0.0@L) return (@CT)(x, y);
    return (@CT)((@RT)NAN, (@RT)NAN);
}
inline @CT @Psin(@CT z) {
    if (isinf(z.y) && !isfinite(z.x)) return (@CT)((@RT)NAN, (@RT)INFINITY);  /* unspecified sign: the reference's + */
    const @CT w = @Psinh((@CT)(-z.y, z.x));
    return (@CT)(w.y, -w.x);
}
inline @CT @Pcos(@CT z) { return @Pcosh((@CT)(-z.y, z.x)); }
inline @CT @Ptanh(@CT z) {
    const @RT x = z.x, y = z.y;
    if (isinf(x)) return (@CT)(copysign(1.0@L, x), copysign(0.0@L, isfinite(y) ? sin(2.0@L * y) : y));
    if (!isfinite(y)) return x == 0.0@L ? (@CT)(x, y - y) : (@CT)((@RT)NAN, (@RT)NAN);
    if (isnan(x)) return (@CT)(x, y == 0.0@L ? y : x);
    if (y == 0.0@L) return (@CT)(tanh(x), y);
    const @RT s = sin(y), c = cos(y);
    if (fabs(x) > @TBIG) return (@CT)(copysign(1.0@L, x), 4.0@L * s * c * exp(-2.0@L * fabs(x)));
    const @RT sh = sinh(x), chh = cosh(x);
    const @RT den = fabs(sh) > fabs(c) * @EPS ? sh * sh + c * c : c * c;
    return (@CT)(sh * chh / den, s * c / den);
}
inline @CT @Ptan(@CT z) { const @CT w = @Ptanh((@CT)(-z.y, z.x)); return (@CT)(w.y, -w.x); }
/* Inverse functions by Kahan's formulas ("Branch cuts for complex elementary functions",
   1987): products of square roots, accurate near the branch points, the sign of a zero
   part picking the side of a cut. Non-finite input as C99 Annex G, unspecified signs as the
   reference backend gives them. asin(z) = -i asinh(iz), atan(z) = -i atanh(iz). */
inline @CT @Pasinh(@CT z) {
    const @RT x = z.x, y = z.y;
    if (isnan(x)) return y == 0.0@L ? z : isinf(y) ? (@CT)(copysign((@RT)INFINITY, x), x) : (@CT)((@RT)NAN, (@RT)NAN);
    if (isnan(y)) return isinf(x) ? z : (@CT)((@RT)NAN, (@RT)NAN);
    if (isinf(x)) return (@CT)(x, copysign(isinf(y) ? 0.25@L * @PI : 0.0@L, y));
    if (isinf(y)) return (@CT)(copysign((@RT)INFINITY, x), copysign(@PI2, y));
    /* asinh(z) = -i asin(iz); asin(w) = atan(Re w / Re(s1 s2)) + i asinh(Im(conj(s1) s2)),
       s1 = sqrt(1 - w), s2 = sqrt(1 + w), here with w = iz = -y + ix */
    const @CT s1 = @Psqrt((@CT)(1.0@L + y, -x)), s2 = @Psqrt((@CT)(1.0@L - y, x));
    return (@CT)(asinh(s1.x * s2.y - s1.y * s2.x), -atan2(-y, s1.x * s2.x - s1.y * s2.y));
}
inline @CT @Pasin(@CT z) {
    const @CT w = @Pasinh((@CT)(-z.y, z.x));
    return (@CT)(w.y, -w.x);
}
inline @CT @Pacos(@CT z) {
    const @RT x = z.x, y = z.y;
    if (isnan(x)) return isinf(y) ? (@CT)(x, -y) : (@CT)((@RT)NAN, (@RT)NAN);
    if (isnan(y)) return isinf(x) ? (@CT)(y, -(@RT)INFINITY) : x == 0.0@L ? (@CT)(@PI2, y) : (@CT)((@RT)NAN, (@RT)NAN);
    if (isinf(x)) {
        const @RT re = isinf(y) ? (x < 0.0@L ? 0.75@L * @PI : 0.25@L * @PI) : (x < 0.0@L ? @PI : 0.0@L);
        return (@CT)(re, copysign((@RT)INFINITY, -y));
    }
    if (isinf(y)) return (@CT)(@PI2, -y);
    const @CT s1 = @Psqrt((@CT)(1.0@L - x, -y)), s2 = @Psqrt((@CT)(1.0@L + x, y));
    return (@CT)(2.0@L * atan2(s1.x, s2.x), asinh(s2.x * s1.y - s2.y * s1.x));
}
inline @CT @Pacosh(@CT z) {
    const @RT x = z.x, y = z.y;
    if (isnan(x)) return isinf(y) ? (@CT)((@RT)INFINITY, x) : (@CT)((@RT)NAN, (@RT)NAN);
    if (isnan(y)) return isinf(x) ? (@CT)((@RT)INFINITY, y) : x == 0.0@L ? (@CT)(y, @PI2) : (@CT)((@RT)NAN, (@RT)NAN);
    if (isinf(x)) {
        const @RT im = isinf(y) ? (x < 0.0@L ? 0.75@L * @PI : 0.25@L * @PI) : (x < 0.0@L ? @PI : 0.0@L);
        return (@CT)((@RT)INFINITY, copysign(im, y));
    }
    if (isinf(y)) return (@CT)((@RT)INFINITY, copysign(@PI2, y));
    const @CT s1 = @Psqrt((@CT)(x - 1.0@L, y)), s2 = @Psqrt((@CT)(x + 1.0@L, y));
    return (@CT)(asinh(s1.x * s2.x + s1.y * s2.y), 2.0@L * atan2(s1.y, s2.x));
}
inline @CT @Patanh(@CT z) {
    const @RT x = z.x, y = z.y, ax = fabs(x), ay = fabs(y);
    if (isinf(y)) return (@CT)(copysign(0.0@L, x), copysign(@PI2, y));
    if (isinf(x)) return (@CT)(copysign(0.0@L, x), isnan(y) ? y : copysign(@PI2, y));
    if (isnan(x) || isnan(y)) return x == 0.0@L ? z : (@CT)((@RT)NAN, (@RT)NAN);
    if (ax > @ABIG || ay > @ABIG) {  /* Re(1/z) = x / |z|^2 without overflow; the imaginary part +-pi/2 */
        const @RT re = ax >= ay ? 1.0@L / (x + y * (y / x)) : (x / y) / (y + x * (x / y));
        return (@CT)(re, copysign(@PI2, y));
    }
    if (ax == 1.0@L && ay < @ATINY) {  /* (1 - x)^2 + y^2 would underflow to 0 */
        if (y == 0.0@L) return (@CT)(copysign((@RT)INFINITY, x), y);
        return (@CT)(copysign(0.5@L * (log(2.0@L) - log(ay)), x), copysign(0.25@L * @PI, y));
    }
    const @RT omx = 1.0@L - ax;
    const @RT re = 0.25@L * log1p(4.0@L * ax / (omx * omx + ay * ay));
    return (@CT)(copysign(re, x), 0.5@L * atan2(2.0@L * y, omx * (1.0@L + ax) - ay * ay));
}
inline @CT @Patan(@CT z) {
    const @CT w = @Patanh((@CT)(-z.y, z.x));
    return (@CT)(w.y, -w.x);
}
inline @CT @Ppow(@CT x, @CT y) {
    /* an integral real exponent with |n| < 100: repeated products in the reference's order */
    if (y.y == 0.0@L && y.x == trunc(y.x) && fabs(y.x) < 100.0@L) {
        const int n = (int)y.x, e = n < 0 ? -n : n;
        if (n == 0) return (@CT)(1.0@L, 0.0@L);
        if (n == 1) return x;
        if (n == 2) return @Pmul(x, x);
        if (n == 3) return @Pmul(x, @Pmul(x, x));
        @CT r = (@CT)(1.0@L, 0.0@L), p = x;
        for (int bit = 1;; bit <<= 1) {
            if (e & bit) r = @Pmul(r, p);
            if (e < (bit << 1)) break;
            p = @Pmul(p, p);
        }
        return n < 0 ? @Pdiv((@CT)(1.0@L, 0.0@L), r) : r;
    }
    return @Pexp(@Pmul(y, @Plog(x)));
}
inline int @Pless(@CT a, @CT b) {
    const int na = isnan(a.x) || isnan(a.y), nb = isnan(b.x) || isnan(b.y);
    if (na || nb) return !na && nb;
    return a.x < b.x || (a.x == b.x && a.y < b.y);
}
)CLC";

// The quotient's core (see @Pdiv): complex64 on a device with doubles, complex128, or
// complex64 by Smith's method in float on a device without doubles.
const char* kDivideInDouble = R"CLC(    {
        const double ad = a, bd = b, cd = c, dd = d, den = cd * cd + dd * dd;
        re = (float)((ad * cd + bd * dd) / den);
        im = (float)((bd * cd - ad * dd) / den);
    })CLC";
const char* kDivideScaled = R"CLC(    {  /* the scaled values stay in a, b, c, d: the recovery below reads them, as libgcc's */
        const int by_im = fabs(c) < fabs(d);
        const double abig = by_im ? fabs(d) : fabs(c), aa = fabs(a), ab = fabs(b), max_up = 0x1.fffffffffffffp+970;
        const double f = abig >= 0x1.fffffffffffffp+1022 ? 0.5
                       : abig < 0x1p-52 || (abig < max_up && ((aa < DBL_MIN && ab < max_up) || (ab < DBL_MIN && aa < max_up))) ? 0x1p+52 : 1.0;
        a *= f; b *= f; c *= f; d *= f;
        const double big = by_im ? d : c, small = by_im ? c : d;
        const double ratio = small / big, den = small * ratio + big;
        double p, r, s;
        const double q = by_im ? b : a;
        if (fabs(ratio) > DBL_MIN) {
            const double rr = a * ratio, ri = b * ratio;
            p = by_im ? rr : ri; r = by_im ? ri : b; s = by_im ? a : rr;
        } else {
            const double sr = small * (a / big), si = small * (b / big);
            p = by_im ? sr : si; r = by_im ? si : b; s = by_im ? a : sr;
        }
        re = (p + q) / den;
        im = (r - s) / den;
    })CLC";
const char* kDivideSmith = R"CLC(    if (fabs(c) < fabs(d)) { const float r = c / d, den = c * r + d; re = (a * r + b) / den; im = (b * r - a) / den; }
    else { const float r = d / c, den = d * r + c; re = (b * r + a) / den; im = (b - a * r) / den; })CLC";

std::string complex_helpers(const char* prefix, bool dbl, bool full, bool fp64) {
    std::string t = kComplexHelpers;
    if (full) t += sub(kComplexMath, {{"@DIVCORE", dbl ? kDivideScaled : fp64 ? kDivideInDouble : kDivideSmith}});
    return sub(t, {{"@PI2", dbl ? "M_PI_2" : "M_PI_2_F"},
                   {"@PI", dbl ? "M_PI" : "M_PI_F"},
                   {"@CT", dbl ? "double2" : "float2"},
                   {"@RT", dbl ? "double" : "float"},
                   {"@L", dbl ? "" : "f"},
                   {"@TBIG", dbl ? "354.0" : "44.0f"},
                   {"@XBIG", dbl ? "709.0" : "88.0f"},
                   {"@ABIG", dbl ? "1e150" : "1e18f"},
                   {"@ATINY", dbl ? "1e-150" : "1e-18f"},
                   {"@EPS", dbl ? "DBL_EPSILON" : "FLT_EPSILON"},
                   {"@P", prefix}});
}

// ------------------------------------------------------------------ real helpers
// Integer (@W wrap type) and float helpers. `comp_t` / `real_t` are the program's types.
const char* kIntHelpers = R"CLC(
inline comp_t fdiv_i(comp_t a, comp_t b) {
    if (b == 0) return 0;
#if EMB_SIGNED
    if (b == -1) return (comp_t)((wrap_t)0 - (wrap_t)a);
    comp_t q = (comp_t)(a / b);
    if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
    return q;
#else
    return (comp_t)(a / b);
#endif
}
inline comp_t rem_i(comp_t a, comp_t b) {
    if (b == 0) return 0;
#if EMB_SIGNED
    if (b == -1) return 0;
    comp_t r = (comp_t)(a % b);
    if (r != 0 && ((r < 0) != (b < 0))) r = (comp_t)(r + b);
    return r;
#else
    return (comp_t)(a % b);
#endif
}
inline comp_t fmod_i(comp_t a, comp_t b) {
#if EMB_SIGNED
    if (b == -1) return 0;
#endif
    return b == 0 ? (comp_t)0 : (comp_t)(a % b);
}
inline comp_t ipow_i(comp_t a, comp_t b) {
#if EMB_SIGNED
    if (b < 0) return a == 1 ? (comp_t)1 : a == -1 ? ((b % 2) ? (comp_t)-1 : (comp_t)1) : (comp_t)0;
#endif
    comp_t r = 1;
    while (b) {
        if (b & 1) r = (comp_t)((wrap_t)r * (wrap_t)a);
        a = (comp_t)((wrap_t)a * (wrap_t)a);
        b = (comp_t)(b >> 1);
    }
    return r;
}
inline comp_t shl_i(comp_t a, comp_t b) {
    if (b < 0 || (ulong)b >= EMB_BITS) return 0;
    return (comp_t)((ulong)a << (ulong)b);
}
inline comp_t shr_i(comp_t a, comp_t b) {
    if (b < 0 || (ulong)b >= EMB_BITS) return (EMB_SIGNED && a < 0) ? (comp_t)-1 : (comp_t)0;
    return (comp_t)(a >> b);
}
)CLC";

const char* kFloatHelpers = R"CLC(
inline comp_t fdiv_f(comp_t a, comp_t b) {
    if (b == (comp_t)0) return a / b;
    const comp_t m = fmod(a, b);
    comp_t d = (a - m) / b;
    if (m != (comp_t)0 && ((b < (comp_t)0) != (m < (comp_t)0))) d -= (comp_t)1;
    if (d == (comp_t)0) return copysign((comp_t)0, a / b);
    comp_t fd = floor(d);
    if (d - fd > (comp_t)0.5) fd += (comp_t)1;
    return fd;
}
inline comp_t rem_f(comp_t a, comp_t b) {
    if (b == (comp_t)0) return fmod(a, b);
    comp_t m = fmod(a, b);
    if (m != (comp_t)0) { if ((b < (comp_t)0) != (m < (comp_t)0)) m += b; }
    else m = copysign((comp_t)0, b);
    return m;
}
/* tanh through expm1, accurate to an ulp or two near +-1 (where 1 + tanh(x) is what
   composites such as gelu use, and where some OpenCL libraries are several ulps off). */
inline comp_t tanh_f(comp_t x) {
    const comp_t a = fabs(x);
    comp_t z;
    if (a > (comp_t)22) z = (comp_t)1;
    else if (a >= (comp_t)1) { const comp_t t = expm1((comp_t)2 * a); z = (comp_t)1 - (comp_t)2 / (t + (comp_t)2); }
    else if (a > (comp_t)1e-30) { const comp_t t = expm1((comp_t)-2 * a); z = -t / (t + (comp_t)2); }
    else z = a;
    return copysign(z, x);
}
inline comp_t sigmoid_f(comp_t x) {
    if (x >= (comp_t)0) return (comp_t)1 / ((comp_t)1 + exp(-x));
    const comp_t e = exp(x);
    return e / ((comp_t)1 + e);
}
inline comp_t logaddexp_f(comp_t a, comp_t b) {
    if (a == b) return a + (comp_t)0.693147180559945309417232121458176568;
    const comp_t d = a - b;
    if (d > (comp_t)0) return a + log1p(exp(-d));
    if (d <= (comp_t)0) return b + log1p(exp(d));
    return d;
}
inline comp_t max_f(comp_t a, comp_t b) { return (isnan(a) || isnan(b)) ? (comp_t)NAN : (a < b ? b : a); }
inline comp_t min_f(comp_t a, comp_t b) { return (isnan(a) || isnan(b)) ? (comp_t)NAN : (b < a ? b : a); }
inline int less_f(comp_t a, comp_t b) { return (isnan(a) || isnan(b)) ? (!isnan(a) && isnan(b)) : a < b; }
inline ushort nextafter_h(ushort a, ushort b, int bf) {
    const float fa = bf ? b2f(a) : h2f(a), fb = bf ? b2f(b) : h2f(b);
    if (isnan(fa) || isnan(fb)) return bf ? f2b(NAN) : f2h(NAN);
    if (fa == fb) return b;
    if (fa == 0.0f) return (ushort)((signbit(fb) ? 0x8000u : 0u) | 1u);
    const int up = (fb > fa) == (fa > 0.0f);
    return (ushort)(up ? a + 1 : a - 1);
}
)CLC";

// ------------------------------------------------------------------ op tables
enum Out { SAME, BOOLOUT, REALOUT };

struct OpExpr {
    const char* name;
    Out out;
    const char* b;  // bool
    const char* i;  // signed int
    const char* u;  // unsigned int
    const char* f;  // float (compute type comp_t)
    const char* x;  // complex
};

#define WRAPNEG "(comp_t)((wrap_t)0 - (wrap_t)x)"
const OpExpr kUnary[] = {
    {"negative", SAME, nullptr, WRAPNEG, WRAPNEG, "-x", "-x"},
    {"abs", SAME, nullptr, "(x < 0 ? " WRAPNEG " : x)", "x", "fabs(x)", nullptr},
    {"sign", SAME, nullptr, "(comp_t)((x > 0) - (x < 0))", "(comp_t)(x > 0)", "(isnan(x) ? x : (comp_t)((x > (comp_t)0) - (x < (comp_t)0)))", "c_sign(x)"},
    {"sqrt", SAME, nullptr, nullptr, nullptr, "sqrt(x)", "c_sqrt(x)"},
    {"square", SAME, nullptr, "(comp_t)((wrap_t)x * (wrap_t)x)", "(comp_t)((wrap_t)x * (wrap_t)x)", "x * x", "c_mul(x, x)"},
    {"exp", SAME, nullptr, nullptr, nullptr, "exp(x)", "c_exp(x)"},
    {"expm1", SAME, nullptr, nullptr, nullptr, "expm1(x)", "c_expm1(x)"},
    {"log", SAME, nullptr, nullptr, nullptr, "log(x)", "c_log(x)"},
    {"log1p", SAME, nullptr, nullptr, nullptr, "log1p(x)", "c_log1p(x)"},
    {"log2", SAME, nullptr, nullptr, nullptr, "log2(x)", "(c_log(x) / (real_t)0.693147180559945309417232121458176568)"},
    {"log10", SAME, nullptr, nullptr, nullptr, "log10(x)", "(c_log(x) / log((real_t)10))"},
    {"sin", SAME, nullptr, nullptr, nullptr, "sin(x)", "c_sin(x)"},
    {"cos", SAME, nullptr, nullptr, nullptr, "cos(x)", "c_cos(x)"},
    {"tan", SAME, nullptr, nullptr, nullptr, "tan(x)", "c_tan(x)"},
    {"asin", SAME, nullptr, nullptr, nullptr, "asin(x)", "c_asin(x)"},
    {"acos", SAME, nullptr, nullptr, nullptr, "acos(x)", "c_acos(x)"},
    {"atan", SAME, nullptr, nullptr, nullptr, "atan(x)", "c_atan(x)"},
    {"sinh", SAME, nullptr, nullptr, nullptr, "sinh(x)", "c_sinh(x)"},
    {"cosh", SAME, nullptr, nullptr, nullptr, "cosh(x)", "c_cosh(x)"},
    {"tanh", SAME, nullptr, nullptr, nullptr, "tanh_f(x)", "c_tanh(x)"},
    {"asinh", SAME, nullptr, nullptr, nullptr, "asinh(x)", "c_asinh(x)"},
    {"acosh", SAME, nullptr, nullptr, nullptr, "acosh(x)", "c_acosh(x)"},
    {"atanh", SAME, nullptr, nullptr, nullptr, "atanh(x)", "c_atanh(x)"},
    {"erf", SAME, nullptr, nullptr, nullptr, "erf(x)", nullptr},
    {"erfc", SAME, nullptr, nullptr, nullptr, "erfc(x)", nullptr},
    {"cbrt", SAME, nullptr, nullptr, nullptr, "cbrt(x)", nullptr},
    {"floor", SAME, nullptr, "x", "x", "floor(x)", nullptr},
    {"ceil", SAME, nullptr, "x", "x", "ceil(x)", nullptr},
    {"round", SAME, nullptr, "x", "x", "rint(x)", "rint(x)"},
    {"trunc", SAME, nullptr, "x", "x", "trunc(x)", nullptr},
    {"reciprocal", SAME, nullptr, nullptr, nullptr, "((comp_t)1 / x)", "c_recip(x)"},
    {"isnan", BOOLOUT, "0", "0", "0", "isnan(x)", "(isnan(x.x) || isnan(x.y))"},
    {"isinf", BOOLOUT, "0", "0", "0", "isinf(x)", "(isinf(x.x) || isinf(x.y))"},
    {"isfinite", BOOLOUT, "1", "1", "1", "isfinite(x)", "(isfinite(x.x) && isfinite(x.y))"},
    {"signbit", BOOLOUT, nullptr, "(x < 0)", "0", "signbit(x)", nullptr},
    {"conj", SAME, nullptr, "x", "x", "x", "(comp_t)(x.x, -x.y)"},
    {"logical_not", BOOLOUT, "!x", nullptr, nullptr, nullptr, nullptr},
    {"bitwise_invert", SAME, "!x", "(comp_t)~x", "(comp_t)~x", nullptr, nullptr},
    {"sigmoid", SAME, nullptr, nullptr, nullptr, "sigmoid_f(x)", nullptr},
    // composites overridden natively (same results as their composite definitions)
    {"relu", SAME, nullptr, "(x < 0 ? (comp_t)0 : x)", "x", "(isnan(x) ? x : (x < (comp_t)0 ? (comp_t)0 : x))", nullptr},
    {"softplus", SAME, nullptr, nullptr, nullptr, "logaddexp_f(x, (comp_t)0)", nullptr},
    {"silu", SAME, nullptr, nullptr, nullptr, "(x * sigmoid_f(x))", nullptr},
    // abs of complex: a real result
    {"cabs", REALOUT, nullptr, nullptr, nullptr, nullptr, "hypot(x.x, x.y)"},
};

#define WRAP2(OP) "(comp_t)((wrap_t)x " OP " (wrap_t)y)"
const OpExpr kBinary[] = {
    {"add", SAME, nullptr, WRAP2("+"), WRAP2("+"), "x + y", "x + y"},
    {"subtract", SAME, nullptr, WRAP2("-"), WRAP2("-"), "x - y", "x - y"},
    {"multiply", SAME, nullptr, WRAP2("*"), WRAP2("*"), "x * y", "c_mul(x, y)"},
    {"divide", SAME, nullptr, nullptr, nullptr, "x / y", "c_div(x, y)"},
    {"floor_divide", SAME, nullptr, "fdiv_i(x, y)", "fdiv_i(x, y)", "fdiv_f(x, y)", nullptr},
    {"remainder", SAME, nullptr, "rem_i(x, y)", "rem_i(x, y)", "rem_f(x, y)", nullptr},
    {"fmod", SAME, nullptr, "fmod_i(x, y)", "fmod_i(x, y)", "fmod(x, y)", nullptr},
    {"pow", SAME, nullptr, "ipow_i(x, y)", "ipow_i(x, y)", "pow(x, y)", "c_pow(x, y)"},
    {"maximum", SAME, nullptr, "(x < y ? y : x)", "(x < y ? y : x)", "max_f(x, y)", nullptr},  // bool: rejected by the core
    {"minimum", SAME, nullptr, "(y < x ? y : x)", "(y < x ? y : x)", "min_f(x, y)", nullptr},
    {"atan2", SAME, nullptr, nullptr, nullptr, "atan2(x, y)", nullptr},
    {"hypot", SAME, nullptr, nullptr, nullptr, "hypot(x, y)", nullptr},
    {"copysign", SAME, nullptr, nullptr, nullptr, "copysign(x, y)", nullptr},
    {"nextafter", SAME, nullptr, nullptr, nullptr, "nextafter(x, y)", nullptr},
    {"logaddexp", SAME, nullptr, nullptr, nullptr, "logaddexp_f(x, y)", nullptr},
    {"equal", BOOLOUT, "x == y", "x == y", "x == y", "x == y", "(x.x == y.x && x.y == y.y)"},
    {"not_equal", BOOLOUT, "x != y", "x != y", "x != y", "x != y", "(x.x != y.x || x.y != y.y)"},
    {"less", BOOLOUT, "x < y", "x < y", "x < y", "x < y", nullptr},
    {"less_equal", BOOLOUT, "x <= y", "x <= y", "x <= y", "x <= y", nullptr},
    {"greater", BOOLOUT, "x > y", "x > y", "x > y", "x > y", nullptr},
    {"greater_equal", BOOLOUT, "x >= y", "x >= y", "x >= y", "x >= y", nullptr},
    {"logical_and", BOOLOUT, "(x && y)", nullptr, nullptr, nullptr, nullptr},
    {"logical_or", BOOLOUT, "(x || y)", nullptr, nullptr, nullptr, nullptr},
    {"logical_xor", BOOLOUT, "((x != 0) != (y != 0))", nullptr, nullptr, nullptr, nullptr},
    {"bitwise_and", SAME, "(x & y)", "(comp_t)(x & y)", "(comp_t)(x & y)", nullptr, nullptr},
    {"bitwise_or", SAME, "(x | y)", "(comp_t)(x | y)", "(comp_t)(x | y)", nullptr, nullptr},
    {"bitwise_xor", SAME, "(x ^ y)", "(comp_t)(x ^ y)", "(comp_t)(x ^ y)", nullptr, nullptr},
    {"bitwise_left_shift", SAME, nullptr, "shl_i(x, y)", "shl_i(x, y)", nullptr, nullptr},
    {"bitwise_right_shift", SAME, nullptr, "shr_i(x, y)", "shr_i(x, y)", nullptr, nullptr},
};

const char* expr_for(const OpExpr& op, Kind k) {
    switch (k) {
        case KB: return op.b;
        case KI: return op.i;
        case KU: return op.u;
        case KF: return op.f;
        default: return op.x;
    }
}

std::string load_expr(const DtypeDesc& d, const std::string& v) {
    if (d.half == 1) return "h2f(" + v + ")";
    if (d.half == 2) return "b2f(" + v + ")";
    return v;
}

// Converts a compute-type value to storage type of d.
std::string store_expr(const DtypeDesc& d, const std::string& v) {
    if (d.half == 1) return "f2h(" + v + ")";
    if (d.half == 2) return "f2b(" + v + ")";
    if (d.kind == KB) return "(uchar)((" + v + ") != 0)";
    return "(" + std::string(d.stor) + ")(" + v + ")";
}

// Conversion of a storage value `v` of dtype `from` to storage type of dtype `to`
// (convert<To>(From) of the reference). `dbl` says whether double is available.
std::string convert_expr(int from, int to, const std::string& v, bool dbl) {
    const DtypeDesc &F = kDt[from], &T = kDt[to];
    std::string x = load_expr(F, v);  // compute value
    if (F.kind == KX && T.kind == KB) return "(uchar)((" + v + ").x != 0 || (" + v + ").y != 0)";  // either part
    if (F.kind == KX && T.kind != KX) {
        // complex -> real: the real part, then as a real float of the component type
        return convert_expr(from == EMBER_COMPLEX64 ? EMBER_FLOAT32 : EMBER_FLOAT64, to, "(" + v + ").x", dbl);
    }
    if (T.kind == KX) {
        std::string rt = T.real;
        if (F.kind == KX) return "(" + std::string(T.stor) + ")((" + rt + ")(" + v + ").x, (" + rt + ")(" + v + ").y)";
        std::string via = dbl ? "(double)(" + x + ")" : "(float)(" + x + ")";
        return "(" + std::string(T.stor) + ")((" + rt + ")" + via + ", (" + rt + ")0)";
    }
    if (T.kind == KB) return "(uchar)((" + x + ") != 0)";
    // The spec's saturating conversion maps NaN to 0, but NVIDIA's convert_long_sat(NaN)
    // returns LONG_MIN: the NaN case is spelled out.
    if ((T.kind == KI || T.kind == KU) && F.kind == KF)
        return "(isnan(" + x + ") ? (" + T.stor + ")0 : convert_" + std::string(T.stor) + "_sat(" + x + "))";
    if (T.half) {  // float64 and 32/64-bit integers rounded once, as the reference does
        const bool wide = from == EMBER_FLOAT64 || ((F.kind == KI || F.kind == KU) && F.bits >= 32);
        return store_expr(T, wide && dbl ? "d2f_odd((double)(" + x + "))" : "(float)(" + x + ")");
    }
    return "(" + std::string(T.stor) + ")(" + x + ")";
}

std::string header_for(int dt, bool fp64) {
    const DtypeDesc& d = kDt[dt];
    std::string s;
    s += "typedef " + std::string(d.stor) + " stor_t;\n";
    s += "typedef " + std::string(d.comp) + " comp_t;\n";
    s += "typedef " + std::string(d.real) + " real_t;\n";
    s += "typedef " + std::string(d.wrap) + " wrap_t;\n";
    s += "#define EMB_BITS " + std::to_string(d.bits ? d.bits : 64) + "\n";
    s += "#define EMB_SIGNED " + std::string(d.kind == KI ? "1" : "0") + "\n";
    // accumulators of sums and products (the reference: double / complex128 / the type itself)
    std::string acc, accr;
    if (d.kind == KF) acc = fp64 ? "double" : "float";
    else if (d.kind == KX) acc = fp64 ? "double2" : "float2";
    else acc = d.comp;
    s += "typedef " + acc + " acc_t;\n";
    if (d.kind == KX) {
        s += complex_helpers("c_", std::strcmp(d.real, "double") == 0, true, fp64);
        if (fp64 && dt == EMBER_COMPLEX64) s += complex_helpers("ca_", true, false, fp64);
        else s += "#define ca_mul c_mul\n";
    }
    if (d.kind == KI || d.kind == KU) s += kIntHelpers;
    if (d.kind == KF) s += kFloatHelpers;
    return s;
}

// The unary and binary kernels mark their pointers restrict, although ember_elementwise_into
// (a += b) passes out and an input as the same buffer: the core lets only an input that is
// exactly out's elements through (docs/backend-guide.md), so element i is read and then
// written by the same work item, and no reordering a compiler may do under restrict can
// move that store before that load (the stored value depends on it). Without restrict,
// PoCL's vectoriser sees possibly overlapping ranges and runs the scalar loop: an in-place
// exp of 1e6 float32 took 7x, negative 2.7x, the time into a separate output.
std::string ew_kernel(const char* name, const std::string& params, const std::string& stmt) {
    return "__kernel void " + std::string(name) + "(" + params + ", const geo g) {\n    EW_LOOP(g, " + stmt + ")\n}\n";
}

// Unary ops whose kernels go to the G_UNARY_MATH program; the others are G_UNARY_BASIC.
bool is_math_unary(const char* op) {
    static const char* const math[] = {"sqrt", "exp", "expm1", "log", "log1p", "log2", "log10", "sin", "cos", "tan", "asin", "acos",
                                       "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "erf", "erfc", "cbrt", "reciprocal", "sigmoid",
                                       "softplus", "silu"};
    for (const char* m : math)
        if (std::strcmp(m, op) == 0) return true;
    return false;
}
bool is_arith_binary(const char* op) {
    static const char* const arith[] = {"add", "subtract", "multiply", "divide", "floor_divide", "remainder", "fmod", "pow", "maximum",
                                        "minimum", "atan2", "hypot", "copysign", "nextafter", "logaddexp"};
    for (const char* m : arith)
        if (std::strcmp(m, op) == 0) return true;
    return false;
}

std::string dtype_program(int dt, int group, bool fp64) {
    const DtypeDesc& d = kDt[dt];
    std::string s = header_for(dt, fp64);
    std::string T = d.stor;
    std::string la = load_expr(d, "a[p1]"), lb = load_expr(d, "b[p2]");

    // ---- unary
    for (const OpExpr& op : kUnary) {
        const char* e = expr_for(op, d.kind);
        if (!e || group != (is_math_unary(op.name) ? G_UNARY_MATH : G_UNARY_BASIC)) continue;
        std::string r, outT;
        if (op.out == BOOLOUT) { outT = "uchar"; r = "(uchar)((" + std::string(e) + ") != 0)"; }
        else if (op.out == REALOUT) { outT = d.real; r = "(" + outT + ")(" + e + ")"; }
        else { outT = T; r = store_expr(d, e); }
        std::string stmt = "{ const comp_t x = " + la + "; o[p0] = " + r + "; }";
        s += ew_kernel(("u_" + std::string(op.name)).c_str(), "__global " + outT + "* restrict o, __global const stor_t* restrict a", stmt);
    }
    // ---- binary
    for (const OpExpr& op : kBinary) {
        const char* e = expr_for(op, d.kind);
        if (!e || group != (is_arith_binary(op.name) ? G_BINARY_ARITH : G_BINARY_CMP)) continue;
        std::string stmt;
        std::string outT = op.out == BOOLOUT ? "uchar" : T;
        if (std::strcmp(op.name, "nextafter") == 0 && d.half) {
            stmt = std::string("{ o[p0] = nextafter_h(a[p1], b[p2], ") + (d.half == 2 ? "1" : "0") + "); }";
        } else {
            std::string r = op.out == BOOLOUT ? "(uchar)((" + std::string(e) + ") != 0)" : store_expr(d, e);
            stmt = "{ const comp_t x = " + la + ", y = " + lb + "; o[p0] = " + r + "; }";
        }
        s += ew_kernel(("b_" + std::string(op.name)).c_str(),
                       "__global " + outT + "* restrict o, __global const stor_t* restrict a, __global const stor_t* restrict b", stmt);
    }
    if (group == G_CAST) {
    // ---- casts to every other dtype
    for (int to = 0; to < EMBER_DTYPE_COUNT; ++to) {
        if (to == dt) continue;
        bool needs = kDt[to].needs_fp64;
        if (needs) s += "#ifdef EMB_FP64\n";
        std::string stmt = "{ o[p0] = " + convert_expr(dt, to, "a[p1]", fp64) + "; }";
        s += ew_kernel(("cast_" + std::string(kDt[to].tag)).c_str(),
                       "__global " + std::string(kDt[to].stor) + "* o, __global const stor_t* a", stmt);
        if (needs) s += "#endif\n";
    }
    // ---- arange: out[i] = convert(start + i*step) computed in double (float without fp64)
    {
        std::string accf = fp64 ? "double" : "float";
        int from = fp64 ? EMBER_FLOAT64 : EMBER_FLOAT32;
        s += "__kernel void arange(__global stor_t* o, long off, long st, long n, long ch, " + accf + " start, " + accf +
             " step) {\n    RANGE(i, n, ch) { const " + accf + " v = start + (" + accf + ")i * step; o[off + i * st] = " +
             convert_expr(from, dt, "v", fp64) + "; }\n}\n";
    }
    }  // G_CAST
    if (group != G_REDUCE && group != G_OTHER) return s;
    // ---- reductions (per output; `_p` partial over a slice of the reduced range, `_f` final)
    std::string accconv = d.kind == KX ? "(acc_t)((" + std::string(fp64 ? "double" : "float") + ")(v).x, (" +
                                             std::string(fp64 ? "double" : "float") + ")(v).y)"
                                       : "(acc_t)(" + load_expr(d, "v") + ")";
    auto acc_to_stor = [&](const std::string& a) {
        if (d.kind == KX) return "(stor_t)((real_t)(" + a + ").x, (real_t)(" + a + ").y)";
        if (d.half) return store_expr(d, "(float)(" + a + ")");
        return "(stor_t)(" + a + ")";
    };
    struct Red { const char* name; const char* init; std::string step; bool ok; };
    std::string add_step, mul_step;
    if (d.kind == KI || d.kind == KU) {
        add_step = "acc = (acc_t)((wrap_t)acc + (wrap_t)w);";
        mul_step = "acc = (acc_t)((wrap_t)acc * (wrap_t)w);";
    } else if (d.kind == KX) {
        add_step = "acc = acc + w;";
        mul_step = "acc = ca_mul(acc, w);";
    } else {
        add_step = "acc = acc + w;";
        mul_step = "acc = acc * w;";
    }
    std::string nanf = d.kind == KF ? "isnan(w)" : "0";
    std::string nana = d.kind == KF ? "isnan(acc)" : "0";
    std::string max_step = "if (first || " + nanf + " || (!" + nana + " && acc < w)) acc = w;";
    std::string min_step = "if (first || " + nanf + " || (!" + nana + " && w < acc)) acc = w;";
    Red reds[] = {
        {"sum", "0", add_step, d.kind != KB},
        {"prod", "1", mul_step, d.kind != KB},
        {"max", "0", max_step, d.kind != KX},
        {"min", "0", min_step, d.kind != KX},
        {"all", "1", "acc = acc && w;", d.kind == KB},
        {"any", "0", "acc = acc || w;", d.kind == KB},
    };
    for (auto& r : reds) {
        if (!r.ok || group != G_REDUCE) continue;
        std::string init = d.kind == KX ? std::string("(acc_t)(") + r.init + ", 0)" : std::string("(acc_t)") + r.init;
        std::string name = r.name;
        // direct: one work item per output
        s += "__kernel void r_" + name + "(__global stor_t* o, __global const stor_t* a, const rgeo g) {\n"
             "    OUT_LOOP(g, { acc_t acc = " + init + "; int first = 1;\n"
             "        for (long k = 0; k < g.n_in; ++k) { const stor_t v = a[inner_off(&g, pi, k)]; const acc_t w = " + accconv + "; " + r.step + " first = 0; }\n"
             "        (void)first; o[po] = " + acc_to_stor("acc") + "; })\n}\n";
        // partial: work unit t = (output j, part q) over reduced elements [q*len, (q+1)*len)
        s += "__kernel void r_" + name + "_p(__global acc_t* o, __global const stor_t* a, const rgeo g, long parts, long len) {\n"
             "    RANGE(t, g.n_out * parts, g.ch) { const long j = t / parts, q = t % parts;\n"
             "        long r_ = j, pi = g.off_in;\n"
             "        for (int d_ = g.nd_out - 1; d_ >= 0; --d_) { const long s_ = g.oshape[d_]; pi += (r_ % s_) * g.ost_in[d_]; r_ /= s_; }\n"
             "        acc_t acc = " + init + "; int first = 1; long k = q * len; const long k1 = min(g.n_in, (q + 1) * len);\n" +
             // sums: four interleaved accumulators along a 1-d range (a serial add chain is
             // latency-bound); the order changes only how partial sums of the same terms group
             (name == "sum" ? "        if (g.nd_in <= 1) { const long st = g.ist[0]; acc_t s1 = acc, s2 = acc, s3 = acc;\n"
                              "            for (; k + 3 < k1; k += 4) { stor_t v = a[pi + k * st]; acc_t w = " + accconv + "; " + r.step + "\n"
                              "                v = a[pi + (k + 1) * st]; w = " + accconv + "; { acc_t acc_ = acc; acc = s1; " + r.step + " s1 = acc; acc = acc_; }\n"
                              "                v = a[pi + (k + 2) * st]; w = " + accconv + "; { acc_t acc_ = acc; acc = s2; " + r.step + " s2 = acc; acc = acc_; }\n"
                              "                v = a[pi + (k + 3) * st]; w = " + accconv + "; { acc_t acc_ = acc; acc = s3; " + r.step + " s3 = acc; acc = acc_; } }\n"
                              "            { acc_t w = s1; " + r.step + " w = s2; " + r.step + " w = s3; " + r.step + " } }\n"
                            : std::string()) +
             "        for (; k < k1; ++k) { const stor_t v = a[inner_off(&g, pi, k)]; const acc_t w = " + accconv + "; " + r.step + " first = 0; }\n"
             "        (void)first; o[t] = acc; }\n}\n";
        s += "__kernel void r_" + name + "_f(__global stor_t* o, __global const acc_t* a, const rgeo g, long parts) {\n"
             "    OUT_LOOP(g, { acc_t acc = " + init + "; int first = 1;\n"
             "        for (long q = 0; q < parts; ++q) { const acc_t w = a[j * parts + q]; " + r.step + " first = 0; }\n"
             "        (void)first; o[po] = " + acc_to_stor("acc") + "; })\n}\n";
    }
    // ---- argmax / argmin: index of the first extreme; the first NaN wins
    if (d.kind != KX && group == G_REDUCE) {
        std::string isn = d.kind == KF ? "isnan" : "0 &&";
        for (int mx = 0; mx < 2; ++mx) {
            std::string cmp = mx ? "bv < v" : "v < bv";
            s += std::string("__kernel void arg") + (mx ? "max" : "min") + "(__global long* o, __global const stor_t* a, const rgeo g) {\n"
                 "    OUT_LOOP(g, { const long st = g.ist[0]; comp_t bv = " + load_expr(d, "a[pi]") + "; long best = 0;\n"
                 "        for (long k = 1; k < g.n_in && !(" + isn + "(bv)); ++k) { const comp_t v = " + load_expr(d, "a[pi + k * st]") +
                 "; if (" + isn + "(v) || (" + cmp + ")) { bv = v; best = k; } }\n"
                 "        o[po] = best; })\n}\n";
        }
    }
    // ---- cumsum / cumprod along one axis (g.ist[0] input stride, g.os_axis output stride)
    if (d.kind != KB && group == G_REDUCE) {
        for (int prod = 0; prod < 2; ++prod) {
            std::string init = d.kind == KX ? std::string("(acc_t)(") + (prod ? "1" : "0") + ", 0)" : std::string("(acc_t)") + (prod ? "1" : "0");
            s += std::string("__kernel void ") + (prod ? "cumprod" : "cumsum") + "(__global stor_t* o, __global const stor_t* a, const rgeo g) {\n"
                 "    OUT_LOOP(g, { acc_t acc = " + init + ";\n"
                 "        for (long k = 0; k < g.n_in; ++k) { const stor_t v = a[pi + k * g.ist[0]]; const acc_t w = " + accconv + "; " +
                 (prod ? mul_step : add_step) + " o[po + k * g.os_axis] = " + acc_to_stor("acc") + "; } })\n}\n";
        }
    }
    // ---- softmax / log_softmax along one axis, one work item per line (the composite's
    // steps fused: max, shift unless the max is infinite or NaN, sum of exp, scale)
    if (d.kind == KF && group == G_REDUCE) {
        for (int lg = 0; lg < 2; ++lg) {
            std::string v = "(acc_t)" + load_expr(d, "a[pi + k * st]");
            s += std::string("__kernel void ") + (lg ? "log_softmax" : "softmax") + "(__global stor_t* o, __global const stor_t* a, const rgeo g) {\n"
                 "    OUT_LOOP(g, { const long st = g.ist[0]; acc_t m = -INFINITY, sum = 0;\n"
                 "        for (long k = 0; k < g.n_in; ++k) { const acc_t x = " + v + "; m = (isnan(x) || x > m) ? x : m; }\n"
                 "        if (!isfinite(m)) m = 0;\n"
                 "        for (long k = 0; k < g.n_in; ++k) sum += exp(" + v + " - m);\n" +
                 (lg ? "        const acc_t c = m + log(sum);\n"
                       "        for (long k = 0; k < g.n_in; ++k) o[po + k * g.os_axis] = " + store_expr(d, "(" + v + " - c)") + "; })\n}\n"
                     : "        for (long k = 0; k < g.n_in; ++k) o[po + k * g.os_axis] = " + store_expr(d, "(exp(" + v + " - m) / sum)") + "; })\n}\n");
        }
    }
    if (group != G_OTHER) return s;
    // ---- scatter: one work item per output element; p1 = src base, p2 = coordinate on axis
    {
        std::string add = (d.kind == KI || d.kind == KU) ? "acc = (comp_t)((wrap_t)acc + (wrap_t)v);" : "acc = acc + v;";
        std::string mean;
        if (d.kind == KI || d.kind == KU) mean = "if ((comp_t)cnt != 0) acc = (comp_t)(acc / (comp_t)cnt);";
        else if (d.kind == KX) mean = "acc = c_div(acc, (comp_t)((real_t)cnt, (real_t)0));";
        else if (d.kind == KF) mean = "acc = acc / (comp_t)cnt;";
        std::string cmpmax = d.kind == KX ? "0" : "acc < v", cmpmin = d.kind == KX ? "0" : "v < acc";
        std::string vnan = d.kind == KF ? "isnan(v)" : "0";
        std::string zero = d.kind == KX ? "(comp_t)((real_t)0, (real_t)0)" : "(comp_t)0";
        s += "__kernel void scatter(__global stor_t* o, __global const stor_t* src, __global const long* index, const geo g,\n"
             "        long len, long src_axis_stride, long index_off, long index_stride, long dim, int reduce, __global int* err, int seq) {\n"
             "    EW_LOOP(g, { comp_t acc = " + zero + "; long cnt = 0;\n"
             "        for (long i = 0; i < len; ++i) {\n"
             "            long jj = index[index_off + i * index_stride]; const long raw = jj;\n"
             "            if (jj < 0) jj += dim;\n"
             "            if (jj < 0 || jj >= dim) { report_err(err, seq, raw); continue; }\n"
             "            if (jj != p2) continue;\n"
             "            const comp_t v = " + load_expr(d, "src[p1 + i * src_axis_stride]") + ";\n"
             "            if (reduce <= 1) { " + (d.kind == KB ? "acc = v;" : add) + " }\n"
             "            else if (reduce == 4) acc = v;\n"
             "            else { int take = cnt == 0 || " + vnan + "; if (!take) take = reduce == 2 ? (" + cmpmax + ") : (" + cmpmin + "); if (take) acc = v; }\n"
             "            ++cnt; }\n"
             "        if (reduce == 1 && cnt > 0) { " + mean + " }\n"
             "        o[p0] = " + store_expr(d, "acc") + "; })\n}\n";
    }
    // ---- nonzero: one work item walks x in C order (g holds x's shape and strides as operand 1)
    {
        std::string truth = d.kind == KX ? "(v.x != 0 || v.y != 0)" : "(" + load_expr(d, "v") + " != 0)";
        s += "__kernel void nonzero(__global long* o, __global const stor_t* x, const geo g, long cap, long os0, long os1, long ooff) {\n"
             "    if (get_global_id(0) != 0) return;\n"
             "    long idx[EMB_MAXD]; for (int d = 0; d < g.nd; ++d) idx[d] = 0;\n"
             "    long row = 0;\n"
             "    for (long i = 0; i < g.n && row < cap; ++i) {\n"
             "        long p = g.off[1]; for (int d = 0; d < g.nd; ++d) p += idx[d] * g.st[1][d];\n"
             "        const stor_t v = x[p];\n"
             "        if " + truth + " { for (int d = 0; d < g.nd; ++d) o[ooff + row * os0 + d * os1] = idx[d]; ++row; }\n"
             "        for (int d = g.nd - 1; d >= 0; --d) { if (++idx[d] < g.shape[d]) break; idx[d] = 0; }\n"
             "    }\n}\n";
    }
    // ---- sort / argsort: one work item per line, stable bottom-up merge sort of indices
    {
        std::string less;
        if (d.kind == KF) less = "less_f(va, vb)";
        else if (d.kind == KX) less = "c_less(va, vb)";
        else less = "(va < vb)";
        s += "inline int sort_before(__global const stor_t* x, long base, long st, long i, long j, int desc) {\n"
             "    const comp_t va = " + load_expr(d, "x[base + (desc ? j : i) * st]") + ", vb = " + load_expr(d, "x[base + (desc ? i : j) * st]") + ";\n"
             "    return " + less + ";\n}\n";
        const char* sort_body = R"CLC(
    OUT_LOOP(g, {
        const long n = g.n_in, st = g.ist[0];
        __global long* A = scratch + j * 2 * n; __global long* B = A + n;
        for (long k = 0; k < n; ++k) A[k] = k;
        for (long w = 1; w < n; w *= 2) {
            for (long lo = 0; lo < n; lo += 2 * w) {
                const long mid = min(lo + w, n), hi = min(lo + 2 * w, n);
                long l = lo, r = mid, k = lo;
                while (l < mid && r < hi) B[k++] = sort_before(x, pi, st, A[r], A[l], desc) ? A[r++] : A[l++];
                while (l < mid) B[k++] = A[l++];
                while (r < hi) B[k++] = A[r++];
            }
            __global long* t = A; A = B; B = t;
        }
        for (long k = 0; k < n; ++k) WRITE;
    })
)CLC";
        s += "__kernel void sort(__global stor_t* o, __global const stor_t* x, __global long* scratch, const rgeo g, int desc) {" +
             sub(sort_body, {{"WRITE", "o[po + k * g.os_axis] = x[pi + A[k] * st]"}}) + "}\n";
        s += "__kernel void argsort(__global long* o, __global const stor_t* x, __global long* scratch, const rgeo g, int desc) {" +
             sub(sort_body, {{"WRITE", "o[po + k * g.os_axis] = A[k]"}}) + "}\n";
    }
    // ---- searchsorted: binary search of each value in a sorted 1-d sequence (NaN last)
    if (d.kind != KX) {
        std::string go_r = d.kind == KF ? "!less_f(v, sv)" : "!(v < sv)", go_l = d.kind == KF ? "less_f(sv, v)" : "(sv < v)";
        s += "__kernel void searchsorted(__global long* o, __global const stor_t* seq, __global const stor_t* val, const geo g,\n"
             "        long n, long st, long off, int right) {\n"
             "    EW_LOOP(g, { const comp_t v = " + load_expr(d, "val[p1]") + "; long lo = 0, hi = n;\n"
             "        while (lo < hi) { const long mid = lo + (hi - lo) / 2; const comp_t sv = " + load_expr(d, "seq[off + mid * st]") + ";\n"
             "            const int go = right ? " + go_r + " : " + go_l + ";\n"
             "            if (go) lo = mid + 1; else hi = mid; }\n"
             "        o[p0] = lo; })\n}\n";
    }
    // ---- matmul (own kernel; CLBlast takes float32/float64/complex and half where it can):
    // p0 output, p1 = a's row base, p2 = b's column base; K terms with strides ska, skb.
    if (d.kind != KB) {
        std::string macc, step, fin;
        if (d.kind == KI || d.kind == KU) {
            macc = "comp_t";
            step = "acc = (comp_t)((wrap_t)acc + (wrap_t)(comp_t)((wrap_t)a[p1 + p * ska] * (wrap_t)b[p2 + p * skb]));";
            fin = "(stor_t)acc";
        } else if (d.kind == KX) {
            macc = "acc_t";
            std::string r = fp64 ? "double" : "float";
            step = "{ const stor_t u = a[p1 + p * ska], v = b[p2 + p * skb]; acc = acc + ca_mul((acc_t)((" + r + ")u.x, (" + r +
                   ")u.y), (acc_t)((" + r + ")v.x, (" + r + ")v.y)); }";
            fin = acc_to_stor("acc");
        } else {
            macc = "acc_t";
            step = "acc = acc + (acc_t)" + load_expr(d, "a[p1 + p * ska]") + " * (acc_t)" + load_expr(d, "b[p2 + p * skb]") + ";";
            fin = acc_to_stor("acc");
        }
        std::string zero = d.kind == KX ? "(acc_t)(0, 0)" : "(" + macc + ")0";
        s += "__kernel void matmul(__global stor_t* o, __global const stor_t* a, __global const stor_t* b, const geo g, long K, long ska, long skb) {\n"
             "    EW_LOOP(g, { " + macc + " acc = " + zero + "; for (long p = 0; p < K; ++p) " + step + " o[p0] = " + fin + "; })\n}\n";
    }
    return s;
}

const char* kMiscProgram = R"CLC(
#define MOVE_KERNELS(S, TY) \
__kernel void copy_##S(__global TY* o, __global const TY* a, const geo g) { EW_LOOP(g, { o[p0] = a[p1]; }) } \
__kernel void where_##S(__global TY* o, __global const uchar* c, __global const TY* a, __global const TY* b, const geo g) { \
    EW_LOOP(g, { o[p0] = c[p1] ? a[p2] : b[p3]; }) } \
__kernel void gather_##S(__global TY* o, __global const TY* x, __global const long* idx, const geo g, long n_axis, long s_axis, \
                         __global int* err, int seq) { \
    EW_LOOP(g, { long k = idx[p2]; const long raw = k; if (k < 0) k += n_axis; \
                 if (k < 0 || k >= n_axis) report_err(err, seq, raw); else o[p0] = x[p1 + k * s_axis]; }) }
MOVE_KERNELS(1, uchar)
MOVE_KERNELS(2, ushort)
MOVE_KERNELS(4, uint)
MOVE_KERNELS(8, ulong)
MOVE_KERNELS(16, ulong2)

/* Philox 4x32-10 words: element i (C order) is word i % 4 of block base + i / 4, counter
   {lo32(block), hi32(block), 0, 0}: the reference backend's stream, bit for bit. */
__kernel void random_bits(__global uint* o, const geo g, ulong key, ulong base) {
    EW_LOOP(g, {
        const ulong blk = base + ((ulong)i >> 2);
        uint c0 = (uint)blk, c1 = (uint)(blk >> 32), c2 = 0u, c3 = 0u, k0 = (uint)key, k1 = (uint)(key >> 32);
        for (int r = 0; r < 10; ++r) {
            if (r) { k0 += 0x9E3779B9u; k1 += 0xBB67AE85u; }
            const uint hi0 = mul_hi(0xD2511F53u, c0), lo0 = 0xD2511F53u * c0;
            const uint hi1 = mul_hi(0xCD9E8D57u, c2), lo1 = 0xCD9E8D57u * c2;
            const uint n0 = hi1 ^ c1 ^ k0, n2 = hi0 ^ c3 ^ k1;
            c0 = n0; c1 = lo1; c2 = n2; c3 = lo0;
        }
        const int w = (int)(i & 3);
        o[p0] = w == 0 ? c0 : w == 1 ? c1 : w == 2 ? c2 : c3;
    })
}
)CLC";

// float64 / complex128 conversions through bit patterns, for devices without cl_khr_fp64.
const char* kSoft64Helpers = R"CLC(
inline float d2f_bits(ulong b) {
    const uint sign = (uint)(b >> 32) & 0x80000000u;
    const int e = (int)((b >> 52) & 0x7ff);
    const ulong m = b & 0xfffffffffffffUL;
    if (e == 0x7ff) return as_float(sign | 0x7f800000u | (m ? (0x400000u | (uint)(m >> 29)) : 0u));
    const int fe = e - 1023 + 127;
    if (fe >= 255) return as_float(sign | 0x7f800000u);
    if (fe <= 0) {
        if (fe < -24) return as_float(sign);
        const ulong mant = m | (1UL << 52);
        const int sh = 30 - fe;
        uint r = (uint)(mant >> sh);
        const ulong rem = mant & ((1UL << sh) - 1UL), halfway = 1UL << (sh - 1);
        if (rem > halfway || (rem == halfway && (r & 1u))) ++r;
        return as_float(sign | r);
    }
    uint r = ((uint)fe << 23) | (uint)(m >> 29);
    const ulong rem = m & 0x1fffffffUL;
    if (rem > 0x10000000UL || (rem == 0x10000000UL && (r & 1u))) ++r;
    return as_float(sign | r);
}
/* Rounded to odd (d2f_odd), for the float16 and bfloat16 results. */
inline float d2f_odd_bits(ulong b) {
    const uint sign = (uint)(b >> 32) & 0x80000000u;
    const int e = (int)((b >> 52) & 0x7ff);
    const ulong m = b & 0xfffffffffffffUL;
    if (e == 0x7ff) return d2f_bits(b);
    const int fe = e - 1023 + 127;
    if (fe >= 255) return as_float(sign | 0x7f7fffffu);
    if (fe <= 0) {
        if (fe < -24) return as_float(sign | (e != 0 || m != 0 ? 1u : 0u));
        const ulong mant = m | (1UL << 52);
        const int sh = 30 - fe;
        return as_float(sign | (uint)(mant >> sh) | ((mant & ((1UL << sh) - 1UL)) != 0 ? 1u : 0u));
    }
    return as_float(sign | ((uint)fe << 23) | (uint)(m >> 29) | ((m & 0x1fffffffUL) != 0 ? 1u : 0u));
}
inline ulong f2d_bits(float f) {
    const uint u = as_uint(f);
    const ulong sign = (ulong)(u & 0x80000000u) << 32;
    int e = (int)((u >> 23) & 0xffu);
    uint m = u & 0x7fffffu;
    if (e == 255) return sign | 0x7ff0000000000000UL | ((ulong)m << 29);
    if (e == 0) {
        if (m == 0) return sign;
        int sh = 0;
        while (!(m & 0x800000u)) { m <<= 1; ++sh; }
        m &= 0x7fffffu;
        e = 1 - sh;
    }
    return sign | ((ulong)(e - 127 + 1023) << 52) | ((ulong)m << 29);
}
inline ulong u2d_bits(ulong v, ulong sign) {
    if (v == 0) return sign;
    int e = 63 - (int)clz(v);
    ulong m;
    if (e <= 52) m = v << (52 - e);
    else {
        const int sh = e - 52;
        ulong r = v >> sh;
        const ulong rem = v & ((1UL << sh) - 1UL), halfway = 1UL << (sh - 1);
        if (rem > halfway || (rem == halfway && (r & 1UL))) { ++r; if (r >> 53) { r >>= 1; ++e; } }
        m = r;
    }
    return sign | ((ulong)(e + 1023) << 52) | (m & 0xfffffffffffffUL);
}
inline ulong l2d_bits(long v) { return v < 0 ? u2d_bits((ulong)0 - (ulong)v, 0x8000000000000000UL) : u2d_bits((ulong)v, 0); }
)CLC";

std::string soft64_program() {
    std::string s = kSoft64Helpers;
    // from float64 / complex128 (as ulong / ulong2) to every other dtype, through float
    for (int to = 0; to < EMBER_DTYPE_COUNT; ++to) {
        if (to == EMBER_FLOAT64) continue;
        const DtypeDesc& T = kDt[to];
        std::string conv, conv_c;
        if (to == EMBER_COMPLEX128) {
            conv = "(ulong2)(f2d_bits(d2f_bits(a[p1])), 0UL)";
        } else if (to == EMBER_COMPLEX64) {
            conv = "(float2)(d2f_bits(a[p1]), 0.0f)";
        } else if (to == EMBER_BOOL) {
            conv = "(uchar)((a[p1] & 0x7fffffffffffffffUL) != 0)";
        } else {
            conv = convert_expr(EMBER_FLOAT32, to, T.half ? "d2f_odd_bits(a[p1])" : "d2f_bits(a[p1])", false);
        }
        s += ew_kernel(("from64_" + std::string(T.tag)).c_str(),
                       "__global " + std::string(to == EMBER_COMPLEX128 ? "ulong2" : T.stor) + "* o, __global const ulong* a",
                       "{ o[p0] = " + conv + "; }");
        if (to == EMBER_COMPLEX128) continue;
        if (to == EMBER_COMPLEX64) conv_c = "(float2)(d2f_bits(a[p1].x), d2f_bits(a[p1].y))";
        else if (to == EMBER_BOOL) conv_c = "(uchar)(((a[p1].x | a[p1].y) & 0x7fffffffffffffffUL) != 0)";
        else conv_c = convert_expr(EMBER_FLOAT32, to, T.half ? "d2f_odd_bits(a[p1].x)" : "d2f_bits(a[p1].x)", false);
        s += ew_kernel(("fromc128_" + std::string(T.tag)).c_str(),
                       "__global " + std::string(T.stor) + "* o, __global const ulong2* a", "{ o[p0] = " + conv_c + "; }");
    }
    s += ew_kernel("fromc128_f64", "__global ulong* o, __global const ulong2* a", "{ o[p0] = a[p1].x; }");
    // from every other dtype to float64 / complex128
    for (int from = 0; from < EMBER_DTYPE_COUNT; ++from) {
        if (from == EMBER_FLOAT64 || from == EMBER_COMPLEX128) continue;
        const DtypeDesc& F = kDt[from];
        std::string bits, bits_c;
        if (F.kind == KI) bits = "l2d_bits((long)a[p1])";
        else if (F.kind == KU || F.kind == KB) bits = "u2d_bits((ulong)a[p1], 0)";
        else if (F.kind == KX) bits = "f2d_bits(a[p1].x)";
        else bits = "f2d_bits(" + load_expr(F, "a[p1]") + ")";
        bits_c = F.kind == KX ? "(ulong2)(f2d_bits(a[p1].x), f2d_bits(a[p1].y))" : "(ulong2)(" + bits + ", 0UL)";
        s += ew_kernel(("to64_" + std::string(F.tag)).c_str(), "__global ulong* o, __global const " + std::string(F.stor) + "* a",
                       "{ o[p0] = " + bits + "; }");
        s += ew_kernel(("toc128_" + std::string(F.tag)).c_str(), "__global ulong2* o, __global const " + std::string(F.stor) + "* a",
                       "{ o[p0] = " + bits_c + "; }");
    }
    s += ew_kernel("toc128_f64", "__global ulong2* o, __global const ulong* a", "{ o[p0] = (ulong2)(a[p1], 0UL); }");
    return s;
}

}  // namespace

const char* dtype_tag(int dtype) { return kDt[dtype].tag; }

const char* dtype_name(int dtype) {
    static const char* const names[EMBER_DTYPE_COUNT] = {"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                                                         "uint64", "float16", "bfloat16", "float32", "float64", "complex64", "complex128"};
    return dtype >= 0 && dtype < EMBER_DTYPE_COUNT ? names[dtype] : "?";
}

bool unary_supported(const char* op, int dtype) {
    if (std::strcmp(op, "abs") == 0 && kDt[dtype].kind == KX) return true;  // u_cabs
    for (const OpExpr& e : kUnary)
        if (std::strcmp(e.name, op) == 0) return expr_for(e, kDt[dtype].kind) != nullptr;
    return false;
}

bool binary_supported(const char* op, int dtype) {
    for (const OpExpr& e : kBinary)
        if (std::strcmp(e.name, op) == 0) return expr_for(e, kDt[dtype].kind) != nullptr;
    return false;
}

int unary_group(const char* op) { return is_math_unary(op) ? G_UNARY_MATH : G_UNARY_BASIC; }
int binary_group(const char* op) { return is_arith_binary(op) ? G_BINARY_ARITH : G_BINARY_CMP; }

bool is_unary_op(const char* op) {
    for (const OpExpr& e : kUnary)
        if (std::strcmp(e.name, op) == 0 && std::strcmp(op, "cabs") != 0) return true;
    return false;
}

bool is_binary_op(const char* op) {
    for (const OpExpr& e : kBinary)
        if (std::strcmp(e.name, op) == 0) return true;
    return false;
}

std::string program_source(int prog, bool fp64) {
    std::string s = kPrelude;
    if (prog < PROG_MISC) s += dtype_program(prog / G_COUNT, prog % G_COUNT, fp64);
    else if (prog == PROG_MISC) s += kMiscProgram;
    else s += soft64_program();
    return expand_loops(s);
}

bool program_has_kernels(int prog, bool fp64) {
    if (prog >= PROG_MISC) return true;
    return program_source(prog, fp64).find("__kernel") != std::string::npos;
}

std::string program_options(const Device& d) {
    std::string o = "-cl-std=CL1.2";
    o += d.fp64_hw ? " -DEMB_FP64" : " -cl-single-precision-constant";
    return o;
}

}  // namespace ember_ocl
