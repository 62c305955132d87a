// ember-openblas-threads: at which sizes the installed OpenBLAS runs the drivers the cpu
// backend calls on threads of its own. The pool rules of backends/cpu/lapack.hpp
// (PoolRule) rest on this table, measured on Debian's OpenBLAS 0.3.21; run it against
// another OpenBLAS to see whether they still hold (and GEMM's threshold, on which
// backends/cpu/matmul.cpp's row blocks and inner-dimension chunks rest):
//   OPENBLAS_NUM_THREADS=2 build/bin/ember-openblas-threads
// For each driver and size it calls the driver repeatedly and compares the CPU time of the
// process's other threads (OpenBLAS's) with the calling thread's: near 0 means OpenBLAS
// kept the call on the calling thread. Linux only (getrusage RUSAGE_THREAD).
#include <complex>

#define LAPACK_COMPLEX_CPP 1  // LAPACK's complex arguments as std::complex
#define lapack_complex_float std::complex<float>
#define lapack_complex_double std::complex<double>
#include <cblas.h>
#include <lapacke.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <vector>

namespace {

double seconds(const rusage& r) {
    return (double)(r.ru_utime.tv_sec + r.ru_stime.tv_sec) + 1e-6 * (double)(r.ru_utime.tv_usec + r.ru_stime.tv_usec);
}

// CPU seconds of the other threads per CPU second of this one, over calls taking 0.2 s.
double other_threads_share(const std::function<void()>& call) {
    usleep(300000);  // OpenBLAS's threads spin for a while after a threaded call
    rusage p0, t0, p1, t1;
    getrusage(RUSAGE_SELF, &p0);
    getrusage(RUSAGE_THREAD, &t0);
    do {
        for (int i = 0; i < 16; ++i) call();
        getrusage(RUSAGE_THREAD, &t1);
    } while (seconds(t1) - seconds(t0) < 0.2);
    getrusage(RUSAGE_SELF, &p1);
    const double self = seconds(t1) - seconds(t0);
    return ((seconds(p1) - seconds(p0)) - self) / self;
}

using cd = std::complex<double>;

struct Driver {
    const char* name;
    std::function<void(int)> run;  // one call on n x n matrices
};

}  // namespace

