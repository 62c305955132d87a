// cpu backend: the linalg factorizations through Ember (LAPACKE kernels, backends/cpu/
// lapack*.cpp) against raw LAPACKE calls on the same data in the same process, and against
// the reference backend's portable kernels. float64. (Added to ember-bench by
// backends/cpu/CMakeLists.txt when OpenBLAS and LAPACKE are found.)
//
// The raw baselines include copying the input into the buffer LAPACK overwrites (Ember's
// kernels copy too, from any strides), and use the high-level LAPACKE calls in column-major
// order (workspace allocated per call, as Ember's kernels do).
#include <lapacke.h>

#include <cstring>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "bench.hpp"
#include "ember/ember.h"
#include "ember/ember_linalg.h"

namespace {

struct Data {
    int n;
    std::vector<double> a, spd, sym, b;
};
Data make_data(int n) {
    Data d{n, std::vector<double>((size_t)n * n), std::vector<double>((size_t)n * n), std::vector<double>((size_t)n * n),
           std::vector<double>((size_t)n)};
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> u(-1, 1);
    for (auto& x : d.a) x = u(rng);
    for (int i = 0; i < n; ++i) d.a[(size_t)i * n + i] += n;  // well conditioned
    for (auto& x : d.b) x = u(rng);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j <= i; ++j) {
            double v = u(rng);
            d.sym[(size_t)i * n + j] = d.sym[(size_t)j * n + i] = v;
            d.spd[(size_t)i * n + j] = d.spd[(size_t)j * n + i] = v + (i == j ? 2.0 * n : 0.0);  // diagonally dominant
        }
    return d;
}

struct Tensors {
    ember_tensor_t *a = nullptr, *spd = nullptr, *sym = nullptr, *b = nullptr, *wide = nullptr;
    ember_tensor_t *lu = nullptr, *pivots = nullptr;  // lu_factor(a), made once for lu_solve, which times the solve alone
    Tensors(ember_ctx_t* ctx, const Data& d, const std::string& op) {
        int64_t sq[2] = {d.n, d.n}, v[1] = {d.n}, w[2] = {d.n / 4, d.n};
        ember_tensor_from_data(ctx, d.a.data(), EMBER_FLOAT64, w, 2, &wide);  // a's first n/4 rows
        ember_tensor_from_data(ctx, d.a.data(), EMBER_FLOAT64, sq, 2, &a);
        ember_tensor_from_data(ctx, d.spd.data(), EMBER_FLOAT64, sq, 2, &spd);
        ember_tensor_from_data(ctx, d.sym.data(), EMBER_FLOAT64, sq, 2, &sym);
        ember_tensor_from_data(ctx, d.b.data(), EMBER_FLOAT64, v, 1, &b);
        if (op == "lu_solve") ember_lu_factor(ctx, a, &lu, &pivots);
    }
    ~Tensors() {
        ember_tensor_release(a);
        ember_tensor_release(spd);
        ember_tensor_release(sym);
        ember_tensor_release(b);
        ember_tensor_release(wide);
        ember_tensor_release(lu);
        ember_tensor_release(pivots);
    }
};

void release(std::initializer_list<ember_tensor_t*> ts) {
    for (auto* t : ts) ember_tensor_release(t);
}

// One Ember call of each case on ctx.
std::function<void()> ember_call(const std::string& op, ember_ctx_t* ctx, const Tensors& t) {
    if (op == "solve")
        return [=, &t] {
            ember_tensor_t* x = nullptr;
            ember_solve(ctx, t.a, t.b, &x);
            release({x});
        };
    if (op == "lu_factor")
        return [=, &t] {
            ember_tensor_t *lu = nullptr, *piv = nullptr;
            ember_lu_factor(ctx, t.a, &lu, &piv);
            release({lu, piv});
        };
    if (op == "lu_solve")  // one right-hand side
        return [=, &t] {
            ember_tensor_t* x = nullptr;
            ember_lu_solve(ctx, t.lu, t.pivots, t.b, &x);
            release({x});
        };
    if (op == "cholesky")
        return [=, &t] {
            ember_tensor_t* l = nullptr;
            ember_cholesky(ctx, t.spd, 0, &l);
            release({l});
        };
    if (op == "qr")
        return [=, &t] {
            ember_tensor_t *q = nullptr, *r = nullptr;
            ember_qr(ctx, t.a, EMBER_QR_REDUCED, &q, &r);
            release({q, r});
        };
    if (op == "svd")
        return [=, &t] {
            ember_tensor_t *u = nullptr, *s = nullptr, *vh = nullptr;
            ember_svd(ctx, t.a, 0, &u, &s, &vh);
            release({u, s, vh});
        };
    if (op == "svd_wide")  // A (n/4, n)
        return [=, &t] {
            ember_tensor_t *u = nullptr, *s = nullptr, *vh = nullptr;
            ember_svd(ctx, t.wide, 0, &u, &s, &vh);
            release({u, s, vh});
        };
    if (op == "inv")
        return [=, &t] {
            ember_tensor_t* x = nullptr;
            ember_inv(ctx, t.a, &x);
            release({x});
        };
    if (op == "det")
        return [=, &t] {
            ember_tensor_t* d = nullptr;
            ember_det(ctx, t.a, &d);
            release({d});
        };
    if (op == "lstsq")  // every output, as np.linalg.lstsq returns them
        return [=, &t] {
            ember_tensor_t *x = nullptr, *res = nullptr, *rank = nullptr, *s = nullptr;
            ember_lstsq(ctx, t.a, t.b, -1, &x, &res, &rank, &s);
            release({x, res, rank, s});
        };
    if (op == "lstsq_many")  // n right-hand sides: the composite (svd and two matmuls)
        return [=, &t] {
            ember_tensor_t *x = nullptr, *res = nullptr, *rank = nullptr, *s = nullptr;
            ember_lstsq(ctx, t.a, t.sym, -1, &x, &res, &rank, &s);
            release({x, res, rank, s});
        };
    return [=, &t] {  // eigh
        ember_tensor_t *w = nullptr, *v = nullptr;
        ember_eigh(ctx, t.sym, 0, &w, &v);
        release({w, v});
    };
}

