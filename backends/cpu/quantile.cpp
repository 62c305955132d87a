// quantile (COMPOSITE_KERNEL row, docs/backend-guide.md): the two order statistics of each
// line that a quantile interpolates between, found by selection where the composite sorts
// whole lines (median of 1e6 float64: 13 ms through the sort, NumPy's partition 10 ms).
// in: x, contiguous, lines along the last axis (the core moves the axis last), length n;
// any integer, float32 or float64 dtype. out[0]: x's dtype, shape (..., 2): the values of
// ascending rank i[0] and i[1] (0-based) of each line, both NaN for a line that holds a NaN
// (the composite's sort puts NaN last and its quantile is NaN then). out[1]: info int64
// (0-d), nonzero declines: other dtypes. attrs: i[0] <= i[1] <= i[0] + 1, i[1] < n.
//
// Short lines: a copy and a quickselect (cache resident). Long lines: one pass that counts the
// elements below a low bound and gathers those between the bounds, the bounds taken from an
// evenly spaced sample so that both ranks fall between them (Floyd and Rivest's idea); the
// pass has no branches on the data and is cut across the pool, and the selection then runs
// on the few percent gathered. Where the sample misled (the ranks fell outside the bounds:
// data periodic at the sample's step, about 1e-4 of random lines otherwise) the whole line
// is selected instead.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "cpu_common.hpp"

