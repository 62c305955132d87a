// matmul through CBLAS: float32/float64/complex64/complex128 directly, float16/bfloat16
// through float32 (converted once, one SGEMM, rounded once); integers by a blocked loop of
// our own (wrap-around, as the reference); bool by the reference.
//
// A strided operand is handed to BLAS as it is whenever BLAS can express it: row-major
// with a leading dimension (unit column stride) or transposed (unit row stride). Only
// views BLAS cannot describe (negative, zero or two non-unit strides) are packed first.
// Real products of at most 32^3 multiply-adds (64^3 where OpenBLAS has no small-matrix
// kernels), and complex ones of at most 64^3, skip BLAS for our own kernel (small_batch).
// Batch dims (already broadcast by the core) loop over GEMM calls, split across the pool
// where OpenBLAS runs each call on one thread; a product with few columns and a short inner
// dimension (n * k <= 4096, real dtypes) is cut into row blocks that OpenBLAS keeps on one
// thread, for the pool, and one with few outputs and a long inner dimension into partial
// products over pieces of k. When b is shared by the whole batch and a's batch rows are
// evenly spaced, the batch folds into one tall product where that pays. A tall A by a B of
// at most 4 x 4 (points times a rotation) is one loop with B in registers (tiny_b_product).
#include <cblas.h>
#include <strings.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <complex>
#include <cstring>
#include <new>
#include <optional>
#include <type_traits>
#include <vector>

#include "cpu_common.hpp"

