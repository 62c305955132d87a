// Conversions between dtypes,
// for the ISA simd_impl.cpp is being compiled for (included there, inside its anonymous
// namespace, after the vector types and helpers it defines).

#if defined(__AVX512BW__)
// Sixteen lanes a step and a masked last step: float32 -> float16 took 8.7 us for 65536
// elements in the 8-lane loop below (its NaN fix-up packs a 256-bit compare), 4.0 here;
// float32 -> bfloat16's compiled scalar loop 8.5, 6.6 here (one thread, in cache).
inline __mmask16 first_lanes16(int64_t count) { return (__mmask16)((1u << count) - 1); }

// out[i] = Lanes(in[i]) sixteen at a time, 16-bit values to float32 (widen16) or back
// (narrow16); the masked last step reads and writes only the elements that are there.
template <__m512 (*Lanes)(__m256i)>
void widen16(const void* in, void* out, int64_t n) {
    const uint16_t* x = (const uint16_t*)in;
    float* o = (float*)out;
    int64_t i = 0;
    for (; i + 16 <= n; i += 16) _mm512_storeu_ps(o + i, Lanes(_mm256_loadu_si256((const __m256i*)(x + i))));
    if (i < n) {
        const __mmask16 m = first_lanes16(n - i);
        _mm512_mask_storeu_ps(o + i, m, Lanes(_mm256_maskz_loadu_epi16(m, x + i)));
    }
}
template <__m256i (*Lanes)(__m512)>
void narrow16(const void* in, void* out, int64_t n) {
    const float* x = (const float*)in;
    uint16_t* o = (uint16_t*)out;
    int64_t i = 0;
    for (; i + 16 <= n; i += 16) _mm256_storeu_si256((__m256i*)(o + i), Lanes(_mm512_loadu_ps(x + i)));
    if (i < n) {
        const __mmask16 m = first_lanes16(n - i);
        _mm256_mask_storeu_epi16(o + i, m, Lanes(_mm512_maskz_loadu_ps(m, x + i)));
    }
}

inline __m512 f16_to_f32_lanes(__m256i h) { return _mm512_cvtph_ps(h); }
inline __m512 bf16_to_f32_lanes(__m256i h) { return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16)); }
// Hardware rounding to nearest even, as the scalar code; a NaN becomes sign | 0x7e00 (the
// hardware keeps the payload's top bits).
inline __m256i f32_to_f16_lanes(__m512 v) {
    const __m256i h = _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    const __mmask16 nan = _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q);
    return _mm256_mask_blend_epi16(nan, h, _mm256_or_si256(_mm256_and_si256(h, _mm256_set1_epi16((short)0x8000)), _mm256_set1_epi16(0x7e00)));
}
// The scalar code's rounding to nearest even on the bits; a NaN keeps its top half with the
// quiet bit set.
inline __m256i f32_to_bf16_lanes(__m512 v) {
    const __m512i u = _mm512_castps_si512(v);
    const __m512i odd = _mm512_and_si512(_mm512_srli_epi32(u, 16), _mm512_set1_epi32(1));
    const __m512i rounded = _mm512_add_epi32(u, _mm512_add_epi32(_mm512_set1_epi32(0x7fff), odd));
    const __mmask16 nan = _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q);
    const __m512i bits = _mm512_mask_or_epi32(rounded, nan, u, _mm512_set1_epi32(0x400000));
    return _mm512_cvtepi32_epi16(_mm512_srli_epi32(bits, 16));
}
void cvt_f16_f32(const void* in, void* out, int64_t n) { widen16<f16_to_f32_lanes>(in, out, n); }
void cvt_bf16_f32(const void* in, void* out, int64_t n) { widen16<bf16_to_f32_lanes>(in, out, n); }
void cvt_f32_f16(const void* in, void* out, int64_t n) { narrow16<f32_to_f16_lanes>(in, out, n); }
void cvt_f32_bf16(const void* in, void* out, int64_t n) { narrow16<f32_to_bf16_lanes>(in, out, n); }
#else
void cvt_f16_f32(const void* in, void* out, int64_t n) {
    const uint16_t* x = (const uint16_t*)in;
    float* o = (float*)out;
    int64_t i = 0;
#if defined(__F16C__)
    for (; i + 8 <= n; i += 8) _mm256_storeu_ps(o + i, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i*)(x + i))));
