#!/usr/bin/env python3
"""NumPy side of the cpu backend's benchmarks (run by bench/run_numpy.sh).

Times, in NumPy, the operations that bench/cases_cpu_ops.cpp times in Ember (same sizes,
same input ranges, best of N after one warm-up, like bench::best_of) and writes them as one
JSON object {"<case>/<size>": seconds} to --out. run_numpy.sh then runs `ember-bench numpy`,
which reads that file and prints the usual JSON lines with ratio = numpy_s / ember_s.

The NumPy expressions are the ones a user writes:
  add_f32      a + b                       (new result)
  exp/log/tanh np.exp(x), np.log(x), np.tanh(x); sin_f32 np.sin(x)
  sigmoid_f32  1 / (1 + np.exp(-x))
  softplus_f32 np.logaddexp(x, 0)           (Ember: ember_softplus)
  cbrt_f32     np.cbrt(x)                    (Ember: ember_cbrt, libmvec's on the cpu backend)
  gelu_tanh_f32  0.5 * x * (1 + np.tanh(sqrt(2/pi) * (x + 0.044715 * (x * x * x))))  (Ember: ember_gelu;
               x**3 makes NumPy ~50x slower here (np.power of float32 is not vectorised))
  sum/mean     x.sum(), x.mean()
  softmax_f32  e = np.exp(x - x.max(axis=-1, keepdims=True)); e / e.sum(axis=-1, keepdims=True)
Index and random cases (INDEX_CASES, their own shapes):
  take_rows_f32      x[idx]: 1e6 random rows of a (65536, 16) table (an embedding lookup)
  take_f32           np.take(x, idx): 1e5 random elements of a 1e6-vector
  nonzero_f32        np.argwhere(x) of a (1000, 10000) array, half zeros ((count, 2), as ember_nonzero)
  searchsorted_f32   np.searchsorted(seq, v): 1e7 values in a sorted 1e4 sequence
  random_uniform_f32 rng.random(1e7, dtype=np.float32) (PCG64; Ember: Philox 4x32-10)
  random_normal_f32  rng.standard_normal(1e7, dtype=np.float32) (NumPy: ziggurat; Ember: Box-Muller)
  random_normal_f64  rng.standard_normal(1e6) (float64)
  random_exponential_f64
                     rng.standard_exponential(1e6) (float64; NumPy: ziggurat; Ember: -log1p(-u))
  random_bernoulli_f64
                     rng.random(1e6) < 0.3 (Ember: random_bernoulli of a float64 p, 53-bit uniforms)
  random_gamma_f64   rng.standard_gamma(2.0, 1e6) (both Marsaglia-Tsang; NumPy: ziggurat normals,
                     Ember: Box-Muller)
  random_poisson_i64 rng.poisson(3.0, 1e6) (both multiplication of uniforms below 10)
  random_permutation rng.permutation(n), n = 1e4 and 1e6 (NumPy: Fisher-Yates; Ember: the stable argsort of
                     64-bit random words, one word pair an element)
  random_categorical_f32
                     one class per row of (64, 32000) float32 logits L by Gumbel-max, as a NumPy user
                     writes it: argmax(L - log(-log(rng.random(L.shape, float32))), axis=-1)
  random_choice_10   rng.choice(10, 1e6, p=[0.1] * 10) (NumPy: inverse CDF; Ember: random_categorical
                     of the float64 probabilities, Gumbel-max over the 10 classes of every sample)
  randint_i64        rng.integers(0, 100, 1e6) (int64; NumPy: Lemire's multiply-shift, Ember: w mod 100 of 64-bit words)
  var_rows_f32       x.var(axis=-1) of a (100000, 100) float32 array
  std_f32            x.std() of 1e7 float32 values
  nansum_f32         np.nansum(x) of 1e7 float32 values (no NaN among them: the common case)
  nanmax_f32         np.nanmax(x) of the same
  nanmean_rows_f32   np.nanmean(x, axis=-1) of a (100000, 100) float32 array
  histogram_f32      np.histogram(x, 100, (-4, 4)) of 1e6 float32 values uniform on [-4, 4)
  bincount_i64       np.bincount(x) of 1e6 int64 values uniform on [0, 1000)
  cummax_f32         np.maximum.accumulate(x) of 1e6 float32 values
  sort_f32           np.sort(x, kind="stable") of 1e7 values (Ember's sort is stable)
  sort_f32_default   np.sort(x) of the same values: NumPy's default, an unstable quicksort (AVX-512)
                     (also at 1e6, where the data fits in L3, and 1e4, in L2: one thread)
  sort_i32_default   np.sort(x) of 1e6 int32 values over the whole int32 range
  sort_i16_default, sort_u8_default
                     np.sort(x) of 1e6 int16 values in [-30000, 30000), of 1e6 uint8 values
  sort_f64_default   np.sort(x) of 1e4, 1e6 and 1e7 float64 values (NumPy's default dtype)
  argsort_f32        np.argsort(x) of 1e6 values (NumPy's default; Ember's argsort is stable)
                     (also 1e4)
  sort_rows_f32      np.sort(x) along the last axis of a (20000, 100) array: many short lines
                     (also (2000, 1000))
  argsort_rows_f32   np.argsort(x) along the last axis of a (20000, 100) array
  sort_rows_bool     np.sort(x) along the last axis of a (100000, 10) bool array, half true
                     (also (200, 10000): lines longer than the short ones)
  argsort_rows_f64   the same of float64 values
  cumsum_axis0_f32   np.cumsum(x, axis=0) of a (1000, 10000) array (NumPy sums in float32, Ember in double)
  argmax_f32         np.argmax(x) of 1e7 values
  all_f32            x.all() of 1e7 values (none zero)
  exp_f16, sin_f16, abs_f16, isnan_f16
                     np.exp(x), np.sin(x), np.abs(x), np.isnan(x) of 1e6 float16 values in [-3, 3]
  dot_f32            x @ x of two 1e6-vectors (one vector, with itself)
  add_transposed_f32 x.T + y of (1000, 1000) arrays
  add_transposed_f16 the same in float16
  copy_transposed_f32 np.ascontiguousarray(x.T) of a (2048, 2048) array
  astype_transposed_f32_f64 x.T.astype(np.float64) of the same
  roll_f32           np.roll(x, 1000) of 1e7 values
  roll_2d_f32        np.roll(x, (5, -7), axis=(0, 1)) of a (2048, 2048) array
  pad_reflect_f32    np.pad(x, 64, mode="reflect") of a (2048, 2048) array
  tril_f32           np.tril(x) of a (2048, 2048) array
  matmul_i32         a @ a of a (512, 512) int32 array (NumPy has no BLAS for integers either)
  matmul_i8          the same of int8 values in [-100, 100) (products wrap, as NumPy's)
  matvec_f32         m @ x of a (1000, 1000) array and a 1000-vector
  matvec_f64         the same in float64; matvec_f32 also of a (4096, 4096) array (64 MB)
  vecmat_f32         x @ m, the vector on the left (m's columns combined), float32 and float64,
                     (1000, 1000) and (4096, 4096)
  matvec_i32         m @ x of a (1000, 1000) int32 array and a 1000-vector, values in [-100, 100)
  matvec_tall_f32    m @ x of a (300000, k) float32 array, k = 3, 8 and 12 (a linear model's
                     predictions: rows shorter than, as long as and longer than a vector)
  vecmat_i8          x @ m of the same in int8 (products wrap, as NumPy's)
  add_matvec_f32     20 times: a + b of 1e6-vectors, then m @ x as above (an elementwise op
                     and a matrix-vector product in turn, both on the thread pool; NumPy's
                     GEMV on OpenBLAS's threads)
  matmul_tall_f32    x @ w of a (100000, 64) and a (64, 64) array
  matmul_tn_f32      x.T @ y of two (100000, 64) arrays
  gram_f32           x.T @ x of a (100000, 64) array (NumPy calls SYRK for it: one triangle's work)
  matmul_batched_f32 a @ b of a (B, m, k) and a (k, k) array; sizes BxMxK: 1024x16x16, 256x16x128, 64x256x64
  matmul_stepped_f32 a[..., ::2, ::2] @ b[..., ::2, ::2] (every other row and column: both operands
                     copied first, by NumPy too); sizes BxN: 1x1024, 64x32, 1000x8
  matmul_stacked_f32 a @ b of two (B, n, n) arrays (each product its own b); sizes BxN: 1024x16, 100000x3
  matmul_stacked_c64 the same for complex64 (real and imaginary parts uniform(-1, 1)); sizes BxN: 1024x16, 100000x3
  gram_c64           x.T @ x of a (2000, 300) complex64 array, not conjugated (NumPy calls CSYRK)
  solve_batched_f64  np.linalg.solve(a, b) of B well-conditioned n x n matrices and B (n, k) right-hand sides;
                     sizes BxNxK: 100000x3x1, 4096x8x1, 4096x8x8, 512x32x32
  inv_batched_f64, det_batched_f64, cholesky_batched_f64
                     np.linalg.inv / det / cholesky of B n x n matrices, uniform(-1, 1) + n I;
                     sizes BxN: 100000x3, 512x32
  slogdet_batched_f64 np.linalg.slogdet of 100000 such 3 x 3 matrices (sign and log|det|)
  svd_batched_f64    np.linalg.svd(a, full_matrices=False) of 1024 16 x 16 and 100000 3 x 3 matrices
  eigh_batched_f64   np.linalg.eigh(a) (the lower triangle) of 100000 3 x 3 matrices
  qr_batched_f64     np.linalg.qr(a) of 1024 16 x 16 and 100000 3 x 3 matrices
  eig_batched_f64    np.linalg.eig(a) of 256 32 x 32 matrices
  fft_c64            np.fft.fft(x) along the last axis of a (1024, 1024) complex64 array
  fft_long_c64       np.fft.fft(x) of one complex64 line of 2^20 values
  fft_prime_c64      np.fft.fft(x) of one complex64 line of 100003 values (a prime length)
  rfft_f32           np.fft.rfft(x) along the last axis of a (1024, 1024) float32 array
  irfft_f32          np.fft.irfft(y, 1024) of that array's rfft (complex64) along the last axis
  rfft_long_f64      np.fft.rfft(x) of one float64 line of 1e6 values
  abs_c64, multiply_c64, sum_c64, divide_c64
                     np.abs(z), a * b, z.sum(), a / b of 1e6 complex64 values (parts uniform(-1, 1))
  sum_axis0_c64      z.sum(axis=0) of a (1000, 1000) complex64 array
  vecdot_c64         np.vecdot(a, b) of (100000, 16) complex64 arrays: sum(conj(a) * b) along the last axis
  vecdot_c128        np.vecdot(a, b) of two 1e6 complex128 vectors (NumPy: one conjugating BLAS dot)
  vecdot_columns_c64 np.einsum('ij,ij->j', a.conj(), b) of the (100000, 16) complex64 arrays: vecdot
                     along axis 0 (np.vecdot(a, b, axis=0) takes about 3x longer)
  square_transposed_c64  np.square(z.T) of that array (both keep z.T's layout)
  prod_axis0_f32     x.prod(axis=0) of a (1000, 1000) float32 array (factors 2^u, u uniform(-1, 1))
  prod_f64           x.prod() of 1e6 float64 values 2^u, u uniform(-1/16, 1/16)
  abs_c128, norm_c128, mean_c128
                     np.abs(z), np.linalg.norm(z), z.mean() of 1e6 complex128 values
  divide_c128        a / b of 1e6 complex128 values (parts uniform(-1, 1))
  reciprocal_c64, reciprocal_c128
                     np.reciprocal(z) of 1e6 complex64 / complex128 values (parts uniform(-1, 1))
  divide_transposed_c64
                     a / b.T of (1000, 1000) complex64 arrays (parts uniform(-1, 1))
  norm_f64           np.linalg.norm(x) of 1e6 float64 values (in the L3 here)
  prod_c64           z.prod() of 1e6 complex64 values 2^(u/16) e^(i pi v), u, v uniform(-1, 1)
  prod_axis0_c128    z.prod(axis=0) of a (1000, 1000) complex128 array of such values
  prod_axis0_overflow_c128
                     z.prod(axis=0) of a (1000, 1000) complex128 array of real values uniform(1, 101):
                     every column overflows (NumPy's textbook products end in nan+nanj, Ember's
                     follow C99 Annex G as the reference does: inf+nanj)
  cumprod_axis0_c128 np.cumprod(z, axis=0) of the unit_complex (1000, 1000) complex128 array
  sort_c64, sort_c128, argsort_c128
                     np.sort(z), np.argsort(z) of 1e6 complex values (parts uniform(-1, 1);
                     by real part, then imaginary part)
  any_c64, count_nonzero_axis0_c64, astype_c64_i64
                     z.any(), np.count_nonzero(z, axis=0) of (1000, 1000), z.real.astype(np.int64)
                     of complex64 values (parts uniform(-1, 1); NumPy's z.astype warns, so .real)
  sum_bool           (x > 0).sum() of 1e7 values, the comparison made outside the timing (int64 result)
  count_nonzero_f32  np.count_nonzero(x) of 1e7 values, half zeros
  all_axis0_f32      x.all(axis=0) of a (1000, 1000) float32 array (uniform(0, 1))
  any_axis1_bool     b.any(axis=1) of a (1000, 1000) bool array (uniform(0, 1) > 0.5)
  all_axis0_bool     b.all(axis=0) of the same bools
  equal_bool         a == b of two 1e6 bool arrays
  argmax_bool        b.argmax() of 1e6 bools (NumPy and Ember stop at the first True)
  less_f32           a < b of 1e6 float32 values (uniform(-1, 1))
  where_f32          np.where(c, a, b) of 1e6 float32 values and as many random bools (half True)
  max_f16, argmax_axis1_f16
                     x.max(), x.argmax(axis=1) of a (1000, 1000) float16 array (uniform(-1, 1))
  remainder_f32, floor_divide_f16, remainder_f64
                     a % b of 1e6 float32 values, a // b of 1e6 float16 values, a % b of 1e6 float64
                     values (a, b uniform(0.5, 2))
  floor_divide_i32   a // b of 1e6 int32 values, a in [-100, 100), b in [1, 7)
  remainder_i64      a % b of the same values as int64
  pow_i32            a ** b of the int32 values of floor_divide_i32 (b in [1, 7))
  cumsum_i64         np.cumsum(a) of the int64 values of remainder_i64
  cumsum_axis0_narrow_f64  np.cumsum(x, axis=0) of a (100000, 10) float64 uniform(-1, 1) array
  cumsum_f32         np.cumsum(x) of 1e7 float32 uniform(-1, 1) (one line; NumPy sums in float32, Ember in
                     float64 as the reference, each total rounded to float32)
  cumsum_axis0_narrow_f16, max_rows_narrow_f16, argmax_axis0_narrow_f16
                     np.cumsum(h, axis=0), h.max(axis=1), h.argmax(axis=0) of that array as float16
  floor_divide_i8    a // b of the values of floor_divide_i32 as int8
  left_shift_i8      a << b of the same int8 values (b in [1, 7))
  right_shift_u16    (a + 100) >> b of the same values as uint16
  floor_divide_scalar_i64
                     a // 7 of the int64 values
  floor_divide_scalar_i32
                     a // 7 (NumPy divides by a scalar with libdivide)
  floor_divide_scalar_i8
                     a // 7 of the values as int8
  remainder_scalar_u16
                     (a + 100) % 7 as uint16
  floor_divide_scalar_i16
                     a // 7 of the values as int16
  astype_f32_u8      x.astype(np.uint8) of 1e7 values in [0, 255]
  astype_f64_f16     x.astype(np.float16) of 1e6 float64 values in [-1000, 1000]
  astype_f16_f64     h.astype(np.float64) of the same values as float16
  astype_f32_f16     x.astype(np.float16) of 1e6 float32 values in [-1000, 1000]
  astype_f16_f32     h.astype(np.float32) of the same values as float16
  astype_stepped_f32_f16
                     x[::2].astype(np.float16) of 2e6 float32 values in [-1000, 1000]
  pow2_f32           x ** 2 of 1e7 values (NumPy squares; Ember's pow too, for an exponent of 2)
  norm_f32           np.linalg.norm(x) of 1e7 values
  argmax_rows_f32    np.argmax(x, axis=1) of a (2000, 5000) and of a (1000, 1000) array
  sum_axis0_f32      x.sum(axis=0) of a (2000, 5000) array
  sum_axis0_stepped_f32, argmin_axis0_stepped_f32
                     x[:, ::2].sum(axis=0), np.argmin(x[:, ::2], axis=0) of a (2000, 10000)
                     array (every other column)
  sum_reversed_f32, max_reversed_f32
                     x[::-1].sum(), x[::-1].max() of 1e7 values
  argmax_stepped_f32 np.argmax(x[::2]) of 2e7 values
  sum_axis0_short_f32, sum_axis0_short_i32
                     x.sum(axis=0) of a (4, 262144) float32 / int32 array (four long rows)
  max_rows_short_f32, argmax_rows_short_f32
                     x.max(axis=-1), x.argmax(axis=-1) of a (1e6, 3) array (many short rows)
  max_rows_f32       x.max(axis=-1) of a (10000, 100) array (rows of a few vectors)
  argmax_axis0_f32, argmax_axis0_i16
                     np.argmax(x, axis=0) of a (1000, 1000) float32 / int16 array (in [-100, 100))
  argmax_axis0_tall_f32, argmax_axis0_tall_i64
                     np.argmax(x, axis=0) of a (100000, 3) float32 / int64 array (three long columns)
  argmax_rows_f64, argmax_rows_i32
                     np.argmax(x, axis=1) of a (10000, 100) float64 / int32 array (classes of a batch)
  argmax_rows_bool   np.argmax(x, axis=1) of a (10000, 100) bool array, 2% true (the first event of each row)
  max_bool           x.max() of 1e6 random bools (half true: decided at the first true)
  prod_axis0_i64     x.prod(axis=0) of a (1000, 1000) int64 array of values in [-3, 3] (wrapping)
  sum_axis0_i16      x.sum(axis=0) of a (1000, 1000) int16 array (in [-100, 100)): int64 sums
  sum_u8             x.sum() of 1e6 uint8 values (a uint64 sum)
  flip_copy_i64      np.ascontiguousarray(np.flip(x, axis=1)) of a (1000, 1000) int64 array
  vecdot_short_f32   np.vecdot(x, x) of a (100000, 16) array
  vecdot_points_f32  np.vecdot(a, b) of two (1e6, 3) arrays (a million 3-d points' dot products)
  vecdot_columns_f32 np.einsum('ij,ij->j', a, b) of two (2000, 2000) arrays: vecdot along axis 0
                     (np.vecdot(a, b, axis=0) takes several times longer: NumPy's fastest form)
  vecdot_columns_few_f32 the same of two (100000, 16) arrays
  norm_rows16_f32    np.linalg.norm(x, axis=1) of a (100000, 16) array (Ember: ember_vector_norm)
  take_along_axis_f32 np.take_along_axis(x, i, axis=1) of a (1024, 1024) array, random int64 i
  repeat_last_f32    np.repeat(x, 2, axis=-1) of a (1024, 1024) array
  astype_f32_c64     x.astype(np.complex64) of 1e6 values
  fftshift_f32       np.fft.fftshift(x) of a (1000, 1000) array (both axes)
  topk_rows_f32      the 10 largest of each row of a (1000, 1000) array with their indices, in order
                     (NumPy: argpartition, then an argsort of the 10; Ember: ember_topk)
  sum_rows3_f32      x.sum(axis=1) of a (10**6, 3) array (short rows: xyz points, RGB pixels)
  center_rows3_f32   x - x.max(axis=1, keepdims=True) of a (10**6, 3) array (a column broadcast)
  argmax_rows3_f32   np.argmax(x, axis=1) of a (10**6, 3) array
  norm_rows3_f32     np.linalg.norm(x, axis=1) of a (10**6, 3) array (Ember: ember_vector_norm)
  norm_axis0_f32     np.linalg.norm(x, axis=0) of a (1000, 1000) array
  exp_cols3_f32      np.exp(x.T) of a (3, 10**6) array (both keep x.T's layout for the result;
                     Ember wrote C order, rows of 3 read across, until the fifty-fourth session)
  argmax_cols3_f32   np.argmax(x.T, axis=1) of a (3, 10**6) array
  mean_axis0_rows3_f32  x.mean(axis=0) of a (10**6, 3) array (the centroid of points)
  channel_max_u8     x.max(axis=(0, 1)) of a (1000, 1000, 3) uint8 image
  bgr_take_u8        np.take(x, [2, 1, 0], axis=2) of a (1000, 1000, 3) uint8 image
  bgr_flip_u8        np.ascontiguousarray(x[..., ::-1]) of a (1000, 1000, 3) uint8 image
  negative_flip3_f32 np.negative(x[:, ::-1]) of a (10**6, 3) array (short rows read backwards)
  softmax_channels_f32  softmax over axis 1 of an (8, 21, 256, 256) array (the classes of a
                     segmentation map in NCHW), the NumPy expression of softmax_f32 along that axis
  softmax_axis0_f32  the same over axis 0 of a (3, 10**6) array
  softmax_logits_f32 the same along the last axis of a (1, 262144) array (one token's logits
                     over a 256k vocabulary: one long row)
  softmax_keys64_f32 the same along the last axis of a (65536, 64) array (attention weights
                     over 64 keys)
  softmax_classes24_f64  the same along the last axis of a (131072, 24) float64 array (a
                     mixture's responsibilities over 24 components)
  add_bcast_rows_f32 x + b of a (65536, 128) array and a (128,) bias (a row broadcast)
  pad_nchw_f32       np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1))) of an (8, 64, 128, 128) array
  sort_axis0_f32     np.sort(x, axis=0) of a (20000, 64) array (NumPy's default kind)
  argsort_rows3_f32  np.argsort(x, axis=1) of a (10**6, 3) array (NumPy's default; Ember's is stable)
  negative_transposed_u8  np.negative(x.T) of a (1000, 1000) uint8 array (both keep x.T's
                     layout for the result; Ember wrote C order until the fifty-fourth session)
  negative_transposed_i16, square_transposed_u8  np.negative(x.T) of a (1000, 1000) int16 array,
                     np.square(x.T) of a uint8 one (layouts as for negative_transposed_u8)
                     (negative_transposed_u8 also of a (1024, 1024) array: output rows 1 KiB apart)
  negative_transposed_f32  np.negative(x.T) of a (1024, 1024) float32 array (rows 4 KiB apart)
  add_stepped_i16, add_stepped_u8  x[::2] + x[1::2] of 2e6 int16 / uint8 values
  softmax_cols_f32   softmax over axis 0 of a (4096, 4096) array (down the columns)
  scatter_add_f32    np.add.at(np.zeros(1000, np.float32), i, x): 1e6 values into 1000 bins
                     (Ember: ember_scatter with EMBER_SCATTER_ADD)
  unique_counts_i16  np.unique(x, return_counts=True) of 1e6 int16 values in [-50, 50) (Ember:
                     ember_unique with values and counts, which counts a narrow range)
  full_f32           np.full(10**6, 0.5, dtype=np.float32) (Ember: ember_full)
  arange_i64         np.arange(10**6) (Ember: ember_arange, int64)
  iadd_f32           x += y of 1e7 values (NumPy's np.add(x, y, out=x); Ember's ember_elementwise_into)
  floor_f32, isnan_f32  np.floor(x), np.isnan(x) of 1e7 values
  round_i32, isnan_i32  np.round(x), np.isnan(x) of 1e7 int32 values in [-100, 100)
  mean_i32, var_i32, mean_i64, var_i64
                     x.mean(), x.var() of 1e7 int32 / int64 values in [-1e6, 1e6) (NumPy answers
                     in float64; Ember in float32, rounded once from an exact int64 sum for
                     the mean and from float64 for the variance)
  mean_u8            x.mean() of 1e7 uint8 values
  add_stepped_f32    x[::2] + x[1::2] of 2e7 values (1e7 results from two stepped views)
  add_reversed_f32   x[::-1] + y of 1e7 values
  nonzero_1d_bool    np.nonzero(b) of 1e7 bools, half true (Ember: ember_nonzero, (count, 1))
  count_nonzero_bool np.count_nonzero(b) of the same
  clip_f32           np.clip(x, -0.5, 0.5) of 1e7 values
  pow_f32            x ** 1.5 of 1e7 positive values (a non-integer exponent: the pow function itself)
  pow_half_f32       x ** 0.5 of 1e6 values in [-1, 1) (NumPy and Ember both take the square root)
  pow_f32@32768      x ** 1.5 of 32768 values (a size where the pool starts to pay)
  logaddexp_logspace_f64  np.logaddexp(a, b) of 1e6 float64 values in [-800, 0) (log-space:
                     differences past exp's range); softplus_wide_f32 np.logaddexp(x, 0) of
                     1e6 values in [-100, 100)
  take_small_table_f32  np.take(x, idx): 131072 random elements of a 1000-vector
  sum_axis0_mid_f32  x.sum(axis=0) of a (256, 1024) array (one block of rows)
  sort_rows10_f32    np.sort(x, axis=1) of a (1e5, 10) array; argsort_rows10_f32
                     np.argsort(x, axis=1, kind="stable") (Ember's argsort is stable)
  sort_rows12_f64    the same of a (1e5, 12) float64 array; argsort_rows12_f64
  leaky_relu_f32     np.where(x > 0, x, np.float32(0.01) * x) of 1e7 values (slope 0.01)
  logsumexp_rows_f32 the max-shifted logsumexp a user writes (m + log(sum(exp(x - m)))) along
                     the last axis of a (4096, 4096) array; logsumexp_cols_f32 along axis 0;
                     logsumexp_f32 of 1e7 values
Linear algebra (LINALG_CASES, float64 n x n; Ember's side: bench/cases_cpu_lapack.cpp):
  solve_f64 np.linalg.solve(a, b) with b a vector; inv_f64, det_f64, cholesky_f64, qr_f64
  (reduced), svd_f64 (full_matrices=False, with U and Vh), eigh_f64 (with the eigenvectors),
  lstsq_f64 (np.linalg.lstsq(a, b, rcond=None) with b a vector), lstsq_many_f64 (b n x n),
  svd_wide_f64 (reduced, with U and Vh, of an n/4 x n matrix)
"""
import argparse
import json
import sys
import time

