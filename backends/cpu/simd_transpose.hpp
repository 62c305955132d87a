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
// lanes of U), in tiles; edges element by element (memcpy: the elements are floats,
// doubles or complex numbers, moved here as unsigned integers). Two orders:
// Blocks of 64 source columns, each walked down every source row 64 bytes at a time (one
// whole line of each output row where those are 64-byte aligned): each source line is
// read once, but 64 output rows are half written at any time.
template <class U, int E, bool Stream>
__attribute__((noinline)) void transpose_column_blocks(const U* s, int64_t ss, U* d, int64_t ds, int64_t rows, int64_t cols) {
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

// Passes over kPassRows source rows, one tile-wide column of them after another: each
// output row being written gets kPassRows elements in one run of whole lines, while the
// pass reads one line of each of its source rows.
template <class U, int E, bool Stream>
__attribute__((noinline)) void transpose_row_passes(const U* s, int64_t ss, U* d, int64_t ds, int64_t rows, int64_t cols) {
    constexpr int t = W<U> / E;
    constexpr int64_t kPassRows = 256;
    constexpr size_t kElem = E * sizeof(U);
    const int64_t tiled_rows = rows - rows % t, tiled_cols = cols - cols % t;
    for (int64_t r0 = 0; r0 < tiled_rows; r0 += kPassRows) {
        const int64_t re = std::min(tiled_rows, r0 + kPassRows);
        for (int64_t c = 0; c < tiled_cols; c += t)
            for (int64_t r = r0; r < re; r += t)
                transpose_tile<U, E, Stream>(s + (r * ss + c) * E, ss * E, d + (c * ds + r) * E, ds * E);
        for (int64_t c = tiled_cols; c < cols; ++c)
            for (int64_t r = r0; r < re; ++r) memcpy(d + (c * ds + r) * E, s + (r * ss + c) * E, kElem);
    }
    for (int64_t r = tiled_rows; r < rows; ++r)
        for (int64_t c = 0; c < cols; ++c) memcpy(d + (c * ds + r) * E, s + (r * ss + c) * E, kElem);
}

// The most of `rows` rows, row_bytes apart, that fall in one L1 set (64 sets of 64-byte
// lines, as on the x86 cores of the last decade): rows a multiple of 4 KiB apart all share
// one, rows 4100 bytes apart 16 at a time. For the narrow transposes' strips
// (simd_transpose_narrow.hpp); the wider elements' choice below goes by powers of two,
// which is what was measured for them.
inline int rows_per_l1_set(int64_t row_bytes, int rows) {
    int count[64] = {}, most = 0;
    for (int i = 0; i < rows; ++i) most = std::max(most, ++count[((int64_t)i * row_bytes >> 6) & 63]);
    return most;
}

// The passes where the output rows are a multiple of 512 bytes apart (8 or more of the
// blocks' 64 half-written output rows share an L1 set) and the source rows not a multiple
// of a much higher power of two apart. One Zen 5 core, float32 (float64), the blocks'
// time -> the passes': (1024, 1024) 384 -> 182 us (704 -> 220),
// (1024, 1000) 367 -> 161 (685 -> 158), (512, 1000) 96 -> 42 (337 -> 69), (4096, 256) 385
// -> 170 (917 -> 209); AVX2 within 0.74-0.95 to 2.8-3.6x. Rows that crowd on the source
// side only keep the blocks: (1000, 1024) was 93 -> 111 us by the passes, (256, 4096) 97
// -> 106-213. The baseline ISA's 4 x 4 tiles keep the blocks everywhere: the passes lost
// there as often as they won.
template <class U, int E, bool Stream>
void transpose_blocks(const U* s, int64_t ss, U* d, int64_t ds, int64_t rows, int64_t cols) {
    const int64_t out_bytes = ds * E * (int64_t)sizeof(U), source_bytes = ss * E * (int64_t)sizeof(U);
    const int64_t out_align = out_bytes & -out_bytes, source_align = source_bytes & -source_bytes;  // largest powers of 2 dividing them
    if (VB > 16 && out_align >= 512 && 2 * out_align >= source_align) transpose_row_passes<U, E, Stream>(s, ss, d, ds, rows, cols);
    else transpose_column_blocks<U, E, Stream>(s, ss, d, ds, rows, cols);
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
