// Elementwise drivers: unary, binary, astype, and the composite overrides relu and silu.
// The geometry is simplified (unit dims dropped, contiguous dims merged); each inner run
// goes to the selected ISA's vector kernel when the output is contiguous along it and every
// input is contiguous or a broadcast scalar (stride 0): the common cases, including row and
// column broadcasting; float16/bfloat16 through the float32 kernels, chunk by chunk.
// Runs shorter than 64 elements into an output in C order go in blocks of whole rows, an
// input that does not lie as the output does copied into a buffer first (short_run_blocks).
// Transposed, stepped or reversed inputs are gathered into L1 tiles first (for_tiles; the
// register transpose for transposed ones), except a plain copy of a transposed input of 32
// rows or more, which runs the register transpose straight into the output (and a unary op
// of such an input with rows of 64 or more, or a binary op whose array operands are that
// one view: the transpose, then the op in place on each band of output rows), and a plain
// copy of a stepped or reversed input, gathered straight into it.
// Complex multiply, divide, square (a product) and reciprocal have loops of their own,
// quotients of stepped inputs through the tiles too, the unary ones (and negative, conj, abs)
// through the unary layouts above; complex add and subtract go part by part; other complex
// ops run the reference kernel, which accepts any strides, on slices across the pool.
#include <algorithm>
#include <climits>
#include <cmath>
#include <complex>
#include <cstring>

#include <emmintrin.h>

#include "cpu_common.hpp"

namespace ember_cpu {
namespace {
#include "streamed_pieces.hpp"

// ------------------------------------------------------------------ half types
// float16/bfloat16 operands go through the float32 kernels in L1-sized chunks: converted
// up, computed, and rounded back once, as the reference computes them (in float).
constexpr int64_t kStage = 1024;

// ------------------------------------------------------------------ strided operands
// An operand that steps through memory along the inner dim (a transposed view) is gathered
// into L1 tiles of kTileRows rows x kTileCols columns and the vector kernels run on the
// tile's rows. The gather walks down the tile's rows, which are neighbours in such an
// operand's memory, so every cache line it loads is used whole.
// Operands of 1 or 2 bytes get 64-row tiles: the register transpose of narrow elements
// (simd_transpose_narrow.hpp) fills 64 rows per pass with AVX-512.
constexpr int64_t kTileRows = 16, kTileCols = 256, kNarrowTileRows = 64, kTileBytes = kTileRows * kTileCols * 8;

struct Bytes16 {  // a 16-byte element (complex128) for copies
    uint64_t lo, hi;
};

// One row of nc elements cs apart from s into d.
template <class E>
void gather_row(const E* s, int64_t cs, int64_t nc, E* d) {
    int64_t j = 0;
    if constexpr (sizeof(E) == 4) {
        // Every other element (x[::2]): two loads, one shuffle. The last float loaded lies
        // one past the group's 4th element, so the last group is left to the plain loop (it
        // may be the last element of the buffer).
        if (cs == 2)
            for (; j + 4 < nc; j += 4) {
                const __m128 lo = _mm_loadu_ps((const float*)(s + 2 * j)), hi = _mm_loadu_ps((const float*)(s + 2 * j + 4));
                _mm_storeu_ps((float*)(d + j), _mm_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0)));
            }
        if (cs == -1)  // reversed (flip): one load, one shuffle
            for (; j + 4 <= nc; j += 4) {
                const __m128 v = _mm_loadu_ps((const float*)(s - j - 3));
                _mm_storeu_ps((float*)(d + j), _mm_shuffle_ps(v, v, _MM_SHUFFLE(0, 1, 2, 3)));
            }
    }
    if constexpr (sizeof(E) == 8) {
        // Every other element: two loads, one unpack (the last pair is left to the plain loop,
        // as for floats). The plain loop took 1.3 ns per element: sum of a[::2] of 1e6
        // float64 ran at 0.4-0.6x NumPy.
        if (cs == 2)
            for (; j + 2 < nc; j += 2) {
                const __m128d lo = _mm_loadu_pd((const double*)(s + 2 * j)), hi = _mm_loadu_pd((const double*)(s + 2 * j + 2));
                _mm_storeu_pd((double*)(d + j), _mm_unpacklo_pd(lo, hi));
            }
        if (cs == -1)
            for (; j + 2 <= nc; j += 2) {
                const __m128d v = _mm_loadu_pd((const double*)(s - j - 1));
                _mm_storeu_pd((double*)(d + j), _mm_shuffle_pd(v, v, 1));
            }
    }
    if constexpr (sizeof(E) <= 2) {
        // Every other byte or half: the even ones of two vectors packed into one (halves
        // sign-extended first, bytes masked, so the saturating packs keep their bits). The
        // last group is left to the plain loop, as for floats. One by one, a[::2] + b[::2]
        // of 1e6 int16 took 392 us (NumPy 243).
        constexpr int64_t per = 16 / sizeof(E);
        if (cs == 2)
            for (; j + per < nc; j += per) {
                const __m128i lo = _mm_loadu_si128((const __m128i*)(const void*)(s + 2 * j));
                const __m128i hi = _mm_loadu_si128((const __m128i*)(const void*)(s + 2 * j + per));
                __m128i v;
                if constexpr (sizeof(E) == 2)
                    v = _mm_packs_epi32(_mm_srai_epi32(_mm_slli_epi32(lo, 16), 16), _mm_srai_epi32(_mm_slli_epi32(hi, 16), 16));
                else
                    v = _mm_packus_epi16(_mm_and_si128(lo, _mm_set1_epi16(0xFF)), _mm_and_si128(hi, _mm_set1_epi16(0xFF)));
                _mm_storeu_si128((__m128i*)(void*)(d + j), v);
            }
    }
    if constexpr (sizeof(E) <= 2) {
        // Reversed bytes or halves: the 16-bit lanes of a vector reversed (two half
        // shuffles, then its 64-bit halves swapped), then the bytes in each lane swapped.
        constexpr int64_t per = 16 / sizeof(E);
        if (cs == -1)
            for (; j + per <= nc; j += per) {
                __m128i v = _mm_loadu_si128((const __m128i*)(s - j - (per - 1)));
                v = _mm_shuffle_epi32(_mm_shufflehi_epi16(_mm_shufflelo_epi16(v, 0x1B), 0x1B), 0x4E);
                if constexpr (sizeof(E) == 1) v = _mm_or_si128(_mm_slli_epi16(v, 8), _mm_srli_epi16(v, 8));
                _mm_storeu_si128((__m128i*)(d + j), v);
            }
    }
    if (cs == -1) {  // the rest reversed: a loop without the multiply
        for (; j < nc; ++j) d[j] = s[-j];
        return;
    }
    for (; j < nc; ++j) d[j] = s[j * cs];
}

// nr rows of nc elements (row r, column j at src[r * rs + j * cs]) into rows dst_row apart.
// The loops run along the smaller of the two steps, so that the reads walk memory: down the
// columns for a transposed operand, along the rows for a stepped or reversed one (walking a
// reversed (1000, 1000) int64 matrix down its columns took 3x the reference's time).
// The channels of interleaved pixels (rows 1 apart, K of them, columns cs >= K apart: an
// HWC image read as CHW) split into K rows with K known to the compiler: with K and the
// pointers unknown, every byte store reloaded them (1080 x 1920 RGB: 4 ms of 7).
template <class E, int K>
void split_channels(const E* __restrict s, int64_t cs, int64_t nc, int64_t dst_row, E* __restrict d) {
    for (int64_t j = 0; j < nc; ++j, s += cs)
        for (int r = 0; r < K; ++r) d[r * dst_row + j] = s[r];
}

// Rows of NC elements, reversed (Reversed: cs = -1) or cs apart, with NC known to the
// compiler and no call per row. gather_row's call per row was 65% of -x[:, ::-1] of a
// million rows of 3 float32s (3.6 ms; NumPy 4.3), and of an RGB image's channel flip.
template <class E, int NC, bool Reversed>
void gather_short_rows(const E* __restrict s, int64_t rs, int64_t cs, int64_t nr, int64_t dst_row, E* __restrict d) {
    for (int64_t r = 0; r < nr; ++r, s += rs, d += dst_row)
        for (int j = 0; j < NC; ++j) d[j] = Reversed ? s[-j] : s[j * cs];
}
template <class E, int NC>
void gather_short_rows(const E* s, int64_t rs, int64_t cs, int64_t nr, int64_t dst_row, E* d) {
    if (cs == -1) gather_short_rows<E, NC, true>(s, rs, cs, nr, dst_row, d);
    else gather_short_rows<E, NC, false>(s, rs, cs, nr, dst_row, d);
}

template <class E>
void gather_tile(const char* src, int64_t rs, int64_t cs, int64_t nr, int64_t nc, int64_t dst_row, char* dst) {
    const E* s = (const E*)src;
    E* d = (E*)dst;
    if (nr == 1 || std::abs(cs) <= std::abs(rs)) {
        if (nr > 1 && nc <= 8) {
            switch (nc) {
                case 1: return gather_short_rows<E, 1>(s, rs, cs, nr, dst_row, d);
                case 2: return gather_short_rows<E, 2>(s, rs, cs, nr, dst_row, d);
                case 3: return gather_short_rows<E, 3>(s, rs, cs, nr, dst_row, d);
                case 4: return gather_short_rows<E, 4>(s, rs, cs, nr, dst_row, d);
                default: break;
            }
            for (int64_t r = 0; r < nr; ++r)
                for (int64_t j = 0; j < nc; ++j) d[r * dst_row + j] = s[r * rs + j * cs];
            return;
        }
        for (int64_t r = 0; r < nr; ++r) gather_row(s + r * rs, cs, nc, d + r * dst_row);
        return;
    }
    if (rs == 1 && cs >= nr && nr <= 4) {
        switch (nr) {
            case 2: return split_channels<E, 2>(s, cs, nc, dst_row, d);
            case 3: return split_channels<E, 3>(s, cs, nc, dst_row, d);
            default: return split_channels<E, 4>(s, cs, nc, dst_row, d);
        }
    }
    for (int64_t j = 0; j < nc; ++j)
        for (int64_t r = 0; r < nr; ++r) d[r * dst_row + j] = s[r * rs + j * cs];
}
}  // namespace


