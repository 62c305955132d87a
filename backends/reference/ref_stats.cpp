// Reference kernels of the stats family: searchsorted (binary search; NaN sorts last).
#include "ref_common.hpp"

namespace ember_ref {
namespace {

template <class C> bool lt_nan(C a, C b) {
    if constexpr (std::is_floating_point_v<C>) {
        if (std::isnan(a) || std::isnan(b)) return !std::isnan(a) && std::isnan(b);
    }
    return a < b;
}

// in[0] ascending 1-d sequence (n >= 1), in[1] values (any shape), same real dtype;
// out int64 with the values' shape. attrs.i[0]: 0 = left, 1 = right.
ember_status_t searchsorted_kernel(const ember_kernel_call_t* call) {
    const ember_view_t& seq = call->in[0];
    const ember_view_t& val = call->in[1];
    const ember_view_t& out = call->out[0];
    bool right = call->attrs->i[0] != 0;
    return visit(seq.dtype, [&](auto t) -> ember_status_t {
        using S = typename decltype(t)::type;
        if constexpr (is_cplx_v<S>) {
            return fail_dtype("searchsorted", seq.dtype);
        } else {
            using C = compute_t<S>;
            const S* sp = (const S*)seq.data + seq.offset;
            int64_t n = seq.shape[0], st = seq.strides[0];
            for_each_index(val.ndim, val.shape, [&](const int64_t* idx) {
                C v = C(*elem<const S>(val, idx));
                int64_t lo = 0, hi = n;
                while (lo < hi) {
                    int64_t mid = lo + (hi - lo) / 2;
                    C s = C(sp[mid * st]);
                    bool go_right = right ? !lt_nan(v, s) : lt_nan(s, v);
                    if (go_right) lo = mid + 1;
                    else hi = mid;
                }
                *elem<int64_t>(out, idx) = lo;
            });
            return EMBER_OK;
        }
    });
}

void add_stats_kernels(KernelList& k) { k.emplace_back("searchsorted", searchsorted_kernel); }

static RegisterKernels reg(add_stats_kernels);

}  // namespace
}  // namespace ember_ref