namespace ember_cpu {
namespace {

struct Mat {
    const char* p;  // first element
    CBLAS_TRANSPOSE tr;
    int64_t ld;
};

// rows x cols with element strides rs, cs: can BLAS take it as it is?
bool blas_layout(int64_t rows, int64_t cols, int64_t rs, int64_t cs, CBLAS_TRANSPOSE& tr, int64_t& ld) {
    tr = CblasNoTrans;
    if (rows == 1 && cols == 1) {
        ld = 1;
        return true;
    }
    if (rows == 1) {  // a row: unit stride is row-major, any other positive stride transposed
        if (cs <= 0) return false;
        if (cs == 1) {
            ld = cols;
        } else {
            tr = CblasTrans;
            ld = cs;
        }
        return ld <= INT_MAX;
    }
    if (cols == 1) {  // a column: row-major with leading dimension rs
        ld = rs;
        return rs > 0 && rs <= INT_MAX;
    }
    if (cs == 1 && rs >= cols && rs <= INT_MAX) {
        ld = rs;
        return true;
    }
    if (rs == 1 && cs >= rows && cs <= INT_MAX) {
        tr = CblasTrans;
        ld = cs;
        return true;
    }
    return false;
}

// Packs a strided rows x cols matrix into a contiguous row-major buffer (in registers for a
// transposed one: element by element through memcpy, a batch of 64 stepped (32, 32) float32
// products spent 84 of its 100 us packing B), large ones in blocks of rows on the pool.
void pack(const char* src, int64_t rows, int64_t cols, int64_t rs, int64_t cs, size_t sz, char* dst) {
    const int64_t isz = (int64_t)sz;
    parallel_range(rows, rows * cols >= kParallelCheap ? 0 : INT64_MAX, std::max<int64_t>(1, 4096 / std::max<int64_t>(cols, 1)), [&](int64_t begin, int64_t end) {
        gather_strided(src + begin * rs * isz, rs, cs, end - begin, cols, sz, cols, dst + begin * cols * isz);
    });
}

// The matrix's storage for own_gemv: an index of IsaTable::row_dots. Integers as wrapping
// unsigned sums; kGemvU8, 8-bit ones, in uint16 sums.
enum GemvMatrix { kGemvF32, kGemvF64, kGemvF16, kGemvBF16, kGemvU16, kGemvU32, kGemvU64, kGemvU8 };
// Bytes of an element of M, and of v and y: float32 v and y for a half-type M.
constexpr int64_t kGemvMatrixBytes[] = {4, 8, 2, 2, 2, 4, 8, 1};
constexpr int64_t kGemvVectorBytes[] = {4, 8, 4, 4, 2, 4, 8, 2};

// A matrix-vector product in our kernels (simd_gemv.hpp): M is rows x cols with rows ld
// elements apart; dots: y[i * incy] = M[i, :] . v for i < rows, else y[j * incy] =
// sum_i v[i] M[i, j] for j < cols; v's elements inc apart. On the pool from kParallelCheap
// elements of M, rows (or columns) split: each output element is one thread's, so the
// result does not depend on the thread count.
void own_gemv(GemvMatrix kind, bool dots, const char* M, int64_t ld, int64_t rows, int64_t cols, const char* v, int64_t inc, char* y,
              int64_t incy) {
    const int64_t msz = kGemvMatrixBytes[kind], sz = kGemvVectorBytes[kind];
    const int64_t vlen = dots ? cols : rows, ylen = dots ? rows : cols;
    // The kernels read a contiguous v for dots and write a contiguous y for combinations.
    // Scratch (the caching allocator) so that a row of such products pays no allocation.
    std::optional<Scratch<char>> v_copy, y_copy;
    if (dots && inc != 1) {
        v_copy.emplace(vlen * sz);
        gather_strided(v, 0, inc, 1, vlen, (size_t)sz, vlen, v_copy->data);
        v = v_copy->data;
    }
    char* yk = y;
    if (!dots && incy != 1) {
        y_copy.emplace(ylen * sz);
        yk = y_copy->data;
    }
    // One part per thread, in blocks of 4 rows of M or 64-byte lines of y: the same calls
    // in a row of products then find their part of M in their own core's L2 more often.
    const int64_t parts = rows * cols >= kParallelCheap ? num_threads() : 1;
    const int64_t split = dots ? rows : cols, unit = dots ? 4 : 16;
    const int64_t step = ((split + parts - 1) / parts + unit - 1) / unit * unit;
    const RowDotsFn dot_kernel = g_isa->row_dots[kind];
    const RowCombinationFn combination_kernel = g_isa->row_combination[kind];
    parallel_tasks(parts, [&](int64_t t) {
        const int64_t b = std::min(split, t * step), e = std::min(split, b + step);
        if (dots) dot_kernel(M + b * ld * msz, ld, v, y + b * incy * sz, incy, e - b, cols);
        else combination_kernel(M, ld, v, inc, yk, b, e, rows);
    });
    if (yk != y)
        for (int64_t j = 0; j < ylen; ++j) std::memcpy(y + j * incy * sz, yk + j * sz, (size_t)sz);
}

// A product with one output row or column is a matrix-vector product (or a dot product):
// GEMM's blocking costs more than the product itself there (a 1e6-long dot took 2x the
// reference loop through SGEMM). float32/float64 only.
bool gemv_or_dot(int32_t dt, const Mat& A, const Mat& B, char* C, int64_t ldc, int64_t m, int64_t n, int64_t k) {
    if ((m != 1 && n != 1) || (dt != EMBER_FLOAT32 && dt != EMBER_FLOAT64)) return false;
    const bool f32 = dt == EMBER_FLOAT32;
    const int a_inc = A.tr == CblasNoTrans ? 1 : (int)A.ld;  // along A's row when m == 1
    const int b_inc = B.tr == CblasNoTrans ? (int)B.ld : 1;  // down B's column when n == 1
    if (m == 1 && n == 1) {
        // A long dot is cut into a fixed number of parts (so the result does not depend on
        // the thread count) for the pool, summed in order. OpenBLAS 0.3.21 runs SDOT on one
        // thread but DDOT on its own threads above 10000 elements: called from our workers
        // that nests two pools on the same cores, and a 1e6 norm took 0.05 or 4 ms by
        // chance. So each part calls DOT on pieces short enough to stay on its thread.
        // From 2^15 elements two parts: each core then keeps its half of the operands in
        // its own L2 from one call to the next (the pool's caller always takes part 0). A
        // float64 dot of 2e5 read all 3.2 MB from L3 on one thread: 98 us, NumPy's 18;
        // now 16-20 (1e5: 18 -> 7-13, NumPy 10; Intel host of series 40).
        const int64_t parts = k >= (int64_t(1) << 18) ? 8 : k >= (int64_t(1) << 15) ? 2 : 1;
        constexpr int64_t kDotPiece = 8192;
        double part[8];
        const size_t sz = f32 ? 4 : 8;
        parallel_tasks(parts, [&](int64_t t) {
            const int64_t b = t * k / parts, e = (t + 1) * k / parts;
            double s = 0;
            for (int64_t i = b; i < e; i += kDotPiece) {
                const int len = (int)std::min(kDotPiece, e - i);
                const char* a = (const char*)A.p + i * a_inc * (int64_t)sz;
                const char* x = (const char*)B.p + i * b_inc * (int64_t)sz;
                s += f32 ? (double)cblas_sdot(len, (const float*)a, a_inc, (const float*)x, b_inc)
                         : cblas_ddot(len, (const double*)a, a_inc, (const double*)x, b_inc);
            }
            part[t] = s;
        });
        double sum = 0;
        for (int64_t t = 0; t < parts; ++t) sum += part[t];
        if (f32) *(float*)C = (float)sum;
        else *(double*)C = sum;
        return true;
    }
    const GemvMatrix kind = f32 ? kGemvF32 : kGemvF64;
    if (n == 1) {  // C (m x 1, rows ldc apart) = op(A) b: A's rows (or columns) against b
        if (A.tr == CblasNoTrans) own_gemv(kind, true, A.p, A.ld, m, k, B.p, b_inc, C, ldc);
        else own_gemv(kind, false, A.p, A.ld, k, m, B.p, b_inc, C, ldc);
        return true;
    }
    // m == 1: C (1 x n) = a op(B)
    if (B.tr == CblasNoTrans) own_gemv(kind, false, B.p, B.ld, k, n, A.p, a_inc, C, 1);
    else own_gemv(kind, true, B.p, B.ld, n, k, A.p, a_inc, C, 1);
    return true;
}

// A complex product with one output row or column as GEMV, as NumPy runs it: OpenBLAS
// 0.3.21 took a CGEMM with n = 1 on one thread at a quarter of GEMV's speed ((1000, 1000) @
// (1000,) complex64: 343 us, NumPy's CGEMV 75). k >= 1: a GEMV with no columns leaves y as
// it was, where GEMM zeroes it.
void complex_gemv(int32_t dt, const Mat& A, const Mat& B, char* C, int64_t ldc, int64_t m, int64_t n, int64_t k) {
    // y = op(M) x, M stored rows x cols row-major with rows ld apart (any ld for one row)
    auto gemv = [&](CBLAS_TRANSPOSE tr, int64_t rows, int64_t cols, const char* M, int64_t ld, const char* x, int64_t incx, char* y, int64_t incy) {
        const int lda = (int)std::max<int64_t>({ld, cols, 1}), ix = (int)std::max<int64_t>(incx, 1), iy = (int)std::max<int64_t>(incy, 1);
        if (dt == EMBER_COMPLEX64) {
            const float one[2] = {1, 0}, zero[2] = {0, 0};
            cblas_cgemv(CblasRowMajor, tr, (int)rows, (int)cols, one, M, lda, x, ix, zero, y, iy);
        } else {
            const double one[2] = {1, 0}, zero[2] = {0, 0};
            cblas_zgemv(CblasRowMajor, tr, (int)rows, (int)cols, one, M, lda, x, ix, zero, y, iy);
        }
    };
    if (n == 1) {  // C (m x 1, rows ldc apart) = op(A) b
        const int64_t inc_b = B.tr == CblasNoTrans ? B.ld : 1;
        if (A.tr == CblasNoTrans) gemv(CblasNoTrans, m, k, A.p, A.ld, B.p, inc_b, C, ldc);
        else gemv(CblasTrans, k, m, A.p, A.ld, B.p, inc_b, C, ldc);
    } else {  // m == 1: C (1 x n) = a op(B), computed as op(B)^T a
        const int64_t inc_a = A.tr == CblasNoTrans ? 1 : A.ld;
        if (B.tr == CblasNoTrans) gemv(CblasTrans, k, n, B.p, B.ld, A.p, inc_a, C, 1);
        else gemv(CblasNoTrans, n, k, B.p, B.ld, A.p, inc_a, C, 1);
    }
}

// C = op(A) op(B), or C += op(A) op(B) with accumulate (float32 and float64 only).
void gemm(int32_t dt, const Mat& A, const Mat& B, char* C, int64_t ldc, int64_t m, int64_t n, int64_t k, bool accumulate = false) {
    if (!accumulate && gemv_or_dot(dt, A, B, C, ldc, m, n, k)) return;
    if ((dt == EMBER_COMPLEX64 || dt == EMBER_COMPLEX128) && (m == 1 || n == 1) && k >= 1) return complex_gemv(dt, A, B, C, ldc, m, n, k);
    switch (dt) {
        case EMBER_FLOAT32:
            cblas_sgemm(CblasRowMajor, A.tr, B.tr, (int)m, (int)n, (int)k, 1.0f, (const float*)A.p, (int)A.ld, (const float*)B.p, (int)B.ld,
                        accumulate ? 1.0f : 0.0f, (float*)C, (int)ldc);
            break;
        case EMBER_FLOAT64:
            cblas_dgemm(CblasRowMajor, A.tr, B.tr, (int)m, (int)n, (int)k, 1.0, (const double*)A.p, (int)A.ld, (const double*)B.p,
                        (int)B.ld, accumulate ? 1.0 : 0.0, (double*)C, (int)ldc);
            break;
        case EMBER_COMPLEX64: {
            const float one[2] = {1, 0}, zero[2] = {0, 0};
            cblas_cgemm(CblasRowMajor, A.tr, B.tr, (int)m, (int)n, (int)k, one, A.p, (int)A.ld, B.p, (int)B.ld, zero, C, (int)ldc);
            break;
        }
        default: {
            const double one[2] = {1, 0}, zero[2] = {0, 0};
            cblas_zgemm(CblasRowMajor, A.tr, B.tr, (int)m, (int)n, (int)k, one, A.p, (int)A.ld, B.p, (int)B.ld, zero, C, (int)ldc);
            break;
        }
    }
}

// An operand's matrix for one batch element: as it is, or packed into `scratch`.
Mat operand(const char* p, int64_t rows, int64_t cols, int64_t rs, int64_t cs, size_t sz, GrowingScratch& scratch) {
    Mat M{p, CblasNoTrans, 0};
    if (blas_layout(rows, cols, rs, cs, M.tr, M.ld)) return M;
    char* packed = scratch.reserve((size_t)(rows * cols) * sz);
    pack(p, rows, cols, rs, cs, sz, packed);
    return Mat{packed, CblasNoTrans, cols};
}

// Offsets of batch elements (C order over the batch dims) in a, b and out, stepped from one
// element to the next: the divisions of a fresh seek cost more than a 3 x 3 product.
class BatchWalk {
  public:
    BatchWalk(int nb, const ember_view_t& a, const ember_view_t& b, const ember_view_t& o) {
        for (int d = 0; d < nb; ++d) dims_.add_dim(o.shape[d], {a.strides[d], b.strides[d], o.strides[d]});
        cursor_ = dims_.cursor();
    }
    BatchWalk(const BatchWalk&) = delete;
    // The offsets of batch element i: off[0] in a, off[1] in b, off[2] in out.
    const int64_t* at(int64_t i) { return cursor_.to(i); }

