// Matrix-vector products for matmul's products with one output row or column
// (matmul.cpp, gemv): float32, float64, and integers as wrapping unsigned sums (exact in any
// order; uint16_t, uint32_t, uint64_t, and U8Matrix below). Included by simd_impl.cpp
// inside its anonymous namespace, once per ISA. Two forms, by how the matrix's rows lie against the vector:
//   row_dots:        y[i * incy] = sum_p a[i * lda + p] x[p]    (A x, A's rows contiguous)
//   paired_row_dots: y[i] = sum_p a[i * lda + p] b[i * ldb + p]  (vecdot of rows, floats)
//   paired_column_dots: y[j] = sum_p a[p * lda + j] b[p * ldb + j]  (vecdot of columns, floats)
//   row_combination: y[j] = sum_p x[p * incx] a[p * lda + j]    (x A, A's rows contiguous)
// Every output element is computed by one call in an order fixed by k, the ISA and its
// column's place in the panel, so splitting rows or columns over threads does not change
// the result.
//
// float16 and bfloat16 matrices (tags F16Matrix, BF16Matrix) are read as they lie and
// widened a vector at a time, against a float32 x into a float32 y: the same sums, in the
// same order, as on the matrix converted to float32 first, at half its memory traffic.
//
// Why not GEMV: OpenBLAS 0.3.21's SGEMV on a (1000, 1000) float32 matrix took 64-70 us on
// the two threads here against 38-40 us for NumPy 2.4's newer OpenBLAS; the products are
// memory-bound, and these loops read each element of A once, in order.

#if defined(__AVX512F__)
// The first count < W<T> elements at p, zeros after them; nothing beyond is read.
template <class T>
inline __attribute__((always_inline)) V<T> load_leading(const T* p, int count) {
    V<T> v;
    if constexpr (sizeof(T) == 2) {
        const __m512i r = _mm512_maskz_loadu_epi16((__mmask32)((1u << count) - 1), p);
        memcpy(&v, &r, sizeof v);
    } else if constexpr (sizeof(T) == 4) {
        const __m512 r = _mm512_maskz_loadu_ps((__mmask16)((1u << count) - 1), p);
        memcpy(&v, &r, sizeof v);
    } else {
        const __m512d r = _mm512_maskz_loadu_pd((__mmask8)((1u << count) - 1), p);
        memcpy(&v, &r, sizeof v);
    }
    return v;
}
#endif

struct F16Matrix {};
struct BF16Matrix {};
struct U8Matrix {};
// How a matrix stored as S is read: vec, one vector's lanes as its compute type; one, a
// single element.
template <class S>
struct Stored {
    using type = S;
    static V<S> vec(const S* p) { return load(p); }
    static S one(const S* p) { return *p; }
#if defined(__AVX512F__)
    static V<S> leading(const S* p, int count) { return load_leading(p, count); }
#endif
};
template <>
struct Stored<F16Matrix> {
    using type = uint16_t;
    static V<float> vec(const uint16_t* p) {
        V<float> v;
#if defined(__AVX512F__)
        const __m512 r = _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i*)p));
        memcpy(&v, &r, sizeof v);
#elif defined(__F16C__)
        const __m256 r = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i*)p));
        memcpy(&v, &r, sizeof v);
#else
        for (int l = 0; l < W<float>; ++l) v[l] = ember_float16::to_float(p[l]);
#endif
        return v;
    }
    static float one(const uint16_t* p) { return ember_float16::to_float(*p); }
#if defined(__AVX512F__)
    static V<float> leading(const uint16_t* p, int count) {
        const __m512 r = _mm512_cvtph_ps(_mm256_maskz_loadu_epi16((__mmask16)((1u << count) - 1), p));
        V<float> v;
        memcpy(&v, &r, sizeof v);
        return v;
    }
