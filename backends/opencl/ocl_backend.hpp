// The OpenCL backend's internal declarations: devices, programs, buffers, launches.
// Everything here is private to the module (docs/opencl.md describes the design).
#pragma once

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "ember/ember_backend.h"

namespace ember_ocl {

constexpr int kMaxDevices = 64;
constexpr int kMaxHandlers = 128;  // op handlers (ocl_kernels.cpp) for the per-device kernel cache

// Programs: per dtype, one per group of kernels (so the first op of a kind compiles a
// handful of kernels, not all of them), one for dtype-independent data movement (copy,
// where, gather by item size, random bits) and one for float64 conversions on devices
// without cl_khr_fp64.
enum KernelGroup : int {
    G_UNARY_BASIC = 0,  // negative, abs, sign, rounding, predicates, logical/bitwise, relu
    G_UNARY_MATH,       // sqrt, exp, log, trigonometric and hyperbolic, erf, sigmoid, ...
    G_BINARY_ARITH,     // add ... logaddexp
    G_BINARY_CMP,       // comparisons, logical and bitwise ops, shifts
    G_CAST,             // astype to every other dtype, arange
    G_REDUCE,           // reductions (one and two stages), arg-reductions, scans
    G_OTHER,            // scatter, nonzero, sort/argsort, searchsorted, matmul
    G_COUNT
};
enum ProgramId : int { PROG_MISC = EMBER_DTYPE_COUNT * G_COUNT, PROG_SOFT64, PROG_COUNT };
inline int dtype_prog(int dtype, int group) { return dtype * G_COUNT + group; }

struct Program {
    cl_program prog = nullptr;
    std::unordered_map<std::string, cl_kernel> kernels;
    std::string error;  // non-empty: the build failed (message kept for later calls)
};

// Geometry of an elementwise launch: up to 4 operands over one (collapsed) shape. Passed
// by value as a kernel argument; the OpenCL C twin is `geo` in the program prelude.
// unit: one dimension in which every operand has stride 1, so the kernels index without a
// 64-bit multiply per operand.
struct Geo {
    cl_long n, ch;
    cl_int nd, unit;
    cl_long shape[EMBER_MAX_DIMS];
    cl_long off[4];
    cl_long st[4][EMBER_MAX_DIMS];
};

// Geometry of a reduction / scan / per-line launch: kept (outer) and reduced (inner) dims.
struct RGeo {
    cl_long n_out, n_in, ch;
    cl_int nd_out, nd_in;
    cl_long oshape[EMBER_MAX_DIMS], ost_in[EMBER_MAX_DIMS], ost_out[EMBER_MAX_DIMS];
    cl_long ishape[EMBER_MAX_DIMS], ist[EMBER_MAX_DIMS];
    cl_long off_in, off_out, os_axis, pad;
};

struct BufInfo {
    size_t size;
    bool exported;  // handed to the user through ember_opencl.h: never recycled
    bool cached;    // in the recycling cache (not live)
};

// A hot elementwise kernel (one per handler and dtype) and the arguments last set on it:
// OpenCL keeps a kernel's arguments between launches, so unchanged ones are not set again
// (in a loop of same-shaped ops, usually all of them). Only unary()/binary() set arguments
// on these kernels, always through this record (d.mu held).
struct FastKernel {
    cl_kernel k = nullptr;
    bool valid = false;  // mem[] and geo are what the kernel holds
    cl_mem mem[3] = {nullptr, nullptr, nullptr};
    Geo geo;
};

struct Device {
    cl_platform_id platform = nullptr;
    cl_device_id id = nullptr;
    cl_context ctx = nullptr;
    cl_command_queue queue = nullptr;
    bool user_supplied = false;
    std::string name, vendor, driver, device_version, platform_name, platform_version;
    ember_device_type_t type = EMBER_DEVICE_OTHER;
    int compute_units = 1;
    uint64_t mem_bytes = 0;
    bool fp64_hw = false;          // what the device reports
    std::atomic<bool> fp64{false}; // what the backend uses (a test hook may turn it off)
    bool fp16 = false;
    size_t max_wg = 1;
    size_t local = 64;             // the one local size used for every launch
    bool chunked = false;          // CPU-like device: each work item walks a contiguous chunk

    std::mutex mu;                 // programs, kernel arguments and enqueues
    Program progs[PROG_COUNT];
    // Kernel of (handler, input dtype) for the hot elementwise path; cleared with the programs.
    std::array<std::unique_ptr<FastKernel>, kMaxHandlers * EMBER_DTYPE_COUNT> fast{};
    cl_mem err_buf = nullptr;      // deferred kernel errors: {flag, seq, value(int64)}
    bool err_dirty = false;
    int seq = 0;
    std::array<std::string, 64> seq_desc;
    std::string last_op;
    int since_mark = 0;            // launches since the last throttle marker
    cl_event mark = nullptr;       // bounds the commands in flight (see enqueue)

