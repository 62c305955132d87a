// Transposing copy of 4- and 8-byte elements (float32; float64, complex64) in the vector
// width of the ISA this copy of simd_impl.cpp is compiled for (included there, inside its
// anonymous namespace): the column-major copies of row-major matrices around LAPACK
// (lapack.hpp).
//
// A tile of W x W elements (W lanes of U, the element's unsigned type) is transposed in
// registers in log2(W) stages: at stage b (1, 2, ..., W/2) rows i and i + b (i & b == 0)
// become lo = lanes l of row i, or of row i + b shifted up by b where l & b, and
// hi = lanes l + b of row i, or lanes l of row i + b where l & b;
// after the last stage row j holds column j. The scalar tile loop this replaces ran a
// 256 x 256 float64 copy at 23 GB/s through the L2 on the Intel host of series 12.

template <class U, int B, bool Hi>
inline __attribute__((always_inline)) V<U> stage_mask() {
    constexpr int w = W<U>;
    V<U> m;
    for (int l = 0; l < w; ++l) m[l] = (U)(Hi ? ((l & B) ? w + l : l + B) : ((l & B) ? w + l - B : l));
    return m;
}

template <class U, int B>
inline __attribute__((always_inline)) void transpose_stage(V<U>* r) {
    constexpr int w = W<U>;
    if constexpr (B < w) {
        for (int i = 0; i < w; ++i)
            if (!(i & B)) {
                const V<U> x = r[i], y = r[i + B];
                r[i] = __builtin_shuffle(x, y, stage_mask<U, B, false>());
                r[i + B] = __builtin_shuffle(x, y, stage_mask<U, B, true>());
            }
        transpose_stage<U, B * 2>(r);
    }
}

// d[c * ds + r] = s[r * ss + c] for r, c < W; Stream: d and ds vector-aligned.
template <class U, bool Stream>
inline __attribute__((always_inline)) void transpose_tile(const U* s, int64_t ss, U* d, int64_t ds) {
    constexpr int w = W<U>;
    V<U> r[w];
    for (int i = 0; i < w; ++i) r[i] = load(s + i * ss);
    transpose_stage<U, 1>(r);
    for (int j = 0; j < w; ++j) {
        if constexpr (Stream) stream_vec(d + j * ds, r[j]);
        else store_vec(d + j * ds, r[j]);
    }
}

// dst[c * dst_step + r] = src[r * src_step + c] for r < rows, c < cols. Strips of 64 bytes
// of each output column (one whole line where the columns are 64-byte aligned) across
// 64-column blocks; edges element by element (memcpy: the elements are floats, doubles or
// complex floats, read here as unsigned integers of their size).
template <class U, bool Stream>
void transpose_blocks(const U* s, int64_t ss, U* d, int64_t ds, int64_t rows, int64_t cols) {
    constexpr int w = W<U>;
    constexpr int64_t kStrip = 64 / (int64_t)sizeof(U), kBlock = 64;
    for (int64_t c0 = 0; c0 < cols; c0 += kBlock) {
        const int64_t ce = std::min(cols, c0 + kBlock);
        int64_t r = 0;
        for (; r + kStrip <= rows; r += kStrip) {
            int64_t c = c0;
            for (; c + w <= ce; c += w)
                for (int64_t t = 0; t < kStrip; t += w) transpose_tile<U, Stream>(s + (r + t) * ss + c, ss, d + c * ds + r + t, ds);
            for (; c < ce; ++c)
                for (int64_t i = r; i < r + kStrip; ++i) memcpy(d + c * ds + i, s + i * ss + c, sizeof(U));
        }
        for (; r < rows; ++r)
            for (int64_t c = c0; c < ce; ++c) memcpy(d + c * ds + r, s + r * ss + c, sizeof(U));
    }
}

// stream: the caller asks for streaming stores (a matrix too large to stay in the caches).
// Each output column is written in 64 streams of scattered whole vectors, which the caches
// serve badly: each store first reads its line, and the hardware prefetchers follow few of
// the streams. Streaming stores skip that read; they need the columns vector-aligned.
template <class U>
void transpose_elems(const void* src, int64_t ss, void* dst, int64_t ds, int64_t rows, int64_t cols, bool stream) {
    const U* s = (const U*)src;
    U* d = (U*)dst;
    constexpr size_t kVec = sizeof(V<U>);
    if (stream && (uintptr_t)d % kVec == 0 && (ds * sizeof(U)) % kVec == 0) {
        transpose_blocks<U, true>(s, ss, d, ds, rows, cols);
        stream_fence();
    } else {
        transpose_blocks<U, false>(s, ss, d, ds, rows, cols);
    }
}
