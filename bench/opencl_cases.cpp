// OpenCL backend benchmarks (compiled into ember-bench only when the opencl backend is
// built; backends/opencl/CMakeLists.txt adds this file and links OpenCL and CLBlast).
//   opencl_matmul_f32     ember_matmul vs raw CLBlast SGEMM on the same queue
//   opencl_add_f32        1e7-element add vs a hand-written kernel with the same launch
//   opencl_tiny_add       per-op overhead of a 1-element add vs raw clEnqueueNDRangeKernel,
//                         with a clFinish after every op and with one after a batch
//   opencl_first_op       first op of a fresh process with a warm vs an empty disk cache
//   opencl_vs_cpu         the same ops on the opencl and the cpu (or reference) backend
// Times include the synchronisation; every case is skipped when opencl is unavailable.
#define CL_TARGET_OPENCL_VERSION 120
#include <clblast.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "bench.hpp"
#include "ember/ember.h"
#include "ember/ember_opencl.h"

extern char** environ;

namespace {

// Best-of-n of two functions measured in alternation (one warm-up call each), so that a
// machine whose load changes during the run affects both sides alike.
void paired(int n, const std::function<void()>& fe, const std::function<void()>& fb, double* te, double* tb) {
    fe();
    fb();
    *te = *tb = 1e300;
    for (int i = 0; i < n; ++i) {
        for (int k = 0; k < 2; ++k) {
            auto t0 = std::chrono::steady_clock::now();
            (k ? fb : fe)();
            double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            double& best = k ? *tb : *te;
            if (s < best) best = s;
        }
    }
}

bool backend_available(const char* want) {
    for (int i = 0; i < ember_backend_count(); ++i) {
        const char* name;
        int available;
        ember_backend_get(i, &name, &available, nullptr, nullptr);
        if (std::strcmp(name, want) == 0) return available != 0;
    }
    return false;
}

// Watches the status of timed Ember calls: a failing op (a kernel the device compiler
// rejected, say) returns at once, and its time would read as a win.
struct StatusWatch {
    bool failed = false;
    std::string message;
    void operator()(ember_status_t st) {
        if (st != EMBER_OK && !failed) {
            failed = true;
            message = ember_last_error();
        }
    }
    // True when every call succeeded; else says so on stderr (the case then has no result).
    bool ok(const std::string& name) const {
        if (failed) std::fprintf(stderr, "%s: an Ember call failed, no result: %s\n", name.c_str(), message.c_str());
        return !failed;
    }
};

struct Tensor {
    ember_tensor_t* t = nullptr;
    ~Tensor() { ember_tensor_release(t); }
};

void fill(std::vector<float>& v, unsigned seed) {
    unsigned x = seed;
    for (auto& f : v) {
        x = x * 1664525u + 1013904223u;
        f = (float)((x >> 8) % 2001) / 1000.0f - 1.0f;
    }
}

ember_tensor_t* tensor(ember_ctx_t* ctx, const std::vector<float>& v, std::vector<int64_t> shape) {
    ember_tensor_t* t = nullptr;
    ember_tensor_from_data(ctx, v.data(), EMBER_FLOAT32, shape.data(), (int)shape.size(), &t);
    return t;
}

// ------------------------------------------------------------------ matmul vs CLBlast
void matmul(const bench::Options& opt, std::vector<bench::Result>& out) {
    if (!backend_available("opencl")) return;
    ember_ctx_t* ctx;
    if (ember_ctx_create_on("opencl", 0, &ctx) != EMBER_OK) return;
    ember_opencl_device_t dev;
    ember_opencl_device(0, &dev);
    std::vector<int64_t> sizes = opt.quick ? std::vector<int64_t>{256, 512} : std::vector<int64_t>{256, 512, 1024, 2048};
    for (int64_t n : sizes) {
        std::vector<float> ha((size_t)(n * n)), hb((size_t)(n * n));
        fill(ha, 1);
        fill(hb, 2);
        Tensor a, b;
        a.t = tensor(ctx, ha, {n, n});
        b.t = tensor(ctx, hb, {n, n});
        int reps = opt.quick ? 2 : (n >= 2048 ? 3 : n >= 1024 ? 5 : 8);
        StatusWatch watch;
        // raw CLBlast on the same device queue, with its own buffers
        cl_int err;
        size_t bytes = (size_t)(n * n) * sizeof(float);
        cl_mem A = clCreateBuffer(dev.context, CL_MEM_READ_WRITE, bytes, nullptr, &err);
        cl_mem B = clCreateBuffer(dev.context, CL_MEM_READ_WRITE, bytes, nullptr, &err);
        cl_mem C = clCreateBuffer(dev.context, CL_MEM_READ_WRITE, bytes, nullptr, &err);
        clEnqueueWriteBuffer(dev.queue, A, CL_TRUE, 0, bytes, ha.data(), 0, nullptr, nullptr);
        clEnqueueWriteBuffer(dev.queue, B, CL_TRUE, 0, bytes, hb.data(), 0, nullptr, nullptr);
        cl_command_queue q = dev.queue;
        double te, tb;
        paired(
            reps,
            [&] {
                ember_tensor_t* c = nullptr;
                watch(ember_matmul(ctx, a.t, b.t, &c));
                watch(ember_synchronize(ctx));
                ember_tensor_release(c);
            },
            [&] {
                clblast::Gemm<float>(clblast::Layout::kRowMajor, clblast::Transpose::kNo, clblast::Transpose::kNo, (size_t)n, (size_t)n,
                                     (size_t)n, 1.0f, A, 0, (size_t)n, B, 0, (size_t)n, 0.0f, C, 0, (size_t)n, &q, nullptr);
                clFinish(q);
            },
            &te, &tb);
        clReleaseMemObject(A);
        clReleaseMemObject(B);
        clReleaseMemObject(C);
        if (watch.ok("opencl_matmul_f32 " + std::to_string(n)))
            out.push_back({"opencl_matmul_f32", std::to_string(n), "opencl", "clblast_sgemm", te, tb});
    }
    ember_ctx_release(ctx);
}

// ------------------------------------------------------------------ raw kernels
// The raw kernels walk the same chunks as Ember's (docs/opencl.md, "Work distribution").
const char* kRawSource = R"CLC(
__kernel void add(__global float* o, __global const float* a, __global const float* b, long n, long ch) {
    for (long s = (long)get_global_id(0) * ch; s < n; s += (long)get_global_size(0) * ch)
        for (long i = s, e = min(n, s + ch); i < e; ++i) o[i] = a[i] + b[i];
}
)CLC";

