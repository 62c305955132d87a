// Complex products and cumulative sums and products in the reference's sequence: each
// output's elements folded one by one, in the C order of the folded dims, in
// complex<double>, products with C99 Annex G's recovery of infinities. That sequence decides
// where infinities and NaNs land once a product overflows, so these results are the
// reference's bit for bit, in any layout.
// Up to 32 sequences (lanes) run side by side through the ISA's complex_steps, a chunk of
// steps at a time, and lane groups run across the pool. Lanes can start anywhere (columns,
// rows, stepped or broadcast views): where they are not adjacent elements, a chunk is
// gathered into a buffer first.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "cpu_common.hpp"

namespace ember_cpu {
namespace {

constexpr int64_t kChunk = 64;  // steps gathered at a time
constexpr int kMaxLanes = kComplexStepVectors * 8;  // 8 doubles: the widest vector (AVX-512)

// What the lanes share: the element pointers, the sequence, and where results go: one total
// per lane (prod), or every step's, out_step elements apart (scans).
struct Sequences {
    const void* in;
    void* out;
    StridedWalk<1> walk;  // the steps of a sequence, from its start
    int64_t steps;
    bool multiply, each_step;
    int64_t out_step;
};

// The gap between n offsets that are evenly spaced (1 for a single one), else 0.
int64_t even_gap(const int64_t* at, int n) {
    if (n < 2) return 1;
    const int64_t gap = at[1] - at[0];
    for (int l = 2; l < n; ++l)
        if (at[l] - at[l - 1] != gap) return 0;
    return gap;
}

// One group of `used` sequences (of `lanes` >= used) starting at in_at, results at out_at
// (element offsets). Each chunk of steps is read in place where the lanes are adjacent
// elements and the sequence one dim (columns), transposed into a buffer where each lane's
// sequence is contiguous (rows), else gathered element by element; scans' results go
// back the same ways. Lanes past `used` fold identities.
template <class T>
void run_group(const Sequences& q, const int64_t* in_at, const int64_t* out_at, int used, int lanes) {
    alignas(64) T factors[kChunk * kMaxLanes * 2];
    alignas(64) T totals[kChunk * kMaxLanes * 2];
    alignas(64) double acc[2 * kMaxLanes];
    const T identity = q.multiply ? T(1) : T(0);
    for (int l = 0; l < lanes; ++l) {
        acc[l] = identity;
        acc[lanes + l] = 0.0;
    }
    const T* x = (const T*)q.in;
    T* y = (T*)q.out;
    const int64_t in_gap = even_gap(in_at, used), out_gap = even_gap(out_at, used);
    const int64_t seq_step = q.walk.nd == 1 ? q.walk.stride[0][0] : 0;
    const bool one_dim = q.walk.nd == 1;
    const bool direct_in = used == lanes && in_gap == 1 && one_dim;
    const bool transposed_in = !direct_in && one_dim && seq_step == 1 && in_gap > 0;
    const bool direct_out = q.each_step && used == lanes && out_gap == 1;
    const bool transposed_out = q.each_step && !direct_out && q.out_step == 1 && out_gap > 0;
    const TransposeFn transpose = g_isa->transpose[sizeof(T) == 4 ? 1 : 2];  // one complex element: 8 or 16 bytes
    if (!direct_in)
        for (int64_t s = 0; s < kChunk; ++s)
            for (int l = used; l < lanes; ++l) {
                factors[2 * (s * lanes + l)] = identity;
                factors[2 * (s * lanes + l) + 1] = T(0);
            }
    StridedWalk<1>::Cursor walk = q.walk.cursor();
    const ComplexStepsFn fold = g_isa->complex_steps[sizeof(T) == 4 ? 0 : 1][q.multiply ? 1 : 0];
    for (int64_t s0 = 0; s0 < q.steps; s0 += kChunk) {
        const int64_t m = std::min(kChunk, q.steps - s0);
        const T* rows = factors;
        int64_t row_step = lanes;
        if (direct_in) {
            rows = x + 2 * (in_at[0] + s0 * seq_step);
            row_step = seq_step;
        } else if (one_dim && in_gap == 1) {  // adjacent lanes, fewer than a group
            for (int64_t s = 0; s < m; ++s) std::memcpy(factors + 2 * s * lanes, x + 2 * (in_at[0] + (s0 + s) * seq_step), (size_t)used * 2 * sizeof(T));
        } else if (transposed_in) {
            transpose(x + 2 * (in_at[0] + s0), in_gap, factors, lanes, used, m, false);
        } else {
            for (int64_t s = 0; s < m; ++s) {
                const int64_t at = walk.off[0];
                walk.next();
                for (int l = 0; l < used; ++l) std::memcpy(factors + 2 * (s * lanes + l), x + 2 * (in_at[l] + at), 2 * sizeof(T));
            }
        }
        T* each = direct_out ? y + 2 * (out_at[0] + s0 * q.out_step) : q.each_step ? totals : nullptr;
        fold(rows, row_step, m, lanes, acc, each, direct_out ? q.out_step : lanes);
        if (transposed_out) {
            transpose(totals, lanes, y + 2 * (out_at[0] + s0), out_gap, m, used, false);
        } else if (q.each_step && !direct_out) {
            for (int64_t s = 0; s < m; ++s)
                for (int l = 0; l < used; ++l) std::memcpy(y + 2 * (out_at[l] + (s0 + s) * q.out_step), totals + 2 * (s * lanes + l), 2 * sizeof(T));
        }
    }
    if (!q.each_step)
        for (int l = 0; l < used; ++l) {
            y[2 * out_at[l]] = (T)acc[l];
            y[2 * out_at[l] + 1] = (T)acc[lanes + l];
        }
}

// Runs the sequences starting at in_at[i] (results at out_at[i]) in lane groups across the
// pool where there is work for it: enough lanes per group to fill the vectors, few enough
// that every thread gets a group.
void run_sequences(int32_t dtype, const Sequences& q, const int64_t* in_at, const int64_t* out_at, int64_t lines) {
    if (lines == 0 || q.steps == 0) return;
    const int64_t threads = lines * q.steps >= kParallelCostly ? num_threads() : 1;
    const int w = g_isa->vector_bytes / 8, most = kComplexStepVectors * w;
    const int64_t per_thread = (lines + threads - 1) / threads;
    const int lanes = (int)std::min<int64_t>(most, (per_thread + w - 1) / w * w);
    const int64_t groups = (lines + lanes - 1) / lanes;
    auto group = [&](int64_t gi) {
        const int64_t first = gi * lanes;
        const int used = (int)std::min<int64_t>(lanes, lines - first);
        if (dtype == EMBER_COMPLEX64) run_group<float>(q, in_at + first, out_at + first, used, lanes);
        else run_group<double>(q, in_at + first, out_at + first, used, lanes);
    };
    if (groups > 1 && threads > 1) parallel_tasks(groups, group);
    else
        for (int64_t gi = 0; gi < groups; ++gi) group(gi);
}

// The element offsets, in `in` and `out`, of every position of the dims not in `folded`
// (C order): `count` input offsets, then as many output offsets, in scratch memory (fresh
// vectors paid a page fault per 4 KiB on every call: 1e5 lines took 0.8 ms more).
struct LineStarts {
    int64_t count;
    Scratch<int64_t> at;
    LineStarts(const ember_view_t& in, uint64_t folded) : count(kept_positions(in, folded)), at(std::max<int64_t>(1, 2 * count)) {}
    int64_t* in_at() { return at.data; }
    int64_t* out_at() { return at.data + count; }
    static int64_t kept_positions(const ember_view_t& in, uint64_t folded) {
        int64_t n = 1;
        for (int d = 0; d < in.ndim; ++d)
            if (!((folded >> d) & 1)) n *= in.shape[d];
        return n;
    }
};
void fill_line_starts(const ember_view_t& in, const ember_view_t& out, uint64_t folded, LineStarts& lines) {
    StridedWalk<2> kept;
    for (int d = 0; d < in.ndim; ++d)
        if (!((folded >> d) & 1)) kept.add_dim(in.shape[d], {in.strides[d], out.strides[d]});
    int64_t* in_at = lines.in_at();
    int64_t* out_at = lines.out_at();
    for (auto line = kept.cursor(); line.at < lines.count; line.next()) {
        in_at[line.at] = in.offset + line.off[0];
        out_at[line.at] = out.offset + line.off[1];
    }
}

// Whether lanes pay: for four sequences or more that are columns (the innermost kept dim
// holds adjacent elements), or long products. Other sums and short products (cumsum along
// the rows of a (1e5, 10) matrix: 185 us there, 445 in lanes) go to the reference's loop
// on slices across the pool, which gathers nothing, as do one to three sequences, which
// would leave most lanes idle. (1000, 1000) along rows, two threads: cumprod of complex128
// overflowing 3.8 ms -> 1.1 through lanes, of unit moduli 0.81 -> 0.79 (complex64 1.6 ->
// 0.33); cumsum of complex128 0.23-0.54 there, 0.54-1.6 in lanes.
bool lanes_pay(const ember_view_t& in, uint64_t folded, int64_t steps, bool multiply) {
    int64_t lines = 1;
    for (int d = 0; d < in.ndim; ++d)
        if (!((folded >> d) & 1)) lines *= in.shape[d];
    if (lines < 4) return false;
    for (int d = in.ndim - 1; d >= 0; --d)
        if (!((folded >> d) & 1) && in.shape[d] > 1) return in.strides[d] == 1 || (multiply && steps >= kChunk);
    return multiply && steps >= kChunk;
}

template <class T>
bool finite_pair(const void* base, int64_t at) {
    const T* p = (const T*)base + 2 * at;
    return std::isfinite(p[0]) && std::isfinite(p[1]);
}

}  // namespace

ember_status_t complex_prod_in_sequence(const ember_kernel_call_t* c, bool only_nonfinite) {
    const ember_view_t& in = c->in[0];
    const ember_view_t& out = c->out[0];
    const uint64_t folded = c->attrs->axes_mask;
    if (c->n_in != 1 || in.ndim != out.ndim || in.dtype != out.dtype) return reference_on_slices(c, kAxesMask);
    Sequences q{in.data, out.data, {}, 1, true, false, 0};
    for (int d = 0; d < in.ndim; ++d)
        if ((folded >> d) & 1) {
            q.walk.add_dim(in.shape[d], {in.strides[d]});
            q.steps *= in.shape[d];
        }
    if (!lanes_pay(in, folded, q.steps, true)) return reference_on_slices(c, kAxesMask);
    LineStarts lines(in, folded);
    fill_line_starts(in, out, folded, lines);
    int64_t* in_at = lines.in_at();
    int64_t* out_at = lines.out_at();
    int64_t count = lines.count;
    if (only_nonfinite) {  // the other totals stand: the native kernel's order rounds them as well
        int64_t kept = 0;
        for (int64_t i = 0; i < count; ++i)
            if (!(in.dtype == EMBER_COMPLEX64 ? finite_pair<float>(out.data, out_at[i]) : finite_pair<double>(out.data, out_at[i]))) {
                in_at[kept] = in_at[i];
                out_at[kept++] = out_at[i];
            }
        count = kept;
    }
    if (q.steps == 0) {  // empty products are 1 (only reached with every line)
        for (int64_t i = 0; i < count; ++i) {
            const int64_t at = out_at[i];
            if (in.dtype == EMBER_COMPLEX64) ((float*)out.data)[2 * at] = 1, ((float*)out.data)[2 * at + 1] = 0;
            else ((double*)out.data)[2 * at] = 1, ((double*)out.data)[2 * at + 1] = 0;
        }
        return EMBER_OK;
    }
    run_sequences(in.dtype, q, in_at, out_at, count);
    return EMBER_OK;
}

ember_status_t complex_scan_in_sequence(const ember_kernel_call_t* c, bool sum) {
    const ember_view_t& in = c->in[0];
    const ember_view_t& out = c->out[0];
    const int axis = (int)c->attrs->i[0];
    if (c->n_in != 1 || axis < 0 || axis >= in.ndim || in.ndim != out.ndim || in.dtype != out.dtype || !lanes_pay(in, 1ull << axis, in.shape[axis], !sum))
        return reference_on_slices(c, kAxisAttr);
    Sequences q{in.data, out.data, {}, in.shape[axis], !sum, true, out.strides[axis]};
    q.walk.add_dim(in.shape[axis], {in.strides[axis]});
    LineStarts lines(in, 1ull << axis);
    fill_line_starts(in, out, 1ull << axis, lines);
    run_sequences(in.dtype, q, lines.in_at(), lines.out_at(), lines.count);
    return EMBER_OK;
}

}  // namespace ember_cpu