void gather_strided(const char* src, int64_t rs, int64_t cs, int64_t nr, int64_t nc, size_t sz, int64_t dst_row, char* dst) {
    if (rs == 1 && nr > 1 && (sz == 4 || sz == 8 || sz == 16)) {  // a transposed operand: in registers
        g_isa->transpose[sz == 4 ? 0 : sz == 8 ? 1 : 2](src, cs, dst, dst_row, nc, nr, false);
        return;
    }
    // Bytes and halves by element took 328 us (uint8) and 430 (int16) for the negative of a
    // transposed (1000, 1000) matrix on the Intel host of series 28 (NumPy 45 and 156).
    if (rs == 1 && (sz == 1 || sz == 2) && nr >= 16 / (int64_t)sz) {
        g_isa->transpose_narrow[sz - 1](src, cs, dst, dst_row, nc, nr, false);
        return;
    }
    switch (sz) {
        case 1: gather_tile<uint8_t>(src, rs, cs, nr, nc, dst_row, dst); break;
        case 2: gather_tile<uint16_t>(src, rs, cs, nr, nc, dst_row, dst); break;
        case 4: gather_tile<uint32_t>(src, rs, cs, nr, nc, dst_row, dst); break;
        case 8: gather_tile<uint64_t>(src, rs, cs, nr, nc, dst_row, dst); break;
        default: gather_tile<Bytes16>(src, rs, cs, nr, nc, dst_row, dst); break;  // complex128
    }
}

namespace {

// Calls f(p, n) for every stretch of at most kTileCols elements (more where g is one row)
// of every row of g, with p[k] the operand's (k = 0: the output's) first element of the
// stretch, contiguous: operand k itself when its inner stride is 0 or 1, else its gathered
// tile (half as many columns where an input has 16-byte elements: a tile holds kTileRows x
// kTileCols 8-byte ones). A task is a block of tile rows and kTaskCols columns, so that
// long rows (a stepped 1-d view is one row) are split across the pool too.
constexpr int64_t kTaskCols = 64 * kTileCols;
template <int N, class F>
void for_tiles(const Geometry& g, char* const (&base)[N], const size_t (&sz)[N], int64_t threshold, F&& f) {
    const int nd = g.nd;
    const int64_t cols = g.shape[nd - 1], rows = nd >= 2 ? g.shape[nd - 2] : 1;
    int64_t outer = 1;
    for (int d = 0; d < nd - 2; ++d) outer *= g.shape[d];
    const size_t widest = *std::max_element(sz + 1, sz + N);
    // Where every gathered operand walks its rows (stepped or reversed, none transposed), a
    // tile is one stretch of one row, 2 KiB of the widest element, so that the lines the first
    // gather reads are still in L1 for the second (x[::2] + x[1::2]) and the tiles for the op.
    // Half a tile's bytes (16 KiB) for one row, and 16 rows for more, made x[::2] + x[1::2]
    // of 2e7 float32 4.5 ms on the Zen 4 host of session 74 (now 3.2), and of its (1000,
    // 20000) reshape's x[:, :18000:2] and x[:, 1:18001:2] 5.5 ms (now 2.5-3.2). Stretches of
    // 256 made a call per operand and stretch a third of the time of x[::2] + x[1::2] of
    // 2e6 int16 (150 us).
    bool walks_rows = true;
    for (int k = 1; k < N; ++k) {
        const int64_t cs = g.st[k][nd - 1], rs = nd >= 2 ? g.st[k][nd - 2] : 0;
        if (cs != 0 && cs != 1 && rows > 1 && std::abs(cs) > std::abs(rs)) walks_rows = false;
    }
    const int64_t tile_rows = walks_rows ? 1 : widest <= 2 ? kNarrowTileRows : kTileRows;
    const int64_t tile_cols = walks_rows ? kTileBytes / 16 / (int64_t)widest : widest > 8 ? kTileCols / 2 : kTileCols;
    const int64_t blocks = (rows + tile_rows - 1) / tile_rows, spans = (cols + kTaskCols - 1) / kTaskCols;
    parallel_range(outer * blocks * spans, g.size >= threshold ? 2 : INT64_MAX, 1, [&](int64_t begin, int64_t end) {
        alignas(64) char tile[N][kTileBytes];
        for (int64_t task = begin; task < end; ++task) {
            const int64_t t = task / spans, col_begin = task % spans * kTaskCols, col_end = std::min(cols, col_begin + kTaskCols);
            const int64_t i0 = (t % blocks) * tile_rows, nr = std::min(tile_rows, rows - i0);
            int64_t off[N], rs[N], cs[N];
            for (int k = 0; k < N; ++k) {
                rs[k] = nd >= 2 ? g.st[k][nd - 2] : 0;
                cs[k] = g.st[k][nd - 1];
                off[k] = i0 * rs[k];
                for (int64_t o = t / blocks, d = nd - 3; d >= 0; --d) {
                    off[k] += (o % g.shape[d]) * g.st[k][d];
                    o /= g.shape[d];
                }
            }
            // An operand that is an earlier one again (x * x of a transposed x) reads that
            // one's tile: gathering it twice was a third of the square of a transposed uint8.
            int from[N];
            for (int k = 0; k < N; ++k) {
                from[k] = k;
                for (int m = 1; m < k && from[k] == k; ++m)
                    if (base[m] + off[m] * (int64_t)sz[m] == base[k] + off[k] * (int64_t)sz[k] && sz[m] == sz[k] && rs[m] == rs[k] && cs[m] == cs[k]) from[k] = m;
            }
            for (int64_t j0 = col_begin; j0 < col_end; j0 += tile_cols) {
                const int64_t nc = std::min(tile_cols, col_end - j0);
                for (int k = 1; k < N; ++k) {
                    if (cs[k] == 0 || cs[k] == 1 || from[k] != k) continue;
                    const char* src = base[k] + (off[k] + j0 * cs[k]) * (int64_t)sz[k];
                    gather_strided(src, rs[k], cs[k], nr, nc, sz[k], tile_cols, tile[k]);
                }
                for (int64_t r = 0; r < nr; ++r) {
                    const char* p[N];
                    for (int k = 0; k < N; ++k)
                        p[k] = k > 0 && cs[k] != 0 && cs[k] != 1 ? tile[from[k]] + r * tile_cols * (int64_t)sz[k]
                                                                 : base[k] + (off[k] + r * rs[k] + j0 * cs[k]) * (int64_t)sz[k];
                    f(p, nc);
                }
            }
        }
    });
}

// One run of a binary op on half operands (each contiguous or a scalar); out is the
// operands' type, or bool for the comparisons (written directly).
void binary_half_run(BinFn fn, int slot, const uint16_t* a, const uint16_t* b, char* out, bool bool_out, int64_t len, int scalars) {
    alignas(64) float fa[kStage], fb[kStage], fr[kStage];
    const CvtFn up = g_isa->cvt[slot][C_F32], down = g_isa->cvt[C_F32][slot];
    if (scalars & 1) up(a, fa, 1);
    if (scalars & 2) up(b, fb, 1);
    for (int64_t i = 0; i < len; i += kStage) {
        const int64_t n = std::min(kStage, len - i);
        if (!(scalars & 1)) up(a + i, fa, n);
        if (!(scalars & 2)) up(b + i, fb, n);
        if (bool_out) {
            fn(fa, fb, out + i, n, scalars);
        } else {
            fn(fa, fb, fr, n, scalars);
            down(fr, (uint16_t*)out + i, n);
        }
    }
}

// One run of a unary op on a contiguous half operand into a contiguous output of its type.
void unary_half_run(UnFn fn, int slot, const uint16_t* x, uint16_t* out, int64_t len) {
    alignas(64) float fx[kStage], fr[kStage];
    const CvtFn up = g_isa->cvt[slot][C_F32], down = g_isa->cvt[C_F32][slot];
    for (int64_t i = 0; i < len; i += kStage) {
        const int64_t n = std::min(kStage, len - i);
        up(x + i, fx, n);
        fn(fx, fr, n, 0);
        down(fr, out + i, n);
    }
}

// ------------------------------------------------------------------ complex multiply, divide
// The ISA's loop (complex_mul: the textbook product, each operation rounded, as the
// reference's std::complex product computes it; complex_div: libgcc's quotients), then the
// reference's own operation, with its recovery of infinities (C99 Annex G), for any result
// NaN in both parts: bit for bit the reference.
// An output that is also an input (a *= b; the core passes no other overlap) is written
// through an L1 buffer, which keeps the inputs for that recovery. Bit 0 of `scalars`: a is
// one broadcast value; bit 1: b.
template <class R, bool Divide>
void complex_run(const void* av, const void* bv, void* ov, int64_t n, int scalars) {
    const R* a = (const R*)av;
    const R* b = (const R*)bv;
    R* o = (R*)ov;
    constexpr int64_t kChunk = 256;
    const int64_t sa = scalars & 1 ? 0 : 2, sb = scalars & 2 ? 0 : 2;
    const int slot = std::is_same_v<R, float> ? 0 : 1;
    const ComplexMulFn op = Divide ? g_isa->complex_div[slot] : g_isa->complex_mul[slot];
    alignas(64) R buf[2 * kChunk];
    for (int64_t i0 = 0; i0 < n; i0 += kChunk) {
        const int64_t len = std::min(kChunk, n - i0);
        const R* pa = a + i0 * sa;
        const R* pb = b + i0 * sb;
        R* dst = o + 2 * i0 == pa || o + 2 * i0 == pb ? buf : o + 2 * i0;  // out is an input: the buffer
        if (op(pa, pb, dst, len, scalars))
            for (int64_t i = 0; i < len; ++i)
                if (dst[2 * i] != dst[2 * i] && dst[2 * i + 1] != dst[2 * i + 1]) {
                    const std::complex<R> x(pa[i * sa], pa[i * sa + 1]), y(pb[i * sb], pb[i * sb + 1]);
                    const std::complex<R> z = Divide ? x / y : x * y;
                    dst[2 * i] = z.real();
                    dst[2 * i + 1] = z.imag();
                }
        if (dst == buf) std::memcpy(o + 2 * i0, buf, (size_t)len * 2 * sizeof(R));
    }
}
// Complex sums and differences part by part, as the reference's std::complex operators.
template <class R, bool Subtract>
void complex_add_run(const void* av, const void* bv, void* ov, int64_t n, int scalars) {
    const R* a = (const R*)av;
    const R* b = (const R*)bv;
    R* o = (R*)ov;
    if (scalars == 0) {  // both contiguous: one real loop over the parts
        for (int64_t i = 0; i < 2 * n; ++i) o[i] = Subtract ? a[i] - b[i] : a[i] + b[i];
        return;
    }
    const int64_t sa = scalars & 1 ? 0 : 2, sb = scalars & 2 ? 0 : 2;
    for (int64_t i = 0; i < n; ++i) {
        o[2 * i] = Subtract ? a[i * sa] - b[i * sb] : a[i * sa] + b[i * sb];
        o[2 * i + 1] = Subtract ? a[i * sa + 1] - b[i * sb + 1] : a[i * sa + 1] + b[i * sb + 1];
    }
}
// z^2 as the reference's z * z: the product's run, z as both operands (a UnFn).
template <class R>
void complex_square(const void* z, void* out, int64_t n, int) {
    complex_run<R, false>(z, z, out, n, 0);
}
// x ** n for complex x and an integer n with |n| < 100 (the exponent n + 0i): the
// reference's repeated products (complex_power in ref_binary.cpp, NumPy's order) through
// the product's run on L1 pieces, then 1 / r through the quotient's for n < 0. Through
// cpow per element, 1e6 complex64 x ** 2 took 30-42 ms (NumPy 0.12).
template <class R>
void complex_power_run(const R* x, R* o, int64_t len, int n) {
    if (n == 0) {
        for (int64_t i = 0; i < len; ++i) o[2 * i] = R(1), o[2 * i + 1] = R(0);
        return;
    }
    if (n == 1) return (void)std::memmove(o, x, (size_t)len * 2 * sizeof(R));
    if (n == 2) return complex_run<R, false>(x, x, o, len, 0);
    constexpr int64_t kPiece = 256;
    alignas(64) R r[2 * kPiece], p[2 * kPiece];
    const R one[2] = {R(1), R(0)};
    const int e = n < 0 ? -n : n;
    for (int64_t i0 = 0; i0 < len; i0 += kPiece) {
        const int64_t m = std::min(kPiece, len - i0);
        const R* xi = x + 2 * i0;
        R* oi = o + 2 * i0;
        if (n == 3) {  // x (x x)
            complex_run<R, false>(xi, xi, p, m, 0);
            complex_run<R, false>(xi, p, oi, m, 0);
            continue;
        }
        for (int64_t i = 0; i < m; ++i) r[2 * i] = R(1), r[2 * i + 1] = R(0);
        std::memcpy(p, xi, (size_t)m * 2 * sizeof(R));
        for (int bit = 1;; bit <<= 1) {
            if (e & bit) complex_run<R, false>(r, p, r, m, 0);
            if (e < (bit << 1)) break;
            complex_run<R, false>(p, p, p, m, 0);
        }
        if (n < 0) complex_run<R, true>(one, r, oi, m, 1);
        else std::memcpy(oi, r, (size_t)m * 2 * sizeof(R));
    }
}

using ComplexRun = void (*)(const void*, const void*, void*, int64_t, int);
ComplexRun complex_add_run_for(int32_t dtype, bool subtract) {
    if (dtype == EMBER_COMPLEX64) return subtract ? complex_add_run<float, true> : complex_add_run<float, false>;
    return subtract ? complex_add_run<double, true> : complex_add_run<double, false>;
}
// The run for a complex product or quotient of `dtype` values; null for other dtypes.
ComplexRun complex_run_for(int32_t dtype, bool divide) {
    if (dtype == EMBER_COMPLEX64) return divide ? complex_run<float, true> : complex_run<float, false>;
    if (dtype == EMBER_COMPLEX128) return divide ? complex_run<double, true> : complex_run<double, false>;
    return nullptr;
}

// Complex binary ops: runs of contiguous operands or broadcast scalars go to `run` as they
// are; transposed, stepped or reversed inputs through tiles (for_tiles) where `tiles`, else
// (and for a stepped output) to the reference on slices. Products and quotients take the
// tiles: the reference's scalar product (a NaN test per element) and libgcc's division took
// about twice the time of the gathers and the vector kernels (complex64 x[::2] * y[::2] of
// 1e6: 202-210 us against 140-177; x * x.T of (1000, 1000): 389-477 against 184-187). For
// sums and differences the reference's strided loop ran as fast as the gathers or faster
// (sixteenth and fifty-seventh sessions in bench/RESULTS.md).
template <class Run>
ember_status_t complex_binary(const ember_kernel_call_t* c, Run run, bool tiles) {
    const ember_view_t &a = c->in[0], &b = c->in[1], &o = c->out[0];
    const ember_view_t* views[3] = {&o, &a, &b};
    Geometry g;
    if (!make_geometry(views, 3, g)) return EMBER_OK;
    const int last = g.nd - 1;
    const int64_t so = g.st[0][last], sa = g.st[1][last], sb = g.st[2][last];
    const bool stepped = g.shape[last] > 1 && ((sa != 0 && sa != 1) || (sb != 0 && sb != 1));
    if (g.shape[last] > 1 && (so != 1 || (stepped && !tiles))) return reference_on_slices(c, kElementwise);
    const int scalars = (sa == 0 ? 1 : 0) | (sb == 0 ? 2 : 0);
    const int64_t sz = (int64_t)itemsize_of(a.dtype);
    char *pa = base_ptr(a), *pb = base_ptr(b), *po = base_ptr(o);
    if (stepped) {
        char* const base[3] = {po, pa, pb};
        const size_t sizes[3] = {(size_t)sz, (size_t)sz, (size_t)sz};
        for_tiles<3>(g, base, sizes, kParallelCheap / 4, [&](const char* const* p, int64_t n) { run(p[1], p[2], (char*)p[0], n, scalars); });
        return EMBER_OK;
    }
    parallel_range(g.size, kParallelCheap / 2, 1 << 13, [&](int64_t begin, int64_t end) {
        walk_runs<3>(g, begin, end, [&](const int64_t* off, int64_t len) { run(pa + off[1] * sz, pb + off[2] * sz, po + off[0] * sz, len, scalars); });
    });
    return EMBER_OK;
}

ember_status_t binary_kernel(const ember_kernel_call_t* c) { return binary_isa_kernel(c, kdata(c)->code); }

template <class R>
ember_status_t complex_power_of(const ember_kernel_call_t* c) {
    const ember_view_t &a = c->in[0], &b = c->in[1], &o = c->out[0];
    const ember_view_t* views[3] = {&o, &a, &b};
    Geometry g;
    if (!make_geometry(views, 3, g)) return EMBER_OK;
    for (int d = 0; d < g.nd; ++d)
        if (g.st[2][d] != 0) return reference_on_slices(c, kElementwise);  // not one exponent
    const R* exponent = (const R*)base_ptr(b);
    const R re = exponent[0], im = exponent[1];
    if (im != R(0) || re != std::trunc(re) || !(std::fabs(re) < R(100))) return reference_on_slices(c, kElementwise);
    const int n = (int)re;
    return complex_binary(c, [n](const void* x, const void*, void* out, int64_t len, int scalars) {
        if (!(scalars & 1)) return complex_power_run<R>((const R*)x, (R*)out, len, n);
        R value[2];  // x is one value (bit 0): its power, stored len times
        complex_power_run<R>((const R*)x, value, 1, n);
        for (int64_t i = 0; i < len; ++i) ((R*)out)[2 * i] = value[0], ((R*)out)[2 * i + 1] = value[1];
    }, true);
}

}  // namespace

