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

#include "../backends/cpu/neg_log_fast.hpp"
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

// The composite's next unit uniforms of shape in dtype w, from the words random_bits draws
// on cpu: on [0, 1) (float32: 24 bits of a word; float64: 53 bits of two), or on the open
// (0, 1) (float32: (2m + 1) / 2^24, m 23 bits of a word; float64: (2m + 1) / 2^53, m 52
// bits of two).
T unit_uniforms(const std::vector<int64_t>& shape, ember_dtype_t w, bool open = false) {
    const bool f64 = w == EMBER_FLOAT64;
    const int64_t n = count_of(shape), count = n * (f64 ? 2 : 1);
    T bits;
    EXPECT_EQ(ember_random_bits(cpu(), &count, 1, bits.out()), EMBER_OK) << ember_last_error();
    std::vector<uint32_t> words((size_t)count);
    if (count) {
        EXPECT_EQ(ember_tensor_read(bits, words.data(), words.size() * 4), EMBER_OK);
    }
    std::vector<double> u((size_t)n);
    for (size_t k = 0; k < u.size(); ++k) {
        if (open)
            u[k] = f64 ? (((double)(words[2 * k] >> 5) * 33554432.0 + (double)(words[2 * k + 1] >> 7)) * 2 + 1) / 9007199254740992.0
                       : ((double)(words[k] >> 9) * 2 + 1) / 16777216.0;
        else
            u[k] = f64 ? ((double)(words[2 * k] >> 5) * 67108864.0 + (double)(words[2 * k + 1] >> 6)) / 9007199254740992.0
                       : (double)(words[k] >> 8) / 16777216.0;
    }
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

// The composite's classes on cpu: Gumbel noise -log(-log(u)), u an open unit uniform, added
// to the logits (log of x for probabilities), argmax over the classes.
T categorical_by_ops(const T& x, int64_t samples, bool from_logits) {
    std::vector<int64_t> xs = shape_of(x), s = xs, lifted = xs;
    s.insert(s.end() - 1, samples);
    lifted.insert(lifted.end() - 1, 1);
    const ember_dtype_t w = work_dtype(dtype_of(x));
    T xw, lx;
    EXPECT_EQ(ember_astype(cpu(), x, w, xw.out()), EMBER_OK);
    T logits = from_logits ? std::move(xw) : on_cpu(ember_log, xw);
    EXPECT_EQ(ember_reshape(cpu(), logits, lifted.data(), (int)lifted.size(), lx.out()), EMBER_OK) << ember_last_error();
    T u = unit_uniforms(s, w, true);
    T g = on_cpu(ember_negative, on_cpu(ember_log, on_cpu(ember_negative, on_cpu(ember_log, u))));
    T score = on_cpu(ember_add, lx, g), classes;
    EXPECT_EQ(ember_argmax(cpu(), score, -1, 0, classes.out()), EMBER_OK) << ember_last_error();
    return classes;
}

// Bit for bit: signed zeros and NaN payloads included.
void expect_same_bits(const T& got, const T& want, const std::string& what) {
    EXPECT_EQ(dtype_of(got), dtype_of(want)) << what;
    EXPECT_EQ(shape_of(got), shape_of(want)) << what;
    EXPECT_TRUE(raw_bytes(got) == raw_bytes(want)) << what;
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
            for (Normal p : {Normal{-1.5, 2.5}, Normal{0.1, 0.3}, Normal{1e3, 0}}) {
                T got, want;
                ember_random_state_t after_kernel, after_ops;
                EM_OK(ember_random_set_state(cpu(), &start));
                EM_OK(ember_random_normal(cpu(), shape.data(), (int)shape.size(), p.mean, p.sd, dt, got.out()));
                EM_OK(ember_random_get_state(cpu(), &after_kernel));
                EM_OK(ember_random_set_state(cpu(), &start));
                want = normal_by_ops(shape, p.mean, p.sd, dt);
                EM_OK(ember_random_get_state(cpu(), &after_ops));
                expect_same_bits(got, want, "normal " + what + ", std " + std::to_string(p.sd));
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
                expect_same_bits(got, want, "exponential " + what + ", rate " + std::to_string(rate));
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

// random_ops.cpp's categorical kernel against the composite's ops: many short rows (drawn
// once: Gumbel scores; several times: the exponential race, unless the logits are too many), long
// rows that the pool splits into pieces (the largest score in the first piece of one, in the
// last of the other; NaN and inf logits in several pieces), one class, no rows, a 1-d x, probabilities with zeros (log 0 = -inf, never drawn) and a row of zeros only (all
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
    auto pieces = randf(3 * 300001, -1, 1, 98);  // rows the pool cuts, with NaN and inf in several pieces
    pieces[1000] = 40, pieces[280000] = nan;              // row 0: a NaN in a late piece beats 40
    pieces[300001 + 5000] = nan, pieces[300001 + 280000] = nan;  // row 1: the first NaN
    pieces[600002 + 2000] = inf, pieces[600002 + 2003] = inf;     // row 2: the first inf, tied in its
    pieces[600002 + 50000] = inf, pieces[600002 + 290000] = inf;  // batch, in later batches and pieces
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
    cases.push_back({"(3000, 10) float64 logits, one sample a row", tensor(cpu(), randf(30000, -3, 3, 89), {3000, 10}, EMBER_FLOAT64), 1, true});
    cases.push_back({"(110000, 10) float32 logits, past the race's table", tensor(cpu(), randf(1100000, -3, 3, 88), {110000, 10}, EMBER_FLOAT32), 2, true});
    // Logits near 8000 (1e13): the composite's scores round to 2^-10 (2^-9) and tie, where
    // its argmax takes the first; the race's rows whose runner-up comes that close must take
    // the composite's scores (about one row in 300).
    auto large = randf(2 * 10, 7999, 8001, 90);
    cases.push_back({"(2, 10) float32 logits near 8000", tensor(cpu(), large, {2, 10}, EMBER_FLOAT32), 50000, true});
    cases.push_back({"(2, 10) float64 logits near 1e13", on_cpu(ember_add, tensor(cpu(), large, {2, 10}, EMBER_FLOAT64), scalar(1e13 - 8000, EMBER_FLOAT64)), 50000, true});
    cases.push_back({"(3, 1001) float64 logits", tensor(cpu(), randf(3003, -3, 3, 96), {3, 1001}, EMBER_FLOAT64), 333, true});
    cases.push_back({"two long float64 rows", tensor(cpu(), long_rows, {2, 300001}, EMBER_FLOAT64), 1, true});
    cases.push_back({"one long float32 row, 2 samples", tensor(cpu(), std::vector<float>(long_rows.begin() + 300001, long_rows.end()), {300001}, EMBER_FLOAT32), 2, true});
    cases.push_back({"(7, 9) probabilities with zeros", tensor(cpu(), probabilities, {7, 9}, EMBER_FLOAT32), 1000, false});
    cases.push_back({"(5, 6) logits with NaN and -inf", tensor(cpu(), with_nan, {5, 6}, EMBER_FLOAT64), 50, true});
    cases.push_back({"transposed float16 logits", std::move(half), 7, true});
    cases.push_back({"long rows with NaN and inf in several pieces", tensor(cpu(), pieces, {3, 300001}, EMBER_FLOAT64), 1, true});
    cases.push_back({"one class", tensor(cpu(), randf(4, -1, 1, 99), {4, 1}, EMBER_FLOAT32), 3, true});
    cases.push_back({"no rows", tensor(cpu(), std::vector<float>{}, {0, 5}, EMBER_FLOAT32), 3, true});
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

// The race's float64 exponentials (backends/cpu/neg_log_fast.hpp, the kernels' very
// template) stay within the error the race's margin allows for: on random open uniforms,
// next to the ends of the reduction's range [sqrt(1/2), sqrt(2)) at every power of two, and
// at both ends of (0, 1).
TEST(CpuRandom, FastNegLogWithinTheRaceBound) {
    double worst = 0;
    auto check = [&](double u) {
        const long double exact = -std::log((long double)u);
        const double got = ember_cpu::neg_log_fast<double, uint64_t>(u);
        worst = std::max(worst, (double)std::fabs((got - exact) / exact));
    };
    uint64_t state = 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < 2000000; ++i) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        check((2.0 * (double)(state >> 12) + 1) * 0x1p-53);
    }
    for (int e = 0; e <= 53; ++e)
        for (int j = -2000; j <= 2000; ++j) {
            const double u = std::ldexp(0.70710678118654752440 + j * 0x1p-52, -e);
            if (u >= 0x1p-53 && u < 1) check(u);
        }
    for (int j = 1; j <= 100000; ++j) check(1 - j * 0x1p-53), check(j * 0x1p-53);
    EXPECT_LE(worst, ember_cpu::kRaceExponentialError);
    EXPECT_GT(worst, ember_cpu::kRaceExponentialError / 8) << "the check reaches the reduction's worst cases";
}

// random_bernoulli of one probability (random_ops.cpp) is u < p: with p set to the very
// value of the first element's u, that element must come out false, and one just above it
// true. (The broad comparison with the reference is in test_cpu_indexing.cpp.)
TEST(CpuRandom, BernoulliIsStrictlyBelowP) {
    NEED_CPU();
    const ember_random_state_t start{0xa4093822299f31d0ull, 4242};
    for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64}) {
        EM_OK(ember_random_set_state(cpu(), &start));
        const std::vector<double> u = host_values(unit_uniforms({5}, dt));
        const double above = dt == EMBER_FLOAT64 ? std::nextafter(u[0], 2.0) : (double)std::nextafter((float)u[0], 2.0f);
        for (double p : {u[0], above}) {
            T pt = tensor(cpu(), std::vector<double>{p}, {}, dt), got;
            const int64_t five = 5;
            EM_OK(ember_random_set_state(cpu(), &start));
            EM_OK(ember_random_bernoulli(cpu(), pt, &five, 1, got.out()));
            EXPECT_EQ(host_values(got)[0], p == u[0] ? 0.0 : 1.0) << ember_dtype_name(dt) << " p = " << p << ", u = " << u[0];
        }
    }
}

