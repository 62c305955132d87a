// The cpu backend's dtype paths against the reference backend, on inputs large enough to
// take the threaded paths: float16/bfloat16 through the float32 kernels, column scans with
// the reference's accumulators, vector shifts and integer conversions.
#include <cmath>
#include <complex>
#include <limits>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "cpu_contexts.hpp"

namespace {

// float16/bfloat16 elementwise ops run the float32 kernels chunk by chunk and round once,
// as the reference computes them: exact arithmetic and comparisons are identical bit for bit
// (NaNs of both signs included: the half types hold no payload the reference keeps), the
// transcendental functions within one unit of the half type's last place. Transposed
// operands are gathered into tiles first.
TEST(CpuLarge, HalfTypesThroughFloat32Kernels) {
    NEED_CPU();
    const int64_t rows = 301, cols = 1001;
    auto d = randf((size_t)(rows * cols), -4, 4, 101);
    d[7] = std::numeric_limits<float>::quiet_NaN();
    d[8] = std::numeric_limits<float>::infinity();
    d[9] = -std::numeric_limits<float>::quiet_NaN();
    T x0 = tensor(cpu(), d, {rows, cols}, EMBER_FLOAT32), y0 = tensor(cpu(), randf((size_t)cols, 0.5f, 3, 102), {1, cols}, EMBER_FLOAT32);
    using Fn2 = ember_status_t (*)(ember_ctx_t*, const ember_tensor_t*, const ember_tensor_t*, ember_tensor_t**);
    using Fn1 = ember_status_t (*)(ember_ctx_t*, const ember_tensor_t*, ember_tensor_t**);
    for (ember_dtype_t dt : {EMBER_FLOAT16, EMBER_BFLOAT16}) {
        const std::string dn = ember_dtype_name(dt);
        T x, y, s, xt, z;
        EM_OK(ember_astype(cpu(), x0, dt, x.out()));
        EM_OK(ember_astype(cpu(), y0, dt, y.out()));
        EM_OK(ember_full(cpu(), nullptr, 0, 1.5, dt, s.out()));
        EM_OK(ember_matrix_transpose(cpu(), x, xt.out()));
        z = tensor(cpu(), randf((size_t)(rows * cols), -4, 4, 104), {cols, rows}, dt);
        for (auto [name, fn] : {std::pair<const char*, Fn2>{"add", ember_add}, {"subtract", ember_subtract}, {"multiply", ember_multiply}, {"divide", ember_divide},
                                {"maximum", ember_maximum}, {"minimum", ember_minimum}, {"less", ember_less}, {"equal", ember_equal},
                                {"copysign", ember_copysign}}) {
            for (auto [what, a, b] : {std::tuple<const char*, const ember_tensor_t*, const ember_tensor_t*>{" row-broadcast", x, y}, {" by a scalar", x, s}, {" of a scalar", s, x},
                                      {" transposed", xt, z}, {" by a transposed", z, xt}, {" transposed by a scalar", xt, s}}) {
                T got, want;
                EM_OK(fn(cpu(), a, b, got.out()));
                EM_OK(fn(ref(), as_ref(a), as_ref(b), want.out()));
                EXPECT_EQ(raw_bytes(got), raw_bytes(want)) << name << what << " " << dn;
            }
        }
        const double half_ulp = dt == EMBER_FLOAT16 ? 1.0 / 1024 : 1.0 / 128;
        // The libm functions (from expm1 on) run libmvec's float32 variants (<= 4 float32
        // ulp) and round once: within one half ulp of the reference's float32 libm too;
        // rounding bit for bit.
        for (auto [name, fn, rtol] : {std::tuple<const char*, Fn1, double>{"sqrt", ember_sqrt, 0}, {"abs", ember_abs, 0}, {"relu", ember_relu, 0},
                                      {"exp", ember_exp, half_ulp}, {"log", ember_log, half_ulp}, {"tanh", ember_tanh, half_ulp},
                                      {"sigmoid", ember_sigmoid, half_ulp}, {"silu", ember_silu, half_ulp}, {"softplus", ember_softplus, half_ulp},
                                      {"expm1", ember_expm1, half_ulp}, {"log1p", ember_log1p, half_ulp},
                                      {"log2", ember_log2, half_ulp}, {"log10", ember_log10, half_ulp}, {"sin", ember_sin, half_ulp},
                                      {"cos", ember_cos, half_ulp}, {"tan", ember_tan, half_ulp}, {"asin", ember_asin, half_ulp},
                                      {"acos", ember_acos, half_ulp}, {"atan", ember_atan, half_ulp}, {"sinh", ember_sinh, half_ulp},
                                      {"cosh", ember_cosh, half_ulp}, {"asinh", ember_asinh, half_ulp}, {"acosh", ember_acosh, half_ulp},
                                      {"atanh", ember_atanh, half_ulp}, {"erf", ember_erf, half_ulp}, {"erfc", ember_erfc, half_ulp},
                                      {"floor", ember_floor, 0}, {"ceil", ember_ceil, 0}, {"trunc", ember_trunc, 0}}) {
            for (auto [layout, v] : {std::pair<const char*, const ember_tensor_t*>{"", x}, {" transposed", xt}}) {
                T got, want;
                EM_OK(fn(cpu(), v, got.out()));
                EM_OK(fn(ref(), as_ref(v), want.out()));
                if (rtol == 0) EXPECT_EQ(raw_bytes(got), raw_bytes(want)) << name << layout << " " << dn;
                else expect_close(got, want, rtol, 1e-7, std::string(name) + layout + " " + dn);
            }
        }
        for (auto [name, fn] : {std::pair<const char*, Fn2>{"pow", ember_pow}, {"atan2", ember_atan2}, {"hypot", ember_hypot}, {"logaddexp", ember_logaddexp}}) {
            for (auto [what, a, b] : {std::tuple<const char*, const ember_tensor_t*, const ember_tensor_t*>{" row-broadcast", x, y}, {" by a scalar", x, s}, {" of a scalar", s, x},
                                      {" transposed", xt, z}}) {
                T got, want;
                EM_OK(fn(cpu(), a, b, got.out()));
                EM_OK(fn(ref(), as_ref(a), as_ref(b), want.out()));
                expect_close(got, want, half_ulp, 1e-7, std::string(name) + what + " " + dn);
            }
        }
        // Widening keeps every value's bits, a NaN's sign and payload, and quiets a signalling
        // NaN (as F16C does; the vector loops' tails and the generic ISA convert in software).
        // bfloat16 is the top half of a float32: its NaNs widen as they are.
        std::vector<uint16_t> bits(1003);
        const uint16_t specials16[] = {0x7c01, 0xfc01, 0x7d55, 0x7e00, 0xfe00, 0x7c00, 0xfc00, 0x0001, 0x8000, 0x03ff, 0x3c00};
        const uint16_t specials_bf[] = {0x7f81, 0xff81, 0x7fa5, 0x7fc0, 0xffc0, 0x7f80, 0xff80, 0x0001, 0x8000, 0x007f, 0x3f80};
        for (size_t i = 0; i < bits.size(); ++i) bits[i] = (dt == EMBER_FLOAT16 ? specials16 : specials_bf)[i % 11];
        const int64_t nbits = (int64_t)bits.size();
        T raw;
        EM_OK(ember_tensor_from_data(cpu(), bits.data(), dt, &nbits, 1, raw.out()));
        for (ember_dtype_t wide : {EMBER_FLOAT32, EMBER_FLOAT64, dt}) {  // and a copy, which keeps every bit
            T got, want;
            EM_OK(ember_astype(cpu(), raw, wide, got.out()));
            EM_OK(ember_astype(ref(), as_ref(raw), wide, want.out()));
            EXPECT_EQ(raw_bytes(got), raw_bytes(want)) << dn << " -> " << ember_dtype_name(wide);
            if (wide == dt) {
                EXPECT_EQ(raw_bytes(got), raw_bytes(raw)) << dn << " copied";
            }
        }
        // abs (its own kernel on the bits) and negative of the special values: NaNs come
        // out as the reference's rounding from float32 writes them.
        for (auto [name, fn] : {std::pair<const char*, Fn1>{"abs", ember_abs}, {"negative", ember_negative}}) {
            T got, want;
            EM_OK(fn(cpu(), raw, got.out()));
            EM_OK(fn(ref(), as_ref(raw), want.out()));
            EXPECT_EQ(raw_bytes(got), raw_bytes(want)) << name << " of special " << dn << " values";
        }
        // isnan, isinf, isfinite and signbit (read from the bits) of every bit pattern,
        // contiguous and through a transposed view.
        {
            std::vector<uint16_t> every(65536);
            for (size_t i = 0; i < every.size(); ++i) every[i] = (uint16_t)i;
            const int64_t square[2] = {256, 256};
            T grid, across;
            EM_OK(ember_tensor_from_data(cpu(), every.data(), dt, square, 2, grid.out()));
            EM_OK(ember_matrix_transpose(cpu(), grid, across.out()));
            for (auto [name, fn] : {std::pair<const char*, Fn1>{"isnan", ember_isnan}, {"isinf", ember_isinf},
                                    {"isfinite", ember_isfinite}, {"signbit", ember_signbit}}) {
                for (auto [layout, v] : {std::pair<const char*, const ember_tensor_t*>{"", grid}, {" transposed", across}}) {
                    T got, want;
                    EM_OK(fn(cpu(), v, got.out()));
                    EM_OK(fn(ref(), as_ref(v), want.out()));
                    EXPECT_EQ(raw_bytes(got), raw_bytes(want)) << name << layout << " of every " << dn << " pattern";
                }
            }
        }
        // Sums (double accumulators, chunk-wise conversion) and means (in float32, rounded
        // once: the float16 sum of these 3e5 values overflows, their mean does not), products
        // (double accumulators, rounded once) of values near 1. Rows, columns, everything, a
        // transposed view, short rows packed ((27391, 11) over axis 1) and spaced (the first
        // 9 of each row of 1001), narrow columns ((27391, 11) over axis 0).
        const auto positive = randf((size_t)(rows * cols), 0, 4, 103), near_one = randf((size_t)(rows * cols), 0.998f, 1.002f, 104);
        using Red = ember_status_t (*)(ember_ctx_t*, const ember_tensor_t*, const int64_t*, int, int, ember_tensor_t**);
        for (auto [name, fn] : {std::pair<const char*, Red>{"sum", ember_sum}, {"mean", ember_mean}, {"var", nullptr}, {"prod", ember_prod}}) {
            T x = tensor(cpu(), std::string(name) == "prod" ? near_one : positive, {rows, cols}, dt), x_t, x_short, x_head;
            EM_OK(ember_matrix_transpose(cpu(), x, x_t.out()));
            const int64_t short_shape[2] = {27391, 11}, head_from[2] = {0, 0}, head_to[2] = {rows, 9}, unit_steps[2] = {1, 1};
            EM_OK(ember_reshape(cpu(), x, short_shape, 2, x_short.out()));
            EM_OK(ember_slice(cpu(), x, head_from, head_to, unit_steps, 2, x_head.out()));
            const int64_t ax0 = 0, ax1 = 1;
            for (auto [layout, v, axes, naxes] : {std::tuple<const char*, const ember_tensor_t*, const int64_t*, int>{"all", x, nullptr, 0},
                                                  {"short rows", x_short, &ax1, 1}, {"spaced short rows", x_head, &ax1, 1}, {"narrow columns", x_short, &ax0, 1},
                                                  {"rows", x, &ax1, 1}, {"columns", x, &ax0, 1}, {"transposed", x_t, &ax1, 1}}) {
                T got, want;
                if (fn) {
                    EM_OK(fn(cpu(), v, axes, naxes, 0, got.out()));
                    EM_OK(fn(ref(), as_ref(v), axes, naxes, 0, want.out()));
                } else {
                    EM_OK(ember_var(cpu(), v, axes, naxes, 0, 0, got.out()));
                    EM_OK(ember_var(ref(), as_ref(v), axes, naxes, 0, 0, want.out()));
                }
                expect_close(got, want, half_ulp, 0, std::string(name) + " " + layout + " " + dn);
                if (std::string(name) != "sum") {
                    auto g = host_values(got);
                    for (double e : g) ASSERT_TRUE(std::isfinite(e)) << name << " " << layout << " " << dn << " overflowed";
                }
            }
        }
    }
}

// float16/bfloat16 max/min and argmax/argmin (the float32 pick, the bits taken back from the
// input) bit for bit as the reference: ties and -0/+0 (the first of equal values wins), NaNs
// with different payloads, signalling ones included (the last NaN wins, written as the
// reference's conversion from float32 writes it; argmax finds the first), infinities, subnormals; rows, columns, everything, a transposed and a strided view,
// and one long line split across the pool.
TEST(CpuLarge, HalfExtremesMatchReferenceBitForBit) {
    NEED_CPU();
    const int64_t rows = 300, cols = 1001;
    for (ember_dtype_t dt : {EMBER_FLOAT16, EMBER_BFLOAT16}) {
        const std::string dn = ember_dtype_name(dt);
        const uint16_t inf = dt == EMBER_FLOAT16 ? 0x7c00 : 0x7f80;
        std::mt19937 rng(7);
        std::vector<uint16_t> pool;
        while (pool.size() < 40) {
            const uint16_t b = (uint16_t)rng();
            if ((b & 0x7fff) < inf) pool.push_back(b);
        }
        for (uint16_t b : {uint16_t(0), uint16_t(0x8000), uint16_t(1), uint16_t(0x8001), inf, uint16_t(inf | 0x8000)}) pool.push_back(b);
        const uint16_t quiet = dt == EMBER_FLOAT16 ? 0x200 : 0x40;
        const uint16_t nans[4] = {uint16_t(inf | quiet), uint16_t(0x8000 | inf | quiet | 1), uint16_t(inf | 0x11), uint16_t(inf | 0x3)};  // the last two signalling
        std::vector<uint16_t> clean((size_t)(rows * cols)), bits;
        for (int64_t i = 0; i < rows; ++i)
            for (int64_t j = 0; j < cols; ++j) {
                const size_t k = (size_t)(i * cols + j);
                clean[k] = i % 5 == 4 ? ((k * 31) % 3 ? 0x8000 : 0) : pool[rng() % pool.size()];  // rows of zeros of both signs
            }
        bits = clean;
        for (int64_t i = 7; i < rows; i += 7)  // never in columns 0 and 1: their only NaNs are row 0's,
            for (int q = 0; q < 2; ++q) bits[(size_t)(i * cols + 2 + (i * 13 + q * 400) % (cols - 2))] = nans[(i + q) % 4];
        bits[0] = nans[2], bits[1] = nans[3];  // which seeds the column accumulators
        const int64_t shape[2] = {rows, cols}, flat[1] = {rows * cols};
        T x, xc, xt, xs, line, nan_line, zeros, zeros_t, xct;
        EM_OK(ember_tensor_from_data(cpu(), bits.data(), dt, shape, 2, x.out()));
        EM_OK(ember_tensor_from_data(cpu(), clean.data(), dt, shape, 2, xc.out()));
        EM_OK(ember_tensor_from_data(cpu(), clean.data(), dt, flat, 1, line.out()));
        EM_OK(ember_tensor_from_data(cpu(), bits.data(), dt, flat, 1, nan_line.out()));
        const int64_t zshape[2] = {7, 143};  // row 4: zeros of both signs, reduced whole through a transpose
        EM_OK(ember_tensor_from_data(cpu(), clean.data() + 4 * cols, dt, zshape, 2, zeros.out()));
        EM_OK(ember_matrix_transpose(cpu(), zeros, zeros_t.out()));
        EM_OK(ember_matrix_transpose(cpu(), xc, xct.out()));
        EM_OK(ember_matrix_transpose(cpu(), x, xt.out()));
        const int64_t from[2] = {0, 1}, to[2] = {rows, cols}, steps[2] = {2, 3};
        EM_OK(ember_slice(cpu(), x, from, to, steps, 2, xs.out()));
        // Short rows and narrow columns ((27300, 11) of the same bits: the NaNs in some rows
        // and columns, rows of zeros of both signs) and spaced short rows (x's first 9 columns).
        T x_short, xc_short, x_head;
        const int64_t short_shape[2] = {27300, 11}, head_from[2] = {0, 0}, head_to[2] = {rows, 9}, unit_steps[2] = {1, 1};
        EM_OK(ember_reshape(cpu(), x, short_shape, 2, x_short.out()));
        EM_OK(ember_reshape(cpu(), xc, short_shape, 2, xc_short.out()));
        EM_OK(ember_slice(cpu(), x, head_from, head_to, unit_steps, 2, x_head.out()));
        // Narrow columns whose max (min) is a zero: no positive (negative) values, zeros of
        // both signs, each column's first zero of either sign.
        std::vector<uint16_t> nonpositive(4096 * 11), nonnegative(nonpositive.size());
        for (size_t k = 0; k < nonpositive.size(); ++k) {
            const size_t i = k / 11, j = k % 11;
            nonpositive[k] = (i * 7 + j) % 5 == 0 ? ((i + j) % 2 ? 0x8000 : 0) : uint16_t(0x8000 | (0x3c00 + (k * 37) % 0x400));
            nonnegative[k] = nonpositive[k] & 0x7fff ? uint16_t(nonpositive[k] & 0x7fff) : nonpositive[k];
        }
        T at_zero_max, at_zero_min;
        const int64_t zero_cols_shape[2] = {4096, 11};
        EM_OK(ember_tensor_from_data(cpu(), nonpositive.data(), dt, zero_cols_shape, 2, at_zero_max.out()));
        EM_OK(ember_tensor_from_data(cpu(), nonnegative.data(), dt, zero_cols_shape, 2, at_zero_min.out()));
        const int64_t ax0 = 0, ax1 = 1;
        using Red = ember_status_t (*)(ember_ctx_t*, const ember_tensor_t*, const int64_t*, int, int, ember_tensor_t**);
        using Arg = ember_status_t (*)(ember_ctx_t*, const ember_tensor_t*, int64_t, int, ember_tensor_t**);
        for (auto [name, fn, arg] : {std::tuple<const char*, Red, Arg>{"max", ember_max, ember_argmax}, {"min", ember_min, ember_argmin}}) {
            for (auto [layout, v, axes, naxes] : {std::tuple<const char*, const ember_tensor_t*, const int64_t*, int>{"rows", x, &ax1, 1}, {"columns", x, &ax0, 1},
                                                  {"all", x, nullptr, 0}, {"all, no NaN", xc, nullptr, 0}, {"columns, no NaN", xc, &ax0, 1},
                                                  {"transposed rows", xt, &ax1, 1}, {"strided rows", xs, &ax1, 1}, {"strided columns", xs, &ax0, 1},
                                                  {"one line", line, nullptr, 0}, {"one line with NaNs", nan_line, nullptr, 0},
                                                  {"transposed, all", xt, nullptr, 0}, {"transposed, all, no NaN", xct, nullptr, 0},
                                                  {"zeros transposed, all", zeros_t, nullptr, 0}, {"short rows", x_short, &ax1, 1},
                                                  {"short rows, no NaN", xc_short, &ax1, 1}, {"spaced short rows", x_head, &ax1, 1},
                                                  {"narrow columns", x_short, &ax0, 1}, {"narrow columns, no NaN", xc_short, &ax0, 1},
                                                  {"narrow columns, max at zero", at_zero_max, &ax0, 1}, {"narrow columns, min at zero", at_zero_min, &ax0, 1}}) {
                const std::string what = std::string(name) + " " + layout + " " + dn;
                T got, want;
                EM_OK(fn(cpu(), v, axes, naxes, 0, got.out()));
                EM_OK(fn(ref(), as_ref(v), axes, naxes, 0, want.out()));
                EXPECT_EQ(raw_bytes(got), raw_bytes(want)) << what;
                if (naxes == 0 && std::string(layout).rfind("one line", 0) != 0) continue;
                T agot, awant;
                const int64_t axis = naxes ? *axes : 0;
                EM_OK(arg(cpu(), v, axis, 0, agot.out()));
                EM_OK(arg(ref(), as_ref(v), axis, 0, awant.out()));
                expect_close(agot, awant, 0, 0, "arg" + what);
            }
        }
    }
}

// float32 max/min: the reference's result comes through a float64 accumulator, so a signalling
// NaN comes out quiet; the column kernels' first row, an axis of length 1 and single rows too.
// And the last NaN of a line reduced in chunks.
TEST(CpuLarge, Float32SignallingNaNsComeOutQuiet) {
    NEED_CPU();
    const int64_t rows = 64, cols = 300;
    std::vector<uint32_t> bits((size_t)(rows * cols));
    for (size_t i = 0; i < bits.size(); ++i) bits[i] = 0x3f800000u + (uint32_t)((i * 7919) % 1000) * 0x100u;  // 1 to ~1.03
    bits[3] = 0x7f800001u, bits[(size_t)(5 * cols + 9)] = 0xff800123u, bits[(size_t)cols - 1] = 0x7fa00000u;  // signalling
    const int64_t shape[2] = {rows, cols}, one_row[2] = {1, cols};
    T x, r1;
    EM_OK(ember_tensor_from_data(cpu(), bits.data(), EMBER_FLOAT32, shape, 2, x.out()));
    EM_OK(ember_tensor_from_data(cpu(), bits.data(), EMBER_FLOAT32, one_row, 2, r1.out()));
    const int64_t ax0 = 0, ax1 = 1;
    using Red = ember_status_t (*)(ember_ctx_t*, const ember_tensor_t*, const int64_t*, int, int, ember_tensor_t**);
    for (auto [name, fn] : {std::pair<const char*, Red>{"max", ember_max}, {"min", ember_min}})
        for (auto [layout, v, axes, naxes] : {std::tuple<const char*, const ember_tensor_t*, const int64_t*, int>{"rows", x, &ax1, 1}, {"columns", x, &ax0, 1},
                                              {"all", x, nullptr, 0}, {"one row, axis 0", r1, &ax0, 1}, {"one row, axis 1", r1, &ax1, 1}}) {
            T got, want;
            EM_OK(fn(cpu(), v, axes, naxes, 0, got.out()));
            EM_OK(fn(ref(), as_ref(v), axes, naxes, 0, want.out()));
            EXPECT_EQ(raw_bytes(got), raw_bytes(want)) << name << " " << layout;
        }
    // float32 -> float16 writes a NaN as sign | 0x7e00 whatever its payload (the vector
    // conversion keeps the payload's top bits).
    const uint32_t payloads[4] = {0x7fc01234u, 0xffc00001u, 0x7f800001u, 0xffbfe000u};
    std::vector<uint32_t> nans(1003, 0x40490fdbu);
    for (size_t i = 0; i < nans.size(); i += 9) nans[i] = payloads[(i / 9) % 4];
    const int64_t nn[1] = {(int64_t)nans.size()};
    T nx, h_got, h_want;
    EM_OK(ember_tensor_from_data(cpu(), nans.data(), EMBER_FLOAT32, nn, 1, nx.out()));
    EM_OK(ember_astype(cpu(), nx, EMBER_FLOAT16, h_got.out()));
    EM_OK(ember_astype(ref(), as_ref(nx), EMBER_FLOAT16, h_want.out()));
    EXPECT_EQ(raw_bytes(h_got), raw_bytes(h_want)) << "float32 NaNs -> float16";
    // One long line in chunks across the pool: x[0] a NaN, the last NaN a third in; the chunks
    // after it hold none and must not answer with x[0].
    std::vector<uint32_t> line(300000, 0x3f800000u);
    line[0] = 0x7fc00000u, line[100000] = 0xffc00007u;
    const int64_t n[1] = {(int64_t)line.size()};
    T l;
    EM_OK(ember_tensor_from_data(cpu(), line.data(), EMBER_FLOAT32, n, 1, l.out()));
    for (auto [name, fn] : {std::pair<const char*, Red>{"max", ember_max}, {"min", ember_min}}) {
        T got, want;
        EM_OK(fn(cpu(), l, nullptr, 0, 0, got.out()));
        EM_OK(fn(ref(), as_ref(l), nullptr, 0, 0, want.out()));
        EXPECT_EQ(raw_bytes(got), raw_bytes(want)) << name << " of a long line";
    }
}

// Unary ops of broadcast views: a column spread along rows and one value spread over a
// matrix (the inner stride 0, which the strided-input tile path must leave alone: it would
// read a row from the single element), against the reference; exact ops bit for bit.
TEST(CpuLarge, UnaryOpsOfBroadcastViews) {
    NEED_CPU();
    const int64_t shape[2] = {300, 1000};
    using Fn1 = ember_status_t (*)(ember_ctx_t*, const ember_tensor_t*, ember_tensor_t**);
    for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_FLOAT16, EMBER_BFLOAT16}) {
        const double rtol = dt == EMBER_FLOAT16 ? 1.0 / 1024 : dt == EMBER_BFLOAT16 ? 1.0 / 128 : 1e-6;
        T col = tensor(cpu(), randf(300, -3, 3, 111), {300, 1}, dt), one = tensor(cpu(), std::vector<float>{-1.25f}, {1}, dt), col_b, one_b;
        EM_OK(ember_broadcast_to(cpu(), col, shape, 2, col_b.out()));
        EM_OK(ember_broadcast_to(cpu(), one, shape, 2, one_b.out()));
        for (auto [name, fn, exact] : {std::tuple<const char*, Fn1, bool>{"exp", ember_exp, false}, {"sqrt", ember_sqrt, true}, {"abs", ember_abs, true},
                                       {"negative", ember_negative, true}, {"relu", ember_relu, true}}) {
            for (auto [layout, v] : {std::pair<const char*, const ember_tensor_t*>{" of a column", col_b}, {" of one value", one_b}}) {
                T got, want;
                EM_OK(fn(cpu(), v, got.out()));
                EM_OK(fn(ref(), as_ref(v), want.out()));
                if (exact) EXPECT_EQ(raw_bytes(got), raw_bytes(want)) << name << layout << " " << ember_dtype_name(dt);
                else expect_close(got, want, rtol, 0, std::string(name) + layout + " " + ember_dtype_name(dt));
            }
        }
    }
}