#endif
};
template <>
struct Stored<BF16Matrix> {
    using type = uint16_t;
    static V<float> vec(const uint16_t* p) {  // a bfloat16 is the top half of its float32
        V<float> v;
#if defined(__AVX512F__)
        const __m512i r = _mm512_slli_epi32(_mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i*)p)), 16);
        memcpy(&v, &r, sizeof v);
#elif defined(__AVX2__)
        const __m256i r = _mm256_slli_epi32(_mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i*)p)), 16);
        memcpy(&v, &r, sizeof v);
#else
        typedef typename VT<uint16_t, VB / 2>::type Narrow;
        Narrow h;
        memcpy(&h, p, sizeof h);
        const V<uint32_t> wide = __builtin_convertvector(h, V<uint32_t>) << 16;
        memcpy(&v, &wide, sizeof v);
#endif
        return v;
    }
    static float one(const uint16_t* p) { return ember_float16::bf16_to_float(*p); }
#if defined(__AVX512F__)
    static V<float> leading(const uint16_t* p, int count) {
        const __m512i r = _mm512_slli_epi32(_mm512_cvtepu16_epi32(_mm256_maskz_loadu_epi16((__mmask16)((1u << count) - 1), p)), 16);
        V<float> v;
        memcpy(&v, &r, sizeof v);
        return v;
    }
#endif
};
// 8-bit integers (signed or not: the low 8 bits of a product do not depend on it) widened
// to uint16_t lanes against a uint16_t x: x86 has no 8-bit vector multiply.
template <>
struct Stored<U8Matrix> {
    using type = uint8_t;
    static V<uint16_t> vec(const uint8_t* p) {
        V<uint16_t> v;
#if defined(__AVX512F__)
        const __m512i r = _mm512_cvtepu8_epi16(_mm256_loadu_si256((const __m256i*)p));
        memcpy(&v, &r, sizeof v);
#elif defined(__AVX2__)
        const __m256i r = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i*)p));
        memcpy(&v, &r, sizeof v);
#else
        typedef typename VT<uint8_t, VB / 2>::type Narrow;
        Narrow h;
        memcpy(&h, p, sizeof h);
        v = __builtin_convertvector(h, V<uint16_t>);
#endif
        return v;
    }
    static uint16_t one(const uint8_t* p) { return *p; }
#if defined(__AVX512F__)
    static V<uint16_t> leading(const uint8_t* p, int count) {
        const __m512i r = _mm512_cvtepu8_epi16(_mm256_maskz_loadu_epi8((__mmask32)((1u << count) - 1), p));
        V<uint16_t> v;
        memcpy(&v, &r, sizeof v);
        return v;
    }
#endif
};
// The compute type of a matrix stored as S.
template <class S>
using ComputeOf = std::conditional_t<std::is_same_v<S, F16Matrix> || std::is_same_v<S, BF16Matrix>, float,
                                     std::conditional_t<std::is_same_v<S, U8Matrix>, uint16_t, S>>;