struct Raw {
    cl_program prog = nullptr;
    cl_kernel add = nullptr;
    bool ok = false;
    Raw(const ember_opencl_device_t& dev) {
        cl_int err;
        prog = clCreateProgramWithSource(dev.context, 1, &kRawSource, nullptr, &err);
        if (err != CL_SUCCESS) return;
        if (clBuildProgram(prog, 1, &dev.device, "-cl-std=CL1.2", nullptr, nullptr) != CL_SUCCESS) return;
        add = clCreateKernel(prog, "add", &err);
        ok = err == CL_SUCCESS;
    }
    ~Raw() {
        if (add) clReleaseKernel(add);
        if (prog) clReleaseProgram(prog);
    }
};

// Ember's launch shape (backends/opencl/ocl_device.cpp, launch_shape).
void launch_shape(const ember_opencl_device_t& dev, int64_t n, cl_long* ch, size_t* global, size_t* local) {
    cl_device_type type;
    cl_uint cu;
    size_t maxwg;
    clGetDeviceInfo(dev.device, CL_DEVICE_TYPE, sizeof type, &type, nullptr);
    clGetDeviceInfo(dev.device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cu, &cu, nullptr);
    clGetDeviceInfo(dev.device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof maxwg, &maxwg, nullptr);
    bool cpu = (type & CL_DEVICE_TYPE_CPU) != 0;
    int64_t l = (int64_t)std::min<size_t>(cpu ? 64 : 256, maxwg), c = 1, items = n;
    if (cpu) {
        int64_t target = (int64_t)cu * l * 4;
        c = std::max<int64_t>((n + target - 1) / target, 256);
        items = (n + c - 1) / c;
    } else {
        items = std::min<int64_t>(n, (int64_t)cu * 2048);
    }
    *ch = c;
    *local = (size_t)l;
    *global = (size_t)((items + l - 1) / l * l);
}

