// sort and argsort: a stable radix sort per line (one pass by the top digit, then an LSD
// sort of each bucket in cache; msd_sort), which gives the reference's result (a stable
// comparison sort) exactly; lines of up to a few thousand keys go through sorting
// networks instead (sort_short_lines), made exact as described there; on AVX2 and AVX-512
// the values of longer lines go through a vectorised quicksort of bare keys instead, and
// argsort of 32-bit elements up to kQuickArgsortMax through one of (key << 32 | index)
// (quicksort_lines, one line per thread; a long line on every thread, quicksort_on_pool);
// values need no stability but that of -0.0/+0.0 and NaN payloads, which
// restore_merged_runs gives back.
// Each element becomes an unsigned key of its own width whose order is the reference's:
// integers with the sign bit flipped; floats by sign and magnitude, with -0.0 and +0.0 given
// one key (they compare equal) and every NaN the largest key (NaN sorts last). Descending
// complements the keys, which keeps equal elements in input order as the reference does.
// The payload carried with each key is the element's bits (sort) or its index (argsort).
// Lines are sorted in parallel; complex lines by real part first (sort_complex_lines); the
// values of 8- and 16-bit integer lines by counting (counting_sort_lines); packed rows of
// 5-16 32- or 64-bit elements a vector of rows at a time (the ISA's sort_packed_rows).
#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <complex>
#include <cstring>
#include <memory>
#include <mutex>
#include <type_traits>
#include <utility>
#include <vector>

#include "cpu_common.hpp"

namespace ember_cpu {
namespace {

#include "sort_keys.hpp"

template <class U, class P>
struct Item {
    U key;
    P payload;
};

template <class U, class P>
U key_of(const Item<U, P>& e) {
    return e.key;
}
template <class U, class = std::enable_if_t<std::is_unsigned_v<U>>>
U key_of(U key) {
    return key;
}
template <class E>
using KeyOf = decltype(key_of(std::declval<E>()));

// Stable insertion sort by the whole key: for the short buckets the radix passes leave.
template <class E>
void insertion_sort(E* x, int64_t n) {
    for (int64_t i = 1; i < n; ++i) {
        const E v = x[i];
        int64_t j = i;
        for (; j > 0 && key_of(x[j - 1]) > key_of(v); --j) x[j] = x[j - 1];
        x[j] = v;
    }
}

// Stable LSD radix sort of x[0, n) by key bits [0, bits) (the keys agree above them): the
// fewest passes of at most 11 bits each from 2048 elements on (one pass fewer measured
// faster than the bigger counts cost), of 8 from 256, of 6 below (short lines, where
// clearing and summing the counts costs more than a pass), all counted in one pass,
// digits that every key shares skipped; returns the buffer that holds the result (x or scratch).
// n < 2^32 (the kernel's limit on a line).
template <class E>
E* lsd_sort(E* x, E* scratch, int64_t n, int bits) {
    constexpr int kShortRun = 48, kMaxDigitBits = 11;
    if (n <= kShortRun) {
        insertion_sort(x, n);
        return x;
    }
    const int max_digit = n >= (int64_t(1) << kMaxDigitBits) ? kMaxDigitBits : n >= 256 ? 8 : 6;
    const int passes = (bits + max_digit - 1) / max_digit, width = (bits + passes - 1) / passes;
    const int buckets = 1 << width;
    const unsigned mask = (unsigned)buckets - 1;
    // One counts buffer per thread, reused: short lines call this once per line.
    thread_local std::vector<uint32_t> counts;
    counts.assign((size_t)passes * (size_t)buckets, 0);
    for (int64_t i = 0; i < n; ++i) {
        const auto key = key_of(x[i]);
        for (int p = 0; p < passes; ++p) ++counts[(size_t)(p * buckets) + ((key >> (width * p)) & mask)];
    }
    for (int p = 0; p < passes; ++p) {
        uint32_t* c = counts.data() + (size_t)p * (size_t)buckets;
        if (std::count(c, c + buckets, (uint32_t)n) == 1) continue;  // every key has this digit
        uint32_t offset = 0;
        for (int d = 0; d < buckets; ++d) {
            const uint32_t k = c[d];
            c[d] = offset;
            offset += k;
        }
        const int shift = width * p;
        for (int64_t i = 0; i < n; ++i) scratch[c[(key_of(x[i]) >> shift) & mask]++] = x[i];
        std::swap(x, scratch);
    }
    return x;
}

// Hands sorted[0, n) to emit in one piece per task; with whole_runs, cut only between
// different keys, so that a run of equal keys reaches emit whole (sort_complex_lines orders
// each run further).
template <class E, class Emit>
void emit_in_pieces(const E* sorted, int64_t n, int64_t first, int tasks, const Emit& emit, bool whole_runs) {
    auto cut = [&](int64_t t) {
        int64_t at = t * n / tasks;
        while (whole_runs && at > 0 && at < n && key_of(sorted[at - 1]) == key_of(sorted[at])) ++at;
        return at;
    };
    parallel_tasks(tasks, [&](int64_t t) {
        const int64_t b = cut(t), e = cut(t + 1);
        if (e > b) emit(sorted + b, first + b, e - b);
    });
}

// Stable sort of a[0, n) by key bits [0, bits) (the keys agree above them); tmp is scratch of
// n elements. One pass by the highest 8 or 11 bits in which the keys differ (found first, so
// that floats of one sign and a few exponents still spread over many buckets), on every thread:
// each thread counts its own stretch, then scatters it to positions ordered by (digit,
// thread), which keeps the sort stable. Then each bucket is sorted by the bits below with an
// LSD sort that runs in cache, buckets spread over the pool largest first; a bucket with
// more than its share of the work is split again the same way. The sorted data goes to
// emit(sorted, first, count) piece by piece (with whole_runs, a run of equal keys in one
// piece), from any thread, in any order; first counts from `first_index`, the position of
// a[0] in the caller's line.
template <class E, class Emit>
void msd_sort(E* a, E* tmp, int64_t n, int bits, int nt, int64_t first_index, const Emit& emit, bool whole_runs = false) {
    using U = KeyOf<E>;
    constexpr int kKeyBits = (int)sizeof(U) * 8;
    const bool spread_buckets = nt > 1 && n >= kParallelCostly;
    const int tasks = spread_buckets ? nt : 1;  // stretches of the passes over the whole range
    if (!spread_buckets && n < (int64_t(1) << 16)) {  // fits in L2: the LSD sort alone
        emit(lsd_sort(a, tmp, n, bits), first_index, n);
        return;
    }
    // The bits in which the keys differ: the OR of the keys XOR their AND.
    std::vector<U> ors((size_t)tasks, U(0)), ands((size_t)tasks, U(~U(0)));
    parallel_tasks(tasks, [&](int64_t t) {
        U o = 0, an = U(~U(0));
        for (int64_t i = t * n / tasks, end = (t + 1) * n / tasks; i < end; ++i) {
            o |= key_of(a[i]);
            an &= key_of(a[i]);
        }
        ors[(size_t)t] = o;
        ands[(size_t)t] = an;
    });
    U diff = 0, common = U(~U(0));
    for (int t = 0; t < tasks; ++t) {
        diff |= ors[(size_t)t];
        common &= ands[(size_t)t];
    }
    diff = U(diff ^ common);
    if (bits < kKeyBits) diff &= U((U(1) << bits) - 1);
    if (diff == 0) {  // every key equal: the input order is the sorted order
        emit_in_pieces(a, n, first_index, tasks, emit, whole_runs);
        return;
    }
    // Digits of 11 bits are counted; on lines under 2^20 they are merged into 8-bit ones
    // unless that leaves more than a sixth of the line in one bucket. Uniform (-1, 1) floats
    // put 25% in one 8-bit bucket (two exponents of one sign); uniform [0, 1) 12.5%, where
    // 8 bits measured faster at 1e6 (fewer, longer buckets).
    const int top = 63 - __builtin_clzll((unsigned long long)diff);
    int shift = std::max(0, top + 1 - 11);
    int buckets = 1 << (top + 1 - shift);
    unsigned digit_mask = (unsigned)buckets - 1;
    std::vector<std::vector<int64_t>> count((size_t)tasks);
    // Two interleaved counter sets: runs of one digit would otherwise wait on the previous
    // increment of the same counter every element.
    parallel_tasks(tasks, [&](int64_t t) {
        std::vector<int64_t> c0((size_t)buckets), c1((size_t)buckets);
        const E* src = a;
        const int64_t end = (t + 1) * n / tasks;
        int64_t i = t * n / tasks;
        for (; i + 2 <= end; i += 2) {
            ++c0[(key_of(src[i]) >> shift) & digit_mask];
            ++c1[(key_of(src[i + 1]) >> shift) & digit_mask];
        }
        for (; i < end; ++i) ++c0[(key_of(src[i]) >> shift) & digit_mask];
        for (int d = 0; d < buckets; ++d) c0[(size_t)d] += c1[(size_t)d];
        count[(size_t)t] = std::move(c0);
    });
    if (n < (int64_t(1) << 20) && buckets > 256) {
        const int group = buckets / 256;
        std::vector<std::vector<int64_t>> merged((size_t)tasks, std::vector<int64_t>(256));
        int64_t largest = 0;
        for (int d = 0; d < 256; ++d) {
            int64_t total = 0;
            for (int t = 0; t < tasks; ++t) {
                for (int j = 0; j < group; ++j) merged[(size_t)t][(size_t)d] += count[(size_t)t][(size_t)(d * group + j)];
                total += merged[(size_t)t][(size_t)d];
            }
            largest = std::max(largest, total);
        }
        if (largest <= n / 6) {
            count = std::move(merged);
            shift += __builtin_ctz((unsigned)group);
            buckets = 256;
            digit_mask = 255;
        }
    }
    std::vector<int64_t> bucket_start((size_t)buckets + 1);
    int64_t offset = 0;
    for (int d = 0; d < buckets; ++d) {
        bucket_start[(size_t)d] = offset;
        for (int t = 0; t < tasks; ++t) {
            const int64_t k = count[(size_t)t][(size_t)d];
            count[(size_t)t][(size_t)d] = offset;
            offset += k;
        }
    }
    bucket_start[(size_t)buckets] = n;
    parallel_tasks(tasks, [&](int64_t t) {
        int64_t* c = count[(size_t)t].data();
        const E* src = a;
        E* dst = tmp;
        for (int64_t i = t * n / tasks, end = (t + 1) * n / tasks; i < end; ++i) dst[c[(key_of(src[i]) >> shift) & digit_mask]++] = src[i];
    });
    if (shift == 0) {  // the digit was every remaining bit
        emit_in_pieces(tmp, n, first_index, tasks, emit, whole_runs);
        return;
    }
    std::vector<int> order;
    for (int d = 0; d < buckets; ++d)
        if (bucket_start[(size_t)d + 1] > bucket_start[(size_t)d]) order.push_back(d);
    auto size_of = [&](int d) { return bucket_start[(size_t)d + 1] - bucket_start[(size_t)d]; };
    std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return size_of(x) > size_of(y); });
    size_t small = 0;
    for (; small < order.size(); ++small) {
        const int64_t size = size_of(order[small]), begin = bucket_start[(size_t)order[small]];
        const bool big = size >= (int64_t(1) << 16) && (!spread_buckets || size > n / (2 * nt));
        if (!big) break;
        msd_sort(tmp + begin, a + begin, size, shift, nt, first_index + begin, emit, whole_runs);
    }
    auto sort_bucket = [&](int64_t i) {
        const int d = order[small + (size_t)i];
        const int64_t begin = bucket_start[(size_t)d];
        emit(lsd_sort(tmp + begin, a + begin, size_of(d), shift), first_index + begin, size_of(d));
    };
    const int64_t rest = (int64_t)(order.size() - small);
    if (spread_buckets) parallel_tasks(rest, sort_bucket);
    else
        for (int64_t i = 0; i < rest; ++i) sort_bucket(i);
}

