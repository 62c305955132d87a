// Raw DEFLATE (RFC 1951) encoding for ember_save_npz_compressed (numpy.savez_compressed's
// format). Greedy LZ77 over a 32 KiB window with hash chains, then per block whichever is
// smallest of dynamic Huffman codes built from the block's own statistics, the fixed
// codes, or stored bytes (random float data barely compresses; it is then stored, never
// expanded by more than 5 bytes per 64 KiB).
#include <algorithm>
#include <cstring>
#include <queue>
#include <vector>

#include "deflate_format.hpp"
#include "io_common.hpp"

namespace ember::io {
namespace {

constexpr int kWindow = 32768, kMinMatch = 3, kMaxMatch = 258;
constexpr int kHashBits = 15, kMaxChain = 32;
constexpr size_t kBlockInput = 2 * 65535;  // bytes of input per block: two full stored blocks

class BitWriter {
public:
    void put(uint32_t bits, int n) {  // least significant bit first, n <= 32
        acc_ |= (uint64_t)bits << fill_;
        fill_ += n;
        while (fill_ >= 8) {
            out_.push_back((uint8_t)acc_);
            acc_ >>= 8;
            fill_ -= 8;
        }
    }
    void align_to_byte() {
        if (fill_) put(0, 8 - fill_);
    }
    void bytes(const uint8_t* p, size_t n) { out_.insert(out_.end(), p, p + n); }  // after align_to_byte
    std::vector<uint8_t>& out() { return out_; }

private:
    std::vector<uint8_t> out_;
    uint64_t acc_ = 0;
    int fill_ = 0;
};

struct Token {
    uint16_t length;    // 0: a literal
    uint16_t value;     // the literal byte, or the match distance
};

int length_symbol(int length) {  // 257..285
    int s = 28;
    while (kLengthBase[s] > length) --s;
    return 257 + s;
}

int distance_symbol(int distance) {  // 0..29
    static const auto table = [] {  // for distance - 1 < 256 directly, else by (distance - 1) >> 7
        std::vector<uint8_t> t(512);
        for (int s = 0; s < 30; ++s) {
            const int lo = kDistBase[s] - 1, hi = lo + (1 << kDistExtra[s]);
            for (int d = lo; d < hi; ++d) {
                if (d < 256) t[(size_t)d] = (uint8_t)s;
                else t[256 + (size_t)(d >> 7)] = (uint8_t)s;
            }
        }
        return t;
    }();
    const int d = distance - 1;
    return d < 256 ? table[(size_t)d] : table[256 + (size_t)(d >> 7)];
}

// Huffman code lengths for the frequencies, none above max_len: build the optimal code; if
// it is too deep, halve the frequencies (keeping every used symbol) and build again. At
// least two symbols get a code, so the code is complete, as zlib's inflate requires.
std::vector<uint8_t> code_lengths(std::vector<uint32_t> freq, int max_len) {
    const int n = (int)freq.size();
    int used = 0;
    for (int s = 0; s < n && used < 2; ++s) used += freq[s] != 0;
    for (int s = 0; used < 2 && s < n; ++s)
        if (!freq[s]) freq[s] = 1, ++used;
    std::vector<uint8_t> lengths((size_t)n);
    for (;;) {
        struct Node {
            uint64_t weight;
            int index;  // < n: a symbol; else an internal node
        };
        auto heavier = [](const Node& a, const Node& b) { return a.weight > b.weight || (a.weight == b.weight && a.index > b.index); };
        std::priority_queue<Node, std::vector<Node>, decltype(heavier)> heap(heavier);
        std::vector<int> parent((size_t)(2 * n), -1);
        for (int s = 0; s < n; ++s)
            if (freq[s]) heap.push({freq[s], s});
        int next = n;
        while (heap.size() > 1) {
            Node a = heap.top();
            heap.pop();
            Node b = heap.top();
            heap.pop();
            parent[(size_t)a.index] = parent[(size_t)b.index] = next;
            heap.push({a.weight + b.weight, next++});
        }
        int deepest = 0;
        for (int s = 0; s < n; ++s) {
            int depth = 0;
            if (freq[s])
                for (int v = s; parent[(size_t)v] >= 0; v = parent[(size_t)v]) ++depth;
            lengths[(size_t)s] = (uint8_t)depth;
            deepest = std::max(deepest, depth);
        }
        if (deepest <= max_len) return lengths;
        for (auto& f : freq)
            if (f) f = (f + 1) / 2;
    }
}

struct Code {
    std::vector<uint8_t> lengths;
    std::vector<uint16_t> reversed;  // ready for the LSB-first writer

