// Ops that treat each line along their axes on its own (argmax/argmin, cumsum/cumprod,
// sort/argsort, and the prod/all/any reductions over given axes): the reference backend's
// line code, run on slices of a kept dim across the thread pool. Each slice is an ordinary
// view of the same tensors, so the results are the reference's, bit for bit, whatever the
// thread count; the gain is the threads. A full reduction (no kept dim) and small inputs run
// the reference kernel as it is.
#include <atomic>

#include "cpu_common.hpp"

namespace ember_cpu {
namespace {

enum { kAxisAttr = 0, kAxesMask = 1 };  // where the op's reduced axes come from

ember_status_t line_kernel(const ember_kernel_call_t* c) {
    const KernelData* kd = kdata(c);
    const ember_view_t& in = c->in[0];
    const ember_view_t& out = c->out[0];
    if (c->n_in != 1 || c->n_out != 1 || in.ndim != out.ndim || numel(in) < kParallelCostly || num_threads() <= 1) return delegate(c);
    const uint64_t along = kd->code == kAxesMask ? c->attrs->axes_mask : 1ull << c->attrs->i[0];
    int split = -1;  // the kept dim with the most entries
    for (int d = 0; d < in.ndim; ++d)
        if (!(along & (1ull << d)) && in.shape[d] == out.shape[d] && in.shape[d] > 1 && (split < 0 || in.shape[d] > in.shape[split])) split = d;
    if (split < 0) return delegate(c);

    // A slice [begin, end) of dim `split` of both views.
    struct Slice {
        int64_t in_shape[EMBER_MAX_DIMS], out_shape[EMBER_MAX_DIMS];
        ember_view_t views[2];
        ember_kernel_call_t call;
    };
    auto make_slice = [&](Slice& s, int64_t begin, int64_t end) {
        for (int d = 0; d < in.ndim; ++d) {
            s.in_shape[d] = in.shape[d];
            s.out_shape[d] = out.shape[d];
        }
        s.in_shape[split] = s.out_shape[split] = end - begin;
        s.views[0] = in;
        s.views[0].shape = s.in_shape;
        s.views[0].offset += begin * in.strides[split];
        s.views[1] = out;
        s.views[1].shape = s.out_shape;
        s.views[1].offset += begin * out.strides[split];
        s.call = *c;
        s.call.in = &s.views[0];
        s.call.out = &s.views[1];
    };
    // An empty slice on the calling thread first: the reference checks the dtype before any
    // work, so a refusal is reported here, with its message on the caller's thread.
    Slice probe;
    make_slice(probe, 0, 0);
    if (ember_status_t st = kd->ref.fn(&probe.call)) return st;
    std::atomic<int> failed{0};
    parallel_range(in.shape[split], 2, 1, [&](int64_t begin, int64_t end) {
        Slice s;
        make_slice(s, begin, end);
        if (kd->ref.fn(&s.call) != EMBER_OK) failed.store(1);
    });
    if (failed.load()) return g_host->fail(EMBER_ERR_INTERNAL, "cpu %s: a slice failed after the whole passed its checks", kd->name);
    return EMBER_OK;
}

}  // namespace

void add_line_kernels(std::vector<NativeKernel>& k) {
    for (const char* name : {"argmax", "argmin", "cumsum", "cumprod", "sort", "argsort"}) k.push_back({name, line_kernel, kAxisAttr, false});
    for (const char* name : {"prod", "all", "any"}) k.push_back({name, line_kernel, kAxesMask, false});
}

}  // namespace ember_cpu
