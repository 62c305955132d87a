// Matrix-vector products for matmul's products with one output row or column
// (matmul.cpp, gemv), float32 and float64, included by simd_impl.cpp inside its anonymous
// namespace, once per ISA. Two forms, by how the matrix's rows lie against the vector:
//   row_dots:        y[i * incy] = sum_p a[i * lda + p] x[p]    (A x, A's rows contiguous)
//   row_combination: y[j] = sum_p x[p * incx] a[p * lda + j]    (x A, A's rows contiguous)
// Every output element is computed by one call in an order fixed by k, the ISA and its
// column's place in the panel, so splitting rows or columns over threads does not change
// the result.
//
// Why not GEMV: OpenBLAS 0.3.21's SGEMV on a (1000, 1000) float32 matrix took 64-70 us on
// the two threads here against 38-40 us for NumPy 2.4's newer OpenBLAS; the products are
// memory-bound, and these loops read each element of A once, in order.

#if defined(__AVX512F__)
// The first count < W<T> elements at p, zeros after them; nothing beyond is read.
template <class T>
inline __attribute__((always_inline)) V<T> load_leading(const T* p, int count) {
    V<T> v;
    if constexpr (sizeof(T) == 4) {
        const __m512 r = _mm512_maskz_loadu_ps((__mmask16)((1u << count) - 1), p);
        memcpy(&v, &r, sizeof v);
    } else {
        const __m512d r = _mm512_maskz_loadu_pd((__mmask8)((1u << count) - 1), p);
        memcpy(&v, &r, sizeof v);
    }
    return v;
}
#endif

// The lanes of v summed by halving the vector: log2(lanes) dependent adds, where a lane
// at a time took 16 (a (10000, 100) float32 matrix's products waited on them).
template <class T, int B>
inline __attribute__((always_inline)) T halving_lane_sum(typename VT<T, B>::type v) {
    if constexpr (B > (int)sizeof(T)) {
        typedef typename VT<T, B / 2>::type Half;
        Half lo, hi;
        memcpy(&lo, &v, sizeof lo);
        memcpy(&hi, (const char*)&v + sizeof lo, sizeof hi);
        return halving_lane_sum<T, B / 2>(lo + hi);
    } else {
        return v[0];
    }
}

// Rows [0, R) of a: R dot products with x over k elements, two vectors a step per row (2R
// independent sums), the k % lanes elements left in scalars.
template <class T, int R>
inline __attribute__((always_inline)) void dots_of_rows(const T* a, int64_t lda, const T* x, T* y, int64_t incy, int64_t k) {
    constexpr int w = W<T>;
    V<T> lo[R], hi[R];
    for (int r = 0; r < R; ++r) lo[r] = hi[r] = V<T>{};
    int64_t p = 0;
    for (; p + 2 * w <= k; p += 2 * w) {
        const V<T> x0 = load(x + p), x1 = load(x + p + w);
        for (int r = 0; r < R; ++r) {
            lo[r] += load(a + r * lda + p) * x0;
            hi[r] += load(a + r * lda + p + w) * x1;
        }
    }
    if (p + w <= k) {
        const V<T> x0 = load(x + p);
        for (int r = 0; r < R; ++r) lo[r] += load(a + r * lda + p) * x0;
        p += w;
    }
#if defined(__AVX512F__)
    if (p < k) {  // the last k % w elements in masked vectors, as zeros beyond k
        const V<T> x0 = load_leading(x + p, (int)(k - p));
        for (int r = 0; r < R; ++r) hi[r] += load_leading(a + r * lda + p, (int)(k - p)) * x0;
        p = k;
    }
#endif
    for (int r = 0; r < R; ++r) {
        T sum = halving_lane_sum<T, VB>(lo[r] + hi[r]);
        for (int64_t q = p; q < k; ++q) sum += a[r * lda + q] * x[q];
        y[r * incy] = sum;
    }
}

template <class T>
void row_dots(const void* av, int64_t lda, const void* xv, void* yv, int64_t incy, int64_t rows, int64_t k) {
    const T* a = (const T*)av;
    const T* x = (const T*)xv;
    T* y = (T*)yv;
    int64_t i = 0;
    for (; i + 4 <= rows; i += 4) dots_of_rows<T, 4>(a + i * lda, lda, x, y + i * incy, incy, k);
    switch (rows - i) {
        case 3: dots_of_rows<T, 3>(a + i * lda, lda, x, y + i * incy, incy, k); break;
        case 2: dots_of_rows<T, 2>(a + i * lda, lda, x, y + i * incy, incy, k); break;
        case 1: dots_of_rows<T, 1>(a + i * lda, lda, x, y + i * incy, incy, k); break;
        default: break;
    }
}

