// Philox 4x32-10 words for random_bits (random_ops.cpp; the stream layout is in
// docs/numerics-random.md): block b is Philox(key, {lo32(b), hi32(b), 0, 0}) and its four
// words are out[4b .. 4b+3]. One block per 64-bit lane, then interleaved into word order.
// Included by simd_impl.cpp (one copy per ISA).

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
void philox_words(uint64_t key, uint64_t first_block, uint32_t* out, int64_t nblocks) {
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
            c0[u] = block, c1[u] = block >> 32, c2[u] = (VQ){}, c3[u] = (VQ){};
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
