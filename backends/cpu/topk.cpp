// topk (COMPOSITE_KERNEL row, docs/backend-guide.md): the indices of the k first elements of
// each line in the stable argsort's order, by one pass that keeps the elements that may be
// among the best k (above the k-th best so far), then a sort of those k. The composite sorts
// whole lines (argsort) and cuts them: a top 10 of each row of a (1000, 1000) float32 took
// 6-11 ms there, NumPy's partition 1.7 ms.
// in: x, contiguous, lines along the last axis (the core moves the axis last), length n;
// any integer, float32 or float64 dtype. out[0]: int64 indices (..., k), contiguous; out[1]:
// info int64 (0-d), set nonzero to decline: other dtypes, and k above n / 16, where the
// composite's sort of whole lines is as fast (rows of 1000 float32: 6.3 ms through it at any k;
// here 0.3 ms for k = 1, 1.7-2.1 for 10 (0.8 with the bar of group bests, below), 9.3 for
// 100: the passing elements' branches mispredict).
// attrs i[0]: 1 for the largest, 0 for the smallest. Order, as the reference's stable argsort:
// largest first with NaN before every number, or smallest first with NaN after every number;
// equal values (and NaNs) by index.
#include <algorithm>
#include <type_traits>
#include <vector>

#include "cpu_common.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace ember_cpu {
namespace {

template <class T>
struct Entry {
    T value;
    int64_t index;
};

// a before b in the argsort's order.
template <class T, bool Largest>
inline bool before(const Entry<T>& a, const Entry<T>& b) {
    const bool na = is_nan(a.value), nb = is_nan(b.value);
    if (na != nb) return Largest ? na : nb;
    if (!na && a.value != b.value) return Largest ? a.value > b.value : a.value < b.value;
    return a.index < b.index;
}

// Whether v may be among the best: above the bar (Strict) or at it or above, NaN always.
template <class T, bool Largest, bool Strict>
inline bool passes(T v, T bar) {
    if constexpr (Largest) return Strict ? !(v <= bar) : !(v < bar);
    else return Strict ? !(v >= bar) : !(v > bar);
}

// Whether any of x[0, 16) passes: four vector compares for floats (the scalar tests were
// most of a top 10 of rows of 1000).
template <class T, bool Largest, bool Strict>
inline bool any_passes16(const T* x, T bar) {
#if defined(__SSE2__)
    if constexpr (std::is_same_v<T, float>) {
        const __m128 b = _mm_set1_ps(bar);
        __m128 any = _mm_setzero_ps();
        for (int j = 0; j < 16; j += 4) {
            const __m128 v = _mm_loadu_ps(x + j);
            any = _mm_or_ps(any, Largest ? (Strict ? _mm_cmpnle_ps(v, b) : _mm_cmpnlt_ps(v, b)) : (Strict ? _mm_cmpnge_ps(v, b) : _mm_cmpngt_ps(v, b)));
        }
        return _mm_movemask_ps(any) != 0;
    }
    if constexpr (std::is_same_v<T, double>) {
        const __m128d b = _mm_set1_pd(bar);
        __m128d any = _mm_setzero_pd();
        for (int j = 0; j < 16; j += 2) {
            const __m128d v = _mm_loadu_pd(x + j);
            any = _mm_or_pd(any, Largest ? (Strict ? _mm_cmpnle_pd(v, b) : _mm_cmpnlt_pd(v, b)) : (Strict ? _mm_cmpnge_pd(v, b) : _mm_cmpngt_pd(v, b)));
        }
        return _mm_movemask_pd(any) != 0;
    }
#endif
    bool any = false;
    for (int j = 0; j < 16; ++j) any |= passes<T, Largest, Strict>(x[j], bar);
    return any;
}

// take(j) for every j in [begin, end) that passes the bar (every j while open), blocks of 16
// tested at once: most fail. take may move the bar and close it.
template <class T, bool Largest, bool Strict, class Take>
void for_each_passing(const T* x, int64_t begin, int64_t end, const T& bar, const bool& open, const Take& take) {
    constexpr int kBlock = 16;
    int64_t i = begin;
    for (; i + kBlock <= end; i += kBlock)
        if (open || any_passes16<T, Largest, Strict>(x + i, bar))
            for (int j = 0; j < kBlock; ++j)
                if (open || passes<T, Largest, Strict>(x[i + j], bar)) take(i + j);
    for (; i < end; ++i)
        if (open || passes<T, Largest, Strict>(x[i], bar)) take(i);
}

// Candidates of x[begin, end) into buf (room for 2k): every element that may be among the best
// k is appended; when buf is full its best k are moved to the front (nth_element) and the k-th
// of them becomes the bar. Returns how many buf holds (all the best min(k, end - begin) among
// them, unordered).
template <class T, bool Largest>
int64_t candidates_of_range(const T* x, int64_t begin, int64_t end, int64_t k, Entry<T>* buf) {
    auto first = [](const Entry<T>& a, const Entry<T>& b) { return before<T, Largest>(a, b); };
    // An element that fails the test ranks after the bar's (below it, or equal with a later
    // index), so after k kept ones. A NaN passes, and everything while the bar is NaN: the
    // exact order of the next cut decides those.
    T bar{};
    bool open = true;
    int64_t m = 0;
    auto take = [&](int64_t j) {
        buf[m++] = {x[j], j};
        if (m == 2 * k) {
            std::nth_element(buf, buf + k - 1, buf + m, first);
            m = k;
            bar = buf[k - 1].value;
            open = false;
        }
    };
    for_each_passing<T, Largest, true>(x, begin, end, bar, open, take);
    return m;
}

// For k up to kInsertMax, the candidates of x[begin, end) as a list of the best k so far in
// order, each passing element inserted from the back: the cuts of candidates_of_range, an
// nth_element of 2k entries every k passes, were slower for the top 10 of each row of a
// (1000, 1000) float32 (about 6 cuts a row; 2.4-2.6 ms on two Zen 3 threads), the insertions
// 1.7-2.1 ms. Returns the list's length.
constexpr int64_t kInsertMax = 16;
template <class T, bool Largest>
int64_t best_few_of_range(const T* x, int64_t begin, int64_t end, int64_t k, Entry<T>* buf) {
    T bar{};
    bool open = true;
    int64_t m = 0;
    auto take = [&](int64_t j) {
        const Entry<T> e{x[j], j};
        if (m == k) {
            if (!before<T, Largest>(e, buf[k - 1])) return;
            --m;
        }
        int64_t p = m;
        for (; p > 0 && before<T, Largest>(e, buf[p - 1]); --p) buf[p] = buf[p - 1];
        buf[p] = e;
        if (++m == k) {
            bar = buf[k - 1].value;
            open = false;
        }
    };
    for_each_passing<T, Largest, true>(x, begin, end, bar, open, take);
    return m;
}

// The candidates of a whole line of n >= 2 * kGroups by a bar known before the pass: the
// k-th best of the bests of kGroups interleaved groups. k elements (those group bests) rank
// at the bar or before it, so each of the line's best k is at the bar or above it, or NaN;
// typically a few times k elements pass. Found one by one (best_few_of_range), the top 10 of
// each row of a (1000, 1000) float32 took 3.8 ms on one thread: about 50 of a row's 63
// blocks of 16 held an element above the bar of that moment, and each insertion mispredicts.
constexpr int kGroups = 32;
template <class T, bool Largest>
void candidates_above_group_bar(const T* x, int64_t n, int64_t k, std::vector<Entry<T>>& buf) {
    T best[kGroups];
    std::copy(x, x + kGroups, best);
    int64_t i = kGroups;
    for (; i + kGroups <= n; i += kGroups)
        for (int j = 0; j < kGroups; ++j) best[j] = (Largest ? x[i + j] > best[j] : x[i + j] < best[j]) ? x[i + j] : best[j];
    for (int j = 0; i < n; ++i, ++j) best[j] = (Largest ? x[i] > best[j] : x[i] < best[j]) ? x[i] : best[j];
    bool open = false;  // a NaN among the bests: every element passes (rare; no sharper bar needed)
    for (int j = 0; j < kGroups; ++j) open |= is_nan(best[j]);
    if (!open) {
        if constexpr (Largest) std::nth_element(best, best + k - 1, best + kGroups, std::greater<T>());
        else std::nth_element(best, best + k - 1, best + kGroups);
    }
    const T bar = best[k - 1];
    buf.clear();
    for_each_passing<T, Largest, false>(x, 0, n, bar, open, [&](int64_t j) { buf.push_back({x[j], j}); });
}

// The k first indices of one line of n into out. A long single line is cut into pieces across
// the pool: the best k of the line are among the pieces' best k.
template <class T, bool Largest>
void top_of_line(const T* x, int64_t n, int64_t k, int64_t pieces, std::vector<Entry<T>>& buf, int64_t* out) {
    buf.resize((size_t)(2 * k * pieces));
    int64_t found[16];
    parallel_tasks(pieces, [&](int64_t p) {
        const int64_t begin = n * p / pieces, end = n * (p + 1) / pieces;
        Entry<T>* piece = buf.data() + 2 * p * k;
        found[p] = k <= kInsertMax ? best_few_of_range<T, Largest>(x, begin, end, k, piece) : candidates_of_range<T, Largest>(x, begin, end, k, piece);
    });
    int64_t m = 0;
    for (int64_t p = 0; p < pieces; ++p)
        for (int64_t j = 0; j < found[p]; ++j) buf[(size_t)m++] = buf[(size_t)(2 * p * k + j)];
    auto first = [](const Entry<T>& a, const Entry<T>& b) { return before<T, Largest>(a, b); };
    std::nth_element(buf.begin(), buf.begin() + k - 1, buf.begin() + m, first);
    std::sort(buf.begin(), buf.begin() + k, first);
    for (int64_t j = 0; j < k; ++j) out[j] = buf[(size_t)j].index;
}

template <class T, bool Largest>
void top_of_lines(const T* x, int64_t lines, int64_t n, int64_t k, int64_t* out) {
    if (lines == 1) {
        const int64_t pieces = n < kParallelCheap ? 1 : std::min<int64_t>(num_threads(), 16);
        std::vector<Entry<T>> buf;
        top_of_line<T, Largest>(x, n, k, pieces, buf, out);
        return;
    }
    parallel_range(lines, std::max<int64_t>(1, kParallelCheap / n), 1, [&](int64_t begin, int64_t end) {
        std::vector<Entry<T>> buf;
        auto first = [](const Entry<T>& a, const Entry<T>& b) { return before<T, Largest>(a, b); };
        for (int64_t r = begin; r < end; ++r) {
            if (k > kGroups / 2 || n < 2 * kGroups) {
                top_of_line<T, Largest>(x + r * n, n, k, 1, buf, out + r * k);
                continue;
            }
            candidates_above_group_bar<T, Largest>(x + r * n, n, k, buf);
            std::nth_element(buf.begin(), buf.begin() + k - 1, buf.end(), first);
            std::sort(buf.begin(), buf.begin() + k, first);
            for (int64_t j = 0; j < k; ++j) out[r * k + j] = buf[(size_t)j].index;
        }
    });
}

ember_status_t topk_kernel(const ember_kernel_call_t* c) {
    if (c->n_in != 1 || c->n_out != 2 || c->out[1].dtype != EMBER_INT64 || numel(c->out[1]) != 1)
        return g_host->fail(EMBER_ERR_INVALID_ARGUMENT, "cpu topk: needs x, and outputs indices and info (one int64)");
    const ember_view_t &x = c->in[0], &out = c->out[0];
    int64_t* info = (int64_t*)base_ptr(c->out[1]);
    *info = 1;
    if (x.ndim < 1 || out.ndim != x.ndim || out.dtype != EMBER_INT64 || !is_contiguous(x) || !is_contiguous(out))
        return g_host->fail(EMBER_ERR_INVALID_ARGUMENT, "cpu topk: needs contiguous x and int64 indices of x's rank");
    const int64_t n = x.shape[x.ndim - 1], k = out.shape[out.ndim - 1];
    if (n == 0 || k == 0 || numel(x) / n != numel(out) / k || k > n)
        return g_host->fail(EMBER_ERR_INVALID_ARGUMENT, "cpu topk: the indices do not have x's lines");
    if (k * 16 > n) return EMBER_OK;  // declined
    const bool largest = c->attrs->i[0] != 0;
    const int64_t lines = numel(x) / n;
    int64_t* idx = (int64_t*)base_ptr(out);
    const bool known = visit_real(x.dtype, [&](auto t) {
        using T = decltype(t);
        const T* xs = (const T*)base_ptr(x);
        if (largest) top_of_lines<T, true>(xs, lines, n, k, idx);
        else top_of_lines<T, false>(xs, lines, n, k, idx);
    });
    if (known) *info = 0;
    return EMBER_OK;
}

}  // namespace

void add_topk_kernels(std::vector<NativeKernel>& k) { k.push_back({"topk", topk_kernel, 0, true}); }

}  // namespace ember_cpu
