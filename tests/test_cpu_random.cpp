// random_ops.cpp's random_normal and random_exponential kernels, which replace their
// composites (src/ops/random.cpp) on cpu. They promise the composite's values on this
// backend bit for bit, so the test draws the same Philox words with random_bits, forms the
// composite's unit uniforms on the host (exact values) and runs the composite's ops on cpu
// one by one. Against the reference backend, whose log, log1p and cos are libm's (cpu's are
// libmvec's), the values agree within a few ulp of the work dtype.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "cpu_contexts.hpp"
#include "ember/ember_random.h"

namespace {

using UnaryOp = ember_status_t (*)(ember_ctx_t*, const ember_tensor_t*, ember_tensor_t**);
using BinaryOp = ember_status_t (*)(ember_ctx_t*, const ember_tensor_t*, const ember_tensor_t*, ember_tensor_t**);

T on_cpu(UnaryOp op, const T& x) {
    T r;
    EXPECT_EQ(op(cpu(), x, r.out()), EMBER_OK) << ember_last_error();
    return r;
}
T on_cpu(BinaryOp op, const T& a, const T& b) {
    T r;
    EXPECT_EQ(op(cpu(), a, b, r.out()), EMBER_OK) << ember_last_error();
    return r;
}
// A 0-d tensor of dtype dt: a weak scalar in the composite's arithmetic of that dtype.
T scalar(double v, ember_dtype_t dt) {
    T s;
    EXPECT_EQ(ember_full(cpu(), nullptr, 0, v, dt, s.out()), EMBER_OK) << ember_last_error();
    return s;
}

int64_t count_of(const std::vector<int64_t>& shape) {
    int64_t n = 1;
    for (int64_t s : shape) n *= s;
    return n;
}

// The composite's next unit uniforms on [0, 1) of shape, in dtype w (float32: 24 bits of a
// word; float64: 53 bits of two), from the words random_bits draws on cpu.
T unit_uniforms(const std::vector<int64_t>& shape, ember_dtype_t w) {
    const bool f64 = w == EMBER_FLOAT64;
    const int64_t n = count_of(shape), count = n * (f64 ? 2 : 1);
    T bits;
    EXPECT_EQ(ember_random_bits(cpu(), &count, 1, bits.out()), EMBER_OK) << ember_last_error();
    std::vector<uint32_t> words((size_t)count);
    if (count) {
        EXPECT_EQ(ember_tensor_read(bits, words.data(), words.size() * 4), EMBER_OK);
    }
    std::vector<double> u((size_t)n);
    for (size_t k = 0; k < u.size(); ++k)
        u[k] = f64 ? ((double)(words[2 * k] >> 5) * 67108864.0 + (double)(words[2 * k + 1] >> 6)) / 9007199254740992.0
                   : (double)(words[k] >> 8) / 16777216.0;
    return tensor(cpu(), u, shape, w);
}

ember_dtype_t work_dtype(ember_dtype_t dt) { return dt == EMBER_FLOAT64 ? EMBER_FLOAT64 : EMBER_FLOAT32; }

// The composites' op sequences on cpu, from the context's current stream.
T normal_by_ops(const std::vector<int64_t>& shape, double mean, double sd, ember_dtype_t dt) {
    const ember_dtype_t w = work_dtype(dt);
    T u1 = on_cpu(ember_subtract, scalar(1, w), unit_uniforms(shape, w));
    T u2 = unit_uniforms(shape, w);
    T radius = on_cpu(ember_sqrt, on_cpu(ember_multiply, scalar(-2, w), on_cpu(ember_log, u1)));
    T z = on_cpu(ember_multiply, radius, on_cpu(ember_cos, on_cpu(ember_multiply, scalar(2 * M_PI, w), u2)));
    T r = on_cpu(ember_add, on_cpu(ember_multiply, z, scalar(sd, w)), scalar(mean, w)), cast;
    EXPECT_EQ(ember_astype(cpu(), r, dt, cast.out()), EMBER_OK) << ember_last_error();
    return cast;
}
T exponential_by_ops(const std::vector<int64_t>& shape, double rate, ember_dtype_t dt) {
    const ember_dtype_t w = work_dtype(dt);
    T u = unit_uniforms(shape, w);
    T e = on_cpu(ember_divide, on_cpu(ember_negative, on_cpu(ember_log1p, on_cpu(ember_negative, u))), scalar(rate, w)), cast;
    EXPECT_EQ(ember_astype(cpu(), e, dt, cast.out()), EMBER_OK) << ember_last_error();
    return cast;
}

// The composite's classes on cpu: Gumbel noise -log(-log(u)), u = U + half a unit of U's
// last place, added to the logits (log of x for probabilities), argmax over the classes.
T categorical_by_ops(const T& x, int64_t samples, bool from_logits) {
    std::vector<int64_t> xs = shape_of(x), s = xs, lifted = xs;
    s.insert(s.end() - 1, samples);
    lifted.insert(lifted.end() - 1, 1);
    const ember_dtype_t w = work_dtype(dtype_of(x));
    T xw, lx;
    EXPECT_EQ(ember_astype(cpu(), x, w, xw.out()), EMBER_OK);
    T logits = from_logits ? std::move(xw) : on_cpu(ember_log, xw);
    EXPECT_EQ(ember_reshape(cpu(), logits, lifted.data(), (int)lifted.size(), lx.out()), EMBER_OK) << ember_last_error();
    T u = on_cpu(ember_add, unit_uniforms(s, w), scalar(w == EMBER_FLOAT64 ? 0x1p-54 : 0x1p-25, w));
    T g = on_cpu(ember_negative, on_cpu(ember_log, on_cpu(ember_negative, on_cpu(ember_log, u))));
    T score = on_cpu(ember_add, lx, g), classes;
    EXPECT_EQ(ember_argmax(cpu(), score, -1, 0, classes.out()), EMBER_OK) << ember_last_error();
    return classes;
}

bool same_state(const ember_random_state_t& a, const ember_random_state_t& b) { return a.key == b.key && a.counter == b.counter; }

}  // namespace