    std::mutex pool_mu;            // buffers and the recycling cache
    // Every buffer the device owns, live or cached, and the cached ones by size. Entries
    // and vectors are kept, so recycling a buffer allocates no host memory.
    std::unordered_map<cl_mem, BufInfo> bufs;
    std::unordered_map<size_t, std::vector<cl_mem>> free_list;
    uint64_t allocated = 0, cached = 0, cache_limit = 0;
};

struct CacheStats {
    std::atomic<uint64_t> hits{0}, misses{0}, corrupt{0}, writes{0}, builds{0};
};

struct State {
    const ember_host_api_t* host = nullptr;
    std::array<Device*, kMaxDevices> devices{};
    std::atomic<int> n_devices{0};
    std::mutex add_mu;
    std::string reason;            // why there is no device
    std::atomic<bool> sync_mode{false};
    std::string cache_dir;         // "" = disk cache off
    std::mutex cache_mu;
    CacheStats cache;
    std::atomic<bool> torn_down{false};
    int gemm_mode = 0;             // 0 auto, 1 always CLBlast, 2 never
    double gemm_min_flops = 64.0 * 64 * 64;

    Device* device(int i) const { return (i >= 0 && i < n_devices.load()) ? devices[i] : nullptr; }
    std::string get_cache_dir() {
        std::lock_guard<std::mutex> lk(cache_mu);
        return cache_dir;
    }
};

extern State* g_state;

// ---- errors
const char* cl_error_name(cl_int err);
ember_status_t fail(ember_status_t st, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
void log_msg(ember_log_level_t level, const char* fmt, ...) __attribute__((format(printf, 2, 3)));

// ---- OpenCL C sources (ocl_source.cpp)
std::string program_source(int prog, bool fp64);
std::string program_options(const Device& d);
bool program_has_kernels(int prog, bool fp64);  // false: nothing of that dtype/group exists
const char* dtype_tag(int dtype);
const char* dtype_name(int dtype);  // libember's names, without linking libember  // "f32", "i64", ... (kernel name suffixes)
bool unary_supported(const char* op, int dtype);
bool binary_supported(const char* op, int dtype);
bool is_unary_op(const char* op);
bool is_binary_op(const char* op);
int unary_group(const char* op);   // G_UNARY_BASIC or G_UNARY_MATH
int binary_group(const char* op);  // G_BINARY_ARITH or G_BINARY_CMP

// ---- program cache (ocl_cache.cpp)
// Builds (or loads from the disk cache) program `prog` for d; d.mu must be held.
ember_status_t ensure_program(State& s, Device& d, int prog);
// Kernel `name` of program `prog`, creating program and kernel on first use; d.mu held.
ember_status_t get_kernel(State& s, Device& d, int prog, const char* name, cl_kernel* out);
// Disk cache primitives, exposed for tests through the query interface.
std::string cache_key(const std::string& source, const std::string& options, const Device& d);
bool cache_load(State& s, const std::string& dir, const std::string& key, std::vector<unsigned char>& out);
bool cache_store(State& s, const std::string& dir, const std::string& key, const std::vector<unsigned char>& data);
std::string default_cache_dir();
void release_programs(Device& d);

// ---- buffers and launches (ocl_device.cpp)
ember_status_t pool_alloc(Device& d, size_t nbytes, cl_mem* out);
void pool_free(Device& d, cl_mem m);
// Chunk length and global size for n work units on d (cost: relative work per unit).
void launch_shape(const Device& d, int64_t n, int64_t cost, cl_long* ch, size_t* global);
ember_status_t enqueue(Device& d, cl_kernel k, size_t global, const char* op);
// Registers a launch that may report a deferred error; returns the sequence number to pass.
int begin_checked(Device& d, const std::string& what);
// Waits for the queue and reports deferred kernel errors (d.mu held).
// at_op: EMBER_OPENCL_SYNC's check right after an op, whose error is then not called deferred.
ember_status_t finish_and_check(Device& d, bool at_op = false);
ember_status_t check_deferred(Device& d, bool at_op = false);
void register_exit_teardown(int milestone);  // 0 init, 1 first program build, 2 first kernel completed

struct ArgSetter {
    cl_kernel k;
    cl_uint i = 0;
    cl_int err = CL_SUCCESS;
    explicit ArgSetter(cl_kernel kk) : k(kk) {}
    template <class T>
    ArgSetter& v(const T& x) {
        cl_int e = clSetKernelArg(k, i++, sizeof(T), &x);
        if (e != CL_SUCCESS && err == CL_SUCCESS) err = e;
        return *this;
    }
    ArgSetter& mem(const void* m) {
        cl_mem x = (cl_mem)const_cast<void*>(m);
        return v(x);
    }
};

// ---- kernels (ocl_kernels.cpp, ocl_gemm.cpp)
int find_kernel(void* state, const char* op, ember_kernel_t* out);
ember_status_t matmul(State& s, Device& d, const ember_kernel_call_t* call);
ember_status_t warmup(State& s, Device& d, int level);
void clblast_clear();

// Elementwise geometry from views of one shape (collapses dimensions).
Geo make_geo(int n_ops, const ember_view_t* const* views, const int64_t* shape, int ndim, bool collapse = true);

// The thread's capture request (ember_opencl_tensor_mem): while set, writes and kernels
// only record their destination.
struct Capture {
    cl_mem mem = nullptr;
    int64_t byte_offset = 0;
    int device = -1;
    bool seen = false;
};
Capture*& capture_slot();

}  // namespace ember_ocl
