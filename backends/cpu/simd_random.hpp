// The vector parts of the random family (random_ops.cpp): Philox words, and
// random_categorical's exponentials and race. Included by simd_impl.cpp (one copy per ISA).

// Philox 4x32-10 words (the stream layout is in docs/numerics-random.md): block b is
// Philox(key, {lo32(b), hi32(b), trial, 0}) and its four words are out[4b .. 4b+3]; random_bits
// has trial 0, the per-element samplers' trial j of element b is block b with trial j.
// One block per 64-bit lane, then interleaved into word order.

// Full 64-bit products of the low 32 bits of each 64-bit lane (pmuludq): x86 has it at
// every width, where a plain 64-bit vector multiply would be emulated on AVX2 and SSE2.
inline __attribute__((always_inline)) V<uint64_t> mul_low32(V<uint64_t> x, V<uint64_t> m) {
#if defined(__AVX512F__)
    // the masked form with a zero source: GCC 12's _mm512_mul_epu32 trips
    // -Wmaybe-uninitialized on its own undefined source operand (GCC bug 105593)
    return (V<uint64_t>)_mm512_maskz_mul_epu32((__mmask8)0xff, (__m512i)x, (__m512i)m);
#elif defined(__AVX2__)
    return (V<uint64_t>)_mm256_mul_epu32((__m256i)x, (__m256i)m);
#elif defined(__SSE2__)
    return (V<uint64_t>)_mm_mul_epu32((__m128i)x, (__m128i)m);
#else
    return (x & 0xffffffffu) * (m & 0xffffffffu);
#endif
}

// Each block's four words sit in the low halves of 64-bit lanes: one pmuludq gives a word's
// whole product, its high half one shift away, its low half already in place. The high
// halves of the state carry garbage (the products' high words, the counter's high half),
// which the multiplications ignore and xor keeps out of the low halves; the low halves are
// what the store keeps. Two vectors of blocks at a time hide the multiplications' latency.
void philox_words(uint64_t key, uint64_t first_block, uint32_t* out, int64_t nblocks, uint32_t trial) {
    using VQ = V<uint64_t>;
    constexpr int L = W<uint64_t>, kUnroll = 2, kBlocks = L * kUnroll;
    const VQ m0 = (VQ){} + 0xD2511F53u, m1 = (VQ){} + 0xCD9E8D57u;
    VQ lane;
    for (int i = 0; i < L; ++i) lane[i] = (uint64_t)i;
    // Block i's words 0-1 and 2-3 as 64-bit halves: (w0 | w1 << 32) from lanes of c0 and c1.
    VQ pick_first, pick_second;
    for (int i = 0; i < L; ++i) {
        pick_first[i] = (uint64_t)(i / 2 + (i % 2) * L);
        pick_second[i] = (uint64_t)(L / 2 + i / 2 + (i % 2) * L);
    }
    alignas(64) uint32_t staged[4 * kBlocks];
    for (int64_t b = 0; b < nblocks; b += kBlocks) {
        VQ c0[kUnroll], c1[kUnroll], c2[kUnroll], c3[kUnroll];
        for (int u = 0; u < kUnroll; ++u) {
            const VQ block = lane + (first_block + (uint64_t)(b + u * L));
            c0[u] = block, c1[u] = block >> 32, c2[u] = (VQ){} + trial, c3[u] = (VQ){};
        }
        uint64_t k0 = (uint32_t)key, k1 = (uint32_t)(key >> 32);
        for (int r = 0; r < 10; ++r) {
            if (r) {
                k0 = (uint32_t)(k0 + 0x9E3779B9u);
                k1 = (uint32_t)(k1 + 0xBB67AE85u);
            }
            for (int u = 0; u < kUnroll; ++u) {
                const VQ p0 = mul_low32(c0[u], m0), p1 = mul_low32(c2[u], m1);
                c0[u] = (p1 >> 32) ^ c1[u] ^ k0;
                c2[u] = (p0 >> 32) ^ c3[u] ^ k1;
                c1[u] = p1;
                c3[u] = p0;
            }
        }
        const int64_t n = nblocks - b < kBlocks ? nblocks - b : kBlocks;
        uint32_t* o = n == kBlocks ? out + 4 * b : staged;
        for (int u = 0; u < kUnroll; ++u) {
            const VQ low = (VQ){} + 0xffffffffu;
            const VQ w01 = (c0[u] & low) | (c1[u] << 32), w23 = (c2[u] & low) | (c3[u] << 32);
            store_vec(o + 4 * L * u, __builtin_shuffle(w01, w23, pick_first));
            store_vec(o + 4 * L * u + 2 * L, __builtin_shuffle(w01, w23, pick_second));
        }
        if (o == staged) memcpy(out + 4 * b, staged, (size_t)(4 * n) * sizeof(uint32_t));
    }
}