// Rows [0, R) of a against x over k elements in vectors, two a step per row (2R independent
// sums): acc[r] the row's vector of partial sums; returns where the elements left for
// scalars begin (AVX-512: none, the last ones in masked vectors, as zeros beyond k).
// Vectors >= 0: k / W<T>, known to the compiler (short rows); the same sums in the same
// order. Row r's x starts at x + r * ldx: ldx is 0 (one vector for every row, its loads
// shared once the compiler sees the constant) or the second operand's row step (vecdot).
template <class S, int R, int Vectors = -1, class T = ComputeOf<S>, class A = typename Stored<S>::type>
inline __attribute__((always_inline)) int64_t vector_sums_of_rows(const A* a, int64_t lda, const T* x, int64_t ldx, int64_t k, V<T>* acc) {
    constexpr int w = W<T>;
    const int64_t whole = Vectors >= 0 ? int64_t(Vectors) * w : k;
    V<T> lo[R], hi[R];
    for (int r = 0; r < R; ++r) lo[r] = hi[r] = V<T>{};
    int64_t p = 0;
    for (; p + 2 * w <= whole; p += 2 * w)
        for (int r = 0; r < R; ++r) {
            lo[r] += Stored<S>::vec(a + r * lda + p) * load(x + r * ldx + p);
            hi[r] += Stored<S>::vec(a + r * lda + p + w) * load(x + r * ldx + p + w);
        }
    if (p + w <= whole) {
        for (int r = 0; r < R; ++r) lo[r] += Stored<S>::vec(a + r * lda + p) * load(x + r * ldx + p);
        p += w;
    }
#if defined(__AVX512F__)
    if (p < k) {
        for (int r = 0; r < R; ++r) hi[r] += Stored<S>::leading(a + r * lda + p, (int)(k - p)) * load_leading(x + r * ldx + p, (int)(k - p));
        p = k;
    }
#endif
    for (int r = 0; r < R; ++r) acc[r] = lo[r] + hi[r];
    return p;
}

// sum + a b for the elements summed one at a time: rounded once where the ISA has FMA, else
// twice; wrapping for integers. Every path here adds a row's last elements this way (and
// its whole vectors in the one loop of vector_sums_of_rows), so a row comes out the same
// from each, whatever the compiler makes of a scalar loop or contracts at its -O level.
template <class T>
inline __attribute__((always_inline)) T product_added(T sum, T a, T b) {
    if constexpr (std::is_floating_point_v<T>) {
#if defined(__FMA__)
        return std::fma(a, b, sum);
#else
        return sum + a * b;
#endif
    } else {
        return T(sum + wrapping_product(a, b));
    }
}

// sum + a b in every lane, rounded as product_added rounds: fused by the instruction itself,
// where the vector loops' products are fused only as the compiler contracts them (which
// GCC does not do at -O1, the sanitizer build's level).
template <class Native, class T>
inline __attribute__((always_inline)) V<T> fused_lanes(V<T> sum, V<T> a, V<T> b, Native (*fmadd)(Native, Native, Native)) {
    Native s, x, y;
    memcpy(&s, &sum, sizeof s);
    memcpy(&x, &a, sizeof x);
    memcpy(&y, &b, sizeof y);
    s = fmadd(x, y, s);
    memcpy(&sum, &s, sizeof sum);
    return sum;
}
template <class T>
inline __attribute__((always_inline)) V<T> products_added(V<T> sum, V<T> a, V<T> b) {
#if defined(__AVX512F__)
    if constexpr (std::is_same_v<T, float>) return fused_lanes<__m512, T>(sum, a, b, [](__m512 x, __m512 y, __m512 z) { return _mm512_fmadd_ps(x, y, z); });
    if constexpr (std::is_same_v<T, double>) return fused_lanes<__m512d, T>(sum, a, b, [](__m512d x, __m512d y, __m512d z) { return _mm512_fmadd_pd(x, y, z); });
#elif defined(__FMA__) && defined(__AVX__)
    if constexpr (std::is_same_v<T, float>) return fused_lanes<__m256, T>(sum, a, b, [](__m256 x, __m256 y, __m256 z) { return _mm256_fmadd_ps(x, y, z); });
    if constexpr (std::is_same_v<T, double>) return fused_lanes<__m256d, T>(sum, a, b, [](__m256d x, __m256d y, __m256d z) { return _mm256_fmadd_pd(x, y, z); });
#endif
    return sum + a * b;
}

// A row's sum after its vector part: the elements from p on, in order.
template <class S, class T = ComputeOf<S>, class A = typename Stored<S>::type>
inline __attribute__((always_inline)) T add_row_tail(T sum, const A* row, const T* x, int64_t p, int64_t k) {
    for (int64_t q = p; q < k; ++q) sum = product_added(sum, Stored<S>::one(row + q), x[q]);
    return sum;
}