void add_large(const bench::Options& opt, std::vector<bench::Result>& out) {
    if (!backend_available("opencl")) return;
    ember_ctx_t* ctx;
    if (ember_ctx_create_on("opencl", 0, &ctx) != EMBER_OK) return;
    ember_opencl_device_t dev;
    ember_opencl_device(0, &dev);
    Raw raw(dev);
    if (!raw.ok) {
        ember_ctx_release(ctx);
        return;
    }
    const int64_t n = 10000000;
    std::vector<float> ha((size_t)n), hb((size_t)n);
    fill(ha, 3);
    fill(hb, 4);
    Tensor a, b;
    a.t = tensor(ctx, ha, {n});
    b.t = tensor(ctx, hb, {n});
    int reps = opt.quick ? 5 : 20;
    cl_int err;
    size_t bytes = (size_t)n * sizeof(float);
    cl_mem A = clCreateBuffer(dev.context, CL_MEM_READ_WRITE, bytes, nullptr, &err);
    cl_mem B = clCreateBuffer(dev.context, CL_MEM_READ_WRITE, bytes, nullptr, &err);
    cl_mem C = clCreateBuffer(dev.context, CL_MEM_READ_WRITE, bytes, nullptr, &err);
    clEnqueueWriteBuffer(dev.queue, A, CL_TRUE, 0, bytes, ha.data(), 0, nullptr, nullptr);
    clEnqueueWriteBuffer(dev.queue, B, CL_TRUE, 0, bytes, hb.data(), 0, nullptr, nullptr);
    cl_long ch;
    size_t global, local;
    launch_shape(dev, n, &ch, &global, &local);
    cl_long nn = n;
    double te, tb;
    StatusWatch watch;
    paired(
        reps,
        [&] {
            ember_tensor_t* c = nullptr;
            watch(ember_add(ctx, a.t, b.t, &c));
            watch(ember_synchronize(ctx));
            ember_tensor_release(c);
        },
        [&] {
            clSetKernelArg(raw.add, 0, sizeof(cl_mem), &C);
            clSetKernelArg(raw.add, 1, sizeof(cl_mem), &A);
            clSetKernelArg(raw.add, 2, sizeof(cl_mem), &B);
            clSetKernelArg(raw.add, 3, sizeof nn, &nn);
            clSetKernelArg(raw.add, 4, sizeof ch, &ch);
            clEnqueueNDRangeKernel(dev.queue, raw.add, 1, nullptr, &global, &local, 0, nullptr, nullptr);
            clFinish(dev.queue);
        },
        &te, &tb);
    clReleaseMemObject(A);
    clReleaseMemObject(B);
    clReleaseMemObject(C);
    if (watch.ok("opencl_add_f32")) out.push_back({"opencl_add_f32", "1e7", "opencl", "raw_opencl_kernel", te, tb});
    ember_ctx_release(ctx);
}

// ------------------------------------------------------------------ per-op overhead
// Both sides synchronise the same way (ember_synchronize is a clFinish on the same queue;
// the queue-depth throttle never fires within 100 ops). The raw side sets its 5 arguments
// before every launch; Ember sets only the arguments that changed since the kernel's last
// launch, which in this loop is none (docs/opencl.md, "Benchmarks").
void tiny(const bench::Options& opt, std::vector<bench::Result>& out) {
    if (!backend_available("opencl")) return;
    ember_ctx_t* ctx;
    if (ember_ctx_create_on("opencl", 0, &ctx) != EMBER_OK) return;
    ember_opencl_device_t dev;
    ember_opencl_device(0, &dev);
    Raw raw(dev);
    if (!raw.ok) {
        ember_ctx_release(ctx);
        return;
    }
    std::vector<float> one = {1.0f};
    Tensor a;
    a.t = tensor(ctx, one, {1});
    cl_int err;
    cl_mem A = clCreateBuffer(dev.context, CL_MEM_READ_WRITE, 256, nullptr, &err);
    cl_mem C = clCreateBuffer(dev.context, CL_MEM_READ_WRITE, 256, nullptr, &err);
    clEnqueueWriteBuffer(dev.queue, A, CL_TRUE, 0, 4, one.data(), 0, nullptr, nullptr);
    cl_long ch, nn = 1;
    size_t global, local;
    launch_shape(dev, 1, &ch, &global, &local);
    for (int batch : {1, 100}) {
        const int n = opt.quick ? 2000 : 20000;
        double te, tb;
        StatusWatch watch;
        paired(
            opt.quick ? 3 : 5,
            [&] {
                for (int i = 0; i < n; ++i) {
                    ember_tensor_t* c = nullptr;
                    watch(ember_add(ctx, a.t, a.t, &c));
                    ember_tensor_release(c);
                    if ((i + 1) % batch == 0) watch(ember_synchronize(ctx));
                }
            },
            [&] {
                for (int i = 0; i < n; ++i) {
                    clSetKernelArg(raw.add, 0, sizeof(cl_mem), &C);
                    clSetKernelArg(raw.add, 1, sizeof(cl_mem), &A);
                    clSetKernelArg(raw.add, 2, sizeof(cl_mem), &A);
                    clSetKernelArg(raw.add, 3, sizeof nn, &nn);
                    clSetKernelArg(raw.add, 4, sizeof ch, &ch);
                    clEnqueueNDRangeKernel(dev.queue, raw.add, 1, nullptr, &global, &local, 0, nullptr, nullptr);
                    if ((i + 1) % batch == 0) clFinish(dev.queue);
                }
            },
            &te, &tb);
        const char* name = batch == 1 ? "opencl_tiny_add_sync_each" : "opencl_tiny_add_sync_per_100";
        if (watch.ok(name)) out.push_back({name, "1", "opencl", "raw_enqueue_and_finish", te / n, tb / n});
    }
    clReleaseMemObject(A);
    clReleaseMemObject(C);
    ember_ctx_release(ctx);
}

