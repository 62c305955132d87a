// Ops whose outputs along some dim depend only on the inputs at the same index of that dim:
// elementwise ops in dtypes without a kernel of their own (for elementwise.cpp: most
// complex ops, ...), and ops that treat each line along
// their axes on its own (for gather.cpp: scatter's mean, max, min and other layouts; for
// reduce.cpp, gather.cpp's take_along_axis, argreduce.cpp, scan.cpp, sort.cpp and fft.cpp:
// prod of other dtypes, complex all/any over given axes, strided argmax/argmin,
// integer and strided cumsum/cumprod along the innermost dim, FFTs on wide vectors).
// The reference backend's code runs on slices of such a dim across the thread pool. Each
// slice is an ordinary view of the same tensors (an input marked whole, such as scatter's
// index, goes to every slice uncut), so the results are the reference's, bit for bit,
// whatever the thread count; the gain is the threads. A full reduction (no kept dim) and
// small inputs run the reference kernel as it is.
#include <algorithm>
#include <atomic>

#include "cpu_common.hpp"

namespace ember_cpu {
namespace {
constexpr int kMaxIn = 3;
}  // namespace

ember_status_t reference_on_slices(const ember_kernel_call_t* c, int code) {
    const KernelData* kd = kdata(c);
    const ember_view_t& out = c->out[0];
    const int n_in = c->n_in;
    if (n_in < 1 || n_in > kMaxIn || c->n_out != 1 || std::max(numel(c->in[0]), numel(out)) < kParallelCostly || num_threads() <= 1) return delegate(c);
    const int kind = code & (whole(0) - 1);
    auto is_cut = [&](int k) { return !((code >> (kWholeShift + k)) & 1); };
    if (kind == kAxisAttr && (c->attrs->i[0] < 0 || c->attrs->i[0] >= out.ndim)) return delegate(c);
    const uint64_t along = kind == kAxesMask ? c->attrs->axes_mask : kind == kAxisAttr ? 1ull << c->attrs->i[0] : 0;
    auto splittable = [&](int d) {
        if ((along >> d) & 1 || out.shape[d] < 2) return false;
        for (int k = 0; k < n_in; ++k)
            if (is_cut(k) && (c->in[k].ndim != out.ndim || c->in[k].shape[d] != out.shape[d])) return false;
        return true;
    };
    int split = -1;  // the kept dim with the most entries
    for (int d = 0; d < out.ndim; ++d)
        if (splittable(d) && (split < 0 || out.shape[d] > out.shape[split])) split = d;
    if (split < 0) return delegate(c);

    // A slice [begin, end) of dim `split` of every view (the inputs' shapes agree with the
    // output's on that dim, so one shape array serves all).
    struct Slice {
        int64_t in_shape[kMaxIn][EMBER_MAX_DIMS], out_shape[EMBER_MAX_DIMS];
        ember_view_t in[kMaxIn], out;
        ember_kernel_call_t call;
    };
    auto make_slice = [&](Slice& s, int64_t begin, int64_t end) {
        auto cut = [&](const ember_view_t& v, int64_t* shape, ember_view_t& to) {
            for (int d = 0; d < v.ndim; ++d) shape[d] = v.shape[d];
            shape[split] = end - begin;
            to = v;
            to.shape = shape;
            to.offset += begin * v.strides[split];
        };
        for (int k = 0; k < n_in; ++k) {
            if (is_cut(k)) cut(c->in[k], s.in_shape[k], s.in[k]);
            else s.in[k] = c->in[k];
        }
        cut(out, s.out_shape, s.out);
        s.call = *c;
        s.call.in = s.in;
        s.call.out = &s.out;
    };
    // An empty slice on the calling thread first: the reference checks the dtype before any
    // work, so a refusal is reported here, with its message on the caller's thread.
    Slice probe;
    make_slice(probe, 0, 0);
    if (ember_status_t st = kd->ref.fn(&probe.call)) return st;
    // Equal parts of the split dim, as many as the pool has threads twice over (not
    // parallel_range's: it rounds parts up to 16 elements, which leaves fewer than 32 long
    // lines on one thread).
    std::atomic<int> failed{0};
    const int64_t n = out.shape[split], parts = std::min<int64_t>(n, 2 * (int64_t)num_threads());
    parallel_tasks(parts, [&](int64_t t) {
        Slice s;
        make_slice(s, t * n / parts, (t + 1) * n / parts);
        if (kd->ref.fn(&s.call) != EMBER_OK) failed.store(1);
    });
    // A failure that depends on the data (an index out of range) is reported by running the
    // reference on the whole on this thread, so the status and message are its own.
    if (failed.load()) return kd->ref.fn(c);
    return EMBER_OK;
}

}  // namespace ember_cpu