// Rounding of integers is the identity and their classification a constant (libm_loops.cpp
// copies x or a broadcast answer): the reference's bytes and status for every integer
// dtype and bool, over layouts the copy kernel takes different paths for.
TEST(CpuLarge, IntegerRoundingAndClassificationAsReference) {
    NEED_CPU();
    using Fn1 = ember_status_t (*)(ember_ctx_t*, const ember_tensor_t*, ember_tensor_t**);
    const std::pair<const char*, Fn1> ops[] = {{"floor", ember_floor}, {"ceil", ember_ceil},     {"trunc", ember_trunc},       {"round", ember_round},
                                               {"isnan", ember_isnan}, {"isinf", ember_isinf}, {"isfinite", ember_isfinite}, {"signbit", ember_signbit}};
    const int64_t rows = 601, cols = 1003, shape[2] = {rows, cols}, ax0 = 0, swap[2] = {1, 0};
    auto d = randf((size_t)(rows * cols), -120, 120, 77);
    for (ember_dtype_t dt : {EMBER_BOOL, EMBER_INT8, EMBER_INT16, EMBER_INT32, EMBER_INT64, EMBER_UINT8, EMBER_UINT16, EMBER_UINT32, EMBER_UINT64}) {
        std::vector<float> v = d;
        if (dt >= EMBER_UINT8 && dt <= EMBER_UINT64)
            for (float& e : v) e = std::abs(e);
        T m = tensor(cpu(), v, {rows, cols}, dt), col = tensor(cpu(), std::vector<float>(v.begin(), v.begin() + rows), {rows, 1}, dt);
        T flipped, transposed, stepped, spread;
        const int64_t from[2] = {0, 1}, to[2] = {rows, cols}, steps[2] = {1, 2};
        EM_OK(ember_flip(cpu(), m, &ax0, 1, flipped.out()));
        EM_OK(ember_permute_dims(cpu(), m, swap, 2, transposed.out()));
        EM_OK(ember_slice(cpu(), m, from, to, steps, 2, stepped.out()));
        EM_OK(ember_broadcast_to(cpu(), col, shape, 2, spread.out()));
        for (auto [name, fn] : ops) {
            for (auto [layout, x] : {std::pair<const char*, const ember_tensor_t*>{"contiguous", m}, {"rows reversed", flipped},
                                     {"transposed", transposed}, {"stepped columns", stepped}, {"broadcast column", spread}}) {
                const std::string what = std::string(name) + " " + ember_dtype_name(dt) + " " + layout;
                T got, want;
                const ember_status_t want_status = fn(ref(), as_ref(x), want.out());
                ASSERT_EQ(fn(cpu(), x, got.out()), want_status) << what;
                if (want_status != EMBER_OK) continue;
                EXPECT_EQ(dtype_of(got), dtype_of(want)) << what;
                EXPECT_EQ(shape_of(got), shape_of(want)) << what;
                EXPECT_EQ(raw_bytes(got), raw_bytes(want)) << what;
            }
        }
    }
}