// Rows [0, R) of a: R dot products with x over k elements, each vector of partial sums
// added up by halving_lane_sum.
template <class S, int R, class T = ComputeOf<S>, class A = typename Stored<S>::type>
inline __attribute__((always_inline)) void dots_of_rows(const A* a, int64_t lda, const T* x, int64_t ldx, T* y, int64_t incy, int64_t k) {
    V<T> acc[R];
    const int64_t p = vector_sums_of_rows<S, R>(a, lda, x, ldx, k, acc);
    for (int r = 0; r < R; ++r) y[r * incy] = add_row_tail<S>(halving_lane_sum<T, VB>(acc[r]), a + r * lda, x + r * ldx, p, k);
}

// The lane sums of N = W<T> vectors at once, lane r of the result the sum of v[r], added in
// halving_lane_sum's order: each level adds the two halves of every row's stretch of lanes,
// two vectors' stretches side by side in one vector (so a level takes two shuffles and one
// add per pair of vectors, where N lane sums take log2(N) shuffles and adds each).
template <int Half, int Rows, int I>
constexpr int stretch_lane(bool upper) {  // I: a lane of the result, in a pair (a, b) of 2 * N lanes
    constexpr int size = 2 * Half, block = I / Half, offset = I % Half;
    // blocks [0, Rows) come from a's rows, [Rows, 2 Rows) from b's, each Half lanes long
    return (block < Rows ? block * size : 2 * Rows * Half + (block - Rows) * size) + offset + (upper ? Half : 0);
}
template <int Half, int Rows, class Vec, int... I>
inline __attribute__((always_inline)) Vec halve_pair(Vec a, Vec b, std::integer_sequence<int, I...>) {
    return __builtin_shufflevector(a, b, stretch_lane<Half, Rows, I>(false)...) + __builtin_shufflevector(a, b, stretch_lane<Half, Rows, I>(true)...);
}
template <class T, int Count, int Rows = 1>
inline __attribute__((always_inline)) V<T> transposed_lane_sums(V<T>* v) {
    if constexpr (Count == 1) {
        return v[0];
    } else {
        constexpr int n = W<T>, half = n / Rows / 2;  // each of the Rows rows of a vector holds n / Rows lanes
        for (int j = 0; j < Count / 2; ++j) v[j] = halve_pair<half, Rows>(v[2 * j], v[2 * j + 1], std::make_integer_sequence<int, n>{});
        return transposed_lane_sums<T, Count / 2, 2 * Rows>(v);
    }
}

// Rows [0, N) of a, N = W<T> (float types): N dot products, the lane sums transposed,
// then the elements left after the whole vectors a column at a time, each row's in order.
template <class S, int Vectors = -1, class T = ComputeOf<S>, class A = typename Stored<S>::type>
inline __attribute__((always_inline)) void dots_of_lane_rows(const A* a, int64_t lda, const T* x, int64_t ldx, T* y, int64_t incy, int64_t k) {
    constexpr int n = W<T>, R = n < 4 ? n : 4;
    V<T> acc[n];
    int64_t p = 0;
    for (int g = 0; g < n; g += R) p = vector_sums_of_rows<S, R, Vectors>(a + g * lda, lda, x + g * ldx, ldx, k, acc + g);
    V<T> sums = transposed_lane_sums<T, n>(acc);
    for (; p < k; ++p) {
        V<T> column, xs = V<T>{} + x[p];
        for (int r = 0; r < n; ++r) column[r] = Stored<S>::one(a + r * lda + p);
        if (ldx != 0)
            for (int r = 0; r < n; ++r) xs[r] = x[r * ldx + p];
        sums = products_added<T>(sums, column, xs);
    }
    if (incy == 1) return store_vec(y, sums);
    for (int r = 0; r < n; ++r) y[r * incy] = sums[r];
}