// ------------------------------------------------------------------ first op in a fresh process
// The child (EMBER_BENCH_OPENCL_CHILD set) times from before its first Ember call to the
// end of its first op; the parent runs it with a warm and with an empty cache.
void first_op_child(const bench::Options&, std::vector<bench::Result>& out) {
    const char* what = std::getenv("EMBER_BENCH_OPENCL_CHILD");
    if (!what) return;
    auto t0 = std::chrono::steady_clock::now();
    ember_ctx_t* ctx;
    if (ember_ctx_create_on("opencl", 0, &ctx) != EMBER_OK) return;
    bool gemm = std::strcmp(what, "gemm") == 0;
    int64_t n = gemm ? 256 : 1000;
    std::vector<float> h((size_t)(gemm ? n * n : n));
    fill(h, 5);
    Tensor a, r;
    a.t = gemm ? tensor(ctx, h, {n, n}) : tensor(ctx, h, {n});
    if (gemm) ember_matmul(ctx, a.t, a.t, &r.t);
    else ember_add(ctx, a.t, a.t, &r.t);
    std::vector<float> back(h.size());
    ember_tensor_read(r.t, back.data(), back.size() * sizeof(float));  // a read synchronises
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    out.push_back({"child", what, "opencl", "", s, s});
    ember_ctx_release(ctx);
}

double run_first_op(const std::string& what, const std::vector<std::string>& extra_env) {
    std::vector<std::string> env;
    for (char** e = environ; *e; ++e) env.push_back(*e);
    for (auto& e : extra_env) env.push_back(e);
    env.push_back("EMBER_BENCH_OPENCL_CHILD=" + what);
    std::vector<char*> envp;
    for (auto& e : env) envp.push_back(e.data());
    envp.push_back(nullptr);
    int pipefd[2];
    if (pipe(pipefd) != 0) return -1;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
    posix_spawn_file_actions_addclose(&fa, pipefd[0]);
    std::string exe = "/proc/self/exe", arg = "opencl_first_op_child";
    char* argv[] = {exe.data(), arg.data(), nullptr};
    pid_t pid;
    int rc = posix_spawn(&pid, exe.c_str(), &fa, nullptr, argv, envp.data());
    posix_spawn_file_actions_destroy(&fa);
    close(pipefd[1]);
    std::string text;
    char buf[4096];
    ssize_t k;
    while ((k = read(pipefd[0], buf, sizeof buf)) > 0) text.append(buf, (size_t)k);
    close(pipefd[0]);
    if (rc != 0) return -1;
    int status;
    waitpid(pid, &status, 0);
    size_t p = text.find("\"ember_s\": ");
    return p == std::string::npos ? -1 : std::atof(text.c_str() + p + 11);
}