ember_status_t complex_power_kernel(const ember_kernel_call_t* c) {
    const ember_view_t &a = c->in[0], &b = c->in[1], &o = c->out[0];
    if (b.dtype != a.dtype || o.dtype != a.dtype) return reference_on_slices(c, kElementwise);
    if (a.dtype == EMBER_COMPLEX64) return complex_power_of<float>(c);
    if (a.dtype == EMBER_COMPLEX128) return complex_power_of<double>(c);
    return reference_on_slices(c, kElementwise);
}

namespace {

// Runs shorter than kShortRun into an output in C order: blocks of whole rows go to the
// kernel in one call, f(inputs, out, count), each input read in place where it lies as the
// output does, else copied into a buffer (a value broadcast along its row repeated). A
// kernel call per run made x - x.max(axis=-1, keepdims=True) on a million rows of 3
// float32s take 26 ms (NumPy 6), exp of x[:, :3] 31 ms (NumPy 20). Geometry operand 0 is
// the output, 1..N the inputs (isz[k] bytes an element, at most 8).
constexpr int64_t kShortRun = 64, kShortBlock = 2048;

// Row r of the block from src's element r * rs, repeated (cs = 0) or in order (cs = 1) in
// one typed loop, or read across: gather_strided (the register transpose for a transposed
// input of 4- or 8-byte elements). gather_strided's call per row doubled the time of exp
// of x[:, :3] (a million rows of float32) against this loop.
template <class E>
void copy_rows(char* dst, const char* src, int64_t nr, int64_t inner, int64_t rs, int64_t cs) {
    E* d = (E*)dst;
    const E* x = (const E*)src;
    for (int64_t r = 0; r < nr; ++r)
        for (int64_t j = 0; j < inner; ++j) d[r * inner + j] = x[r * rs + j * cs];
}
void copy_rows(size_t isz, char* dst, const char* src, int64_t nr, int64_t inner, int64_t rs, int64_t cs) {
    if (cs != 0 && cs != 1) gather_strided(src, rs, cs, nr, inner, isz, inner, dst);
    else if (isz == 1) copy_rows<uint8_t>(dst, src, nr, inner, rs, cs);
    else if (isz == 2) copy_rows<uint16_t>(dst, src, nr, inner, rs, cs);
    else if (isz == 4) copy_rows<uint32_t>(dst, src, nr, inner, rs, cs);
    else copy_rows<uint64_t>(dst, src, nr, inner, rs, cs);
}

template <int N, class F>
bool short_run_blocks(const Geometry& g, const char* const (&in)[N], const size_t (&isz)[N], char* po, size_t osz, int64_t threshold, F&& f) {
    const int last = g.nd - 1;
    if (g.nd < 2 || *std::max_element(isz, isz + N) > 8) return false;
    const int64_t inner = g.shape[last], rows = g.size / inner;
    if (inner >= kShortRun || g.st[0][last] != 1) return false;
    for (int64_t d = last - 1, step = inner; d >= 0; step *= g.shape[d], --d)
        if (g.st[0][d] != step) return false;
    bool in_place[N];  // the input lies as the output does
    for (int k = 0; k < N; ++k) {
        in_place[k] = true;
        for (int d = 0; d <= last; ++d) in_place[k] = in_place[k] && g.st[k + 1][d] == g.st[0][d];
    }
    const int64_t block_rows = std::max<int64_t>(1, kShortBlock / inner);
    parallel_range(rows, g.size >= threshold ? 0 : INT64_MAX, block_rows, [&](int64_t begin, int64_t end) {
        alignas(64) char buf[N][kShortBlock * 8];
        bool once[N];  // a row broadcast down a matrix: the buffer is every block's
        for (int k = 0; k < N; ++k) {
            once[k] = !in_place[k] && g.nd == 2 && g.st[k + 1][0] == 0;
            if (once[k]) copy_rows(isz[k], buf[k], in[k], std::min(block_rows, end - begin), inner, 0, g.st[k + 1][1]);
        }
        int64_t idx[EMBER_MAX_DIMS], off[N] = {};
        for (int64_t d = last - 1, rest = begin; d >= 0; --d) {
            idx[d] = rest % g.shape[d];
            rest /= g.shape[d];
            for (int k = 0; k < N; ++k) off[k] += idx[d] * g.st[k + 1][d];
        }
        for (int64_t r0 = begin; r0 < end; r0 += block_rows) {
            const int64_t nr = std::min(block_rows, end - r0);
            const char* p[N];
            for (int k = 0; k < N; ++k) p[k] = in_place[k] ? in[k] + r0 * inner * (int64_t)isz[k] : buf[k];
            if (g.nd == 2) {  // a matrix: each buffer filled in one loop
                for (int k = 0; k < N; ++k)
                    if (!in_place[k] && !once[k])
                        copy_rows(isz[k], buf[k], in[k] + r0 * g.st[k + 1][0] * (int64_t)isz[k], nr, inner, g.st[k + 1][0], g.st[k + 1][1]);
            } else {  // stretches of rows along dim last - 1, one loop each
                const int64_t rd = last - 1;
                for (int64_t r = 0; r < nr;) {
                    const int64_t run = std::min(nr - r, g.shape[rd] - idx[rd]);
                    for (int k = 0; k < N; ++k)
                        if (!in_place[k])
                            copy_rows(isz[k], buf[k] + r * inner * (int64_t)isz[k], in[k] + off[k] * (int64_t)isz[k], run, inner, g.st[k + 1][rd], g.st[k + 1][last]);
                    r += run;
                    idx[rd] += run;
                    for (int k = 0; k < N; ++k) off[k] += run * g.st[k + 1][rd];
                    for (int64_t d = rd; d > 0 && idx[d] == g.shape[d]; --d) {  // carry into the outer dims
                        for (int k = 0; k < N; ++k) off[k] += g.st[k + 1][d - 1] - g.st[k + 1][d] * g.shape[d];
                        idx[d] = 0;
                        ++idx[d - 1];
                    }
                }
            }
            f(p, po + r0 * inner * (int64_t)osz, nr * inner);
        }
    });
    return true;
}
// Inputs of one element size.
template <int N, class F>
bool short_run_blocks(const Geometry& g, const char* const (&in)[N], size_t isz, char* po, size_t osz, int64_t threshold, F&& f) {
    size_t sizes[N];
    std::fill(sizes, sizes + N, isz);
    return short_run_blocks<N>(g, in, sizes, po, osz, threshold, std::forward<F>(f));
}

}  // namespace