// Rows shorter than a vector, K elements each: scalar sums four rows side by side (one row
// at a time waited on its chain of products), K known to the compiler so that nothing but
// the loads and products remain. x[:, :3] @ w of a (300000, 7) float32 x took 0.8-1.5 ms
// with vectors of zeros and a lane sum per row, 0.68-0.72 with K a run-time count, now
// 0.32-0.44 (NumPy's SGEMV 0.24-0.45 in the same runs). x_at(i, q): element q of row i's x.
template <class S, int K, class T = ComputeOf<S>, class A = typename Stored<S>::type, class XAt>
inline __attribute__((always_inline)) void short_row_dots(const A* a, int64_t lda, XAt x_at, T* y, int64_t incy, int64_t rows) {
    auto one = [](const A* q) { return Stored<S>::one(q); };
    int64_t i = 0;
    for (; i + 4 <= rows; i += 4) {
        const A *r0 = a + i * lda, *r1 = r0 + lda, *r2 = r1 + lda, *r3 = r2 + lda;
        T s0 = T(0), s1 = T(0), s2 = T(0), s3 = T(0);
        for (int q = 0; q < K; ++q) {
            s0 = product_added(s0, one(r0 + q), x_at(i, q));
            s1 = product_added(s1, one(r1 + q), x_at(i + 1, q));
            s2 = product_added(s2, one(r2 + q), x_at(i + 2, q));
            s3 = product_added(s3, one(r3 + q), x_at(i + 3, q));
        }
        y[i * incy] = s0;
        y[(i + 1) * incy] = s1;
        y[(i + 2) * incy] = s2;
        y[(i + 3) * incy] = s3;
    }
    for (; i < rows; ++i) {
        const A* row = a + i * lda;
        T sum = T(0);
        for (int q = 0; q < K; ++q) sum = product_added(sum, one(row + q), x_at(i, q));
        y[i * incy] = sum;
    }
}
template <class S, int K, class T = ComputeOf<S>, class A = typename Stored<S>::type>
void short_row_dots_by(const A* a, int64_t lda, const T* x, int64_t ldx, T* y, int64_t incy, int64_t rows) {
    if (ldx != 0) return short_row_dots<S, K>(a, lda, [&](int64_t i, int q) { return x[i * ldx + q]; }, y, incy, rows);
    T xs[K];  // one x for every row: in registers
    for (int q = 0; q < K; ++q) xs[q] = x[q];
    short_row_dots<S, K>(a, lda, [&](int64_t, int q) { return xs[q]; }, y, incy, rows);
}
template <class S, class T, class A, int... K>
void short_row_dots_of(int64_t k, const A* a, int64_t lda, const T* x, int64_t ldx, T* y, int64_t incy, int64_t rows, std::integer_sequence<int, K...>) {
    // k in [1, W<T>): K + 1 for each K of the sequence [0, W<T> - 1)
    ((k == K + 1 ? short_row_dots_by<S, K + 1>(a, lda, x, ldx, y, incy, rows) : void()), ...);
}