// Columns [j, j + N vectors) of x A: N independent sums, each row's N vectors read in
// order, then the next row.
template <class T, int N>
inline __attribute__((always_inline)) void combine_panel(const T* a, int64_t lda, const T* x, int64_t incx, T* y, int64_t j, int64_t k) {
    constexpr int w = W<T>;
    V<T> acc[N];
    for (int c = 0; c < N; ++c) acc[c] = V<T>{};
    for (int64_t p = 0; p < k; ++p) {
        const T s = x[p * incx];
        const T* row = a + p * lda + j;
        for (int c = 0; c < N; ++c) acc[c] += s * load(row + c * w);
    }
    for (int c = 0; c < N; ++c) store_vec(y + j + c * w, acc[c]);
}

// Columns [j0, j1) of x A summed in y itself, four rows a pass, each pass reading the rows'
// stretches from j0 to j1 in order. Every y[j] takes its products in the order of p, fused
// as in combine_panel, so both give the same result.
template <class T>
void combine_in_place(const T* a, int64_t lda, const T* x, int64_t incx, T* y, int64_t j0, int64_t j1, int64_t k) {
    constexpr int w = W<T>;
    for (int64_t j = j0; j < j1; ++j) y[j] = T(0);
    int64_t p = 0;
    for (; p + 4 <= k; p += 4) {
        const T s0 = x[p * incx], s1 = x[(p + 1) * incx], s2 = x[(p + 2) * incx], s3 = x[(p + 3) * incx];
        const T *r0 = a + p * lda, *r1 = r0 + lda, *r2 = r1 + lda, *r3 = r2 + lda;
        int64_t j = j0;
        for (; j + w <= j1; j += w) {
            V<T> acc = load(y + j);
            acc += s0 * load(r0 + j);
            acc += s1 * load(r1 + j);
            acc += s2 * load(r2 + j);
            acc += s3 * load(r3 + j);
            store_vec(y + j, acc);
        }
        for (; j < j1; ++j) {
            T acc = y[j];
            acc += s0 * r0[j];
            acc += s1 * r1[j];
            acc += s2 * r2[j];
            acc += s3 * r3[j];
            y[j] = acc;
        }
    }
    for (; p < k; ++p) {
        const T s = x[p * incx];
        const T* row = a + p * lda;
        int64_t j = j0;
        for (; j + w <= j1; j += w) store_vec(y + j, load(y + j) + s * load(row + j));
        for (; j < j1; ++j) y[j] += s * row[j];
    }
}

// Columns [j0, j1) of x A: from kInPlaceColumns columns summed in y (combine_in_place),
// else in panels of 16 (AVX-512) or 8 vectors (enough sums in flight to hide the
// multiply-add's latency), then of 4, 2 and 1, then the last columns together in scalars.
// Two threads, float32 and float64, Ember's call alternating between the two forms: a
// (4096, 4096) matrix 1245 -> 1191 us and 3381 -> 3065, (2000, 2000) 299 -> 272 and 626
// -> 540, (100, 10000) 43 -> 40 and 133 -> 114 in place; (1000, 1000) 42 against 46 and
// (4096, 512) 125 against 160 (float32) in panels.
constexpr int64_t kInPlaceColumns = 768;
template <class T>
void row_combination(const void* av, int64_t lda, const void* xv, int64_t incx, void* yv, int64_t j0, int64_t j1, int64_t k) {
    constexpr int w = W<T>;
    constexpr int kLeftMax = 16;
    const T* a = (const T*)av;
    const T* x = (const T*)xv;
    T* y = (T*)yv;
    if (j1 - j0 >= kInPlaceColumns) return combine_in_place(a, lda, x, incx, y, j0, j1, k);
    int64_t j = j0;
    if constexpr (VB == 64)
        for (; j + 16 * w <= j1; j += 16 * w) combine_panel<T, 16>(a, lda, x, incx, y, j, k);
    for (; j + 8 * w <= j1; j += 8 * w) combine_panel<T, 8>(a, lda, x, incx, y, j, k);
    if (j + 4 * w <= j1) j += 4 * w, combine_panel<T, 4>(a, lda, x, incx, y, j - 4 * w, k);
    if (j + 2 * w <= j1) j += 2 * w, combine_panel<T, 2>(a, lda, x, incx, y, j - 2 * w, k);
    if (j + w <= j1) j += w, combine_panel<T, 1>(a, lda, x, incx, y, j - w, k);
    const int left = (int)(j1 - j);  // fewer than one vector's lanes
    if (left == 0) return;
    T acc[kLeftMax] = {};
    for (int64_t p = 0; p < k; ++p) {
        const T s = x[p * incx];
        const T* row = a + p * lda + j;
        for (int c = 0; c < left && c < kLeftMax; ++c) acc[c] += s * row[c];
    }
    for (int c = 0; c < left && c < kLeftMax; ++c) y[j + c] = acc[c];
}
