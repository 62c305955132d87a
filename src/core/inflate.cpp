// Raw DEFLATE (RFC 1951) decoding for zip entries of method 8, which is what
// numpy.savez_compressed writes. Written for hostile input: every read is bounds-checked,
// the output never grows past the size the archive declares, and a code that is
// over-subscribed, or a symbol, length or distance outside the format, is an error.
#include <algorithm>
#include <cstring>
#include <vector>

#include "deflate_format.hpp"
#include "io_common.hpp"

namespace ember::io {
namespace {

class BitReader {
public:
    BitReader(Bytes in, const char* what) : in_(in), what_(what) {}

    uint32_t bits(int n) {  // n <= 24, least significant bit first
        refill(n);
        uint32_t v = (uint32_t)(buf_ & ((uint64_t(1) << n) - 1));
        buf_ >>= n;
        have_ -= n;
        return v;
    }
    // The next n bits without consuming them. Bits beyond the count held are either the
    // input's next bits (a word refill loads ahead) or, past its end, zero; consume()
    // rejects a code that would need bits the input does not have.
    uint32_t peek(int n) {
        if (have_ < n) {
            if (in_.n - pos_ >= 8) {  // top up to 56..63 bits with one unaligned load
                uint64_t w;
                std::memcpy(&w, in_.p + pos_, 8);
                buf_ |= w << have_;
                pos_ += (size_t)(63 - have_) >> 3;
                have_ |= 56;
            } else {
                while (have_ < n && pos_ < in_.n) {
                    buf_ |= (uint64_t)in_.p[pos_++] << have_;
                    have_ += 8;
                }
            }
        }
        return (uint32_t)(buf_ & ((uint64_t(1) << n) - 1));
    }
    void consume(int n) {
        if (n > have_) truncated();
        buf_ >>= n;
        have_ -= n;
    }
    void align_to_byte() { consume(have_ % 8); }
    // Bytes after alignment: whole bytes left in the bit buffer first, then the input.
    void copy_bytes(uint8_t* dst, size_t n) {
        while (n && have_ >= 8) {
            *dst++ = (uint8_t)bits(8);
            --n;
        }
        if (!n) return;
        // The buffer may hold bits of bytes past pos_ (a word refill loads ahead without
        // counting them); the bytes are now read directly, so those bits must go.
        buf_ = 0;
        if (n > in_.n - pos_) truncated();
        std::memcpy(dst, in_.p + pos_, n);
        pos_ += n;
    }
    [[noreturn]] void truncated() const { raise(EMBER_ERR_FORMAT, "%s: the compressed data ends early", what_); }

private:
    void refill(int n) {
        while (have_ < n) {
            if (pos_ >= in_.n) truncated();
            buf_ |= (uint64_t)in_.p[pos_++] << have_;
            have_ += 8;
        }
    }
    Bytes in_;
    const char* what_;
    size_t pos_ = 0;
    uint64_t buf_ = 0;
    int have_ = 0;
};

// A canonical Huffman code. Codes of up to kFastBits bits decode with one lookup in a
// table indexed by the next kFastBits input bits (DEFLATE sends codes most significant bit
// first, so entries are filled bit-reversed); the table stays small enough for L1. Longer
// codes, which are by construction the rare symbols, are decoded bit by bit from the
// per-length counts.
class Huffman {
public:
    static constexpr int kFastBits = 10;