// The pool threshold of a binary kernel by its cost an element on one thread (the Intel
// host of series 40-45, 65536 elements): logaddexp 0.67 ns (float32), 2.1 (float64);
// floor_divide, remainder and integer powers 0.7-2.1 of 32- and 64-bit types, 0.23-0.35
// of narrower ones; divide 0.22-0.68; the rest 0.04-0.34.
int64_t binary_threshold(int code, size_t itemsize) {
    switch (code) {
        case B_LOGADDEXP: return itemsize == 8 ? kParallelHeavy : kParallelCostly;
        case B_FLOORDIV: case B_REM: case B_POW: return itemsize >= 4 ? kParallelHeavy : kParallelCostly;
        case B_DIV: return kParallelCostly;
        default: return kParallelCheap;
    }
}

ember_status_t binary_isa_kernel(const ember_kernel_call_t* c, int code) {
    const ember_view_t& a = c->in[0];
    const ember_view_t& b = c->in[1];
    const ember_view_t& o = c->out[0];
    const bool complex_in = a.dtype == EMBER_COMPLEX64 || a.dtype == EMBER_COMPLEX128;
    if (complex_in && (code == B_ADD || code == B_SUB) && b.dtype == a.dtype && o.dtype == a.dtype)
        return complex_binary(c, complex_add_run_for(a.dtype, code == B_SUB), false);
    if ((code == B_MUL || code == B_DIV) && b.dtype == a.dtype && o.dtype == a.dtype)
        if (ComplexRun run = complex_run_for(a.dtype, code == B_DIV)) return complex_binary(c, run, true);
    const bool staged = half_slot(a.dtype) >= 0 && (o.dtype == a.dtype || o.dtype == EMBER_BOOL);
    return binary_vector_kernel(c, g_isa->bin[code][staged ? EMBER_FLOAT32 : a.dtype], binary_threshold(code, itemsize_of(a.dtype)));
}

namespace {
using BandOp = std::function<void(char* band, int64_t n)>;
bool transposed_copy(const Geometry& g, const char* px, char* po, size_t sz, const BandOp* then = nullptr);

// A binary op whose array operands are one transposed view (x.T * 2, 2 - x.T, x.T + x.T):
// the view transposed into the output, then the op in place on its bands (transposed_copy).
// (1000, 1000) float32 on two Zen 5 cores, through the tiles before: x.T + x.T 110-120 ->
// 75-88 us, x.T * 2 108-118 -> 85-103 (NumPy 64-66; uint8 x.T + x.T 36 -> 23, NumPy 18).
bool transposed_operand(const Geometry& g, BinFn fn, const char* pa, const char* pb, char* po, size_t sz) {
    auto scalar = [&](int k) {
        for (int d = 0; d < g.nd; ++d)
            if (g.st[k][d] != 0) return false;
        return true;
    };
    bool same = pa == pb;
    for (int d = 0; d < g.nd && same; ++d) same = g.st[1][d] == g.st[2][d];
    const int view = same || scalar(2) ? 1 : scalar(1) ? 2 : 0;
    if (!view) return false;
    Geometry two = g;  // the output and the view
    for (int d = 0; d < g.nd; ++d) two.st[1][d] = g.st[view][d];
    const BandOp op = [&](char* band, int64_t n) {
        if (same) fn(band, band, band, n, 0);
        else if (view == 1) fn(band, pb, band, n, 2);
        else fn(pa, band, band, n, 1);
    };
    return transposed_copy(two, view == 1 ? pa : pb, po, sz, &op);
}
}  // namespace

ember_status_t binary_vector_kernel(const ember_kernel_call_t* c, BinFn fn, int64_t threshold) {
    const ember_view_t& a = c->in[0];
    const ember_view_t& b = c->in[1];
    const ember_view_t& o = c->out[0];
    const int slot = half_slot(a.dtype);
    const bool staged = slot >= 0 && (o.dtype == a.dtype || o.dtype == EMBER_BOOL);
    if (!fn || b.dtype != a.dtype) return reference_on_slices(c, kElementwise);
    const ember_view_t* views[3] = {&o, &a, &b};
    Geometry g;
    if (!make_geometry(views, 3, g)) return EMBER_OK;
    const int last = g.nd - 1;
    const int64_t inner = g.shape[last];
    const int64_t so = g.st[0][last], sa = g.st[1][last], sb = g.st[2][last];
    const size_t isz = itemsize_of(a.dtype), osz = itemsize_of(o.dtype);
    const bool strided = inner > 1 && ((sa != 0 && sa != 1) || (sb != 0 && sb != 1));
    if (inner > 1 && (so != 1 || (strided && isz > 8))) return reference_on_slices(c, kElementwise);
    const int mode = (sa == 0 ? 1 : 0) | (sb == 0 ? 2 : 0) | stream_flag(g.size * (int64_t)osz, o, {&a, &b});
    char *pa = base_ptr(a), *pb = base_ptr(b), *po = base_ptr(o);
    const char* const inputs[2] = {pa, pb};
    if (strided) {
        // Short rows read across a transposed input: blocks of rows (in tiles, a call per row)
        if (short_run_blocks<2>(g, inputs, isz, po, osz, threshold, [&](const char* const* p, char* out, int64_t n) {
                if (staged) binary_half_run(fn, slot, (const uint16_t*)p[0], (const uint16_t*)p[1], out, o.dtype == EMBER_BOOL, n, 0);
                else fn(p[0], p[1], out, n, 0);
            }))
            return EMBER_OK;
        if (!staged && osz == isz && transposed_operand(g, fn, pa, pb, po, isz)) return EMBER_OK;
        char* const base[3] = {po, pa, pb};
        const size_t sizes[3] = {osz, isz, isz};
        for_tiles<3>(g, base, sizes, threshold / 4, [&](const char* const* p, int64_t n) {
            if (staged) binary_half_run(fn, slot, (const uint16_t*)p[1], (const uint16_t*)p[2], (char*)p[0], o.dtype == EMBER_BOOL, n, mode & 3);
            else fn(p[1], p[2], (char*)p[0], n, mode & 3);
        });
        return EMBER_OK;
    }
    if (staged) {
        parallel_range(g.size, threshold / 4, 1 << 12, [&](int64_t begin, int64_t end) {
            walk_runs<3>(g, begin, end, [&](const int64_t* off, int64_t len) {
                binary_half_run(fn, slot, (const uint16_t*)pa + off[1], (const uint16_t*)pb + off[2], po + off[0] * (int64_t)osz, o.dtype == EMBER_BOOL, len,
                                mode & 3);
            });
        });
        return EMBER_OK;
    }
    if (short_run_blocks<2>(g, inputs, isz, po, osz, threshold, [&](const char* const* p, char* out, int64_t n) { fn(p[0], p[1], out, n, 0); }))
        return EMBER_OK;
    // Streamed runs of a broadcast ((65536, 128) + (128,)) fenced after each run, 10.9 ms
    // where a plain product took 1.3: the fence goes after the task's last run.
    const int run_mode = (mode & kStream) && g.nd > 1 ? mode | kCallerFences : mode;
    parallel_range(g.size, threshold, std::min<int64_t>(1 << 14, threshold / 4), [&](int64_t begin, int64_t end) {
        walk_runs<3>(g, begin, end, [&](const int64_t* off, int64_t len) {
            fn(pa + off[1] * (int64_t)isz, pb + off[2] * (int64_t)isz, po + off[0] * (int64_t)osz, len, run_mode);
        });
        if (run_mode & kCallerFences) store_fence();
    });
    return EMBER_OK;
}