// After a sort of bare keys: a key decodes back to its element's bits except where float
// keys merge elements that compare equal: -0.0 with +0.0, and NaNs of any payload. When a
// line holds such an element whose bits the decoded key would not give, the runs of those
// two keys are rewritten with the original bits in input order, as a stable sort leaves them.
template <KeyKind K, class U>
void restore_merged_runs(const U* src, int64_t sx, U* dst, int64_t so, int64_t n, U flip, U inf_bits) {
    constexpr U sign = U(U(1) << (sizeof(U) * 8 - 1));
    const U zero_key = U(sign ^ flip), nan_key = U(~U(0) ^ flip);
    int64_t zero_at = 0, nan_at = 0;  // where the runs of those keys start: how many keys sort before
    for (int64_t k = 0; k < n; ++k) {
        const U key = encode_key<K>(src[k * sx], inf_bits, flip);
        zero_at += key < zero_key;
        nan_at += key < nan_key;
    }
    for (int64_t k = 0; k < n; ++k) {
        const U bits = src[k * sx], key = encode_key<K>(bits, inf_bits, flip);
        if (key == zero_key) dst[zero_at++ * so] = bits;
        else if (key == nan_key) dst[nan_at++ * so] = bits;
    }
}

// f(step) with step = stride, as a compile-time 1 when the stride is 1: the loops over a
// contiguous line then vectorise.
template <class F>
inline void with_unit_stride_split(int64_t stride, const F& f) {
    if (stride == 1) f(std::integral_constant<int64_t, 1>{});
    else f(stride);
}

// encode_line (no indices) and decode_line, in the ISA's vectors for 32- and 64-bit keys.
template <KeyKind K, class U>
bool encode_values(const U* src, int64_t step, int64_t n, U* keys, U inf_bits, U flip) {
    if constexpr (sizeof(U) == 4 || sizeof(U) == 8) {
        return g_isa->encode_sort_keys[K][sizeof(U) == 8](src, step, n, keys, inf_bits, flip);
    } else {
        bool odd = false;
        with_unit_stride_split(step, [&](auto s) { odd = encode_line<K, false>(src, s, n, keys, inf_bits, flip); });
        return odd;
    }
}
template <KeyKind K, class U>
void decode_values(const U* keys, int64_t n, U* dst, int64_t step, U flip) {
    if constexpr (sizeof(U) == 4 || sizeof(U) == 8) g_isa->decode_sort_keys[K][sizeof(U) == 8](keys, n, dst, step, flip);
    else with_unit_stride_split(step, [&](auto s) { decode_line<K>(keys, n, dst, s, flip); });
}

// A line of values this long is sorted on every thread (sort_long_line_values), a shorter
// one on one: float64 1e4 keys 84-133 -> 57-84 us on two threads, 2e4 178-240 -> 101-106,
// float32 6e4 276-450 -> 157-159 us (Zen 3 host; from 2^16 before).
constexpr int64_t kSplitLineMin = 1 << 13;

// Sorts 32- or 64-bit keys[0, n) with the ISA's vectorised quicksort, if it has one (else
// returns false): partition steps cut the line into pieces until every thread has two to
// take, in rounds that split the largest pieces side by side on the pool (a split one at a
// time left the second round's halves to one thread: 1e7 float64 keys on two threads); the
// pool then sorts the pieces, largest first.
template <class U>
bool quicksort_on_pool(U* keys, int64_t n) {
    if constexpr (sizeof(U) != 4 && sizeof(U) != 8) return false;
    else {
        const QuicksortFn quicksort = g_isa->quicksort[sizeof(U) == 8];
        const QuickSplitFn split = g_isa->quick_split[sizeof(U) == 8];
        if (!quicksort) return false;
        struct Piece {
            int64_t begin, size;
            bool sorted;  // all keys equal
        };
        auto by_size = [](const Piece& x, const Piece& y) { return (x.sorted ? 0 : x.size) > (y.sorted ? 0 : y.size); };
        std::vector<Piece> pieces{{0, n, false}};
        const size_t wanted = 2 * (size_t)num_threads();
        while (wanted > 2 && pieces.size() < wanted) {
            std::sort(pieces.begin(), pieces.end(), by_size);
            size_t round = 0;  // the largest pieces that still split, at most as many as wanted
            while (round < pieces.size() && pieces.size() + round < wanted && !pieces[round].sorted && pieces[round].size >= kSplitLineMin)
                ++round;
            if (round == 0) break;
            std::vector<int64_t> cut(round);
            parallel_tasks((int64_t)round, [&](int64_t i) { cut[(size_t)i] = split(keys + pieces[(size_t)i].begin, pieces[(size_t)i].size); });
            for (size_t i = 0; i < round; ++i) {
                const Piece p = pieces[i];
                if (cut[i] == p.size) {
                    pieces[i].sorted = true;
                    continue;
                }
                pieces[i] = {p.begin, cut[i], false};
                pieces.push_back({p.begin + cut[i], p.size - cut[i], false});
            }
        }
        std::sort(pieces.begin(), pieces.end(), by_size);
        parallel_tasks((int64_t)pieces.size(), [&](int64_t i) {
            if (!pieces[(size_t)i].sorted) quicksort(keys + pieces[(size_t)i].begin, pieces[(size_t)i].size);
        });
        return true;
    }
}

