// Reference kernels with their own shapes: astype, arange, where, gathers, scatter,
// nonzero, sort, matmul. Conventions for each are in docs/backend-guide.md.
#include <algorithm>
#include <memory>
#include <numeric>

#include "ref_common.hpp"

namespace ember_ref {
namespace {

ember_status_t astype_kernel(const ember_kernel_call_t* call) {
    const ember_view_t& in = call->in[0];
    const ember_view_t& out = call->out[0];
    return visit(in.dtype, [&](auto ti) {
        using I = typename decltype(ti)::type;
        return visit(out.dtype, [&](auto to) {
            using O = typename decltype(to)::type;
            const ember_view_t* views[2] = {&out, &in};
            size_t sizes[2] = {sizeof(O), sizeof(I)};
            strided_loop<2>(views, sizes, [](char** p, const int64_t* s, int64_t n) {
                char* o = p[0];
                const char* i = p[1];
                for (int64_t k = 0; k < n; ++k, o += s[0], i += s[1])
                    *reinterpret_cast<O*>(o) = convert<O>(*reinterpret_cast<const I*>(i));
            });
            return EMBER_OK;
        });
    });
}

// attrs.f[0] = start, f[1] = step; out is 1-d.
ember_status_t arange_kernel(const ember_kernel_call_t* call) {
    const ember_view_t& out = call->out[0];
    double start = call->attrs->f[0], step = call->attrs->f[1];
    return visit(out.dtype, [&](auto t) {
        using T = typename decltype(t)::type;
        T* dst = (T*)out.data + out.offset;
        for (int64_t k = 0; k < out.shape[0]; ++k) dst[k * out.strides[0]] = convert<T>(start + (double)k * step);
        return EMBER_OK;
    });
}

ember_status_t where_kernel(const ember_kernel_call_t* call) {
    const ember_view_t& c = call->in[0];
    const ember_view_t& a = call->in[1];
    const ember_view_t& b = call->in[2];
    const ember_view_t& out = call->out[0];
    size_t sz = itemsize_of(out.dtype);
    const ember_view_t* views[4] = {&out, &c, &a, &b};
    size_t sizes[4] = {sz, 1, sz, sz};
    strided_loop<4>(views, sizes, [sz](char** p, const int64_t* s, int64_t n) {
        for (int64_t k = 0; k < n; ++k) {
            const char* src = *reinterpret_cast<const bool*>(p[1] + k * s[1]) ? p[2] + k * s[2] : p[3] + k * s[3];
            std::memcpy(p[0] + k * s[0], src, sz);
        }
    });
    return EMBER_OK;
}

bool fix_index(int64_t& i, int64_t n) {
    if (i < 0) i += n;
    return i >= 0 && i < n;
}

// in[0] x, in[1] int64 indices (any shape); out = x.shape[:axis] + idx.shape + x.shape[axis+1:].
ember_status_t take_kernel(const ember_kernel_call_t* call) {
    const ember_view_t& x = call->in[0];
    const ember_view_t& idx = call->in[1];
    const ember_view_t& out = call->out[0];
    int axis = (int)call->attrs->i[0];
    size_t sz = itemsize_of(x.dtype);
    const int64_t* ip = (const int64_t*)idx.data;
    int64_t n = x.shape[axis];
    bool bad = false;
    int64_t bad_value = 0;
    for_each_index(out.ndim, out.shape, [&](const int64_t* o) {
        if (bad) return;
        int64_t ioff = idx.offset;
        for (int d = 0; d < idx.ndim; ++d) ioff += o[axis + d] * idx.strides[d];
        int64_t i = ip[ioff];
        if (!fix_index(i, n)) {
            bad = true;
            bad_value = ip[ioff];
            return;
        }
        int64_t xoff = x.offset;
        for (int d = 0; d < axis; ++d) xoff += o[d] * x.strides[d];
        xoff += i * x.strides[axis];
        for (int d = axis + 1; d < x.ndim; ++d) xoff += o[d - 1 + idx.ndim] * x.strides[d];
        int64_t ooff = out.offset;
        for (int d = 0; d < out.ndim; ++d) ooff += o[d] * out.strides[d];
        std::memcpy((char*)out.data + ooff * sz, (const char*)x.data + xoff * sz, sz);
    });
    if (bad) return g_host->fail(EMBER_ERR_INDEX, "index %lld is out of range for axis %d of length %lld", (long long)bad_value, axis, (long long)n);
    return EMBER_OK;
}

// in[0] x, in[1] int64 indices (shape of out); out[i] = x[i with axis replaced by idx[i]].
ember_status_t take_along_axis_kernel(const ember_kernel_call_t* call) {
    const ember_view_t& x = call->in[0];
    const ember_view_t& idx = call->in[1];
    const ember_view_t& out = call->out[0];
    int axis = (int)call->attrs->i[0];
    size_t sz = itemsize_of(x.dtype);
    int64_t n = x.shape[axis];
    bool bad = false;
    int64_t bad_value = 0;
    for_each_index(out.ndim, out.shape, [&](const int64_t* o) {
        if (bad) return;
        int64_t i = *elem<const int64_t>(idx, o);
        int64_t raw = i;
        if (!fix_index(i, n)) {
            bad = true;
            bad_value = raw;
            return;
        }
        int64_t xoff = x.offset;
        for (int d = 0; d < x.ndim; ++d) xoff += (d == axis ? i : o[d]) * x.strides[d];
        int64_t ooff = out.offset;
        for (int d = 0; d < out.ndim; ++d) ooff += o[d] * out.strides[d];
        std::memcpy((char*)out.data + ooff * sz, (const char*)x.data + xoff * sz, sz);
    });
    if (bad) return g_host->fail(EMBER_ERR_INDEX, "index %lld is out of range for axis %d of length %lld", (long long)bad_value, axis, (long long)n);
    return EMBER_OK;
}

// in[0] src, in[1] int64 index (1-d, length src.shape[axis]); out shape = src with axis -> dim_size.
// attrs.i[0] axis, i[1] ember_scatter_reduce_t. Untouched positions are 0.
ember_status_t scatter_kernel(const ember_kernel_call_t* call) {
    const ember_view_t& src = call->in[0];
    const ember_view_t& index = call->in[1];
    const ember_view_t& out = call->out[0];
    int axis = (int)call->attrs->i[0];
    int reduce = (int)call->attrs->i[1];
    return visit(src.dtype, [&](auto t) -> ember_status_t {
        using T = typename decltype(t)::type;
        using C = compute_t<T>;
        if constexpr (is_cplx_v<T> || is_bool_v<T>) {
            if (reduce == EMBER_SCATTER_MAX || reduce == EMBER_SCATTER_MIN || (is_bool_v<T> && reduce != EMBER_SCATTER_REPLACE))
                return fail_dtype("scatter", src.dtype);
        }
        int64_t total = 1;
        for (int d = 0; d < out.ndim; ++d) total *= out.shape[d];
        std::vector<int64_t> count((size_t)total, 0);
        std::unique_ptr<C[]> acc(new C[(size_t)total]());
        int64_t dim = out.shape[axis];
        int64_t ostr[EMBER_MAX_DIMS];  // contiguous strides of out for the accumulator
        {
            int64_t s = 1;
            for (int d = out.ndim - 1; d >= 0; --d) {
                ostr[d] = s;
                s *= out.shape[d];
            }
        }
        bool bad = false;
        int64_t bad_value = 0;
        for_each_index(src.ndim, src.shape, [&](const int64_t* si) {
            if (bad) return;
            int64_t j = ((const int64_t*)index.data)[index.offset + si[axis] * index.strides[0]];
            int64_t raw = j;
            if (!fix_index(j, dim)) {
                bad = true;
                bad_value = raw;
                return;
            }
            int64_t pos = 0;
            for (int d = 0; d < src.ndim; ++d) pos += (d == axis ? j : si[d]) * ostr[d];
            C v = C(*elem<const T>(src, si));
            C& a = acc[(size_t)pos];
            int64_t& c = count[(size_t)pos];
            switch (reduce) {
                case EMBER_SCATTER_ADD:
                case EMBER_SCATTER_MEAN: a = wadd(a, v); break;
                case EMBER_SCATTER_REPLACE: a = v; break;
                default:
                    if constexpr (!is_cplx_v<C>) {
                        bool take = c == 0;
                        if constexpr (std::is_floating_point_v<C>) take = take || std::isnan(v);
                        if (!take) take = reduce == EMBER_SCATTER_MAX ? a < v : v < a;
                        if (take) a = v;
                    }
            }
            ++c;
        });
        if (bad) return g_host->fail(EMBER_ERR_INDEX, "index %lld is out of range for dim_size %lld", (long long)bad_value, (long long)dim);
        int64_t k = 0;
        for_each_index(out.ndim, out.shape, [&](const int64_t* oi) {
            C v = acc[(size_t)k];
            if (reduce == EMBER_SCATTER_MEAN && count[(size_t)k] > 0) {
                if constexpr (is_int_v<C>) v = C(v / (C)count[(size_t)k]);
                else if constexpr (!is_bool_v<C>) v = v / C((real_t<C>)count[(size_t)k]);
            }
            *elem<T>(out, oi) = T(v);
            ++k;
        });
        return EMBER_OK;
    });
}

// out: int64 (count, ndim) coordinates, in C order; the core sized it.
ember_status_t nonzero_kernel(const ember_kernel_call_t* call) {
    const ember_view_t& x = call->in[0];
    const ember_view_t& out = call->out[0];
    return visit(x.dtype, [&](auto t) {
        using T = typename decltype(t)::type;
        int64_t* dst = (int64_t*)out.data + out.offset;
        int64_t row = 0, cap = out.ndim ? out.shape[0] : 0;
        for_each_index(x.ndim, x.shape, [&](const int64_t* i) {
            if (row >= cap) return;
            if (convert<bool>(*elem<const T>(x, i))) {
                for (int d = 0; d < x.ndim; ++d) dst[row * out.strides[0] + d * out.strides[1]] = i[d];
                ++row;
            }
        });
        return EMBER_OK;
    });
}

// NaN sorts last ascending and first descending (descending is the exact reverse order).
template <class C> bool less_nan(const C& a, const C& b) {
    if constexpr (is_cplx_v<C>) {
        bool na = std::isnan(a.real()) || std::isnan(a.imag()), nb = std::isnan(b.real()) || std::isnan(b.imag());
        if (na || nb) return !na && nb;
        return a.real() < b.real() || (a.real() == b.real() && a.imag() < b.imag());
    } else if constexpr (std::is_floating_point_v<C>) {
        if (std::isnan(a) || std::isnan(b)) return !std::isnan(a) && std::isnan(b);
        return a < b;
    } else {
        return a < b;
    }
}

// attrs.i[0] axis, i[1] descending. Stable.
template <bool Indices>
ember_status_t sort_kernel(const ember_kernel_call_t* call) {
    const ember_view_t& x = call->in[0];
    const ember_view_t& out = call->out[0];
    int axis = (int)call->attrs->i[0];
    bool desc = call->attrs->i[1] != 0;
    return visit(x.dtype, [&](auto t) {
        using T = typename decltype(t)::type;
        using C = compute_t<T>;
        int64_t n = x.shape[axis];
        std::vector<int64_t> order((size_t)n);
        std::vector<C> vals((size_t)n);
        int64_t outer_shape[EMBER_MAX_DIMS];
        for (int d = 0; d < x.ndim; ++d) outer_shape[d] = d == axis ? 1 : x.shape[d];
        for_each_index(x.ndim, outer_shape, [&](const int64_t* oi) {
            int64_t xb = x.offset, ob = out.offset;
            for (int d = 0; d < x.ndim; ++d) {
                xb += oi[d] * x.strides[d];
                ob += oi[d] * out.strides[d];
            }
            for (int64_t k = 0; k < n; ++k) vals[(size_t)k] = C(((const T*)x.data)[xb + k * x.strides[axis]]);
            std::iota(order.begin(), order.end(), 0);
            if (desc)
                std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return less_nan(vals[(size_t)b], vals[(size_t)a]); });
            else
                std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return less_nan(vals[(size_t)a], vals[(size_t)b]); });
            for (int64_t k = 0; k < n; ++k) {
                if constexpr (Indices) ((int64_t*)out.data)[ob + k * out.strides[axis]] = order[(size_t)k];
                else ((T*)out.data)[ob + k * out.strides[axis]] = T(vals[(size_t)order[(size_t)k]]);
            }
        });
        return EMBER_OK;
    });
}

