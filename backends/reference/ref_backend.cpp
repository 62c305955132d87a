// The reference backend's function table: host memory, one device, every kernel.
#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#endif

#include "../common/float16.hpp"
#include "ref_common.hpp"

namespace ember_ref {

const ember_host_api_t* g_host = nullptr;

uint16_t half::from_float(float f) { return ember_float16::from_float(f); }
float half::to_float(uint16_t h) { return ember_float16::to_float(h); }

std::vector<KernelAdder>& extra_kernel_adders() {
    static std::vector<KernelAdder> adders;
    return adders;
}

ember_status_t fail_dtype(const char* op, int32_t dtype) {
    return g_host->fail(EMBER_ERR_UNSUPPORTED_DTYPE, "the reference kernel of %s has no %s variant", op, ember_dtype_name((ember_dtype_t)dtype));
}

namespace {

struct State {
    KernelList kernels;
    std::atomic<uint64_t> allocated{0};
};

ember_status_t init(const ember_host_api_t* host, void** state) {
    g_host = host;
    auto* s = new State();
    add_unary_kernels(s->kernels);
    add_binary_kernels(s->kernels);
    add_reduce_kernels(s->kernels);
    add_misc_kernels(s->kernels);
    for (KernelAdder add : extra_kernel_adders()) add(s->kernels);
    *state = s;
    return EMBER_OK;
}

void shutdown(void* state) { delete static_cast<State*>(state); }
int score(void*) { return 10; }
int device_count(void*) { return 1; }

ember_status_t device_info(void*, int, ember_device_info_t* info) {
    std::snprintf(info->name, sizeof info->name, "host CPU (portable reference kernels)");
    std::snprintf(info->vendor, sizeof info->vendor, "Ember");
    std::snprintf(info->driver, sizeof info->driver, "reference");
    info->type = EMBER_DEVICE_CPU;
    info->compute_units = 1;
    info->supports_fp64 = 1;
    info->supports_fp16 = 1;
    return EMBER_OK;
}

ember_status_t memory_info(void* state, int, ember_memory_info_t* info) {
    info->allocated_bytes = static_cast<State*>(state)->allocated.load();
    return EMBER_OK;
}

// A 64-byte header before each block records its size for memory_info. Under
// AddressSanitizer the padding after the tensor's bytes is poisoned: ASan sees only the
// rounded-up block.
ember_status_t alloc(void* state, int, size_t nbytes, void** buffer) {
    size_t padded = (nbytes + 63) & ~size_t(63), total = padded + 64;
    void* p = std::aligned_alloc(64, total);
    if (!p) return g_host->fail(EMBER_ERR_OUT_OF_MEMORY, "could not allocate %zu bytes", nbytes);
    *static_cast<size_t*>(p) = nbytes;
    static_cast<State*>(state)->allocated += nbytes;
    *buffer = static_cast<char*>(p) + 64;
#if defined(__SANITIZE_ADDRESS__)
    ASAN_POISON_MEMORY_REGION(static_cast<char*>(*buffer) + nbytes, padded - nbytes);
#endif
    return EMBER_OK;
}

void release(void* state, int, void* buffer) {
    if (!buffer) return;
    char* p = static_cast<char*>(buffer) - 64;
    const size_t nbytes = *reinterpret_cast<size_t*>(p);
    static_cast<State*>(state)->allocated -= nbytes;
#if defined(__SANITIZE_ADDRESS__)
    ASAN_UNPOISON_MEMORY_REGION(static_cast<char*>(buffer) + nbytes, ((nbytes + 63) & ~size_t(63)) - nbytes);
#endif
    std::free(p);
}

ember_status_t write(void*, int, void* buffer, size_t off, const void* src, size_t n) {
    std::memcpy(static_cast<char*>(buffer) + off, src, n);
    return EMBER_OK;
}

ember_status_t read(void*, int, const void* buffer, size_t off, void* dst, size_t n) {
    std::memcpy(dst, static_cast<const char*>(buffer) + off, n);
    return EMBER_OK;
}

ember_status_t synchronize(void*, int) { return EMBER_OK; }

int find_kernel(void* state, const char* op, ember_kernel_t* out) {
    for (auto& [name, fn] : static_cast<State*>(state)->kernels)
        if (std::strcmp(name, op) == 0) {
            *out = ember_kernel_t{fn, nullptr};
            return 1;
        }
    return 0;
}

const ember_backend_iface_t kIface = {
    EMBER_BACKEND_API_VERSION,
    "reference",
    "portable C++ kernels for every op and dtype; the correctness oracle",
    EMBER_BACKEND_HOST_MEMORY,
    init, shutdown, score, nullptr, device_count, device_info, memory_info,
    alloc, release, write, read, synchronize, find_kernel,
};

}  // namespace
}  // namespace ember_ref

extern "C" const ember_backend_iface_t* ember_reference_iface(void) { return &ember_ref::kIface; }
