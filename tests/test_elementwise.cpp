// Elementwise unary and binary ops: every UNARY and BINARY row of src/ops/optable.def, run
// over every dtype on contiguous, strided, broadcast, 0-d and empty inputs. Expectations
// are float64 <cmath> formulas written here; dtype expectations follow docs/dtypes.md.
#include <algorithm>
#include <functional>
#include <random>

#include "test_util.hpp"

namespace {

using C = std::complex<double>;
using UFn = ember_status_t (*)(ember_ctx_t*, const ember_tensor_t*, ember_tensor_t**);
using BFn = ember_status_t (*)(ember_ctx_t*, const ember_tensor_t*, const ember_tensor_t*, ember_tensor_t**);
constexpr int64_t END = EMBER_SLICE_END;

// dtype rules of docs/dtypes.md (default float: float32).
enum Rule { NUMERIC, NUMERIC_TO_REAL, NUMERIC_TO_BOOL, REAL, REAL_TO_BOOL, FLOAT, REAL_FLOAT, INT, INT_BOOL, LOGICAL, COMPARE, ORDER };
bool accepts(Rule r, ember_dtype_t d) {
    switch (r) {
        case NUMERIC: case NUMERIC_TO_REAL: return !is_b(d);
        case REAL: case REAL_TO_BOOL: return is_i(d) || is_f(d);
        case REAL_FLOAT: case ORDER: return !is_c(d);
        case INT: return is_i(d);
        case INT_BOOL: return is_i(d) || is_b(d);
        default: return true;
    }
}
ember_dtype_t result_of(Rule r, ember_dtype_t d) {
    switch (r) {
        case NUMERIC_TO_REAL: return d == EMBER_COMPLEX64 ? EMBER_FLOAT32 : d == EMBER_COMPLEX128 ? EMBER_FLOAT64 : d;
        case NUMERIC_TO_BOOL: case REAL_TO_BOOL: case LOGICAL: case COMPARE: case ORDER: return EMBER_BOOL;
        case FLOAT: case REAL_FLOAT: return (is_i(d) || is_b(d)) ? EMBER_FLOAT32 : d;
        default: return d;
    }
}

// Two's complement wrap of an integral value into dtype d.
double wrap(double v, ember_dtype_t d) {
    if (is_b(d)) return v != 0;
    if (!is_i(d)) return v;
    int64_t x = (int64_t)v;
    switch (d) {
        case EMBER_INT8: return (int8_t)x;
        case EMBER_INT16: return (int16_t)x;
        case EMBER_INT32: return (int32_t)x;
        case EMBER_UINT8: return (uint8_t)x;
        case EMBER_UINT16: return (uint16_t)x;
        case EMBER_UINT32: return (uint32_t)x;
        case EMBER_UINT64: return (double)(uint64_t)x;
        default: return (double)x;
    }
}

// Input domain: floats are k/16 in [lo, hi] (exact in every float dtype for |x| < 16),
// integers in [ilo, ihi] clamped to the dtype. ihi == 99999 means "bit width - 1".
struct Dom {
    double lo, hi;
    int64_t ilo, ihi;
    bool nonzero = false;
    double step = 1.0 / 16;
};

std::vector<C> gen(std::mt19937& rng, size_t n, ember_dtype_t d, const Dom& dom) {
    std::vector<C> v(n);
    auto pick = [&](int64_t a, int64_t b) { return (double)std::uniform_int_distribution<int64_t>(a, b)(rng); };
    for (auto& x : v) {
        if (is_b(d)) {
            x = pick(0, 1);
        } else if (is_i(d)) {
            int bits = (int)ember_dtype_size(d) * 8;
            int64_t lo = dom.ilo, hi = dom.ihi == 99999 ? bits - 1 : dom.ihi;
            if (is_u(d)) lo = std::max<int64_t>(lo, 0);
            if (bits == 8) lo = std::max<int64_t>(lo, is_u(d) ? 0 : -128), hi = std::min<int64_t>(hi, is_u(d) ? 255 : 127);
            x = pick(lo, hi);
            if (dom.nonzero && x == 0.0) x = 1;
        } else {
            double re = pick((int64_t)std::ceil(dom.lo / dom.step), (int64_t)std::floor(dom.hi / dom.step)) * dom.step;
            if (dom.nonzero && re == 0) re = 1;
            double im = is_c(d) ? pick((int64_t)(-0.75 / dom.step), (int64_t)(0.75 / dom.step)) * dom.step : 0;
            x = C(re, im);
        }
    }
    return v;
}

T make_any(const std::vector<C>& v, std::vector<int64_t> shape, ember_dtype_t d) {
    if (!is_c(d)) {
        std::vector<double> re;
        for (auto& x : v) re.push_back(x.real());
        return make(re, shape, d);
    }
    T src, t;
    if (ember_tensor_from_data(test_ctx(), v.data(), EMBER_COMPLEX128, shape.data(), (int)shape.size(), src.out()) != EMBER_OK) return t;
    if (ember_astype(test_ctx(), src, d, t.out()) != EMBER_OK) return T();
    return t;
}

::testing::AssertionResult matches(const ember_tensor_t* out, ember_dtype_t rd, const std::vector<C>& want) {
    if (!out) return ::testing::AssertionFailure() << "no output";
    if (dtype_of(out) != rd) return ::testing::AssertionFailure() << "dtype " << ember_dtype_name(dtype_of(out)) << " != " << ember_dtype_name(rd);
    double t = tol(rd);
    if (is_c(rd)) {
        auto got = values_c(out);
        if (got.size() != want.size()) return ::testing::AssertionFailure() << "size " << got.size() << " != " << want.size();
        for (size_t i = 0; i < got.size(); ++i)
            if (!(std::abs(got[i] - want[i]) <= t * (1 + std::abs(want[i]))))
                return ::testing::AssertionFailure() << "element " << i << ": got " << got[i] << ", want " << want[i];
        return ::testing::AssertionSuccess();
    }
    std::vector<double> w;
    for (auto& x : want) w.push_back(wrap(x.real(), rd));
    return all_close(values(out), w, t, t);
}

// The three strided layouts used for every op, each giving a (4, 5) view of a fresh base:
// 0 contiguous; 1 transpose of (5, 4); 2 slice [7::-2, ::2] of (8, 10).
struct Layout {
    std::vector<int64_t> base_shape;
    std::function<size_t(size_t, size_t)> src;  // (i, j) of the view -> flat index in base
};
const Layout kLayouts[] = {
    {{4, 5}, [](size_t i, size_t j) { return i * 5 + j; }},
    {{5, 4}, [](size_t i, size_t j) { return j * 4 + i; }},
    {{8, 10}, [](size_t i, size_t j) { return (7 - 2 * i) * 10 + 2 * j; }},
};
T view_of_layout(int k, const T& base) {
    T v;
    if (k == 0) return T(base.t ? (ember_tensor_retain(base.t), base.t) : nullptr);
    if (k == 1) {
        if (ember_transpose(test_ctx(), base, v.out()) != EMBER_OK) return T();
    } else {
        int64_t start[2] = {7, 0}, stop[2] = {END, END}, step[2] = {-2, 2};
        if (ember_slice(test_ctx(), base, start, stop, step, 2, v.out()) != EMBER_OK) return T();
    }
    return v;
}

std::string fn_name(const char* op) { return std::string("ember_") + op; }


// ---------------------------------------------------------------- unary
struct UOp {
    const char* name;
    UFn fn;
    Rule rule;
    Dom dom;
    double (*f)(double x, ember_dtype_t rd);
    C (*fc)(C x);  // nullptr: the op takes no complex input
};
#define U(expr) [](double x, ember_dtype_t rd) -> double { (void)rd; return (expr); }
#define UC(expr) [](C x) -> C { return (expr); }
double sgn(double x) { return std::isnan(x) ? x : (x > 0) - (x < 0); }
C round_c(C x) { return C(std::nearbyint(x.real()), std::nearbyint(x.imag())); }
const Dom kWide{-8, 8, -8, 8}, kUnit{-1, 1, -1, 1};

const UOp kUnary[] = {
    {"negative", ember_negative, NUMERIC, kWide, U(-x), UC(-x)},
    {"positive", ember_positive, NUMERIC, kWide, U(x), UC(x)},
    {"abs", ember_abs, NUMERIC_TO_REAL, kWide, U(std::fabs(x)), UC(std::abs(x))},
    {"sign", ember_sign, NUMERIC, kWide, U(sgn(x)), UC(x == 0.0 ? C(0) : x / std::abs(x))},
    {"sqrt", ember_sqrt, FLOAT, {0, 9, 0, 100}, U(std::sqrt(x)), UC(std::sqrt(x))},
    {"square", ember_square, NUMERIC, kWide, U(x * x), UC(x * x)},
    {"exp", ember_exp, FLOAT, {-4, 4, -4, 4}, U(std::exp(x)), UC(std::exp(x))},
    {"expm1", ember_expm1, FLOAT, {-4, 4, -4, 4}, U(std::expm1(x)), UC(std::exp(x) - 1.0)},
    {"log", ember_log, FLOAT, {0.0625, 9, 1, 100}, U(std::log(x)), UC(std::log(x))},
    {"log1p", ember_log1p, FLOAT, {-0.5, 8, 0, 100}, U(std::log1p(x)), UC(std::log(1.0 + x))},
    {"log2", ember_log2, FLOAT, {0.0625, 9, 1, 100}, U(std::log2(x)), UC(std::log(x) / std::log(2.0))},
    {"log10", ember_log10, FLOAT, {0.0625, 9, 1, 100}, U(std::log10(x)), UC(std::log10(x))},
    {"sin", ember_sin, FLOAT, {-4, 4, -4, 4}, U(std::sin(x)), UC(std::sin(x))},
    {"cos", ember_cos, FLOAT, {-4, 4, -4, 4}, U(std::cos(x)), UC(std::cos(x))},
    {"tan", ember_tan, FLOAT, {-1.2, 1.2, -1, 1}, U(std::tan(x)), UC(std::tan(x))},
    {"asin", ember_asin, FLOAT, kUnit, U(std::asin(x)), UC(std::asin(x))},
    {"acos", ember_acos, FLOAT, kUnit, U(std::acos(x)), UC(std::acos(x))},
    {"atan", ember_atan, FLOAT, kWide, U(std::atan(x)), UC(std::atan(x))},
    {"sinh", ember_sinh, FLOAT, {-3, 3, -3, 3}, U(std::sinh(x)), UC(std::sinh(x))},
    {"cosh", ember_cosh, FLOAT, {-3, 3, -3, 3}, U(std::cosh(x)), UC(std::cosh(x))},
    {"tanh", ember_tanh, FLOAT, {-3, 3, -3, 3}, U(std::tanh(x)), UC(std::tanh(x))},
    {"asinh", ember_asinh, FLOAT, kWide, U(std::asinh(x)), UC(std::asinh(x))},
    {"acosh", ember_acosh, FLOAT, {1, 8, 1, 100}, U(std::acosh(x)), UC(std::acosh(x))},
    {"atanh", ember_atanh, FLOAT, {-0.9, 0.9, 0, 0}, U(std::atanh(x)), UC(std::atanh(x))},
    {"erf", ember_erf, REAL_FLOAT, {-3, 3, -3, 3}, U(std::erf(x)), nullptr},
    {"erfc", ember_erfc, REAL_FLOAT, {-3, 3, -3, 3}, U(std::erfc(x)), nullptr},
    {"cbrt", ember_cbrt, REAL_FLOAT, {-30, 30, -30, 30}, U(std::cbrt(x)), nullptr},
    {"floor", ember_floor, REAL, kWide, U(std::floor(x)), nullptr},
    {"ceil", ember_ceil, REAL, kWide, U(std::ceil(x)), nullptr},
    {"round", ember_round, NUMERIC, kWide, U(std::nearbyint(x)), UC(round_c(x))},
    {"trunc", ember_trunc, REAL, kWide, U(std::trunc(x)), nullptr},
    {"reciprocal", ember_reciprocal, FLOAT, {-8, 8, -8, 8, true}, U(1.0 / x), UC(1.0 / x)},
    {"isnan", ember_isnan, NUMERIC_TO_BOOL, kWide, U(0.0), UC(0.0)},
    {"isinf", ember_isinf, NUMERIC_TO_BOOL, kWide, U(0.0), UC(0.0)},
    {"isfinite", ember_isfinite, NUMERIC_TO_BOOL, kWide, U(1.0), UC(1.0)},
    {"signbit", ember_signbit, REAL_TO_BOOL, kWide, U(std::signbit(x) ? 1.0 : 0.0), nullptr},
    {"conj", ember_conj, NUMERIC, kWide, U(x), UC(std::conj(x))},
    {"logical_not", ember_logical_not, LOGICAL, {-1, 1, -1, 1, false, 0.5}, U(x == 0 ? 1.0 : 0.0), UC(x == 0.0 ? 1.0 : 0.0)},
    {"bitwise_invert", ember_bitwise_invert, INT_BOOL, {0, 0, -100, 100}, U(rd == EMBER_BOOL ? (x == 0) : -x - 1), nullptr},
    {"sigmoid", ember_sigmoid, REAL_FLOAT, kWide, U(1 / (1 + std::exp(-x))), nullptr},
    {"relu", ember_relu, REAL, kWide, U(x > 0 ? x : 0.0), nullptr},
    {"softplus", ember_softplus, REAL_FLOAT, kWide, U(std::log1p(std::exp(x))), nullptr},
    {"silu", ember_silu, REAL_FLOAT, kWide, U(x / (1 + std::exp(-x))), nullptr},
};

class UnaryOp : public ::testing::TestWithParam<UOp> {};

TEST_P(UnaryOp, AllDtypesAndLayouts) {
    const UOp& op = GetParam();
    ember_ctx_t* ctx = test_ctx();
    for (ember_dtype_t d : kAll) {
        SCOPED_TRACE(std::string(op.name) + " on " + ember_dtype_name(d));
        std::mt19937 rng(1000u + (unsigned)d);
        if (!accepts(op.rule, d) || (is_c(d) && !op.fc)) {
            T x = make_any(gen(rng, 6, d, op.dom), {2, 3}, d);
            ASSERT_TRUE(x.t);
            ember_tensor_t* sentinel = reinterpret_cast<ember_tensor_t*>(0x1);
            ember_tensor_t* o = sentinel;
            EM_FAILS(op.fn(ctx, x, &o), EMBER_ERR_UNSUPPORTED_DTYPE, fn_name(op.name));
            EXPECT_EQ(o, sentinel) << "out param written on failure";
            continue;
        }
        ember_dtype_t rd = result_of(op.rule, d);
        auto f = [&](C x) { return is_c(d) ? op.fc(x) : C(op.f(x.real(), rd)); };
        for (int k = 0; k < 3; ++k) {
            SCOPED_TRACE("layout " + std::to_string(k));
            auto base = gen(rng, (size_t)(k == 2 ? 80 : 20), d, op.dom);
            T b = make_any(base, kLayouts[k].base_shape, d);
            T x = view_of_layout(k, b);
            ASSERT_TRUE(x.t);
            int contig = -1;
            ember_tensor_is_contiguous(x, &contig);
            EXPECT_EQ(contig, k == 0 ? 1 : 0);
            T y;
            EM_OK(op.fn(ctx, x, y.out()));
            EXPECT_EQ(shape_of(y), (std::vector<int64_t>{4, 5}));
            std::vector<C> want;
            for (size_t i = 0; i < 4; ++i)
                for (size_t j = 0; j < 5; ++j) want.push_back(f(base[kLayouts[k].src(i, j)]));
            EXPECT_TRUE(matches(y, rd, want));
        }
        // 0-d and empty.
        auto one = gen(rng, 1, d, op.dom);
        T s = make_any(one, {}, d), y0;
        EM_OK(op.fn(ctx, s, y0.out()));
        EXPECT_TRUE(shape_of(y0).empty());
        EXPECT_TRUE(matches(y0, rd, {f(one[0])}));
        T e = make_any({}, {0, 3}, d), ye;
        EM_OK(op.fn(ctx, e, ye.out()));
        EXPECT_EQ(shape_of(ye), (std::vector<int64_t>{0, 3}));
        EXPECT_EQ(dtype_of(ye), rd);
    }
}
INSTANTIATE_TEST_SUITE_P(Table, UnaryOp, ::testing::ValuesIn(kUnary), [](const auto& i) { return std::string(i.param.name); });

// ---------------------------------------------------------------- binary
struct BOp {
    const char* name;
    BFn fn;
    Rule rule;
    Dom da, db;
    double (*f)(double a, double b, ember_dtype_t rd);
    C (*fc)(C a, C b);
};
#define B(expr) [](double a, double b, ember_dtype_t rd) -> double { (void)rd; return (expr); }
#define BC(expr) [](C a, C b) -> C { return (expr); }

// Next representable value in the result dtype, from the format's mantissa width.
double next_in(double a, double b, ember_dtype_t rd) {
    if (rd == EMBER_FLOAT64) return std::nextafter(a, b);
    if (rd == EMBER_FLOAT32) return std::nextafter((float)a, (float)b);
    int mant = rd == EMBER_FLOAT16 ? 10 : 7;
    if (a == b) return b;
    if (a == 0) return std::copysign(std::ldexp(1.0, (rd == EMBER_FLOAT16 ? -14 : -126) - mant), b);
    int ex;
    std::frexp(a, &ex);
    int e = ex - 1;
    bool up = (b > a) == (a > 0);
    double spacing = std::ldexp(1.0, e - mant);
    if (!up && std::fabs(a) == std::ldexp(1.0, e)) spacing /= 2;
    return a + (b > a ? spacing : -spacing);
}
double lsh(double a, double b) { return (double)(int64_t)((uint64_t)(int64_t)a << (int)b); }
const Dom kDisc{-1, 1, -2, 2, false, 0.5}, kNZ{-4, 4, -4, 4, true}, kShift{0, 0, 0, 99999};
const Dom kBits{0, 0, -100, 100}, kPowA{0.5, 3, -3, 3}, kPowB{-2, 2, 0, 4};

const BOp kBinary[] = {
    {"add", ember_add, NUMERIC, kWide, kWide, B(a + b), BC(a + b)},
    {"subtract", ember_subtract, NUMERIC, kWide, kWide, B(a - b), BC(a - b)},
    {"multiply", ember_multiply, NUMERIC, kWide, kWide, B(a * b), BC(a * b)},
    {"divide", ember_divide, FLOAT, kWide, kNZ, B(a / b), BC(a / b)},
    {"floor_divide", ember_floor_divide, REAL, kWide, kNZ, B(std::floor(a / b)), nullptr},
    {"remainder", ember_remainder, REAL, kWide, kNZ, B(a - std::floor(a / b) * b), nullptr},
    {"fmod", ember_fmod, REAL, kWide, kNZ, B(std::fmod(a, b)), nullptr},
    {"pow", ember_pow, NUMERIC, kPowA, kPowB, B(std::pow(a, b)), BC(std::pow(a, b))},
    {"maximum", ember_maximum, REAL, kWide, kWide, B(a > b ? a : b), nullptr},
    {"minimum", ember_minimum, REAL, kWide, kWide, B(a < b ? a : b), nullptr},
    {"atan2", ember_atan2, REAL_FLOAT, kWide, kWide, B(std::atan2(a, b)), nullptr},
    {"hypot", ember_hypot, REAL_FLOAT, kWide, kWide, B(std::hypot(a, b)), nullptr},
    {"copysign", ember_copysign, REAL_FLOAT, kWide, kWide, B(std::copysign(a, b)), nullptr},
    {"nextafter", ember_nextafter, REAL_FLOAT, kWide, kWide, B(next_in(a, b, rd)), nullptr},
    {"logaddexp", ember_logaddexp, REAL_FLOAT, kWide, kWide, B(std::log(std::exp(a) + std::exp(b))), nullptr},
    {"equal", ember_equal, COMPARE, kDisc, kDisc, B(a == b), BC(a == b ? 1.0 : 0.0)},
    {"not_equal", ember_not_equal, COMPARE, kDisc, kDisc, B(a != b), BC(a != b ? 1.0 : 0.0)},
    {"less", ember_less, ORDER, kDisc, kDisc, B(a < b), nullptr},
    {"less_equal", ember_less_equal, ORDER, kDisc, kDisc, B(a <= b), nullptr},
    {"greater", ember_greater, ORDER, kDisc, kDisc, B(a > b), nullptr},
    {"greater_equal", ember_greater_equal, ORDER, kDisc, kDisc, B(a >= b), nullptr},
    {"logical_and", ember_logical_and, LOGICAL, kDisc, kDisc, B(a != 0 && b != 0), BC(a != 0.0 && b != 0.0 ? 1.0 : 0.0)},
    {"logical_or", ember_logical_or, LOGICAL, kDisc, kDisc, B(a != 0 || b != 0), BC(a != 0.0 || b != 0.0 ? 1.0 : 0.0)},
    {"logical_xor", ember_logical_xor, LOGICAL, kDisc, kDisc, B((a != 0) != (b != 0)), BC((a != 0.0) != (b != 0.0) ? 1.0 : 0.0)},
    {"bitwise_and", ember_bitwise_and, INT_BOOL, kBits, kBits, B((double)((int64_t)a & (int64_t)b)), nullptr},
    {"bitwise_or", ember_bitwise_or, INT_BOOL, kBits, kBits, B((double)((int64_t)a | (int64_t)b)), nullptr},
    {"bitwise_xor", ember_bitwise_xor, INT_BOOL, kBits, kBits, B((double)((int64_t)a ^ (int64_t)b)), nullptr},
    {"bitwise_left_shift", ember_bitwise_left_shift, INT, kBits, kShift, B(lsh(a, b)), nullptr},
    {"bitwise_right_shift", ember_bitwise_right_shift, INT, kBits, kShift, B((double)((int64_t)a >> (int)b)), nullptr},
};

class BinaryOp : public ::testing::TestWithParam<BOp> {};

TEST_P(BinaryOp, AllDtypesLayoutsAndBroadcasting) {
    const BOp& op = GetParam();
    ember_ctx_t* ctx = test_ctx();
    for (ember_dtype_t d : kAll) {
        SCOPED_TRACE(std::string(op.name) + " on " + ember_dtype_name(d));
        std::mt19937 rng(2000u + (unsigned)d);
        if (!accepts(op.rule, d) || (is_c(d) && !op.fc)) {
            T a = make_any(gen(rng, 6, d, op.da), {2, 3}, d), b = make_any(gen(rng, 6, d, op.db), {2, 3}, d);
            ASSERT_TRUE(a.t && b.t);
            ember_tensor_t* sentinel = reinterpret_cast<ember_tensor_t*>(0x1);
            ember_tensor_t* o = sentinel;
            EM_FAILS(op.fn(ctx, a, b, &o), EMBER_ERR_UNSUPPORTED_DTYPE, fn_name(op.name));
            EXPECT_EQ(o, sentinel) << "out param written on failure";
            continue;
        }
        ember_dtype_t rd = result_of(op.rule, d);
        auto f = [&](C a, C b) { return is_c(d) ? op.fc(a, b) : C(op.f(a.real(), b.real(), rd)); };
        // a and b in layouts (0, 0), (1, 2), (2, 1): contiguous, transposed and sliced views.
        const int pairs[3][2] = {{0, 0}, {1, 2}, {2, 1}};
        for (auto& p : pairs) {
            SCOPED_TRACE("layouts " + std::to_string(p[0]) + "," + std::to_string(p[1]));
            auto ba = gen(rng, p[0] == 2 ? 80 : 20, d, op.da), bb = gen(rng, p[1] == 2 ? 80 : 20, d, op.db);
            T A = make_any(ba, kLayouts[p[0]].base_shape, d), Bt = make_any(bb, kLayouts[p[1]].base_shape, d);
            T a = view_of_layout(p[0], A), b = view_of_layout(p[1], Bt), y;
            ASSERT_TRUE(a.t && b.t);
            EM_OK(op.fn(ctx, a, b, y.out()));
            EXPECT_EQ(shape_of(y), (std::vector<int64_t>{4, 5}));
            std::vector<C> want;
            for (size_t i = 0; i < 4; ++i)
                for (size_t j = 0; j < 5; ++j) want.push_back(f(ba[kLayouts[p[0]].src(i, j)], bb[kLayouts[p[1]].src(i, j)]));
            EXPECT_TRUE(matches(y, rd, want));
        }
        {  // (3, 1) with (1, 4) -> (3, 4)
            auto va = gen(rng, 3, d, op.da), vb = gen(rng, 4, d, op.db);
            T a = make_any(va, {3, 1}, d), b = make_any(vb, {1, 4}, d), y;
            EM_OK(op.fn(ctx, a, b, y.out()));
            EXPECT_EQ(shape_of(y), (std::vector<int64_t>{3, 4}));
            std::vector<C> want;
            for (int i = 0; i < 3; ++i)
                for (int j = 0; j < 4; ++j) want.push_back(f(va[i], vb[j]));
            EXPECT_TRUE(matches(y, rd, want));
        }
        for (int side = 0; side < 2; ++side) {  // weak Python-like scalar on either side keeps d
            SCOPED_TRACE(side ? "scalar on the left" : "scalar on the right");
            auto vt = gen(rng, 12, d, side ? op.db : op.da);
            C sv = gen(rng, 1, is_c(d) ? EMBER_FLOAT64 : d, side ? op.da : op.db)[0];
            T t = make_any(vt, {3, 4}, d), s, y;
            EM_OK(is_b(d)   ? ember_scalar_bool(ctx, sv.real() != 0, s.out())
                  : is_i(d) ? ember_scalar_i64(ctx, (int64_t)sv.real(), s.out())
                            : ember_scalar_f64(ctx, sv.real(), s.out()));
            EM_OK(side ? op.fn(ctx, s, t, y.out()) : op.fn(ctx, t, s, y.out()));
            EXPECT_EQ(shape_of(y), (std::vector<int64_t>{3, 4}));
            std::vector<C> want;
            for (auto& v : vt) want.push_back(side ? f(sv, v) : f(v, sv));
            EXPECT_TRUE(matches(y, rd, want));
        }
        {  // 0-d with 0-d, and an empty (0, 3) with (3,)
            auto va = gen(rng, 1, d, op.da), vb = gen(rng, 4, d, op.db);
            T a = make_any(va, {}, d), b = make_any(vb, {}, d), y;
            EM_OK(op.fn(ctx, a, b, y.out()));
            EXPECT_TRUE(shape_of(y).empty());
            EXPECT_TRUE(matches(y, rd, {f(va[0], vb[0])}));
            T e = make_any({}, {0, 3}, d), r = make_any(gen(rng, 3, d, op.db), {3}, d), ye;
            EM_OK(op.fn(ctx, e, r, ye.out()));
            EXPECT_EQ(shape_of(ye), (std::vector<int64_t>{0, 3}));
            EXPECT_EQ(dtype_of(ye), rd);
        }
    }
}
INSTANTIATE_TEST_SUITE_P(Table, BinaryOp, ::testing::ValuesIn(kBinary), [](const auto& i) { return std::string(i.param.name); });

// ---------------------------------------------------------------- promotion
struct Promo {
    ember_dtype_t a, b, want;
};
TEST(ElementwisePromotion, StrongOperandsFollowTheArrayApi) {
    const Promo cases[] = {
        {EMBER_INT8, EMBER_UINT8, EMBER_INT16},     {EMBER_INT16, EMBER_UINT16, EMBER_INT32},
        {EMBER_INT32, EMBER_UINT32, EMBER_INT64},   {EMBER_UINT32, EMBER_INT8, EMBER_INT64},
        {EMBER_UINT8, EMBER_UINT16, EMBER_UINT16},  {EMBER_INT32, EMBER_INT64, EMBER_INT64},
        {EMBER_BOOL, EMBER_INT8, EMBER_INT8},       {EMBER_UINT64, EMBER_BOOL, EMBER_UINT64},
        {EMBER_INT32, EMBER_FLOAT32, EMBER_FLOAT32}, {EMBER_INT64, EMBER_FLOAT16, EMBER_FLOAT16},
        {EMBER_FLOAT16, EMBER_BFLOAT16, EMBER_FLOAT32}, {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_FLOAT64},
        {EMBER_FLOAT32, EMBER_COMPLEX64, EMBER_COMPLEX64}, {EMBER_FLOAT64, EMBER_COMPLEX64, EMBER_COMPLEX128},
        {EMBER_FLOAT16, EMBER_COMPLEX64, EMBER_COMPLEX64}, {EMBER_BOOL, EMBER_COMPLEX128, EMBER_COMPLEX128},
    };
    for (auto& c : cases) {
        for (int swap = 0; swap < 2; ++swap) {
            ember_dtype_t da = swap ? c.b : c.a, db = swap ? c.a : c.b;
            SCOPED_TRACE(std::string(ember_dtype_name(da)) + " + " + ember_dtype_name(db));
            // 100 and 1 (or true): the sum must be computed in the promoted dtype.
            T a = make(std::vector<double>{da == EMBER_BOOL ? 1.0 : 100.0}, {1}, da);
            T b = make(std::vector<double>{db == EMBER_BOOL ? 1.0 : 100.0}, {1}, db), y;
            EM_OK(ember_add(test_ctx(), a, b, y.out()));
            EXPECT_EQ(dtype_of(y), c.want);
            double want = (da == EMBER_BOOL ? 1 : 100) + (db == EMBER_BOOL ? 1 : 100);
            EXPECT_TRUE(all_close(values(y), {want}, 1e-12));
        }
    }
    // int8 100 + uint8 200 = 300 in int16 (no wrap before promotion).
    T a = make(std::vector<double>{100}, {1}, EMBER_INT8), b = make(std::vector<double>{200}, {1}, EMBER_UINT8), y;
    EM_OK(ember_add(test_ctx(), a, b, y.out()));
    EXPECT_EQ(dtype_of(y), EMBER_INT16);
    EXPECT_EQ(values(y), std::vector<double>{300});
    // int64 with uint64 has no common dtype.
    T i64 = make(std::vector<double>{1}, {1}, EMBER_INT64), u64 = make(std::vector<double>{1}, {1}, EMBER_UINT64);
    ember_tensor_t* o = nullptr;
    EM_FAILS(ember_add(test_ctx(), i64, u64, &o), EMBER_ERR_UNSUPPORTED_DTYPE, "ember_add");
    EXPECT_EQ(o, nullptr);
}

TEST(ElementwisePromotion, WeakScalarsAndRuleResults) {
    ember_ctx_t* ctx = test_ctx();
    struct W {
        ember_dtype_t tensor;
        int kind;  // 0 f64, 1 i64, 2 bool, 3 c128
        ember_dtype_t want;
    };
    const W cases[] = {
        {EMBER_FLOAT16, 0, EMBER_FLOAT16}, {EMBER_BFLOAT16, 0, EMBER_BFLOAT16}, {EMBER_INT8, 1, EMBER_INT8},
        {EMBER_UINT16, 1, EMBER_UINT16},   {EMBER_INT8, 0, EMBER_FLOAT32},     {EMBER_BOOL, 1, EMBER_INT64},
        {EMBER_BOOL, 0, EMBER_FLOAT32},    {EMBER_FLOAT32, 3, EMBER_COMPLEX64}, {EMBER_FLOAT64, 3, EMBER_COMPLEX128},
        {EMBER_INT32, 3, EMBER_COMPLEX64}, {EMBER_COMPLEX64, 0, EMBER_COMPLEX64}, {EMBER_INT8, 2, EMBER_INT8},
    };
    for (auto& c : cases) {
        SCOPED_TRACE(std::string(ember_dtype_name(c.tensor)) + " with scalar kind " + std::to_string(c.kind));
        T x = make(std::vector<double>{1, 0}, {2}, c.tensor), s, y;
        EM_OK(c.kind == 0 ? ember_scalar_f64(ctx, 0.5, s.out()) : c.kind == 1 ? ember_scalar_i64(ctx, 3, s.out())
              : c.kind == 2 ? ember_scalar_bool(ctx, 1, s.out()) : ember_scalar_c128(ctx, 0.5, 2, s.out()));
        int weak = 0;
        ember_tensor_is_weak(s, &weak);
        EXPECT_EQ(weak, 1);
        EM_OK(ember_multiply(ctx, x, s, y.out()));
        EXPECT_EQ(dtype_of(y), c.want);
        double sv = c.kind == 0 ? 0.5 : c.kind == 1 ? 3 : 1;
        if (c.kind == 3) EXPECT_EQ(values_c(y), (std::vector<C>{C(0.5, 2), C(0, 0)}));
        else EXPECT_EQ(values(y), (std::vector<double>{sv, 0}));
    }
    // Two weak scalars: strong promotion, result stays weak.
    T f, i, y;
    EM_OK(ember_scalar_f64(ctx, 1.5, f.out()));
    EM_OK(ember_scalar_i64(ctx, 2, i.out()));
    EM_OK(ember_add(ctx, f, i, y.out()));
    EXPECT_EQ(dtype_of(y), EMBER_FLOAT64);
    EXPECT_EQ(values(y), std::vector<double>{3.5});
    // Per-op result dtypes; a context whose default float is float64 changes int / int.
    T i8 = make(std::vector<double>{7, -3}, {2}, EMBER_INT8), i8b = make(std::vector<double>{2, 4}, {2}, EMBER_INT8);
    T z = make_any({C(3, 4), C(-5, 12)}, {2}, EMBER_COMPLEX64), bl = make(std::vector<double>{1, 0}, {2}, EMBER_BOOL);
    const char* backend = nullptr;
    int dev = 0;
    ember_ctx_t* c64 = nullptr;
    EM_OK(ember_ctx_get_backend(ctx, &backend, &dev));
    EM_OK(ember_ctx_create_on(backend, dev, &c64));
    EM_OK(ember_ctx_set_default_float(c64, EMBER_FLOAT64));
    T q[5];
    const ember_status_t st[5] = {ember_divide(ctx, i8, i8b, q[0].out()), ember_less(ctx, i8, i8b, q[1].out()), ember_abs(ctx, z, q[2].out()),
                                  ember_sqrt(ctx, bl, q[3].out()) /* bool computes in the default float */,
                                  ember_divide(c64, i8, i8b, q[4].out())};
    ember_ctx_release(c64);
    const std::pair<ember_dtype_t, std::vector<double>> want[5] = {
        {EMBER_FLOAT32, {3.5, -0.75}}, {EMBER_BOOL, {0, 1}}, {EMBER_FLOAT32, {5, 13}}, {EMBER_FLOAT32, {1, 0}}, {EMBER_FLOAT64, {3.5, -0.75}}};
    for (int k = 0; k < 5; ++k) {
        EXPECT_EQ(st[k], EMBER_OK) << "case " << k;
        EXPECT_EQ(dtype_of(q[k]), want[k].first) << "case " << k;
        EXPECT_TRUE(all_close(values(q[k]), want[k].second, 1e-6)) << "case " << k;
    }
}

// ---------------------------------------------------------------- errors
// NumPy 2: an integer scalar out of the range of the dtype it meets raises OverflowError,
// except in comparisons, which are exact.
TEST(ElementwisePromotion, IntegerScalarsOutOfRangeFailOrCompareExactly) {
    ember_ctx_t* ctx = test_ctx();
    auto scalar = [&](int64_t v) -> T {
        T s;
        EXPECT_EQ(ember_scalar_i64(ctx, v, s.out()), EMBER_OK);
        return s;
    };
    T u8 = make(std::vector<double>{0, 255}, {2}, EMBER_UINT8), below = scalar(-1), above = scalar(300);
    using Fn = ember_status_t (*)(ember_ctx_t*, const ember_tensor_t*, const ember_tensor_t*, ember_tensor_t**);
    struct Case {
        Fn fn;
        const char* name;
        bool scalar_first, is_above;
        double want;
    };
    const Case cases[] = {
        {ember_equal, "equal", false, false, 0},        {ember_not_equal, "not_equal", false, false, 1},
        {ember_less, "less", false, false, 0},          {ember_greater, "greater", false, false, 1},
        {ember_less, "less", true, false, 1},           {ember_greater_equal, "greater_equal", true, false, 0},
        {ember_less_equal, "less_equal", false, true, 1}, {ember_greater_equal, "greater_equal", false, true, 0},
        {ember_equal, "equal", true, true, 0},          {ember_greater, "greater", true, true, 1},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(std::string(c.name) + (c.scalar_first ? " scalar first" : " tensor first") + (c.is_above ? ", 300" : ", -1"));
        const T& s = c.is_above ? above : below;
        T r;
        EM_OK(c.scalar_first ? c.fn(ctx, s, u8, r.out()) : c.fn(ctx, u8, s, r.out()));
        EXPECT_EQ(dtype_of(r), EMBER_BOOL);
        EXPECT_EQ(values(r), (std::vector<double>{c.want, c.want}));
    }
    T u64 = make(std::vector<double>{0, 1e19}, {2}, EMBER_UINT64), r64;  // 1e19 > INT64_MAX
    EM_OK(ember_greater(ctx, u64, below, r64.out()));
    EXPECT_EQ(values(r64), (std::vector<double>{1, 1}));
    EM_OK(ember_equal(ctx, below, u64, r64.out()));
    EXPECT_EQ(values(r64), (std::vector<double>{0, 0}));
    // Arithmetic refuses instead of computing with the wrapped number.
    ember_tensor_t* sentinel = reinterpret_cast<ember_tensor_t*>(0x2);
    ember_tensor_t* o = sentinel;
    T i8 = make(std::vector<double>{5}, {1}, EMBER_INT8), i64 = make(std::vector<double>{5}, {1}, EMBER_INT64);
    EM_FAILS(ember_add(ctx, i8, scalar(128), &o), EMBER_ERR_OVERFLOW, "ember_add");
    EXPECT_NE(std::string(ember_last_error()).find("128 is out of range for int8"), std::string::npos) << ember_last_error();
    EM_FAILS(ember_subtract(ctx, scalar(-129), i8, &o), EMBER_ERR_OVERFLOW, "ember_subtract");
    EM_FAILS(ember_multiply(ctx, u8, below, &o), EMBER_ERR_OVERFLOW, "ember_multiply");
    EM_FAILS(ember_maximum(ctx, u8, below, &o), EMBER_ERR_OVERFLOW, "ember_maximum");
    EXPECT_EQ(o, sentinel);
    T fits, sum64, quotient;
    EM_OK(ember_add(ctx, i8, scalar(-128), fits.out()));
    EXPECT_EQ(values(fits), std::vector<double>{-123});
    EM_OK(ember_add(ctx, i64, scalar(INT64_MIN + 10), sum64.out()));
    EM_OK(ember_divide(ctx, u8, above, quotient.out()));  // computes in float: 300 is exact there
    EXPECT_EQ(dtype_of(quotient), EMBER_FLOAT32);
    T out = make(std::vector<double>{7, 7}, {2}, EMBER_UINT8);
    const ember_tensor_t* pair[2] = {u8, above};
    EM_FAILS(ember_elementwise_into(ctx, "add", pair, 2, out), EMBER_ERR_OVERFLOW, "ember_elementwise_into");
    EXPECT_EQ(values(out), (std::vector<double>{7, 7}));
    // clip: a bound beyond the dtype on the side no element reaches is no bound.
    T x = make(std::vector<double>{0, 100, 255}, {3}, EMBER_UINT8), c1, c2;
    EM_OK(ember_clip(ctx, x, below, scalar(10), c1.out()));
    EXPECT_EQ(values(c1), (std::vector<double>{0, 10, 10}));
    EM_OK(ember_clip(ctx, x, scalar(-5), above, c2.out()));
    EXPECT_EQ(values(c2), (std::vector<double>{0, 100, 255}));
    EM_FAILS(ember_clip(ctx, x, above, nullptr, &o), EMBER_ERR_OVERFLOW, "ember_clip");
    EM_FAILS(ember_clip(ctx, x, nullptr, below, &o), EMBER_ERR_OVERFLOW, "ember_clip");
    // Assignment (Python's x[0] = 300, full(..., 300, dtype=uint8)).
    EM_FAILS(ember_assign(ctx, out, scalar(256)), EMBER_ERR_OVERFLOW, "ember_assign");
    EXPECT_EQ(values(out), (std::vector<double>{7, 7}));
    EM_OK(ember_assign(ctx, out, scalar(255)));
    EXPECT_EQ(values(out), (std::vector<double>{255, 255}));
    T flags = make(std::vector<double>{0, 0}, {2}, EMBER_BOOL);
    EM_OK(ember_assign(ctx, flags, above));
    EXPECT_EQ(values(flags), (std::vector<double>{1, 1}));
    // A complex scalar into a real tensor would lose its imaginary part: NumPy's TypeError.
    T z, reals = make(std::vector<double>{1, 2}, {2}, EMBER_FLOAT64);
    EM_OK(ember_scalar_c128(ctx, 1, 2, z.out()));
    EM_FAILS(ember_assign(ctx, reals, z), EMBER_ERR_UNSUPPORTED_DTYPE, "ember_assign");
    EXPECT_EQ(values(reals), (std::vector<double>{1, 2}));
}

TEST(ElementwiseErrors, ShapeDtypeAndNullHandles) {
    ember_ctx_t* ctx = test_ctx();
    ember_tensor_t* sentinel = reinterpret_cast<ember_tensor_t*>(0x2);
    ember_tensor_t* o = sentinel;
    T a = make(std::vector<double>{1, 2, 3, 4, 5, 6}, {2, 3}, EMBER_FLOAT32), b = make(std::vector<double>{1, 2, 3, 4}, {4}, EMBER_FLOAT32);
    EM_FAILS(ember_add(ctx, a, b, &o), EMBER_ERR_SHAPE, "ember_add");
    EXPECT_NE(std::string(ember_last_error()).find("shapes (2, 3) and (4,) cannot be broadcast"), std::string::npos) << ember_last_error();
    EXPECT_EQ(o, sentinel);
    // The third operand is checked against the shape broadcast from the first two.
    T cond = make(std::vector<double>{1, 0, 1}, {3}, EMBER_BOOL), col = make(std::vector<double>{1, 2}, {2, 1, 1}, EMBER_FLOAT32);
    EM_FAILS(ember_where(ctx, cond, col, b, &o), EMBER_ERR_SHAPE, "ember_where");
    EXPECT_NE(std::string(ember_last_error()).find("shapes (2, 1, 3) and (4,) cannot be broadcast"), std::string::npos) << ember_last_error();
    EXPECT_EQ(o, sentinel);
    EM_FAILS(ember_bitwise_and(ctx, a, a, &o), EMBER_ERR_UNSUPPORTED_DTYPE, "ember_bitwise_and");
    EXPECT_EQ(o, sentinel);
    T bl = make(std::vector<double>{1, 0}, {2}, EMBER_BOOL);
    EM_FAILS(ember_negative(ctx, bl, &o), EMBER_ERR_UNSUPPORTED_DTYPE, "ember_negative");
    EXPECT_EQ(o, sentinel);
    EM_FAILS(ember_add(ctx, nullptr, a, &o), EMBER_ERR_INVALID_ARGUMENT, "ember_add");
    EM_FAILS(ember_add(ctx, a, nullptr, &o), EMBER_ERR_INVALID_ARGUMENT, "ember_add");
    EM_FAILS(ember_exp(ctx, nullptr, &o), EMBER_ERR_INVALID_ARGUMENT, "ember_exp");
    EM_FAILS(ember_exp(nullptr, a, &o), EMBER_ERR_INVALID_ARGUMENT, "ember_exp");
    EM_FAILS(ember_exp(ctx, a, nullptr), EMBER_ERR_INVALID_ARGUMENT, "ember_exp");
    EXPECT_EQ(o, sentinel);
    EXPECT_EQ(ember_last_status(), EMBER_ERR_INVALID_ARGUMENT);
}

TEST(ElementwiseBroadcast, ThreeOperandsOfDifferentRanks) {
    // cond (4,), a (2, 1, 1), b (3, 1) -> (2, 3, 4): out[i][j][k] = cond[k] ? a[i] : b[j].
    T cond = make(std::vector<double>{1, 0, 0, 1}, {4}, EMBER_BOOL), a = make(std::vector<double>{10, 20}, {2, 1, 1}, EMBER_FLOAT32),
      b = make(std::vector<double>{1, 2, 3}, {3, 1}, EMBER_FLOAT32), y;
    EM_OK(ember_where(test_ctx(), cond, a, b, y.out()));
    EXPECT_EQ(shape_of(y), (std::vector<int64_t>{2, 3, 4}));
    std::vector<double> want;
    for (double ai : {10, 20})
        for (double bj : {1, 2, 3})
            for (bool ck : {true, false, false, true}) want.push_back(ck ? ai : bj);
    EXPECT_EQ(values(y), want);
    // A 0-d operand between two others keeps the larger rank.
    T s = make(std::vector<double>{5}, {}, EMBER_FLOAT32);
    EM_OK(ember_where(test_ctx(), cond, s, b, y.out()));
    EXPECT_EQ(shape_of(y), (std::vector<int64_t>{3, 4}));
}

// ---------------------------------------------------------------- result layout
// ember.h: a result keeps the layout its full-shape operands share when they are dense (a
// permutation of C order), as NumPy's order='K' does; otherwise it is in C order.
TEST(ElementwiseLayout, ResultsKeepTheLayoutTheirOperandsShare) {
    using I = std::vector<int64_t>;
    ember_ctx_t* ctx = test_ctx();
    std::vector<double> v(12);
    for (int i = 0; i < 12; ++i) v[i] = i - 5;
    T a = make(v, {3, 4}, EMBER_FLOAT32), at, y;
    EM_OK(ember_transpose(ctx, a, at.out()));  // (4, 3), strides (1, 4)
    std::vector<double> vt;  // at's values in C order
    for (int j = 0; j < 4; ++j)
        for (int i = 0; i < 3; ++i) vt.push_back(v[i * 4 + j]);
    auto scaled = [&](double k, double add) {
        std::vector<double> r;
        for (double x : vt) r.push_back(k * x + add);
        return r;
    };

    EM_OK(ember_negative(ctx, at, y.out()));
    EXPECT_EQ(strides_of(y), (I{1, 4}));
    EXPECT_EQ(values(y), scaled(-1, 0));
    EM_OK(ember_add(ctx, at, at, y.out()));
    EXPECT_EQ(strides_of(y), (I{1, 4}));
    EXPECT_EQ(values(y), scaled(2, 0));
    T row = make(std::vector<double>{10, 20, 30}, {3}, EMBER_FLOAT32), one;  // broadcast along axis 0
    EM_OK(ember_add(ctx, at, row, y.out()));
    EXPECT_EQ(strides_of(y), (I{1, 4}));
    std::vector<double> want = vt;
    for (size_t k = 0; k < want.size(); ++k) want[k] += 10.0 * (double)(k % 3 + 1);
    EXPECT_EQ(values(y), want);
    EM_OK(ember_scalar_f64(ctx, 1.0, one.out()));
    EM_OK(ember_multiply(ctx, one, at, y.out()));
    EXPECT_EQ(strides_of(y), (I{1, 4}));
    EXPECT_EQ(values(y), scaled(1, 0));
    T cond, w;
    EM_OK(ember_greater(ctx, at, one, cond.out()));
    EXPECT_EQ(strides_of(cond), (I{1, 4}));
    EM_OK(ember_where(ctx, cond, at, one, w.out()));
    EXPECT_EQ(strides_of(w), (I{1, 4}));
    std::vector<double> clipped;
    for (double x : vt) clipped.push_back(x > 1 ? x : 1);
    EXPECT_EQ(values(w), clipped);
    EM_OK(ember_clip(ctx, at, one, nullptr, w.out()));
    EXPECT_EQ(strides_of(w), (I{1, 4}));
    EXPECT_EQ(values(w), clipped);
    EM_OK(ember_leaky_relu(ctx, at, 0.5, w.out()));
    EXPECT_EQ(strides_of(w), (I{1, 4}));
    std::vector<double> leaky;
    for (double x : vt) leaky.push_back(x > 0 ? x : 0.5 * x);
    EXPECT_EQ(values(w), leaky);
    EM_OK(ember_gelu(ctx, at, 0, w.out()));
    EXPECT_EQ(strides_of(w), (I{1, 4}));
    const std::vector<double> g = values(w);
    for (size_t k = 0; k < vt.size(); ++k) EXPECT_NEAR(g[k], vt[k] * 0.5 * std::erfc(-vt[k] / std::sqrt(2.0)), 1e-5) << k;

    // A cast keeps the layout (astype and the cast of an int operand), as the *_like
    // creators do; copy is in C order.
    T ai = make(v, {3, 4}, EMBER_INT32), ait, half;
    EM_OK(ember_transpose(ctx, ai, ait.out()));
    EM_OK(ember_astype(ctx, ait, EMBER_FLOAT64, y.out()));
    EXPECT_EQ(strides_of(y), (I{1, 4}));
    EXPECT_EQ(values(y), scaled(1, 0));
    EM_OK(ember_scalar_f64(ctx, 0.5, half.out()));
    EM_OK(ember_add(ctx, ait, half, y.out()));
    EXPECT_EQ(dtype_of(y), EMBER_FLOAT32);
    EXPECT_EQ(strides_of(y), (I{1, 4}));
    EXPECT_EQ(values(y), scaled(1, 0.5));
    EM_OK(ember_copy(ctx, at, y.out()));
    EXPECT_EQ(strides_of(y), (I{3, 1}));
    EXPECT_EQ(values(y), scaled(1, 0));
    EM_OK(ember_full_like(ctx, at, 2.5, EMBER_DTYPE_DEFAULT, y.out()));
    EXPECT_EQ(strides_of(y), (I{1, 4}));
    EXPECT_EQ(values(y), std::vector<double>(12, 2.5));
    EM_OK(ember_zeros_like(ctx, at, EMBER_INT8, y.out()));
    EXPECT_EQ(strides_of(y), (I{1, 4}));
    EXPECT_EQ(values(y), std::vector<double>(12, 0));

    // Operands that disagree, or one that is not dense: C order.
    T atc, stepped;
    EM_OK(ember_copy(ctx, at, atc.out()));
    EM_OK(ember_add(ctx, at, atc, y.out()));
    EXPECT_EQ(strides_of(y), (I{3, 1}));
    EXPECT_EQ(values(y), scaled(2, 0));
    const int64_t s0[2] = {0, 0}, e0[2] = {3, END}, st[2] = {1, 2};
    EM_OK(ember_slice(ctx, a, s0, e0, st, 2, stepped.out()));  // (3, 2), strides (4, 2)
    T steppedt;
    EM_OK(ember_transpose(ctx, stepped, steppedt.out()));
    EM_OK(ember_negative(ctx, steppedt, y.out()));
    EXPECT_EQ(strides_of(y), (I{3, 1}));
    EXPECT_EQ(values(y), (std::vector<double>{5, 1, -3, 3, -1, -5}));

    // Three axes permuted, and an axis of extent 1 (outermost in the result's memory).
    std::vector<double> v3(24);
    for (int i = 0; i < 24; ++i) v3[i] = i;
    T b = make(v3, {2, 3, 4}, EMBER_FLOAT64), bp, u, up;
    const int64_t perm[3] = {2, 0, 1}, flip[3] = {2, 1, 0}, shape314[3] = {3, 1, 4};
    EM_OK(ember_permute_dims(ctx, b, perm, 3, bp.out()));  // (4, 2, 3), strides (1, 12, 4)
    EM_OK(ember_negative(ctx, bp, y.out()));
    EXPECT_EQ(strides_of(y), (I{1, 12, 4}));
    std::vector<double> want3;
    for (int k = 0; k < 4; ++k)
        for (int i = 0; i < 2; ++i)
            for (int j = 0; j < 3; ++j) want3.push_back(-(double)(i * 12 + j * 4 + k));
    EXPECT_EQ(values(y), want3);
    EM_OK(ember_reshape(ctx, a, shape314, 3, u.out()));
    EM_OK(ember_permute_dims(ctx, u, flip, 3, up.out()));  // (4, 1, 3)
    EM_OK(ember_negative(ctx, up, y.out()));
    EXPECT_EQ(strides_of(y)[0], 1);
    EXPECT_EQ(strides_of(y)[2], 4);
    EXPECT_EQ(values(y), scaled(-1, 0));
}

// Large enough for the cpu backend's threads and vector loops: a result kept transposed, and a
// transposed out view written from C-order inputs, against the values computed here.
TEST(ElementwiseLayout, LargeTransposedResultsAndOutViews) {
    ember_ctx_t* ctx = test_ctx();
    const int64_t m = 513, n = 700;
    std::vector<double> v((size_t)(m * n));
    for (size_t i = 0; i < v.size(); ++i) v[i] = (double)((i * 7919) % 1000) / 64 - 7;
    T a = make(v, {m, n}, EMBER_FLOAT32), at, y, sum;
    EM_OK(ember_transpose(ctx, a, at.out()));
    EM_OK(ember_negative(ctx, at, y.out()));
    EXPECT_EQ(strides_of(y), (std::vector<int64_t>{1, n}));
    EM_OK(ember_add(ctx, at, y, sum.out()));
    EXPECT_EQ(strides_of(sum), (std::vector<int64_t>{1, n}));
    const std::vector<double> got = values(y), zeros = values(sum);
    size_t bad = 0;
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < m; ++i) {
            bad += got[(size_t)(j * m + i)] != -v[(size_t)(i * n + j)];
            bad += zeros[(size_t)(j * m + i)] != 0;
        }
    EXPECT_EQ(bad, 0u);
    // out is the transpose of a C-order (n, m) buffer; the inputs are in C order.
    const int64_t shape_nm[2] = {n, m};
    T buf, out;
    EM_OK(ember_full(ctx, shape_nm, 2, 0, EMBER_FLOAT32, buf.out()));
    EM_OK(ember_transpose(ctx, buf, out.out()));
    const ember_tensor_t* xs[1] = {a};
    EM_OK(ember_elementwise_into(ctx, "negative", xs, 1, out));
    const std::vector<double> into = values(out);
    bad = 0;
    for (size_t k = 0; k < v.size(); ++k) bad += into[k] != -v[k];
    EXPECT_EQ(bad, 0u);
    // The same into a float64 out: through a temporary laid out as out, then converted.
    T buf64, out64;
    EM_OK(ember_full(ctx, shape_nm, 2, 0, EMBER_FLOAT64, buf64.out()));
    EM_OK(ember_transpose(ctx, buf64, out64.out()));
    EM_OK(ember_elementwise_into(ctx, "negative", xs, 1, out64));
    EXPECT_EQ(values(out64), into);
}