// sort (values) of one long line on every thread, sorting bare keys: half the memory
// traffic of key + payload; restore_merged_runs fixes what the bare keys lose.
template <KeyKind K, class U>
void sort_long_line_values(const U* src, int64_t sx, U* dst, int64_t so, int64_t n, bool descending, U inf_bits) {
    const U flip = descending ? U(~U(0)) : U(0);
    Scratch<U> a(n);
    std::atomic<bool> odd{false};
    parallel_range(n, 0, 1 << 16, [&](int64_t k0, int64_t k1) {
        if (encode_values<K>(src + k0 * sx, sx, k1 - k0, a.data + k0, inf_bits, flip)) odd.store(true, std::memory_order_relaxed);
    });
    auto emit = [&](const U* sorted, int64_t first, int64_t count) {
        decode_values<K>(sorted, count, dst + first * so, so, flip);
    };
    if (quicksort_on_pool(a.data, n)) {
        parallel_range(n, 0, 1 << 16, [&](int64_t k0, int64_t k1) { emit(a.data + k0, k0, k1 - k0); });
    } else {
        Scratch<U> tmp(n);
        msd_sort(a.data, tmp.data, n, (int)sizeof(U) * 8, num_threads(), 0, emit);
    }
    if (odd.load()) restore_merged_runs<K>(src, sx, dst, so, n, flip, inf_bits);
}

// Merges x[0, nx) and y[0, ny), both sorted, into out; branch-free (the order of equal
// keys is not kept: callers' keys are distinct or interchangeable).
template <class Key>
void merge_two(const Key* x, int64_t nx, const Key* y, int64_t ny, Key* out) {
    int64_t i = 0, j = 0, k = 0;
    while (i < nx && j < ny) {
        const Key a = x[i], b = y[j];
        const bool take_y = b < a;
        out[k++] = take_y ? b : a;
        i += !take_y;
        j += take_y;
    }
    while (i < nx) out[k++] = x[i++];
    while (j < ny) out[k++] = y[j++];
}

// A line may be this many networks long (merged after): up to there the merges measured
// faster than the radix sort's passes.
constexpr int kNetworksPerLine = 4;
// ... and at most this many bytes of keys (2048 32-bit keys).
constexpr int64_t kShortLineBytes = 8192;

// After a sort by (window << 32 | index): each run of equal windows, in index order, sorted
// stably by its whole keys, so that equal keys stay in index order.
template <class U>
void order_equal_windows(uint64_t* packed, int64_t n, const U* whole) {
    auto less = [whole](uint64_t a, uint64_t b) { return whole[a & 0xffffffffu] < whole[b & 0xffffffffu]; };
    for (int64_t first = 0; first < n;) {
        int64_t end = first + 1;
        while (end < n && packed[end] >> 32 == packed[first] >> 32) ++end;
        if (end - first > 16) std::stable_sort(packed + first, packed + end, less);
        else
            for (int64_t i = first + 1; i < end; ++i) {
                const uint64_t v = packed[i];
                int64_t j = i;
                for (; j > first && less(v, packed[j - 1]); --j) packed[j] = packed[j - 1];
                packed[j] = v;
            }
        first = end;
    }
}

template <class Step>
void write_indices(const uint64_t* __restrict keys, int64_t n, int64_t* __restrict dst, Step step) {
    for (int64_t k = 0; k < n; ++k) dst[k * step] = (int64_t)(keys[k] & 0xffffffffu);
}

// Sorting many short lines: each line's keys are sorted in stack buffers, in pieces of the
// ISA's sorting network's size (simd_sortnet.hpp), the pieces then merged. Where the ISA
// has a quicksort, it sorts the keys of a line longer than a quarter of the largest
// network (16 vectors, its own leaves' size) instead, unless the line fills one network
// exactly: a network pads its keys to a power of two vectors and the merges are scalar.
// Zen 3 (AVX2), one thread: float32 lines of 130 1.8x, 600 1.6x, 1024 1.6x faster; argsort
// float32 lines of 70 1.5x, 300 1.2x, 512 1.15x; float64 300 1.2x; lines of a power of
// two up to one network stay on it (the quicksort took 7-12% longer there). Neither
// networks, merges nor the quicksort is stable, so argsort sorts (key << 32 | index),
// distinct keys whose order is the stable one; sort sorts bare keys and restores merged
// runs as above. A 64-bit key does not fit beside the index: argsort sorts by a 32-bit
// window of it instead, its distance from the line's smallest key shifted right until the
// line's largest distance fits (exact when the line spans less than 2^32 keys, as small
// integers do), then orders equal windows by their whole keys (order_equal_windows).
template <KeyKind K, class U, bool Indices>
void sort_short_lines(const ember_view_t& x, const ember_view_t& out, int axis, bool descending, U inf_bits) {
    using Key = std::conditional_t<Indices || sizeof(U) == 8, uint64_t, uint32_t>;
    constexpr bool kWindowed = Indices && sizeof(U) == 8;
    const int64_t n = x.shape[axis], lines = numel(x) / n;
    const int64_t sx = x.strides[axis], so = out.strides[axis];
    const U* xb = (const U*)x.data + x.offset;
    const U flip = descending ? U(~U(0)) : U(0);
    const NetworkSortFn network = g_isa->network_sort[sizeof(Key) == 8];
    const int64_t piece = g_isa->network_sort_max[sizeof(Key) == 8];
    constexpr int64_t kCapacity = kShortLineBytes / (int64_t)sizeof(Key);
    const QuicksortFn quicksort = g_isa->quicksort[sizeof(Key) == 8];
    // AVX-512, one thread: a whole network of 64 vectors lost to the quicksort (1024 float32
    // keys 2.09 against 1.80 us, 512 float64 2.12 against 1.93) and one of 32 did not (512
    // float32 0.85 against 1.02, 256 float64 0.91 against 0.88).
    const int64_t whole_network_max = g_isa->vector_bytes == 64 ? piece / 2 : piece;
    const bool one_network = n <= piece / 4 || (n <= whole_network_max && (n & (n - 1)) == 0);  // see above
    using Wholes = std::array<U, kWindowed ? kCapacity : 1>;
    auto sort_range = [&](int64_t first_line, int64_t end_line) {
        alignas(64) Key buffer[2][kCapacity];
        alignas(64) Wholes wholes;
        U* whole = wholes.data();
        for (int64_t line = first_line; line < end_line; ++line) {
            int64_t xo, oo;
            line_offsets(x, out, axis, line, xo, oo);
            const U* src = xb + xo;
            Key* keys = buffer[0];
            bool odd = false;
            int shift = 0;
            if constexpr (kWindowed) {
                U lo = ~U(0), hi = 0;
                for (int64_t k = 0; k < n; ++k) {
                    const U key = encode_key<K>(src[k * sx], inf_bits, flip);
                    whole[k] = key;
                    lo = key < lo ? key : lo;
                    hi = key > hi ? key : hi;
                }
                const U span = hi - lo;
                shift = span >> 32 ? 32 - __builtin_clzll(span) : 0;
                for (int64_t k = 0; k < n; ++k) keys[k] = (uint64_t)((whole[k] - lo) >> shift) << 32 | (uint64_t)k;
            } else if constexpr (std::is_same_v<Key, U>) {
                odd = encode_values<K>(src, sx, n, keys, inf_bits, flip);
            } else {
                with_unit_stride_split(sx, [&](auto step) { odd = encode_line<K, Indices>(src, step, n, keys, inf_bits, flip); });
            }
            if (quicksort && !one_network) {
                quicksort(keys, n);
            } else {
                for (int64_t b = 0; b < n; b += piece) network(keys + b, std::min(piece, n - b));
                for (int64_t run = piece; run < n; run *= 2) {
                    Key* merged = keys == buffer[0] ? buffer[1] : buffer[0];
                    for (int64_t b = 0; b < n; b += 2 * run) {
                        const int64_t mid = std::min(b + run, n), end = std::min(b + 2 * run, n);
                        merge_two(keys + b, mid - b, keys + mid, end - mid, merged + b);
                    }
                    keys = merged;
                }
            }
            if constexpr (kWindowed)
                if (shift != 0) order_equal_windows(keys, n, whole);
            if constexpr (Indices) {
                int64_t* dst = (int64_t*)out.data + out.offset + oo;
                with_unit_stride_split(so, [&](auto step) { write_indices(keys, n, dst, step); });
            } else {
                U* dst = (U*)out.data + out.offset + oo;
                if constexpr (std::is_same_v<Key, U>) decode_values<K>(keys, n, dst, so, flip);
                else with_unit_stride_split(so, [&](auto step) { decode_line<K>(keys, n, dst, step, flip); });
                if (odd) restore_merged_runs<K>(src, sx, dst, so, n, flip, inf_bits);
            }
        }
    };
    if (numel(x) >= kParallelCostly) parallel_range(lines, 0, 1, sort_range);
    else sort_range(0, lines);
}