try:
    import numpy as np
except ImportError:  # run_numpy.sh checks first; this is for direct use
    sys.exit("numpy_baseline.py: NumPy is not installed (pip install numpy)")


def best_of(reps, fn):
    fn()
    best = float("inf")
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def unit_complex(r, shape):
    """Factors of modulus near 1, 2^(u/16) e^(i pi v), so that long products stay in range."""
    return np.exp2(r.uniform(-1, 1, shape) / 16) * np.exp(1j * np.pi * r.uniform(-1, 1, shape))


def quietly(fn):
    """fn without NumPy's overflow warnings (its products overflow on purpose)."""
    def run(*args):
        with np.errstate(all="ignore"):
            return fn(*args)
    return run


def complex_uniform(r, shape):
    return (r.uniform(-1, 1, shape) + 1j * r.uniform(-1, 1, shape)).astype(np.complex64)


def gumbel_max(g, logits):
    with np.errstate(divide="ignore"):  # rng.random can give 0: log 0 = -inf, a score of -inf
        return np.argmax(logits - np.log(-np.log(g.random(logits.shape, dtype=np.float32))), axis=-1)


def top_rows(x, k):
    """The k largest of each row, largest first, with their indices (as ember_topk)."""
    idx = np.argpartition(x, -k, axis=1)[:, -k:]
    values = np.take_along_axis(x, idx, axis=1)
    order = np.argsort(-values, axis=1, kind="stable")
    return np.take_along_axis(values, order, axis=1), np.take_along_axis(idx, order, axis=1)