// ---------------------------------------------------------------- ember_elementwise_into
ember_status_t into(const char* op, std::vector<const ember_tensor_t*> in, ember_tensor_t* out) {
    return ember_elementwise_into(test_ctx(), op, in.data(), (int)in.size(), out);
}

TEST(ElementwiseInto, OverlappingViewsReadTheOriginalValues) {
    // out = x[1:], inputs x[:-1] and x[1:]: a kernel streaming in place would read
    // elements it has already overwritten; NumPy's answer uses the original values.
    T x = make(std::vector<double>{1, 2, 3, 4, 5}, {5}, EMBER_FLOAT32), head, tail;
    const int64_t s0[1] = {0}, s1[1] = {1}, e0[1] = {4}, e1[1] = {5}, step[1] = {1};
    EM_OK(ember_slice(test_ctx(), x, s0, e0, step, 1, head.out()));
    EM_OK(ember_slice(test_ctx(), x, s1, e1, step, 1, tail.out()));
    EM_OK(into("add", {head, tail}, tail));
    EXPECT_EQ(values(x), (std::vector<double>{1, 3, 5, 7, 9}));
    // a (3, 3) += a.T: every element reads another one of out.
    T a = make(std::vector<double>{0, 1, 2, 3, 4, 5, 6, 7, 8}, {3, 3}, EMBER_FLOAT64), at;
    EM_OK(ember_transpose(test_ctx(), a, at.out()));
    EM_OK(into("add", {a, at}, a));
    EXPECT_EQ(values(a), (std::vector<double>{0, 4, 8, 4, 8, 12, 8, 12, 16}));
}