// scan.cpp: cumsum/cumprod along an outer axis, vectorised across the inner dims with the
// reference's accumulators, so the results are identical; integers wrap as the reference's.
TEST(CpuLarge, ColumnScansMatchReferenceExactly) {
    NEED_CPU();
    struct Case {
        std::vector<int64_t> shape;
        int64_t axis;
    // The last three: columns of fewer than 16 along a long axis (scan.cpp runs those too),
    // and a short axis over few columns (the reference's lines).
    } cases[] = {{{300, 1001}, 0}, {{20, 50, 300}, 1}, {{50, 7, 17}, 0}, {{3, 600, 40}, -2}, {{4000, 10}, 0}, {{30, 500, 3}, 1}, {{9, 5}, 0}};
    for (auto& c : cases) {
        int64_t n = 1;
        for (int64_t d : c.shape) n *= d;
        for (bool sum : {true, false}) {
            auto d = randf((size_t)n, sum ? -3.0f : 0.9f, sum ? 3.0f : 1.1f, 91);
            // NaNs of both signs, in either order, in two columns of the first case (a NaN
            // total stays the first NaN met)
            const float nan = std::numeric_limits<float>::quiet_NaN();
            if (&c == &cases[0]) d[100 * 1001 + 7] = -nan, d[200 * 1001 + 7] = nan, d[50 * 1001 + 9] = nan, d[60 * 1001 + 9] = -nan;
            if (&c == &cases[4]) d[1000 * 10 + 3] = nan, d[3000 * 10 + 3] = -nan, d[2500 * 10 + 9] = -nan;
            for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_INT32, EMBER_INT64}) {
                T x0 = tensor(cpu(), d, c.shape, EMBER_FLOAT32), x, scaled;
                if (dt == EMBER_INT32 || dt == EMBER_INT64) {  // integers in -300..300 (sum) or 2..3 (product, wrapping)
                    T k;
                    EM_OK(ember_full(cpu(), nullptr, 0, sum ? 100 : 3.0, EMBER_FLOAT32, k.out()));
                    EM_OK(ember_multiply(cpu(), x0, k, scaled.out()));
                    EM_OK(ember_astype(cpu(), scaled, dt, x.out()));
                } else {
                    EM_OK(ember_astype(cpu(), x0, dt, x.out()));
                }
                T got, want;
                auto fn = sum ? ember_cumsum : ember_cumprod;
                EM_OK(fn(cpu(), x, c.axis, got.out()));
                EM_OK(fn(ref(), as_ref(x), c.axis, want.out()));
                EXPECT_EQ(raw_bytes(got), raw_bytes(want)) << (sum ? "cumsum " : "cumprod ") << ember_dtype_name(dt) << " axis " << c.axis << " of " << c.shape.size() << "-d";
            }
        }
    }
}

