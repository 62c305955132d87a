// Transposing copy of 1- and 2-byte elements (uint8/int8/bool; int16/uint16/float16/
// bfloat16): the byte and word unpacks work within 128-bit lanes only, so a vector of W
// bytes is taken as W / 16 side-by-side lanes, each transposing its own block of n x n
// elements (n = 16 bytes or 8 halves; log2(n) rounds of pairing row i with row i + n / 2).
// Loading W bytes of each of n source rows gives the lanes blocks of n neighbouring output
// rows each, so one pass of the unpacks moves W / 16 blocks: with AVX-512 a quarter of the
// shuffles of the SSE2 blocks it replaces, which were the limit (one shuffle port on Intel:
// the negative of a transposed (1000, 1000) uint8 took 123 us on one thread of the
// Sapphire Rapids host of series 29, NumPy 48 keeping the layout). Included by
// simd_impl.cpp inside its anonymous namespace, after <immintrin.h>.
#if defined(__SSE2__)
template <int VectorBytes>
struct NarrowLanes;
template <>
struct NarrowLanes<16> {
    using Reg = __m128i;
    static constexpr int lanes = 1;
    static __m128i load(const void* p) { return _mm_loadu_si128((const __m128i*)p); }
    template <int Bytes> static __m128i lo(__m128i a, __m128i b) { return Bytes == 1 ? _mm_unpacklo_epi8(a, b) : _mm_unpacklo_epi16(a, b); }
    template <int Bytes> static __m128i hi(__m128i a, __m128i b) { return Bytes == 1 ? _mm_unpackhi_epi8(a, b) : _mm_unpackhi_epi16(a, b); }
    template <int L> static __m128i lane(__m128i v) { return v; }
};
#if defined(__AVX2__)
template <>
struct NarrowLanes<32> {
    using Reg = __m256i;
    static constexpr int lanes = 2;
    static __m256i load(const void* p) { return _mm256_loadu_si256((const __m256i*)p); }
    template <int Bytes> static __m256i lo(__m256i a, __m256i b) { return Bytes == 1 ? _mm256_unpacklo_epi8(a, b) : _mm256_unpacklo_epi16(a, b); }
    template <int Bytes> static __m256i hi(__m256i a, __m256i b) { return Bytes == 1 ? _mm256_unpackhi_epi8(a, b) : _mm256_unpackhi_epi16(a, b); }
    template <int L> static __m128i lane(__m256i v) { return _mm256_extracti128_si256(v, L); }
};
#endif
#if defined(__AVX512BW__)
template <>
struct NarrowLanes<64> {
    using Reg = __m512i;
    static constexpr int lanes = 4;
    static __m512i load(const void* p) { return _mm512_loadu_si512(p); }
    template <int Bytes> static __m512i lo(__m512i a, __m512i b) { return Bytes == 1 ? _mm512_unpacklo_epi8(a, b) : _mm512_unpacklo_epi16(a, b); }
    template <int Bytes> static __m512i hi(__m512i a, __m512i b) { return Bytes == 1 ? _mm512_unpackhi_epi8(a, b) : _mm512_unpackhi_epi16(a, b); }
    // Not _mm512_extracti32x4_epi32 nor _mm512_castsi512_si128 (GCC 12 builds the cast
    // on the extract): their undefined merge source draws -Wuninitialized from GCC's own
    // header. The low lane is a register's low half; the others a zero-masked extract
    // that keeps every element.
    template <int L> static __m128i lane(__m512i v) {
        if constexpr (L == 0) {
            __m128i low;
            memcpy(&low, &v, sizeof low);
            return low;
        } else {
            return _mm512_maskz_extracti32x4_epi32((__mmask8)0xF, v, L);
        }
    }
};
#endif
constexpr int kWideLanes = VB;  // the AVX-512 copy is built with AVX512BW

template <class Ops, int L>
inline __attribute__((always_inline)) void store_lanes(char* d, int64_t lane_step, const typename Ops::Reg& v) {
    if constexpr (L < Ops::lanes) {
        _mm_storeu_si128((__m128i*)(void*)(d + L * lane_step), Ops::template lane<L>(v));
        store_lanes<Ops, L + 1>(d, lane_step, v);
    }
}

// n source rows (ss bytes apart) x n * lanes elements into n * lanes output rows (ds bytes
// apart) of n elements each.
template <int VectorBytes, int Bytes>
inline __attribute__((always_inline)) void transpose_narrow_block(const char* s, int64_t ss, char* d, int64_t ds) {
    using Ops = NarrowLanes<VectorBytes>;
    constexpr int n = 16 / Bytes;
    typename Ops::Reg x[n], y[n];
    for (int i = 0; i < n; ++i) x[i] = Ops::load(s + i * ss);
    for (int round = 0; round < (Bytes == 1 ? 4 : 3); ++round) {
        for (int i = 0; i < n / 2; ++i) {
            y[2 * i] = Ops::template lo<Bytes>(x[i], x[i + n / 2]);
            y[2 * i + 1] = Ops::template hi<Bytes>(x[i], x[i + n / 2]);
        }
        for (int i = 0; i < n; ++i) x[i] = y[i];
    }
    for (int j = 0; j < n; ++j) store_lanes<Ops, 0>(d + j * ds, n * ds, x[j]);
}

template <int Bytes>
void transpose_narrow(const void* src, int64_t ss, void* dst, int64_t ds, int64_t rows, int64_t cols, bool);