namespace ember_cpu {
namespace {

constexpr int64_t kSampledFrom = 1 << 14;  // line length from which the sampled pass pays
constexpr int64_t kMaxSample = 8192;

struct Ranks {
    int64_t lo, hi;
};

// The k-th smallest of the n NaN-free elements at a into a[k], none larger before it, none
// smaller after it (nth_element's contract): quickselect whose partition does not branch on
// the data. nth_element's comparisons mispredict: 13 ns per element of random rows of 1000,
// this ~3. Falls back to nth_element after more rounds than a fair split needs.
template <class T>
void select_nth(T* a, int64_t n, int64_t k) {
    int rounds_left = 2 * (64 - __builtin_clzll((unsigned long long)n | 1)) + 8;
    while (n > 16) {
        if (--rounds_left < 0) return std::nth_element(a, a + k, a + n);
        const T p0 = a[n / 4], p1 = a[n / 2], p2 = a[n - 1 - n / 4];
        const T p = std::max(std::min(p0, p1), std::min(std::max(p0, p1), p2));
        int64_t below = 0;  // a[0, below) < p <= a[below, i)
        for (int64_t i = 0; i < n; ++i) {
            const T v = a[i];
            a[i] = a[below];
            a[below] = v;
            below += (int64_t)(v < p);
        }
        if (k < below) {
            n = below;
            continue;
        }
        int64_t upto = below;
        if (below < n / 8) {  // few below p: many may equal it (duplicates); set them apart
            for (int64_t i = below; i < n; ++i) {
                const T v = a[i];
                a[i] = a[upto];
                a[upto] = v;
                upto += (int64_t)!(p < v);
            }
            if (k < upto) return;  // a[k] == p
        }
        a += upto;
        n -= upto;
        k -= upto;
    }
    std::sort(a, a + n);
}

// Values of ranks lo, hi of the n NaN-free elements at buf (reordered).
template <class T>
void select_in_place(T* buf, int64_t n, Ranks r, T* out) {
    select_nth(buf, n, r.hi);
    out[1] = buf[r.hi];
    out[0] = r.lo == r.hi ? out[1] : *std::max_element(buf, buf + r.hi);
}

template <class T>
void nan_pair(T* out) {
    out[0] = out[1] = std::numeric_limits<T>::quiet_NaN();
}

template <class T>
void select_short(const T* x, int64_t n, Ranks r, T* buf, T* out) {
    bool nan = false;
    for (int64_t i = 0; i < n; ++i) {
        buf[i] = x[i];
        nan |= is_nan(x[i]);
    }
    if (nan) return nan_pair(out);
    select_in_place(buf, n, r, out);
}

// Counts of one piece of a long line: below the low bound, gathered, NaNs.
struct PieceCounts {
    int64_t below = 0, gathered = 0, nans = 0;
};

template <class T>
PieceCounts gather_between(const T* x, int64_t begin, int64_t end, T low, T high, T* into) {
    PieceCounts c;
    int64_t g = 0, below = 0, nans = 0;
    for (int64_t i = begin; i < end; ++i) {
        const T v = x[i];
        into[g] = v;
        g += (int64_t)((v >= low) & (v <= high));
        below += (int64_t)(v < low);
        nans += (int64_t)is_nan(v);
    }
    c.below = below;
    c.gathered = g;
    c.nans = nans;
    return c;
}

// buf: room for n. pieces: how many parts of the line the pool takes.
template <class T>
void select_long(const T* x, int64_t n, Ranks r, int64_t pieces, T* buf, T* out) {
    const int64_t m = std::min<int64_t>(kMaxSample, n / 8);
    T* sample = buf;  // the sample lives at buf's start until the pass overwrites it
    for (int64_t j = 0; j < m; ++j) {
        sample[j] = x[(int64_t)((double)j * (double)n / (double)m)];
        if (is_nan(sample[j])) return nan_pair(out);
    }
    // A sampled rank's spread is at most sqrt(m) / 2: four of those either side.
    const int64_t margin = 2 * (int64_t)std::sqrt((double)m) + 2;
    const int64_t s_lo = (int64_t)((double)r.lo * (double)m / (double)n) - margin;
    const int64_t s_hi = (int64_t)((double)r.hi * (double)m / (double)n) + 1 + margin;
    T low = std::numeric_limits<T>::lowest(), high = std::numeric_limits<T>::max();
    if (std::numeric_limits<T>::has_infinity) low = -std::numeric_limits<T>::infinity(), high = std::numeric_limits<T>::infinity();
    if (s_lo >= 0) {
        select_nth(sample, m, s_lo);
        low = sample[s_lo];
    }
    if (s_hi < m) {
        select_nth(sample, m, s_hi);
        high = sample[s_hi];
    }
    PieceCounts counts[16];
    parallel_tasks(pieces, [&](int64_t p) {
        const int64_t b = n * p / pieces, e = n * (p + 1) / pieces;
        counts[p] = gather_between(x, b, e, low, high, buf + b);
    });
    int64_t below = 0, gathered = 0, nans = 0;
    for (int64_t p = 0; p < pieces; ++p) {
        const int64_t b = n * p / pieces;
        if (b != gathered) std::copy(buf + b, buf + b + counts[p].gathered, buf + gathered);  // down: b > gathered
        below += counts[p].below;
        gathered += counts[p].gathered;
        nans += counts[p].nans;
    }
    if (nans) return nan_pair(out);
    if (below <= r.lo && r.hi < below + gathered) return select_in_place(buf, gathered, Ranks{r.lo - below, r.hi - below}, out);
    std::copy(x, x + n, buf);
    select_in_place(buf, n, r, out);
}

template <class T>
void select_lines(const T* x, int64_t lines, int64_t n, Ranks r, T* out) {
    if (n >= kSampledFrom && lines < num_threads()) {  // each line across the pool
        const int64_t pieces = n < kParallelCheap ? 1 : std::min<int64_t>(num_threads(), 16);
        Scratch<T> buf(n);
        for (int64_t l = 0; l < lines; ++l) select_long(x + l * n, n, r, pieces, buf.data, out + 2 * l);
        return;
    }
    // Lines across the pool: the quickselect costs ~3 ns per element of a cache-resident line.
    parallel_range(lines, std::max<int64_t>(1, kParallelCheap / (4 * n)), 1, [&](int64_t begin, int64_t end) {
        Scratch<T> buf(n);
        for (int64_t l = begin; l < end; ++l) {
            if (n >= kSampledFrom) select_long(x + l * n, n, r, 1, buf.data, out + 2 * l);
            else select_short(x + l * n, n, r, buf.data, out + 2 * l);
        }
    });
}

ember_status_t quantile_kernel(const ember_kernel_call_t* c) {
    if (c->n_in != 1 || c->n_out != 2 || c->out[1].dtype != EMBER_INT64 || numel(c->out[1]) != 1)
        return g_host->fail(EMBER_ERR_INVALID_ARGUMENT, "cpu quantile: needs x, and outputs values and info (one int64)");
    const ember_view_t &x = c->in[0], &out = c->out[0];
    int64_t* info = (int64_t*)base_ptr(c->out[1]);
    *info = 1;
    if (x.ndim < 1 || out.ndim != x.ndim || out.dtype != x.dtype || !is_contiguous(x) || !is_contiguous(out))
        return g_host->fail(EMBER_ERR_INVALID_ARGUMENT, "cpu quantile: needs contiguous x and values of x's dtype and rank");
    const int64_t n = x.shape[x.ndim - 1], lo = c->attrs->i[0], hi = c->attrs->i[1];
    if (n == 0 || out.shape[out.ndim - 1] != 2 || numel(x) / n != numel(out) / 2)
        return g_host->fail(EMBER_ERR_INVALID_ARGUMENT, "cpu quantile: the values do not have x's lines");
    if (lo < 0 || hi < lo || hi > lo + 1 || hi >= n)
        return g_host->fail(EMBER_ERR_INVALID_ARGUMENT, "cpu quantile: ranks %lld, %lld outside a line of %lld", (long long)lo, (long long)hi, (long long)n);
    const int64_t lines = numel(x) / n;
    const bool known = visit_real(x.dtype, [&](auto t) {
        using T = decltype(t);
        select_lines<T>((const T*)base_ptr(x), lines, n, Ranks{lo, hi}, (T*)base_ptr(out));
    });
    if (known) *info = 0;
    return EMBER_OK;
}

}  // namespace

void add_quantile_kernels(std::vector<NativeKernel>& k) { k.push_back({"quantile", quantile_kernel, 0, true}); }

}  // namespace ember_cpu
