// The cpu backend's function table: host memory, one device (the machine), a caching
// allocator, a thread pool, OpenBLAS for matmul and SIMD kernels picked at run time.
// Ops without a native kernel here are not returned by find_kernel, so the core binds the
// reference kernel on the same host buffers (no copy).
#include <cblas.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

#include "allocator.hpp"
#include "cpu_common.hpp"
#include "openblas_core.hpp"
#include "threadpool.hpp"

namespace ember_cpu {

const ember_host_api_t* g_host = nullptr;
const IsaTable* g_isa = nullptr;
int64_t g_stream_bytes = int64_t(16) << 20;

ember_kernel_t ref_kernel(const char* op) {
    ember_kernel_t k{nullptr, nullptr};
    if (!g_host->reference_kernel(op, &k)) k = ember_kernel_t{nullptr, nullptr};
    return k;
}

namespace {

struct State {
    CachingAllocator* alloc = nullptr;
    std::vector<NativeKernel> natives;
    std::vector<KernelData> data;  // parallel to natives; stable after init
    int threads = 1;
    std::string cpu_name;
    bool blas_threads_set = false;
    std::string openblas_core_picked;  // OpenBLAS's own choice, where Ember replaced it
};
// Deliberately never deleted: tensors released after shutdown (static destructors of the
// application) still reach free(), which then goes straight to the system.
State* g_state = nullptr;

const IsaTable* choose_isa() {
#if defined(EMBER_CPU_X86)
    __builtin_cpu_init();
    bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("f16c") &&
                __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2");
    bool avx512 = avx2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
                  __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl");
    // EMBER_CPU_ISA=generic|avx2|avx512 caps the choice (for testing every variant).
    const char* cap = std::getenv("EMBER_CPU_ISA");
    int level = avx512 ? 2 : avx2 ? 1 : 0;
    if (cap && std::strcmp(cap, "generic") == 0) level = 0;
    else if (cap && std::strcmp(cap, "avx2") == 0 && level > 1) level = 1;
    // A sanitizer build compiles only the variants its build machine runs (CMakeLists.txt).
#if defined(EMBER_HAVE_ISA_avx512)
    if (level == 2) return isa_table_avx512();
#endif
#if defined(EMBER_HAVE_ISA_avx2)
    if (level >= 1) return isa_table_avx2();
#endif
#endif
    return isa_table_generic();
}

std::string cpu_model_name() {
    std::string name = "host CPU";
    if (FILE* f = std::fopen("/proc/cpuinfo", "r")) {
        char line[512];
        while (std::fgets(line, sizeof line, f)) {
            if (std::strncmp(line, "model name", 10) == 0) {
                const char* c = std::strchr(line, ':');
                if (c) {
                    name = c + 1;
                    while (!name.empty() && (name.front() == ' ' || name.front() == '\t')) name.erase(0, 1);
                    while (!name.empty() && (name.back() == '\n' || name.back() == ' ')) name.pop_back();
                }
                break;
            }
        }
        std::fclose(f);
    }
    return name;
}

// The L3 this CPU shares, from sysfs (what lscpu shows). CPUID-based sysconf can report
// the whole host's cache inside a VM (384 MiB here, for a 32 MiB slice).
int64_t last_level_cache_bytes() {
    if (FILE* f = std::fopen("/sys/devices/system/cpu/cpu0/cache/index3/size", "r")) {
        long long v = 0;
        char unit = 0;
        int got = std::fscanf(f, "%lld%c", &v, &unit);
        std::fclose(f);
        if (got >= 1 && v > 0) return unit == 'K' ? v << 10 : unit == 'M' ? v << 20 : v;
    }
    long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
    return l3 > 0 ? l3 : 0;
}

uint64_t phys_bytes() {
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : 0;
}
uint64_t avail_bytes() {
    long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : 0;
}

ember_status_t init(const ember_host_api_t* host, void** state) {
    g_host = host;
    if (!g_state) {
        auto* s = new State();
        if (const char* picked = reselect_openblas_core()) s->openblas_core_picked = picked;
        s->alloc = new CachingAllocator(default_cache_limit());
        g_isa = choose_isa();
        int64_t l3 = last_level_cache_bytes();
        // At most 16 MiB: on a VM that reports the socket's 480 MiB L3, 40 MB results written
        // through the cache were slower in every 1e7 float32 op of the bench (a + b 2.48 ->
        // 2.05 ms, clip 1.84 -> 1.44, astype to uint8 1.36 -> 1.00, tanh 1.85 -> 1.45; medians
        // of 4 runs each, bench/RESULTS.md). That held only once every large writer streamed:
        // while clip still wrote through the cache, it missed into buffers recycled from
        // streamed results and the cap cost more than it gained.
        if (l3 > 0) g_stream_bytes = std::min<int64_t>(int64_t(16) << 20, std::max<int64_t>(int64_t(4) << 20, l3 / 2));
        // EMBER_CPU_STREAM_BYTES overrides it (0: stream every output that may).
        if (const char* v = std::getenv("EMBER_CPU_STREAM_BYTES")) {
            char* end = nullptr;
            const long long b = std::strtoll(v, &end, 10);
            if (end != v && *end == '\0' && b >= 0) g_stream_bytes = b;
        }
        s->threads = configured_threads();
        // OpenBLAS runs its own threads during a GEMM; our pool sleeps meanwhile, so the two
        // never oversubscribe. Follow EMBER_NUM_THREADS in OpenBLAS too, unless the user
        // configured OpenBLAS explicitly (never override OPENBLAS_* or OMP_* settings).
        if (std::getenv("EMBER_NUM_THREADS") && !std::getenv("OPENBLAS_NUM_THREADS") && !std::getenv("GOTO_NUM_THREADS") &&
            !std::getenv("OMP_NUM_THREADS")) {
            openblas_set_num_threads(s->threads);
            s->blas_threads_set = true;
        }
        s->cpu_name = cpu_model_name();
        add_elementwise_kernels(s->natives);
        add_reduce_kernels(s->natives);
        add_matmul_kernels(s->natives);
        add_softmax_kernels(s->natives);
        add_logsumexp_kernel(s->natives);
        add_variance_kernels(s->natives);
        add_nan_reduce_kernels(s->natives);
        add_counting_kernels(s->natives);
        add_cum_extreme_kernels(s->natives);
        add_topk_kernels(s->natives);
        add_quantile_kernels(s->natives);
        add_cross_kernels(s->natives);
        add_triangle_kernels(s->natives);
        add_isclose_kernel(s->natives);
        add_vecdot_kernel(s->natives);
        add_lapack_kernels(s->natives);
        add_libm_kernels(s->natives);
        add_gelu_kernel(s->natives);
        add_clip_kernel(s->natives);
        add_leaky_relu_kernel(s->natives);
        add_fft_kernel(s->natives);
        add_random_kernels(s->natives);
        add_scan_kernels(s->natives);
        add_sort_kernels(s->natives);
        add_arg_kernels(s->natives);
        add_gather_kernels(s->natives);
        // The reference kernels to delegate to are looked up in find_kernel: the host's
        // reference_kernel cannot be called from init (the registry is still being built).
        s->data.reserve(s->natives.size());
        for (auto& k : s->natives) s->data.push_back(KernelData{k.name, k.code, ember_kernel_t{nullptr, nullptr}});
        g_state = s;
    } else {
        g_state->alloc->set_caching(true);
    }
    pool_start(g_state->threads);
    if (!g_state->openblas_core_picked.empty())
        host->log(EMBER_LOG_INFO, "cpu backend: OpenBLAS took core %s, below this processor; now runs core %s (OPENBLAS_CORETYPE unset)",
                  g_state->openblas_core_picked.c_str(), openblas_get_corename());
    host->log(EMBER_LOG_DEBUG, "cpu backend: %s kernels, %d threads, OpenBLAS %s, cache limit %llu bytes", g_isa->name,
              g_state->threads, openblas_get_config(), (unsigned long long)g_state->alloc->limit_bytes());
    *state = g_state;
    return EMBER_OK;
}

void shutdown(void* state) {
    pool_stop();
    if (g_state) g_state->alloc->set_caching(false);
}

int score(void*) { return 50; }
int device_count(void*) { return 1; }

ember_status_t device_info(void* state, int device, ember_device_info_t* info) {
    auto* s = static_cast<State*>(state);
    std::snprintf(info->name, sizeof info->name, "%s", s->cpu_name.c_str());
    std::snprintf(info->vendor, sizeof info->vendor, "Ember");
    // OpenBLAS's core type shows which GEMM kernels run: an OpenBLAS older than the processor
    // may not recognise it and fall back to slow generic ones (openblas_core.cpp).
    const char* note = openblas_core_below_cpu() ? " (below the CPU)" : s->openblas_core_picked.empty() ? "" : " (set by Ember)";
    std::snprintf(info->driver, sizeof info->driver, "%s kernels, OpenBLAS core %s%s", g_isa->name, openblas_get_corename(), note);
    info->type = EMBER_DEVICE_CPU;
    info->compute_units = s->threads;
    info->memory_bytes = phys_bytes();
    info->supports_fp64 = 1;
    info->supports_fp16 = 1;
    return EMBER_OK;
}

ember_status_t memory_info(void* state, int, ember_memory_info_t* info) {
    auto* s = static_cast<State*>(state);
    info->total_bytes = phys_bytes();
    info->free_bytes = avail_bytes();
    info->allocated_bytes = s->alloc->allocated_bytes();
    info->cached_bytes = s->alloc->cached_bytes();
    info->limit_bytes = s->alloc->limit_bytes();
    return EMBER_OK;
}

ember_status_t alloc(void* state, int, size_t nbytes, void** buffer) {
    void* p = static_cast<State*>(state)->alloc->allocate(nbytes);
    if (!p) return g_host->fail(EMBER_ERR_OUT_OF_MEMORY, "cpu: could not allocate %zu bytes", nbytes);
    *buffer = p;
    return EMBER_OK;
}

void release(void* state, int, void* buffer) { static_cast<State*>(state)->alloc->release(buffer); }
}  // namespace

void* scratch_allocate(size_t nbytes) {
    void* p = g_state->alloc->allocate(nbytes ? nbytes : 1);
    if (!p) throw std::bad_alloc();
    return p;
}
void scratch_release(void* p) { g_state->alloc->release(p); }

namespace {

// Through the ISA table's copy: memcpy is 5x slower when the destination lies a few bytes
// past the source modulo 4 KiB (copy_bytes), and a host array can lie anywhere: a 400 KB
// asarray took 144 us at distances 8 and 16, 28 us at 0, 32 or 64.
ember_status_t write(void*, int, void* buffer, size_t off, const void* src, size_t n) {
    g_isa->copy(src, static_cast<char*>(buffer) + off, (int64_t)n, 0);
    return EMBER_OK;
}

ember_status_t read(void*, int, const void* buffer, size_t off, void* dst, size_t n) {
    g_isa->copy(static_cast<const char*>(buffer) + off, dst, (int64_t)n, 0);
    return EMBER_OK;
}

ember_status_t synchronize(void*, int) { return EMBER_OK; }

int find_kernel(void* state, const char* op, ember_kernel_t* out) {
    auto* s = static_cast<State*>(state);
    for (size_t i = 0; i < s->natives.size(); ++i)
        if (std::strcmp(s->natives[i].name, op) == 0) {
            if (!s->natives[i].composite && !s->data[i].ref.fn) s->data[i].ref = ref_kernel(op);
            *out = ember_kernel_t{s->natives[i].fn, &s->data[i]};
            return EMBER_KERNEL_NATIVE | s->natives[i].flags;
        }
    return 0;
}

const ember_backend_iface_t kIface = {
    EMBER_BACKEND_API_VERSION,
    "cpu",
    "host CPU: OpenBLAS GEMM, SIMD (AVX2/AVX-512, chosen at run time) and threaded kernels, caching allocator",
    EMBER_BACKEND_HOST_MEMORY,
    init, shutdown, score, nullptr, device_count, device_info, memory_info,
    alloc, release, write, read, synchronize, find_kernel,
};

}  // namespace
}  // namespace ember_cpu

extern "C" __attribute__((visibility("default"))) const ember_backend_iface_t* ember_backend_module(uint32_t host_api_version) {
    (void)host_api_version;
    return &ember_cpu::kIface;
}
