// simd_fft.hpp at every vector width the cpu backend compiles it for (WIDE bytes: 16, 32,
// 64; 2, 4 and 8 float64 lanes), built with the compiler's baseline flags, so that the
// AVX-512 width's lane logic (masks, transposes, reversed runs) is checked on hosts without
// AVX-512 too; the backend's own tests (test_cpu_fft.cpp) run only the ISAs the host has.
// Against direct evaluations: the DFT of every lane, the gathers and scatters element by
// element, the four-step twiddles, and the one-line split and merge against the scalar
// steps of fft_real.hpp. The environment below is simd_impl.cpp's minimum for the header.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <type_traits>
#include <vector>
namespace ember_cpu {
constexpr int kFftMaxRadix = 13;
struct FftPlan { int64_t n; const int64_t* factors; const double* twiddles; };
namespace {
constexpr int VB = WIDE;
template <class T, int B = VB> struct VT { typedef T type __attribute__((vector_size(B))); };
template <class T> using V = typename VT<T>::type;
template <class T> constexpr int W = VB / (int)sizeof(T);
template <class T> inline V<T> load(const T* p) { V<T> v; memcpy(&v, p, sizeof v); return v; }
template <class Vec, class P> inline void store_vec(P* p, const Vec& v) { memcpy((void*)p, &v, sizeof v); }
template <class Vec, class P> inline void stream_vec(P* p, const Vec& v) { store_vec(p, v); }
inline void stream_fence() {}
#include "simd_transpose.hpp"
#include "simd_fft.hpp"
}  // namespace
}  // namespace ember_cpu
using namespace ember_cpu;
template <class T> struct Al {
    using value_type = T;
    Al() = default;
    template <class U> Al(const Al<U>&) {}
    T* allocate(size_t n) { return (T*)aligned_alloc(64, (n * sizeof(T) + 63) / 64 * 64); }
    void deallocate(T* p, size_t) { free(p); }
    template <class U> bool operator==(const Al<U>&) const { return true; }
    template <class U> bool operator!=(const Al<U>&) const { return false; }
};
template <class T> using vec = std::vector<T, Al<T>>;
static double worst = 0;
// Exact where the step only moves values; the transforms within a few float64 roundings
// of sums of up to 1000 terms of magnitude 1.
static void check(double got, double want, const char* what) {
    const double e = std::fabs(got - want);
    if (e > worst) worst = e;
    if (e > 1e-9) {
        printf("FAIL %s (%d lanes): %.17g, expected %.17g\n", what, W<double>, got, want);
        exit(1);
    }
}
int main() {
    const int L = W<double>;
    std::mt19937 rng(1);
    std::uniform_real_distribution<double> u(-1, 1);
    // radix 4 first, as the reference factors, and radix 8 for a last 4 x 2 (as fft.cpp
    // does), and first (a twiddled radix-8 pass)
    for (int eight = 0; eight < 3; ++eight)
    for (int64_t n : {2, 3, 4, 5, 8, 12, 15, 16, 32, 60, 64, 100, 128, 243, 512, 1000}) {
        std::vector<int64_t> f; int64_t r = n;
        if (eight == 2 && r % 8 == 0) f.push_back(8), r /= 8;
        for (; r % 4 == 0 && !(eight == 1 && r % 8 == 0 && r % 16 != 0); r /= 4) f.push_back(4);
        if (eight == 1 && r % 8 == 0) f.push_back(8), r /= 8;
        for (int64_t p = 2; p * p <= r; ++p) for (; r % p == 0; r /= p) f.push_back(p);
        if (r > 1) f.push_back(r);
        vec<double> tw(2 * n);
        for (int64_t j = 0; j < n; ++j) { tw[2*j] = cos(-2*M_PI*j/n); tw[2*j+1] = sin(-2*M_PI*j/n); }
        FftPlan plan{n, f.data(), tw.data()};
        vec<double> in(2 * n * L), out(2 * n * L);
        for (auto& v : in) v = u(rng);
        fft_lines(plan, in.data(), out.data());
        for (int l = 0; l < L; ++l) for (int64_t k = 0; k < n; ++k) {
            std::complex<double> s = 0;
            for (int64_t j = 0; j < n; ++j) s += std::complex<double>(in[2*j*L+l], in[(2*j+1)*L+l]) * std::polar(1.0, -2*M_PI*double(j*k % n)/n);
            check(out[2*k*L+l], s.real(), "fft re"); check(out[(2*k+1)*L+l], s.imag(), "fft im");
        }
    }
    // pairs in and out, columns in and out: round trips with sign -1 and a tail
    for (int single = 0; single < 2; ++single) {
        const int64_t pairs = 13, stride = 40;
        vec<double> d(2 * stride * pairs + 64); vec<float> fl(d.size());
        for (size_t i = 0; i < d.size(); ++i) { d[i] = u(rng); fl[i] = (float)d[i]; }
        const void* lines[16]; void* outs[16];
        vec<double> od(d.size(), 0); vec<float> of(d.size(), 0);
        for (int l = 0; l < L; ++l) { lines[l] = single ? (const void*)(fl.data() + 2 * stride * l) : (const void*)(d.data() + 2 * stride * l);
                                       outs[l] = single ? (void*)(of.data() + 2 * stride * l) : (void*)(od.data() + 2 * stride * l); }
        vec<double> block(2 * pairs * L);
        if (single) pairs_to_block<float>(lines, pairs, -1.0, block.data()); else pairs_to_block<double>(lines, pairs, -1.0, block.data());
        for (int l = 0; l < L; ++l) for (int64_t k = 0; k < pairs; ++k) {
            double re = single ? fl[2*stride*l + 2*k] : d[2*stride*l + 2*k], im = single ? fl[2*stride*l + 2*k+1] : d[2*stride*l + 2*k+1];
            check(block[2*k*L+l], re, "pairs in re"); check(block[(2*k+1)*L+l], -im, "pairs in im");
        }
        const int count = L - 1;
        if (single) block_to_pairs<float>(block.data(), pairs, -1.0, outs, count); else block_to_pairs<double>(block.data(), pairs, -1.0, outs, count);
        for (int l = 0; l < L; ++l) for (int64_t k = 0; k < 2 * pairs; ++k) {
            double got = single ? of[2*stride*l + k] : od[2*stride*l + k], want = l < count ? (single ? fl[2*stride*l + k] : d[2*stride*l + k]) : 0.0;
            check(got, want, "pairs out");
        }
        // columns: rows `stride` pairs apart, L adjacent pairs per row, one block or a panel
        // of two side by side (`step` doubles apart in the scratch)
        const int64_t rows = 5, step = 2 * rows * L;
        vec<double> panel(2 * step);
        for (int64_t blocks = 1; blocks <= 2; ++blocks) {
            if (single) columns_to_block<float>(fl.data(), stride, rows, -1.0, panel.data(), blocks, step);
            else columns_to_block<double>(d.data(), stride, rows, -1.0, panel.data(), blocks, step);
            for (int64_t p = 0; p < blocks; ++p)
                for (int l = 0; l < L; ++l)
                    for (int64_t j = 0; j < rows; ++j) {
                        const int64_t at = 2 * (j * stride + p * L + l);
                        check(panel[p * step + 2 * j * L + l], single ? fl[at] : d[at], "columns in re");
                        check(panel[p * step + (2 * j + 1) * L + l], -(single ? fl[at + 1] : d[at + 1]), "columns in im");
                    }
            std::fill(od.begin(), od.end(), 0);
            std::fill(of.begin(), of.end(), 0);
            if (single) block_to_columns<float>(panel.data(), rows, -1.0, of.data(), stride, blocks, step);
            else block_to_columns<double>(panel.data(), rows, -1.0, od.data(), stride, blocks, step);
            for (int64_t j = 0; j < rows; ++j)
                for (int64_t k = 0; k < 2 * stride; ++k)
                    check(single ? of[2 * j * stride + k] : od[2 * j * stride + k],
                          k < 2 * L * blocks ? (single ? fl[2 * j * stride + k] : d[2 * j * stride + k]) : 0.0, "columns out");
        }
    }
    // twiddles per lane: exp(-2 pi i (j2 + l) k1 / n), n = n1 n2
    {
        const int64_t n1 = 9, n2 = 37, n = n1 * n2, j2 = 3;
        vec<double> w1(2 * n1), w2(2 * n2), block(2 * n1 * L), mid(2 * n, 0);
        for (int64_t h = 0; h < n1; ++h) { w1[2*h] = cos(-2*M_PI*h/n1); w1[2*h+1] = sin(-2*M_PI*h/n1); }
        for (int64_t j = 0; j < n2; ++j) { w2[2*j] = cos(-2*M_PI*j/n); w2[2*j+1] = sin(-2*M_PI*j/n); }
        for (auto& v : block) v = u(rng);
        twiddle_to_columns(block.data(), n1, j2, n2, w1.data(), w2.data(), mid.data() + 2 * j2);
        for (int64_t k1 = 0; k1 < n1; ++k1) for (int l = 0; l < L; ++l) {
            std::complex<double> x(block[2*k1*L+l], block[(2*k1+1)*L+l]), want = x * std::polar(1.0, -2*M_PI*double((j2+l)*k1 % n)/n);
            check(mid[2*(k1*n2 + j2 + l)], want.real(), "twiddle re"); check(mid[2*(k1*n2 + j2 + l)+1], want.imag(), "twiddle im");
        }
    }
    // one line's split and merge against the scalar steps
    for (int64_t m : {1, 3, 8, 37, 64}) {
        vec<double> w(2 * (m + 1)), z(2 * (m + 1)), a(2 * (m + 1)), b(2 * (m + 1));
        for (int64_t k = 0; k <= m; ++k) { w[2*k] = cos(-M_PI*k/m); w[2*k+1] = sin(-M_PI*k/m); }
        for (auto& v : z) v = u(rng);
        for (int64_t k0 : {0, 1, 5}) {
            if (k0 > m) continue;
            real_step_line<true>(m, w.data(), z.data(), a.data(), k0, m + 1);
            rfft_split(m, w.data(), (const LinePair*)z.data(), (LinePair*)b.data(), k0, m + 1);
            for (int64_t i = 0; i < 2 * (m + 1 - k0); ++i) check(a[i], b[i], "split");
            if (k0 >= m) continue;
            real_step_line<false>(m, w.data(), z.data(), a.data(), k0, m);
            irfft_merge(m, w.data(), (const LinePair*)z.data(), (LinePair*)b.data(), k0, m);
            for (int64_t i = 0; i < 2 * (m - k0); ++i) check(a[i], b[i], "merge");
        }
    }
    // the block layout's split and merge (a vector's width of lines), lane by lane
    for (int64_t m : {8, 37}) {
        vec<double> w(2 * (m + 1)), z(2 * (m + 1) * L), a(2 * (m + 1) * L), line(2 * (m + 1)), want(2 * (m + 1));
        for (int64_t k = 0; k <= m; ++k) { w[2*k] = cos(-M_PI*k/m); w[2*k+1] = sin(-M_PI*k/m); }
        for (auto& v : z) v = u(rng);
        for (int split = 0; split < 2; ++split) {
            const int64_t end = split ? m + 1 : m;
            if (split) rfft_split_lines(m, w.data(), z.data(), a.data(), 0, end);
            else irfft_merge_lines(m, w.data(), z.data(), a.data(), 0, end);
            for (int l = 0; l < L; ++l) {
                for (int64_t k = 0; k <= m; ++k) { line[2*k] = z[2*k*L+l]; line[2*k+1] = z[(2*k+1)*L+l]; }
                if (split) rfft_split(m, w.data(), (const LinePair*)line.data(), (LinePair*)want.data(), 0, end);
                else irfft_merge(m, w.data(), (const LinePair*)line.data(), (LinePair*)want.data(), 0, end);
                for (int64_t k = 0; k < end; ++k) {
                    check(a[2*k*L+l], want[2*k], split ? "split lines" : "merge lines");
                    check(a[(2*k+1)*L+l], want[2*k+1], split ? "split lines" : "merge lines");
                }
            }
        }
    }
    printf("ok at %d lanes, worst difference %.3g\n", L, worst);
}
