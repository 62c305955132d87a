// The OpenCL backend module: devices, buffers, transfers, synchronisation, deferred
// errors, teardown and the query interface of include/ember/ember_opencl.h.
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <string>

#include "ember/ember_opencl.h"
#include "ocl_backend.hpp"

namespace ember_ocl {

State* g_state = nullptr;
namespace {
const ember_host_api_t* g_host = nullptr;
}

// ------------------------------------------------------------------ errors and logging
const char* cl_error_name(cl_int e) {
    switch (e) {
#define C(x) case x: return #x;
        C(CL_SUCCESS) C(CL_DEVICE_NOT_FOUND) C(CL_DEVICE_NOT_AVAILABLE) C(CL_COMPILER_NOT_AVAILABLE)
        C(CL_MEM_OBJECT_ALLOCATION_FAILURE) C(CL_OUT_OF_RESOURCES) C(CL_OUT_OF_HOST_MEMORY)
        C(CL_BUILD_PROGRAM_FAILURE) C(CL_INVALID_VALUE) C(CL_INVALID_DEVICE) C(CL_INVALID_CONTEXT)
        C(CL_INVALID_COMMAND_QUEUE) C(CL_INVALID_MEM_OBJECT) C(CL_INVALID_BINARY) C(CL_INVALID_BUILD_OPTIONS)
        C(CL_INVALID_PROGRAM) C(CL_INVALID_PROGRAM_EXECUTABLE) C(CL_INVALID_KERNEL_NAME) C(CL_INVALID_KERNEL)
        C(CL_INVALID_ARG_INDEX) C(CL_INVALID_ARG_VALUE) C(CL_INVALID_ARG_SIZE) C(CL_INVALID_KERNEL_ARGS)
        C(CL_INVALID_WORK_DIMENSION) C(CL_INVALID_WORK_GROUP_SIZE) C(CL_INVALID_WORK_ITEM_SIZE)
        C(CL_INVALID_GLOBAL_OFFSET) C(CL_INVALID_EVENT_WAIT_LIST) C(CL_INVALID_OPERATION)
        C(CL_INVALID_BUFFER_SIZE) C(CL_INVALID_GLOBAL_WORK_SIZE) C(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
        C(CL_MISALIGNED_SUB_BUFFER_OFFSET) C(CL_INVALID_PLATFORM) C(CL_INVALID_QUEUE_PROPERTIES)
#undef C
        case -1001: return "CL_PLATFORM_NOT_FOUND_KHR";
        default: {
            static thread_local char buf[32];
            std::snprintf(buf, sizeof buf, "OpenCL error %d", (int)e);
            return buf;
        }
    }
}

ember_status_t fail(ember_status_t st, const char* fmt, ...) {
    char buf[4096];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (g_host) return g_host->fail(st, "%s", buf);
    return st;
}

void log_msg(ember_log_level_t level, const char* fmt, ...) {
    if (!g_host) return;
    char buf[4096];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    g_host->log(level, "%s", buf);
}

Capture*& capture_slot() {
    static thread_local Capture* c = nullptr;
    return c;
}

// ------------------------------------------------------------------ buffers
ember_status_t pool_alloc(Device& d, size_t nbytes, cl_mem* out) {
    size_t size = (nbytes + 255) & ~size_t(255);
    {
        std::lock_guard<std::mutex> lk(d.pool_mu);
        auto it = d.free_list.find(size);
        if (it != d.free_list.end() && !it->second.empty()) {
            cl_mem m = it->second.back();
            it->second.pop_back();
            if (it->second.empty() && d.free_list.size() > 1024) d.free_list.erase(it);  // many distinct sizes
            d.bufs[m].cached = false;
            d.cached -= size;
            d.allocated += size;
            *out = m;
            return EMBER_OK;
        }
    }
    cl_int err;
    cl_mem m = clCreateBuffer(d.ctx, CL_MEM_READ_WRITE, size, nullptr, &err);
    if (err == CL_MEM_OBJECT_ALLOCATION_FAILURE || err == CL_OUT_OF_RESOURCES || err == CL_OUT_OF_HOST_MEMORY ||
        err == CL_INVALID_BUFFER_SIZE) {
        // give the recycling cache back and try once more
        std::vector<cl_mem> drop;
        {
            std::lock_guard<std::mutex> lk(d.pool_mu);
            for (auto& [sz, v] : d.free_list)
                for (cl_mem b : v) {
                    drop.push_back(b);
                    d.bufs.erase(b);
                }
            d.free_list.clear();
            d.cached = 0;
        }
        for (cl_mem b : drop) clReleaseMemObject(b);
        m = clCreateBuffer(d.ctx, CL_MEM_READ_WRITE, size, nullptr, &err);
    }
    if (err != CL_SUCCESS)
        return fail(err == CL_INVALID_BUFFER_SIZE || err == CL_MEM_OBJECT_ALLOCATION_FAILURE || err == CL_OUT_OF_HOST_MEMORY ||
                            err == CL_OUT_OF_RESOURCES
                        ? EMBER_ERR_OUT_OF_MEMORY
                        : EMBER_ERR_DEVICE,
                    "clCreateBuffer(%zu bytes) on '%s' failed: %s", nbytes, d.name.c_str(), cl_error_name(err));
    std::lock_guard<std::mutex> lk(d.pool_mu);
    d.bufs[m] = BufInfo{size, false, false};
    d.allocated += size;
    *out = m;
    return EMBER_OK;
}

void pool_free(Device& d, cl_mem m) {
    if (!m) return;
    {
        std::lock_guard<std::mutex> lk(d.pool_mu);
        auto it = d.bufs.find(m);
        if (it == d.bufs.end() || it->second.cached) return;  // not ours (or already released at teardown)
        BufInfo& info = it->second;
        d.allocated -= info.size;
        // The queue is in order, so a recycled buffer's next use runs after every command
        // already queued on it.
        if (!info.exported && d.cached + info.size <= d.cache_limit) {
            info.cached = true;
            d.free_list[info.size].push_back(m);
            d.cached += info.size;
            return;
        }
        d.bufs.erase(it);
    }
    clReleaseMemObject(m);
}

// ------------------------------------------------------------------ launches
void launch_shape(const Device& d, int64_t n, int64_t cost, cl_long* ch, size_t* global) {
    int64_t local = (int64_t)d.local;
    if (n <= 0) {
        *ch = 1;
        *global = d.local;
        return;
    }
    int64_t c = 1, items = n;
    if (d.chunked) {
        int64_t target = (int64_t)d.compute_units * local * 4;
        c = (n + target - 1) / target;
        int64_t minch = std::max<int64_t>(1, 256 / std::max<int64_t>(cost, 1));
        c = std::max(c, minch);
        items = (n + c - 1) / c;
    } else {
        items = std::min<int64_t>(n, (int64_t)d.compute_units * 2048);
    }
    *ch = c;
    *global = (size_t)((items + local - 1) / local * local);
}

// At most ~2 x kThrottle launches wait in the queue: every kThrottle-th launch records an
// event and waits for the previous one, as a GPU driver's full launch queue would. A very
// deep queue makes every further enqueue slower (PoCL), and the host gains nothing by
// running thousands of ops ahead.
constexpr int kThrottle = 256;

ember_status_t enqueue(Device& d, cl_kernel k, size_t global, const char* op) {
    cl_event ev = nullptr;
    bool marking = ++d.since_mark >= kThrottle;
    cl_int err = clEnqueueNDRangeKernel(d.queue, k, 1, nullptr, &global, &d.local, 0, nullptr, marking ? &ev : nullptr);
    if (marking && err == CL_SUCCESS) {
        d.since_mark = 0;
        if (d.mark) {
            clWaitForEvents(1, &d.mark);  // a failure there is reported at the next synchronisation
            clReleaseEvent(d.mark);
        }
        d.mark = ev;
    }
    if (err != CL_SUCCESS)
        return fail(err == CL_OUT_OF_RESOURCES || err == CL_MEM_OBJECT_ALLOCATION_FAILURE ? EMBER_ERR_OUT_OF_MEMORY : EMBER_ERR_DEVICE,
                    "enqueueing the kernel of %s on '%s' failed: %s", op, d.name.c_str(), cl_error_name(err));
    d.last_op = op;
    return EMBER_OK;
}

int begin_checked(Device& d, const std::string& what) {
    int seq = d.seq = (d.seq + 1) & 0x3fffffff;
    d.seq_desc[(size_t)seq % d.seq_desc.size()] = what;
    d.err_dirty = true;
    return seq;
}

ember_status_t check_deferred(Device& d, bool at_op) {
    if (!d.err_dirty) return EMBER_OK;
    d.err_dirty = false;
    cl_int rec[4] = {0, 0, 0, 0};
    cl_int err = clEnqueueReadBuffer(d.queue, d.err_buf, CL_TRUE, 0, sizeof rec, rec, 0, nullptr, nullptr);
    if (err != CL_SUCCESS) return fail(EMBER_ERR_DEVICE, "reading the error flag of '%s' failed: %s", d.name.c_str(), cl_error_name(err));
    if (!rec[0]) return EMBER_OK;
    int64_t value;
    std::memcpy(&value, rec + 2, 8);
    int seq = rec[1];
    const std::string& what = d.seq_desc[(size_t)seq % d.seq_desc.size()];
    cl_int zero[4] = {0, 0, 0, 0};
    clEnqueueWriteBuffer(d.queue, d.err_buf, CL_TRUE, 0, sizeof zero, zero, 0, nullptr, nullptr);
    if (at_op) return fail(EMBER_ERR_INDEX, "%s: index %lld is out of range", what.c_str(), (long long)value);
    return fail(EMBER_ERR_INDEX,
                "%s: index %lld is out of range (a deferred device error, reported at this synchronisation; set "
                "EMBER_OPENCL_SYNC=1 to report it at the op)",
                what.c_str(), (long long)value);
}

ember_status_t finish_and_check(Device& d, bool at_op) {
    cl_int err = clFinish(d.queue);
    if (!d.last_op.empty()) register_exit_teardown(2);  // a kernel has run (and was compiled)
    if (d.mark) {
        clReleaseEvent(d.mark);
        d.mark = nullptr;
    }
    d.since_mark = 0;
    if (err != CL_SUCCESS)
        return fail(EMBER_ERR_DEVICE, "device '%s' failed while executing queued work (last op %s): %s", d.name.c_str(),
                    d.last_op.empty() ? "none" : d.last_op.c_str(), cl_error_name(err));
    return check_deferred(d, at_op);
}

namespace {

// ------------------------------------------------------------------ devices
std::string platform_str(cl_platform_id p, cl_platform_info what) {
    size_t n = 0;
    clGetPlatformInfo(p, what, 0, nullptr, &n);
    std::string s(n, '\0');
    if (n) clGetPlatformInfo(p, what, n, s.data(), nullptr);
    while (!s.empty() && s.back() == '\0') s.pop_back();
    return s;
}

std::string device_str(cl_device_id d, cl_device_info what) {
    size_t n = 0;
    clGetDeviceInfo(d, what, 0, nullptr, &n);
    std::string s(n, '\0');
    if (n) clGetDeviceInfo(d, what, n, s.data(), nullptr);
    while (!s.empty() && s.back() == '\0') s.pop_back();
    return s;
}

template <class T>
T device_val(cl_device_id d, cl_device_info what) {
    T v{};
    clGetDeviceInfo(d, what, sizeof v, &v, nullptr);
    return v;
}

bool env_on(const char* name) {
    const char* v = std::getenv(name);
    return v && *v && std::strcmp(v, "0") != 0 && std::strcmp(v, "off") != 0;
}

// Fills d's descriptive fields and launch parameters from its cl_device_id.
void describe(Device& d) {
    d.name = device_str(d.id, CL_DEVICE_NAME);
    d.vendor = device_str(d.id, CL_DEVICE_VENDOR);
    d.driver = device_str(d.id, CL_DRIVER_VERSION);
    d.device_version = device_str(d.id, CL_DEVICE_VERSION);
    d.platform_name = platform_str(d.platform, CL_PLATFORM_NAME);
    d.platform_version = platform_str(d.platform, CL_PLATFORM_VERSION);
    cl_device_type t = device_val<cl_device_type>(d.id, CL_DEVICE_TYPE);
    d.type = (t & CL_DEVICE_TYPE_GPU) ? EMBER_DEVICE_GPU
             : (t & CL_DEVICE_TYPE_ACCELERATOR) ? EMBER_DEVICE_ACCELERATOR
             : (t & CL_DEVICE_TYPE_CPU) ? EMBER_DEVICE_CPU
                                         : EMBER_DEVICE_OTHER;
    d.compute_units = (int)std::max<cl_uint>(1, device_val<cl_uint>(d.id, CL_DEVICE_MAX_COMPUTE_UNITS));
    d.mem_bytes = device_val<cl_ulong>(d.id, CL_DEVICE_GLOBAL_MEM_SIZE);
    std::string ext = device_str(d.id, CL_DEVICE_EXTENSIONS);
    d.fp64_hw = ext.find("cl_khr_fp64") != std::string::npos || device_val<cl_device_fp_config>(d.id, CL_DEVICE_DOUBLE_FP_CONFIG) != 0;
    d.fp16 = ext.find("cl_khr_fp16") != std::string::npos;
    if (env_on("EMBER_OPENCL_NO_FP64")) d.fp64_hw = false;
    d.fp64 = d.fp64_hw;
    d.max_wg = std::max<size_t>(1, device_val<size_t>(d.id, CL_DEVICE_MAX_WORK_GROUP_SIZE));
    d.chunked = d.type == EMBER_DEVICE_CPU;
    d.local = std::min<size_t>(d.chunked ? 64 : 256, d.max_wg);
    d.cache_limit = std::min<uint64_t>(d.mem_bytes / 16, 256ull << 20);
    if (const char* v = std::getenv("EMBER_OPENCL_POOL_LIMIT")) d.cache_limit = std::strtoull(v, nullptr, 10);
}

ember_status_t finish_device(Device& d) {
    cl_int err;
    d.err_buf = clCreateBuffer(d.ctx, CL_MEM_READ_WRITE, 16, nullptr, &err);
    if (err != CL_SUCCESS) return fail(EMBER_ERR_DEVICE, "cannot create the error buffer on '%s': %s", d.name.c_str(), cl_error_name(err));
    cl_int zero[4] = {0, 0, 0, 0};
    err = clEnqueueWriteBuffer(d.queue, d.err_buf, CL_TRUE, 0, sizeof zero, zero, 0, nullptr, nullptr);
    if (err != CL_SUCCESS) return fail(EMBER_ERR_DEVICE, "cannot initialise the error buffer on '%s': %s", d.name.c_str(), cl_error_name(err));
    return EMBER_OK;
}

int rank(const Device* d) {
    switch (d->type) {
        case EMBER_DEVICE_GPU: return 0;
        case EMBER_DEVICE_ACCELERATOR: return 1;
        default: return 2;
    }
}

void enumerate(State& s) {
    cl_uint np = 0;
    cl_int err = clGetPlatformIDs(0, nullptr, &np);
    if (err != CL_SUCCESS || np == 0) {
        s.reason = std::string("no OpenCL platform found (") + (err != CL_SUCCESS ? cl_error_name(err) : "0 platforms") +
                   "); install an OpenCL driver (ICD), e.g. pocl-opencl-icd for CPUs";
        return;
    }
    std::vector<cl_platform_id> plats(np);
    clGetPlatformIDs(np, plats.data(), nullptr);
    std::vector<Device*> found;
    std::string skipped;
    for (cl_platform_id p : plats) {
        cl_uint nd = 0;
        if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, nullptr, &nd) != CL_SUCCESS || nd == 0) continue;
        std::vector<cl_device_id> ids(nd);
        clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, nd, ids.data(), nullptr);
        for (cl_device_id id : ids) {
            auto* d = new Device();
            d->platform = p;
            d->id = id;
            describe(*d);
            if (!device_val<cl_bool>(id, CL_DEVICE_AVAILABLE) || !device_val<cl_bool>(id, CL_DEVICE_COMPILER_AVAILABLE)) {
                skipped += " '" + d->name + "' (not available or no compiler)";
                delete d;
                continue;
            }
            cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)p, 0};
            d->ctx = clCreateContext(props, 1, &id, nullptr, nullptr, &err);
            if (err == CL_SUCCESS) d->queue = clCreateCommandQueue(d->ctx, id, 0, &err);
            if (err == CL_SUCCESS && finish_device(*d) != EMBER_OK) err = CL_OUT_OF_RESOURCES;
            if (err != CL_SUCCESS) {
                skipped += " '" + d->name + "' (" + cl_error_name(err) + ")";
                if (d->queue) clReleaseCommandQueue(d->queue);
                if (d->ctx) clReleaseContext(d->ctx);
                delete d;
                continue;
            }
            found.push_back(d);
        }
    }
    std::stable_sort(found.begin(), found.end(), [](const Device* a, const Device* b) { return rank(a) < rank(b); });
    if ((int)found.size() > kMaxDevices) found.resize(kMaxDevices);
    for (size_t i = 0; i < found.size(); ++i) s.devices[i] = found[i];
    s.n_devices = (int)found.size();
    if (found.empty()) s.reason = "no usable OpenCL device" + (skipped.empty() ? std::string(" (platforms have no devices)") : ":" + skipped);
    else if (!skipped.empty()) log_msg(EMBER_LOG_WARN, "opencl: skipped devices:%s", skipped.c_str());
}