// scan.cpp: float32/float64 cumsum/cumprod along the innermost axis, a line at a time in
// pieces of 4096 with the reference's double accumulator, so the results are identical: one
// long line (pieces and a tail), many short ones (across the pool), a 3-d tensor, rows of a
// slice (an offset), a stepped view (the reference's lines), NaNs of both signs in one piece
// (a NaN total stays the first NaN met: the piece is redone with the select) and
// infinities of both signs that meet in another.
TEST(CpuLarge, RowScansMatchReferenceExactly) {
    NEED_CPU();
    struct Case {
        std::vector<int64_t> shape;
        int64_t axis;
    } cases[] = {{{100003}, 0}, {{3000, 37}, 1}, {{7, 3, 5003}, -1}, {{1}, 0}};
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    for (auto& c : cases) {
        int64_t n = 1;
        for (int64_t d : c.shape) n *= d;
        for (bool sum : {true, false}) {
            auto d = randf((size_t)n, sum ? -3.0f : 0.999f, sum ? 3.0f : 1.001f, 92);
            if (&c == &cases[0]) d[5000] = -nan, d[6000] = nan, d[9000] = inf, d[9500] = -inf;
            if (&c == &cases[1]) d[37 * 100 + 5] = nan, d[37 * 100 + 9] = -nan;
            for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64}) {
                T x0 = tensor(cpu(), d, c.shape, EMBER_FLOAT32), x;
                EM_OK(ember_astype(cpu(), x0, dt, x.out()));
                auto fn = sum ? ember_cumsum : ember_cumprod;
                auto check = [&](const ember_tensor_t* v, int64_t axis, const std::string& what) {
                    T got, want;
                    EM_OK(fn(cpu(), v, axis, got.out()));
                    EM_OK(fn(ref(), as_ref(v), axis, want.out()));
                    EXPECT_EQ(backend_of(got), "cpu");
                    EXPECT_EQ(raw_bytes(got), raw_bytes(want)) << (sum ? "cumsum " : "cumprod ") << ember_dtype_name(dt) << " " << what;
                };
                check(x, c.axis, std::to_string(c.shape.size()) + "-d, " + std::to_string(n) + " elements");
                if (c.shape.size() != 2) continue;
                const int64_t from[2] = {5, 0}, to[2] = {EMBER_SLICE_END, EMBER_SLICE_END}, step[2] = {1, 2};
                T rows, stepped;
                EM_OK(ember_slice(cpu(), x, from, to, nullptr, 2, rows.out()));
                EM_OK(ember_slice(cpu(), x, from, to, step, 2, stepped.out()));
                check(rows, 1, "rows of a slice");
                check(stepped, 1, "a stepped view");
            }
        }
    }
}

// astype of contiguous, transposed and stepped views (the latter gathered into tiles, then
// the contiguous conversions; complex -> real through the real parts) against the reference bit for bit,
// from every kind of dtype to floats, half types, integers and bool, with NaN, infinities,
// zeros of both signs and values out of the integer types' range.
TEST(CpuLarge, StridedConversionsMatchReferenceExactly) {
    NEED_CPU();
    const int64_t rows = 301, cols = 514;
    auto values = randf((size_t)(rows * cols), -300, 300, 121);
    const float specials[] = {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                              0.0f, -0.0f, 0.5f, -0.5f, 1e10f, -1e10f, 127.5f, 255.0f, 65504.0f};
    for (size_t i = 0; i < values.size(); i += 37) values[i] = specials[(i / 37) % 12];
    T base = tensor(cpu(), values, {rows, cols}, EMBER_FLOAT32);
    const int64_t from0[2] = {0, 0}, to0[2] = {rows, cols}, steps[2] = {1, 2};
    const int64_t axis1 = 1;
    for (ember_dtype_t from : {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_FLOAT16, EMBER_BFLOAT16, EMBER_INT8, EMBER_UINT8, EMBER_INT16, EMBER_UINT16, EMBER_INT32,
                               EMBER_UINT32, EMBER_INT64, EMBER_UINT64, EMBER_BOOL, EMBER_COMPLEX64, EMBER_COMPLEX128}) {
        T x, xt, xs, xf;
        EM_OK(ember_astype(cpu(), base, from, x.out()));
        EM_OK(ember_matrix_transpose(cpu(), x, xt.out()));
        EM_OK(ember_slice(cpu(), x, from0, to0, steps, 2, xs.out()));
        EM_OK(ember_flip(cpu(), x, &axis1, 1, xf.out()));
        for (ember_dtype_t to : {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_FLOAT16, EMBER_BFLOAT16, EMBER_INT8, EMBER_UINT16, EMBER_INT32, EMBER_INT64, EMBER_UINT8,
                                 EMBER_BOOL, EMBER_COMPLEX64, EMBER_COMPLEX128}) {
            if (to == from) continue;
            for (auto [layout, v] : {std::pair<const char*, const ember_tensor_t*>{"contiguous", x}, {"transposed", xt}, {"stepped", xs}, {"flipped", xf}}) {
                T got, want;
                EM_OK(ember_astype(cpu(), v, to, got.out()));
                EM_OK(ember_astype(ref(), as_ref(v), to, want.out()));
                EXPECT_EQ(raw_bytes(got), raw_bytes(want)) << "astype " << layout << " " << ember_dtype_name(from) << " -> " << ember_dtype_name(to);
            }
        }
        // Copies in the same dtype: transposed ones through the register transpose, stepped
        // and reversed runs gathered straight into the output (vector reversals of 1, 2, 4
        // and 8 bytes, rows of 514 with a tail).
        for (auto [layout, v] : {std::pair<const char*, const ember_tensor_t*>{"transposed", xt}, {"stepped", xs}, {"flipped", xf}}) {
            T got, want;
            EM_OK(ember_copy(cpu(), v, got.out()));
            EM_OK(ember_copy(ref(), as_ref(v), want.out()));
            EXPECT_EQ(raw_bytes(got), raw_bytes(want)) << "copy " << layout << " " << ember_dtype_name(from);
        }
    }
}

// Real to complex (elementwise.cpp real_to_complex): the reference takes the value to double
// first, so 64-bit integers reach complex64 rounded twice, which differs from one rounding to
// float for values such as 2^60 + 2^36 + 1; float64 rounds once. Every such value, ahead of
// and behind vector widths.
TEST(CpuLarge, RealToComplexRoundsAsReference) {
    NEED_CPU();
    const int64_t big[] = {(1LL << 53) + 1, (1LL << 60) + (1LL << 36) + 1, -((1LL << 60) + (1LL << 36) + 1), (1LL << 62) + (1LL << 38) + 3,
                           INT64_MAX, INT64_MIN, 16777217, -16777217, 0, 1, -1};
    std::vector<int64_t> ints;
    for (int rep = 0; rep < 9; ++rep)
        for (int64_t v : big) ints.push_back((int64_t)((uint64_t)v + (uint64_t)(rep % 3)));  // wraps at the top
    const int64_t n = (int64_t)ints.size();
    T i64;
    EM_OK(ember_tensor_from_data(cpu(), ints.data(), EMBER_INT64, &n, 1, i64.out()));
    std::vector<double> doubles = {0.1, 1e300, -1e-300, 3.4028235677973366e38, 16777217.0, -0.0, 1.0 / 3.0, 5e-324};
    doubles.push_back(std::numeric_limits<double>::quiet_NaN());
    doubles.push_back(-std::numeric_limits<double>::infinity());
    const int64_t nd = (int64_t)doubles.size();
    T f64;
    EM_OK(ember_tensor_from_data(cpu(), doubles.data(), EMBER_FLOAT64, &nd, 1, f64.out()));
    T u64;
    EM_OK(ember_astype(cpu(), i64, EMBER_UINT64, u64.out()));
    for (const ember_tensor_t* x : {(const ember_tensor_t*)i64, (const ember_tensor_t*)u64, (const ember_tensor_t*)f64})
        for (ember_dtype_t to : {EMBER_COMPLEX64, EMBER_COMPLEX128}) {
            T got, want;
            EM_OK(ember_astype(cpu(), x, to, got.out()));
            EM_OK(ember_astype(ref(), as_ref(x), to, want.out()));
            EXPECT_EQ(raw_bytes(got), raw_bytes(want)) << ember_dtype_name(dtype_of(x)) << " -> " << ember_dtype_name(to);
        }
}