// The same computation with raw LAPACKE calls; returns the baseline's name.
std::string raw_call(const std::string& op, const Data& d, std::function<void()>& fn) {
    const int n = d.n;
    auto work = std::make_shared<std::vector<double>>((size_t)n * n);
    auto work2 = std::make_shared<std::vector<double>>((size_t)n * n);
    auto vec = std::make_shared<std::vector<double>>((size_t)n);
    auto ipiv = std::make_shared<std::vector<lapack_int>>((size_t)n);
    if (op == "solve") {
        fn = [=, &d] {
            std::memcpy(work->data(), d.a.data(), sizeof(double) * n * n);
            std::memcpy(vec->data(), d.b.data(), sizeof(double) * n);
            LAPACKE_dgesv(LAPACK_COL_MAJOR, n, 1, work->data(), n, ipiv->data(), vec->data(), n);
        };
        return "LAPACKE_dgesv";
    }
    if (op == "lu_factor") {  // Ember's kernel also transposes A in and the LU out
        fn = [=, &d] {
            std::memcpy(work->data(), d.a.data(), sizeof(double) * n * n);
            LAPACKE_dgetrf(LAPACK_COL_MAJOR, n, n, work->data(), n, ipiv->data());
        };
        return "LAPACKE_dgetrf";
    }
    if (op == "lu_solve") {
        // Factored once, like Ember's: the buffer holds row-major A, which column-major
        // LAPACK reads as A^T, so 'T' solves A x = b with no transposition.
        std::memcpy(work->data(), d.a.data(), sizeof(double) * n * n);
        LAPACKE_dgetrf(LAPACK_COL_MAJOR, n, n, work->data(), n, ipiv->data());
        fn = [=, &d] {
            std::memcpy(vec->data(), d.b.data(), sizeof(double) * n);
            LAPACKE_dgetrs(LAPACK_COL_MAJOR, 'T', n, 1, work->data(), n, ipiv->data(), vec->data(), n);
        };
        return "LAPACKE_dgetrs";
    }
    if (op == "lstsq") {  // Ember's default cutoff: eps * max(m, n)
        fn = [=, &d] {
            std::memcpy(work->data(), d.a.data(), sizeof(double) * n * n);
            std::memcpy(vec->data(), d.b.data(), sizeof(double) * n);
            lapack_int rank = 0;
            LAPACKE_dgelsd(LAPACK_COL_MAJOR, n, n, 1, work->data(), n, vec->data(), n, work2->data(), 2.220446049250313e-16 * n, &rank);
        };
        return "LAPACKE_dgelsd";
    }
    if (op == "lstsq_many") {
        auto rhs = std::make_shared<std::vector<double>>((size_t)n * n);
        fn = [=, &d] {
            std::memcpy(work->data(), d.a.data(), sizeof(double) * n * n);
            std::memcpy(rhs->data(), d.sym.data(), sizeof(double) * n * n);
            lapack_int rank = 0;
            LAPACKE_dgelsd(LAPACK_COL_MAJOR, n, n, n, work->data(), n, rhs->data(), n, vec->data(), 2.220446049250313e-16 * n, &rank);
        };
        return "LAPACKE_dgelsd";
    }
    if (op == "cholesky") {
        fn = [=, &d] {
            std::memcpy(work->data(), d.spd.data(), sizeof(double) * n * n);
            LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', n, work->data(), n);
        };
        return "LAPACKE_dpotrf";
    }
    if (op == "qr") {
        fn = [=, &d] {
            std::memcpy(work->data(), d.a.data(), sizeof(double) * n * n);
            LAPACKE_dgeqrf(LAPACK_COL_MAJOR, n, n, work->data(), n, vec->data());
            LAPACKE_dorgqr(LAPACK_COL_MAJOR, n, n, n, work->data(), n, vec->data());
        };
        return "LAPACKE_dgeqrf+dorgqr";
    }
    if (op == "svd") {
        auto vt = std::make_shared<std::vector<double>>((size_t)n * n);
        fn = [=, &d] {
            std::memcpy(work->data(), d.a.data(), sizeof(double) * n * n);
            LAPACKE_dgesdd(LAPACK_COL_MAJOR, 'S', n, n, work->data(), n, vec->data(), work2->data(), n, vt->data(), n);
        };
        return "LAPACKE_dgesdd";
    }
    if (op == "svd_wide") {  // the row-major (n/4) x n matrix as a C user holds it
        auto vt = std::make_shared<std::vector<double>>((size_t)n * n);
        fn = [=, &d] {
            std::memcpy(work->data(), d.a.data(), sizeof(double) * n * (n / 4));
            LAPACKE_dgesdd(LAPACK_ROW_MAJOR, 'S', n / 4, n, work->data(), n, vec->data(), work2->data(), n / 4, vt->data(), n);
        };
        return "LAPACKE_dgesdd_row_major";
    }
    fn = [=, &d] {
        std::memcpy(work->data(), d.sym.data(), sizeof(double) * n * n);
        LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'V', 'L', n, work->data(), n, vec->data());
    };
    return "LAPACKE_dsyevd";
}

