// Building blocks of the reference kernels: storage types, the one dtype switch, and a
// strided N-operand loop. Plain portable C++; clarity over speed.
#pragma once

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

#include "../common/float16.hpp"
#include "../common/saturating_cast.hpp"
#include "ember/ember_backend.h"

namespace ember_ref {

extern const ember_host_api_t* g_host;

// IEEE binary16 stored as bits; arithmetic happens in float.
struct half {
    uint16_t bits = 0;
    half() = default;
    explicit half(float f) : bits(from_float(f)) {}
    operator float() const { return to_float(bits); }
    static uint16_t from_float(float f);
    static float to_float(uint16_t h);
};

// bfloat16: the top 16 bits of a float32, rounded to nearest even.
struct bfloat16 {
    uint16_t bits = 0;
    bfloat16() = default;
    explicit bfloat16(float f) {
        uint32_t u;
        std::memcpy(&u, &f, 4);
        if ((u & 0x7fffffffu) > 0x7f800000u) {
            bits = (uint16_t)((u >> 16) | 0x40);  // quiet NaN
        } else {
            u += 0x7fffu + ((u >> 16) & 1u);
            bits = (uint16_t)(u >> 16);
        }
    }
    operator float() const { return ember_float16::bf16_to_float(bits); }
};

using c64 = std::complex<float>;
using c128 = std::complex<double>;

template <class T> struct tag { using type = T; };

// The one dtype switch of the reference backend.
template <class F>
decltype(auto) visit(int32_t dtype, F&& f) {
    switch (dtype) {
        case EMBER_BOOL: return f(tag<bool>{});
        case EMBER_INT8: return f(tag<int8_t>{});
        case EMBER_INT16: return f(tag<int16_t>{});
        case EMBER_INT32: return f(tag<int32_t>{});
        case EMBER_INT64: return f(tag<int64_t>{});
        case EMBER_UINT8: return f(tag<uint8_t>{});
        case EMBER_UINT16: return f(tag<uint16_t>{});
        case EMBER_UINT32: return f(tag<uint32_t>{});
        case EMBER_UINT64: return f(tag<uint64_t>{});
        case EMBER_FLOAT16: return f(tag<half>{});
        case EMBER_BFLOAT16: return f(tag<bfloat16>{});
        case EMBER_FLOAT32: return f(tag<float>{});
        case EMBER_FLOAT64: return f(tag<double>{});
        case EMBER_COMPLEX64: return f(tag<c64>{});
        default: return f(tag<c128>{});
    }
}

template <class T> struct is_cplx : std::false_type {};
template <class T> struct is_cplx<std::complex<T>> : std::true_type {};
template <class T> constexpr bool is_cplx_v = is_cplx<T>::value;
template <class T> constexpr bool is_half_v = std::is_same_v<T, half> || std::is_same_v<T, bfloat16>;
template <class T> constexpr bool is_bool_v = std::is_same_v<T, bool>;
template <class T> constexpr bool is_int_v = std::is_integral_v<T> && !is_bool_v<T>;
template <class T> constexpr bool is_real_float_v = std::is_floating_point_v<T>;

// Arithmetic type for a storage type: half types compute in float.
template <class T> using compute_t = std::conditional_t<is_half_v<T>, float, T>;
template <class T> struct real_of { using type = T; };
template <class T> struct real_of<std::complex<T>> { using type = T; };
template <class T> using real_t = typename real_of<T>::type;

// Kind bits an op accepts (after the core applied the dtype rule).
enum : unsigned { K_BOOL = 1, K_INT = 2, K_FLOAT = 4, K_COMPLEX = 8, K_REAL = K_INT | K_FLOAT, K_NUM = K_REAL | K_COMPLEX, K_ALL = 15 };
template <class T> constexpr unsigned kind_bit() {
    if constexpr (is_bool_v<T>) return K_BOOL;
    else if constexpr (is_int_v<T>) return K_INT;
    else if constexpr (is_cplx_v<T>) return K_COMPLEX;
    else return K_FLOAT;
}

// Converts any storage value to any other (used by astype and reductions).
// Float to integer saturates and maps NaN to 0; complex to real keeps the real part;
// anything to bool is "!= 0" (for complex: either part non-zero).
template <class To, class From>
To convert(From v) {
    if constexpr (std::is_same_v<To, From>) {
        return v;  // a copy keeps the bits (a half NaN's payload too)
    } else if constexpr (is_bool_v<To> && is_cplx_v<From>) {
        return v.real() != 0 || v.imag() != 0;
    } else if constexpr (is_cplx_v<From> && !is_cplx_v<To>) {
        return convert<To>(v.real());
    } else if constexpr (is_cplx_v<To>) {
        if constexpr (is_cplx_v<From>) return To((typename To::value_type)v.real(), (typename To::value_type)v.imag());
        else return To((typename To::value_type)(double)compute_t<From>(v), 0);
    } else if constexpr (is_bool_v<To>) {
        return compute_t<From>(v) != compute_t<From>(0);
    } else if constexpr (is_int_v<To> && (is_real_float_v<From> || is_half_v<From>)) {
        return ember_convert::saturating_cast<To>((double)compute_t<From>(v));
    } else if constexpr (is_half_v<To>) {
        // float64 and 32/64-bit integers through a float rounded to odd, so that they are
        // rounded once (64-bit integers beyond 2^53 round to double first).
        if constexpr (std::is_same_v<From, double> || (is_int_v<From> && sizeof(From) >= 4)) return To(ember_float16::to_float_odd((double)v));
        else return To((float)v);
    } else {
        return (To)compute_t<From>(v);
    }
}

// Loops over `n` views of identical shape, calling body(ptrs, byte_steps, count) per
// innermost run. Dimensions that are contiguous for every operand are merged first.
template <int N, class Body>
void strided_loop(const ember_view_t* const (&views)[N], const size_t (&itemsize)[N], Body&& body) {
    const ember_view_t& v0 = *views[0];
    int nd = 0;
    int64_t shape[EMBER_MAX_DIMS];
    int64_t st[N][EMBER_MAX_DIMS];
    for (int d = 0; d < v0.ndim; ++d) {
        if (v0.shape[d] == 0) return;
        if (v0.shape[d] == 1) continue;
        bool merge = nd > 0;
        for (int k = 0; k < N && merge; ++k) merge = st[k][nd - 1] == views[k]->strides[d] * v0.shape[d];
        if (merge) {
            shape[nd - 1] *= v0.shape[d];
            for (int k = 0; k < N; ++k) st[k][nd - 1] = views[k]->strides[d];
        } else {
            shape[nd] = v0.shape[d];
            for (int k = 0; k < N; ++k) st[k][nd] = views[k]->strides[d];
            ++nd;
        }
    }
    char* base[N];
    int64_t step[N];
    for (int k = 0; k < N; ++k) base[k] = (char*)views[k]->data + views[k]->offset * (int64_t)itemsize[k];
    if (nd == 0) {
        for (int k = 0; k < N; ++k) step[k] = 0;
        body(base, step, (int64_t)1);
        return;
    }
    for (int k = 0; k < N; ++k) step[k] = st[k][nd - 1] * (int64_t)itemsize[k];
    int64_t idx[EMBER_MAX_DIMS] = {0};
    char* p[N];
    for (;;) {
        for (int k = 0; k < N; ++k) p[k] = base[k];
        for (int d = 0; d < nd - 1; ++d)
            for (int k = 0; k < N; ++k) p[k] += idx[d] * st[k][d] * (int64_t)itemsize[k];
        body(p, step, shape[nd - 1]);
        int d = nd - 2;
        for (; d >= 0; --d) {
            if (++idx[d] < shape[d]) break;
            idx[d] = 0;
        }
        if (d < 0) return;
    }
}

inline size_t itemsize_of(int32_t dtype) {
    static const size_t sizes[EMBER_DTYPE_COUNT] = {1, 1, 2, 4, 8, 1, 2, 4, 8, 2, 2, 4, 8, 8, 16};
    return sizes[dtype];
}

template <class T>
inline T* elem(const ember_view_t& v, const int64_t* idx) {
    int64_t off = v.offset;
    for (int d = 0; d < v.ndim; ++d) off += idx[d] * v.strides[d];
    return (T*)v.data + off;
}

// Visits every multi-index of shape in C order.
template <class F>
void for_each_index(int ndim, const int64_t* shape, F&& f) {
    int64_t idx[EMBER_MAX_DIMS] = {0};
    for (int d = 0; d < ndim; ++d)
        if (shape[d] == 0) return;
    for (;;) {
        f(idx);
        int d = ndim - 1;
        for (; d >= 0; --d) {
            if (++idx[d] < shape[d]) break;
            idx[d] = 0;
        }
        if (d < 0) return;
    }
}

// Wrapping integer arithmetic (two's complement, as NumPy): done in uint64 to avoid UB.
template <class C> C wadd(C a, C b) {
    if constexpr (is_int_v<C>) return C(uint64_t(a) + uint64_t(b));
    else return C(a + b);
}
template <class C> C wsub(C a, C b) {
    if constexpr (is_int_v<C>) return C(uint64_t(a) - uint64_t(b));
    else return C(a - b);
}
template <class C> C wmul(C a, C b) {
    if constexpr (is_int_v<C>) return C(uint64_t(a) * uint64_t(b));
    else if constexpr (is_bool_v<C>) return a && b;
    else return C(a * b);
}

ember_status_t fail_dtype(const char* op, int32_t dtype);

using KernelList = std::vector<std::pair<const char*, ember_kernel_fn>>;
void add_unary_kernels(KernelList& k);
void add_binary_kernels(KernelList& k);
void add_reduce_kernels(KernelList& k);
void add_misc_kernels(KernelList& k);

// Kernel families in their own files register themselves:
//   static ember_ref::RegisterKernels reg(add_linalg_kernels);
using KernelAdder = void (*)(KernelList&);
std::vector<KernelAdder>& extra_kernel_adders();
struct RegisterKernels {
    explicit RegisterKernels(KernelAdder add) { extra_kernel_adders().push_back(add); }
};

}  // namespace ember_ref