bool unary_half_staged(const ember_kernel_call_t* c, UnFn fn32) {
    const ember_view_t& x = c->in[0];
    const ember_view_t& o = c->out[0];
    const int slot = half_slot(x.dtype);
    if (slot < 0 || o.dtype != x.dtype || !fn32) return false;
    const ember_view_t* views[2] = {&o, &x};
    Geometry g;
    if (!make_geometry(views, 2, g)) return true;
    const int last = g.nd - 1;
    const int64_t inner = g.shape[last];
    char *px = base_ptr(x), *po = base_ptr(o);
    const char* const input[1] = {px};
    if (inner > 1 && g.st[1][last] != 0 && short_run_blocks<1>(g, input, 2, po, 2, kParallelCostly, [&](const char* const* p, char* out, int64_t n) {
            unary_half_run(fn32, slot, (const uint16_t*)p[0], (uint16_t*)out, n);
        }))
        return true;
    if (inner == 1 || (g.st[0][last] == 1 && g.st[1][last] == 1)) {
        parallel_range(g.size, kParallelCostly, 1 << 12, [&](int64_t begin, int64_t end) {
            walk_runs<2>(g, begin, end, [&](const int64_t* off, int64_t len) {
                unary_half_run(fn32, slot, (const uint16_t*)px + off[1], (uint16_t*)po + off[0], len);
            });
        });
        return true;
    }
    // A strided input along the inner dim: gathered into tiles. (Stride 0, a broadcast
    // input, is left to the caller: the tiles pass such an operand through as a scalar,
    // which only the binary kernels understand.)
    if (g.st[0][last] != 1 || g.st[1][last] == 0) return false;
    char* const base[2] = {po, px};
    const size_t sizes[2] = {2, 2};
    for_tiles<2>(g, base, sizes, kParallelCostly, [&](const char* const* p, int64_t n) {
        unary_half_run(fn32, slot, (const uint16_t*)p[1], (uint16_t*)p[0], n);
    });
    return true;
}

bool unary_vector_runs(const Geometry& g, const char* px, size_t isz, char* po, size_t osz, UnFn fn, int64_t threshold, int flags) {
    const int last = g.nd - 1;
    const int64_t inner = g.shape[last], so = g.st[0][last], sx = g.st[1][last];
    const char* const input[1] = {px};
    auto kernel = [&](const char* const* p, char* out, int64_t n) { fn(p[0], out, n, 0); };
    if (inner == 1 || (so == 1 && sx == 1)) {
        if (inner > 1 && short_run_blocks<1>(g, input, isz, po, osz, threshold, kernel)) return true;
        const int run_flags = (flags & kStream) && g.nd > 1 ? flags | kCallerFences : flags;  // a fence per task, not per run
        parallel_range(g.size, threshold, threshold < kParallelCheap ? 1 << 12 : 1 << 14, [&](int64_t begin, int64_t end) {
            walk_runs<2>(g, begin, end, [&](const int64_t* off, int64_t len) { fn(px + off[1] * (int64_t)isz, po + off[0] * (int64_t)osz, len, run_flags); });
            if (run_flags & kCallerFences) store_fence();
        });
        return true;
    }
    if (so != 1 || sx == 0) return false;
    const BandOp in_place = [fn](char* band, int64_t n) { fn(band, band, n, 0); };
    const auto tile_kernel = [&](const char* in, char* out, int64_t n) { fn(in, out, n, 0); };
    // complex128: the transposes, else the tiles (conj of a stepped view went to the
    // reference's element loop).
    if (isz > 8) return isz == osz && (transposed_copy(g, px, po, isz, &in_place) || tiled_unary_runs(g, px, isz, po, osz, threshold, tile_kernel));
    if (short_run_blocks<1>(g, input, isz, po, osz, threshold, kernel)) return true;
    if (isz == osz && transposed_copy(g, px, po, isz, &in_place)) return true;
    return tiled_unary_runs(g, px, isz, po, osz, kParallelCostly, tile_kernel);
}

bool tiled_unary_runs(const Geometry& g, const char* px, size_t isz, char* po, size_t osz, int64_t threshold,
                      const std::function<void(const char* in, char* out, int64_t n)>& f) {
    const int last = g.nd - 1;
    if (g.st[0][last] != 1 || g.st[1][last] == 0) return false;
    char* const base[2] = {po, (char*)px};
    const size_t sizes[2] = {osz, isz};
    for_tiles<2>(g, base, sizes, threshold, [&](const char* const* p, int64_t n) { f(p[1], (char*)p[0], n); });
    return true;
}

bool staged_short_rows(const Geometry& g, const char* px, size_t isz, char* po, size_t osz, int64_t threshold,
                       const std::function<void(const char* in, char* out, int64_t n)>& f) {
    const char* const input[1] = {px};
    return short_run_blocks<1>(g, input, isz, po, osz, threshold, [&](const char* const* p, char* out, int64_t n) { f(p[0], out, n); });
}