// float16/bfloat16 cumsum/cumprod (scan.cpp: widened, summed in double, each sum rounded
// once back): the reference's bits along the innermost dim (a long 1-d line in pieces of
// 1024, rows of odd length, short rows many per conversion, a view along a transposed axis:
// the reference's path) and along columns (narrow packed ones, wide ones, an outer dim).
TEST(CpuLarge, HalfScansMatchReferenceExactly) {
    NEED_CPU();
    for (ember_dtype_t dt : {EMBER_FLOAT16, EMBER_BFLOAT16}) {
        for (bool sum : {true, false}) {
            // NaNs of both signs late in the line and early in row 5 (a NaN total stays the
            // first NaN met), an overflow (sum) or a zero (product) midway.
            const float nan = std::numeric_limits<float>::quiet_NaN();
            auto values = randf(97 * 1031, sum ? -3.0f : 0.99f, sum ? 3.0f : 1.01f, 131);  // 100007
            values[50001] = sum ? 1e30f : 0.0f;
            values[99903] = nan, values[99953] = -nan;
            auto row_values = values;
            row_values[5 * 1031 + 10] = -nan, row_values[5 * 1031 + 20] = nan;
            T line = tensor(cpu(), values, {97 * 1031}, dt), rows = tensor(cpu(), row_values, {97, 1031}, EMBER_FLOAT32), rows_h, cols;
            EM_OK(ember_astype(cpu(), rows, dt, rows_h.out()));
            EM_OK(ember_matrix_transpose(cpu(), rows_h, cols.out()));
            // Short packed lines (many per conversion, the last group partial) and columns:
            // packed narrow ones (many steps per conversion), wide ones in blocks of 512, and
            // columns under an outer dim.
            const std::vector<float> first(row_values.begin(), row_values.begin() + 100000), cube(row_values.begin(), row_values.begin() + 7 * 1000 * 13);
            T narrow = tensor(cpu(), first, {10000, 10}, dt), odd = tensor(cpu(), first, {3125, 32}, dt), cuboid = tensor(cpu(), cube, {7, 1000, 13}, dt);
            auto fn = sum ? ember_cumsum : ember_cumprod;
            for (auto [layout, v, axis] : {std::tuple<const char*, const ember_tensor_t*, int64_t>{"1-d", line, -1}, {"rows", rows_h, -1}, {"transposed", cols, -1},
                                           {"(10000, 10) rows", narrow, 1}, {"(3125, 32) rows", odd, 1}, {"(10000, 10) columns", narrow, 0},
                                           {"(97, 1031) columns", rows_h, 0}, {"(7, 1000, 13) axis 1", cuboid, 1}}) {
                T got, want;
                EM_OK(fn(cpu(), v, axis, got.out()));
                EM_OK(fn(ref(), as_ref(v), axis, want.out()));
                EXPECT_EQ(raw_bytes(got), raw_bytes(want)) << (sum ? "cumsum " : "cumprod ") << ember_dtype_name(dt) << " " << layout;
            }
        }
    }
}

// Vector shifts (counts outside [0, bits) as the reference: 0, or -1 for a negative signed
// value shifted right) and integer/bool -> float conversions, every integer dtype, against
// the reference exactly; astype pairs without a vector kernel run the reference on slices.
TEST(CpuLarge, ShiftsAndConversionsMatchReferenceExactly) {
    NEED_CPU();
    const int64_t n = 300007;
    auto values = randf((size_t)n, -200, 200, 81), counts = randf((size_t)n, -3, 70, 82);
    for (size_t i = 0; i < values.size(); i += 97) values[i] = i % 2 ? 0.0f : -0.0f;  // zeros for the bool conversions
    values[5] = std::numeric_limits<float>::quiet_NaN();
    values[9] = 1e6f;  // infinite as float16
    T xv = tensor(cpu(), values, {n}, EMBER_FLOAT32), cv = tensor(cpu(), counts, {n}, EMBER_FLOAT32);
    for (ember_dtype_t dt : {EMBER_INT8, EMBER_INT16, EMBER_INT32, EMBER_INT64, EMBER_UINT8, EMBER_UINT16, EMBER_UINT32, EMBER_UINT64}) {
        T x, k, one;
        EM_OK(ember_astype(cpu(), xv, dt, x.out()));
        EM_OK(ember_astype(cpu(), cv, dt, k.out()));
        EM_OK(ember_full(cpu(), nullptr, 0, 3, dt, one.out()));
        const std::string d = ember_dtype_name(dt);
        using Fn2 = ember_status_t (*)(ember_ctx_t*, const ember_tensor_t*, const ember_tensor_t*, ember_tensor_t**);
        for (auto [name, fn] : {std::pair<const char*, Fn2>{"left_shift", ember_bitwise_left_shift}, {"right_shift", ember_bitwise_right_shift}}) {
            for (auto [what, a, b] : {std::tuple<const char*, const ember_tensor_t*, const ember_tensor_t*>{"", x, k}, {" by a scalar", x, one}, {" of a scalar", one, k}}) {
                T got, want;
                EM_OK(fn(cpu(), a, b, got.out()));
                EM_OK(fn(ref(), as_ref(a), as_ref(b), want.out()));
                expect_close(got, want, 0, 0, std::string(name) + what + " " + d);
            }
        }
    }
    T flags;
    EM_OK(ember_astype(cpu(), xv, EMBER_BOOL, flags.out()));
    // float16/bfloat16 <-> integers and bool (through float32 or float64 in pieces): also
    // from integers up to +-70000, which float16 rounds (ties to even) or overflows.
    T wide_ints, scale;
    EM_OK(ember_full(cpu(), nullptr, 0, 350, EMBER_FLOAT32, scale.out()));
    EM_OK(ember_multiply(cpu(), xv, scale, wide_ints.out()));
    for (ember_dtype_t from : {EMBER_BOOL, EMBER_INT8, EMBER_UINT16, EMBER_INT32, EMBER_UINT32, EMBER_INT64, EMBER_UINT64, EMBER_FLOAT32, EMBER_FLOAT64,
                               EMBER_FLOAT16, EMBER_BFLOAT16}) {
        T x;
        EM_OK(ember_astype(cpu(), from == EMBER_BOOL ? flags : xv, from, x.out()));
        if (from == EMBER_UINT64) {  // values above 2^53, where the conversion rounds
            T big, shifted, sixty;
            EM_OK(ember_full(cpu(), nullptr, 0, 40, from, sixty.out()));
            EM_OK(ember_bitwise_left_shift(cpu(), x, sixty, big.out()));
            x = std::move(big);
        }
        for (ember_dtype_t to : {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_INT16, EMBER_UINT8, EMBER_BOOL, EMBER_FLOAT16, EMBER_BFLOAT16, EMBER_INT64}) {
            T got, want;
            EM_OK(ember_astype(cpu(), x, to, got.out()));
            EM_OK(ember_astype(ref(), as_ref(x), to, want.out()));
            expect_close(got, want, 0, 0, std::string("astype ") + ember_dtype_name(from) + "->" + ember_dtype_name(to));
        }
        if (from == EMBER_BOOL || from == EMBER_FLOAT16 || from == EMBER_BFLOAT16) continue;
        T w;
        EM_OK(ember_astype(cpu(), wide_ints, from, w.out()));
        for (ember_dtype_t to : {EMBER_FLOAT16, EMBER_BFLOAT16}) {
            T got, want;
            EM_OK(ember_astype(cpu(), w, to, got.out()));
            EM_OK(ember_astype(ref(), as_ref(w), to, want.out()));
            expect_close(got, want, 0, 0, std::string("astype of values to 70000 ") + ember_dtype_name(from) + "->" + ember_dtype_name(to));
        }
    }
}