  private:
    StridedWalk<3> dims_;
    StridedWalk<3>::Cursor cursor_;
};

// OpenBLAS runs a GEMM of m*n*k <= 64^3 (its SMP_THRESHOLD_MIN * GEMM_MULTITHREAD_THRESHOLD)
// and a GEMV of fewer than 9216 elements on the calling thread, and every call there when
// it has one thread.
constexpr int64_t kBlasAloneWork = 262144;

// Rows of op(A) per GEMM call. A product with n * k <= 4096 goes in blocks of at least 64
// rows that OpenBLAS keeps on the calling thread, and the pool runs the blocks: OpenBLAS
// 0.3.21's own threads gain nothing on such shapes (float32 16384 x 64 @ 64 x 64: 0.87-1.1
// ms on 2 threads, 0.86-0.90 on one; in blocks of 64 rows on 2 threads 0.48-0.52 ms;
// 100000 x 64 @ 64 x 64 6.2 against 3.0 ms; 65536 x 16 @ 16 x 16 0.75 against 0.26). Wider
// products keep whole calls (blocks of 16 rows at n * k = 16384 only matched OpenBLAS), and
// so do complex ones, which OpenBLAS threads well (complex64 16384 x 32 @ 32 x 32: 0.72 ms
// whole, 1.07 in blocks).
int64_t rows_per_call(int32_t dt, int64_t m, int64_t n, int64_t k) {
    if ((dt != EMBER_FLOAT32 && dt != EMBER_FLOAT64) || m <= 1 || n <= 1 || m * n * k <= kBlasAloneWork) return m;
    const int64_t rows = kBlasAloneWork / (n * k);
    return rows >= 64 ? rows : m;
}

// Pieces of the inner dimension of a split product (below): a fixed count, so that the
// order of the partial sums, and the result, do not depend on the thread count.
constexpr int64_t kInnerParts = 8;

// Inner-dimension length per GEMM call for a real product with few outputs (m * n <= 4096)
// and a long inner dimension (at least 16 chunks), X^T Y of tall X and Y (X^T X of a tall X
// runs as SYRK in pieces, gram_pieces):
// chunks of at least 64 that OpenBLAS keeps on the calling thread; 0 where the product is
// not split. OpenBLAS threads such a product over m and n, which are short: float32 64 x
// 100000 @ 100000 x 64 took 7.1 ms on its 2 threads, 8.9 on one; in chunks of 64 over 2
// threads 3.8-4.0 ms; 16 x 1e6 @ 1e6 x 16 22 against 5.9 (C timing program, raw
// cblas_sgemm). Shorter chunks or fewer of them lose to one GEMM call (Zen 3, 2 threads,
// m = n, against raw cblas_sgemm/dgemm): chunks of 16 (m = n = 128) took 1.5-2.7x its time
// at every k from 64 to 50000, the square 96^3 to 128^3 products included; chunks of 64
// (m = n = 64) 1.4-1.6x at k = 128 to 512, 0.75-0.9x from k = 1024 on.
int64_t inner_chunk(int32_t dt, int64_t m, int64_t n, int64_t k) {
    if ((dt != EMBER_FLOAT32 && dt != EMBER_FLOAT64) || m <= 1 || n <= 1 || m * n * k <= kBlasAloneWork) return 0;
    const int64_t chunk = kBlasAloneWork / (m * n);
    return chunk >= 64 && k >= 16 * chunk ? chunk : 0;
}

// Whether the batch folds into M, one (batch * m) x k product: b shared (stride 0 over
// every batch axis longer than 1), a (with unit column stride) and out batch-contiguous over
// their rows, and the folded product either runs in row blocks (row_blocks: the caller
// splits it by rows_per_call) or is large. A folded product that OpenBLAS threads whole
// loses to the per-matrix products where B is tiny or the whole product small (float32 on
// the Intel host with OpenBLAS's threads: (1024, 16, 16) @ (16, 16) 0.18 folded against
// 0.10 ms, (64, 64, 64) @ (64, 64) 0.20 against 0.17; (256, 16, 128) @ (128, 128) 0.52
// against 0.69, (1024, 16, 512) @ (512, 512) 27 against 58).
bool batch_folds_into_m(const ember_view_t& a, const ember_view_t& b, const ember_view_t& o, int64_t batch, bool row_blocks) {
    const int nd = o.ndim, nb = nd - 2;
    const int64_t m = o.shape[nd - 2], n = o.shape[nd - 1], k = a.shape[nd - 1], ars = a.strides[nd - 2], ldc = o.strides[nd - 2];
    if (batch <= 1 || a.strides[nd - 1] != 1 || m <= 0) return false;
    const bool blocked = row_blocks && rows_per_call(a.dtype, batch * m, n, k) < batch * m;
    if (!blocked && (k * n <= 1024 || (double)batch * m * k * n < (double)(1 << 25))) return false;
    int64_t expect_a = ars * m, expect_o = ldc * m;
    for (int d = nb - 1; d >= 0; --d) {
        if (o.shape[d] == 1) continue;
        if (b.strides[d] != 0 || a.strides[d] != expect_a || o.strides[d] != expect_o) return false;
        expect_a *= o.shape[d];
        expect_o *= o.shape[d];
    }
    return batch * m <= INT_MAX && ars >= k && ars <= INT_MAX;
}

// How many pieces of the pool `calls` GEMM calls (of `rows` rows each, for a batch of m x k
// @ k x n products) run in: one unless OpenBLAS keeps every call on the calling thread, so
// that the pool never competes with OpenBLAS's threads. Each product is computed as one
// call or in the same row blocks whatever the thread count, so results do not depend on it.
int64_t pool_pieces(int64_t calls, int64_t batch, int64_t m, int64_t n, int64_t k, int64_t rows) {
    const int nt = num_threads();
    if (calls < 2 || nt <= 1) return 1;
    const bool blas_alone = (m == 1 || n == 1) ? k * std::max(m, n) < 9216 : rows * n * k <= kBlasAloneWork;
    if (!blas_alone && openblas_get_num_threads() > 1) return 1;
    // A call costs ~0.1 us plus ~1 ns per 16 MACs here, and waking a sleeping pool ~10 us:
    // the pool takes from ~16 us of work (170 products of 16 x 16 x 16).
    const double work = (double)batch * (double)m * (double)n * (double)k + 2048.0 * (double)calls;
    if (work < (double)(1 << 20)) return 1;
    return std::min<int64_t>(calls, nt);
}

// Runs body(begin, end) on `chunks` even pieces of [0, batch) across the pool. Packing
// scratch is allocated inside the pieces: an allocation failure in a worker is carried
// back and rethrown on the calling thread, where the core reports it as out of memory (an
// exception leaving a pool worker would end the process).
template <class F>
void batch_pieces(int64_t batch, int64_t chunks, F&& body) {
    std::atomic<bool> out_of_memory{false};
    parallel_tasks(chunks, [&](int64_t t) {
        try {
            body(t * batch / chunks, (t + 1) * batch / chunks);
        } catch (const std::bad_alloc&) {
            out_of_memory = true;
        }
    });
    if (out_of_memory) throw std::bad_alloc();
}

// C = op(A) op(B) (m x n, float32 or float64) in kInnerParts partial products over pieces
// of the inner dimension, each a run of `chunk`-long GEMM calls accumulating into its own
// m x n buffer, across the pool; the parts are then summed in order.
template <class T>
void gemm_split_inner(const Mat& A, const Mat& B, T* C, int64_t ldc, int64_t m, int64_t n, int64_t k, int64_t chunk) {
    const int64_t chunks = (k + chunk - 1) / chunk, parts = std::min(kInnerParts, chunks), mn = m * n;
    Scratch<T> partial(parts * mn);
    const int32_t dt = std::is_same_v<T, float> ? EMBER_FLOAT32 : EMBER_FLOAT64;
    parallel_tasks(parts, [&](int64_t p) {
        T* out = partial.data + p * mn;
        const int64_t first = p * chunks / parts, last = (p + 1) * chunks / parts;
        for (int64_t c = first; c < last; ++c) {
            const int64_t k0 = c * chunk, len = std::min(chunk, k - k0);
            const Mat a_cols{A.p + (A.tr == CblasNoTrans ? k0 : k0 * A.ld) * (int64_t)sizeof(T), A.tr, A.ld};
            const Mat b_rows{B.p + (B.tr == CblasNoTrans ? k0 * B.ld : k0) * (int64_t)sizeof(T), B.tr, B.ld};
            gemm(dt, a_cols, b_rows, (char*)out, n, m, n, len, c > first);
        }
    });
    for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) {
            T sum = partial.data[i * n + j];
            for (int64_t p = 1; p < parts; ++p) sum += partial.data[p * mn + i * n + j];
            C[i * ldc + j] = sum;
        }
}

// Products small enough that a BLAS call's own cost dominates run in our kernel
// (simd_small_gemm.hpp): at most small_work_limit() multiply-adds, with few enough of them
// in the columns outside 16-byte vectors (n % (16 / itemsize) columns, a scalar loop) that
// this loop costs no more than a call, a B of at most kSmallB elements (our kernel reads
// B in strips of columns: a product of one row with a 512 x 512 B took 58 ms per 1000
// against GEMV's 42; at 128 x 256 it took 2.8-3.2 against 4.7-4.8), and a B to pack
// (columns not contiguous) of at most kSmallPack elements. Real dot products stay with BLAS
// (its DOT takes no lock); complex ones would be a GEMM call each.
constexpr int64_t kSmallScalarWork = 256;
constexpr int64_t kSmallB = 32768;
constexpr int64_t kSmallPack = 4096;

// 32^3 where OpenBLAS's core has small-matrix kernels (its AVX-512 cores in 0.3.21): ours
// is 0-15% slower than those from 40^3 (float32, one and two threads). 64^3 elsewhere,
// where each call also allocates under OpenBLAS's lock: with OPENBLAS_CORETYPE=Haswell ours
// was 1.1-1.8x faster at 32^3 to 64^3 on our AVX2 kernels, 1.3-3.8x on AVX-512
// (bench/RESULTS.md). Above 64^3 OpenBLAS threads the product itself.
// Complex products: 64^3 complex multiply-adds whatever OpenBLAS's core, for 0.3.21 has no
// complex small-matrix kernels. On the AMD host (2 threads) ours ran 1024 complex64 16^3
// products in 0.092 ms against 0.27 through CGEMM, 100000 3^3 ones in 0.87 against 11-21,
// and batches up to 128^3 in 0.5-0.9 of CGEMM's time under core Cooperlake (AVX-512);
// one 64^3 product equal to it (0.0094 ms against 0.0076-0.0175), one 96^3 slower (0.031
// against 0.021-0.038), where OpenBLAS's own threads begin to pay.
constexpr int64_t kSmallComplexWork = 4 * 64 * 64 * 64;

int64_t small_work_limit() {
    static const int64_t limit = [] {
        const char* core = openblas_get_corename();
        for (const char* small : {"SkylakeX", "Cooperlake", "SapphireRapids"})
            if (core && strcasecmp(core, small) == 0) return int64_t(32768);
        return kBlasAloneWork;
    }();
    return limit;
}

// Whether the row blocks of a product (rows_per_call: n * k <= 4096) run in our kernel
// instead of a GEMM call each, where OpenBLAS has no small-matrix kernels: every call packs
// B again, while ours reads B (at most 16 or 32 KB) where it lies. Every column in vectors
// (a scalar column would run k multiply-adds one at a time). One thread, AVX2 on Zen 3,
// against the 64-row SGEMM/DGEMM calls: float32 (16384, 64) @ (64, 64) 1.4-1.7x, (65536,
// 16) @ (16, 16) 2.4x, (16384, 16) @ (16, 256) 1.2-1.3x; float64 1.03-1.2x where k >= 32
// or n <= 64, but 0.84-0.86x at (16384, 16) @ (16, 256). (half_matmul's converted float32
// blocks already took this kernel, through small_products.)
bool own_row_blocks(int32_t dt, int64_t n, int64_t k) {
    const int64_t lanes16 = 16 / (int64_t)itemsize_of(dt);
    if (small_work_limit() != kBlasAloneWork || n % lanes16 != 0) return false;
    return dt == EMBER_FLOAT32 || (dt == EMBER_FLOAT64 && (k >= 32 || n <= 64));
}

// Real multiply-adds of an m x k @ k x n product: four per complex one.
int64_t real_macs(int32_t dt, int64_t m, int64_t n, int64_t k) {
    return m * n * k * (dt == EMBER_COMPLEX64 || dt == EMBER_COMPLEX128 ? 4 : 1);
}

int small_kernel_index(int32_t dt) {
    switch (dt) {
        case EMBER_FLOAT32: return 0;
        case EMBER_FLOAT64: return 1;
        case EMBER_COMPLEX64: return 2;
        default: return 3;
    }
}

bool small_products(int32_t dt, int64_t m, int64_t n, int64_t k, bool b_packed) {
    const bool complex = dt == EMBER_COMPLEX64 || dt == EMBER_COMPLEX128;
    if ((dt != EMBER_FLOAT32 && dt != EMBER_FLOAT64 && !complex) || (m == 1 && n == 1 && !complex)) return false;
    const int64_t lanes16 = 16 / (int64_t)itemsize_of(dt);
    return real_macs(dt, m, n, k) <= (complex ? kSmallComplexWork : small_work_limit()) && m * (n % lanes16) * k <= kSmallScalarWork &&
           k * n <= kSmallB &&
           (!b_packed || k * n <= kSmallPack);
}

// A batch of small products across the pool. A is read in any layout; a B without unit
// column stride is packed row-major first, once per distinct B in each piece.
void small_batch(const ember_view_t& a, const ember_view_t& b, const ember_view_t& o, int64_t batch, int64_t m, int64_t n, int64_t k) {
    const int nd = o.ndim;
    const int64_t sz = (int64_t)itemsize_of(a.dtype);
    const int64_t ars = a.strides[nd - 2], acs = a.strides[nd - 1], brs = b.strides[nd - 2], bcs = b.strides[nd - 1], ldc = o.strides[nd - 2];
    const char *pa = base_ptr(a), *pb = base_ptr(b);
    char* po = base_ptr(o);
    const SmallGemmFn kernel = g_isa->small_gemm[small_kernel_index(a.dtype)];
    // 2^19 multiply-adds are 13 us or more of kernel time on one thread here (16^3 products
    // ran at ~39 per ns), more than the ~10 us a sleeping pool takes to wake
    const double work = (double)batch * (double)(real_macs(a.dtype, m, n, k) + 64);
    const int64_t pieces = work < (double)(1 << 19) ? 1 : std::min<int64_t>(batch, num_threads());
    batch_pieces(batch, pieces, [&](int64_t begin, int64_t end) {
        GrowingScratch packed;
        int64_t packed_from = -1;
        BatchWalk walk(nd - 2, a, b, o);
        for (int64_t i = begin; i < end; ++i) {
            const int64_t* off = walk.at(i);
            const char* bp = pb + off[1] * sz;
            int64_t ldb = brs;
            if (bcs != 1 && n > 1) {
                char* dst = packed.reserve((size_t)(k * n * sz));
                if (packed_from != off[1]) {
                    pack(bp, k, n, brs, bcs, (size_t)sz, dst);
                    packed_from = off[1];
                }
                bp = dst;
                ldb = n;
            }
            kernel(pa + off[0] * sz, ars, acs, bp, ldb, po + off[2] * sz, ldc, m, n, k);
        }
    });
}

// A batch of dot products ((1, k) @ (k, 1) each: vecdot along the last axis) calls DOT
// straight from the pool's pieces: through gemm() each call cost ~25 ns more (vecdot of a
// (100000, 16) float32 array took 2.6 ms, NumPy 1.2). k at most kDotAlone: OpenBLAS
// threads DDOT itself above 10000 elements (see gemv_or_dot).
constexpr int64_t kDotAlone = 8192;
template <class T>
void batched_dots(const ember_view_t& a, const ember_view_t& b, const ember_view_t& o, int64_t batch, int64_t k) {
    const int nd = o.ndim;
    const int step_a = (int)a.strides[nd - 1], step_b = (int)b.strides[nd - 2];
    // BLAS reads a vector with a negative step from its lowest address (its last element).
    const T* pa = (const T*)a.data + a.offset + (step_a < 0 ? (k - 1) * step_a : 0);
    const T* pb = (const T*)b.data + b.offset + (step_b < 0 ? (k - 1) * step_b : 0);
    T* po = (T*)o.data + o.offset;
    parallel_range(batch, std::max<int64_t>(1, kParallelCheap / k), 64, [&](int64_t begin, int64_t end) {
        BatchWalk walk(nd - 2, a, b, o);
        for (int64_t i = begin; i < end; ++i) {
            const int64_t* off = walk.at(i);
            if constexpr (std::is_same_v<T, float>) po[off[2]] = cblas_sdot((int)k, pa + off[0], step_a, pb + off[1], step_b);
            else po[off[2]] = cblas_ddot((int)k, pa + off[0], step_a, pb + off[1], step_b);
        }
    });
}

// OpenBLAS 0.3.21 (Haswell kernels) runs SYRK on the calling thread, whatever k, below these
// orders: float32 from 200, float64 from 100 it threads the call itself
// (ember-openblas-threads prints them; complex SYRK threads from order 96 or less). Below
// them a long product would run on one core:
// float32 100 x 10000 took 1.16 ms on 2 threads and on 1, NumPy's newer OpenBLAS 0.66.
int64_t syrk_threads_from(int32_t dt) {
    switch (dt) {
        case EMBER_FLOAT32: return 200;
        case EMBER_FLOAT64: return 100;
        default: return 0;  // complex: SYRK as one call
    }
}

// How many pieces of the inner dimension a Gram product runs in (1: one SYRK call): 2, 4 or
// 8 of at least kGramPiece, where OpenBLAS keeps SYRK on the calling thread and the product
// is long enough to pay for waking the pool and adding the pieces' triangles. It depends on
// the shape alone, so that the order of the sums, and the result, do not depend on the
// thread count.
constexpr int64_t kGramPiece = 256;
int64_t gram_pieces(int32_t dt, int64_t m, int64_t k) {
    if (m >= syrk_threads_from(dt) || (double)m * (double)m * (double)k < (double)(1 << 23)) return 1;
    int64_t pieces = 1;
    while (pieces < kInnerParts && k / (pieces * 2) >= kGramPiece) pieces *= 2;
    return pieces;
}

// C = A A^T (m x m) where b is a's own transpose (x @ x.T, x.T @ x: the same elements, the
// strides swapped; complex ones not conjugated): SYRK computes the upper triangle, half
// GEMM's multiply-adds, and the lower one is mirrored (so the result is exactly symmetric).
// NumPy takes SYRK for `a @ a.T` too. A long product whose SYRK OpenBLAS would not thread
// runs as gram_pieces SYRK calls over pieces of k across the pool, their triangles added in
// order: float32 x @ x.T of (150, 3000) 753 -> 385 us, (100, 10000) 1150 -> 594, (64,
// 100000) 4667 -> 2557 (GEMM in chunks before; NumPy 396-414, 642, 3375-3490; Zen 5, 2
// threads). Complex ones had run as GEMM: x.T @ x of (2000, 300) complex64 5.9 -> 3.7 ms
// (NumPy, CSYRK too, 3.6-3.9); of (1000, 1000) 28.8 -> 18.5 ms.
template <class T>
void syrk(const Mat& A, int64_t m, int64_t k0, int64_t len, T* C, int64_t ldc) {
    const T* p = (const T*)(A.p + (A.tr == CblasNoTrans ? k0 : k0 * A.ld) * (int64_t)sizeof(T));
    const T one(1), zero(0);
    if constexpr (std::is_same_v<T, float>) cblas_ssyrk(CblasRowMajor, CblasUpper, A.tr, (int)m, (int)len, one, p, (int)A.ld, zero, C, (int)ldc);
    else if constexpr (std::is_same_v<T, double>) cblas_dsyrk(CblasRowMajor, CblasUpper, A.tr, (int)m, (int)len, one, p, (int)A.ld, zero, C, (int)ldc);
    else if constexpr (std::is_same_v<T, std::complex<float>>)
        cblas_csyrk(CblasRowMajor, CblasUpper, A.tr, (int)m, (int)len, &one, p, (int)A.ld, &zero, C, (int)ldc);
    else cblas_zsyrk(CblasRowMajor, CblasUpper, A.tr, (int)m, (int)len, &one, p, (int)A.ld, &zero, C, (int)ldc);
}
template <class T>
void gram(int32_t dt, const Mat& A, T* C, int64_t ldc, int64_t m, int64_t k) {
    const int64_t pieces = gram_pieces(dt, m, k), mm = m * m;
    if (pieces == 1) {
        syrk(A, m, 0, k, C, ldc);
    } else {
        Scratch<T> partial(pieces * mm);
        parallel_tasks(pieces, [&](int64_t p) { syrk(A, m, p * k / pieces, (p + 1) * k / pieces - p * k / pieces, partial.data + p * mm, m); });
        // Row by row across the pool, each row's pieces added in order along the row (a
        // loop the compiler vectorises; the piece index innermost left order 199 at 1.5x
        // one SYRK call's speed on two threads).
        parallel_range(m, 0, 16, [&](int64_t begin, int64_t end) {
            for (int64_t i = begin; i < end; ++i) {
                T* row = C + i * ldc;
                const T* first = partial.data + i * m;
                for (int64_t j = i; j < m; ++j) row[j] = first[j];
                for (int64_t p = 1; p < pieces; ++p) {
                    const T* part = partial.data + p * mm + i * m;
                    for (int64_t j = i; j < m; ++j) row[j] += part[j];
                }
            }
        });
    }
    parallel_range(m, 2048, 64, [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i)
            for (int64_t j = 0; j < i; ++j) C[i * ldc + j] = C[j * ldc + i];
    });
}