// row_dots and paired_row_dots: row i's x at x + i * ldx. Inlined into each, so that the
// compiler sees row_dots' ldx of 0 and loads x once for every row it sums at a time.
template <class S, class T = ComputeOf<S>, class A = typename Stored<S>::type>
inline __attribute__((always_inline)) void dots_by_rows(const A* a, int64_t lda, const T* x, int64_t ldx, T* y, int64_t incy, int64_t rows, int64_t k) {
    int64_t i = 0;
#if !defined(__AVX512F__)
    if (k < W<T>) {
        // Rows shorter than a vector: dots_of_rows' scalar tail alone, the same sums in the
        // same order, without its vectors of zeros and their lane sums per row.
        if (k == 0)
            for (; i < rows; ++i) y[i * incy] = T(0);
        else
            short_row_dots_of<S>(k, a, lda, x, ldx, y, incy, rows, std::make_integer_sequence<int, W<T> - 1>{});
        return;
    }
#endif
    if constexpr (std::is_floating_point_v<T>) {  // integer sums are exact in any order: one at a time
        constexpr int w = W<T>;
        // Rows of fewer than four vectors: their count of whole vectors (k / w, AVX-512: 0
        // too) known to the compiler, which then keeps every sum in a register. A
        // (300000, 8) float32 matrix times a vector took 1.07-1.11 ms with the count a
        // run-time bound and a lane sum per row, now 0.66-0.71 (NumPy's SGEMV 0.74-0.77);
        // (300000, 12) 1.7-1.9 -> 0.94-0.98 (0.95-1.14), (30000, 12) 181-258 -> 71-73 us.
        auto lane_rows = [&](auto vectors) {
            for (; i + w <= rows; i += w) dots_of_lane_rows<S, decltype(vectors)::value>(a + i * lda, lda, x + i * ldx, ldx, y + i * incy, incy, k);
        };
        switch (k / w) {
            case 0: lane_rows(std::integral_constant<int, 0>{}); break;
            case 1: lane_rows(std::integral_constant<int, 1>{}); break;
            case 2: lane_rows(std::integral_constant<int, 2>{}); break;
            case 3: lane_rows(std::integral_constant<int, 3>{}); break;
            default: lane_rows(std::integral_constant<int, -1>{}); break;
        }
    }
    for (; i + 4 <= rows; i += 4) dots_of_rows<S, 4>(a + i * lda, lda, x + i * ldx, ldx, y + i * incy, incy, k);
    switch (rows - i) {
        case 3: dots_of_rows<S, 3>(a + i * lda, lda, x + i * ldx, ldx, y + i * incy, incy, k); break;
        case 2: dots_of_rows<S, 2>(a + i * lda, lda, x + i * ldx, ldx, y + i * incy, incy, k); break;
        case 1: dots_of_rows<S, 1>(a + i * lda, lda, x + i * ldx, ldx, y + i * incy, incy, k); break;
        default: break;
    }
}

template <class S>
void row_dots(const void* a, int64_t lda, const void* x, void* y, int64_t incy, int64_t rows, int64_t k) {
    using T = ComputeOf<S>;
    dots_by_rows<S>((const typename Stored<S>::type*)a, lda, (const T*)x, 0, (T*)y, incy, rows, k);
}

// vecdot of rows (float32, float64): a row of a and a row of b a product, the same sums in
// the same order as a row of a times b's row as the vector in row_dots.
template <class T>
void paired_row_dots(const void* a, int64_t lda, const void* b, int64_t ldb, void* y, int64_t rows, int64_t k) {
    dots_by_rows<T>((const T*)a, lda, (const T*)b, ldb, (T*)y, 1, rows, k);
}