// float64 -> float16/bfloat16 (cvt_f64_half: floats rounded to odd, a vector at a time):
// bit for bit the reference's single rounding, on random doubles, on values a hair either
// side of the half types' half-way points (where rounding through the nearest float goes
// wrong), on the overflow and subnormal edges and on specials; an odd count for the tail.
TEST(CpuLarge, Float64ToHalfTypesMatchReferenceExactly) {
    NEED_CPU();
    std::mt19937_64 rng(83);
    std::vector<double> x;
    for (int i = 0; i < 100001; ++i) {
        const double m = std::ldexp((double)(rng() >> 11), -53);  // [0, 1) with 53 bits
        const int e = (int)(rng() % 60) - 30;
        x.push_back((i % 2 ? -1 : 1) * std::ldexp(1 + m, e));
    }
    for (int i = 0; i < 2000; ++i) {  // half-way points of float16 (11 bits) and bfloat16 (8 bits), nudged
        const int bits = i % 2 ? 11 : 8, e = (int)(rng() % 40) - 20;
        const double mid = std::ldexp((double)((rng() % (1u << bits)) | (1u << bits)) + 0.5, e - bits);
        const double nudge = std::ldexp(mid, -(int)(30 + rng() % 20));
        x.push_back(mid + (i % 4 < 2 ? nudge : -nudge));
        x.push_back(mid);
    }
    for (double v : {65519.999999, 65520.0, 65504.0, std::ldexp(1.0, -25) * (1 + 1e-9), std::ldexp(1.0, -25), 1e-300, -1e-300, 1e300, -0.0,
                     std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN(),
                     std::numeric_limits<double>::denorm_min(), 3.4028235677973366e38, 3.4028234663852886e38})
        x.push_back(v);
    const int64_t n = (int64_t)x.size();
    T t;
    EM_OK(ember_tensor_from_data(cpu(), x.data(), EMBER_FLOAT64, &n, 1, t.out()));
    for (ember_dtype_t to : {EMBER_FLOAT16, EMBER_BFLOAT16}) {
        T got, want;
        EM_OK(ember_astype(cpu(), t, to, got.out()));
        EM_OK(ember_astype(ref(), as_ref(t), to, want.out()));
        EXPECT_EQ(backend_of(got), "cpu");
        std::vector<uint16_t> g((size_t)n), w((size_t)n);
        EM_OK(ember_tensor_read(got, g.data(), g.size() * 2));
        EM_OK(ember_tensor_read(want, w.data(), w.size() * 2));
        size_t bad = 0, first = 0;
        for (size_t i = 0; i < g.size(); ++i)
            if (g[i] != w[i] && !bad++) first = i;
        EXPECT_EQ(bad, 0u) << ember_dtype_name(to) << ": first at " << first << " (" << std::hexfloat << x[first] << "): " << g[first] << " against " << w[first];
    }
}

// float16/bfloat16 <-> float32 astype (the ISA's cvt table, whose AVX-512 loops end in a
// masked step): every half bit pattern widened; float32 values at every exponent, the
// half-way points of both half types and their float32 neighbours, float16's subnormal and
// overflow edges and NaNs of every kind narrowed; each also as windows of 0 to 40 elements
// at an odd offset, so that every tail length is met. Bit for bit against the reference.
TEST(CpuLarge, HalfFloat32ConversionsMatchReferenceAtEveryLength) {
    NEED_CPU();
    std::vector<uint16_t> every(65536);
    for (size_t i = 0; i < every.size(); ++i) every[i] = (uint16_t)i;
    std::mt19937 rng(29);
    std::vector<uint32_t> narrow;
    for (int i = 0; i < 20000; ++i) narrow.push_back((uint32_t)rng());
    for (int i = 0; i < 4000; ++i) {  // ties of float16 (13 dropped bits) and bfloat16 (16), and beside them
        const int dropped = i % 2 ? 13 : 16;
        const uint32_t e = (i % 4 < 2 ? 103u + rng() % 50u : 1u + rng() % 254u) << 23;  // float16's range, or any
        const uint32_t tie = (rng() & 0x807fffffu & ~((1u << dropped) - 1)) | e | (1u << (dropped - 1));
        for (uint32_t b : {tie, tie - 1, tie + 1}) narrow.push_back(b);
    }
    for (uint32_t b = 0x33000000u; b <= 0x38800000u; b += 0x1357u) narrow.push_back(b);  // float16 subnormals
    for (uint32_t b : {0x477fe000u, 0x477fefffu, 0x477ff000u, 0x477fffffu, 0x47800000u, 0x7f7fffffu, 0x7f800000u, 0xff800000u, 0x80000000u,
                       0x00000001u, 0x807fffffu, 0x7fc00000u, 0xffc00000u, 0x7f800001u, 0xff800001u, 0x7fbfffffu, 0x7fc01234u, 0xffffffffu,
                       0x7f7f8000u, 0x7f7f7fffu, 0x3f808000u, 0x3f818000u})
        narrow.push_back(b);
    auto compare = [](const T& src, ember_dtype_t to, int64_t from, int64_t len, const std::string& what) {
        T view, got, want;
        const int64_t begin[1] = {from}, end[1] = {from + len}, step[1] = {1};
        EM_OK(ember_slice(cpu(), src, begin, end, step, 1, view.out()));
        EM_OK(ember_astype(cpu(), view, to, got.out()));
        EM_OK(ember_astype(ref(), as_ref(view), to, want.out()));
        EXPECT_EQ(backend_of(got), "cpu");
        EXPECT_EQ(raw_bytes(got), raw_bytes(want)) << what << ", " << len << " elements from " << from;
    };
    const int64_t nwide = (int64_t)every.size(), nnarrow = (int64_t)narrow.size();
    T f32;
    EM_OK(ember_tensor_from_data(cpu(), narrow.data(), EMBER_FLOAT32, &nnarrow, 1, f32.out()));
    for (ember_dtype_t half : {EMBER_FLOAT16, EMBER_BFLOAT16}) {
        const std::string dn = ember_dtype_name(half);
        T h;
        EM_OK(ember_tensor_from_data(cpu(), every.data(), half, &nwide, 1, h.out()));
        compare(h, EMBER_FLOAT32, 0, nwide, "every " + dn + " -> float32");
        compare(f32, half, 0, nnarrow, "float32 -> " + dn);
        for (int64_t len = 0; len <= 40; ++len) {
            compare(h, EMBER_FLOAT32, 0x7bf1, len, dn + " around the largest finite float16 -> float32");
            compare(h, EMBER_FLOAT32, 0xfc01, len, dn + " NaNs -> float32");
            compare(f32, half, nnarrow - 41, len, "float32 edges -> " + dn);
        }
    }
}

// Float -> integer astype (the ISA's toint table): NaN -> 0, saturation at each integer's
// range, truncation toward zero, at every edge of every integer type and in the vector body
// as well as the tail; integer -> integer wraps as the reference does; complex -> real takes
// the real part (bool: either part).
TEST(CpuLarge, FloatToIntegerSaturatesAsReference) {
    NEED_CPU();
    const double inf = std::numeric_limits<double>::infinity(), p63 = std::ldexp(1.0, 63);
    std::vector<double> edges = {std::nan(""), inf, -inf, 0.0, -0.0, 0.5, -0.5, 0.999, -0.999, 1.5, -1.5,
                                 127, 127.5, 128, -128, -128.5, -129, 255, 255.5, 256, 32767, 32768, -32768, -32769,
                                 65535, 65536, 2147483520.0, 2147483647.0, 2147483648.0, -2147483648.0, -2147483904.0,
                                 4294967295.0, 4294967296.0, std::ldexp(1.0, 53), std::ldexp(1.0, 62), p63 - 1024, p63,
                                 -p63, -p63 - 4096, std::ldexp(1.0, 64) - 4096, std::ldexp(1.0, 64), 1e30, -1e30, 3e38};
    std::vector<double> values;
    auto wide = randf(3000, -30, 30, 91), sign = randf(3000, -1, 1, 92);
    for (size_t i = 0; i < wide.size(); ++i) {
        if (i % 50 < edges.size() && i % 50 < 45) values.push_back(edges[i % 50 % edges.size()]);
        values.push_back((sign[i] < 0 ? -1 : 1) * std::pow(10.0, (double)wide[i] * 0.7));  // |v| from 1e-21 to 1e21
    }
    const int64_t n = (int64_t)values.size();
    const ember_dtype_t ints[] = {EMBER_INT8, EMBER_INT16, EMBER_INT32, EMBER_INT64, EMBER_UINT8, EMBER_UINT16, EMBER_UINT32, EMBER_UINT64};
    for (ember_dtype_t from : {EMBER_FLOAT32, EMBER_FLOAT64}) {
        T x = tensor(cpu(), values, {n}, from);
        for (ember_dtype_t to : ints) {
            T got, want;
            EM_OK(ember_astype(cpu(), x, to, got.out()));
            EM_OK(ember_astype(ref(), as_ref(x), to, want.out()));
            expect_close(got, want, 0, 0, std::string("astype ") + ember_dtype_name(from) + "->" + ember_dtype_name(to));
        }
    }
    // To 64-bit integers, blocks of values inside int32's range take a path of their own
    // (simd_impl.cpp): values up to that range's ends, most blocks with nothing else, a few
    // with one value outside it, NaN or a negative fraction.
    std::vector<double> inside;
    auto u = randf(20011, -1, 1, 93);
    for (size_t i = 0; i < u.size(); ++i) inside.push_back(u[i] * (i % 3 == 0 ? 2147483520.0 : i % 3 == 1 ? 1e5 : 2.0));
    const double lone[] = {std::nan(""), 2147483648.0, -2147483648.0, -1.0, -0.5, 3e9, -2147483904.0};
    for (size_t k = 0; k < std::size(lone); ++k) inside[k * 2857 + 7] = lone[k];
    for (ember_dtype_t from : {EMBER_FLOAT32, EMBER_FLOAT64}) {
        T x = tensor(cpu(), inside, {(int64_t)inside.size()}, from);
        for (ember_dtype_t to : {EMBER_INT64, EMBER_UINT64}) {
            T got, want;
            EM_OK(ember_astype(cpu(), x, to, got.out()));
            EM_OK(ember_astype(ref(), as_ref(x), to, want.out()));
            expect_close(got, want, 0, 0, std::string("astype in int32's range ") + ember_dtype_name(from) + "->" + ember_dtype_name(to));
        }
    }
    // complex -> every real dtype takes the real part (the imaginary one: large, NaN, or 0),
    // -> bool either part; bit for bit, contiguous (tiled past the threading threshold) and strided.
    std::vector<std::complex<double>> z;
    for (int rep = 0; rep < 50; ++rep)
        for (size_t i = 0; i < values.size(); ++i)
            z.emplace_back(i % 7 == 3 ? 0.0 : values[i], i % 3 == 0 ? 0.0 : i % 3 == 1 ? values[(i * 5) % values.size()] : -0.0);
    const int64_t zshape[1] = {(int64_t)z.size()}, from0[1] = {1}, to0[1] = {(int64_t)z.size()}, step2[1] = {2};
    T z128, z64, z128s, z64s;
    EM_OK(ember_tensor_from_data(cpu(), z.data(), EMBER_COMPLEX128, zshape, 1, z128.out()));
    EM_OK(ember_astype(cpu(), z128, EMBER_COMPLEX64, z64.out()));
    EM_OK(ember_slice(cpu(), z128, from0, to0, step2, 1, z128s.out()));
    EM_OK(ember_slice(cpu(), z64, from0, to0, step2, 1, z64s.out()));
    for (auto [what, x] : {std::pair<const char*, const ember_tensor_t*>{"", z128}, {"", z64}, {" strided", z128s}, {" strided", z64s}})
        for (ember_dtype_t to : {EMBER_BOOL, EMBER_INT8, EMBER_INT16, EMBER_INT32, EMBER_INT64, EMBER_UINT8, EMBER_UINT16, EMBER_UINT32, EMBER_UINT64,
                                 EMBER_FLOAT16, EMBER_BFLOAT16, EMBER_FLOAT32, EMBER_FLOAT64}) {
            T got, want;
            EM_OK(ember_astype(cpu(), x, to, got.out()));
            EM_OK(ember_astype(ref(), as_ref(x), to, want.out()));
            EXPECT_EQ(raw_bytes(got), raw_bytes(want)) << "astype " << ember_dtype_name(dtype_of(x)) << what << "->" << ember_dtype_name(to);
        }
    T source = tensor(cpu(), values, {n}, EMBER_INT64);
    for (ember_dtype_t from : ints) {
        T x;
        EM_OK(ember_astype(cpu(), source, from, x.out()));
        for (ember_dtype_t to : ints) {
            T got, want;
            EM_OK(ember_astype(cpu(), x, to, got.out()));
            EM_OK(ember_astype(ref(), as_ref(x), to, want.out()));
            expect_close(got, want, 0, 0, std::string("astype ") + ember_dtype_name(from) + "->" + ember_dtype_name(to));
        }
    }
}