TEST(ElementwiseInto, OutKeepsItsDtypeAndIdentity) {
    T i = make(std::vector<double>{1, 2, 3}, {3}, EMBER_INT32), f = make(std::vector<double>{0.5, 1.5, -4.25}, {3}, EMBER_FLOAT32);
    ember_tensor_t* before = i;
    EM_OK(into("add", {i, f}, i));  // float32 result converted into int32 as ember_assign does
    EXPECT_EQ(static_cast<ember_tensor_t*>(i), before);
    EXPECT_EQ(dtype_of(i), EMBER_INT32);
    EXPECT_EQ(values(i), (std::vector<double>{1, 3, -1}));
    // A unary composite (positive is +x) and a broadcast scalar into a strided out.
    T big = make(std::vector<double>{0, 0, 0, 0, 0, 0}, {6}, EMBER_FLOAT64), every2, y;
    const int64_t b0[1] = {0}, b1[1] = {6}, st2[1] = {2};
    EM_OK(ember_slice(test_ctx(), big, b0, b1, st2, 1, every2.out()));
    T three = make(std::vector<double>{3}, {}, EMBER_FLOAT64);
    EM_OK(into("multiply", {f, three}, every2));
    EXPECT_EQ(values(big), (std::vector<double>{1.5, 0, 4.5, 0, -12.75, 0}));
    EM_OK(into("positive", {f}, every2));
    EXPECT_EQ(values(big), (std::vector<double>{0.5, 0, 1.5, 0, -4.25, 0}));
}

