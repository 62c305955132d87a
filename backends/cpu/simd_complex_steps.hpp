// Sequences of complex sums and products in float64, one sequence per lane (ComplexStepsFn
// in isa.hpp), for the scans and reductions that must follow the reference's order
// (complex_sequence.cpp). Included by simd_impl.cpp after simd_complex.hpp (unfused) and
// simd_fft.hpp (load_pairs, store_pairs).
//
// Lanes hold separate real and imaginary vectors, so C99 Annex G's recovery (libgcc's
// __muldc3, which the reference's std::complex<double> product calls where the textbook
// product is NaN in both parts) becomes masked selects: one pass over a vector whatever
// mix of lanes needs it. An overflowed product (inf + NaN i) needs it at every later step;
// through the reference's scalar calls such a column product ran at 4 ns per element.

typedef V<double> StepD;
typedef V<int64_t> StepMask;

inline __attribute__((always_inline)) StepD select_lanes(StepMask m, StepD yes, StepD no) {
    return (StepD)((m & (StepMask)yes) | (~m & (StepMask)no));
}

// (a + b i) * (c + d i) into (a, b) as __muldc3 computes it: the four products each
// rounded, their difference and sum; where both parts are NaN, the recovery, recomputed
// times infinity: where a or b is infinite, both boxed to signed 1 or 0, else their NaNs
// made signed zeros; the same for c and d; and where no part is infinite, only if a product
// overflowed. (__muldc3's three steps, folded into one choice per operand: a boxed operand
// holds no NaN, and zeroing NaNs keeps every infinity. The shorter chain from one step's
// product to the next's matters once every step needs the recovery.)
inline __attribute__((always_inline)) void annex_g_product(StepD& a, StepD& b, StepD c, StepD d) {
    const StepD ac = unfused(a * c), bd = unfused(b * d), ad = unfused(a * d), bc = unfused(b * c);
    StepD x = ac - bd, y = ad + bc;
    const StepMask both = (x != x) & (y != y);
    if (__builtin_expect(any_set(both), 0)) {
        const StepD inf = splat(__builtin_inf());
        const StepMask sign = (StepMask)splat(-0.0), one = (StepMask)splat(1.0);
        auto is_inf = [&](StepD v) -> StepMask { return (StepD)((StepMask)v & ~sign) == inf; };
        auto boxed = [&](StepD v, StepMask inf_lanes) { return (StepD)(((StepMask)v & sign) | (inf_lanes & one)); };
        auto nan_to_zero = [&](StepD v) -> StepD { return (StepD)((StepMask)v & (sign | ~(StepMask)(v != v))); };
        const StepMask ia = is_inf(a), ib = is_inf(b), ic = is_inf(c), id = is_inf(d);
        const StepMask ab = ia | ib, cd = ic | id;
        const StepD ra = select_lanes(ab, boxed(a, ia), nan_to_zero(a)), rb = select_lanes(ab, boxed(b, ib), nan_to_zero(b));
        const StepD rc = select_lanes(cd, boxed(c, ic), nan_to_zero(c)), rd = select_lanes(cd, boxed(d, id), nan_to_zero(d));
        const StepMask overflowed = is_inf(ac) | is_inf(bd) | is_inf(ad) | is_inf(bc);
        const StepMask recompute = both & (ab | cd | overflowed);
        const StepD rx = inf * (unfused(ra * rc) - unfused(rb * rd));
        const StepD ry = inf * (unfused(ra * rd) + unfused(rb * rc));
        x = select_lanes(recompute, rx, x);
        y = select_lanes(recompute, ry, y);
    }
    a = x;
    b = y;
}

// w complex values of type T (float or double parts) at p, interleaved, as float64 real
// and imaginary parts (simd_fft.hpp's load_pairs), and back, rounded to T.
template <class T>
inline __attribute__((always_inline)) void load_parts(const T* p, StepD& re, StepD& im) {
    constexpr int w = W<double>;
    StepD lo, hi;
    load_pairs(p, lo, hi);
    StepMask even, odd;
    for (int l = 0; l < w; ++l) {
        even[l] = 2 * l;
        odd[l] = 2 * l + 1;
    }
    re = __builtin_shuffle(lo, hi, even);
    im = __builtin_shuffle(lo, hi, odd);
}
template <class T>
inline __attribute__((always_inline)) void store_parts(T* p, StepD re, StepD im) {
    constexpr int w = W<double>;
    StepMask first, second;
    for (int l = 0; l < w; ++l) {
        first[l] = l / 2 + (l & 1) * w;
        second[l] = w / 2 + l / 2 + (l & 1) * w;
    }
    store_pairs(p, __builtin_shuffle(re, im, first), __builtin_shuffle(re, im, second));
}

// G vectors of lanes, their chains independent (G of them hide the product's latency).
template <class T, int G, bool Multiply>
void complex_steps_of(const T* x, int64_t x_step, int64_t steps, double* acc, T* each, int64_t each_step) {
    constexpr int w = W<double>, lanes = G * w;
    StepD re[G], im[G];
    for (int g = 0; g < G; ++g) {
        re[g] = load(acc + g * w);
        im[g] = load(acc + lanes + g * w);
    }
    for (int64_t s = 0; s < steps; ++s) {
        for (int g = 0; g < G; ++g) {
            StepD c, d;
            load_parts(x + 2 * (s * x_step + g * w), c, d);
            if constexpr (Multiply) {
                annex_g_product(re[g], im[g], c, d);
            } else {
                re[g] += c;
                im[g] += d;
            }
        }
        if (each)
            for (int g = 0; g < G; ++g) store_parts(each + 2 * (s * each_step + g * w), re[g], im[g]);
    }
    for (int g = 0; g < G; ++g) {
        store_vec(acc + g * w, re[g]);
        store_vec(acc + lanes + g * w, im[g]);
    }
}

template <class T, bool Multiply>
void complex_steps(const void* x, int64_t x_step, int64_t steps, int64_t lanes, double* acc, void* each, int64_t each_step) {
    static_assert(kComplexStepVectors == 4, "one case per count of vectors");
    const T* in = (const T*)x;
    T* out = (T*)each;
    switch (lanes / W<double>) {
        case 1: return complex_steps_of<T, 1, Multiply>(in, x_step, steps, acc, out, each_step);
        case 2: return complex_steps_of<T, 2, Multiply>(in, x_step, steps, acc, out, each_step);
        case 3: return complex_steps_of<T, 3, Multiply>(in, x_step, steps, acc, out, each_step);
        default: return complex_steps_of<T, 4, Multiply>(in, x_step, steps, acc, out, each_step);
    }
}