// Integer matmul (matmul.cpp): wrap-around in the type's width, as the reference, for
// batches, a broadcast b, a transposed b, a stepped b per batch entry (packed by
// gather_strided), rows that do not fill the last block, and values whose products
// overflow; matrix-vector products (a dot product per row) with a packed, a stepped and a
// column-of-a-matrix vector.
TEST(CpuLarge, IntegerMatmulMatchesReferenceExactly) {
    NEED_CPU();
    auto values = [](size_t n, unsigned seed) { return randf(n, -3e4f, 3e4f, seed); };
    T a0 = tensor(cpu(), values(3 * 130 * 70, 131), {3, 130, 70}, EMBER_FLOAT32);
    T b0 = tensor(cpu(), values(70 * 91, 132), {70, 91}, EMBER_FLOAT32);
    T bt0 = tensor(cpu(), values(91 * 70, 133), {91, 70}, EMBER_FLOAT32);
    T bw0 = tensor(cpu(), values(3 * 70 * 182, 134), {3, 70, 182}, EMBER_FLOAT32);
    for (ember_dtype_t dt : {EMBER_INT8, EMBER_INT16, EMBER_INT32, EMBER_INT64, EMBER_UINT8, EMBER_UINT16, EMBER_UINT32, EMBER_UINT64}) {
        T a, b, bt, btt, bw, bs;
        EM_OK(ember_astype(cpu(), a0, dt, a.out()));
        EM_OK(ember_astype(cpu(), b0, dt, b.out()));
        EM_OK(ember_astype(cpu(), bt0, dt, bt.out()));
        EM_OK(ember_matrix_transpose(cpu(), bt, btt.out()));  // (70, 91), column-major
        EM_OK(ember_astype(cpu(), bw0, dt, bw.out()));
        const int64_t from[3] = {0, 0, 1}, to[3] = {3, 70, 182}, steps[3] = {1, 1, 2};
        EM_OK(ember_slice(cpu(), bw, from, to, steps, 3, bs.out()));  // (3, 70, 91), every other column, one b per batch entry
        for (auto [what, rhs] : {std::pair<const char*, const ember_tensor_t*>{"broadcast b", b}, {"transposed b", btt}, {"stepped b per batch", bs}}) {
            T got, want;
            EM_OK(ember_matmul(cpu(), a, rhs, got.out()));
            EM_OK(ember_matmul(ref(), as_ref(a), as_ref(rhs), want.out()));
            EXPECT_EQ(backend_of(got), "cpu");
            expect_close(got, want, 0, 0, std::string("matmul ") + what + " " + ember_dtype_name(dt));
        }
        T v, vs, col;
        const int64_t vfrom[3] = {1, 0, 0}, vto[3] = {2, 1, 140}, vstep[3] = {1, 1, 2}, vshape[1] = {70};
        const int64_t cfrom[2] = {0, 5}, cto[2] = {70, 6};
        T v2, v2flat;
        EM_OK(ember_slice(cpu(), bw, vfrom, vto, vstep, 3, v2.out()));  // (1, 1, 70), every other element
        EM_OK(ember_reshape(cpu(), v2, vshape, 1, vs.out()));
        EM_OK(ember_copy(cpu(), vs, v.out()));  // packed
        EM_OK(ember_slice(cpu(), b, cfrom, cto, nullptr, 2, col.out()));  // (70, 1), rows 91 apart
        for (auto [what, rhs] : {std::pair<const char*, const ember_tensor_t*>{"@ vector", v}, {"@ stepped vector", vs}, {"@ column of b", col}}) {
            T got, want;
            EM_OK(ember_matmul(cpu(), a, rhs, got.out()));
            EM_OK(ember_matmul(ref(), as_ref(a), as_ref(rhs), want.out()));
            expect_close(got, want, 0, 0, std::string("matmul ") + what + " " + ember_dtype_name(dt));
        }
    }
}

// Integer matrix-vector products without a batch (matmul.cpp: int_matvec, the ISA's
// simd_gemv.hpp kernels on the matrix as it lies): M @ v and v @ M with M as it is and
// transposed (both kernel forms each), packed, stepped and reversed vectors, a matrix on
// the pool (400 x 333) and small ones whose columns leave vector tails (70 x 91, 5 x 3),
// values whose products overflow.
TEST(CpuLarge, IntegerMatrixVectorMatchesReferenceExactly) {
    NEED_CPU();
    auto values = [](size_t n, unsigned seed) { return randf(n, -3e4f, 3e4f, seed); };
    for (auto [rows, cols] : {std::pair<int64_t, int64_t>{400, 333}, {70, 91}, {5, 3}}) {
        T m0 = tensor(cpu(), values((size_t)(rows * cols), 151), {rows, cols}, EMBER_FLOAT32);
        T r0 = tensor(cpu(), values((size_t)(2 * rows), 152), {2 * rows}, EMBER_FLOAT32);
        T c0 = tensor(cpu(), values((size_t)(2 * cols), 153), {2 * cols}, EMBER_FLOAT32);
        for (ember_dtype_t dt : {EMBER_INT8, EMBER_INT16, EMBER_INT32, EMBER_INT64, EMBER_UINT8, EMBER_UINT16, EMBER_UINT32, EMBER_UINT64}) {
            T m, mt, r2, c2;
            EM_OK(ember_astype(cpu(), m0, dt, m.out()));
            EM_OK(ember_matrix_transpose(cpu(), m, mt.out()));  // (cols, rows), column-major
            EM_OK(ember_astype(cpu(), r0, dt, r2.out()));
            EM_OK(ember_astype(cpu(), c0, dt, c2.out()));
            // A vector of n elements: packed, every other one of 2n, and reversed.
            auto vectors = [&](const T& twice, int64_t n, T (&out)[3]) {
                const int64_t zero[1] = {0}, half[1] = {n}, all[1] = {2 * n}, two[1] = {2}, axis[1] = {0};
                T packed, stepped;
                ASSERT_EQ(ember_slice(cpu(), twice, zero, half, nullptr, 1, packed.out()), EMBER_OK);
                ASSERT_EQ(ember_slice(cpu(), twice, zero, all, two, 1, stepped.out()), EMBER_OK);
                ASSERT_EQ(ember_flip(cpu(), packed, axis, 1, out[2].out()), EMBER_OK);
                out[0] = std::move(packed);
                out[1] = std::move(stepped);
            };
            T rv[3], cv[3];
            vectors(r2, rows, rv);
            vectors(c2, cols, cv);
            const char* kinds[3] = {"packed", "stepped", "reversed"};
            for (int i = 0; i < 3; ++i) {
                const std::string dn = std::string(ember_dtype_name(dt)) + " " + std::to_string(rows) + "x" + std::to_string(cols) + " " + kinds[i];
                for (auto [what, lhs, rhs] : {std::tuple<const char*, const ember_tensor_t*, const ember_tensor_t*>{"M @ v", m, cv[i]},
                                              {"M.T @ v", mt, rv[i]}, {"v @ M", rv[i], m}, {"v @ M.T", cv[i], mt}}) {
                    T got, want;
                    EM_OK(ember_matmul(cpu(), lhs, rhs, got.out()));
                    EM_OK(ember_matmul(ref(), as_ref(lhs), as_ref(rhs), want.out()));
                    expect_close(got, want, 0, 0, std::string(what) + " " + dn);
                }
            }
        }
    }
}

