// Softmax and log_softmax of rows of a few vectors (softmax.cpp picks the lengths), float32
// and float64, back to back in x and out. Included by simd_impl.cpp inside its anonymous
// namespace, after simd_reduce.hpp (double lanes, the folds across lanes) and simd_mvec.hpp
// (float64's exp). Each row takes three passes while it sits in L1 (its maximum;
// exp(x - shift) into out, summed; the division, or x minus the log-sum), inline, where
// row_kernel pays five calls of the table per row.
//
// The same steps and results as softmax.cpp's row_kernel: the maximum with NaN winning, no
// shift where it is not finite, the same exp, the divisor (T)sum or shift + log((T)sum),
// true division. Only the order of the sum's terms differs; both sum in double lanes.

template <class T>
inline __attribute__((always_inline)) V<T> exp_lanes(V<T> v) {
    if constexpr (sizeof(T) == 4) {
        return exp_f32(v);
    } else {
        MvD t;
        memcpy(&t, &v, sizeof t);
        t = EMBER_MVEC_D(exp)(t);
        memcpy(&v, &t, sizeof v);
        return v;
    }
}

// acc += o[0, lanes) in double lanes, o just written: float32 as two halves.
template <class T>
inline __attribute__((always_inline)) void add_as_f64(VD& lo, VD& hi, const T* o) {
    lo += load_as_f64(o);
    if constexpr (sizeof(T) == 4) hi += load_as_f64(o + W<double>);
}

// R rows at x and o, n elements apart, their steps interleaved: one row's steps form a
// chain (its maximum's fold, then the exponentials, then the sum's fold, then the
// division), and two chains side by side keep the core busier. One float32 thread, rows
// in L2, ns an element: one row at a time 1.71 (n = 32), 1.14 (64); two 1.50, 0.93. Four
// or eight at a time were slower (2.14 and 1.70 at 32; the code generated for them was
// not read, spills are the likely cause). All of these with a fold across the lanes that
// built its shuffle patterns at run time, since replaced (two rows at a time: float32
// 0.75-0.78 -> 0.32-0.34 at n = 32, two threads); R was not measured again.
template <class T, int R>
inline __attribute__((always_inline)) void softmax_row_group(const T* x, T* o, int64_t n, bool log) {
    using I = std::make_signed_t<uint_of<T>>;
    constexpr int w = W<T>;
    const int64_t full = n - n % w;
    const size_t tail = (size_t)(n - full) * sizeof(T);
    V<I> lane;
    for (int l = 0; l < w; ++l) lane[l] = (I)l;
    const auto in_tail = lane < (I)(n - full);
    const V<T> minus_inf = splat(-std::numeric_limits<T>::infinity()), zero = splat(T(0));
    V<T> m[R], s[R];
    T shift[R];
    for (int j = 0; j < R; ++j) m[j] = minus_inf;
    for (int64_t k = 0; k < full; k += w)
        for (int j = 0; j < R; ++j) {
            prefetch_step<T, w>(x + j * n + k);
            m[j] = vmax<T>(m[j], load(x + j * n + k));  // a NaN wins
        }
    if (tail)
        for (int j = 0; j < R; ++j) m[j] = vmax<T>(m[j], in_tail ? load_partial(x + j * n + full, tail) : minus_inf);
    for (int j = 0; j < R; ++j) {
        const T top = fold_lanes<T, true>(m[j]);
        shift[j] = std::isfinite(top) ? top : T(0);
        s[j] = splat(shift[j]);
    }
    VD lo[R] = {}, hi[R] = {};
    for (int64_t k = 0; k < full; k += w)
        for (int j = 0; j < R; ++j) {
            store_vec(o + j * n + k, exp_lanes<T>(load(x + j * n + k) - s[j]));
            add_as_f64<T>(lo[j], hi[j], o + j * n + k);
        }
    if (tail)
        for (int j = 0; j < R; ++j) {
            // lanes past the row: exp of 0, not of -shift (not the slow path of a huge
            // shift), and then 0 for the sum
            const V<T> e = in_tail ? exp_lanes<T>(in_tail ? load_partial(x + j * n + full, tail) - s[j] : zero) : zero;
            store_partial(o + j * n + full, e, tail);
            T padded[w];
            store_vec(padded, e);
            add_as_f64<T>(lo[j], hi[j], padded);
        }
    V<T> c[R];  // the divisor, or what log_softmax subtracts
    for (int j = 0; j < R; ++j) {
        const T sum = (T)halving_lane_sum<double, VB>(lo[j] + hi[j]);
        c[j] = splat(log ? shift[j] + std::log(sum) : sum);
    }
    const T* src = log ? x : o;
    for (int64_t k = 0; k < full; k += w)
        for (int j = 0; j < R; ++j) {
            const V<T> v = load(src + j * n + k);
            store_vec(o + j * n + k, log ? v - c[j] : v / c[j]);
        }
    if (tail)
        for (int j = 0; j < R; ++j) {
            const V<T> v = load_partial(src + j * n + full, tail);
            store_partial(o + j * n + full, log ? v - c[j] : v / c[j], tail);
        }
}

template <class T>
void softmax_rows(const void* xv, void* ov, int64_t rows, int64_t n, bool log) {
    const T* x = (const T*)xv;
    T* o = (T*)ov;
    int64_t r = 0;
    for (; r + 2 <= rows; r += 2) softmax_row_group<T, 2>(x + r * n, o + r * n, n, log);
    for (; r < rows; ++r) softmax_row_group<T, 1>(x + r * n, o + r * n, n, log);
}

void fill_softmax(IsaTable& t) {
    t.softmax_rows[0] = softmax_rows<float>;
    t.softmax_rows[1] = softmax_rows<double>;
}
