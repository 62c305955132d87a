// The OpenCL backend beyond the cross-backend equivalence suite (test_backends.cpp runs
// every op on it): devices and selection, device memory, deferred errors and
// EMBER_OPENCL_SYNC, float64 gating, CLBlast GEMM, the program cache (hit, miss, corrupt
// file, two writers at once), ember_opencl.h interop, a machine without OpenCL, teardown.
//
// Everything runs in the one ember_tests process (kernels come from the warm program
// cache); the cases that need a fresh process re-run this binary on one child test.
// ember_tests does not link OpenCL: the few OpenCL calls go through dlopen.
#if __has_include(<CL/cl.h>)

#include <dlfcn.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "ember/ember_opencl.h"
#include "test_util.hpp"

namespace {

bool opencl_available(std::string* reason = nullptr) {
    for (int i = 0; i < ember_backend_count(); ++i) {
        const char *name, *why;
        int available;
        ember_backend_get(i, &name, &available, nullptr, &why);
        if (std::string(name) == "opencl") {
            if (reason) *reason = why ? why : "";
            return available != 0;
        }
    }
    if (reason) *reason = "module not built or not found";
    return false;
}

// These tests use the test context as the host-side reference for the device, so they
// need a host backend there (EMBER_TEST_BACKEND=opencl runs the rest of the suite on it).
#define REQUIRE_OPENCL()                                                                  \
    do {                                                                                  \
        std::string why_;                                                                 \
        if (!opencl_available(&why_)) GTEST_SKIP() << "opencl backend unavailable: " << why_; \
        if (!test_backend_uses_host_memory()) GTEST_SKIP() << "the test context is not on the host"; \
    } while (0)

struct Ctx {
    ember_ctx_t* c = nullptr;
    explicit Ctx(const char* backend = "opencl", int device = 0) { ember_ctx_create_on(backend, device, &c); }
    ~Ctx() { ember_ctx_release(c); }
    operator ember_ctx_t*() const { return c; }
};

// The OpenCL entry points the tests need, from the ICD loader.
struct CL {
    void* h = nullptr;
    decltype(&clEnqueueReadBuffer) read = nullptr;
    decltype(&clReleaseMemObject) release_mem = nullptr;
    decltype(&clGetMemObjectInfo) mem_info = nullptr;
    decltype(&clCreateContext) create_context = nullptr;
    decltype(&clCreateCommandQueue) create_queue = nullptr;
    decltype(&clReleaseContext) release_context = nullptr;
    decltype(&clReleaseCommandQueue) release_queue = nullptr;
    decltype(&clGetContextInfo) context_info = nullptr;
    CL() {
        h = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL);
        if (!h) return;
        read = (decltype(read))dlsym(h, "clEnqueueReadBuffer");
        release_mem = (decltype(release_mem))dlsym(h, "clReleaseMemObject");
        mem_info = (decltype(mem_info))dlsym(h, "clGetMemObjectInfo");
        create_context = (decltype(create_context))dlsym(h, "clCreateContext");
        create_queue = (decltype(create_queue))dlsym(h, "clCreateCommandQueue");
        release_context = (decltype(release_context))dlsym(h, "clReleaseContext");
        release_queue = (decltype(release_queue))dlsym(h, "clReleaseCommandQueue");
        context_info = (decltype(context_info))dlsym(h, "clGetContextInfo");
    }
    bool ok() const { return read && release_mem && mem_info && create_context && create_queue && release_context && release_queue; }
};

T make_on(ember_ctx_t* ctx, const std::vector<double>& v, std::vector<int64_t> shape, ember_dtype_t dt) {
    T host = make(v, shape, dt), r;
    ember_tensor_to(ctx, host, r.out());
    return r;
}

std::vector<double> random_vec(size_t n, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> d(-192, 192);
    std::vector<double> v(n);
    for (auto& x : v) x = d(rng) / 64.0;
    return v;
}

// Starts this test binary on one child test (EMBER_OPENCL_TEST_CHILD names it) with extra
// environment; wait_child returns its exit status.
pid_t spawn_child(const std::string& test, const std::vector<std::string>& extra_env) {
    std::vector<std::string> extra = extra_env;
    extra.push_back("EMBER_OPENCL_TEST_CHILD=" + test);
    return spawn_test_child(test, extra);
}
int wait_child(pid_t pid) { return wait_test_child(pid); }
int run_child(const std::string& test, const std::vector<std::string>& extra_env) { return wait_child(spawn_child(test, extra_env)); }

bool in_child(const char* test) {
    const char* c = std::getenv("EMBER_OPENCL_TEST_CHILD");
    return c && std::string(c) == test;
}