int main() {
    const int max_n = 128;
    std::mt19937 rng(1);
    std::uniform_real_distribution<double> u(-1, 1);
    std::vector<double> a((size_t)max_n * max_n), w(a.size()), b(a.size() * 2), s(max_n), wr(max_n), wi(max_n), vr(a.size()),
        work(1 << 16);
    std::vector<cd> za(a.size()), zw(a.size()), zb(a.size() * 2), zv(a.size()), ztau(max_n), zwork(1 << 16);
    std::vector<lapack_int> ipiv(max_n), iwork(1 << 16);
    std::vector<float> sa(a.begin(), a.end()), sc(a.size());
    for (int i = 0; i < max_n * max_n; ++i) {
        a[(size_t)i] = u(rng) + (i % (max_n + 1) == 0 ? max_n : 0);
        za[(size_t)i] = cd(a[(size_t)i], u(rng) * (i % (max_n + 1) != 0));
    }
    // The leading n x n block of a (za) into w (zw), columns n apart: well conditioned,
    // and positive definite.
    auto fresh = [&](int n) {
        for (int j = 0; j < n; ++j) std::memcpy(&w[(size_t)j * n], &a[(size_t)j * max_n], sizeof(double) * n);
    };
    auto zfresh = [&](int n) {
        for (int j = 0; j < n; ++j) std::memcpy((void*)&zw[(size_t)j * n], &za[(size_t)j * max_n], sizeof(cd) * n);
    };
    const cd zone(1);
    lapack_int rank = 0;
    const std::vector<Driver> drivers = {
        // matmul.cpp's row blocks and inner-dimension chunks rest on GEMM's threshold: calls
        // of m*n*k <= 64^3 must stay on the calling thread (0 at n <= 64; 0.3.21 keeps them
        // there up to 96 and threads 128^3 and 256 x 64 x 64).
        {"sgemm n^3", [&](int n) {
             cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, sa.data(), n, sa.data(), n, 0.0f, sc.data(), n);
         }},
        {"dgemm n^3", [&](int n) { cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, a.data(), n, a.data(), n, 0.0, w.data(), n); }},
        {"dgetrf", [&](int n) { fresh(n); LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, n, n, w.data(), n, ipiv.data()); }},
        {"dtrsv", [&](int n) { cblas_dtrsv(CblasColMajor, CblasUpper, CblasTrans, CblasUnit, n, a.data(), max_n, b.data(), 1); }},
        {"dtrsm k=n", [&](int n) { cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasTrans, CblasUnit, n, n, 1.0, a.data(), max_n, b.data(), n); }},
        {"ztrsm k=n", [&](int n) { cblas_ztrsm(CblasColMajor, CblasLeft, CblasLower, CblasTrans, CblasUnit, n, n, &zone, za.data(), max_n, zb.data(), n); }},
        {"dgetrf+dgetri", [&](int n) {
             fresh(n);
             LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, n, n, w.data(), n, ipiv.data());
             LAPACKE_dgetri_work(LAPACK_COL_MAJOR, n, w.data(), n, ipiv.data(), work.data(), (lapack_int)work.size());
         }},
        {"dpotrf", [&](int n) { fresh(n); LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'U', n, w.data(), n); }},
        {"dgesdd", [&](int n) {
             fresh(n);
             LAPACKE_dgesdd_work(LAPACK_COL_MAJOR, 'S', n, n, w.data(), n, s.data(), vr.data(), n, b.data(), n, work.data(),
                                 (lapack_int)work.size(), iwork.data());
         }},
        {"dgelsd", [&](int n) {
             fresh(n);
             std::memcpy(b.data(), a.data(), sizeof(double) * (size_t)n);
             LAPACKE_dgelsd_work(LAPACK_COL_MAJOR, n, n, 1, w.data(), n, b.data(), n, s.data(), -1.0, &rank, work.data(),
                                 (lapack_int)work.size(), iwork.data());
         }},
        {"dgeqrf+dorgqr", [&](int n) {
             fresh(n);
             LAPACKE_dgeqrf_work(LAPACK_COL_MAJOR, n, n, w.data(), n, s.data(), work.data(), (lapack_int)work.size());
             LAPACKE_dorgqr_work(LAPACK_COL_MAJOR, n, n, n, w.data(), n, s.data(), work.data(), (lapack_int)work.size());
         }},
        {"zgeqrf+zungqr", [&](int n) {
             zfresh(n);
             LAPACKE_zgeqrf_work(LAPACK_COL_MAJOR, n, n, zw.data(), n, ztau.data(), zwork.data(), (lapack_int)zwork.size());
             LAPACKE_zungqr_work(LAPACK_COL_MAJOR, n, n, n, zw.data(), n, ztau.data(), zwork.data(), (lapack_int)zwork.size());
         }},
        {"dgeev", [&](int n) {
             fresh(n);
             LAPACKE_dgeev_work(LAPACK_COL_MAJOR, 'N', 'V', n, w.data(), n, wr.data(), wi.data(), nullptr, 1, vr.data(), n, work.data(),
                                (lapack_int)work.size());
         }},
        {"zgeev", [&](int n) {
             zfresh(n);
             LAPACKE_zgeev_work(LAPACK_COL_MAJOR, 'N', 'V', n, zw.data(), n, ztau.data(), nullptr, 1, zv.data(), n, zwork.data(),
                                (lapack_int)zwork.size(), work.data());
         }},
        {"dsyevd", [&](int n) {
             fresh(n);
             LAPACKE_dsyevd_work(LAPACK_COL_MAJOR, 'V', 'L', n, w.data(), n, s.data(), work.data(), (lapack_int)work.size(),
                                 iwork.data(), (lapack_int)iwork.size());
         }},
    };
    const int sizes[] = {8, 16, 24, 32, 40, 48, 56, 64, 72, 88, 96};
    std::printf("OpenBLAS %s, %d threads: CPU time of OpenBLAS's threads per second of the calling thread\n", openblas_get_config(),
                openblas_get_num_threads());
    std::printf("%-14s", "driver \\ n");
    for (int n : sizes) std::printf("%6d", n);
    std::printf("\n");
    for (const Driver& d : drivers) {
        std::printf("%-14s", d.name);
        for (int n : sizes) {
            std::printf("%6.2f", other_threads_share([&] { d.run(n); }));
            std::fflush(stdout);
        }
        std::printf("\n");
    }
    // matmul.cpp's Gram products in pieces (gram_pieces) rest on the orders from which SYRK
    // threads (0.3.21: float32 from 200, float64 from 100; k does not matter).
    const int syrk_k = 1024, syrk_orders[] = {64, 96, 99, 100, 128, 192, 199, 200, 256};
    std::vector<float> fx((size_t)256 * syrk_k, 0.5f), fc(256 * 256);
    std::vector<double> dx((size_t)256 * syrk_k, 0.5), dc(256 * 256);
    std::printf("\n%-14s", "SYRK \\ order");
    for (int n : syrk_orders) std::printf("%6d", n);
    std::printf("\n%-14s", "ssyrk k=1024");
    for (int n : syrk_orders) {
        std::printf("%6.2f", other_threads_share([&] {
                        cblas_ssyrk(CblasRowMajor, CblasUpper, CblasNoTrans, n, syrk_k, 1.0f, fx.data(), syrk_k, 0.0f, fc.data(), n);
                    }));
        std::fflush(stdout);
    }
    std::printf("\n%-14s", "dsyrk k=1024");
    for (int n : syrk_orders) {
        std::printf("%6.2f", other_threads_share([&] {
                        cblas_dsyrk(CblasRowMajor, CblasUpper, CblasNoTrans, n, syrk_k, 1.0, dx.data(), syrk_k, 0.0, dc.data(), n);
                    }));
        std::fflush(stdout);
    }
    using cf = std::complex<float>;
    std::vector<cf> cx((size_t)256 * syrk_k, cf(0.5f, 0.25f)), cc(256 * 256);
    std::vector<cd> zx((size_t)256 * syrk_k, cd(0.5, 0.25)), zc(256 * 256);
    const cf cone(1), czero(0);
    const cd zero(0);
    std::printf("\n%-14s", "csyrk k=1024");
    for (int n : syrk_orders) {
        std::printf("%6.2f", other_threads_share([&] {
                        cblas_csyrk(CblasRowMajor, CblasUpper, CblasNoTrans, n, syrk_k, &cone, cx.data(), syrk_k, &czero, cc.data(), n);
                    }));
        std::fflush(stdout);
    }
    std::printf("\n%-14s", "zsyrk k=1024");
    for (int n : syrk_orders) {
        std::printf("%6.2f", other_threads_share([&] {
                        cblas_zsyrk(CblasRowMajor, CblasUpper, CblasNoTrans, n, syrk_k, &zone, zx.data(), syrk_k, &zero, zc.data(), n);
                    }));
        std::fflush(stdout);
    }
    std::printf("\n");
}