// The largest open unit uniform stays below 1, so its Gumbel noise is finite: a class of
// probability 0 is not drawn even where its element gets the largest u. (With u = U + 2^-25
// that u rounded to 1, the noise was +inf and the class's score -inf + inf = NaN, which
// argmax picks.) The word with the largest float32 u (its top 23 bits all ones) is found in
// the stream first, and the draw is started at its Philox block.
TEST(CpuRandom, CategoricalNeverDrawsAZeroProbabilityClass) {
    NEED_CPU();
    const uint64_t key = 0x082efa98ec4e6c89ull;
    int64_t found = -1;
    const int64_t chunk = int64_t(1) << 22;
    for (int64_t first = 0; found < 0 && first < 16 * chunk; first += chunk) {
        const ember_random_state_t at{key, (uint64_t)first / 4};
        EM_OK(ember_random_set_state(cpu(), &at));
        T bits;
        EM_OK(ember_random_bits(cpu(), &chunk, 1, bits.out()));
        std::vector<uint32_t> words((size_t)chunk);
        EM_OK(ember_tensor_read(bits, words.data(), words.size() * 4));
        for (size_t i = 0; i < words.size() && found < 0; ++i)
            if (words[i] >> 9 == 0x7fffffu) found = first + (int64_t)i;
    }
    ASSERT_GE(found, 0) << "no word with the largest u in the first 2^26";
    const int64_t zero_class = found % 4;  // the element of the block that gets the largest u
    std::vector<float> p(4, 1.0f / 3);
    p[(size_t)zero_class] = 0;
    for (ember_ctx_t* ctx : {cpu(), ref()}) {
        T probabilities = tensor(ctx, p, {4}, EMBER_FLOAT32), drawn;
        const ember_random_state_t at{key, (uint64_t)found / 4};
        EM_OK(ember_random_set_state(ctx, &at));
        EM_OK(ember_random_categorical(ctx, probabilities, 1, 0, drawn.out()));
        EXPECT_NE(host_values(drawn)[0], (double)zero_class) << (ctx == cpu() ? "cpu" : "reference");
    }
}