// A tall product with a tiny B (k, n <= 4: points times a 3 x 3 matrix): B in registers,
// one loop over the rows. As SGEMM row blocks (1e6, 3) @ (3, 3) float32 took 3.9-4.2 ms
// (NumPy 2.4-3.3), and our small kernel's scalar columns no less.
constexpr int64_t kTinyB = 4;
template <class T, int K, int N>
void tiny_b_rows(const T* a, int64_t ars, int64_t acs, const T (&b)[kTinyB][kTinyB], T* o, int64_t ldc, int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r) {
        T x[K];
        for (int kk = 0; kk < K; ++kk) x[kk] = a[r * ars + kk * acs];
        for (int j = 0; j < N; ++j) {
            T acc = x[0] * b[0][j];
            for (int kk = 1; kk < K; ++kk) acc += x[kk] * b[kk][j];
            o[r * ldc + j] = acc;
        }
    }
}
template <class T, int K>
void tiny_b_rows(int64_t n, const T* a, int64_t ars, int64_t acs, const T (&b)[kTinyB][kTinyB], T* o, int64_t ldc, int64_t r0, int64_t r1) {
    switch (n) {
        case 1: return tiny_b_rows<T, K, 1>(a, ars, acs, b, o, ldc, r0, r1);
        case 2: return tiny_b_rows<T, K, 2>(a, ars, acs, b, o, ldc, r0, r1);
        case 3: return tiny_b_rows<T, K, 3>(a, ars, acs, b, o, ldc, r0, r1);
        default: return tiny_b_rows<T, K, 4>(a, ars, acs, b, o, ldc, r0, r1);
    }
}
template <class T>
void tiny_b_product(const char* pa, int64_t ars, int64_t acs, const char* pb, int64_t brs, int64_t bcs, char* po, int64_t ldc, int64_t m,
                    int64_t n, int64_t k) {
    T b[kTinyB][kTinyB] = {};
    for (int64_t kk = 0; kk < k; ++kk)
        for (int64_t j = 0; j < n; ++j) b[kk][j] = ((const T*)pb)[kk * brs + j * bcs];
    const T* a = (const T*)pa;
    T* o = (T*)po;
    parallel_range(m, m * (n + k) >= kParallelCheap ? 0 : INT64_MAX, 1024, [&](int64_t r0, int64_t r1) {
        switch (k) {
            case 1: return tiny_b_rows<T, 1>(n, a, ars, acs, b, o, ldc, r0, r1);
            case 2: return tiny_b_rows<T, 2>(n, a, ars, acs, b, o, ldc, r0, r1);
            case 3: return tiny_b_rows<T, 3>(n, a, ars, acs, b, o, ldc, r0, r1);
            default: return tiny_b_rows<T, 4>(n, a, ars, acs, b, o, ldc, r0, r1);
        }
    });
}