// The longest line sort_short_lines takes.
template <class U, bool Indices>
int64_t short_line_limit() {
    const int key_bytes = Indices || sizeof(U) == 8 ? 8 : 4;
    return std::min<int64_t>(kShortLineBytes / key_bytes, kNetworksPerLine * g_isa->network_sort_max[key_bytes == 8]);
}

// argsort lines of 32-bit elements up to this long go through the quicksort (below), longer
// ones through the radix sort: their (key << 32 | index) keys leave the L2 (512 KiB on the
// Zen 3 host). There, two threads: 16 lines of 1e5 took 19 ms against the radix sort's
// 14.4, 40 of 5e4 13.5 against 16; one line of 1e4 76-124 us against 159-172, of 1e5 the
// same, of 1e6 10-11.8 ms against 6.6-7.9.
constexpr int64_t kQuickArgsortMax = 1 << 16;

// argsort of one long line of 32-bit elements on every thread: (key << 32 | index) through
// quicksort_on_pool, as quicksort_lines sorts shorter lines.
template <KeyKind K, class U>
void argsort_long_line(const U* src, int64_t sx, int64_t* dst, int64_t so, int64_t n, bool descending, U inf_bits) {
    static_assert(sizeof(U) == 4, "the key and the index share 64 bits");
    const U flip = descending ? U(~U(0)) : U(0);
    Scratch<uint64_t> keys(n);
    parallel_range(n, 0, 1 << 16, [&](int64_t k0, int64_t k1) {
        for (int64_t k = k0; k < k1; ++k) keys.data[k] = (uint64_t)encode_key<K>(src[k * sx], inf_bits, flip) << 32 | (uint64_t)k;
    });
    quicksort_on_pool(keys.data, n);
    parallel_range(n, 0, 1 << 16, [&](int64_t k0, int64_t k1) {
        with_unit_stride_split(so, [&](auto step) { write_indices(keys.data + k0, k1 - k0, dst + k0 * so, step); });
    });
}

// Lines longer than sort_short_lines takes, each on one thread, where the ISA has a
// vectorised quicksort, not the radix sort's (key, element) items: sort sorts bare keys, as
// in sort_long_line_values; argsort of 32-bit elements sorts (key << 32 | index), as
// sort_short_lines does. On the Zen 3 host one float64 line of 1e4 took 185-350 us through
// the radix sort of 16-byte items, NumPy 97; argsort of float32 lines (up to
// kQuickArgsortMax), two threads: 2000 keys 1.5x, 5000 1.3-1.5x, 2e4 and 5e4 1.15x faster
// than the radix sort.
template <KeyKind K, class U, bool Indices>
void quicksort_lines(const ember_view_t& x, const ember_view_t& out, int axis, bool descending, U inf_bits) {
    using Key = std::conditional_t<Indices, uint64_t, U>;
    const int64_t n = x.shape[axis], lines = numel(x) / n;
    const int64_t sx = x.strides[axis], so = out.strides[axis];
    const U* xb = (const U*)x.data + x.offset;
    const U flip = descending ? U(~U(0)) : U(0);
    const QuicksortFn quicksort = g_isa->quicksort[sizeof(Key) == 8];
    auto sort_range = [&](int64_t first_line, int64_t end_line) {
        Scratch<Key> keys(n);
        for (int64_t line = first_line; line < end_line; ++line) {
            int64_t xo, oo;
            line_offsets(x, out, axis, line, xo, oo);
            const U* src = xb + xo;
            if constexpr (Indices) {
                with_unit_stride_split(sx, [&](auto step) { encode_line<K, true>(src, step, n, keys.data, inf_bits, flip); });
                quicksort(keys.data, n);
                int64_t* dst = (int64_t*)out.data + out.offset + oo;
                with_unit_stride_split(so, [&](auto step) { write_indices(keys.data, n, dst, step); });
            } else {
                U* dst = (U*)out.data + out.offset + oo;
                const bool odd = encode_values<K>(src, sx, n, keys.data, inf_bits, flip);
                quicksort(keys.data, n);
                decode_values<K>(keys.data, n, dst, so, flip);
                if (odd) restore_merged_runs<K>(src, sx, dst, so, n, flip, inf_bits);
            }
        }
    };
    if (numel(x) >= kParallelCostly) parallel_range(lines, 0, 1, sort_range);
    else sort_range(0, lines);
}

// Sorts every line of x along `axis` with msd_sort (whole_runs passed on), the lines spread
// over the pool, or one long line on every thread. load(xo, a, k0, k1) fills items [k0, k1) of the line at element
// offset xo; store(xo, oo, sorted, first, count) writes sorted items as elements [first,
// first + count) of the output line at offset oo.
template <class E, class Load, class Store>
void msd_sort_lines(const ember_view_t& x, const ember_view_t& out, int axis, const Load& load, const Store& store, bool whole_runs) {
    const int64_t n = x.shape[axis], lines = numel(x) / n;
    const int nt = num_threads();
    const int bits = (int)sizeof(KeyOf<E>) * 8;
    if (n >= kParallelCostly && (lines < nt || lines == 1)) {  // each line on every thread
        Scratch<E> a(n), tmp(n);
        for (int64_t line = 0; line < lines; ++line) {
            int64_t xo, oo;
            line_offsets(x, out, axis, line, xo, oo);
            parallel_range(n, 0, 1 << 16, [&](int64_t k0, int64_t k1) { load(xo, a.data, k0, k1); });
            msd_sort(a.data, tmp.data, n, bits, nt, 0, [&](const E* sorted, int64_t first, int64_t count) { store(xo, oo, sorted, first, count); }, whole_runs);
        }
        return;
    }
    auto sort_line = [&](int64_t line, E* a, E* tmp) {
        int64_t xo, oo;
        line_offsets(x, out, axis, line, xo, oo);
        load(xo, a, 0, n);
        msd_sort(a, tmp, n, bits, 1, 0, [&](const E* sorted, int64_t first, int64_t count) { store(xo, oo, sorted, first, count); }, whole_runs);
    };
    const int64_t tasks = std::min<int64_t>(lines, 4 * (int64_t)nt);
    auto run_task = [&](int64_t t) {
        Scratch<E> a(n), tmp(n);
        for (int64_t line = t * lines / tasks; line < (t + 1) * lines / tasks; ++line) sort_line(line, a.data, tmp.data);
    };
    if (numel(x) >= kParallelCostly && tasks > 1) parallel_tasks(tasks, run_task);
    else
        for (int64_t t = 0; t < tasks; ++t) run_task(t);
}