TEST(ElementwiseInto, BadCallsFailAndLeaveOutAlone) {
    T a = make(std::vector<double>{1, 2, 3}, {3}, EMBER_FLOAT32), out = make(std::vector<double>{7, 7}, {2}, EMBER_FLOAT32);
    const ember_tensor_t* one[1] = {a};
    EM_FAILS(into("add", {a, a}, out), EMBER_ERR_SHAPE, "ember_elementwise_into");
    EXPECT_NE(std::string(ember_last_error()).find("out has shape (2,), the result of add has shape (3,)"), std::string::npos) << ember_last_error();
    EM_FAILS(into("no_such_op", {a}, out), EMBER_ERR_INVALID_ARGUMENT, "ember_elementwise_into");
    EM_FAILS(into("sum", {a}, out), EMBER_ERR_INVALID_ARGUMENT, "ember_elementwise_into");
    EM_FAILS(into("matmul", {a, a}, out), EMBER_ERR_INVALID_ARGUMENT, "ember_elementwise_into");
    EM_FAILS(into("add", {a}, out), EMBER_ERR_INVALID_ARGUMENT, "ember_elementwise_into");
    EM_FAILS(into("add", {a, nullptr}, out), EMBER_ERR_INVALID_ARGUMENT, "ember_elementwise_into");
    EM_FAILS(into("add", {a, a}, nullptr), EMBER_ERR_INVALID_ARGUMENT, "ember_elementwise_into");
    EM_FAILS(ember_elementwise_into(test_ctx(), nullptr, one, 1, out), EMBER_ERR_INVALID_ARGUMENT, "ember_elementwise_into");
    EM_FAILS(ember_elementwise_into(test_ctx(), "exp", nullptr, 1, out), EMBER_ERR_INVALID_ARGUMENT, "ember_elementwise_into");
    EM_FAILS(ember_elementwise_into(nullptr, "exp", one, 1, out), EMBER_ERR_INVALID_ARGUMENT, "ember_elementwise_into");
    EXPECT_EQ(values(out), (std::vector<double>{7, 7}));
    T wide;  // a stride-0 view: all of its elements along axis 0 are one memory location
    const int64_t shape23[2] = {2, 3};
    EM_OK(ember_broadcast_to(test_ctx(), a, shape23, 2, wide.out()));
    T m = make(std::vector<double>{1, 2, 3, 4, 5, 6}, {2, 3}, EMBER_FLOAT32);
    EM_FAILS(into("add", {m, m}, wide), EMBER_ERR_INVALID_ARGUMENT, "ember_elementwise_into");
    EXPECT_NE(std::string(ember_last_error()).find("broadcast view"), std::string::npos) << ember_last_error();
    EXPECT_EQ(values(a), (std::vector<double>{1, 2, 3}));
}