// Whether a @ b is one Gram product, b being a's own transpose (the same elements with the
// last two strides swapped: x @ x.T, x.T @ x), and large enough for OpenBLAS's threads:
// SYRK computes it in half GEMM's multiply-adds (gram).
bool is_gram_product(const ember_view_t& a, const ember_view_t& b, int64_t batch, int64_t m, int64_t n, int64_t k) {
    const int nd = a.ndim;
    return batch == 1 && m == n && m > 1 && base_ptr(a) == base_ptr(b) && a.strides[nd - 2] == b.strides[nd - 1] &&
           a.strides[nd - 1] == b.strides[nd - 2] && m * n * k > kBlasAloneWork;
}

ember_status_t blas_matmul(const ember_view_t& a, const ember_view_t& b, const ember_view_t& o) {
    const int nd = o.ndim, nb = nd - 2;
    const int64_t n = o.shape[nd - 1], k = a.shape[nd - 1];
    int64_t m = o.shape[nd - 2];
    const int32_t dt = a.dtype;
    const size_t sz = itemsize_of(dt);
    const int64_t ars = a.strides[nd - 2], acs = a.strides[nd - 1], brs = b.strides[nd - 2], bcs = b.strides[nd - 1];
    const int64_t ldc = o.strides[nd - 2];
    int64_t batch = 1;
    for (int d = 0; d < nb; ++d) batch *= o.shape[d];
    const char *pa = base_ptr(a), *pb = base_ptr(b);
    char* po = base_ptr(o);

    // (CBLAS moves the pointer of a negative step back by (k - 1) * step, computed in int.)
    if (m == 1 && n == 1 && k <= kDotAlone && batch > 1 && (dt == EMBER_FLOAT32 || dt == EMBER_FLOAT64) && acs != 0 && brs != 0 &&
        std::abs(acs) <= INT_MAX && std::abs(brs) <= INT_MAX && (acs > 0 || (k - 1) * -acs <= INT_MAX) && (brs > 0 || (k - 1) * -brs <= INT_MAX)) {
        if (dt == EMBER_FLOAT32) batched_dots<float>(a, b, o, batch, k);
        else batched_dots<double>(a, b, o, batch, k);
        return EMBER_OK;
    }
    if (batch == 1 && m >= 4096 && n >= 2 && n <= kTinyB && k >= 1 && k <= kTinyB && o.strides[nd - 1] == 1 &&
        (dt == EMBER_FLOAT32 || dt == EMBER_FLOAT64)) {
        if (dt == EMBER_FLOAT32) tiny_b_product<float>(pa, ars, acs, pb, brs, bcs, po, ldc, m, n, k);
        else tiny_b_product<double>(pa, ars, acs, pb, brs, bcs, po, ldc, m, n, k);
        return EMBER_OK;
    }
    if (batch_folds_into_m(a, b, o, batch, true)) {  // one (batch * m) x k product
        m *= batch;
        batch = 1;
    } else if (small_products(dt, m, n, k, bcs != 1 && n > 1)) {
        small_batch(a, b, o, batch, m, n, k);
        return EMBER_OK;
    }
    const int64_t rows = rows_per_call(dt, m, n, k), blocks = (m + rows - 1) / rows, calls = batch * blocks;
    const int64_t chunk = blocks == 1 ? inner_chunk(dt, m, n, k) : 0;
    if (blocks == 1 && is_gram_product(a, b, batch, m, n, k) && (!chunk || gram_pieces(dt, m, k) > 1)) {  // GEMM would take it whole, or SYRK runs in pieces
        GrowingScratch sa;
        const Mat A = operand(pa, m, k, ars, acs, sz, sa);
        switch (dt) {
            case EMBER_FLOAT32: gram(dt, A, (float*)po, ldc, m, k); break;
            case EMBER_FLOAT64: gram(dt, A, (double*)po, ldc, m, k); break;
            case EMBER_COMPLEX64: gram(dt, A, (std::complex<float>*)po, ldc, m, k); break;
            default: gram(dt, A, (std::complex<double>*)po, ldc, m, k); break;
        }
        return EMBER_OK;
    }
    if (chunk) {  // the products in order, each split across the pool
        GrowingScratch sa, sb;
        BatchWalk walk(nb, a, b, o);
        for (int64_t i = 0; i < batch; ++i) {
            const int64_t* off = walk.at(i);
            const Mat A = operand(pa + off[0] * (int64_t)sz, m, k, ars, acs, sz, sa), B = operand(pb + off[1] * (int64_t)sz, k, n, brs, bcs, sz, sb);
            char* C = po + off[2] * (int64_t)sz;
            if (dt == EMBER_FLOAT32) gemm_split_inner(A, B, (float*)C, ldc, m, n, k, chunk);
            else gemm_split_inner(A, B, (double*)C, ldc, m, n, k, chunk);
        }
        return EMBER_OK;
    }
    const bool own_blocks = blocks > 1 && own_row_blocks(dt, n, k);
    const SmallGemmFn own_kernel = g_isa->small_gemm[small_kernel_index(dt)];
    batch_pieces(calls, pool_pieces(calls, batch, m, n, k, rows), [&](int64_t begin, int64_t end) {
        GrowingScratch sa, sb;
        Mat A{}, B{};
        BatchWalk walk(nb, a, b, o);
        const int64_t* off = nullptr;
        int64_t last = -1;
        for (int64_t t = begin; t < end; ++t) {
            const int64_t i = blocks == 1 ? t : t / blocks, r0 = blocks == 1 ? 0 : (t % blocks) * rows;
            if (i != last) {  // a piece packs an operand once per product, not per block
                off = walk.at(i);
                A = operand(pa + off[0] * (int64_t)sz, m, k, ars, acs, sz, sa);
                B = operand(pb + off[1] * (int64_t)sz, k, n, brs, bcs, sz, sb);
                last = i;
            }
            const Mat block{A.p + (A.tr == CblasNoTrans ? r0 * A.ld : r0) * (int64_t)sz, A.tr, A.ld};
            char* C = po + (off[2] + r0 * ldc) * (int64_t)sz;
            if (own_blocks && B.tr == CblasNoTrans) {
                const bool rows_unit = A.tr == CblasNoTrans;
                own_kernel(block.p, rows_unit ? A.ld : 1, rows_unit ? 1 : A.ld, B.p, B.ld, C, ldc, std::min(rows, m - r0), n, k);
            } else {
                gemm(dt, block, B, C, ldc, std::min(rows, m - r0), n, k);
            }
        }
    });
    return EMBER_OK;
}