// Packed rows of N <= 4 elements ((1e6, 3) points): keys in registers, ordered by a network
// of adjacent compare-exchanges that swap only on a strictly greater key, so equal keys
// keep their input order as the stable sorts do; values are written back from their own
// bits (the keys of -0.0 and +0.0, and of NaNs, are merged). Through sort_short_lines a row
// of 3 cost ~47 ns (line offsets, an encode, a network call and a decode per row).
template <KeyKind K, class U, bool Indices, int N>
void tiny_rows(const U* __restrict src, void* out, int64_t rows, U flip, U inf_bits) {
    using P = std::conditional_t<Indices, int64_t, U>;
    parallel_range(rows, rows * N >= kParallelCheap ? 0 : INT64_MAX, 1 << 12, [=](int64_t begin, int64_t end) {
        P* __restrict dst = (P*)out;
        for (int64_t r = begin; r < end; ++r) {
            U key[N];
            P item[N];
            for (int k = 0; k < N; ++k) {
                key[k] = encode_key<K>(src[r * N + k], inf_bits, flip);
                item[k] = Indices ? P(k) : P(src[r * N + k]);
            }
            auto exchange = [&](int i) {
                const bool swap = key[i] > key[i + 1];
                const U ka = key[i], kb = key[i + 1];
                const P ia = item[i], ib = item[i + 1];
                key[i] = swap ? kb : ka, key[i + 1] = swap ? ka : kb;
                item[i] = swap ? ib : ia, item[i + 1] = swap ? ia : ib;
            };
            for (int round = 0; round < N; ++round)  // odd-even transposition: N rounds sort N
                for (int i = round % 2; i + 1 < N; i += 2) exchange(i);
            for (int k = 0; k < N; ++k) dst[r * N + k] = item[k];
        }
    });
}

// Lines of 8- and 16-bit integers (and bools) sort by counting: a key stands for one value,
// so the sorted line is each value repeated its count, in key order (no payload, no order
// of equal elements to keep). One pass counts, in kTables interleaved tables so that runs of
// one value do not wait on one counter; a second writes the runs. A line split across tasks
// counts its parts apart and writes its own share of the output.
template <class U>
constexpr int64_t kCountingMin = sizeof(U) == 1 ? 0 : int64_t(1) << 17;  // 16-bit: where the 65536-entry tables pay
template <KeyKind K, class U>
void counting_sort_line(const U* src, int64_t sx, U* dst, int64_t so, int64_t n, bool descending, int64_t tasks) {
    constexpr int64_t kKeys = int64_t(1) << (8 * sizeof(U)), kTables = sizeof(U) == 1 ? 4 : 2;
    const U flip = descending ? U(~U(0)) : U(0);
    Scratch<uint32_t> tables(tasks * kTables * kKeys);  // the caching allocator's: no fresh pages to fault in
    auto count = [&](int64_t t) {
        uint32_t* c = tables.data + t * kTables * kKeys;
        std::memset(c, 0, sizeof(uint32_t) * kTables * kKeys);
        const int64_t k0 = n * t / tasks, k1 = n * (t + 1) / tasks;
        int64_t k = k0;
        for (; k + kTables <= k1; k += kTables)
            for (int64_t j = 0; j < kTables; ++j) ++c[j * kKeys + encode_key<K>(src[(k + j) * sx], U(0), flip)];
        for (; k < k1; ++k) ++c[encode_key<K>(src[k * sx], U(0), flip)];
    };
    if (tasks > 1) parallel_tasks(tasks, count);
    else count(0);
    uint32_t* total = tables.data;  // every table added into the first
    for (int64_t t = 1; t < tasks * kTables; ++t) {
        const uint32_t* c = tables.data + t * kKeys;
        for (int64_t key = 0; key < kKeys; ++key) total[key] += c[key];
    }
    Scratch<int64_t> starts(kKeys + 1);  // of each key's run in the output
    int64_t* start = starts.data;
    start[0] = 0;
    for (int64_t key = 0; key < kKeys; ++key) start[key + 1] = start[key] + total[key];
    auto write = [&](int64_t t) {
        const int64_t p0 = n * t / tasks, p1 = n * (t + 1) / tasks;
        int64_t key = std::upper_bound(start, start + kKeys + 1, p0) - start - 1;
        for (int64_t p = p0; p < p1; ++key) {
            const int64_t e = std::min(p1, start[key + 1]);
            const U v = decode_key<K>(U(key), flip);
            if (so == 1 && e - p <= 4 && p + 4 <= p1) {
                // A short run (most, for keys spread wide) as four stores the next runs
                // overwrite: a fill call per run mispredicted its length, 7 ns a key.
                dst[p] = v, dst[p + 1] = v, dst[p + 2] = v, dst[p + 3] = v;
            } else if (so == 1) {
                std::fill(dst + p, dst + e, v);
            } else {
                for (int64_t i = p; i < e; ++i) dst[i * so] = v;
            }
            p = e;
        }
    };
    if (tasks > 1) parallel_tasks(tasks, write);
    else write(0);
}
template <KeyKind K, class U>
void counting_sort_lines(const ember_view_t& x, const ember_view_t& out, int axis, bool descending) {
    const int64_t n = x.shape[axis], lines = numel(x) / n, nt = num_threads();
    const U* xb = (const U*)x.data + x.offset;
    U* ob = (U*)out.data + out.offset;
    auto line = [&](int64_t i, int64_t tasks) {
        int64_t xo, oo;
        line_offsets(x, out, axis, i, xo, oo);
        counting_sort_line<K>(xb + xo, x.strides[axis], ob + oo, out.strides[axis], n, descending, tasks);
    };
    if (lines < nt) {
        const int64_t tasks = n >= kSplitLineMin ? nt : 1;
        for (int64_t i = 0; i < lines; ++i) line(i, tasks);
    } else if (numel(x) >= kParallelCheap) {
        parallel_tasks(lines, [&](int64_t i) { line(i, 1); });
    } else {
        for (int64_t i = 0; i < lines; ++i) line(i, 1);
    }
}