TEST(ElementwiseRegression, ComplexToBoolUsesBothParts) {
    // docs/dtypes.md: "Anything -> bool is != 0"; NumPy: logical_not(0.5j) is False.
    T z = make_any({C(0, 0.5), C(0, 0), C(2, 0)}, {3}, EMBER_COMPLEX64), y;
    EM_OK(ember_logical_not(test_ctx(), z, y.out()));
    EXPECT_EQ(values(y), (std::vector<double>{0, 1, 0}));
    EM_OK(ember_logical_or(test_ctx(), z, z, y.out()));
    EXPECT_EQ(values(y), (std::vector<double>{1, 0, 1}));
    EM_OK(ember_astype(test_ctx(), z, EMBER_BOOL, y.out()));
    EXPECT_EQ(values(y), (std::vector<double>{1, 0, 1}));
}

// Complex x ** n with an integral real exponent |n| < 100 is repeated products (as NumPy):
// exact for Gaussian integers, where cpow's exp(n log x) was not ((1+1j) ** 2 gave
// 1.2e-16 + 2j); x ** 0 is 1 even for NaN; negative n is 1 / x ** |n|; other exponents cpow.
TEST(ElementwiseRegression, ComplexIntegerPowersAreProducts) {
    for (ember_dtype_t d : {EMBER_COMPLEX64, EMBER_COMPLEX128}) {
        T x = make_any({C(1, 1), C(1, 2), C(-3, 0.5), C(NAN, 1)}, {4}, d), y;
        struct {
            double n;
            std::vector<C> want;  // NaN entries: NaN in both parts
        } cases[] = {{2, {C(0, 2), C(-3, 4), C(8.75, -3), C(NAN, NAN)}},
                     {5, {C(-4, -4), C(41, -38), C(-176.4375, 191.28125), C(NAN, NAN)}},
                     {0, {C(1, 0), C(1, 0), C(1, 0), C(1, 0)}}};
        for (auto& cs : cases) {
            T e;
            EM_OK(ember_scalar_c128(test_ctx(), cs.n, 0, e.out()));
            EM_OK(ember_pow(test_ctx(), x, e, y.out()));
            auto got = values_c(y);
            ASSERT_EQ(got.size(), 4u);
            for (size_t i = 0; i < 4; ++i) {
                if (std::isnan(cs.want[i].real())) {
                    EXPECT_TRUE(std::isnan(got[i].real()) || std::isnan(got[i].imag())) << "x ** " << cs.n << " at " << i;
                    continue;
                }
                EXPECT_EQ(got[i], cs.want[i]) << ember_dtype_name(d) << " x ** " << cs.n << " at " << i;
            }
        }
        T e, inv;
        EM_OK(ember_scalar_c128(test_ctx(), -2, 0, e.out()));
        EM_OK(ember_pow(test_ctx(), x, e, y.out()));
        auto got = values_c(y);
        EXPECT_NEAR(got[1].real(), -0.12, 1e-6);  // 1 / (-3 + 4j) = (-3 - 4j) / 25
        EXPECT_NEAR(got[1].imag(), -0.16, 1e-6);
    }
}

