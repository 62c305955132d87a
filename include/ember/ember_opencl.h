/*
 * Interoperability with the OpenCL backend (docs/opencl.md).
 *
 * libember's ABI knows nothing about OpenCL. The opencl backend module answers one generic
 * query function, `ember_opencl_query`, which this header finds at run time (dlopen with
 * RTLD_NOLOAD on the module libember already loaded, then dlsym) and wraps in the
 * static inline functions below. Programs using them include <CL/cl.h> (this header does)
 * and link OpenCL themselves only if they call OpenCL directly.
 *
 * Every function returns EMBER_ERR_BACKEND_UNAVAILABLE when the opencl module is not
 * loaded (no OpenCL on the machine) or is too old for this header.
 *
 * Retain rules, in one place:
 *  - ember_opencl_device: the platform, device, context and queue are BORROWED. They stay
 *    valid until the process exits (Ember releases them at exit); call clRetain* if you
 *    keep them in an object whose lifetime you cannot bound.
 *  - ember_opencl_add_device: Ember RETAINS your context and queue (clRetainContext,
 *    clRetainCommandQueue) and releases them at exit; you may release your own references
 *    right after the call. The queue must be in-order and belong to the context.
 *  - ember_opencl_tensor_mem: the cl_mem is RETAINED for you: release it with
 *    clReleaseMemObject. Ember never recycles a buffer once it has been handed out (its
 *    memory is freed when both Ember's tensors and your reference are gone). Work Ember has
 *    queued on that buffer runs on the device's queue: use that queue, or call
 *    ember_synchronize (or clFinish on the queue) before touching the buffer from another
 *    queue. Views share their base tensor's buffer: the element (i, j, ...) of t lives at
 *    byte_offset + itemsize * sum(index * stride) with ember_tensor_strides.
 */
#ifndef EMBER_EMBER_OPENCL_H
#define EMBER_EMBER_OPENCL_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "ember/ember.h"

