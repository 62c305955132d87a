// dtype facts and the promotion rules (docs/dtypes.md).
#include <cstring>

#include "internal.hpp"

namespace ember {

namespace {
struct DtypeFacts {
    const char* name;
    size_t size;
    Kind kind;
    uint8_t dl_code;  // DLPack: 0 int, 1 uint, 2 float, 4 bfloat, 5 complex, 6 bool
};
const DtypeFacts kFacts[EMBER_DTYPE_COUNT] = {
    {"bool", 1, Kind::Bool, 6},        {"int8", 1, Kind::Int, 0},        {"int16", 2, Kind::Int, 0},
    {"int32", 4, Kind::Int, 0},        {"int64", 8, Kind::Int, 0},       {"uint8", 1, Kind::Int, 1},
    {"uint16", 2, Kind::Int, 1},       {"uint32", 4, Kind::Int, 1},      {"uint64", 8, Kind::Int, 1},
    {"float16", 2, Kind::Float, 2},    {"bfloat16", 2, Kind::Float, 4},  {"float32", 4, Kind::Float, 2},
    {"float64", 8, Kind::Float, 2},    {"complex64", 8, Kind::Complex, 5}, {"complex128", 16, Kind::Complex, 5},
};

ember_dtype_t signed_of_bytes(size_t n) {
    switch (n) {
        case 1: return EMBER_INT8;
        case 2: return EMBER_INT16;
        case 4: return EMBER_INT32;
        default: return EMBER_INT64;
    }
}

ember_dtype_t promote_ints(ember_dtype_t a, ember_dtype_t b) {
    size_t sa = dtype_size(a), sb = dtype_size(b);
    bool ua = is_unsigned_int(a), ub = is_unsigned_int(b);
    if (ua == ub) return sa >= sb ? a : b;
    ember_dtype_t u = ua ? a : b, s = ua ? b : a;
    if (dtype_size(s) > dtype_size(u)) return s;
    if (dtype_size(u) == 8)
        raise(EMBER_ERR_UNSUPPORTED_DTYPE, "no common integer dtype for %s and %s; cast one explicitly",
              dtype_name(a), dtype_name(b));
    return signed_of_bytes(dtype_size(u) * 2);
}

int float_bits(ember_dtype_t d) {  // precision rank of a float or complex component
    switch (d) {
        case EMBER_FLOAT16: return 16;
        case EMBER_BFLOAT16: return 17;  // distinct from float16: they promote to float32
        case EMBER_FLOAT32: case EMBER_COMPLEX64: return 32;
        default: return 64;
    }
}

ember_dtype_t promote_strong(ember_dtype_t a, ember_dtype_t b) {
    if (a == b) return a;
    Kind ka = kind_of(a), kb = kind_of(b);
    if (ka == Kind::Bool) return b;
    if (kb == Kind::Bool) return a;
    if (ka == Kind::Int && kb == Kind::Int) return promote_ints(a, b);
    // Mixed integer and floating kinds: the floating operand decides (PyTorch's rule; the
    // array API leaves mixed kinds to the implementation).
    if (ka == Kind::Int) return b;
    if (kb == Kind::Int) return a;
    if (ka == Kind::Float && kb == Kind::Float) {
        int ba = float_bits(a), bb = float_bits(b);
        if ((ba == 16 && bb == 17) || (ba == 17 && bb == 16)) return EMBER_FLOAT32;
        return ba >= bb ? a : b;
    }
    // At least one complex.
    int bits = std::max(float_bits(a), float_bits(b));
    return bits > 32 ? EMBER_COMPLEX128 : EMBER_COMPLEX64;
}
}  // namespace

Kind kind_of(ember_dtype_t d) { return kFacts[d].kind; }
bool is_valid_dtype(int d) { return d >= 0 && d < EMBER_DTYPE_COUNT; }
bool is_signed_int(ember_dtype_t d) { return d >= EMBER_INT8 && d <= EMBER_INT64; }
bool is_unsigned_int(ember_dtype_t d) { return d >= EMBER_UINT8 && d <= EMBER_UINT64; }
bool is_integer(ember_dtype_t d) { return kind_of(d) == Kind::Int; }
bool int_fits(int64_t v, ember_dtype_t d) {
    if (!is_integer(d)) return true;
    int bits = (int)dtype_size(d) * 8;
    if (is_unsigned_int(d)) return v >= 0 && (bits == 64 || v < (int64_t(1) << bits));
    return bits == 64 || (v >= -(int64_t(1) << (bits - 1)) && v < (int64_t(1) << (bits - 1)));
}
bool is_float(ember_dtype_t d) { return kind_of(d) == Kind::Float; }
bool is_complex(ember_dtype_t d) { return kind_of(d) == Kind::Complex; }
const char* dtype_name(ember_dtype_t d) { return is_valid_dtype(d) ? kFacts[d].name : "invalid"; }
size_t dtype_size(ember_dtype_t d) { return is_valid_dtype(d) ? kFacts[d].size : 0; }

ember_dtype_t real_dtype_of(ember_dtype_t d) {
    if (d == EMBER_COMPLEX64) return EMBER_FLOAT32;
    if (d == EMBER_COMPLEX128) return EMBER_FLOAT64;
    return d;
}

ember_dtype_t complex_dtype_of(ember_dtype_t d) {
    if (is_complex(d)) return d;
    return d == EMBER_FLOAT64 ? EMBER_COMPLEX128 : EMBER_COMPLEX64;
}

ember_dtype_t promote(ember_dtype_t a, bool a_weak, ember_dtype_t b, bool b_weak, ember_dtype_t default_float) {
    if (a_weak == b_weak) return promote_strong(a, b);
    ember_dtype_t weak = a_weak ? a : b, strong = a_weak ? b : a;
    Kind kw = kind_of(weak), ks = kind_of(strong);
    if ((int)kw <= (int)ks) return strong;  // a scalar takes the tensor's dtype within its kind
    switch (kw) {
        case Kind::Int: return EMBER_INT64;  // bool tensor with an integer scalar
        case Kind::Float: return default_float;
        default:  // complex scalar
            return ks == Kind::Float ? complex_dtype_of(strong) : complex_dtype_of(default_float);
    }
}

ember_dtype_t resolve_dtype_arg(ember_ctx* ctx, int dtype, ember_dtype_t fallback) {
    if (dtype == EMBER_DTYPE_DEFAULT) return fallback == (ember_dtype_t)EMBER_DTYPE_DEFAULT ? ctx->default_float : fallback;
    if (!is_valid_dtype(dtype)) raise(EMBER_ERR_INVALID_ARGUMENT, "invalid dtype %d", dtype);
    return (ember_dtype_t)dtype;
}

}  // namespace ember