// f(line) for `lines` lines of `len` elements each, split over the pool from 8192 elements
// (the half-type conversions around SGEMM, which ran at half their standalone speed
// between its threaded calls): bfloat16 128^3 products 48.4 -> 43.5 us, 256^3 188 -> 175 against kParallelCheap
// (two threads, the Intel host of series 40-46; float32 27 and 139).
template <class F>
void each_line(int64_t lines, int64_t len, F&& f) {
    const int64_t per = std::max<int64_t>(1, len);
    parallel_range(lines, std::max<int64_t>(1, 8192 / per), std::max<int64_t>(1, 4096 / per), [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i) f(i);
    });
}

// The rows x cols float16/bfloat16 matrix at p (element strides rs, cs) as float32 in dst,
// laid out for SGEMM: converted line by line straight from p where its rows (or columns)
// have unit stride, as a transposed operand in the second case; other views are packed
// into tmp first.
Mat half_operand(CvtFn to32, const char* p, int64_t rows, int64_t cols, int64_t rs, int64_t cs, uint16_t* tmp, float* dst) {
    if (cs == 1 || cols == 1) {
        each_line(rows, cols, [&](int64_t r) { to32(p + r * rs * 2, dst + r * cols, cols); });
        return {(const char*)dst, CblasNoTrans, cols};
    }
    if (rs == 1 || rows == 1) {
        each_line(cols, rows, [&](int64_t c) { to32(p + c * cs * 2, dst + c * rows, rows); });
        return {(const char*)dst, CblasTrans, rows};
    }
    pack(p, rows, cols, rs, cs, 2, (char*)tmp);
    to32(tmp, dst, rows * cols);
    return {(const char*)dst, CblasNoTrans, cols};
}

// A product with one output row or column and no batch, as own_gemv runs it on the matrix
// as it lies: M @ v (right) or v @ M, M's rows (or its transpose's) ld elements apart;
// v's elements vstep apart, y's ystep. False where M has no unit stride.
struct MatvecPlan {
    bool right, dots;
    const char* M;
    int64_t ld, rows, cols, vstep, ystep, ylen;
    const char* v;
    char* y;
};
bool plan_matvec(const ember_view_t& a, const ember_view_t& b, const ember_view_t& o, int64_t m, int64_t n, MatvecPlan& p) {
    const int nd = o.ndim;
    p.right = n == 1;
    const ember_view_t& mat = p.right ? a : b;
    const int64_t rs = mat.strides[nd - 2], cs = mat.strides[nd - 1];
    const int64_t mrows = mat.shape[nd - 2], mcols = mat.shape[nd - 1];
    if (cs == 1 && rs > 0) {  // rows contiguous: M as it is
        p.dots = p.right;
        p.ld = rs, p.rows = mrows, p.cols = mcols;
    } else if (rs == 1 && cs > 0) {  // columns contiguous: M's transpose as it is
        p.dots = !p.right;
        p.ld = cs, p.rows = mcols, p.cols = mrows;
    } else {
        return false;
    }
    p.M = (const char*)base_ptr(mat);
    p.vstep = p.right ? b.strides[nd - 2] : a.strides[nd - 1];
    p.ystep = p.right ? o.strides[nd - 2] : o.strides[nd - 1];
    p.ylen = p.right ? m : n;
    p.v = (const char*)base_ptr(p.right ? b : a);
    p.y = (char*)base_ptr(o);
    return true;
}