// Output rows that crowd L1 even in the narrowest strips (rows 2 KiB apart for bytes, 4 KiB
// for halves, or nearly so): blocks of kBufferRows source rows x 64 source columns
// transposed into a stack buffer whose rows do not crowd, then each buffered row copied to
// its output row in one run of whole lines. One Zen 5 core, strips -> buffer: (2048, 2048)
// uint8 586 -> 199-225 us, int16 1400 -> 480-537; (4096, 256) uint8 338 -> 34, int16 300
// -> 79; (4100, 300) uint8 260-277 -> 59. Where the strips do not crowd, the copy out costs
// more than it saves ((1000, 1000) uint8 29 -> 42).
constexpr int64_t kBufferRows = 512, kBufferCols = 64;
template <int Bytes>
__attribute__((noinline)) void transpose_narrow_buffered(const void* src, int64_t ss, void* dst, int64_t ds, int64_t rows, int64_t cols) {
    using E = std::conditional_t<Bytes == 1, uint8_t, uint16_t>;
    constexpr int64_t n = 16 / Bytes, stride = kBufferRows + 64 / Bytes;
    alignas(64) E buffer[kBufferCols * stride];
    const E* s = (const E*)src;
    E* d = (E*)dst;
    // A last block shorter than n rows or columns starts earlier, over elements already
    // written (the same values); the caller has at least n of each.
    for (int64_t r0 = 0; r0 < rows; r0 += kBufferRows) {
        const int64_t re = std::min(rows, r0 + kBufferRows), rb = std::min(r0, re - n), len = re - rb;
        for (int64_t c0 = 0; c0 < cols; c0 += kBufferCols) {
            const int64_t ce = std::min(cols, c0 + kBufferCols), cb = std::min(c0, ce - n), width = ce - cb;
            transpose_narrow<Bytes>(s + rb * ss + cb, ss, buffer, stride, len, width, false);  // the buffer's rows take the strips
            for (int64_t j = 0; j < width; ++j) memcpy(d + (cb + j) * ds + rb, buffer + j * stride, (size_t)len * Bytes);
        }
    }
}

// Output columns in strips of n (the source's rows), output rows in blocks of one wide
// vector's elements: each output row's strip of n elements lands next to the previous
// strip's, and a block reads one 64-byte stretch of each source row. A last partial strip
// or block is a whole one moved back to end at the edge, writing some elements twice with
// the same values: element by element, the 8 rows and columns past the last whole block of
// a (1000, 1000) matrix took a tenth of its transpose.
template <int Bytes>
void transpose_narrow(const void* src, int64_t ss, void* dst, int64_t ds, int64_t rows, int64_t cols, bool) {
    using E = std::conditional_t<Bytes == 1, uint8_t, uint16_t>;
    constexpr int n = 16 / Bytes, wide = n * NarrowLanes<kWideLanes>::lanes, narrowest = n * (VB >= 32 ? 2 : 1);
    const E* s = (const E*)src;
    E* d = (E*)dst;
    if (rows < n || cols < n) {
        for (int64_t r = 0; r < rows; ++r)
            for (int64_t c = 0; c < cols; ++c) d[c * ds + r] = s[r * ss + c];
        return;
    }
    const int64_t ssb = ss * Bytes, dsb = ds * Bytes;
    // A strip writes its output rows 16 bytes at a time, and more than 8 of them in one L1
    // set thrash it (rows_per_l1_set, simd_transpose.hpp).
    if (rows_per_l1_set(dsb, narrowest) > 8) {
        transpose_narrow_buffered<Bytes>(src, ss, dst, ds, rows, cols);
        return;
    }
    auto strip = [&](auto vector_bytes, int64_t c) {
        constexpr int vb = decltype(vector_bytes)::value;
        for (int64_t r = 0;; r += n) {
            if (r + n > rows) r = rows - n;
            transpose_narrow_block<vb, Bytes>((const char*)(s + r * ss + c), ssb, (char*)(d + c * ds + r), dsb);
            if (r + n == rows) break;
        }
    };
    int64_t c = 0;
#if defined(__AVX512BW__)
    // Where only the AVX-512 strips crowd, the strips of the AVX2 width (half the rows). One
    // Zen 5 core: (1024, 1024) uint8 133 -> 58 us, int16 240 -> 96; (1024, 1000) uint8 131
    // -> 33; shapes whose output rows do not crowd take the wide strips as before ((1000,
    // 1000) uint8 32-35 us).
    if (rows_per_l1_set(dsb, wide) > 8) {
        constexpr int half = n * NarrowLanes<32>::lanes;
        for (; c + half <= cols; c += half) strip(std::integral_constant<int, 32>(), c);
    }
#endif
    for (; c + wide <= cols; c += wide) strip(std::integral_constant<int, kWideLanes>(), c);
    for (; c + n <= cols; c += n) strip(std::integral_constant<int, 16>(), c);
    if (c < cols) strip(std::integral_constant<int, 16>(), cols - n);
}
#else
template <int Bytes>
void transpose_narrow(const void* src, int64_t ss, void* dst, int64_t ds, int64_t rows, int64_t cols, bool) {
    using E = std::conditional_t<Bytes == 1, uint8_t, uint16_t>;
    const E* s = (const E*)src;
    E* d = (E*)dst;
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < cols; ++c) d[c * ds + r] = s[r * ss + c];
}
#endif