#endif
    for (; i < n; ++i) o[i] = ember_float16::to_float(x[i]);
}
void cvt_f32_f16(const void* in, void* out, int64_t n) {
    const float* x = (const float*)in;
    uint16_t* o = (uint16_t*)out;
    int64_t i = 0;
#if defined(__F16C__)
    // Hardware conversion rounds to nearest even like the scalar code; it keeps a NaN's top
    // payload bits, where the reference writes sign | 0x7e00: NaN lanes are replaced.
    const __m128i sign = _mm_set1_epi16((short)0x8000), quiet = _mm_set1_epi16(0x7e00);
    for (; i + 8 <= n; i += 8) {
        const __m256 v = _mm256_loadu_ps(x + i);
        const __m128i h = _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
        const __m256i nan = _mm256_castps_si256(_mm256_cmp_ps(v, v, _CMP_UNORD_Q));
        const __m128i nan16 = _mm_packs_epi32(_mm256_castsi256_si128(nan), _mm256_extracti128_si256(nan, 1));
        _mm_storeu_si128((__m128i*)(o + i), _mm_blendv_epi8(h, _mm_or_si128(_mm_and_si128(h, sign), quiet), nan16));
    }
#endif
    for (; i < n; ++i) o[i] = ember_float16::from_float(x[i]);
}
// The float32 side as float objects (bits through memcpy): a uint32_t store into a float
// that the caller then reads as float could be reordered under strict aliasing.
void cvt_bf16_f32(const void* in, void* out, int64_t n) {
    const uint16_t* x = (const uint16_t*)in;
    float* o = (float*)out;
    for (int64_t i = 0; i < n; ++i) o[i] = ember_float16::bf16_to_float(x[i]);
}
void cvt_f32_bf16(const void* in, void* out, int64_t n) {
    const float* x = (const float*)in;
    uint16_t* o = (uint16_t*)out;
    for (int64_t i = 0; i < n; ++i) {
        uint32_t u;
        memcpy(&u, x + i, 4);
        if ((u & 0x7fffffffu) > 0x7f800000u) {
            o[i] = (uint16_t)((u >> 16) | 0x40);
        } else {
            u += 0x7fffu + ((u >> 16) & 1u);
            o[i] = (uint16_t)(u >> 16);
        }
    }
}
#endif
void cvt_f32_f64(const void* in, void* out, int64_t n) {
    const float* x = (const float*)in;
    double* o = (double*)out;
    for (int64_t i = 0; i < n; ++i) o[i] = (double)x[i];
}
void cvt_f64_f32(const void* in, void* out, int64_t n) {
    const double* x = (const double*)in;
    float* o = (float*)out;
    for (int64_t i = 0; i < n; ++i) o[i] = (float)x[i];
}
// float64 -> float32 rounded to odd (ember_float16::to_float_odd), a vector at a time: the
// nearest float, one step toward zero where that rounded away from zero, the last bit set
// where anything was lost.
void cvt_f64_f32_odd(const double* x, float* o, int64_t n) {
    typedef typename VT<float, VB / 2>::type Half;  // W<double> floats
    typedef typename VT<uint32_t, VB / 2>::type HalfBits;
    constexpr int w = W<double>;
    const V<int64_t> magnitude = splat<int64_t>(INT64_MAX);
    int64_t i = 0;
    for (; i + w <= n; i += w) {
        const V<double> d = load(x + i);
        const Half f = __builtin_convertvector(d, Half);
        const V<double> back = __builtin_convertvector(f, V<double>);
        const V<int64_t> lost = (back != d) & (d == d);
        const V<int64_t> away = lost & (((V<int64_t>)back & magnitude) > ((V<int64_t>)d & magnitude));
        HalfBits bits;
        memcpy(&bits, &f, sizeof f);
        bits += __builtin_convertvector(away, HalfBits);  // -1: one step toward zero
        bits |= __builtin_convertvector(lost, HalfBits) & 1u;
        memcpy(o + i, &bits, sizeof bits);
    }
    for (; i < n; ++i) o[i] = ember_float16::to_float_odd(x[i]);
}