#ifdef __cplusplus
extern "C" {
#endif

#define EMBER_OPENCL_QUERY_VERSION 1
#define EMBER_OPENCL_QUERY_SYMBOL "ember_opencl_query"

/* Requests of ember_opencl_query; `args` points to the struct named with each. */
typedef enum ember_opencl_request {
    EMBER_OPENCL_REQ_DEVICE = 1,        /* ember_opencl_device_t: in .index; out the handles */
    EMBER_OPENCL_REQ_ADD_DEVICE = 2,    /* ember_opencl_device_t: in .context, .queue; out .index */
    EMBER_OPENCL_REQ_CAPTURE_BEGIN = 3, /* NULL: the thread's next write/kernel only records its target */
    EMBER_OPENCL_REQ_CAPTURE_END = 4,   /* ember_opencl_mem_t: out the recorded (retained) buffer */
    EMBER_OPENCL_REQ_WARMUP = 5,        /* ember_opencl_warmup_t */
    EMBER_OPENCL_REQ_SET_SYNC = 6,      /* int*: 1 = every op waits for completion (EMBER_OPENCL_SYNC=1) */
    EMBER_OPENCL_REQ_SET_FP64 = 7,      /* ember_opencl_fp64_t: testing hook, pretend a device lacks fp64 */
    EMBER_OPENCL_REQ_CACHE = 8,         /* ember_opencl_cache_t: cache directory and statistics */
    EMBER_OPENCL_REQ_CACHE_IO = 9       /* ember_opencl_cache_io_t: testing hook, raw cache entries */
} ember_opencl_request_t;

typedef struct ember_opencl_device {
    int index;
    cl_platform_id platform;
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
} ember_opencl_device_t;

typedef struct ember_opencl_mem {
    int keep;            /* in: 1 retain and return the recorded buffer, 0 discard the record */
    cl_mem mem;          /* NULL for a tensor with no elements */
    size_t byte_offset;  /* of the view's element 0 in mem */
    int device;
} ember_opencl_mem_t;

typedef struct ember_opencl_warmup {
    int device;          /* -1: every device */
    int level;           /* 1: build every Ember program; 2: also run CLBlast's GEMM once per precision */
} ember_opencl_warmup_t;

typedef struct ember_opencl_fp64 {
    int device;
    int enabled;         /* 0: report float64 as unsupported (the path of a device without fp64) */
} ember_opencl_fp64_t;

typedef struct ember_opencl_cache {
    const char* set_dir;    /* in: non-NULL changes the directory ("off" or "" disables the disk cache) */
    int drop_programs;      /* in: 1 forgets every built program (the next use loads or builds again) */
    char dir[512];          /* out: the directory in use ("" = disk cache off) */
    uint64_t hits, misses, corrupt, writes, builds;  /* out: counters since start */
} ember_opencl_cache_t;

typedef struct ember_opencl_cache_io {
    const char* dir;
    const char* key;        /* 32 hex characters */
    int store;              /* 1 store data/size, 0 load into data (capacity size; size gets the length) */
    void* data;
    size_t size;
} ember_opencl_cache_io_t;

typedef ember_status_t (*ember_opencl_query_fn)(uint32_t version, int request, void* args);

/* The module's query function, or NULL when the opencl backend is not loaded. */
static inline ember_opencl_query_fn ember_opencl_query_function(void) {
    static ember_opencl_query_fn fn = NULL;
    if (fn) return fn;
    for (int i = 0; i < ember_backend_count(); ++i) {
        const char *name = NULL, *path = NULL;
        int available = 0;
        if (ember_backend_get(i, &name, &available, &path, NULL) != EMBER_OK || !name || strcmp(name, "opencl") != 0 || !path) continue;
        void* h = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
        if (!h) continue;
        void* sym = dlsym(h, EMBER_OPENCL_QUERY_SYMBOL);
        memcpy(&fn, &sym, sizeof fn); /* object -> function pointer without a pedantic cast */
        dlclose(h); /* balances RTLD_NOLOAD's reference; libember keeps the module loaded */
        if (fn) break;
    }
    return fn;
}

/* Calls the module's query function (the EMBER_OPENCL_REQ_* requests above). */
static inline ember_status_t ember_opencl_call(int request, void* args) {
    ember_opencl_query_fn fn = ember_opencl_query_function();
    if (!fn) return EMBER_ERR_BACKEND_UNAVAILABLE;
    return fn(EMBER_OPENCL_QUERY_VERSION, request, args);
}

/* The OpenCL objects behind device `index` of the opencl backend (borrowed). */
static inline ember_status_t ember_opencl_device(int index, ember_opencl_device_t* out) {
    if (!out) return EMBER_ERR_INVALID_ARGUMENT;
    memset(out, 0, sizeof *out);
    out->index = index;
    return ember_opencl_call(EMBER_OPENCL_REQ_DEVICE, out);
}

/* Adds a device that runs on your context and in-order queue; *index receives its device
   number for ember_ctx_create_on("opencl", index, ...). Both are retained (see above). */
static inline ember_status_t ember_opencl_add_device(cl_context context, cl_command_queue queue, int* index) {
    ember_opencl_device_t d;
    memset(&d, 0, sizeof d);
    d.context = context;
    d.queue = queue;
    ember_status_t st = ember_opencl_call(EMBER_OPENCL_REQ_ADD_DEVICE, &d);
    if (st == EMBER_OK && index) *index = d.index;
    return st;
}

/* The buffer holding t (an opencl tensor), retained for you, and the byte offset of t's
   element 0 in it. The buffer is found by asking Ember to write t while the module only
   records the destination, so nothing is changed (a zeroed host buffer of t's size is
   allocated for the duration of the call). */
static inline ember_status_t ember_opencl_tensor_mem(const ember_tensor_t* t, cl_mem* mem, size_t* byte_offset) {
    const char* backend = NULL;
    int device = 0;
    ember_status_t st = ember_tensor_backend(t, &backend, &device);
    if (st != EMBER_OK) return st;
    if (!backend || strcmp(backend, "opencl") != 0) return EMBER_ERR_BACKEND_MISMATCH;
    if (!mem) return EMBER_ERR_INVALID_ARGUMENT;
    int64_t size = 0;
    ember_dtype_t dtype;
    ember_tensor_size(t, &size);
    ember_tensor_dtype(t, &dtype);
    ember_ctx_t* ctx = NULL;
    st = ember_ctx_create_on("opencl", device, &ctx);
    if (st != EMBER_OK) return st;
    size_t nbytes = (size_t)size * ember_dtype_size(dtype);
    /* zeroed source of the right size: the core may read it (it normalises bool bytes) */
    void* zeros = calloc(nbytes ? nbytes : 1, 1);
    if (!zeros) {
        ember_ctx_release(ctx);
        return EMBER_ERR_OUT_OF_MEMORY;
    }
    st = ember_opencl_call(EMBER_OPENCL_REQ_CAPTURE_BEGIN, NULL);
    if (st == EMBER_OK) {
        ember_status_t wst = ember_tensor_write(ctx, (ember_tensor_t*)t, zeros, nbytes);
        ember_opencl_mem_t m;
        memset(&m, 0, sizeof m);
        m.keep = wst == EMBER_OK;
        st = ember_opencl_call(EMBER_OPENCL_REQ_CAPTURE_END, &m);
        if (st == EMBER_OK) st = wst;
        if (st == EMBER_OK) {
            *mem = m.mem;
            if (byte_offset) *byte_offset = m.byte_offset;
        }
    }
    free(zeros);
    ember_ctx_release(ctx);
    return st;
}

/* Compiles ahead of time (level 1: every Ember program; 2: also CLBlast's GEMM kernels).
   EMBER_OPENCL_WARMUP=1 or 2 does the same for every device when the backend initialises
   (on its first use: a context on it, a lookup by name, a listing or automatic selection). */
static inline ember_status_t ember_opencl_warmup(int device, int level) {
    ember_opencl_warmup_t w;
    w.device = device;
    w.level = level;
    return ember_opencl_call(EMBER_OPENCL_REQ_WARMUP, &w);
}

/* 1: every op waits for its kernels and reports execution errors itself (as
   EMBER_OPENCL_SYNC=1); 0: asynchronous (the default). Process-wide. */
static inline ember_status_t ember_opencl_set_sync(int on) { return ember_opencl_call(EMBER_OPENCL_REQ_SET_SYNC, &on); }

#ifdef __cplusplus
}
#endif
#endif