void lapack_cases(const bench::Options& opt, std::vector<bench::Result>& out) {
    ember_ctx_t *cpu = nullptr, *ref = nullptr;
    if (ember_ctx_create_on("cpu", 0, &cpu) != EMBER_OK) return;  // backend not available
    ember_ctx_create_on("reference", 0, &ref);
    struct Item {
        const char* op;
        int n;
        bool time_reference = true;  // the portable kernels take seconds past these sizes
    };
    std::vector<Item> items = {{"solve", 256}, {"solve", 1024}, {"lu_factor", 256}, {"lu_factor", 1024},
                               {"lu_factor", 2048}, {"lu_solve", 256}, {"lu_solve", 2048}, {"cholesky", 256}, {"cholesky", 1024}, {"qr", 256}, {"svd", 256}, {"eigh", 256}, {"lstsq", 256},
                               {"lstsq_many", 256}, {"svd_wide", 1024, false}};
    for (const Item& it : items) {
        Data d = make_data(it.n);
        const bool time_reference = it.n <= 1024 && it.time_reference;
        // (The reference's own lu_factor of a 2048 matrix, for a case it does not time, takes seconds.)
        Tensors tc(cpu, d, it.op), tr(ref, d, time_reference ? it.op : "");
        std::string name = std::string(it.op) + "_f64", size = std::to_string(it.n);
        int reps = it.n >= 1024 ? (opt.quick ? 2 : 5) : (opt.quick ? 5 : 20);
        std::function<void()> raw;
        std::string base = raw_call(it.op, d, raw);
        auto [te, traw] = bench::best_of_pair(reps, ember_call(it.op, cpu, tc), raw);
        out.push_back({name, size, "cpu", base, te, traw});
        // The portable kernels are 10-1000x slower: one or two timed runs are plenty, and
        // none past 1024 (seconds each).
        if (time_reference)
            out.push_back({name, size, "cpu", "reference", te, bench::best_of(opt.quick ? 1 : 2, ember_call(it.op, ref, tr))});
    }
    ember_ctx_release(ref);
    ember_ctx_release(cpu);
}
bench::Register reg("lapack", lapack_cases);

// Against NumPy's np.linalg (only under bench/run_numpy.sh; numpy_baseline.py's
// LINALG_CASES builds the same kinds of matrices as make_data, with its own numbers).
void numpy_linalg_cases(const bench::Options& opt, std::vector<bench::Result>& out) {
    auto np = bench::numpy_times();
    if (np.empty()) return;
    ember_ctx_t* cpu = nullptr;
    if (ember_ctx_create_on("cpu", 0, &cpu) != EMBER_OK) return;
    for (const char* op : {"solve", "inv", "det", "cholesky", "qr", "svd", "eigh", "lstsq", "lstsq_many", "svd_wide"})
        for (int n : {256, 1024}) {
            std::string name = std::string(op) + "_f64", size = std::to_string(n);
            if (!np.count(name + "/" + size)) continue;
            Data d = make_data(n);
            Tensors t(cpu, d, op);
            int reps = n >= 1024 ? (opt.quick ? 2 : 5) : (opt.quick ? 5 : 20);
            out.push_back({name, size, "cpu", "numpy", bench::best_of(reps, ember_call(op, cpu, t)), np[name + "/" + size]});
        }
    ember_ctx_release(cpu);
}
bench::Register reg_numpy("numpy_linalg", numpy_linalg_cases);

}  // namespace