// float16/bfloat16: the matrix widened in registers (half the traffic of its float32 copy,
// and no copy), the vector widened first, the float32 result rounded once; the same sums
// as through half_matmul's float32 operands. (1000, 1000) @ (1000,), two threads: bfloat16
// 199 -> 22 us, float16 182 -> 23; (1000,) @ (1000, 1000) 210 -> 25 and 208 -> 37.
bool half_matvec(const ember_view_t& a, const ember_view_t& b, const ember_view_t& o, int64_t m, int64_t n, int64_t k, CvtFn to32,
                 CvtFn from32) {
    MatvecPlan p;
    if (!plan_matvec(a, b, o, m, n, p)) return false;
    const uint16_t* vp = (const uint16_t*)p.v;
    Scratch<uint16_t> bits(std::max(k, p.ylen));
    Scratch<float> v(k), y(p.ylen);
    for (int64_t i = 0; i < k; ++i) bits.data[i] = vp[i * p.vstep];
    to32(bits.data, v.data, k);
    own_gemv(a.dtype == EMBER_FLOAT16 ? kGemvF16 : kGemvBF16, p.dots, p.M, p.ld, p.rows, p.cols, (const char*)v.data, 1, (char*)y.data, 1);
    uint16_t* out = (uint16_t*)p.y;
    if (p.ystep == 1) {
        from32(y.data, out, p.ylen);
    } else {
        from32(y.data, bits.data, p.ylen);
        for (int64_t i = 0; i < p.ylen; ++i) out[i * p.ystep] = bits.data[i];
    }
    return true;
}

// float16 / bfloat16: both operands to float32, one SGEMM (or our small-product kernel),
// the result rounded back once; a product with its own transpose converts x once and
// runs as SYRK (gram): x @ x.T of (1000, 1000) float16 7.6 -> 4.3 ms, of (100, 10000)
// 1.13-1.20 -> 0.59-0.61 (bfloat16 the same).
// Scratch from the caching allocator: fresh vectors paid a page fault per 4 KiB on every
// call (a 256 x 256 bfloat16 product took 3x its float32 one, 2.1x at 1024). Row blocks
// (rows_per_call, as float32) convert their rows of A and of the result within the block,
// while they are in the cache.
ember_status_t half_matmul(const ember_view_t& a, const ember_view_t& b, const ember_view_t& o) {
    const int nd = o.ndim, nb = nd - 2;
    int64_t m = o.shape[nd - 2];
    const int64_t n = o.shape[nd - 1], k = a.shape[nd - 1];
    const int ci = a.dtype == EMBER_FLOAT16 ? C_F16 : C_BF16;
    CvtFn to32 = g_isa->cvt[ci][C_F32], from32 = g_isa->cvt[C_F32][ci];
    int64_t batch = 1;
    for (int d = 0; d < nb; ++d) batch *= o.shape[d];
    if (batch == 1 && (m == 1) != (n == 1) && half_matvec(a, b, o, m, n, k, to32, from32)) return EMBER_OK;
    if (batch_folds_into_m(a, b, o, batch, true)) {  // one product, b converted once
        m *= batch;
        batch = 1;
    }
    const char *pa = base_ptr(a), *pb = base_ptr(b);
    char* po = base_ptr(o);
    const int64_t ars = a.strides[nd - 2], acs = a.strides[nd - 1], ors = o.strides[nd - 2];
    if (is_gram_product(a, b, batch, m, n, k)) {
        // x @ x.T: x converted once, SYRK (gram) on the float32 values, the result rounded once
        Scratch<uint16_t> tmp(m * k);
        Scratch<float> fa(m * k), fc(m * m);
        const Mat A = half_operand(to32, pa, m, k, ars, acs, tmp.data, fa.data);
        gram(EMBER_FLOAT32, A, fc.data, m, m, k);
        each_line(m, m, [&](int64_t r) { from32(fc.data + r * m, po + r * ors * 2, m); });
        return EMBER_OK;
    }
    const int64_t rows = rows_per_call(EMBER_FLOAT32, m, n, k), blocks = (m + rows - 1) / rows, calls = batch * blocks;
    const bool small = small_products(EMBER_FLOAT32, rows, n, k, false);  // on the converted operands
    batch_pieces(calls, pool_pieces(calls, batch, m, n, k, rows), [&](int64_t begin, int64_t end) {
        Scratch<uint16_t> tmp(std::max({rows * k, k * n}));
        Scratch<float> fa(rows * k), fb(k * n), fc(rows * n);
        Mat A{}, B{};
        int64_t last_a = -1, last_b = -1;  // an operand broadcast over the batch converts once
        BatchWalk walk(nb, a, b, o);
        for (int64_t t = begin; t < end; ++t) {
            const int64_t i = t / blocks, r0 = (t % blocks) * rows, nr = std::min(rows, m - r0);
            const int64_t* off = walk.at(i);
            const int64_t a_at = off[0] + r0 * ars;
            if (t == begin || a_at != last_a) A = half_operand(to32, pa + a_at * 2, nr, k, ars, acs, tmp.data, fa.data);
            if (t == begin || off[1] != last_b) B = half_operand(to32, pb + off[1] * 2, k, n, b.strides[nd - 2], b.strides[nd - 1], tmp.data, fb.data);
            last_a = a_at;
            last_b = off[1];
            if (small && B.tr == CblasNoTrans)
                g_isa->small_gemm[0](A.p, A.tr == CblasNoTrans ? A.ld : 1, A.tr == CblasNoTrans ? 1 : A.ld, B.p, B.ld, fc.data, n, nr, n, k);
            else
                gemm(EMBER_FLOAT32, A, B, (char*)fc.data, n, nr, n, k);  // matrix-vector products in our kernels
            char* dst = po + (off[2] + r0 * ors) * 2;  // unit column stride (or one column): row by row
            each_line(nr, n, [&](int64_t r) { from32(fc.data + r * n, dst + r * ors * 2, n); });
        }
    });
    return EMBER_OK;
}

// Integers: wrap-around products and sums in the type's width (unsigned arithmetic, so no
// overflow is undefined); modular sums do not depend on their order, so any grouping gives
// the reference's result exactly. Each task owns a block of kRows output rows, computed by
// the ISA's register-blocked kernel (int_gemm: simd_small_gemm.hpp) from b made
// row-contiguous once per batch entry. 8-bit products run in uint16 (A), a's block and b
// widened, whose low 8 bits are the same: x86 has no 8-bit vector multiply. Two threads,
// (512, 512) @ (512, 512): int8 35.7 ms (its loop widened and narrowed every product) and
// int32 16.2 ms (matmul.cpp is compiled for SSE2, which has no 32-bit vector multiply) in
// the loop this replaced.
// The matrix-vector kernels of an integer type T, and the type of their v and y.
template <class T>
constexpr GemvMatrix kIntGemv = sizeof(T) == 1 ? kGemvU8 : sizeof(T) == 2 ? kGemvU16 : sizeof(T) == 4 ? kGemvU32 : kGemvU64;
template <class T>
using IntGemvSum = std::conditional_t<sizeof(T) == 1, uint16_t, std::make_unsigned_t<T>>;

// An integer product with one output row or column and no batch, in the ISA's
// matrix-vector kernels on the matrix as it lies (vector multiplies: SSE2, which matmul.cpp
// is compiled for, has none for 32 or 64 bits). 8-bit: the vector widened to uint16, the
// low 8 bits of each uint16 sum stored, the matrix widened in registers (v @ M used to
// widen all of M for one row).
template <class T>
bool int_matvec(const ember_view_t& a, const ember_view_t& b, const ember_view_t& o, int64_t m, int64_t n, int64_t k) {
    using U = std::make_unsigned_t<T>;
    MatvecPlan p;
    if (!plan_matvec(a, b, o, m, n, p)) return false;
    if constexpr (sizeof(T) > 1) {
        own_gemv(kIntGemv<T>, p.dots, p.M, p.ld, p.rows, p.cols, p.v, p.vstep, p.y, p.ystep);
    } else {
        Scratch<IntGemvSum<T>> v(k), y(p.ylen);
        for (int64_t i = 0; i < k; ++i) v.data[i] = ((const U*)p.v)[i * p.vstep];
        own_gemv(kIntGemv<T>, p.dots, p.M, p.ld, p.rows, p.cols, (const char*)v.data, 1, (char*)y.data, 1);
        for (int64_t i = 0; i < p.ylen; ++i) ((U*)p.y)[i * p.ystep] = (U)y.data[i];
    }
    return true;
}

