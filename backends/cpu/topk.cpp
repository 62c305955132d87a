// topk (COMPOSITE_KERNEL row, docs/backend-guide.md): the indices of the k first elements of
// each line in the stable argsort's order, by one pass that keeps the elements that may be
// among the best k (above the k-th best so far), then a sort of those k. The composite sorts
// whole lines (argsort) and cuts them: a top 10 of each row of a (1000, 1000) float32 took
// 6-11 ms there, NumPy's partition 1.7 ms.
// in: x, contiguous, lines along the last axis (the core moves the axis last), length n;
// any integer, float32 or float64 dtype. out[0]: int64 indices (..., k), contiguous; out[1]:
// info int64 (0-d), set nonzero to decline: other dtypes, and k above n / 16, where the
// composite's sort of whole lines is as fast (rows of 1000 float32: 6.3 ms through it at any k;
// here 0.3 ms for k = 1, 1.7-2.1 for 10, 9.3 for 100: the passing elements' branches mispredict).
// attrs i[0]: 1 for the largest, 0 for the smallest. Order, as the reference's stable argsort:
// largest first with NaN before every number, or smallest first with NaN after every number;
// equal values (and NaNs) by index.
#include <algorithm>
#include <vector>

#include "cpu_common.hpp"

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

// take(j) for every j in [begin, end) with passes(x[j]), blocks of 16 tested at once: most
// fail.
template <class T, class Passes, class Take>
void for_each_passing(const T* x, int64_t begin, int64_t end, const Passes& passes, const Take& take) {
    constexpr int kBlock = 16;
    int64_t i = begin;
    for (; i + kBlock <= end; i += kBlock) {
        bool any = false;
        for (int j = 0; j < kBlock; ++j) any |= passes(x[i + j]);
        if (any)
            for (int j = 0; j < kBlock; ++j)
                if (passes(x[i + j])) take(i + j);
    }
    for (; i < end; ++i)
        if (passes(x[i])) take(i);
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
    bool have_bar = false;
    auto passes = [&](T v) { return !have_bar || (Largest ? !(v <= bar) : !(v >= bar)); };
    int64_t m = 0;
    auto take = [&](int64_t j) {
        buf[m++] = {x[j], j};
        if (m == 2 * k) {
            std::nth_element(buf, buf + k - 1, buf + m, first);
            m = k;
            bar = buf[k - 1].value;
            have_bar = true;
        }
    };
    for_each_passing(x, begin, end, passes, take);
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
    bool full = false;
    auto passes = [&](T v) { return !full || (Largest ? !(v <= bar) : !(v >= bar)); };
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
            full = true;
        }
    };
    for_each_passing(x, begin, end, passes, take);
    return m;
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
        for (int64_t r = begin; r < end; ++r) top_of_line<T, Largest>(x + r * n, n, k, 1, buf, out + r * k);
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