namespace {

// ------------------------------------------------------------------ unary
// float64 transcendental functions: libm per element (as the reference), threaded.
template <class F>
void f64_loop(const Geometry& g, const char* px, char* po, F f) {
    parallel_range(g.size, kParallelCostly, 1 << 12, [&](int64_t begin, int64_t end) {
        walk_runs<2>(g, begin, end, [&](const int64_t* off, int64_t len) {
            double* o = (double*)po + off[0];
            const double* x = (const double*)px + off[1];
            const int64_t s = g.st[1][g.nd - 1];
            for (int64_t i = 0; i < len; ++i) o[i] = f(x[i * s]);
        });
    });
}
double sigmoid_f64(double x) {
    if (x >= 0) return 1.0 / (1.0 + std::exp(-x));
    double e = std::exp(x);
    return e / (1.0 + e);
}

bool costly(int code) { return code == U_EXP || code == U_LOG || code == U_TANH || code == U_SIGMOID || code == U_SILU; }

// Composite overrides have no reference kernel: their generic path chains the reference
// kernels exactly as the composite definition does.
ember_status_t composite_fallback(const ember_kernel_call_t* c) {
    static const ember_kernel_t ref_max = ref_kernel("maximum"), ref_sig = ref_kernel("sigmoid"), ref_mul = ref_kernel("multiply");
    const ember_view_t& x = c->in[0];
    const ember_view_t& o = c->out[0];
    int64_t zeros[EMBER_MAX_DIMS] = {0};
    if (kdata(c)->code == U_RELU) {  // maximum(x, 0)
        alignas(16) unsigned char zero[16] = {0};  // 0 has all-zero bits in every dtype
        ember_view_t z{zero, 0, x.dtype, x.ndim, x.shape, zeros};
        ember_view_t in[2] = {x, z};
        ember_kernel_call_t call = *c;
        call.n_in = 2;
        call.in = in;
        return ref_max.fn(&call);
    }
    // silu: s = sigmoid(x), then out = x * s. s goes to out unless out is x itself (an
    // in-place call), which the first pass would overwrite before the second reads it.
    ember_kernel_call_t call = *c;
    std::vector<unsigned char> scratch;
    int64_t contiguous[EMBER_MAX_DIMS];
    ember_view_t s = o;
    if (x.data == o.data) {
        int64_t n = 1;
        for (int d = o.ndim - 1; d >= 0; --d) {
            contiguous[d] = n;
            n *= o.shape[d];
        }
        scratch.resize((size_t)n * itemsize_of(o.dtype));
        s = ember_view_t{scratch.data(), 0, o.dtype, o.ndim, o.shape, contiguous};
    }
    call.out = &s;
    ember_status_t st = ref_sig.fn(&call);
    if (st != EMBER_OK) return st;
    ember_view_t in[2] = {x, s};
    call.n_in = 2;
    call.in = in;
    call.out = c->out;
    return ref_mul.fn(&call);
}

ember_status_t unary_kernel(const ember_kernel_call_t* c) {
    const ember_view_t& x = c->in[0];
    const ember_view_t& o = c->out[0];
    const int code = kdata(c)->code;
    const bool composite = code == U_RELU || code == U_SILU;
    const ember_view_t* views[2] = {&o, &x};
    Geometry g;
    if (!make_geometry(views, 2, g)) return EMBER_OK;
    const int last = g.nd - 1;
    const int64_t inner = g.shape[last];
    const bool complex_in = x.dtype == EMBER_COMPLEX64 || x.dtype == EMBER_COMPLEX128;
    // conj of a real dtype is a copy, in the native copy's layouts (the reference copied it
    // element by element: 1e6 float16 1.6 ms, NumPy 0.25)
    if (code == U_CONJ && !complex_in && o.dtype == x.dtype) return copy_in_c_order(c, x, o);
    const bool complex_abs = code == U_ABS && complex_in;
    UnFn fn = o.dtype == x.dtype || complex_abs ? g_isa->un[code][x.dtype] : nullptr;
    if (code == U_SQUARE && complex_in && o.dtype == x.dtype) fn = x.dtype == EMBER_COMPLEX64 ? complex_square<float> : complex_square<double>;
    char *px = base_ptr(x), *po = base_ptr(o);
    // Half types through the float32 kernel, unless the ISA has one for the half type itself.
    if (!fn && unary_half_staged(c, g_isa->un[code][EMBER_FLOAT32])) return EMBER_OK;
    const size_t osz = itemsize_of(o.dtype);
    const int64_t threshold = !costly(code) && !complex_in ? kParallelCheap : x.dtype == EMBER_FLOAT64 ? kParallelCostly / 2 : kParallelCostly;
    if (fn && unary_vector_runs(g, px, itemsize_of(x.dtype), po, osz, fn, threshold,
                                stream_flag(g.size * (int64_t)osz, o, {&x})))
        return EMBER_OK;
    if (x.dtype == EMBER_FLOAT64 && o.dtype == EMBER_FLOAT64 && (inner == 1 || g.st[0][last] == 1)) {
        switch (code) {
            case U_EXP: f64_loop(g, px, po, [](double v) { return std::exp(v); }); return EMBER_OK;
            case U_LOG: f64_loop(g, px, po, [](double v) { return std::log(v); }); return EMBER_OK;
            case U_TANH: f64_loop(g, px, po, [](double v) { return std::tanh(v); }); return EMBER_OK;
            case U_SIGMOID: f64_loop(g, px, po, sigmoid_f64); return EMBER_OK;
            case U_SILU: f64_loop(g, px, po, [](double v) { return v * sigmoid_f64(v); }); return EMBER_OK;
            default: break;
        }
    }
    return composite ? composite_fallback(c) : reference_on_slices(c, kElementwise);
}

// ------------------------------------------------------------------ where
// out = cond ? a : b over broadcast views: only the element size matters.
template <class E>
void where_contiguous(const uint8_t* c, const E* a, const E* b, E* o, int64_t n) {
    for (int64_t i = 0; i < n; ++i) {
        const E x = a[i], y = b[i];
        o[i] = c[i] ? x : y;
    }
}
template <class E>
void where_runs(const Geometry& g, const char* pc, const char* pa, const char* pb, char* po, int stream) {
    // Short rows (a value read across memory: a transposed view) in blocks of rows; a walk
    // step per run of 3 took 15 ns.
    const char* const inputs[3] = {pc, pa, pb};
    const size_t sizes[3] = {1, sizeof(E), sizeof(E)};
    if (short_run_blocks<3>(g, inputs, sizes, po, sizeof(E), kParallelCheap, [](const char* const* p, char* out, int64_t n) {
            where_contiguous((const uint8_t*)p[0], (const E*)p[1], (const E*)p[2], (E*)out, n);
        }))
        return;
    parallel_range(g.size, kParallelCheap, 1 << 14, [&](int64_t begin, int64_t end) {
        walk_runs<4>(g, begin, end, [&](const int64_t* off, int64_t len) {
            const int last = g.nd - 1;
            const int64_t so = g.st[0][last], sc = g.st[1][last], sa = g.st[2][last], sb = g.st[3][last];
            E* o = (E*)po + off[0];
            const uint8_t* c = (const uint8_t*)pc + off[1];
            const E* a = (const E*)pa + off[2];
            const E* b = (const E*)pb + off[3];
            // Contiguous runs, either value maybe a scalar (a clamp, a fill): both values loaded
            // before the choice, so the compiler blends vectors instead of branching on c (a
            // branch per element on random conditions cost 2.3 ns each).
            if (so == 1 && sc == 1 && sa == 1 && sb == 1) {
                if (stream)
                    run_streamed_in_pieces([&](int64_t k, char* d, int64_t m) { where_contiguous(c + k, a + k, b + k, (E*)d, m); }, (char*)o,
                                           (int64_t)sizeof(E), len, g_isa->copy);
                else where_contiguous(c, a, b, o, len);
            } else if (so == 1 && sc == 1 && sa == 0 && sb == 1) {
                const E av = *a;
                for (int64_t i = 0; i < len; ++i) {
                    const E y = b[i];
                    o[i] = c[i] ? av : y;
                }
            } else if (so == 1 && sc == 1 && sa == 1 && sb == 0) {
                const E bv = *b;
                for (int64_t i = 0; i < len; ++i) {
                    const E x = a[i];
                    o[i] = c[i] ? x : bv;
                }
            } else {
                for (int64_t i = 0; i < len; ++i) o[i * so] = c[i * sc] ? a[i * sa] : b[i * sb];
            }
        });
        if (stream) store_fence();
    });
}
ember_status_t where_kernel(const ember_kernel_call_t* c) {
    const ember_view_t& cond = c->in[0];
    const ember_view_t& a = c->in[1];
    const ember_view_t& b = c->in[2];
    const ember_view_t& o = c->out[0];
    if (cond.dtype != EMBER_BOOL || a.dtype != o.dtype || b.dtype != o.dtype) return reference_on_slices(c, kElementwise);
    const ember_view_t* views[4] = {&o, &cond, &a, &b};
    Geometry g;
    if (!make_geometry(views, 4, g)) return EMBER_OK;
    const char *pc = base_ptr(cond), *pa = base_ptr(a), *pb = base_ptr(b);
    char* po = base_ptr(o);
    const int stream = stream_flag(g.size * (int64_t)itemsize_of(o.dtype), o, {&cond, &a, &b});
    switch (itemsize_of(o.dtype)) {
        case 1: where_runs<uint8_t>(g, pc, pa, pb, po, stream); break;
        case 2: where_runs<uint16_t>(g, pc, pa, pb, po, stream); break;
        case 4: where_runs<uint32_t>(g, pc, pa, pb, po, stream); break;
        case 8: where_runs<uint64_t>(g, pc, pa, pb, po, stream); break;
        default: where_runs<Bytes16>(g, pc, pa, pb, po, stream); break;
    }
    return EMBER_OK;
}

// ------------------------------------------------------------------ astype (copy, assign, cast)
int cvt_index(int32_t d) {
    switch (d) {
        case EMBER_FLOAT16: return C_F16;
        case EMBER_BFLOAT16: return C_BF16;
        case EMBER_FLOAT32: return C_F32;
        case EMBER_FLOAT64: return C_F64;
        default: return -1;
    }
}

// The vector conversion from one dtype to another, or null: between the float types, integer
// or bool to float32/float64, to bool, to an integer type.
CvtFn conversion(int32_t from, int32_t to) {
    const int ci = cvt_index(from), co = cvt_index(to);
    CvtFn cvt = ci >= 0 && co >= 0 ? g_isa->cvt[ci][co] : nullptr;
    if (ci < 0 && (to == EMBER_FLOAT32 || to == EMBER_FLOAT64)) cvt = g_isa->icvt[from][to == EMBER_FLOAT64];
    if (to == EMBER_BOOL) cvt = g_isa->tobool[from];
    if (!cvt) cvt = g_isa->toint[from][to];
    return cvt;
}

// dst[k] = the real part of complex src[k] (P: float or double), for k < n.
template <class P>
void real_parts(const void* src, void* dst, int64_t n) {
    const P* z = (const P*)src;
    P* out = (P*)dst;
    for (int64_t k = 0; k < n; ++k) out[k] = z[2 * k];
}

// dst[2k] = src[k], dst[2k + 1] = 0 for k < n: complex numbers of real parts (P: float or
// double). A float's complex is its bits zero-extended to 64 (one vector instruction per
// four; GCC's interleave of the two stores took twice as long).
template <class P>
void with_zero_imaginary(const void* src, void* dst, int64_t n) {
    if constexpr (sizeof(P) == 4) {
        const uint32_t* x = (const uint32_t*)src;
        uint64_t* out = (uint64_t*)dst;
        for (int64_t k = 0; k < n; ++k) out[k] = x[k];
    } else {
        const P* x = (const P*)src;
        P* out = (P*)dst;
        for (int64_t k = 0; k < n; ++k) {
            out[2 * k] = x[k];
            out[2 * k + 1] = P(0);
        }
    }
}

// astype of a real x to a complex o, contiguous runs of x (else the reference): as the
// reference, the value is taken to double, then to the part type (integers to complex64
// round twice, through float64), with a zero imaginary part.
ember_status_t real_to_complex(const ember_kernel_call_t* c, const Geometry& g, const char* px, char* po) {
    const ember_view_t& x = c->in[0];
    const ember_view_t& o = c->out[0];
    const int last = g.nd - 1;
    if (g.shape[last] > 1 && g.st[1][last] != 1) return reference_on_slices(c, kElementwise);
    const bool wide = o.dtype == EMBER_COMPLEX128;
    const int32_t part = wide ? EMBER_FLOAT64 : EMBER_FLOAT32;
    const size_t isz = itemsize_of(x.dtype), osz = itemsize_of(o.dtype);
    // Through double first where that rounds differently from a direct conversion: 64-bit
    // integers to complex64 (the others convert to double exactly).
    const bool twice = cvt_index(x.dtype) < 0 && isz == 8 && !wide;
    const CvtFn first = twice ? conversion(x.dtype, EMBER_FLOAT64) : x.dtype == part ? nullptr : conversion(x.dtype, part);
    const CvtFn second = twice ? conversion(EMBER_FLOAT64, EMBER_FLOAT32) : nullptr;
    if ((x.dtype != part && !first) || (twice && !second)) return reference_on_slices(c, kElementwise);
    auto convert_run = [&](const char* src, char* dst, int64_t len) {
        constexpr int64_t kPiece = 512;
        alignas(64) double buf[kPiece], buf2[kPiece];
        for (int64_t k = 0; k < len; k += kPiece) {
            const int64_t m = std::min(kPiece, len - k);
            const char* from = src + k * (int64_t)isz;
            const void* parts = from;
            if (first) first(from, buf, m), parts = buf;
            if (second) second(buf, buf2, m), parts = buf2;
            if (wide) with_zero_imaginary<double>(parts, dst + k * (int64_t)osz, m);
            else with_zero_imaginary<float>(parts, dst + k * (int64_t)osz, m);
        }
    };
    parallel_range(g.size, kParallelCheap, 1 << 14, [&](int64_t begin, int64_t end) {
        walk_runs<2>(g, begin, end, [&](const int64_t* off, int64_t len) { convert_run(px + off[1] * (int64_t)isz, po + off[0] * (int64_t)osz, len); });
    });
    return EMBER_OK;
}

template <class E>
void fill_with(char* dst, const char* value, int64_t n) {
    E v;
    std::memcpy(&v, value, sizeof v);
    std::fill_n((E*)dst, n, v);
}

// Rows [begin, end) of rows (the geometry without its last dim, of length inner and
// stride 0 in x): each row's value, converted by convert_one where given, stored inner times.
// K: inner as a constant (repeats of 2, 3, 4: stores the compiler unrolls), or 0.
template <class E, int K>
void fill_rows(const Geometry& rows, const char* px, size_t isz, char* po, int64_t inner, CvtFn convert_one, int64_t begin, int64_t end) {
    if constexpr (K != 0) inner = K;
    const int last = rows.nd - 1;
    const int64_t so = rows.st[0][last], sx = rows.st[1][last];
    walk_runs<2>(rows, begin, end, [&](const int64_t* off, int64_t len) {
        // x's packed run into one packed block: a loop the compiler vectorises (repeat(x, 2,
        // axis=1) of (1000, 1000) float32: 577-1197 -> 115 us, NumPy 689; int8 982 -> 16).
        if (K != 0 && !convert_one && sx == 1 && so == K) {
            const E* __restrict s = (const E*)px + off[1];
            E* __restrict d = (E*)po + off[0];
            for (int64_t i = 0; i < len; ++i)
                for (int j = 0; j < K; ++j) d[i * K + j] = s[i];
            return;
        }
        for (int64_t i = 0; i < len; ++i) {
            const char* src = px + (off[1] + i * sx) * (int64_t)isz;
            E v;
            if (convert_one) convert_one(src, &v, 1);
            else std::memcpy(&v, src, sizeof v);
            E* dst = (E*)po + off[0] + i * so;
            for (int64_t j = 0; j < inner; ++j) dst[j] = v;
        }
    });
}

// A copy whose input is transposed (unit stride down the output's columns, or down any
// outer dim: a tile of x.T broadcasts a dim between them): the register transpose
// (simd_transpose.hpp, simd_transpose_narrow.hpp) on bands of output rows across the pool.
// Gathering such an input into tiles (for_tiles) took 11 ms for a 2048 x 2048 float32
// matrix on the Zen 4 host of series 18; with a broadcast dim between, tile(x.T, 2) of a
// (1000, 1000) uint8 took 1.1 ms, 19x its copy.
// then: an elementwise op run in place on each band of kThenRows output rows right after its
// transpose, while the band is in L2. Through L1 tiles (the transpose into a tile, the op
// from the tile into the output) negative of a transposed (1000, 1000) float32 took 109 us
// on two Zen 5 cores, NumPy's 63-68 (it keeps the transposed layout); this way 77-79
// (uint8 25 -> 19, NumPy 18; int16 48 -> 35, NumPy 33). Bands of 32 rows halved the narrow
// transposes' 64-row passes (uint8 28).
constexpr int64_t kThenRows = 64;
bool transposed_copy(const Geometry& g, const char* px, char* po, size_t sz, const BandOp* then) {
    const int nd = g.nd;
    if (nd < 2 || (sz != 1 && sz != 2 && sz != 4 && sz != 8 && sz != 16)) return false;
    int down = nd - 2;  // the dim whose rows the transpose reads along x's unit stride
    while (down >= 0 && g.st[1][down] != 1) --down;
    if (down < 0) return false;
    const int64_t rows = g.shape[down], cols = g.shape[nd - 1], out_row = g.st[0][down], in_col = g.st[1][nd - 1];
    // Fewer rows than a register tile holds go element by element there, and a few long rows
    // would leave the pool idle: the tiles of for_tiles split those along the rows.
    if (rows < 32) return false;
    const TransposeFn transpose = sz <= 2 ? g_isa->transpose_narrow[sz - 1] : g_isa->transpose[sz == 4 ? 0 : sz == 8 ? 1 : 2];
    const bool stream = g.size * (int64_t)sz >= g_stream_bytes;
    const int64_t outer = g.size / std::max<int64_t>(1, rows * cols);
    parallel_range(outer * rows, g.size >= kParallelCheap ? 0 : INT64_MAX, 16, [&](int64_t begin, int64_t end) {
        for (int64_t r = begin, n; r < end; r += n) {
            const int64_t t = r / rows, i0 = r % rows;
            n = std::min(rows - i0, end - r);
            int64_t off[2] = {i0 * out_row, i0};
            for (int64_t o = t, d = nd - 2; d >= 0; --d) {  // the other dims, in C order
                if (d == down) continue;
                for (int k = 0; k < 2; ++k) off[k] += (o % g.shape[d]) * g.st[k][d];
                o /= g.shape[d];
            }
            // out(i0 + c, j) = x(i0 + c, j): x's columns are the transpose's source rows
            if (!then) {
                transpose(px + off[1] * (int64_t)sz, in_col, po + off[0] * (int64_t)sz, out_row, cols, n, stream);
                continue;
            }
            for (int64_t k = 0, m; k < n; k += m) {  // bands that the op then finds in L2
                m = std::min(kThenRows, n - k);
                char* band = po + (off[0] + k * out_row) * (int64_t)sz;
                transpose(px + (off[1] + k) * (int64_t)sz, in_col, band, out_row, cols, m, false);
                if (out_row == cols) (*then)(band, m * cols);
                else
                    for (int64_t i = 0; i < m; ++i) (*then)(band + i * out_row * (int64_t)sz, cols);
            }
        }
    });
    return true;
}

// A matrix of short contiguous rows copied into rows that are not packed (a concat's or
// pad's part of a wider result, roll's pieces), or a vector into a column, in one typed
// loop: a walk step and a copy call per run of 3 took 5 ns, and the reference copied the
// column. False for other geometries.
bool copy_short_rows(const Geometry& g, const char* px, char* po, size_t sz) {
    if (sz > 8) return false;
    const bool column = g.nd == 1 && g.st[0][0] != 1;
    if (!column && (g.nd != 2 || g.shape[1] >= kShortRun || g.st[0][1] != 1 || g.st[1][1] != 1)) return false;
    const int64_t rows = g.shape[0], inner = column ? 1 : g.shape[1], so = g.st[0][0], sx = g.st[1][0];
    auto run = [&](auto element) {
        using E = decltype(element);
        parallel_range(rows, g.size >= kParallelCheap * 2 ? 0 : INT64_MAX, std::max<int64_t>(1, 4096 / inner), [=](int64_t begin, int64_t end) {
            const E* __restrict s = (const E*)px + begin * sx;
            E* __restrict d = (E*)po + begin * so;
            for (int64_t r = begin; r < end; ++r, s += sx, d += so)
                for (int64_t j = 0; j < inner; ++j) d[j] = s[j];
        });
    };
    visit_bits(sz, run);
    return true;
}

ember_status_t astype_kernel(const ember_kernel_call_t* c);

}  // namespace