// float64 and wide integers to float16/bfloat16 round once, to nearest even (as NumPy's
// astype does): through the nearest float32 they rounded twice, and a value just above a
// half-way point of the half type, or a float32 tie made of a value below it, went the
// wrong way. Expected bits worked out by hand.
TEST(ElementwiseRegression, HalfTypesFromFloat64RoundOnce) {
    const double u16 = std::ldexp(1.0, -11), u8 = std::ldexp(1.0, -8);
    struct Case {
        double x;
        ember_dtype_t to;
        uint16_t bits;
    } cases[] = {
        {1 + u16 + std::ldexp(1.0, -40), EMBER_FLOAT16, 0x3c01},     // just above the half-way point: up
        {-(1 + u16 + std::ldexp(1.0, -40)), EMBER_FLOAT16, 0xbc01},
        {1 + u16, EMBER_FLOAT16, 0x3c00},                            // a tie: to even
        {1 + 3 * u16, EMBER_FLOAT16, 0x3c02},
        {1 + u16 - std::ldexp(1.0, -40), EMBER_FLOAT16, 0x3c00},     // just below: down
        {65519.999999, EMBER_FLOAT16, 0x7bff},                       // below the overflow threshold 65520
        {65520.0, EMBER_FLOAT16, 0x7c00},
        {std::ldexp(1.0, -25) + std::ldexp(1.0, -60), EMBER_FLOAT16, 0x0001},  // above half the least subnormal
        {std::ldexp(1.0, -25), EMBER_FLOAT16, 0x0000},
        {1e-300, EMBER_FLOAT16, 0x0000},
        {1 + u8 + std::ldexp(1.0, -30), EMBER_BFLOAT16, 0x3f81},
        {1 + u8, EMBER_BFLOAT16, 0x3f80},
        {std::ldexp(1.0, 127) * (2 - u8 / 2), EMBER_BFLOAT16, 0x7f80},  // rounds up past the largest: inf
        {std::ldexp(1.0, 127) * (2 - u8) * (1 - std::ldexp(1.0, -40)), EMBER_BFLOAT16, 0x7f7f},  // just below that point
    };
    for (const Case& k : cases) {
        const int64_t one = 1;
        T x, y;
        EM_OK(ember_tensor_from_data(test_ctx(), &k.x, EMBER_FLOAT64, &one, 1, x.out()));
        EM_OK(ember_astype(test_ctx(), x, k.to, y.out()));
        uint16_t got = 0;
        EM_OK(ember_tensor_read(y, &got, sizeof got));
        EXPECT_EQ(got, k.bits) << std::hexfloat << k.x << " -> " << ember_dtype_name(k.to);
    }
    // 2^25 + 2^17 + 1 from int32 and int64: bfloat16 2^25 + 2^18 (through float32: 2^25)
    const int32_t i32 = (1 << 25) + (1 << 17) + 1;
    const int64_t i64 = i32, one = 1;
    for (auto [data, dt] : {std::pair<const void*, ember_dtype_t>{&i32, EMBER_INT32}, {&i64, EMBER_INT64}}) {
        T x, y;
        EM_OK(ember_tensor_from_data(test_ctx(), data, dt, &one, 1, x.out()));
        EM_OK(ember_astype(test_ctx(), x, EMBER_BFLOAT16, y.out()));
        uint16_t got = 0;
        EM_OK(ember_tensor_read(y, &got, sizeof got));
        EXPECT_EQ(got, 0x4c01) << ember_dtype_name(dt) << " -> bfloat16";
    }
}

