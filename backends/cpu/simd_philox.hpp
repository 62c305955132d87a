// Philox 4x32-10 words for random_bits (random_ops.cpp; the stream layout is in
// docs/numerics-random.md): block b is Philox(key, {lo32(b), hi32(b), 0, 0}) and its four
// words are out[4b .. 4b+3]. One block per 32-bit lane, W<uint32_t> blocks at a time, then
// interleaved into word order. Included by simd_impl.cpp (one copy per ISA).

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

// hi and lo halves of a[i] * m for every 32-bit lane: even lanes and odd lanes multiplied
// separately, then merged back.
inline __attribute__((always_inline)) void mulhilo(V<uint32_t> a, uint32_t m, V<uint32_t>& hi, V<uint32_t>& lo) {
    const V<uint64_t> x = (V<uint64_t>)a, mm = (V<uint64_t>){} + (uint64_t)m;
    const V<uint64_t> even = mul_low32(x, mm), odd = mul_low32(x >> 32, mm);
    hi = (V<uint32_t>)((even >> 32) | (odd & 0xffffffff00000000ull));
    lo = (V<uint32_t>)((even & 0xffffffffu) | (odd << 32));
}

void philox_words(uint64_t key, uint64_t first_block, uint32_t* out, int64_t nblocks) {
    constexpr int L = W<uint32_t>;
    V<uint32_t> lane;
    for (int i = 0; i < L; ++i) lane[i] = (uint32_t)i;
    alignas(64) uint32_t words[4][L];
    for (int64_t b = 0; b < nblocks; b += L) {
        const uint64_t block = first_block + (uint64_t)b;
        const uint32_t lo32 = (uint32_t)block;
        V<uint32_t> c0 = lane + lo32;
        // lanes that wrapped past 2^32 carry into the high half
        V<uint32_t> c1 = (V<uint32_t>){} + (uint32_t)(block >> 32) - (V<uint32_t>)(c0 < lo32);
        V<uint32_t> c2 = {}, c3 = {};
        uint32_t k0 = (uint32_t)key, k1 = (uint32_t)(key >> 32);
        for (int r = 0; r < 10; ++r) {
            if (r) {
                k0 += 0x9E3779B9u;
                k1 += 0xBB67AE85u;
            }
            V<uint32_t> hi0, lo0, hi1, lo1;
            mulhilo(c0, 0xD2511F53u, hi0, lo0);
            mulhilo(c2, 0xCD9E8D57u, hi1, lo1);
            c0 = hi1 ^ c1 ^ k0;
            c2 = hi0 ^ c3 ^ k1;
            c1 = lo1;
            c3 = lo0;
        }
        store_vec(words[0], c0);
        store_vec(words[1], c1);
        store_vec(words[2], c2);
        store_vec(words[3], c3);
        const int n = nblocks - b < L ? (int)(nblocks - b) : L;
        uint32_t* o = out + 4 * b;
        for (int i = 0; i < n; ++i)
            for (int k = 0; k < 4; ++k) o[4 * i + k] = words[k][i];
    }
}