// in[0] a (..., m, k), in[1] b (..., k, n), batch dims already broadcast to out's.
ember_status_t matmul_kernel(const ember_kernel_call_t* call) {
    const ember_view_t& a = call->in[0];
    const ember_view_t& b = call->in[1];
    const ember_view_t& out = call->out[0];
    int nd = out.ndim;
    int64_t m = out.shape[nd - 2], n = out.shape[nd - 1], kk = a.shape[nd - 1];
    return visit(a.dtype, [&](auto t) {
        using T = typename decltype(t)::type;
        using A = std::conditional_t<is_cplx_v<T>, c128, std::conditional_t<is_int_v<T>, T, std::conditional_t<is_bool_v<T>, bool, double>>>;
        for_each_index(nd - 2, out.shape, [&](const int64_t* bi) {
            int64_t ab = a.offset, bb = b.offset, ob = out.offset;
            for (int d = 0; d < nd - 2; ++d) {
                ab += bi[d] * a.strides[d];
                bb += bi[d] * b.strides[d];
                ob += bi[d] * out.strides[d];
            }
            // A row of sums at a time, each summed in the order of p, as one sum per
            // element would be: the loop over j reads b along its rows (the order i, j, p read
            // a column of b per element, the slowest part of the C suite under the sanitizers).
            std::unique_ptr<A[]> acc(new A[(size_t)n]);  // not std::vector: A may be bool
            for (int64_t i = 0; i < m; ++i) {
                std::fill(acc.get(), acc.get() + n, A{});
                for (int64_t p = 0; p < kk; ++p) {
                    A x = convert<A>(((const T*)a.data)[ab + i * a.strides[nd - 2] + p * a.strides[nd - 1]]);
                    const T* brow = (const T*)b.data + bb + p * b.strides[nd - 2];
                    for (int64_t j = 0; j < n; ++j) {
                        A y = convert<A>(brow[j * b.strides[nd - 1]]);
                        if constexpr (is_bool_v<A>) acc[j] = acc[j] || (x && y);
                        else acc[j] = wadd(acc[j], wmul(x, y));
                    }
                }
                for (int64_t j = 0; j < n; ++j) ((T*)out.data)[ob + i * out.strides[nd - 2] + j * out.strides[nd - 1]] = convert<T>(acc[j]);
            }
        });
        return EMBER_OK;
    });
}

}  // namespace

void add_misc_kernels(KernelList& k) {
    k.emplace_back("astype", astype_kernel);
    k.emplace_back("arange", arange_kernel);
    k.emplace_back("where", where_kernel);
    k.emplace_back("take", take_kernel);
    k.emplace_back("take_along_axis", take_along_axis_kernel);
    k.emplace_back("scatter", scatter_kernel);
    k.emplace_back("nonzero", nonzero_kernel);
    k.emplace_back("sort", sort_kernel<false>);
    k.emplace_back("argsort", sort_kernel<true>);
    k.emplace_back("matmul", matmul_kernel);
}

}  // namespace ember_ref
