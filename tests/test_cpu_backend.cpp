// The cpu backend (backends/cpu): caching allocator, reference fallback without copies,
// threading configuration, large inputs that take the threaded and vector paths (compared
// with the reference backend), summation accuracy, and the ulp error of the float32
// transcendental functions over sweeps of inputs, for every instruction-set variant.
//
// Settings read once per process (EMBER_CPU_CACHE_LIMIT, EMBER_NUM_THREADS, EMBER_CPU_ISA)
// are tested in a child process: the test re-runs this binary with the variable set and a
// filter selecting a CpuChild.* test, which only runs there.
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <type_traits>
#include <vector>

#include "cpu_contexts.hpp"

namespace {

bool in_child() { return std::getenv("EMBER_CPU_TEST_CHILD") != nullptr; }
#define CHILD_ONLY() \
    if (!in_child()) GTEST_SKIP() << "runs in a child process started by another test"

// The kernel variant this process runs ("avx512", "avx2" or "generic"): the driver string
// starts with it.
std::string running_isa() {
    ember_device_info_t info{};
    if (ember_ctx_device_info(cpu(), 0, &info) != EMBER_OK) return "";
    const std::string driver = info.driver;
    return driver.substr(0, driver.find(" kernels"));
}

// Re-runs this test binary with extra environment and a gtest filter; returns its exit status.
// EMBER_CPU_ISA naming the variant this process runs already changes nothing (on a host
// without AVX-512 the best variant is avx2), so it is dropped; a child left with nothing new,
// or with what the child just before had, would repeat a run exactly and is not started
// (on such a host, about a fifth of the C suite's time under the sanitizers).
int run_child(const std::string& filter, const std::vector<std::pair<std::string, std::string>>& env) {
    static std::string previous;
    std::vector<std::string> extra{"EMBER_CPU_TEST_CHILD=1"};
    std::string settings;
    for (auto& [k, v] : env) {
        if (k == "EMBER_CPU_ISA" && v == running_isa()) continue;
        extra.push_back(k + "=" + v);
        settings += " " + extra.back();
    }
    const std::string run = filter + settings;
    if (settings.empty() || run == previous) {
        std::printf("    [child] %s with%s: the same as a run before; not repeated\n", filter.c_str(), settings.empty() ? " this process's settings" : settings.c_str());
        return 0;
    }
    previous = run;
    return wait_test_child(spawn_test_child(filter, extra));
}

// scripts/test.sh sets EMBER_TEST_SANITIZED_PASS_FOLLOWS for its optimised ctest run, after
// which the sanitized build runs the whole suite, children included. A child run whose
// results cannot depend on the optimisation level (only comparisons and moves, or the
// generic variant, which has no FMA for -ffp-contract to form, and no flag that lets the
// compiler reassociate) runs there only: it would repeat the same results, and the
// sanitizers see its memory accesses there.
#define RESULTS_INDEPENDENT_OF_OPTIMISATION()                    \
    if (std::getenv("EMBER_TEST_SANITIZED_PASS_FOLLOWS") != nullptr) \
    GTEST_SKIP() << "the sanitized pass of scripts/test.sh runs it (its results do not depend on the optimisation level)"

// ------------------------------------------------------------------ allocator
TEST(CpuAllocator, AlignedReusedAndReported) {
    NEED_CPU();
    ember_memory_info_t before{}, live{}, after{};
    EM_OK(ember_ctx_memory_info(cpu(), &before));
    EXPECT_GT(before.limit_bytes, 0u);
    EXPECT_GT(before.total_bytes, 0u);
    const int64_t n = 300000;  // 1.2 MB: an mmap'ed, huge-page-advised block
    int64_t shape[1] = {n};
    void* first = nullptr;
    {
        T t;
        EM_OK(ember_empty(cpu(), shape, 1, EMBER_FLOAT32, t.out()));
        EM_OK(ember_tensor_host_data(t, &first));
        EXPECT_EQ((uintptr_t)first % 64, 0u);
        EM_OK(ember_ctx_memory_info(cpu(), &live));
        EXPECT_GE(live.allocated_bytes, before.allocated_bytes + (uint64_t)n * 4);
    }
    EM_OK(ember_ctx_memory_info(cpu(), &after));
    EXPECT_EQ(after.allocated_bytes, before.allocated_bytes);
    EXPECT_GE(after.cached_bytes, (uint64_t)n * 4) << "a freed block is kept for reuse";
    {
        T t;
        EM_OK(ember_empty(cpu(), shape, 1, EMBER_FLOAT32, t.out()));
        void* again = nullptr;
        EM_OK(ember_tensor_host_data(t, &again));
        EXPECT_EQ(again, first) << "the same size class reuses the cached block";
        ember_memory_info_t m{};
        EM_OK(ember_ctx_memory_info(cpu(), &m));
        EXPECT_LE(m.cached_bytes, after.cached_bytes - (uint64_t)n * 4);
    }
    // Small blocks are aligned and reused too; a slightly smaller request shares the class.
    int64_t s1[1] = {100}, s2[1] = {97};
    void *p1 = nullptr, *p2 = nullptr;
    {
        T t;
        EM_OK(ember_empty(cpu(), s1, 1, EMBER_FLOAT64, t.out()));
        EM_OK(ember_tensor_host_data(t, &p1));
        EXPECT_EQ((uintptr_t)p1 % 64, 0u);
    }
    {
        T t;
        EM_OK(ember_empty(cpu(), s2, 1, EMBER_FLOAT64, t.out()));
        EM_OK(ember_tensor_host_data(t, &p2));
    }
    EXPECT_EQ(p1, p2);
    // Zero-byte tensors are fine.
    int64_t z[1] = {0};
    T e;
    EM_OK(ember_empty(cpu(), z, 1, EMBER_FLOAT32, e.out()));
}

TEST(CpuAllocator, NoLeakOverManyOps) {
    NEED_CPU();
    ember_memory_info_t before{}, after{};
    EM_OK(ember_ctx_memory_info(cpu(), &before));
    auto data = randf(5000, -1, 1, 3);
    for (int i = 0; i < 200; ++i) {
        T a = tensor(cpu(), data, {50, 100}, EMBER_FLOAT32);
        T b, c, d;
        EM_OK(ember_exp(cpu(), a, b.out()));
        EM_OK(ember_add(cpu(), a, b, c.out()));
        EM_OK(ember_sum(cpu(), c, nullptr, 0, 0, d.out()));
    }
    EM_OK(ember_ctx_memory_info(cpu(), &after));
    EXPECT_EQ(after.allocated_bytes, before.allocated_bytes) << "every buffer came back";
    EXPECT_LE(after.cached_bytes, after.limit_bytes);
}

// Under AddressSanitizer the allocator poisons the slack after a tensor's bytes and every
// block it keeps for reuse: a write one element past a tensor's end, or into a released
// tensor, is reported as it is for malloc'ed memory. (A reused block is unpoisoned: the
// whole suite reuses blocks.) So does the reference backend, whose blocks are rounded up
// to 64 bytes.
TEST(CpuAllocator, SanitizerSeesPastTheEndAndReleasedBlocks) {
#if !defined(__SANITIZE_ADDRESS__)
    GTEST_SKIP() << "only under AddressSanitizer";
#else
    NEED_CPU();
    GTEST_FLAG_SET(death_test_style, "threadsafe");  // the cpu backend's pool has threads: no bare fork
    const int64_t ten[1] = {10};  // 40 bytes in a 64-byte size class
    const int64_t big[1] = {300000};  // an mmap'ed block
    for (ember_ctx_t* ctx : {cpu(), ref()}) {
        for (const int64_t* shape : {ten, big}) {
            volatile float* p = nullptr;
            {
                T t;
                EM_OK(ember_empty(ctx, shape, 1, EMBER_FLOAT32, t.out()));
                void* data = nullptr;
                EM_OK(ember_tensor_host_data(t, &data));
                p = static_cast<float*>(data);
                p[0] = 1;
                p[shape[0] - 1] = 1;
                EXPECT_DEATH(p[shape[0]] = 1, "AddressSanitizer") << (ctx == cpu() ? "cpu, " : "reference, ") << shape[0] << " elements: one past the end";
            }
            EXPECT_DEATH(p[0] = 1, "AddressSanitizer") << (ctx == cpu() ? "cpu, " : "reference, ") << shape[0] << " elements: released";
        }
    }
#endif
}

TEST(CpuAllocator, BoundIsRespected) {
    NEED_CPU();
    NEED_CHILD_PROCESSES();
    EXPECT_EQ(run_child("CpuChild.CacheLimit", {{"EMBER_CPU_CACHE_LIMIT", "3000000"}}), 0);
    EXPECT_EQ(run_child("CpuChild.CacheDisabled", {{"EMBER_CPU_CACHE_LIMIT", "0"}}), 0);
}

TEST(CpuChild, CacheLimit) {
    CHILD_ONLY();
    NEED_CPU();
    ember_memory_info_t m{};
    EM_OK(ember_ctx_memory_info(cpu(), &m));
    ASSERT_EQ(m.limit_bytes, 3000000u);
    std::vector<T> ts;
    for (int i = 0; i < 10; ++i) {  // 10 x 800 KB live, then all freed
        int64_t s[1] = {200000 + i * 10};
        T t;
        EM_OK(ember_empty(cpu(), s, 1, EMBER_FLOAT32, t.out()));
        ts.push_back(std::move(t));
    }
    ts.clear();
    EM_OK(ember_ctx_memory_info(cpu(), &m));
    EXPECT_LE(m.cached_bytes, 3000000u);
    EXPECT_GT(m.cached_bytes, 0u);
    // A block larger than the whole bound is never cached.
    uint64_t cached = m.cached_bytes;
    {
        int64_t s[1] = {1000000};
        T t;
        EM_OK(ember_empty(cpu(), s, 1, EMBER_FLOAT32, t.out()));
    }
    EM_OK(ember_ctx_memory_info(cpu(), &m));
    EXPECT_EQ(m.cached_bytes, cached);
}

TEST(CpuChild, CacheDisabled) {
    CHILD_ONLY();
    NEED_CPU();
    {
        int64_t s[1] = {1000};
        T t;
        EM_OK(ember_empty(cpu(), s, 1, EMBER_FLOAT32, t.out()));
    }
    ember_memory_info_t m{};
    EM_OK(ember_ctx_memory_info(cpu(), &m));
    EXPECT_EQ(m.limit_bytes, 0u);
    EXPECT_EQ(m.cached_bytes, 0u);
}

// ------------------------------------------------------------------ fallback and threads
// Every primitive op has a cpu kernel (the registry's fallback to reference kernels is
// tested with the fake backend in test_core.cpp). Layouts and dtypes a native kernel does
// not cover run the reference kernel on the same host memory: no copy of the operands.
TEST(CpuBackend, DelegationRunsReferenceKernelWithoutCopy) {
    NEED_CPU();
    const char* binding = nullptr;
    for (const char* op : {"take", "add", "random_bits", "fft_c2c", "searchsorted"}) {
        EM_OK(ember_op_binding("cpu", op, &binding));
        EXPECT_STREQ(binding, "native") << op;
    }
    EM_OK(ember_op_binding("cpu", "mean", &binding));
    EXPECT_STREQ(binding, "native") << "the mean composite is overridden";
    EM_OK(ember_op_binding("cpu", "softmax", &binding));
    EXPECT_STREQ(binding, "native") << "a custom composite with a kernel convention, overridden";
    EM_OK(ember_op_binding("cpu", "pad", &binding));
    EXPECT_STREQ(binding, "composite");

    // take of a transposed table: its slices are not one block, so the reference gathers.
    T x = tensor(cpu(), randf(100000, -3, 3, 5), {1000, 100}, EMBER_FLOAT32), xt;
    EM_OK(ember_matrix_transpose(cpu(), x, xt.out()));
    T idx = tensor(cpu(), std::vector<float>{0, 5, 99}, {3}, EMBER_INT64);
    ember_memory_info_t before{}, after{};
    EM_OK(ember_ctx_memory_info(cpu(), &before));
    T y;
    EM_OK(ember_take(cpu(), xt, idx, 0, y.out()));
    EM_OK(ember_ctx_memory_info(cpu(), &after));
    EXPECT_EQ(backend_of(y), "cpu") << "the delegated result lives on the cpu backend";
    EXPECT_LT(after.allocated_bytes - before.allocated_bytes, 100000u * 4) << "no copy of the table was made";
    // Moving a cpu tensor to the reference backend shares the host buffer.
    void *xdata = nullptr, *rdata = nullptr;
    EM_OK(ember_tensor_host_data(x, &xdata));
    T xr = as_ref(x);
    EM_OK(ember_tensor_host_data(xr, &rdata));
    EXPECT_EQ(rdata, xdata);
    T want;
    EM_OK(ember_take(ref(), as_ref(xt), as_ref(idx), 0, want.out()));
    expect_close(y, want, 0, 0, "take of a transposed table");
}

TEST(CpuBackend, ThreadCountFollowsEnvironment) {
    NEED_CPU();
    ember_device_info_t info{};
    EM_OK(ember_ctx_device_info(cpu(), 0, &info));
    if (const char* s = std::getenv("EMBER_NUM_THREADS")) EXPECT_EQ(info.compute_units, std::atoi(s));
    else EXPECT_GE(info.compute_units, 1);
    // The driver names the kernel ISA and OpenBLAS's core type (which GEMM kernels run).
    const std::string driver = info.driver, core = "OpenBLAS core ";
    EXPECT_NE(driver.find(" kernels, "), std::string::npos) << driver;
    ASSERT_NE(driver.find(core), std::string::npos) << driver;
    EXPECT_GT(driver.size(), driver.find(core) + core.size()) << "no core name: " << driver;
    for (const char* good : {"core Haswell", "core SkylakeX"})
        if (driver.find(good) != std::string::npos) {
            EXPECT_EQ(driver.find("(below the CPU)"), std::string::npos) << driver;
        }
    NEED_CHILD_PROCESSES();
    EXPECT_EQ(run_child("CpuChild.ThreeThreads", {{"EMBER_NUM_THREADS", "3"}}), 0);
    EXPECT_EQ(run_child("CpuChild.OpenBlasCoreBelowTheCpu", {{"OPENBLAS_CORETYPE", "Prescott"}}), 0);
}

// threadpool.cpp: the workers are named ember-cpu-N, and one that shares the caller's CPU is
// moved off it (move_off_callers_cpu) with its own affinity given back at once. The test
// thread is pinned to a worker's CPU for a run of pool jobs, which makes that move likely;
// afterwards every worker may still run on every CPU the test thread could.
TEST(CpuBackend, PoolWorkersKeepTheirAffinity) {
    NEED_CPU();
    ember_device_info_t info{};
    EM_OK(ember_ctx_device_info(cpu(), 0, &info));
    cpu_set_t allowed;
    ASSERT_EQ(sched_getaffinity(0, sizeof allowed, &allowed), 0);
    auto d = randf(1 << 20, -1, 1, 5);
    T x = tensor(cpu(), d, {1 << 20}, EMBER_FLOAT32);
    auto run_jobs = [&] {
        for (int i = 0; i < 200; ++i) {
            T s;
            EM_OK(ember_sum(cpu(), x, nullptr, 0, 0, s.out()));
        }
    };
    run_jobs();  // the pool is started and its workers have run
    struct Worker {
        int tid, cpu;
    };
    auto workers = [] {
        std::vector<Worker> found;
        for (const auto& entry : std::filesystem::directory_iterator("/proc/self/task")) {
            std::ifstream comm(entry.path() / "comm"), stat(entry.path() / "stat");
            std::string name, line;
            std::getline(comm, name);
            std::getline(stat, line);
            if (name.rfind("ember-cpu-", 0) != 0) continue;
            std::istringstream fields(line.substr(line.rfind(')') + 2));
            std::string field;
            int cpu = -1;
            for (int i = 0; fields >> field; ++i)
                if (i == 36) cpu = std::atoi(field.c_str());  // stat's field 39, "processor"
            found.push_back({std::atoi(entry.path().filename().c_str()), cpu});
        }
        return found;
    };
    std::vector<Worker> before = workers();
    EXPECT_EQ((int)before.size(), std::max(0, info.compute_units - 1)) << "one named worker per thread but the caller's";
    if (before.empty() || CPU_COUNT(&allowed) < 2) GTEST_SKIP() << "no pool or one CPU: nothing to move";
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(before[0].cpu >= 0 ? before[0].cpu : 0, &one);
    if (sched_setaffinity(0, sizeof one, &one) == 0) {
        run_jobs();
        sched_setaffinity(0, sizeof allowed, &allowed);
    }
    for (const Worker& w : workers()) {
        cpu_set_t mask;
        ASSERT_EQ(sched_getaffinity(w.tid, sizeof mask, &mask), 0);
        EXPECT_TRUE(CPU_EQUAL(&mask, &allowed)) << "worker " << w.tid << " may run on " << CPU_COUNT(&mask) << " CPUs, not " << CPU_COUNT(&allowed);
    }
}

// With OpenBLAS's SSE3 kernels on a processor with AVX2 (an OpenBLAS too old for the
// processor picks them), the driver says so; OpenBLAS's AVX2 and AVX-512 cores pass.
TEST(CpuChild, OpenBlasCoreBelowTheCpu) {
    CHILD_ONLY();
    NEED_CPU();
    ember_device_info_t info{};
    EM_OK(ember_ctx_device_info(cpu(), 0, &info));
    const std::string driver = info.driver;
    ASSERT_NE(driver.find("OpenBLAS core Prescott"), std::string::npos) << driver;
#if defined(__x86_64__)
    const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
    const bool avx2 = false;
#endif
    EXPECT_EQ(driver.find(" (below the CPU)") != std::string::npos, avx2) << driver;
}

// The linalg kernels split a batch over the pool whenever OpenBLAS runs one thread, and with
// OpenBLAS threads only up to each driver's size (PoolRule in backends/cpu/lapack.hpp): the
// test runs here with one OpenBLAS thread and in the parent process with OpenBLAS's default.
TEST(CpuBackend, LinalgBatchesOnThePool) {
    NEED_CPU();
    NEED_CHILD_PROCESSES();
    EXPECT_EQ(run_child("CpuLinalg.LargeBatchOfSmallMatricesUsesThePool", {{"OPENBLAS_NUM_THREADS", "1"}, {"EMBER_NUM_THREADS", "2"}}), 0);
}

// The transposing copies around LAPACK write matrices of at least EMBER_CPU_STREAM_BYTES
// with streaming stores where the destination's columns are vector-aligned (lapack.hpp);
// 0 makes every such copy stream, in the AVX-512 (where the machine has it), AVX2 and SSE2
// code; the transposed views' copies too, the row passes among them.
TEST(CpuBackend, StreamingTransposesRoundTrip) {
    NEED_CPU();
    NEED_CHILD_PROCESSES();
    const char* filter = "CpuLinalg.MatricesLargerThanTheCopyBlocksRoundTrip:CpuLarge.TransposedRowPassesExact";
    EXPECT_EQ(run_child(filter, {{"EMBER_CPU_STREAM_BYTES", "0"}}), 0);
    EXPECT_EQ(run_child(filter, {{"EMBER_CPU_STREAM_BYTES", "0"}, {"EMBER_CPU_ISA", "avx2"}}), 0);
    EXPECT_EQ(run_child(filter, {{"EMBER_CPU_STREAM_BYTES", "0"}, {"EMBER_CPU_ISA", "generic"}}), 0);
}

// sort.cpp splits long lines by thread count: one thread takes the single-threaded passes
// (and splits big buckets for cache, not balance), three threads uneven stretches.
TEST(CpuBackend, SortsOnOneAndThreeThreads) {
    NEED_CPU();
    NEED_CHILD_PROCESSES();
    RESULTS_INDEPENDENT_OF_OPTIMISATION();
    const char* filter = "CpuLarge.SortDistributionsMatchReference";
    EXPECT_EQ(run_child(filter, {{"EMBER_NUM_THREADS", "1"}}), 0);
    EXPECT_EQ(run_child(filter, {{"EMBER_NUM_THREADS", "3"}}), 0);
}

// random_ops.cpp and sort.cpp split the random kernels' elements by thread count (a
// categorical row cut into pieces is finished from them): the same draws on one thread and on
// three, and with the AVX2 and SSE2 tables.
TEST(CpuBackend, RandomKernelsOnOneAndThreeThreadsAndEveryIsa) {
    NEED_CPU();
    NEED_CHILD_PROCESSES();
    const char* filter = "CpuRandom.*:CpuLarge.RandomMatchesReferenceExactly";
    EXPECT_EQ(run_child(filter, {{"EMBER_NUM_THREADS", "1"}}), 0);
    EXPECT_EQ(run_child(filter, {{"EMBER_NUM_THREADS", "3"}}), 0);
    EXPECT_EQ(run_child(filter, {{"EMBER_CPU_ISA", "avx2"}}), 0);
    EXPECT_EQ(run_child(filter, {{"EMBER_CPU_ISA", "generic"}}), 0);
}

// matmul.cpp spreads batches, row blocks and inner-dimension parts over the pool: the same
// products on one thread and on three.
TEST(CpuBackend, MatmulOnOneAndThreeThreads) {
    NEED_CPU();
    NEED_CHILD_PROCESSES();
    const char* filter = "CpuLarge.MatmulSplitsLongInnerDimensions:CpuLarge.MatmulLayoutsAndDtypes:CpuLarge.MatmulSmallProducts";
    EXPECT_EQ(run_child(filter, {{"EMBER_NUM_THREADS", "1"}}), 0);
    EXPECT_EQ(run_child(filter, {{"EMBER_NUM_THREADS", "3"}}), 0);
}

TEST(CpuChild, ThreeThreads) {
    CHILD_ONLY();
    NEED_CPU();
    ember_device_info_t info{};
    EM_OK(ember_ctx_device_info(cpu(), 0, &info));
    EXPECT_EQ(info.compute_units, 3);
    // Work on three threads gives the same result as the reference.
    auto d = randf(3000000, -1, 1, 9);
    T a = tensor(cpu(), d, {3000000}, EMBER_FLOAT32), s, r;
    EM_OK(ember_sum(cpu(), a, nullptr, 0, 0, s.out()));
    EM_OK(ember_sum(ref(), as_ref(a), nullptr, 0, 0, r.out()));
    EXPECT_NEAR(host_values(s)[0], host_values(r)[0], 1e-3);
}

// ------------------------------------------------------------------ large inputs vs reference
using Binary = ember_status_t (*)(ember_ctx_t*, const ember_tensor_t*, const ember_tensor_t*, ember_tensor_t**);
using Unary = ember_status_t (*)(ember_ctx_t*, const ember_tensor_t*, ember_tensor_t**);
using Reduce = ember_status_t (*)(ember_ctx_t*, const ember_tensor_t*, const int64_t*, int, int, ember_tensor_t**);

TEST(CpuLarge, BinaryOpsAcrossThreadingThreshold) {
    NEED_CPU();
    struct {
        const char* name;
        Binary fn;
    } ops[] = {{"add", ember_add},         {"subtract", ember_subtract}, {"multiply", ember_multiply}, {"divide", ember_divide},
               {"maximum", ember_maximum}, {"minimum", ember_minimum},   {"less", ember_less},         {"greater_equal", ember_greater_equal},
               {"equal", ember_equal}};
    const int64_t n = 1000003;  // odd: vector tails in every thread's chunk
    auto da = randf((size_t)n, -4, 4, 1), db = randf((size_t)n, -4, 4, 2);
    for (int i = 0; i < 1000; ++i) db[(size_t)i * 997] = da[(size_t)i * 997];  // some equal pairs
    da[17] = std::numeric_limits<float>::quiet_NaN();
    for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_INT32, EMBER_INT64, EMBER_UINT8}) {
        T a0 = tensor(cpu(), da, {n}, EMBER_FLOAT32), b0 = tensor(cpu(), db, {n}, EMBER_FLOAT32), a, b;
        EM_OK(ember_astype(cpu(), a0, dt, a.out()));
        EM_OK(ember_astype(cpu(), b0, dt, b.out()));
        // contiguous, scalar broadcast, and row broadcast (rows of 1009 against one row)
        T brow, mat;
        int64_t rs[1] = {1009}, st0[1] = {0}, sp[1] = {1009}, ms[2] = {991, 1009};
        EM_OK(ember_slice(cpu(), b, st0, rs, nullptr, 1, brow.out()));
        T a2;
        int64_t upto[1] = {991 * 1009};
        EM_OK(ember_slice(cpu(), a, st0, upto, nullptr, 1, a2.out()));
        EM_OK(ember_reshape(cpu(), a2, ms, 2, mat.out()));
        (void)sp;
        T scalar;
        EM_OK(ember_tensor_from_f64(cpu(), 3.0, dt, scalar.out()));
        // stepped and reversed 1-d views (gathered in pieces, split across the pool):
        // a[0:n-1:2] against b[1:n:2], every third element, and flip(a) against b
        T a_even, b_odd, a_third, b_third, a_flipped;
        const int64_t zero = 0, one = 1, two = 2, three = 3, n_even = n - 1, n_third = n - 1, flip_axis = 0;
        EM_OK(ember_slice(cpu(), a, &zero, &n_even, &two, 1, a_even.out()));
        EM_OK(ember_slice(cpu(), b, &one, &n, &two, 1, b_odd.out()));
        EM_OK(ember_slice(cpu(), a, &zero, &n_third, &three, 1, a_third.out()));
        EM_OK(ember_slice(cpu(), b, &one, &n, &three, 1, b_third.out()));
        EM_OK(ember_flip(cpu(), a, &flip_axis, 1, a_flipped.out()));
        for (auto& op : ops) {
            if (op.fn == ember_divide && dt != EMBER_FLOAT32 && dt != EMBER_FLOAT64) continue;
            struct {
                const char* layout;
                const ember_tensor_t *x, *y;
            } cases[] = {{"contiguous", a, b},     {"scalar-right", a, scalar},      {"scalar-left", scalar, b}, {"row-broadcast", mat, brow},
                         {"stepped-2", a_even, b_odd}, {"stepped-3", a_third, b_third}, {"reversed", a_flipped, b}};
            for (auto& c : cases) {
                std::string what = std::string(op.name) + " " + ember_dtype_name(dt) + " " + c.layout;
                T got, want;
                EM_OK(op.fn(cpu(), c.x, c.y, got.out()));
                EM_OK(op.fn(ref(), as_ref(c.x), as_ref(c.y), want.out()));
                EXPECT_EQ(backend_of(got), "cpu");
                expect_close(got, want, 0, 0, what);  // elementwise arithmetic is exact
            }
        }
    }
}

// Kernels of a nanosecond an element or more share the work from 2^14 elements
// (kParallelHeavy) and float64's libm functions from 2^15, in chunks of 4096: just past
// those sizes, odd, every chunk's tail differs. Integer results exact, float ones within
// the ops' error bounds.
TEST(CpuLarge, HeavyOpsJustPastTheirThreadingThreshold) {
    NEED_CPU();
    const std::pair<const char*, Binary> binary[] = {{"pow", ember_pow}, {"atan2", ember_atan2}, {"logaddexp", ember_logaddexp},
                                                     {"floor_divide", ember_floor_divide}, {"remainder", ember_remainder}};
    for (int64_t n : {16411, 32771})
        for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_INT32, EMBER_INT64}) {
            T a0 = tensor(cpu(), randf((size_t)n, 1, 9, 31), {n}, EMBER_FLOAT32), b0 = tensor(cpu(), randf((size_t)n, 1, 5, 32), {n}, EMBER_FLOAT32), a, b;
            EM_OK(ember_astype(cpu(), a0, dt, a.out()));
            EM_OK(ember_astype(cpu(), b0, dt, b.out()));
            const bool integer = dt == EMBER_INT32 || dt == EMBER_INT64;
            for (auto& [name, fn] : binary) {
                if (integer && (fn == ember_atan2 || fn == ember_logaddexp)) continue;
                T got, want;
                EM_OK(fn(cpu(), a, b, got.out()));
                EM_OK(fn(ref(), as_ref(a), as_ref(b), want.out()));
                const double rtol = integer ? 0 : dt == EMBER_FLOAT32 ? 5e-7 : 1e-15;
                expect_close(got, want, rtol, 0, std::string(name) + " " + ember_dtype_name(dt) + " of " + std::to_string(n));
            }
            if (dt != EMBER_FLOAT64) continue;
            for (auto& [name, fn] : {std::pair<const char*, Unary>{"exp", ember_exp}, {"tanh", ember_tanh}, {"sin", ember_sin}, {"log1p", ember_log1p}}) {
                T got, want;
                EM_OK(fn(cpu(), a, got.out()));
                EM_OK(fn(ref(), as_ref(a), want.out()));
                expect_close(got, want, 1e-15, 0, std::string(name) + " float64 of " + std::to_string(n));
            }
        }
}

// Stepped and reversed rows of a matrix (views no reshape makes one row) are gathered a
// stretch of one row at a time, a row spanning several stretches, across the pool; an
// operand read down its columns (transposed) or a row broadcast down them takes the
// 16-row tiles instead. Every layout pair against the reference's bytes, for 1- to 16-byte
// elements and rows shorter and longer than a stretch.
TEST(CpuLarge, SteppedRowsOfMatricesInStretches) {
    NEED_CPU();
    for (ember_dtype_t dt : {EMBER_UINT8, EMBER_INT16, EMBER_FLOAT32, EMBER_FLOAT64, EMBER_COMPLEX128})
        for (int64_t len : {3, 700, 5000}) {
            const int64_t rows = 37;
            T wide = tensor(cpu(), randf((size_t)(rows * 2 * len), 0, 100, 3400 + (unsigned)len), {rows, 2 * len}, dt),
              flat = tensor(cpu(), randf((size_t)(rows * len), 0, 100, 3500 + (unsigned)len), {rows, len}, dt),
              square = tensor(cpu(), randf((size_t)(len * rows), 0, 100, 3600 + (unsigned)len), {len, rows}, dt), even, odd, reversed, across, row;
            const int64_t from0[2] = {0, 0}, from1[2] = {0, 1}, to[2] = {rows, 2 * len}, step2[2] = {1, 2}, back[2] = {1, -1}, start[2] = {0, len - 1},
                          end[2] = {rows, EMBER_SLICE_END}, one_row[2] = {1, len}, unit[2] = {1, 1};
            EM_OK(ember_slice(cpu(), wide, from0, to, step2, 2, even.out()));
            EM_OK(ember_slice(cpu(), wide, from1, to, step2, 2, odd.out()));
            EM_OK(ember_slice(cpu(), flat, start, end, back, 2, reversed.out()));
            EM_OK(ember_matrix_transpose(cpu(), square, across.out()));
            EM_OK(ember_slice(cpu(), odd, from0, one_row, unit, 2, row.out()));  // (1, len), stepped, broadcast down the rows
            struct {
                const char* layout;
                const T *x, *y;
            } cases[] = {{"even + odd", &even, &odd},           {"even + contiguous", &even, &flat}, {"reversed + odd", &reversed, &odd},
                         {"even + transposed", &even, &across}, {"reversed + row", &reversed, &row}, {"row + flat", &row, &flat}};
            for (auto& c : cases) {
                const std::string what = std::string(ember_dtype_name(dt)) + " rows of " + std::to_string(len) + ", " + c.layout;
                T sum, sum_ref, product, product_ref;
                EM_OK(ember_add(cpu(), *c.x, *c.y, sum.out()));
                EM_OK(ember_add(ref(), as_ref(*c.x), as_ref(*c.y), sum_ref.out()));
                EXPECT_EQ(raw_bytes(sum), raw_bytes(sum_ref)) << "add " << what;
                EM_OK(ember_multiply(cpu(), *c.x, *c.y, product.out()));
                EM_OK(ember_multiply(ref(), as_ref(*c.x), as_ref(*c.y), product_ref.out()));
                EXPECT_EQ(raw_bytes(product), raw_bytes(product_ref)) << "multiply " << what;
            }
            for (const T* v : {&even, &reversed}) {
                const std::string what = std::string(ember_dtype_name(dt)) + " rows of " + std::to_string(len) + (v == &even ? ", even" : ", reversed");
                T neg, neg_ref, wider, wider_ref;
                EM_OK(ember_negative(cpu(), *v, neg.out()));
                EM_OK(ember_negative(ref(), as_ref(*v), neg_ref.out()));
                EXPECT_EQ(raw_bytes(neg), raw_bytes(neg_ref)) << "negative " << what;
                EM_OK(ember_astype(cpu(), *v, EMBER_COMPLEX128, wider.out()));
                EM_OK(ember_astype(ref(), as_ref(*v), EMBER_COMPLEX128, wider_ref.out()));
                EXPECT_EQ(raw_bytes(wider), raw_bytes(wider_ref)) << "astype " << what;
            }
        }
}

// Short rows read along, stepped or reversed (an image's channel flip img[..., ::-1]):
// the gathers with the row length known to the compiler (1 to 4), the typed loop (5 to
// 8), the row-by-row gather past that, and the copy that gathers straight into the output,
// on enough rows for the pool (and into rows apart: a concatenation), against the
// reference's bytes.
TEST(CpuLarge, ShortRowsSteppedOrReversed) {
    NEED_CPU();
    for (ember_dtype_t dt : {EMBER_UINT8, EMBER_INT16, EMBER_FLOAT32, EMBER_FLOAT64, EMBER_COMPLEX128})
        for (int64_t len : {1, 2, 3, 4, 5, 8, 9, 63}) {
            const int64_t rows = 20011;
            // Rows of 2 * len + 1: x[:, 1::2] does not merge into one stepped run.
            T wide = tensor(cpu(), randf((size_t)(rows * (2 * len + 1)), 0, 100, 3700 + (unsigned)len), {rows, 2 * len + 1}, dt),
              flat = tensor(cpu(), randf((size_t)(rows * len), 0, 100, 3800 + (unsigned)len), {rows, len}, dt), odd, reversed, both;
            const int64_t from1[2] = {0, 1}, to[2] = {rows, 2 * len + 1}, step2[2] = {1, 2}, axis1 = 1, axes[2] = {0, 1};
            EM_OK(ember_slice(cpu(), wide, from1, to, step2, 2, odd.out()));
            EM_OK(ember_flip(cpu(), flat, &axis1, 1, reversed.out()));
            EM_OK(ember_flip(cpu(), flat, axes, 2, both.out()));
            const std::pair<const char*, const T*> views[] = {{"x[:, 1::2]", &odd}, {"x[:, ::-1]", &reversed}, {"x[::-1, ::-1]", &both}};
            for (const auto& [name, v] : views) {
                const std::string what = std::string(ember_dtype_name(dt)) + " rows of " + std::to_string(len) + ", " + name;
                T copied, copied_ref, neg, neg_ref, sum, sum_ref;
                EM_OK(ember_copy(cpu(), *v, copied.out()));
                EM_OK(ember_copy(ref(), as_ref(*v), copied_ref.out()));
                EXPECT_EQ(raw_bytes(copied), raw_bytes(copied_ref)) << "copy " << what;
                EM_OK(ember_negative(cpu(), *v, neg.out()));
                EM_OK(ember_negative(ref(), as_ref(*v), neg_ref.out()));
                EXPECT_EQ(raw_bytes(neg), raw_bytes(neg_ref)) << "negative " << what;
                EM_OK(ember_add(cpu(), *v, flat, sum.out()));
                EM_OK(ember_add(ref(), as_ref(*v), as_ref(flat), sum_ref.out()));
                EXPECT_EQ(raw_bytes(sum), raw_bytes(sum_ref)) << "add " << what;
                // Copied into rows apart: the view beside itself.
                T joined, joined_ref, ref_view = as_ref(*v);
                const ember_tensor_t* pair[2] = {*v, *v};
                const ember_tensor_t* ref_pair[2] = {ref_view, ref_view};
                EM_OK(ember_concat(cpu(), pair, 2, 1, joined.out()));
                EM_OK(ember_concat(ref(), ref_pair, 2, 1, joined_ref.out()));
                EXPECT_EQ(raw_bytes(joined), raw_bytes(joined_ref)) << "concat " << what;
            }
            // A crop's channel flip, img[1:-1, 1:-1, ::-1]: short rows in three dims.
            T cube = tensor(cpu(), randf((size_t)(61 * 83 * len), 0, 100, 3900 + (unsigned)len), {61, 83, len}, dt), crop, crop_flip;
            const int64_t c_from[3] = {1, 1, 0}, c_to[3] = {60, 82, len}, c_step[3] = {1, 1, 1}, channels = 2;
            EM_OK(ember_slice(cpu(), cube, c_from, c_to, c_step, 3, crop.out()));
            EM_OK(ember_flip(cpu(), crop, &channels, 1, crop_flip.out()));
            const std::string what = std::string(ember_dtype_name(dt)) + " rows of " + std::to_string(len) + ", img[1:-1, 1:-1, ::-1]";
            T copied, copied_ref, sum, sum_ref;
            EM_OK(ember_copy(cpu(), crop_flip, copied.out()));
            EM_OK(ember_copy(ref(), as_ref(crop_flip), copied_ref.out()));
            EXPECT_EQ(raw_bytes(copied), raw_bytes(copied_ref)) << "copy " << what;
            EM_OK(ember_add(cpu(), crop_flip, crop, sum.out()));
            EM_OK(ember_add(ref(), as_ref(crop_flip), as_ref(crop), sum_ref.out()));
            EXPECT_EQ(raw_bytes(sum), raw_bytes(sum_ref)) << "add " << what;
        }
}

// The stepped and reversed gathers read whole vectors: views that end (or, reversed,
// start) at the last element of their buffer must not read past it. Buffers of a size
// class's exact size (192 and 256 bytes, 1 and 64 KiB) end where the allocator's block
// ends, so the sanitized run sees any over-read.
TEST(CpuLarge, SteppedViewsAtTheEndOfTheirBuffer) {
    NEED_CPU();
    for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64})
        for (int64_t n : {8, 48, 64, 256, 16384, 16386}) {
            std::vector<float> v((size_t)n);
            for (int64_t i = 0; i < n; ++i) v[(size_t)i] = (float)i;
            T x = tensor(cpu(), v, {n}, dt), odd, flipped;
            const int64_t one = 1, two = 2, axis = 0;
            EM_OK(ember_slice(cpu(), x, &one, &n, &two, 1, odd.out()));
            EM_OK(ember_flip(cpu(), x, &axis, 1, flipped.out()));
            for (const ember_tensor_t* view : {(const ember_tensor_t*)odd, (const ember_tensor_t*)flipped}) {
                const std::string what = std::string(ember_dtype_name(dt)) + " view of " + std::to_string(n) + (view == (const ember_tensor_t*)odd ? " [1::2]" : " [::-1]");
                T got, want, got_sum, want_sum;
                EM_OK(ember_add(cpu(), view, view, got.out()));
                EM_OK(ember_add(ref(), as_ref(view), as_ref(view), want.out()));
                expect_close(got, want, 0, 0, what);
                EM_OK(ember_sum(cpu(), view, nullptr, 0, 0, got_sum.out()));  // the reduction's gather
                EM_OK(ember_sum(ref(), as_ref(view), nullptr, 0, 0, want_sum.out()));
                expect_close(got_sum, want_sum, 1e-6, 0, what + ", summed");
            }
        }
}

// simd_impl.cpp copy_bytes: a copy whose destination lies 1-63 bytes past its source modulo
// 4 KiB takes a vector loop instead of memcpy (slow there on Zen 4). Source and destination
// in one buffer, a multiple of 4 KiB and d bytes apart (not overlapping), for every such d,
// int8 and float32 (4-byte steps).
TEST(CpuLarge, CopiesShortDistancesPastTheSource) {
    NEED_CPU();
    for (ember_dtype_t dt : {EMBER_INT8, EMBER_FLOAT32}) {
        const int64_t sz = dt == EMBER_INT8 ? 1 : 4, len = 5003, pages = (len * sz / 4096 + 1) * 4096;
        std::vector<float> v((size_t)(len + pages / sz + 64), 0.0f);
        for (int64_t i = 0; i < len; ++i) v[(size_t)i] = (float)(i * 7 % 251 - 120);
        for (int64_t d = 1; d < 64 / sz; ++d) {
            T buf = tensor(cpu(), v, {(int64_t)v.size()}, dt), src, dst;
            const int64_t zero = 0, from = pages / sz + d, to = from + len, one = 1;
            EM_OK(ember_slice(cpu(), buf, &zero, &len, &one, 1, src.out()));
            EM_OK(ember_slice(cpu(), buf, &from, &to, &one, 1, dst.out()));
            EM_OK(ember_assign(cpu(), dst, src));
            expect_close(dst, src, 0, 0, std::string(ember_dtype_name(dt)) + " copied " + std::to_string(pages + d * sz) + " bytes along");
        }
    }
}

// libm_loops.cpp: pow, atan2 and hypot with a broadcast scalar on either side run the
// libmvec functions with the scalar splatted (they ran libm element by element), and
// x ** 2 is x * x exactly (the correctly rounded square).
// libm_loops.cpp: complex and half inputs of the libm ops run the reference kernel on
// slices across the pool, bit for bit the reference; a broadcast operand stays whole.
TEST(CpuLarge, LibmOpsOfComplexAndHalfOnSlices) {
    NEED_CPU();
    const int64_t rows = 301, cols = 257;  // above kParallelCostly elements
    auto d = randf((size_t)(rows * cols), -2, 2, 25), e = randf((size_t)cols, 0.5f, 2, 26);
    using Unary = ember_status_t (*)(ember_ctx_t*, const ember_tensor_t*, ember_tensor_t**);
    for (ember_dtype_t dt : {EMBER_COMPLEX64, EMBER_COMPLEX128, EMBER_FLOAT16, EMBER_BFLOAT16}) {
        const bool cplx = dt == EMBER_COMPLEX64 || dt == EMBER_COMPLEX128;
        const std::string name = ember_dtype_name(dt);
        T x0 = tensor(cpu(), d, {rows, cols}, EMBER_FLOAT32), r0 = tensor(cpu(), e, {cols}, EMBER_FLOAT32), x, row, shifted;
        EM_OK(ember_astype(cpu(), x0, dt, x.out()));
        EM_OK(ember_astype(cpu(), r0, dt, row.out()));
        T i, turned;  // complex: x + row i, other values in both parts; half: x + row
        EM_OK(ember_scalar_c128(cpu(), 0, 1, i.out()));
        if (cplx) {
            EM_OK(ember_multiply(cpu(), row, i, turned.out()));
        }
        EM_OK(ember_add(cpu(), x, cplx ? (const ember_tensor_t*)turned : (const ember_tensor_t*)row, shifted.out()));
        for (auto [op, fn] : {std::pair<const char*, Unary>{"sin", ember_sin}, {"log1p", ember_log1p}, {"expm1", ember_expm1}, {"log2", ember_log2},
                              {"atanh", ember_atanh}}) {
            T got, want;
            EM_OK(fn(cpu(), shifted, got.out()));
            EM_OK(fn(ref(), as_ref(shifted), want.out()));
            expect_close(got, want, 0, 0, std::string(op) + " " + name);
        }
        T got, want;  // pow with a broadcast row of exponents
        EM_OK(ember_pow(cpu(), x, row, got.out()));
        EM_OK(ember_pow(ref(), as_ref(x), as_ref(row), want.out()));
        expect_close(got, want, 0, 0, "pow " + name + " (a broadcast row)");
        if (cplx) {
            T got_im, want_im, s_got, s_want;
            EM_OK(ember_imag(ref(), as_ref(got), got_im.out()));
            EM_OK(ember_imag(ref(), as_ref(want), want_im.out()));
            expect_close(got_im, want_im, 0, 0, "pow " + name + " (imaginary parts)");
            EM_OK(ember_log1p(cpu(), shifted, s_got.out()));
            EM_OK(ember_log1p(ref(), as_ref(shifted), s_want.out()));
            T a, b;
            EM_OK(ember_imag(ref(), as_ref(s_got), a.out()));
            EM_OK(ember_imag(ref(), as_ref(s_want), b.out()));
            expect_close(a, b, 0, 0, "log1p " + name + " (imaginary parts)");
        }
    }
}

// float32 pow (with AVX-512 its own kernel in float64 lanes; libmvec's otherwise) against
// the reference's powf: lanes the vector path takes (negative bases with integer exponents,
// subnormal bases, results that overflow, become subnormal or vanish, bases next to 1 with
// large exponents) and special lanes that send their vector to powf, alone and mixed into
// vectors of ordinary lanes, as arrays and with either operand broadcast. Within 6e-7
// (libmvec's 4 ulp); zeros, infinities and NaNs as the reference, signs included; a pair's
// result the same bits wherever it sits. The own kernel (AVX-512, no EMBER_CPU_ISA cap)
// within 0.501 ulp of the float64 power for normal results (its bound: 0.5 + 2^-10; the
// version before, 0.5 + 2^-7, reached 0.505 here), and correctly rounded for nearly every
// lane.
TEST(CpuMath, PowFloat32Lanes) {
    NEED_CPU();
    const bool own_kernel = !std::getenv("EMBER_CPU_ISA") && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
                            __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx2") &&
                            __builtin_cpu_supports("fma") && __builtin_cpu_supports("f16c") && __builtin_cpu_supports("bmi") &&
                            __builtin_cpu_supports("bmi2");
    const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
    const std::vector<std::pair<float, float>> ordinary = {
        {-2, 3}, {-2, 4}, {-0.5f, -3}, {-3, 16777216.0f}, {-1.0000001f, 16777218.0f}, {-1, 1e10f}, {-7, 5}, {-1.5f, -7},
        {1e-40f, 0.5f}, {1e-45f, 0.25f}, {3e-39f, -0.1f}, {-1e-40f, 1}, {1e-40f, 1}, {10, 50}, {2, 128}, {2, 127.99f},
        {3.4e38f, 1}, {3.4e38f, 1.0000001f}, {0.5f, 140}, {0.5f, 149}, {0.5f, 150}, {0.5f, 149.5f}, {0.5f, 200}, {-0.5f, 151},
        {1.0000001f, 1e7f}, {0.99999994f, -3e7f}, {1.0000001f, -8e8f}, {1e30f, 1.2f}, {1e-30f, -1.2f}, {1e30f, -1.2f},
        {3, 2}, {10, 3}, {2, -3}, {9, 0.5f}, {1, 1e30f}, {0.7f, 0.3f}, {1.9f, -2.7f}, {123.4f, 4.56f}, {5e-20f, -1.9f},
        {0x1.fc17e4p-1f, -0x1.68c8d4p+10f},  // powf rounds this one the other way (0.512 ulp)
        {0x1.ff8f9ep-1f, -1e5f}, {0x1.6400eep+0f, -0x1.9bfffcp+7f},  // the version before: 0.505 ulp
        {3.347975015640259f, 28.671682357788086f}, {1.0009480714797974f, -38772.98828125f},  // this one: 0.5007
        {0.7f, -0.0f}, {-3, 0.0f}};
    const float special_x[] = {0.0f, -0.0f, inf, -inf, nan, -2, -1, 1, 0.7f};
    // 1.5 and -1.5: whole parts odd, not integers (-0 ** 1.5 is +0: the sign once came from the whole part)
    const float special_y[] = {0.0f, -0.0f, 1, -1, 0.5f, 2, 3, -3, inf, -inf, nan, 1e10f, 2.5f, 1.5f, -1.5f};
    std::vector<float> xs, ys;
    for (int rep = 0; rep < 5; ++rep)  // each lane in several vector positions
        for (size_t i = 0; i < ordinary.size(); ++i) {
            xs.push_back(ordinary[(i + 7 * rep) % ordinary.size()].first);
            ys.push_back(ordinary[(i + 7 * rep) % ordinary.size()].second);
        }
    std::mt19937 rng(31);
    std::uniform_real_distribution<float> base(0.01f, 4), power(-20, 20);
    size_t s = 0;
    for (int i = 0; i < 2000; ++i) {  // one special pair among ordinary ones every 37 lanes
        const bool special = i % 37 == 5;
        xs.push_back(special ? special_x[s % 9] : base(rng));
        ys.push_back(special ? special_y[(s / 9) % std::size(special_y)] : power(rng));
        s += special;
    }
    for (float a : special_x)
        for (float b : special_y) {
            xs.push_back(a);
            ys.push_back(b);
        }
    const int64_t n = (int64_t)xs.size();
    T x, y, x0, y0;
    EM_OK(ember_tensor_from_data(cpu(), xs.data(), EMBER_FLOAT32, &n, 1, x.out()));
    EM_OK(ember_tensor_from_data(cpu(), ys.data(), EMBER_FLOAT32, &n, 1, y.out()));
    const float minus_three = -3, minus_two = -2;
    EM_OK(ember_tensor_from_data(cpu(), &minus_three, EMBER_FLOAT32, nullptr, 0, y0.out()));
    EM_OK(ember_tensor_from_data(cpu(), &minus_two, EMBER_FLOAT32, nullptr, 0, x0.out()));
    for (auto [what, a, b] : {std::tuple<const char*, const ember_tensor_t*, const ember_tensor_t*>{"arrays", x, y}, {"by a scalar -3", x, y0},
                              {"of a scalar -2", x0, y}}) {
        T got, want;
        EM_OK(ember_pow(cpu(), a, b, got.out()));
        EM_OK(ember_pow(ref(), as_ref(a), as_ref(b), want.out()));
        auto g = host_values(got), w = host_values(want);
        ASSERT_EQ(g.size(), w.size()) << what;
        size_t bad = 0;
        for (size_t i = 0; i < g.size(); ++i) {
            const bool same = std::isnan(w[i])                    ? std::isnan(g[i])
                              : (w[i] == 0 || std::isinf(w[i])) ? g[i] == w[i] && std::signbit(g[i]) == std::signbit(w[i])
                                                                 : std::fabs(g[i] - w[i]) <= 6e-7 * std::fabs(w[i]) + 1.5e-45;
            if (!same && bad++ < 5)
                ADD_FAILURE() << "pow " << what << " at " << i << ": got " << g[i] << ", want " << w[i];
        }
        if (std::string(what) != "arrays") continue;
        // The same pairs one place later (other vector positions and tail), and with every
        // third lane made special: each pair's result is the same bits wherever it sits.
        std::vector<float> later_x(xs), later_y(ys), mixed_x(xs), mixed_y(ys);
        later_x.insert(later_x.begin(), 2.0f);
        later_y.insert(later_y.begin(), 0.5f);
        for (size_t i = 0; i < xs.size(); i += 3) mixed_y[i] = nan;
        const int64_t n1 = n + 1;
        T lx, ly, mx, my, later, mixed;
        EM_OK(ember_tensor_from_data(cpu(), later_x.data(), EMBER_FLOAT32, &n1, 1, lx.out()));
        EM_OK(ember_tensor_from_data(cpu(), later_y.data(), EMBER_FLOAT32, &n1, 1, ly.out()));
        EM_OK(ember_tensor_from_data(cpu(), mixed_x.data(), EMBER_FLOAT32, &n, 1, mx.out()));
        EM_OK(ember_tensor_from_data(cpu(), mixed_y.data(), EMBER_FLOAT32, &n, 1, my.out()));
        EM_OK(ember_pow(cpu(), lx, ly, later.out()));
        EM_OK(ember_pow(cpu(), mx, my, mixed.out()));
        auto gl = host_values(later), gm = host_values(mixed);
        size_t moved = 0;
        for (size_t i = 0; i < g.size(); ++i) {
            const bool same = std::isnan(g[i]) ? std::isnan(gl[i + 1]) : std::memcmp(&g[i], &gl[i + 1], sizeof g[i]) == 0;
            const bool same_mixed = i % 3 == 0 || (std::isnan(g[i]) ? std::isnan(gm[i]) : std::memcmp(&g[i], &gm[i], sizeof g[i]) == 0);
            if ((!same || !same_mixed) && moved++ < 5)
                ADD_FAILURE() << "pow(" << xs[i] << ", " << ys[i] << ") = " << g[i] << " here, " << gl[i + 1] << " one place later, " << gm[i]
                              << " beside special lanes";
        }
        for (size_t i = 0; i < ordinary.size(); ++i) {  // and alone: a vector's tail
            const int64_t one = 1;
            T px, py, alone;
            EM_OK(ember_tensor_from_data(cpu(), &xs[i], EMBER_FLOAT32, &one, 1, px.out()));
            EM_OK(ember_tensor_from_data(cpu(), &ys[i], EMBER_FLOAT32, &one, 1, py.out()));
            EM_OK(ember_pow(cpu(), px, py, alone.out()));
            const double ga = host_values(alone)[0];
            EXPECT_TRUE(std::isnan(g[i]) ? std::isnan(ga) : std::memcmp(&g[i], &ga, sizeof ga) == 0)
                << "pow(" << xs[i] << ", " << ys[i] << ") = " << g[i] << " in the array, " << ga << " alone";
        }
        if (!own_kernel) continue;
        size_t rounded_apart = 0, normal = 0;
        for (size_t i = 0; i < g.size(); ++i) {
            const double exact = std::pow((double)xs[i], (double)ys[i]);
            const float rounded = (float)exact;
            if (!std::isfinite(rounded) || std::fabs(rounded) < std::numeric_limits<float>::min()) continue;
            ++normal;
            const double ulp = std::nextafter(std::fabs(rounded), inf) - std::fabs(rounded);
            EXPECT_LE(std::fabs(g[i] - exact), 0.501 * ulp) << "pow(" << xs[i] << ", " << ys[i] << ")";
            rounded_apart += (float)g[i] != rounded;
        }
        EXPECT_LE(rounded_apart * 100, normal) << rounded_apart << " of " << normal << " powers not correctly rounded";
    }
}

// A single element (a 1-element array or a 0-d tensor) of a libm function takes the same
// vector function as an array, so it gets the same bits as the same value in an array
// (libm's scalar function rounded about a fifth of sin's results the other way).
TEST(CpuMath, UnaryLibmSingleElementsAsInArrays) {
    NEED_CPU();
    using Un = ember_status_t (*)(ember_ctx_t*, const ember_tensor_t*, ember_tensor_t**);
    const std::pair<const char*, Un> fns[] = {{"sin", ember_sin},     {"cos", ember_cos},     {"tan", ember_tan},   {"expm1", ember_expm1},
                                              {"log1p", ember_log1p}, {"asinh", ember_asinh}, {"atan", ember_atan}, {"erf", ember_erf},
                                              {"log2", ember_log2},   {"log10", ember_log10}, {"sinh", ember_sinh}, {"cosh", ember_cosh}};
    auto d = randf(200, -10, 10, 1500);
    for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64}) {
        T x = tensor(cpu(), d, {200}, dt);
        for (auto [name, fn] : fns) {
            T all;
            EM_OK(fn(cpu(), x, all.out()));
            const std::vector<unsigned char> want = raw_bytes(all);
            const size_t sz = (size_t)ember_dtype_size(dt);
            size_t differ = 0;
            for (int64_t i = 0; i < 200; ++i) {
                T one, y;
                EM_OK(ember_select(cpu(), x, 0, i, one.out()));  // 0-d
                EM_OK(fn(cpu(), one, y.out()));
                const std::vector<unsigned char> got = raw_bytes(y);
                differ += !std::equal(got.begin(), got.end(), want.begin() + (ptrdiff_t)(i * (int64_t)sz));
            }
            EXPECT_EQ(differ, 0u) << name << " " << ember_dtype_name(dt) << ": single elements that differ from the array's";
        }
    }
}

TEST(CpuLarge, LibmBinaryWithScalarOperand) {
    NEED_CPU();
    const int64_t n = 700001;
    auto da = randf((size_t)n, 0.01f, 8, 21), db = randf((size_t)n, -3, 3, 22);
    using Fn = ember_status_t (*)(ember_ctx_t*, const ember_tensor_t*, const ember_tensor_t*, ember_tensor_t**);
    for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64}) {
        T a = tensor(cpu(), da, {n}, dt), b = tensor(cpu(), db, {n}, dt), two, half, square, want_square, got_square;
        EM_OK(ember_tensor_from_f64(cpu(), 2.0, dt, two.out()));
        EM_OK(ember_tensor_from_f64(cpu(), 0.5, dt, half.out()));
        for (auto [name, fn] : {std::pair<const char*, Fn>{"pow", ember_pow}, {"atan2", ember_atan2}, {"hypot", ember_hypot}})
            for (auto [layout, x, y] : {std::tuple<const char*, const ember_tensor_t*, const ember_tensor_t*>{"contiguous", a, b},
                                        {"scalar-right", a, half}, {"scalar-left", half, b}, {"exponent 2", b, two}}) {
                T got, want;
                EM_OK(fn(cpu(), x, y, got.out()));
                EM_OK(fn(ref(), as_ref(x), as_ref(y), want.out()));
                expect_close(got, want, dt == EMBER_FLOAT32 ? 6e-7 : 2e-15, dt == EMBER_FLOAT32 ? 6e-45 : 1e-300,
                             std::string(name) + " " + ember_dtype_name(dt) + " " + layout);
            }
        EM_OK(ember_pow(cpu(), b, two, got_square.out()));
        EM_OK(ember_multiply(cpu(), b, b, want_square.out()));
        expect_close(got_square, want_square, 0, 0, std::string("x ** 2 is x * x, ") + ember_dtype_name(dt));
    }
}

// x ** 0.5 (a broadcast exponent) is the square root with pow's values at -0 (+0) and -inf
// (+inf) (libm_loops.cpp, U_POW_HALF): against the reference's pow (within an ulp) on special values,
// negative values (NaN), subnormals and the largest values, the sign bits included, in
// contiguous, transposed and stepped layouts; the positive values' roots exactly sqrt's.
TEST(CpuLarge, PowOfOneHalfIsTheSquareRoot) {
    NEED_CPU();
    const int64_t rows = 700, cols = 1001, n = rows * cols;
    auto d = randf((size_t)n, -1, 1, 23);
    const float specials[] = {-0.0f, 0.0f, -INFINITY, INFINITY, NAN, -NAN, -1.0f, 4.0f, 2.0f, 1e-45f, -1e-45f, 1.1754942e-38f, 3.4028235e38f, -3.4028235e38f};
    for (size_t i = 0; i < d.size(); i += 97) d[i] = specials[(i / 97) % (sizeof specials / sizeof specials[0])];
    for (size_t i = 1; i < d.size(); i += 3) d[i] = std::fabs(d[i]) * 1e30f;
    for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64}) {
        T x = tensor(cpu(), d, {rows, cols}, dt), half, xt, xs;
        EM_OK(ember_tensor_from_f64(cpu(), 0.5, dt, half.out()));
        EM_OK(ember_matrix_transpose(cpu(), x, xt.out()));
        const int64_t from[2] = {0, 0}, to[2] = {rows, cols}, steps[2] = {1, 3};
        EM_OK(ember_slice(cpu(), x, from, to, steps, 2, xs.out()));
        for (auto [layout, v] : {std::pair<const char*, const ember_tensor_t*>{"contiguous", x}, {"transposed", xt}, {"stepped", xs}}) {
            const std::string what = std::string("x ** 0.5, ") + ember_dtype_name(dt) + " " + layout;
            T got, want, got_sign, want_sign, root, positive;
            EM_OK(ember_pow(cpu(), v, half, got.out()));
            EM_OK(ember_pow(ref(), as_ref(v), as_ref(half), want.out()));
            // The root is correctly rounded; glibc's powf and pow are within 0.82 and 0.52 ulp,
            // so the reference's value may be the neighbour: one ulp apart at most.
            expect_close(got, want, dt == EMBER_FLOAT32 ? 0x1p-23 : 0x1p-52, 0, what);
            EM_OK(ember_signbit(cpu(), got, got_sign.out()));
            EM_OK(ember_signbit(ref(), as_ref(want), want_sign.out()));
            expect_close(got_sign, want_sign, 0, 0, what + ", sign bits");
            EM_OK(ember_abs(cpu(), v, positive.out()));
            EM_OK(ember_sqrt(cpu(), positive, root.out()));
            T got_positive;
            EM_OK(ember_pow(cpu(), positive, half, got_positive.out()));
            expect_close(got_positive, root, 0, 0, what + ", |x| ** 0.5 against sqrt(|x|)");
        }
    }
}

TEST(CpuLarge, UnaryOpsAcrossThreadingThreshold) {
    NEED_CPU();
    struct {
        const char* name;
        Unary fn;
        float lo, hi;
        double rtol;
    } ops[] = {{"exp", ember_exp, -80, 80, 5e-7},       {"log", ember_log, 1e-30f, 1e30f, 5e-7}, {"tanh", ember_tanh, -12, 12, 5e-7},
               {"sigmoid", ember_sigmoid, -90, 90, 5e-7}, {"silu", ember_silu, -20, 20, 5e-7},   {"relu", ember_relu, -2, 2, 0},
               {"sqrt", ember_sqrt, 0, 100, 0},           {"abs", ember_abs, -5, 5, 0},          {"negative", ember_negative, -5, 5, 0},
               {"square", ember_square, -5, 5, 0},        {"reciprocal", ember_reciprocal, 1, 5, 0},
               // libm loops (libm_loops.cpp): libmvec (<= 4 ulp) for contiguous float runs
               {"sin", ember_sin, -10, 10, 6e-7},         {"erf", ember_erf, -4, 4, 6e-7},       {"erfc", ember_erfc, -4, 9, 6e-7},
               {"expm1", ember_expm1, -5, 5, 6e-7},       {"cbrt", ember_cbrt, -1e3f, 1e3f, 6e-7}, {"round", ember_round, -9, 9, 0},      {"sign", ember_sign, -1, 1, 0},
               {"floor", ember_floor, -9, 9, 0},          {"ceil", ember_ceil, -9, 9, 0},        {"trunc", ember_trunc, -9, 9, 0}};
    const int64_t n = 700001;
    for (auto& op : ops) {
        auto d = randf((size_t)n, op.lo, op.hi, 11);
        for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64}) {
            T x0 = tensor(cpu(), d, {n}, EMBER_FLOAT32), x;
            EM_OK(ember_astype(cpu(), x0, dt, x.out()));
            T got, want;
            EM_OK(op.fn(cpu(), x, got.out()));
            EM_OK(op.fn(ref(), as_ref(x), want.out()));
            // float32: relative error, or absolute at subnormal results (4 subnormal ulp)
            expect_close(got, want, dt == EMBER_FLOAT32 ? op.rtol : 2e-15, dt == EMBER_FLOAT32 ? 6e-45 : 1e-300,
                         std::string(op.name) + " " + ember_dtype_name(dt));
        }
    }
}

// line_ops.cpp splits a kept dim across threads and runs the reference's line code on each
// slice: the results must be the reference's exactly, for contiguous and transposed inputs,
// along either axis, with NaNs (which argmax/argmin and sort treat specially).
TEST(CpuLarge, LineOpsMatchReferenceExactly) {
    NEED_CPU();
    auto d = randf(257 * 1001, -2, 2, 21);
    for (size_t i = 0; i < d.size(); i += 997) d[i] = std::numeric_limits<float>::quiet_NaN();
    T base = tensor(cpu(), d, {257, 1001}, EMBER_FLOAT32), transposed;
    EM_OK(ember_matrix_transpose(cpu(), base, transposed.out()));
    using Fn = std::function<ember_status_t(ember_ctx_t*, const ember_tensor_t*, ember_tensor_t**)>;
    const int64_t ax0 = 0, ax1 = 1;
    std::vector<std::pair<std::string, Fn>> ops = {
        {"argmax-1", [](auto c, auto x, auto o) { return ember_argmax(c, x, 1, 0, o); }},
        {"argmin-0", [](auto c, auto x, auto o) { return ember_argmin(c, x, 0, 1, o); }},
        {"cumsum-1", [](auto c, auto x, auto o) { return ember_cumsum(c, x, 1, o); }},
        {"cumprod-0", [](auto c, auto x, auto o) { return ember_cumprod(c, x, 0, o); }},
        {"sort-1", [](auto c, auto x, auto o) { return ember_sort(c, x, 1, 0, o); }},
        {"sort-0-desc", [](auto c, auto x, auto o) { return ember_sort(c, x, 0, 1, o); }},
        {"argsort-1-desc", [](auto c, auto x, auto o) { return ember_argsort(c, x, 1, 1, o); }},
        {"all-1", [&](auto c, auto x, auto o) { return ember_all(c, x, &ax1, 1, 1, o); }},
        {"any-0", [&](auto c, auto x, auto o) { return ember_any(c, x, &ax0, 1, 0, o); }},
    };
    for (auto& [name, fn] : ops) {
        for (const ember_tensor_t* x : {(const ember_tensor_t*)base, (const ember_tensor_t*)transposed}) {
            T got, want;
            EM_OK(fn(cpu(), x, got.out()));
            EM_OK(fn(ref(), as_ref(x), want.out()));
            expect_close(got, want, 0, 0, name + (x == (const ember_tensor_t*)base ? "" : " transposed"));
        }
    }
    // Elementwise ops run the same way, with a broadcast second operand.
    T row = tensor(cpu(), randf(1001, 0.5f, 3, 22), {1, 1001}, EMBER_FLOAT32);
    using Fn2 = ember_status_t (*)(ember_ctx_t*, const ember_tensor_t*, const ember_tensor_t*, ember_tensor_t**);
    for (auto [name, fn] : {std::pair<const char*, Fn2>{"floor_divide", ember_floor_divide}, {"remainder", ember_remainder}}) {
        T got, want;
        EM_OK(fn(cpu(), base, row, got.out()));
        EM_OK(fn(ref(), as_ref(base), as_ref(row), want.out()));
        expect_close(got, want, 0, 0, name);
    }
    {  // float32 logaddexp has a vector kernel of its own (CpuMath.LogaddexpWithin4Ulp)
        T got, want;
        EM_OK(ember_logaddexp(cpu(), base, row, got.out()));
        EM_OK(ember_logaddexp(ref(), as_ref(base), as_ref(row), want.out()));
        expect_close(got, want, 1e-6, 1e-7, "logaddexp");
    }
    T ints, shifts, got, want;
    EM_OK(ember_astype(cpu(), base, EMBER_INT32, ints.out()));
    EM_OK(ember_astype(cpu(), row, EMBER_INT32, shifts.out()));
    EM_OK(ember_bitwise_left_shift(cpu(), ints, shifts, got.out()));
    EM_OK(ember_bitwise_left_shift(ref(), as_ref(ints), as_ref(shifts), want.out()));
    expect_close(got, want, 0, 0, "bitwise_left_shift");
    // Elementwise ops without a vector kernel (complex) or in layouts the vector kernels do
    // not take (a transposed operand) run the same way.
    T zb, zr;
    EM_OK(ember_astype(cpu(), base, EMBER_COMPLEX64, zb.out()));
    EM_OK(ember_astype(cpu(), row, EMBER_COMPLEX64, zr.out()));
    for (auto [name, fn, a, b] : {std::tuple<const char*, Fn2, const ember_tensor_t*, const ember_tensor_t*>{"complex multiply", ember_multiply, zb, zr},
                                  {"complex add", ember_add, zb, zb}, {"add of transposed views", ember_add, transposed, transposed}}) {
        T got, want;
        EM_OK(fn(cpu(), a, b, got.out()));
        EM_OK(fn(ref(), as_ref(a), as_ref(b), want.out()));
        expect_close(got, want, 0, 0, name);
    }
    {
        T got, want;
        EM_OK(ember_exp(cpu(), zb, got.out()));
        EM_OK(ember_exp(ref(), as_ref(zb), want.out()));
        T gi, wi;
        EM_OK(ember_imag(ref(), as_ref(got), gi.out()));
        EM_OK(ember_imag(ref(), as_ref(want), wi.out()));
        expect_close(got, want, 0, 0, "complex exp");
        expect_close(gi, wi, 0, 0, "complex exp (imaginary parts)");
    }
    // Three long lines: one slice each (a part per line, not parts rounded up to 16 lines).
    T few = tensor(cpu(), randf(3 * 100001, -2, 2, 23), {3, 100001}, EMBER_FLOAT32);
    for (auto& [name, fn] : ops) {
        if (name.find("-1") == std::string::npos) continue;  // the ops along the long axis
        T got, want;
        EM_OK(fn(cpu(), few, got.out()));
        EM_OK(fn(ref(), as_ref(few), want.out()));
        EXPECT_EQ(raw_bytes(got), raw_bytes(want)) << name << " of three long lines";
    }
    // A refusal of the reference (complex argmax) is reported as such from the threaded path.
    T z, y;
    EM_OK(ember_astype(cpu(), base, EMBER_COMPLEX64, z.out()));
    EM_FAILS(ember_argmax(cpu(), z, 1, 0, y.out()), EMBER_ERR_UNSUPPORTED_DTYPE, "argmax");
}

TEST(CpuLarge, ReductionsAllLayouts) {
    NEED_CPU();
    struct {
        const char* name;
        Reduce fn;
    } ops[] = {{"sum", ember_sum}, {"mean", ember_mean}, {"max", ember_max}, {"min", ember_min}};
    auto d = randf(1237 * 1000, -2, 2, 21);
    for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_INT32, EMBER_FLOAT16}) {
        T m0 = tensor(cpu(), d, {1237, 1000}, EMBER_FLOAT32), m, mt, m3;
        EM_OK(ember_astype(cpu(), m0, dt, m.out()));
        EM_OK(ember_transpose(cpu(), m, mt.out()));
        int64_t s3[3] = {1237, 10, 100};
        EM_OK(ember_reshape(cpu(), m, s3, 3, m3.out()));
        T ms;  // m[::2, ::3]: an innermost stride of 3, gathered in pieces by the ROW path
        const int64_t from[2] = {0, 0}, to[2] = {1237, 1000}, steps[2] = {2, 3};
        EM_OK(ember_slice(cpu(), m, from, to, steps, 2, ms.out()));
        const int64_t ax0[1] = {0}, ax1[1] = {1}, ax02[2] = {0, 2}, ax1b[1] = {-2};
        struct {
            const char* layout;
            const ember_tensor_t* x;
            const int64_t* axes;
            int naxes, keep;
        } cases[] = {{"all", m, nullptr, 0, 0},     {"rows", m, ax1, 1, 1},  {"columns", m, ax0, 1, 0}, {"transposed-all", mt, nullptr, 0, 0},
                     {"transposed-axis0", mt, ax0, 1, 1}, {"transposed-axis1", mt, ax1, 1, 0}, {"3d-outer+inner", m3, ax02, 2, 0},
                     {"3d-middle", m3, ax1b, 1, 1}, {"strided-all", ms, nullptr, 0, 0}, {"strided-rows", ms, ax1, 1, 0},
                     {"strided-columns", ms, ax0, 1, 1}};
        for (auto& op : ops) {
            for (auto& c : cases) {
                std::string what = std::string(op.name) + " " + ember_dtype_name(dt) + " " + c.layout;
                T got, want;
                ember_status_t s1 = op.fn(cpu(), c.x, c.axes, c.naxes, c.keep, got.out());
                ember_status_t s2 = op.fn(ref(), as_ref(c.x), c.axes, c.naxes, c.keep, want.out());
                ASSERT_EQ(s1, s2) << what << ": " << ember_last_error();
                if (s1 != EMBER_OK) continue;
                double rtol = dt == EMBER_FLOAT32 ? 1e-6 : dt == EMBER_FLOAT64 ? 1e-12 : dt == EMBER_FLOAT16 ? 2e-3 : 0;
                expect_close(got, want, rtol, rtol * 1e-2, what);
            }
        }
    }
}

// Reversed dims (walked forwards natively, a kept one writing its results backwards) and
// layouts no native path takes (a stepped innermost kept dim: reduced on a C-order copy),
// against the reference: sums to their rounding, everything else bit for bit. Float max/min
// of a reversed axis that meet zeros of both signs or NaNs of several payloads must keep
// the reference's choice (the first of equals, the last NaN, in logical order).
TEST(CpuLarge, ReductionsOfReversedAndSteppedViews) {
    NEED_CPU();
    const std::pair<const char*, Reduce> ops[] = {{"sum", ember_sum},   {"mean", ember_mean}, {"max", ember_max},
                                                  {"min", ember_min},   {"prod", ember_prod}, {"count_nonzero", ember_count_nonzero},
                                                  {"all", ember_all},   {"any", ember_any}};
    const int64_t rows = 601, cols = 1003;
    auto d = randf((size_t)(rows * cols), 0.5f, 1.5f, 33);  // products stay finite over 601 rows
    for (size_t i = 0; i < d.size(); i += 37) d[i] = 0;
    for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_INT32, EMBER_FLOAT16, EMBER_UINT8}) {
        T m = tensor(cpu(), d, {rows, cols}, dt), flip0, flip1, flip01, cstep, rev_vec, flat;
        const int64_t ax0 = 0, ax1 = 1, both[2] = {0, 1}, n = rows * cols;
        EM_OK(ember_flip(cpu(), m, &ax0, 1, flip0.out()));
        EM_OK(ember_flip(cpu(), m, &ax1, 1, flip1.out()));
        EM_OK(ember_flip(cpu(), m, both, 2, flip01.out()));
        const int64_t from[2] = {0, 1}, to[2] = {rows, cols}, steps[2] = {1, 2};
        EM_OK(ember_slice(cpu(), m, from, to, steps, 2, cstep.out()));  // every other column
        EM_OK(ember_reshape(cpu(), m, &n, 1, flat.out()));
        EM_OK(ember_flip(cpu(), flat, &ax0, 1, rev_vec.out()));
        struct {
            const char* layout;
            const ember_tensor_t* x;
            const int64_t* axes;
            int naxes;
        } cases[] = {{"reversed vector", rev_vec, nullptr, 0},        {"rows reversed, over rows", flip0, &ax1, 1},
                     {"rows reversed, over columns", flip0, &ax0, 1}, {"columns reversed, over rows", flip1, &ax1, 1},
                     {"columns reversed, over columns", flip1, &ax0, 1}, {"both reversed, all", flip01, nullptr, 0},
                     {"both reversed, over columns", flip01, &ax0, 1}, {"stepped columns, over columns", cstep, &ax0, 1},
                     {"stepped columns, over rows", cstep, &ax1, 1}};
        for (auto [name, fn] : ops) {
            const std::string op = name;
            const bool is_float = dt == EMBER_FLOAT32 || dt == EMBER_FLOAT64 || dt == EMBER_FLOAT16;
            if (op == "mean" && !is_float) continue;
            for (auto& c : cases) {
                const std::string what = op + " " + ember_dtype_name(dt) + " " + c.layout;
                T got, want;
                EM_OK(fn(cpu(), c.x, c.axes, c.naxes, 0, got.out()));
                EM_OK(fn(ref(), as_ref(c.x), c.axes, c.naxes, 0, want.out()));
                const bool rounded = is_float && (op == "sum" || op == "mean" || op == "prod");
                if (rounded) expect_close(got, want, dt == EMBER_FLOAT16 ? 2e-3 : dt == EMBER_FLOAT32 ? 1e-5 : 1e-12, 0, what);
                else EXPECT_EQ(raw_bytes(got), raw_bytes(want)) << what;
            }
        }
    }
    // Float max/min over reversed axes: zeros of both signs (all other values negative for
    // max, positive for min) and NaNs of distinct payloads.
    for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64}) {
        std::vector<float> neg((size_t)(rows * cols)), pos((size_t)(rows * cols)), nans((size_t)(rows * cols));
        for (size_t i = 0; i < neg.size(); ++i) {
            neg[i] = i % 97 == 5 ? (i % 2 ? 0.0f : -0.0f) : -1.0f - (float)(i % 13);
            pos[i] = -neg[i];
            nans[i] = (float)(i % 101);
        }
        uint32_t payload = 0x7fc00001u;
        for (size_t i = 7; i < nans.size(); i += 4999) std::memcpy(&nans[i], &payload, 4), ++payload;
        for (auto [kind, values] : {std::pair<const char*, const std::vector<float>*>{"zeros", &neg}, {"zeros", &pos}, {"NaNs", &nans}}) {
            T m = tensor(cpu(), *values, {rows, cols}, dt), flip0, flip01, flat, rev_vec;
            const int64_t ax0 = 0, ax1 = 1, both[2] = {0, 1}, n = rows * cols;
            EM_OK(ember_flip(cpu(), m, &ax0, 1, flip0.out()));
            EM_OK(ember_flip(cpu(), m, both, 2, flip01.out()));
            EM_OK(ember_reshape(cpu(), m, &n, 1, flat.out()));
            EM_OK(ember_flip(cpu(), flat, &ax0, 1, rev_vec.out()));
            for (auto [name, fn] : {std::pair<const char*, Reduce>{"max", ember_max}, {"min", ember_min}})
                for (auto [layout, x, axes, naxes] : {std::tuple<const char*, const ember_tensor_t*, const int64_t*, int>{"reversed vector", rev_vec, nullptr, 0},
                                                      {"rows reversed, over columns", flip0, &ax0, 1},
                                                      {"both reversed, over rows", flip01, &ax1, 1}}) {
                    T got, want;
                    EM_OK(fn(cpu(), x, axes, naxes, 0, got.out()));
                    EM_OK(fn(ref(), as_ref(x), axes, naxes, 0, want.out()));
                    EXPECT_EQ(raw_bytes(got), raw_bytes(want)) << name << " " << ember_dtype_name(dt) << " " << layout << " with " << kind;
                }
        }
    }
}

// Short columns (at most 8 rows reduced: pieces of columns reduced on the stack and written
// at once), the partial-row path just above (9 rows) and with blocks of partial rows to
// combine (300 rows, in pieces of columns), with kept outer dims, lengths that are not whole
// pieces, and inputs large enough for the pool, also where one block of rows is all there
// is and stripes of columns share it; NaN among the values.
TEST(CpuLarge, ShortColumnReductions) {
    NEED_CPU();
    struct {
        const char* name;
        Reduce fn;
    } ops[] = {{"sum", ember_sum}, {"mean", ember_mean}, {"max", ember_max}, {"min", ember_min}, {"prod", ember_prod}};
    struct Case {
        std::vector<int64_t> shape, axes;
    };
    const Case cases[] = {{{3, 5001}, {0}}, {{2, 7, 4099}, {1}}, {{8, 3000}, {0}}, {{9, 3000}, {0}}, {{4, 70001}, {0}}, {{2, 3, 2, 2100}, {0, 2}}, {{300, 4100}, {0}},
                          {{200, 1000}, {0}}, {{250, 530}, {0}}};  // one block of rows in two stripes of columns
    unsigned seed = 1300;
    for (const Case& cs : cases) {
        int64_t n = 1;
        for (int64_t e : cs.shape) n *= e;
        auto d = randf((size_t)n, -2, 2, ++seed);
        d[(size_t)n / 3] = std::numeric_limits<float>::quiet_NaN();
        for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_INT32, EMBER_INT8, EMBER_FLOAT16, EMBER_COMPLEX64}) {
            T x = tensor(cpu(), d, cs.shape, dt);
            for (auto& op : ops) {
                if (dt == EMBER_COMPLEX64 && (op.fn == ember_max || op.fn == ember_min)) continue;
                std::string what = std::string(op.name) + " " + ember_dtype_name(dt) + " rows " + std::to_string(cs.shape[cs.axes[0]]) + " of " + std::to_string(n);
                T got, want;
                EM_OK(op.fn(cpu(), x, cs.axes.data(), (int)cs.axes.size(), 0, got.out()));
                EM_OK(op.fn(ref(), as_ref(x), cs.axes.data(), (int)cs.axes.size(), 0, want.out()));
                const bool exact = op.fn == ember_max || op.fn == ember_min || dt == EMBER_INT32 || dt == EMBER_INT8;
                const double rtol = exact ? 0 : dt == EMBER_FLOAT16 ? 2e-3 : dt == EMBER_FLOAT64 ? 1e-12 : 1e-6;
                expect_close(got, want, rtol, rtol * 1e-2, what);
                T cnt, want_cnt;
                EM_OK(ember_count_nonzero(cpu(), x, cs.axes.data(), (int)cs.axes.size(), 0, cnt.out()));
                EM_OK(ember_count_nonzero(ref(), as_ref(x), cs.axes.data(), (int)cs.axes.size(), 0, want_cnt.out()));
                expect_close(cnt, want_cnt, 0, 0, std::string("count_nonzero ") + what);
            }
        }
    }
}

// Short rows (fewer elements than a vector: max/min fold them in order; argmax/argmin scan
// lines of at most 16 in one pass): exactly the reference's bits and positions, with ties,
// both zeros and NaNs of different payloads placed anywhere, every row length from 1 to 17.
TEST(CpuLarge, ShortRowExtremesExact) {
    NEED_CPU();
    const uint32_t patterns[] = {0x00000000u, 0x80000000u, 0x3f800000u, 0xbf800000u, 0x7fc00001u, 0xffc00002u, 0x7f800000u, 0x40000000u, 0x7fc00003u};
    std::mt19937 rng(1400);
    for (int64_t len = 1; len <= 17; ++len) {
        const int64_t rows = 3000;
        std::vector<float> v((size_t)(rows * len));
        for (auto& e : v) {
            const uint32_t bits = patterns[rng() % 9];
            std::memcpy(&e, &bits, 4);
        }
        for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_FLOAT16, EMBER_BFLOAT16, EMBER_INT8, EMBER_INT32, EMBER_UINT8}) {
            // The matrix, and views of it whose rows are stepped, reversed or apart (the
            // strided short lines of argmax/argmin), one of three dims.
            T x = tensor(cpu(), v, {rows, len}, dt), reversed, both, stepped, apart, cube, cube_flipped;
            const int64_t last = 1, axes[2] = {0, 1}, from[2] = {0, 0}, to[2] = {rows, len}, step2[2] = {1, 2}, cube_shape[3] = {30, 100, len},
                          cube_axes[2] = {1, 2}, first_half[2] = {rows, (len + 1) / 2}, unit[2] = {1, 1};
            EM_OK(ember_flip(cpu(), x, &last, 1, reversed.out()));
            EM_OK(ember_flip(cpu(), x, axes, 2, both.out()));
            EM_OK(ember_slice(cpu(), x, from, to, step2, 2, stepped.out()));
            EM_OK(ember_slice(cpu(), x, from, first_half, unit, 2, apart.out()));
            EM_OK(ember_reshape(cpu(), x, cube_shape, 3, cube.out()));
            EM_OK(ember_flip(cpu(), cube, cube_axes, 2, cube_flipped.out()));
            const std::pair<const char*, const T*> views[] = {{"", &x}, {" x[:, ::-1]", &reversed}, {" x[::-1, ::-1]", &both}, {" x[:, ::2]", &stepped},
                                                              {" x[:, :half]", &apart}, {" x3[:, ::-1, ::-1]", &cube_flipped}};
            for (const auto& [name, view] : views) {
                int ndim = 0;
                EM_OK(ember_tensor_ndim(*view, &ndim));
                const int ax = ndim - 1;
                for (int which = 0; which < 4; ++which) {
                    T got, want;
                    if (which < 2) {
                        auto fn = which == 0 ? ember_max : ember_min;
                        const int64_t axis[1] = {ax};
                        EM_OK(fn(cpu(), *view, axis, 1, 0, got.out()));
                        EM_OK(fn(ref(), as_ref(*view), axis, 1, 0, want.out()));
                    } else {
                        auto fn = which == 2 ? ember_argmax : ember_argmin;
                        EM_OK(fn(cpu(), *view, ax, 0, got.out()));
                        EM_OK(fn(ref(), as_ref(*view), ax, 0, want.out()));
                    }
                    EXPECT_EQ(raw_bytes(got), raw_bytes(want))
                        << (const char*[]){"max", "min", "argmax", "argmin"}[which] << " of rows of " << len << " " << ember_dtype_name(dt) << name;
                }
            }
        }
    }
}

// Sums, means, products and counts over short rows (the short-row loops of reduce.cpp,
// inline up to 3 float elements or any integer row): each row's result has the bits of that row reduced alone
// (one output: the row kernel), and matches the reference; lengths 1 to 9, zeros of both
// signs, integers that wrap, and a matrix large enough for the pool.
TEST(CpuLarge, ShortRowSumsAsTheRowKernel) {
    NEED_CPU();
    std::mt19937 rng(1401);
    for (int64_t len : {1, 2, 3, 4, 5, 8, 9}) {
        const int64_t rows = len == 3 ? 100003 : 2001;
        // Thirds of floats: float64 values with every mantissa bit, so that the order of a
        // sum shows in its bits.
        std::vector<double> d;
        for (float f : randf((size_t)(rows * len), -3e4f, 3e4f, 1402 + (unsigned)len)) d.push_back(rng() % 7 == 0 ? (rng() % 2 ? 0.0 : -0.0) : f / 3.0);
        for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_INT8, EMBER_UINT8, EMBER_INT16, EMBER_INT32, EMBER_INT64, EMBER_UINT64, EMBER_BOOL}) {
            T x = tensor(cpu(), d, {rows, len}, dt);
            // The same rows as every other element of rows of 2 len + 1 (blocks of stepped
            // rows gathered for the short-row loops): the same bits.
            std::vector<double> spread((size_t)(rows * (2 * len + 1)), 7.0);
            for (int64_t r = 0; r < rows; ++r)
                for (int64_t j = 0; j < len; ++j) spread[(size_t)(r * (2 * len + 1) + 2 * j + 1)] = d[(size_t)(r * len + j)];
            T wide = tensor(cpu(), spread, {rows, 2 * len + 1}, dt), stepped;
            const int64_t from[2] = {0, 1}, to[2] = {rows, 2 * len + 1}, step2[2] = {1, 2};
            EM_OK(ember_slice(cpu(), wide, from, to, step2, 2, stepped.out()));
            const int64_t axis[1] = {1};
            for (Reduce fn : {ember_sum, ember_mean, ember_prod, ember_count_nonzero}) {
                const char* name = fn == ember_sum ? "sum" : fn == ember_mean ? "mean" : fn == ember_prod ? "prod" : "count_nonzero";
                const std::string what = std::string(name) + " of rows of " + std::to_string(len) + " " + ember_dtype_name(dt);
                T got, want;
                ember_status_t s1 = fn(cpu(), x, axis, 1, 0, got.out());
                ASSERT_EQ(s1, fn(ref(), as_ref(x), axis, 1, 0, want.out())) << what;
                if (s1 != EMBER_OK) continue;
                const bool is_float = dt == EMBER_FLOAT32 || dt == EMBER_FLOAT64;
                expect_close(got, want, !is_float ? 0 : dt == EMBER_FLOAT32 ? 1e-6 : 1e-12, 1e-3, what);
                const auto all = raw_bytes(got);
                const size_t item = all.size() / (size_t)rows;
                for (int64_t r : {(int64_t)0, (int64_t)1, rows / 2, rows - 1}) {
                    T row, one;
                    EM_OK(ember_select(cpu(), x, 0, r, row.out()));
                    EM_OK(fn(cpu(), row, nullptr, 0, 0, one.out()));
                    const auto bits = raw_bytes(one);
                    ASSERT_EQ(bits.size(), item) << what;
                    EXPECT_EQ(0, std::memcmp(bits.data(), all.data() + (size_t)r * item, item)) << what << ", row " << r;
                }
                T of_stepped;
                EM_OK(fn(cpu(), stepped, axis, 1, 0, of_stepped.out()));
                EXPECT_EQ(raw_bytes(of_stepped), all) << what << ", x[:, 1::2] of rows of " << 2 * len + 1;
            }
        }
    }
}

// Binary ops whose runs are short (elementwise.cpp's short_run_blocks: blocks of rows in
// one kernel call, inputs copied into buffers where they do not lie as the output does):
// a column broadcast (x - x.max(keepdims)), a row broadcast (x * w), a reversed-row-order
// operand, a 3-d middle broadcast, a transposed operand, and where over the same operands,
// run lengths 1 to 70, blocks split across the pool; the reference's bytes, comparisons
// writing bools included.
TEST(CpuLarge, ShortRunBinaryOpsMatchReference) {
    NEED_CPU();
    struct {
        const char* name;
        Binary fn;
    } ops[] = {{"subtract", ember_subtract}, {"multiply", ember_multiply}, {"maximum", ember_maximum}, {"less", ember_less}};
    for (int64_t len : {1, 2, 3, 7, 33, 63, 64, 70}) {
        const int64_t rows = len == 3 ? 90001 : 2003;
        for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_INT8, EMBER_UINT16, EMBER_INT64}) {
            T x = tensor(cpu(), randf((size_t)(rows * len), -100, 100, 1600 + (unsigned)len), {rows, len}, dt);
            T col = tensor(cpu(), randf((size_t)rows, -100, 100, 1700), {rows, 1}, dt);
            T row = tensor(cpu(), randf((size_t)len, -100, 100, 1701), {len}, dt);
            T flipped, x3, mid;
            const int64_t axis0 = 0;
            EM_OK(ember_flip(cpu(), x, &axis0, 1, flipped.out()));  // rows in reverse order: a negative row stride
            const int64_t shape3[3] = {rows, 1, len};
            EM_OK(ember_reshape(cpu(), x, shape3, 3, x3.out()));
            mid = tensor(cpu(), randf((size_t)(3 * len), -100, 100, 1702), {1, 3, len}, dt);
            T columns = tensor(cpu(), randf((size_t)(rows * len), -100, 100, 1703), {len, rows}, dt), across;
            const int64_t swap[2] = {1, 0};
            EM_OK(ember_permute_dims(cpu(), columns, swap, 2, across.out()));  // rows read across memory
            const std::pair<const ember_tensor_t*, const ember_tensor_t*> operands[] = {{x, col},    {col, x},    {x, row}, {row, x},
                                                                                        {x, flipped}, {x3, mid}, {x, across}, {across, col}};
            for (auto& op : ops)
                for (size_t i = 0; i < std::size(operands); ++i) {
                    T got, want;
                    EM_OK(op.fn(cpu(), operands[i].first, operands[i].second, got.out()));
                    EM_OK(op.fn(ref(), as_ref(operands[i].first), as_ref(operands[i].second), want.out()));
                    EXPECT_EQ(raw_bytes(got), raw_bytes(want)) << op.name << " " << ember_dtype_name(dt) << " runs of " << len << ", operands " << i;
                }
            T zero = tensor(cpu(), std::vector<double>{0.0}, {}, dt), negative_columns, across_condition;  // where, its condition read across too
            EM_OK(ember_less(cpu(), columns, zero, negative_columns.out()));
            EM_OK(ember_permute_dims(cpu(), negative_columns, swap, 2, across_condition.out()));
            for (size_t i = 0; i < std::size(operands); ++i) {
                T condition;
                EM_OK(ember_less(cpu(), operands[i].first, operands[i].second, condition.out()));
                for (const ember_tensor_t* cond : {(const ember_tensor_t*)condition, (const ember_tensor_t*)across_condition}) {
                    T got, want;
                    if (cond == across_condition && i == 5) continue;  // (rows, 3, len): not the condition's shape
                    EM_OK(ember_where(cpu(), cond, operands[i].first, operands[i].second, got.out()));
                    EM_OK(ember_where(ref(), as_ref(cond), as_ref(operands[i].first), as_ref(operands[i].second), want.out()));
                    EXPECT_EQ(raw_bytes(got), raw_bytes(want)) << "where " << ember_dtype_name(dt) << " runs of " << len << ", operands " << i
                                                               << (cond == condition ? "" : ", condition read across");
                }
            }
        }
    }
}

// Unary ops on short runs (x[:, :len] of a wider matrix, of a 3-d tensor, and a transposed
// matrix): the bytes the same kernel gives on a contiguous copy, and the reference's for
// the exact ops; float16 through the float32 kernels.
TEST(CpuLarge, ShortRunUnaryOpsMatchContiguous) {
    NEED_CPU();
    using Unary = ember_status_t (*)(ember_ctx_t*, const ember_tensor_t*, ember_tensor_t**);
    struct {
        const char* name;
        Unary fn;
        bool exact;
    } ops[] = {{"negative", ember_negative, true}, {"square", ember_square, true}, {"exp", ember_exp, false}, {"tanh", ember_tanh, false}};
    for (int64_t len : {2, 3, 17, 63, 64}) {
        for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_FLOAT16, EMBER_INT16, EMBER_UINT8}) {
            const bool integer = dt == EMBER_INT16 || dt == EMBER_UINT8;
            const int64_t rows = len == 3 ? 90001 : 1003, width = len + 5;
            T wide = tensor(cpu(), randf((size_t)(rows * width), -3, 3, 1800 + (unsigned)len), {rows, width}, dt), view, view3, wide3, across;
            T columns = tensor(cpu(), randf((size_t)(rows * len), -3, 3, 1850 + (unsigned)len), {len, rows}, dt);
            const int64_t swap[2] = {1, 0};
            EM_OK(ember_permute_dims(cpu(), columns, swap, 2, across.out()));
            const int64_t from[2] = {0, 1}, to[2] = {rows, 1 + len}, step[2] = {1, 1};
            EM_OK(ember_slice(cpu(), wide, from, to, step, 2, view.out()));
            // (rows, 3, width)[:, :2, 2:2 + len]: three dims that do not merge
            wide3 = tensor(cpu(), randf((size_t)(rows * 3 * width), -3, 3, 1900 + (unsigned)len), {rows, 3, width}, dt);
            const int64_t from3[3] = {0, 0, 2}, to3[3] = {rows, 2, 2 + len}, step3[3] = {1, 1, 1};
            EM_OK(ember_slice(cpu(), wide3, from3, to3, step3, 3, view3.out()));
            for (const ember_tensor_t* v : {(const ember_tensor_t*)view, (const ember_tensor_t*)view3, (const ember_tensor_t*)across})
                for (auto& op : ops) {
                    if (!op.exact && integer) continue;
                    const std::string what = std::string(op.name) + " " + ember_dtype_name(dt) + " runs of " + std::to_string(len);
                    T dense, got, want;
                    EM_OK(ember_copy(cpu(), v, dense.out()));
                    EM_OK(op.fn(cpu(), v, got.out()));
                    EM_OK(op.fn(cpu(), dense, want.out()));
                    EXPECT_EQ(raw_bytes(got), raw_bytes(want)) << what;
                    if (!op.exact) continue;
                    T ref_out;
                    EM_OK(op.fn(ref(), as_ref(v), ref_out.out()));
                    EXPECT_EQ(raw_bytes(got), raw_bytes(ref_out)) << what << " (reference)";
                }
            for (const ember_tensor_t* v : {(const ember_tensor_t*)view, (const ember_tensor_t*)view3, (const ember_tensor_t*)across})  // copies and conversions
                for (ember_dtype_t to : {dt, EMBER_FLOAT64, EMBER_INT8, EMBER_COMPLEX64}) {
                    T got, want;
                    EM_OK(ember_astype(cpu(), v, to, got.out()));
                    EM_OK(ember_astype(ref(), as_ref(v), to, want.out()));
                    EXPECT_EQ(raw_bytes(got), raw_bytes(want)) << "astype " << ember_dtype_name(dt) << " -> " << ember_dtype_name(to) << " runs of " << len;
                }
        }
    }
}

// Narrow columns over many rows (reduce.cpp: k rows side by side as one row of k * J
// columns, then the k groups and the last rows folded): every kind it takes against the
// reference, around the row counts where it starts and with rows left over; float sums and
// products to their accumulators' rounding, everything else exactly; float extremes that are zeros of
// both signs or NaN (the general way), and an image's channels over its two outer axes.
TEST(CpuLarge, NarrowColumnsSideBySide) {
    NEED_CPU();
    using Reduce = ember_status_t (*)(ember_ctx_t*, const ember_tensor_t*, const int64_t*, int, int, ember_tensor_t**);
    const std::pair<const char*, Reduce> ops[] = {{"sum", ember_sum}, {"mean", ember_mean}, {"max", ember_max}, {"min", ember_min}, {"prod", ember_prod}};
    for (int64_t cols : {1, 2, 3, 5, 16, 17}) {
        const int64_t k = 512 / cols;
        for (int64_t rows : {64 * k - 1, 64 * k, 64 * k * 3 + 7, cols == 3 ? (int64_t)300001 : 64 * k + 1}) {
            auto d = randf((size_t)(rows * cols), -100, 100, 2500 + (unsigned)(rows + cols));
            for (int special : {0, 1, 2, 3}) {
                if (special == 3) {  // ReLU outputs: the minimum is a zero, the first of its column
                    d = randf((size_t)(rows * cols), -100, 100, 2500 + (unsigned)(rows + cols));
                    for (float& v : d) v = std::fabs(v);
                    d[(size_t)(rows / 5 * cols)] = 0.0f, d[(size_t)(rows / 4 * cols)] = -0.0f;
                    if (cols > 1) d[(size_t)(rows / 7 * cols + 1)] = -0.0f, d[(size_t)(rows / 3 * cols + 1)] = 0.0f;
                }
                if (special == 1) d[(size_t)((rows / 2) * cols)] = 1e4f, d[(size_t)((rows / 3) * cols)] = 1e4f;  // ties of the maximum
                if (special == 2) {  // column 0 all zeros of both signs, one NaN in the last column
                    for (int64_t r = 0; r < rows; ++r) d[(size_t)(r * cols)] = r % 3 ? 0.0f : -0.0f;
                    d[(size_t)(rows / 2 * cols + cols - 1)] = std::numeric_limits<float>::quiet_NaN();
                }
                // Float products of values near 1 (the others overflow at once); integer ones
                // wrap, in any grouping to the reference's bits.
                std::vector<float> near_one(d.size());
                for (size_t i = 0; i < d.size(); ++i) near_one[i] = 1 + d[i] / 1e4f;
                for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_INT32, EMBER_UINT8, EMBER_INT64}) {
                    if (special >= 2 && dt != EMBER_FLOAT32 && dt != EMBER_FLOAT64) continue;
                    const bool is_float = dt == EMBER_FLOAT32 || dt == EMBER_FLOAT64;
                    T x = tensor(cpu(), d, {rows, cols}, dt), x_near_one = tensor(cpu(), near_one, {rows, cols}, dt);
                    const int64_t axis = 0;
                    for (auto [name, fn] : ops) {
                        if (std::string(name) == "mean" && !is_float) continue;
                        const bool float_prod = std::string(name) == "prod" && is_float;
                        const ember_tensor_t* in = float_prod ? x_near_one : x;
                        T got, want;
                        EM_OK(fn(cpu(), in, &axis, 1, 0, got.out()));
                        EM_OK(fn(ref(), as_ref(in), &axis, 1, 0, want.out()));
                        const std::string what = std::string(name) + " over " + std::to_string(rows) + " rows of " + std::to_string(cols) + " " +
                                                 ember_dtype_name(dt) + (special ? " (special values)" : "");
                        const bool adds = std::string(name) == "sum" || std::string(name) == "mean";
                        if (adds && is_float) expect_close(got, want, dt == EMBER_FLOAT32 ? 1e-6 : 1e-12, 1e-9, what);
                        else if (float_prod) expect_close(got, want, dt == EMBER_FLOAT32 ? 1e-6 : 1e-12, 0, what);
                        else EXPECT_EQ(raw_bytes(got), raw_bytes(want)) << what;
                    }
                }
            }
        }
    }
    std::vector<float> pixels((size_t)(400 * 300 * 3));
    for (size_t i = 0; i < pixels.size(); ++i) pixels[i] = (float)((i * 2654435761u) % 256);
    for (ember_dtype_t dt : {EMBER_UINT8, EMBER_BOOL}) {
        T image = tensor(cpu(), pixels, {400, 300, 3}, dt);
        const int64_t axes[2] = {0, 1};
        for (auto [name, fn] : {std::pair<const char*, Reduce>{"sum", ember_sum}, {"max", ember_max}, {"min", ember_min}, {"any", ember_any}, {"all", ember_all}}) {
            T got, want;
            EM_OK(fn(cpu(), image, axes, 2, 0, got.out()));
            EM_OK(fn(ref(), as_ref(image), axes, 2, 0, want.out()));
            EXPECT_EQ(raw_bytes(got), raw_bytes(want)) << name << " of an image's channels, " << ember_dtype_name(dt);
        }
    }
}

// Results of at least 16 MiB (streamed) written in many short runs whose starts are not
// vector-aligned, fenced once per task: a broadcast add with rows of 100, the negative of a
// view with rows of 100 of 130, a constant pad of rows of 100 into rows of 102 and a tile;
// the reference's bits.
TEST(CpuLarge, StreamedShortRunsMatchReference) {
    NEED_CPU();
    const int64_t rows = 65536;
    T x = tensor(cpu(), randf((size_t)(rows * 130), -10, 10, 3200), {rows, 130}, EMBER_FLOAT32), v;
    const int64_t from[2] = {0, 0}, to[2] = {rows, 100}, step[2] = {1, 1};
    EM_OK(ember_slice(cpu(), x, from, to, step, 2, v.out()));
    T row = tensor(cpu(), randf(100, -1, 1, 3201), {100}, EMBER_FLOAT32), dense;
    EM_OK(ember_copy(cpu(), v, dense.out()));
    const int64_t widths[4] = {0, 0, 1, 1}, reps[2] = {1, 3};
    const std::pair<const char*, std::function<ember_status_t(ember_ctx_t*, const ember_tensor_t*, const ember_tensor_t*, ember_tensor_t**)>> cases[] = {
        {"add a row", [](ember_ctx_t* c, const ember_tensor_t* a, const ember_tensor_t* b, ember_tensor_t** o) { return ember_add(c, a, b, o); }},
        {"negative of a view", [](ember_ctx_t* c, const ember_tensor_t* a, const ember_tensor_t*, ember_tensor_t** o) { return ember_negative(c, a, o); }},
        {"pad", [&](ember_ctx_t* c, const ember_tensor_t* a, const ember_tensor_t*, ember_tensor_t** o) { return ember_pad(c, a, widths, EMBER_PAD_CONSTANT, 0.5, o); }},
        {"tile", [&](ember_ctx_t* c, const ember_tensor_t* a, const ember_tensor_t*, ember_tensor_t** o) { return ember_tile(c, a, reps, 2, o); }},
    };
    for (const auto& [name, fn] : cases) {
        const bool view = std::string(name) == "negative of a view";
        const ember_tensor_t* in = view ? (const ember_tensor_t*)v : (const ember_tensor_t*)dense;
        T got, want;
        EM_OK(fn(cpu(), in, row, got.out()));
        T in_ref = as_ref(in), row_ref = as_ref(row);
        EM_OK(fn(ref(), in_ref, row_ref, want.out()));
        EXPECT_EQ(raw_bytes(got), raw_bytes(want)) << name;
    }
}

// Copies into results wider than the rows (elementwise.cpp's copy_short_rows): concat of a
// matrix and its first column, pad, roll along the rows, stack of vectors into columns; the
// reference's bytes for every element size (16 bytes through the other paths).
TEST(CpuLarge, ShortRowCopiesIntoWiderResults) {
    NEED_CPU();
    for (int64_t len : {1, 2, 3, 17, 63, 64}) {
        const int64_t rows = len == 3 ? 90001 : 1003;
        for (ember_dtype_t dt : {EMBER_UINT8, EMBER_INT16, EMBER_FLOAT32, EMBER_FLOAT64, EMBER_COMPLEX128}) {
            const std::string what = std::string(ember_dtype_name(dt)) + " rows of " + std::to_string(len);
            T x = tensor(cpu(), randf((size_t)(rows * len), -100, 100, 2300 + (unsigned)len), {rows, len}, dt), first;
            const int64_t from[2] = {0, 0}, to[2] = {rows, 1}, step[2] = {1, 1};
            EM_OK(ember_slice(cpu(), x, from, to, step, 2, first.out()));
            T v = tensor(cpu(), randf((size_t)rows, -100, 100, 2400), {rows}, dt);
            T ref_x = as_ref(x), ref_first = as_ref(first), ref_v = as_ref(v);
            // op(ctx, x, its first column, v, out) on cpu and on the reference
            auto same = [&](auto op, const std::string& name) {
                T got, want;
                EM_OK(op(cpu(), x, first, v, got.out()));
                EM_OK(op(ref(), ref_x, ref_first, ref_v, want.out()));
                EXPECT_EQ(raw_bytes(got), raw_bytes(want)) << name << " " << what;
            };
            using Tensor = const ember_tensor_t*;
            same([](ember_ctx_t* ctx, Tensor m, Tensor column, Tensor, ember_tensor_t** o) {
                const ember_tensor_t* parts[2] = {m, column};
                return ember_concat(ctx, parts, 2, 1, o);
            }, "concat");
            same([](ember_ctx_t* ctx, Tensor m, Tensor, Tensor, ember_tensor_t** o) {
                const int64_t widths[4] = {1, 0, 2, 1};
                return ember_pad(ctx, m, widths, EMBER_PAD_CONSTANT, 7.0, o);
            }, "pad");
            same([](ember_ctx_t* ctx, Tensor m, Tensor, Tensor, ember_tensor_t** o) {
                const int64_t shift = 1, axis = 1;
                return ember_roll(ctx, m, &shift, &axis, 1, o);
            }, "roll");
            same([](ember_ctx_t* ctx, Tensor, Tensor, Tensor vector, ember_tensor_t** o) {
                const ember_tensor_t* parts[3] = {vector, vector, vector};
                return ember_stack(ctx, parts, 3, 1, o);
            }, "stack");
        }
    }
}

// Math that has a contiguous-run kernel (libm_loops.cpp's libmvec and rounding loops, gelu,
// clip, pow with an exponent of 2) on stepped and transposed inputs, rows short and long:
// the bytes the op gives on a contiguous copy of the input (the same kernel on gathered
// elements), and clip's the reference's.
// Interleaved channels read as planes (gather_tile's split_channels): an HWC image with 2,
// 3 and 4 channels as CHW, and the first 3 channels of RGBA, copied, converted to float32 and
// scaled, for 1- and 2-byte elements, against the reference's bits.
TEST(CpuLarge, ChannelPlanesOfInterleavedPixels) {
    NEED_CPU();
    for (int64_t channels : {2, 3, 4}) {
        for (ember_dtype_t dt : {EMBER_UINT8, EMBER_INT16}) {
            const int64_t h = 67, w = 301;
            T img = tensor(cpu(), randf((size_t)(h * w * channels), 0, 250, 3300 + (unsigned)channels), {h, w, channels}, dt), planes, first3, rgb;
            const int64_t chw[3] = {2, 0, 1};
            EM_OK(ember_permute_dims(cpu(), img, chw, 3, planes.out()));
            const int64_t from[1] = {0}, to[1] = {3}, step[1] = {1};
            EM_OK(ember_slice(cpu(), planes, from, to, step, 1, first3.out()));
            T scale = tensor(cpu(), std::vector<double>{1.0 / 255}, {}, EMBER_FLOAT32);
            for (const T* v : {&planes, &first3}) {
                if (v == &first3 && channels != 4) continue;
                const std::string what = std::string(ember_dtype_name(dt)) + ", " + std::to_string(channels) + " channels" + (v == &first3 ? ", first 3" : "");
                T got, want;
                EM_OK(ember_copy(cpu(), *v, got.out()));
                EM_OK(ember_copy(ref(), as_ref(*v), want.out()));
                EXPECT_EQ(raw_bytes(got), raw_bytes(want)) << "copy " << what;
                T fgot, fwant;
                EM_OK(ember_astype(cpu(), *v, EMBER_FLOAT32, fgot.out()));
                EM_OK(ember_astype(ref(), as_ref(*v), EMBER_FLOAT32, fwant.out()));
                EXPECT_EQ(raw_bytes(fgot), raw_bytes(fwant)) << "astype " << what;
                T sgot, swant;
                EM_OK(ember_multiply(cpu(), *v, scale, sgot.out()));
                EM_OK(ember_multiply(ref(), as_ref(*v), as_ref(scale), swant.out()));
                EXPECT_EQ(raw_bytes(sgot), raw_bytes(swant)) << "scaled " << what;
            }
        }
    }
}

// negative(v), v * v and v as float32 on cpu against the reference's bits, for a view v
// whose operand gathers are under test.
void expect_view_ops_bitwise(const T& v, const std::string& what) {
    T neg, neg_ref, sq, sq_ref, f, f_ref;
    EM_OK(ember_negative(cpu(), v, neg.out()));
    EM_OK(ember_negative(ref(), as_ref(v), neg_ref.out()));
    EXPECT_EQ(raw_bytes(neg), raw_bytes(neg_ref)) << "negative " << what;
    EM_OK(ember_multiply(cpu(), v, v, sq.out()));
    EM_OK(ember_multiply(ref(), as_ref(v), as_ref(v), sq_ref.out()));
    EXPECT_EQ(raw_bytes(sq), raw_bytes(sq_ref)) << "square " << what;
    EM_OK(ember_astype(cpu(), v, EMBER_FLOAT32, f.out()));
    EM_OK(ember_astype(ref(), as_ref(v), EMBER_FLOAT32, f_ref.out()));
    EXPECT_EQ(raw_bytes(f), raw_bytes(f_ref)) << "astype " << what;
    T copied, copied_ref;
    EM_OK(ember_copy(cpu(), v, copied.out()));
    EM_OK(ember_copy(ref(), as_ref(v), copied_ref.out()));
    EXPECT_EQ(raw_bytes(copied), raw_bytes(copied_ref)) << "copy " << what;
}

// Transposed 1- and 2-byte operands (simd_transpose_narrow.hpp: blocks of 16 x 16 bytes or
// 8 x 8 halves per 128-bit lane, 64-row tiles, the last partial block moved back over the
// edge; fewer rows than a block element by element): unary, binary, conversion and copy of
// a transposed matrix against the reference's bits, and a batch of transposed matrices.
TEST(CpuLarge, TransposedBytesAndHalves) {
    NEED_CPU();
    for (int64_t cols : {1000, 37, 16, 24, 12, 5}) {
        const int64_t rows = 999;
        for (ember_dtype_t dt : {EMBER_UINT8, EMBER_INT8, EMBER_INT16, EMBER_UINT16, EMBER_FLOAT16}) {
            T x = tensor(cpu(), randf((size_t)(rows * cols), -100, 100, 3500 + (unsigned)cols), {rows, cols}, dt), xt;
            EM_OK(ember_transpose(cpu(), x, xt.out()));
            expect_view_ops_bitwise(xt, std::string(ember_dtype_name(dt)) + " (" + std::to_string(rows) + ", " + std::to_string(cols) + ") transposed");
        }
    }
    // Output rows 1024 bytes apart (2048 for the halves): the AVX-512 table's narrower
    // strips. 2048 and 4100 (4096 for the halves) apart: the buffered blocks, with a last
    // block of columns narrower than 64 and a last block of rows (4100) shorter than a strip.
    const std::pair<int64_t, int64_t> crowded[] = {{1024, 300}, {1024, 37}, {2048, 300}, {2048, 20}, {4100, 37}};
    for (auto [rows, cols] : crowded) {
        for (ember_dtype_t dt : {EMBER_UINT8, EMBER_INT16}) {
            T x = tensor(cpu(), randf((size_t)(rows * cols), -100, 100, 3550 + (unsigned)(rows + cols)), {rows, cols}, dt), xt;
            EM_OK(ember_transpose(cpu(), x, xt.out()));
            expect_view_ops_bitwise(xt, std::string(ember_dtype_name(dt)) + " (" + std::to_string(rows) + ", " + std::to_string(cols) + ") transposed");
        }
    }
    for (ember_dtype_t dt : {EMBER_UINT8, EMBER_INT16}) {
        T x = tensor(cpu(), randf(3 * 70 * 45, -100, 100, 3600), {3, 70, 45}, dt), xt;
        const int64_t swap_last[3] = {0, 2, 1};
        EM_OK(ember_permute_dims(cpu(), x, swap_last, 3, xt.out()));
        expect_view_ops_bitwise(xt, std::string(ember_dtype_name(dt)) + " (3, 70, 45) with its last two axes swapped");
    }
}

// The narrow transposes are per-ISA functions: the AVX2 and SSE2 ones, and one thread.
TEST(CpuBackend, TransposedBytesAndHalvesOnEveryIsa) {
    NEED_CPU();
    NEED_CHILD_PROCESSES();
    const char* filter = "CpuLarge.TransposedBytesAndHalves";
    EXPECT_EQ(run_child(filter, {{"EMBER_NUM_THREADS", "1"}}), 0);
    for (const char* isa : {"avx2", "generic"}) EXPECT_EQ(run_child(filter, {{"EMBER_CPU_ISA", isa}}), 0) << isa;
}

// Every other 1- and 2-byte element (x[::2], elementwise.cpp's gather_row packing the even
// elements of two vectors; the last group and short lengths element by element): unary,
// binary and conversion against the reference's bits, lengths around the vector groups,
// and x[1::2] (the odd ones, the same path from an offset).
TEST(CpuLarge, SteppedBytesAndHalves) {
    NEED_CPU();
    for (int64_t len : {2000001, 64, 33, 32, 17, 3}) {
        for (ember_dtype_t dt : {EMBER_UINT8, EMBER_INT8, EMBER_INT16, EMBER_UINT16, EMBER_FLOAT16}) {
            T x = tensor(cpu(), randf((size_t)len, -30000, 30000, 3700 + (unsigned)len), {len}, dt);
            for (int64_t first : {0, 1}) {
                const int64_t stop = len, step = 2;
                T v;
                EM_OK(ember_slice(cpu(), x, &first, &stop, &step, 1, v.out()));
                expect_view_ops_bitwise(v, std::string(ember_dtype_name(dt)) + " x[" + std::to_string(first) + "::2] of " + std::to_string(len));
            }
        }
    }
}

// Column max/min (simd_impl.cpp's col_minmax: a vector of columns through the rows, the
// last columns as the last full vector again) against the reference's bits: widths below,
// at and past a vector; floats of {-1, -0, +0} and of {+1, -0, +0} (the extreme is a zero,
// and the first of equal values wins) with NaNs of two payloads (the last NaN wins) in
// some columns, the last ones included; integers and bools of random values.
TEST(CpuLarge, ColumnExtremesAtTheEdges) {
    NEED_CPU();
    const float nan_a = std::nanf("1"), nan_b = std::nanf("2");
    for (int64_t cols : {7, 16, 21, 100, 1000}) {
        const int64_t rows = 37;
        const size_t count = (size_t)(rows * cols);
        auto d = randf(count, -3, 3, 3800 + (unsigned)cols);
        for (int sign : {-1, 1}) {
            std::vector<float> f(count);
            for (size_t i = 0; i < count; ++i) {
                const float r = d[i];
                f[i] = r > 1 ? (float)sign : (r > -1 ? 0.0f : -0.0f);
                if (i % 97 == 3) f[i] = (i / 97) % 2 ? nan_a : nan_b;
            }
            for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64}) {
                T x = tensor(cpu(), f, {rows, cols}, dt);
                const int64_t axis0 = 0;
                T got, want;
                auto fn = sign < 0 ? ember_max : ember_min;  // the zeros are the extremes
                EM_OK(fn(cpu(), x, &axis0, 1, 0, got.out()));
                EM_OK(fn(ref(), as_ref(x), &axis0, 1, 0, want.out()));
                EXPECT_EQ(raw_bytes(got), raw_bytes(want)) << (sign < 0 ? "max" : "min") << " over axis 0 of " << ember_dtype_name(dt) << " (37, " << cols << ")";
            }
        }
        for (ember_dtype_t dt : {EMBER_INT8, EMBER_UINT16, EMBER_BOOL}) {
            std::vector<float> v = d;
            for (float& e : v) e = dt == EMBER_BOOL ? (e > 2.5f ? 1.0f : 0.0f) : std::fabs(std::round(e * 20));
            T x = tensor(cpu(), v, {rows, cols}, dt);
            const int64_t axis0 = 0;
            for (auto fn : {ember_max, ember_min}) {
                T got, want;
                EM_OK(fn(cpu(), x, &axis0, 1, 0, got.out()));
                EM_OK(fn(ref(), as_ref(x), &axis0, 1, 0, want.out()));
                EXPECT_EQ(raw_bytes(got), raw_bytes(want)) << "max/min over axis 0 of " << ember_dtype_name(dt) << " (37, " << cols << ")";
            }
        }
    }
}

// Unique values and counts of integers (no indices, no inverse): the core counts them
// through the cpu bincount kernel where their range is no longer than x (shifted in x's own
// dtype, or in int64 where that would wrap: int8 over [-128, 127]); the reference has no
// bincount kernel and sorts. A wide range (int32 over +-1e9, int64 extremes) sorts on both.
TEST(CpuLarge, UniqueIntegersByCounting) {
    NEED_CPU();
    struct Case {
        ember_dtype_t dt;
        double lo, hi;
        int64_t n;
    };
    const Case cases[] = {{EMBER_INT8, -128, 128, 5000},     {EMBER_UINT8, 0, 256, 5000},        {EMBER_INT16, -100, 100, 100000},
                          {EMBER_UINT16, 1000, 1100, 9000},  {EMBER_INT32, -50000, 50000, 200000}, {EMBER_INT64, 7, 20, 10000},
                          {EMBER_INT32, -1e9, 1e9, 10000},   {EMBER_INT16, -30000, 30000, 4096}};
    for (const Case& k : cases) {
        T x = tensor(cpu(), randf((size_t)k.n, (float)k.lo, (float)k.hi, 3600 + (unsigned)k.n), {k.n / 4, 4}, k.dt);
        T v, cnt, v_ref, cnt_ref;
        EM_OK(ember_unique(cpu(), x, v.out(), nullptr, nullptr, cnt.out()));
        EM_OK(ember_unique(ref(), as_ref(x), v_ref.out(), nullptr, nullptr, cnt_ref.out()));
        const std::string what = std::string(ember_dtype_name(k.dt)) + " in [" + std::to_string(k.lo) + ", " + std::to_string(k.hi) + ")";
        EXPECT_EQ(dtype_of(v), k.dt) << what;
        EXPECT_EQ(raw_bytes(v), raw_bytes(v_ref)) << "values of " << what;
        EXPECT_EQ(raw_bytes(cnt), raw_bytes(cnt_ref)) << "counts of " << what;
    }
    const int64_t extremes[6] = {INT64_MIN, INT64_MAX, 0, INT64_MIN, -1, 0};
    std::vector<int64_t> many(5000);
    for (size_t i = 0; i < many.size(); ++i) many[i] = extremes[i % 6];
    const int64_t n = (int64_t)many.size();
    T x, v, cnt;
    EM_OK(ember_tensor_from_data(cpu(), many.data(), EMBER_INT64, &n, 1, x.out()));
    EM_OK(ember_unique(cpu(), x, v.out(), nullptr, nullptr, cnt.out()));
    std::vector<int64_t> got_v(4), got_c(4);
    ASSERT_EQ(shape_of(v), (std::vector<int64_t>{4}));
    EM_OK(ember_tensor_read(v, got_v.data(), sizeof(int64_t) * 4));
    EM_OK(ember_tensor_read(cnt, got_c.data(), sizeof(int64_t) * 4));
    EXPECT_EQ(got_v, (std::vector<int64_t>{INT64_MIN, -1, 0, INT64_MAX}));
    EXPECT_EQ(got_c, (std::vector<int64_t>{1667, 833, 1666, 834}));
}

// A unary op of a transposed input of 32 rows or more and rows of 64 or more: the register
// transpose into the output (transposed_copy), then the op in place on each band of 64 output
// rows while it is in L2. Every unary kernel family on every dtype it takes, against the op
// on a contiguous copy, byte for byte: one band cut short (37, 45, 80 rows), three bands
// with an outer dim, an input transposed across a middle dim (output rows not packed), and
// every other column of a transposed view (the transpose's source rows stepped).
TEST(CpuLarge, UnaryOpsOfTransposedInputsMatchContiguous) {
    NEED_CPU();
    using Unary = ember_status_t (*)(ember_ctx_t*, const ember_tensor_t*, ember_tensor_t**);
    const std::pair<const char*, Unary> ops[] = {{"negative", ember_negative}, {"abs", ember_abs},       {"square", ember_square},
                                                 {"sqrt", ember_sqrt},         {"exp", ember_exp},       {"tanh", ember_tanh},
                                                 {"sigmoid", ember_sigmoid},   {"relu", ember_relu},     {"sign", ember_sign},
                                                 {"reciprocal", ember_reciprocal}, {"conj", ember_conj}, {"bitwise_invert", ember_bitwise_invert}};
    const ember_dtype_t dtypes[] = {EMBER_UINT8,   EMBER_INT8,    EMBER_INT16,   EMBER_UINT16,    EMBER_INT32,     EMBER_INT64,
                                    EMBER_FLOAT32, EMBER_FLOAT64, EMBER_FLOAT16, EMBER_COMPLEX64, EMBER_COMPLEX128};
    struct Case {
        std::vector<int64_t> shape;
        std::vector<int64_t> perm;
    };
    const Case cases[] = {{{70, 37}, {1, 0}}, {{129, 45}, {1, 0}}, {{140, 80}, {1, 0}}, {{3, 66, 140}, {0, 2, 1}}, {{80, 3, 33}, {2, 1, 0}}};
    int checked = 0;
    for (ember_dtype_t dt : dtypes) {
        for (const Case& cs : cases) {
            int64_t n = 1;
            for (int64_t s : cs.shape) n *= s;
            auto d = randf((size_t)n, -3, 3, 4100 + (unsigned)n);
            d[5] = 0.0f;
            T base = tensor(cpu(), d, cs.shape, dt), x;
            EM_OK(ember_permute_dims(cpu(), base, cs.perm.data(), (int)cs.perm.size(), x.out()));
            std::vector<T> views;
            views.push_back(std::move(x));
            if (cs.shape.size() == 2 && cs.shape[0] >= 128) {  // every other column of the transposed view
                T stepped;
                const int64_t from[2] = {0, 0}, to[2] = {cs.shape[1], cs.shape[0]}, step[2] = {1, 2};
                EM_OK(ember_slice(cpu(), views[0], from, to, step, 2, stepped.out()));
                views.push_back(std::move(stepped));
            }
            for (const T& v : views) {
                T dense;
                EM_OK(ember_copy(cpu(), v, dense.out()));
                for (auto [name, fn] : ops) {
                    T got, want;
                    const ember_status_t a = fn(cpu(), v, got.out()), b = fn(cpu(), dense, want.out());
                    ASSERT_EQ(a, b) << name << " " << ember_dtype_name(dt);
                    if (a != EMBER_OK) continue;  // not defined for this dtype
                    EXPECT_EQ(raw_bytes(got), raw_bytes(want)) << name << " " << ember_dtype_name(dt) << " " << shape_of(v).size() << "-d";
                    ++checked;
                }
            }
        }
    }
    EXPECT_GT(checked, 300);
}

// A binary op whose array operands are one transposed view (x.T + x.T, x.T * 2, 2 - x.T):
// the view transposed into the output, then the op in place on its bands. Against the op on
// a contiguous copy, byte for byte, for every binary kernel family on the dtypes it takes;
// the same shapes as the unary test above, the scalar on either side, and two different
// views of the same layout (the tiles' case).
TEST(CpuLarge, BinaryOpsOfOneTransposedViewMatchContiguous) {
    NEED_CPU();
    using Binary = ember_status_t (*)(ember_ctx_t*, const ember_tensor_t*, const ember_tensor_t*, ember_tensor_t**);
    const std::pair<const char*, Binary> ops[] = {{"add", ember_add},         {"subtract", ember_subtract}, {"multiply", ember_multiply},
                                                  {"divide", ember_divide},   {"maximum", ember_maximum},   {"minimum", ember_minimum},
                                                  {"pow", ember_pow},         {"remainder", ember_remainder}, {"bitwise_and", ember_bitwise_and},
                                                  {"less", ember_less},       {"logaddexp", ember_logaddexp}, {"atan2", ember_atan2}};
    const ember_dtype_t dtypes[] = {EMBER_UINT8, EMBER_INT16, EMBER_INT32, EMBER_INT64, EMBER_FLOAT32, EMBER_FLOAT64, EMBER_FLOAT16, EMBER_COMPLEX64, EMBER_COMPLEX128};
    struct Case {
        std::vector<int64_t> shape;
        std::vector<int64_t> perm;
    };
    const Case cases[] = {{{70, 37}, {1, 0}}, {{140, 80}, {1, 0}}, {{3, 66, 140}, {0, 2, 1}}, {{80, 3, 33}, {2, 1, 0}}};
    int checked = 0;
    for (ember_dtype_t dt : dtypes) {
        T scalar = tensor(cpu(), std::vector<double>{3.0}, {}, dt);
        for (const Case& cs : cases) {
            int64_t n = 1;
            for (int64_t s : cs.shape) n *= s;
            auto d = randf((size_t)n, 1, 9, 4300 + (unsigned)n);
            T base = tensor(cpu(), d, cs.shape, dt), other = tensor(cpu(), randf((size_t)n, 1, 9, 4400 + (unsigned)n), cs.shape, dt);
            T v, w, dense, dense_w;
            EM_OK(ember_permute_dims(cpu(), base, cs.perm.data(), (int)cs.perm.size(), v.out()));
            EM_OK(ember_permute_dims(cpu(), other, cs.perm.data(), (int)cs.perm.size(), w.out()));
            EM_OK(ember_copy(cpu(), v, dense.out()));
            EM_OK(ember_copy(cpu(), w, dense_w.out()));
            for (auto [name, fn] : ops) {
                const std::pair<const ember_tensor_t*, const ember_tensor_t*> forms[4][2] = {
                    {{v, v}, {dense, dense}}, {{v, scalar}, {dense, scalar}}, {{scalar, v}, {scalar, dense}}, {{v, w}, {dense, dense_w}}};
                for (const auto& form : forms) {
                    T got, want;
                    const ember_status_t a = fn(cpu(), form[0].first, form[0].second, got.out());
                    const ember_status_t b = fn(cpu(), form[1].first, form[1].second, want.out());
                    ASSERT_EQ(a, b) << name << " " << ember_dtype_name(dt);
                    if (a != EMBER_OK) continue;  // not defined for this dtype
                    EXPECT_EQ(raw_bytes(got), raw_bytes(want)) << name << " " << ember_dtype_name(dt) << " " << cs.shape.size() << "-d, form " << (&form - forms);
                    ++checked;
                }
            }
        }
    }
    EXPECT_GT(checked, 250);
}

TEST(CpuLarge, StridedInputsAsContiguousCopies) {
    NEED_CPU();
    using Unary = ember_status_t (*)(ember_ctx_t*, const ember_tensor_t*, ember_tensor_t**);
    using Binary = ember_status_t (*)(ember_ctx_t*, const ember_tensor_t*, const ember_tensor_t*, ember_tensor_t**);
    const std::pair<const char*, Unary> unary[] = {{"sin", ember_sin},     {"expm1", ember_expm1}, {"floor", ember_floor}, {"round", ember_round},
                                                   {"isnan", ember_isnan}, {"erf", ember_erf},     {"gelu", [](ember_ctx_t* c, const ember_tensor_t* x, ember_tensor_t** o) {
                                                                                                       return ember_gelu(c, x, 0, o);
                                                                                                   }}};
    const std::pair<const char*, Binary> binary[] = {{"pow", ember_pow}, {"atan2", ember_atan2}, {"hypot", ember_hypot}};
    for (int64_t len : {3, 17, 40}) {
        const int64_t rows = 2001;
        for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_FLOAT16}) {
            const std::string type = ember_dtype_name(dt);
            auto d = randf((size_t)(rows * len * 2), 0.1f, 4, 2100 + (unsigned)len);
            d[7] = std::numeric_limits<float>::quiet_NaN();
            T columns = tensor(cpu(), d, {len, 2 * rows}, dt), wide = tensor(cpu(), d, {rows, 2 * len}, dt), across, stepped, apart, other, two, lo, hi;
            const int64_t swap[2] = {1, 0}, from[2] = {0, 1}, to[2] = {rows, 2 * len}, step[2] = {1, 2};
            T half_columns;
            const int64_t cf[2] = {0, 0}, ct[2] = {len, rows}, cs[2] = {1, 1};
            EM_OK(ember_slice(cpu(), columns, cf, ct, cs, 2, half_columns.out()));
            EM_OK(ember_permute_dims(cpu(), half_columns, swap, 2, across.out()));  // (rows, len), read across memory
            EM_OK(ember_slice(cpu(), wide, from, to, step, 2, stepped.out()));      // (rows, len), every other element
            const int64_t first[2] = {0, 0}, half[2] = {rows, len}, unit[2] = {1, 1};
            EM_OK(ember_slice(cpu(), wide, first, half, unit, 2, apart.out()));  // (rows, len), rows 2 len apart
            other = tensor(cpu(), randf((size_t)(rows * len), -3, 3, 2200 + (unsigned)len), {rows, len}, dt);
            two = tensor(cpu(), std::vector<double>{2.0}, {}, dt);
            lo = tensor(cpu(), std::vector<double>{0.5}, {}, dt);
            hi = tensor(cpu(), std::vector<double>{2.5}, {}, dt);
            for (auto [layout, v] : {std::pair<const char*, const ember_tensor_t*>{"transposed", across}, {"stepped", stepped}, {"apart", apart}}) {
                const std::string what = type + " " + layout + " rows of " + std::to_string(len);
                T dense;
                EM_OK(ember_copy(cpu(), v, dense.out()));
                auto same = [&](auto run, const std::string& name) {
                    T got, want;
                    EM_OK(run(v, got.out()));
                    EM_OK(run(dense, want.out()));
                    EXPECT_EQ(raw_bytes(got), raw_bytes(want)) << name << " " << what;
                };
                for (auto [name, fn] : unary) same([&, fn = fn](const ember_tensor_t* x, ember_tensor_t** o) { return fn(cpu(), x, o); }, name);
                for (auto [name, fn] : binary) {
                    same([&, fn = fn](const ember_tensor_t* x, ember_tensor_t** o) { return fn(cpu(), x, other, o); }, name);
                    same([&, fn = fn](const ember_tensor_t* x, ember_tensor_t** o) { return fn(cpu(), other, x, o); }, std::string(name) + " (right)");
                }
                same([&](const ember_tensor_t* x, ember_tensor_t** o) { return ember_pow(cpu(), x, two, o); }, "x ** 2");
                same([&](const ember_tensor_t* x, ember_tensor_t** o) { return ember_leaky_relu(cpu(), x, 0.1, o); }, "leaky_relu");
                T clipped, want;
                EM_OK(ember_clip(cpu(), v, lo, hi, clipped.out()));
                EM_OK(ember_clip(ref(), as_ref(v), as_ref(lo), as_ref(hi), want.out()));
                EXPECT_EQ(raw_bytes(clipped), raw_bytes(want)) << "clip " << what << " (reference)";
            }
        }
    }
}

// Copies whose output rows are short and read across the input (planes to interleaved
// channels, CHW -> HWC; a (2, n) matrix transposed): the reference's bytes.
TEST(CpuLarge, InterleavingCopiesMatchReference) {
    NEED_CPU();
    for (ember_dtype_t dt : {EMBER_UINT8, EMBER_INT16, EMBER_FLOAT32, EMBER_FLOAT64}) {
        for (int64_t channels : {2, 3, 4, 17}) {
            T planes = tensor(cpu(), randf((size_t)(channels * 300 * 211), -100, 100, 2000 + (unsigned)channels), {channels, 300, 211}, dt), hwc, got, want;
            const int64_t perm[3] = {1, 2, 0};
            EM_OK(ember_permute_dims(cpu(), planes, perm, 3, hwc.out()));
            EM_OK(ember_copy(cpu(), hwc, got.out()));
            EM_OK(ember_copy(ref(), as_ref(hwc), want.out()));
            EXPECT_EQ(raw_bytes(got), raw_bytes(want)) << "CHW -> HWC " << ember_dtype_name(dt) << ", " << channels << " channels";
            T back;  // and the other way (a stepped read of each plane)
            const int64_t perm_back[3] = {2, 0, 1};
            EM_OK(ember_permute_dims(cpu(), got, perm_back, 3, back.out()));
            T planes_again;
            EM_OK(ember_copy(cpu(), back, planes_again.out()));
            EXPECT_EQ(raw_bytes(planes_again), raw_bytes(planes)) << "HWC -> CHW " << ember_dtype_name(dt) << ", " << channels << " channels";
        }
    }
}

// 2-norms along short last axes (the dot of each row with itself in the vecdot kernel)
// against the reference and float64 sums, real and complex; then with one row whose square
// overflows float32, one of zeros, one of values whose squares underflow, one holding NaN
// (each sends the whole batch to the scaled computation), and a batch of no rows.
TEST(CpuLarge, ShortRowNormsMatchReference) {
    NEED_CPU();
    const char* const special_names[] = {"", " (one huge)", " (one row of zeros)", " (one tiny row)", " (one NaN)"};
    for (int64_t len : {1, 2, 3, 7, 15, 16, 40}) {
        const int64_t rows = 3001;
        for (int special = 0; special < 5; ++special) {
            auto d = randf((size_t)(rows * len), -2, 2, 1500 + (unsigned)len);
            for (int64_t q = 0; q < len; ++q) {
                float& v = d[(size_t)(len + q)];  // row 1
                if (special == 1 && q == 0) v = 3e30f;
                if (special == 2) v = 0;
                if (special == 3) v = 1e-30f * float(q + 1);
                if (special == 4 && q == len - 1) v = std::numeric_limits<float>::quiet_NaN();
            }
            for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_COMPLEX64}) {
                T x = tensor(cpu(), d, {rows, len}, dt), got, want;
                const int64_t axis[1] = {-1};
                EM_OK(ember_vector_norm(cpu(), x, 2, axis, 1, 0, got.out()));
                EM_OK(ember_vector_norm(ref(), as_ref(x), 2, axis, 1, 0, want.out()));
                const double tol = dt == EMBER_FLOAT64 ? 1e-13 : 2e-6;
                const std::string what = std::string("2-norms of rows of ") + std::to_string(len) + " " + ember_dtype_name(dt) + special_names[special];
                expect_close(got, want, tol, 0, what);
                // and against float64 sums on the host: the composite's choice of path (both
                // backends share it) shows here, not in the comparison above
                const auto norms = host_values(got);
                size_t bad = 0;
                for (int64_t r = 0; r < rows; ++r) {
                    double sq = 0;
                    for (int64_t q = 0; q < len; ++q) sq += (double)d[(size_t)(r * len + q)] * (double)d[(size_t)(r * len + q)];
                    bad += !close(norms[(size_t)r], std::sqrt(sq), dt == EMBER_FLOAT64 ? 1e-13 : 1e-6);
                }
                EXPECT_EQ(bad, 0u) << what << " against float64 sums on the host";
            }
        }
        T none = tensor(cpu(), std::vector<double>{}, {0, len}, EMBER_FLOAT32), got;
        const int64_t axis[1] = {-1};
        EM_OK(ember_vector_norm(cpu(), none, 2, axis, 1, 1, got.out()));
        EXPECT_EQ(shape_of(got), (std::vector<int64_t>{0, 1})) << "2-norms of no rows of " << len;
    }
}

// count_nonzero's own kernels (bytes, 2-, 4- and 8-byte lanes, half types without their
// sign bit) against the reference, in every layout of the drivers, with -0.0 (not counted)
// and NaN (counted) among the values; and the sum of bool, which is a count.
TEST(CpuLarge, CountNonzeroAllLayoutsAndDtypes) {
    NEED_CPU();
    const int64_t rows = 613, cols = 700;
    auto d = randf(rows * cols, -2, 2, 23);
    for (size_t i = 0; i < d.size(); ++i) {
        if (std::fabs(d[i]) < 0.8) d[i] = i % 3 ? 0.0 : -0.0;
        if (i % 997 == 5) d[i] = std::numeric_limits<double>::quiet_NaN();
    }
    for (ember_dtype_t dt : {EMBER_BOOL, EMBER_INT8, EMBER_UINT8, EMBER_INT16, EMBER_UINT16, EMBER_INT32, EMBER_INT64, EMBER_FLOAT16,
                             EMBER_BFLOAT16, EMBER_FLOAT32, EMBER_FLOAT64, EMBER_COMPLEX64}) {
        T m0 = tensor(cpu(), d, {rows, cols}, EMBER_FLOAT64), m, mt, ms;
        EM_OK(ember_astype(cpu(), m0, dt, m.out()));
        EM_OK(ember_transpose(cpu(), m, mt.out()));
        const int64_t from[2] = {0, 0}, to[2] = {rows, cols}, steps[2] = {2, 3};
        EM_OK(ember_slice(cpu(), m, from, to, steps, 2, ms.out()));
        const int64_t ax0[1] = {0}, ax1[1] = {1};
        struct {
            const char* layout;
            const ember_tensor_t* x;
            const int64_t* axes;
            int naxes;
        } cases[] = {{"all", m, nullptr, 0},         {"rows", m, ax1, 1},          {"columns", m, ax0, 1},
                     {"transposed-all", mt, nullptr, 0}, {"transposed-rows", mt, ax1, 1}, {"strided-all", ms, nullptr, 0},
                     {"strided-rows", ms, ax1, 1},   {"strided-columns", ms, ax0, 1}};
        for (auto& c : cases) {
            const std::string what = std::string("count_nonzero ") + ember_dtype_name(dt) + " " + c.layout;
            T got, want;
            EM_OK(ember_count_nonzero(cpu(), c.x, c.axes, c.naxes, 0, got.out()));
            EM_OK(ember_count_nonzero(ref(), as_ref(c.x), c.axes, c.naxes, 0, want.out()));
            ASSERT_EQ(dtype_of(got), EMBER_INT64) << what;
            expect_close(got, want, 0, 0, what);
            if (dt == EMBER_BOOL) {
                T sum;
                EM_OK(ember_sum(cpu(), c.x, c.axes, c.naxes, 0, sum.out()));
                ASSERT_EQ(dtype_of(sum), EMBER_INT64) << what;
                expect_close(sum, want, 0, 0, "sum of bool " + std::string(c.layout));
            }
        }
    }
    // Lengths around the byte lanes' fold (255 vectors) and the vector widths, for each ISA's tail.
    for (int64_t n : {0, 1, 31, 33, 8160, 8161, 16320 + 65, 200000}) {
        std::vector<double> v((size_t)n);
        for (int64_t i = 0; i < n; ++i) v[(size_t)i] = (i * 7919) % 5 != 0;
        T b = tensor(cpu(), v, {n}, EMBER_BOOL), got, want;
        EM_OK(ember_count_nonzero(cpu(), b, nullptr, 0, 0, got.out()));
        EM_OK(ember_count_nonzero(ref(), as_ref(b), nullptr, 0, 0, want.out()));
        expect_close(got, want, 0, 0, "count_nonzero bool n=" + std::to_string(n));
    }
}

// all/any that keep a dim (and small full ones) go through count_nonzero's layouts: exactly
// the reference's, every dtype, every layout, keepdims or not;
// zeros rare (all varies by line) and non-zeros rare (any varies), -0.0 a zero, NaN not.
TEST(CpuLarge, AllAnyAllLayoutsAndDtypes) {
    NEED_CPU();
    const int64_t rows = 613, cols = 700;
    std::vector<double> rare_zeros((size_t)(rows * cols)), rare_nonzeros((size_t)(rows * cols));
    for (size_t i = 0; i < rare_zeros.size(); ++i) {
        rare_zeros[i] = i % 1409 == 3 ? (i % 2 ? 0.0 : -0.0) : i % 997 == 5 ? std::numeric_limits<double>::quiet_NaN() : 1.0 + (double)(i % 5);
        rare_nonzeros[i] = i % 1409 == 3 ? 2.0 : i % 1777 == 5 ? std::numeric_limits<double>::quiet_NaN() : (i % 2 ? 0.0 : -0.0);
    }
    for (ember_dtype_t dt : {EMBER_BOOL, EMBER_INT8, EMBER_UINT8, EMBER_INT16, EMBER_UINT16, EMBER_INT32, EMBER_UINT32, EMBER_INT64, EMBER_UINT64,
                             EMBER_FLOAT16, EMBER_BFLOAT16, EMBER_FLOAT32, EMBER_FLOAT64, EMBER_COMPLEX64, EMBER_COMPLEX128}) {
        for (const auto* values : {&rare_zeros, &rare_nonzeros}) {
            T m0 = tensor(cpu(), *values, {rows, cols}, EMBER_FLOAT64), m, mt, ms, small;
            EM_OK(ember_astype(cpu(), m0, dt, m.out()));
            EM_OK(ember_transpose(cpu(), m, mt.out()));
            const int64_t from[2] = {0, 0}, to[2] = {rows, cols}, steps[2] = {2, 3}, few[2] = {13, 7};
            EM_OK(ember_slice(cpu(), m, from, to, steps, 2, ms.out()));
            EM_OK(ember_slice(cpu(), m, from, few, nullptr, 2, small.out()));
            const int64_t ax0[1] = {0}, ax1[1] = {1};
            struct {
                const char* layout;
                const ember_tensor_t* x;
                const int64_t* axes;
                int naxes;
            } cases[] = {{"rows", m, ax1, 1},          {"columns", m, ax0, 1},        {"transposed-rows", mt, ax1, 1},
                         {"transposed-columns", mt, ax0, 1}, {"strided-rows", ms, ax1, 1}, {"strided-columns", ms, ax0, 1},
                         {"small, all", small, nullptr, 0}, {"small, rows", small, ax1, 1}};
            for (auto& c : cases)
                for (int keep : {0, 1})
                    for (bool all : {true, false}) {
                        const std::string what = std::string(all ? "all " : "any ") + ember_dtype_name(dt) + " " + c.layout +
                                                 (keep ? ", keepdims" : "") + (values == &rare_zeros ? ", rare zeros" : ", rare non-zeros");
                        auto fn = all ? ember_all : ember_any;
                        T got, want;
                        EM_OK(fn(cpu(), c.x, c.axes, c.naxes, keep, got.out()));
                        EM_OK(fn(ref(), as_ref(c.x), c.axes, c.naxes, keep, want.out()));
                        ASSERT_EQ(dtype_of(got), EMBER_BOOL) << what;
                        EXPECT_EQ(shape_of(got), shape_of(want)) << what;
                        expect_close(got, want, 0, 0, what);
                    }
        }
    }
}

// all/any over every axis count in blocks and stop at the element that decides: one zero near
// the end (all scans nearly everything), one non-zero two thirds in (any decides in another
// task's share), none that decides; every dtype, complex ones with a single non-zero part
// (either part counts), -0.0 a zero, NaN not; contiguous, transposed, strided and 1-d. Along
// either axis too, with count_nonzero. The min and max of bools over everything take the
// same kernel.
TEST(CpuLarge, AllAnyOverEverythingStopAtTheDecidingElement) {
    NEED_CPU();
    const int64_t rows = 600, cols = 700, n = rows * cols;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    auto pattern = [&](const char* name) {
        std::vector<bool> nz((size_t)n, std::string(name) != "all zero" && std::string(name) != "one non-zero");
        if (std::string(name) == "one zero") nz[(size_t)(n - 3)] = false;
        if (std::string(name) == "one non-zero") nz[(size_t)(2 * n / 3)] = true;
        return nz;
    };
    for (const char* name : {"one zero", "one non-zero", "all non-zero", "all zero"}) {
        const std::vector<bool> nz = pattern(name);
        std::vector<double> re((size_t)n);
        std::vector<std::complex<double>> z((size_t)n);
        for (size_t i = 0; i < re.size(); ++i) {
            const double zero = i % 2 ? 0.0 : -0.0;
            re[i] = !nz[i] ? zero : i % 7 == 1 ? nan : 1.0 + (double)(i % 5);
            z[i] = !nz[i] ? std::complex<double>(zero, -zero) : i % 2 ? std::complex<double>(zero, 2.0) : std::complex<double>(3.0, zero);
        }
        T r0 = tensor(cpu(), re, {rows, cols}, EMBER_FLOAT64), z0;
        const int64_t shape[2] = {rows, cols}, flat[1] = {n};
        EM_OK(ember_tensor_from_data(cpu(), z.data(), EMBER_COMPLEX128, shape, 2, z0.out()));
        for (ember_dtype_t dt : {EMBER_BOOL, EMBER_INT8, EMBER_UINT8, EMBER_INT16, EMBER_UINT16, EMBER_INT32, EMBER_UINT32, EMBER_INT64, EMBER_UINT64,
                                 EMBER_FLOAT16, EMBER_BFLOAT16, EMBER_FLOAT32, EMBER_FLOAT64, EMBER_COMPLEX64, EMBER_COMPLEX128}) {
            T m, mt, ms, line;
            EM_OK(ember_astype(cpu(), dt == EMBER_COMPLEX64 || dt == EMBER_COMPLEX128 ? z0.t : r0.t, dt, m.out()));
            EM_OK(ember_transpose(cpu(), m, mt.out()));
            const int64_t from[2] = {0, 0}, to[2] = {rows, cols}, steps[2] = {1, 2};
            EM_OK(ember_slice(cpu(), m, from, to, steps, 2, ms.out()));
            EM_OK(ember_reshape(cpu(), m, flat, 1, line.out()));
            for (auto [layout, x] : {std::pair<const char*, const ember_tensor_t*>{"", m}, {" transposed", mt}, {" strided", ms}, {" 1-d", line}})
                for (bool all : {true, false}) {
                    const std::string what = std::string(all ? "all " : "any ") + ember_dtype_name(dt) + layout + ", " + name;
                    auto fn = all ? ember_all : ember_any;
                    T got, want;
                    EM_OK(fn(cpu(), x, nullptr, 0, 0, got.out()));
                    EM_OK(fn(ref(), as_ref(x), nullptr, 0, 0, want.out()));
                    expect_close(got, want, 0, 0, what);
                    if (dt == EMBER_BOOL) {  // the min (max) of bools over everything is all (any)
                        auto extreme = all ? ember_min : ember_max;
                        T got_e, want_e;
                        EM_OK(extreme(cpu(), x, nullptr, 0, 0, got_e.out()));
                        EM_OK(extreme(ref(), as_ref(x), nullptr, 0, 0, want_e.out()));
                        expect_close(got_e, want_e, 0, 0, std::string(all ? "min" : "max") + " of bools" + layout + ", " + name);
                    }
                    if (!all) continue;
                    T count_all, want_all;  // count_nonzero over everything (the either-part test for complex)
                    EM_OK(ember_count_nonzero(cpu(), x, nullptr, 0, 0, count_all.out()));
                    EM_OK(ember_count_nonzero(ref(), as_ref(x), nullptr, 0, 0, want_all.out()));
                    expect_close(count_all, want_all, 0, 0, "count_nonzero " + std::string(ember_dtype_name(dt)) + layout + ", " + name);
                    if (x == line.t) continue;
                    for (int64_t axis : {0, 1}) {  // and count_nonzero, whose kernels all/any along an axis use
                        T got0, want0, count, want_count;
                        EM_OK(fn(cpu(), x, &axis, 1, 0, got0.out()));
                        EM_OK(fn(ref(), as_ref(x), &axis, 1, 0, want0.out()));
                        expect_close(got0, want0, 0, 0, what + ", axis " + std::to_string(axis));
                        EM_OK(ember_count_nonzero(cpu(), x, &axis, 1, 0, count.out()));
                        EM_OK(ember_count_nonzero(ref(), as_ref(x), &axis, 1, 0, want_count.out()));
                        expect_close(count, want_count, 0, 0, "count_nonzero " + std::string(ember_dtype_name(dt)) + layout + ", " + name + ", axis " + std::to_string(axis));
                    }
                }
        }
    }
}

// bool comparisons and max/min/argmax/argmin run the byte kernels (bools are
// bytes 0 and 1): exactly the reference's, with a broadcast row, strided and transposed
// operands, and lines that are all false, all true or mixed.
TEST(CpuLarge, BoolComparisonsAndExtremes) {
    NEED_CPU();
    const int64_t rows = 600, cols = 513;
    std::vector<double> v((size_t)(rows * cols)), w((size_t)(rows * cols)), r((size_t)cols);
    for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j) {
            const size_t k = (size_t)(i * cols + j);
            v[k] = i % 3 == 0 ? 0.0 : i % 3 == 1 ? 1.0 : (double)((k * 7919) % 5 == 0);
            w[k] = (double)((k * 104729) % 3 == 0);
        }
    for (int64_t j = 0; j < cols; ++j) r[(size_t)j] = (double)(j % 2);
    T x = tensor(cpu(), v, {rows, cols}, EMBER_BOOL), y = tensor(cpu(), w, {rows, cols}, EMBER_BOOL), row = tensor(cpu(), r, {cols}, EMBER_BOOL), xt, ys;
    EM_OK(ember_matrix_transpose(cpu(), x, xt.out()));
    const int64_t from[2] = {0, 0}, to[2] = {rows, cols}, steps[2] = {1, 2}, to_half[2] = {rows, (cols + 1) / 2};
    T xs, yh;
    EM_OK(ember_slice(cpu(), x, from, to, steps, 2, xs.out()));  // every other column
    EM_OK(ember_slice(cpu(), y, from, to_half, nullptr, 2, yh.out()));
    using Binary = ember_status_t (*)(ember_ctx_t*, const ember_tensor_t*, const ember_tensor_t*, ember_tensor_t**);
    for (auto [name, fn] : {std::pair<const char*, Binary>{"equal", ember_equal}, {"not_equal", ember_not_equal}, {"less", ember_less},
                            {"less_equal", ember_less_equal}, {"greater", ember_greater}, {"greater_equal", ember_greater_equal}}) {
        for (auto [what, a, b] : {std::tuple<const char*, const ember_tensor_t*, const ember_tensor_t*>{"same shape", x, y}, {"broadcast row", x, row},
                                  {"strided", xs, yh}}) {
            T got, want;
            EM_OK(fn(cpu(), a, b, got.out()));
            EM_OK(fn(ref(), as_ref(a), as_ref(b), want.out()));
            EXPECT_EQ(dtype_of(got), EMBER_BOOL) << name;
            expect_close(got, want, 0, 0, std::string(name) + " bool " + what);
        }
    }
    const int64_t ax0 = 0, ax1 = 1;
    for (auto [what, m] : {std::pair<const char*, const ember_tensor_t*>{"", x}, {" transposed", xt}, {" strided", xs}}) {
        for (int64_t axis : {ax0, ax1}) {
            const std::string where = std::string(what) + " axis " + std::to_string(axis);
            T got, want;
            EM_OK(ember_max(cpu(), m, &axis, 1, 0, got.out()));
            EM_OK(ember_max(ref(), as_ref(m), &axis, 1, 0, want.out()));
            expect_close(got, want, 0, 0, "max bool" + where);
            T got2, want2;
            EM_OK(ember_min(cpu(), m, &axis, 1, 0, got2.out()));
            EM_OK(ember_min(ref(), as_ref(m), &axis, 1, 0, want2.out()));
            expect_close(got2, want2, 0, 0, "min bool" + where);
            T got3, want3;
            EM_OK(ember_argmax(cpu(), m, axis, 0, got3.out()));
            EM_OK(ember_argmax(ref(), as_ref(m), axis, 0, want3.out()));
            expect_close(got3, want3, 0, 0, "argmax bool" + where);
            T got4, want4;
            EM_OK(ember_argmin(cpu(), m, axis, 0, got4.out()));
            EM_OK(ember_argmin(ref(), as_ref(m), axis, 0, want4.out()));
            expect_close(got4, want4, 0, 0, "argmin bool" + where);
        }
        T got, want;
        EM_OK(ember_max(cpu(), m, nullptr, 0, 0, got.out()));
        EM_OK(ember_max(ref(), as_ref(m), nullptr, 0, 0, want.out()));
        expect_close(got, want, 0, 0, std::string("max bool, all") + what);
    }
}

// Calls check(a zero of the C type, the dtype) for each of the eight integer dtypes.
template <class F>
void for_each_int_dtype(F&& check) {
    check(int8_t{}, EMBER_INT8);
    check(uint8_t{}, EMBER_UINT8);
    check(int16_t{}, EMBER_INT16);
    check(uint16_t{}, EMBER_UINT16);
    check(int32_t{}, EMBER_INT32);
    check(uint32_t{}, EMBER_UINT32);
    check(int64_t{}, EMBER_INT64);
    check(uint64_t{}, EMBER_UINT64);
}

// argmax/argmin stop scanning a line at a value nothing can replace (an integer type's
// largest or smallest): the first position of that value, as the reference's, with repeats
// of it, in many short lines and in one long line cut into stretches across the pool.
TEST(CpuLarge, ArgExtremesStopAtTheTypesLimits) {
    NEED_CPU();
    auto check = [](auto zero, ember_dtype_t dt) {
        using V = decltype(zero);
        const int64_t n = 300000;
        std::vector<V> v((size_t)n);
        for (int64_t i = 0; i < n; ++i) v[(size_t)i] = (V)((i * 7919) % 97);
        for (int64_t i : {70001, 70002, 250003, 299999}) v[(size_t)i] = std::numeric_limits<V>::max();
        for (int64_t i : {5, 123457, 123458}) v[(size_t)i] = std::numeric_limits<V>::lowest();
        for (int64_t i = 1000; i < n; i += 1000) v[(size_t)i] = i % 3000 ? std::numeric_limits<V>::max() : std::numeric_limits<V>::lowest();
        // The same without limits before 100000: stretches across the pool find them (with
        // limits in its first chunk, a line is answered from that chunk alone).
        std::vector<V> late(v);
        for (int64_t i = 0; i < 100000; ++i) late[(size_t)i] = (V)((i * 7919) % 97);
        const int64_t flat[1] = {n}, lines[2] = {n / 500, 500};
        T x, m, y;
        EM_OK(ember_tensor_from_data(cpu(), v.data(), dt, flat, 1, x.out()));
        EM_OK(ember_tensor_from_data(cpu(), late.data(), dt, flat, 1, y.out()));
        EM_OK(ember_reshape(cpu(), x, lines, 2, m.out()));
        for (auto [what, t, axis] : {std::tuple<const char*, const ember_tensor_t*, int64_t>{"1-d", x, 0}, {"rows of 500", m, 1},
                                     {"1-d, limits late", y, 0}}) {
            T got, want, got2, want2;
            EM_OK(ember_argmax(cpu(), t, axis, 0, got.out()));
            EM_OK(ember_argmax(ref(), as_ref(t), axis, 0, want.out()));
            expect_close(got, want, 0, 0, std::string("argmax ") + ember_dtype_name(dt) + " " + what);
            EM_OK(ember_argmin(cpu(), t, axis, 0, got2.out()));
            EM_OK(ember_argmin(ref(), as_ref(t), axis, 0, want2.out()));
            expect_close(got2, want2, 0, 0, std::string("argmin ") + ember_dtype_name(dt) + " " + what);
        }
    };
    for_each_int_dtype(check);
}

// Integer cumsum/cumprod along a long innermost line (scan.cpp: the line cut into parts
// across the threads, each part scanned from the total of those before it): the reference's
// sequential results exactly, wrapping included. The core casts smaller integers to
// int64/uint64 first, so those two are the kernel's dtypes. Sums of values over the whole
// range wrap often; products of odd values never reach zero, so a part that started from
// the wrong total would show. A 1-d line, two rows, and a view starting one element in.
// (With one thread the kernel leaves such lines to the reference.)
TEST(CpuLarge, LongIntegerScansMatchReferenceExactly) {
    NEED_CPU();
    auto check = [](auto zero, ember_dtype_t dt) {
        using V = decltype(zero);
        const int64_t n = 300003;
        std::mt19937_64 gen(17);
        std::vector<V> sum_values((size_t)n * 2), odd_values((size_t)n * 2);
        for (size_t i = 0; i < sum_values.size(); ++i) {
            sum_values[i] = (V)gen();
            odd_values[i] = (V)(gen() | 1);
        }
        for (auto [op, values] : {std::pair<const char*, std::vector<V>*>{"cumsum", &sum_values}, {"cumprod", &odd_values}}) {
            auto fn = std::string(op) == "cumsum" ? ember_cumsum : ember_cumprod;
            const int64_t flat[1] = {2 * n}, rows[2] = {2, n}, from[1] = {1}, to[1] = {2 * n}, step[1] = {1};
            T x, m, tail;
            EM_OK(ember_tensor_from_data(cpu(), values->data(), dt, flat, 1, x.out()));
            EM_OK(ember_reshape(cpu(), x, rows, 2, m.out()));
            EM_OK(ember_slice(cpu(), x, from, to, step, 1, tail.out()));
            for (auto [what, t, axis] : {std::tuple<const char*, const ember_tensor_t*, int64_t>{"1-d", x, 0}, {"two rows", m, 1}, {"view from 1", tail, 0}}) {
                T got, want;
                EM_OK(fn(cpu(), t, axis, got.out()));
                EM_OK(fn(ref(), as_ref(t), axis, want.out()));
                EXPECT_EQ(raw_bytes(got), raw_bytes(want)) << op << " " << ember_dtype_name(dt) << " " << what;
            }
        }
    };
    check(int64_t{}, EMBER_INT64);
    check(uint64_t{}, EMBER_UINT64);
}

// Integer products (reduce.cpp: the row and column kernels multiply (u)int64 lanes, which
// wrap; the core widens int32 first): the reference's bits in every layout, the full
// reduction split into chunks across the pool, short columns (on the stack), long ones
// (partial rows combined), rows, a transposed matrix and a middle axis. Odd values over the
// whole range never reach zero, so a wrong grouping, start value or missed element shows.
TEST(CpuLarge, IntegerProductsMatchReferenceExactly) {
    NEED_CPU();
    auto check = [](auto zero, ember_dtype_t dt) {
        using V = decltype(zero);
        const int64_t rows = 1237, cols = 1000;
        std::mt19937_64 gen(31);
        std::vector<V> odd((size_t)(rows * cols));
        for (auto& v : odd) v = (V)(gen() | 1);
        const int64_t shape[2] = {rows, cols}, short_shape[2] = {3, rows * cols / 3}, s3[3] = {rows, 10, 100};
        T m, mt, m3, few;
        EM_OK(ember_tensor_from_data(cpu(), odd.data(), dt, shape, 2, m.out()));
        EM_OK(ember_transpose(cpu(), m, mt.out()));
        EM_OK(ember_reshape(cpu(), m, s3, 3, m3.out()));
        T flat, head;  // the first 3 * (n / 3) elements as 3 rows
        const int64_t n_all[1] = {rows * cols};
        EM_OK(ember_reshape(cpu(), m, n_all, 1, flat.out()));
        const int64_t from[1] = {0}, to[1] = {3 * (rows * cols / 3)}, step[1] = {1};
        EM_OK(ember_slice(cpu(), flat, from, to, step, 1, head.out()));
        EM_OK(ember_reshape(cpu(), head, short_shape, 2, few.out()));
        const int64_t ax0[1] = {0}, ax1[1] = {1};
        struct {
            const char* layout;
            const ember_tensor_t* x;
            const int64_t* axes;
            int naxes;
        } cases[] = {{"all", m, nullptr, 0},          {"rows", m, ax1, 1},          {"columns", m, ax0, 1}, {"three-row columns", few, ax0, 1},
                     {"transposed-axis0", mt, ax0, 1}, {"3d-middle", m3, ax1, 1}};
        for (auto& c : cases) {
            T got, want;
            EM_OK(ember_prod(cpu(), c.x, c.axes, c.naxes, 0, got.out()));
            EM_OK(ember_prod(ref(), as_ref(c.x), c.axes, c.naxes, 0, want.out()));
            EXPECT_EQ(raw_bytes(got), raw_bytes(want)) << "prod " << ember_dtype_name(dt) << " " << c.layout;
        }
    };
    check(int64_t{}, EMBER_INT64);
    check(uint64_t{}, EMBER_UINT64);
    check(int32_t{}, EMBER_INT32);
}

// Sums of bools and integers narrower than 64 bits, which the cpu backend takes as they are
// (EMBER_KERNEL_WIDENS_INPUT) and widens itself: bit for bit the reference's (u)int64 sums of
// values over each type's whole range, in the row, column (a few rows, and blocks of many),
// 3-d, transposed and stepped layouts, and in those its kernel widens into a copy first (a
// flipped axis, a broadcast, empty and 0-d tensors). Then rows of 6.3 million 16-bit values
// at an extreme: the kernel's 32-bit lanes fold into the total every 2^16 adds, and a longer
// stretch overflows them (CpuBackend.NarrowIntegerSumsOnOneThreadAndEveryIsa runs this on
// one thread, where a whole row is one kernel call, and with the AVX2 and SSE2 kernels).
TEST(CpuLarge, NarrowIntegerSumsMatchReferenceExactly) {
    NEED_CPU();
    auto expect_same_sum = [](const ember_tensor_t* x, const int64_t* axes, int naxes, const std::string& what) {
        T got, want;
        EM_OK(ember_sum(cpu(), x, axes, naxes, 0, got.out()));
        EM_OK(ember_sum(ref(), as_ref(x), axes, naxes, 0, want.out()));
        ember_dtype_t got_dtype, want_dtype;
        EM_OK(ember_tensor_dtype(got, &got_dtype));
        EM_OK(ember_tensor_dtype(want, &want_dtype));
        EXPECT_EQ(got_dtype, want_dtype) << what;
        EXPECT_EQ(raw_bytes(got), raw_bytes(want)) << what;
    };
    auto check = [&](auto zero, ember_dtype_t dt) {
        using V = decltype(zero);
        const int64_t rows = 1237, cols = 1000;
        std::mt19937_64 gen(37);
        std::vector<V> data((size_t)(rows * cols));
        for (auto& v : data) v = dt == EMBER_BOOL ? (V)(gen() & 1) : (V)gen();
        const int64_t shape[2] = {rows, cols}, s3[3] = {rows, 10, 100}, few_shape[2] = {3, rows * cols / 3}, wide_shape[2] = {64, cols};
        const int64_t n_all[1] = {rows * cols}, one_end[1] = {1};
        T m, mt, m3, flat, head, few, stepped, flipped, row0, wide, empty, one, scalar;
        EM_OK(ember_tensor_from_data(cpu(), data.data(), dt, shape, 2, m.out()));
        EM_OK(ember_transpose(cpu(), m, mt.out()));
        EM_OK(ember_reshape(cpu(), m, s3, 3, m3.out()));
        EM_OK(ember_reshape(cpu(), m, n_all, 1, flat.out()));
        const int64_t from1[1] = {0}, to1[1] = {3 * (rows * cols / 3)}, step1[1] = {1};
        EM_OK(ember_slice(cpu(), flat, from1, to1, step1, 1, head.out()));
        EM_OK(ember_reshape(cpu(), head, few_shape, 2, few.out()));
        const int64_t from[2] = {1, 2}, to[2] = {rows, cols}, step[2] = {3, 2};
        EM_OK(ember_slice(cpu(), m, from, to, step, 2, stepped.out()));
        const int64_t ax0[1] = {0}, ax1[1] = {1}, ax01[2] = {0, 1};
        EM_OK(ember_flip(cpu(), m, ax1, 1, flipped.out()));
        const int64_t first[2] = {0, 0}, first_end[2] = {1, cols}, unit[2] = {1, 1};
        EM_OK(ember_slice(cpu(), m, first, first_end, unit, 2, row0.out()));
        EM_OK(ember_broadcast_to(cpu(), row0, wide_shape, 2, wide.out()));
        const int64_t none_end[2] = {0, cols};
        EM_OK(ember_slice(cpu(), m, first, none_end, unit, 2, empty.out()));
        EM_OK(ember_slice(cpu(), flat, from1, one_end, step1, 1, one.out()));
        EM_OK(ember_reshape(cpu(), one, nullptr, 0, scalar.out()));
        struct {
            const char* layout;
            const ember_tensor_t* x;
            const int64_t* axes;
            int naxes;
        } cases[] = {{"all", m, nullptr, 0},           {"rows", m, ax1, 1},
                     {"columns", m, ax0, 1},           {"three-row columns", few, ax0, 1},
                     {"three long rows", few, ax1, 1}, {"transposed-axis0", mt, ax0, 1},
                     {"3d-middle", m3, ax1, 1},        {"3d-outer-two", m3, ax01, 2},
                     {"stepped-all", stepped, nullptr, 0}, {"stepped-columns", stepped, ax0, 1},
                     {"flipped-rows", flipped, ax1, 1}, {"flipped-columns", flipped, ax0, 1},
                     {"broadcast-columns", wide, ax0, 1}, {"broadcast-rows", wide, ax1, 1},
                     {"empty-columns", empty, ax0, 1}, {"empty-all", empty, nullptr, 0},
                     {"0-d", scalar, nullptr, 0}};
        for (auto& c : cases) expect_same_sum(c.x, c.axes, c.naxes, std::string("sum ") + ember_dtype_name(dt) + " " + c.layout);
    };
    check(uint8_t{}, EMBER_BOOL);
    check(int8_t{}, EMBER_INT8);
    check(int16_t{}, EMBER_INT16);
    check(int32_t{}, EMBER_INT32);
    check(uint8_t{}, EMBER_UINT8);
    check(uint16_t{}, EMBER_UINT16);
    check(uint32_t{}, EMBER_UINT32);
    auto long_row = [&](auto extreme, ember_dtype_t dt) {
        const int64_t n = (int64_t(1) << 22) + (int64_t(1) << 21) + 5;
        std::vector<decltype(extreme)> row((size_t)n, extreme);
        T x;
        EM_OK(ember_tensor_from_data(cpu(), row.data(), dt, &n, 1, x.out()));
        expect_same_sum(x, nullptr, 0, std::string("long row of ") + ember_dtype_name(dt));
    };
    long_row(std::numeric_limits<int16_t>::min(), EMBER_INT16);
    long_row(std::numeric_limits<uint16_t>::max(), EMBER_UINT16);
}

// The widening sums are per-ISA functions: every ISA, and one thread (a whole row per call).
TEST(CpuBackend, NarrowIntegerSumsOnOneThreadAndEveryIsa) {
    NEED_CPU();
    NEED_CHILD_PROCESSES();
    const char* filter = "CpuLarge.NarrowIntegerSumsMatchReferenceExactly";
    EXPECT_EQ(run_child(filter, {{"EMBER_NUM_THREADS", "1"}}), 0);
    for (const char* isa : {"avx2", "generic"}) EXPECT_EQ(run_child(filter, {{"EMBER_CPU_ISA", isa}}), 0) << isa;
}

// argmax/argmin's row and column kernels are per-ISA functions (simd_argreduce.hpp).
TEST(CpuBackend, ArgExtremesOnEveryIsa) {
    NEED_CPU();
    NEED_CHILD_PROCESSES();
    const char* filter = "CpuLarge.ArgExtremes*";
    for (const char* isa : {"avx2", "generic"}) EXPECT_EQ(run_child(filter, {{"EMBER_CPU_ISA", isa}}), 0) << isa;
}

// float32/float64 floor_divide and remainder (fmod exact through float64 or through one fused
// multiply-add, then the reference's formula in the operands' type; lanes with a quotient of
// 2^29 (2^52) or more, a zero or non-finite operand, or a float64 quotient rounded across an
// integer take libm's fmod), float16/bfloat16 staged through float32: bit for bit the
// reference's, on magnitudes from 1e-8 to 1e12, quotients within a last place of integers,
// every pair of special values (zeros of both signs, infinities, NaN, subnormals, 2^29, 2^52,
// the largest floats), a scalar on either side, a broadcast row, a strided operand, and in
// place into either operand.
TEST(CpuLarge, FloatFloorDivideAndRemainderExact) {
    NEED_CPU();
    const int64_t rows = 300, cols = 515, n = rows * cols;
    const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
    const double specials[] = {0.0, -0.0, inf, -inf, nan, 1, -1, 3, -3, 0.5, 1e-45, -1e-45, 3e38, -3e38, 7, 536870912.0, 1073741824.0, 1.5,
                               4503599627370496.0, 9007199254740992.0, 1e300, -1e-310, 5e-324};
    const size_t ns = sizeof specials / sizeof specials[0];
    std::mt19937_64 rng(29);
    std::uniform_real_distribution<double> exponent(-8, 12), unit(-1, 1);
    std::vector<double> a((size_t)n), b((size_t)n), b64((size_t)n), r((size_t)cols);
    for (size_t i = 0; i < a.size(); ++i) {
        a[i] = unit(rng) * std::pow(10.0, exponent(rng));
        b[i] = b64[i] = unit(rng) * std::pow(10.0, exponent(rng));
        if (i < ns * ns) {
            a[i] = specials[i / ns], b[i] = b64[i] = specials[i % ns];
        } else if (i % 5 == 1) {  // quotients near integers, a float32's and a float64's last place away
            b[i] = (double)(float)a[i] * (i % 2 ? 0.9999999 : 1.0000001) / (double)(i % 7 + 1);
            b64[i] = a[i] / (double)(i % 7 + 1);
            for (size_t k = 0; k < i % 3; ++k) b64[i] = std::nextafter(b64[i], i % 2 ? inf : -inf);
        }
    }
    for (size_t j = 0; j < r.size(); ++j) r[j] = j < ns ? specials[j] : unit(rng) * 100;
    using Binary = ember_status_t (*)(ember_ctx_t*, const ember_tensor_t*, const ember_tensor_t*, ember_tensor_t**);
    for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_FLOAT16, EMBER_BFLOAT16}) {
        T x = tensor(cpu(), a, {rows, cols}, dt), y = tensor(cpu(), dt == EMBER_FLOAT64 ? b64 : b, {rows, cols}, dt), row = tensor(cpu(), r, {cols}, dt);
        T seven = tensor(cpu(), std::vector<double>{-7.0}, {}, dt), xs, ys;
        const int64_t from[2] = {0, 0}, to[2] = {rows, cols}, steps[2] = {1, 2}, to_half[2] = {rows, (cols + 1) / 2};
        EM_OK(ember_slice(cpu(), x, from, to, steps, 2, xs.out()));
        EM_OK(ember_slice(cpu(), y, from, to_half, nullptr, 2, ys.out()));
        for (auto [name, fn] : {std::pair<const char*, Binary>{"floor_divide", ember_floor_divide}, {"remainder", ember_remainder}}) {
            for (auto [what, p, q] : {std::tuple<const char*, const ember_tensor_t*, const ember_tensor_t*>{"arrays", x, y}, {"by a scalar", x, seven},
                                      {"of a scalar", seven, y}, {"by a row", x, row}, {"strided", xs, ys}}) {
                T got, want;
                EM_OK(fn(cpu(), p, q, got.out()));
                EM_OK(fn(ref(), as_ref(p), as_ref(q), want.out()));
                EXPECT_EQ(raw_bytes(got), raw_bytes(want)) << name << " " << what << " " << ember_dtype_name(dt);
            }
            // In place, into a and into b (the kernel must read lanes it falls back on before
            // it writes over them): the special pairs are in every 256-element block's reach.
            for (int into_b : {0, 1}) {
                T p, q, want;
                EM_OK(ember_astype(cpu(), x, dt, p.out()));  // copies
                EM_OK(ember_astype(cpu(), y, dt, q.out()));
                EM_OK(fn(ref(), as_ref(x), as_ref(y), want.out()));
                const ember_tensor_t* operands[2] = {p, q};
                EM_OK(ember_elementwise_into(cpu(), name, operands, 2, into_b ? q.t : p.t));
                EXPECT_EQ(raw_bytes(into_b ? q.t : p.t), raw_bytes(want)) << name << " in place into " << (into_b ? "b " : "a ") << ember_dtype_name(dt);
            }
        }
    }
}

// Integer powers (a vector kernel: squaring with wrapping products, as many steps as the
// widest exponent in the vector has bits) exactly as the reference: bases 0, +-1, +-2 and the
// extremes, exponents 0 to 9, negative ones, and full-range ones (up to 64 steps);
// a broadcast scalar and a broadcast row as exponents, a strided base.
TEST(CpuLarge, IntegerPowersAsReference) {
    NEED_CPU();
    auto check = [](auto zero, ember_dtype_t dt) {
        using V = decltype(zero);
        using L = std::numeric_limits<V>;
        const int64_t rows = 257, cols = 259;
        std::vector<V> a((size_t)(rows * cols)), b(a.size()), r((size_t)cols);
        std::mt19937_64 rng(23);
        const V bases[] = {V(0), V(1), V(V(0) - 1), V(2), V(V(0) - 2), L::max(), L::lowest(), V(3)};
        for (size_t i = 0; i < a.size(); ++i) {
            a[i] = i % 5 == 0 ? bases[(i / 5) % 8] : (V)rng();
            b[i] = i % 3 == 0 ? (V)rng() : i % 3 == 1 ? (V)(rng() % 10) : (V)((V)(rng() % 10) - (V)(L::is_signed ? 5 : 0));
        }
        for (int64_t j = 0; j < cols; ++j) r[(size_t)j] = (V)(j % 13 - (L::is_signed ? 3 : 0));
        const int64_t shape[2] = {rows, cols}, row_shape[1] = {cols};
        const V three = V(3);
        T x, y, row, scalar, xs, ys;
        EM_OK(ember_tensor_from_data(cpu(), a.data(), dt, shape, 2, x.out()));
        EM_OK(ember_tensor_from_data(cpu(), b.data(), dt, shape, 2, y.out()));
        EM_OK(ember_tensor_from_data(cpu(), r.data(), dt, row_shape, 1, row.out()));
        EM_OK(ember_tensor_from_data(cpu(), &three, dt, nullptr, 0, scalar.out()));
        const int64_t from[2] = {0, 0}, to[2] = {rows, cols}, steps[2] = {1, 2}, to_half[2] = {rows, (cols + 1) / 2};
        EM_OK(ember_slice(cpu(), x, from, to, steps, 2, xs.out()));
        EM_OK(ember_slice(cpu(), y, from, to_half, nullptr, 2, ys.out()));
        for (auto [what, p, q] : {std::tuple<const char*, const ember_tensor_t*, const ember_tensor_t*>{"arrays", x, y}, {"by a scalar", x, scalar},
                                  {"of a scalar", scalar, y}, {"by a row", x, row}, {"strided", xs, ys}}) {
            T got, want;
            EM_OK(ember_pow(cpu(), p, q, got.out()));
            EM_OK(ember_pow(ref(), as_ref(p), as_ref(q), want.out()));
            expect_close(got, want, 0, 0, std::string("pow ") + ember_dtype_name(dt) + " " + what);
        }
    };
    for_each_int_dtype(check);
}

// Integer floor_divide and remainder (vector kernels: truncated quotients through float or
// double, then rounded down; by one divisor, a multiplication by its reciprocal) exactly as
// the reference: every sign combination, divisors 0 and -1, the type's extremes (the
// smallest divided by -1 wraps), broadcast scalars (each special value, small and random
// ones), a broadcast row and a broadcast column as divisors, a strided dividend; lengths
// that leave vector tails. 64-bit dividends around 2^50, where division by one divisor
// stops multiplying, and 2^53; both operands under 2^51.
TEST(CpuLarge, IntegerFloorDivideAndRemainderExact) {
    NEED_CPU();
    auto check = [](auto zero, ember_dtype_t dt) {
        using V = decltype(zero);
        using L = std::numeric_limits<V>;
        const int64_t rows = 301, cols = 257;
        std::vector<V> a((size_t)(rows * cols)), b(a.size()), r((size_t)cols);
        std::mt19937_64 rng(17);
        const V specials[] = {V(0), V(1), V(V(0) - 1), L::max(), L::lowest(), V(L::max() - 1), V(L::lowest() + 1), V(7), V(V(0) - 7)};
        for (size_t i = 0; i < a.size(); ++i) {
            a[i] = i % 11 == 0 ? specials[(i / 11) % 9] : (V)rng();
            b[i] = i % 13 == 0 ? specials[(i / 13) % 9] : i % 3 == 0 ? (V)(rng() % 19) - (V)(L::is_signed ? 9 : 0) : (V)rng();
            // 64-bit lanes divide through double where a whole vector lies under 2^53: rows
            // 100-149 hold such dividends (to +-(2^53 - 1)), rows 150-199 odd ones just above
            // 2^53, which double cannot hold; divisors up to 2^24 there.
            const size_t row = i / (size_t)cols;
            const uint64_t bits = rng();
            const bool negative = L::is_signed && (bits & 1);
            if (row >= 100 && row < 150) a[i] = (V)(negative ? -(int64_t)(bits >> 11) : (int64_t)(bits >> 11));
            if (row >= 150 && row < 200) a[i] = (V)((negative ? -1 : 1) * (int64_t)((uint64_t(1) << 53) + ((bits >> 12) % 1000) * 2 + 1));
            if (row >= 100 && row < 200 && i % 13 != 0) b[i] = (V)(rng() >> 40) + (V)(i % 2 && L::is_signed ? -3 : 3);
        }
        a[100 * cols] = (V)((int64_t(1) << 53) - 1), a[100 * cols + 1] = (V)(1 - (int64_t(1) << 53));
        // Row 200: dividends just below 2^50 and at 2^50 (64-bit lanes multiply below it);
        // rows 201-208: |a| < 2^40, whole vectors that take the multiplication.
        for (int64_t i = 0; i < 66; ++i)
            a[(size_t)(200 * cols + i)] = (V)((i % 2 && L::is_signed ? -1 : 1) * ((int64_t(1) << 50) - 32 + i / 2));
        for (size_t i = 201 * (size_t)cols; i < 209 * (size_t)cols; ++i)
            a[i] = (V)((L::is_signed && (i & 1) ? -1 : 1) * (int64_t)(rng() >> 24));
        // Row 209: d * k for the scalar divisors 3, 49, 103 and -49: integral quotients, some
        // of which (49 / 49 in double) a reciprocal rounded to nearest brings out one too small.
        for (int64_t j = 0; j < cols; ++j) {
            const int64_t factor[4] = {3, 49, 103, L::is_signed ? -49 : 49};
            a[(size_t)(209 * cols + j)] = (V)(factor[j % 4] * (int64_t(1) << ((j / 4) % 44)));
        }
        // Rows 210-219: dividends and divisors both under 2^51 in magnitude, divisors of every
        // size (below AVX-512DQ such 64-bit vectors divide through the bits of 2^52 + 2^51),
        // and 2^51 - 1, the largest that does.
        for (size_t i = 210 * (size_t)cols; i < 220 * (size_t)cols; ++i) {
            const uint64_t bits = rng();
            const int64_t dividend = (int64_t)(rng() >> 13), divisor = (int64_t)((rng() >> (13 + bits % 48)) | 1);
            a[i] = (V)(L::is_signed && (bits & 64) ? -dividend : dividend);
            b[i] = (V)(L::is_signed && (bits & 128) ? -divisor : divisor);
        }
        const int64_t top = (int64_t(1) << 51) - 1;
        for (size_t k = 0; k < 8; ++k) {
            a[210 * (size_t)cols + k] = (V)(k % 2 && L::is_signed ? -top : top);
            b[210 * (size_t)cols + k] = (V)(k < 4 ? 3 : k < 6 ? top : (V)(L::is_signed ? -7 : 7));
        }
        for (int64_t j = 0; j < cols; ++j) r[(size_t)j] = j % 9 == 0 ? specials[(j / 9) % 9] : (V)(rng() % 100);
        std::vector<V> column((size_t)rows);
        for (int64_t i = 0; i < rows; ++i) column[(size_t)i] = i % 4 == 0 ? specials[(i / 4) % 9] : (V)rng();
        const int64_t shape[2] = {rows, cols}, row_shape[1] = {cols}, column_shape[2] = {rows, 1};
        T x, y, row, col, xs;
        EM_OK(ember_tensor_from_data(cpu(), a.data(), dt, shape, 2, x.out()));
        EM_OK(ember_tensor_from_data(cpu(), b.data(), dt, shape, 2, y.out()));
        EM_OK(ember_tensor_from_data(cpu(), r.data(), dt, row_shape, 1, row.out()));
        EM_OK(ember_tensor_from_data(cpu(), column.data(), dt, column_shape, 2, col.out()));
        std::vector<V> divisors(std::begin(specials), std::end(specials));
        for (V extra : {V(2), V(3), V(100), V(L::max() / 3), V(V(0) - 3), (V)rng(), (V)rng(), V(49), V(103), V(V(0) - 49)}) divisors.push_back(extra);
        std::vector<T> scalars(divisors.size());
        for (size_t k = 0; k < divisors.size(); ++k) EM_OK(ember_tensor_from_data(cpu(), &divisors[k], dt, nullptr, 0, scalars[k].out()));
        const T& scalar = scalars[8];  // 7 or -7
        const int64_t from[2] = {0, 0}, to[2] = {rows, cols}, steps[2] = {1, 2};
        EM_OK(ember_slice(cpu(), x, from, to, steps, 2, xs.out()));
        T ys;
        const int64_t to_half[2] = {rows, (cols + 1) / 2};
        EM_OK(ember_slice(cpu(), y, from, to_half, nullptr, 2, ys.out()));
        using Binary = ember_status_t (*)(ember_ctx_t*, const ember_tensor_t*, const ember_tensor_t*, ember_tensor_t**);
        for (auto [name, fn] : {std::pair<const char*, Binary>{"floor_divide", ember_floor_divide}, {"remainder", ember_remainder}})
        {
            std::vector<std::tuple<std::string, const ember_tensor_t*, const ember_tensor_t*>> cases = {
                {"same shape", x, y}, {"row", x, row}, {"column", x, col}, {"scalar dividend", scalar, y}, {"strided", xs, ys}};
            for (size_t k = 0; k < divisors.size(); ++k)
                cases.emplace_back("by the scalar " + std::to_string(+divisors[k]), x, scalars[k]);
            cases.emplace_back("strided by a scalar", xs, scalars[9]);
            for (const auto& [what, p, q] : cases) {
                T got, want;
                EM_OK(fn(cpu(), p, q, got.out()));
                EM_OK(fn(ref(), as_ref(p), as_ref(q), want.out()));
                expect_close(got, want, 0, 0, std::string(name) + " " + ember_dtype_name(dt) + " " + what);
            }
        }
    };
    for_each_int_dtype(check);
}

// 8- and 16-bit floor_divide and remainder by one divisor (simd_binary_ops.hpp
// floor_div_or_rem_by_small and _by_16, a multiply-high per lane): every dividend, against
// floor division written out here, for the small divisors, powers of two and their
// neighbours, and the extremes.
TEST(CpuLarge, SmallIntDivisionByScalarEveryDividend) {
    NEED_CPU();
    auto check = [](auto zero, ember_dtype_t dt) {
        using V = decltype(zero);
        using L = std::numeric_limits<V>;
        std::vector<V> all(65536);
        for (size_t i = 0; i < all.size(); ++i) all[i] = (V)(L::lowest() + (int64_t)i);
        const int64_t n = (int64_t)all.size();
        T x;
        EM_OK(ember_tensor_from_data(cpu(), all.data(), dt, &n, 1, x.out()));
        std::vector<int64_t> divisors;
        for (int64_t d = -70; d <= 70; ++d) divisors.push_back(d);
        for (int p = 7; p <= 16; ++p)
            for (int64_t e : {-1, 0, 1}) divisors.push_back(((int64_t)1 << p) + e), divisors.push_back(-((int64_t)1 << p) - e);
        for (int64_t d : {1000, 12345, -12345, 32767, -32767, -32768, 40000, 65535}) divisors.push_back(d);
        for (int64_t d : divisors) {
            if (d < (int64_t)L::lowest() || d > (int64_t)L::max()) continue;
            const V dv = (V)d;
            T scalar, q, r;
            EM_OK(ember_tensor_from_data(cpu(), &dv, dt, nullptr, 0, scalar.out()));
            EM_OK(ember_floor_divide(cpu(), x, scalar, q.out()));
            EM_OK(ember_remainder(cpu(), x, scalar, r.out()));
            std::vector<V> got_q((size_t)n), got_r((size_t)n);
            EM_OK(ember_tensor_read(q, got_q.data(), got_q.size() * sizeof(V)));
            EM_OK(ember_tensor_read(r, got_r.data(), got_r.size() * sizeof(V)));
            int64_t wrong = 0, first = -1;
            for (int64_t i = 0; i < n; ++i) {
                const int64_t a = (int64_t)all[(size_t)i];
                int64_t want_q = 0, want_r = 0;  // the reference's answers for d = 0; d = -1 wraps
                if (d != 0) {
                    want_q = a / d;
                    if (a % d != 0 && ((a < 0) != (d < 0))) --want_q;
                    want_r = a - want_q * d;
                }
                if (got_q[(size_t)i] != (V)want_q || got_r[(size_t)i] != (V)want_r) {
                    if (first < 0) first = a;
                    ++wrong;
                }
            }
            EXPECT_EQ(wrong, 0) << ember_dtype_name(dt) << " by " << d << ": first wrong dividend " << first;
        }
    };
    check(int16_t(0), EMBER_INT16);
    check(uint16_t(0), EMBER_UINT16);
}

// A scalar -0.0 keeps its sign when the vector kernels broadcast it (a splat built as a zero
// vector plus the scalar made it +0.0: 2 * -0.0 came out +0.0), and max/min reductions keep
// the first of equal zeros and the last NaN as the reference does; bit for bit, every float dtype, the scalar
// on either side, lengths with vector tails, contiguous and stepped operands.
TEST(CpuLarge, NegativeZeroScalarsKeepTheirSign) {
    NEED_CPU();
    std::vector<double> v(4099);
    for (size_t i = 0; i < v.size(); ++i) v[i] = i % 4 == 0 ? 0.0 : i % 4 == 1 ? -0.0 : i % 4 == 2 ? 1.5 * (double)i : -0.25 * (double)i;
    // NaNs of both signs in the vector body and the tail, in x and x[1::3]: maximum/minimum
    // give the reference's default NaN, the other ops the operand's.
    v[7] = -std::numeric_limits<double>::quiet_NaN(), v[4093] = std::numeric_limits<double>::quiet_NaN(), v[4097] = -std::numeric_limits<double>::quiet_NaN();
    // Rows of 100 that lead with a non-zero, so the vector lanes meet the zeros of both signs
    // in another order than the line's; NaNs of both signs (the last one wins).
    const double nan = std::numeric_limits<double>::quiet_NaN();
    std::vector<double> zeros(500);
    for (size_t i = 0; i < zeros.size(); ++i) zeros[i] = i % 2 ? 0.0 : -0.0;
    zeros[0] = -1, zeros[1] = 0.0, zeros[100] = 1, zeros[101] = -0.0, zeros[200] = -1, zeros[201] = -0.0;
    zeros[303] = nan, zeros[350] = -nan, zeros[400] = -nan, zeros[470] = nan;
    using Binary = ember_status_t (*)(ember_ctx_t*, const ember_tensor_t*, const ember_tensor_t*, ember_tensor_t**);
    for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_FLOAT16, EMBER_BFLOAT16}) {
        const std::string dn = ember_dtype_name(dt);
        T x = tensor(cpu(), v, {(int64_t)v.size()}, dt), z = tensor(cpu(), std::vector<double>{-0.0}, {}, dt), stepped;
        const int64_t from[1] = {1}, to[1] = {(int64_t)v.size()}, step[1] = {3};  // gathered into tiles first
        EM_OK(ember_slice(cpu(), x, from, to, step, 1, stepped.out()));
        for (auto [name, fn] : {std::pair<const char*, Binary>{"add", ember_add}, {"subtract", ember_subtract}, {"multiply", ember_multiply},
                                {"divide", ember_divide}, {"maximum", ember_maximum}, {"minimum", ember_minimum}, {"copysign", ember_copysign}}) {
            for (auto [layout, operand] : {std::pair<const char*, const ember_tensor_t*>{"x", x}, {"x[1::3]", stepped}})
                for (bool scalar_first : {false, true}) {
                    const ember_tensor_t* a = scalar_first ? z.t : operand;
                    const ember_tensor_t* b = scalar_first ? operand : z.t;
                    T got, want;
                    EM_OK(fn(cpu(), a, b, got.out()));
                    EM_OK(fn(ref(), as_ref(a), as_ref(b), want.out()));
                    EXPECT_EQ(raw_bytes(got), raw_bytes(want)) << name << (scalar_first ? " -0.0 with " : " with -0.0 ") << layout << " " << dn;
                }
        }
        // Reduced through a transpose, memory order meets -0.0 first, the logical order +0.0.
        T zmax = tensor(cpu(), std::vector<double>{-1, -0.0, -0.0, 0.0, 0.0, 0.0}, {2, 3}, dt), zmin = tensor(cpu(), std::vector<double>{1, -0.0, -0.0, 0.0, 0.0, 0.0}, {2, 3}, dt);
        T zmax_t, zmin_t;
        EM_OK(ember_matrix_transpose(cpu(), zmax, zmax_t.out()));
        EM_OK(ember_matrix_transpose(cpu(), zmin, zmin_t.out()));
        for (auto [name, fn, v] : {std::tuple<const char*, ember_status_t (*)(ember_ctx_t*, const ember_tensor_t*, const int64_t*, int, int, ember_tensor_t**), const ember_tensor_t*>{
                                       "max", ember_max, zmax_t}, {"min", ember_min, zmin_t}}) {
            T got, want;
            EM_OK(fn(cpu(), v, nullptr, 0, 0, got.out()));
            EM_OK(fn(ref(), as_ref(v), nullptr, 0, 0, want.out()));
            EXPECT_EQ(raw_bytes(got), raw_bytes(want)) << name << " of a transposed (3, 2) " << dn;
        }
        T zs = tensor(cpu(), zeros, {5, 100}, dt);
        const int64_t ax1 = 1;
        using Red = ember_status_t (*)(ember_ctx_t*, const ember_tensor_t*, const int64_t*, int, int, ember_tensor_t**);
        for (auto [name, fn] : {std::pair<const char*, Red>{"max", ember_max}, {"min", ember_min}}) {
            for (auto [axes, naxes] : {std::pair<const int64_t*, int>{nullptr, 0}, {&ax1, 1}}) {
                T got, want;
                EM_OK(fn(cpu(), zs, axes, naxes, 0, got.out()));
                EM_OK(fn(ref(), as_ref(zs), axes, naxes, 0, want.out()));
                EXPECT_EQ(raw_bytes(got), raw_bytes(want)) << name << " of zeros, " << naxes << " axes, " << dn;
            }
        }
    }
}

// Equal values, signed zeros included (NaN where the expectation has NaN).
void same_bits(const ember_tensor_t* got, const ember_tensor_t* want, const std::string& what) {
    expect_close(got, want, 0, 0, what);
    auto g = host_values(got), w = host_values(want);
    for (size_t i = 0; i < std::min(g.size(), w.size()); ++i)
        if (std::signbit(g[i]) != std::signbit(w[i]) && !std::isnan(w[i])) {
            ADD_FAILURE() << what << ": sign of " << g[i] << " at " << i;
            return;
        }
}

// clip's one-pass kernel against the reference's composite (maximum, then minimum), bit for
// bit: NaN in x and in a bound, zeros of both signs, one bound missing, weak bounds, views,
// an output large enough for streaming stores; bounds that are not 0-d or that promote x
// take the composite on cpu too.
TEST(CpuLarge, ClipMatchesCompositeExactly) {
    NEED_CPU();
    const double nan = std::numeric_limits<double>::quiet_NaN();
    auto d = randf(1 << 19, -3, 3, 41);
    for (size_t i = 0; i < d.size(); i += 101) d[i] = i % 2 ? -0.0f : (float)nan;
    T w_lo, w_hi, w_nan;
    EM_OK(ember_scalar_f64(cpu(), -1.25, w_lo.out()));
    EM_OK(ember_scalar_f64(cpu(), 0.0, w_hi.out()));
    EM_OK(ember_scalar_f64(cpu(), nan, w_nan.out()));
    for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_FLOAT16, EMBER_BFLOAT16, EMBER_INT8, EMBER_UINT8, EMBER_INT16, EMBER_INT32,
                             EMBER_INT64, EMBER_UINT64}) {
        const bool is_float = dt == EMBER_FLOAT32 || dt == EMBER_FLOAT64 || dt == EMBER_FLOAT16 || dt == EMBER_BFLOAT16;
        T x0 = tensor(cpu(), d, {1 << 10, 1 << 9}, EMBER_FLOAT32), x, xt, xs, lo, hi, lo1;
        EM_OK(ember_astype(cpu(), x0, dt, x.out()));
        EM_OK(ember_transpose(cpu(), x, xt.out()));
        const int64_t from[2] = {0, 511}, to[2] = {1 << 10, 0}, steps[2] = {3, -2};
        EM_OK(ember_slice(cpu(), x, from, to, steps, 2, xs.out()));
        lo = tensor(cpu(), std::vector<double>{-1.5}, {}, dt);
        hi = tensor(cpu(), std::vector<double>{2.0}, {}, dt);
        lo1 = tensor(cpu(), std::vector<double>{-1.5}, {1}, dt);  // not 0-d: the composite
        struct {
            const char* what;
            const ember_tensor_t *x, *lo, *hi;
        } cases[] = {{"both", x, lo, hi},          {"lo only", x, lo, nullptr},     {"hi only", x, nullptr, hi},
                     {"transposed", xt, lo, hi},   {"stepped", xs, lo, hi},          {"weak bounds", x, w_lo, w_hi},
                     {"lo not 0-d", x, lo1, hi},   {"NaN bound", x, is_float ? w_nan.t : lo.t, hi}};
        for (auto& c : cases) {
            const std::string what = std::string("clip ") + ember_dtype_name(dt) + " " + c.what;
            T got, want;
            EM_OK(ember_clip(cpu(), c.x, c.lo, c.hi, got.out()));
            T rlo = c.lo ? as_ref(c.lo) : T(), rhi = c.hi ? as_ref(c.hi) : T();
            EM_OK(ember_clip(ref(), as_ref(c.x), rlo, rhi, want.out()));
            same_bits(got, want, what);
        }
    }
    // Streaming stores, 0-d and empty.
    std::vector<float> big(5 << 20);
    for (size_t i = 0; i < big.size(); ++i) big[i] = (float)((int64_t)(i * 2654435761u % 1000) - 500) / 100;
    const int64_t n = (int64_t)big.size();
    T xb, lo = tensor(cpu(), std::vector<double>{-1}, {}, EMBER_FLOAT32), hi = tensor(cpu(), std::vector<double>{1}, {}, EMBER_FLOAT32);
    EM_OK(ember_tensor_from_data(cpu(), big.data(), EMBER_FLOAT32, &n, 1, xb.out()));
    T scalar = tensor(cpu(), std::vector<double>{7}, {}, EMBER_FLOAT32), empty = tensor(cpu(), std::vector<double>{}, {0, 3}, EMBER_FLOAT32);
    for (const ember_tensor_t* x : {xb.t, scalar.t, empty.t}) {
        T got, want;
        EM_OK(ember_clip(cpu(), x, lo, hi, got.out()));
        EM_OK(ember_clip(ref(), as_ref(x), as_ref(lo), as_ref(hi), want.out()));
        same_bits(got, want, "clip n=" + std::to_string(host_values(x).size()));
    }
}

// leaky_relu in one pass (leaky_relu.cpp) against the reference backend's composite, value
// for value and sign for sign: every float dtype (integers cast to float32 by the core),
// slopes that float16/bfloat16 cannot hold exactly, 0, negative, above 1 and NaN; NaN,
// infinities and signed zeros in x; transposed, stepped, 0-d, empty and streamed (5 Mi) x.
TEST(CpuLarge, LeakyReluMatchesCompositeExactly) {
    NEED_CPU();
    const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
    auto d = randf(1 << 19, -3, 3, 43);
    for (size_t i = 0; i < d.size(); i += 97) d[i] = i % 3 == 0 ? -0.0f : i % 3 == 1 ? (float)nan : (float)(i % 2 ? inf : -inf);
    for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_FLOAT16, EMBER_BFLOAT16, EMBER_INT32, EMBER_INT8}) {
        T x0 = tensor(cpu(), d, {1 << 10, 1 << 9}, EMBER_FLOAT32), x, xt, xs;
        EM_OK(ember_astype(cpu(), x0, dt, x.out()));
        EM_OK(ember_transpose(cpu(), x, xt.out()));
        const int64_t from[2] = {0, 511}, to[2] = {1 << 10, 0}, steps[2] = {3, -2};
        EM_OK(ember_slice(cpu(), x, from, to, steps, 2, xs.out()));
        const struct {
            const char* what;
            const ember_tensor_t* x;
        } cases[] = {{"contiguous", x}, {"transposed", xt}, {"stepped", xs}};
        for (auto& c : cases)
            for (double slope : {0.01, 0.3, 0.0, -0.5, 1.7, nan}) {
                const std::string what = std::string("leaky_relu ") + ember_dtype_name(dt) + " " + c.what + " slope " + std::to_string(slope);
                T got, want;
                EM_OK(ember_leaky_relu(cpu(), c.x, slope, got.out()));
                EM_OK(ember_leaky_relu(ref(), as_ref(c.x), slope, want.out()));
                EXPECT_EQ(dtype_of(got), dtype_of(want)) << what;
                same_bits(got, want, what);
            }
    }
    std::vector<float> big(5 << 20);
    for (size_t i = 0; i < big.size(); ++i) big[i] = (float)((int64_t)(i * 2654435761u % 1000) - 500) / 100;
    const int64_t n = (int64_t)big.size();
    T xb, scalar = tensor(cpu(), std::vector<double>{-7}, {}, EMBER_FLOAT32), empty = tensor(cpu(), std::vector<double>{}, {0, 3}, EMBER_FLOAT32);
    EM_OK(ember_tensor_from_data(cpu(), big.data(), EMBER_FLOAT32, &n, 1, xb.out()));
    for (const ember_tensor_t* x : {xb.t, scalar.t, empty.t}) {
        T got, want;
        EM_OK(ember_leaky_relu(cpu(), x, 0.2, got.out()));
        EM_OK(ember_leaky_relu(ref(), as_ref(x), 0.2, want.out()));
        same_bits(got, want, "leaky_relu n=" + std::to_string(host_values(x).size()));
    }
}

// logsumexp's native kernel (logsumexp.cpp; x read once) against the reference's composite
// computed in float64 and rounded to x's dtype: within one ulp of it for float32 and the
// half types (the kernel sums in double and rounds once). Its paths: rows, columns, one long row in pieces, and the
// scratch copy for other axes, transposed x and float16/bfloat16; groups holding +inf or
// NaN, all -inf, empty groups (-inf), 0-d x and keepdims.
TEST(CpuLarge, LogsumexpKernelMatchesFloat64Reference) {
    NEED_CPU();
    const float inf = std::numeric_limits<float>::infinity();
    auto d = randf(512 * 1024, -20, 20, 35);
    for (int k = 0; k < 1024; ++k) d[(size_t)(3 * 1024 + k)] = -inf;  // row 3: all -inf
    d[5 * 1024 + 17] = inf;                                          // row 5 and column 17: +inf
    d[7 * 1024 + 900] = std::numeric_limits<float>::quiet_NaN();    // row 7 and column 900: NaN
    for (int r = 0; r < 512; ++r) d[(size_t)(r * 1024 + 9)] = -inf;  // column 9: all -inf
    auto check = [](const ember_tensor_t* x, std::vector<int64_t> axes, int keepdims, const std::string& what) {
        const ember_dtype_t dt = dtype_of(x);
        const int64_t* ax = axes.empty() ? nullptr : axes.data();
        T got, x64, want64, want;
        EM_OK(ember_logsumexp(cpu(), x, ax, (int)axes.size(), keepdims, got.out()));
        EM_OK(ember_astype(ref(), as_ref(x), EMBER_FLOAT64, x64.out()));
        EM_OK(ember_logsumexp(ref(), x64, ax, (int)axes.size(), keepdims, want64.out()));
        EM_OK(ember_astype(ref(), want64, dt, want.out()));
        // float64: the reference is a float64 computation too (its exp and sums each within
        // a few ulp); 16 ulp of the result.
        const double ulp = dt == EMBER_FLOAT64 ? 0x1p-48 : dt == EMBER_FLOAT32 ? 0x1p-23 : dt == EMBER_FLOAT16 ? 0x1p-10 : 0x1p-7;
        expect_close(got, want, ulp, ulp, what + " " + ember_dtype_name(dt));
    };
    for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_FLOAT16, EMBER_BFLOAT16}) {
        T x = tensor(cpu(), d, {512, 1024}, dt), xt, x3;
        EM_OK(ember_transpose(cpu(), x, xt.out()));
        const int64_t shape3[3] = {16, 32, 1024};
        EM_OK(ember_reshape(cpu(), x, shape3, 3, x3.out()));
        check(x, {1}, 0, "rows");
        check(x, {0}, 0, "columns");
        check(x, {}, 0, "all (one long row)");
        check(x, {0, 1}, 1, "all, keepdims");
        check(xt, {0}, 0, "transposed, axis 0");
        check(xt, {1}, 1, "transposed, axis 1");
        check(x3, {1}, 0, "middle axis");
        check(x3, {0, 2}, 1, "outer axes");
        check(x3, {1, 2}, 0, "trailing axes");
        check(x3, {0, 1}, 0, "leading axes");
    }
    T empty_rows = tensor(cpu(), std::vector<double>{}, {3, 0}, EMBER_FLOAT32), scalar = tensor(cpu(), std::vector<double>{2.5}, {}, EMBER_FLOAT32);
    check(empty_rows, {1}, 0, "empty groups");
    check(empty_rows, {0}, 0, "no groups");
    check(scalar, {}, 0, "0-d");
    std::vector<float> rising = randf(1 << 17, -1, 1, 36);  // one long row whose pieces have different maxima
    for (size_t i = 0; i < rising.size(); ++i) rising[i] += -30.0f + 60.0f * (float)i / (float)rising.size();
    T ramp = tensor(cpu(), rising, {1 << 17}, EMBER_FLOAT32);
    check(ramp, {}, 0, "long rising row");
    std::vector<float> all_low(1 << 17, -inf);  // one long row: all -inf, then +inf, then NaN
    T low = tensor(cpu(), all_low, {1 << 17}, EMBER_FLOAT32);
    check(low, {}, 0, "long row of -inf");
    all_low[100000] = inf;
    T high = tensor(cpu(), all_low, {1 << 17}, EMBER_FLOAT32);
    check(high, {}, 0, "long row with +inf");
    all_low[5] = std::numeric_limits<float>::quiet_NaN();
    T nan = tensor(cpu(), all_low, {1 << 17}, EMBER_FLOAT32);
    check(nan, {}, 0, "long row with NaN");
}

TEST(CpuLarge, SoftmaxAndLogsumexpMatchReference) {
    NEED_CPU();
    auto d = randf(512 * 1024, -20, 20, 31);
    d[5] = -std::numeric_limits<float>::infinity();
    T x = tensor(cpu(), d, {512, 1024}, EMBER_FLOAT32);
    for (int64_t axis : {-1, 0}) {
        T got, want;
        EM_OK(ember_softmax(cpu(), x, axis, got.out()));
        EM_OK(ember_softmax(ref(), as_ref(x), axis, want.out()));
        expect_close(got, want, 2e-6, 1e-30, "softmax axis " + std::to_string(axis));
        T lgot, lwant;  // x - logsumexp cancels: absolute error relative to |x| <= 20
        EM_OK(ember_log_softmax(cpu(), x, axis, lgot.out()));
        EM_OK(ember_log_softmax(ref(), as_ref(x), axis, lwant.out()));
        expect_close(lgot, lwant, 2e-6, 2e-5, "log_softmax axis " + std::to_string(axis));
    }
    // The fused kernel's other paths: a strided (transposed) input, float64, float16 and
    // rows that are all -inf, hold +inf or NaN (as the composite: NaN rows, no shift).
    auto e = randf(6 * 5, -3, 3, 32);
    e[0] = e[1] = e[2] = e[3] = e[4] = -std::numeric_limits<float>::infinity();
    e[7] = std::numeric_limits<float>::infinity();
    e[12] = std::numeric_limits<float>::quiet_NaN();
    for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_FLOAT16, EMBER_BFLOAT16}) {
        T s = tensor(cpu(), e, {6, 5}, dt), st;
        EM_OK(ember_transpose(cpu(), s, st.out()));
        for (const T* in : {&s, &st}) {
            for (int lg = 0; lg < 2; ++lg) {
                T got, want;
                auto fn = lg ? ember_log_softmax : ember_softmax;
                EM_OK(fn(cpu(), *in, -1, got.out()));
                EM_OK(fn(ref(), as_ref(*in), -1, want.out()));
                double rtol = dt == EMBER_FLOAT64 ? 1e-13 : dt == EMBER_FLOAT32 ? 2e-6 : dt == EMBER_FLOAT16 ? 4e-3 : 3e-2;
                expect_close(got, want, rtol, rtol * 4, std::string(lg ? "log_" : "") + "softmax " + ember_dtype_name(dt));
            }
        }
    }
    // Short and medium rows (softmax.cpp's run_rows: float32 up to 16 and float64 up to 7
    // in blocks of rows; float32 17 to 31 as the columns of a scratch; float32 32 and
    // float64 8 up to 128 the fused passes, simd_softmax.hpp, with and without a partial
    // vector), split across the pool, beside the first length that takes the row-by-row
    // path; float16/bfloat16 rows up to 4096 widened a block of rows at a time into the
    // float32 paths (3000: one row a block). Row 7 holds a NaN, row 9 a +inf, row 11 is
    // all -inf.
    for (int64_t len : {1, 3, 7, 8, 16, 17, 31, 32, 33, 64, 100, 128, 129, 3000}) {
        const int64_t rows = len <= 32 ? 30011 : len <= 129 ? 4001 : 301;
        auto f = randf((size_t)(rows * len), -30, 30, 33 + (unsigned)len);
        f[(size_t)len * 7] = std::numeric_limits<float>::quiet_NaN();
        f[(size_t)len * 9 + (size_t)len / 2] = std::numeric_limits<float>::infinity();
        for (int64_t k = 0; k < len; ++k) f[(size_t)(len * 11 + k)] = -std::numeric_limits<float>::infinity();
        for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_FLOAT16, EMBER_BFLOAT16}) {
            // Also as views (gathered a block of rows at a time): the transpose of a
            // (len, rows) tensor and every other column of a (rows, 2 len) one.
            T s = tensor(cpu(), f, {rows, len}, dt), flat = tensor(cpu(), f, {len, rows}, dt), st, wide, ws;
            EM_OK(ember_transpose(cpu(), flat, st.out()));
            EM_OK(ember_concat(cpu(), std::vector<const ember_tensor_t*>{s, s}.data(), 2, 1, wide.out()));
            const int64_t from[2] = {0, 0}, to[2] = {rows, 2 * len}, step[2] = {1, 2};
            EM_OK(ember_slice(cpu(), wide, from, to, step, 2, ws.out()));
            for (const T* in : {&s, &st, &ws}) {
                for (int lg = 0; lg < 2; ++lg) {
                    T got, want;
                    auto fn = lg ? ember_log_softmax : ember_softmax;
                    EM_OK(fn(cpu(), *in, -1, got.out()));
                    EM_OK(fn(ref(), as_ref(*in), -1, want.out()));
                    const double rtol = dt == EMBER_FLOAT64 ? 1e-13 : dt == EMBER_FLOAT32 ? 2e-6 : dt == EMBER_FLOAT16 ? 4e-3 : 3e-2;
                    // float16 results below 2^-14 are subnormal, 2^-24 apart
                    const double atol = lg ? rtol * 30 : dt == EMBER_FLOAT16 ? 0x1p-24 : 1e-30;
                    expect_close(got, want, rtol, atol,
                                 std::string(lg ? "log_" : "") + "softmax of rows of " + std::to_string(len) + " " + ember_dtype_name(dt) + (in == &s ? "" : in == &st ? " transposed" : " stepped"));
                }
            }
        }
    }
    T got, want;
    const int64_t last[1] = {-1};
    EM_OK(ember_logsumexp(cpu(), x, last, 1, 0, got.out()));
    EM_OK(ember_logsumexp(ref(), as_ref(x), last, 1, 0, want.out()));
    expect_close(got, want, 2e-6, 1e-6, "logsumexp");
}

// softmax.cpp's long rows: worked in parts of 65536 elements, spread over the pool when
// there are fewer rows than threads (float16/bfloat16 ones widened to float32 first). A row
// must come out the same bits alone (split) as among other rows (one thread each), and
// match the reference; a NaN or +inf in one part must reach every part's result, and a row
// of -inf only gives NaN as the composite does.
TEST(CpuLarge, LongSoftmaxRowsSplitAcrossThePool) {
    NEED_CPU();
    const int64_t n = 3 * 65536 + 123;
    for (int kind = 0; kind < 4; ++kind) {
        auto d = randf((size_t)(3 * n), -40, 40, 71 + (unsigned)kind);
        float* mid = d.data() + n;
        if (kind == 1) mid[2 * 65536 + 7] = std::numeric_limits<float>::quiet_NaN();
        if (kind == 2) mid[65536 + 3] = std::numeric_limits<float>::infinity();
        if (kind == 3) std::fill(mid, mid + n, -std::numeric_limits<float>::infinity());
        const std::vector<float> row(mid, mid + n);
        for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_FLOAT16, EMBER_BFLOAT16}) {
            T three = tensor(cpu(), d, {3, n}, dt), one = tensor(cpu(), row, {1, n}, dt);
            for (int lg = 0; lg < 2; ++lg) {
                auto fn = lg ? ember_log_softmax : ember_softmax;
                const std::string what = std::string(lg ? "log_" : "") + "softmax " + ember_dtype_name(dt) + " kind " + std::to_string(kind);
                T alone, among, want;
                EM_OK(fn(cpu(), one, -1, alone.out()));
                EM_OK(fn(cpu(), three, -1, among.out()));
                EM_OK(fn(ref(), as_ref(one), -1, want.out()));
                const double rtol = dt == EMBER_FLOAT64 ? 1e-13 : dt == EMBER_FLOAT32 ? 2e-6 : dt == EMBER_FLOAT16 ? 4e-3 : 3e-2;
                expect_close(alone, want, rtol, lg ? rtol * 40 : 1e-30, what);
                const auto a = raw_bytes(alone), b = raw_bytes(among);
                const size_t row_bytes = a.size();
                ASSERT_EQ(b.size(), 3 * row_bytes);
                EXPECT_TRUE(std::equal(a.begin(), a.end(), b.begin() + (std::ptrdiff_t)row_bytes)) << what << ": the row alone differs from the same row among three";
            }
        }
    }
}

// sort.cpp's staged blocks: lines along a strided axis whose neighbours sit side by side
// (axis 0 and a middle axis of contiguous tensors, the last axis of a transpose) moved into
// rows, sorted and moved back; values and indices, both directions, with ties, NaN and
// zeros of both signs, every element size, against the reference's bits.
TEST(CpuLarge, SortAlongStridedAxes) {
    NEED_CPU();
    struct Case {
        std::vector<int64_t> shape;
        int64_t axis;
        bool transposed;
    };
    // and packed rows of 2 to 4 (sort.cpp's tiny_rows)
    const Case cases[] = {{{700, 37}, 0, false}, {{40, 17, 64}, 1, false}, {{5, 3000}, -1, true},  {{300, 20}, -1, true},
                          {{9, 1000, 300}, 0, false}, {{30011, 3}, -1, false}, {{2001, 2}, 1, false}, {{7, 301, 4}, 2, false}};
    for (const Case& cs : cases) {
        size_t count = 1;
        for (int64_t d : cs.shape) count *= (size_t)d;
        auto d = randf(count, -50, 50, 3400 + (unsigned)count);
        for (size_t i = 0; i < count; i += 7) d[i] = std::round(d[i] / 10);  // ties
        for (size_t i = 3; i < count; i += 97) d[i] = std::numeric_limits<float>::quiet_NaN();
        for (size_t i = 5; i < count; i += 89) d[i] = i % 2 ? 0.0f : -0.0f;
        for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_FLOAT16, EMBER_INT16, EMBER_UINT8, EMBER_INT64, EMBER_COMPLEX64}) {
            auto values = d;
            if (dt != EMBER_FLOAT32 && dt != EMBER_FLOAT64 && dt != EMBER_FLOAT16 && dt != EMBER_COMPLEX64)
                for (float& v : values) v = std::isnan(v) ? 1.0f : v;
            T base = tensor(cpu(), values, cs.shape, dt), x;
            if (cs.transposed) EM_OK(ember_transpose(cpu(), base, x.out()));
            else EM_OK(ember_reshape(cpu(), base, cs.shape.data(), (int)cs.shape.size(), x.out()));
            for (int descending = 0; descending < 2; ++descending) {
                const std::string what = std::string(ember_dtype_name(dt)) + " axis " + std::to_string(cs.axis) + " of " + std::to_string(count) + (cs.transposed ? " transposed" : "") + (descending ? " descending" : "");
                T got, want, igot, iwant;
                EM_OK(ember_sort(cpu(), x, cs.axis, descending, got.out()));
                EM_OK(ember_sort(ref(), as_ref(x), cs.axis, descending, want.out()));
                EXPECT_EQ(raw_bytes(got), raw_bytes(want)) << "sort " << what;
                if (dt == EMBER_INT64 || dt == EMBER_FLOAT16) continue;
                EM_OK(ember_argsort(cpu(), x, cs.axis, descending, igot.out()));
                EM_OK(ember_argsort(ref(), as_ref(x), cs.axis, descending, iwant.out()));
                EXPECT_EQ(raw_bytes(igot), raw_bytes(iwant)) << "argsort " << what;
            }
        }
    }
}

// softmax.cpp's column blocks: lines along a strided axis whose neighbours sit side by side
// (channels of NCHW, axis 0 with blocks of lines and a remainder, the last axis of a
// transpose whose results are written across, planes that are every other slice), with
// whole lines of NaN, +inf and -inf; float32 and float64 against the reference.
TEST(CpuLarge, SoftmaxAlongStridedAxes) {
    NEED_CPU();
    struct Case {
        std::vector<int64_t> shape;
        int64_t axis;
        int view;  // 0: as is, 1: transposed, 2: every other slice along axis 0
    };
    const Case cases[] = {{{3, 5, 37, 41}, 1, 0}, {{700, 1100}, 0, 0}, {{5, 2000}, -1, 1}, {{17, 3000}, -1, 1}, {{6, 21, 40}, 1, 2}, {{2, 3, 16}, 0, 0}};
    for (const Case& cs : cases) {
        size_t count = 1;
        for (int64_t d : cs.shape) count *= (size_t)d;
        auto d = randf(count, -30, 30, 3100 + (unsigned)count);
        const int64_t inner = cs.shape.back();
        for (size_t i = 0; i < count; i += (size_t)inner * 3) d[i] = std::numeric_limits<float>::quiet_NaN();
        d[1] = d[1 + (size_t)inner] = std::numeric_limits<float>::infinity();
        d[count - 1] = -std::numeric_limits<float>::infinity();
        for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64}) {
            T base = tensor(cpu(), d, cs.shape, dt), x;
            if (cs.view == 1) {
                EM_OK(ember_transpose(cpu(), base, x.out()));
            } else if (cs.view == 2) {
                const int64_t from = 0, to = cs.shape[0], step = 2;
                EM_OK(ember_slice(cpu(), base, &from, &to, &step, 1, x.out()));
            } else {
                EM_OK(ember_reshape(cpu(), base, cs.shape.data(), (int)cs.shape.size(), x.out()));
            }
            for (int lg = 0; lg < 2; ++lg) {
                T got, want;
                auto fn = lg ? ember_log_softmax : ember_softmax;
                EM_OK(fn(cpu(), x, cs.axis, got.out()));
                EM_OK(fn(ref(), as_ref(x), cs.axis, want.out()));
                const double rtol = dt == EMBER_FLOAT64 ? 1e-13 : 2e-6;
                expect_close(got, want, rtol, lg ? rtol * 30 : 1e-30,
                             std::string(lg ? "log_" : "") + "softmax along axis " + std::to_string(cs.axis) + " of " + std::to_string(count) + " " +
                                 ember_dtype_name(dt) + " view " + std::to_string(cs.view));
            }
        }
    }
}

// variance.cpp: var and std of contiguous float32/float64 over trailing axes, two passes in
// double per group, against the reference's composite (float32: its roundings in float32
// give up to a few ulps; float64 a few rounding errors). Rows short and long, one group
// across the pool, NaN and inf in some rows, ddof up to and past the count (inf, negative
// variance, NaN std), and the calls the kernel declines (leading or middle axes, a
// transposed view, complex) still right through the composite.
TEST(CpuLarge, VarianceMatchesReference) {
    NEED_CPU();
    auto d = randf(1000003, -5, 5, 41);
    for (size_t i = 0; i < d.size(); ++i) d[i] += 100;  // a large mean: the deviations matter
    auto specials = d;  // for the cases of many groups: a NaN row and an inf row
    specials[37] = std::numeric_limits<float>::quiet_NaN();
    specials[70000] = std::numeric_limits<float>::infinity();
    struct Case {
        std::vector<int64_t> shape, axes;  // axes empty: all
        const char* what;
        bool specials = false;  // rows of many groups have them anyway
    };
    const Case cases[] = {{{1000003}, {}, "one group across the pool"},
                          {{1000003}, {}, "one group with a NaN and an inf", true},
                          {{1000, 1000}, {1}, "rows of 1000"},
                          {{1000, 1000}, {}, "all of a matrix"},
                          {{200000, 5}, {-1}, "short rows"},
                          {{7, 1}, {-1}, "rows of one"},
                          {{100, 20, 30}, {1, 2}, "two trailing axes"},
                          {{100, 20, 30}, {0}, "axis 0 (declined)"},
                          {{100, 20, 30}, {0, 2}, "axes 0 and 2 (declined)"}};
    for (const Case& c : cases) {
        int64_t count = 1;
        for (int64_t n : c.shape) count *= n;
        const std::vector<float>& from = c.axes.empty() && !c.specials ? d : specials;
        const std::vector<float> part(from.begin(), from.begin() + count);
        for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64}) {
            T x = tensor(cpu(), part, c.shape, dt);
            const int64_t group = c.axes.empty() ? count : c.axes.size() == 2 ? 600 : c.shape.back();
            for (double ddof : {0.0, 1.0, (double)group, (double)group + 2})
                for (int root = 0; root < 2; ++root) {
                    T got, want;
                    auto fn = root ? ember_std : ember_var;
                    const int64_t* axes = c.axes.empty() ? nullptr : c.axes.data();
                    EM_OK(fn(cpu(), x, axes, (int)c.axes.size(), 0, ddof, got.out()));
                    EM_OK(fn(ref(), as_ref(x), axes, (int)c.axes.size(), 0, ddof, want.out()));
                    const double rtol = dt == EMBER_FLOAT64 ? 1e-12 : 4e-6;
                    expect_close(got, want, rtol, 0, std::string(root ? "std " : "var ") + c.what + " " + ember_dtype_name(dt) + " ddof " + std::to_string(ddof));
                }
        }
    }
    // keepdims, a transposed view and complex (declined), float16 and int32 (cast first)
    T m = tensor(cpu(), std::vector<float>(d.begin(), d.begin() + 600), {20, 30}, EMBER_FLOAT32), mt, mc, mh, mi;
    EM_OK(ember_transpose(cpu(), m, mt.out()));
    EM_OK(ember_astype(cpu(), m, EMBER_COMPLEX64, mc.out()));
    EM_OK(ember_astype(cpu(), m, EMBER_FLOAT16, mh.out()));
    EM_OK(ember_astype(cpu(), m, EMBER_INT32, mi.out()));
    const int64_t last = -1;
    for (auto [what, x] : {std::pair<const char*, const ember_tensor_t*>{"keepdims", m}, {"transposed", mt}, {"complex64", mc}, {"float16", mh}, {"int32", mi}}) {
        T got, want;
        EM_OK(ember_var(cpu(), x, &last, 1, 1, 1.0, got.out()));
        EM_OK(ember_var(ref(), as_ref(x), &last, 1, 1, 1.0, want.out()));
        expect_close(got, want, dtype_of(got) == EMBER_FLOAT16 ? 1e-3 : 4e-6, 0, std::string("var ") + what);
    }
    for (const char* op : {"var", "std"}) {
        const char* binding = nullptr;
        EM_OK(ember_op_binding("cpu", op, &binding));
        EXPECT_STREQ(binding, "native") << op;
    }
}

// The squared deviations are a per-ISA function: every ISA.
TEST(CpuBackend, VarianceOnEveryIsa) {
    NEED_CPU();
    NEED_CHILD_PROCESSES();
    for (const char* isa : {"avx2", "generic"}) EXPECT_EQ(run_child("CpuLarge.VarianceMatchesReference", {{"EMBER_CPU_ISA", isa}}), 0) << isa;
}

// The NaN-skipping sums and extremes are per-ISA functions (test_cpu_stats.cpp): every ISA.
TEST(CpuBackend, NanReductionsOnEveryIsa) {
    NEED_CPU();
    NEED_CHILD_PROCESSES();
    for (const char* isa : {"avx2", "generic"}) EXPECT_EQ(run_child("CpuLarge.NanReductionsMatchReference", {{"EMBER_CPU_ISA", isa}}), 0) << isa;
}

TEST(CpuLarge, SumIsPairwiseAccurate) {
    NEED_CPU();
    // 1e7 float32 ones plus small values: naive float32 accumulation stalls at 2**24 and
    // loses the small values entirely.
    const int64_t n = 10000000;
    std::vector<float> v((size_t)n);
    double exact = 0;
    for (int64_t i = 0; i < n; ++i) {
        v[(size_t)i] = (i % 4 == 3) ? 1e-3f * (float)(i % 7) : 1.0f;
        exact += (double)v[(size_t)i];
    }
    T x = tensor(cpu(), v, {n}, EMBER_FLOAT32), s, m;
    EM_OK(ember_sum(cpu(), x, nullptr, 0, 0, s.out()));
    EM_OK(ember_mean(cpu(), x, nullptr, 0, 0, m.out()));
    double got = host_values(s)[0];
    EXPECT_NEAR(got, exact, exact * 6e-8) << "within float32 rounding of the exact sum";
    EXPECT_NEAR(host_values(m)[0], exact / (double)n, exact / (double)n * 1.2e-7);
    // float64: 1e7 values of alternating magnitude
    std::vector<double> w((size_t)n);
    long double exact64 = 0, comp = 0;  // Neumaier-compensated: exact enough as the oracle
    for (int64_t i = 0; i < n; ++i) {
        w[(size_t)i] = (i % 2) ? 1e8 + 0.1 * (double)(i % 10) : 1e-3;
        long double v = w[(size_t)i], t = exact64 + v;
        comp += std::fabs(exact64) >= std::fabs(v) ? (exact64 - t) + v : (v - t) + exact64;
        exact64 = t;
    }
    exact64 += comp;
    T y = tensor(cpu(), w, {n}, EMBER_FLOAT64), s64;
    EM_OK(ember_sum(cpu(), y, nullptr, 0, 0, s64.out()));
    EXPECT_NEAR(host_values(s64)[0], (double)exact64, (double)exact64 * 4e-16);
}

// matmul.cpp: a long dot product is cut into parts for the pool, 8 from 2^18 elements and
// 2 from 2^15 (contiguous and strided operands); vecdot and the 2-norm go through it.
TEST(CpuLarge, LongDotProductsInParts) {
    NEED_CPU();
    for (const int64_t n : {int64_t(1000003), int64_t(100001)}) {
        auto da = randf((size_t)n, -1, 1, 31), db = randf((size_t)n, -1, 1, 32);
        double dot = 0, half_dot = 0, sq = 0;
        for (int64_t i = 0; i < n; ++i) {
            dot += (double)da[(size_t)i] * db[(size_t)i];
            sq += (double)da[(size_t)i] * da[(size_t)i];
            if (i % 2 == 0) half_dot += (double)da[(size_t)i] * db[(size_t)i];
        }
        for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64}) {
            T a = tensor(cpu(), da, {n}, dt), b = tensor(cpu(), db, {n}, dt), a2, b2, r;
            const int64_t start = 0, stop = n, step = 2;
            EM_OK(ember_slice(cpu(), a, &start, &stop, &step, 1, a2.out()));
            EM_OK(ember_slice(cpu(), b, &start, &stop, &step, 1, b2.out()));
            const double tol = dt == EMBER_FLOAT32 ? 1e-4 : 1e-12;  // float32: BLAS accumulates in float32
            const std::string d = ember_dtype_name(dt);
            EM_OK(ember_matmul(cpu(), a, b, r.out()));
            EXPECT_NEAR(host_values(r)[0], dot, tol * std::sqrt((double)n)) << "dot " << d << " of " << n;
            EM_OK(ember_matmul(cpu(), a2, b2, r.out()));
            EXPECT_NEAR(host_values(r)[0], half_dot, tol * std::sqrt((double)n)) << "strided dot " << d;
            EM_OK(ember_vecdot(cpu(), a, b, -1, r.out()));
            EXPECT_NEAR(host_values(r)[0], dot, tol * std::sqrt((double)n)) << "vecdot " << d;
            EM_OK(ember_vector_norm(cpu(), a, 2, nullptr, 0, 0, r.out()));
            EXPECT_NEAR(host_values(r)[0], std::sqrt(sq), tol * std::sqrt(sq)) << "2-norm " << d;
        }
    }
}

TEST(CpuLarge, MatmulLayoutsAndDtypes) {
    NEED_CPU();
    auto da = randf(2 * 67 * 45, -1, 1, 41), db = randf(45 * 53, -1, 1, 42);
    for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_COMPLEX64, EMBER_COMPLEX128, EMBER_FLOAT16, EMBER_BFLOAT16, EMBER_INT32}) {
        T a0 = tensor(cpu(), da, {2, 67, 45}, EMBER_FLOAT32), b0 = tensor(cpu(), db, {45, 53}, EMBER_FLOAT32), a, b;
        EM_OK(ember_astype(cpu(), a0, dt, a.out()));
        EM_OK(ember_astype(cpu(), b0, dt, b.out()));
        T at, bt, att, btt, astep;
        EM_OK(ember_matrix_transpose(cpu(), a, at.out()));    // (2, 45, 67) view
        EM_OK(ember_matrix_transpose(cpu(), b, bt.out()));    // (53, 45) view
        EM_OK(ember_matrix_transpose(cpu(), at, att.out()));  // back to (2, 67, 45) via strides
        EM_OK(ember_matrix_transpose(cpu(), bt, btt.out()));
        int64_t st[3] = {0, 0, 0}, sp[3] = {EMBER_SLICE_END, EMBER_SLICE_END, EMBER_SLICE_END}, step[3] = {1, 2, 1};
        EM_OK(ember_slice(cpu(), a, st, sp, step, 3, astep.out()));  // every other row
        // Every other column of a (no unit stride: packed) against every other row of b.
        T acol, brow;
        int64_t colstep[3] = {1, 1, 2}, rowstep[2] = {2, 1};
        EM_OK(ember_slice(cpu(), a, st, sp, colstep, 3, acol.out()));
        EM_OK(ember_slice(cpu(), b, st, sp, rowstep, 2, brow.out()));
        double tol = dt == EMBER_FLOAT16 ? 4e-3 : dt == EMBER_BFLOAT16 ? 3e-2 : dt == EMBER_FLOAT32 || dt == EMBER_COMPLEX64 ? 2e-5 : 1e-12;
        struct {
            const char* layout;
            const ember_tensor_t *x, *y;
        } cases[] = {{"batched", a, b},         {"a-transposed-view", att, b}, {"b-transposed-view", a, btt},
                     {"both-transposed", att, btt}, {"a^T-b^T", bt, at},       {"stepped-rows", astep, b},
                     {"stepped-columns", acol, brow}, {"both-batched", a, at}};
        for (auto& c : cases) {
            std::string what = std::string("matmul ") + ember_dtype_name(dt) + " " + c.layout;
            T got, want;
            EM_OK(ember_matmul(cpu(), c.x, c.y, got.out()));
            EM_OK(ember_matmul(ref(), as_ref(c.x), as_ref(c.y), want.out()));
            expect_close(got, want, tol, tol, what);
        }
    }
    // A batch large enough to fold into M (one GEMM of 600 rows; batch_folds_into_m), with a
    // size-1 batch axis between.
    for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_COMPLEX128, EMBER_BFLOAT16}) {
        T a0 = tensor(cpu(), randf(3 * 200 * 96, -1, 1, 47), {3, 1, 200, 96}, EMBER_FLOAT32), b0 = tensor(cpu(), randf(96 * 600, -1, 1, 48), {96, 600}, EMBER_FLOAT32);
        T a, b, got, want;
        EM_OK(ember_astype(cpu(), a0, dt, a.out()));
        EM_OK(ember_astype(cpu(), b0, dt, b.out()));
        EM_OK(ember_matmul(cpu(), a, b, got.out()));
        EM_OK(ember_matmul(ref(), as_ref(a), as_ref(b), want.out()));
        const double tol = dt == EMBER_BFLOAT16 ? 3e-2 : dt == EMBER_FLOAT32 ? 2e-5 : 1e-12;
        expect_close(got, want, tol, tol, std::string("folded batch ") + ember_dtype_name(dt));
    }
    // Batches of small products, which split across the pool (batch_chunks): a's columns
    // stepped (packed per piece), and a batch of row-vector products (GEMV).
    for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_COMPLEX128, EMBER_BFLOAT16}) {
        const double tol = dt == EMBER_BFLOAT16 ? 3e-2 : dt == EMBER_FLOAT32 ? 2e-5 : 1e-12;
        T a0 = tensor(cpu(), randf(600 * 12 * 20, -1, 1, 49), {600, 12, 20}, EMBER_FLOAT32), b0 = tensor(cpu(), randf(600 * 10 * 9, -1, 1, 50), {600, 10, 9}, EMBER_FLOAT32);
        T v0 = tensor(cpu(), randf(400 * 64, -1, 1, 51), {400, 1, 64}, EMBER_FLOAT32), w0 = tensor(cpu(), randf(400 * 64 * 32, -1, 1, 52), {400, 64, 32}, EMBER_FLOAT32);
        T a, b, v, w, astep, got, want;
        EM_OK(ember_astype(cpu(), a0, dt, a.out()));
        EM_OK(ember_astype(cpu(), b0, dt, b.out()));
        EM_OK(ember_astype(cpu(), v0, dt, v.out()));
        EM_OK(ember_astype(cpu(), w0, dt, w.out()));
        int64_t st[3] = {0, 0, 0}, sp[3] = {EMBER_SLICE_END, EMBER_SLICE_END, EMBER_SLICE_END}, colstep[3] = {1, 1, 2};
        EM_OK(ember_slice(cpu(), a, st, sp, colstep, 3, astep.out()));  // (600, 12, 10)
        EM_OK(ember_matmul(cpu(), astep, b, got.out()));
        EM_OK(ember_matmul(ref(), as_ref(astep), as_ref(b), want.out()));
        expect_close(got, want, tol, tol, std::string("batch of small products ") + ember_dtype_name(dt));
        EM_OK(ember_matmul(cpu(), v, w, got.out()));
        EM_OK(ember_matmul(ref(), as_ref(v), as_ref(w), want.out()));
        expect_close(got, want, tol, tol, std::string("batch of row-vector products ") + ember_dtype_name(dt));
    }
    // Products with n * k <= 4096 and m * n * k > 64^3 run in blocks of rows across the pool
    // (rows_per_call: 136 rows at n * k = 1920, the last block shorter): one matrix with a
    // row-major, transposed or packed A, a batch with its own B per product, and a batch
    // that folds into one tall product (float16 and bfloat16 convert per block).
    for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_COMPLEX64, EMBER_COMPLEX128, EMBER_FLOAT16, EMBER_BFLOAT16}) {
        const double tol = dt == EMBER_FLOAT16 ? 4e-3 : dt == EMBER_BFLOAT16 ? 3e-2 : dt == EMBER_FLOAT32 || dt == EMBER_COMPLEX64 ? 2e-5 : 1e-12;
        T a0 = tensor(cpu(), randf(1000 * 96, -1, 1, 53), {1000, 96}, EMBER_FLOAT32), b0 = tensor(cpu(), randf(48 * 40, -1, 1, 54), {48, 40}, EMBER_FLOAT32);
        T c0 = tensor(cpu(), randf(3 * 700 * 40, -1, 1, 55), {3, 700, 40}, EMBER_FLOAT32), d0 = tensor(cpu(), randf(3 * 40 * 30, -1, 1, 56), {3, 40, 30}, EMBER_FLOAT32);
        T wide, b, c, d, at, att;
        EM_OK(ember_astype(cpu(), a0, dt, wide.out()));
        EM_OK(ember_astype(cpu(), b0, dt, b.out()));
        EM_OK(ember_astype(cpu(), c0, dt, c.out()));
        EM_OK(ember_astype(cpu(), d0, dt, d.out()));
        int64_t st[3] = {0, 0, 0}, sp[3] = {EMBER_SLICE_END, EMBER_SLICE_END, EMBER_SLICE_END}, half[2] = {EMBER_SLICE_END, 48}, colstep[2] = {1, 2};
        T a, astep, d1;
        EM_OK(ember_slice(cpu(), wide, st, half, nullptr, 2, a.out()));           // (1000, 48), rows 96 apart
        EM_OK(ember_slice(cpu(), wide, st, sp, colstep, 2, astep.out()));         // every other column: packed
        EM_OK(ember_matrix_transpose(cpu(), a, at.out()));
        T a_t;  // a's values in a transposed layout: (48, 1000) contiguous, viewed as (1000, 48)
        EM_OK(ember_copy(cpu(), at, att.out()));
        EM_OK(ember_matrix_transpose(cpu(), att, a_t.out()));
        int64_t one[3] = {0, 0, 0}, upto[3] = {1, EMBER_SLICE_END, EMBER_SLICE_END};
        EM_OK(ember_slice(cpu(), d, one, upto, nullptr, 3, d1.out()));  // (1, 40, 30): shared by c's batch
        // Tall products with a tiny B (points times a 3 x 3 or 3 x 2 matrix: tiny_b_product).
        T tall = tensor(cpu(), randf(40000 * 3, -1, 1, 57), {40000, 3}, dt), b33 = tensor(cpu(), randf(9, -1, 1, 58), {3, 3}, dt);
        T b32 = tensor(cpu(), randf(6, -1, 1, 60), {3, 2}, dt), planes = tensor(cpu(), randf(40000 * 4, -1, 1, 61), {4, 40000}, dt), tall_t;
        EM_OK(ember_matrix_transpose(cpu(), planes, tall_t.out()));  // (40000, 4): columns 40000 apart
        T b33_4 = tensor(cpu(), randf(12, -1, 1, 62), {4, 3}, dt);
        // Every other row and column of (1040, 1040): 270400 elements, packed on the pool.
        T big0 = tensor(cpu(), randf(1040 * 1040, -1, 1, 63), {1040, 1040}, EMBER_FLOAT32), big, big_step, big_left, big_right;
        EM_OK(ember_astype(cpu(), big0, dt, big.out()));
        int64_t every_other[2] = {2, 2}, first64[2] = {64, EMBER_SLICE_END}, left64[2] = {EMBER_SLICE_END, 64};
        EM_OK(ember_slice(cpu(), big, st, sp, every_other, 2, big_step.out()));     // (520, 520)
        EM_OK(ember_slice(cpu(), big_step, st, first64, nullptr, 2, big_left.out()));  // (64, 520), stepped
        EM_OK(ember_slice(cpu(), big_step, st, left64, nullptr, 2, big_right.out()));  // (520, 64), stepped
        struct {
            const char* layout;
            const ember_tensor_t *x, *y;
        } cases[] = {{"row blocks", a, b}, {"row blocks of a transposed A", a_t, b}, {"row blocks of a packed A", astep, b},
                     {"row blocks of a batch", c, d}, {"row blocks of a folded batch", c, d1}, {"(40000, 3) @ (3, 3)", tall, b33},
                     {"(40000, 3) @ (3, 2)", tall, b32}, {"transposed (40000, 4) @ (4, 3)", tall_t, b33_4},
                     {"large packed A", big_step, big_right}, {"large packed B", big_left, big_step}};
        for (auto& cs : cases) {
            T got, want;
            EM_OK(ember_matmul(cpu(), cs.x, cs.y, got.out()));
            EM_OK(ember_matmul(ref(), as_ref(cs.x), as_ref(cs.y), want.out()));
            expect_close(got, want, tol, tol, std::string(cs.layout) + " " + ember_dtype_name(dt));
        }
    }
    // A product with its own transpose (x @ x.T, x.T @ x; complex ones not conjugated) runs as
    // SYRK and a mirrored triangle (gram in matmul.cpp): row-major, transposed and packed x;
    // the result exactly symmetric. A square x @ x (the same elements, not transposed) stays GEMM.
    // float16/bfloat16: x converted once, SYRK on the float32 values.
    for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_COMPLEX64, EMBER_COMPLEX128, EMBER_FLOAT16, EMBER_BFLOAT16}) {
        const double tol = dt == EMBER_FLOAT64 || dt == EMBER_COMPLEX128 ? 1e-12
                           : dt == EMBER_FLOAT16                         ? 4e-3
                           : dt == EMBER_BFLOAT16                        ? 3e-2
                                                                         : 2e-5 * std::sqrt(300.0);
        T x = tensor(cpu(), randf(300 * 400, -1, 1, 59), {300, 400}, dt), xt, xs, xst, sq, sq_t;
        if (dt == EMBER_COMPLEX64 || dt == EMBER_COMPLEX128) {  // random imaginary parts: a conjugated product differs
            T im = tensor(cpu(), randf(300 * 400, -1, 1, 64), {300, 400}, dt), i, turned, both;
            EM_OK(ember_scalar_c128(cpu(), 0, 1, i.out()));
            EM_OK(ember_multiply(cpu(), im, i, turned.out()));
            EM_OK(ember_add(cpu(), x, turned, both.out()));
            x = std::move(both);
        }
        int64_t st[2] = {0, 0}, sp[2] = {EMBER_SLICE_END, EMBER_SLICE_END}, colstep[2] = {1, 2}, upto[2] = {EMBER_SLICE_END, 300};
        EM_OK(ember_matrix_transpose(cpu(), x, xt.out()));
        EM_OK(ember_slice(cpu(), x, st, sp, colstep, 2, xs.out()));  // (300, 200), no unit stride: packed
        EM_OK(ember_matrix_transpose(cpu(), xs, xst.out()));
        EM_OK(ember_slice(cpu(), x, st, upto, nullptr, 2, sq.out()));  // (300, 300), rows 400 apart
        struct {
            const char* layout;
            const ember_tensor_t *x, *y;
        } cases[] = {{"x @ x.T", x, xt}, {"x.T @ x", xt, x}, {"packed x @ x.T", xs, xst}, {"packed x.T @ x", xst, xs}, {"square x @ x", sq, sq}};
        for (auto& c : cases) {
            const std::string what = std::string(c.layout) + " " + ember_dtype_name(dt);
            T got, want, got_t;
            EM_OK(ember_matmul(cpu(), c.x, c.y, got.out()));
            EM_OK(ember_matmul(ref(), as_ref(c.x), as_ref(c.y), want.out()));
            expect_close(got, want, tol, tol, what);
            EM_OK(ember_matrix_transpose(cpu(), got, got_t.out()));
            if (c.x != c.y) expect_close(got, got_t, 0, 0, what + " is symmetric");
        }
        // tensordot of a tensor with itself over the same axes: the core passes A and A's
        // transpose view; over the middle axis, A is a permuted copy first.
        T t3 = tensor(cpu(), randf(20 * 150 * 30, -1, 1, 60), {20, 150, 30}, dt), td, tw;
        const int64_t outer[2] = {0, 2}, last[2] = {1, 2};
        for (const int64_t* axes : {outer, last}) {
            EM_OK(ember_tensordot(cpu(), t3, t3, 0, axes, axes, 2, td.out()));
            EM_OK(ember_tensordot(ref(), as_ref(t3), as_ref(t3), 0, axes, axes, 2, tw.out()));
            expect_close(td, tw, tol, tol, std::string("tensordot of x with itself over axes ") + std::to_string(axes[0]) + "," + std::to_string(axes[1]) + " " + ember_dtype_name(dt));
        }
    }
    // Vector operands and a broadcast batch.
    for (ember_dtype_t dt : {EMBER_FLOAT64, EMBER_FLOAT16, EMBER_BFLOAT16}) {
        const double tol = dt == EMBER_FLOAT16 ? 4e-3 : dt == EMBER_BFLOAT16 ? 3e-2 : 1e-12;
        T v0 = tensor(cpu(), randf(45, -1, 1, 43), {45}, EMBER_FLOAT64), m0 = tensor(cpu(), randf(3 * 45 * 7, -1, 1, 44), {3, 45, 7}, EMBER_FLOAT64);
        T v, m, mt, got, want;
        EM_OK(ember_astype(cpu(), v0, dt, v.out()));
        EM_OK(ember_astype(cpu(), m0, dt, m.out()));
        EM_OK(ember_matmul(cpu(), v, m, got.out()));
        EM_OK(ember_matmul(ref(), as_ref(v), as_ref(m), want.out()));
        expect_close(got, want, tol, tol, std::string("vector @ batch ") + ember_dtype_name(dt));
        EM_OK(ember_matrix_transpose(cpu(), m, mt.out()));  // (3, 7, 45) view
        EM_OK(ember_matmul(cpu(), mt, v, got.out()));
        EM_OK(ember_matmul(ref(), as_ref(mt), as_ref(v), want.out()));
        expect_close(got, want, tol, tol, std::string("transposed batch @ vector ") + ember_dtype_name(dt));
    }

    // One output row or column goes to GEMV, a single output to DOT, with every operand
    // layout BLAS takes: contiguous, transposed views, stepped vectors.
    for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64}) {
        T a0 = tensor(cpu(), da, {2, 67, 45}, EMBER_FLOAT32), b0 = tensor(cpu(), db, {45, 53}, EMBER_FLOAT32), a, b, at, att, bt, btt;
        EM_OK(ember_astype(cpu(), a0, dt, a.out()));
        EM_OK(ember_astype(cpu(), b0, dt, b.out()));
        EM_OK(ember_matrix_transpose(cpu(), a, at.out()));
        EM_OK(ember_matrix_transpose(cpu(), at, att.out()));
        EM_OK(ember_matrix_transpose(cpu(), b, bt.out()));
        EM_OK(ember_matrix_transpose(cpu(), bt, btt.out()));
        T u = tensor(cpu(), randf(90, -1, 1, 45), {90}, dt), w = tensor(cpu(), randf(45, -1, 1, 46), {45}, dt), ustep, col;
        const int64_t st = 0, sp = EMBER_SLICE_END, two = 2;
        EM_OK(ember_slice(cpu(), u, &st, &sp, &two, 1, ustep.out()));  // 45 elements, stride 2
        int64_t colshape[2] = {45, 1};
        EM_OK(ember_reshape(cpu(), w, colshape, 2, col.out()));
        const double tol = dt == EMBER_FLOAT32 ? 2e-5 : 1e-12;
        struct {
            const char* layout;
            const ember_tensor_t *x, *y;
        } cases[] = {{"matrix @ vector", a, w},       {"transposed matrix @ vector", att, w}, {"matrix @ stepped vector", a, ustep},
                     {"vector @ matrix", w, b},       {"vector @ transposed matrix", w, btt}, {"stepped vector @ matrix", ustep, b},
                     {"vector @ vector", w, ustep},   {"batch @ column", a, col}};
        for (auto& c : cases) {
            T got, want;
            EM_OK(ember_matmul(cpu(), c.x, c.y, got.out()));
            EM_OK(ember_matmul(ref(), as_ref(c.x), as_ref(c.y), want.out()));
            expect_close(got, want, tol, tol, std::string(c.layout) + " " + ember_dtype_name(dt));
        }
    }
}

// A real product with few outputs and a long inner dimension (m * n <= 4096, k at least 16
// chunks) runs as 8 partial products over pieces of k, each in chunks that OpenBLAS keeps on
// one thread (inner_chunk in matmul.cpp: 136 at 48 x 40, the last chunk shorter): X^T Y of tall X and
// Y, A row-major, B transposed and B packed, against the reference; also on 1 and 3
// threads (CpuBackend.MatmulOnOneAndThreeThreads).
TEST(CpuLarge, MatmulSplitsLongInnerDimensions) {
    NEED_CPU();
    const int64_t k = 3001;
    auto dx = randf((size_t)(k * 96), -1, 1, 57), dy = randf((size_t)(k * 40), -1, 1, 58);
    for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64}) {
        const double tol = dt == EMBER_FLOAT32 ? 2e-5 * std::sqrt((double)k) : 1e-13 * std::sqrt((double)k);
        T wide = tensor(cpu(), dx, {k, 96}, dt), y = tensor(cpu(), dy, {k, 40}, dt), x, xt, yt, ytt, xrow, xrowt, ystep;
        int64_t st[2] = {0, 0}, sp[2] = {EMBER_SLICE_END, 48}, all[2] = {EMBER_SLICE_END, EMBER_SLICE_END}, colstep[2] = {1, 2};
        EM_OK(ember_slice(cpu(), wide, st, sp, nullptr, 2, x.out()));  // (k, 48), rows 96 apart
        EM_OK(ember_matrix_transpose(cpu(), x, xt.out()));            // (48, k): A transposed
        EM_OK(ember_copy(cpu(), xt, xrow.out()));                      // (48, k) row-major
        EM_OK(ember_matrix_transpose(cpu(), y, yt.out()));
        EM_OK(ember_copy(cpu(), yt, ytt.out()));
        T yback;
        EM_OK(ember_matrix_transpose(cpu(), ytt, yback.out()));  // (k, 40) view of a (40, k) matrix: B transposed
        T ywide = tensor(cpu(), randf((size_t)(k * 80), -1, 1, 59), {k, 80}, dt);
        EM_OK(ember_slice(cpu(), ywide, st, all, colstep, 2, ystep.out()));  // (k, 40), columns 2 apart: packed
        struct {
            const char* layout;
            const ember_tensor_t *a, *b;
        } cases[] = {{"X^T Y", xt, y}, {"row-major A", xrow, y}, {"transposed B", xrow, yback}, {"packed B", xt, ystep}};
        for (auto& c : cases) {
            T got, want;
            EM_OK(ember_matmul(cpu(), c.a, c.b, got.out()));
            EM_OK(ember_matmul(ref(), as_ref(c.a), as_ref(c.b), want.out()));
            expect_close(got, want, tol, tol, std::string("split inner dimension, ") + c.layout + " " + ember_dtype_name(dt));
        }
        // A batch of such products, each split in turn; B broadcast over the second batch axis.
        T xb = tensor(cpu(), randf((size_t)(2 * 3 * 48 * k), -1, 1, 60), {2, 3, 48, k}, dt), got, want;
        T yb = tensor(cpu(), randf((size_t)(2 * k * 40), -1, 1, 61), {2, 1, k, 40}, dt);
        EM_OK(ember_matmul(cpu(), xb, yb, got.out()));
        EM_OK(ember_matmul(ref(), as_ref(xb), as_ref(yb), want.out()));
        expect_close(got, want, tol, tol, std::string("split inner dimension, a batch ") + ember_dtype_name(dt));
    }
    // A Gram product (x @ x.T, x.T @ x) whose SYRK OpenBLAS keeps on one thread (float32 below
    // order 200, float64 below 100) runs as 8 SYRK calls over uneven pieces of k across the
    // pool (gram_pieces in matmul.cpp): row-major, transposed and packed x, k = 3001; the
    // result exactly symmetric.
    for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64}) {
        const double tol = dt == EMBER_FLOAT32 ? 2e-5 * std::sqrt((double)k) : 1e-13 * std::sqrt((double)k);
        const int64_t m = dt == EMBER_FLOAT32 ? 120 : 90;
        T x = tensor(cpu(), randf((size_t)(m * k), -1, 1, 62), {m, k}, dt), xt, wide = tensor(cpu(), randf((size_t)(2 * m * k), -1, 1, 63), {m, 2 * k}, dt);
        T xs, xst, tall, tall_t;
        int64_t st[2] = {0, 0}, sp[2] = {EMBER_SLICE_END, EMBER_SLICE_END}, colstep[2] = {1, 2};
        EM_OK(ember_matrix_transpose(cpu(), x, xt.out()));
        EM_OK(ember_copy(cpu(), xt, tall.out()));  // (k, m) row-major
        EM_OK(ember_matrix_transpose(cpu(), tall, tall_t.out()));
        EM_OK(ember_slice(cpu(), wide, st, sp, colstep, 2, xs.out()));  // (m, k), columns 2 apart: packed
        EM_OK(ember_matrix_transpose(cpu(), xs, xst.out()));
        struct {
            const char* layout;
            const ember_tensor_t *a, *b;
        } cases[] = {{"x @ x.T", x, xt}, {"x.T @ x of a tall x", tall_t, tall}, {"packed x @ x.T", xs, xst}};
        for (auto& c : cases) {
            const std::string what = std::string("Gram in pieces, ") + c.layout + " " + ember_dtype_name(dt);
            T got, want, got_t;
            EM_OK(ember_matmul(cpu(), c.a, c.b, got.out()));
            EM_OK(ember_matmul(ref(), as_ref(c.a), as_ref(c.b), want.out()));
            expect_close(got, want, tol, tol, what);
            EM_OK(ember_matrix_transpose(cpu(), got, got_t.out()));
            expect_close(got, got_t, 0, 0, what + " is symmetric");
        }
    }
}

// Real vecdot: contiguous rows up to 4096 long in the ISA's paired_row_dots, longer or
// strided ones as a batch of (1, k) @ (k, 1) products (DOT per product from the pool) or a
// product and a sum: short and long rows, stepped and reversed rows, a transposed operand,
// broadcast batch axes, against the reference.
TEST(CpuLarge, BatchedDotProducts) {
    NEED_CPU();
    struct Case {
        std::vector<int64_t> a, b;
    };
    const Case cases[] = {{{1000, 3}, {1000, 3}}, {{300, 65}, {300, 65}}, {{7, 5000}, {7, 5000}}, {{5, 1, 17}, {1, 4, 17}}, {{40000, 2}, {2}}};
    unsigned seed = 900;
    for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64})
        for (const Case& cs : cases) {
            auto count = [](const std::vector<int64_t>& sh) {
                int64_t n = 1;
                for (int64_t e : sh) n *= e;
                return n;
            };
            T a = tensor(cpu(), randf((size_t)count(cs.a), -1, 1, ++seed), cs.a, dt), b = tensor(cpu(), randf((size_t)count(cs.b), -1, 1, ++seed), cs.b, dt);
            const double tol = dt == EMBER_FLOAT32 ? 2e-4 : 1e-12;
            T got, want;
            EM_OK(ember_vecdot(cpu(), a, b, -1, got.out()));
            EM_OK(ember_vecdot(ref(), as_ref(a), as_ref(b), -1, want.out()));
            expect_close(got, want, tol, tol, std::string("vecdot ") + ember_dtype_name(dt) + " rows of " + std::to_string(cs.a.back()));
            // reversed rows of a, and b's values read down the columns of its transpose
            const int64_t last = (int64_t)cs.a.size() - 1;
            T ar, bt, bv;
            EM_OK(ember_flip(cpu(), a, &last, 1, ar.out()));
            if (cs.b.size() == 2) {
                std::vector<int64_t> tshape = {cs.b[1], cs.b[0]};
                T b2 = tensor(cpu(), randf((size_t)count(cs.b), -1, 1, ++seed), tshape, dt);
                EM_OK(ember_matrix_transpose(cpu(), b2, bt.out()));
                bv = std::move(bt);
            } else {
                EM_OK(ember_copy(cpu(), b, bv.out()));
            }
            T got2, want2;
            EM_OK(ember_vecdot(cpu(), ar, bv, -1, got2.out()));
            EM_OK(ember_vecdot(ref(), as_ref(ar), as_ref(bv), -1, want2.out()));
            expect_close(got2, want2, tol, tol, std::string("vecdot of reversed rows and a transposed operand ") + ember_dtype_name(dt));
            T br, got3, want3;  // both reversed
            const int64_t last_b = (int64_t)shape_of(bv).size() - 1;
            EM_OK(ember_flip(cpu(), bv, &last_b, 1, br.out()));
            EM_OK(ember_vecdot(cpu(), ar, br, -1, got3.out()));
            EM_OK(ember_vecdot(ref(), as_ref(ar), as_ref(br), -1, want3.out()));
            expect_close(got3, want3, tol, tol, std::string("vecdot of two reversed operands ") + ember_dtype_name(dt));
        }
}

// Real rows' vecdot (paired_row_dots in simd_gemv.hpp) sums a row of a against its row of b
// as M @ x sums a row of M against x: rows a vector's width of them at a time, four at a
// time or alone, in one order. So vecdot(M, x) (x broadcast: every row's b the same) and
// vecdot of M against rows that all hold x both come out bit for bit as M @ x; the rows from
// the second on come out as in the whole; (3, 67, k) as its (201, k) reshape (a call per
// 67 rows against calls across them).
TEST(CpuLarge, RealVecdotRowsAsMatrixVectorProducts) {
    NEED_CPU();
    expect_native_on_cpu("vecdot");
    unsigned seed = 1400;
    for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64})
        for (int64_t k : {1, 2, 3, 5, 7, 8, 9, 12, 16, 21, 33, 40, 100}) {
            const std::string what = std::string(ember_dtype_name(dt)) + " k " + std::to_string(k);
            T m = tensor(cpu(), randf(201 * (size_t)k, -1, 1, ++seed), {201, k}, dt), x = tensor(cpu(), randf((size_t)k, -1, 1, ++seed), {k}, dt);
            T b = tensor(cpu(), randf(201 * (size_t)k, -1, 1, ++seed), {201, k}, dt);
            T product, against_x, rows_of_x, x_rows;
            EM_OK(ember_matmul(cpu(), m, x, product.out()));
            EM_OK(ember_vecdot(cpu(), m, x, -1, against_x.out()));
            expect_close(against_x, product, 0, 0, "vecdot(M, x) against M @ x " + what);
            const int64_t full[2] = {201, k};
            EM_OK(ember_broadcast_to(cpu(), x, full, 2, x_rows.out()));
            T x_copied;
            EM_OK(ember_copy(cpu(), x_rows, x_copied.out()));
            EM_OK(ember_vecdot(cpu(), m, x_copied, -1, rows_of_x.out()));
            expect_close(rows_of_x, product, 0, 0, "vecdot(M, rows of x) against M @ x " + what);
            T whole, want, m_later, b_later, of_later, whole_later;
            EM_OK(ember_vecdot(cpu(), m, b, -1, whole.out()));
            EM_OK(ember_vecdot(ref(), as_ref(m), as_ref(b), -1, want.out()));
            expect_close(whole, want, dt == EMBER_FLOAT32 ? 2e-5 : 1e-13, dt == EMBER_FLOAT32 ? 2e-5 : 1e-13, "vecdot " + what);
            int64_t r0[2] = {1, 0}, r1[2] = {EMBER_SLICE_END, EMBER_SLICE_END}, r2[2] = {1, 1};
            EM_OK(ember_slice(cpu(), m, r0, r1, r2, 2, m_later.out()));
            EM_OK(ember_slice(cpu(), b, r0, r1, r2, 2, b_later.out()));
            EM_OK(ember_vecdot(cpu(), m_later, b_later, -1, of_later.out()));
            EM_OK(ember_slice(cpu(), whole, r0, r1, r2, 1, whole_later.out()));
            expect_close(of_later, whole_later, 0, 0, "vecdot(M[1:], B[1:]) against vecdot(M, B)[1:] " + what);
            const int64_t three[3] = {3, 67, k}, flat[1] = {201};
            T m3, b3, of3, of3_flat;
            EM_OK(ember_reshape(cpu(), m, three, 3, m3.out()));
            EM_OK(ember_reshape(cpu(), b, three, 3, b3.out()));
            EM_OK(ember_vecdot(cpu(), m3, b3, -1, of3.out()));
            EM_OK(ember_reshape(cpu(), of3, flat, 1, of3_flat.out()));
            expect_close(of3_flat, whole, 0, 0, "vecdot of (3, 67, k) against its (201, k) reshape " + what);
        }
}

// Real vecdot of columns (lines down axis -2 of row-major data, e.g. axis 0 of a matrix) is
// the ISA's paired_column_dots: rows read in order, sums in blocks of 256 rows, stretches of
// 1024 columns; few columns of many rows in 8 parts. Against the reference: few and many
// columns (a partial vector, more than a stretch), blocks and parts, a batch axis walked
// and broadcast, columns of a wider matrix; a column's sum does not depend on where it
// lies (columns from the second on come out bit for bit as in the whole), and the blocks
// keep a column of a million equal products close to their sum.
TEST(CpuLarge, RealVecdotOfColumns) {
    NEED_CPU();
    struct Case {
        std::vector<int64_t> a, b;
        int64_t axis;
    };
    const Case cases[] = {{{1000, 3}, {1000, 3}, 0},     {{5, 37}, {5, 37}, 0},           {{600, 1030}, {600, 1030}, 0},
                          {{70000, 5}, {70000, 5}, 0},   {{4, 300, 9}, {4, 300, 9}, 1},   {{1, 257, 20}, {3, 257, 20}, -2},
                          {{6, 9}, {6, 9}, -2}};
    unsigned seed = 2600;
    auto count = [](const std::vector<int64_t>& sh) {
        int64_t n = 1;
        for (int64_t e : sh) n *= e;
        return n;
    };
    for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64}) {
        const double tol = dt == EMBER_FLOAT32 ? 2e-4 : 1e-12;
        for (const Case& cs : cases) {
            const std::string what = std::string(ember_dtype_name(dt)) + " of " + std::to_string(count(cs.a)) + " along " + std::to_string(cs.axis);
            T a = tensor(cpu(), randf((size_t)count(cs.a), -1, 1, ++seed), cs.a, dt), b = tensor(cpu(), randf((size_t)count(cs.b), -1, 1, ++seed), cs.b, dt);
            T got, want;
            EM_OK(ember_vecdot(cpu(), a, b, cs.axis, got.out()));
            EM_OK(ember_vecdot(ref(), as_ref(a), as_ref(b), cs.axis, want.out()));
            expect_close(got, want, tol, tol, "vecdot " + what);
            if (cs.a.size() != 2) continue;
            // columns 1.. of the same data, and columns of a wider matrix (rows cs.a[1] + 3 apart)
            const int64_t start[2] = {0, 1}, stop[2] = {EMBER_SLICE_END, EMBER_SLICE_END}, step[2] = {1, 1};
            T a_later, b_later, of_later, got_later;
            EM_OK(ember_slice(cpu(), a, start, stop, step, 2, a_later.out()));
            EM_OK(ember_slice(cpu(), b, start, stop, step, 2, b_later.out()));
            EM_OK(ember_vecdot(cpu(), a_later, b_later, 0, of_later.out()));
            const int64_t one = 1, end = EMBER_SLICE_END, unit = 1;
            EM_OK(ember_slice(cpu(), got, &one, &end, &unit, 1, got_later.out()));
            expect_close(of_later, got_later, 0, 0, "vecdot of columns 1.. against the whole's " + what);
            const std::vector<int64_t> wide = {cs.a[0], cs.a[1] + 3};
            T aw = tensor(cpu(), randf((size_t)count(wide), -1, 1, ++seed), wide, dt), bw = tensor(cpu(), randf((size_t)count(wide), -1, 1, ++seed), wide, dt);
            const int64_t first[2] = {0, 2}, last[2] = {EMBER_SLICE_END, cs.a[1] + 2};
            T av, bv, got_v, want_v;
            EM_OK(ember_slice(cpu(), aw, first, last, step, 2, av.out()));
            EM_OK(ember_slice(cpu(), bw, first, last, step, 2, bv.out()));
            EM_OK(ember_vecdot(cpu(), av, bv, 0, got_v.out()));
            EM_OK(ember_vecdot(ref(), as_ref(av), as_ref(bv), 0, want_v.out()));
            expect_close(got_v, want_v, tol, tol, "vecdot of a wider matrix's columns " + what);
        }
    }
    // 1e6 products of 0.1f: summed one after another in float32 they drift by about 1%.
    const int64_t rows = 1000000;
    T ones, tenths, sum;
    const int64_t column[2] = {rows, 2};
    EM_OK(ember_full(cpu(), column, 2, 1.0, EMBER_FLOAT32, ones.out()));
    EM_OK(ember_full(cpu(), column, 2, 0.1, EMBER_FLOAT32, tenths.out()));
    EM_OK(ember_vecdot(cpu(), ones, tenths, 0, sum.out()));
    for (double v : host_values(sum)) EXPECT_NEAR(v, rows * (double)0.1f, 1.0);
}

// Complex vecdot, sum(conj(a) * b), is the cpu backend's one-pass kernel (vecdot.cpp): short
// lines summed in the kernel, longer ones by CBLAS's conjugating dot in pieces, lines of
// kLongLine or more in parts (across the pool for one line, and for four); against the reference's conj, product and sum, with broadcast
// batch axes, reversed lines, lines down the columns (axis 0: a row of columns at a time,
// in stretches of 256, blocks of 256 rows, and 8 parts for three columns of 70000 rows), a
// line of stride 0 and a real operand promoted to complex.
TEST(CpuLarge, ComplexVecdot) {
    NEED_CPU();
    expect_native_on_cpu("vecdot");
    struct Case {
        std::vector<int64_t> a, b;
    };
    const Case cases[] = {{{1000, 3}, {1000, 3}}, {{300, 65}, {300, 65}}, {{7, 5000}, {7, 5000}}, {{5, 1, 17}, {1, 4, 17}},
                          {{40000, 2}, {2}}, {{2, 9000}, {2, 9000}}, {{33}, {33}}, {{70000}, {70000}}, {{4, 66000}, {4, 66000}},
                          {{70000, 3}, {70000, 3}}, {{600, 300}, {600, 300}}};
    auto count = [](const std::vector<int64_t>& sh) {
        int64_t n = 1;
        for (int64_t e : sh) n *= e;
        return n;
    };
    unsigned seed = 950;
    // re + i im, both parts random in [-1, 1)
    auto complex_tensor = [&](const std::vector<int64_t>& shape, ember_dtype_t dt) {
        T re = tensor(cpu(), randf((size_t)count(shape), -1, 1, ++seed), shape, dt), im = tensor(cpu(), randf((size_t)count(shape), -1, 1, ++seed), shape, dt);
        T i, turned, z;
        EXPECT_EQ(ember_scalar_c128(cpu(), 0, 1, i.out()), EMBER_OK);
        EXPECT_EQ(ember_multiply(cpu(), im, i, turned.out()), EMBER_OK);
        EXPECT_EQ(ember_add(cpu(), re, turned, z.out()), EMBER_OK) << ember_last_error();
        return z;
    };
    for (ember_dtype_t dt : {EMBER_COMPLEX64, EMBER_COMPLEX128}) {
        const double tol = dt == EMBER_COMPLEX64 ? 2e-4 : 1e-12;
        const std::string name = ember_dtype_name(dt);
        auto compare = [&](const ember_tensor_t* a, const ember_tensor_t* b, int64_t axis, const std::string& what) {
            T got, want;
            EM_OK(ember_vecdot(cpu(), a, b, axis, got.out()));
            EM_OK(ember_vecdot(ref(), as_ref(a), as_ref(b), axis, want.out()));
            EXPECT_EQ(dtype_of(got), dt) << what;
            expect_close(got, want, tol, tol, what + " " + name);
        };
        for (const Case& cs : cases) {
            T a = complex_tensor(cs.a, dt), b = complex_tensor(cs.b, dt);
            const std::string rows = " rows of " + std::to_string(cs.a.back());
            compare(a, b, -1, "vecdot" + rows);
            const int64_t last = (int64_t)cs.a.size() - 1;
            T ar;
            EM_OK(ember_flip(cpu(), a, &last, 1, ar.out()));
            compare(ar, b, -1, "vecdot of reversed" + rows);
            if (cs.a.size() == 2 && cs.a == cs.b) compare(a, b, 0, "vecdot down the columns of" + rows);
        }
        T a = complex_tensor({300, 65}, dt), one = complex_tensor({1}, dt), flat;
        const int64_t shape[] = {300, 65};
        EM_OK(ember_broadcast_to(cpu(), one, shape, 2, flat.out()));
        compare(flat, a, -1, "vecdot of a line of stride 0");
        T real = tensor(cpu(), randf(300 * 65, -1, 1, ++seed), {300, 65}, dt == EMBER_COMPLEX64 ? EMBER_FLOAT32 : EMBER_FLOAT64);
        compare(real, a, -1, "vecdot of a real and a complex operand");
        compare(a, real, -1, "vecdot of a complex and a real operand");
    }
}

// Real products of at most 32^3 multiply-adds (64^3 where OpenBLAS's core has no
// small-matrix kernels) run in the ISA's own kernel (small_batch in matmul.cpp,
// simd_small_gemm.hpp; float16 and bfloat16 after their conversion to float32): every row remainder (m % 4), every column path (two
// vectors, one, a half and a quarter vector, single columns) and k = 0, 1 and odd, A and B
// in every layout (transposed and stepped views; B packed, once for a B shared by a batch
// spread across the pool), two batch axes with broadcasting, against the reference. Also
// on the AVX2 and generic kernels and with OpenBLAS's Haswell core
// (CpuBackend.SmallMatmulOnEveryIsa), and on 1 and 3 threads
// (CpuBackend.MatmulOnOneAndThreeThreads).
TEST(CpuLarge, MatmulSmallProducts) {
    NEED_CPU();
    auto check = [](const ember_tensor_t* x, const ember_tensor_t* y, double tol, const std::string& what) {
        T got, want;
        EM_OK(ember_matmul(cpu(), x, y, got.out()));
        EM_OK(ember_matmul(ref(), as_ref(x), as_ref(y), want.out()));
        expect_close(got, want, tol, tol, what);
        ember_dtype_t dt{};
        ember_tensor_dtype(got, &dt);
        if (dt != EMBER_COMPLEX64 && dt != EMBER_COMPLEX128) return;
        T got_im, want_im;
        EM_OK(ember_imag(ref(), as_ref(got), got_im.out()));
        EM_OK(ember_imag(ref(), as_ref(want), want_im.out()));
        expect_close(got_im, want_im, tol, tol, what + " (imaginary parts)");
    };
    unsigned seed = 70;
    for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_FLOAT16, EMBER_BFLOAT16, EMBER_COMPLEX64, EMBER_COMPLEX128}) {
        const double tol = dt == EMBER_FLOAT16 ? 4e-3 : dt == EMBER_BFLOAT16 ? 3e-2 : dt == EMBER_FLOAT32 ? 2e-5 : dt == EMBER_COMPLEX64 ? 4e-5 : 1e-12;
        const std::string d = ember_dtype_name(dt);
        // Random values of dt: complex ones with random real and imaginary parts.
        auto make = [&](size_t count, std::vector<int64_t> shape) {
            if (dt != EMBER_COMPLEX64 && dt != EMBER_COMPLEX128) return tensor(cpu(), randf(count, -1, 1, seed++), shape, dt);
            const auto parts = randf(2 * count, -1, 1, seed++);
            const std::vector<double> wide(parts.begin(), parts.end());
            T t;
            EXPECT_EQ(ember_tensor_from_data(cpu(), dt == EMBER_COMPLEX64 ? (const void*)parts.data() : (const void*)wide.data(), dt,
                                             shape.data(), (int)shape.size(), t.out()),
                      EMBER_OK);
            return t;
        };
        for (int64_t m : {1, 2, 3, 4, 5, 7})
            for (int64_t n : {1, 2, 3, 5, 8, 12, 16, 20, 33, 40})
                for (int64_t k : {0, 1, 17}) {
                    T a = make(2 * m * k, {2, m, k});
                    T b = make(2 * k * n, {2, k, n});
                    check(a, b, tol, "small product " + d + " " + std::to_string(m) + "x" + std::to_string(k) + "x" + std::to_string(n));
                }
        // 40^3 and 64^3: our kernel where OpenBLAS's core has no small-matrix kernels (the
        // child with OPENBLAS_CORETYPE=Haswell) and for complex dtypes, OpenBLAS otherwise;
        // 72^3: OpenBLAS for every dtype.
        for (auto [m, k, n] : {std::array<int64_t, 3>{3, 3, 3}, {4, 4, 4}, {5, 7, 20}, {6, 16, 9}, {40, 40, 40}, {64, 64, 64}, {72, 72, 72}}) {
            const std::string shape = " " + d + " " + std::to_string(m) + "x" + std::to_string(k) + "x" + std::to_string(n);
            T a_t = make(2 * k * m, {2, k, m}), at;   // A transposed
            T b_t = make(2 * n * k, {2, n, k}), bt;   // B transposed: packed
            T a2 = make(2 * m * 2 * k, {2, m, 2 * k}), astep;
            T b2 = make(2 * k * 2 * n, {2, k, 2 * n}), bstep;
            EM_OK(ember_matrix_transpose(cpu(), a_t, at.out()));
            EM_OK(ember_matrix_transpose(cpu(), b_t, bt.out()));
            int64_t st[3] = {0, 0, 0}, sp[3] = {EMBER_SLICE_END, EMBER_SLICE_END, EMBER_SLICE_END}, colstep[3] = {1, 1, 2};
            EM_OK(ember_slice(cpu(), a2, st, sp, colstep, 3, astep.out()));  // columns 2 apart
            EM_OK(ember_slice(cpu(), b2, st, sp, colstep, 3, bstep.out()));  // columns 2 apart: packed
            T a = make(2 * m * k, {2, m, k});
            T b = make(2 * k * n, {2, k, n});
            check(at, b, tol, "transposed A" + shape);
            check(a, bt, tol, "transposed B" + shape);
            check(at, bt, tol, "both transposed" + shape);
            check(astep, bstep, tol, "stepped columns" + shape);
            // Two batch axes, each operand broadcast over one of them.
            T a4 = make(5 * m * k, {5, 1, m, k});
            T b4 = make(7 * k * n, {7, k, n});
            check(a4, b4, tol, "broadcast batch axes" + shape);
            T a5 = make(2 * 3 * m * k, {2, 3, m, k});
            T b5 = make(3 * k * n, {3, k, n});
            check(a5, b5, tol, "two batch axes, B broadcast over the first" + shape);
        }
        // A batch that spreads across the pool: A transposed (so the batch does not fold into
        // one product), B one transposed matrix shared by the batch, packed once per piece.
        T a_t = make(3000 * 16 * 4, {3000, 16, 4}), at;
        T b_t = make(16 * 16, {16, 16}), bt;
        EM_OK(ember_matrix_transpose(cpu(), a_t, at.out()));
        EM_OK(ember_matrix_transpose(cpu(), b_t, bt.out()));
        check(at, bt, tol, "a batch across the pool, shared packed B " + d);
    }
}

// The small-product kernels of each ISA (simd_small_gemm.hpp is compiled once per ISA),
// and the larger limit under an OpenBLAS core without small-matrix kernels.
// Products with one output row or column run in our matrix-vector kernels (simd_gemv.hpp):
// A's rows against x (row_dots: M @ x, x @ M^T) and combinations of A's rows (x @ M, M^T @
// x), with row counts that are not a multiple of the 4-row block, lengths around the
// vector widths (the masked AVX-512 tail, the scalar tails of the other ISAs), a vector
// with a step, rows shorter than a vector in blocks of 4 and one by one, and products large
// enough to split over the pool (from 2^18 elements).
TEST(CpuLarge, MatrixVectorProductsInEveryForm) {
    NEED_CPU();
    unsigned seed = 90;
    // Complex values get random imaginary parts (a conjugated product would differ); both
    // parts are compared.
    auto make = [&](std::vector<int64_t> shape, ember_dtype_t dt) {
        int64_t n = 1;
        for (int64_t e : shape) n *= e;
        T t = tensor(cpu(), randf((size_t)n, -1, 1, seed++), shape, dt);
        if (dt != EMBER_COMPLEX64 && dt != EMBER_COMPLEX128) return t;
        T im = tensor(cpu(), randf((size_t)n, -1, 1, seed++), shape, dt), i, turned, both;
        EXPECT_EQ(ember_scalar_c128(cpu(), 0, 1, i.out()), EMBER_OK);
        EXPECT_EQ(ember_multiply(cpu(), im, i, turned.out()), EMBER_OK);
        EXPECT_EQ(ember_add(cpu(), t, turned, both.out()), EMBER_OK);
        return both;
    };
    auto expect_parts_close = [](const ember_tensor_t* got, const ember_tensor_t* want, double tol, const std::string& what) {
        expect_close(got, want, tol, tol, what);
        if (dtype_of(got) != EMBER_COMPLEX64 && dtype_of(got) != EMBER_COMPLEX128) return;
        T got_im, want_im;
        EM_OK(ember_imag(ref(), as_ref(got), got_im.out()));
        EM_OK(ember_imag(ref(), as_ref(want), want_im.out()));
        expect_close(got_im, want_im, tol, tol, what + " (imaginary parts)");
    };
    // half: on the float32 values; complex: through CGEMV/ZGEMV
    for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_FLOAT16, EMBER_BFLOAT16, EMBER_COMPLEX64, EMBER_COMPLEX128}) {
        const std::string d = ember_dtype_name(dt);
        for (auto [m, k] : {std::array<int64_t, 2>{1, 5}, {3, 1}, {5, 7}, {7, 16}, {9, 31}, {13, 33}, {6, 64}, {37, 100}, {130, 17},
                            {523, 1037}, {1100, 301}, {70, 4100}, {1001, 3}, {2003, 6}, {1003, 12}, {99, 16}}) {
            const double tol = dt == EMBER_FLOAT16                           ? 4e-3
                               : dt == EMBER_BFLOAT16                        ? 3e-2
                               : dt == EMBER_FLOAT32 || dt == EMBER_COMPLEX64 ? (k > 1000 ? 1e-4 : 2e-5)
                                                                             : 1e-12;
            const std::string shape = " " + d + " " + std::to_string(m) + "x" + std::to_string(k);
            T mat = make({m, k}, dt);
            T mat_t_store = make({k, m}, dt), mat_t;
            EM_OK(ember_matrix_transpose(cpu(), mat_t_store, mat_t.out()));  // (m, k) with contiguous columns
            T x = make({k}, dt);
            T y = make({m}, dt);
            T x2 = make({2 * k}, dt), x_step;
            int64_t st[1] = {1}, sp[1] = {EMBER_SLICE_END}, step[1] = {2};
            EM_OK(ember_slice(cpu(), x2, st, sp, step, 1, x_step.out()));  // k elements 2 apart
            struct {
                const char* form;
                const ember_tensor_t *a, *b;
            } cases[] = {{"M @ x", mat, x}, {"M^T view @ x", mat_t, x}, {"y @ M", y, mat}, {"y @ M^T view", y, mat_t},
                         {"M @ stepped x", mat, x_step}, {"M^T view @ stepped x", mat_t, x_step}};
            for (auto& c : cases) {
                T got, want;
                EM_OK(ember_matmul(cpu(), c.a, c.b, got.out()));
                EM_OK(ember_matmul(ref(), as_ref(c.a), as_ref(c.b), want.out()));
                expect_parts_close(got, want, tol, std::string(c.form) + shape);
            }
            // A matrix with one column on the right: an (m, 1) result
            T xcol, got, want;
            int64_t col_shape[2] = {k, 1};
            EM_OK(ember_reshape(cpu(), x, col_shape, 2, xcol.out()));
            EM_OK(ember_matmul(cpu(), mat, xcol, got.out()));
            EM_OK(ember_matmul(ref(), as_ref(mat), as_ref(xcol), want.out()));
            expect_parts_close(got, want, tol, "M @ (k, 1)" + shape);
        }
        {  // an empty inner dimension: zeros
            T mat = tensor(cpu(), std::vector<float>{}, {3, 0}, dt), v = tensor(cpu(), std::vector<float>{}, {0}, dt), got, want;
            EM_OK(ember_matmul(cpu(), mat, v, got.out()));
            EM_OK(ember_matmul(ref(), as_ref(mat), as_ref(v), want.out()));
            expect_close(got, want, 0, 0, "(3, 0) @ (0,) " + d);
        }
        if (dt == EMBER_COMPLEX64 || dt == EMBER_COMPLEX128) continue;  // the rest: real and half kernels
        // Wide column ranges (from 3 KiB of a row) are summed in the output, narrow ones in
        // registers, in the same order: the first 350 columns of x @ M come out the same
        // either way, on any number of threads.
        T wide = tensor(cpu(), randf(300 * 4100, -1, 1, seed++), {300, 4100}, dt), narrow;
        T x = tensor(cpu(), randf(300, -1, 1, seed++), {300}, dt);
        int64_t st[2] = {0, 0}, sp[2] = {EMBER_SLICE_END, 350}, step[2] = {1, 1};
        EM_OK(ember_slice(cpu(), wide, st, sp, step, 2, narrow.out()));
        T all, first, first_of_all;
        EM_OK(ember_matmul(cpu(), x, wide, all.out()));
        EM_OK(ember_matmul(cpu(), x, narrow, first.out()));
        int64_t st1[1] = {0}, sp1[1] = {350}, step1[1] = {1};
        EM_OK(ember_slice(cpu(), all, st1, sp1, step1, 1, first_of_all.out()));
        expect_close(first, first_of_all, 0, 0, "x @ M in place and in registers " + d);
        // M @ x sums rows a vector's width of them at a time, four at a time or alone
        // (simd_gemv.hpp), every way in the same order: the rows from the second on, as a
        // view whose groups begin a row later, come out bit for bit as in the whole product.
        for (int64_t kl : {1, 3, 5, 8, 12, 16, 21, 40}) {
            T m203 = tensor(cpu(), randf(203 * (size_t)kl, -1, 1, seed++), {203, kl}, dt);
            T v = tensor(cpu(), randf((size_t)kl, -1, 1, seed++), {kl}, dt), later, whole, of_later, whole_later;
            int64_t r0[2] = {1, 0}, r1[2] = {EMBER_SLICE_END, EMBER_SLICE_END}, r2[2] = {1, 1};
            EM_OK(ember_slice(cpu(), m203, r0, r1, r2, 2, later.out()));
            EM_OK(ember_matmul(cpu(), m203, v, whole.out()));
            EM_OK(ember_matmul(cpu(), later, v, of_later.out()));
            int64_t e0[1] = {1}, e1[1] = {EMBER_SLICE_END}, e2[1] = {1};
            EM_OK(ember_slice(cpu(), whole, e0, e1, e2, 1, whole_later.out()));
            expect_close(of_later, whole_later, 0, 0, "M[1:] @ x against (M @ x)[1:] " + d + " k " + std::to_string(kl));
        }
        // Half matrices are read as they lie by one product and converted to float32 first
        // in a batch: the same sums either way.
        if (dt != EMBER_FLOAT16 && dt != EMBER_BFLOAT16) continue;
        T mat = tensor(cpu(), randf(77 * 301, -1, 1, seed++), {77, 301}, dt), v = tensor(cpu(), randf(301, -1, 1, seed++), {301}, dt);
        T batch, alone, batched, first_batched;
        const ember_tensor_t* two[2] = {mat, mat};
        EM_OK(ember_stack(cpu(), two, 2, 0, batch.out()));
        EM_OK(ember_matmul(cpu(), mat, v, alone.out()));
        EM_OK(ember_matmul(cpu(), batch, v, batched.out()));
        int64_t st2[2] = {0, 0}, sp2[2] = {1, EMBER_SLICE_END}, step2[2] = {1, 1}, flat[1] = {77};
        EM_OK(ember_slice(cpu(), batched, st2, sp2, step2, 2, first_batched.out()));
        T first_flat;
        EM_OK(ember_reshape(cpu(), first_batched, flat, 1, first_flat.out()));
        expect_close(alone, first_flat, 0, 0, "half M @ x alone and in a batch " + d);
    }
}

TEST(CpuBackend, SmallMatmulOnEveryIsa) {
    NEED_CPU();
    NEED_CHILD_PROCESSES();
    EXPECT_EQ(run_child("CpuLarge.MatmulSmallProducts:CpuLarge.MatrixVectorProductsInEveryForm", {{"EMBER_CPU_ISA", "avx2"}}), 0);
    EXPECT_EQ(run_child("CpuLarge.MatmulSmallProducts:CpuLarge.MatrixVectorProductsInEveryForm", {{"EMBER_CPU_ISA", "generic"}}), 0);
    EXPECT_EQ(run_child("CpuLarge.MatrixVectorProductsInEveryForm", {{"EMBER_NUM_THREADS", "3"}}), 0);
    EXPECT_EQ(run_child("CpuLarge.MatmulSmallProducts", {{"OPENBLAS_CORETYPE", "Haswell"}}), 0);
}

// fft.cpp transforms a vector's width of lines at once (8, 4 or 2 by ISA) and spreads the
// blocks over the pool: every ISA, and one and three threads. The real transforms' split
// and merge run per ISA on those blocks: every ISA too.
TEST(CpuBackend, FftOnEveryIsaAndThreadCount) {
    NEED_CPU();
    NEED_CHILD_PROCESSES();
    for (auto env : {std::pair<std::string, std::string>{"EMBER_CPU_ISA", "avx2"}, {"EMBER_CPU_ISA", "generic"}, {"EMBER_NUM_THREADS", "1"},
                     {"EMBER_NUM_THREADS", "3"}})
        EXPECT_EQ(run_child(env.first == "EMBER_CPU_ISA" ? "CpuLarge.FftMatchesReference:CpuLarge.RealFftMatchesReference" : "CpuLarge.FftMatchesReference",
                            {env}),
                  0)
            << env.first << "=" << env.second;
}

// abs of complex64, and conj and multiply of both complex dtypes, run vector kernels promised
// bit for bit equal to the reference (std::abs, that is glibc's hypotf; std::conj; the
// std::complex product, recovery of infinities included): random values with
// special ones mixed in (infinities beside NaNs, signed zeros, subnormals, parts whose
// squares overflow or underflow float32), contiguous, transposed and stepped, across the pool.
TEST(CpuLarge, ComplexKernelsMatchReferenceExactly) {
    NEED_CPU();
    const int64_t rows = 601, cols = 1001;  // 601601 values: the pool, odd vector tails
    auto parts = randf((size_t)(2 * rows * cols), -3, 3, 71);
    const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
    const float specials[] = {inf, -inf, nan, 0.0f, -0.0f, 1e-40f, -3e-39f, 3e38f, -2e38f, 1e-30f, 5e-25f};
    for (size_t i = 0; i < parts.size(); i += 97) parts[i] = specials[(i / 97) % (sizeof specials / sizeof specials[0])];
    parts[1] = nan;  // inf beside NaN: |z| = inf
    parts[0] = inf;
    const std::vector<double> wide(parts.begin(), parts.end());
    for (ember_dtype_t dt : {EMBER_COMPLEX64, EMBER_COMPLEX128}) {
        const std::string d = ember_dtype_name(dt);
        int64_t shape[2] = {rows, cols};
        T z, zt, zs;
        EM_OK(ember_tensor_from_data(cpu(), dt == EMBER_COMPLEX64 ? (const void*)parts.data() : (const void*)wide.data(), dt, shape, 2, z.out()));
        EM_OK(ember_matrix_transpose(cpu(), z, zt.out()));
        const int64_t all_from[2] = {0, 0}, all_to[2] = {EMBER_SLICE_END, EMBER_SLICE_END}, every_other[2] = {1, 2};
        EM_OK(ember_slice(cpu(), z, all_from, all_to, every_other, 2, zs.out()));
        for (auto [layout, x] : {std::pair<const char*, const ember_tensor_t*>{"contiguous", z}, {"transposed", zt}, {"stepped", zs}}) {
            T got, want, got_im, want_im;
            EM_OK(ember_conj(cpu(), x, got.out()));
            EM_OK(ember_conj(ref(), as_ref(x), want.out()));
            EXPECT_EQ(backend_of(got), "cpu");
            expect_close(got, want, 0, 0, "conj " + d + " " + layout);
            EM_OK(ember_imag(ref(), as_ref(got), got_im.out()));
            EM_OK(ember_imag(ref(), as_ref(want), want_im.out()));
            expect_close(got_im, want_im, 0, 0, "conj " + d + " " + layout + " (imaginary parts)");
            T sign_got, sign_want;  // -0.0 against +0.0, which the comparison above cannot see
            EM_OK(ember_signbit(ref(), got_im, sign_got.out()));
            EM_OK(ember_signbit(ref(), want_im, sign_want.out()));
            expect_close(sign_got, sign_want, 0, 0, "conj " + d + " " + layout + " (signs of the imaginary parts)");
            T a, aw;  // complex128: see AbsComplex128WithinOneUlp
            EM_OK(ember_abs(cpu(), x, a.out()));
            EM_OK(ember_abs(ref(), as_ref(x), aw.out()));
            if (dt == EMBER_COMPLEX64) expect_close(a, aw, 0, 0, "abs " + d + " " + layout);
            else expect_close(a, aw, 0x1p-52, 0, "abs " + d + " " + layout);
            T neg, neg_want;  // every bit: the signs of zeros and NaNs flipped as the reference flips them
            EM_OK(ember_negative(cpu(), x, neg.out()));
            EM_OK(ember_negative(ref(), as_ref(x), neg_want.out()));
            EXPECT_EQ(raw_bytes(neg), raw_bytes(neg_want)) << "negative " << d << " " << layout;
            // square (the product's kernel, z as both operands), round (each part), and the
            // classifications (each part, then the pair's answers combined)
            using Unary = ember_status_t (*)(ember_ctx_t*, const ember_tensor_t*, ember_tensor_t**);
            const std::pair<const char*, Unary> by_parts[] = {
                {"square", ember_square}, {"reciprocal", ember_reciprocal}, {"sign", ember_sign}, {"round", ember_round},
                {"isnan", ember_isnan},   {"isinf", ember_isinf},           {"isfinite", ember_isfinite}};
            for (auto [name, fn] : by_parts) {
                T r, rw, r_im, rw_im;
                EM_OK(fn(cpu(), x, r.out()));
                EM_OK(fn(ref(), as_ref(x), rw.out()));
                const std::string what = std::string(name) + " " + d + " " + layout;
                expect_close(r, rw, 0, 0, what);
                if (dtype_of(r) == EMBER_BOOL) continue;
                EM_OK(ember_imag(ref(), as_ref(r), r_im.out()));
                EM_OK(ember_imag(ref(), as_ref(rw), rw_im.out()));
                expect_close(r_im, rw_im, 0, 0, what + " (imaginary parts)");
            }
        }
        T sq, sq_want, sq_im, sq_want_im;  // squared in place
        EM_OK(ember_multiply(cpu(), z, z, sq_want.out()));
        EM_OK(ember_copy(cpu(), z, sq.out()));
        const ember_tensor_t* self[1] = {sq};
        EM_OK(ember_elementwise_into(cpu(), "square", self, 1, sq));
        expect_close(sq, sq_want, 0, 0, "square " + d + " in place");
        EM_OK(ember_imag(ref(), as_ref(sq), sq_im.out()));
        EM_OK(ember_imag(ref(), as_ref(sq_want), sq_want_im.out()));
        expect_close(sq_im, sq_want_im, 0, 0, "square " + d + " in place (imaginary parts)");
        // multiply: the reference's rounding (no FMA) and its recovery of infinities where
        // both parts are NaN (inf * (0 + 1i) and the like, from the specials); z against its
        // reversal, a broadcast scalar either side, a row broadcast, and into its own input.
        T rev, s, row, rev_t;
        const int64_t axis0 = 0, one = 1, zero = 0;
        EM_OK(ember_flip(cpu(), z, &axis0, 1, rev.out()));
        EM_OK(ember_scalar_c128(cpu(), 1.5, -0.25, s.out()));
        EM_OK(ember_slice(cpu(), z, &zero, &one, nullptr, 1, row.out()));
        EM_OK(ember_matrix_transpose(cpu(), rev, rev_t.out()));
        T flip1, thirds, rev_thirds;
        EM_OK(ember_flip(cpu(), z, &one, 1, flip1.out()));
        const int64_t from[2] = {0, 0}, to[2] = {EMBER_SLICE_END, EMBER_SLICE_END}, by3[2] = {1, 3};
        EM_OK(ember_slice(cpu(), z, from, to, by3, 2, thirds.out()));
        EM_OK(ember_slice(cpu(), rev, from, to, by3, 2, rev_thirds.out()));
        // divide likewise (libgcc's quotients, with the recovery where the specials meet 0
        // or infinity; complex128's thresholds: Complex128QuotientsMatchReferenceBitForBit).
        using Binary = ember_status_t (*)(ember_ctx_t*, const ember_tensor_t*, const ember_tensor_t*, ember_tensor_t**);
        // add and subtract part by part: bit for bit (zeros' signs and NaNs included).
        for (auto [name, fn] : {std::pair<const char*, Binary>{"multiply", ember_multiply}, {"divide", ember_divide}, {"add", ember_add}, {"subtract", ember_subtract}}) {
            auto expect_same = [&, name = name, fn = fn](const ember_tensor_t* x, const ember_tensor_t* y, const std::string& what) {
                T got, want, got_im, want_im;
                EM_OK(fn(cpu(), x, y, got.out()));
                EM_OK(fn(ref(), as_ref(x), as_ref(y), want.out()));
                if (name[0] == 'a' || name[0] == 's') {
                    EXPECT_EQ(raw_bytes(got), raw_bytes(want)) << name << " " << d << " " << what;
                }
                expect_close(got, want, 0, 0, std::string(name) + " " + d + " " + what);
                EM_OK(ember_imag(ref(), as_ref(got), got_im.out()));
                EM_OK(ember_imag(ref(), as_ref(want), want_im.out()));
                expect_close(got_im, want_im, 0, 0, std::string(name) + " " + d + " " + what + " (imaginary parts)");
            };
            expect_same(z, rev, "z, flip(z)");
            expect_same(z, s, "z, scalar");
            expect_same(s, rev, "scalar, flip(z)");
            expect_same(z, row, "z, first row");
            expect_same(zt, rev_t, "transposed views");
            // Stepped operands (quotients through elementwise.cpp's tiles, 16-byte ones for
            // complex128; the others through the reference on slices), and a transposed output.
            expect_same(z, flip1, "z, flip(z, axis=1) (a negative step)");
            expect_same(thirds, rev_thirds, "every third column");
            expect_same(s, thirds, "scalar, every third column");
            expect_same(zt, s, "transposed view, scalar");
            {
                T fresh, into_t, want;  // into a transposed view of a fresh (cols, rows) tensor
                EM_OK(ember_multiply(cpu(), zt, s, fresh.out()));
                EM_OK(ember_matrix_transpose(cpu(), fresh, into_t.out()));
                const ember_tensor_t* ops[2] = {z, rev};
                EM_OK(ember_elementwise_into(cpu(), name, ops, 2, into_t));
                EM_OK(fn(ref(), as_ref(z), as_ref(rev), want.out()));
                expect_close(into_t, want, 0, 0, std::string(name) + " " + d + " into a transposed view");
                T got_im, want_im;
                EM_OK(ember_imag(ref(), as_ref(into_t), got_im.out()));
                EM_OK(ember_imag(ref(), as_ref(want), want_im.out()));
                expect_close(got_im, want_im, 0, 0, std::string(name) + " " + d + " into a transposed view (imaginary parts)");
            }
            T acc, want, acc_im, want_im;
            EM_OK(ember_multiply(cpu(), z, s, acc.out()));  // a fresh copy to write into
            const ember_tensor_t* ops[2] = {acc, rev};
            EM_OK(fn(ref(), as_ref(acc), as_ref(rev), want.out()));
            EM_OK(ember_elementwise_into(cpu(), name, ops, 2, acc));
            expect_close(acc, want, 0, 0, std::string(name) + " " + d + " into its first operand");
            EM_OK(ember_imag(ref(), as_ref(acc), acc_im.out()));
            EM_OK(ember_imag(ref(), as_ref(want), want_im.out()));
            expect_close(acc_im, want_im, 0, 0, std::string(name) + " " + d + " into its first operand (imaginary parts)");
        }
    }
    // conj of a real dtype: a copy, in every layout
    for (ember_dtype_t dt : {EMBER_FLOAT16, EMBER_INT16, EMBER_FLOAT64}) {
        T r = tensor(cpu(), randf(301 * 437, -3, 3, 3590), {301, 437}, dt), rt;
        EM_OK(ember_matrix_transpose(cpu(), r, rt.out()));
        for (const ember_tensor_t* x : {r.t, rt.t}) {
            T got, want;
            EM_OK(ember_conj(cpu(), x, got.out()));
            EM_OK(ember_conj(ref(), as_ref(x), want.out()));
            EXPECT_EQ(raw_bytes(got), raw_bytes(want)) << "conj of real " << ember_dtype_name(dt) << (x == r.t ? "" : " transposed");
        }
    }
}

// complex128 quotients (simd_impl.cpp's complex_div_c128, libgcc's __divdc3 lane by lane)
// bit for bit against the reference's std::complex quotient: every pair of parts drawn from
// values at each of __divdc3's thresholds (DBL_MAX / 2 for halving, 2^-52 and DBL_MIN and
// DBL_MAX 2^-53 for scaling up, a subnormal or zero ratio for its other order) and the
// specials, over every such divisor; random parts over the whole exponent range; real and
// imaginary divisors; broadcast operands either side; 1 / z.
TEST(CpuLarge, Complex128QuotientsMatchReferenceBitForBit) {
    NEED_CPU();
    const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
    const double big_half = 0x1.fffffffffffffp+1022, max_up = 0x1.fffffffffffffp+970;
    const std::vector<double> special = {0.0, -0.0, 1.0, -3.5, 0.1, inf, -inf, nan, DBL_MAX, -big_half, std::nextafter(big_half, 0.0),
                                         1e300, 0x1p-52, -std::nextafter(0x1p-52, 0.0), 1e-17, DBL_MIN, -std::nextafter(DBL_MIN, 0.0),
                                         4.9e-324, max_up, -std::nextafter(max_up, inf), 1e-310, 1e-200, 1e200, 0x1p-1000, 3e-308};
    const int64_t k = (int64_t)special.size(), pairs = k * k;
    std::vector<double> z(2 * (size_t)pairs);
    for (int64_t i = 0; i < pairs; ++i) z[2 * i] = special[i / k], z[2 * i + 1] = special[i % k];
    std::vector<double> num, den;  // every special pair over every special pair, then random parts
    for (int64_t i = 0; i < pairs; ++i)
        for (int64_t j = 0; j < pairs; ++j) num.insert(num.end(), {z[2 * i], z[2 * i + 1]}), den.insert(den.end(), {z[2 * j], z[2 * j + 1]});
    std::mt19937_64 rng(29);
    std::uniform_real_distribution<double> mant(1, 2);
    std::uniform_int_distribution<int> any_exp(-1074, 1023), near_exp(-70, 30);
    for (int i = 0; i < 200000; ++i)
        for (auto* v : {&num, &num, &den, &den}) {
            const int e = i % 3 == 0 ? any_exp(rng) : i % 3 == 1 ? near_exp(rng) : any_exp(rng) / 8;
            const double part = std::ldexp(mant(rng), e) * (rng() & 1 ? -1 : 1);
            v->push_back(i % 7 == 0 && v == &den && v->size() % 2 == (size_t)(i % 2) ? 0.0 : part);  // some real or imaginary divisors
        }
    auto bits_equal = [](const ember_tensor_t* got, const ember_tensor_t* want, const std::string& what) {
        const auto g = raw_bytes(got), w = raw_bytes(want);
        ASSERT_EQ(g.size(), w.size()) << what;
        size_t bad = 0, first = 0;
        for (size_t i = 0; i < g.size(); i += 16)
            if (std::memcmp(&g[i], &w[i], 16) != 0 && !bad++) first = i / 16;
        double gv[2] = {}, wv[2] = {};
        if (bad) std::memcpy(gv, &g[16 * first], 16), std::memcpy(wv, &w[16 * first], 16);
        EXPECT_EQ(bad, 0u) << what << ": first at " << first << ": got " << gv[0] << " " << gv[1] << "i, want " << wv[0] << " " << wv[1] << "i";
    };
    const int64_t n = (int64_t)num.size() / 2;
    T a, b, za;
    EM_OK(ember_tensor_from_data(cpu(), num.data(), EMBER_COMPLEX128, &n, 1, a.out()));
    EM_OK(ember_tensor_from_data(cpu(), den.data(), EMBER_COMPLEX128, &n, 1, b.out()));
    EM_OK(ember_tensor_from_data(cpu(), z.data(), EMBER_COMPLEX128, &pairs, 1, za.out()));
    T q, q_want;
    EM_OK(ember_divide(cpu(), a, b, q.out()));
    EXPECT_EQ(backend_of(q), "cpu");
    EM_OK(ember_divide(ref(), as_ref(a), as_ref(b), q_want.out()));
    bits_equal(q, q_want, "a / b, contiguous");
    // (k^2, 1) against (1, k^2): one dividend per row; then one divisor per row.
    const int64_t column[2] = {pairs, 1}, row[2] = {1, pairs};
    T zc, zr;
    EM_OK(ember_reshape(cpu(), za, column, 2, zc.out()));
    EM_OK(ember_reshape(cpu(), za, row, 2, zr.out()));
    for (auto [x, y, what] : {std::tuple<const ember_tensor_t*, const ember_tensor_t*, const char*>{zc, zr, "broadcast dividend per row"},
                              {zr, zc, "broadcast divisor per row"}}) {
        T got, want;
        EM_OK(ember_divide(cpu(), x, y, got.out()));
        EM_OK(ember_divide(ref(), as_ref(x), as_ref(y), want.out()));
        bits_equal(got, want, what);
    }
    for (const ember_tensor_t* x : {(const ember_tensor_t*)za, (const ember_tensor_t*)b}) {
        T got, want;
        EM_OK(ember_reciprocal(cpu(), x, got.out()));
        EM_OK(ember_reciprocal(ref(), as_ref(x), want.out()));
        bits_equal(got, want, "1 / z");
    }
}

// |z| of complex128 (simd_impl.cpp's abs_c128) is correctly rounded where glibc's hypot,
// the reference's, is not always: within 1 ulp of the reference everywhere, and equal to it
// for all but a few random values (a plain sqrt(re^2 + im^2) differs in about 1 of 5).
// Magnitudes that need scaling (squares that overflow or underflow, subnormals), the
// small <= big 2^-54 shortcut's edge, infinities beside NaNs, and odd vector tails.
TEST(CpuLarge, AbsComplex128WithinOneUlp) {
    NEED_CPU();
    const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
    const double mags[] = {0, 4.9e-324, 2.2e-310, 1e-300, 1e-200, 1.2e-154, 1.6e-154, 3e-150, 1e-10, 0.75, 1, 3,
                           1e10, 1e150, 6.7e153, 7e153, 1e200, 1e300, 1.79e308, inf, nan};
    std::vector<double> parts;
    for (double re : mags)
        for (double im : mags)
            for (int k = 0; k < 6; ++k) {
                const double jr = k & 1 ? 1 + 0.1234567 * k : 1, ji = k & 2 ? -(1 - 0.0456789 * k) : 1;
                parts.push_back(re * jr * (re * jr > 1.79e308 && std::isfinite(re) ? 0.5 : 1));
                parts.push_back(im * ji);
            }
    for (double r : {0x1p-54, 0x1p-53, 0x1.0000000000001p-54, 0x1.fffffffffffffp-55, 0x1p-27}) {
        parts.insert(parts.end(), {1.0, r, -r * 0x1p900, -0x1p900, 3 * r, 3.0});
    }
    const auto coarse = randf(2 * 300001, -3, 3, 73), fine = randf(2 * 300001, -1, 1, 74);
    const size_t edge = parts.size() / 2;
    for (size_t i = 0; i < coarse.size(); ++i)  // full float64 mantissas: float32 squares are exact
        parts.push_back((double)coarse[i] + (double)fine[i] * 0x1p-26);
    int64_t n = (int64_t)(parts.size() / 2);
    T z, got, want;
    EM_OK(ember_tensor_from_data(cpu(), parts.data(), EMBER_COMPLEX128, &n, 1, z.out()));
    EM_OK(ember_abs(cpu(), z, got.out()));
    EM_OK(ember_abs(ref(), as_ref(z), want.out()));
    EXPECT_EQ(backend_of(got), "cpu");
    auto g = host_values(got), w = host_values(want);
    ASSERT_EQ(g.size(), w.size());
    size_t far = 0, differ = 0, first_far = 0;
    for (size_t i = 0; i < g.size(); ++i) {
        const bool same = g[i] == w[i] || (std::isnan(g[i]) && std::isnan(w[i]));
        const bool one_ulp = std::isfinite(w[i]) && (g[i] == std::nextafter(w[i], inf) || g[i] == std::nextafter(w[i], 0.0));
        if (!same && !one_ulp && !far++) first_far = i;
        if (!same && i >= edge) ++differ;
    }
    EXPECT_EQ(far, 0u) << "first at " << first_far << ": |" << parts[2 * first_far] << " + " << parts[2 * first_far + 1] << "i| = " << g[first_far]
                       << ", want " << w[first_far];
    EXPECT_LT(differ, (n - edge) / 50) << "random values that differ from the reference by 1 ulp";
}

// The layouts the prod tests reduce a (1000, 1001) tensor in: rows, columns, everything,
// transposed, stepped, a middle and two outer axes of a 3-d view, 40 and 400 rows (the last
// split into chunks across the pool), the columns of 3 rows (folded in one pass).
struct ProdLayout {
    std::string what;
    std::shared_ptr<T> x;
    std::vector<int64_t> axes;
    const int64_t* axes_ptr() const { return axes.empty() ? nullptr : axes.data(); }
};
std::vector<ProdLayout> prod_layouts(const ember_tensor_t* x) {
    auto view = [&](auto make) {
        auto t = std::make_shared<T>();
        EXPECT_EQ(make(t->out()), EMBER_OK) << ember_last_error();
        return t;
    };
    auto same = std::make_shared<T>();
    EXPECT_EQ(ember_tensor_to(cpu(), x, same->out()), EMBER_OK);
    const int64_t st[2] = {0, 0}, sp[2] = {EMBER_SLICE_END, EMBER_SLICE_END}, step[2] = {1, 2}, cube_shape[3] = {1000, 7, 143};
    const int64_t few_stop[2] = {40, EMBER_SLICE_END}, many_stop[2] = {400, EMBER_SLICE_END};
    auto xt = view([&](ember_tensor_t** o) { return ember_matrix_transpose(cpu(), x, o); });
    auto stepped = view([&](ember_tensor_t** o) { return ember_slice(cpu(), x, st, sp, step, 2, o); });
    auto cube = view([&](ember_tensor_t** o) { return ember_reshape(cpu(), x, cube_shape, 3, o); });
    auto few = view([&](ember_tensor_t** o) { return ember_slice(cpu(), x, st, few_stop, nullptr, 2, o); });
    auto many = view([&](ember_tensor_t** o) { return ember_slice(cpu(), x, st, many_stop, nullptr, 2, o); });
    const int64_t three_stop[2] = {3, EMBER_SLICE_END};
    auto three = view([&](ember_tensor_t** o) { return ember_slice(cpu(), x, st, three_stop, nullptr, 2, o); });
    return {{"all", same, {}},         {"rows", same, {1}},           {"columns", same, {0}},       {"transposed, columns", xt, {0}},
            {"every other column", stepped, {0}}, {"every other column, all", stepped, {}}, {"middle axis", cube, {1}},
            {"outer axes", cube, {0, 2}}, {"40 rows, all", few, {}},   {"400 rows, all", many, {}}, {"columns of 3 rows", three, {0}}};
}

// Complex sums in the ROW layout: two double accumulators, pairwise (reduce.cpp); the
// reference sums in order in complex<double>. complex64 results agree to one float32 ulp,
// complex128 ones to the reference's own rounding error (600601 terms of up to 3).
// float32/float64 products (reduce.cpp, ROW and COLUMN layouts) accumulate in double in
// a fixed blocked order, the reference in sequence: within a few double roundings per
// factor (float64: 1e-13 relative for 1000 factors; float32: one float32 ulp after the
// final rounding). Factors 2^u, u uniform in [-1, 1], with either sign keep the products of
// rows, columns and the first 40 rows in range; zeros, NaN and infinities (in rows 500 on)
// propagate. Other dtypes and layouts run the reference (on slices: bit for bit).
TEST(CpuLarge, ProdMatchesReference) {
    NEED_CPU();
    const int64_t rows = 1000, cols = 1001;
    auto d = randf((size_t)(rows * cols), -1, 1, 73);
    for (size_t i = 0; i < d.size(); ++i) d[i] = (i % 3 ? 1.0f : -1.0f) * std::exp2(d[i]);
    d[505 * cols + 7] = 0;  // column 7 and row 505 hold a zero, column 8 a NaN, column 9 an infinity
    d[611 * cols + 8] = std::numeric_limits<float>::quiet_NaN();
    d[702 * cols + 9] = std::numeric_limits<float>::infinity();
    const T x32 = tensor(cpu(), d, {rows, cols}, EMBER_FLOAT32);
    for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_INT32, EMBER_COMPLEX64}) {
        const std::string name = ember_dtype_name(dt);
        T x;
        EM_OK(ember_astype(cpu(), x32, dt, x.out()));
        for (const ProdLayout& k : prod_layouts(x)) {
            T got, want;
            EM_OK(ember_prod(cpu(), *k.x, k.axes_ptr(), (int)k.axes.size(), 0, got.out()));
            EM_OK(ember_prod(ref(), as_ref(*k.x), k.axes_ptr(), (int)k.axes.size(), 0, want.out()));
            EXPECT_EQ(backend_of(got), "cpu");
            const double rtol = dt == EMBER_FLOAT32 ? 1.2e-7 : dt == EMBER_FLOAT64 ? 1e-13 : 0;
            expect_close(got, want, dt == EMBER_COMPLEX64 ? 0 : rtol, 0, "prod " + name + " " + k.what);
        }
    }
}

// The values of a complex tensor as complex128, in C order.
static std::vector<std::complex<double>> complex_values(const ember_tensor_t* t) {
    T r, w;
    EXPECT_EQ(ember_tensor_to(ref(), t, r.out()), EMBER_OK) << ember_last_error();
    EXPECT_EQ(ember_astype(ref(), r, EMBER_COMPLEX128, w.out()), EMBER_OK) << ember_last_error();
    int64_t n = 0;
    ember_tensor_size(w, &n);
    std::vector<std::complex<double>> v((size_t)n);
    EXPECT_EQ(ember_tensor_read(w, v.data(), v.size() * sizeof(v[0])), EMBER_OK) << ember_last_error();
    return v;
}

// Complex products on the cpu backend: chains of textbook products in complex<double>, in
// another order than the reference's, so within rtol of the reference's value relative to its
// modulus (a part near zero after cancellation has no accuracy of its own); the layouts of
// ProdMatchesReference, modulus 2^(u/16) per factor so that nothing overflows. Where a
// textbook product comes out NaN in both parts the reference's recovery of infinities (C99
// Annex G) decides: the result must then be the reference's exactly.
TEST(CpuLarge, ComplexProdMatchesReference) {
    NEED_CPU();
    const int64_t rows = 1000, cols = 1001;
    std::mt19937 rng(91);
    std::uniform_real_distribution<double> u(-1, 1);
    std::vector<std::complex<double>> values((size_t)(rows * cols));
    for (auto& v : values) v = std::polar(std::exp2(u(rng) / 16), 3.14159 * u(rng));
    values[5 * cols + 3] = 0;  // a zero factor in row 5 and column 3
    const int64_t shape[2] = {rows, cols}, axis0 = 0, axis1 = 1;
    T x128;
    EM_OK(ember_tensor_from_data(cpu(), values.data(), EMBER_COMPLEX128, shape, 2, x128.out()));
    double worst[2] = {0, 0};
    for (ember_dtype_t dt : {EMBER_COMPLEX64, EMBER_COMPLEX128}) {
        const std::string name = ember_dtype_name(dt);
        const double rtol = dt == EMBER_COMPLEX64 ? 2.4e-7 : 1e-12;
        T x;
        EM_OK(ember_astype(cpu(), x128, dt, x.out()));
        for (const ProdLayout& k : prod_layouts(x)) {
            T got, want;
            EM_OK(ember_prod(cpu(), *k.x, k.axes_ptr(), (int)k.axes.size(), 0, got.out()));
            EM_OK(ember_prod(ref(), as_ref(*k.x), k.axes_ptr(), (int)k.axes.size(), 0, want.out()));
            EXPECT_EQ(backend_of(got), "cpu");
            EXPECT_EQ(dtype_of(got), dt);
            const auto g = complex_values(got), w = complex_values(want);
            ASSERT_EQ(g.size(), w.size());
            size_t bad = 0;
            for (size_t i = 0; i < g.size(); ++i) {
                const double err = std::abs(g[i] - w[i]) / std::abs(w[i]);
                worst[dt == EMBER_COMPLEX128] = std::max(worst[dt == EMBER_COMPLEX128], err);
                bad += !(err <= rtol) && !(w[i] == 0.0 && g[i] == 0.0);
            }
            EXPECT_EQ(bad, 0u) << "prod " << name << " " << k.what;
        }
        // Infinities: (inf + 0i)(1 + i)^3 is NaN in both parts as a textbook product, an
        // infinity after the reference's recovery; the other rows come out of it too.
        std::vector<std::complex<double>> special(64 * 5, std::complex<double>(1, 0.5));
        special[7 * 5] = {std::numeric_limits<double>::infinity(), 0};
        for (int j = 1; j < 4; ++j) special[7 * 5 + j] = {1, 1};
        const int64_t special_shape[2] = {64, 5};
        T s128, s, got, want;
        EM_OK(ember_tensor_from_data(cpu(), special.data(), EMBER_COMPLEX128, special_shape, 2, s128.out()));
        EM_OK(ember_astype(cpu(), s128, dt, s.out()));
        EM_OK(ember_prod(cpu(), s, &axis1, 1, 0, got.out()));
        EM_OK(ember_prod(ref(), as_ref(s), &axis1, 1, 0, want.out()));
        const auto g = complex_values(got), w = complex_values(want);
        ASSERT_EQ(g.size(), 64u);
        EXPECT_TRUE(std::isinf(w[7].real()) || std::isinf(w[7].imag())) << w[7];
        for (size_t i = 0; i < g.size(); ++i) EXPECT_EQ(std::memcmp(&g[i], &w[i], sizeof g[i]), 0) << name << " row " << i << ": " << g[i] << " vs " << w[i];
        // Finite factors whose product overflows (the order decides whether a zero part
        // meets the infinity: (inf, NaN) against the reference's (inf, 0)), and an
        // infinite factor among finite ones, along rows and down columns.
        std::vector<std::complex<double>> big(3 * 12, std::complex<double>(1.5, -0.25));
        for (int j = 0; j < 12; ++j) big[(size_t)j] = {1e30, 0};
        big[2 * 12 + 5] = {std::numeric_limits<double>::infinity(), 0};
        const int64_t big_shape[2] = {3, 12};
        T b128, b;
        EM_OK(ember_tensor_from_data(cpu(), big.data(), EMBER_COMPLEX128, big_shape, 2, b128.out()));
        EM_OK(ember_astype(cpu(), b128, dt, b.out()));
        for (int64_t axis : {axis0, axis1}) {
            T got2, want2;
            EM_OK(ember_prod(cpu(), b, &axis, 1, 0, got2.out()));
            EM_OK(ember_prod(ref(), as_ref(b), &axis, 1, 0, want2.out()));
            const auto g2 = complex_values(got2), w2 = complex_values(want2);
            ASSERT_EQ(g2.size(), w2.size());
            for (size_t i = 0; i < g2.size(); ++i)
                EXPECT_EQ(std::memcmp(&g2[i], &w2[i], sizeof g2[i]), 0) << name << " overflow, axis " << axis << ", " << i << ": " << g2[i] << " vs " << w2[i];
        }
    }
    std::printf("complex prod: largest error relative to the modulus %.3g (complex64), %.3g (complex128)\n", worst[0], worst[1]);
}

// Complex products that overflow (factors of modulus up to 101: a line's total is infinite
// or NaN after a few hundred), beside columns that stay finite, with zeros, infinities and
// NaNs among the factors. The cpu backend folds such totals, and every cumulative product
// and sum, in the reference's sequence with C99 Annex G's recovery (complex_sequence.cpp):
// each part carries the reference's bits, except that a NaN may carry another sign (which
// of two NaN operands an operation returns is the compiler's choice). Finite totals of prod
// come from the native kernel's order and are compared to a tolerance.
TEST(CpuLarge, ComplexSequencesMatchReferenceBitForBit) {
    NEED_CPU();
    const int64_t rows = 1000, cols = 1001;
    const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
    std::mt19937 rng(93);
    std::uniform_real_distribution<double> u(-1, 1);
    std::uniform_int_distribution<int> pick(0, 40000);
    std::vector<std::complex<double>> values((size_t)(rows * cols));
    for (size_t i = 0; i < values.size(); ++i) {
        const double modulus = i % cols < 100 ? 1 + u(rng) / 64 : 1 + 50 * (1 + u(rng));  // the first 100 columns stay finite
        const std::complex<double> specials[5] = {{0, 0}, {inf, u(rng)}, {u(rng), -inf}, {nan, u(rng)}, {-0.0, nan}};
        const int p = pick(rng);
        values[i] = p < 5 ? specials[p] : std::polar(modulus, 3.14159 * u(rng));
    }
    for (int64_t i = 0; i < rows; ++i) values[(size_t)(i * cols + 500)] = {1 + (double)(i % 100), 0};  // real factors: (inf, 0) meets 0 i
    auto same_bits = [](double g, double w) { return (g != g && w != w) || std::memcmp(&g, &w, sizeof g) == 0; };
    auto agree = [&](std::complex<double> g, std::complex<double> w, double rtol) {
        if (std::isfinite(w.real()) && std::isfinite(w.imag()) && rtol > 0) return std::abs(g - w) <= rtol * std::abs(w) || (w == 0.0 && g == 0.0);
        return same_bits(g.real(), w.real()) && same_bits(g.imag(), w.imag());
    };
    const int64_t shape[2] = {rows, cols};
    T x128;
    EM_OK(ember_tensor_from_data(cpu(), values.data(), EMBER_COMPLEX128, shape, 2, x128.out()));
    for (ember_dtype_t dt : {EMBER_COMPLEX64, EMBER_COMPLEX128}) {
        const std::string name = ember_dtype_name(dt);
        const double rtol = dt == EMBER_COMPLEX64 ? 2.4e-7 : 1e-12;
        T x;
        EM_OK(ember_astype(cpu(), x128, dt, x.out()));
        auto check = [&](const T& got, const T& want, double tol, const std::string& what) {
            EXPECT_EQ(backend_of(got), "cpu");
            const auto g = complex_values(got), w = complex_values(want);
            ASSERT_EQ(g.size(), w.size()) << what;
            size_t bad = 0, nonfinite = 0;
            for (size_t i = 0; i < g.size(); ++i) {
                nonfinite += !(std::isfinite(w[i].real()) && std::isfinite(w[i].imag()));
                if (!agree(g[i], w[i], tol) && bad++ < 3) ADD_FAILURE() << what << " " << name << " at " << i << ": " << g[i] << " vs " << w[i];
            }
            EXPECT_EQ(bad, 0u) << what << " " << name;
            EXPECT_GT(nonfinite, 0u) << what << " " << name << ": no overflow reached";
        };
        for (const ProdLayout& k : prod_layouts(x)) {
            T got, want;
            EM_OK(ember_prod(cpu(), *k.x, k.axes_ptr(), (int)k.axes.size(), 0, got.out()));
            EM_OK(ember_prod(ref(), as_ref(*k.x), k.axes_ptr(), (int)k.axes.size(), 0, want.out()));
            check(got, want, rtol, "prod " + k.what);
        }
        // Every pair of special factors (parts from 0, -0, 1, -2.5, +-1e300, +-inf, NaN),
        // down the columns of (z1, z2, z1): each branch of the recovery, on every lane.
        const double parts[9] = {0.0, -0.0, 1.0, -2.5, 1e300, -1e300, inf, -inf, nan};
        std::vector<std::complex<double>> pairs(3 * 81 * 81);
        for (int i = 0; i < 81; ++i)
            for (int j = 0; j < 81; ++j) {
                const std::complex<double> z1(parts[i / 9], parts[i % 9]), z2(parts[j / 9], parts[j % 9]);
                pairs[(size_t)(i * 81 + j)] = pairs[(size_t)(2 * 81 * 81 + i * 81 + j)] = z1;
                pairs[(size_t)(81 * 81 + i * 81 + j)] = z2;
            }
        const int64_t pairs_shape[2] = {3, 81 * 81}, axis0 = 0;
        T p128, p, got_scan, want_scan, got_prod, want_prod;
        EM_OK(ember_tensor_from_data(cpu(), pairs.data(), EMBER_COMPLEX128, pairs_shape, 2, p128.out()));
        EM_OK(ember_astype(cpu(), p128, dt, p.out()));
        EM_OK(ember_cumprod(cpu(), p, 0, got_scan.out()));
        EM_OK(ember_cumprod(ref(), as_ref(p), 0, want_scan.out()));
        check(got_scan, want_scan, 0, "cumprod of special pairs");
        EM_OK(ember_prod(cpu(), p, &axis0, 1, 0, got_prod.out()));
        EM_OK(ember_prod(ref(), as_ref(p), &axis0, 1, 0, want_prod.out()));
        check(got_prod, want_prod, rtol, "prod of special pairs");
        const std::vector<ProdLayout> layouts = prod_layouts(x);
        for (size_t li : {size_t(1), size_t(3), size_t(4)})  // the matrix, its transpose, every other column
            for (int64_t axis : {0, 1})
                for (bool sum : {false, true}) {
                    const ember_tensor_t* v = *layouts[li].x;
                    T got, want;
                    EM_OK(sum ? ember_cumsum(cpu(), v, axis, got.out()) : ember_cumprod(cpu(), v, axis, got.out()));
                    EM_OK(sum ? ember_cumsum(ref(), as_ref(v), axis, want.out()) : ember_cumprod(ref(), as_ref(v), axis, want.out()));
                    check(got, want, 0, std::string(sum ? "cumsum " : "cumprod ") + layouts[li].what + ", axis " + std::to_string(axis));
                }
        // Views walked backwards (flipped rows: a negative step down the columns) and a
        // broadcast row (every step reads the same factors).
        const int64_t flip_axes[1] = {0}, row_stop[2] = {1, EMBER_SLICE_END}, starts[2] = {0, 0}, tall[2] = {1500, cols};
        T flipped, first_row, broadcast;
        EM_OK(ember_flip(cpu(), x, flip_axes, 1, flipped.out()));
        EM_OK(ember_slice(cpu(), x, starts, row_stop, nullptr, 2, first_row.out()));
        EM_OK(ember_broadcast_to(cpu(), first_row, tall, 2, broadcast.out()));
        for (const T* v : {&flipped, &broadcast})
            for (bool scan : {false, true}) {
                T got, want;
                const std::string what = std::string(scan ? "cumprod of " : "prod of ") + (v == &flipped ? "flipped rows" : "a broadcast row");
                EM_OK(scan ? ember_cumprod(cpu(), *v, 0, got.out()) : ember_prod(cpu(), *v, &axis0, 1, 0, got.out()));
                EM_OK(scan ? ember_cumprod(ref(), as_ref(*v), 0, want.out()) : ember_prod(ref(), as_ref(*v), &axis0, 1, 0, want.out()));
                check(got, want, scan ? 0 : rtol, what);
            }
        // Short rows (7 factors): the reference's loop on slices of the rows, not lanes.
        const int64_t short_shape[2] = {rows * cols / 7, 7}, axis1 = 1;
        T short_rows, got_short, want_short;
        EM_OK(ember_reshape(cpu(), x, short_shape, 2, short_rows.out()));
        EM_OK(ember_prod(cpu(), short_rows, &axis1, 1, 0, got_short.out()));
        EM_OK(ember_prod(ref(), as_ref(short_rows), &axis1, 1, 0, want_short.out()));
        check(got_short, want_short, rtol, "prod of short rows");
        for (bool sum : {false, true}) {
            T got, want;
            EM_OK(sum ? ember_cumsum(cpu(), short_rows, 1, got.out()) : ember_cumprod(cpu(), short_rows, 1, got.out()));
            EM_OK(sum ? ember_cumsum(ref(), as_ref(short_rows), 1, want.out()) : ember_cumprod(ref(), as_ref(short_rows), 1, want.out()));
            check(got, want, 0, std::string(sum ? "cumsum" : "cumprod") + " of short rows");
        }
    }
}

TEST(CpuLarge, ComplexSumsMatchReference) {
    NEED_CPU();
    const int64_t rows = 601, cols = 1001;
    const auto parts = randf((size_t)(2 * rows * cols), -3, 3, 72);
    const std::vector<double> wide(parts.begin(), parts.end());
    for (ember_dtype_t dt : {EMBER_COMPLEX64, EMBER_COMPLEX128}) {
        const std::string d = ember_dtype_name(dt);
        const double rtol = dt == EMBER_COMPLEX64 ? 1.2e-7 : 1e-12, atol = dt == EMBER_COMPLEX64 ? 1e-5 : 1e-6;
        int64_t shape[2] = {rows, cols};
        T z, stepped;
        EM_OK(ember_tensor_from_data(cpu(), dt == EMBER_COMPLEX64 ? (const void*)parts.data() : (const void*)wide.data(), dt, shape, 2, z.out()));
        int64_t st[2] = {0, 0}, sp[2] = {EMBER_SLICE_END, EMBER_SLICE_END}, step[2] = {1, 2};
        EM_OK(ember_slice(cpu(), z, st, sp, step, 2, stepped.out()));
        T cube;  // (601, 7, 143): the middle axis reduced, columns kept on both sides
        const int64_t cube_shape[3] = {rows, 7, 143};
        EM_OK(ember_reshape(cpu(), z, cube_shape, 3, cube.out()));
        const int64_t axis0 = 0, axis1 = 1;
        struct {
            const char* what;
            const ember_tensor_t* x;
            const int64_t* axis;
        } cases[] = {{"all", z, nullptr},
                     {"rows", z, &axis1},
                     {"columns", z, &axis0},
                     {"every other column, rows", stepped, &axis1},
                     {"every other column, all", stepped, nullptr},
                     {"every other column, columns (the reference)", stepped, &axis0},
                     {"middle axis", cube, &axis1}};
        for (auto& k : cases)
            for (bool mean : {false, true}) {
                const std::string what = (mean ? "mean " : "sum ") + d + " " + k.what;
                auto reduce = mean ? ember_mean : ember_sum;
                T got, want, got_im, want_im;
                EM_OK(reduce(cpu(), k.x, k.axis, k.axis ? 1 : 0, 0, got.out()));
                EM_OK(reduce(ref(), as_ref(k.x), k.axis, k.axis ? 1 : 0, 0, want.out()));
                EXPECT_EQ(backend_of(got), "cpu");
                expect_close(got, want, rtol, atol, what);
                EM_OK(ember_imag(ref(), as_ref(got), got_im.out()));
                EM_OK(ember_imag(ref(), as_ref(want), want_im.out()));
                expect_close(got_im, want_im, rtol, atol, what + " (imaginary parts)");
            }
    }
}

TEST(CpuLarge, AstypeCopyAndAssign) {
    NEED_CPU();
    auto d = randf(600001, -70000, 70000, 51);
    T x = tensor(cpu(), d, {600001}, EMBER_FLOAT32);
    for (ember_dtype_t to : {EMBER_FLOAT16, EMBER_BFLOAT16, EMBER_FLOAT64, EMBER_INT16, EMBER_FLOAT32}) {
        T got, want, back, wantback;
        EM_OK(ember_astype(cpu(), x, to, got.out()));
        EM_OK(ember_astype(ref(), as_ref(x), to, want.out()));
        expect_close(got, want, 0, 0, std::string("astype float32->") + ember_dtype_name(to));
        EM_OK(ember_astype(cpu(), got, EMBER_FLOAT32, back.out()));
        EM_OK(ember_astype(ref(), as_ref(got), EMBER_FLOAT32, wantback.out()));
        expect_close(back, wantback, 0, 0, std::string("astype ") + ember_dtype_name(to) + "->float32");
    }
    T dst;
    int64_t shape[1] = {600001};
    EM_OK(ember_zeros(cpu(), shape, 1, EMBER_FLOAT32, dst.out()));
    EM_OK(ember_assign(cpu(), dst, x));
    expect_close(dst, x, 0, 0, "assign");
}

// Transposed inputs: copies of 32 rows or more run the register transpose on bands of
// output rows, other ops and fewer rows gather them into 16 x 256 tiles (by the register
// transpose for 4- and 8-byte elements). Exactly the reference's bytes for every element
// size, with outer dims, edges that are not whole tiles, few long rows, a destination whose
// rows are stepped, a float32 copy with streaming stores (rows of 8448 bytes: vector-
// aligned, above 16 MiB), the unit stride on an outer dim (after a permutation, or a tile's
// broadcast dim between), rows that start past a vector boundary (a roll).
struct TransposeLayout {
    std::vector<int64_t> shape, perm;
};

void expect_transposed_layouts_exact(const std::vector<TransposeLayout>& layouts) {
    const ember_dtype_t dtypes[] = {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_COMPLEX64, EMBER_COMPLEX128, EMBER_INT8, EMBER_FLOAT16, EMBER_INT64};
    unsigned seed = 700;
    for (const TransposeLayout& l : layouts) {
        int64_t n = 1;
        for (int64_t e : l.shape) n *= e;
        for (ember_dtype_t dt : dtypes) {
            if (n > 1000000 && dt != EMBER_FLOAT32 && dt != EMBER_COMPLEX128) continue;
            const bool cplx = dt == EMBER_COMPLEX64 || dt == EMBER_COMPLEX128;
            // Complex values get imaginary parts: 2n reals read as n complex numbers.
            auto d = randf((size_t)(cplx ? 2 * n : n), -100, 100, ++seed);
            T base;
            if (cplx) {
                std::vector<double> wide(d.begin(), d.end());
                std::vector<float> narrow(d.begin(), d.end());
                const void* data = dt == EMBER_COMPLEX128 ? (const void*)wide.data() : (const void*)narrow.data();
                EM_OK(ember_tensor_from_data(cpu(), data, dt, l.shape.data(), (int)l.shape.size(), base.out()));
            } else {
                base = tensor(cpu(), d, l.shape, dt);
            }
            T xt, other;
            EM_OK(ember_permute_dims(cpu(), base, l.perm.data(), (int)l.perm.size(), xt.out()));
            EM_OK(ember_copy(cpu(), xt, other.out()));  // the same values, contiguous
            std::string what = std::string(ember_dtype_name(dt)) + " (";
            for (int64_t e : shape_of(xt)) what += std::to_string(e) + ",";
            what += ") transposed";
            T got, want;
            EM_OK(ember_copy(cpu(), xt, got.out()));
            EM_OK(ember_copy(ref(), as_ref(xt), want.out()));
            EXPECT_EQ(raw_bytes(got), raw_bytes(want)) << "copy of " << what;
            EXPECT_EQ(raw_bytes(other), raw_bytes(want)) << "copy of " << what;
            T sum, want_sum;
            EM_OK(ember_add(cpu(), xt, other, sum.out()));
            EM_OK(ember_add(ref(), as_ref(xt), as_ref(other), want_sum.out()));
            EXPECT_EQ(raw_bytes(sum), raw_bytes(want_sum)) << "add of " << what;
            if (dt == EMBER_FLOAT32 || dt == EMBER_FLOAT64) {
                const ember_dtype_t to = dt == EMBER_FLOAT32 ? EMBER_FLOAT64 : EMBER_FLOAT32;
                T cast, want_cast;
                EM_OK(ember_astype(cpu(), xt, to, cast.out()));
                EM_OK(ember_astype(ref(), as_ref(xt), to, want_cast.out()));
                EXPECT_EQ(raw_bytes(cast), raw_bytes(want_cast)) << "astype of " << what;
            }
            // Into the middle columns of a wider buffer: the destination's rows are stepped.
            std::vector<int64_t> wide_shape = shape_of(xt);
            wide_shape.back() += 7;
            T wide_cpu, wide_ref, dst_cpu, dst_ref;
            EM_OK(ember_zeros(cpu(), wide_shape.data(), (int)wide_shape.size(), dt, wide_cpu.out()));
            EM_OK(ember_zeros(ref(), wide_shape.data(), (int)wide_shape.size(), dt, wide_ref.out()));
            std::vector<int64_t> start(wide_shape.size(), 0), stop(wide_shape.size(), EMBER_SLICE_END), step(wide_shape.size(), 1);
            start.back() = 3;
            stop.back() = 3 + shape_of(xt).back();
            EM_OK(ember_slice(cpu(), wide_cpu, start.data(), stop.data(), step.data(), (int)start.size(), dst_cpu.out()));
            EM_OK(ember_slice(ref(), wide_ref, start.data(), stop.data(), step.data(), (int)start.size(), dst_ref.out()));
            EM_OK(ember_assign(cpu(), dst_cpu, xt));
            EM_OK(ember_assign(ref(), dst_ref, as_ref(xt)));
            EXPECT_EQ(raw_bytes(wide_cpu), raw_bytes(wide_ref)) << "assign into stepped rows of " << what;
            // tile along the last axis: a broadcast dim between the transposed pair
            const int64_t reps[2] = {2, 3};
            T tiled, want_tiled;
            EM_OK(ember_tile(cpu(), xt, reps, 2, tiled.out()));
            EM_OK(ember_tile(ref(), as_ref(xt), reps, 2, want_tiled.out()));
            EXPECT_EQ(raw_bytes(tiled), raw_bytes(want_tiled)) << "tile (2, 3) of " << what;
            // roll by 3 along the last axis: rows that start 3 elements past a vector boundary
            const int64_t shift = 3, last = -1;
            T rolled, want_rolled;
            EM_OK(ember_roll(cpu(), xt, &shift, &last, 1, rolled.out()));
            EM_OK(ember_roll(ref(), as_ref(xt), &shift, &last, 1, want_rolled.out()));
            EXPECT_EQ(raw_bytes(rolled), raw_bytes(want_rolled)) << "roll by 3 of " << what;
        }
    }
}


TEST(CpuLarge, TransposedInputsExact) {
    NEED_CPU();
    expect_transposed_layouts_exact({{{67, 130}, {1, 0}},   {{3, 70, 129}, {0, 2, 1}}, {{5, 3}, {1, 0}},         {{2, 64, 16}, {2, 1, 0}},
                                     {{3000, 5}, {1, 0}},   {{2112, 2048}, {1, 0}},    {{64, 40, 50}, {2, 0, 1}}, {{3, 5, 64}, {2, 1, 0}}});
}

// Output rows a multiple of 512 bytes apart, which the row passes take (four passes with edge
// columns; a last short pass; a batch) and, where only the source rows are 4 KiB apart, the
// column blocks (simd_transpose.hpp transpose_blocks). On every ISA (kIsaVariantFilter).
TEST(CpuLarge, TransposedRowPassesExact) {
    NEED_CPU();
    expect_transposed_layouts_exact({{{1024, 67}, {1, 0}}, {{640, 45}, {1, 0}}, {{2, 512, 33}, {0, 2, 1}}, {{300, 1024}, {1, 0}}});
}

// Complex x ** n for one integral exponent (repeated products in the product's vector kernel,
// elementwise.cpp) and other exponents (cpow, the reference on slices): bit for bit the
// reference, for every n in the loop's reach and its edges, infinities, NaN and zeros among
// the values, packed, transposed, stepped and broadcast x, and x ** n into x itself.
TEST(CpuLarge, ComplexPowersMatchReferenceExactly) {
    NEED_CPU();
    const int64_t rows = 301, cols = 437;
    std::vector<float> parts = randf(2 * rows * cols, -1.6f, 1.6f, 3601);
    const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
    const float specials[][2] = {{inf, 0}, {-inf, 1}, {nan, 0}, {0, 0}, {-0.0f, 0}, {1e30f, 1e30f}, {0, inf}};  // (re, im)
    for (size_t k = 0; k < sizeof specials / sizeof *specials; ++k) {  // at elements 0, 37, 74, ...
        parts[2 * 37 * k] = specials[k][0];
        parts[2 * 37 * k + 1] = specials[k][1];
    }
    const std::vector<double> wide(parts.begin(), parts.end());
    for (ember_dtype_t dt : {EMBER_COMPLEX64, EMBER_COMPLEX128}) {
        const std::string d = ember_dtype_name(dt);
        const int64_t shape[2] = {rows, cols};
        T z, zt, zs, one;
        EM_OK(ember_tensor_from_data(cpu(), dt == EMBER_COMPLEX64 ? (const void*)parts.data() : (const void*)wide.data(), dt, shape, 2, z.out()));
        EM_OK(ember_matrix_transpose(cpu(), z, zt.out()));
        const int64_t from[2] = {0, 0}, to[2] = {EMBER_SLICE_END, EMBER_SLICE_END}, every_other[2] = {1, 2}, first[2] = {1, 1};
        EM_OK(ember_slice(cpu(), z, from, to, every_other, 2, zs.out()));
        EM_OK(ember_slice(cpu(), z, from, first, nullptr, 2, one.out()));  // (1, 1): broadcast against the exponent's shape below
        for (double n : {0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 7.0, 64.0, 99.0, -1.0, -2.0, -3.0, -7.0, -99.0, 100.0, 2.5, -0.0}) {
            T e;
            EM_OK(ember_scalar_c128(cpu(), n, 0, e.out()));
            for (auto [layout, x] : {std::pair<const char*, const ember_tensor_t*>{"packed", z}, {"transposed", zt}, {"stepped", zs}, {"one value", one}}) {
                T got, want, got_im, want_im;
                EM_OK(ember_pow(cpu(), x, e, got.out()));
                EM_OK(ember_pow(ref(), as_ref(x), as_ref(e), want.out()));
                const std::string what = "x ** " + std::to_string(n) + " " + d + " " + layout;
                EXPECT_EQ(backend_of(got), "cpu");
                expect_close(got, want, 0, 0, what);
                EM_OK(ember_imag(ref(), as_ref(got), got_im.out()));
                EM_OK(ember_imag(ref(), as_ref(want), want_im.out()));
                expect_close(got_im, want_im, 0, 0, what + " (imaginary parts)");
            }
        }
        T e, other, in_place, want;  // a complex exponent: cpow; and x ** 5 into x itself
        EM_OK(ember_scalar_c128(cpu(), 2, 0.5, e.out()));
        EM_OK(ember_pow(cpu(), z, e, other.out()));
        EM_OK(ember_pow(ref(), as_ref(z), as_ref(e), want.out()));
        expect_close(other, want, 0, 0, "x ** (2 + 0.5j) " + d);
        EM_OK(ember_copy(cpu(), z, in_place.out()));
        EM_OK(ember_scalar_c128(cpu(), 5, 0, e.out()));
        const ember_tensor_t* ops[2] = {in_place, e};
        EM_OK(ember_elementwise_into(cpu(), "pow", ops, 2, in_place));
        EM_OK(ember_pow(ref(), as_ref(z), as_ref(e), want.out()));
        expect_close(in_place, want, 0, 0, "x ** 5 into x " + d);
    }
}

// A broadcast value of another dtype (full, zeros, a column assigned across rows) is
// converted once per run and stored: exactly the reference's bytes, for values the
// conversions treat specially (NaN, infinities, -0.0, out of an integer type's range).
TEST(CpuLarge, BroadcastValuesOfAnotherDtypeExact) {
    NEED_CPU();
    const double values[] = {0.0, -0.0, 3.0, -3.7, 300.5, 1e10, -1e300, NAN, INFINITY, -INFINITY, 65504.0, 1e-45};
    const ember_dtype_t dtypes[] = {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_FLOAT16, EMBER_BFLOAT16, EMBER_INT8, EMBER_UINT8, EMBER_INT16,
                                    EMBER_UINT32, EMBER_INT64, EMBER_UINT64, EMBER_BOOL, EMBER_COMPLEX64};
    const int64_t shape[2] = {301, 1003};
    for (ember_dtype_t dt : dtypes)
        for (double v : values) {
            T got, want;
            EM_OK(ember_full(cpu(), shape, 2, v, dt, got.out()));
            EM_OK(ember_full(ref(), shape, 2, v, dt, want.out()));
            EXPECT_EQ(raw_bytes(got), raw_bytes(want)) << "full(" << v << ") as " << ember_dtype_name(dt);
        }
    // A 0-d value of every dtype assigned over a whole matrix of every dtype, conversions
    // with an ISA loop or without (integer or bool -> float16, complex -> real or bool, where
    // the reference converts the one value), and 16-byte complex128 values stored.
    const ember_dtype_t sources[] = {EMBER_INT64, EMBER_INT32, EMBER_UINT8, EMBER_BOOL, EMBER_FLOAT16, EMBER_FLOAT32, EMBER_COMPLEX64, EMBER_COMPLEX128};
    for (double v : {3.0, -3.7, 300.5, -1e300, (double)NAN, 0.0}) {
        const double parts[2] = {v, v == 0.0 ? 2.5 : -1.25};  // an imaginary part, the only nonzero one for v = 0
        T pair, scalar;
        EM_OK(ember_tensor_from_data(cpu(), parts, EMBER_COMPLEX128, nullptr, 0, pair.out()));
        for (ember_dtype_t from : sources) {
            EM_OK(ember_astype(cpu(), pair, from, scalar.out()));
            for (ember_dtype_t dt : {EMBER_FLOAT16, EMBER_BFLOAT16, EMBER_FLOAT32, EMBER_INT16, EMBER_BOOL, EMBER_COMPLEX64, EMBER_COMPLEX128}) {
                T got, want;
                EM_OK(ember_zeros(cpu(), shape, 2, dt, got.out()));
                EM_OK(ember_zeros(ref(), shape, 2, dt, want.out()));
                EM_OK(ember_assign(cpu(), got, scalar));
                EM_OK(ember_assign(ref(), want, as_ref(scalar)));
                EXPECT_EQ(raw_bytes(got), raw_bytes(want)) << ember_dtype_name(from) << " " << v << " assigned over " << ember_dtype_name(dt);
            }
        }
    }
    // A float64 column (one value per row, NaN and out-of-range ones among them) assigned
    // across the rows of int16, float16 and bool matrices: one conversion per run.
    std::vector<double> col(301);
    for (size_t i = 0; i < col.size(); ++i) col[i] = values[i % 12] * (i % 5 == 0 ? -1.0 : 1.0) + (double)(i % 3);
    T column;
    const int64_t col_shape[2] = {301, 1};
    EM_OK(ember_tensor_from_data(cpu(), col.data(), EMBER_FLOAT64, col_shape, 2, column.out()));
    for (ember_dtype_t dt : {EMBER_INT16, EMBER_FLOAT16, EMBER_BOOL, EMBER_UINT8}) {
        T got, want;
        EM_OK(ember_zeros(cpu(), shape, 2, dt, got.out()));
        EM_OK(ember_zeros(ref(), shape, 2, dt, want.out()));
        EM_OK(ember_assign(cpu(), got, column));
        EM_OK(ember_assign(ref(), want, as_ref(column)));
        EXPECT_EQ(raw_bytes(got), raw_bytes(want)) << "a float64 column assigned across " << ember_dtype_name(dt) << " rows";
    }
    // Short runs: repeat along the last axis (each value stored k times, k = 2, 3, 4 unrolled,
    // others not), of a 3-d input large enough for the pool, packed (rows of x into packed
    // blocks) and transposed, and a float64 value per row converted into short int8/float16
    // rows.
    auto d = randf(2 * 301 * 435, -200, 200, 77);
    for (ember_dtype_t dt : {EMBER_UINT8, EMBER_FLOAT16, EMBER_FLOAT32, EMBER_FLOAT64, EMBER_COMPLEX128}) {
        T x = tensor(cpu(), d, {2, 301, 435}, dt), xt;
        const int64_t perm[3] = {0, 2, 1};
        EM_OK(ember_permute_dims(cpu(), x, perm, 3, xt.out()));
        for (const ember_tensor_t* in : {x.t, xt.t})
            for (int64_t k : {1, 2, 3, 4, 5, 15, 16}) {
                T got, want;
                EM_OK(ember_repeat(cpu(), in, k, -1, got.out()));
                EM_OK(ember_repeat(ref(), as_ref(in), k, -1, want.out()));
                EXPECT_EQ(raw_bytes(got), raw_bytes(want))
                    << "repeat by " << k << " along the last axis of " << (in == x.t ? "packed " : "transposed ") << ember_dtype_name(dt);
            }
    }
    T wide = tensor(cpu(), d, {2 * 301 * 435, 1}, EMBER_FLOAT64);
    for (ember_dtype_t dt : {EMBER_INT8, EMBER_FLOAT16})
        for (int64_t k : {2, 3, 7}) {  // into columns 2..2+k of rows of k + 5: stepped rows
            const int64_t rows_shape[2] = {2 * 301 * 435, k + 5}, start[2] = {0, 2}, stop[2] = {EMBER_SLICE_END, 2 + k}, step[2] = {1, 1};
            T got, want, got_cols, want_cols;
            EM_OK(ember_zeros(cpu(), rows_shape, 2, dt, got.out()));
            EM_OK(ember_zeros(ref(), rows_shape, 2, dt, want.out()));
            EM_OK(ember_slice(cpu(), got, start, stop, step, 2, got_cols.out()));
            EM_OK(ember_slice(ref(), want, start, stop, step, 2, want_cols.out()));
            EM_OK(ember_assign(cpu(), got_cols, wide));
            EM_OK(ember_assign(ref(), want_cols, as_ref(wide)));
            EXPECT_EQ(raw_bytes(got), raw_bytes(want)) << "float64 values assigned across rows of " << k << " " << ember_dtype_name(dt);
        }
}

// Outputs of at least the streaming threshold (half the L3, 4 to 16 MiB) are written with
// streaming stores, after a lane-by-lane head that reaches vector alignment (inputs sliced
// by one element here); clip fences once per run of chunks rather than once per call.
TEST(CpuLarge, StreamingStoresForHugeOutputs) {
    NEED_CPU();
    const int64_t n = 9000007;  // 36 MB of float32
    auto d = randf((size_t)n + 1, -3, 3, 71);
    T full = tensor(cpu(), d, {n + 1}, EMBER_FLOAT32), x, y;
    int64_t one[1] = {1}, end[1] = {EMBER_SLICE_END}, zero[1] = {0}, upto[1] = {n};
    EM_OK(ember_slice(cpu(), full, one, end, nullptr, 1, x.out()));   // misaligned start
    EM_OK(ember_slice(cpu(), full, zero, upto, nullptr, 1, y.out()));
    T s;
    EM_OK(ember_tensor_from_f64(cpu(), 0.5, EMBER_FLOAT32, s.out()));
    struct {
        const char* what;
        std::function<ember_status_t(ember_ctx_t*, const ember_tensor_t*, const ember_tensor_t*, const ember_tensor_t*, ember_tensor_t**)> fn;
        double rtol;
    } cases[] = {
        {"add", [](auto c, auto a, auto b, auto, auto o) { return ember_add(c, a, b, o); }, 0},
        {"multiply-scalar", [](auto c, auto a, auto, auto sc, auto o) { return ember_multiply(c, a, sc, o); }, 0},
        {"exp", [](auto c, auto a, auto, auto, auto o) { return ember_exp(c, a, o); }, 5e-7},
        {"sin", [](auto c, auto a, auto, auto, auto o) { return ember_sin(c, a, o); }, 1e-6},  // glibc's vector sin (simd_mvec.hpp)
        {"copy", [](auto c, auto a, auto, auto, auto o) { return ember_copy(c, a, o); }, 0},
        {"clip", [](auto c, auto a, auto, auto sc, auto o) { return ember_clip(c, a, nullptr, sc, o); }, 0},
    };
    for (auto& c : cases) {
        T got, want;
        EM_OK(c.fn(cpu(), x, y, s, got.out()));
        EM_OK(c.fn(ref(), as_ref(x), as_ref(y), as_ref(s), want.out()));
        expect_close(got, want, c.rtol, 0, c.what);
    }
    T dst;
    int64_t shape[1] = {n};
    EM_OK(ember_zeros(cpu(), shape, 1, EMBER_FLOAT32, dst.out()));
    EM_OK(ember_assign(cpu(), dst, x));
    expect_close(dst, x, 0, 0, "assign");
    // Into a view one element past a vector boundary: the vector sin's padded head, then
    // streaming stores.
    T big, into, y_rest, want;
    EM_OK(ember_zeros(cpu(), shape, 1, EMBER_FLOAT32, big.out()));
    EM_OK(ember_slice(cpu(), big, one, end, nullptr, 1, into.out()));
    EM_OK(ember_slice(cpu(), y, one, end, nullptr, 1, y_rest.out()));
    const ember_tensor_t* xs[1] = {y_rest};
    EM_OK(ember_elementwise_into(cpu(), "sin", xs, 1, into));
    EM_OK(ember_sin(ref(), as_ref(y_rest), want.out()));
    expect_close(into, want, 1e-6, 0, "sin into a view");
    // 8-byte results of conversions and of floor: L1 pieces, then the streaming copy; from
    // the misaligned x, and into views one element past a line (the head in place).
    T x64, x64_want, fl, fl_want, big64, into64, fl_into;
    EM_OK(ember_astype(cpu(), x, EMBER_FLOAT64, x64.out()));
    EM_OK(ember_astype(ref(), as_ref(x), EMBER_FLOAT64, x64_want.out()));
    expect_close(x64, x64_want, 0, 0, "astype float32 -> float64");
    EM_OK(ember_floor(cpu(), x64, fl.out()));
    EM_OK(ember_floor(ref(), as_ref(x64), fl_want.out()));
    expect_close(fl, fl_want, 0, 0, "floor float64");
    const int64_t wide[1] = {n + 1};
    EM_OK(ember_zeros(cpu(), wide, 1, EMBER_FLOAT64, big64.out()));
    EM_OK(ember_slice(cpu(), big64, one, end, nullptr, 1, into64.out()));
    EM_OK(ember_assign(cpu(), into64, x));
    expect_close(into64, x64_want, 0, 0, "float32 assigned into a float64 view");
    const ember_tensor_t* x64s[1] = {x64};
    EM_OK(ember_elementwise_into(cpu(), "floor", x64s, 1, into64));
    expect_close(into64, fl_want, 0, 0, "floor float64 into a view");
    // where: L1 pieces, then the streaming copy; from the misaligned x.
    T cond, w, w_want, w64, w64_want;
    EM_OK(ember_greater(cpu(), x, s, cond.out()));
    EM_OK(ember_where(cpu(), cond, x, y, w.out()));
    EM_OK(ember_where(ref(), as_ref(cond), as_ref(x), as_ref(y), w_want.out()));
    expect_close(w, w_want, 0, 0, "where float32");
    EM_OK(ember_where(cpu(), cond, x64, fl, w64.out()));
    EM_OK(ember_where(ref(), as_ref(cond), as_ref(x64), as_ref(fl), w64_want.out()));
    expect_close(w64, w64_want, 0, 0, "where float64");
}

// ------------------------------------------------------------------ transcendental accuracy
double ulp_of(double ref) {
    float r = (float)ref;
    if (std::isinf(r)) r = std::numeric_limits<float>::max();
    float a = std::fabs(r);
    float next = std::nextafter(a, std::numeric_limits<float>::infinity());
    return (double)next - (double)a;
}

struct UlpCase {
    const char* name;
    Unary fn;
    double (*exact)(double);
    std::vector<float> inputs;
    double bound = 4.0;  // ulp; tighter for own kernels that promise more
};

double sigmoid64(double x) { return x >= 0 ? 1 / (1 + std::exp(-x)) : std::exp(x) / (1 + std::exp(x)); }
double logaddexp64(double a, double b) {
    const double m = std::max(a, b);
    return a == b ? a + std::log(2.0) : m + std::log1p(std::exp(-std::fabs(a - b)));
}
double exp64(double x) { return std::exp(x); }
double log64(double x) { return std::log(x); }
double tanh64(double x) { return std::tanh(x); }

std::vector<float> sweep(float lo, float hi, int n) {
    std::vector<float> v;
    for (int i = 0; i <= n; ++i) v.push_back(lo + (hi - lo) * (float)i / (float)n);
    return v;
}
// Every 97th positive float: all binades, subnormals included.
std::vector<float> positive_bits() {
    std::vector<float> v;
    for (uint32_t b = 1; b < 0x7f800000u; b += 97 * 113) {
        float f;
        std::memcpy(&f, &b, 4);
        v.push_back(f);
    }
    return v;
}

std::vector<UlpCase> ulp_cases() {
    std::vector<UlpCase> c;
    auto e = sweep(-103.9f, 88.7f, 2000000);
    c.push_back({"exp", ember_exp, exp64, e});
    auto l = positive_bits();
    auto l2 = sweep(0.5f, 2.0f, 1000000);
    l.insert(l.end(), l2.begin(), l2.end());
    c.push_back({"log", ember_log, log64, l});
    auto t = sweep(-10.0f, 10.0f, 2000000);
    auto t2 = sweep(-0.001f, 0.001f, 200000);
    t.insert(t.end(), t2.begin(), t2.end());
    c.push_back({"tanh", ember_tanh, tanh64, t});
    auto s = sweep(-110.0f, 30.0f, 2000000);
    c.push_back({"sigmoid", ember_sigmoid, sigmoid64, s});
    // logaddexp(x, 0) (OpLogAddExp): both halves of its log1p, exp's underflow
    c.push_back({"softplus", ember_softplus, [](double v) { return logaddexp64(v, 0); }, sweep(-110.0f, 90.0f, 2000000)});
    // float32 erf's own polynomials (simd_erf.hpp), within 1 ulp: both pieces, the switch at
    // 1.25 and the end at 3.92, every binade down to the subnormals, both signs
    auto r = sweep(-5.0f, 5.0f, 1000000);
    for (float v : positive_bits()) {
        r.push_back(v);
        r.push_back(-v);
    }
    for (float edge : {1.25f, 3.92f}) {  // the 64 floats either side
        float v = edge;
        for (int k = 0; k < 64; ++k) v = std::nextafter(v, 0.0f);
        for (int k = 0; k <= 128; ++k, v = std::nextafter(v, 5.0f)) r.push_back(v);
    }
    c.push_back({"erf", ember_erf, [](double v) { return std::erf(v); }, r, 1.0});
    // gelu (erf form): float lanes with AVX2 and AVX-512 (simd_gelu_erf.hpp), within 2.4 ulp
    // (2.34 over every float with |x| in [1e-6, 15), 1.83 on these; with x T rounded as one
    // product, 2.98; without the exact low part of x^2/2, 64): every interval's ends, the out-of-line lanes from |x| = 12 and the
    // round-to-zero below -14.5, every binade of both signs; libmvec's erfc in double elsewhere
    auto g = sweep(-15.0f, 15.0f, 2000000);
    for (float v : positive_bits()) {
        g.push_back(v);
        g.push_back(-v);
    }
    for (float edge : {0.5f, 0.75f, 1.0f, 1.5f, 2.0f, 3.0f, 4.0f, 6.0f, 8.0f, 12.0f, 14.5f}) {
        float v = edge;
        for (int k = 0; k < 64; ++k) v = std::nextafter(v, 0.0f);
        for (int k = 0; k <= 128; ++k, v = std::nextafter(v, 20.0f)) {
            g.push_back(v);
            g.push_back(-v);
        }
    }
    c.push_back({"gelu", [](ember_ctx_t* ctx, const ember_tensor_t* x, ember_tensor_t** o) { return ember_gelu(ctx, x, 0, o); },
                 [](double v) { return 0.5 * v * std::erfc(-v * M_SQRT1_2); }, g, 2.4});
    // glibc's libmvec (simd_mvec.hpp), the ISA's variant
    c.push_back({"erfc", ember_erfc, [](double v) { return std::erfc(v); }, sweep(-4.0f, 9.5f, 1000000)});
    c.push_back({"sin", ember_sin, [](double v) { return std::sin(v); }, sweep(-100.0f, 100.0f, 1000000)});
    c.push_back({"expm1", ember_expm1, [](double v) { return std::expm1(v); }, sweep(-20.0f, 20.0f, 1000000)});
    c.push_back({"log1p", ember_log1p, [](double v) { return std::log1p(v); }, sweep(-0.99f, 100.0f, 1000000)});
    return c;
}

void check_ulp(double bound) {
    for (auto& uc : ulp_cases()) {
        int64_t n = (int64_t)uc.inputs.size();
        T x = tensor(cpu(), uc.inputs, {n}, EMBER_FLOAT32), y;
        EM_OK(uc.fn(cpu(), x, y.out()));
        std::vector<float> out((size_t)n);
        EM_OK(ember_tensor_read(y, out.data(), out.size() * 4));
        double worst = 0;
        float worst_x = 0;
        for (int64_t i = 0; i < n; ++i) {
            double want = uc.exact((double)uc.inputs[(size_t)i]);
            double err = std::fabs((double)out[(size_t)i] - want) / ulp_of(want);
            if (!(err <= worst)) {
                worst = err;
                worst_x = uc.inputs[(size_t)i];
            }
        }
        const char* isa = std::getenv("EMBER_CPU_ISA");
        std::printf("    [ulp] %-8s max error %.3f ulp at x = %.9g (%s kernels, %lld inputs)\n", uc.name, worst, worst_x, isa ? isa : "best",
                    (long long)n);
        EXPECT_LE(worst, std::min(bound, uc.bound)) << uc.name << " at x = " << worst_x;
    }
}

TEST(CpuMath, Float32UlpErrorAtMost4) {
    NEED_CPU();
    check_ulp(4.0);
}

// float32 logaddexp (OpLogAddExp) against float64 math: random pairs, pairs a few ulp to a
// few units apart (log1p's upper half), a broadcast scalar; within 4 ulp where the result
// is at least 1 in magnitude. Below, m + log1p(.) cancels (a, b < 0 with a result near 0):
// the error is then a few ulp of log1p's value, about 1e-7 at most, as in the reference's
// float32 formula.
TEST(CpuMath, LogaddexpWithin4Ulp) {
    NEED_CPU();
    std::mt19937 gen(7);
    std::uniform_real_distribution<float> wide(-90.0f, 90.0f), gap(-4.0f, 4.0f);
    std::vector<float> a, b;
    for (int i = 0; i < 400000; ++i) {
        const float x = wide(gen);
        a.push_back(x);
        b.push_back(i % 2 ? wide(gen) : (i % 4 ? x + gap(gen) : std::nextafter(x, 100.0f)));
    }
    const int64_t n = (int64_t)a.size();
    T ta = tensor(cpu(), a, {n}, EMBER_FLOAT32), tb = tensor(cpu(), b, {n}, EMBER_FLOAT32), two = tensor(cpu(), std::vector<float>{2.5f}, {}, EMBER_FLOAT32);
    T got, with_scalar;
    EM_OK(ember_logaddexp(cpu(), ta, tb, got.out()));
    EM_OK(ember_logaddexp(cpu(), two, ta, with_scalar.out()));
    const auto g = host_values(got), gs = host_values(with_scalar);
    double worst = 0, worst_small = 0;
    for (int64_t i = 0; i < n; ++i) {
        for (int side = 0; side < 2; ++side) {
            const double want = side ? logaddexp64(2.5, a[(size_t)i]) : logaddexp64(a[(size_t)i], b[(size_t)i]);
            const double err = std::fabs((side ? gs : g)[(size_t)i] - want);
            if (std::fabs(want) >= 1) worst = std::max(worst, err / ulp_of(want));
            else worst_small = std::max(worst_small, err);
        }
    }
    std::printf("    [ulp] logaddexp max error %.3f ulp (|result| >= 1), %.3g absolute below\n", worst, worst_small);
    EXPECT_LE(worst, 4.0);
    EXPECT_LE(worst_small, 2e-7);
    // float64 (libmvec's exp and log1p) against long double math: 4 float64 ulp, the same way
    std::vector<double> ad(a.begin(), a.end()), bd(b.begin(), b.end());
    for (size_t i = 0; i < ad.size(); i += 3) bd[i] = ad[i] + (double)gap(gen) * 1e-6;  // pairs closer than float32's
    T da = tensor(cpu(), ad, {n}, EMBER_FLOAT64), db = tensor(cpu(), bd, {n}, EMBER_FLOAT64), got64;
    EM_OK(ember_logaddexp(cpu(), da, db, got64.out()));
    const auto g64 = host_values(got64);
    double worst64 = 0, worst64_small = 0;
    for (int64_t i = 0; i < n; ++i) {
        const long double x = ad[(size_t)i], y = bd[(size_t)i];
        const long double want = x == y ? x + logl(2.0L) : std::max(x, y) + log1pl(expl(-fabsl(x - y)));
        const double err = (double)fabsl((long double)g64[(size_t)i] - want), w = (double)want;
        if (std::fabs(w) >= 1) worst64 = std::max(worst64, err / (std::nextafter(std::fabs(w), 1e300) - std::fabs(w)));
        else worst64_small = std::max(worst64_small, err);
    }
    std::printf("    [ulp] logaddexp float64 max error %.3f ulp (|result| >= 1), %.3g absolute below\n", worst64, worst64_small);
    EXPECT_LE(worst64, 4.0);
    EXPECT_LE(worst64_small, 1e-15);
}

// The ISA variants below the best one (which the tests above run): the float32 functions
// within 4 ulp and their streaming-store paths, the float64 libmvec functions, shifts,
// conversions and half types (test_cpu_dtypes.cpp), vector Philox, the sorting networks
// and long lines' quicksort (AVX2) or radix sort (generic) (test_cpu_indexing.cpp),
// categorical's exponentials and race (test_cpu_random.cpp), the transposing copies around
// LAPACK (test_cpu_linalg.cpp), complex abs, conj, multiply and sums, float64 -> half
// types, products, integer floor_divide/remainder, bool compares and extremes, all/any
// counts, unary ops of transposed inputs (the narrow transposes differ per ISA). One test
// per variant, so that the suite's two shards share them (a minute each
// under the sanitizers).
const char* const kIsaVariantFilter =
    "CpuChild.UlpVariant:CpuMath.ExpAndSigmoidIntoSubnormals:CpuLarge.StreamingStoresForHugeOutputs:CpuLarge.ShiftsAndConversionsMatchReferenceExactly:"
    "CpuLarge.HalfTypesThroughFloat32Kernels:CpuLarge.UnaryOpsAcrossThreadingThreshold:CpuMath.SpecialValues:"
    "CpuLarge.RandomMatchesReferenceExactly:CpuLarge.FloatToIntegerSaturatesAsReference:CpuLarge.LibmBinaryWithScalarOperand:"
    "CpuMath.RoundingAndClassificationExact:CpuLarge.CountNonzeroAllLayoutsAndDtypes:CpuLarge.ClipMatchesCompositeExactly:"
    "CpuLarge.ShortLineSortsMatchReference:CpuLarge.ShortLine64BitArgsortWindows:CpuLarge.LongLineQuicksortPatterns:"
    "CpuLinalg.MatricesLargerThanTheCopyBlocksRoundTrip:"
    "CpuLarge.ComplexKernelsMatchReferenceExactly:CpuLarge.Complex128QuotientsMatchReferenceBitForBit:CpuLarge.ComplexSumsMatchReference:CpuLarge.AbsComplex128WithinOneUlp:"
    "CpuLarge.Float64ToHalfTypesMatchReferenceExactly:CpuLarge.ProdMatchesReference:CpuLarge.ComplexProdMatchesReference:"
    "CpuLarge.IntegerFloorDivideAndRemainderExact:CpuLarge.BoolComparisonsAndExtremes:CpuLarge.AllAnyAllLayoutsAndDtypes:"
    "CpuLarge.ArgExtremesStopAtTheTypesLimits:CpuLarge.NegativeZeroScalarsKeepTheirSign:CpuLarge.HalfExtremesMatchReferenceBitForBit:"
    "CpuLarge.FloatFloorDivideAndRemainderExact:CpuLarge.IntegerPowersAsReference:CpuMath.PowFloat32Lanes:"
    "CpuLarge.NanReductionsMatchReference:CpuLarge.CopiesShortDistancesPastTheSource:CpuRandom.CategoricalIsItsCompositesOps:"
    "CpuMath.LogaddexpWithin4Ulp:CpuLarge.ComparisonsAndWhereMatchReferenceBytes:CpuLarge.RealToComplexRoundsAsReference:"
    "CpuLarge.SmallIntDivisionByScalarEveryDividend:CpuLarge.ShortRowSumsAsTheRowKernel:CpuLarge.ShortRowExtremesExact:CpuLarge.ShortRunBinaryOpsMatchReference:CpuLarge.ShortRunUnaryOpsMatchContiguous:CpuLarge.InterleavingCopiesMatchReference:"
    "CpuLarge.StridedInputsAsContiguousCopies:CpuLarge.NarrowColumnsSideBySide:CpuLarge.HalfFloat32ConversionsMatchReferenceAtEveryLength:"
    "CpuLarge.UnaryOpsOfTransposedInputsMatchContiguous:CpuLarge.BinaryOpsOfOneTransposedViewMatchContiguous:CpuLarge.TransposedRowPassesExact";

// exp and sigmoid where the result is subnormal or zero (exp_f32_low: the last rounding
// made on a normal float and read back as the subnormal's bits, no lane scaled into
// underflow): every float32 from -105 to -86 against libm's float64 exp rounded to float32,
// at most 1 subnormal ulp apart and equal for 95% (a truncating or misaligned
// rounding differs for half of them); values in range mixed into the same vectors.
TEST(CpuMath, ExpAndSigmoidIntoSubnormals) {
    NEED_CPU();
    std::vector<float> x;
    for (float v = -105.0f; v <= -86.0f; v = std::nextafter(v, 0.0f)) x.push_back(v);
    for (size_t i = 0; i < x.size(); i += 7) x[i] = -1.0f - (float)(i % 5);  // normal results beside them
    const int64_t n = (int64_t)x.size();
    T t = tensor(cpu(), x, {n}, EMBER_FLOAT32);
    for (auto [name, fn] : {std::pair<const char*, Unary>{"exp", ember_exp}, {"sigmoid", ember_sigmoid}}) {
        T y;
        EM_OK(fn(cpu(), t, y.out()));
        std::vector<float> got((size_t)n);
        EM_OK(ember_tensor_read(y, got.data(), got.size() * 4));
        int64_t differ = 0, subnormal = 0;
        for (int64_t i = 0; i < n; ++i) {
            const double e = std::exp((double)x[(size_t)i]);
            const float want = (float)(std::string(name) == "exp" ? e : e / (1.0 + e));
            const float g = got[(size_t)i];
            subnormal += want != 0 && want < FLT_MIN;
            if (g == want) continue;
            differ += want < FLT_MIN;  // normal results are 1 ulp from libm's for many inputs
            ASSERT_LE(std::fabs((double)g - (double)want), want < FLT_MIN ? 0x1p-149 : 4.0 * ulp_of(want)) << name << "(" << x[(size_t)i] << ")";
        }
        EXPECT_GT(subnormal, n / 2) << name;
        EXPECT_LT(differ, subnormal / 20) << name << ": subnormal results one ulp from libm's (2% here, as before exp_f32_low)";
    }
}

TEST(CpuMath, Avx2VariantWithin4Ulp) {
    NEED_CPU();
    NEED_CHILD_PROCESSES();
    if (running_isa() == "avx2") GTEST_SKIP() << "avx2 is the variant this process runs: the suite itself runs these checks on it";
    EXPECT_EQ(run_child(kIsaVariantFilter, {{"EMBER_CPU_ISA", "avx2"}}), 0);
}

TEST(CpuMath, GenericVariantWithin4Ulp) {
    NEED_CPU();
    NEED_CHILD_PROCESSES();
    RESULTS_INDEPENDENT_OF_OPTIMISATION();
    EXPECT_EQ(run_child(kIsaVariantFilter, {{"EMBER_CPU_ISA", "generic"}}), 0);
}

TEST(CpuChild, UlpVariant) {
    CHILD_ONLY();
    NEED_CPU();
    check_ulp(4.0);
    // Elementwise and reductions in this variant still match the reference.
    auto d = randf(100003, -3, 3, 61);
    T x = tensor(cpu(), d, {100003}, EMBER_FLOAT32), a, b, s1, s2;
    EM_OK(ember_multiply(cpu(), x, x, a.out()));
    EM_OK(ember_multiply(ref(), as_ref(x), as_ref(x), b.out()));
    expect_close(a, b, 0, 0, "multiply");
    EM_OK(ember_max(cpu(), x, nullptr, 0, 0, s1.out()));
    EM_OK(ember_max(ref(), as_ref(x), nullptr, 0, 0, s2.out()));
    expect_close(s1, s2, 0, 0, "max");
}

// The fused gelu (both forms) against float64 math, the negative tail included, where the
// textbook 1 + erf / 1 + tanh forms cancel to nothing. float32 rounds x and the kernel's
// intermediate 2u (tanh form), which the tail's e^(2u) magnifies by |2u|: hence the bound.
TEST(CpuMath, GeluAccurateInTheTail) {
    NEED_CPU();
    auto xs = sweep(-9.0f, 9.0f, 400000);
    int64_t n = (int64_t)xs.size();
    T x = tensor(cpu(), xs, {n}, EMBER_FLOAT32);
    for (int approximate : {0, 1}) {
        T y;
        EM_OK(ember_gelu(cpu(), x, approximate, y.out()));
        auto got = host_values(y);
        double worst = 0, worst_x = 0;
        for (int64_t i = 0; i < n; ++i) {
            double v = xs[(size_t)i];
            double u2 = 2 * std::sqrt(2 / M_PI) * (v + 0.044715 * v * v * v);
            double want = approximate ? v / (1 + std::exp(-u2)) : 0.5 * v * std::erfc(-v / std::sqrt(2.0));
            if (std::fabs(want) < 1e-30) continue;  // float32 subnormals
            double err = std::fabs(got[(size_t)i] - want) / std::fabs(want);
            if (err > worst) worst = err, worst_x = v;
        }
        std::printf("    [gelu] approximate=%d max relative error %.3g at x = %.7g\n", approximate, worst, worst_x);
        EXPECT_LT(worst, approximate ? 2e-5 : 1e-6) << "approximate=" << approximate << " at x = " << worst_x;
    }
}

// isclose.cpp: isclose in one pass, the composite's booleans bit for bit: random pairs with
// differences around the tolerance, and differences exactly at it (b = 0, |a| = atol and
// its neighbours; atol = 0.5, b = 2^k, a = b + rtol * b + 0.5 where that sum is exact),
// infinities, NaN with and without equal_nan, a broadcast row, float32,
// float64 and mixed operands (float64), integers (float64), and allclose through it.
TEST(CpuLarge, IscloseMatchesReferenceExactly) {
    NEED_CPU();
    std::mt19937 gen(11);
    std::uniform_real_distribution<float> value(-100.0f, 100.0f), rel(-2e-5f, 2e-5f);
    const int64_t n = 200003;
    std::vector<float> a((size_t)n), b((size_t)n);
    for (int64_t i = 0; i < n; ++i) {
        a[(size_t)i] = value(gen);
        b[(size_t)i] = i % 3 ? a[(size_t)i] * (1 + rel(gen)) + rel(gen) * 0.5f : value(gen);
    }
    const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
    const float specials[][2] = {{inf, inf}, {inf, -inf}, {-inf, -inf}, {inf, 1}, {1, inf}, {nan, nan}, {nan, 1}, {1, nan}, {0.0f, -0.0f}, {1e-8f, 0}};
    for (size_t i = 0; i < std::size(specials); ++i) a[i] = specials[i][0], b[i] = specials[i][1];
    // at the tolerance: atol 1e-8 or 1e-3 with b = 0; atol 0.5, rtol 2^-10 (exact) with b = 2^k
    size_t at = 16;
    for (float t : {1e-8f, 1e-3f})
        for (float v : {t, -t, std::nextafter(t, 1.0f), std::nextafter(t, 0.0f)}) a[at] = v, b[at++] = 0;
    for (int e = 0; e < 12; ++e) {
        const float base = std::ldexp(1.0f, e);
        for (float v : {base + base / 1024 + 0.5f, std::nextafter(base + base / 1024 + 0.5f, 1e9f)}) a[at] = v, b[at++] = base;
    }
    for (ember_dtype_t da : {EMBER_FLOAT32, EMBER_FLOAT64})
        for (ember_dtype_t db : {EMBER_FLOAT32, EMBER_FLOAT64, EMBER_INT32}) {
            T ta = tensor(cpu(), a, {n}, da), tb = tensor(cpu(), b, {n}, db), row = tensor(cpu(), std::vector<float>(b.begin(), b.begin() + 7), {7}, db);
            T ta2 = tensor(cpu(), a, {n / 7, 7}, da);  // 200003 = 7 * 28571 + 6: the first 199997
            for (int equal_nan = 0; equal_nan < 2; ++equal_nan)
                for (auto [rtol, atol] : {std::pair{1e-5, 1e-8}, {0.0, 1e-3}, {3e-6, 0.0}, {1.0 / 1024, 0.5}}) {
                    const std::string what = std::string(ember_dtype_name(da)) + " x " + ember_dtype_name(db) + " rtol " + std::to_string(rtol) +
                                             " atol " + std::to_string(atol) + (equal_nan ? " equal_nan" : "");
                    T got, want, got_row, want_row;
                    EM_OK(ember_isclose(cpu(), ta, tb, rtol, atol, equal_nan, got.out()));
                    EM_OK(ember_isclose(ref(), as_ref(ta), as_ref(tb), rtol, atol, equal_nan, want.out()));
                    expect_close(got, want, 0, 0, "isclose " + what);
                    EM_OK(ember_isclose(cpu(), ta2, row, rtol, atol, equal_nan, got_row.out()));
                    EM_OK(ember_isclose(ref(), as_ref(ta2), as_ref(row), rtol, atol, equal_nan, want_row.out()));
                    expect_close(got_row, want_row, 0, 0, "isclose with a broadcast row " + what);
                    int all_cpu = -1, all_ref = -1;
                    EM_OK(ember_allclose(cpu(), ta, ta, rtol, atol, equal_nan, &all_cpu));
                    EM_OK(ember_allclose(ref(), as_ref(ta), as_ref(ta), rtol, atol, equal_nan, &all_ref));
                    EXPECT_EQ(all_cpu, all_ref) << "allclose " << what;
                }
        }
    expect_native_on_cpu("isclose");
}

// logaddexp of every pair of xs on the cpu backend against the reference: NaN where it has
// NaN, the same infinities and zeros, within 4 ulp of F elsewhere.
template <class F>
void expect_logaddexp_pairs_match_reference(const std::vector<F>& xs, ember_dtype_t dt) {
    std::vector<F> a, b;
    for (F u : xs)
        for (F v : xs) a.push_back(u), b.push_back(v);
    T ta = tensor(cpu(), a, {(int64_t)a.size()}, dt), tb = tensor(cpu(), b, {(int64_t)b.size()}, dt), got, want;
    EM_OK(ember_logaddexp(cpu(), ta, tb, got.out()));
    EM_OK(ember_logaddexp(ref(), as_ref(ta), as_ref(tb), want.out()));
    auto g = host_values(got), w = host_values(want);
    for (size_t i = 0; i < g.size(); ++i) {
        const F mag = (F)std::fabs(w[i]);
        const double ulp = (double)std::nextafter(mag, std::numeric_limits<F>::infinity()) - (double)mag;
        if (std::isnan(w[i])) EXPECT_TRUE(std::isnan(g[i])) << "logaddexp(" << a[i] << ", " << b[i] << ")";
        else if (std::isinf(w[i]) || w[i] == 0) EXPECT_EQ(g[i], w[i]) << "logaddexp(" << a[i] << ", " << b[i] << ")";
        else EXPECT_LE(std::fabs(g[i] - w[i]), 4 * ulp) << "logaddexp(" << a[i] << ", " << b[i] << ")";
    }
}

TEST(CpuMath, SpecialValues) {
    NEED_CPU();
    const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
    std::vector<float> x = {0.0f, -0.0f, inf, -inf, nan, 1e-45f, -1e-45f, 1e-40f, 88.8f, -104.0f, 1.0f, 100.0f, -100.0f, 3e38f, -105.0f, -1e30f, -50.0f, 45.0f};
    int64_t n = (int64_t)x.size();
    T t = tensor(cpu(), x, {n}, EMBER_FLOAT32);
    for (Unary fn : {ember_exp, ember_log, ember_tanh, ember_sigmoid, ember_erf, ember_erfc, ember_sin, ember_cos, ember_expm1, ember_log1p,
                     ember_atan, ember_sinh, ember_asinh, ember_tan, ember_softplus}) {
        T got, want;
        EM_OK(fn(cpu(), t, got.out()));
        EM_OK(fn(ref(), as_ref(t), want.out()));
        auto g = host_values(got), w = host_values(want);
        for (size_t i = 0; i < g.size(); ++i) {
            if (std::isnan(w[i])) {
                EXPECT_TRUE(std::isnan(g[i])) << "x = " << x[i];
            } else if (std::isinf(w[i]) || w[i] == 0) {
                EXPECT_EQ(g[i], w[i]) << "x = " << x[i];
            } else {
                EXPECT_LE(std::fabs(g[i] - w[i]), 4 * ulp_of(w[i])) << "x = " << x[i];
            }
        }
    }
    expect_logaddexp_pairs_match_reference(x, EMBER_FLOAT32);
    // float64 exp, log, tanh, sigmoid and silu (libmvec's double variants) against libm:
    // overflow, underflow into subnormals, subnormal inputs, within 4 ulp of double elsewhere.
    const double dinf = std::numeric_limits<double>::infinity();
    std::vector<double> xd = {0.0, -0.0, dinf, -dinf, std::nan(""), 5e-324, -5e-324, 1e-310, 709.7, 710, -745, -746, 1, 100, -100, 1e308, 0.3, -19.5, -720, 800, -40};
    T td = tensor(cpu(), xd, {(int64_t)xd.size()}, EMBER_FLOAT64);
    for (Unary fn : {ember_exp, ember_log, ember_tanh, ember_softplus, ember_sigmoid, ember_silu}) {
        T got, want;
        EM_OK(fn(cpu(), td, got.out()));
        EM_OK(fn(ref(), as_ref(td), want.out()));
        auto g = host_values(got), w = host_values(want);
        for (size_t i = 0; i < g.size(); ++i) {
            if (std::isnan(w[i])) EXPECT_TRUE(std::isnan(g[i])) << "float64 x = " << xd[i];
            else if (std::isinf(w[i]) || w[i] == 0) EXPECT_EQ(g[i], w[i]) << "float64 x = " << xd[i];
            else EXPECT_LE(std::fabs(g[i] - w[i]), 4 * (std::nextafter(std::fabs(w[i]), dinf) - std::fabs(w[i]))) << "float64 x = " << xd[i];
        }
    }
    expect_logaddexp_pairs_match_reference(xd, EMBER_FLOAT64);
}

// Rounding and classification (simd_impl.cpp's exact loops) against the reference's libm
// calls, bit for bit (the sign of a zero result included), at the values where a vector
// rounding trick goes wrong: halfway cases, the last fractional magnitudes (2^23, 2^52),
// -0.0 and results that round to -0.0, infinities, NaN of either sign, subnormals. The
// values repeat at lengths that leave every tail size of a vector.
TEST(CpuMath, RoundingAndClassificationExact) {
    NEED_CPU();
    const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
    const std::vector<double> specials = {0.0, -0.0, 0.3, -0.3, 0.5, -0.5, 0.7, -0.7, 1.5, -1.5, 2.5, -2.5, 1e-45, -1e-45, 5e-324,
                                          -5e-324, 8388607.5, -8388607.5, 8388608.0, 8388609.0, -8388609.0, 16777217.0,
                                          4503599627370495.5, -4503599627370495.5, 4503599627370497.0, 3e38, -3e38, 1e300, inf, -inf,
                                          nan, -nan, 123.456, -987.654};
    struct {
        const char* name;
        Unary fn;
    } ops[] = {{"floor", ember_floor}, {"ceil", ember_ceil},     {"trunc", ember_trunc},       {"round", ember_round},
               {"isnan", ember_isnan}, {"isinf", ember_isinf}, {"isfinite", ember_isfinite}, {"signbit", ember_signbit}};
    for (int64_t len : {(int64_t)specials.size(), (int64_t)1000 + 13}) {
        std::vector<double> d((size_t)len);
        for (size_t i = 0; i < d.size(); ++i) d[i] = specials[i % specials.size()];
        for (ember_dtype_t dt : {EMBER_FLOAT32, EMBER_FLOAT64}) {
            T x64 = tensor(cpu(), d, {len}, EMBER_FLOAT64), x;
            EM_OK(ember_astype(cpu(), x64, dt, x.out()));
            for (auto& op : ops) {
                const std::string what = std::string(op.name) + " " + ember_dtype_name(dt) + " n=" + std::to_string(len);
                T got, want;
                EM_OK(op.fn(cpu(), x, got.out()));
                EM_OK(op.fn(ref(), as_ref(x), want.out()));
                auto g = host_values(got), w = host_values(want);
                ASSERT_EQ(g.size(), w.size()) << what;
                for (size_t i = 0; i < g.size(); ++i) {
                    const bool same = std::isnan(w[i]) ? std::isnan(g[i]) : g[i] == w[i] && std::signbit(g[i]) == std::signbit(w[i]);
                    EXPECT_TRUE(same) << what << " at x = " << d[i] << ": got " << g[i] << ", want " << w[i];
                }
            }
        }
    }
}

// Tiny ops stay on the calling thread and are correct for 0-d and empty tensors.
TEST(CpuBackend, TinyAndEmpty) {
    NEED_CPU();
    T a, b, c;
    EM_OK(ember_tensor_from_f64(cpu(), 2.5, EMBER_FLOAT32, a.out()));
    EM_OK(ember_add(cpu(), a, a, c.out()));
    EXPECT_EQ(host_values(c), std::vector<double>{5.0});
    int64_t z[2] = {0, 3};
    T e, s, m;
    EM_OK(ember_zeros(cpu(), z, 2, EMBER_FLOAT32, e.out()));
    EM_OK(ember_exp(cpu(), e, b.out()));
    EXPECT_EQ(shape_of(b), (std::vector<int64_t>{0, 3}));
    const int64_t ax0[1] = {0};
    EM_OK(ember_sum(cpu(), e, ax0, 1, 0, s.out()));
    EXPECT_EQ(host_values(s), (std::vector<double>{0, 0, 0}));
    EM_OK(ember_mean(cpu(), e, ax0, 1, 0, m.out()));
    for (double v : host_values(m)) EXPECT_TRUE(std::isnan(v));
    T mx;
    EXPECT_EQ(ember_max(cpu(), e, ax0, 1, 0, mx.out()), EMBER_ERR_SHAPE);
}

}  // namespace