template <class T>
void int_matmul(const ember_view_t& a, const ember_view_t& b, const ember_view_t& o) {
    using U = std::make_unsigned_t<T>;
    using A = std::conditional_t<sizeof(T) == 1, uint16_t, U>;
    constexpr int64_t kRows = 16;
    const int nd = o.ndim, nb = nd - 2;
    const int64_t m = o.shape[nd - 2], n = o.shape[nd - 1], k = a.shape[nd - 1];
    const int64_t ars = a.strides[nd - 2], acs = a.strides[nd - 1], brs = b.strides[nd - 2], bcs = b.strides[nd - 1], ldc = o.strides[nd - 2];
    int64_t batch = 1;
    for (int d = 0; d < nb; ++d) batch *= o.shape[d];
    if (batch == 1 && (m == 1) != (n == 1) && int_matvec<T>(a, b, o, m, n, k)) return;
    const int64_t work_threshold = batch * m * n * k >= (int64_t(1) << 18) ? 2 : INT64_MAX;
    if (n == 1 && acs == 1) {
        // Matrix-vector products in a batch: each task's run of rows of one batch entry in
        // the ISA's row_dots kernel, b's column packed (8-bit: widened) once per run where
        // it is stepped. A loop compiled for SSE2 did this before (and all products before
        // that ran a scalar multiply-add per element: (1000, 1000) @ (1000,) int32 took
        // 592 us, NumPy 392).
        using C = IntGemvSum<T>;
        const RowDotsFn row_dots = g_isa->row_dots[kIntGemv<T>];
        parallel_range(batch * m, work_threshold, std::max<int64_t>(1, 16384 / k), [&](int64_t begin, int64_t end) {
            std::vector<C> column, narrow_sums;
            BatchWalk walk(nb, a, b, o);
            for (int64_t t = begin; t < end;) {
                const int64_t bi = t / m, i0 = t % m, rows = std::min(m - i0, end - t);
                const int64_t* off = walk.at(bi);
                const T* pb = (const T*)b.data + b.offset + off[1];
                const C* bv = (const C*)pb;
                if (brs != 1 || sizeof(C) != sizeof(T)) {
                    column.resize((size_t)k);
                    for (int64_t p = 0; p < k; ++p) column[(size_t)p] = (C)(U)pb[p * brs];
                    bv = column.data();
                }
                const T* pa = (const T*)a.data + a.offset + off[0] + i0 * ars;
                T* po = (T*)o.data + o.offset + off[2] + i0 * ldc;
                if constexpr (sizeof(C) == sizeof(T)) {
                    row_dots(pa, ars, bv, po, ldc, rows, k);
                } else {
                    narrow_sums.resize((size_t)rows);
                    row_dots(pa, ars, bv, narrow_sums.data(), 1, rows, k);
                    for (int64_t r = 0; r < rows; ++r) po[r * ldc] = (T)(U)narrow_sums[(size_t)r];
                }
                t += rows;
            }
        });
        return;
    }
    const int64_t blocks = (m + kRows - 1) / kRows;
    const SmallGemmFn kernel = g_isa->int_gemm[sizeof(A) == 2 ? 0 : sizeof(A) == 4 ? 1 : 2];
    parallel_range(batch * blocks, work_threshold, 1, [&](int64_t begin, int64_t end) {
        GrowingScratch brow_copy, arow_copy;
        std::vector<A> acc(sizeof(A) != sizeof(T) ? (size_t)(kRows * n) : 0);
        BatchWalk walk(nb, a, b, o);
        int64_t last_batch = -1;
        const A* bm = nullptr;  // b of the current batch entry, row-contiguous
        for (int64_t t = begin; t < end; ++t) {
            const int64_t bi = t / blocks, i0 = (t % blocks) * kRows, rows = std::min(kRows, m - i0);
            const int64_t* off = walk.at(bi);
            if (bi != last_batch) {
                const T* pb = (const T*)b.data + b.offset + off[1];
                if (sizeof(A) != sizeof(T)) {
                    A* wide = (A*)brow_copy.reserve((size_t)(k * n) * sizeof(A));
                    for (int64_t p = 0; p < k; ++p)
                        for (int64_t j = 0; j < n; ++j) wide[p * n + j] = (A)(U)pb[p * brs + j * bcs];
                    bm = wide;
                } else if (bcs == 1 && brs == n) {
                    bm = (const A*)pb;
                } else {
                    char* packed = brow_copy.reserve((size_t)(k * n) * sizeof(T));
                    gather_strided((const char*)pb, brs, bcs, k, n, sizeof(T), n, packed);
                    bm = (const A*)packed;
                }
                last_batch = bi;
            }
            const T* pa = (const T*)a.data + a.offset + off[0] + i0 * ars;
            T* po = (T*)o.data + o.offset + off[2] + i0 * ldc;
            if constexpr (sizeof(A) != sizeof(T)) {
                A* wide = (A*)arow_copy.reserve((size_t)(rows * k) * sizeof(A));
                for (int64_t r = 0; r < rows; ++r)
                    for (int64_t p = 0; p < k; ++p) wide[r * k + p] = (A)(U)pa[r * ars + p * acs];
                kernel(wide, k, 1, bm, n, acc.data(), n, rows, n, k);
                for (int64_t r = 0; r < rows; ++r)
                    for (int64_t j = 0; j < n; ++j) po[r * ldc + j] = (T)(U)acc[(size_t)(r * n + j)];
            } else {
                kernel(pa, ars, acs, bm, n, po, ldc, rows, n, k);
            }
        }
    });
}

ember_status_t matmul_kernel(const ember_kernel_call_t* c) {
    const ember_view_t& a = c->in[0];
    const ember_view_t& b = c->in[1];
    const ember_view_t& o = c->out[0];
    const int32_t dt = a.dtype;
    const int nd = o.ndim;
    if (nd < 2 || b.dtype != dt || o.dtype != dt) return delegate(c);
    const int64_t m = o.shape[nd - 2], n = o.shape[nd - 1], k = a.shape[nd - 1];
    if (m == 0 || n == 0) return EMBER_OK;
    if (k <= 0 || m > INT_MAX || n > INT_MAX || k > INT_MAX) return delegate(c);
    // The output must be row-major with unit column stride (the core allocates it so).
    if (!(o.strides[nd - 1] == 1 || n == 1) || o.strides[nd - 2] < n || o.strides[nd - 2] > INT_MAX) return delegate(c);
    switch (dt) {
        case EMBER_FLOAT32:
        case EMBER_FLOAT64:
        case EMBER_COMPLEX64:
        case EMBER_COMPLEX128: return blas_matmul(a, b, o);
        case EMBER_FLOAT16:
        case EMBER_BFLOAT16: return half_matmul(a, b, o);
        case EMBER_INT8: int_matmul<int8_t>(a, b, o); return EMBER_OK;
        case EMBER_INT16: int_matmul<int16_t>(a, b, o); return EMBER_OK;
        case EMBER_INT32: int_matmul<int32_t>(a, b, o); return EMBER_OK;
        case EMBER_INT64: int_matmul<int64_t>(a, b, o); return EMBER_OK;
        case EMBER_UINT8: int_matmul<uint8_t>(a, b, o); return EMBER_OK;
        case EMBER_UINT16: int_matmul<uint16_t>(a, b, o); return EMBER_OK;
        case EMBER_UINT32: int_matmul<uint32_t>(a, b, o); return EMBER_OK;
        case EMBER_UINT64: int_matmul<uint64_t>(a, b, o); return EMBER_OK;
        default: return delegate(c);  // bool
    }
}

}  // namespace

void add_matmul_kernels(std::vector<NativeKernel>& k) { k.push_back({"matmul", matmul_kernel, 0, false}); }

}  // namespace ember_cpu
