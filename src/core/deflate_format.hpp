// The constants of the DEFLATE format (RFC 1951) that both directions use: inflate.cpp
// (reading deflated .npz entries) and deflate.cpp (writing them).
#pragma once
#include <array>
#include <cstdint>

namespace ember::io {

// Base values and extra-bit counts of the length codes 257..285 and distance codes 0..29.
inline constexpr uint16_t kLengthBase[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                      31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
inline constexpr uint8_t kLengthExtra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
inline constexpr uint16_t kDistBase[30] = {1,   2,   3,   4,   5,   7,    9,    13,   17,   25,   33,   49,   65,    97,    129,
                                    193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
inline constexpr uint8_t kDistExtra[30] = {0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};
// The order in which a dynamic block lists the code lengths of the code-length alphabet.
inline constexpr uint8_t kCodeLengthOrder[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};

// The fixed Huffman code's bit length of each literal/length symbol (block type 1).
inline constexpr int fixed_literal_length(int symbol) { return symbol < 144 ? 8 : symbol < 256 ? 9 : symbol < 280 ? 7 : 8; }
inline constexpr int kFixedDistanceLength = 5;

// Canonical Huffman codes from code lengths (RFC 1951, 3.2.2): codes of each length are
// consecutive integers, shorter lengths first, in symbol order within a length. codes[s]
// is most significant bit first; lengths of 0 get no code.
inline void canonical_codes(const uint8_t* lengths, int count, uint16_t* codes) {
    int per_length[16] = {0};
    for (int s = 0; s < count; ++s) per_length[lengths[s]]++;
    per_length[0] = 0;
    int next[16] = {0};
    for (int len = 1, code = 0; len <= 15; ++len) {
        code = (code + per_length[len - 1]) << 1;
        next[len] = code;
    }
    for (int s = 0; s < count; ++s) codes[s] = lengths[s] ? (uint16_t)next[lengths[s]]++ : 0;
}

// DEFLATE sends Huffman codes most significant bit first into an LSB-first bit stream.
// len <= 16: the 16-bit reversal by two byte lookups, shifted down to len bits.
inline uint32_t reverse_bits(uint32_t code, int len) {
    static constexpr auto byte_reversed = [] {
        std::array<uint8_t, 256> t{};
        for (int v = 0; v < 256; ++v)
            for (int b = 0; b < 8; ++b) t[(size_t)v] |= (uint8_t)(((v >> b) & 1) << (7 - b));
        return t;
    }();
    const uint32_t r16 = (uint32_t)byte_reversed[code & 0xff] << 8 | byte_reversed[(code >> 8) & 0xff];
    return r16 >> (16 - len);
}

}  // namespace ember::io
