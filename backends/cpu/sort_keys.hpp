// Sort keys: each element of a line becomes an unsigned key of its own width whose order is
// the reference's (sort.cpp says which). Included inside a namespace by sort.cpp and by each
// ISA's copy of simd_impl.cpp (the ISA table's encode_sort_keys / decode_sort_keys), so
// every copy is compiled for its own ISA.

enum KeyKind { kUnsigned, kSigned, kFloat };

// The sort key of an element's bits (see sort.cpp's top) and back, XOR flip
// (descending). Branch-free, so that the loops over a line vectorise; the float tests are
// shifts of differences, not compares: SSE2 has no 64-bit compare (a float64 line's keys
// were a scalar loop, 1.5 ms for 1e6 against 1.3 as now).
template <KeyKind K, class U>
U encode_key(U bits, U inf_bits, U flip) {
    constexpr int top = sizeof(U) * 8 - 1;
    constexpr U sign = U(U(1) << top);
    U key = bits;
    if constexpr (K == kSigned) key = U(bits ^ sign);
    if constexpr (K == kFloat) {
        const U magnitude = U(bits & U(~sign));
        const U is_zero = U(U(0) - U(U(magnitude - 1) >> top));        // all ones for -0.0 and +0.0 (they compare equal)
        const U is_nan = U(U(0) - U(U(inf_bits - magnitude) >> top));  // all ones for NaN: after everything
        key = U(bits ^ (U(U(0) - U(bits >> top)) | sign));               // negative: ~bits; else bits | sign
        key = U((key & U(~is_zero)) | (sign & is_zero) | is_nan);
    }
    return U(key ^ flip);
}
template <KeyKind K, class U>
U decode_key(U stored, U flip) {
    constexpr U sign = U(U(1) << (sizeof(U) * 8 - 1));
    const U key = U(stored ^ flip);
    if constexpr (K == kSigned) return U(key ^ sign);
    if constexpr (K == kFloat) return U(key ^ (U(U(key >> (sizeof(U) * 8 - 1)) - 1) | sign));  // key of x >= 0 has the sign bit
    return key;
}

// A line's sort keys (with its indices in the low half for argsort) from its elements;
// returns whether the keys alone would not give back every element (see restore_merged_runs).
// Separate functions with local pointers, so that nothing in the loops can alias them and
// they vectorise.
template <KeyKind K, bool Indices, class U, class Key, class Step>
bool encode_line(const U* __restrict src, Step step, int64_t n, Key* __restrict keys, U inf_bits, U flip) {
    U odd = 0;
    for (int64_t k = 0; k < n; ++k) {
        const U bits = src[k * step], key = encode_key<K>(bits, inf_bits, flip);
        if constexpr (Indices) keys[k] = (uint64_t)key << 32 | (uint64_t)k;
        else {
            keys[k] = key;
            odd |= U(decode_key<K>(key, flip) ^ bits);
        }
    }
    return odd != 0;
}
template <KeyKind K, class U, class Key, class Step>
void decode_line(const Key* __restrict keys, int64_t n, U* __restrict dst, Step step, U flip) {
    for (int64_t k = 0; k < n; ++k) dst[k * step] = decode_key<K>(U(keys[k]), flip);
}