// ---------------------------------------------------------------- special values
const double NaN = std::numeric_limits<double>::quiet_NaN(), Inf = std::numeric_limits<double>::infinity();

std::vector<double> run_u(UFn fn, const std::vector<double>& x, ember_dtype_t d, ember_dtype_t want_dtype) {
    T a = make(x, {(int64_t)x.size()}, d), y;
    if (fn(test_ctx(), a, y.out()) != EMBER_OK) {
        ADD_FAILURE() << ember_last_error();
        return {};
    }
    EXPECT_EQ(dtype_of(y), want_dtype);
    return values(y);
}
std::vector<double> run_b(BFn fn, const std::vector<double>& x, const std::vector<double>& z, ember_dtype_t d) {
    T a = make(x, {(int64_t)x.size()}, d), b = make(z, {(int64_t)z.size()}, d), y;
    if (fn(test_ctx(), a, b, y.out()) != EMBER_OK) {
        ADD_FAILURE() << ember_last_error();
        return {};
    }
    return values(y);
}

TEST(ElementwiseSpecial, NanInfSignedZero) {
    const std::vector<double> x = {NaN, Inf, -Inf, -0.0, 0.0, 1.5, -2};
    for (ember_dtype_t d : {EMBER_FLOAT16, EMBER_BFLOAT16, EMBER_FLOAT32, EMBER_FLOAT64}) {
        SCOPED_TRACE(ember_dtype_name(d));
        EXPECT_EQ(run_u(ember_isnan, x, d, EMBER_BOOL), (std::vector<double>{1, 0, 0, 0, 0, 0, 0}));
        EXPECT_EQ(run_u(ember_isinf, x, d, EMBER_BOOL), (std::vector<double>{0, 1, 1, 0, 0, 0, 0}));
        EXPECT_EQ(run_u(ember_isfinite, x, d, EMBER_BOOL), (std::vector<double>{0, 0, 0, 1, 1, 1, 1}));
        EXPECT_EQ(run_u(ember_signbit, x, d, EMBER_BOOL)[3], 1.0) << "signbit(-0.0)";
        auto sb = run_u(ember_signbit, x, d, EMBER_BOOL);
        EXPECT_EQ(std::vector<double>(sb.begin() + 1, sb.end()), (std::vector<double>{0, 1, 1, 0, 0, 1}));
        EXPECT_TRUE(all_close(run_u(ember_sign, x, d, d), {NaN, 1, -1, 0, 0, 1, -1}, 0));
        auto abs0 = run_u(ember_abs, {-0.0, -Inf}, d, d);
        EXPECT_TRUE(all_close(abs0, {0, Inf}, 0));
        EXPECT_FALSE(std::signbit(abs0.at(0))) << "abs(-0.0) must be +0.0";
        // maximum / minimum propagate NaN from either side.
        const std::vector<double> a = {NaN, 1, 2, -Inf}, b = {1, NaN, -1, 3};
        EXPECT_TRUE(all_close(run_b(ember_maximum, a, b, d), {NaN, NaN, 2, 3}, 0));
        EXPECT_TRUE(all_close(run_b(ember_minimum, a, b, d), {NaN, NaN, -1, -Inf}, 0));
        // Rounding half to even; copysign with -0.0.
        EXPECT_TRUE(all_close(run_u(ember_round, {0.5, 1.5, 2.5, -0.5, -2.5, 3.25}, d, d), {0, 2, 2, -0.0, -2, 3}, 0));
        auto cs = run_b(ember_copysign, {3, 3}, {-0.0, 0.0}, d);
        EXPECT_TRUE(all_close(cs, {-3, 3}, 0));
        // negative flips the sign bit (0 - x would give +0.0 for +0.0): 37 values, so that
        // vectorised kernels run both their full vectors and their tail.
        std::vector<double> zeros(37);
        for (size_t i = 0; i < zeros.size(); ++i) zeros[i] = i % 2 ? -0.0 : 0.0;
        auto neg = run_u(ember_negative, zeros, d, d);
        ASSERT_EQ(neg.size(), zeros.size());
        for (size_t i = 0; i < neg.size(); ++i) EXPECT_EQ(std::signbit(neg[i]), i % 2 == 0) << "negative of " << zeros[i] << " at " << i;
    }
    // The complex reciprocal is conj(z) / |z|^2: zero parts signed as conj(z)'s, and no NaN
    // from a subnormal part (a complex division gives 1/(1e-310 + 0i) as inf + NaN i).
    T zr = make_any({C(1e-310, 0.0), C(0.0, -1.0), C(2.0, 0.0), C(-0.0, 4.0), C(Inf, 1.0), C(0.0, 0.0)}, {6}, EMBER_COMPLEX128), rr;
    EM_OK(ember_reciprocal(test_ctx(), zr, rr.out()));
    const auto recip = values_c(rr);
    ASSERT_EQ(recip.size(), 6u);
    const C want_recip[5] = {C(Inf, -0.0), C(0.0, 1.0), C(0.5, -0.0), C(-0.0, -0.25), C(0.0, -0.0)};
    for (int i = 0; i < 5; ++i) {
        EXPECT_EQ(recip[i], want_recip[i]) << "reciprocal, element " << i;
        EXPECT_EQ(std::signbit(recip[i].real()), std::signbit(want_recip[i].real())) << "reciprocal, element " << i;
        EXPECT_EQ(std::signbit(recip[i].imag()), std::signbit(want_recip[i].imag())) << "reciprocal, element " << i;
    }
    EXPECT_TRUE(std::isinf(recip[5].real()) && std::isnan(recip[5].imag())) << "1/0 is inf + NaN i: " << recip[5];
    for (ember_dtype_t d : {EMBER_COMPLEX64, EMBER_COMPLEX128}) {  // both parts' signs flip
        std::vector<C> zeros(37);
        for (size_t i = 0; i < zeros.size(); ++i) zeros[i] = i % 2 ? C(-0.0, 0.0) : C(0.0, -0.0);
        T z = make_any(zeros, {37}, d), y;
        EM_OK(ember_negative(test_ctx(), z, y.out()));
        auto neg = values_c(y);
        ASSERT_EQ(neg.size(), zeros.size());
        for (size_t i = 0; i < neg.size(); ++i) {
            EXPECT_EQ(std::signbit(neg[i].real()), i % 2 == 0) << ember_dtype_name(d) << " at " << i;
            EXPECT_EQ(std::signbit(neg[i].imag()), i % 2 == 1) << ember_dtype_name(d) << " at " << i;
        }
    }
    // Complex: NaN or inf in either part.
    T z = make_any({C(1, NaN), C(Inf, 0), C(0, -Inf), C(1, 2)}, {4}, EMBER_COMPLEX128), y;
    EM_OK(ember_isnan(test_ctx(), z, y.out()));
    EXPECT_EQ(values(y), (std::vector<double>{1, 0, 0, 0}));
    EM_OK(ember_isinf(test_ctx(), z, y.out()));
    EXPECT_EQ(values(y), (std::vector<double>{0, 1, 1, 0}));
    EM_OK(ember_isfinite(test_ctx(), z, y.out()));
    EXPECT_EQ(values(y), (std::vector<double>{0, 0, 0, 1}));
    // Integers are always finite.
    EXPECT_EQ(run_u(ember_isfinite, {-5, 7}, EMBER_INT16, EMBER_BOOL), (std::vector<double>{1, 1}));
    EXPECT_EQ(run_u(ember_signbit, {-5, 7}, EMBER_INT16, EMBER_BOOL), (std::vector<double>{1, 0}));
}

