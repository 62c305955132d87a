// fft_c2c (the one FFT kernel: an unnormalised complex DFT along one axis) with the lines
// transformed a vector's width at a time (simd_fft.hpp), blocks of lines across the pool.
// Lengths with a prime factor above kFftMaxRadix take the reference's Bluestein transform,
// on slices across the pool (line_ops.cpp), as do bad arguments, which it reports.
#include <algorithm>
#include <cmath>
#include <complex>
#include <memory>
#include <mutex>

#include "cpu_common.hpp"

namespace ember_cpu {
namespace {

// Radix 4 first, then the primes in order: the reference's factorisation, so that both
// backends compute the same sums. Empty when a factor exceeds kFftMaxRadix.
std::vector<int64_t> fft_factors(int64_t n) {
    std::vector<int64_t> f;
    for (; n % 4 == 0; n /= 4) f.push_back(4);
    for (int64_t p = 2; p * p <= n; ++p)
        for (; n % p == 0; n /= p) f.push_back(p);
    if (n > 1) f.push_back(n);
    for (int64_t p : f)
        if (p > kFftMaxRadix) return {};
    return f;
}

// exp(-2 pi i j / n) for j < n, the angle reduced in long double as the reference does.
std::vector<double> fft_twiddles(int64_t n) {
    std::vector<double> w((size_t)(2 * n));
    for (int64_t j = 0; j < n; ++j) {
        const long double a = -2.0L * 3.141592653589793238462643383279502884L * (long double)j / (long double)n;
        w[(size_t)(2 * j)] = (double)cosl(a);
        w[(size_t)(2 * j + 1)] = (double)sinl(a);
    }
    return w;
}

constexpr int64_t kMaxLanes = 16;
// Longer lines go to the reference: a block of 8 lines of 2^16 already takes 16 MiB of
// scratch per thread.
constexpr int64_t kMaxLength = 65536;

struct PlanData {
    int64_t n;
    std::vector<int64_t> factors;  // empty: a factor above kFftMaxRadix
    std::vector<double> twiddles;
};

// The plans of the last few lengths used: the twiddles take ~0.1 ms at n = 1024 (long
// double sine and cosine), a twentieth of transforming 1024 such lines.
std::shared_ptr<const PlanData> plan_for(int64_t n) {
    static std::mutex mutex;
    static std::vector<std::shared_ptr<const PlanData>> recent;  // the latest last
    {
        std::lock_guard<std::mutex> lock(mutex);
        for (const auto& p : recent)
            if (p->n == n) return p;
    }
    auto factors = fft_factors(n);
    auto twiddles = factors.empty() ? std::vector<double>{} : fft_twiddles(n);
    auto plan = std::make_shared<const PlanData>(PlanData{n, std::move(factors), std::move(twiddles)});
    std::lock_guard<std::mutex> lock(mutex);
    recent.push_back(plan);
    if (recent.size() > 8) recent.erase(recent.begin());
    return plan;
}

// Scratch doubles per block of lines: the block in and the block out.
int64_t block_doubles(int64_t n, int64_t lanes) { return 4 * n * lanes; }

template <class C>
void transform(const ember_view_t& in, const ember_view_t& out, int axis, bool inverse, const FftPlan& plan) {
    using R = typename C::value_type;
    const int64_t n = plan.n, lanes = g_isa->vector_bytes / 8, lines = numel(in) / n;
    const int64_t blocks = (lines + lanes - 1) / lanes, ist = in.strides[axis], ost = out.strides[axis];
    const C* ip = (const C*)base_ptr(in);
    C* op = (C*)base_ptr(out);
    const double sign = inverse ? -1.0 : 1.0;  // the inverse is conj(DFT(conj(x)))
    // ~5 n log2 n flops per line: the pool takes from about 2^18 flops per piece.
    const double work = (double)lines * 5.0 * (double)n * std::log2((double)n + 1);
    const int64_t pieces = work < (double)(1 << 19) ? 1 : std::min<int64_t>(blocks, num_threads());
    Scratch<double> scratch(pieces * block_doubles(n, lanes));
    parallel_tasks(pieces, [&](int64_t t) {
        double* a = scratch.data + t * block_doubles(n, lanes);
        double* b = a + 2 * n * lanes;
        const C* src[kMaxLanes];
        C* dst[kMaxLanes];
        for (int64_t blk = t * blocks / pieces; blk < (t + 1) * blocks / pieces; ++blk) {
            const int64_t first = blk * lanes, count = std::min(lanes, lines - first);
            for (int64_t l = 0; l < lanes; ++l) {  // lanes past the last line repeat line 0
                int64_t io, oo;
                line_offsets(in, out, axis, first + (l < count ? l : 0), io, oo);
                src[l] = ip + io;
                dst[l] = op + oo;
            }
            // Element by element across the lines: the block is written in order, and the
            // lines are read as `lanes` sequential streams.
            for (int64_t k = 0; k < n; ++k) {
                double* re = a + 2 * k * lanes;
                for (int64_t l = 0; l < lanes; ++l) {
                    const C v = src[l][k * ist];
                    re[l] = (double)v.real();
                    re[lanes + l] = sign * (double)v.imag();
                }
            }
            g_isa->fft_lines(plan, a, b);
            for (int64_t k = 0; k < n; ++k) {
                const double* re = b + 2 * k * lanes;
                for (int64_t l = 0; l < count; ++l) dst[l][k * ost] = C((R)re[l], (R)(sign * re[lanes + l]));
            }
        }
    });
}

ember_status_t fft_kernel(const ember_kernel_call_t* c) {
    const ember_view_t &in = c->in[0], &out = c->out[0];
    const int axis = (int)c->attrs->i[0];
    const bool inverse = c->attrs->i[1] != 0;
    const bool complex = in.dtype == EMBER_COMPLEX64 || in.dtype == EMBER_COMPLEX128;
    if (!complex || out.dtype != in.dtype || axis < 0 || axis >= in.ndim || out.ndim != in.ndim || numel(in) == 0) return delegate(c);
    const int64_t n = in.shape[axis];
    if (n > kMaxLength || g_isa->vector_bytes / 8 > kMaxLanes) return reference_on_slices(c, kAxisAttr);
    const std::shared_ptr<const PlanData> data = plan_for(n);
    if (data->factors.empty()) return reference_on_slices(c, kAxisAttr);
    const FftPlan plan{n, data->factors.data(), data->twiddles.data()};
    if (in.dtype == EMBER_COMPLEX64) transform<std::complex<float>>(in, out, axis, inverse, plan);
    else transform<std::complex<double>>(in, out, axis, inverse, plan);
    return EMBER_OK;
}

}  // namespace

void add_fft_kernel(std::vector<NativeKernel>& k) { k.push_back({"fft_c2c", fft_kernel, 0, false}); }

}  // namespace ember_cpu