// Copies to / from the reference backend.
T on(ember_ctx_t* ctx, const ember_tensor_t* t) {
    T r;
    ember_tensor_to(ctx, t, r.out());
    return r;
}
T on_ref(const ember_tensor_t* t) { return on(test_ctx(), t); }

std::string temp_dir() {
    char tmpl[] = "/tmp/ember-ocl-test-XXXXXX";
    char* d = mkdtemp(tmpl);
    return d ? d : "";
}

ember_opencl_cache_t cache_query(const char* set_dir = nullptr, int drop = 0) {
    ember_opencl_cache_t q{};
    q.set_dir = set_dir;
    q.drop_programs = drop;
    EXPECT_EQ(ember_opencl_call(EMBER_OPENCL_REQ_CACHE, &q), EMBER_OK) << ember_last_error();
    return q;
}

TEST(OpenCL, DevicesAndScore) {
    REQUIRE_OPENCL();
    int n = 0, score = 0;
    EM_OK(ember_backend_device_count("opencl", &n));
    ASSERT_GE(n, 1);
    EM_OK(ember_backend_score("opencl", &score));
    bool gpu = false;
    for (int i = 0; i < n; ++i) {
        ember_device_info_t info{};
        EM_OK(ember_backend_device_info("opencl", i, &info));
        EXPECT_GT(std::string(info.name).size(), 0u);
        EXPECT_GE(info.compute_units, 1);
        EXPECT_GT(info.memory_bytes, 0u);
        gpu = gpu || info.type == EMBER_DEVICE_GPU;
        if (i > 0) {  // GPUs are listed first, so device 0 is the one auto-selection picks
            ember_device_info_t prev{};
            ember_backend_device_info("opencl", i - 1, &prev);
            EXPECT_FALSE(info.type == EMBER_DEVICE_GPU && prev.type != EMBER_DEVICE_GPU);
        }
    }
    // A GPU outranks the cpu backend (50); a CPU-only OpenCL (PoCL) ranks below it but above
    // the reference backend (10).
    EXPECT_EQ(score, gpu ? 100 : 20);
}

TEST(OpenCL, TensorsLiveInDeviceMemory) {
    REQUIRE_OPENCL();
    Ctx ctx;
    T x = make_on(ctx, {1, 2, 3}, {3}, EMBER_FLOAT32);
    void* p = nullptr;
    EXPECT_EQ(ember_tensor_host_data(x, &p), EMBER_ERR_UNSUPPORTED);
    float buf[3] = {1, 2, 3};
    int64_t shape[1] = {3};
    T w;
    EXPECT_EQ(ember_tensor_wrap(ctx, buf, EMBER_FLOAT32, shape, nullptr, 1, w.out()), EMBER_ERR_UNSUPPORTED);
    ember_memory_info_t mi{};
    EM_OK(ember_ctx_memory_info(ctx, &mi));
    EXPECT_GT(mi.allocated_bytes, 0u);
    // writes into a strided view and reads back (read synchronises)
    T big = make_on(ctx, std::vector<double>(12, 0), {3, 4}, EMBER_FLOAT32), col;
    EM_OK(ember_select(ctx, big, 1, 2, col.out()));
    float vals[3] = {7, 8, 9};
    EM_OK(ember_tensor_write(ctx, col, vals, sizeof vals));
    EXPECT_EQ(values(on_ref(big)), (std::vector<double>{0, 0, 7, 0, 0, 0, 8, 0, 0, 0, 9, 0}));
}

TEST(OpenCL, BackendMismatch) {
    REQUIRE_OPENCL();
    Ctx ctx;
    T dev = make_on(ctx, {1, 2}, {2}, EMBER_FLOAT32);
    T host = make<double>({3, 4}, {2}, EMBER_FLOAT32), r;
    EM_FAILS(ember_add(ctx, dev, host, r.out()), EMBER_ERR_BACKEND_MISMATCH, "ember_add");
    EM_FAILS(ember_add(test_ctx(), host, dev, r.out()), EMBER_ERR_BACKEND_MISMATCH, "ember_add");
    T moved;
    EM_OK(ember_tensor_to(ctx, host, moved.out()));
    EM_OK(ember_add(ctx, dev, moved, r.out()));
    EXPECT_EQ(values(on_ref(r)), (std::vector<double>{4, 6}));
}

