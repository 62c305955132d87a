// sort and argsort: a least-significant-digit radix sort per line, which is stable by
// construction and so gives the reference's result (a stable comparison sort) exactly.
// Each element becomes an unsigned key of its own width whose order is the reference's:
// integers with the sign bit flipped; floats by sign and magnitude, with -0.0 and +0.0 given
// one key (they compare equal) and every NaN the largest key (NaN sorts last). Descending
// complements the keys, which keeps equal elements in input order as the reference does.
// The payload carried with each key is the element's bits (sort) or its index (argsort).
// Lines are sorted in parallel; complex dtypes run the reference's code on slices.
#include <algorithm>
#include <memory>
#include <type_traits>

#include "cpu_common.hpp"

namespace ember_cpu {
namespace {

enum KeyKind { kUnsigned, kSigned, kFloat };

template <class U>
U float_key(U bits, U inf_bits) {
    constexpr U sign = U(U(1) << (sizeof(U) * 8 - 1));
    const U magnitude = bits & U(~sign);
    if (magnitude > inf_bits) return U(~U(0));  // NaN: after everything
    if (magnitude == 0) return sign;             // -0.0 == +0.0
    return (bits & sign) ? U(~bits) : U(bits | sign);
}

template <class U, class P>
struct Item {
    U key;
    P payload;
};

// Stable LSD radix sort by 8-bit digits; returns whichever buffer holds the result.
template <class U, class P>
Item<U, P>* radix_sort(Item<U, P>* a, Item<U, P>* tmp, int64_t n) {
    constexpr int kPasses = (int)sizeof(U);
    int64_t count[kPasses][256] = {};
    for (int64_t i = 0; i < n; ++i)
        for (int p = 0; p < kPasses; ++p) ++count[p][(a[i].key >> (8 * p)) & 255];
    for (int p = 0; p < kPasses; ++p) {
        int64_t* c = count[p];
        if (std::count(c, c + 256, n) == 1) continue;  // every key has this digit
        int64_t offset = 0;
        for (int d = 0; d < 256; ++d) {
            const int64_t k = c[d];
            c[d] = offset;
            offset += k;
        }
        for (int64_t i = 0; i < n; ++i) tmp[c[(a[i].key >> (8 * p)) & 255]++] = a[i];
        std::swap(a, tmp);
    }
    return a;
}

template <class U, bool Indices>
void sort_lines(const ember_view_t& x, const ember_view_t& out, int axis, bool descending, KeyKind kind, U inf_bits) {
    using P = std::conditional_t<Indices, uint32_t, U>;
    const int64_t n = x.shape[axis], lines = numel(x) / n;
    const int64_t sx = x.strides[axis], so = out.strides[axis];
    const U* xb = (const U*)x.data + x.offset;
    auto sort_line = [&](int64_t line, Item<U, P>* a, Item<U, P>* tmp) {
        int64_t xo, oo;
        line_offsets(x, out, axis, line, xo, oo);
        const U* src = xb + xo;
        for (int64_t k = 0; k < n; ++k) {
            const U bits = src[k * sx];
            U key = kind == kUnsigned ? bits : kind == kSigned ? U(bits ^ U(U(1) << (sizeof(U) * 8 - 1))) : float_key(bits, inf_bits);
            a[k].key = descending ? U(~key) : key;
            a[k].payload = Indices ? P(k) : P(bits);
        }
        const Item<U, P>* sorted = radix_sort(a, tmp, n);
        if constexpr (Indices) {
            int64_t* dst = (int64_t*)out.data + out.offset + oo;
            for (int64_t k = 0; k < n; ++k) dst[k * so] = (int64_t)sorted[k].payload;
        } else {
            U* dst = (U*)out.data + out.offset + oo;
            for (int64_t k = 0; k < n; ++k) dst[k * so] = sorted[k].payload;
        }
    };
    const int64_t tasks = std::min<int64_t>(lines, 4 * (int64_t)num_threads());
    auto run_task = [&](int64_t t) {
        std::unique_ptr<Item<U, P>[]> a(new Item<U, P>[(size_t)n]), tmp(new Item<U, P>[(size_t)n]);
        for (int64_t line = t * lines / tasks; line < (t + 1) * lines / tasks; ++line) sort_line(line, a.get(), tmp.get());
    };
    if (numel(x) >= kParallelCostly && tasks > 1) parallel_tasks(tasks, run_task);
    else
        for (int64_t t = 0; t < tasks; ++t) run_task(t);
}

template <bool Indices>
ember_status_t sort_kernel(const ember_kernel_call_t* c) {
    const ember_view_t& x = c->in[0];
    const ember_view_t& out = c->out[0];
    const int axis = (int)c->attrs->i[0];
    const bool descending = c->attrs->i[1] != 0;
    if (axis < 0 || axis >= x.ndim || numel(x) == 0 || x.shape[axis] >= (int64_t(1) << 32) || (!Indices && out.dtype != x.dtype))
        return reference_on_slices(c, kAxisAttr);
    switch (x.dtype) {
        case EMBER_BOOL: sort_lines<uint8_t, Indices>(x, out, axis, descending, kUnsigned, 0); return EMBER_OK;
        case EMBER_FLOAT16: sort_lines<uint16_t, Indices>(x, out, axis, descending, kFloat, 0x7c00); return EMBER_OK;
        case EMBER_BFLOAT16: sort_lines<uint16_t, Indices>(x, out, axis, descending, kFloat, 0x7f80); return EMBER_OK;
        default: break;
    }
    const bool done = visit_real(x.dtype, [&](auto z) {
        using T = decltype(z);
        using U = std::conditional_t<sizeof(T) == 1, uint8_t, std::conditional_t<sizeof(T) == 2, uint16_t, std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>>;
        const KeyKind kind = std::is_floating_point_v<T> ? kFloat : std::is_signed_v<T> ? kSigned : kUnsigned;
        const U inf_bits = std::is_floating_point_v<T> ? (sizeof(T) == 4 ? U(0x7f800000u) : U(0x7ff0000000000000ull)) : U(0);
        sort_lines<U, Indices>(x, out, axis, descending, kind, inf_bits);
    });
    if (!done) return reference_on_slices(c, kAxisAttr);  // complex: lexicographic, NaN last
    return EMBER_OK;
}

}  // namespace

void add_sort_kernels(std::vector<NativeKernel>& k) {
    k.push_back({"sort", sort_kernel<false>, 0, false});
    k.push_back({"argsort", sort_kernel<true>, 0, false});
}

}  // namespace ember_cpu