// Shapes whose element counts are not whole Philox blocks (300003: a last partial block
// for both widths) and large enough for the pool, a 2-d shape, three elements, 0-d and
// empty; float16 runs the float32 kernel and casts; std = 0 gives the mean everywhere.
TEST(CpuRandom, NormalAndExponentialAreTheirCompositesOps) {
    NEED_CPU();
    expect_native_on_cpu("random_normal");
    expect_native_on_cpu("random_exponential");
    const std::vector<std::vector<int64_t>> shapes = {{300003}, {1001, 333}, {3}, {}, {0}};
    const ember_random_state_t start{0x243f6a8885a308d3ull, (1ull << 32) - 7};  // crosses 2^32 blocks
    struct Normal {
        double mean, sd;
    };
    for (const auto& shape : shapes)
        for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_FLOAT16}) {
            const std::string what = std::string(ember_dtype_name(dt)) + " of " + std::to_string(count_of(shape)) + " elements, " +
                                      std::to_string(shape.size()) + "-d";
            for (Normal p : {Normal{-1.5, 2.5}, Normal{1e3, 0}}) {
                T got, want;
                ember_random_state_t after_kernel, after_ops;
                EM_OK(ember_random_set_state(cpu(), &start));
                EM_OK(ember_random_normal(cpu(), shape.data(), (int)shape.size(), p.mean, p.sd, dt, got.out()));
                EM_OK(ember_random_get_state(cpu(), &after_kernel));
                EM_OK(ember_random_set_state(cpu(), &start));
                want = normal_by_ops(shape, p.mean, p.sd, dt);
                EM_OK(ember_random_get_state(cpu(), &after_ops));
                expect_close(got, want, 0, 0, "normal " + what + ", std " + std::to_string(p.sd));
                EXPECT_TRUE(same_state(after_kernel, after_ops)) << "normal " << what;
            }
            for (double rate : {3.7, 1e-3}) {
                T got, want;
                ember_random_state_t after_kernel, after_ops;
                EM_OK(ember_random_set_state(cpu(), &start));
                EM_OK(ember_random_exponential(cpu(), shape.data(), (int)shape.size(), rate, dt, got.out()));
                EM_OK(ember_random_get_state(cpu(), &after_kernel));
                EM_OK(ember_random_set_state(cpu(), &start));
                want = exponential_by_ops(shape, rate, dt);
                EM_OK(ember_random_get_state(cpu(), &after_ops));
                expect_close(got, want, 0, 0, "exponential " + what + ", rate " + std::to_string(rate));
                EXPECT_TRUE(same_state(after_kernel, after_ops)) << "exponential " << what;
            }
        }
}