using namespace ember;

extern "C" {

EMBER_API const char* ember_dtype_name(ember_dtype_t dtype) { return is_valid_dtype(dtype) ? kFacts[dtype].name : nullptr; }

EMBER_API ember_status_t ember_dtype_from_name(const char* name, ember_dtype_t* out) {
    return guard("ember_dtype_from_name", [&] {
        require_arg(name, "name");
        require_arg(out, "out");
        for (int d = 0; d < EMBER_DTYPE_COUNT; ++d)
            if (std::strcmp(kFacts[d].name, name) == 0) {
                *out = (ember_dtype_t)d;
                return;
            }
        raise(EMBER_ERR_INVALID_ARGUMENT, "unknown dtype name '%s'", name);
    });
}

EMBER_API size_t ember_dtype_size(ember_dtype_t dtype) { return dtype_size(dtype); }

EMBER_API ember_status_t ember_dtype_to_dlpack(ember_dtype_t dtype, uint8_t* code, uint8_t* bits, uint16_t* lanes) {
    return guard("ember_dtype_to_dlpack", [&] {
        if (!is_valid_dtype(dtype)) raise(EMBER_ERR_INVALID_ARGUMENT, "invalid dtype %d", (int)dtype);
        if (code) *code = kFacts[dtype].dl_code;
        if (bits) *bits = (uint8_t)(kFacts[dtype].size * 8);
        if (lanes) *lanes = 1;
    });
}

EMBER_API ember_status_t ember_dtype_from_dlpack(uint8_t code, uint8_t bits, uint16_t lanes, ember_dtype_t* out) {
    return guard("ember_dtype_from_dlpack", [&] {
        require_arg(out, "out");
        if (lanes == 1)
            for (int d = 0; d < EMBER_DTYPE_COUNT; ++d)
                if (kFacts[d].dl_code == code && kFacts[d].size * 8 == bits) {
                    *out = (ember_dtype_t)d;
                    return;
                }
        raise(EMBER_ERR_UNSUPPORTED_DTYPE, "no Ember dtype for DLPack {code %u, bits %u, lanes %u}", code, bits, lanes);
    });
}

EMBER_API ember_status_t ember_result_type(ember_dtype_t a, ember_dtype_t b, ember_dtype_t* out) {
    return guard("ember_result_type", [&] {
        require_arg(out, "out");
        if (!is_valid_dtype(a) || !is_valid_dtype(b)) raise(EMBER_ERR_INVALID_ARGUMENT, "invalid dtype");
        *out = promote(a, false, b, false, EMBER_FLOAT32);
    });
}

EMBER_API int ember_can_cast(ember_dtype_t from, ember_dtype_t to) {
    if (!is_valid_dtype(from) || !is_valid_dtype(to)) return 0;
    // The array API defines no integer -> floating promotion, so no such safe cast.
    if (kind_of(from) == Kind::Int && kind_of(to) != Kind::Int) return 0;
    try {
        return promote(from, false, to, false, EMBER_FLOAT32) == to;
    } catch (const Error&) {
        return 0;
    }
}

}  // extern "C"
