// The per-instruction-set kernel table. simd_impl.cpp is compiled once per ISA (generic,
// AVX2, AVX-512; see CMakeLists.txt) and each copy fills one IsaTable; the backend picks the
// best table the machine supports at init. This header holds only plain declarations and
// static (internal-linkage) helpers, so that nothing compiled with wider instruction sets can
// leak into the generic code through shared inline functions (every definition in
// simd_impl.cpp has internal linkage).
#pragma once

#include <stdint.h>

namespace ember_cpu {

// Binary ops with a vector kernel. Outputs are contiguous; each input is contiguous or a
// scalar broadcast (stride 0), selected by `mode`: bit 0 = a is a scalar, bit 1 = b is.
// Bit 2 (kStream), in `mode` and in the unary/copy `flags`: write with non-temporal stores
// (for outputs far larger than the caches).
// B_AND/B_OR/B_XOR serve the bitwise ops on integers and bool and the logical ops (bool
// operands holding 0 or 1). B_SHL/B_SHR: integer shifts (counts outside [0, bits) as the
// reference). B_FLOORDIV/B_REM: floor_divide and remainder of integers and float32 (float64:
// the reference). B_POW: integer powers (floats: libm_loops.cpp). B_COPYSIGN: float32/float64
// (and the half types staged), a's bits with b's sign bit. B_LEAKY_RELU: float32/float64,
// a > 0 ? a : a * b (b the slope, a scalar). B_LOGADDEXP: float32 (and the
// half types staged) and float64 (libmvec's exp and log1p).
enum BinOp { B_ADD, B_SUB, B_MUL, B_DIV, B_MAX, B_MIN, B_EQ, B_NE, B_LT, B_LE, B_GT, B_GE, B_AND, B_OR, B_XOR, B_SHL, B_SHR, B_FLOORDIV, B_REM, B_POW, B_COPYSIGN,
             B_LOGADDEXP, B_LEAKY_RELU, B_COUNT };
// Unary ops with a vector kernel (contiguous in and out).
// U_ABS of complex64 writes float32; U_CONJ has kernels for the complex dtypes only.
// U_POW_HALF: float32/float64 x ** 0.5 (pow's values: the square root, but +0 for -0 and
// +inf for -inf), for pow with a broadcast exponent of 0.5.
enum UnOp { U_NEG, U_ABS, U_SQUARE, U_SQRT, U_RECIP, U_EXP, U_LOG, U_TANH, U_SIGMOID, U_RELU, U_SILU, U_GELU_TANH, U_GELU_ERF, U_NOT, U_SIGN,
            U_CONJ, U_POW_HALF, U_COUNT };
// float32/float64 functions vectorised by glibc's libmvec (the ISA's variant; <= 4 ulp),
// contiguous input and output: math[fn][0] float32, [1] float64; math2 takes two contiguous
// operands (mode as for bin: a scalar a or b). math2[M_pow][0] of the AVX-512 variant is
// simd_pow.hpp's float32 pow.
#define EMBER_MVEC_UNARY(X) X(expm1) X(log1p) X(log2) X(log10) X(sin) X(cos) X(tan) X(asin) X(acos) X(atan) \
    X(sinh) X(cosh) X(asinh) X(acosh) X(atanh) X(erf) X(erfc) X(cbrt)
#define EMBER_MVEC_BINARY(X) X(pow) X(atan2) X(hypot)
// The same slots for Ember's own exact kernels (simd_unary_ops.hpp): rounding, and classification with
// bool (one byte) results.
#define EMBER_EXACT_UNARY(X) X(floor) X(ceil) X(trunc) X(round) X(isnan) X(isinf) X(isfinite) X(signbit)
#define EMBER_MVEC_ENUM(name) M_##name,
enum MathFn { EMBER_MVEC_UNARY(EMBER_MVEC_ENUM) EMBER_EXACT_UNARY(EMBER_MVEC_ENUM) M_COUNT };
enum MathFn2 { EMBER_MVEC_BINARY(EMBER_MVEC_ENUM) M2_COUNT };
#undef EMBER_MVEC_ENUM
// Reductions. Accumulators: double for float32/float64 sums and products, (u)int64 for
// integer sums, the element type for max/min, uint64 for R_NONZERO (the count of elements
// != 0, of any element type).
enum RedOp { R_SUM, R_MAX, R_MIN, R_NONZERO, R_PROD, R_COUNT };
// Conversions between the float types (contiguous arrays).
enum CvtType { C_F16, C_BF16, C_F32, C_F64, C_COUNT };

constexpr int kDtypes = 15;  // EMBER_DTYPE_COUNT

typedef void (*BinFn)(const void* a, const void* b, void* out, int64_t n, int mode);
typedef void (*UnFn)(const void* x, void* out, int64_t n, int flags);
typedef void (*CopyFn)(const void* in, void* out, int64_t nbytes, int flags);
constexpr int kStream = 4;
// With kStream on a binary, unary or copy kernel: skip the closing store fence, the caller
// issues one (store_fence) after its last call. For callers that stream one output in many
// short calls (the rows of a broadcast or of a view): a fence per call of 512 bytes made
// them 5x slower.
constexpr int kCallerFences = 8;
// *acc = op(*acc, x[0..n)). Sums are pairwise/blocked inside.
typedef void (*RowFn)(const void* x, int64_t n, void* acc);
// acc[j] = op(acc[j], x[0][j], ..., x[nrows - 1][j]) for j < n, rows folded in order;
// 1 <= nrows <= kColRows.
constexpr int kColRows = 8;
typedef void (*ColFn)(const void* const* x, int nrows, int64_t n, void* acc);
// (re, im) *= (a, b), the textbook product: the accumulators of complex products (R_PROD
// of complex dtypes: acc is two doubles per output). The reference's std::complex product
// recovers infinities where this one comes out NaN in both parts (C99 Annex G), and the
// order of the products decides where infinities and NaNs land: the reduction driver
// recomputes any result that is not finite in the reference's order (complex_steps).
static inline void multiply_pair(double& re, double& im, double a, double b) {
    const double r = re * a - im * b;
    im = re * b + im * a;
    re = r;
}
// sum((x[i] - mean)^2) for i < n in double, pairwise over blocks as the float sums (var, std).
typedef double (*SquaredDeviationsFn)(const void* x, int64_t n, double mean);
// The sum of the x[i] that are not NaN, in double, pairwise over blocks; *valid gains their
// count (nansum, nanmean).
typedef double (*NanSumFn)(const void* x, int64_t n, int64_t* valid);
// The largest (is_max) or smallest x[i] that is not NaN, into *result; false where every
// x[i] is NaN (nanmax, nanmin).
typedef bool (*NanExtremeFn)(const void* x, int64_t n, double* result);
typedef void (*NanFoldFn)(const void* row, void* acc, int64_t n);
typedef void (*CvtFn)(const void* in, void* out, int64_t n);
// Philox 4x32-10: the 4 * nblocks words of blocks first_block.. with counter word 2 = 0.
typedef void (*PhiloxFn)(uint64_t key, uint64_t first_block, uint32_t* out, int64_t nblocks, uint32_t trial);
// out[k] = -log(u_k) for n open unit uniforms made from Philox words (one word each for
// float32, two for float64; simd_random.hpp): random_categorical's exponentials.
typedef void (*NegLogUniformFn)(const uint32_t* words, int64_t n, void* out);
// random_categorical's exponential race over whole rows of fewer than 64 classes
// (simd_random.hpp, race_rows).
typedef void (*RaceRowsFn)(const void* exponentials, int64_t rows, int64_t classes, const void* rates, const void* margins, int64_t first_row,
                           int64_t samples, int64_t* out);
// Sorts n unsigned keys ascending in place with a sorting network (not stable), for short
// lines: n <= network_sort_max (at most kNetworkSortBytes of keys, 64 vectors).
constexpr int kNetworkSortBytes = 4096;
typedef void (*NetworkSortFn)(void* keys, int64_t n);
// sort.cpp's keys of a line of 32- or 64-bit elements (sort_keys.hpp: encode_line without
// indices, decode_line) in the ISA's vectors; step is the element stride of src or dst.
typedef bool (*EncodeSortKeysFn)(const void* src, int64_t step, int64_t n, void* keys, uint64_t inf_bits, uint64_t flip);
typedef void (*DecodeSortKeysFn)(const void* keys, int64_t n, void* dst, int64_t step, uint64_t flip);
// sort (indices false) or argsort (true: int64 indices) of `rows` packed rows of n
// elements (kPackedRowsMin <= n <= kPackedRowsMax), a row in each vector lane, exactly as
// the reference's stable sort orders them (sort_keys.hpp: sort_packed_rows).
constexpr int kPackedRowsMin = 5, kPackedRowsMax = 16;
typedef void (*PackedRowsSortFn)(const void* src, void* dst, int64_t rows, int n, uint64_t inf_bits, uint64_t flip, bool indices);
// A vectorised quicksort of unsigned keys (not stable), and one partition step of it
// (simd_quicksort.hpp); null on the ISAs that have none.
typedef void (*QuicksortFn)(void* keys, int64_t n);
typedef int64_t (*QuickSplitFn)(void* keys, int64_t n);
// C = A B for small float32, float64, complex64 and complex128 products (simd_small_gemm.hpp): A m x k
// with element strides ars, acs, B k x n row-major with row stride ldb, C row stride ldc.
typedef void (*SmallGemmFn)(const void* a, int64_t ars, int64_t acs, const void* b, int64_t ldb, void* c, int64_t ldc, int64_t m,
                            int64_t n, int64_t k);
// Matrix-vector products of float32 ([0]), float64 ([1]), float16 ([2]) or bfloat16 ([3])
// matrices with contiguous rows (simd_gemv.hpp; x and y float32 for the half types): y[i * incy] = row i of a . x (x contiguous) for i < rows; and columns
// [j0, j1) of x a, y[j] = sum_p x[p * incx] a[p * lda + j] (y contiguous).
typedef void (*RowDotsFn)(const void* a, int64_t lda, const void* x, void* y, int64_t incy, int64_t rows, int64_t k);
typedef void (*PairedRowDotsFn)(const void* a, int64_t lda, const void* b, int64_t ldb, void* y, int64_t rows, int64_t k);
// y[j] = sum_p a[p * lda + j] b[p * ldb + j] for j < columns (float32 [0], float64 [1]).
typedef void (*PairedColumnDotsFn)(const void* a, int64_t lda, const void* b, int64_t ldb, void* y, int64_t columns, int64_t k);
typedef void (*RowCombinationFn)(const void* a, int64_t lda, const void* x, int64_t incx, void* y, int64_t j0, int64_t j1, int64_t k);
// A mixed-radix FFT plan for fft_lines: n = the product of the factors (radix 4 first,
// then primes up to kFftMaxRadix), twiddles[2 j], twiddles[2 j + 1] = cos, sin of
// -2 pi j / n for j < n.
constexpr int kFftMaxRadix = 13;
struct FftPlan {
    int64_t n;
    const int64_t* factors;
    const double* twiddles;
};
// Forward DFTs (e^{-2 pi i jk/n}) of vector_bytes / 8 lines at once, in float64: element k
// of in and out is vector_bytes / 8 real parts, one per line, then as many imaginary
// parts. in and out must not overlap (simd_fft.hpp).
typedef void (*FftLinesFn)(const FftPlan& plan, const double* in, double* out);
// The steps between a complex FFT of length m and a real one of length n = 2m, on blocks laid
// out as fft_lines's (fft_real.hpp): split maps Z[0..m) in `in` to X[k] for k in [k0, k1),
// k1 <= m + 1; merge maps X[0..m] to conj(Z[k]) for k in [k0, k1), k1 <= m. w: cos, sin of
// -2 pi k / n for k <= m. in and out must not overlap. The _line variants take one line of
// interleaved (re, im) pairs instead of a block.
typedef void (*FftRealFn)(int64_t m, const double* w, const double* in, double* out, int64_t k0, int64_t k1);
// The first `pairs` (re, im) pairs of vector_bytes / 8 contiguous lines (float32 [0] or
// float64 [1]) into a block laid out as fft_lines's, imaginary parts times sign; and back,
// into the first `count` lines (simd_fft.hpp).
typedef void (*FftPairsInFn)(const void* const* lines, int64_t pairs, double sign, double* block);
typedef void (*FftPairsOutFn)(const double* block, int64_t pairs, double sign, void* const* lines, int64_t count);
// The same for lines that are adjacent columns: row j (rows `stride` pairs apart from
// `first`) holds the lanes' j-th pairs side by side, for `blocks` blocks side by side (the
// blocks `step` doubles apart); every lane is read and written.
typedef void (*FftColumnsInFn)(const void* first, int64_t stride, int64_t rows, double sign, double* block, int64_t blocks, int64_t step);
typedef void (*FftColumnsOutFn)(const double* block, int64_t rows, double sign, void* first, int64_t stride, int64_t blocks, int64_t step);
// The four-step FFT's twiddles on a block of columns j2 + l (simd_fft.hpp), into float64
// rows n2 pairs apart.
typedef void (*FftTwiddleColumnsFn)(const double* block, int64_t rows, int64_t j2, int64_t n2, const double* w1, const double* w2,
                                    double* mid);
// out[i] = a[i] * b[i] for n complex64 ([0]) or complex128 ([1]) values, the textbook
// product with every operation rounded (no FMA); bit 0 of `scalars`: a is one broadcast
// value, bit 1: b. Returns whether any product came out NaN in both parts, where the
// caller applies C99's recovery of infinities.
typedef bool (*ComplexMulFn)(const void* a, const void* b, void* out, int64_t n, int scalars);
// out[i] = a[i] / b[i] for n complex64 ([0]) or complex128 ([1]) values as libgcc computes
// the reference's std::complex quotient: complex64 as __divsc3, in float64 with each
// operation rounded, then rounded to float32; complex128 as __divdc3 (Smith's method with
// its scalings). Same arguments and result as ComplexMulFn (C99's recovery where both
// parts come out NaN).
typedef ComplexMulFn ComplexDivFn;
// Sequences of complex sums or products, one per lane, in float64, for the scans and
// reductions that follow the reference's order (complex_sequence.cpp): for each step
// s < steps in turn, acc[l] = acc[l] op x[s * x_step + l] for l < lanes, and where `each` is
// not null, each[s * each_step + l] = acc[l] rounded to the element type. x and each hold
// complex64 ([0]) or complex128 ([1]) elements (steps given in elements); acc holds `lanes`
// real parts, then `lanes` imaginary parts. lanes is a multiple of vector_bytes / 8 and at
// most kComplexStepVectors of them. Products are the reference's std::complex<double>
// product bit for bit: the textbook product, each operation rounded, and C99 Annex G's
// recovery of infinities where both parts come out NaN (simd_complex_steps.hpp).
constexpr int kComplexStepVectors = 4;
typedef void (*ComplexStepsFn)(const void* x, int64_t x_step, int64_t steps, int64_t lanes, double* acc, void* each, int64_t each_step);
// dst[c * dst_step + r] = src[r * src_step + c] for r < rows, c < cols.
typedef void (*TransposeFn)(const void* src, int64_t src_step, void* dst, int64_t dst_step, int64_t rows, int64_t cols, bool stream);
// argmax/argmin over an axis that is not the innermost (argreduce.cpp): rows [r0, r1) of
// m <= kArgColumns columns, `step` elements apart (r1 < 2^31), folded in order; each column's
// first extreme, or its first NaN, into best[j] (of the element type), and its row into row[j].
constexpr int64_t kArgColumns = 256;
typedef void (*ArgColumnsFn)(const void* x, int64_t r0, int64_t r1, int64_t step, int64_t m, void* best, int64_t* row);
// The first position of *value in x[0..n), which holds it; where *value is a NaN, of the
// first NaN (argmax/argmin along rows, after the row's extreme).
typedef int64_t (*FirstPositionFn)(const void* x, int64_t n, const void* value);
// The first position of the largest (argmax) or smallest (argmin) of x[0..n), 1 <= n, and
// n < 2^30 for float32; -1 where x may hold a NaN (the caller then searches).
typedef int64_t (*ArgRowFn)(const void* x, int64_t n);
// softmax (log: log_softmax) of `rows` rows of n elements back to back in x and out
// (simd_softmax.hpp).
typedef void (*SoftmaxRowsFn)(const void* x, void* out, int64_t rows, int64_t n, bool log);

struct IsaTable {
    const char* name;
    int vector_bytes;
    BinFn bin[B_COUNT][kDtypes];
    UnFn un[U_COUNT][kDtypes];
    RowFn row[R_COUNT][kDtypes];
    ColFn col[R_COUNT][kDtypes];
    // Sums of (u)int64 elements in double accumulators, as row/col[R_SUM] of float64 on the
    // elements converted (a mean's sum): [0] int64, [1] uint64.
    RowFn row_sum_as_f64[2];
    ColFn col_sum_as_f64[2];
    SquaredDeviationsFn squared_deviations[2];  // [0] float32, [1] float64
    NanSumFn nan_sum[2];                        // [0] float32, [1] float64
    NanExtremeFn nan_extreme[2][2];             // [float32, float64][min, max]
    NanFoldFn nan_fold[2][2];                   // [float32, float64][min, max]: one row into running nanmin/nanmax
    CvtFn cvt[C_COUNT][C_COUNT];
    CvtFn icvt[kDtypes][2];  // integer or bool dtype -> [0] float32, [1] float64
    CvtFn tobool[kDtypes];   // integer, float32, float64 or complex -> bool (!= 0)
    // [from][to]: integer, bool, float32 or float64 -> integer dtype; integers wrap, floats
    // truncate toward zero, saturate at the integer's range and map NaN to 0 (the reference's astype)
    CvtFn toint[kDtypes][kDtypes];
    UnFn math[M_COUNT][2];
    BinFn math2[M2_COUNT][2];
    CopyFn copy;
    TransposeFn transpose[3];  // [0] 4-byte elements, [1] 8-byte, [2] 16-byte
    TransposeFn transpose_narrow[2];  // [0] 1-byte elements, [1] 2-byte
    PhiloxFn philox;
    NegLogUniformFn neg_log_open_uniform[2];  // [0] float32, [1] float64
    RaceRowsFn race_rows[2];                  // [0] float32, [1] float64
    // The race's exponentials: [0] float32 as neg_log_open_uniform, [1] float64 to within
    // kRaceExponentialError (neg_log_fast.hpp).
    NegLogUniformFn race_exponentials[2];
    NetworkSortFn network_sort[2];  // [0] uint32 keys, [1] uint64
    int64_t network_sort_max[2];
    EncodeSortKeysFn encode_sort_keys[3][2];  // [unsigned, signed, float][32-bit, 64-bit]
    DecodeSortKeysFn decode_sort_keys[3][2];
    PackedRowsSortFn sort_packed_rows[3][2];  // [unsigned, signed, float][32-bit, 64-bit]
    QuicksortFn quicksort[2];  // [0] uint32 keys, [1] uint64
    QuickSplitFn quick_split[2];
    FftLinesFn fft_lines;
    FftRealFn rfft_split, irfft_merge;
    FftPairsInFn fft_pairs_in[2];  // [0] float32 lines, [1] float64
    FftPairsOutFn fft_pairs_out[2];
    FftRealFn rfft_split_line, irfft_merge_line;  // one line of interleaved pairs
    FftColumnsInFn fft_columns_in[2];
    FftColumnsOutFn fft_columns_out[2];
    FftTwiddleColumnsFn fft_twiddle_columns;
    ComplexMulFn complex_mul[2];
    ComplexDivFn complex_div[2];
    ComplexStepsFn complex_steps[2][2];  // [complex64, complex128][sums, products]
    SmallGemmFn small_gemm[4];  // [0] float32, [1] float64, [2] complex64, [3] complex128
    SmallGemmFn int_gemm[3];    // wrapping unsigned products: [0] uint16, [1] uint32, [2] uint64
    // by the matrix: [0] float32, [1] float64, [2] float16, [3] bfloat16, then wrapping
    // integers [4] uint16, [5] uint32, [6] uint64, [7] 8-bit (in uint16 sums); matmul.cpp's GemvMatrix
    RowDotsFn row_dots[8];
    RowCombinationFn row_combination[8];
    PairedRowDotsFn paired_row_dots[2];  // vecdot of rows: [0] float32, [1] float64
    PairedColumnDotsFn paired_column_dots[2];  // vecdot of columns: [0] float32, [1] float64
    // integers, bool (as bytes), float32 and float64:
    ArgColumnsFn arg_columns[2][kDtypes];  // [0] argmin, [1] argmax
    FirstPositionFn first_position[kDtypes];
    ArgRowFn arg_row[2][kDtypes];  // float32 and float64; [0] argmin, [1] argmax
    SoftmaxRowsFn softmax_rows[2];  // [0] float32, [1] float64
};

const IsaTable* isa_table_generic();
const IsaTable* isa_table_avx2();
const IsaTable* isa_table_avx512();

}  // namespace ember_cpu