// complex -> bool is "either part non-zero" (as the reference); nonzero agrees with it.
TEST(OpenCL, ComplexTruthiness) {
    REQUIRE_OPENCL();
    Ctx ctx;
    const double z[8] = {0, 1, 0, 0, 2, 0, -0.0, 0};  // (0+1i), (0+0i), (2+0i), (-0+0i)
    int64_t shape[1] = {4};
    T h, d, b1, b2, n1, n2;
    EM_OK(ember_tensor_from_data(test_ctx(), z, EMBER_COMPLEX128, shape, 1, h.out()));
    d = on(ctx, h);
    EM_OK(ember_astype(test_ctx(), h, EMBER_BOOL, b1.out()));
    EM_OK(ember_astype(ctx, d, EMBER_BOOL, b2.out()));
    EXPECT_EQ(values(on_ref(b2)), values(b1));
    EXPECT_EQ(values(b1), (std::vector<double>{1, 0, 1, 0}));
    EM_OK(ember_nonzero(test_ctx(), h, n1.out()));
    EM_OK(ember_nonzero(ctx, d, n2.out()));
    EXPECT_EQ(values(on_ref(n2)), values(n1));
}

// Index errors happen on the device: asynchronously they surface at the next
// synchronisation, naming the op; in sync mode at the op itself.
TEST(OpenCL, DeferredErrorsAndSyncMode) {
    REQUIRE_OPENCL();
    Ctx ctx;
    T x = make_on(ctx, {10, 20, 30}, {3}, EMBER_FLOAT32);
    T bad = make_on(ctx, {0, 7}, {2}, EMBER_INT64), r;
    EM_OK(ember_take(ctx, x, bad, 0, r.out()));
    ember_status_t st = ember_synchronize(ctx);
    EXPECT_EQ(st, EMBER_ERR_INDEX);
    std::string msg = ember_last_error();
    EXPECT_NE(msg.find("take"), std::string::npos) << msg;
    EXPECT_NE(msg.find("7"), std::string::npos) << msg;
    EM_OK(ember_synchronize(ctx));  // reported once
    // a read reports it too
    T r2;
    EM_OK(ember_take(ctx, x, bad, 0, r2.out()));
    std::vector<float> out(2);
    EXPECT_EQ(ember_tensor_read(r2, out.data(), 8), EMBER_ERR_INDEX);

    EM_OK(ember_opencl_set_sync(1));
    T r3;
    EM_FAILS(ember_take(ctx, x, bad, 0, r3.out()), EMBER_ERR_INDEX, "ember_take");
    msg = ember_last_error();
    EXPECT_EQ(msg.find("deferred"), std::string::npos) << msg;  // reported at the op, as asked
    EXPECT_NE(msg.find("index 7 is out of range"), std::string::npos) << msg;
    T idx = make_on(ctx, {2, 0}, {2}, EMBER_INT64), r4;
    EM_OK(ember_take(ctx, x, idx, 0, r4.out()));
    EXPECT_EQ(values(on_ref(r4)), (std::vector<double>{30, 10}));
    T src = make_on(ctx, {1, 2, 3}, {3}, EMBER_FLOAT32), badi = make_on(ctx, {0, 5, 1}, {3}, EMBER_INT64), r5;
    EM_FAILS(ember_scatter(ctx, src, badi, 0, 2, EMBER_SCATTER_ADD, r5.out()), EMBER_ERR_INDEX, "scatter");
    EM_OK(ember_opencl_set_sync(0));
    EM_OK(ember_synchronize(ctx));
}