// random_categorical's exponentials: out[k] = -log(u_k), u_k the open unit uniform of words
// k (float32: (2m + 1) 2^-24, m = w[k] >> 9) or 2k, 2k + 1 (float64: (2m + 1) 2^-53,
// m = (w[2k] >> 5) 2^25 + (w[2k + 1] >> 7)), exact as src/ops/random.cpp's open_unit_uniform,
// through the vector log of U_LOG and negated as 0 - x: the composite's values bit for bit.
// The lanes past n are padded with a real element. With kFast (float64 only), -log(u) comes
// from neg_log_fast instead: the exponentials of the race, which only needs them to within
// kRaceExponentialError (neg_log_fast.hpp).
template <class T, bool kFast = false>
void neg_log_open_uniform(const uint32_t* words, int64_t n, void* out) {
    constexpr int L = W<T>, kWords = sizeof(T) / 4;
    T* o = (T*)out;
    for (int64_t i = 0; i < n; i += L) {
        const int64_t m = n - i < L ? n - i : L;
        uint32_t padded[L * kWords];
        const uint32_t* w = words + i * kWords;
        if (m < L) {
            for (int k = 0; k < L; ++k)
                for (int j = 0; j < kWords; ++j) padded[k * kWords + j] = words[(i + (k < m ? k : 0)) * kWords + j];
            w = padded;
        }
        V<T> e;
        if constexpr (sizeof(T) == 4) {
            const V<uint32_t> q = load(w);
            const V<float> u = (__builtin_convertvector((V<int32_t>)(q >> 9), V<float>) * 2.0f + 1.0f) * (1.0f / 16777216.0f);
            e = 0.0f - log_f32(u);
        } else {
            // m < 2^52 becomes a double through the bits of 2^52 + m, exactly.
            const V<uint64_t> q = load((const uint64_t*)(const void*)w);
            const V<uint64_t> mant = (((q & 0xffffffffu) >> 5) << 25) | (q >> 39);
            const V<double> md = (V<double>)(mant | 0x4330000000000000u) - 4503599627370496.0;
            V<double> u = (md * 2.0 + 1.0) * (1.0 / 9007199254740992.0);
            if constexpr (kFast) {
                e = neg_log_fast<V<double>, V<uint64_t>>(u);
            } else {
                static_assert(sizeof(MvD) == sizeof u, "libmvec's vector is the ISA's");
                MvD v;
                memcpy(&v, &u, sizeof v);
                v = EMBER_MVEC_D(log)(v);
                memcpy(&u, &v, sizeof v);
                e = 0.0 - u;
            }
        }
        if (m == L) store_vec(o + i, e);
        else memcpy(o + i, &e, (size_t)m * sizeof(T));
    }
}

// Bit k set where lane k of a comparison result of T lanes is set.
template <class T, class Vec>
inline __attribute__((always_inline)) unsigned lane_bits(Vec m) {
#if defined(__AVX512F__)
    __m512i v;
    memcpy(&v, &m, 64);
    if constexpr (sizeof(T) == 8) return _mm512_test_epi64_mask(v, v);
    else return _mm512_test_epi32_mask(v, v);
#elif defined(__AVX__)
    if constexpr (sizeof(T) == 8) return (unsigned)_mm256_movemask_pd((__m256d)m);
    else return (unsigned)_mm256_movemask_ps((__m256)m);
#else
    if constexpr (sizeof(T) == 8) return (unsigned)_mm_movemask_pd((__m128d)m);
    else return (unsigned)_mm_movemask_ps((__m128)m);
#endif
}

// The smallest lane (no NaN): halving steps of vector minima, without branches.
template <class T>
inline __attribute__((always_inline)) T lane_min(V<T> v) {
    for (int step = W<T> / 2; step > 0; step /= 2) {
        V<sint_of<T>> swap;
        for (int k = 0; k < W<T>; ++k) swap[k] = k ^ step;
        const V<T> other = __builtin_shuffle(v, swap);
        v = other < v ? other : v;
    }
    return v[0];
}

// random_categorical's exponential race (random_ops.cpp, race_short_rows) on rows
// first_row .. first_row + rows - 1 of `classes` < 64 exponentials each, contiguous at e;
// row r's rates at rate + (r / samples) * classes, its margin margin[r / samples]. out[t] =
// the position of the smallest product e[j] * rate[j] of row first_row + t, or -1 where
// another product lies within the margin of it (or equals it), or the margin is +inf. One
// vector of classes at a time; reads up to a vector past the last row of e and of rate
// (their buffers have room).
template <class T>
void race_rows(const void* exponentials, int64_t rows, int64_t classes, const void* rates, const void* margins, int64_t first_row, int64_t samples,
               int64_t* out) {
    constexpr int L = W<T>;
    const T* e = (const T*)exponentials;
    const T* rate = (const T*)rates;
    const T* margin = (const T*)margins;
    const V<T> inf = (V<T>){} + std::numeric_limits<T>::infinity();
    const int64_t vectors = (classes + L - 1) / L;
    V<T> last_lanes;
    for (int k = 0; k < L; ++k) last_lanes[k] = (T)((vectors - 1) * L + k);
    const auto last_kept = last_lanes < (T)classes;
    int64_t logits_row = first_row / samples, left = samples - (first_row - logits_row * samples);
    V<T> product[64];
    for (int64_t t = 0; t < rows; ++t) {
        const T* x = e + t * classes;
        const T* r = rate + logits_row * classes;
        const T row_margin = margin[logits_row];
        if (--left == 0) ++logits_row, left = samples;
        V<T> low = inf;
        for (int64_t v = 0; v < vectors; ++v) {
            V<T> p = load(x + v * L) * load(r + v * L);
            if (v == vectors - 1) p = last_kept ? p : inf;
            product[v] = p;
            low = p < low ? p : low;
        }
        // The products within the margin of the smallest: the smallest alone, or a near tie.
        // Without branches: they would be random.
        const T bound = lane_min<T>(low) * row_margin;
        uint64_t near = 0;
        for (int64_t v = 0; v < vectors; ++v) near |= (uint64_t)lane_bits<T>(product[v] <= bound) << (v * L);
        out[t] = near != 0 && (near & (near - 1)) == 0 ? (int64_t)__builtin_ctzll(near) : -1;
    }
}