// vecdot of columns (float32, float64; a line along axis -2 of a row-major matrix): y[j] =
// sum_p a[p * lda + j] b[p * ldb + j] for j < columns. Stretches of kColumnStretch columns,
// four rows a pass read side by side in order, each pass's products fused into a vector of
// columns' sums; the sums run in blocks of kColumnBlockRows rows, each block's sums then
// added to y, so that a column of 1e6 rows carries the error of ~4000 additions of blocks,
// not of 1e6 additions in a row. A column's products are summed in the same order wherever
// it lies in a stretch or a vector, so splitting columns over threads does not change it.
constexpr int64_t kColumnStretch = 1024;
constexpr int64_t kColumnBlockRows = 256;
template <class T>
void paired_column_dots(const void* av, int64_t lda, const void* bv, int64_t ldb, void* yv, int64_t columns, int64_t k) {
    constexpr int w = W<T>;
    const T* a = (const T*)av;
    const T* b = (const T*)bv;
    T* y = (T*)yv;
    T block[kColumnStretch];
    for (int64_t j0 = 0; j0 < columns; j0 += kColumnStretch) {
        const int64_t n = std::min(kColumnStretch, columns - j0);
        for (int64_t j = 0; j < n; ++j) y[j0 + j] = T(0);
        for (int64_t p0 = 0; p0 < k; p0 += kColumnBlockRows) {
            const int64_t p1 = std::min(k, p0 + kColumnBlockRows);
            for (int64_t j = 0; j < n; ++j) block[j] = T(0);
            int64_t p = p0;
            for (; p + 4 <= p1; p += 4) {
                const T *a0 = a + p * lda + j0, *a1 = a0 + lda, *a2 = a1 + lda, *a3 = a2 + lda;
                const T *b0 = b + p * ldb + j0, *b1 = b0 + ldb, *b2 = b1 + ldb, *b3 = b2 + ldb;
                int64_t j = 0;
                for (; j + w <= n; j += w) {
                    V<T> acc = load(block + j);
                    acc += load(a0 + j) * load(b0 + j);
                    acc += load(a1 + j) * load(b1 + j);
                    acc += load(a2 + j) * load(b2 + j);
                    acc += load(a3 + j) * load(b3 + j);
                    store_vec(block + j, acc);
                }
                for (; j < n; ++j) {
                    T acc = block[j];
                    acc += a0[j] * b0[j];
                    acc += a1[j] * b1[j];
                    acc += a2[j] * b2[j];
                    acc += a3[j] * b3[j];
                    block[j] = acc;
                }
            }
            for (; p < p1; ++p) {
                const T *ar = a + p * lda + j0, *br = b + p * ldb + j0;
                int64_t j = 0;
                for (; j + w <= n; j += w) store_vec(block + j, load(block + j) + load(ar + j) * load(br + j));
                for (; j < n; ++j) block[j] += ar[j] * br[j];
            }
            for (int64_t j = 0; j < n; ++j) y[j0 + j] += block[j];
        }
    }
}

// Columns [j, j + N vectors) of x A: N independent sums, each row's N vectors read in
// order, then the next row.
template <class S, int N, class T = ComputeOf<S>, class A = typename Stored<S>::type>
inline __attribute__((always_inline)) void combine_panel(const A* a, int64_t lda, const T* x, int64_t incx, T* y, int64_t j, int64_t k) {
    constexpr int w = W<T>;
    V<T> acc[N];
    for (int c = 0; c < N; ++c) acc[c] = V<T>{};
    for (int64_t p = 0; p < k; ++p) {
        const T s = x[p * incx];
        const A* row = a + p * lda + j;
        for (int c = 0; c < N; ++c) acc[c] += s * Stored<S>::vec(row + c * w);
    }
    for (int c = 0; c < N; ++c) store_vec(y + j + c * w, acc[c]);
}

// Columns [j0, j1) of x A summed in y itself, four rows a pass, each pass reading the rows'
// stretches from j0 to j1 in order. Every y[j] takes its products in the order of p, fused
// as in combine_panel, so both give the same result.
template <class S, class T = ComputeOf<S>, class A = typename Stored<S>::type>
void combine_in_place(const A* a, int64_t lda, const T* x, int64_t incx, T* y, int64_t j0, int64_t j1, int64_t k) {
    constexpr int w = W<T>;
    auto one = [](const A* q) { return Stored<S>::one(q); };
    for (int64_t j = j0; j < j1; ++j) y[j] = T(0);
    int64_t p = 0;
    for (; p + 4 <= k; p += 4) {
        const T s0 = x[p * incx], s1 = x[(p + 1) * incx], s2 = x[(p + 2) * incx], s3 = x[(p + 3) * incx];
        const A *r0 = a + p * lda, *r1 = r0 + lda, *r2 = r1 + lda, *r3 = r2 + lda;
        int64_t j = j0;
        for (; j + w <= j1; j += w) {
            V<T> acc = load(y + j);
            acc += s0 * Stored<S>::vec(r0 + j);
            acc += s1 * Stored<S>::vec(r1 + j);
            acc += s2 * Stored<S>::vec(r2 + j);
            acc += s3 * Stored<S>::vec(r3 + j);
            store_vec(y + j, acc);
        }
        for (; j < j1; ++j) {
            T acc = y[j];
            acc += wrapping_product(s0, one(r0 + j));
            acc += wrapping_product(s1, one(r1 + j));
            acc += wrapping_product(s2, one(r2 + j));
            acc += wrapping_product(s3, one(r3 + j));
            y[j] = acc;
        }
    }
    for (; p < k; ++p) {
        const T s = x[p * incx];
        const A* row = a + p * lda;
        int64_t j = j0;
        for (; j + w <= j1; j += w) store_vec(y + j, load(y + j) + s * Stored<S>::vec(row + j));
        for (; j < j1; ++j) y[j] += wrapping_product(s, one(row + j));
    }
}