// ------------------------------------------------------------------ teardown
void teardown(State& s) {
    if (s.torn_down.exchange(true)) return;
    int n = s.n_devices.load();
    for (int i = 0; i < n; ++i) {
        Device& d = *s.devices[i];
        std::lock_guard<std::mutex> lk(d.mu);
        clFinish(d.queue);
    }
    clblast_clear();  // CLBlast's programs hold our contexts: clear them first
    for (int i = 0; i < n; ++i) {
        Device& d = *s.devices[i];
        std::lock_guard<std::mutex> lk(d.mu);
        release_programs(d);
        if (d.mark) clReleaseEvent(d.mark);
        d.mark = nullptr;
        std::vector<cl_mem> bufs;
        {
            std::lock_guard<std::mutex> pk(d.pool_mu);
            for (auto& [m, info] : d.bufs) bufs.push_back(m);
            d.bufs.clear();
            d.free_list.clear();
            d.allocated = d.cached = 0;
        }
        for (cl_mem m : bufs) clReleaseMemObject(m);
        if (d.err_buf) clReleaseMemObject(d.err_buf);
        d.err_buf = nullptr;
        if (d.queue) clReleaseCommandQueue(d.queue);
        if (d.ctx) clReleaseContext(d.ctx);
        d.queue = nullptr;
        d.ctx = nullptr;
    }
}

