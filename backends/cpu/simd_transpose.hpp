// Transposing copy of 4-, 8- and 16-byte elements (float32; float64, complex64; complex128)
// in the vector width of the ISA this copy of simd_impl.cpp is compiled for (included
// there, inside its anonymous namespace): the column-major copies of row-major matrices
// around LAPACK (lapack.hpp).
//
// An element is E lanes of U (uint32_t or uint64_t; E = 2 for complex128), so a vector
// holds R = W / E elements and a tile of R x R elements is transposed in registers in
// log2(R) stages: at stage b (E, 2E, ..., W/2 lanes; rows d = b / E apart) rows i and
// i + d (i & d == 0) become lo = lanes l of row i, or of row i + d shifted up by b where
// l & b, and hi = lanes l + b of row i, or lanes l of row i + d where l & b; the lanes of
// one element move together. After the last stage row j holds column j. The scalar tile
// loop this replaces ran a 256 x 256 float64 copy at 23 GB/s through the L2 on the Intel
// host of series 12.

template <class U, int B, bool Hi>
inline __attribute__((always_inline)) V<U> stage_mask() {
    constexpr int w = W<U>;
    V<U> m;
    for (int l = 0; l < w; ++l) m[l] = (U)(Hi ? ((l & B) ? w + l : l + B) : ((l & B) ? w + l - B : l));
    return m;
}

template <class U, int E, int B>
inline __attribute__((always_inline)) void transpose_stage(V<U>* r) {
    constexpr int w = W<U>, d = B / E;
    if constexpr (B < w) {
        for (int i = 0; i < w / E; ++i)
            if (!(i & d)) {
                const V<U> x = r[i], y = r[i + d];
                r[i] = __builtin_shuffle(x, y, stage_mask<U, B, false>());
                r[i + d] = __builtin_shuffle(x, y, stage_mask<U, B, true>());
            }
        transpose_stage<U, E, B * 2>(r);
    }
}

// d[c * ds + r] = s[r * ss + c] for r, c < W / E elements (s, d, ss, ds in lanes of U);
// Stream: d and ds vector-aligned.
template <class U, int E, bool Stream>
inline __attribute__((always_inline)) void transpose_tile(const U* s, int64_t ss, U* d, int64_t ds) {
    constexpr int rows = W<U> / E;
    V<U> r[rows];
    for (int i = 0; i < rows; ++i) r[i] = load(s + i * ss);
    transpose_stage<U, E, E>(r);
    for (int j = 0; j < rows; ++j) {
        if constexpr (Stream) stream_vec(d + j * ds, r[j]);
        else store_vec(d + j * ds, r[j]);
    }
}

// dst[c * dst_step + r] = src[r * src_step + c] for r < rows, c < cols (elements of E
// lanes of U). Strips of 64 bytes of each output column (one whole line where the columns
// are 64-byte aligned) across 64-column blocks; edges element by element (memcpy: the
// elements are floats, doubles or complex numbers, moved here as unsigned integers).
template <class U, int E, bool Stream>
void transpose_blocks(const U* s, int64_t ss, U* d, int64_t ds, int64_t rows, int64_t cols) {
    constexpr int t = W<U> / E;
    constexpr int64_t kStrip = 64 / (int64_t)(E * sizeof(U)), kBlock = 64;
    constexpr size_t kElem = E * sizeof(U);
    for (int64_t c0 = 0; c0 < cols; c0 += kBlock) {
        const int64_t ce = std::min(cols, c0 + kBlock);
        int64_t r = 0;
        for (; r + kStrip <= rows; r += kStrip) {
            int64_t c = c0;
            for (; c + t <= ce; c += t)
                for (int64_t k = 0; k < kStrip; k += t)
                    transpose_tile<U, E, Stream>(s + ((r + k) * ss + c) * E, ss * E, d + (c * ds + r + k) * E, ds * E);
            for (; c < ce; ++c)
                for (int64_t i = r; i < r + kStrip; ++i) memcpy(d + (c * ds + i) * E, s + (i * ss + c) * E, kElem);
        }
        for (; r < rows; ++r)
            for (int64_t c = c0; c < ce; ++c) memcpy(d + (c * ds + r) * E, s + (r * ss + c) * E, kElem);
    }
}

// stream: the caller asks for streaming stores (a matrix too large to stay in the caches).
// Each output column is written in 64 streams of scattered whole vectors, which the caches
// serve badly: each store first reads its line, and the hardware prefetchers follow few of
// the streams. Streaming stores skip that read; they need the columns vector-aligned.
// Columns that all start the same distance past a vector boundary have their first
// elements copied one by one, so that the tiles store whole aligned vectors: with every
// store split across two lines, a (1000, 997) float64 into rows of 1000 (a roll by 3) took
// 3.6x the aligned copy.
template <int Bytes>
void transpose_elems(const void* src, int64_t ss, void* dst, int64_t ds, int64_t rows, int64_t cols, bool stream) {
    using U = std::conditional_t<Bytes == 4, uint32_t, uint64_t>;
    constexpr int E = Bytes / (int)sizeof(U);
    const U* s = (const U*)src;
    U* d = (U*)dst;
    constexpr size_t kVec = sizeof(V<U>);
    const size_t past = (uintptr_t)d % kVec;
    if (past && past % Bytes == 0 && (ds * Bytes) % kVec == 0) {
        const int64_t head = std::min<int64_t>(rows, (int64_t)((kVec - past) / Bytes));
        transpose_blocks<U, E, false>(s, ss, d, ds, head, cols);
        s += head * ss * E;
        d += head * E;
        rows -= head;
    }
    if (stream && (uintptr_t)d % kVec == 0 && (ds * Bytes) % kVec == 0) {
        transpose_blocks<U, E, true>(s, ss, d, ds, rows, cols);
        stream_fence();
    } else {
        transpose_blocks<U, E, false>(s, ss, d, ds, rows, cols);
    }
}