// The same seed on the reference backend runs the composites over libm: the same draws,
// so every value agrees to within the functions' few ulp (relative, and absolute near the
// zeros of cos and of log1p(-u)).
TEST(CpuRandom, NormalAndExponentialMatchTheReferenceClosely) {
    NEED_CPU();
    const std::vector<int64_t> shape = {100003};
    for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64}) {
        const bool f64 = dt == EMBER_FLOAT64;
        const double rtol = f64 ? 1e-13 : 2e-6, atol = f64 ? 1e-14 : 1e-6;
        EM_OK(ember_random_seed(cpu(), 77));
        EM_OK(ember_random_seed(ref(), 77));
        for (int round = 0; round < 2; ++round) {
            T got, want;
            EM_OK(ember_random_normal(cpu(), shape.data(), 1, 0.25, 3, dt, got.out()));
            EM_OK(ember_random_normal(ref(), shape.data(), 1, 0.25, 3, dt, want.out()));
            expect_close(got, want, rtol, 3 * atol, std::string("normal ") + ember_dtype_name(dt));
            EM_OK(ember_random_exponential(cpu(), shape.data(), 1, 0.5, dt, got.out()));
            EM_OK(ember_random_exponential(ref(), shape.data(), 1, 0.5, dt, want.out()));
            expect_close(got, want, rtol, atol, std::string("exponential ") + ember_dtype_name(dt));
        }
    }
}

// random_ops.cpp's categorical kernel against the composite's ops: many short rows, long
// rows that the pool splits into pieces (the largest score in the first piece of one, in the
// last of the other), a 1-d x, probabilities with zeros (log 0 = -inf, never drawn) and a row of zeros only (all
// scores -inf: class 0), NaN logits (the first NaN's class), a transposed float16 x, and no
// samples.
TEST(CpuRandom, CategoricalIsItsCompositesOps) {
    NEED_CPU();
    expect_native_on_cpu("random_categorical");
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    auto probabilities = randf(7 * 9, 0, 1, 91);
    for (size_t i = 0; i < probabilities.size(); i += 4) probabilities[i] = 0;
    for (size_t i = 9; i < 18; ++i) probabilities[i] = 0;  // row 1
    auto with_nan = randf(5 * 6, -2, 2, 92);
    with_nan[8] = nan, with_nan[10] = nan, with_nan[12] = -inf;  // row 1: NaNs at classes 2 and 4
    auto long_rows = randf(2 * 300001, -1, 1, 93);
    long_rows[1000] = 40;             // far above the noise: row 0's first piece holds the answer,
    long_rows[300001 + 250000] = 40;  // row 1's last piece
    T transposed, half;
    EM_OK(ember_matrix_transpose(cpu(), tensor(cpu(), randf(6 * 4, -1, 1, 94), {6, 4}, EMBER_FLOAT32), transposed.out()));
    EM_OK(ember_astype(cpu(), transposed, EMBER_FLOAT16, half.out()));
    struct Case {
        std::string what;
        T x;
        int64_t samples;
        bool from_logits;
    };
    std::vector<Case> cases;
    cases.push_back({"(200, 10) float32 logits", tensor(cpu(), randf(2000, -3, 3, 95), {200, 10}, EMBER_FLOAT32), 500, true});
    cases.push_back({"(3, 1001) float64 logits", tensor(cpu(), randf(3003, -3, 3, 96), {3, 1001}, EMBER_FLOAT64), 333, true});
    cases.push_back({"two long float64 rows", tensor(cpu(), long_rows, {2, 300001}, EMBER_FLOAT64), 1, true});
    cases.push_back({"one long float32 row, 2 samples", tensor(cpu(), std::vector<float>(long_rows.begin() + 300001, long_rows.end()), {300001}, EMBER_FLOAT32), 2, true});
    cases.push_back({"(7, 9) probabilities with zeros", tensor(cpu(), probabilities, {7, 9}, EMBER_FLOAT32), 1000, false});
    cases.push_back({"(5, 6) logits with NaN and -inf", tensor(cpu(), with_nan, {5, 6}, EMBER_FLOAT64), 50, true});
    cases.push_back({"transposed float16 logits", std::move(half), 7, true});
    cases.push_back({"no samples", tensor(cpu(), randf(12, -1, 1, 97), {3, 4}, EMBER_FLOAT32), 0, true});
    const ember_random_state_t start{0x13198a2e03707344ull, 99};
    for (Case& c : cases) {
        T got, want;
        ember_random_state_t after_kernel, after_ops;
        EM_OK(ember_random_set_state(cpu(), &start));
        EM_OK(ember_random_categorical(cpu(), c.x, c.samples, c.from_logits, got.out()));
        EM_OK(ember_random_get_state(cpu(), &after_kernel));
        EM_OK(ember_random_set_state(cpu(), &start));
        want = categorical_by_ops(c.x, c.samples, c.from_logits);
        EM_OK(ember_random_get_state(cpu(), &after_ops));
        expect_close(got, want, 0, 0, "categorical, " + c.what);
        EXPECT_TRUE(same_state(after_kernel, after_ops)) << "categorical, " << c.what;
    }
}