void teardown_at_exit() {
    if (g_state) teardown(*g_state);
}

}  // namespace

// exit() runs handlers in reverse order of registration, and the OpenCL implementation's
// own statics (PoCL's LLVM, CLBlast's caches) are registered when they are first built,
// i.e. during our first program build or kernel run. Teardown must run before those die
// (it waits for queued work, which may still need the compiler), so the handler is
// registered again after those milestones; running it more than once is harmless.
void register_exit_teardown(int milestone) {
    static std::atomic<unsigned> done{0};
    unsigned bit = 1u << milestone;
    if (done.load(std::memory_order_relaxed) & bit) return;  // every synchronisation asks
    if (done.fetch_or(bit) & bit) return;
    std::atexit(teardown_at_exit);
}

namespace {


// ------------------------------------------------------------------ the function table
ember_status_t init(const ember_host_api_t* host, void** state) {
    g_host = host;
    auto* s = new State();
    s->host = host;
    g_state = s;
    s->sync_mode = env_on("EMBER_OPENCL_SYNC");
    const char* cd = std::getenv("EMBER_OPENCL_CACHE_DIR");
    if (cd && (std::strcmp(cd, "off") == 0 || !*cd)) s->cache_dir = "";
    else s->cache_dir = cd ? cd : default_cache_dir();
    if (const char* g = std::getenv("EMBER_OPENCL_GEMM")) {
        if (!std::strcmp(g, "clblast")) s->gemm_mode = 1;
        else if (!std::strcmp(g, "own")) s->gemm_mode = 2;
    }
    if (const char* g = std::getenv("EMBER_OPENCL_GEMM_MIN_FLOPS")) s->gemm_min_flops = std::atof(g);
    enumerate(*s);
    // Release contexts before the C++ runtime destroys CLBlast's (static) caches: an atexit
    // handler registered now runs before the destructors of statics constructed earlier.
    register_exit_teardown(0);
    if (const char* w = std::getenv("EMBER_OPENCL_WARMUP"); w && *w && std::strcmp(w, "0") != 0) {
        int level = std::atoi(w) >= 2 ? 2 : 1;
        for (int i = 0; i < s->n_devices.load(); ++i) {
            ember_status_t st = warmup(*s, *s->devices[i], level);
            if (st != EMBER_OK) log_msg(EMBER_LOG_WARN, "opencl: warm-up of device %d failed", i);
        }
    }
    *state = s;
    return EMBER_OK;
}

void shutdown(void* state) {
    // The State itself stays: tensors released later (other static destructors) may still
    // call free(), which is a no-op after teardown.
    teardown(*static_cast<State*>(state));
}

int score(void* state) {
    auto* s = static_cast<State*>(state);
    int best = 0;
    for (int i = 0; i < s->n_devices.load(); ++i) {
        int v = s->devices[i]->type == EMBER_DEVICE_GPU ? 100 : s->devices[i]->type == EMBER_DEVICE_ACCELERATOR ? 60 : 20;
        best = std::max(best, v);
    }
    return best;
}

const char* unavailable_reason(void* state) { return static_cast<State*>(state)->reason.c_str(); }
int device_count(void* state) { return static_cast<State*>(state)->n_devices.load(); }

Device* dev_or_fail(void* state, int device) {
    Device* d = static_cast<State*>(state)->device(device);
    if (!d) fail(EMBER_ERR_BACKEND_UNAVAILABLE, "opencl has no device %d", device);
    return d;
}

ember_status_t device_info(void* state, int device, ember_device_info_t* info) {
    Device* d = dev_or_fail(state, device);
    if (!d) return EMBER_ERR_BACKEND_UNAVAILABLE;
    std::snprintf(info->name, sizeof info->name, "%s", d->name.c_str());
    std::snprintf(info->vendor, sizeof info->vendor, "%s", d->vendor.c_str());
    std::snprintf(info->driver, sizeof info->driver, "%s", d->driver.c_str());
    info->type = d->type;
    info->compute_units = d->compute_units;
    info->memory_bytes = d->mem_bytes;
    info->supports_fp64 = d->fp64 ? 1 : 0;
    info->supports_fp16 = d->fp16 ? 1 : 0;
    return EMBER_OK;
}

ember_status_t memory_info(void* state, int device, ember_memory_info_t* info) {
    Device* d = dev_or_fail(state, device);
    if (!d) return EMBER_ERR_BACKEND_UNAVAILABLE;
    std::lock_guard<std::mutex> lk(d->pool_mu);
    info->total_bytes = d->mem_bytes;
    info->free_bytes = 0;
    info->allocated_bytes = d->allocated;
    info->cached_bytes = d->cached;
    info->limit_bytes = d->cache_limit;
    return EMBER_OK;
}

ember_status_t alloc(void* state, int device, size_t nbytes, void** buffer) {
    auto* s = static_cast<State*>(state);
    if (s->torn_down) return fail(EMBER_ERR_DEVICE, "the opencl backend has been shut down");
    Device* d = dev_or_fail(state, device);
    if (!d) return EMBER_ERR_BACKEND_UNAVAILABLE;
    if (nbytes == 0) {
        *buffer = nullptr;
        return EMBER_OK;
    }
    cl_mem m;
    ember_status_t st = pool_alloc(*d, nbytes, &m);
    if (st == EMBER_OK) *buffer = m;
    return st;
}

void release(void* state, int device, void* buffer) {
    auto* s = static_cast<State*>(state);
    if (!buffer || s->torn_down) return;
    if (Device* d = s->device(device)) pool_free(*d, static_cast<cl_mem>(buffer));
}

ember_status_t write(void* state, int device, void* buffer, size_t off, const void* src, size_t n) {
    if (Capture* c = capture_slot()) {
        c->mem = static_cast<cl_mem>(buffer);
        c->byte_offset = (int64_t)off;
        c->device = device;
        c->seen = true;
        return EMBER_OK;
    }
    if (n == 0) return EMBER_OK;
    Device* d = dev_or_fail(state, device);
    if (!d) return EMBER_ERR_BACKEND_UNAVAILABLE;
    cl_int err;
    // Small aligned writes (scalars) become fills: the pattern is copied at enqueue time,
    // so they neither block nor need a staging copy.
    if (n <= 128 && (n & (n - 1)) == 0 && off % n == 0)
        err = clEnqueueFillBuffer(d->queue, static_cast<cl_mem>(buffer), src, n, off, n, 0, nullptr, nullptr);
    else
        err = clEnqueueWriteBuffer(d->queue, static_cast<cl_mem>(buffer), CL_TRUE, off, n, src, 0, nullptr, nullptr);
    if (err != CL_SUCCESS) return fail(EMBER_ERR_DEVICE, "writing %zu bytes to '%s' failed: %s", n, d->name.c_str(), cl_error_name(err));
    if (static_cast<State*>(state)->sync_mode) {
        std::lock_guard<std::mutex> lk(d->mu);
        return finish_and_check(*d, true);
    }
    return EMBER_OK;
}

ember_status_t read(void* state, int device, const void* buffer, size_t off, void* dst, size_t n) {
    Device* d = dev_or_fail(state, device);
    if (!d) return EMBER_ERR_BACKEND_UNAVAILABLE;
    if (n) {
        cl_int err = clEnqueueReadBuffer(d->queue, (cl_mem)const_cast<void*>(buffer), CL_TRUE, off, n, dst, 0, nullptr, nullptr);
        if (err != CL_SUCCESS) {
            std::lock_guard<std::mutex> lk(d->mu);
            return fail(EMBER_ERR_DEVICE, "reading %zu bytes from '%s' failed (last op %s): %s", n, d->name.c_str(),
                        d->last_op.empty() ? "none" : d->last_op.c_str(), cl_error_name(err));
        }
    }
    std::lock_guard<std::mutex> lk(d->mu);
    return check_deferred(*d);
}

ember_status_t synchronize(void* state, int device) {
    Device* d = dev_or_fail(state, device);
    if (!d) return EMBER_ERR_BACKEND_UNAVAILABLE;
    std::lock_guard<std::mutex> lk(d->mu);
    return finish_and_check(*d);
}

const ember_backend_iface_t kIface = {
    EMBER_BACKEND_API_VERSION,
    "opencl",
    "OpenCL devices (GPUs of any vendor, CPUs through PoCL): own kernels, CLBlast GEMM",
    0,  // device memory
    init, shutdown, score, unavailable_reason, device_count, device_info, memory_info,
    alloc, release, write, read, synchronize, find_kernel,
};

// ------------------------------------------------------------------ query interface
ember_status_t add_device(State& s, ember_opencl_device_t* a) {
    if (!a->context || !a->queue) return fail(EMBER_ERR_INVALID_ARGUMENT, "ember_opencl_add_device: context and queue are required");
    cl_context qctx = nullptr;
    cl_device_id dev = nullptr;
    cl_command_queue_properties props = 0;
    cl_int err = clGetCommandQueueInfo(a->queue, CL_QUEUE_CONTEXT, sizeof qctx, &qctx, nullptr);
    if (err == CL_SUCCESS) err = clGetCommandQueueInfo(a->queue, CL_QUEUE_DEVICE, sizeof dev, &dev, nullptr);
    if (err == CL_SUCCESS) err = clGetCommandQueueInfo(a->queue, CL_QUEUE_PROPERTIES, sizeof props, &props, nullptr);
    if (err != CL_SUCCESS) return fail(EMBER_ERR_INVALID_ARGUMENT, "ember_opencl_add_device: invalid queue (%s)", cl_error_name(err));
    if (qctx != a->context) return fail(EMBER_ERR_INVALID_ARGUMENT, "ember_opencl_add_device: the queue does not belong to the context");
    if (props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)
        return fail(EMBER_ERR_INVALID_ARGUMENT, "ember_opencl_add_device: the queue must be in-order");
    std::lock_guard<std::mutex> lk(s.add_mu);
    int idx = s.n_devices.load();
    if (idx >= kMaxDevices) return fail(EMBER_ERR_OUT_OF_MEMORY, "ember_opencl_add_device: too many devices");
    auto* d = new Device();
    d->id = dev;
    clGetDeviceInfo(dev, CL_DEVICE_PLATFORM, sizeof d->platform, &d->platform, nullptr);
    describe(*d);
    d->user_supplied = true;
    clRetainContext(a->context);
    clRetainCommandQueue(a->queue);
    d->ctx = a->context;
    d->queue = a->queue;
    ember_status_t st = finish_device(*d);
    if (st != EMBER_OK) {
        clReleaseCommandQueue(d->queue);
        clReleaseContext(d->ctx);
        delete d;
        return st;
    }
    s.devices[idx] = d;
    s.n_devices = idx + 1;
    a->index = idx;
    return EMBER_OK;
}

ember_status_t query(uint32_t version, int request, void* args) {
    State* s = g_state;
    if (!s || version != EMBER_OPENCL_QUERY_VERSION) return EMBER_ERR_BACKEND_UNAVAILABLE;
    switch (request) {
        case EMBER_OPENCL_REQ_DEVICE: {
            auto* a = static_cast<ember_opencl_device_t*>(args);
            Device* d = s->device(a->index);
            if (!d) return fail(EMBER_ERR_BACKEND_UNAVAILABLE, "opencl has no device %d", a->index);
            a->platform = d->platform;
            a->device = d->id;
            a->context = d->ctx;
            a->queue = d->queue;
            return EMBER_OK;
        }
        case EMBER_OPENCL_REQ_ADD_DEVICE: return add_device(*s, static_cast<ember_opencl_device_t*>(args));
        case EMBER_OPENCL_REQ_CAPTURE_BEGIN: {
            Capture*& c = capture_slot();
            delete c;
            c = new Capture();
            return EMBER_OK;
        }
        case EMBER_OPENCL_REQ_CAPTURE_END: {
            auto* a = static_cast<ember_opencl_mem_t*>(args);
            Capture*& c = capture_slot();
            if (!c) return fail(EMBER_ERR_INVALID_ARGUMENT, "no capture in progress");
            Capture cap = *c;
            delete c;
            c = nullptr;
            a->mem = nullptr;
            a->byte_offset = 0;
            a->device = cap.device;
            if (!a->keep || !cap.seen || !cap.mem) return EMBER_OK;
            if (Device* d = s->device(cap.device)) {
                std::lock_guard<std::mutex> lk(d->pool_mu);
                auto it = d->bufs.find(cap.mem);
                if (it != d->bufs.end()) it->second.exported = true;
            }
            clRetainMemObject(cap.mem);
            a->mem = cap.mem;
            a->byte_offset = (size_t)cap.byte_offset;
            return EMBER_OK;
        }
        case EMBER_OPENCL_REQ_WARMUP: {
            auto* a = static_cast<ember_opencl_warmup_t*>(args);
            for (int i = 0; i < s->n_devices.load(); ++i) {
                if (a->device >= 0 && a->device != i) continue;
                ember_status_t st = warmup(*s, *s->devices[i], a->level);
                if (st != EMBER_OK) return st;
            }
            return EMBER_OK;
        }
        case EMBER_OPENCL_REQ_SET_SYNC: s->sync_mode = *static_cast<int*>(args) != 0; return EMBER_OK;
        case EMBER_OPENCL_REQ_SET_FP64: {
            auto* a = static_cast<ember_opencl_fp64_t*>(args);
            Device* d = s->device(a->device);
            if (!d) return fail(EMBER_ERR_BACKEND_UNAVAILABLE, "opencl has no device %d", a->device);
            d->fp64 = a->enabled && d->fp64_hw;
            return EMBER_OK;
        }
        case EMBER_OPENCL_REQ_CACHE: {
            auto* a = static_cast<ember_opencl_cache_t*>(args);
            if (a->set_dir) {
                std::lock_guard<std::mutex> lk(s->cache_mu);
                s->cache_dir = (std::strcmp(a->set_dir, "off") == 0) ? "" : a->set_dir;
            }
            if (a->drop_programs) {
                for (int i = 0; i < s->n_devices.load(); ++i) {
                    Device& d = *s->devices[i];
                    std::lock_guard<std::mutex> lk(d.mu);
                    clFinish(d.queue);
                    release_programs(d);
                }
            }
            std::snprintf(a->dir, sizeof a->dir, "%s", s->get_cache_dir().c_str());
            a->hits = s->cache.hits;
            a->misses = s->cache.misses;
            a->corrupt = s->cache.corrupt;
            a->writes = s->cache.writes;
            a->builds = s->cache.builds;
            return EMBER_OK;
        }
        case EMBER_OPENCL_REQ_CACHE_IO: {
            auto* a = static_cast<ember_opencl_cache_io_t*>(args);
            if (!a->dir || !a->key || std::strlen(a->key) != 32) return fail(EMBER_ERR_INVALID_ARGUMENT, "cache io: dir and a 32-char key are required");
            if (a->store) {
                std::vector<unsigned char> v(static_cast<unsigned char*>(a->data), static_cast<unsigned char*>(a->data) + a->size);
                return cache_store(*s, a->dir, a->key, v) ? EMBER_OK : fail(EMBER_ERR_IO, "cache store failed");
            }
            std::vector<unsigned char> v;
            if (!cache_load(*s, a->dir, a->key, v)) return fail(EMBER_ERR_IO, "no valid cache entry %s", a->key);
            size_t cap = a->size;
            a->size = v.size();
            if (a->data && cap) std::memcpy(a->data, v.data(), std::min(cap, v.size()));
            return EMBER_OK;
        }
        default: return fail(EMBER_ERR_INVALID_ARGUMENT, "unknown opencl request %d", request);
    }
}

}  // namespace
}  // namespace ember_ocl

extern "C" __attribute__((visibility("default"))) const ember_backend_iface_t* ember_backend_module(uint32_t) {
    return &ember_ocl::kIface;
}

extern "C" __attribute__((visibility("default"))) ember_status_t ember_opencl_query(uint32_t version, int request, void* args) {
    return ember_ocl::query(version, request, args);
}