template <KeyKind K, class U, bool Indices>
void sort_lines(const ember_view_t& x, const ember_view_t& out, int axis, bool descending, U inf_bits) {
    using P = std::conditional_t<Indices, uint32_t, U>;
    const int64_t n = x.shape[axis], lines = numel(x) / n;
    const int64_t sx = x.strides[axis], so = out.strides[axis];
    const U* xb = (const U*)x.data + x.offset;
    const U flip = descending ? U(~U(0)) : U(0);
    if (n >= 2 && n <= 4 && axis == x.ndim - 1 && is_contiguous(x) && is_contiguous(out)) {
        void* dst = (char*)out.data + out.offset * (int64_t)itemsize_of(out.dtype);
        switch (n) {
            case 2: return tiny_rows<K, U, Indices, 2>(xb, dst, lines, flip, inf_bits);
            case 3: return tiny_rows<K, U, Indices, 3>(xb, dst, lines, flip, inf_bits);
            default: return tiny_rows<K, U, Indices, 4>(xb, dst, lines, flip, inf_bits);
        }
    }
    // Packed rows of 5-16 a vector of rows at a time (sort_packed_rows), whose cost grows as
    // n^2 over the lanes: up to n^2 = 32 lanes, except the values on SSE2, up to 16 lanes.
    // And except the values of rows of 16 32-bit keys, which fill one AVX-512 network
    // exactly: (1e5, 16) int32 on two threads took 927 us through sort_short_lines, 1515
    // packed. Elsewhere, us for (1e5, n) on two threads, sort_short_lines -> packed (the
    // Intel host of series 40-46): AVX-512 int32 n = 5 2496 -> 427, 10 2521 -> 823, 15 2370
    // -> 1354; float64 8 1135 -> 757, 12 3408 -> 1470, 14 3656 -> 1870, 16 2461 -> 2413;
    // argsort of int32 10 3830 -> 982, 16 3106 -> 1761, of float64 12 5369 -> 1408, 16 6241
    // -> 2287. AVX2 int32 10 3120 -> 1690, 16 2841 -> 3717; float32 12 3521 -> 1523, 15 3602
    // -> 2150; float64 9 3660 -> 2118, 11 3847 -> 2359, 16 3210 -> 5173; argsort of float32
    // 12 3173 -> 1468, 16 3232 -> 2310, of float64 9 5095 -> 1660, 11 5555 -> 2299. SSE2
    // (generic) int32 5 1796 -> 876, float64 8 2161 -> 3171, 16 4135 -> 13784; argsort of
    // float64 6 3105 -> 1782, 8 3406 -> 3129.
    const int64_t lanes = g_isa->vector_bytes / (int64_t)sizeof(U);
    const int64_t max_n_squared = (Indices || g_isa->vector_bytes > 16 ? 32 : 16) * lanes;
    const bool values_fill_a_network = !Indices && sizeof(U) == 4 && n == 16;
    if constexpr (sizeof(U) >= 4)
        if (n >= kPackedRowsMin && n <= kPackedRowsMax && n * n <= max_n_squared && !values_fill_a_network && axis == x.ndim - 1 && is_contiguous(x) &&
            is_contiguous(out)) {
            char* dst = (char*)out.data + out.offset * (int64_t)itemsize_of(out.dtype);
            const size_t osz = Indices ? sizeof(int64_t) : sizeof(U);
            const PackedRowsSortFn sort_rows = g_isa->sort_packed_rows[K][sizeof(U) == 8];
            parallel_range(lines, numel(x) >= kParallelCostly ? 0 : INT64_MAX, 256, [&](int64_t begin, int64_t end) {
                sort_rows(xb + begin * n, dst + begin * n * (int64_t)osz, end - begin, (int)n, (uint64_t)inf_bits, (uint64_t)flip, Indices);
            });
            return;
        }
    if (n <= short_line_limit<U, Indices>()) {
        sort_short_lines<K, U, Indices>(x, out, axis, descending, inf_bits);
        return;
    }
    if constexpr (!Indices && K != kFloat && sizeof(U) <= 2)
        if (n >= kCountingMin<U>) return counting_sort_lines<K, U>(x, out, axis, descending);
    const bool quick_indices = Indices && sizeof(U) == 4 && g_isa->quicksort[1] && n <= kQuickArgsortMax;
    if ((!Indices || quick_indices) && n >= kSplitLineMin && (lines < num_threads() || lines == 1)) {  // each line on every thread
        for (int64_t line = 0; line < lines; ++line) {
            int64_t xo, oo;
            line_offsets(x, out, axis, line, xo, oo);
            if constexpr (!Indices) sort_long_line_values<K>(xb + xo, sx, (U*)out.data + out.offset + oo, so, n, descending, inf_bits);
            else if constexpr (sizeof(U) == 4) argsort_long_line<K>(xb + xo, sx, (int64_t*)out.data + out.offset + oo, so, n, descending, inf_bits);
        }
        return;
    }
    if constexpr (!Indices && (sizeof(U) == 4 || sizeof(U) == 8))
        if (g_isa->quicksort[sizeof(U) == 8]) {
            quicksort_lines<K, U, false>(x, out, axis, descending, inf_bits);
            return;
        }
    if constexpr (Indices && sizeof(U) == 4)
        if (quick_indices) {
            quicksort_lines<K, U, true>(x, out, axis, descending, inf_bits);
            return;
        }
    auto load = [&](int64_t xo, Item<U, P>* a, int64_t k0, int64_t k1) {
        const U* src = xb + xo;
        for (int64_t k = k0; k < k1; ++k) {
            const U bits = src[k * sx];
            a[k].key = encode_key<K>(bits, inf_bits, flip);
            a[k].payload = Indices ? P(k) : P(bits);
        }
    };
    auto store = [&](int64_t, int64_t oo, const Item<U, P>* sorted, int64_t first, int64_t count) {
        if constexpr (Indices) {
            int64_t* dst = (int64_t*)out.data + out.offset + oo + first * so;
            for (int64_t k = 0; k < count; ++k) dst[k * so] = (int64_t)sorted[k].payload;
        } else {
            U* dst = (U*)out.data + out.offset + oo + first * so;
            for (int64_t k = 0; k < count; ++k) dst[k * so] = sorted[k].payload;
        }
    };
    msd_sort_lines<Item<U, P>>(x, out, axis, load, store, false);
}

// Complex lines, in the reference's order: by real part, then imaginary part, with every
// element that has a NaN part last (descending: the exact reverse), equal elements in input
// order. Items hold the real part's key and the element's index, so one stable radix sort
// orders by real part; runs of equal real keys (rare in random data) are then stably sorted
// by the imaginary part's key. A NaN element's real key is the largest there is and its
// imaginary key a constant, so NaN elements stay one run in input order.
template <class R, bool Indices>
void sort_complex_lines(const ember_view_t& x, const ember_view_t& out, int axis, bool descending) {
    using U = std::conditional_t<sizeof(R) == 4, uint32_t, uint64_t>;
    using C = std::complex<R>;
    using E = Item<U, uint32_t>;
    const U inf_bits = sizeof(R) == 4 ? U(0x7f800000u) : U(0x7ff0000000000000ull);
    const U flip = descending ? U(~U(0)) : U(0);
    const int64_t sx = x.strides[axis], so = out.strides[axis];
    const C* xb = (const C*)x.data + x.offset;
    auto part_key = [&](R v) {
        U bits;
        std::memcpy(&bits, &v, sizeof bits);
        return U(encode_key<kFloat>(bits, inf_bits, U(0)) ^ flip);
    };
    auto has_nan = [](const C& z) { return std::isnan(z.real()) || std::isnan(z.imag()); };
    auto load = [&](int64_t xo, E* a, int64_t k0, int64_t k1) {
        const C* src = xb + xo;
        for (int64_t k = k0; k < k1; ++k) {
            const C z = src[k * sx];
            a[k].key = has_nan(z) ? U(~U(0) ^ flip) : part_key(z.real());
            a[k].payload = (uint32_t)k;
        }
    };
    // Writes the sorted items, each run of equal real keys first ordered by imaginary keys.
    auto store = [&](int64_t xo, int64_t oo, const E* sorted, int64_t first, int64_t count) {
        const C* src = xb + xo;
        auto put = [&](int64_t at, uint32_t index) {
            if constexpr (Indices) ((int64_t*)out.data + out.offset + oo)[at * so] = (int64_t)index;
            else ((C*)out.data + out.offset + oo)[at * so] = src[index * sx];
        };
        std::vector<E> run, tmp;
        for (int64_t b = 0, e; b < count; b = e) {
            for (e = b + 1; e < count && sorted[e].key == sorted[b].key;) ++e;
            if (e - b == 1) {
                put(first + b, sorted[b].payload);
                continue;
            }
            run.resize((size_t)(e - b));
            for (int64_t k = b; k < e; ++k) {
                const uint32_t index = sorted[k].payload;
                run[(size_t)(k - b)] = {has_nan(src[index * sx]) ? U(0) : part_key(src[index * sx].imag()), index};
            }
            auto emit = [&](const E* by_imag, int64_t at, int64_t m) {
                for (int64_t k = 0; k < m; ++k) put(first + b + at + k, by_imag[k].payload);
            };
            if (e - b < 64) {
                insertion_sort(run.data(), e - b);
                emit(run.data(), 0, e - b);
            } else {
                tmp.resize(run.size());
                msd_sort(run.data(), tmp.data(), e - b, (int)sizeof(U) * 8, 1, 0, emit);
            }
        }
    };
    msd_sort_lines<E>(x, out, axis, load, store, true);
}

template <bool Indices>
ember_status_t sort_kernel(const ember_kernel_call_t* c);