// A device without cl_khr_fp64 (simulated through the test hook): float64 compute is
// refused with a clear message, float64 data can still be moved and converted.
TEST(OpenCL, Float64OnADeviceWithoutFp64) {
    REQUIRE_OPENCL();
    Ctx ctx;
    ember_opencl_fp64_t off{0, 0}, on{0, 1};
    EM_OK(ember_opencl_call(EMBER_OPENCL_REQ_SET_FP64, &off));
    ember_device_info_t info{};
    ember_backend_device_info("opencl", 0, &info);
    EXPECT_EQ(info.supports_fp64, 0);
    T a = make_on(ctx, {1.5, -2.25, 3}, {3}, EMBER_FLOAT64), r;
    EM_FAILS(ember_add(ctx, a, a, r.out()), EMBER_ERR_UNSUPPORTED_DTYPE, "ember_add");
    EXPECT_NE(std::string(ember_last_error()).find("cl_khr_fp64"), std::string::npos) << ember_last_error();
    T c128 = make_on(ctx, {1, 2}, {2}, EMBER_COMPLEX128), rc;
    EM_FAILS(ember_exp(ctx, c128, rc.out()), EMBER_ERR_UNSUPPORTED_DTYPE, "ember_exp");
    // conversions go through bit patterns; scalars (weak float64) keep working
    T f32, back, s, sum;
    EM_OK(ember_astype(ctx, a, EMBER_FLOAT32, f32.out()));
    EXPECT_EQ(values(on_ref(f32)), (std::vector<double>{1.5, -2.25, 3}));
    EM_OK(ember_astype(ctx, f32, EMBER_FLOAT64, back.out()));
    EXPECT_EQ(values(on_ref(back)), (std::vector<double>{1.5, -2.25, 3}));
    T i64 = make_on(ctx, {-5, 123456789, 0}, {3}, EMBER_INT64), d64, b;
    EM_OK(ember_astype(ctx, i64, EMBER_FLOAT64, d64.out()));
    EXPECT_EQ(values(on_ref(d64)), (std::vector<double>{-5, 123456789, 0}));
    EM_OK(ember_astype(ctx, a, EMBER_BOOL, b.out()));
    EXPECT_EQ(values(on_ref(b)), (std::vector<double>{1, 1, 1}));
    T two;
    EM_OK(ember_scalar_f64(ctx, 2.0, two.out()));
    EM_OK(ember_multiply(ctx, f32, two, s.out()));
    EXPECT_EQ(dtype_of(s), EMBER_FLOAT32);
    EXPECT_EQ(values(on_ref(s)), (std::vector<double>{3, -4.5, 6}));
    T t2 = make_on(ctx, {1, 2, 3, 4, 5, 6}, {2, 3}, EMBER_FLOAT64), tt, tc;
    EM_OK(ember_transpose(ctx, t2, tt.out()));
    EM_OK(ember_copy(ctx, tt, tc.out()));  // data movement needs no fp64
    EXPECT_EQ(values(on_ref(tc)), (std::vector<double>{1, 4, 2, 5, 3, 6}));
    EM_OK(ember_opencl_call(EMBER_OPENCL_REQ_SET_FP64, &on));
    EM_OK(ember_add(ctx, a, a, r.out()));
    EXPECT_EQ(values(on_ref(r)), (std::vector<double>{3, -4.5, 6}));
}

// Large shapes take the paths the equivalence suite's small shapes do not: two-stage
// reductions, long sorts, CLBlast GEMM (plain, transposed, strided-batched, batched).
TEST(OpenCL, LargeShapesMatchReference) {
    REQUIRE_OPENCL();
    Ctx ctx;
    auto v = random_vec(100000, 5);
    v[777] = NAN;
    T href = make(v, {100000}, EMBER_FLOAT32), hdev = on(ctx, href);
    for (auto fn : {ember_sum, ember_max, ember_min}) {
        T r1, r2;
        EM_OK(fn(test_ctx(), href, nullptr, 0, 0, r1.out()));
        EM_OK(fn(ctx, hdev, nullptr, 0, 0, r2.out()));
        double a = values(r1)[0], b = values(on_ref(r2))[0];
        EXPECT_TRUE(std::isnan(a) == std::isnan(b) && (std::isnan(a) || std::fabs(a - b) <= 1e-5 * std::fabs(a)));
    }
    v[777] = 1;
    T h2 = make(v, {50, 2000}, EMBER_FLOAT32), d2 = on(ctx, h2);
    const int64_t ax1[1] = {1}, ax0[1] = {0};
    for (const int64_t* ax : {ax0, ax1}) {
        T r1, r2;
        EM_OK(ember_sum(test_ctx(), h2, ax, 1, 0, r1.out()));
        EM_OK(ember_sum(ctx, d2, ax, 1, 0, r2.out()));
        EXPECT_TRUE(all_close(values(on_ref(r2)), values(r1), 1e-5, 1e-4));
    }
    T s1, s2, a1, a2;
    EM_OK(ember_sort(test_ctx(), h2, 1, 1, s1.out()));
    EM_OK(ember_sort(ctx, d2, 1, 1, s2.out()));
    EXPECT_EQ(values(on_ref(s2)), values(s1));
    EM_OK(ember_argsort(test_ctx(), h2, 0, 0, a1.out()));
    EM_OK(ember_argsort(ctx, d2, 0, 0, a2.out()));
    EXPECT_EQ(values(on_ref(a2)), values(a1));

    // GEMM through CLBlast (64^3 reaches the default threshold); exact on these values
    auto check_mm = [&](const T& ha, const T& hb, const char* what) {
        T da = on(ctx, ha), db = on(ctx, hb), r1, r2;
        EM_OK(ember_matmul(test_ctx(), ha, hb, r1.out()));
        EM_OK(ember_matmul(ctx, da, db, r2.out())) << what;
        EXPECT_EQ(shape_of(r2), shape_of(r1)) << what;
        EXPECT_TRUE(all_close(values(on_ref(r2)), values(r1), 1e-6)) << what;
    };
    T A = make(random_vec(64 * 64, 1), {64, 64}, EMBER_FLOAT32), B = make(random_vec(64 * 96, 2), {64, 96}, EMBER_FLOAT32);
    check_mm(A, B, "plain");
    T At;
    EM_OK(ember_transpose(test_ctx(), A, At.out()));
    check_mm(At, B, "transposed a");
    T A3 = make(random_vec(3 * 64 * 64, 3), {3, 64, 64}, EMBER_FLOAT32);
    check_mm(A3, B, "strided-batched with a broadcast b");
    T A4 = make(random_vec(2 * 3 * 64 * 64, 4), {2, 3, 64, 64}, EMBER_FLOAT32), A4p;
    const int64_t perm[4] = {1, 0, 2, 3};
    EM_OK(ember_permute_dims(test_ctx(), A4, perm, 4, A4p.out()));
    check_mm(A4p, B, "batched by offsets");
}

