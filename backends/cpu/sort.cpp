// sort and argsort: a least-significant-digit radix sort per line, which is stable by
// construction and so gives the reference's result (a stable comparison sort) exactly.
// Each element becomes an unsigned key of its own width whose order is the reference's:
// integers with the sign bit flipped; floats by sign and magnitude, with -0.0 and +0.0 given
// one key (they compare equal) and every NaN the largest key (NaN sorts last). Descending
// complements the keys, which keeps equal elements in input order as the reference does.
// The payload carried with each key is the element's bits (sort) or its index (argsort).
// Lines are sorted in parallel; complex dtypes run the reference's code on slices.
#include <algorithm>
#include <array>
#include <atomic>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include "cpu_common.hpp"

namespace ember_cpu {
namespace {

enum KeyKind { kUnsigned, kSigned, kFloat };

template <class U>
U float_key(U bits, U inf_bits) {
    constexpr U sign = U(U(1) << (sizeof(U) * 8 - 1));
    const U magnitude = bits & U(~sign);
    if (magnitude > inf_bits) return U(~U(0));  // NaN: after everything
    if (magnitude == 0) return sign;             // -0.0 == +0.0
    return (bits & sign) ? U(~bits) : U(bits | sign);
}

template <class U, class P>
struct Item {
    U key;
    P payload;
};

// Stable LSD radix sort by 8-bit digits; returns whichever buffer holds the result.
template <class U, class P>
Item<U, P>* radix_sort(Item<U, P>* a, Item<U, P>* tmp, int64_t n) {
    constexpr int kPasses = (int)sizeof(U);
    int64_t count[kPasses][256] = {};
    for (int64_t i = 0; i < n; ++i)
        for (int p = 0; p < kPasses; ++p) ++count[p][(a[i].key >> (8 * p)) & 255];
    for (int p = 0; p < kPasses; ++p) {
        int64_t* c = count[p];
        if (std::count(c, c + 256, n) == 1) continue;  // every key has this digit
        int64_t offset = 0;
        for (int d = 0; d < 256; ++d) {
            const int64_t k = c[d];
            c[d] = offset;
            offset += k;
        }
        for (int64_t i = 0; i < n; ++i) tmp[c[(a[i].key >> (8 * p)) & 255]++] = a[i];
        std::swap(a, tmp);
    }
    return a;
}

// The same sort on every thread at once, for one long line: each pass, every thread counts
// the digits of its own stretch, then scatters the stretch to positions ordered by (digit,
// thread), which keeps the sort stable. Digits of 8 bits: with 11 (three passes for
// 32-bit keys instead of four) the scatter to 2048 buckets measured slower here.
template <class U, class P>
U key_of(const Item<U, P>& e) {
    return e.key;
}
template <class U, class = std::enable_if_t<std::is_unsigned_v<U>>>
U key_of(U key) {
    return key;
}

// E: an Item, or a bare key (a sort of values whose keys decode back to them).
template <class E>
E* radix_sort_threaded(E* a, E* tmp, int64_t n, int nt) {
    using U = decltype(key_of(std::declval<E>()));
    constexpr int kBits = 8, kBuckets = 1 << kBits;
    constexpr int kPasses = ((int)sizeof(U) * 8 + kBits - 1) / kBits;
    using Counts = std::array<int64_t, kBuckets>;
    std::vector<Counts> count((size_t)nt);
    for (int p = 0; p < kPasses; ++p) {
        const int shift = kBits * p;
        // Bounds and pointers in locals: the counters are int64_t, and a store through them
        // could otherwise change n (the compiler would reload it and divide every element).
        // Two interleaved counter sets: runs of one digit (the top digits of most data) would
        // otherwise wait on the previous increment of the same counter every element.
        parallel_tasks(nt, [&](int64_t t) {
            std::unique_ptr<Counts[]> c(new Counts[2]());
            const E* src = a;
            const int64_t begin = t * n / nt, end = (t + 1) * n / nt;
            int64_t i = begin;
            for (; i + 2 <= end; i += 2) {
                ++c[0][(key_of(src[i]) >> shift) & (kBuckets - 1)];
                ++c[1][(key_of(src[i + 1]) >> shift) & (kBuckets - 1)];
            }
            for (; i < end; ++i) ++c[0][(key_of(src[i]) >> shift) & (kBuckets - 1)];
            for (int d = 0; d < kBuckets; ++d) count[(size_t)t][d] = c[0][d] + c[1][d];
        });
        bool one_digit = false;  // every key has the same digit: nothing moves
        int64_t offset = 0;
        for (int d = 0; d < kBuckets && !one_digit; ++d) {
            int64_t total = 0;
            for (int t = 0; t < nt; ++t) total += count[(size_t)t][d];
            one_digit = total == n;
            for (int t = 0; t < nt; ++t) {
                const int64_t k = count[(size_t)t][d];
                count[(size_t)t][d] = offset;
                offset += k;
            }
        }
        if (one_digit) continue;
        parallel_tasks(nt, [&](int64_t t) {
            std::unique_ptr<Counts> c(new Counts(count[(size_t)t]));
            const E* src = a;
            E* dst = tmp;
            const int64_t end = (t + 1) * n / nt;
            for (int64_t i = t * n / nt; i < end; ++i) dst[(*c)[(key_of(src[i]) >> shift) & (kBuckets - 1)]++] = src[i];
        });
        std::swap(a, tmp);
    }
    return a;
}

// sort (values) of one long line on every thread, sorting bare keys: half the memory
// traffic of key + payload. A key decodes back to its element's bits except where float
// keys merge elements that compare equal: -0.0 with +0.0, and NaNs of any payload. When the
// line holds such an element whose bits the decoded key would not give, the runs of those
// two keys are rewritten with the original bits in input order, as a stable sort leaves them.
template <class U>
void sort_long_line_values(const U* src, int64_t sx, U* dst, int64_t so, int64_t n, bool descending, KeyKind kind, U inf_bits) {
    constexpr U sign = U(U(1) << (sizeof(U) * 8 - 1));
    const U flip = descending ? U(~U(0)) : U(0);
    auto encode = [&](U bits) {
        const U key = kind == kUnsigned ? bits : kind == kSigned ? U(bits ^ sign) : float_key(bits, inf_bits);
        return U(key ^ flip);
    };
    auto decode = [&](U stored) {
        const U key = U(stored ^ flip);
        return kind == kUnsigned ? key : kind == kSigned ? U(key ^ sign) : (key & sign) ? U(key & U(~sign)) : U(~key);
    };
    Scratch<U> a(n), tmp(n);
    std::atomic<int64_t> odd{0};
    parallel_range(n, 0, 1 << 16, [&](int64_t k0, int64_t k1) {
        int64_t o = 0;
        for (int64_t k = k0; k < k1; ++k) {
            const U bits = src[k * sx], key = encode(bits);
            a.data[k] = key;
            o += decode(key) != bits;
        }
        odd.fetch_add(o, std::memory_order_relaxed);
    });
    const U* sorted = radix_sort_threaded(a.data, tmp.data, n, num_threads());
    parallel_range(n, 0, 1 << 16, [&](int64_t k0, int64_t k1) {
        for (int64_t k = k0; k < k1; ++k) dst[k * so] = decode(sorted[k]);
    });
    if (odd.load() == 0) return;
    const U zero_key = U(sign ^ flip), nan_key = U(~U(0) ^ flip);
    int64_t zero_at = std::lower_bound(sorted, sorted + n, zero_key) - sorted;
    int64_t nan_at = std::lower_bound(sorted, sorted + n, nan_key) - sorted;
    for (int64_t k = 0; k < n; ++k) {
        const U bits = src[k * sx], key = encode(bits);
        if (key == zero_key) dst[zero_at++ * so] = bits;
        else if (key == nan_key) dst[nan_at++ * so] = bits;
    }
}

template <class U, bool Indices>
void sort_lines(const ember_view_t& x, const ember_view_t& out, int axis, bool descending, KeyKind kind, U inf_bits) {
    using P = std::conditional_t<Indices, uint32_t, U>;
    const int64_t n = x.shape[axis], lines = numel(x) / n;
    const int64_t sx = x.strides[axis], so = out.strides[axis];
    const U* xb = (const U*)x.data + x.offset;
    // Loads elements [k0, k1) of a line as keyed items, and stores sorted items back.
    auto load = [&](const U* src, Item<U, P>* a, int64_t k0, int64_t k1) {
        for (int64_t k = k0; k < k1; ++k) {
            const U bits = src[k * sx];
            U key = kind == kUnsigned ? bits : kind == kSigned ? U(bits ^ U(U(1) << (sizeof(U) * 8 - 1))) : float_key(bits, inf_bits);
            a[k].key = descending ? U(~key) : key;
            a[k].payload = Indices ? P(k) : P(bits);
        }
    };
    auto store = [&](int64_t oo, const Item<U, P>* sorted, int64_t k0, int64_t k1) {
        if constexpr (Indices) {
            int64_t* dst = (int64_t*)out.data + out.offset + oo;
            for (int64_t k = k0; k < k1; ++k) dst[k * so] = (int64_t)sorted[k].payload;
        } else {
            U* dst = (U*)out.data + out.offset + oo;
            for (int64_t k = k0; k < k1; ++k) dst[k * so] = sorted[k].payload;
        }
    };
    const int nt = num_threads();
    if (lines < nt && n >= kParallelCostly && nt > 1 && !Indices) {  // few long lines: each on every thread
        for (int64_t line = 0; line < lines; ++line) {
            int64_t xo, oo;
            line_offsets(x, out, axis, line, xo, oo);
            sort_long_line_values(xb + xo, sx, (U*)out.data + out.offset + oo, so, n, descending, kind, inf_bits);
        }
        return;
    }
    if (lines < nt && n >= kParallelCostly && nt > 1) {
        Scratch<Item<U, P>> a(n), tmp(n);
        for (int64_t line = 0; line < lines; ++line) {
            int64_t xo, oo;
            line_offsets(x, out, axis, line, xo, oo);
            parallel_range(n, 0, 1 << 16, [&](int64_t k0, int64_t k1) { load(xb + xo, a.data, k0, k1); });
            const Item<U, P>* sorted = radix_sort_threaded(a.data, tmp.data, n, nt);
            parallel_range(n, 0, 1 << 16, [&](int64_t k0, int64_t k1) { store(oo, sorted, k0, k1); });
        }
        return;
    }
    auto sort_line = [&](int64_t line, Item<U, P>* a, Item<U, P>* tmp) {
        int64_t xo, oo;
        line_offsets(x, out, axis, line, xo, oo);
        load(xb + xo, a, 0, n);
        store(oo, radix_sort(a, tmp, n), 0, n);
    };
    const int64_t tasks = std::min<int64_t>(lines, 4 * (int64_t)num_threads());
    auto run_task = [&](int64_t t) {
        std::unique_ptr<Item<U, P>[]> a(new Item<U, P>[(size_t)n]), tmp(new Item<U, P>[(size_t)n]);
        for (int64_t line = t * lines / tasks; line < (t + 1) * lines / tasks; ++line) sort_line(line, a.get(), tmp.get());
    };
    if (numel(x) >= kParallelCostly && tasks > 1) parallel_tasks(tasks, run_task);
    else
        for (int64_t t = 0; t < tasks; ++t) run_task(t);
}

template <bool Indices>
ember_status_t sort_kernel(const ember_kernel_call_t* c) {
    const ember_view_t& x = c->in[0];
    const ember_view_t& out = c->out[0];
    const int axis = (int)c->attrs->i[0];
    const bool descending = c->attrs->i[1] != 0;
    if (axis < 0 || axis >= x.ndim || numel(x) == 0 || x.shape[axis] >= (int64_t(1) << 32) || (!Indices && out.dtype != x.dtype))
        return reference_on_slices(c, kAxisAttr);
    switch (x.dtype) {
        case EMBER_BOOL: sort_lines<uint8_t, Indices>(x, out, axis, descending, kUnsigned, 0); return EMBER_OK;
        case EMBER_FLOAT16: sort_lines<uint16_t, Indices>(x, out, axis, descending, kFloat, 0x7c00); return EMBER_OK;
        case EMBER_BFLOAT16: sort_lines<uint16_t, Indices>(x, out, axis, descending, kFloat, 0x7f80); return EMBER_OK;
        default: break;
    }
    const bool done = visit_real(x.dtype, [&](auto z) {
        using T = decltype(z);
        using U = std::conditional_t<sizeof(T) == 1, uint8_t, std::conditional_t<sizeof(T) == 2, uint16_t, std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>>;
        const KeyKind kind = std::is_floating_point_v<T> ? kFloat : std::is_signed_v<T> ? kSigned : kUnsigned;
        const U inf_bits = std::is_floating_point_v<T> ? (sizeof(T) == 4 ? U(0x7f800000u) : U(0x7ff0000000000000ull)) : U(0);
        sort_lines<U, Indices>(x, out, axis, descending, kind, inf_bits);
    });
    if (!done) return reference_on_slices(c, kAxisAttr);  // complex: lexicographic, NaN last
    return EMBER_OK;
}

}  // namespace

void add_sort_kernels(std::vector<NativeKernel>& k) {
    k.push_back({"sort", sort_kernel<false>, 0, false});
    k.push_back({"argsort", sort_kernel<true>, 0, false});
}

}  // namespace ember_cpu