// Lines along a strided axis whose neighbours sit side by side (sort over axis 0, or along
// the last axis of a transpose): blocks of lines moved into contiguous rows by the register
// transpose, sorted there by this kernel, and moved back. Line by line, reading each across
// memory, (1000, 1000) float32 over axis 0 took 8.6 ms against 1.6 over axis 1. False where
// the layout does not fit.
template <bool Indices>
bool sort_staged(const ember_kernel_call_t* c, ember_status_t* status) {
    const ember_view_t& x = c->in[0];
    const ember_view_t& out = c->out[0];
    const int axis = (int)c->attrs->i[0], side = axis == x.ndim - 1 ? x.ndim - 2 : x.ndim - 1;
    if (side < 0 || x.strides[axis] == 1 || x.strides[side] != 1 || x.shape[side] < 4 || numel(x) < 4096) return false;
    if (out.strides[axis] != 1 && out.strides[side] != 1) return false;
    const int64_t n = x.shape[axis], width = x.shape[side], lines = numel(x) / n, planes = lines / width;
    const size_t isz = itemsize_of(x.dtype), osz = itemsize_of(out.dtype);
    if (n > (int64_t(1) << 20)) return false;
    const int64_t block = std::max<int64_t>(16, std::min<int64_t>(256, ((int64_t(1) << 16) / n) / 16 * 16));
    const int64_t blocks = (width + block - 1) / block;
    std::atomic<int> failed{EMBER_OK};
    auto task = [&](int64_t t) {
        const int64_t plane = t / blocks, j0 = t % blocks * block, nb = std::min(block, width - j0);
        int64_t xo, oo;
        line_offsets(x, out, axis, plane * width + j0, xo, oo);  // the block's first line
        Scratch<char> staged_in((int64_t)(nb * n * (int64_t)isz)), staged_out((int64_t)(nb * n * (int64_t)osz));
        gather_strided((const char*)x.data + (x.offset + xo) * (int64_t)isz, 1, x.strides[axis], nb, n, isz, n, staged_in.data);
        const int64_t shape[2] = {nb, n}, strides[2] = {n, 1};
        const ember_view_t in_view{staged_in.data, 0, x.dtype, 2, shape, strides}, out_view{staged_out.data, 0, out.dtype, 2, shape, strides};
        ember_attrs_t attrs = *c->attrs;
        attrs.i[0] = 1;
        ember_kernel_call_t call = *c;
        call.in = &in_view;
        call.out = &out_view;
        call.attrs = &attrs;
        if (const ember_status_t st = sort_kernel<Indices>(&call)) {
            failed.store(st);
            return;
        }
        char* dst = (char*)out.data + (out.offset + oo) * (int64_t)osz;
        if (out.strides[axis] == 1)
            for (int64_t j = 0; j < nb; ++j) std::memcpy(dst + j * out.strides[side] * (int64_t)osz, staged_out.data + j * n * (int64_t)osz, (size_t)n * osz);
        else
            gather_strided(staged_out.data, 1, n, n, nb, osz, out.strides[axis], dst);
    };
    const int64_t tasks = planes * blocks;
    if (tasks > 1 && numel(x) >= kParallelCostly) parallel_tasks(tasks, task);
    else
        for (int64_t t = 0; t < tasks; ++t) task(t);
    *status = (ember_status_t)failed.load();
    return true;
}

// Bools are bytes 0 and 1: a sorted line is its zeros, then its ones (descending: the ones
// first), and the stable argsort their positions in those two groups, each in line order.
// One pass counts the ones, a second writes. Through the short-line networks, (100000, 10)
// random bools took 1.7 ms to sort along the rows and 2.4 to argsort, now 0.9 and 0.7
// (NumPy 4.8 and 12.3, stable). Lines that run on every thread (few and long) keep the
// general paths.
template <bool Indices>
void bool_sort_lines(const ember_view_t& x, const ember_view_t& out, int axis, bool descending) {
    const int64_t n = x.shape[axis], lines = numel(x) / n, sx = x.strides[axis], so = out.strides[axis];
    const uint8_t* xb = (const uint8_t*)x.data + x.offset;
    const uint8_t lead = descending ? 1 : 0;  // the value of the group that comes first
    const bool rows = axis == x.ndim - 1 && is_contiguous(x) && is_contiguous(out);  // line i at i n in both
    parallel_range(lines, numel(x) < kParallelCheap ? lines + 1 : 2, 1, [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) {
            int64_t xo = i * n, oo = i * n;
            if (!rows) line_offsets(x, out, axis, i, xo, oo);
            const uint8_t* src = xb + xo;
            int64_t ones = 0;
            for (int64_t k = 0; k < n; ++k) ones += src[k * sx];
            const int64_t leading = descending ? ones : n - ones;
            if constexpr (Indices) {
                int64_t* dst = (int64_t*)out.data + out.offset + oo;
                int64_t first = 0, second = leading;  // the next position in each group
                for (int64_t k = 0; k < n; ++k) {
                    const int64_t in_first = src[k * sx] == lead, mask = -in_first;
                    dst[((first & mask) | (second & ~mask)) * so] = k;  // a select GCC made a branch: 2.3 ns an element on random bools
                    first += in_first;
                    second += 1 - in_first;
                }
            } else {
                uint8_t* dst = (uint8_t*)out.data + out.offset + oo;
                for (int64_t k = 0; k < n; ++k) dst[k * so] = uint8_t(lead ^ (k >= leading));  // no branch on the data
            }
        }
    });
}

template <bool Indices>
ember_status_t sort_kernel(const ember_kernel_call_t* c) {
    const ember_view_t& x = c->in[0];
    const ember_view_t& out = c->out[0];
    const int axis = (int)c->attrs->i[0];
    const bool descending = c->attrs->i[1] != 0;
    if (axis < 0 || axis >= x.ndim || numel(x) == 0 || x.shape[axis] >= (int64_t(1) << 32) || (!Indices && out.dtype != x.dtype))
        return reference_on_slices(c, kAxisAttr);
    if (ember_status_t status; sort_staged<Indices>(c, &status)) return status;
    // Short rows of a view (x[:, ::-1], x[:, :3]) sorted from a C-order copy, which the
    // tiny-row and packed-row kernels take: through sort_short_lines, 300000 rows of 3-7
    // float32s took 10-16 ms (NumPy 10-15).
    const bool complex = x.dtype == EMBER_COMPLEX64 || x.dtype == EMBER_COMPLEX128;
    if (axis == x.ndim - 1 && x.shape[axis] >= 2 && x.shape[axis] <= kPackedRowsMax && x.dtype != EMBER_BOOL && !complex && !is_contiguous(x) &&
        is_contiguous(out)) {
        ember_status_t st;
        if (run_on_c_order_copy(c, st, [](const ember_kernel_call_t* call, ember_status_t& s) { return (s = sort_kernel<Indices>(call)), true; }))
            return st;
    }
    switch (x.dtype) {
        case EMBER_BOOL:
            if (x.shape[axis] < kSplitLineMin || numel(x) / x.shape[axis] >= num_threads()) bool_sort_lines<Indices>(x, out, axis, descending);
            else sort_lines<kUnsigned, uint8_t, Indices>(x, out, axis, descending, 0);
            return EMBER_OK;
        case EMBER_FLOAT16: sort_lines<kFloat, uint16_t, Indices>(x, out, axis, descending, 0x7c00); return EMBER_OK;
        case EMBER_BFLOAT16: sort_lines<kFloat, uint16_t, Indices>(x, out, axis, descending, 0x7f80); return EMBER_OK;
        default: break;
    }
    const bool done = visit_real(x.dtype, [&](auto z) {
        using T = decltype(z);
        using U = std::conditional_t<sizeof(T) == 1, uint8_t, std::conditional_t<sizeof(T) == 2, uint16_t, std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>>;
        constexpr KeyKind kind = std::is_floating_point_v<T> ? kFloat : std::is_signed_v<T> ? kSigned : kUnsigned;
        const U inf_bits = std::is_floating_point_v<T> ? (sizeof(T) == 4 ? U(0x7f800000u) : U(0x7ff0000000000000ull)) : U(0);
        sort_lines<kind, U, Indices>(x, out, axis, descending, inf_bits);
    });
    if (done) return EMBER_OK;
    if (x.dtype == EMBER_COMPLEX64) sort_complex_lines<float, Indices>(x, out, axis, descending);
    else if (x.dtype == EMBER_COMPLEX128) sort_complex_lines<double, Indices>(x, out, axis, descending);
    else return reference_on_slices(c, kAxisAttr);
    return EMBER_OK;
}