// Columns [j0, j1) of x A: from kInPlaceBytes of them summed in y (combine_in_place),
// else in panels of 16 (AVX-512) or 8 vectors (enough sums in flight to hide the
// multiply-add's latency), then of 4, 2 and 1, then the last columns together in scalars.
// Two threads, float32 and float64, Ember's call alternating between the two forms: a
// (4096, 4096) matrix 1245 -> 1191 us and 3381 -> 3065, (2000, 2000) 299 -> 272 and 626
// -> 540, (100, 10000) 43 -> 40 and 133 -> 114 in place; (1000, 1000) 42 against 46 and
// (4096, 512) 125 against 160 (float32) in panels. The bound is in bytes (768 float32
// columns): at 768 float64 columns, a (1000, 1000) float64 matrix's 512 columns a thread
// went in panels, 1000 rows 8000 bytes apart per panel, and took 161-182 us against
// 124-126 in place (NumPy 124-134); (4096, 4096) 3046-3158 -> 2470-2572.
constexpr int64_t kInPlaceBytes = 3072;
template <class S>
void row_combination(const void* av, int64_t lda, const void* xv, int64_t incx, void* yv, int64_t j0, int64_t j1, int64_t k) {
    using T = ComputeOf<S>;
    using A = typename Stored<S>::type;
    constexpr int w = W<T>;
    constexpr int kLeftMax = w;  // uint16 lanes: 32 with AVX-512
    const A* a = (const A*)av;
    const T* x = (const T*)xv;
    T* y = (T*)yv;
    if ((j1 - j0) * (int64_t)sizeof(T) >= kInPlaceBytes) return combine_in_place<S>(a, lda, x, incx, y, j0, j1, k);
    int64_t j = j0;
    if constexpr (VB == 64)
        for (; j + 16 * w <= j1; j += 16 * w) combine_panel<S, 16>(a, lda, x, incx, y, j, k);
    for (; j + 8 * w <= j1; j += 8 * w) combine_panel<S, 8>(a, lda, x, incx, y, j, k);
    if (j + 4 * w <= j1) j += 4 * w, combine_panel<S, 4>(a, lda, x, incx, y, j - 4 * w, k);
    if (j + 2 * w <= j1) j += 2 * w, combine_panel<S, 2>(a, lda, x, incx, y, j - 2 * w, k);
    if (j + w <= j1) j += w, combine_panel<S, 1>(a, lda, x, incx, y, j - w, k);
    const int left = (int)(j1 - j);  // fewer than one vector's lanes
    if (left == 0) return;
    T acc[kLeftMax] = {};
    for (int64_t p = 0; p < k; ++p) {
        const T s = x[p * incx];
        const A* row = a + p * lda + j;
        for (int c = 0; c < left && c < kLeftMax; ++c) acc[c] += wrapping_product(s, Stored<S>::one(row + c));
    }
    for (int c = 0; c < left && c < kLeftMax; ++c) y[j + c] = acc[c];
}