def scatter_add_1000(x, i):
    """ember_scatter's EMBER_SCATTER_ADD into 1000 float32 bins, as a NumPy user writes it."""
    out = np.zeros(1000, np.float32)
    np.add.at(out, i, x)
    return out


def size_name(n):
    return {10**6: "1e6", 10**7: "1e7"}.get(n, str(n))


def softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def logsumexp(x, axis):  # what a user writes without SciPy: max-shifted
    m = x.max(axis=axis, keepdims=True)
    return (m + np.log(np.exp(x - m).sum(axis=axis, keepdims=True))).squeeze(axis=axis)


# name -> (input range, function of the inputs)
CASES = {
    "add_f32": ((-1, 1), lambda a, b: a + b),
    "exp_f32": ((-10, 10), lambda a, b: np.exp(a)),
    "log_f32": ((1e-3, 1e3), lambda a, b: np.log(a)),
    "tanh_f32": ((-5, 5), lambda a, b: np.tanh(a)),
    "sigmoid_f32": ((-10, 10), lambda a, b: 1 / (1 + np.exp(-a))),
    "sin_f32": ((-10, 10), lambda a, b: np.sin(a)),
    "softplus_f32": ((-10, 10), lambda a, b: np.logaddexp(a, np.float32(0))),
    "cbrt_f32": ((-1e3, 1e3), lambda a, b: np.cbrt(a)),
    "gelu_tanh_f32": ((-5, 5), lambda a, b: 0.5 * a * (1 + np.tanh(0.7978845608028654 * (a + 0.044715 * (a * a * a))))),
    "sum_f32": ((-1, 1), lambda a, b: a.sum()),
    "mean_f32": ((-1, 1), lambda a, b: a.mean()),
}

# name -> (size label, setup(rng) -> inputs, function of the inputs); "name@size" keys a
# second size of a case
def tall_matrix_vector_case(rows, cols):
    """An INDEX_CASES entry: m @ x of a (rows, cols) float32 matrix and a cols-vector."""
    def setup(r):
        return r.uniform(-1, 1, (rows, cols)).astype(np.float32), r.uniform(-1, 1, cols).astype(np.float32)
    return f"{rows}x{cols}", setup, lambda m, x: m @ x


def matrix_vector_case(n, dtype, left):
    """An INDEX_CASES entry: an (n, n) matrix times an n-vector, the vector on the left (x @ m) or right."""
    def setup(r):
        if np.issubdtype(dtype, np.integer):
            return r.integers(-100, 100, (n, n)).astype(dtype), r.integers(-100, 100, n).astype(dtype)
        return r.uniform(-1, 1, (n, n)).astype(dtype), r.uniform(-1, 1, n).astype(dtype)
    return f"{n}x{n}", setup, (lambda m, x: x @ m) if left else (lambda m, x: m @ x)