// The Philox stream gives the same bits as the reference backend for the same seed, so
// the distributions composed over it agree to rounding.
TEST(OpenCL, RandomBitsAndSearchsortedMatchReference) {
    REQUIRE_OPENCL();
    Ctx ctx, ref("reference");
    EM_OK(ember_random_seed(ctx, 1234));
    EM_OK(ember_random_seed(ref, 1234));
    const int64_t shape[2] = {7, 143};
    T b1, b2, u1, u2, n1, n2;
    EM_OK(ember_random_bits(ref, shape, 2, b1.out()));
    EM_OK(ember_random_bits(ctx, shape, 2, b2.out()));
    EXPECT_EQ(values(on_ref(b2)), values(b1));
    EM_OK(ember_random_uniform(ref, shape, 2, -1, 2, EMBER_FLOAT64, u1.out()));
    EM_OK(ember_random_uniform(ctx, shape, 2, -1, 2, EMBER_FLOAT64, u2.out()));
    EXPECT_TRUE(all_close(values(on_ref(u2)), values(u1), 1e-15));
    EM_OK(ember_random_normal(ref, shape, 2, 0, 1, EMBER_FLOAT32, n1.out()));
    EM_OK(ember_random_normal(ctx, shape, 2, 0, 1, EMBER_FLOAT32, n2.out()));
    EXPECT_TRUE(all_close(values(on_ref(n2)), values(n1), 1e-5, 1e-6));

    T seq = make<double>({-2, -1, -1, 0, 3.5, 7, NAN}, {7}, EMBER_FLOAT32);
    T vals = make<double>({-3, -1, 0.5, 7, 100, NAN, -1}, {7}, EMBER_FLOAT32);
    T dseq = on(ctx, seq), dvals = on(ctx, vals);
    for (int right : {0, 1}) {
        T r1, r2;
        EM_OK(ember_searchsorted(test_ctx(), seq, vals, right, r1.out()));
        EM_OK(ember_searchsorted(ctx, dseq, dvals, right, r2.out()));
        EXPECT_EQ(values(on_ref(r2)), values(r1)) << "right=" << right;
    }
}

// Primitives without a device kernel run the reference kernel on host copies (explicit
// fallback): same results, including the random samplers' bits.
TEST(OpenCL, HostFallbackOps) {
    REQUIRE_OPENCL();
    Ctx ctx, ref("reference");
    EM_OK(ember_random_seed(ctx, 77));
    EM_OK(ember_random_seed(ref, 77));
    const int64_t shape[1] = {257};
    T g1, g2;
    EM_OK(ember_random_gamma(ref, shape, 1, 2.5, 1.0, EMBER_FLOAT64, g1.out()));
    EM_OK(ember_random_gamma(ctx, shape, 1, 2.5, 1.0, EMBER_FLOAT64, g2.out()));
    EXPECT_EQ(values(on_ref(g2)), values(g1));
    // a strided (transposed) input and a batch
    T x = make(random_vec(6 * 10, 11), {6, 10}, EMBER_COMPLEX64), xt, f1, f2;
    EM_OK(ember_transpose(test_ctx(), x, xt.out()));
    T dxt = on(ctx, xt);
    EM_OK(ember_fft(test_ctx(), xt, -1, 0, EMBER_FFT_BACKWARD, f1.out()));
    EM_OK(ember_fft(ctx, dxt, -1, 0, EMBER_FFT_BACKWARD, f2.out()));
    auto a = values_c(on_ref(f2)), b = values_c(f1);
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) EXPECT_LT(std::abs(a[i] - b[i]), 1e-5 * (1 + std::abs(b[i])));
    T m = make<double>({4, 2, 2, 3}, {2, 2}, EMBER_FLOAT64), l1, l2;
    EM_OK(ember_cholesky(test_ctx(), m, 0, l1.out()));
    EM_OK(ember_cholesky(ctx, on(ctx, m), 0, l2.out()));
    EXPECT_TRUE(all_close(values(on_ref(l2)), values(l1), 1e-15));
    // Users see these ops as host work, not as device kernels.
    const char* binding = nullptr;
    for (const char* op : {"random_gamma", "fft_c2c", "cholesky", "lu_factor", "svd"}) {
        EM_OK(ember_op_binding("opencl", op, &binding));
        EXPECT_STREQ(binding, "host") << op;
    }
    for (const char* op : {"add", "matmul", "sum", "random_bits"}) {
        EM_OK(ember_op_binding("opencl", op, &binding));
        EXPECT_STREQ(binding, "native") << op;
    }
}