// random_permutation (a COMPOSITE_KERNEL row, n <= 2^32): the composite's stable argsort
// of the 64-bit words w_k = (word 2k << 32) | word 2k+1, without sorting 16-byte (key,
// index) items: (high word, k) pairs ordered by high word, then index, and the runs of
// equal high words (about n^2 / 2^33 pairs of them) then reordered by their low words,
// stably, give the order of the whole words with ties by index. On AVX-512 the pairs are
// the 64-bit integers high word << 32 | k (distinct, so the vectorised quicksort's
// instability does not matter): 1e6 in 16-17 against 22-25 ms through the radix sort of
// (high word, k) items (two threads), the same permutation. Elsewhere the radix sort:
// AVX2's quicksort of 4-lane vectors was no faster at 1e6 on the Zen 3 host. Up to 2^17
// elements permutation_by_buckets below, on one thread.
using HighWord = Item<uint32_t, uint32_t>;
struct HighWordOfItem {
    uint32_t high(const HighWord& e) const { return e.key; }
    uint32_t index(const HighWord& e) const { return e.payload; }
};
struct HighWordOfPair {
    uint32_t high(uint64_t e) const { return (uint32_t)(e >> 32); }
    uint32_t index(uint64_t e) const { return (uint32_t)e; }
};

template <class E, class Of>
void order_tied_high_words(E* items, int64_t n, const uint32_t* low_words, Of of) {
    std::vector<std::pair<int64_t, int64_t>> runs;  // [begin, end) of equal high words
    std::mutex runs_lock;
    parallel_range(n, kParallelCheap, 1 << 16, [&](int64_t begin, int64_t end) {  // finds them, reading only
        std::vector<std::pair<int64_t, int64_t>> found;
        for (int64_t i = begin; i < end; ++i) {
            const uint32_t high = of.high(items[i]);
            if (i + 1 == n || of.high(items[i + 1]) != high || (i > 0 && of.high(items[i - 1]) == high)) continue;
            int64_t j = i + 2;  // i starts a run
            while (j < n && of.high(items[j]) == high) ++j;
            found.emplace_back(i, j);
        }
        std::lock_guard<std::mutex> hold(runs_lock);
        runs.insert(runs.end(), found.begin(), found.end());
    });
    for (const auto& [i, j] : runs)
        for (int64_t a = i + 1; a < j; ++a) {  // a stable insertion sort by low word
            const E v = items[a];
            int64_t b = a;
            for (; b > i && low_words[of.index(items[b - 1])] > low_words[of.index(v)]; --b) items[b] = items[b - 1];
            items[b] = v;
        }
}

// Up to kBucketPermutationMax elements: the words are uniform, so a counting sort by their
// top bits (at least as many buckets as words) leaves about one word a bucket, and one
// insertion pass by the whole word finishes the order (a word only moves past the few in
// its own bucket; ties keep index order, as the strict comparison never moves a word past
// an equal one). On the Zen 3 host (minimum of 200 calls): 1e4 in 69-70 us against
// 100-137 through the radix sort on two threads, 65536 in 562-580 against 757-889, 1e5
// 884-907 against 936-1220; at 3e5 it fell behind (3.0-3.3 ms against 2.3-2.8), as did
// twice or half as many buckets as words (1e4 in 82 and 76-98 us).
constexpr int64_t kBucketPermutationMax = int64_t(1) << 17;

void permutation_by_buckets(uint64_t key, uint64_t base, int64_t n, int64_t* dst) {
    int bits = 1;
    while ((int64_t(1) << bits) < n) ++bits;
    const int shift = 64 - bits;
    Scratch<uint64_t> words(n);
    Scratch<uint32_t> begin((int64_t(1) << bits) + 1);
    std::memset(begin.data, 0, ((size_t(1) << bits) + 1) * sizeof(uint32_t));
    constexpr int64_t kBatch = 256;  // blocks: two elements each
    uint32_t w[4 * kBatch];
    for (int64_t e0 = 0; e0 < n; e0 += 2 * kBatch) {
        const int64_t m = std::min(2 * kBatch, n - e0);
        g_isa->philox(key, base + (uint64_t)(e0 / 2), w, (m + 1) / 2, 0);
        for (int64_t k = 0; k < m; ++k) {
            const uint64_t word = (uint64_t)w[2 * k] << 32 | w[2 * k + 1];
            words.data[e0 + k] = word;
            ++begin.data[(word >> shift) + 1];
        }
    }
    for (int64_t b = 1; b <= (int64_t(1) << bits); ++b) begin.data[b] += begin.data[b - 1];
    struct Entry {
        uint64_t word;
        int64_t index;
    };
    Scratch<Entry> order(n);
    for (int64_t k = 0; k < n; ++k) order.data[begin.data[words.data[k] >> shift]++] = Entry{words.data[k], k};
    for (int64_t a = 1; a < n; ++a) {
        const Entry v = order.data[a];
        int64_t b = a;
        for (; b > 0 && order.data[b - 1].word > v.word; --b) order.data[b] = order.data[b - 1];
        order.data[b] = v;
    }
    for (int64_t k = 0; k < n; ++k) dst[k] = order.data[k].index;
}

ember_status_t permutation_kernel(const ember_kernel_call_t* c) {
    const ember_view_t& out = c->out[0];
    const int64_t n = numel(out);
    if (c->n_in != 0 || c->n_out != 1 || out.dtype != EMBER_INT64 || !is_contiguous(out) || n > (int64_t(1) << 32))
        return g_host->fail(EMBER_ERR_INVALID_ARGUMENT, "cpu random_permutation: expects one contiguous int64 output of at most 2^32 elements");
    const uint64_t key = (uint64_t)c->attrs->i[0], base = (uint64_t)c->attrs->i[1];
    if (n <= kBucketPermutationMax) {
        permutation_by_buckets(key, base, n, (int64_t*)out.data + out.offset);
        return EMBER_OK;
    }
    const bool quick = g_isa->quicksort[1] != nullptr && g_isa->vector_bytes == 64;
    static_assert(sizeof(HighWord) == sizeof(uint64_t), "a pair lives in an item's bytes");
    Scratch<HighWord> items(n), tmp(quick ? 0 : n);
    uint64_t* pairs = (uint64_t*)items.data;
    Scratch<uint32_t> low_words(n);
    constexpr int64_t kBatch = 256;  // blocks: two elements each
    parallel_range((n + 1) / 2, kParallelCheap / 2, kBatch, [&](int64_t b0, int64_t b1) {
        uint32_t w[4 * kBatch];
        for (int64_t b = b0; b < b1; b += kBatch) {
            const int64_t nb = std::min(kBatch, b1 - b), e0 = 2 * b, m = std::min(2 * nb, n - e0);
            g_isa->philox(key, base + (uint64_t)b, w, nb, 0);
            for (int64_t k = 0; k < m; ++k) {
                if (quick) pairs[e0 + k] = (uint64_t)w[2 * k] << 32 | (uint64_t)(e0 + k);
                else items.data[e0 + k] = HighWord{w[2 * k], (uint32_t)(e0 + k)};
                low_words.data[e0 + k] = w[2 * k + 1];
            }
        }
    });
    int64_t* dst = (int64_t*)out.data + out.offset;
    if (quick) {
        quicksort_on_pool(pairs, n);
        order_tied_high_words(pairs, n, low_words.data, HighWordOfPair{});
        parallel_range(n, kParallelCheap, 1 << 16, [&](int64_t k0, int64_t k1) {
            for (int64_t k = k0; k < k1; ++k) dst[k] = (uint32_t)pairs[k];
        });
        return EMBER_OK;
    }
    msd_sort(items.data, tmp.data, n, 32, num_threads(), 0, [&](const HighWord* sorted, int64_t first, int64_t count) {
        if (sorted != items.data + first) std::memcpy((void*)(items.data + first), sorted, (size_t)count * sizeof(HighWord));
    });
    order_tied_high_words(items.data, n, low_words.data, HighWordOfItem{});
    parallel_range(n, kParallelCheap, 1 << 16, [&](int64_t k0, int64_t k1) {
        for (int64_t k = k0; k < k1; ++k) dst[k] = items.data[k].payload;
    });
    return EMBER_OK;
}

}  // namespace

void add_sort_kernels(std::vector<NativeKernel>& k) {
    k.push_back({"sort", sort_kernel<false>, 0, false});
    k.push_back({"argsort", sort_kernel<true>, 0, false});
    k.push_back({"random_permutation", permutation_kernel, 0, true});
}

}  // namespace ember_cpu
