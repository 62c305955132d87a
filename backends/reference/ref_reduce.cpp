// Reference reductions and scans. Floats accumulate in double, complex in complex<double>,
// integers in (u)int64 with wrap-around, so the oracle is as exact as it cheaply can be.
#include "ref_common.hpp"

namespace ember_ref {
namespace {

template <class T> struct acc_of { using type = T; };
template <> struct acc_of<float> { using type = double; };
template <> struct acc_of<half> { using type = double; };
template <> struct acc_of<bfloat16> { using type = double; };
template <> struct acc_of<c64> { using type = c128; };
template <class T> using acc_t = typename acc_of<T>::type;

// Splits the input's dims into kept (outer) and reduced (inner) groups.
struct Plan {
    int n_outer = 0, n_inner = 0;
    int64_t outer_shape[EMBER_MAX_DIMS], outer_in[EMBER_MAX_DIMS], outer_out[EMBER_MAX_DIMS];
    int64_t inner_shape[EMBER_MAX_DIMS], inner_in[EMBER_MAX_DIMS];
};
Plan make_plan(const ember_view_t& in, const ember_view_t& out, uint64_t mask) {
    Plan p;
    for (int d = 0; d < in.ndim; ++d) {
        if (mask & (1ull << d)) {
            p.inner_shape[p.n_inner] = in.shape[d];
            p.inner_in[p.n_inner++] = in.strides[d];
        } else {
            p.outer_shape[p.n_outer] = in.shape[d];
            p.outer_in[p.n_outer] = in.strides[d];
            p.outer_out[p.n_outer++] = out.strides[d];
        }
    }
    return p;
}

template <class F>
void for_each_offset(int n, const int64_t* shape, const int64_t* strides, int64_t base, F&& f) {
    for_each_index(n, shape, [&](const int64_t* idx) {
        int64_t off = base;
        for (int d = 0; d < n; ++d) off += idx[d] * strides[d];
        f(off);
    });
}

template <class A> bool nan_of(const A& v) {
    if constexpr (std::is_floating_point_v<A>) return std::isnan(v);
    else return false;
}

enum class R { Sum, Prod, Max, Min, All, Any, Count };

template <R Kind>
ember_status_t reduce_kernel(const ember_kernel_call_t* call) {
    const ember_view_t& in = call->in[0];
    const ember_view_t& out = call->out[0];
    Plan p = make_plan(in, out, call->attrs->axes_mask);
    return visit(in.dtype, [&](auto t) -> ember_status_t {
        using T = typename decltype(t)::type;
        constexpr bool ordered = !is_cplx_v<T>;
        if constexpr ((Kind == R::Max || Kind == R::Min) && !ordered) {
            return fail_dtype(Kind == R::Max ? "max" : "min", in.dtype);
        } else {
            using A = std::conditional_t<Kind == R::All || Kind == R::Any, bool, std::conditional_t<Kind == R::Count, int64_t, acc_t<T>>>;
            // A count is int64 and all/any bool whatever x is (x is bool unless the kernel is
            // a fallback of one that claims EMBER_KERNEL_TESTS_INPUT).
            using Out = std::conditional_t<Kind == R::Count, int64_t, std::conditional_t<Kind == R::All || Kind == R::Any, bool, T>>;
            const T* src = (const T*)in.data;
            Out* dst = (Out*)out.data;
            for_each_index(p.n_outer, p.outer_shape, [&](const int64_t* oi) {
                int64_t in_base = in.offset, out_off = out.offset;
                for (int d = 0; d < p.n_outer; ++d) {
                    in_base += oi[d] * p.outer_in[d];
                    out_off += oi[d] * p.outer_out[d];
                }
                A acc{};
                bool first = true;
                if constexpr (Kind == R::Prod) acc = A(1);
                if constexpr (Kind == R::All) acc = true;
                for_each_offset(p.n_inner, p.inner_shape, p.inner_in, in_base, [&](int64_t off) {
                    if constexpr (Kind == R::Count) {
                        acc += convert<bool>(src[off]) ? 1 : 0;
                        return;
                    }
                    A v = convert<A>(src[off]);
                    if constexpr (Kind == R::Sum) acc = wadd(acc, v);
                    else if constexpr (Kind == R::Prod) acc = wmul(acc, v);
                    else if constexpr (Kind == R::All) acc = acc && v;
                    else if constexpr (Kind == R::Any) acc = acc || v;
                    else if constexpr (ordered) {
                        if (first || nan_of(v) || (!nan_of(acc) && (Kind == R::Max ? acc < v : v < acc))) acc = v;
                        if (nan_of(v)) acc = v;
                    }
                    first = false;
                });
                dst[out_off] = convert<Out>(acc);
            });
            return EMBER_OK;
        }
    });
}

// attrs.i[0] = axis (normalised). Output is int64 with the axis kept as length 1.
template <bool IsMax>
ember_status_t argreduce_kernel(const ember_kernel_call_t* call) {
    const ember_view_t& in = call->in[0];
    const ember_view_t& out = call->out[0];
    int axis = (int)call->attrs->i[0];
    Plan p = make_plan(in, out, 1ull << axis);
    return visit(in.dtype, [&](auto t) -> ember_status_t {
        using T = typename decltype(t)::type;
        if constexpr (is_cplx_v<T>) {
            return fail_dtype(IsMax ? "argmax" : "argmin", in.dtype);
        } else {
            using C = compute_t<T>;
            const T* src = (const T*)in.data;
            int64_t* dst = (int64_t*)out.data;
            int64_t n = in.shape[axis], stride = in.strides[axis];
            for_each_index(p.n_outer, p.outer_shape, [&](const int64_t* oi) {
                int64_t base = in.offset, out_off = out.offset;
                for (int d = 0; d < p.n_outer; ++d) {
                    base += oi[d] * p.outer_in[d];
                    out_off += oi[d] * p.outer_out[d];
                }
                int64_t best = 0;
                C bv = C(src[base]);
                for (int64_t k = 1; k < n && !nan_of(bv); ++k) {
                    C v = C(src[base + k * stride]);
                    if (nan_of(v) || (IsMax ? bv < v : v < bv)) {
                        bv = v;
                        best = k;
                    }
                }
                dst[out_off] = best;
            });
            return EMBER_OK;
        }
    });
}

// attrs.i[0] = axis. in and out share the shape; out may have another dtype (the core picks it).
template <bool IsSum>
ember_status_t scan_kernel(const ember_kernel_call_t* call) {
    const ember_view_t& in = call->in[0];
    const ember_view_t& out = call->out[0];
    int axis = (int)call->attrs->i[0];
    Plan p = make_plan(in, out, 1ull << axis);
    return visit(in.dtype, [&](auto t) -> ember_status_t {
        using T = typename decltype(t)::type;
        if constexpr (is_bool_v<T>) {
            return fail_dtype(IsSum ? "cumsum" : "cumprod", in.dtype);
        } else {
            using A = acc_t<T>;
            const T* src = (const T*)in.data;
            T* dst = (T*)out.data;
            int64_t n = in.shape[axis], si = in.strides[axis], so = out.strides[axis];
            for_each_index(p.n_outer, p.outer_shape, [&](const int64_t* oi) {
                int64_t ib = in.offset, ob = out.offset;
                for (int d = 0; d < p.n_outer; ++d) {
                    ib += oi[d] * p.outer_in[d];
                    ob += oi[d] * p.outer_out[d];
                }
                A acc = IsSum ? A(0) : A(1);
                for (int64_t k = 0; k < n; ++k) {
                    A v = convert<A>(src[ib + k * si]);
                    // A NaN total stays the first NaN met: with two NaN operands, which one
                    // a float add returns depends on how the compiler ordered them.
                    if constexpr (std::is_floating_point_v<A>)
                        if (acc != acc) v = acc;
                    acc = IsSum ? wadd(acc, v) : wmul(acc, v);
                    dst[ob + k * so] = convert<T>(acc);
                }
            });
            return EMBER_OK;
        }
    });
}

}  // namespace

void add_reduce_kernels(KernelList& k) {
    k.emplace_back("sum", reduce_kernel<R::Sum>);
    k.emplace_back("prod", reduce_kernel<R::Prod>);
    k.emplace_back("max", reduce_kernel<R::Max>);
    k.emplace_back("min", reduce_kernel<R::Min>);
    k.emplace_back("all", reduce_kernel<R::All>);
    k.emplace_back("any", reduce_kernel<R::Any>);
    k.emplace_back("count_nonzero", reduce_kernel<R::Count>);
    k.emplace_back("argmax", argreduce_kernel<true>);
    k.emplace_back("argmin", argreduce_kernel<false>);
    k.emplace_back("cumsum", scan_kernel<true>);
    k.emplace_back("cumprod", scan_kernel<false>);
}

}  // namespace ember_ref
