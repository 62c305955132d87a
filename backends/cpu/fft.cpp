// fft_c2c (the FFT primitive: an unnormalised complex DFT along one axis) with the lines
// transformed a vector's width at a time (simd_fft.hpp), blocks of lines across the pool.
// Lines longer than kMaxLength, and one or two lines on wide vectors, are split in two
// (transform_long). Lengths with a prime factor above kFftMaxRadix take Bluestein's chirp-z
// transform over those power-of-two transforms, the reference's algorithm step for step
// with the chirp and the chirp filter's transform kept in the plan. Bad arguments go to
// the reference, which reports them. rfft and irfft, the composites' kernels, are at the
// end: real lines of even length through the complex transform of half their length
// (fft_real.hpp).
#include <algorithm>
#include <cmath>
#include <complex>
#include <memory>
#include <mutex>

#include "cpu_common.hpp"

namespace ember_cpu {
namespace {

// Radix 4 first, then the primes in order, as the reference factors, but for an odd power
// of two 2^(2a+1), a >= 1, radix 8 last where the reference ends in 4 and 2: a pass fewer
// (each a read and a write of the lanes' block), e.g. an irfft line of 1024 float32, 4 x 4
// x 4 x 4 x 2 -> 4 x 4 x 4 x 8. Radix 8 for 4 x 4 as well (1024 as 8 x 8 x 4 x 4) was
// 7-10% slower on the Zen 3 host. Empty when a factor exceeds kFftMaxRadix.
std::vector<int64_t> fft_factors(int64_t n) {
    std::vector<int64_t> f;
    int twos = 0;
    for (; n % 2 == 0; n /= 2) ++twos;
    const bool eight = twos >= 3 && twos % 2 == 1;
    for (; twos >= (eight ? 5 : 2); twos -= 2) f.push_back(4);
    if (eight) f.push_back(8);
    else if (twos == 1) f.push_back(2);
    for (int64_t p = 3; p * p <= n; p += 2)
        for (; n % p == 0; n /= p) f.push_back(p);
    if (n > 1) f.push_back(n);
    for (int64_t p : f)
        if (p > kFftMaxRadix) return {};
    return f;
}

// exp(-2 pi i j / n) into w[0], w[1], the angle reduced in long double as the reference does.
void unit_root(int64_t j, int64_t n, double* w) {
    const long double a = -2.0L * 3.141592653589793238462643383279502884L * (long double)j / (long double)n;
    w[0] = (double)cosl(a);
    w[1] = (double)sinl(a);
}

// exp(-2 pi i j / n) for j < count.
std::vector<double> fft_twiddles(int64_t n, int64_t count) {
    std::vector<double> w((size_t)(2 * count));
    for (int64_t j = 0; j < count; ++j) unit_root(j, n, &w[(size_t)(2 * j)]);
    return w;
}

constexpr int64_t kMaxLanes = 16;
// Longer lines are split in two (transform_long): a block of 8 lines of 2^16 already takes
// 16 MiB of scratch per thread.
constexpr int64_t kMaxLength = 65536;

struct PlanData {
    int64_t n;
    std::vector<int64_t> factors;  // empty: n = 1, or a factor above kFftMaxRadix (Bluestein)
    // exp(-2 pi i j / n) for j < n; for a long plan j < n / n1 only
    std::vector<double> twiddles;
    int64_t n1 = 0;  // the split for transform_long: n = n1 * n2, each with a plan of its own
    // Bluestein (factors empty): the power of two m >= 2n - 1 it transforms at, the chirp
    // exp(-i pi k^2 / n) for k < n, and the forward transform of length m of its conjugate
    // (the filter, wrapped around: b[k] = b[m - k]). Pairs (re, im).
    int64_t m = 0;
    std::vector<double> chirp, filter;
};

std::shared_ptr<const PlanData> plan_for(int64_t n);
void transform_lines(const double* a, double* b, int64_t lines, const PlanData& plan);

// A plan's data: factors and twiddles, or for a long length the split n1 x n2 (n1 the
// product of the leading factors up to sqrt(n)).
PlanData make_plan(int64_t n) {
    PlanData p;
    p.n = n;
    p.factors = fft_factors(n);
    if (!p.factors.empty()) {
        p.n1 = 1;
        for (size_t i = 0; i < p.factors.size() && p.n1 * p.n1 < n; ++i) p.n1 *= p.factors[i];
        if (n > kMaxLength && (p.n1 > kMaxLength || n / p.n1 > kMaxLength)) p.factors.clear();
        else p.twiddles = fft_twiddles(n, n <= kMaxLength ? n : n / p.n1);
    }
    if (!p.factors.empty() || n == 1) return p;
    for (p.m = 1; p.m < 2 * n - 1;) p.m *= 2;
    p.chirp.resize((size_t)(2 * n));
    for (int64_t k = 0; k < n; ++k)  // k^2 reduced mod 2n keeps the angle exact
        unit_root((int64_t)(((unsigned __int128)k * (unsigned __int128)k) % (unsigned __int128)(2 * n)), 2 * n, &p.chirp[(size_t)(2 * k)]);
    std::vector<double> b((size_t)(2 * p.m), 0.0);
    for (int64_t k = 0; k < n; ++k) {
        b[(size_t)(2 * k)] = p.chirp[(size_t)(2 * k)];
        b[(size_t)(2 * k + 1)] = -p.chirp[(size_t)(2 * k + 1)];
        if (k > 0) {
            b[(size_t)(2 * (p.m - k))] = b[(size_t)(2 * k)];
            b[(size_t)(2 * (p.m - k) + 1)] = b[(size_t)(2 * k + 1)];
        }
    }
    p.filter.resize((size_t)(2 * p.m));
    transform_lines(b.data(), p.filter.data(), 1, *plan_for(p.m));
    return p;
}

// The plans of the last few lengths used: the twiddles take ~0.1 ms at n = 1024 (long
// double sine and cosine), a twentieth of transforming 1024 such lines.
template <class T, class Make>
std::shared_ptr<const T> remembered(int64_t n, Make make) {
    static std::mutex mutex;
    static std::vector<std::pair<int64_t, std::shared_ptr<const T>>> recent;  // the latest last
    {
        std::lock_guard<std::mutex> lock(mutex);
        for (const auto& p : recent)
            if (p.first == n) return p.second;
    }
    auto made = std::make_shared<const T>(make(n));
    std::lock_guard<std::mutex> lock(mutex);
    recent.emplace_back(n, made);
    if (recent.size() > 8) recent.erase(recent.begin());
    return made;
}
std::shared_ptr<const PlanData> plan_for(int64_t n) { return remembered<PlanData>(n, make_plan); }

// ~5 n log2 n flops per line; the pool takes from about 2^18 flops per piece.
double fft_work(int64_t lines, int64_t n) { return (double)lines * 5.0 * (double)n * std::log2((double)n + 1); }
constexpr double kPoolWork = double(1 << 19);

// Scratch doubles per block of lines: the block in and the block out.
int64_t block_doubles(int64_t n, int64_t lanes) { return 4 * n * lanes; }

// fn(first, count, block) for the groups of `group` lines (a vector's width by default),
// spread over the pool when the transforms (lines of length n) are worth it; block:
// block_doubles scratch doubles.
template <class F>
void over_line_blocks(int64_t lines, int64_t n, int64_t block_doubles, F&& fn, int64_t group = g_isa->vector_bytes / 8) {
    const int64_t blocks = (lines + group - 1) / group;
    const int64_t pieces = fft_work(lines, n) < kPoolWork ? 1 : std::min<int64_t>(blocks, num_threads());
    Scratch<double> scratch(pieces * block_doubles);
    parallel_tasks(pieces, [&](int64_t t) {
        double* block = scratch.data + t * block_doubles;
        for (int64_t blk = t * blocks / pieces; blk < (t + 1) * blocks / pieces; ++blk)
            fn(blk * group, std::min(group, lines - blk * group), block);
    });
}

// Index of fft_pairs_in/out for lines of R (float or double) values.
template <class R> constexpr int kDouble = std::is_same_v<R, double> ? 1 : 0;

// Whether the lines start at consecutive elements (adjacent columns of a matrix).
template <class P>
bool adjacent(P* const* first, int64_t lanes) {
    for (int64_t l = 1; l < lanes; ++l)
        if (first[l] != first[0] + l) return false;
    return true;
}

// The lines' first elements: lanes past count repeat the block's first line.
template <class S, class D>
void block_lines(const ember_view_t& in, const ember_view_t& out, int axis, int64_t first, int64_t count, S** src, D** dst) {
    for (int64_t l = 0; l < g_isa->vector_bytes / 8; ++l) {
        int64_t io, oo;
        line_offsets(in, out, axis, first + (l < count ? l : 0), io, oo);
        src[l] = (S*)base_ptr(in) + io;
        dst[l] = (D*)base_ptr(out) + oo;
    }
}

template <class C>
void transform(const ember_view_t& in, const ember_view_t& out, int axis, bool inverse, const FftPlan& plan) {
    using R = typename C::value_type;
    const int64_t n = plan.n, lanes = g_isa->vector_bytes / 8, ist = in.strides[axis], ost = out.strides[axis];
    const double sign = inverse ? -1.0 : 1.0;  // the inverse is conj(DFT(conj(x)))
    // Lines down a column of complex64 fill half a cache line per block on AVX2 (a quarter
    // on SSE2), and rows a power of two apart share a few cache sets: the next block's walk
    // found its half evicted. Panels of blocks side by side read and write whole lines.
    const int64_t panel = ist == 1 ? 1 : std::max<int64_t>(1, 64 / (lanes * (int64_t)sizeof(C)));
    const int64_t per_block = block_doubles(n, lanes);
    auto one_block = [&](int64_t first, int64_t count, double* a) {
        double* b = a + 2 * n * lanes;
        const C* src[kMaxLanes];
        C* dst[kMaxLanes];
        block_lines(in, out, axis, first, count, src, dst);
        // Contiguous lines through the ISA's tile transpose, lines that are adjacent columns
        // a row of pairs at a time; others element by element across the lines (the block
        // written in order, the lines read as `lanes` sequential streams).
        if (ist == 1) {
            g_isa->fft_pairs_in[kDouble<R>]((const void* const*)src, n, sign, a);
        } else if (count == lanes && adjacent(src, lanes)) {
            g_isa->fft_columns_in[kDouble<R>](src[0], ist, n, sign, a, 1, 0);
        } else {
            for (int64_t k = 0; k < n; ++k) {
                double* re = a + 2 * k * lanes;
                for (int64_t l = 0; l < lanes; ++l) {
                    const C v = src[l][k * ist];
                    re[l] = (double)v.real();
                    re[lanes + l] = sign * (double)v.imag();
                }
            }
        }
        g_isa->fft_lines(plan, a, b);
        if (ost == 1) {
            g_isa->fft_pairs_out[kDouble<R>](b, n, sign, (void* const*)dst, count);
        } else if (count == lanes && adjacent(dst, lanes)) {
            g_isa->fft_columns_out[kDouble<R>](b, n, sign, dst[0], ost, 1, 0);
        } else {
            for (int64_t k = 0; k < n; ++k) {
                const double* re = b + 2 * k * lanes;
                for (int64_t l = 0; l < count; ++l) dst[l][k * ost] = C((R)re[l], (R)(sign * re[lanes + l]));
            }
        }
    };
    over_line_blocks(numel(in) / n, n, panel * per_block, [&](int64_t first, int64_t count, double* a) {
        if (panel > 1 && count == panel * lanes) {
            int64_t io0, oo0, io, oo, l = 1;
            line_offsets(in, out, axis, first, io0, oo0);
            for (; l < count; ++l) {
                line_offsets(in, out, axis, first + l, io, oo);
                if (io != io0 + l || oo != oo0 + l) break;
            }
            if (l == count) {  // whole panels of adjacent columns
                const C* x = (const C*)base_ptr(in) + io0;
                C* y = (C*)base_ptr(out) + oo0;
                g_isa->fft_columns_in[kDouble<R>](x, ist, n, sign, a, panel, per_block);
                for (int64_t p = 0; p < panel; ++p) g_isa->fft_lines(plan, a + p * per_block, a + p * per_block + 2 * n * lanes);
                g_isa->fft_columns_out[kDouble<R>](a + 2 * n * lanes, n, sign, y, ost, panel, per_block);
                return;
            }
        }
        for (int64_t p = 0; p * lanes < count; ++p) one_block(first + p * lanes, std::min(lanes, count - p * lanes), a);
    }, panel * lanes);
}

// One line of n = n1 * n2 elements at a time, as the n1 x n2 matrix x[j1 * n2 + j2] (the
// four-step FFT): n2 transforms of length n1 down its columns, each result times
// exp(-2 pi i j2 k1 / n), then n1 transforms of length n2 along its rows, written
// transposed: X[k1 + n1 k2]. Both steps run in blocks of a vector's width of lines through
// fft_lines, across the pool, with the matrix in between as float64 in `mid`.
template <class C>
void transform_long(const ember_view_t& in, const ember_view_t& out, int axis, bool inverse, const PlanData& data) {
    using R = typename C::value_type;
    const int64_t n = data.n, n1 = data.n1, n2 = n / n1, lanes = g_isa->vector_bytes / 8, lines = numel(in) / n;
    const std::shared_ptr<const PlanData> p1 = plan_for(n1), p2 = plan_for(n2);
    const FftPlan plan1{n1, p1->factors.data(), p1->twiddles.data()}, plan2{n2, p2->factors.data(), p2->twiddles.data()};
    const double* w1 = p1->twiddles.data();  // exp(-2 pi i h / n1) = exp(-2 pi i h n2 / n)
    const double* w2 = data.twiddles.data();  // exp(-2 pi i j / n), j < n2
    const int64_t ist = in.strides[axis], ost = out.strides[axis], per_block = block_doubles(std::max(n1, n2), lanes);
    const double sign = inverse ? -1.0 : 1.0;
    const int64_t pieces = fft_work(1, n) < kPoolWork ? 1 : std::min<int64_t>((n2 + lanes - 1) / lanes, num_threads());
    Scratch<double> mid(2 * n), scratch(pieces * per_block);
    for (int64_t line = 0; line < lines; ++line) {
        int64_t io, oo;
        line_offsets(in, out, axis, line, io, oo);
        const C* x = (const C*)base_ptr(in) + io;
        C* y = (C*)base_ptr(out) + oo;
        // Columns j2 .. j2 + lanes - 1, read lanes at a time along each row.
        const int64_t col_blocks = (n2 + lanes - 1) / lanes;
        parallel_tasks(pieces, [&](int64_t t) {
            double* a = scratch.data + t * per_block;
            double* b = a + 2 * n1 * lanes;
            int64_t lo[kMaxLanes], hi[kMaxLanes];
            for (int64_t blk = t * col_blocks / pieces; blk < (t + 1) * col_blocks / pieces; ++blk) {
                const int64_t j2 = blk * lanes, count = std::min(lanes, n2 - j2);
                if (count == lanes && ist == 1) {
                    g_isa->fft_columns_in[kDouble<R>](x + j2, n2, n1, sign, a, 1, 0);
                } else {
                    for (int64_t j1 = 0; j1 < n1; ++j1)
                        for (int64_t l = 0; l < lanes; ++l) {
                            const C v = x[(j1 * n2 + j2 + std::min(l, count - 1)) * ist];
                            a[2 * j1 * lanes + l] = (double)v.real();
                            a[(2 * j1 + 1) * lanes + l] = sign * (double)v.imag();
                        }
                }
                g_isa->fft_lines(plan1, a, b);
                if (count == lanes) {
                    g_isa->fft_twiddle_columns(b, n1, j2, n2, w1, w2, mid.data + 2 * j2);
                    continue;
                }
                // exp(-2 pi i m / n) with m = (j2 + l) k1 = hi n2 + lo: w1[hi] w2[lo]
                for (int64_t l = 0; l < count; ++l) lo[l] = hi[l] = 0;
                for (int64_t k1 = 0; k1 < n1; ++k1) {
                    double* row = mid.data + 2 * (k1 * n2 + j2);
                    for (int64_t l = 0; l < count; ++l) {
                        const double wr = w1[2 * hi[l]] * w2[2 * lo[l]] - w1[2 * hi[l] + 1] * w2[2 * lo[l] + 1];
                        const double wi = w1[2 * hi[l]] * w2[2 * lo[l] + 1] + w1[2 * hi[l] + 1] * w2[2 * lo[l]];
                        const double re = b[2 * k1 * lanes + l], im = b[(2 * k1 + 1) * lanes + l];
                        row[2 * l] = re * wr - im * wi;
                        row[2 * l + 1] = re * wi + im * wr;
                        lo[l] += j2 + l;
                        if (lo[l] >= n2) {
                            lo[l] -= n2;
                            ++hi[l];
                        }
                    }
                }
            }
        });
        // Rows k1 .. k1 + lanes - 1; row k1's k2-th result is X[k1 + n1 k2].
        const int64_t row_blocks = (n1 + lanes - 1) / lanes;
        parallel_tasks(std::min(pieces, row_blocks), [&](int64_t t) {
            const int64_t parts = std::min(pieces, row_blocks);
            double* a = scratch.data + t * per_block;
            double* b = a + 2 * n2 * lanes;
            for (int64_t blk = t * row_blocks / parts; blk < (t + 1) * row_blocks / parts; ++blk) {
                const int64_t k1 = blk * lanes, count = std::min(lanes, n1 - k1);
                const double* rows[kMaxLanes];
                for (int64_t l = 0; l < lanes; ++l) rows[l] = mid.data + 2 * (k1 + std::min(l, count - 1)) * n2;
                g_isa->fft_pairs_in[1]((const void* const*)rows, n2, 1.0, a);
                g_isa->fft_lines(plan2, a, b);
                if (count == lanes && ost == 1) {
                    g_isa->fft_columns_out[kDouble<R>](b, n2, sign, y + k1, n1, 1, 0);
                    continue;
                }
                for (int64_t k2 = 0; k2 < n2; ++k2)
                    for (int64_t l = 0; l < count; ++l)
                        y[(k1 + l + n1 * k2) * ost] = C((R)b[2 * k2 * lanes + l], (R)(sign * b[(2 * k2 + 1) * lanes + l]));
            }
        });
    }
}

// The transform of a length with a plan of factors (no Bluestein) along `axis`.
void run_plan(const ember_view_t& in, const ember_view_t& out, int axis, bool inverse, const PlanData& data) {
    const int64_t n = data.n;
    const bool single = in.dtype == EMBER_COMPLEX64;
    // One or two lines fill at most a quarter of the lanes: split, each line fills them all
    // (AVX-512, one line: 1024 0.0116 -> 0.0045 ms, 65536 1.32 -> 0.30; two lines of 1024
    // 0.0116 -> 0.0088; four 0.0121 against 0.0173).
    if (n > kMaxLength || (numel(in) / n * 4 <= g_isa->vector_bytes / 8 && n >= 64)) {
        if (single) transform_long<std::complex<float>>(in, out, axis, inverse, data);
        else transform_long<std::complex<double>>(in, out, axis, inverse, data);
        return;
    }
    const FftPlan plan{n, data.factors.data(), data.twiddles.data()};
    if (single) transform<std::complex<float>>(in, out, axis, inverse, plan);
    else transform<std::complex<double>>(in, out, axis, inverse, plan);
}

// The forward transforms of `lines` contiguous lines of plan.n complex128 values (pairs of
// doubles) in a, into b.
void transform_lines(const double* a, double* b, int64_t lines, const PlanData& plan) {
    const int64_t shape[2] = {lines, plan.n}, strides[2] = {plan.n, 1};
    const ember_view_t in{(void*)a, 0, EMBER_COMPLEX128, 2, shape, strides}, out{b, 0, EMBER_COMPLEX128, 2, shape, strides};
    run_plan(in, out, 1, false, plan);
}

// fn(line, first k, end k) over count lines of len elements, across the pool.
template <class F>
void each(int64_t count, int64_t len, F&& fn) {
    parallel_range(count * len, kParallelCheap / 4, 1 << 12, [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end;) {
            const int64_t l = i / len, k0 = i - l * len, k1 = std::min(len, k0 + (end - i));
            fn(l, k0, k1);
            i += k1 - k0;
        }
    });
}

// Bluestein's chirp-z transform, as the reference computes it: a = x w (w the chirp) zero
// padded to m, A = DFT_m(a), c = conj(A F) (F the filter's transform), then
// X = conj(DFT_m(c)) / m * w, the inverse through conjugates as in transform(). Rounds of
// lines whose two m-long buffers fit in 32 MiB; the steps between the transforms run on
// the pool.
template <class C>
void bluestein(const ember_view_t& in, const ember_view_t& out, int axis, bool inverse, const PlanData& data) {
    using R = typename C::value_type;
    const int64_t n = data.n, m = data.m, lines = numel(in) / n;
    const std::shared_ptr<const PlanData> inner = plan_for(m);
    const int64_t per_round = std::min(lines, std::max<int64_t>(1, (int64_t(1) << 20) / m));
    Scratch<double> a(2 * m * per_round), b(2 * m * per_round);
    const double* w = data.chirp.data();
    const double* f = data.filter.data();
    const double sign = inverse ? -1.0 : 1.0, scale = 1.0 / (double)m;
    const int64_t ist = in.strides[axis], ost = out.strides[axis];
    const C* ip = (const C*)base_ptr(in);
    C* op = (C*)base_ptr(out);
    for (int64_t first = 0; first < lines; first += per_round) {
        const int64_t count = std::min(per_round, lines - first);
        each(count, m, [&](int64_t l, int64_t k0, int64_t k1) {
            int64_t io, oo;
            line_offsets(in, out, axis, first + l, io, oo);
            double* row = a.data + 2 * l * m;
            for (int64_t k = k0; k < k1; ++k) {
                if (k >= n) {
                    row[2 * k] = row[2 * k + 1] = 0;
                    continue;
                }
                const C v = ip[io + k * ist];
                const double re = (double)v.real(), im = sign * (double)v.imag();
                row[2 * k] = re * w[2 * k] - im * w[2 * k + 1];
                row[2 * k + 1] = re * w[2 * k + 1] + im * w[2 * k];
            }
        });
        transform_lines(a.data, b.data, count, *inner);
        each(count, m, [&](int64_t l, int64_t k0, int64_t k1) {
            double* row = b.data + 2 * l * m;
            for (int64_t k = k0; k < k1; ++k) {
                const double re = row[2 * k], im = row[2 * k + 1];
                row[2 * k] = re * f[2 * k] - im * f[2 * k + 1];
                row[2 * k + 1] = -(re * f[2 * k + 1] + im * f[2 * k]);
            }
        });
        transform_lines(b.data, a.data, count, *inner);
        each(count, n, [&](int64_t l, int64_t k0, int64_t k1) {
            int64_t io, oo;
            line_offsets(in, out, axis, first + l, io, oo);
            const double* row = a.data + 2 * l * m;
            for (int64_t k = k0; k < k1; ++k) {
                const double re = row[2 * k] * scale, im = -row[2 * k + 1] * scale;
                op[oo + k * ost] = C((R)(re * w[2 * k] - im * w[2 * k + 1]), (R)(sign * (re * w[2 * k + 1] + im * w[2 * k])));
            }
        });
    }
}

ember_status_t fft_kernel(const ember_kernel_call_t* c) {
    const ember_view_t &in = c->in[0], &out = c->out[0];
    const int axis = (int)c->attrs->i[0];
    const bool inverse = c->attrs->i[1] != 0;
    const bool complex = in.dtype == EMBER_COMPLEX64 || in.dtype == EMBER_COMPLEX128;
    if (!complex || out.dtype != in.dtype || axis < 0 || axis >= in.ndim || out.ndim != in.ndim || numel(in) == 0) return delegate(c);
    if (g_isa->vector_bytes / 8 > kMaxLanes) return reference_on_slices(c, kAxisAttr);
    const std::shared_ptr<const PlanData> data = plan_for(in.shape[axis]);
    if (!data->factors.empty()) run_plan(in, out, axis, inverse, *data);
    else if (data->m == 0) return reference_on_slices(c, kAxisAttr);  // n = 1
    else if (in.dtype == EMBER_COMPLEX64) bluestein<std::complex<float>>(in, out, axis, inverse, *data);
    else bluestein<std::complex<double>>(in, out, axis, inverse, *data);
    return EMBER_OK;
}

// ---------------------------------------------------------------- real transforms
// rfft and irfft (the composites' kernel conventions, docs/backend-guide.md): a line of even
// length n = 2m goes through a complex transform of length m and the steps of
// fft_real.hpp; an odd length through the complex transform of length n.

// exp(-2 pi i k / n) for k <= n / 2, the twiddles of those steps.
std::shared_ptr<const std::vector<double>> split_twiddles(int64_t n) {
    return remembered<std::vector<double>>(n, [](int64_t len) { return fft_twiddles(len, len / 2 + 1); });
}

// Whether lines of half length m run a block of lines at a time through fft_lines with the
// steps on the block (transform()'s case); run_plan's other cases go through scratch lines.
bool fused_real(int64_t m, int64_t lines, const PlanData& half) {
    return !half.factors.empty() && m <= kMaxLength && !(lines * 4 <= g_isa->vector_bytes / 8 && m >= 64);
}

// Blocks of m + 1 and m elements: the split writes one element more than the transform.
int64_t real_block_doubles(int64_t m, int64_t lanes) { return 2 * (2 * m + 1) * lanes; }

template <class R>
void rfft_fused(const ember_view_t& in, const ember_view_t& out, int axis, const PlanData& half, const double* w) {
    using C = std::complex<R>;
    const int64_t m = half.n, lanes = g_isa->vector_bytes / 8, ist = in.strides[axis], ost = out.strides[axis];
    const FftPlan plan{m, half.factors.data(), half.twiddles.data()};
    over_line_blocks(numel(in) / (2 * m), m, real_block_doubles(m, lanes), [&](int64_t first, int64_t count, double* a) {
        double* b = a + 2 * (m + 1) * lanes;
        const R* src[kMaxLanes];
        C* dst[kMaxLanes];
        block_lines(in, out, axis, first, count, src, dst);
        if (ist == 1) {
            g_isa->fft_pairs_in[kDouble<R>]((const void* const*)src, m, 1.0, a);
        } else {
            for (int64_t k = 0; k < m; ++k) {
                double* re = a + 2 * k * lanes;
                for (int64_t l = 0; l < lanes; ++l) {
                    re[l] = (double)src[l][2 * k * ist];
                    re[lanes + l] = (double)src[l][(2 * k + 1) * ist];
                }
            }
        }
        g_isa->fft_lines(plan, a, b);
        g_isa->rfft_split(m, w, b, a, 0, m + 1);
        if (ost == 1) {
            g_isa->fft_pairs_out[kDouble<R>](a, m + 1, 1.0, (void* const*)dst, count);
        } else {
            for (int64_t k = 0; k <= m; ++k) {
                const double* re = a + 2 * k * lanes;
                for (int64_t l = 0; l < count; ++l) dst[l][k * ost] = C((R)re[l], (R)re[lanes + l]);
            }
        }
    });
}

template <class R>
void irfft_fused(const ember_view_t& in, const ember_view_t& out, int axis, const PlanData& half, const double* w) {
    using C = std::complex<R>;
    const int64_t m = half.n, lanes = g_isa->vector_bytes / 8, ist = in.strides[axis], ost = out.strides[axis];
    const FftPlan plan{m, half.factors.data(), half.twiddles.data()};
    over_line_blocks(numel(out) / (2 * m), m, real_block_doubles(m, lanes), [&](int64_t first, int64_t count, double* a) {
        double* b = a + 2 * (m + 1) * lanes;
        const C* src[kMaxLanes];
        R* dst[kMaxLanes];
        block_lines(in, out, axis, first, count, src, dst);
        if (ist == 1) {
            g_isa->fft_pairs_in[kDouble<R>]((const void* const*)src, m + 1, 1.0, a);
        } else {
            for (int64_t k = 0; k <= m; ++k) {
                double* re = a + 2 * k * lanes;
                for (int64_t l = 0; l < lanes; ++l) {
                    const C v = src[l][k * ist];
                    re[l] = (double)v.real();
                    re[lanes + l] = (double)v.imag();
                }
            }
        }
        g_isa->irfft_merge(m, w, a, b, 0, m);
        g_isa->fft_lines(plan, b, a);  // conj(z), z[j] = x[2j] + i x[2j+1]
        if (ost == 1) {
            g_isa->fft_pairs_out[kDouble<R>](a, m, -1.0, (void* const*)dst, count);
        } else {
            for (int64_t j = 0; j < m; ++j) {
                const double* re = a + 2 * j * lanes;
                for (int64_t l = 0; l < count; ++l) {
                    dst[l][2 * j * ost] = (R)re[l];
                    dst[l][(2 * j + 1) * ost] = (R)-re[lanes + l];
                }
            }
        }
    });
}

struct Pair {
    double re, im;
};

// Lines per round through scratch: two buffers of 16 MiB at most (an even irfft gathers its
// spectra into a third of that size, Bluestein's transform adds two of its own).
int64_t lines_per_round(int64_t lines, int64_t len) { return std::min(lines, std::max<int64_t>(1, (int64_t(1) << 20) / len)); }

// The other lengths: rounds of lines through complex128 scratch lines of len values.
// pack(first, count, z) fills them, the transform of length len (forward, or the unscaled
// inverse) runs whatever len is, and finish(first, count, Z) reads the results.
template <class Pack, class Finish>
void via_scratch(int64_t lines, int64_t len, bool inverse, Pack&& pack, Finish&& finish) {
    const int64_t per_round = lines_per_round(lines, len), strides[2] = {len, 1};
    const std::shared_ptr<const PlanData> data = plan_for(len);
    Scratch<Pair> a(len * per_round), b(len * per_round);
    for (int64_t first = 0; first < lines; first += per_round) {
        const int64_t count = std::min(per_round, lines - first), shape[2] = {count, len};
        pack(first, count, a.data);
        const ember_view_t zin{a.data, 0, EMBER_COMPLEX128, 2, shape, strides}, zout{b.data, 0, EMBER_COMPLEX128, 2, shape, strides};
        if (len == 1) std::copy(a.data, a.data + count, b.data);
        else if (!data->factors.empty()) run_plan(zin, zout, 1, inverse, *data);
        else bluestein<std::complex<double>>(zin, zout, 1, inverse, *data);
        finish(first, count, b.data);
    }
}

template <class R>
void rfft_scratch(const ember_view_t& in, const ember_view_t& out, int axis, int64_t n, const double* w) {
    using C = std::complex<R>;
    const int64_t ist = in.strides[axis], ost = out.strides[axis], lines = numel(in) / n, m = n / 2;
    const bool odd = n % 2;
    const int64_t len = odd ? n : m;
    const R* ip = (const R*)base_ptr(in);
    C* op = (C*)base_ptr(out);
    auto pack = [&](int64_t first, int64_t count, Pair* z) {
        each(count, len, [&](int64_t l, int64_t k0, int64_t k1) {
            int64_t io, oo;
            line_offsets(in, out, axis, first + l, io, oo);
            Pair* row = z + l * len;
            for (int64_t k = k0; k < k1; ++k)
                row[k] = odd ? Pair{(double)ip[io + k * ist], 0.0} : Pair{(double)ip[io + 2 * k * ist], (double)ip[io + (2 * k + 1) * ist]};
        });
    };
    auto finish = [&](int64_t first, int64_t count, const Pair* z) {
        each(count, m + 1, [&](int64_t l, int64_t k0, int64_t k1) {
            int64_t io, oo;
            line_offsets(in, out, axis, first + l, io, oo);
            const Pair* row = z + l * len;
            Pair x[64];
            for (int64_t k = k0; k < k1; k += 64) {
                const int64_t end = std::min(k1, k + 64);
                if (odd) std::copy(row + k, row + end, x);
                else g_isa->rfft_split_line(m, w, (const double*)row, (double*)x, k, end);
                for (int64_t j = k; j < end; ++j) op[oo + j * ost] = C((R)x[j - k].re, (R)x[j - k].im);
            }
        });
    };
    via_scratch(lines, len, false, pack, finish);
}

template <class R>
void irfft_scratch(const ember_view_t& in, const ember_view_t& out, int axis, int64_t n, const double* w) {
    using C = std::complex<R>;
    const int64_t ist = in.strides[axis], ost = out.strides[axis], lines = numel(out) / n, m = n / 2;
    const bool odd = n % 2;
    const int64_t len = odd ? n : m;
    const C* ip = (const C*)base_ptr(in);
    R* op = (R*)base_ptr(out);
    auto at = [&](int64_t io, int64_t k) {
        const C v = ip[io + k * ist];
        return Pair{(double)v.real(), (double)v.imag()};
    };
    // Even n: the round's X lines (m + 1 values) gathered first, for the merge.
    Scratch<Pair> halves(odd ? 0 : (m + 1) * lines_per_round(lines, len));
    auto pack = [&](int64_t first, int64_t count, Pair* z) {
        if (odd) {  // the Hermitian line: X[k], and at n - k its conjugate
            each(count, n, [&](int64_t l, int64_t k0, int64_t k1) {
                int64_t io, oo;
                line_offsets(in, out, axis, first + l, io, oo);
                for (int64_t k = k0; k < k1; ++k) {
                    const Pair v = at(io, k <= m ? k : n - k);
                    z[l * n + k] = k == 0 ? Pair{v.re, 0.0} : k <= m ? v : Pair{v.re, -v.im};
                }
            });
            return;
        }
        each(count, m + 1, [&](int64_t l, int64_t k0, int64_t k1) {
            int64_t io, oo;
            line_offsets(in, out, axis, first + l, io, oo);
            for (int64_t k = k0; k < k1; ++k) halves.data[l * (m + 1) + k] = at(io, k);
        });
        each(count, m, [&](int64_t l, int64_t k0, int64_t k1) {
            g_isa->irfft_merge_line(m, w, (const double*)(halves.data + l * (m + 1)), (double*)(z + l * m + k0), k0, k1);
        });
    };
    auto finish = [&](int64_t first, int64_t count, const Pair* z) {
        each(count, len, [&](int64_t l, int64_t k0, int64_t k1) {
            int64_t io, oo;
            line_offsets(in, out, axis, first + l, io, oo);
            const Pair* row = z + l * len;
            for (int64_t k = k0; k < k1; ++k) {
                if (odd) {
                    op[oo + k * ost] = (R)row[k].re;
                } else {
                    op[oo + 2 * k * ost] = (R)row[k].re;
                    op[oo + (2 * k + 1) * ost] = (R)-row[k].im;
                }
            }
        });
    };
    via_scratch(lines, len, odd, pack, finish);
}

// The dtypes and shapes of a real transform's call: real (float32/float64) lines of n on one
// side, complex lines of n / 2 + 1 of the matching precision on the other, the other dims
// alike.
bool real_call_ok(const ember_view_t& real, const ember_view_t& cplx, int axis) {
    const bool single = real.dtype == EMBER_FLOAT32 && cplx.dtype == EMBER_COMPLEX64;
    const bool twice = real.dtype == EMBER_FLOAT64 && cplx.dtype == EMBER_COMPLEX128;
    if (!(single || twice) || real.ndim != cplx.ndim || axis < 0 || axis >= real.ndim || real.shape[axis] < 1) return false;
    for (int d = 0; d < real.ndim; ++d)
        if (real.shape[d] != (d == axis ? 2 * (cplx.shape[d] - 1) + real.shape[d] % 2 : cplx.shape[d])) return false;
    return true;
}

template <bool Inverse>
ember_status_t real_fft_kernel(const ember_kernel_call_t* c) {
    const char* name = Inverse ? "irfft" : "rfft";
    if (c->n_in != 1 || c->n_out != 1) return g_host->fail(EMBER_ERR_INVALID_ARGUMENT, "cpu %s: needs one input and one output", name);
    if (g_isa->vector_bytes / 8 > kMaxLanes) return g_host->fail(EMBER_ERR_INTERNAL, "cpu %s: more lanes than kMaxLanes", name);
    const ember_view_t &in = c->in[0], &out = c->out[0];
    const ember_view_t &real = Inverse ? out : in, &cplx = Inverse ? in : out;
    const int axis = (int)c->attrs->i[0];
    if (!real_call_ok(real, cplx, axis))
        return g_host->fail(EMBER_ERR_INVALID_ARGUMENT, "cpu %s: needs float32/float64 lines of n and complex lines of n / 2 + 1 along axis %d", name,
                            axis);
    if (numel(real) == 0) return EMBER_OK;
    const int64_t n = real.shape[axis], lines = numel(real) / n;
    // Odd lengths take neither the split's twiddles nor a plan of n / 2.
    const std::shared_ptr<const std::vector<double>> tw = n % 2 ? nullptr : split_twiddles(n);
    const std::shared_ptr<const PlanData> half = n % 2 ? nullptr : plan_for(n / 2);
    const double* w = tw ? tw->data() : nullptr;
    const bool single = real.dtype == EMBER_FLOAT32, fused = half && fused_real(n / 2, lines, *half);
    if (Inverse) {
        if (fused) single ? irfft_fused<float>(in, out, axis, *half, w) : irfft_fused<double>(in, out, axis, *half, w);
        else single ? irfft_scratch<float>(in, out, axis, n, w) : irfft_scratch<double>(in, out, axis, n, w);
    } else {
        if (fused) single ? rfft_fused<float>(in, out, axis, *half, w) : rfft_fused<double>(in, out, axis, *half, w);
        else single ? rfft_scratch<float>(in, out, axis, n, w) : rfft_scratch<double>(in, out, axis, n, w);
    }
    return EMBER_OK;
}

}  // namespace

void add_fft_kernel(std::vector<NativeKernel>& k) {
    k.push_back({"fft_c2c", fft_kernel, 0, false});
    k.push_back({"rfft", real_fft_kernel<false>, 0, true});
    k.push_back({"irfft", real_fft_kernel<true>, 0, true});
}

}  // namespace ember_cpu