void first_op(const bench::Options& opt, std::vector<bench::Result>& out) {
    if (std::getenv("EMBER_BENCH_OPENCL_CHILD") || !backend_available("opencl")) return;
    char tmpl[] = "/tmp/ember-bench-cache-XXXXXX";
    char* dir = mkdtemp(tmpl);
    if (!dir) return;
    std::string d = dir;
    for (const char* what : {"add", "gemm"}) {
        if (opt.quick && std::strcmp(what, "gemm") == 0) continue;  // an empty-cache GEMM compiles CLBlast (seconds)
        // warm: whatever the default caches hold, after one run to fill them
        run_first_op(what, {});
        double warm = run_first_op(what, {});
        // empty: a fresh Ember cache directory and a fresh PoCL kernel cache
        std::string sub = d + "/" + what;
        double cold = run_first_op(what, {"EMBER_OPENCL_CACHE_DIR=" + sub + "/ember", "POCL_CACHE_DIR=" + sub + "/pocl"});
        out.push_back({std::string("opencl_first_op_") + what, what == std::string("add") ? "1000" : "256", "opencl", "empty_disk_cache",
                       warm, cold});
    }
    std::string cmd = "rm -rf " + d;
    if (system(cmd.c_str()) != 0) std::fprintf(stderr, "could not remove %s\n", d.c_str());
}

// ------------------------------------------------------------------ opencl vs cpu backend
void vs_cpu(const bench::Options& opt, std::vector<bench::Result>& out) {
    if (!backend_available("opencl")) return;
    const char* other = backend_available("cpu") ? "cpu" : "reference";
    ember_ctx_t *cl, *host;
    if (ember_ctx_create_on("opencl", 0, &cl) != EMBER_OK) return;
    if (ember_ctx_create_on(other, 0, &host) != EMBER_OK) {
        ember_ctx_release(cl);
        return;
    }
    struct Case {
        const char* name;
        int64_t n;
        int op;  // 0 add, 1 exp, 2 sum, 3 matmul
    };
    std::vector<Case> cases = {{"add_f32", 1000000, 0}, {"add_f32", 10000000, 0}, {"exp_f32", 1000000, 1},
                               {"sum_f32", 10000000, 2}, {"matmul_f32", 256, 3},  {"matmul_f32", 1024, 3}};
    for (const Case& c : cases) {
        if (opt.quick && (c.n == 10000000 || c.n == 1024)) continue;
        if (std::strcmp(other, "reference") == 0 && c.op == 3 && c.n > 256) continue;  // the oracle is slow
        bool mm = c.op == 3;
        std::vector<float> h((size_t)(mm ? c.n * c.n : c.n));
        fill(h, 7);
        std::vector<int64_t> shape = mm ? std::vector<int64_t>{c.n, c.n} : std::vector<int64_t>{c.n};
        double t[2];
        ember_ctx_t* ctxs[2] = {cl, host};
        StatusWatch watch;
        for (int k = 0; k < 2; ++k) {
            Tensor a;
            a.t = tensor(ctxs[k], h, shape);
            t[k] = bench::best_of(opt.quick ? 2 : 3, [&] {
                ember_tensor_t* r = nullptr;
                switch (c.op) {
                    case 0: watch(ember_add(ctxs[k], a.t, a.t, &r)); break;
                    case 1: watch(ember_exp(ctxs[k], a.t, &r)); break;
                    case 2: watch(ember_sum(ctxs[k], a.t, nullptr, 0, 0, &r)); break;
                    default: watch(ember_matmul(ctxs[k], a.t, a.t, &r));
                }
                watch(ember_synchronize(ctxs[k]));
                ember_tensor_release(r);
            });
        }
        std::string size = mm ? std::to_string(c.n) : (c.n == 1000000 ? "1e6" : "1e7");
        std::string name = std::string("opencl_vs_") + other + "_" + c.name;
        if (watch.ok(name + " " + size)) out.push_back({name, size, "opencl", std::string(other) + "_backend", t[0], t[1]});
    }
    ember_ctx_release(cl);
    ember_ctx_release(host);
}

bench::Register r1("opencl_matmul_f32", matmul);
bench::Register r2("opencl_add_f32", add_large);
bench::Register r3("opencl_tiny_add", tiny);
bench::Register r4("opencl_first_op", first_op);
bench::Register r5("opencl_first_op_child", first_op_child);
bench::Register r6("opencl_vs_cpu", vs_cpu);

}  // namespace
