// Small real matrix products, C = A B, for matmul's products too small for a BLAS call to
// pay (included by simd_impl.cpp inside its anonymous namespace, once per ISA).
//
// Why not OpenBLAS: below a few thousand multiply-adds its per-call cost dominates, and
// where its core has no small-matrix kernel (every core but its AVX-512 ones in 0.3.21,
// Haswell included) each call also takes a process-wide lock to allocate its buffers, so pool
// threads calling it at once queue: 1024 float32 16 x 16 products took 0.23 ms on one
// thread and 0.38 on two with OPENBLAS_CORETYPE=Haswell, 0.58 on one and 1.24 on sixteen
// on a machine where it chose Prescott (measured, bench/RESULTS.md). The same kernels
// serve integer matmul (matmul.cpp's int_matmul) as wrapping unsigned products of any size.
//
// A: m x k with element strides ars, acs (any layout); B: k x n row-major, row stride ldb;
// C: row stride ldc. Rows of C in blocks of up to 4, columns in vectors, then one at a
// time; every element is the sum of its k products in order p = 0..k-1
// (fused where the ISA has FMA), so a result does not depend on the block it falls in.

// x * y; for uint16_t in unsigned int, as two uint16_t promote to int, whose overflow is
// undefined (vector lanes do not promote).
template <class T>
inline T wrapping_product(T x, T y) {
    if constexpr (std::is_integral_v<T> && sizeof(T) < sizeof(unsigned)) return T(unsigned(x) * unsigned(y));
    else return x * y;
}

// Columns [j, j + w * count(B)) of R rows in vectors of B bytes (w lanes), two at a time
// where they fit; returns the first column left.
template <class T, int R, int B>
inline __attribute__((always_inline)) int64_t small_gemm_vectors(const T* a, int64_t ars, int64_t acs, const T* b, int64_t ldb, T* c,
                                                                 int64_t ldc, int64_t j, int64_t n, int64_t k) {
    typedef typename VT<T, B>::type Vec;
    constexpr int w = B / (int)sizeof(T);
    auto ld = [](const T* p) {
        Vec v;
        memcpy(&v, p, sizeof v);
        return v;
    };
    for (; B == VB && j + 2 * w <= n; j += 2 * w) {
        Vec lo[R], hi[R];
        for (int r = 0; r < R; ++r) lo[r] = hi[r] = Vec{};
        for (int64_t p = 0; p < k; ++p) {
            const Vec b0 = ld(b + p * ldb + j), b1 = ld(b + p * ldb + j + w);
            for (int r = 0; r < R; ++r) {
                const T s = a[r * ars + p * acs];
                lo[r] += s * b0;
                hi[r] += s * b1;
            }
        }
        for (int r = 0; r < R; ++r) {
            store_vec(c + r * ldc + j, lo[r]);
            store_vec(c + r * ldc + j + w, hi[r]);
        }
    }
    for (; j + w <= n; j += w) {
        Vec acc[R];
        for (int r = 0; r < R; ++r) acc[r] = Vec{};
        for (int64_t p = 0; p < k; ++p) {
            const Vec bv = ld(b + p * ldb + j);
            for (int r = 0; r < R; ++r) acc[r] += a[r * ars + p * acs] * bv;
        }
        for (int r = 0; r < R; ++r) store_vec(c + r * ldc + j, acc[r]);
    }
    return j;
}

// R rows of C: full vectors, then one half and one quarter vector (down to 16 bytes), then
// single columns.
template <class T, int R>
inline __attribute__((always_inline)) void small_gemm_rows(const T* a, int64_t ars, int64_t acs, const T* b, int64_t ldb, T* c,
                                                           int64_t ldc, int64_t n, int64_t k) {
    int64_t j = small_gemm_vectors<T, R, VB>(a, ars, acs, b, ldb, c, ldc, 0, n, k);
    if constexpr (VB / 2 >= 16) j = small_gemm_vectors<T, R, VB / 2>(a, ars, acs, b, ldb, c, ldc, j, n, k);
    if constexpr (VB / 4 >= 16) j = small_gemm_vectors<T, R, VB / 4>(a, ars, acs, b, ldb, c, ldc, j, n, k);
    for (; j < n; ++j) {
        T acc[R] = {};
        for (int64_t p = 0; p < k; ++p) {
            const T bs = b[p * ldb + j];
            for (int r = 0; r < R; ++r) acc[r] += wrapping_product(a[r * ars + p * acs], bs);
        }
        for (int r = 0; r < R; ++r) c[r * ldc + j] = acc[r];
    }
}