ember_status_t copy_in_c_order(const ember_kernel_call_t* c, const ember_view_t& x, const ember_view_t& dst) {
    static const KernelData astype{"astype", 0, ref_kernel("astype")};  // its delegate, not c's op's
    ember_kernel_call_t call = *c;
    call.kernel_data = &astype;
    call.n_in = call.n_out = 1;
    call.in = &x;
    call.out = &dst;
    return astype_kernel(&call);
}

namespace {

ember_status_t astype_kernel(const ember_kernel_call_t* c) {
    const ember_view_t& x = c->in[0];
    const ember_view_t& o = c->out[0];
    const ember_view_t* views[2] = {&o, &x};
    Geometry g;
    if (!make_geometry(views, 2, g)) return EMBER_OK;
    const int last = g.nd - 1;
    const int64_t inner = g.shape[last];
    const int64_t so = g.st[0][last], sx = g.st[1][last];
    const size_t isz = itemsize_of(x.dtype), osz = itemsize_of(o.dtype);
    char *px = base_ptr(x), *po = base_ptr(o);
    if (x.dtype == o.dtype && copy_short_rows(g, px, po, isz)) return EMBER_OK;
    if (inner > 1 && so != 1) return reference_on_slices(c, kElementwise);
    // Copies of wide elements go to the pool at the bytes of kParallelCheap float32s, not
    // at that many elements: a roll of a (1000, 1000) float64 by 500 copied its two halves
    // (500000 elements each) on one thread, 2.3x the time of a roll by 3. (The bound was
    // 2^19 float32s, twice the kParallelCheap of then, until the Intel host of series
    // 40-44, where one core copied 400000 float32s in 95-101 us and two in 20: fftshift of
    // (1000, 1000), four copies of 250000, 353 -> 154 us.)
    const int64_t copy_threshold = kParallelCheap * 4 / (int64_t)std::max<size_t>(4, isz);
    if (x.dtype == o.dtype && (inner == 1 || sx == 1)) {  // copy runs
        const char* const input[1] = {px};
        if (inner > 1 && short_run_blocks<1>(g, input, isz, po, osz, copy_threshold,
                                             [&](const char* const* p, char* out, int64_t n) { std::memcpy(out, p[0], (size_t)n * isz); }))
            return EMBER_OK;
        // Streamed runs (packed runs of 4 KiB or more, stream_flag) fenced once per task, not
        // per run: before stream_flag required such runs, rows of 128 floats into a padded
        // (8, 64, 130, 130) result took 16 ms with a fence after each (NumPy 17).
        const int stream = stream_flag(g.size * (int64_t)osz, o, {&x}), flags = stream && g.nd > 1 ? stream | kCallerFences : stream;
        parallel_range(g.size, copy_threshold, 1 << 15, [&](int64_t begin, int64_t end) {
            walk_runs<2>(g, begin, end, [&](const int64_t* off, int64_t len) {
                g_isa->copy(px + off[1] * (int64_t)isz, po + off[0] * (int64_t)osz, len * (int64_t)isz, flags);
            });
            if (flags & kCallerFences) store_fence();
        });
        return EMBER_OK;
    }
    const bool complex_in = x.dtype == EMBER_COMPLEX64 || x.dtype == EMBER_COMPLEX128;
    // A broadcast value (zeros, full, a weak scalar assigned): converted once per run where the
    // dtypes differ, then typed stores the compiler vectorises. Converting it element by
    // element in the reference made zeros of 1e5 float32 cost 33 us, 4x NumPy's full.
    const CvtFn convert_one = x.dtype == o.dtype || complex_in || sx != 0 ? nullptr : conversion(x.dtype, o.dtype);
    if (sx == 0 && (x.dtype == o.dtype || convert_one) && inner < 16 && g.nd >= 2 && osz <= 8) {
        // Short runs (repeat along the last axis broadcasts x[..., None] to (..., k)): one
        // walk over the rows. Walking the runs paid the walk's cost per run of 2 elements:
        // repeat(x, 2, axis=-1) of a (1024, 1024) float32 took 1.7 ms, NumPy 1.15.
        Geometry rows = g;
        rows.nd = g.nd - 1;
        rows.size = g.size / inner;
        parallel_range(rows.size, kParallelCheap * 2 / inner, 1 << 12, [&](int64_t begin, int64_t end) {
            auto fill = [&](auto element) {
                using E = decltype(element);
                switch (inner) {
                    case 2: return fill_rows<E, 2>(rows, px, isz, po, inner, convert_one, begin, end);
                    case 3: return fill_rows<E, 3>(rows, px, isz, po, inner, convert_one, begin, end);
                    case 4: return fill_rows<E, 4>(rows, px, isz, po, inner, convert_one, begin, end);
                    default: return fill_rows<E, 0>(rows, px, isz, po, inner, convert_one, begin, end);
                }
            };
            visit_bits(osz, fill);
        });
        return EMBER_OK;
    }
    // One value over the whole output (full, a scalar assigned) whose conversion has no ISA
    // loop (integer or bool -> float16, complex -> anything): converted once by the
    // reference's kernel, then filled. Converting it per element in the reference made
    // full((1000, 1000), 3, float16) take 0.7 ms, NumPy's 19 us.
    bool one_value = sx == 0;
    for (int d = 0; d < g.nd && one_value; ++d) one_value = g.st[1][d] == 0;
    alignas(16) char value[16];
    if (one_value && x.dtype != o.dtype && !convert_one) {
        static const ember_kernel_t ref_astype = ref_kernel("astype");
        ember_view_t in{(void*)px, 0, x.dtype, 0, nullptr, nullptr}, out{value, 0, o.dtype, 0, nullptr, nullptr};
        ember_kernel_call_t call = *c;
        call.n_in = call.n_out = 1;
        call.in = &in;
        call.out = &out;
        if (const ember_status_t st = ref_astype.fn(&call); st != EMBER_OK) return st;
    }
    if (sx == 0 && (x.dtype == o.dtype || convert_one || one_value)) {
        parallel_range(g.size, kParallelCheap * 2, 1 << 15, [&](int64_t begin, int64_t end) {
            walk_runs<2>(g, begin, end, [&](const int64_t* off, int64_t len) {
                char* dst = po + off[0] * (int64_t)osz;
                const char* src = px + off[1] * (int64_t)isz;
                alignas(16) char converted[16];
                if (convert_one) {
                    convert_one(src, converted, 1);
                    src = converted;
                } else if (x.dtype != o.dtype) {
                    src = value;
                }
                switch (osz) {
                    case 1: fill_with<uint8_t>(dst, src, len); break;
                    case 2: fill_with<uint16_t>(dst, src, len); break;
                    case 4: fill_with<uint32_t>(dst, src, len); break;
                    case 8: fill_with<uint64_t>(dst, src, len); break;
                    default: fill_with<Bytes16>(dst, src, len);
                }
            });
        });
        return EMBER_OK;
    }
    if (x.dtype == o.dtype && inner < kShortRun && g.nd == 2 && sx != 0 && std::abs(sx) < std::abs(g.st[1][0]) && so == 1) {
        // Short rows read along, stepped or reversed (an image's channel flip img[..., ::-1],
        // or such a view concatenated): blocks of rows gathered straight into the output rows.
        // Through a buffer and a copy, (1080, 1920, 3) uint8 took 1.1 ms, a gather per row
        // 3.9 (NumPy 10-11); a gather per row into rows apart made a concatenate of two
        // (300000, 7) float32 x[:, ::-1] 10 ms (NumPy 5-8).
        const int64_t rs = g.st[1][0], out_row = g.st[0][0], block_rows = std::max<int64_t>(1, kShortBlock / inner);
        parallel_range(g.shape[0], g.size >= copy_threshold ? 0 : INT64_MAX, block_rows, [&](int64_t begin, int64_t end) {
            gather_strided(px + begin * rs * (int64_t)isz, rs, sx, end - begin, inner, isz, out_row, po + begin * out_row * (int64_t)osz);
        });
        return EMBER_OK;
    }
    const bool rows_along = sx != 0 && g.nd > 2 && std::abs(sx) < std::abs(g.st[1][last - 1]);
    if (x.dtype == o.dtype && inner < kShortRun && (isz <= 2 || rows_along)) {
        // Short output rows read across a transposed input of bytes or halves (CHW -> HWC
        // images: 7.8 ms for (3, 1000, 1000) uint8 in tiles of a kernel call per row of 3),
        // or along, stepped or reversed, in more dims than a matrix's (a crop's channel flip
        // img[10:-10, 10:-10, ::-1]: a gather per row of 3 float32s, 25 ms; NumPy 19).
        const char* const input[1] = {px};
        if (short_run_blocks<1>(g, input, isz, po, osz, kParallelCheap * 2,
                                [&](const char* const* p, char* out, int64_t n) { std::memcpy(out, p[0], (size_t)n * isz); }))
            return EMBER_OK;
    }
    if (x.dtype == o.dtype && transposed_copy(g, px, po, isz)) return EMBER_OK;
    if (x.dtype == o.dtype && sx != 0 && std::abs(sx) <= 16) {
        // A stepped or reversed input (a flip): each run gathered straight into the output,
        // one pass. (Floats had no same-type conversion for the tiles, so the reference
        // copied them; integers went through a tile and a second copy.)
        parallel_range(g.size, copy_threshold, 1 << 14, [&](int64_t begin, int64_t end) {
            walk_runs<2>(g, begin, end, [&](const int64_t* off, int64_t len) {
                gather_strided(px + off[1] * (int64_t)isz, 0, sx, 1, len, isz, len, po + off[0] * (int64_t)osz);
            });
        });
        return EMBER_OK;
    }
    // One contiguous run of x converted into o. complex -> real: the real parts (the
    // reference converts them), gathered in L1 pieces, then the real part type's conversion.
    // real -> complex: the part type's conversion in L1 pieces, then interleaved with zero
    // imaginary parts (through the reference, float32 -> complex64 took 1.4x NumPy's time).
    const bool real_out = o.dtype != EMBER_BOOL && o.dtype != EMBER_COMPLEX64 && o.dtype != EMBER_COMPLEX128;
    const bool complex_out = o.dtype == EMBER_COMPLEX64 || o.dtype == EMBER_COMPLEX128;
    if (complex_out && !complex_in) return real_to_complex(c, g, px, po);
    // Conversions without an ISA loop of their own go through a middle type in L1 pieces:
    // float16/bfloat16 -> integer or bool through float32 (exact), integer or bool ->
    // float16/bfloat16 through float32 from 8- and 16-bit integers and through float64 from
    // wider ones (exact, or the reference's own rounding of a 64-bit integer to double
    // first), each then rounded once. The reference converted them one by one: 1e6 float16
    // -> int8 took 0.76 ms (now 0.05), int8 -> float16 0.75 (now 0.03); NumPy 1.1 and 1.9.
    const bool wide = x.dtype == EMBER_COMPLEX128;
    const int32_t part = wide ? EMBER_FLOAT64 : EMBER_FLOAT32;
    const bool half_in = x.dtype == EMBER_FLOAT16 || x.dtype == EMBER_BFLOAT16, half_out = o.dtype == EMBER_FLOAT16 || o.dtype == EMBER_BFLOAT16;
    const int32_t middle = complex_in && real_out          ? part
                           : half_in && cvt_index(o.dtype) < 0 && !complex_out ? EMBER_FLOAT32
                           : half_out && cvt_index(x.dtype) < 0 && !complex_in ? (isz <= 2 ? EMBER_FLOAT32 : EMBER_FLOAT64)
                                                                               : -1;
    const CvtFn first = middle >= 0 && !complex_in ? conversion(x.dtype, middle) : nullptr;
    const CvtFn cvt = middle < 0 ? conversion(x.dtype, o.dtype) : o.dtype == middle ? nullptr : conversion(middle, o.dtype);
    if (middle >= 0 && !complex_in && !first) return reference_on_slices(c, kElementwise);
    if (!cvt && !(middle >= 0 && o.dtype == middle)) return reference_on_slices(c, kElementwise);
    auto convert_run = [&](const char* src, char* dst, int64_t len) {
        if (middle < 0) return cvt(src, dst, len);
        constexpr int64_t kPiece = 512;
        alignas(64) double buf[kPiece];
        for (int64_t k = 0; k < len; k += kPiece) {
            const int64_t m = std::min(kPiece, len - k);
            void* parts = cvt ? (void*)buf : (void*)(dst + k * (int64_t)osz);
            if (first) first(src + k * (int64_t)isz, parts, m);
            else if (wide) real_parts<double>(src + k * (int64_t)isz, parts, m);
            else real_parts<float>(src + k * (int64_t)isz, parts, m);
            if (cvt) cvt(buf, dst + k * (int64_t)osz, m);
        }
    };
    // An output of 8-byte elements and g_stream_bytes or more: streamed (streamed_pieces.hpp).
    const int stream = osz == 8 ? stream_flag(g.size * (int64_t)osz, o, {&x}) : 0;
    if (inner == 1 || sx == 1) {
        const char* const input[1] = {px};
        if (inner > 1 && short_run_blocks<1>(g, input, isz, po, osz, kParallelCheap,
                                             [&](const char* const* p, char* out, int64_t n) { convert_run(p[0], out, n); }))
            return EMBER_OK;
        parallel_range(g.size, kParallelCheap, 1 << 14, [&](int64_t begin, int64_t end) {
            walk_runs<2>(g, begin, end, [&](const int64_t* off, int64_t len) {
                const char* src = px + off[1] * (int64_t)isz;
                char* dst = po + off[0] * (int64_t)osz;
                if (stream) run_streamed_in_pieces([&](int64_t k, char* d, int64_t m) { convert_run(src + k * (int64_t)isz, d, m); }, dst, (int64_t)osz, len, g_isa->copy);
                else convert_run(src, dst, len);
            });
            if (stream) store_fence();
        });
        return EMBER_OK;
    }
    if (sx != 0 && isz <= 8) {  // a transposed or stepped input, gathered into tiles (not a broadcast one)
        const char* const input[1] = {px};
        if (short_run_blocks<1>(g, input, isz, po, osz, kParallelCheap,
                                [&](const char* const* p, char* out, int64_t n) { convert_run(p[0], out, n); }))
            return EMBER_OK;
        char* const base[2] = {po, px};
        const size_t sizes[2] = {osz, isz};
        for_tiles<2>(g, base, sizes, kParallelCheap, [&](const char* const* p, int64_t n) { convert_run(p[1], (char*)p[0], n); });
        return EMBER_OK;
    }
    return reference_on_slices(c, kElementwise);
}

}  // namespace

