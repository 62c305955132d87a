/*
 * The backend module interface (docs/backend-guide.md explains it with an example).
 *
 * A backend is a function table plus an opaque state. A loadable module exports one
 * symbol, ember_backend_module, returning its table; the first field is api_version and
 * the loader rejects a mismatch. Backends never see ember_tensor_t: the core validates
 * arguments, infers shapes and dtypes, allocates outputs and hands kernels plain views.
 */
#ifndef EMBER_EMBER_BACKEND_H
#define EMBER_EMBER_BACKEND_H

#include "ember/ember.h"

#ifdef __cplusplus
extern "C" {
#endif

#define EMBER_BACKEND_API_VERSION 1

/* A strided view handed to kernels. For host-memory backends `data` is the host address of
   the storage (element 0 of the buffer); for device backends it is the backend's buffer
   handle (e.g. a cl_mem). The first element of the view is at data + offset elements.
   Strides are in elements and may be 0 (broadcast) or negative (flip). */
typedef struct ember_view {
    void* data;
    int64_t offset;
    int32_t dtype;
    int32_t ndim;
    const int64_t* shape;
    const int64_t* strides;
} ember_view_t;

/* Op attributes; which fields an op reads is documented with the op in the backend guide. */
typedef struct ember_attrs {
    int64_t i[4];
    double f[4];
    uint64_t axes_mask;  /* reductions: bit k set = axis k is reduced */
} ember_attrs_t;

typedef struct ember_kernel_call {
    void* backend;            /* the backend state from init */
    const void* kernel_data;  /* what find_kernel returned alongside the function */
    int device;
    int n_in, n_out;
    const ember_view_t* in;
    const ember_view_t* out;
    const ember_attrs_t* attrs;
} ember_kernel_call_t;

typedef ember_status_t (*ember_kernel_fn)(const ember_kernel_call_t* call);

typedef struct ember_kernel {
    ember_kernel_fn fn;
    const void* data;
} ember_kernel_t;

/* Services the core offers to a backend (no link-time dependency on libember). */
typedef struct ember_host_api {
    uint32_t api_version;
    /* Records the thread's error message; returns status so kernels can `return host->fail(...)`. */
    ember_status_t (*fail)(ember_status_t status, const char* fmt, ...);
    void (*log)(ember_log_level_t level, const char* fmt, ...);
    /* The reference backend's kernel for an op (host-memory backends may delegate to it). */
    int (*reference_kernel)(const char* op, ember_kernel_t* out);
} ember_host_api_t;

#define EMBER_KERNEL_NATIVE 1     /* find_kernel: the backend computes the op itself */
#define EMBER_KERNEL_HOST_COPY 2  /* find_kernel: device -> host copy, host kernel, copy back */
/* find_kernel, or'ed with one of the above, for "sum" and "mean" only. sum: the kernel also
   takes bool and integer inputs narrower than the (u)int64 result as they are and widens
   them itself; without it the core hands the kernel (u)int64 input it has widened first.
   mean: the kernel also takes int64 and uint64 inputs as they are, with a float64 result
   (the mean computed in double); without it the core sums a float64 cast of them. */
#define EMBER_KERNEL_WIDENS_INPUT 4
/* find_kernel, or'ed with one of the above, for "all" and "any" only: the kernel takes x of
   any dtype as it is and tests each element against zero itself (NaN is true, -0.0 false;
   a complex element is true where either part is). Without it the core hands the kernel a
   bool copy of x. */
#define EMBER_KERNEL_TESTS_INPUT 8

#define EMBER_BACKEND_HOST_MEMORY 1u  /* buffers are host pointers: reference kernels may run on them */

typedef struct ember_backend_iface {
    uint32_t api_version;
    const char* name;
    const char* description;
    uint32_t flags;
    /* Creates the backend state. A backend with no usable device returns EMBER_OK and
       reports 0 devices / score 0 (it is then listed as unavailable with a reason). */
    ember_status_t (*init)(const ember_host_api_t* host, void** state);
    void (*shutdown)(void* state);
    /* Auto-selection rank: 0 = unusable. Reference scores 10, a CPU library 50, a GPU 100. */
    int (*score)(void* state);
    /* Why the backend is unusable when score is 0 (may be NULL). */
    const char* (*unavailable_reason)(void* state);
    int (*device_count)(void* state);
    ember_status_t (*device_info)(void* state, int device, ember_device_info_t* info);
    ember_status_t (*memory_info)(void* state, int device, ember_memory_info_t* info);
    /* Memory. alloc of 0 bytes must succeed (a non-NULL handle or NULL are both fine). */
    ember_status_t (*alloc)(void* state, int device, size_t nbytes, void** buffer);
    void (*free)(void* state, int device, void* buffer);
    ember_status_t (*write)(void* state, int device, void* buffer, size_t byte_offset, const void* src, size_t nbytes);
    ember_status_t (*read)(void* state, int device, const void* buffer, size_t byte_offset, void* dst, size_t nbytes);
    /* Waits for queued work; reports errors deferred from asynchronous execution. */
    ember_status_t (*synchronize)(void* state, int device);
    /* Looks up the kernel for an op by its op-table name (called once per op when a
       backend is first activated, never per call). Returns 0 if absent, else fills *out and
       returns EMBER_KERNEL_NATIVE, or EMBER_KERNEL_HOST_COPY for a kernel that copies its
       operands to host memory, computes there and copies the results back (reported to
       users as the binding "host", so nobody mistakes it for device execution); either may
       be or'ed with EMBER_KERNEL_WIDENS_INPUT or EMBER_KERNEL_TESTS_INPUT where that flag's
       op allows it. */
    int (*find_kernel)(void* state, const char* op, ember_kernel_t* out);
} ember_backend_iface_t;

/* The one symbol a backend module exports. */
typedef const ember_backend_iface_t* (*ember_backend_module_fn)(uint32_t host_api_version);
#define EMBER_BACKEND_MODULE_SYMBOL "ember_backend_module"

#ifdef __cplusplus
}
#endif
#endif