INDEX_CASES = {
    "take_f32": ("1e5", lambda r: (r.uniform(-1, 1, 10**6).astype(np.float32), r.integers(0, 10**6, 10**5)), lambda x, i: np.take(x, i)),
    "take_rows_f32": ("1e6x16", lambda r: (r.uniform(-1, 1, (65536, 16)).astype(np.float32), r.integers(0, 65536, 10**6)),
                      lambda x, i: x[i]),
    "nonzero_f32": ("1000x10000", lambda r: (np.maximum(r.uniform(-1, 1, (1000, 10000)), 0).astype(np.float32),),
                    lambda x: np.argwhere(x)),
    "searchsorted_f32": ("1e7", lambda r: (np.sort(r.uniform(-1, 1, 10**4)).astype(np.float32), r.uniform(-1, 1, 10**7).astype(np.float32)),
                         lambda s, v: np.searchsorted(s, v)),
    "random_uniform_f32": ("1e7", lambda r: (r,), lambda g: g.random(10**7, dtype=np.float32)),
    "random_normal_f32": ("1e7", lambda r: (r,), lambda g: g.standard_normal(10**7, dtype=np.float32)),
    "random_normal_f64": ("1e6", lambda r: (r,), lambda g: g.standard_normal(10**6)),
    "random_exponential_f64": ("1e6", lambda r: (r,), lambda g: g.standard_exponential(10**6)),
    "random_bernoulli_f64": ("1e6", lambda r: (r,), lambda g: g.random(10**6) < 0.3),
    "random_gamma_f64": ("1e6", lambda r: (r,), lambda g: g.standard_gamma(2.0, 10**6)),
    "random_poisson_i64": ("1e6", lambda r: (r,), lambda g: g.poisson(3.0, 10**6)),
    "random_permutation@1e4": ("1e4", lambda r: (r,), lambda g: g.permutation(10**4)),
    "random_permutation@1e6": ("1e6", lambda r: (r,), lambda g: g.permutation(10**6)),
    "random_categorical_f32": ("64x32000", lambda r: (r, r.normal(size=(64, 32000)).astype(np.float32)), lambda g, x: gumbel_max(g, x)),
    "random_choice_10": ("1e6", lambda r: (r,), lambda g: g.choice(10, 10**6, p=np.full(10, 0.1))),
    "randint_i64": ("1e6", lambda r: (r,), lambda g: g.integers(0, 100, 10**6)),
    "var_rows_f32": ("100000x100", lambda r: (r.uniform(-1, 1, (100000, 100)).astype(np.float32),), lambda x: x.var(axis=-1)),
    "std_f32": ("1e7", lambda r: (r.uniform(-1, 1, 10**7).astype(np.float32),), lambda x: x.std()),
    "nansum_f32": ("1e7", lambda r: (r.uniform(-1, 1, 10**7).astype(np.float32),), lambda x: np.nansum(x)),
    "nanmax_f32": ("1e7", lambda r: (r.uniform(-1, 1, 10**7).astype(np.float32),), lambda x: np.nanmax(x)),
    "nanmean_rows_f32": ("100000x100", lambda r: (r.uniform(-1, 1, (100000, 100)).astype(np.float32),), lambda x: np.nanmean(x, axis=-1)),
    "histogram_f32": ("1e6", lambda r: (r.uniform(-4, 4, 10**6).astype(np.float32),), lambda x: np.histogram(x, 100, (-4, 4))),
    "bincount_i64": ("1e6", lambda r: (r.integers(0, 1000, 10**6),), lambda x: np.bincount(x)),
    "cummax_f32": ("1e6", lambda r: (r.uniform(-4, 4, 10**6).astype(np.float32),), lambda x: np.maximum.accumulate(x)),
    "sort_f32": ("1e7", lambda r: (r.uniform(-1, 1, 10**7).astype(np.float32),), lambda x: np.sort(x, kind="stable")),
    "sort_f32_default": ("1e7", lambda r: (r.uniform(-1, 1, 10**7).astype(np.float32),), lambda x: np.sort(x)),
    "sort_f32_default@1e6": ("1e6", lambda r: (r.uniform(-1, 1, 10**6).astype(np.float32),), lambda x: np.sort(x)),
    "sort_f32_default@1e4": ("1e4", lambda r: (r.uniform(-1, 1, 10**4).astype(np.float32),), lambda x: np.sort(x)),
    "sort_i16_default": ("1e6", lambda r: (r.integers(-30000, 30000, 10**6, dtype=np.int16),), lambda x: np.sort(x)),
    "sort_u8_default": ("1e6", lambda r: (r.integers(0, 256, 10**6, dtype=np.uint8),), lambda x: np.sort(x)),
    "sort_i32_default": ("1e6", lambda r: (r.integers(-2**31, 2**31, 10**6, dtype=np.int64).astype(np.int32),), lambda x: np.sort(x)),
    "sort_f64_default": ("1e7", lambda r: (r.uniform(-1, 1, 10**7),), lambda x: np.sort(x)),
    "sort_f64_default@1e6": ("1e6", lambda r: (r.uniform(-1, 1, 10**6),), lambda x: np.sort(x)),
    "sort_f64_default@1e4": ("1e4", lambda r: (r.uniform(-1, 1, 10**4),), lambda x: np.sort(x)),
    "argsort_f32": ("1e6", lambda r: (r.uniform(-1, 1, 10**6).astype(np.float32),), lambda x: np.argsort(x)),
    "argsort_f32@1e4": ("1e4", lambda r: (r.uniform(-1, 1, 10**4).astype(np.float32),), lambda x: np.argsort(x)),
    "sort_rows_f32": ("20000x100", lambda r: (r.uniform(-1, 1, (20000, 100)).astype(np.float32),), lambda x: np.sort(x, axis=-1)),
    "sort_rows_bool": ("100000x10", lambda r: (r.uniform(0, 1, (100000, 10)) < 0.5,), lambda x: np.sort(x, axis=-1)),
    "sort_rows_f32@2000x1000": ("2000x1000", lambda r: (r.uniform(-1, 1, (2000, 1000)).astype(np.float32),), lambda x: np.sort(x, axis=-1)),
    "argsort_rows_f32": ("20000x100", lambda r: (r.uniform(-1, 1, (20000, 100)).astype(np.float32),), lambda x: np.argsort(x, axis=-1)),
    "argsort_rows_f32@200x10000": ("200x10000", lambda r: (r.uniform(-1, 1, (200, 10000)).astype(np.float32),), lambda x: np.argsort(x, axis=-1)),
    "argsort_rows_f64": ("20000x100", lambda r: (r.uniform(-1, 1, (20000, 100)),), lambda x: np.argsort(x, axis=-1)),
    "cumsum_axis0_f32": ("1000x10000", lambda r: (r.uniform(-1, 1, (1000, 10000)).astype(np.float32),), lambda x: np.cumsum(x, axis=0)),
    "argmax_f32": ("1e7", lambda r: (r.uniform(-1, 1, 10**7).astype(np.float32),), lambda x: np.argmax(x)),
    "argmax_rows_f32@1000x1000": ("1000x1000", lambda r: (r.uniform(-1, 1, (1000, 1000)).astype(np.float32),), lambda x: np.argmax(x, axis=1)),
    "all_f32": ("1e7", lambda r: (r.uniform(0.5, 1, 10**7).astype(np.float32),), lambda x: x.all()),
    "exp_f16": ("1e6", lambda r: (r.uniform(-3, 3, 10**6).astype(np.float16),), lambda x: np.exp(x)),
    "sin_f16": ("1e6", lambda r: (r.uniform(-3, 3, 10**6).astype(np.float16),), lambda x: np.sin(x)),
    "abs_f16": ("1e6", lambda r: (r.uniform(-3, 3, 10**6).astype(np.float16),), lambda x: np.abs(x)),
    "isnan_f16": ("1e6", lambda r: (r.uniform(-3, 3, 10**6).astype(np.float16),), lambda x: np.isnan(x)),
    "dot_f32": ("1e6", lambda r: (r.uniform(-1, 1, 10**6).astype(np.float32),), lambda x: x @ x),
    "add_transposed_f32": ("1000x1000", lambda r: (r.uniform(-1, 1, (1000, 1000)).astype(np.float32), r.uniform(-1, 1, (1000, 1000)).astype(np.float32)),
                           lambda x, y: x.T + y),
    "copy_transposed_f32": ("2048x2048", lambda r: (r.uniform(-1, 1, (2048, 2048)).astype(np.float32),), lambda x: np.ascontiguousarray(x.T)),
    "astype_transposed_f32_f64": ("2048x2048", lambda r: (r.uniform(-1, 1, (2048, 2048)).astype(np.float32),), lambda x: x.T.astype(np.float64)),
    "roll_f32": ("1e7", lambda r: (r.uniform(-1, 1, 10**7).astype(np.float32),), lambda x: np.roll(x, 1000)),
    "roll_2d_f32": ("2048x2048", lambda r: (r.uniform(-1, 1, (2048, 2048)).astype(np.float32),), lambda x: np.roll(x, (5, -7), axis=(0, 1))),
    "pad_reflect_f32": ("2048x2048", lambda r: (r.uniform(-1, 1, (2048, 2048)).astype(np.float32),), lambda x: np.pad(x, 64, mode="reflect")),
    "tril_f32": ("2048x2048", lambda r: (r.uniform(-1, 1, (2048, 2048)).astype(np.float32),), lambda x: np.tril(x)),
    "add_transposed_f16": ("1000x1000", lambda r: (r.uniform(-1, 1, (1000, 1000)).astype(np.float16), r.uniform(-1, 1, (1000, 1000)).astype(np.float16)),
                           lambda x, y: x.T + y),
    "matmul_i32": ("512x512", lambda r: (r.integers(-100, 100, (512, 512)).astype(np.int32),), lambda a: a @ a),
    "matmul_i8": ("512x512", lambda r: (r.integers(-100, 100, (512, 512)).astype(np.int8),), lambda a: a @ a),
    "matvec_f32": matrix_vector_case(1000, np.float32, left=False),
    "matvec_f64": matrix_vector_case(1000, np.float64, left=False),
    "matvec_f32@4096": matrix_vector_case(4096, np.float32, left=False),
    "vecmat_f32": matrix_vector_case(1000, np.float32, left=True),
    "vecmat_f64": matrix_vector_case(1000, np.float64, left=True),
    "vecmat_f32@4096": matrix_vector_case(4096, np.float32, left=True),
    "matvec_i32": matrix_vector_case(1000, np.int32, left=False),
    "matvec_tall_f32": tall_matrix_vector_case(300000, 8),
    "matvec_tall_f32@3": tall_matrix_vector_case(300000, 3),
    "matvec_tall_f32@12": tall_matrix_vector_case(300000, 12),
    "vecmat_i8": matrix_vector_case(1000, np.int8, left=True),
    "add_matvec_f32": ("20x1e6", lambda r: (r.uniform(-1, 1, 10**6).astype(np.float32), r.uniform(-1, 1, (1000, 1000)).astype(np.float32),
                                            r.uniform(-1, 1, 1000).astype(np.float32)),
                       lambda a, m, x: [(a + a, m @ x) for _ in range(20)]),
    "matmul_tall_f32": ("100000x64", lambda r: (r.uniform(-1, 1, (100000, 64)).astype(np.float32), r.uniform(-1, 1, (64, 64)).astype(np.float32)),
                        lambda x, w: x @ w),
    "matmul_tn_f32": ("100000x64", lambda r: (r.uniform(-1, 1, (100000, 64)).astype(np.float32), r.uniform(-1, 1, (100000, 64)).astype(np.float32)),
                      lambda x, y: x.T @ y),
    "gram_f32": ("100000x64", lambda r: (r.uniform(-1, 1, (100000, 64)).astype(np.float32),), lambda x: x.T @ x),
    "matmul_batched_f32": ("1024x16x16", lambda r: (r.uniform(-1, 1, (1024, 16, 16)).astype(np.float32), r.uniform(-1, 1, (16, 16)).astype(np.float32)),
                           lambda a, b: a @ b),
    "matmul_batched_f32@256x16x128": ("256x16x128", lambda r: (r.uniform(-1, 1, (256, 16, 128)).astype(np.float32),
                                                               r.uniform(-1, 1, (128, 128)).astype(np.float32)), lambda a, b: a @ b),
    "matmul_batched_f32@64x256x64": ("64x256x64", lambda r: (r.uniform(-1, 1, (64, 256, 64)).astype(np.float32),
                                                             r.uniform(-1, 1, (64, 64)).astype(np.float32)), lambda a, b: a @ b),
    **{"matmul_stepped_f32" + ("" if bt == 1 else f"@{bt}x{n}"): (f"{bt}x{n}", lambda r, bt=bt, n=n: (r.uniform(-1, 1, (bt, 2 * n, 2 * n)).astype(np.float32),
                                                                                        r.uniform(-1, 1, (bt, 2 * n, 2 * n)).astype(np.float32)),
                                                                lambda a, b: a[..., ::2, ::2] @ b[..., ::2, ::2])
       for bt, n in [(1, 1024), (64, 32), (1000, 8)]},
    "matmul_stacked_f32": ("1024x16", lambda r: (r.uniform(-1, 1, (1024, 16, 16)).astype(np.float32), r.uniform(-1, 1, (1024, 16, 16)).astype(np.float32)),
                           lambda a, b: a @ b),
    "matmul_stacked_f32@100000x3": ("100000x3", lambda r: (r.uniform(-1, 1, (100000, 3, 3)).astype(np.float32),
                                                           r.uniform(-1, 1, (100000, 3, 3)).astype(np.float32)), lambda a, b: a @ b),
    "matmul_stacked_c64": ("1024x16", lambda r: (complex_uniform(r, (1024, 16, 16)), complex_uniform(r, (1024, 16, 16))), lambda a, b: a @ b),
    "gram_c64": ("2000x300", lambda r: (complex_uniform(r, (2000, 300)),), lambda x: x.T @ x),
    "matmul_stacked_c64@100000x3": ("100000x3", lambda r: (complex_uniform(r, (100000, 3, 3)), complex_uniform(r, (100000, 3, 3))),
                                    lambda a, b: a @ b),
    "solve_batched_f64@100000x3x1": ("100000x3x1", lambda r: (r.uniform(-1, 1, (100000, 3, 3)) + 3 * np.eye(3), r.uniform(-1, 1, (100000, 3, 1))),
                                     np.linalg.solve),
    "solve_batched_f64": ("4096x8x1", lambda r: (r.uniform(-1, 1, (4096, 8, 8)) + 8 * np.eye(8), r.uniform(-1, 1, (4096, 8, 1))),
                          np.linalg.solve),
    "solve_batched_f64@4096x8x8": ("4096x8x8", lambda r: (r.uniform(-1, 1, (4096, 8, 8)) + 8 * np.eye(8), r.uniform(-1, 1, (4096, 8, 8))),
                                   np.linalg.solve),
    "solve_batched_f64@512x32x32": ("512x32x32", lambda r: (r.uniform(-1, 1, (512, 32, 32)) + 32 * np.eye(32),
                                                           r.uniform(-1, 1, (512, 32, 32))), np.linalg.solve),
    "inv_batched_f64@100000x3": ("100000x3", lambda r: (r.uniform(-1, 1, (100000, 3, 3)) + 3 * np.eye(3),), np.linalg.inv),
    "inv_batched_f64": ("512x32", lambda r: (r.uniform(-1, 1, (512, 32, 32)) + 32 * np.eye(32),), np.linalg.inv),
    "det_batched_f64@100000x3": ("100000x3", lambda r: (r.uniform(-1, 1, (100000, 3, 3)) + 3 * np.eye(3),), np.linalg.det),
    "det_batched_f64": ("512x32", lambda r: (r.uniform(-1, 1, (512, 32, 32)) + 32 * np.eye(32),), np.linalg.det),
    "slogdet_batched_f64": ("100000x3", lambda r: (r.uniform(-1, 1, (100000, 3, 3)) + 3 * np.eye(3),), np.linalg.slogdet),
    "cholesky_batched_f64@100000x3": ("100000x3", lambda r: (r.uniform(-1, 1, (100000, 3, 3)) + 3 * np.eye(3),), np.linalg.cholesky),
    "cholesky_batched_f64": ("512x32", lambda r: (r.uniform(-1, 1, (512, 32, 32)) + 32 * np.eye(32),), np.linalg.cholesky),
    "svd_batched_f64": ("1024x16", lambda r: (r.uniform(-1, 1, (1024, 16, 16)),), lambda a: np.linalg.svd(a, full_matrices=False)),
    "svd_batched_f64@100000x3": ("100000x3", lambda r: (r.uniform(-1, 1, (100000, 3, 3)),), lambda a: np.linalg.svd(a, full_matrices=False)),
    "eigh_batched_f64": ("100000x3", lambda r: (r.uniform(-1, 1, (100000, 3, 3)),), np.linalg.eigh),
    "qr_batched_f64": ("1024x16", lambda r: (r.uniform(-1, 1, (1024, 16, 16)),), np.linalg.qr),
    "qr_batched_f64@100000x3": ("100000x3", lambda r: (r.uniform(-1, 1, (100000, 3, 3)),), np.linalg.qr),
    "eig_batched_f64": ("256x32", lambda r: (r.uniform(-1, 1, (256, 32, 32)),), np.linalg.eig),
    "fft_c64": ("1024x1024", lambda r: ((r.uniform(-1, 1, (1024, 1024)) + 1j * r.uniform(-1, 1, (1024, 1024))).astype(np.complex64),),
                lambda x: np.fft.fft(x, axis=-1)),
    "abs_c64": ("1e6", lambda r: (complex_uniform(r, 10**6),), np.abs),
    "multiply_c64": ("1e6", lambda r: (complex_uniform(r, 10**6), complex_uniform(r, 10**6)), lambda a, b: a * b),
    "sum_c64": ("1e6", lambda r: (complex_uniform(r, 10**6),), lambda z: z.sum()),
    "vecdot_c64": ("100000x16", lambda r: (complex_uniform(r, (100000, 16)), complex_uniform(r, (100000, 16))), np.vecdot),
    "vecdot_columns_c64": ("100000x16", lambda r: (complex_uniform(r, (100000, 16)), complex_uniform(r, (100000, 16))),
                           lambda a, b: np.einsum("ij,ij->j", a.conj(), b)),
    "vecdot_c128": ("1e6", lambda r: (complex_uniform(r, 10**6).astype(np.complex128), complex_uniform(r, 10**6).astype(np.complex128)), np.vecdot),
    "divide_c64": ("1e6", lambda r: (complex_uniform(r, 10**6), complex_uniform(r, 10**6)), lambda a, b: a / b),
    "prod_axis0_f32": ("1000x1000", lambda r: (np.exp2(r.uniform(-1, 1, (1000, 1000))).astype(np.float32),), lambda x: x.prod(axis=0)),
    "prod_f64": ("1e6", lambda r: (np.exp2(r.uniform(-1, 1, 10**6) / 16),), lambda x: x.prod()),
    "sum_axis0_c64": ("1000x1000", lambda r: (complex_uniform(r, (1000, 1000)),), lambda z: z.sum(axis=0)),
    "square_transposed_c64": ("1000x1000", lambda r: (complex_uniform(r, (1000, 1000)),), lambda z: np.square(z.T)),
    "abs_c128": ("1e6", lambda r: (complex_uniform(r, 10**6).astype(np.complex128),), np.abs),
    "norm_c128": ("1e6", lambda r: (complex_uniform(r, 10**6).astype(np.complex128),), lambda z: np.linalg.norm(z)),
    "mean_c128": ("1e6", lambda r: (complex_uniform(r, 10**6).astype(np.complex128),), lambda z: z.mean()),
    "divide_transposed_c64": ("1000x1000", lambda r: (complex_uniform(r, (1000, 1000)), complex_uniform(r, (1000, 1000))),
                              lambda a, b: a / b.T),
    "reciprocal_c64": ("1e6", lambda r: (complex_uniform(r, 10**6),), np.reciprocal),
    "reciprocal_c128": ("1e6", lambda r: (complex_uniform(r, 10**6).astype(np.complex128),), np.reciprocal),
    "divide_c128": ("1e6", lambda r: (complex_uniform(r, 10**6).astype(np.complex128), complex_uniform(r, 10**6).astype(np.complex128)),
                    lambda a, b: a / b),
    "prod_c64": ("1e6", lambda r: (unit_complex(r, 10**6).astype(np.complex64),), lambda z: z.prod()),
    "prod_axis0_c128": ("1000x1000", lambda r: (unit_complex(r, (1000, 1000)),), lambda z: z.prod(axis=0)),
    "prod_axis0_overflow_c128": ("1000x1000", lambda r: (r.uniform(1, 101, (1000, 1000)).astype(np.complex128),), quietly(lambda z: z.prod(axis=0))),
    "cumprod_axis0_c128": ("1000x1000", lambda r: (unit_complex(r, (1000, 1000)),), lambda z: np.cumprod(z, axis=0)),
    "sort_c64": ("1e6", lambda r: (complex_uniform(r, 10**6),), np.sort),
    "sort_c128": ("1e6", lambda r: (complex_uniform(r, 10**6).astype(np.complex128),), np.sort),
    "argsort_c128": ("1e6", lambda r: (complex_uniform(r, 10**6).astype(np.complex128),), np.argsort),
    "norm_f64": ("1e6", lambda r: (r.uniform(-1, 1, 10**6),), lambda x: np.linalg.norm(x)),
    "fft_long_c64": ("1048576", lambda r: ((r.uniform(-1, 1, 1 << 20) + 1j * r.uniform(-1, 1, 1 << 20)).astype(np.complex64),),
                     np.fft.fft),
    "rfft_f32": ("1024x1024", lambda r: (r.uniform(-1, 1, (1024, 1024)).astype(np.float32),), lambda x: np.fft.rfft(x, axis=-1)),
    "irfft_f32": ("1024x1024", lambda r: (np.fft.rfft(r.uniform(-1, 1, (1024, 1024)).astype(np.float32), axis=-1).astype(np.complex64),),
                  lambda y: np.fft.irfft(y, 1024, axis=-1)),
    "rfft_long_f64": ("1e6", lambda r: (r.uniform(-1, 1, 10**6),), np.fft.rfft),
    "fft_prime_c64": ("100003", lambda r: ((r.uniform(-1, 1, 100003) + 1j * r.uniform(-1, 1, 100003)).astype(np.complex64),),
                      np.fft.fft),
    "any_c64": ("1e6", lambda r: (complex_uniform(r, 10**6),), lambda z: z.any()),
    "count_nonzero_axis0_c64": ("1000x1000", lambda r: (complex_uniform(r, (1000, 1000)),), lambda z: np.count_nonzero(z, axis=0)),
    "astype_c64_i64": ("1e6", lambda r: (complex_uniform(r, 10**6),), lambda z: z.real.astype(np.int64)),
    "sum_bool": ("1e7", lambda r: (r.uniform(-1, 1, 10**7).astype(np.float32) > 0,), lambda b: b.sum()),
    "all_axis0_f32": ("1000x1000", lambda r: (r.uniform(0, 1, (1000, 1000)).astype(np.float32),), lambda x: x.all(axis=0)),
    "any_axis1_bool": ("1000x1000", lambda r: (r.uniform(0, 1, (1000, 1000)) > 0.5,), lambda b: b.any(axis=1)),
    "all_axis0_bool": ("1000x1000", lambda r: (r.uniform(0, 1, (1000, 1000)) > 0.5,), lambda b: b.all(axis=0)),
    "equal_bool": ("1e6", lambda r: (r.uniform(0, 1, 10**6) > 0.5, r.uniform(0, 1, 10**6) > 0.5), lambda a, b: a == b),
    "less_f32": ("1e6", lambda r: (r.uniform(-1, 1, 10**6).astype(np.float32), r.uniform(-1, 1, 10**6).astype(np.float32)), lambda a, b: a < b),
    "where_f32": ("1e6", lambda r: (r.uniform(-1, 1, 10**6) < r.uniform(-1, 1, 10**6), r.uniform(-1, 1, 10**6).astype(np.float32),
                                   r.uniform(-1, 1, 10**6).astype(np.float32)), np.where),
    "argmax_bool": ("1e6", lambda r: (r.uniform(0, 1, 10**6) > 0.5,), lambda b: b.argmax()),
    "max_f16": ("1000x1000", lambda r: (r.uniform(-1, 1, (1000, 1000)).astype(np.float16),), lambda x: x.max()),
    "argmax_axis1_f16": ("1000x1000", lambda r: (r.uniform(-1, 1, (1000, 1000)).astype(np.float16),), lambda x: x.argmax(axis=1)),
    "remainder_f32": ("1e6", lambda r: (r.uniform(0.5, 2, 10**6).astype(np.float32), r.uniform(0.5, 2, 10**6).astype(np.float32)), lambda a, b: a % b),
    "remainder_f64": ("1e6", lambda r: (r.uniform(0.5, 2, 10**6), r.uniform(0.5, 2, 10**6)), lambda a, b: a % b),
    "floor_divide_f16": ("1e6", lambda r: (r.uniform(0.5, 2, 10**6).astype(np.float16), r.uniform(0.5, 2, 10**6).astype(np.float16)), lambda a, b: a // b),
    "floor_divide_i32": ("1e6", lambda r: (r.integers(-100, 100, 10**6, dtype=np.int32), r.integers(1, 7, 10**6, dtype=np.int32)), lambda a, b: a // b),
    "remainder_i64": ("1e6", lambda r: (r.integers(-100, 100, 10**6), r.integers(1, 7, 10**6)), lambda a, b: a % b),
    "pow_i32": ("1e6", lambda r: (r.integers(-100, 100, 10**6, dtype=np.int32), r.integers(1, 7, 10**6, dtype=np.int32)), lambda a, b: a ** b),
    "left_shift_i8": ("1e6", lambda r: (r.integers(-100, 100, 10**6, dtype=np.int8), r.integers(1, 7, 10**6, dtype=np.int8)), lambda a, b: a << b),
    "right_shift_u16": ("1e6", lambda r: (r.integers(0, 200, 10**6, dtype=np.uint16), r.integers(1, 7, 10**6, dtype=np.uint16)), lambda a, b: a >> b),
    "floor_divide_i8": ("1e6", lambda r: (r.integers(-100, 100, 10**6, dtype=np.int8), r.integers(1, 7, 10**6, dtype=np.int8)), lambda a, b: a // b),
    "floor_divide_scalar_i64": ("1e6", lambda r: (r.integers(-100, 100, 10**6),), lambda a: a // np.int64(7)),
    "cumsum_i64": ("1e6", lambda r: (r.integers(-100, 100, 10**6),), lambda a: np.cumsum(a)),
    "cumsum_axis0_narrow_f64": ("100000x10", lambda r: (r.uniform(-1, 1, (100000, 10)),), lambda x: np.cumsum(x, axis=0)),
    "cumsum_f32": ("1e7", lambda r: (r.uniform(-1, 1, 10**7).astype(np.float32),), lambda x: np.cumsum(x)),
    "cumsum_axis0_narrow_f16": ("100000x10", lambda r: (r.uniform(-1, 1, (100000, 10)).astype(np.float16),), lambda x: np.cumsum(x, axis=0)),
    "max_rows_narrow_f16": ("100000x10", lambda r: (r.uniform(-1, 1, (100000, 10)).astype(np.float16),), lambda x: x.max(axis=1)),
    "argmax_axis0_narrow_f16": ("100000x10", lambda r: (r.uniform(-1, 1, (100000, 10)).astype(np.float16),), lambda x: x.argmax(axis=0)),
    "floor_divide_scalar_i8": ("1e6", lambda r: (r.integers(-100, 100, 10**6, dtype=np.int8),), lambda a: a // np.int8(7)),
    "remainder_scalar_u16": ("1e6", lambda r: (r.integers(0, 200, 10**6, dtype=np.uint16),), lambda a: a % np.uint16(7)),
    "floor_divide_scalar_i16": ("1e6", lambda r: (r.integers(-100, 100, 10**6, dtype=np.int16),), lambda a: a // np.int16(7)),
    "floor_divide_scalar_i32": ("1e6", lambda r: (r.integers(-100, 100, 10**6, dtype=np.int32),), lambda a: a // np.int32(7)),
    "count_nonzero_f32": ("1e7", lambda r: (np.maximum(r.uniform(-1, 1, 10**7), 0).astype(np.float32),), lambda x: np.count_nonzero(x)),
    "astype_stepped_f32_f16": ("1e6", lambda r: (r.uniform(-1000, 1000, 2 * 10**6).astype(np.float32),), lambda x: x[::2].astype(np.float16)),
    "astype_f32_f16": ("1e6", lambda r: (r.uniform(-1000, 1000, 10**6).astype(np.float32),), lambda x: x.astype(np.float16)),
    "astype_f16_f32": ("1e6", lambda r: (r.uniform(-1000, 1000, 10**6).astype(np.float16),), lambda h: h.astype(np.float32)),
    "astype_f64_f16": ("1e6", lambda r: (r.uniform(-1000, 1000, 10**6),), lambda x: x.astype(np.float16)),
    "astype_f16_f64": ("1e6", lambda r: (r.uniform(-1000, 1000, 10**6).astype(np.float16),), lambda h: h.astype(np.float64)),
    "astype_f32_u8": ("1e7", lambda r: (r.uniform(0, 255, 10**7).astype(np.float32),), lambda x: x.astype(np.uint8)),
    "pow2_f32": ("1e7", lambda r: (r.uniform(-1, 1, 10**7).astype(np.float32),), lambda x: x ** 2),
    "norm_f32": ("1e7", lambda r: (r.uniform(-1, 1, 10**7).astype(np.float32),), lambda x: np.linalg.norm(x)),
    "argmax_rows_f32": ("2000x5000", lambda r: (r.uniform(-1, 1, (2000, 5000)).astype(np.float32),), lambda x: np.argmax(x, axis=1)),
    "sum_axis0_f32": ("2000x5000", lambda r: (r.uniform(-1, 1, (2000, 5000)).astype(np.float32),), lambda x: x.sum(axis=0)),
    "sum_axis0_stepped_f32": ("2000x5000", lambda r: (r.uniform(-1, 1, (2000, 10000)).astype(np.float32),), lambda x: x[:, ::2].sum(axis=0)),
    "argmin_axis0_stepped_f32": ("2000x5000", lambda r: (r.uniform(-1, 1, (2000, 10000)).astype(np.float32),), lambda x: np.argmin(x[:, ::2], axis=0)),
    "sum_reversed_f32": ("1e7", lambda r: (r.uniform(-1, 1, 10**7).astype(np.float32),), lambda x: x[::-1].sum()),
    "max_reversed_f32": ("1e7", lambda r: (r.uniform(-1, 1, 10**7).astype(np.float32),), lambda x: x[::-1].max()),
    "argmax_stepped_f32": ("1e7", lambda r: (r.uniform(-1, 1, 2 * 10**7).astype(np.float32),), lambda x: np.argmax(x[::2])),
    "sum_axis0_short_f32": ("4x262144", lambda r: (r.uniform(-1, 1, (4, 262144)).astype(np.float32),), lambda x: x.sum(axis=0)),
    "sum_axis0_short_i32": ("4x262144", lambda r: (r.integers(-100, 100, (4, 262144), dtype=np.int32),), lambda x: x.sum(axis=0)),
    "max_rows_short_f32": ("1e6x3", lambda r: (r.uniform(-1, 1, (10**6, 3)).astype(np.float32),), lambda x: x.max(axis=-1)),
    "argmax_rows_short_f32": ("1e6x3", lambda r: (r.uniform(-1, 1, (10**6, 3)).astype(np.float32),), lambda x: x.argmax(axis=-1)),
    "max_rows_f32": ("10000x100", lambda r: (r.uniform(-1, 1, (10000, 100)).astype(np.float32),), lambda x: x.max(axis=-1)),
    "argmax_axis0_f32": ("1000x1000", lambda r: (r.uniform(-100, 100, (1000, 1000)).astype(np.float32),), lambda x: np.argmax(x, axis=0)),
    "argmax_axis0_i16": ("1000x1000", lambda r: (r.uniform(-100, 100, (1000, 1000)).astype(np.int16),), lambda x: np.argmax(x, axis=0)),
    "argmax_axis0_tall_f32": ("100000x3", lambda r: (r.uniform(-1, 1, (100000, 3)).astype(np.float32),), lambda x: np.argmax(x, axis=0)),
    "argmax_axis0_tall_i64": ("100000x3", lambda r: (r.integers(-10**6, 10**6, (100000, 3)),), lambda x: np.argmax(x, axis=0)),
    "argmax_rows_f64": ("10000x100", lambda r: (r.uniform(-1, 1, (10000, 100)),), lambda x: np.argmax(x, axis=1)),
    "argmax_rows_i32": ("10000x100", lambda r: (r.integers(-10**6, 10**6, (10000, 100), dtype=np.int32),), lambda x: np.argmax(x, axis=1)),
    "argmax_rows_bool": ("10000x100", lambda r: (r.uniform(0, 1, (10000, 100)) < 0.02,), lambda x: np.argmax(x, axis=1)),
    "max_bool": ("1e6", lambda r: (r.uniform(0, 1, 10**6) < 0.5,), lambda x: x.max()),
    "prod_axis0_i64": ("1000x1000", lambda r: (r.integers(-3, 4, (1000, 1000)),), lambda x: x.prod(axis=0)),
    "sum_axis0_i16": ("1000x1000", lambda r: (r.uniform(-100, 100, (1000, 1000)).astype(np.int16),), lambda x: x.sum(axis=0)),
    "sum_u8": ("1e6", lambda r: (r.integers(0, 256, 10**6, dtype=np.uint8),), lambda x: x.sum()),
    "flip_copy_i64": ("1000x1000", lambda r: (r.integers(-100, 100, (1000, 1000)),), lambda x: np.ascontiguousarray(np.flip(x, axis=1))),
    "vecdot_short_f32": ("100000x16", lambda r: (r.uniform(-1, 1, (100000, 16)).astype(np.float32),), lambda x: np.vecdot(x, x)),
    "norm_rows16_f32": ("100000x16", lambda r: (r.uniform(-1, 1, (100000, 16)).astype(np.float32),), lambda x: np.linalg.norm(x, axis=1)),
    "vecdot_points_f32": ("1e6x3", lambda r: (r.uniform(-1, 1, (10**6, 3)).astype(np.float32), r.uniform(-1, 1, (10**6, 3)).astype(np.float32)), np.vecdot),
    "vecdot_columns_f32": ("2000x2000", lambda r: (r.uniform(-1, 1, (2000, 2000)).astype(np.float32), r.uniform(-1, 1, (2000, 2000)).astype(np.float32)),
                           lambda a, b: np.einsum("ij,ij->j", a, b)),
    "vecdot_columns_few_f32": ("100000x16", lambda r: (r.uniform(-1, 1, (100000, 16)).astype(np.float32), r.uniform(-1, 1, (100000, 16)).astype(np.float32)),
                               lambda a, b: np.einsum("ij,ij->j", a, b)),
    "take_along_axis_f32": ("1024x1024", lambda r: (r.uniform(-1, 1, (1024, 1024)).astype(np.float32), r.integers(0, 1024, (1024, 1024))),
                            lambda x, i: np.take_along_axis(x, i, axis=1)),
    "repeat_last_f32": ("1024x1024", lambda r: (r.uniform(-1, 1, (1024, 1024)).astype(np.float32),), lambda x: np.repeat(x, 2, axis=-1)),
    "astype_f32_c64": ("1e6", lambda r: (r.uniform(-1, 1, 10**6).astype(np.float32),), lambda x: x.astype(np.complex64)),
    "fftshift_f32": ("1000x1000", lambda r: (r.uniform(-1, 1, (1000, 1000)).astype(np.float32),), np.fft.fftshift),
    "topk_rows_f32": ("1000x1000", lambda r: (r.uniform(-1, 1, (1000, 1000)).astype(np.float32),), lambda x: top_rows(x, 10)),
    "sum_rows3_f32": ("1e6x3", lambda r: (r.uniform(-1, 1, (10**6, 3)).astype(np.float32),), lambda x: x.sum(axis=1)),
    "center_rows3_f32": ("1e6x3", lambda r: (r.uniform(-1, 1, (10**6, 3)).astype(np.float32),), lambda x: x - x.max(axis=1, keepdims=True)),
    "argmax_rows3_f32": ("1e6x3", lambda r: (r.uniform(-1, 1, (10**6, 3)).astype(np.float32),), lambda x: np.argmax(x, axis=1)),
    "norm_rows3_f32": ("1e6x3", lambda r: (r.uniform(-1, 1, (10**6, 3)).astype(np.float32),), lambda x: np.linalg.norm(x, axis=1)),
    "norm_axis0_f32": ("1000x1000", lambda r: (r.uniform(-1, 1, (1000, 1000)).astype(np.float32),), lambda x: np.linalg.norm(x, axis=0)),
    "exp_cols3_f32": ("1e6x3", lambda r: (r.uniform(-1, 1, (3, 10**6)).astype(np.float32),), lambda x: np.exp(x.T)),
    "argmax_cols3_f32": ("1e6x3", lambda r: (r.uniform(-1, 1, (3, 10**6)).astype(np.float32),), lambda x: np.argmax(x.T, axis=1)),
    "mean_axis0_rows3_f32": ("1e6x3", lambda r: (r.uniform(-1, 1, (10**6, 3)).astype(np.float32),), lambda x: x.mean(axis=0)),
    "channel_max_u8": ("1000x1000x3", lambda r: (r.integers(0, 256, (1000, 1000, 3), dtype=np.uint8),), lambda x: x.max(axis=(0, 1))),
    "bgr_take_u8": ("1000x1000x3", lambda r: (r.integers(0, 256, (1000, 1000, 3), dtype=np.uint8),), lambda x: np.take(x, [2, 1, 0], axis=2)),
    "bgr_flip_u8": ("1000x1000x3", lambda r: (r.integers(0, 256, (1000, 1000, 3), dtype=np.uint8),), lambda x: np.ascontiguousarray(x[..., ::-1])),
    "negative_flip3_f32": ("1e6x3", lambda r: (r.uniform(-1, 1, (10**6, 3)).astype(np.float32),), lambda x: np.negative(x[:, ::-1])),
    "softmax_channels_f32": ("8x21x256x256", lambda r: (r.uniform(-10, 10, (8, 21, 256, 256)).astype(np.float32),), lambda x: softmax(x, 1)),
    "softmax_axis0_f32": ("3x1e6", lambda r: (r.uniform(-10, 10, (3, 10**6)).astype(np.float32),), lambda x: softmax(x, 0)),
    "softmax_logits_f32": ("1x262144", lambda r: (r.uniform(-10, 10, (1, 262144)).astype(np.float32),), lambda x: softmax(x, -1)),
    "softmax_keys64_f32": ("65536x64", lambda r: (r.uniform(-10, 10, (65536, 64)).astype(np.float32),), lambda x: softmax(x, -1)),
    "softmax_classes24_f64": ("131072x24", lambda r: (r.uniform(-10, 10, (131072, 24)),), lambda x: softmax(x, -1)),
    "add_bcast_rows_f32": ("65536x128", lambda r: (r.uniform(-1, 1, (65536, 128)).astype(np.float32), r.uniform(-1, 1, 128).astype(np.float32)),
                           lambda x, b: x + b),
    "pad_nchw_f32": ("8x64x128x128", lambda r: (r.uniform(-1, 1, (8, 64, 128, 128)).astype(np.float32),),
                     lambda x: np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))),
    "sort_axis0_f32": ("20000x64", lambda r: (r.uniform(-1, 1, (20000, 64)).astype(np.float32),), lambda x: np.sort(x, axis=0)),
    "argsort_rows3_f32": ("1e6x3", lambda r: (r.uniform(-1, 1, (10**6, 3)).astype(np.float32),), lambda x: np.argsort(x, axis=1)),
    "negative_transposed_u8": ("1000x1000", lambda r: (r.integers(0, 256, (1000, 1000), dtype=np.uint8),), lambda x: np.negative(x.T)),
    "negative_transposed_i16": ("1000x1000", lambda r: (r.integers(-1000, 1000, (1000, 1000), dtype=np.int16),), lambda x: np.negative(x.T)),
    "square_transposed_u8": ("1000x1000", lambda r: (r.integers(0, 256, (1000, 1000), dtype=np.uint8),), lambda x: np.square(x.T)),
    "negative_transposed_u8@1024": ("1024x1024", lambda r: (r.integers(0, 256, (1024, 1024), dtype=np.uint8),), lambda x: np.negative(x.T)),
    "negative_transposed_f32": ("1024x1024", lambda r: (r.uniform(-1, 1, (1024, 1024)).astype(np.float32),), lambda x: np.negative(x.T)),
    "add_stepped_i16": ("1e6", lambda r: (r.integers(0, 100, 2 * 10**6, dtype=np.int16),), lambda x: x[::2] + x[1::2]),
    "add_stepped_u8": ("1e6", lambda r: (r.integers(0, 100, 2 * 10**6, dtype=np.uint8),), lambda x: x[::2] + x[1::2]),
    "softmax_cols_f32": ("4096x4096", lambda r: (r.uniform(-5, 5, (4096, 4096)).astype(np.float32),), lambda x: softmax(x, 0)),
    "scatter_add_f32": ("1e6", lambda r: (r.uniform(-1, 1, 10**6).astype(np.float32), r.integers(0, 1000, 10**6)), scatter_add_1000),
    "unique_counts_i16": ("1e6", lambda r: (r.integers(-50, 50, 10**6).astype(np.int16),), lambda x: np.unique(x, return_counts=True)),
    "full_f32": ("1e6", lambda r: (), lambda: np.full(10**6, 0.5, dtype=np.float32)),
    "arange_i64": ("1e6", lambda r: (), lambda: np.arange(10**6)),
    "iadd_f32": ("1e7", lambda r: (r.uniform(-1, 1, 10**7).astype(np.float32), r.uniform(-1, 1, 10**7).astype(np.float32)),
                 lambda x, y: np.add(x, y, out=x)),
    "floor_f32": ("1e7", lambda r: (r.uniform(-100, 100, 10**7).astype(np.float32),), np.floor),
    "isnan_f32": ("1e7", lambda r: (r.uniform(-1, 1, 10**7).astype(np.float32),), np.isnan),
    "round_i32": ("1e7", lambda r: (r.integers(-100, 100, 10**7, dtype=np.int32),), np.round),
    "isnan_i32": ("1e7", lambda r: (r.integers(-100, 100, 10**7, dtype=np.int32),), np.isnan),
    "mean_i32": ("1e7", lambda r: (r.integers(-10**6, 10**6, 10**7, dtype=np.int32),), lambda x: x.mean()),
    "var_i32": ("1e7", lambda r: (r.integers(-10**6, 10**6, 10**7, dtype=np.int32),), lambda x: x.var()),
    "mean_i64": ("1e7", lambda r: (r.integers(-10**6, 10**6, 10**7),), lambda x: x.mean()),
    "var_i64": ("1e7", lambda r: (r.integers(-10**6, 10**6, 10**7),), lambda x: x.var()),
    "mean_u8": ("1e7", lambda r: (r.integers(0, 256, 10**7, dtype=np.uint8),), lambda x: x.mean()),
    "add_stepped_f32": ("1e7", lambda r: (r.uniform(-1, 1, 2 * 10**7).astype(np.float32),), lambda x: x[::2] + x[1::2]),
    "add_reversed_f32": ("1e7", lambda r: (r.uniform(-1, 1, 10**7).astype(np.float32), r.uniform(-1, 1, 10**7).astype(np.float32)),
                         lambda x, y: x[::-1] + y),
    "nonzero_1d_bool": ("1e7", lambda r: (r.uniform(-1, 1, 10**7) > 0,), np.nonzero),
    "count_nonzero_bool": ("1e7", lambda r: (r.uniform(-1, 1, 10**7) > 0,), np.count_nonzero),
    "clip_f32": ("1e7", lambda r: (r.uniform(-1, 1, 10**7).astype(np.float32),), lambda x: np.clip(x, -0.5, 0.5)),
    "pow_f32": ("1e7", lambda r: (r.uniform(0.1, 2, 10**7).astype(np.float32),), lambda x: x ** 1.5),
    "pow_f32@32768": ("32768", lambda r: (r.uniform(0.1, 2, 32768).astype(np.float32),), lambda x: x ** 1.5),
    "logaddexp_logspace_f64": ("1e6", lambda r: (r.uniform(-800, 0, 10**6), r.uniform(-800, 0, 10**6)), lambda a, b: np.logaddexp(a, b)),
    "softplus_wide_f32": ("1e6", lambda r: (r.uniform(-100, 100, 10**6).astype(np.float32),), lambda x: np.logaddexp(x, np.float32(0))),
    "take_small_table_f32": ("131072", lambda r: (r.uniform(-1, 1, 1000).astype(np.float32), r.integers(0, 1000, 131072)),
                             lambda x, i: np.take(x, i)),
    "sort_rows10_f32": ("1e5x10", lambda r: (r.uniform(-1, 1, (10**5, 10)).astype(np.float32),), lambda x: np.sort(x, axis=1)),
    "argsort_rows10_f32": ("1e5x10", lambda r: (r.uniform(-1, 1, (10**5, 10)).astype(np.float32),),
                           lambda x: np.argsort(x, axis=1, kind="stable")),
    "sort_rows12_f64": ("1e5x12", lambda r: (r.uniform(-1, 1, (10**5, 12)),), lambda x: np.sort(x, axis=1)),
    "argsort_rows12_f64": ("1e5x12", lambda r: (r.uniform(-1, 1, (10**5, 12)),), lambda x: np.argsort(x, axis=1, kind="stable")),
    "sum_axis0_mid_f32": ("256x1024", lambda r: (r.uniform(-1, 1, (256, 1024)).astype(np.float32),), lambda x: x.sum(axis=0)),
    "pow_half_f32": ("1e6", lambda r: (r.uniform(-1, 1, 10**6).astype(np.float32),), quietly(lambda x: x ** 0.5)),
    "leaky_relu_f32": ("1e7", lambda r: (r.uniform(-1, 1, 10**7).astype(np.float32),), lambda x: np.where(x > 0, x, np.float32(0.01) * x)),
    "logsumexp_rows_f32": ("4096x4096", lambda r: (r.uniform(-5, 5, (4096, 4096)).astype(np.float32),), lambda x: logsumexp(x, 1)),
    "logsumexp_cols_f32": ("4096x4096", lambda r: (r.uniform(-5, 5, (4096, 4096)).astype(np.float32),), lambda x: logsumexp(x, 0)),
    "logsumexp_f32": ("1e7", lambda r: (r.uniform(-5, 5, 10**7).astype(np.float32),), lambda x: logsumexp(x, None)),
}


def general(r, n):  # make_data in bench/cases_cpu_lapack.cpp: well conditioned
    return r.uniform(-1, 1, (n, n)) + n * np.eye(n)


def symmetric(r, n):
    return np.tril(r.uniform(-1, 1, (n, n))) + np.tril(r.uniform(-1, 1, (n, n)), -1).T


# name -> (function of (rng, n) -> inputs, np.linalg call); float64, n = 256 and 1024
LINALG_CASES = {
    "solve_f64": (lambda r, n: (general(r, n), r.uniform(-1, 1, n)), np.linalg.solve),
    "inv_f64": (lambda r, n: (general(r, n),), np.linalg.inv),
    "det_f64": (lambda r, n: (general(r, n),), np.linalg.det),
    "cholesky_f64": (lambda r, n: (symmetric(r, n) + 2 * n * np.eye(n),), np.linalg.cholesky),
    "qr_f64": (lambda r, n: (general(r, n),), np.linalg.qr),
    "svd_f64": (lambda r, n: (general(r, n),), lambda a: np.linalg.svd(a, full_matrices=False)),
    "eigh_f64": (lambda r, n: (symmetric(r, n),), np.linalg.eigh),
    "lstsq_f64": (lambda r, n: (general(r, n), r.uniform(-1, 1, n)), lambda a, b: np.linalg.lstsq(a, b, rcond=None)),
    "lstsq_many_f64": (lambda r, n: (general(r, n), symmetric(r, n)), lambda a, b: np.linalg.lstsq(a, b, rcond=None)),
    "svd_wide_f64": (lambda r, n: (general(r, n)[: n // 4],), lambda a: np.linalg.svd(a, full_matrices=False)),
}
LINALG_SIZES = {"solve_f64": (256, 1024), "inv_f64": (256, 1024), "det_f64": (256, 1024), "cholesky_f64": (256, 1024),
                "qr_f64": (256,), "svd_f64": (256,), "eigh_f64": (256,), "lstsq_f64": (256,),
                "lstsq_many_f64": (256,), "svd_wide_f64": (1024,)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("filters", nargs="*", help="case-name substrings (as for ember-bench); none: all")
    args = ap.parse_args()

    def wanted(name):
        return not args.filters or any(f in name or f in "numpy" for f in args.filters)

    rng = np.random.default_rng(1)
    reps = 5 if args.quick else 15
    times = {}
    for name, ((lo, hi), fn) in CASES.items():
        if not wanted(name):
            continue
        for n in (10**6, 10**7):
            a = rng.uniform(lo, hi, n).astype(np.float32)
            b = rng.uniform(lo, hi, n).astype(np.float32)
            times[f"{name}/{size_name(n)}"] = best_of(reps, lambda: fn(a, b))
    if wanted("softmax_f32"):
        rows, cols = (1024 if args.quick else 4096), 4096
        x = rng.uniform(-5, 5, (rows, cols)).astype(np.float32)
        times[f"softmax_f32/{rows}x{cols}"] = best_of(3 if args.quick else 7, lambda: softmax(x))
    for name, (size, setup, fn) in INDEX_CASES.items():
        if wanted(name):
            data = setup(np.random.default_rng(2))
            # NumPy's searchsorted and stable sort take ~1 s a call here: fewer repetitions
            slow = name in ("searchsorted_f32", "sort_f32", "sort_f32_default", "matmul_i32", "matmul_i8")
            times[f"{name.split('@')[0]}/{size}"] = best_of(min(reps, 5) if slow else reps, lambda: fn(*data))
    for name, (setup, fn) in LINALG_CASES.items():
        if wanted(name):
            for n in LINALG_SIZES[name]:
                data = setup(np.random.default_rng(3), n)
                times[f"{name}/{n}"] = best_of((2 if args.quick else 5) if n >= 1024 else reps, lambda: fn(*data))
    with open(args.out, "w") as f:
        json.dump(times, f)
    print(f"numpy_baseline.py: NumPy {np.__version__}, {len(times)} timings", file=sys.stderr)


if __name__ == "__main__":
    main()