void add_elementwise_kernels(std::vector<NativeKernel>& k) {
    k.push_back({"add", binary_kernel, B_ADD, false});
    k.push_back({"subtract", binary_kernel, B_SUB, false});
    k.push_back({"multiply", binary_kernel, B_MUL, false});
    k.push_back({"divide", binary_kernel, B_DIV, false});
    k.push_back({"maximum", binary_kernel, B_MAX, false});
    k.push_back({"minimum", binary_kernel, B_MIN, false});
    k.push_back({"equal", binary_kernel, B_EQ, false});
    k.push_back({"not_equal", binary_kernel, B_NE, false});
    k.push_back({"less", binary_kernel, B_LT, false});
    k.push_back({"less_equal", binary_kernel, B_LE, false});
    k.push_back({"greater", binary_kernel, B_GT, false});
    k.push_back({"greater_equal", binary_kernel, B_GE, false});
    k.push_back({"bitwise_and", binary_kernel, B_AND, false});
    k.push_back({"bitwise_or", binary_kernel, B_OR, false});
    k.push_back({"bitwise_xor", binary_kernel, B_XOR, false});
    k.push_back({"bitwise_left_shift", binary_kernel, B_SHL, false});
    k.push_back({"bitwise_right_shift", binary_kernel, B_SHR, false});
    k.push_back({"floor_divide", binary_kernel, B_FLOORDIV, false});  // integers and floats (half staged through float32)
    k.push_back({"remainder", binary_kernel, B_REM, false});
    k.push_back({"copysign", binary_kernel, B_COPYSIGN, false});
    k.push_back({"logaddexp", binary_kernel, B_LOGADDEXP, false});  // float32 (half staged) and float64
    k.push_back({"logical_and", binary_kernel, B_AND, false});
    k.push_back({"logical_or", binary_kernel, B_OR, false});
    k.push_back({"logical_xor", binary_kernel, B_XOR, false});
    k.push_back({"bitwise_invert", unary_kernel, U_NOT, false});
    k.push_back({"logical_not", unary_kernel, U_NOT, false});
    k.push_back({"sign", unary_kernel, U_SIGN, false});
    k.push_back({"conj", unary_kernel, U_CONJ, false});
    k.push_back({"negative", unary_kernel, U_NEG, false});
    k.push_back({"abs", unary_kernel, U_ABS, false});
    k.push_back({"square", unary_kernel, U_SQUARE, false});
    k.push_back({"sqrt", unary_kernel, U_SQRT, false});
    k.push_back({"reciprocal", unary_kernel, U_RECIP, false});
    k.push_back({"exp", unary_kernel, U_EXP, false});
    k.push_back({"log", unary_kernel, U_LOG, false});
    k.push_back({"tanh", unary_kernel, U_TANH, false});
    k.push_back({"sigmoid", unary_kernel, U_SIGMOID, false});
    k.push_back({"relu", unary_kernel, U_RELU, true});
    k.push_back({"silu", unary_kernel, U_SILU, true});
    k.push_back({"astype", astype_kernel, 0, false});
    k.push_back({"where", where_kernel, 0, false});
}

}  // namespace ember_cpu
