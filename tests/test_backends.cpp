// Cross-backend equivalence: every op on every available backend against the reference
// backend, on random data, for every dtype, contiguous / transposed / broadcast / 0-d /
// empty inputs. Uniform-signature ops are enumerated from the op table itself (their entry
// points are looked up by name), so a new op row is tested without touching this file.
#include <dlfcn.h>

#include <cmath>
#include <complex>
#include <functional>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <sstream>

#include "test_util.hpp"

namespace {

using Unary = ember_status_t (*)(ember_ctx_t*, const ember_tensor_t*, ember_tensor_t**);
using Binary = ember_status_t (*)(ember_ctx_t*, const ember_tensor_t*, const ember_tensor_t*, ember_tensor_t**);
using Reduce = ember_status_t (*)(ember_ctx_t*, const ember_tensor_t*, const int64_t*, int, int, ember_tensor_t**);

// Backends under test: every available one except the reference itself. The "fake" test
// module (reference fallback for everything but a deliberately wrong `negative`) keeps the
// harness honest on machines with no other backend.
std::vector<std::string> backends_under_test() {
    std::vector<std::string> v;
    if (const char* only = std::getenv("EMBER_TEST_CROSS_BACKENDS")) {
        std::string s = only;
        for (size_t p = 0; p <= s.size();) {
            size_t e = s.find(',', p);
            if (e == std::string::npos) e = s.size();
            if (e > p) v.push_back(s.substr(p, e - p));
            p = e + 1;
        }
        return v;
    }
    return other_backends(true);
}

struct Ctx {
    ember_ctx_t* c = nullptr;
    explicit Ctx(const char* backend) { ember_ctx_create_on(backend, 0, &c); }
    ~Ctx() { ember_ctx_release(c); }
};

// Tolerance per result dtype: elementwise kernels may use different (vectorised) math.
double rtol_for(ember_dtype_t d) {
    switch (d) {
        case EMBER_FLOAT16: return 2e-3;
        case EMBER_BFLOAT16: return 1.6e-2;
        case EMBER_FLOAT32: case EMBER_COMPLEX64: return 2e-5;
        case EMBER_FLOAT64: case EMBER_COMPLEX128: return 1e-12;
        default: return 0;  // integers and bool: exact
    }
}

std::vector<double> random_values(size_t n, ember_dtype_t d, std::mt19937& rng) {
    std::vector<double> v(n);
    std::uniform_real_distribution<double> real(-3, 3);
    std::uniform_int_distribution<int> small(0, 9), sgn(-9, 9);
    for (auto& x : v) {
        if (d == EMBER_BOOL) x = small(rng) % 2;
        else if (d >= EMBER_UINT8 && d <= EMBER_UINT64) x = small(rng);
        else if (d >= EMBER_INT8 && d <= EMBER_INT64) x = sgn(rng);
        else x = std::round(real(rng) * 64) / 64;  // exactly representable in every float type
    }
    return v;
}

// Host copy of a reference-backend tensor into ctx (random inputs are made once).
T on(ember_ctx_t* ctx, const ember_tensor_t* t) {
    T r;
    ember_tensor_to(ctx, t, r.out());
    return r;
}

// A result from the reference and from the backend under test must agree in status,
// dtype, shape and values.
int g_compared = 0;  // successful comparisons, so a vacuous run is caught

// Absolute tolerance: rtol * abs_scale (results that come from cancellation, such as
// log_softmax's x - logsumexp, are as exact as the inputs' magnitude allows, not their own).
void expect_same(const std::string& what, ember_status_t sr, const T& ref, ember_status_t sb, const T& got, double abs_scale = 1e-3) {
    ASSERT_EQ(sb, sr) << what << ": status differs (backend message: " << ember_last_error() << ")";
    if (sr != EMBER_OK) return;
    ASSERT_EQ(dtype_of(got), dtype_of(ref)) << what;
    ASSERT_EQ(shape_of(got), shape_of(ref)) << what;
    ember_dtype_t d = dtype_of(ref);
    T ref_host = on(test_ctx(), ref), got_host = on(test_ctx(), got);
    double rtol = rtol_for(d);
    auto a = values_c(ref_host), b = values_c(got_host);
    ASSERT_EQ(a.size(), b.size()) << what;
    for (size_t i = 0; i < a.size(); ++i) {
        bool ok = close(b[i].real(), a[i].real(), rtol, rtol * abs_scale) && close(b[i].imag(), a[i].imag(), rtol, rtol * abs_scale);
        ASSERT_TRUE(ok) << what << " element " << i << ": backend " << b[i] << ", reference " << a[i];
    }
    ++g_compared;
}

struct Inputs {
    std::vector<T> ref;  // on the reference backend
};

// The layouts every op is run on. Shapes are small: the point is coverage, not speed.
struct Layout {
    const char* name;
    std::vector<int64_t> a, b;  // b used by binary ops
    bool transpose_a;
};
const Layout kLayouts[] = {
    {"contiguous", {3, 5}, {3, 5}, false},
    {"transposed", {5, 3}, {3, 5}, true},
    {"broadcast", {3, 1}, {1, 5}, false},
    {"0-d", {}, {}, false},
    {"empty", {0, 5}, {0, 5}, false},
};

T make_input(const std::vector<int64_t>& shape, bool transpose, ember_dtype_t d, std::mt19937& rng) {
    size_t n = 1;
    for (auto s : shape) n *= (size_t)s;
    T base = make(random_values(n, d, rng), shape, d);
    if (!transpose) return base;
    T t;
    ember_transpose(test_ctx(), base, t.out());
    return t;
}

std::string op_name(int i, const char** sig) {
    const char *name, *kind, *doc;
    ember_op_info(i, &name, &kind, sig, &doc);
    return name;
}

template <class Fn>
Fn entry_point(const std::string& op) {
    return reinterpret_cast<Fn>(dlsym(RTLD_DEFAULT, ("ember_" + op).c_str()));
}

// The suite builds its expected results on the test context, which must then be the
// reference backend (the default): under EMBER_TEST_BACKEND=cpu it would compare every
// backend with cpu, a weaker oracle, and repeat what the default run already checked.
class CrossBackend : public ::testing::TestWithParam<std::string> {
protected:
    void SetUp() override {
        if (std::string(test_backend_name()) != "reference")
            GTEST_SKIP() << "compares with the reference backend: runs with the default test context";
    }
};

TEST_P(CrossBackend, UniformOpsMatchReference) {
    if (GetParam() == "none") GTEST_SKIP() << "only the reference backend is available";
    Ctx ctx(GetParam().c_str());
    ASSERT_NE(ctx.c, nullptr) << ember_last_error();
    std::mt19937 rng(1234);
    int before = g_compared;
    for (int i = 0; i < ember_op_count(); ++i) {
        const char* sig;
        std::string op = op_name(i, &sig);
        std::string s = sig;
        if (s == "custom") continue;
        if (GetParam() == "fake" && op == "negative") continue;  // wrong on purpose; see below
        const char* binding = "";
        ember_op_binding(GetParam().c_str(), op.c_str(), &binding);
        if (std::string(binding) == "unsupported") {
            // A device backend without this kernel: a documented gap (docs/op-coverage.md),
            // checked here to fail cleanly rather than compared.
            T x = make<double>({1, 2}, {2}, EMBER_FLOAT32), r;
            T xb = on(ctx.c, x);
            ember_status_t st = s == "binary" ? entry_point<Binary>(op)(ctx.c, xb, xb, r.out())
                                : s == "unary" ? entry_point<Unary>(op)(ctx.c, xb, r.out())
                                               : entry_point<Reduce>(op)(ctx.c, xb, nullptr, 0, 0, r.out());
            EXPECT_EQ(st, EMBER_ERR_UNSUPPORTED) << op << ": " << ember_last_error();
            std::printf("  [gap] %s has no %s kernel\n", GetParam().c_str(), op.c_str());
            continue;
        }
        for (ember_dtype_t d : kAll) {
            for (const Layout& L : kLayouts) {
                std::string what = GetParam() + " " + op + " " + ember_dtype_name(d) + " " + L.name;
                T a = make_input(L.a, L.transpose_a, d, rng), b = make_input(L.b, false, d, rng);
                T ab = on(ctx.c, a), bb = on(ctx.c, b);
                T r1, r2;
                ember_status_t s1, s2;
                if (s == "unary") {
                    auto fn = entry_point<Unary>(op);
                    ASSERT_NE(fn, nullptr) << op;
                    s1 = fn(test_ctx(), a, r1.out());
                    s2 = fn(ctx.c, ab, r2.out());
                    expect_same(what, s1, r1, s2, r2);
                } else if (s == "binary") {
                    auto fn = entry_point<Binary>(op);
                    ASSERT_NE(fn, nullptr) << op;
                    s1 = fn(test_ctx(), a, b, r1.out());
                    s2 = fn(ctx.c, ab, bb, r2.out());
                    expect_same(what, s1, r1, s2, r2);
                } else {
                    auto fn = entry_point<Reduce>(op);
                    ASSERT_NE(fn, nullptr) << op;
                    const int64_t axis0[1] = {0}, last[1] = {-1};
                    struct { const int64_t* axes; int n; int keep; } variants[] = {{nullptr, 0, 0}, {axis0, 1, 0}, {last, 1, 1}};
                    for (auto& v : variants) {
                        if (v.axes && L.a.empty()) continue;
                        s1 = fn(test_ctx(), a, v.axes, v.n, v.keep, r1.out());
                        s2 = fn(ctx.c, ab, v.axes, v.n, v.keep, r2.out());
                        expect_same(what + (v.axes ? " axis" : " all"), s1, r1, s2, r2);
                    }
                }
                if (HasFatalFailure()) return;
            }
        }
    }
    EXPECT_GT(g_compared - before, 2000) << "too few successful comparisons: the harness is not testing";
}

// Special values: every unary and binary op on zeros of both signs, subnormals, values whose
// exponentials overflow, infinities and NaN, every pair of them for binary ops, in the float
// and complex dtypes, compared with the reference element by element: the same NaNs, the
// same infinities, the same signs of zeros, finite values within the dtype's tolerance
// (results below the smallest normal within that tolerance of it). Random data rarely hits
// these cases (C99 Annex G's complex infinities, branch cuts, 0 - x for -x).
const double kSpecials[] = {0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.0, 1e-310, -1e-40, 800.0, -800.0, 100.0, 1e300,
                            HUGE_VAL, -HUGE_VAL, std::numeric_limits<double>::quiet_NaN()};
const double kComplexSpecialParts[] = {0.0, -0.0, 1.0, -2.5, 1e-310, 1e300, HUGE_VAL, -HUGE_VAL, std::numeric_limits<double>::quiet_NaN()};

bool same_special(double got, double want, double rtol, double tiny) {
    if (std::isnan(want) || std::isnan(got)) return std::isnan(want) && std::isnan(got);
    if (std::signbit(got) != std::signbit(want)) return false;
    if (std::isinf(want) || want == 0) return got == want;
    return std::isfinite(got) && std::fabs(got - want) <= rtol * (std::fabs(want) + tiny);
}

T special_values(ember_dtype_t d, bool pairs, int side) {
    const bool cplx = d == EMBER_COMPLEX64 || d == EMBER_COMPLEX128;
    std::vector<std::complex<double>> v;
    if (cplx)
        for (double re : kComplexSpecialParts)
            for (double im : kComplexSpecialParts) v.emplace_back(re, im);
    else
        for (double x : kSpecials) v.emplace_back(x, 0.0);
    std::vector<std::complex<double>> out;
    if (!pairs) out = v;
    else
        for (const auto& a : v)
            for (const auto& b : v) out.push_back(side == 0 ? a : b);
    const int64_t n = (int64_t)out.size();
    T src, t;
    if (cplx) {
        ember_tensor_from_data(test_ctx(), out.data(), EMBER_COMPLEX128, &n, 1, src.out());
    } else {
        std::vector<double> re;
        for (const auto& z : out) re.push_back(z.real());
        ember_tensor_from_data(test_ctx(), re.data(), EMBER_FLOAT64, &n, 1, src.out());
    }
    ember_astype(test_ctx(), src, d, t.out());
    return t;
}

TEST_P(CrossBackend, UniformOpsMatchReferenceOnSpecialValues) {
    if (GetParam() == "none") GTEST_SKIP() << "only the reference backend is available";
    Ctx ctx(GetParam().c_str());
    ASSERT_NE(ctx.c, nullptr) << ember_last_error();
    int compared = 0;
    for (int i = 0; i < ember_op_count(); ++i) {
        const char* sig;
        const std::string op = op_name(i, &sig), s = sig;
        if ((s != "unary" && s != "binary") || (GetParam() == "fake" && op == "negative")) continue;
        const char* binding = "";
        ember_op_binding(GetParam().c_str(), op.c_str(), &binding);
        if (std::string(binding) == "unsupported") continue;
        for (ember_dtype_t d : {EMBER_FLOAT16, EMBER_BFLOAT16, EMBER_FLOAT32, EMBER_FLOAT64, EMBER_COMPLEX64, EMBER_COMPLEX128}) {
            const bool binary = s == "binary";
            T a = special_values(d, binary, 0), b = special_values(d, binary, 1), r1, r2;
            T ab = on(ctx.c, a), bb = on(ctx.c, b);
            ember_status_t s1, s2;
            if (binary) {
                s1 = entry_point<Binary>(op)(test_ctx(), a, b, r1.out());
                s2 = entry_point<Binary>(op)(ctx.c, ab, bb, r2.out());
            } else {
                s1 = entry_point<Unary>(op)(test_ctx(), a, r1.out());
                s2 = entry_point<Unary>(op)(ctx.c, ab, r2.out());
            }
            const std::string what = GetParam() + " " + op + " " + ember_dtype_name(d);
            ASSERT_EQ(s2, s1) << what << ": status differs (" << ember_last_error() << ")";
            if (s1 != EMBER_OK) continue;
            ASSERT_EQ(dtype_of(r2), dtype_of(r1)) << what;
            const ember_dtype_t rd = dtype_of(r1);
            const double tiny = rd == EMBER_FLOAT16 ? 6.1e-5 : rd == EMBER_FLOAT64 || rd == EMBER_COMPLEX128 ? 2.3e-308 : 1.2e-38;
            const auto want = values_c(r1), got = values_c(on(test_ctx(), r2)), x = values_c(a), y = values_c(b);
            ASSERT_EQ(got.size(), want.size()) << what;
            int wrong = 0;
            for (size_t k = 0; k < want.size() && wrong < 3; ++k) {
                if (same_special(got[k].real(), want[k].real(), rtol_for(rd), tiny) && same_special(got[k].imag(), want[k].imag(), rtol_for(rd), tiny)) continue;
                std::ostringstream operands;
                operands << x[k];
                if (binary) operands << " and " << y[k];
                ADD_FAILURE() << what << " of " << operands.str() << ": backend " << got[k] << ", reference " << want[k];
                ++wrong;
            }
            compared += (int)want.size();
        }
    }
    EXPECT_GT(compared, 100000) << "too few comparisons: the harness is not testing";
}

// ember_elementwise_into for every UNARY/BINARY op on ctx: in place (out is an input, also
// as a transposed view) and into a fresh output (broadcast inputs), each against the same
// backend's ember_<op>. A kernel that writes out before it has read all of its inputs (a
// two-pass composite) fails here.
int check_elementwise_into(ember_ctx_t* ctx, const std::string& backend) {
    std::mt19937 rng(77);
    int compared = 0;
    auto into = [&](const std::string& op, std::vector<const ember_tensor_t*> in, ember_tensor_t* out) {
        return ember_elementwise_into(ctx, op.c_str(), in.data(), (int)in.size(), out);
    };
    for (int i = 0; i < ember_op_count(); ++i) {
        const char* sig;
        const std::string op = op_name(i, &sig), s = sig;
        if ((s != "unary" && s != "binary") || (backend == "fake" && op == "negative")) continue;
        const char* binding = "";
        ember_op_binding(backend.c_str(), op.c_str(), &binding);
        if (std::string(binding) == "unsupported") continue;
        for (ember_dtype_t d : kAll) {
            for (const Layout& L : kLayouts) {
                const std::string what = backend + " " + op + " into " + ember_dtype_name(d) + " " + L.name;
                T a = on(ctx, make_input(L.a, L.transpose_a, d, rng)), b = on(ctx, make_input(L.b, false, d, rng)), want;
                ember_status_t st = s == "unary" ? entry_point<Unary>(op)(ctx, a, want.out()) : entry_point<Binary>(op)(ctx, a, b, want.out());
                if (st != EMBER_OK) continue;  // dtype not defined for the op: ember_<op> reports it
                std::vector<const ember_tensor_t*> ins = {a};
                if (s == "binary") ins.push_back(b);
                // Into a fresh output of the result's shape and dtype.
                const auto shape = shape_of(want);
                T fresh;
                ember_zeros(ctx, shape.data(), (int)shape.size(), dtype_of(want), fresh.out());
                EXPECT_EQ(into(op, ins, fresh), EMBER_OK) << what << ": " << ember_last_error();
                expect_same(what + " (fresh out)", EMBER_OK, want, EMBER_OK, fresh);
                ++compared;
                if (dtype_of(want) != d || shape_of(a) != shape) continue;
                // In place: out is a itself, laid out like a (a transposed view stays one).
                for (int k = 0; k < (int)ins.size(); ++k) {
                    if (shape_of(ins[k]) != shape) continue;
                    T base, self;
                    if (L.transpose_a) {
                        T t;
                        ember_transpose(ctx, ins[k], t.out());
                        ember_copy(ctx, t, base.out());
                        ember_transpose(ctx, base, self.out());
                    } else {
                        ember_copy(ctx, ins[k], self.out());
                    }
                    std::vector<const ember_tensor_t*> aliased = ins;
                    aliased[k] = self;
                    EXPECT_EQ(into(op, aliased, self), EMBER_OK) << what << ": " << ember_last_error();
                    expect_same(what + " (in place, input " + std::to_string(k) + ")", EMBER_OK, want, EMBER_OK, self);
                    ++compared;
                }
                if (::testing::Test::HasFatalFailure()) return compared;
            }
        }
    }
    return compared;
}

TEST_P(CrossBackend, ElementwiseIntoMatchesNewResults) {
    if (GetParam() == "none") GTEST_SKIP() << "only the reference backend is available";
    Ctx ctx(GetParam().c_str());
    ASSERT_NE(ctx.c, nullptr) << ember_last_error();
    EXPECT_GT(check_elementwise_into(ctx.c, GetParam()), 2000) << "too few comparisons: the harness is not testing";
}

TEST(ElementwiseInto, ReferenceBackendMatchesNewResults) {
    Ctx ctx("reference");
    ASSERT_NE(ctx.c, nullptr) << ember_last_error();
    EXPECT_GT(check_elementwise_into(ctx.c, "reference"), 2000) << "too few comparisons: the harness is not testing";
}

// Ops with their own signatures: one call description each, run on both backends.
using Call = std::function<ember_status_t(ember_ctx_t*, const std::vector<ember_tensor_t*>&, ember_tensor_t**)>;
struct CustomCase {
    const char* name;
    std::vector<std::vector<int64_t>> shapes;
    int index_input;  // which input (if any) holds integer indices in [0, 3); -1 none
    Call call;
    double abs_scale = 1e-3;  // see expect_same; 10 for results of cancellation (inputs are within +-9)
};

std::vector<CustomCase> custom_cases() {
    const int64_t ax1[1] = {1};
    (void)ax1;
    return {
        {"astype->float32", {{3, 4}}, -1, [](auto c, auto& in, auto o) { return ember_astype(c, in[0], EMBER_FLOAT32, o); }},
        {"astype->int16", {{3, 4}}, -1, [](auto c, auto& in, auto o) { return ember_astype(c, in[0], EMBER_INT16, o); }},
        {"astype->complex128", {{3, 4}}, -1, [](auto c, auto& in, auto o) { return ember_astype(c, in[0], EMBER_COMPLEX128, o); }},
        {"copy", {{3, 4}}, -1, [](auto c, auto& in, auto o) { return ember_copy(c, in[0], o); }},
        {"where", {{3, 1}, {1, 4}, {3, 4}}, -1, [](auto c, auto& in, auto o) { return ember_where(c, in[0], in[1], in[2], o); }},
        {"argmax", {{3, 4}}, -1, [](auto c, auto& in, auto o) { return ember_argmax(c, in[0], 1, 0, o); }},
        {"argmin-flat", {{3, 4}}, -1, [](auto c, auto& in, auto o) { return ember_argmin(c, in[0], EMBER_AXIS_NONE, 1, o); }},
        {"cumsum", {{3, 4}}, -1, [](auto c, auto& in, auto o) { return ember_cumsum(c, in[0], 0, o); }},
        {"cumprod", {{3, 4}}, -1, [](auto c, auto& in, auto o) { return ember_cumprod(c, in[0], -1, o); }},
        {"take", {{3, 4}, {5}}, 1, [](auto c, auto& in, auto o) { return ember_take(c, in[0], in[1], 0, o); }},
        {"take_along_axis", {{3, 4}, {3, 2}}, 1, [](auto c, auto& in, auto o) { return ember_take_along_axis(c, in[0], in[1], 1, o); }},
        {"scatter-add", {{3, 4}, {3}}, 1, [](auto c, auto& in, auto o) { return ember_scatter(c, in[0], in[1], 0, 3, EMBER_SCATTER_ADD, o); }},
        {"scatter-max", {{3, 4}, {3}}, 1, [](auto c, auto& in, auto o) { return ember_scatter(c, in[0], in[1], 0, 3, EMBER_SCATTER_MAX, o); }},
        {"scatter-mean", {{3, 4}, {3}}, 1, [](auto c, auto& in, auto o) { return ember_scatter(c, in[0], in[1], 0, 3, EMBER_SCATTER_MEAN, o); }},
        {"nonzero", {{3, 4}}, -1, [](auto c, auto& in, auto o) { return ember_nonzero(c, in[0], o); }},
        {"sort", {{3, 4}}, -1, [](auto c, auto& in, auto o) { return ember_sort(c, in[0], -1, 0, o); }},
        {"argsort-desc", {{3, 4}}, -1, [](auto c, auto& in, auto o) { return ember_argsort(c, in[0], 0, 1, o); }},
        {"matmul", {{2, 3, 4}, {4, 5}}, -1, [](auto c, auto& in, auto o) { return ember_matmul(c, in[0], in[1], o); }},
        {"matmul-vec", {{4}, {3, 4, 2}}, -1, [](auto c, auto& in, auto o) { return ember_matmul(c, in[0], in[1], o); }},
        {"softmax", {{3, 4}}, -1, [](auto c, auto& in, auto o) { return ember_softmax(c, in[0], -1, o); }},
        {"log_softmax", {{3, 4}}, -1, [](auto c, auto& in, auto o) { return ember_log_softmax(c, in[0], 0, o); }, 10},
        {"var", {{3, 4}}, -1, [](auto c, auto& in, auto o) { return ember_var(c, in[0], nullptr, 0, 0, 1.0, o); }},
        {"var-axis0-keepdims", {{3, 4}}, -1, [](auto c, auto& in, auto o) { int64_t ax = 0; return ember_var(c, in[0], &ax, 1, 1, 0.0, o); }},
        {"std-axis1", {{2, 3, 4}}, -1, [](auto c, auto& in, auto o) { int64_t ax = -2; return ember_std(c, in[0], &ax, 1, 0, 1.0, o); }},
        {"softmax-axis0-3d", {{2, 3, 5}}, -1, [](auto c, auto& in, auto o) { return ember_softmax(c, in[0], 1, o); }},
        {"leaky_relu", {{3, 4}}, -1, [](auto c, auto& in, auto o) { return ember_leaky_relu(c, in[0], 0.1, o); }},
        {"gelu-erf", {{3, 4}}, -1, [](auto c, auto& in, auto o) { return ember_gelu(c, in[0], 0, o); }},
        {"frame-pad_end", {{3, 7}}, -1, [](auto c, auto& in, auto o) { return ember_frame(c, in[0], 3, 2, -1, 1, 0.5, o); }},
        {"stft-window", {{2, 16}, {8}}, -1, [](auto c, auto& in, auto o) { return ember_stft(c, in[0], 8, 2, -1, in[1], 1, EMBER_PAD_REFLECT, 0, -1, o); }, 10},
        {"istft", {{5, 5}}, -1, [](auto c, auto& in, auto o) { return ember_istft(c, in[0], 8, 2, -1, nullptr, 1, 0, -1, -1, 0, o); }, 10},
        {"pca_transform", {{6, 3}, {2, 3}, {3}}, -1, [](auto c, auto& in, auto o) { return ember_pca_transform(c, in[0], in[1], in[2], nullptr, 0, o); }, 10},
        {"concat", {{3, 4}, {2, 4}}, -1, [](auto c, auto& in, auto o) { const ember_tensor_t* xs[2] = {in[0], in[1]}; return ember_concat(c, xs, 2, 0, o); }},
        {"pad-reflect", {{3, 4}}, -1, [](auto c, auto& in, auto o) { int64_t p[4] = {1, 2, 2, 1}; return ember_pad(c, in[0], p, EMBER_PAD_REFLECT, 0, o); }},
        {"tril", {{2, 3, 4}}, -1, [](auto c, auto& in, auto o) { return ember_tril(c, in[0], 0, o); }},
        {"clip", {{3, 4}, {1}, {4}}, -1, [](auto c, auto& in, auto o) { return ember_clip(c, in[0], in[1], in[2], o); }},
        {"tile", {{2, 3}}, -1, [](auto c, auto& in, auto o) { int64_t r[2] = {2, 2}; return ember_tile(c, in[0], r, 2, o); }},
        {"gelu-tanh", {{3, 4}}, -1, [](auto c, auto& in, auto o) { return ember_gelu(c, in[0], 1, o); }},
    };
}

TEST_P(CrossBackend, CustomOpsMatchReference) {
    if (GetParam() == "none") GTEST_SKIP() << "only the reference backend is available";
    Ctx ctx(GetParam().c_str());
    ASSERT_NE(ctx.c, nullptr) << ember_last_error();
    std::mt19937 rng(99);
    int before = g_compared;
    for (const CustomCase& cc : custom_cases()) {
        // the fake backend's softmax and var kernels are wrong on purpose (tests/test_core.cpp)
        if (GetParam() == "fake" && (std::string(cc.name).rfind("softmax", 0) == 0 || std::string(cc.name).rfind("var", 0) == 0)) continue;
        for (ember_dtype_t d : kAll) {
            std::vector<T> ref, dev;
            std::vector<ember_tensor_t*> rin, din;
            for (size_t k = 0; k < cc.shapes.size(); ++k) {
                size_t n = 1;
                for (auto s : cc.shapes[k]) n *= (size_t)s;
                if ((int)k == cc.index_input) {
                    std::vector<double> idx(n);
                    for (auto& x : idx) x = (double)(rng() % 3);
                    ref.push_back(make(idx, cc.shapes[k], EMBER_INT64));
                } else {
                    ref.push_back(make(random_values(n, d, rng), cc.shapes[k], d));
                }
                dev.push_back(on(ctx.c, ref.back()));
            }
            for (size_t k = 0; k < ref.size(); ++k) {
                rin.push_back(ref[k]);
                din.push_back(dev[k]);
            }
            T r1, r2;
            ember_status_t s1 = cc.call(test_ctx(), rin, r1.out());
            ember_status_t s2 = cc.call(ctx.c, din, r2.out());
            expect_same(GetParam() + " " + cc.name + " " + ember_dtype_name(d), s1, r1, s2, r2, cc.abs_scale);
            if (HasFatalFailure()) return;
        }
    }
    EXPECT_GT(g_compared - before, 300) << "too few successful comparisons: the harness is not testing";
}

std::vector<std::string> params() {
    auto v = backends_under_test();
    if (v.empty()) v.push_back("none");
    return v;
}

INSTANTIATE_TEST_SUITE_P(Backends, CrossBackend, ::testing::ValuesIn(params()),
                         [](const auto& info) { return info.param; });

// With no backend but the reference, the harness still checks itself: it must catch the
// fake test backend's deliberately wrong `negative`.
TEST(CrossBackendHarness, CatchesAWrongKernel) {
    Ctx ctx("fake");
    if (!ctx.c) GTEST_SKIP() << "fake backend not on EMBER_BACKEND_PATH";
    T a = make<double>({1, -2, 3}, {3}, EMBER_FLOAT32);
    T ab = on(ctx.c, a), r1, r2;
    ember_status_t s1 = ember_negative(test_ctx(), a, r1.out());
    ember_status_t s2 = ember_negative(ctx.c, ab, r2.out());
    ASSERT_EQ(s1, s2);
    EXPECT_NE(values(r1), values(on(test_ctx(), r2))) << "the harness comparison would miss a wrong kernel";
}

// A result that keeps its operands' transposed layout still reaches the kernel in C order
// (the core permutes every view into the output's memory order): the fake backend's `where`
// refuses any other output.
TEST(ElementwiseLayoutOnABackend, KernelsSeeTheOutputInCOrder) {
    Ctx ctx("fake");
    if (!ctx.c) GTEST_SKIP() << "fake backend not on EMBER_BACKEND_PATH";
    T a = make<double>({1, -2, 3, -4, 5, -6}, {2, 3}, EMBER_FLOAT32);
    T ab = on(ctx.c, a), at, zero, cond, y;
    EM_OK(ember_transpose(ctx.c, ab, at.out()));  // (3, 2), strides (1, 3)
    EM_OK(ember_scalar_f64(ctx.c, 0, zero.out()));
    EM_OK(ember_greater(ctx.c, at, zero, cond.out()));
    EM_OK(ember_where(ctx.c, cond, at, zero, y.out()));
    EXPECT_EQ(strides_of(y), (std::vector<int64_t>{1, 3}));
    EXPECT_EQ(values(on(test_ctx(), y)), (std::vector<double>{1, 0, 0, 5, 3, 0}));
}

}  // namespace

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(CrossBackend);