std::vector<unsigned char> slurp(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    return std::vector<unsigned char>((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

std::vector<std::string> bin_files(const std::string& dir) {
    std::vector<std::string> v;
    std::string cmd = "ls " + dir + " 2>/dev/null";
    FILE* p = popen(cmd.c_str(), "r");
    char line[512];
    while (p && std::fgets(line, sizeof line, p)) {
        std::string s = line;
        while (!s.empty() && s.back() == '\n') s.pop_back();
        if (s.size() > 4 && s.substr(s.size() - 4) == ".bin") v.push_back(dir + "/" + s);
    }
    if (p) pclose(p);
    return v;
}

// The disk cache: a miss builds and writes a file, a hit loads it, a corrupt or truncated
// file is detected, deleted and rebuilt. Uses a private directory, then restores.
TEST(OpenCL, ProgramDiskCache) {
    REQUIRE_OPENCL();
    Ctx ctx;
    std::string dir = temp_dir();
    ASSERT_FALSE(dir.empty());
    std::string old = cache_query().dir;
    auto op = [&] {  // uses only the uint16 program
        T a = make_on(ctx, {1, 2, 3}, {3}, EMBER_UINT16), r;
        EM_OK(ember_add(ctx, a, a, r.out()));
        EXPECT_EQ(values(on_ref(r)), (std::vector<double>{2, 4, 6}));
    };
    ember_opencl_cache_t c0 = cache_query(dir.c_str(), 1);
    EXPECT_EQ(std::string(c0.dir), dir);
    op();
    ember_opencl_cache_t c1 = cache_query();
    EXPECT_EQ(c1.misses, c0.misses + 1);
    EXPECT_EQ(c1.writes, c0.writes + 1);
    auto files = bin_files(dir);
    ASSERT_EQ(files.size(), 1u);
    auto good = slurp(files[0]);
    ASSERT_GT(good.size(), 100u);

    cache_query(nullptr, 1);
    op();
    ember_opencl_cache_t c2 = cache_query();
    EXPECT_EQ(c2.hits, c1.hits + 1);
    EXPECT_EQ(c2.builds, c1.builds);

    // flip a payload byte: the checksum catches it
    auto bad = good;
    bad[bad.size() / 2] ^= 0x5a;
    std::ofstream(files[0], std::ios::binary).write((const char*)bad.data(), (std::streamsize)bad.size());
    cache_query(nullptr, 1);
    op();
    ember_opencl_cache_t c3 = cache_query();
    EXPECT_EQ(c3.corrupt, c2.corrupt + 1);
    EXPECT_EQ(c3.builds, c2.builds + 1);
    cache_query(nullptr, 1);
    op();  // the rebuilt program was written back: a hit again
    EXPECT_EQ(cache_query().hits, c3.hits + 1);
    // truncated file
    std::ofstream(files[0], std::ios::binary).write((const char*)good.data(), 30);
    cache_query(nullptr, 1);
    op();
    EXPECT_EQ(cache_query().corrupt, c3.corrupt + 1);
    // "off" disables the disk cache
    cache_query("off", 1);
    EXPECT_EQ(std::string(cache_query().dir), "");
    op();
    cache_query(old.c_str(), 1);
    std::remove(files[0].c_str());
    rmdir(dir.c_str());
}

// Two processes writing the same cache entries at once: every file left is complete.
TEST(OpenCL, CacheTwoWritersAtOnce) {
    REQUIRE_OPENCL();
    std::string dir = temp_dir();
    ASSERT_FALSE(dir.empty());
    std::vector<std::string> env = {"EMBER_OPENCL_TEST_CACHE_DIR=" + dir};
    pid_t pids[2];
    for (int w = 0; w < 2; ++w) {  // both run at once
        std::vector<std::string> e = env;
        e.push_back("EMBER_OPENCL_TEST_WRITER=" + std::to_string(w));
        pids[w] = spawn_child("OpenCLChild.CacheWriter", e);
    }
    for (pid_t p : pids) EXPECT_EQ(wait_child(p), 0) << "a writer failed";
    for (int k = 0; k < 20; ++k) {
        char key[33];
        std::snprintf(key, sizeof key, "%032x", k);
        std::vector<unsigned char> buf(1 << 20);
        ember_opencl_cache_io_t io{dir.c_str(), key, 0, buf.data(), buf.size()};
        EM_OK(ember_opencl_call(EMBER_OPENCL_REQ_CACHE_IO, &io));
        ASSERT_TRUE(io.size == 1000u * (k + 1) || io.size == 1500u * (k + 1)) << io.size;
        unsigned char fill = io.size == 1000u * (k + 1) ? 'a' : 'b';
        for (size_t i = 0; i < io.size; ++i) ASSERT_EQ(buf[i], fill);
    }
    EXPECT_EQ(system(("rm -rf " + dir).c_str()), 0);
}

// The disk cache stays under EMBER_OPENCL_CACHE_MAX_MB, dropping least recently used files.
TEST(OpenCL, CachePrunesLeastRecentlyUsed) {
    REQUIRE_OPENCL();
    std::string dir = temp_dir();
    ASSERT_FALSE(dir.empty());
    setenv("EMBER_OPENCL_CACHE_MAX_MB", "1", 1);
    std::vector<unsigned char> data(200 << 10, 'x'), buf(data.size());
    auto io = [&](int k, int store) {
        char key[33];
        std::snprintf(key, sizeof key, "%032x", k);
        ember_opencl_cache_io_t a{dir.c_str(), key, store, store ? data.data() : buf.data(), data.size()};
        ember_status_t st = ember_opencl_call(EMBER_OPENCL_REQ_CACHE_IO, &a);
        usleep(20000);  // distinct mtimes (file times advance once per tick)
        return st;
    };
    for (int k = 1; k <= 5; ++k) EM_OK(io(k, 1));  // 1000 KiB: at the cap
    EM_OK(io(1, 0));                                // a hit: 1 becomes the most recent
    EM_OK(io(6, 1));  // over the cap: the least recently used go until 3/4 of it is left
    unsetenv("EMBER_OPENCL_CACHE_MAX_MB");
    for (int k : {2, 3, 4}) EXPECT_EQ(io(k, 0), EMBER_ERR_IO) << k;
    for (int k : {1, 5, 6}) EXPECT_EQ(io(k, 0), EMBER_OK) << k;
    EXPECT_EQ(system(("rm -rf " + dir).c_str()), 0);
}

TEST(OpenCLChild, CacheWriter) {
    if (!in_child("OpenCLChild.CacheWriter")) GTEST_SKIP() << "runs as a child of OpenCL.CacheTwoWritersAtOnce";
    std::string dir = std::getenv("EMBER_OPENCL_TEST_CACHE_DIR");
    int w = std::atoi(std::getenv("EMBER_OPENCL_TEST_WRITER"));
    for (int round = 0; round < 10; ++round)
        for (int k = 0; k < 20; ++k) {
            char key[33];
            std::snprintf(key, sizeof key, "%032x", k);
            std::vector<unsigned char> data((w ? 1500u : 1000u) * (k + 1), w ? 'b' : 'a');
            ember_opencl_cache_io_t io{dir.c_str(), key, 1, data.data(), data.size()};
            ASSERT_EQ(ember_opencl_call(EMBER_OPENCL_REQ_CACHE_IO, &io), EMBER_OK) << ember_last_error();
        }
}

// ember_opencl.h: the OpenCL objects of a device, the cl_mem behind a tensor, and a
// device made from the caller's own context and queue.
TEST(OpenCL, InteropHeader) {
    REQUIRE_OPENCL();
    CL cl;
    if (!cl.ok()) GTEST_SKIP() << "libOpenCL.so.1 not loadable";
    ember_opencl_device_t dev;
    EM_OK(ember_opencl_device(0, &dev));
    ASSERT_NE(dev.queue, nullptr);
    ASSERT_NE(dev.context, nullptr);
    Ctx ctx;
    T x = make_on(ctx, {1, 2, 3, 4, 5, 6}, {2, 3}, EMBER_FLOAT32), col;
    EM_OK(ember_select(ctx, x, 1, 1, col.out()));  // a strided view: elements 2 and 5
    cl_mem mem = nullptr;
    size_t off = 0;
    EM_OK(ember_opencl_tensor_mem(col, &mem, &off));
    ASSERT_NE(mem, nullptr);
    EXPECT_EQ(off, sizeof(float));
    float back[6] = {0};
    ASSERT_EQ(cl.read(dev.queue, mem, CL_TRUE, 0, sizeof back, back, 0, nullptr, nullptr), CL_SUCCESS);
    EXPECT_EQ(back[1], 2.0f);
    EXPECT_EQ(back[4], 5.0f);
    cl_uint refs = 0;
    cl.mem_info(mem, CL_MEM_REFERENCE_COUNT, sizeof refs, &refs, nullptr);
    EXPECT_GE(refs, 2u) << "the handed-out buffer must be retained for the caller";
    cl.release_mem(mem);
    EXPECT_EQ(values(on_ref(col)), (std::vector<double>{2, 5}));  // nothing was written
    T host = make<double>({1}, {1}, EMBER_FLOAT32);
    EXPECT_EQ(ember_opencl_tensor_mem(host, &mem, &off), EMBER_ERR_BACKEND_MISMATCH);
    T flags = make_on(ctx, {1, 0, 1}, {3}, EMBER_BOOL);  // the core reads a bool source fully
    EM_OK(ember_opencl_tensor_mem(flags, &mem, &off));
    cl.release_mem(mem);
    EXPECT_EQ(values(on_ref(flags)), (std::vector<double>{1, 0, 1}));

    // a device on the caller's context and queue
    cl_int err;
    cl_context uc = cl.create_context(nullptr, 1, &dev.device, nullptr, nullptr, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    cl_command_queue uq = cl.create_queue(uc, dev.device, 0, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    int index = -1, before = 0;
    ember_backend_device_count("opencl", &before);
    EM_OK(ember_opencl_add_device(uc, uq, &index));
    EXPECT_EQ(index, before);
    cl.release_queue(uq);  // Ember holds its own references
    cl.release_context(uc);
    Ctx mine("opencl", index);
    ASSERT_NE(mine.c, nullptr) << ember_last_error();
    T a = make_on(mine, {1, 2, 3}, {3}, EMBER_INT32), r;
    EM_OK(ember_multiply(mine, a, a, r.out()));
    EXPECT_EQ(values(on_ref(r)), (std::vector<double>{1, 4, 9}));
    ember_opencl_device_t d2;
    EM_OK(ember_opencl_device(index, &d2));
    EXPECT_EQ(d2.context, uc);
    T wrong;
    EM_FAILS(ember_add(ctx, a, a, wrong.out()), EMBER_ERR_BACKEND_MISMATCH, "ember_add");
}

TEST(OpenCL, WarmupCompilesEveryProgram) {
    REQUIRE_OPENCL();
    EM_OK(ember_opencl_warmup(0, 1));
}

// A machine with no OpenCL platform: libember loads, opencl is listed unavailable with a
// reason, everything else works.
TEST(OpenCL, NoPlatformMachine) {
    REQUIRE_OPENCL();
    EXPECT_EQ(run_child("OpenCLChild.NoPlatform", {"OCL_ICD_VENDORS=/nonexistent/ember-test", "OPENCL_VENDOR_PATH=/nonexistent/ember-test"}), 0);
}

TEST(OpenCLChild, NoPlatform) {
    if (!in_child("OpenCLChild.NoPlatform")) GTEST_SKIP() << "runs as a child of OpenCL.NoPlatformMachine";
    std::string why;
    EXPECT_FALSE(opencl_available(&why));
    EXPECT_NE(why.find("no OpenCL platform"), std::string::npos) << why;
    int score = -1;
    EM_OK(ember_backend_score("opencl", &score));
    EXPECT_EQ(score, 0);
    ember_ctx_t* c = nullptr;
    EXPECT_EQ(ember_ctx_create_on("opencl", 0, &c), EMBER_ERR_BACKEND_UNAVAILABLE);
    T a = make<double>({1, 2}, {2}, EMBER_FLOAT32), r;
    EM_OK(ember_add(test_ctx(), a, a, r.out()));
}

// Teardown: a process that leaves tensors alive, has work queued and used CLBlast exits
// cleanly (contexts released, CLBlast's cache cleared first).
TEST(OpenCL, TeardownAtExit) {
    REQUIRE_OPENCL();
    EXPECT_EQ(run_child("OpenCLChild.Lifecycle", {}), 0);
}

TEST(OpenCLChild, Lifecycle) {
    if (!in_child("OpenCLChild.Lifecycle")) GTEST_SKIP() << "runs as a child of OpenCL.TeardownAtExit";
    static ember_ctx_t* ctx = nullptr;  // never released: exit tears down under live objects
    ASSERT_EQ(ember_ctx_create_on("opencl", 0, &ctx), EMBER_OK) << ember_last_error();
    static T a = make_on(ctx, random_vec(64 * 64, 9), {64, 64}, EMBER_FLOAT32);
    static T m;
    EM_OK(ember_matmul(ctx, a, a, m.out()));
    static T e;
    EM_OK(ember_exp(ctx, m, e.out()));  // still queued at exit
    T leak;
    EM_OK(ember_sin(ctx, a, leak.out()));
    leak.t = nullptr;  // leaked on purpose
}

}  // namespace

#endif  // __has_include(<CL/cl.h>)