    explicit Code(std::vector<uint8_t> l) : lengths(std::move(l)), reversed(lengths.size()) {
        std::vector<uint16_t> codes(lengths.size());
        canonical_codes(lengths.data(), (int)lengths.size(), codes.data());
        for (size_t s = 0; s < lengths.size(); ++s) reversed[s] = (uint16_t)reverse_bits(codes[s], lengths[s]);
    }
    void put(BitWriter& w, int symbol) const { w.put(reversed[(size_t)symbol], lengths[(size_t)symbol]); }
};

// The code lengths of a dynamic block, run-length coded with the symbols 16 (repeat the
// previous length 3-6 times), 17 (3-10 zeros) and 18 (11-138 zeros): (symbol, extra) pairs.
std::vector<std::pair<int, int>> run_length_code(const std::vector<uint8_t>& lengths) {
    std::vector<std::pair<int, int>> out;
    for (size_t i = 0; i < lengths.size();) {
        const int len = lengths[i];
        size_t run = 1;
        while (i + run < lengths.size() && lengths[i + run] == len) ++run;
        size_t left = run;
        if (len == 0) {
            while (left >= 11) {
                const size_t k = std::min<size_t>(left, 138);
                out.push_back({18, (int)k - 11});
                left -= k;
            }
            if (left >= 3) {
                out.push_back({17, (int)left - 3});
                left = 0;
            }
        } else {
            out.push_back({len, 0});
            --left;
            while (left >= 3) {
                const size_t k = std::min<size_t>(left, 6);
                out.push_back({16, (int)k - 3});
                left -= k;
            }
        }
        while (left--) out.push_back({len, 0});
        i += run;
    }
    return out;
}

uint64_t token_bits(const std::vector<Token>& tokens, const std::vector<uint8_t>& lit_len, const std::vector<uint8_t>& dist_len) {
    uint64_t bits = lit_len[256];
    for (const Token& t : tokens) {
        if (!t.length) {
            bits += lit_len[t.value];
            continue;
        }
        const int ls = length_symbol(t.length), ds = distance_symbol(t.value);
        bits += lit_len[(size_t)ls] + kLengthExtra[ls - 257] + dist_len[(size_t)ds] + kDistExtra[ds];
    }
    return bits;
}

void put_tokens(BitWriter& w, const std::vector<Token>& tokens, const Code& lit, const Code& dist) {
    for (const Token& t : tokens) {
        if (!t.length) {
            lit.put(w, t.value);
            continue;
        }
        const int ls = length_symbol(t.length), ds = distance_symbol(t.value);
        lit.put(w, ls);
        w.put((uint32_t)(t.length - kLengthBase[ls - 257]), kLengthExtra[ls - 257]);
        dist.put(w, ds);
        w.put((uint32_t)(t.value - kDistBase[ds]), kDistExtra[ds]);
    }
    lit.put(w, 256);
}

void write_block(BitWriter& w, const std::vector<Token>& tokens, const uint8_t* raw, size_t raw_n, bool last) {
    std::vector<uint32_t> lit_freq(286), dist_freq(30);
    for (const Token& t : tokens) {
        if (!t.length) {
            lit_freq[t.value]++;
        } else {
            lit_freq[(size_t)length_symbol(t.length)]++;
            dist_freq[(size_t)distance_symbol(t.value)]++;
        }
    }
    lit_freq[256] = 1;
    const Code lit(code_lengths(lit_freq, 15)), dist(code_lengths(dist_freq, 15));
    size_t nlit = 286, ndist = 30;
    while (nlit > 257 && !lit.lengths[nlit - 1]) --nlit;
    while (ndist > 1 && !dist.lengths[ndist - 1]) --ndist;
    std::vector<uint8_t> all(lit.lengths.begin(), lit.lengths.begin() + (long)nlit);
    all.insert(all.end(), dist.lengths.begin(), dist.lengths.begin() + (long)ndist);
    const auto rle = run_length_code(all);
    std::vector<uint32_t> clen_freq(19);
    for (auto& [sym, extra] : rle) clen_freq[(size_t)sym]++;
    const Code clen(code_lengths(clen_freq, 7));
    int nclen = 19;
    while (nclen > 4 && !clen.lengths[kCodeLengthOrder[nclen - 1]]) --nclen;

    uint64_t dynamic_bits = 5 + 5 + 4 + 3 * (uint64_t)nclen + token_bits(tokens, lit.lengths, dist.lengths);
    for (auto& [sym, extra] : rle) dynamic_bits += clen.lengths[(size_t)sym] + (sym == 16 ? 2 : sym == 17 ? 3 : sym == 18 ? 7 : 0);
    std::vector<uint8_t> fixed_lit(286), fixed_dist(30, (uint8_t)kFixedDistanceLength);
    for (int s = 0; s < 286; ++s) fixed_lit[(size_t)s] = (uint8_t)fixed_literal_length(s);
    const uint64_t fixed_bits = token_bits(tokens, fixed_lit, fixed_dist);
    const uint64_t stored_bits = 8 * (raw_n + 5 * ((raw_n + 65534) / 65535 + (raw_n == 0)));

    if (stored_bits <= std::min(dynamic_bits, fixed_bits)) {
        size_t done = 0;
        do {
            const size_t k = std::min<size_t>(raw_n - done, 65535);
            w.put(last && done + k == raw_n ? 1 : 0, 1);
            w.put(0, 2);
            w.align_to_byte();
            w.put((uint32_t)k, 16);
            w.put((uint32_t)k ^ 0xffffu, 16);
            w.bytes(raw + done, k);
            done += k;
        } while (done < raw_n);
        return;
    }
    w.put(last ? 1 : 0, 1);
    if (fixed_bits <= dynamic_bits) {
        w.put(1, 2);
        std::vector<uint8_t> l(288);
        for (int s = 0; s < 288; ++s) l[(size_t)s] = (uint8_t)fixed_literal_length(s);
        put_tokens(w, tokens, Code(l), Code(std::vector<uint8_t>(30, (uint8_t)kFixedDistanceLength)));
        return;
    }
    w.put(2, 2);
    w.put((uint32_t)(nlit - 257), 5);
    w.put((uint32_t)(ndist - 1), 5);
    w.put((uint32_t)(nclen - 4), 4);
    for (int i = 0; i < nclen; ++i) w.put(clen.lengths[kCodeLengthOrder[i]], 3);
    for (auto& [sym, extra] : rle) {
        clen.put(w, sym);
        if (sym == 16) w.put((uint32_t)extra, 2);
        else if (sym == 17) w.put((uint32_t)extra, 3);
        else if (sym == 18) w.put((uint32_t)extra, 7);
    }
    put_tokens(w, tokens, lit, dist);
}

}  // namespace

std::vector<uint8_t> deflate_raw(const uint8_t* p, size_t n) {
    BitWriter w;
    // Tables sized to the input up to their full size: small entries (most .npz headers and
    // small arrays) should not pay for clearing 256 KiB.
    int hash_bits = 8;
    while (hash_bits < kHashBits && (size_t(1) << hash_bits) < n) ++hash_bits;
    size_t slots = 1;
    while (slots < (size_t)kWindow && slots < n) slots <<= 1;
    std::vector<int32_t> head(size_t(1) << hash_bits, -1), prev(slots, -1);
    auto hash = [p, hash_bits](size_t i) {
        const uint32_t v = (uint32_t)p[i] | (uint32_t)p[i + 1] << 8 | (uint32_t)p[i + 2] << 16;
        return (v * 2654435761u) >> (32 - hash_bits);
    };
    auto insert = [&](size_t i) {
        if (i + kMinMatch > n) return;
        const uint32_t h = hash(i);
        prev[i & (slots - 1)] = head[h];
        head[h] = (int32_t)i;
    };
    std::vector<Token> tokens;
    size_t block_start = 0, i = 0;
    if (n == 0) write_block(w, tokens, p, 0, true);
    while (i < n) {
        int best_len = 0, best_dist = 0;
        if (i + kMinMatch <= n) {
            const size_t limit = std::min<size_t>(kMaxMatch, n - i);
            int32_t cand = head[hash(i)];
            for (int chain = 0; cand >= 0 && chain < kMaxChain && i - (size_t)cand <= kWindow; ++chain) {
                const uint8_t *a = p + i, *b = p + cand;
                if (b[best_len] == a[best_len]) {  // can it beat the best so far?
                    size_t len = 0;
                    while (len < limit && a[len] == b[len]) ++len;
                    if ((int)len > best_len) {
                        best_len = (int)len;
                        best_dist = (int)(i - (size_t)cand);
                        if (len == limit) break;
                    }
                }
                const int32_t older = prev[(size_t)cand & (slots - 1)];
                if (older >= cand) break;  // the slot was reused by a newer position
                cand = older;
            }
        }
        if (best_len >= kMinMatch) {
            tokens.push_back({(uint16_t)best_len, (uint16_t)best_dist});
            for (int k = 0; k < best_len; ++k) insert(i + (size_t)k);
            i += (size_t)best_len;
        } else {
            tokens.push_back({0, p[i]});
            insert(i);
            ++i;
        }
        if (i - block_start >= kBlockInput || i == n) {
            write_block(w, tokens, p + block_start, i - block_start, i == n);
            tokens.clear();
            block_start = i;
        }
    }
    w.align_to_byte();
    return std::move(w.out());
}

}  // namespace ember::io