// Complex products, T the real type of interleaved (re, im) pairs; strides, n and k count
// complex elements. Per row of C two vector sums over p: ar * b and ai * b, lane pairs
// (re, im) of B's row. Their combination, (ar br - ai bi, ar bi + ai br), is
// sum_r + (-1, +1) * swap(sum_i). One vector of columns at a time: four rows' eight sums
// and B's vector fill AVX2's sixteen registers.
template <class T, int R, int B>
inline __attribute__((always_inline)) int64_t small_cgemm_vectors(const T* a, int64_t ars, int64_t acs, const T* b, int64_t ldb, T* c,
                                                                  int64_t ldc, int64_t j, int64_t n, int64_t k) {
    typedef typename VT<T, B>::type Vec;
    typedef typename VT<sint_of<T>, B>::type Mask;
    constexpr int lanes = B / (int)sizeof(T), w = lanes / 2;
    Mask swap;
    Vec sign;
    for (int l = 0; l < lanes; ++l) {
        swap[l] = l ^ 1;
        sign[l] = (l & 1) ? T(1) : T(-1);
    }
    for (; j + w <= n; j += w) {
        Vec re[R], im[R];
        for (int r = 0; r < R; ++r) re[r] = im[r] = Vec{};
        for (int64_t p = 0; p < k; ++p) {
            Vec bv;
            memcpy(&bv, b + 2 * (p * ldb + j), sizeof bv);
            for (int r = 0; r < R; ++r) {
                const T* ap = a + 2 * (r * ars + p * acs);
                re[r] += ap[0] * bv;
                im[r] += ap[1] * bv;
            }
        }
        for (int r = 0; r < R; ++r) store_vec(c + 2 * (r * ldc + j), re[r] + sign * __builtin_shuffle(im[r], swap));
    }
    return j;
}

template <class T, int R>
inline __attribute__((always_inline)) void small_cgemm_rows(const T* a, int64_t ars, int64_t acs, const T* b, int64_t ldb, T* c,
                                                            int64_t ldc, int64_t n, int64_t k) {
    int64_t j = small_cgemm_vectors<T, R, VB>(a, ars, acs, b, ldb, c, ldc, 0, n, k);
    if constexpr (VB / 2 >= 16) j = small_cgemm_vectors<T, R, VB / 2>(a, ars, acs, b, ldb, c, ldc, j, n, k);
    if constexpr (VB / 4 >= 16) j = small_cgemm_vectors<T, R, VB / 4>(a, ars, acs, b, ldb, c, ldc, j, n, k);
    for (; j < n; ++j) {  // complex64 only: one pair left
        T re[R] = {}, im[R] = {};
        for (int64_t p = 0; p < k; ++p) {
            const T br = b[2 * (p * ldb + j)], bi = b[2 * (p * ldb + j) + 1];
            for (int r = 0; r < R; ++r) {
                const T* ap = a + 2 * (r * ars + p * acs);
                re[r] += ap[0] * br - ap[1] * bi;
                im[r] += ap[0] * bi + ap[1] * br;
            }
        }
        for (int r = 0; r < R; ++r) {
            c[2 * (r * ldc + j)] = re[r];
            c[2 * (r * ldc + j) + 1] = im[r];
        }
    }
}

// Rows of C in blocks of 4, then the 1-3 left; Complex: T is the real type of (re, im)
// pairs, two reals per element.
template <class T, bool Complex>
void small_gemm(const void* av, int64_t ars, int64_t acs, const void* bv, int64_t ldb, void* cv, int64_t ldc, int64_t m, int64_t n,
                int64_t k) {
    const T* a = (const T*)av;
    const T* b = (const T*)bv;
    T* c = (T*)cv;
    constexpr int64_t e = Complex ? 2 : 1;
    auto rows = [&](auto count, int64_t i) {
        constexpr int R = decltype(count)::value;
        if constexpr (Complex) small_cgemm_rows<T, R>(a + e * i * ars, ars, acs, b, ldb, c + e * i * ldc, ldc, n, k);
        else small_gemm_rows<T, R>(a + i * ars, ars, acs, b, ldb, c + i * ldc, ldc, n, k);
    };
    int64_t i = 0;
    for (; i + 4 <= m; i += 4) rows(std::integral_constant<int, 4>{}, i);
    switch (m - i) {
        case 3: rows(std::integral_constant<int, 3>{}, i); break;
        case 2: rows(std::integral_constant<int, 2>{}, i); break;
        case 1: rows(std::integral_constant<int, 1>{}, i); break;
        default: break;
    }
}