// Elementwise ops with a transposed (strided) operand: the operand is gathered run by run
// into a buffer for the vector kernels (elementwise.cpp). Exact ops must match the
// reference exactly, transcendental ones within the kernels' stated error.
TEST(CpuLarge, StridedOperandsGatheredForVectorKernels) {
    NEED_CPU();
    const int64_t rows = 603, cols = 1001;
    T x0 = tensor(cpu(), randf((size_t)(rows * cols), -3, 3, 141), {rows, cols}, EMBER_FLOAT32);
    T y0 = tensor(cpu(), randf((size_t)(rows * cols), -3, 3, 142), {cols, rows}, EMBER_FLOAT32);
    for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_INT32, EMBER_INT8}) {
        const std::string dn = ember_dtype_name(dt);
        T x, y, xt;
        EM_OK(ember_astype(cpu(), x0, dt, x.out()));
        EM_OK(ember_astype(cpu(), y0, dt, y.out()));
        EM_OK(ember_matrix_transpose(cpu(), x, xt.out()));  // (1001, 603), strides (1, 1001)
        using Fn2 = ember_status_t (*)(ember_ctx_t*, const ember_tensor_t*, const ember_tensor_t*, ember_tensor_t**);
        for (auto [name, fn] : {std::pair<const char*, Fn2>{"add", ember_add}, {"multiply", ember_multiply}, {"less", ember_less}, {"maximum", ember_maximum}}) {
            for (auto [what, a, b] : {std::tuple<const char*, const ember_tensor_t*, const ember_tensor_t*>{" transposed + contiguous", xt, y},
                                      {" contiguous + transposed", y, xt}, {" transposed + transposed", xt, xt}}) {
                T got, want;
                EM_OK(fn(cpu(), a, b, got.out()));
                EM_OK(fn(ref(), as_ref(a), as_ref(b), want.out()));
                expect_close(got, want, 0, 0, std::string(name) + what + " " + dn);
            }
        }
        // A batch of transposed matrices: the tiles walk an outer dim too.
        int64_t s3[3] = {3, 201, cols};
        T x3, x3t, y3, got3, want3;
        EM_OK(ember_reshape(cpu(), x, s3, 3, x3.out()));
        EM_OK(ember_matrix_transpose(cpu(), x3, x3t.out()));  // (3, 1001, 201)
        EM_OK(ember_negative(cpu(), x3t, y3.out()));           // contiguous
        EM_OK(ember_subtract(cpu(), x3t, y3, got3.out()));
        EM_OK(ember_subtract(ref(), as_ref(x3t), as_ref(y3), want3.out()));
        expect_close(got3, want3, 0, 0, "subtract of transposed batch " + dn);
        using Fn1 = ember_status_t (*)(ember_ctx_t*, const ember_tensor_t*, ember_tensor_t**);
        for (auto [name, fn, rtol] : {std::tuple<const char*, Fn1, double>{"negative", ember_negative, 0}, {"abs", ember_abs, 0},
                                      {"exp", ember_exp, dt == EMBER_FLOAT32 ? 5e-7 : 2e-15}, {"tanh", ember_tanh, dt == EMBER_FLOAT32 ? 5e-7 : 2e-15}}) {
            if (rtol > 0 && (dt == EMBER_INT32 || dt == EMBER_INT8)) continue;
            T got, want;
            EM_OK(fn(cpu(), xt, got.out()));
            EM_OK(fn(ref(), as_ref(xt), want.out()));
            expect_close(got, want, rtol, 1e-30, std::string(name) + " of a transposed view " + dn);
        }
    }
}


// Comparisons write their bytes from loops the compiler vectorises, and where blends both
// values instead of branching: every comparison and every dtype, with NaN, infinities,
// zeros of both signs and equal pairs, contiguous (lengths 1 to 40 for the vector tails),
// against a 0-d operand on either side and stepped; where for every element size (1, 2, 4,
// 8, 16 bytes) with either value 0-d, stepped values and a broadcast row. Bytes, not values:
// a comparison writing 0xff for true, or a where picking the wrong side, fails.
TEST(CpuLarge, ComparisonsAndWhereMatchReferenceBytes) {
    NEED_CPU();
    const int64_t n = 4099;
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    auto da = randf((size_t)n, -4, 4, 140), db = randf((size_t)n, -4, 4, 141);
    for (size_t i = 0; i < da.size(); i += 7) db[i] = da[i];  // equal pairs
    const float specials[] = {nan, inf, -inf, 0.0f, -0.0f, -nan};
    for (size_t i = 0; i < 36; ++i) {
        da[3 + 11 * i] = specials[i % 6];
        db[3 + 11 * i] = specials[(i / 6) % 6];
    }
    auto same_bytes = [](const ember_tensor_t* got, const ember_tensor_t* want, const std::string& what) {
        EXPECT_EQ(dtype_of(got), dtype_of(want)) << what;
        EXPECT_TRUE(raw_bytes(got) == raw_bytes(want)) << what;
    };
    using Compare = ember_status_t (*)(ember_ctx_t*, const ember_tensor_t*, const ember_tensor_t*, ember_tensor_t**);
    const std::pair<const char*, Compare> compares[] = {{"equal", ember_equal}, {"not_equal", ember_not_equal}, {"less", ember_less},
                                                        {"less_equal", ember_less_equal}, {"greater", ember_greater},
                                                        {"greater_equal", ember_greater_equal}};
    const int64_t zero = 0, one = 1, two = 2;
    for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_FLOAT16, EMBER_BFLOAT16, EMBER_INT8, EMBER_UINT8, EMBER_INT16, EMBER_UINT16,
                             EMBER_INT32, EMBER_UINT32, EMBER_INT64, EMBER_UINT64, EMBER_BOOL}) {
        const std::string dn = ember_dtype_name(dt);
        T a = tensor(cpu(), da, {n}, dt), b = tensor(cpu(), db, {n}, dt), a0, b0, a_even, b_odd;
        const int64_t at[1] = {5}, upto[1] = {6}, n_even = n - 1;
        EM_OK(ember_slice(cpu(), a, at, upto, nullptr, 1, a0.out()));
        EM_OK(ember_squeeze(cpu(), a0, &zero, 1, b0.out()));  // a 0-d operand: a[5]
        EM_OK(ember_slice(cpu(), a, &zero, &n_even, &two, 1, a_even.out()));
        EM_OK(ember_slice(cpu(), b, &one, &n, &two, 1, b_odd.out()));
        std::vector<std::pair<std::string, std::pair<T, T>>> layouts;
        for (int64_t len = 1; len <= 40; ++len) {
            T ah, bh;
            EM_OK(ember_slice(cpu(), a, &zero, &len, nullptr, 1, ah.out()));
            EM_OK(ember_slice(cpu(), b, &zero, &len, nullptr, 1, bh.out()));
            layouts.emplace_back("length " + std::to_string(len), std::make_pair(std::move(ah), std::move(bh)));
        }
        for (auto [name, fn] : compares) {
            for (auto [what, x, y] : {std::tuple<const char*, const ember_tensor_t*, const ember_tensor_t*>{"contiguous", a, b}, {"0-d left", b0, b},
                                      {"0-d right", a, b0}, {"stepped", a_even, b_odd}}) {
                T got, want;
                EM_OK(fn(cpu(), x, y, got.out()));
                EM_OK(fn(ref(), as_ref(x), as_ref(y), want.out()));
                same_bytes(got, want, std::string(name) + " " + dn + " " + what);
            }
            for (auto& [len, pair] : layouts) {
                T got, want;
                EM_OK(fn(cpu(), pair.first, pair.second, got.out()));
                EM_OK(fn(ref(), as_ref(pair.first), as_ref(pair.second), want.out()));
                same_bytes(got, want, std::string(name) + " " + dn + " " + len);
            }
        }
    }
    T fa = tensor(cpu(), da, {n}, EMBER_FLOAT32), fb = tensor(cpu(), db, {n}, EMBER_FLOAT32), cond, row_cond;
    EM_OK(ember_less(cpu(), fa, fb, cond.out()));
    const int64_t grid[2] = {1, n};
    EM_OK(ember_reshape(cpu(), cond, grid, 2, row_cond.out()));
    for (ember_dtype_t dt : {EMBER_BOOL, EMBER_INT8, EMBER_FLOAT16, EMBER_FLOAT32, EMBER_FLOAT64, EMBER_COMPLEX128}) {
        const std::string dn = ember_dtype_name(dt);
        T a = tensor(cpu(), da, {n}, dt), b = tensor(cpu(), db, {n}, dt), a0, s, a_even, b_odd, c_even, stacked;
        const int64_t at[1] = {5}, upto[1] = {6}, n_even = n - 1;
        EM_OK(ember_slice(cpu(), a, at, upto, nullptr, 1, a0.out()));
        EM_OK(ember_squeeze(cpu(), a0, &zero, 1, s.out()));
        EM_OK(ember_slice(cpu(), a, &zero, &n_even, &two, 1, a_even.out()));
        EM_OK(ember_slice(cpu(), b, &one, &n, &two, 1, b_odd.out()));
        EM_OK(ember_slice(cpu(), cond, &zero, &n_even, &two, 1, c_even.out()));
        const ember_tensor_t* pair[2] = {a, b};
        EM_OK(ember_stack(cpu(), pair, 2, 0, stacked.out()));  // (2, n): the condition's row broadcast
        for (auto [what, c, x, y] : {std::tuple<const char*, const ember_tensor_t*, const ember_tensor_t*, const ember_tensor_t*>{"contiguous", cond, a, b},
                                     {"0-d value left", cond, s, b}, {"0-d value right", cond, a, s}, {"stepped", c_even, a_even, b_odd},
                                     {"broadcast condition row", row_cond, stacked, b}}) {
            T got, want;
            EM_OK(ember_where(cpu(), c, x, y, got.out()));
            EM_OK(ember_where(ref(), as_ref(c), as_ref(x), as_ref(y), want.out()));
            same_bytes(got, want, "where " + dn + " " + what);
        }
    }
}

}  // namespace