TEST(ElementwiseSpecial, PythonDivisionSemantics) {
    const std::vector<double> a = {-7, 7, -7, 7, 6, 5}, b = {2, -2, -2, 2, 3, 0};
    for (ember_dtype_t d : {EMBER_INT8, EMBER_INT32, EMBER_INT64, EMBER_FLOAT32, EMBER_FLOAT64}) {
        SCOPED_TRACE(ember_dtype_name(d));
        auto q = run_b(ember_floor_divide, a, b, d), r = run_b(ember_remainder, a, b, d);
        ASSERT_EQ(q.size(), 6u);
        ASSERT_EQ(r.size(), 6u);
        EXPECT_EQ(std::vector<double>(q.begin(), q.begin() + 5), (std::vector<double>{-4, -4, 3, 3, 2}));
        EXPECT_EQ(std::vector<double>(r.begin(), r.begin() + 5), (std::vector<double>{1, -1, -1, 1, 0}));
        if (is_i(d)) {  // integer division by zero gives 0 (documented)
            EXPECT_EQ(q[5], 0);
            EXPECT_EQ(r[5], 0);
        } else {
            EXPECT_EQ(q[5], Inf);
            EXPECT_TRUE(std::isnan(r[5]));
        }
    }
    auto fr = run_b(ember_remainder, {7.5, -7.5, -0.0}, {-2, 2, 3}, EMBER_FLOAT64);
    EXPECT_TRUE(all_close(fr, {-0.5, 0.5, 0}, 1e-15));
    EXPECT_EQ(run_b(ember_floor_divide, {-128}, {-1}, EMBER_INT8), std::vector<double>{-128});  // wraps like NumPy
    EXPECT_EQ(run_b(ember_pow, {2, -3, 0, 10}, {10, 3, 0, 2}, EMBER_INT32), (std::vector<double>{1024, -27, 1, 100}));
}

TEST(ElementwiseSpecial, ShiftsBeyondWidthAndSigned) {
    EXPECT_EQ(run_b(ember_bitwise_left_shift, {1, 1, 3}, {8, 7, 2}, EMBER_INT8), (std::vector<double>{0, -128, 12}));
    EXPECT_EQ(run_b(ember_bitwise_right_shift, {-128, -16, 100}, {9, 2, 8}, EMBER_INT8), (std::vector<double>{-1, -4, 0}));
    EXPECT_EQ(run_b(ember_bitwise_right_shift, {200, 200}, {8, 3}, EMBER_UINT8), (std::vector<double>{0, 25}));
    EXPECT_EQ(run_b(ember_bitwise_left_shift, {1, 1}, {63, 64}, EMBER_INT64), (std::vector<double>{-9223372036854775808.0, 0}));
    EXPECT_EQ(run_u(ember_bitwise_invert, {0, 255, 5}, EMBER_UINT8, EMBER_UINT8), (std::vector<double>{255, 0, 250}));
}

TEST(ElementwiseSpecial, StableAndAccurateFunctions) {
    const double ln2 = 0.693147180559945309417;
    EXPECT_TRUE(all_close(run_b(ember_logaddexp, {1000, -Inf, 1000, -1000}, {1000, -Inf, 0, -1000}, EMBER_FLOAT64),
                          {1000 + ln2, -Inf, 1000, -1000 + ln2}, 1e-15));
    EXPECT_TRUE(all_close(run_b(ember_logaddexp, {80, 0}, {80, -200}, EMBER_FLOAT32), {80 + ln2, 0}, 1e-6, 1e-7));
    EXPECT_TRUE(all_close(run_b(ember_hypot, {1e300, 3e-300}, {1e300, 4e-300}, EMBER_FLOAT64), {std::sqrt(2.0) * 1e300, 5e-300}, 1e-15));
    EXPECT_TRUE(all_close(run_b(ember_atan2, {0, 1, -1, 0}, {-1, 0, 0, 1}, EMBER_FLOAT64), {M_PI, M_PI / 2, -M_PI / 2, 0}, 1e-15));
    EXPECT_TRUE(all_close(run_u(ember_expm1, {1e-10, -1e-12}, EMBER_FLOAT64, EMBER_FLOAT64), {1.00000000005e-10, -9.999999999995e-13}, 1e-14));
    EXPECT_TRUE(all_close(run_u(ember_log1p, {1e-10}, EMBER_FLOAT64, EMBER_FLOAT64), {9.9999999995e-11}, 1e-14));
    // Complex expm1 and log1p near 0, where exp(z) - 1 and log(1 + z) lose the digits: against
    // their series summed in long double from the values the dtype holds, each part within a
    // few ulp of the modulus (exp(1e-8 i) - 1 has the real part -5e-17, which cos(1e-8) - 1
    // rounds to 0 or -1.1e-16).
    for (ember_dtype_t d : {EMBER_COMPLEX64, EMBER_COMPLEX128}) {
        const std::vector<C> small = {C(1e-10, 2e-10), C(-3e-7, 1e-9), C(2e-5, -4e-5), C(1e-3, 1e-3), C(0, 1e-8), C(-1e-6, 0), C(0.6, -0.7)};
        T x = make_any(small, {(int64_t)small.size()}, d), e, l;
        EM_OK(ember_expm1(test_ctx(), x, e.out()));
        EM_OK(ember_log1p(test_ctx(), x, l.out()));
        const auto held = values_c(x), got_e = values_c(e), got_l = values_c(l);
        const double tol = d == EMBER_COMPLEX64 ? 4e-7 : 1e-15;
        for (size_t i = 0; i + 1 < small.size(); ++i) {  // the last: outside the box, a plain check below
            const std::complex<long double> z(held[i].real(), held[i].imag());
            std::complex<long double> power = z, want_e = 0, want_l = 0;
            long double factorial = 1;
            for (int k = 1; k <= 12; ++k, power *= z) {
                factorial *= k;
                want_e += power / factorial;
                want_l += (k % 2 ? power : -power) / (long double)k;
            }
            for (auto [name, got, want] : {std::tuple<const char*, C, std::complex<long double>>{"expm1", got_e[i], want_e}, {"log1p", got_l[i], want_l}}) {
                const double scale = (double)std::abs(want);
                EXPECT_NEAR(got.real(), (double)want.real(), tol * scale) << name << " of " << held[i] << " " << ember_dtype_name(d);
                EXPECT_NEAR(got.imag(), (double)want.imag(), tol * scale) << name << " of " << held[i] << " " << ember_dtype_name(d);
            }
        }
        const C far = held.back();
        EXPECT_NEAR(std::abs(got_e.back() - (std::exp(far) - 1.0)), 0, 1e-6) << ember_dtype_name(d);
        EXPECT_NEAR(std::abs(got_l.back() - std::log(1.0 + far)), 0, 1e-6) << ember_dtype_name(d);
    }
    for (ember_dtype_t d : {EMBER_FLOAT32, EMBER_FLOAT64}) {
        SCOPED_TRACE(ember_dtype_name(d));
        EXPECT_TRUE(all_close(run_u(ember_sigmoid, {-1000, 1000, 0, -100}, d, d), {0, 1, 0.5, 3.720075976020836e-44}, 1e-5, 1e-30));
        EXPECT_TRUE(all_close(run_u(ember_softplus, {1000, -1000, 0}, d, d), {1000, 0, ln2}, 1e-6));
        EXPECT_TRUE(all_close(run_u(ember_silu, {-1000, 1000}, d, d), {0, 1000}, 1e-6));
        EXPECT_TRUE(all_close(run_u(ember_exp, {-Inf, Inf, 0}, d, d), {0, Inf, 1}, 0));
        EXPECT_TRUE(all_close(run_u(ember_log, {0, -1, 1}, d, d), {-Inf, NaN, 0}, 0));
    }
    // cbrt is exact on the cubes of integers, as NumPy's (glibc's scalar cbrt and a vector
    // cbrt within 2 ulp are not: the reference and the cpu backend mend them), and keeps the
    // sign of zero.
    for (ember_dtype_t d : {EMBER_FLOAT32, EMBER_FLOAT64}) {
        SCOPED_TRACE(ember_dtype_name(d));
        std::vector<double> cubes, roots;
        for (double r : {1.0, 2.0, 3.0, 5.0, 7.0, 10.0, 11.0, 99.0, 255.0, 1000.0, 4096.0, 65535.0, 131072.0}) {
            if (d == EMBER_FLOAT32 && r * r * r >= 0x1p24 && std::fmod(r, 2) != 0) continue;  // not a float32
            cubes.insert(cubes.end(), {r * r * r, -r * r * r});
            roots.insert(roots.end(), {r, -r});
        }
        cubes.insert(cubes.end(), {0.0, -0.0, Inf, -Inf, 0.125});
        roots.insert(roots.end(), {0.0, -0.0, Inf, -Inf, 0.5});
        const std::vector<double> got = run_u(ember_cbrt, cubes, d, d);
        ASSERT_EQ(got.size(), roots.size());
        for (size_t i = 0; i < got.size(); ++i) {
            EXPECT_EQ(got[i], roots[i]) << "cbrt of " << cubes[i];
            EXPECT_EQ(std::signbit(got[i]), std::signbit(roots[i])) << "cbrt of " << cubes[i];
        }
    }
    // nextafter steps in the storage precision.
    EXPECT_EQ(run_b(ember_nextafter, {1, 1, 0, 2}, {2, 0, 1, 2}, EMBER_FLOAT64),
              (std::vector<double>{1 + std::ldexp(1.0, -52), 1 - std::ldexp(1.0, -53), std::ldexp(1.0, -1074), 2}));
    EXPECT_EQ(run_b(ember_nextafter, {1, 1, 0}, {2, 0, -1}, EMBER_FLOAT32),
              (std::vector<double>{1 + std::ldexp(1.0, -23), 1 - std::ldexp(1.0, -24), -std::ldexp(1.0, -149)}));
    EXPECT_EQ(run_b(ember_nextafter, {1, 1, 0, -1}, {2, 0, 1, -2}, EMBER_FLOAT16),
              (std::vector<double>{1 + std::ldexp(1.0, -10), 1 - std::ldexp(1.0, -11), std::ldexp(1.0, -24), -1 - std::ldexp(1.0, -10)}));
    EXPECT_EQ(run_b(ember_nextafter, {1, 1, 0}, {2, 0, 1}, EMBER_BFLOAT16),
              (std::vector<double>{1 + std::ldexp(1.0, -7), 1 - std::ldexp(1.0, -8), std::ldexp(1.0, -133)}));
}

}  // namespace