// Conversions through float32 in L1-sized pieces, Up into a float buffer, then Down:
// float64 -> float16/bfloat16 rounded once (through floats rounded to odd, then the float32
// conversion to nearest even); float16/bfloat16 -> float64 (exact), and between the half
// types (rounded once, as the reference's conversion through float). The reference converted
// the latter element by element: astype of 1e6 float16 to float64 took 0.95 ms.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
template <class In, auto Up, auto Down, class Out>
void cvt_via_f32(const void* in, void* out, int64_t n) {
    alignas(64) float buf[1024];
    for (int64_t i = 0; i < n; i += 1024) {
        const int64_t m = n - i < 1024 ? n - i : 1024;
        Up((const In*)in + i, buf, m);
        Down(buf, (Out*)out + i, m);
    }
}
#pragma GCC diagnostic pop

// float16/bfloat16 sums and products: L1-sized chunks converted to float32, then the
// float32 kernels Fold (row_sum_flt, row_prod_flt) and ColFold (col_sum_flt, col_prod_flt):
// double accumulators, as the reference's. GCC cannot see that Up fills the buffer.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
template <CvtFn Up, RowFn Fold>
void row_half(const void* x, int64_t n, void* acc) {
    alignas(64) float buf[1024];
    for (int64_t i = 0; i < n; i += 1024) {
        const int64_t m = n - i < 1024 ? n - i : 1024;
        Up((const uint16_t*)x + i, buf, m);
        Fold(buf, m, acc);
    }
}
template <CvtFn Up, ColFn ColFold>
void col_half_row(const void* x, int64_t n, void* acc) {
    alignas(64) float buf[1024];
    const void* rows[1] = {buf};
    for (int64_t j = 0; j < n; j += 1024) {
        const int64_t m = n - j < 1024 ? n - j : 1024;
        Up((const uint16_t*)x + j, buf, m);
        ColFold(rows, 1, m, (double*)acc + j);
    }
}

// float16/bfloat16 max/min: float32 holds every value exactly, so the float32 pick (first of
// equal values, the last NaN) finds the same element, and a value that is not NaN converts
// back to the element's bits, -0 included. NaN results are written as the reference's
// conversion writes them by reduce.cpp's quiet_nans, after the whole reduction.
template <CvtFn Up, CvtFn Down, bool IsMax>
void row_minmax_half(const void* in, int64_t n, void* acc) {
    const uint16_t* x = (const uint16_t*)in;
    alignas(64) float buf[1024];
    float best;
    Up(acc, &best, 1);
    for (int64_t i = 0; i < n; i += 1024) {
        const int64_t m = n - i < 1024 ? n - i : 1024;
        Up(x + i, buf, m);
        row_minmax<float, IsMax>(buf, m, &best);
    }
    Down(&best, acc, 1);
}
template <CvtFn Up, bool IsMax>
void col_minmax_half_row(const void* in, int64_t n, void* accv) {
    const uint16_t* x = (const uint16_t*)in;
    uint16_t* acc = (uint16_t*)accv;
    alignas(64) float fa[512], fx[512];
    for (int64_t j = 0; j < n; j += 512) {
        const int64_t m = n - j < 512 ? n - j : 512;
        Up(acc + j, fa, m);
        Up(x + j, fx, m);
        for (int64_t k = 0; k < m; ++k) {
            const bool take = fx[k] != fx[k] || (IsMax ? fx[k] > fa[k] : fx[k] < fa[k]);
            acc[j + k] = take ? x[j + k] : acc[j + k];
        }
    }
}
#pragma GCC diagnostic pop