    void build(const uint8_t* lengths, int count, const char* what, const char* which) {
        std::memset(per_length_, 0, sizeof per_length_);
        for (int s = 0; s < count; ++s) per_length_[lengths[s]]++;
        per_length_[0] = 0;  // unused symbols take no code space
        int left = 1;
        for (int len = 1; len <= 15; ++len) {
            left = 2 * left - per_length_[len];
            if (left < 0) raise(EMBER_ERR_FORMAT, "%s: the %s code is over-subscribed", what, which);
        }
        int offset[16] = {0};
        for (int len = 1; len <= 15; ++len) offset[len] = offset[len - 1] + per_length_[len - 1];
        uint16_t codes[320];
        canonical_codes(lengths, count, codes);
        sorted_.assign((size_t)count, 0);
        std::memset(table_, 0, sizeof table_);  // length 0: not a short code
        for (int s = 0; s < count; ++s) {
            const int len = lengths[s];
            if (!len) continue;
            sorted_[(size_t)offset[len]++] = (uint16_t)s;
            if (len > kFastBits) continue;
            for (uint32_t fill = reverse_bits(codes[s], len); fill < (1u << kFastBits); fill += 1u << len)
                table_[fill] = Entry{(uint16_t)s, (uint8_t)len};
        }
    }
    int decode(BitReader& in, const char* what, const char* which) const {
        const Entry e = table_[in.peek(kFastBits)];
        if (e.length) {
            in.consume(e.length);
            return e.symbol;
        }
        // Canonical decoding: codes of each length are consecutive integers, so read one
        // bit at a time until the code read falls inside its length's range.
        int code = 0, first = 0, index = 0;
        for (int len = 1; len <= 15; ++len) {
            code |= (int)in.bits(1);
            const int n = per_length_[len];
            if (code - first < n) return sorted_[(size_t)(index + code - first)];
            index += n;
            first = (first + n) << 1;
            code <<= 1;
        }
        raise(EMBER_ERR_FORMAT, "%s: invalid %s code in the compressed data", what, which);
    }

private:
    struct Entry {
        uint16_t symbol;
        uint8_t length;
    };
    Entry table_[1u << kFastBits];
    int per_length_[16];
    std::vector<uint16_t> sorted_;  // symbols ordered by code length, then value
};

void read_dynamic_codes(BitReader& in, Huffman& lit, Huffman& dist, const char* what) {
    const int nlit = (int)in.bits(5) + 257, ndist = (int)in.bits(5) + 1, nclen = (int)in.bits(4) + 4;
    if (nlit > 286 || ndist > 30) raise(EMBER_ERR_FORMAT, "%s: a dynamic block declares %d literal and %d distance codes", what, nlit, ndist);
    uint8_t clen[19] = {0};
    for (int i = 0; i < nclen; ++i) clen[kCodeLengthOrder[i]] = (uint8_t)in.bits(3);
    Huffman lengths_code;
    lengths_code.build(clen, 19, what, "code-length");
    uint8_t lengths[286 + 30] = {0};
    for (int i = 0; i < nlit + ndist;) {
        int sym = lengths_code.decode(in, what, "code-length");
        if (sym < 16) {
            lengths[i++] = (uint8_t)sym;
            continue;
        }
        int repeat, value = 0;
        if (sym == 16) {
            if (i == 0) raise(EMBER_ERR_FORMAT, "%s: a code-length repeat has nothing to repeat", what);
            value = lengths[i - 1];
            repeat = 3 + (int)in.bits(2);
        } else if (sym == 17) {
            repeat = 3 + (int)in.bits(3);
        } else {
            repeat = 11 + (int)in.bits(7);
        }
        if (i + repeat > nlit + ndist) raise(EMBER_ERR_FORMAT, "%s: code lengths run past the declared count", what);
        while (repeat--) lengths[i++] = (uint8_t)value;
    }
    if (lengths[256] == 0) raise(EMBER_ERR_FORMAT, "%s: a dynamic block has no end-of-block code", what);
    lit.build(lengths, nlit, what, "literal/length");
    dist.build(lengths + nlit, ndist, what, "distance");
}

void fixed_codes(Huffman& lit, Huffman& dist, const char* what) {
    uint8_t l[288];
    for (int s = 0; s < 288; ++s) l[s] = (uint8_t)fixed_literal_length(s);
    lit.build(l, 288, what, "literal/length");
    uint8_t d[30];
    std::memset(d, kFixedDistanceLength, sizeof d);
    dist.build(d, 30, what, "distance");
}

}  // namespace

std::vector<uint8_t> inflate_raw(Bytes in, uint64_t out_size, const char* what) {
    // DEFLATE cannot expand by more than 1032:1 (258-byte matches of 1 to 2 bits each), so a
    // larger declared size is a lie, and allocating it would let a tiny file exhaust memory.
    if (out_size / 1032 > in.n + 1) raise(EMBER_ERR_FORMAT, "%s: %llu bytes cannot come from %zu compressed bytes", what, (unsigned long long)out_size, in.n);
    // The output grows as it is produced, so a header that lies about the size costs no
    // more memory than the data actually decodes to (and a fuzzer's mutants stay cheap).
    std::vector<uint8_t> out((size_t)std::min<uint64_t>(out_size, std::max<uint64_t>(65536, 4 * (uint64_t)in.n)));
    size_t produced = 0;
    auto make_room = [&](size_t k) {
        if (k <= out.size() - produced) return;
        if (k > out_size - produced) raise(EMBER_ERR_FORMAT, "%s: the data is longer than its declared %llu bytes", what, (unsigned long long)out_size);
        out.resize((size_t)std::min<uint64_t>(out_size, std::max<uint64_t>(produced + k, 2 * (uint64_t)out.size())));
    };
    BitReader bits(in, what);
    Huffman lit, dist;
    for (bool last = false; !last;) {
        last = bits.bits(1) != 0;
        const uint32_t type = bits.bits(2);
        if (type == 0) {
            bits.align_to_byte();
            const uint32_t len = bits.bits(16), nlen = bits.bits(16);
            if ((len ^ 0xffffu) != nlen) raise(EMBER_ERR_FORMAT, "%s: a stored block's length check fails", what);
            make_room(len);
            bits.copy_bytes(out.data() + produced, len);
            produced += len;
            continue;
        }
        if (type == 3) raise(EMBER_ERR_FORMAT, "%s: invalid block type 3 in the compressed data", what);
        if (type == 1) fixed_codes(lit, dist, what);
        else read_dynamic_codes(bits, lit, dist, what);
        for (;;) {
            const int sym = lit.decode(bits, what, "literal/length");
            if (sym < 256) {
                if (produced == out.size()) make_room(1);
                out[produced++] = (uint8_t)sym;
                continue;
            }
            if (sym == 256) break;
            if (sym > 285) raise(EMBER_ERR_FORMAT, "%s: invalid length symbol %d", what, sym);
            const size_t length = kLengthBase[sym - 257] + bits.bits(kLengthExtra[sym - 257]);
            const int dsym = dist.decode(bits, what, "distance");
            if (dsym > 29) raise(EMBER_ERR_FORMAT, "%s: invalid distance symbol %d", what, dsym);
            const size_t distance = kDistBase[dsym] + bits.bits(kDistExtra[dsym]);
            if (distance > produced) raise(EMBER_ERR_FORMAT, "%s: a match reaches %zu bytes back, before the start of the data", what, distance);
            make_room(length);
            uint8_t* dst = out.data() + produced;
            const uint8_t* src = dst - distance;
            if (distance >= length) {
                std::memcpy(dst, src, length);
            } else if (distance == 1) {
                std::memset(dst, *src, length);  // a run of one byte
            } else {
                // Overlapping: the output repeats its last `distance` bytes. Copying
                // `distance` bytes at a time never reads a byte this copy has yet to write.
                for (size_t done = 0; done < length; done += distance) std::memcpy(dst + done, src + done, std::min(distance, length - done));
            }
            produced += length;
        }
    }
    if (produced != out_size)
        raise(EMBER_ERR_FORMAT, "%s: the data is %zu bytes, not the declared %llu", what, produced, (unsigned long long)out_size);
    out.resize(produced);
    return out;
}

}  // namespace ember::io
