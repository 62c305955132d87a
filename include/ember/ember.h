/*
 * Ember: a tensor library with a stable C ABI.
 *
 * Conventions (docs/c-api.md has the full guide):
 *  - Every fallible function returns ember_status_t (EMBER_OK == 0); results come back
 *    through out-parameters, which are left untouched when the call fails.
 *  - After a failure ember_last_error() returns a thread-local message naming the
 *    function and the cause. It stays valid until the next Ember call on that thread.
 *  - create / copy / every op output: the caller owns the handle and releases it.
 *    get: borrowed. *_release accepts NULL and never fails. *_retain adds a reference.
 *  - A context is used by one thread at a time; a finished tensor may be read from many.
 *  - Nothing is printed; set a log callback with ember_set_log_callback.
 */
#ifndef EMBER_EMBER_H
#define EMBER_EMBER_H

#include <stddef.h>
#include <stdint.h>

#include "ember/ember_export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- versioning */
#define EMBER_VERSION_MAJOR 0
#define EMBER_VERSION_MINOR 1
#define EMBER_VERSION_PATCH 0
#define EMBER_VERSION_STRING "0.1.0"
#define EMBER_VERSION_NUMBER (EMBER_VERSION_MAJOR * 10000 + EMBER_VERSION_MINOR * 100 + EMBER_VERSION_PATCH)
/* The ABI major is the SONAME: libember.so.<EMBER_ABI_VERSION>. Functions are only appended. */
#define EMBER_ABI_VERSION 0

/* Returns the run-time version as EMBER_VERSION_NUMBER; *text (optional) gets "0.1.0". */
EMBER_API int ember_version(const char** text);

/* ---------------------------------------------------------------- status codes */
/* Stable, grouped numbers. Never renumbered; new codes are only added. */
typedef enum ember_status {
    EMBER_OK = 0,
    EMBER_ERR_INVALID_ARGUMENT = 100,   /* NULL handle, out-of-range value, bad flag */
    EMBER_ERR_INDEX = 101,              /* axis or index out of range */
    EMBER_ERR_OVERFLOW = 102,           /* an integer scalar does not fit the dtype it meets */
    EMBER_ERR_SHAPE = 200,              /* shapes do not match / cannot broadcast */
    EMBER_ERR_UNSUPPORTED_DTYPE = 300,  /* op not defined for this dtype (on this device) */
    EMBER_ERR_UNSUPPORTED = 400,        /* op not available on the active backend */
    EMBER_ERR_BACKEND_MISMATCH = 500,   /* tensors of different backends/devices mixed */
    EMBER_ERR_BACKEND_UNAVAILABLE = 501,/* unknown backend name or device */
    EMBER_ERR_OUT_OF_MEMORY = 600,
    EMBER_ERR_DEVICE = 601,             /* a device or driver call failed */
    EMBER_ERR_IO = 700,                 /* file could not be read or written */
    EMBER_ERR_FORMAT = 701,             /* malformed file or config contents */
    EMBER_ERR_PLUGIN = 800,             /* backend module failed to load */
    EMBER_ERR_LINALG = 900,             /* singular / not positive definite / no convergence */
    EMBER_ERR_INTERNAL = 1000
} ember_status_t;

/* Static text describing a status code ("shape mismatch"). Never NULL. */
EMBER_API const char* ember_status_string(ember_status_t status);
/* Thread-local message of the last failure on this thread ("" if none). Owned by Ember. */
EMBER_API const char* ember_last_error(void);
EMBER_API ember_status_t ember_last_status(void);
EMBER_API void ember_clear_error(void);

typedef enum ember_log_level { EMBER_LOG_DEBUG = 0, EMBER_LOG_INFO = 1, EMBER_LOG_WARN = 2, EMBER_LOG_ERROR = 3 } ember_log_level_t;
typedef void (*ember_log_fn)(ember_log_level_t level, const char* message, void* user_data);
/* Process-wide; NULL removes the callback. Messages below min_level are dropped. */
EMBER_API void ember_set_log_callback(ember_log_fn fn, void* user_data, ember_log_level_t min_level);

/* ---------------------------------------------------------------- dtypes */
/* Values are stable. ember_dtype_to_dlpack maps each 1:1 to DLPack {code, bits, lanes}. */
typedef enum ember_dtype {
    EMBER_BOOL = 0,
    EMBER_INT8 = 1, EMBER_INT16 = 2, EMBER_INT32 = 3, EMBER_INT64 = 4,
    EMBER_UINT8 = 5, EMBER_UINT16 = 6, EMBER_UINT32 = 7, EMBER_UINT64 = 8,
    EMBER_FLOAT16 = 9, EMBER_BFLOAT16 = 10, EMBER_FLOAT32 = 11, EMBER_FLOAT64 = 12,
    EMBER_COMPLEX64 = 13, EMBER_COMPLEX128 = 14
} ember_dtype_t;
#define EMBER_DTYPE_COUNT 15
/* Pass as a dtype argument to mean "the context's default for this kind". */
#define EMBER_DTYPE_DEFAULT (-1)

EMBER_API const char* ember_dtype_name(ember_dtype_t dtype);          /* "float32"; NULL if invalid */
EMBER_API ember_status_t ember_dtype_from_name(const char* name, ember_dtype_t* out);
EMBER_API size_t ember_dtype_size(ember_dtype_t dtype);               /* bytes; 0 if invalid */
EMBER_API ember_status_t ember_dtype_to_dlpack(ember_dtype_t dtype, uint8_t* code, uint8_t* bits, uint16_t* lanes);
EMBER_API ember_status_t ember_dtype_from_dlpack(uint8_t code, uint8_t bits, uint16_t lanes, ember_dtype_t* out);
/* Array API promotion of two dtypes (no value-based casting). */
EMBER_API ember_status_t ember_result_type(ember_dtype_t a, ember_dtype_t b, ember_dtype_t* out);
/* 1 if casting from -> to loses nothing under the promotion rules. */
EMBER_API int ember_can_cast(ember_dtype_t from, ember_dtype_t to);

/* ---------------------------------------------------------------- handles */
typedef struct ember_ctx ember_ctx_t;
typedef struct ember_tensor ember_tensor_t;

#define EMBER_MAX_DIMS 16
/* Axis argument meaning "no axis: operate on the flattened tensor". */
#define EMBER_AXIS_NONE INT64_MIN

/* ---------------------------------------------------------------- registry and backends */
typedef enum ember_device_type { EMBER_DEVICE_CPU = 1, EMBER_DEVICE_GPU = 2, EMBER_DEVICE_ACCELERATOR = 3, EMBER_DEVICE_OTHER = 4 } ember_device_type_t;

typedef struct ember_device_info {
    char name[128];
    char vendor[64];
    char driver[64];
    ember_device_type_t type;
    int compute_units;
    uint64_t memory_bytes;     /* 0 if unknown */
    int supports_fp64;
    int supports_fp16;
} ember_device_info_t;

typedef struct ember_memory_info {
    uint64_t total_bytes;      /* device memory, 0 if unknown */
    uint64_t free_bytes;       /* 0 if unknown */
    uint64_t allocated_bytes;  /* live tensor memory allocated by this backend */
    uint64_t cached_bytes;     /* held by a caching allocator for reuse */
    uint64_t limit_bytes;      /* cache bound, 0 if none */
} ember_memory_info_t;

/* Registered backends: those that loaded and those that failed (available == 0). */
EMBER_API int ember_backend_count(void);
/* Borrowed strings, valid for the life of the process. reason: why unavailable, else "". */
EMBER_API ember_status_t ember_backend_get(int index, const char** name, int* available, const char** path, const char** reason);
EMBER_API ember_status_t ember_backend_score(const char* name, int* score);
EMBER_API ember_status_t ember_backend_device_count(const char* name, int* count);
EMBER_API ember_status_t ember_backend_device_info(const char* name, int device, ember_device_info_t* info);
/* Load a backend module from an explicit path (before or after the registry scan). */
EMBER_API ember_status_t ember_backend_load(const char* path);

/* Op metadata from the op table. */
EMBER_API int ember_op_count(void);
/* kind: "primitive" or "composite"; signature: the entry point shape ("unary", ...). */
EMBER_API ember_status_t ember_op_info(int index, const char** name, const char** kind, const char** signature, const char** doc);
/* How an op is bound on a backend: "native" (the backend's own kernel), "host" (the backend
   copies operands to host memory, runs a host kernel there and copies back), "composite",
   "reference" (the reference kernel on the backend's host memory, no copy), "unsupported". */
EMBER_API ember_status_t ember_op_binding(const char* backend, const char* op, const char** binding);

/* ---------------------------------------------------------------- contexts */
typedef enum ember_selection_source {
    EMBER_SOURCE_CALL = 0, EMBER_SOURCE_ENV = 1, EMBER_SOURCE_CONFIG = 2, EMBER_SOURCE_AUTO = 3
} ember_selection_source_t;

/* Creates a context on the selected backend: EMBER_BACKEND/EMBER_DEVICE, then the config
   file (EMBER_CONFIG or ~/.ember/config.json), then the highest score. */
EMBER_API ember_status_t ember_ctx_create(ember_ctx_t** out);
/* Creates a context on a named backend and device (device -1: the backend's default). */
EMBER_API ember_status_t ember_ctx_create_on(const char* backend, int device, ember_ctx_t** out);
EMBER_API void ember_ctx_retain(ember_ctx_t* ctx);
EMBER_API void ember_ctx_release(ember_ctx_t* ctx);
/* A process-wide default context, created on first use; borrowed, never release it. */
EMBER_API ember_status_t ember_default_ctx(ember_ctx_t** out);

#define EMBER_PERSIST 1u   /* set_backend flag: also write the choice to the config file */
EMBER_API ember_status_t ember_ctx_set_backend(ember_ctx_t* ctx, const char* backend, int device, unsigned flags);
EMBER_API ember_status_t ember_ctx_get_backend(const ember_ctx_t* ctx, const char** backend, int* device);
EMBER_API ember_status_t ember_ctx_selection_source(const ember_ctx_t* ctx, ember_selection_source_t* source);
/* Scoped switch, the C analog of `with using_backend(...)`: push activates, pop restores. */
EMBER_API ember_status_t ember_ctx_push_backend(ember_ctx_t* ctx, const char* backend, int device);
EMBER_API ember_status_t ember_ctx_pop_backend(ember_ctx_t* ctx);
/* Default dtype for float results of integer inputs and for creation with EMBER_DTYPE_DEFAULT. */
EMBER_API ember_status_t ember_ctx_set_default_float(ember_ctx_t* ctx, ember_dtype_t dtype);
EMBER_API ember_status_t ember_ctx_get_default_float(const ember_ctx_t* ctx, ember_dtype_t* dtype);

/* Devices of the active backend. */
EMBER_API ember_status_t ember_ctx_device_count(const ember_ctx_t* ctx, int* count);
EMBER_API ember_status_t ember_ctx_device_info(const ember_ctx_t* ctx, int device, ember_device_info_t* info);
EMBER_API ember_status_t ember_ctx_memory_info(const ember_ctx_t* ctx, ember_memory_info_t* info);
/* Waits for all queued work on the active device; reports deferred execution errors. */
EMBER_API ember_status_t ember_synchronize(ember_ctx_t* ctx);

/* ---------------------------------------------------------------- tensors: create, wrap, read */
EMBER_API ember_status_t ember_tensor_from_data(ember_ctx_t* ctx, const void* data, ember_dtype_t dtype,
                                                const int64_t* shape, int ndim, ember_tensor_t** out);
/* Wraps caller memory (host backends only); the caller keeps it alive while any view lives.
   bool memory must hold only the bytes 0 and 1 (from_data and write normalise, wrap cannot).
   strides may be NULL (C-contiguous); strides are in elements. */
EMBER_API ember_status_t ember_tensor_wrap(ember_ctx_t* ctx, void* data, ember_dtype_t dtype, const int64_t* shape,
                                           const int64_t* strides, int ndim, ember_tensor_t** out);
typedef void (*ember_deleter_fn)(void* data, void* user_data);
/* Adopts caller memory: Ember calls deleter(data, user_data) when the last view dies.
   On failure the memory is NOT adopted (the caller still owns it). */
EMBER_API ember_status_t ember_tensor_adopt(ember_ctx_t* ctx, void* data, ember_dtype_t dtype, const int64_t* shape,
                                            const int64_t* strides, int ndim, ember_deleter_fn deleter,
                                            void* user_data, ember_tensor_t** out);
/* Weak scalars: 0-d tensors that take the other operand's dtype kind in promotion
   (a Python float added to a float16 tensor stays float16). */
EMBER_API ember_status_t ember_scalar_f64(ember_ctx_t* ctx, double value, ember_tensor_t** out);
EMBER_API ember_status_t ember_scalar_i64(ember_ctx_t* ctx, int64_t value, ember_tensor_t** out);
EMBER_API ember_status_t ember_scalar_bool(ember_ctx_t* ctx, int value, ember_tensor_t** out);
EMBER_API ember_status_t ember_scalar_c128(ember_ctx_t* ctx, double real, double imag, ember_tensor_t** out);
/* A strongly typed 0-d tensor holding value converted to dtype. */
EMBER_API ember_status_t ember_tensor_from_f64(ember_ctx_t* ctx, double value, ember_dtype_t dtype, ember_tensor_t** out);

EMBER_API void ember_tensor_retain(ember_tensor_t* t);
EMBER_API void ember_tensor_release(ember_tensor_t* t);
/* Number of live tensor handles in the process (for leak checks in bindings). */
EMBER_API int64_t ember_live_tensor_count(void);

EMBER_API ember_status_t ember_tensor_ndim(const ember_tensor_t* t, int* ndim);
EMBER_API ember_status_t ember_tensor_dtype(const ember_tensor_t* t, ember_dtype_t* dtype);
/* shape/strides: borrowed arrays of ndim elements valid while t lives (NULL for 0-d). */
EMBER_API ember_status_t ember_tensor_shape(const ember_tensor_t* t, const int64_t** shape);
EMBER_API ember_status_t ember_tensor_strides(const ember_tensor_t* t, const int64_t** strides);
EMBER_API ember_status_t ember_tensor_offset(const ember_tensor_t* t, int64_t* offset);
EMBER_API ember_status_t ember_tensor_size(const ember_tensor_t* t, int64_t* size);
EMBER_API ember_status_t ember_tensor_is_contiguous(const ember_tensor_t* t, int* contiguous);
EMBER_API ember_status_t ember_tensor_is_weak(const ember_tensor_t* t, int* weak);
/* Marks the memory under t (and so every view of it) read-only, for good: ember_assign,
 * ember_elementwise_into and ember_tensor_write into it then fail with
 * EMBER_ERR_INVALID_ARGUMENT. For memory the caller must not write (a read-only mapping,
 * a DLPack import flagged read-only); ops that make new tensors are unaffected. */
EMBER_API ember_status_t ember_tensor_set_read_only(ember_tensor_t* t);
EMBER_API ember_status_t ember_tensor_is_read_only(const ember_tensor_t* t, int* read_only);
/* *result = 1 when a and b may reach the same memory. exact = 0: their storages are one and
 * the byte ranges their elements span overlap (NumPy's may_share_memory); exact = 1: some
 * element of a and some element of b share a byte (NumPy's shares_memory), which costs one
 * pass over one view's elements when the other has no gaps, else the smaller view's size in
 * memory and n log n in time. Empty views share nothing. */
EMBER_API ember_status_t ember_tensor_shares_memory(const ember_tensor_t* a, const ember_tensor_t* b, int exact, int* result);
EMBER_API ember_status_t ember_tensor_backend(const ember_tensor_t* t, const char** backend, int* device);
/* Host address of element 0 for host-memory backends (borrowed); EMBER_ERR_UNSUPPORTED on devices. */
EMBER_API ember_status_t ember_tensor_host_data(const ember_tensor_t* t, void** data);
/* Copies the elements, in C order, to dst (nbytes >= size * itemsize). Synchronises. */
EMBER_API ember_status_t ember_tensor_read(const ember_tensor_t* t, void* dst, size_t nbytes);
/* Copies C-ordered host data into t (which must be contiguous or a writable view). */
EMBER_API ember_status_t ember_tensor_write(ember_ctx_t* ctx, ember_tensor_t* t, const void* src, size_t nbytes);
/* The single value of a 0-d or 1-element tensor, converted to double / int64 / complex. */
EMBER_API ember_status_t ember_tensor_item_f64(const ember_tensor_t* t, double* value);
EMBER_API ember_status_t ember_tensor_item_i64(const ember_tensor_t* t, int64_t* value);
EMBER_API ember_status_t ember_tensor_item_c128(const ember_tensor_t* t, double* real, double* imag);
/* Moves (copies) t to the context's active backend and device. Host-memory backends share
   the storage without a copy. */
EMBER_API ember_status_t ember_tensor_to(ember_ctx_t* ctx, const ember_tensor_t* t, ember_tensor_t** out);

/* ---------------------------------------------------------------- views (no copy) */
EMBER_API ember_status_t ember_reshape(ember_ctx_t* ctx, const ember_tensor_t* x, const int64_t* shape, int ndim, ember_tensor_t** out);
/* Like reshape but fails with EMBER_ERR_SHAPE instead of copying. */
EMBER_API ember_status_t ember_view(ember_ctx_t* ctx, const ember_tensor_t* x, const int64_t* shape, int ndim, ember_tensor_t** out);
EMBER_API ember_status_t ember_permute_dims(ember_ctx_t* ctx, const ember_tensor_t* x, const int64_t* axes, int naxes, ember_tensor_t** out);
/* Reverses all axes (the array API's .T for any rank; matrix_transpose swaps the last two). */
EMBER_API ember_status_t ember_transpose(ember_ctx_t* ctx, const ember_tensor_t* x, ember_tensor_t** out);
EMBER_API ember_status_t ember_matrix_transpose(ember_ctx_t* ctx, const ember_tensor_t* x, ember_tensor_t** out);
EMBER_API ember_status_t ember_moveaxis(ember_ctx_t* ctx, const ember_tensor_t* x, int64_t source, int64_t destination, ember_tensor_t** out);
EMBER_API ember_status_t ember_swapaxes(ember_ctx_t* ctx, const ember_tensor_t* x, int64_t axis1, int64_t axis2, ember_tensor_t** out);
EMBER_API ember_status_t ember_expand_dims(ember_ctx_t* ctx, const ember_tensor_t* x, int64_t axis, ember_tensor_t** out);
/* axes NULL: every axis of length 1. */
EMBER_API ember_status_t ember_squeeze(ember_ctx_t* ctx, const ember_tensor_t* x, const int64_t* axes, int naxes, ember_tensor_t** out);
EMBER_API ember_status_t ember_flatten(ember_ctx_t* ctx, const ember_tensor_t* x, ember_tensor_t** out);
EMBER_API ember_status_t ember_broadcast_to(ember_ctx_t* ctx, const ember_tensor_t* x, const int64_t* shape, int ndim, ember_tensor_t** out);
/* Python-style slice of each leading axis: start/stop/step arrays of n entries;
   EMBER_SLICE_END in stop means "to the end" (for negative steps: "past the beginning"). */
#define EMBER_SLICE_END INT64_MAX
EMBER_API ember_status_t ember_slice(ember_ctx_t* ctx, const ember_tensor_t* x, const int64_t* start, const int64_t* stop,
                                     const int64_t* step, int n, ember_tensor_t** out);
/* A view of x's memory with any geometry, in elements (NumPy's as_strided,
   torch.as_strided): its first element `offset` elements from x's first one, then shape and
   strides (negative and 0 allowed). EMBER_ERR_INDEX if an element of the view lies outside
   the memory x's storage holds (for caller memory, from ember_tensor_wrap or _adopt: outside
   the bytes the wrapping tensor reached). Positions that share an element alias it: a write
   through such a view writes it once per position. */
EMBER_API ember_status_t ember_as_strided(ember_ctx_t* ctx, const ember_tensor_t* x, const int64_t* shape, const int64_t* strides,
                                          int ndim, int64_t offset, ember_tensor_t** out);
/* x[index] along axis (drops the axis). */
EMBER_API ember_status_t ember_select(ember_ctx_t* ctx, const ember_tensor_t* x, int64_t axis, int64_t index, ember_tensor_t** out);
EMBER_API ember_status_t ember_diagonal(ember_ctx_t* ctx, const ember_tensor_t* x, int64_t offset, ember_tensor_t** out);
EMBER_API ember_status_t ember_real(ember_ctx_t* ctx, const ember_tensor_t* x, ember_tensor_t** out);
EMBER_API ember_status_t ember_imag(ember_ctx_t* ctx, const ember_tensor_t* x, ember_tensor_t** out);

/* ---------------------------------------------------------------- creation */
EMBER_API ember_status_t ember_empty(ember_ctx_t* ctx, const int64_t* shape, int ndim, int dtype, ember_tensor_t** out);
EMBER_API ember_status_t ember_zeros(ember_ctx_t* ctx, const int64_t* shape, int ndim, int dtype, ember_tensor_t** out);
EMBER_API ember_status_t ember_ones(ember_ctx_t* ctx, const int64_t* shape, int ndim, int dtype, ember_tensor_t** out);
EMBER_API ember_status_t ember_full(ember_ctx_t* ctx, const int64_t* shape, int ndim, double value, int dtype, ember_tensor_t** out);
/* dtype EMBER_DTYPE_DEFAULT: same dtype as x. The result keeps x's dense layout as an
 * elementwise result does (see "Layout of results" below). */
EMBER_API ember_status_t ember_empty_like(ember_ctx_t* ctx, const ember_tensor_t* x, int dtype, ember_tensor_t** out);
EMBER_API ember_status_t ember_zeros_like(ember_ctx_t* ctx, const ember_tensor_t* x, int dtype, ember_tensor_t** out);
EMBER_API ember_status_t ember_ones_like(ember_ctx_t* ctx, const ember_tensor_t* x, int dtype, ember_tensor_t** out);
EMBER_API ember_status_t ember_full_like(ember_ctx_t* ctx, const ember_tensor_t* x, double value, int dtype, ember_tensor_t** out);
/* dtype EMBER_DTYPE_DEFAULT: int64 if start, stop and step are integral, else the default float. */
EMBER_API ember_status_t ember_arange(ember_ctx_t* ctx, double start, double stop, double step, int dtype, ember_tensor_t** out);
EMBER_API ember_status_t ember_linspace(ember_ctx_t* ctx, double start, double stop, int64_t num, int endpoint, int dtype, ember_tensor_t** out);
EMBER_API ember_status_t ember_eye(ember_ctx_t* ctx, int64_t n_rows, int64_t n_cols, int64_t k, int dtype, ember_tensor_t** out);
EMBER_API ember_status_t ember_tril(ember_ctx_t* ctx, const ember_tensor_t* x, int64_t k, ember_tensor_t** out);
EMBER_API ember_status_t ember_triu(ember_ctx_t* ctx, const ember_tensor_t* x, int64_t k, ember_tensor_t** out);
/* indexing: 0 = "xy" (Cartesian), 1 = "ij" (matrix). outs receives n tensors. */
EMBER_API ember_status_t ember_meshgrid(ember_ctx_t* ctx, const ember_tensor_t* const* xs, int n, int indexing, ember_tensor_t** outs);

/* ---------------------------------------------------------------- ops with their own signatures */
/* Layout of results (docs/c-api.md): new tensors are dense. Elementwise results (the unary
 * and binary ops, ember_where, ember_clip, ember_gelu, ember_leaky_relu), ember_astype and
 * the *_like creators keep the one layout that their full-shape, dense operands share (exp
 * of a transpose is a transpose, as NumPy's order='K'); every other result, and every
 * result of operands that disagree, is in C order. */
EMBER_API ember_status_t ember_astype(ember_ctx_t* ctx, const ember_tensor_t* x, ember_dtype_t dtype, ember_tensor_t** out);
/* A contiguous copy (on the same backend). */
EMBER_API ember_status_t ember_copy(ember_ctx_t* ctx, const ember_tensor_t* x, ember_tensor_t** out);
/* Copies src (broadcast) into the view dst, converting dtype. src may overlap dst (x[1:] = x[:-1]):
 * dst gets the values src had before the call. Leading axes of length 1 that src has beyond
 * dst's are dropped, as in NumPy (a (1, 4) src into a row of 4). */
EMBER_API ember_status_t ember_assign(ember_ctx_t* ctx, ember_tensor_t* dst, const ember_tensor_t* src);
/* Runs the elementwise (UNARY or BINARY) op named `op` on the n tensors xs and writes the
 * result into out, which must have the broadcast result's shape; out keeps its dtype (the
 * result is converted as by ember_assign) and may be one of the inputs: `a += b` is
 * ember_elementwise_into(ctx, "add", (a, b), 2, a). Inputs that overlap out other than
 * element for element are read before anything is written. out may not be a broadcast
 * view (a stride of 0 along an axis longer than 1). */
EMBER_API ember_status_t ember_elementwise_into(ember_ctx_t* ctx, const char* op, const ember_tensor_t* const* xs, int n,
                                                ember_tensor_t* out);
/* lo or hi may be NULL. */
EMBER_API ember_status_t ember_clip(ember_ctx_t* ctx, const ember_tensor_t* x, const ember_tensor_t* lo, const ember_tensor_t* hi, ember_tensor_t** out);
EMBER_API ember_status_t ember_where(ember_ctx_t* ctx, const ember_tensor_t* cond, const ember_tensor_t* a, const ember_tensor_t* b, ember_tensor_t** out);
EMBER_API ember_status_t ember_isclose(ember_ctx_t* ctx, const ember_tensor_t* a, const ember_tensor_t* b, double rtol, double atol, int equal_nan, ember_tensor_t** out);
EMBER_API ember_status_t ember_allclose(ember_ctx_t* ctx, const ember_tensor_t* a, const ember_tensor_t* b, double rtol, double atol, int equal_nan, int* result);
/* decimals: like numpy.round (half to even). */
EMBER_API ember_status_t ember_round_decimals(ember_ctx_t* ctx, const ember_tensor_t* x, int decimals, ember_tensor_t** out);
EMBER_API ember_status_t ember_leaky_relu(ember_ctx_t* ctx, const ember_tensor_t* x, double negative_slope, ember_tensor_t** out);
/* approximate: 0 = exact erf form, 1 = tanh approximation. */
EMBER_API ember_status_t ember_gelu(ember_ctx_t* ctx, const ember_tensor_t* x, int approximate, ember_tensor_t** out);

/* Reductions. axes == NULL: all axes. */
EMBER_API ember_status_t ember_var(ember_ctx_t* ctx, const ember_tensor_t* x, const int64_t* axes, int naxes, int keepdims, double ddof, ember_tensor_t** out);
EMBER_API ember_status_t ember_std(ember_ctx_t* ctx, const ember_tensor_t* x, const int64_t* axes, int naxes, int keepdims, double ddof, ember_tensor_t** out);
/* axis EMBER_AXIS_NONE: index into the flattened tensor. */
EMBER_API ember_status_t ember_argmax(ember_ctx_t* ctx, const ember_tensor_t* x, int64_t axis, int keepdims, ember_tensor_t** out);
EMBER_API ember_status_t ember_argmin(ember_ctx_t* ctx, const ember_tensor_t* x, int64_t axis, int keepdims, ember_tensor_t** out);
/* Scans. axis EMBER_AXIS_NONE: over the flattened tensor. */
EMBER_API ember_status_t ember_cumsum(ember_ctx_t* ctx, const ember_tensor_t* x, int64_t axis, ember_tensor_t** out);
EMBER_API ember_status_t ember_cumprod(ember_ctx_t* ctx, const ember_tensor_t* x, int64_t axis, ember_tensor_t** out);
EMBER_API ember_status_t ember_softmax(ember_ctx_t* ctx, const ember_tensor_t* x, int64_t axis, ember_tensor_t** out);
EMBER_API ember_status_t ember_log_softmax(ember_ctx_t* ctx, const ember_tensor_t* x, int64_t axis, ember_tensor_t** out);

/* Manipulation. */
EMBER_API ember_status_t ember_concat(ember_ctx_t* ctx, const ember_tensor_t* const* xs, int n, int64_t axis, ember_tensor_t** out);
EMBER_API ember_status_t ember_stack(ember_ctx_t* ctx, const ember_tensor_t* const* xs, int n, int64_t axis, ember_tensor_t** out);
/* Splits into `sections` equal parts, or at the n_indices sorted indices when indices != NULL.
   outs must hold the resulting count (sections, or n_indices + 1) handles. The results are views. */
EMBER_API ember_status_t ember_split(ember_ctx_t* ctx, const ember_tensor_t* x, int64_t sections, const int64_t* indices,
                                     int n_indices, int64_t axis, ember_tensor_t** outs);
EMBER_API ember_status_t ember_tile(ember_ctx_t* ctx, const ember_tensor_t* x, const int64_t* reps, int nreps, ember_tensor_t** out);
/* Repeats each element `repeats` times along axis (EMBER_AXIS_NONE: the flattened tensor). */
EMBER_API ember_status_t ember_repeat(ember_ctx_t* ctx, const ember_tensor_t* x, int64_t repeats, int64_t axis, ember_tensor_t** out);
typedef enum ember_pad_mode { EMBER_PAD_CONSTANT = 0, EMBER_PAD_EDGE = 1, EMBER_PAD_REFLECT = 2, EMBER_PAD_WRAP = 3 } ember_pad_mode_t;
/* pad_width: 2*ndim entries (before, after) per axis. */
EMBER_API ember_status_t ember_pad(ember_ctx_t* ctx, const ember_tensor_t* x, const int64_t* pad_width, ember_pad_mode_t mode,
                                   double value, ember_tensor_t** out);
/* axes NULL: all axes. */
EMBER_API ember_status_t ember_flip(ember_ctx_t* ctx, const ember_tensor_t* x, const int64_t* axes, int naxes, ember_tensor_t** out);
/* axes NULL: roll the flattened tensor by shifts[0]. */
EMBER_API ember_status_t ember_roll(ember_ctx_t* ctx, const ember_tensor_t* x, const int64_t* shifts, const int64_t* axes, int n, ember_tensor_t** out);
/* Gathers whole slices along axis by an integer index tensor (numpy.take). */
EMBER_API ember_status_t ember_take(ember_ctx_t* ctx, const ember_tensor_t* x, const ember_tensor_t* indices, int64_t axis, ember_tensor_t** out);
/* numpy.take_along_axis / torch.gather. */
EMBER_API ember_status_t ember_take_along_axis(ember_ctx_t* ctx, const ember_tensor_t* x, const ember_tensor_t* indices, int64_t axis, ember_tensor_t** out);
typedef enum ember_scatter_reduce { EMBER_SCATTER_ADD = 0, EMBER_SCATTER_MEAN = 1, EMBER_SCATTER_MAX = 2, EMBER_SCATTER_MIN = 3, EMBER_SCATTER_REPLACE = 4 } ember_scatter_reduce_t;
/* Scatters src slices along axis into a new tensor whose extent along axis is dim_size
   (-1: max(index)+1): out[..., index[i], ...] (op)= src[..., i, ...]. index is 1-d of length
   src.shape[axis]. Untouched positions are 0. */
EMBER_API ember_status_t ember_scatter(ember_ctx_t* ctx, const ember_tensor_t* src, const ember_tensor_t* index, int64_t axis,
                                       int64_t dim_size, ember_scatter_reduce_t reduce, ember_tensor_t** out);
EMBER_API ember_status_t ember_one_hot(ember_ctx_t* ctx, const ember_tensor_t* indices, int64_t depth, int dtype, ember_tensor_t** out);
/* Returns one int64 tensor of shape (count, ndim) with the coordinates of non-zero elements. */
EMBER_API ember_status_t ember_nonzero(ember_ctx_t* ctx, const ember_tensor_t* x, ember_tensor_t** out);
/* Stable sort along axis. */
EMBER_API ember_status_t ember_sort(ember_ctx_t* ctx, const ember_tensor_t* x, int64_t axis, int descending, ember_tensor_t** out);
EMBER_API ember_status_t ember_argsort(ember_ctx_t* ctx, const ember_tensor_t* x, int64_t axis, int descending, ember_tensor_t** out);

/* Linear algebra core. */
EMBER_API ember_status_t ember_matmul(ember_ctx_t* ctx, const ember_tensor_t* a, const ember_tensor_t* b, ember_tensor_t** out);
EMBER_API ember_status_t ember_dot(ember_ctx_t* ctx, const ember_tensor_t* a, const ember_tensor_t* b, ember_tensor_t** out);
/* Contracts the last `axes` dims of a with the first of b (n_pairs < 0), or the listed pairs. */
EMBER_API ember_status_t ember_tensordot(ember_ctx_t* ctx, const ember_tensor_t* a, const ember_tensor_t* b, int64_t axes,
                                         const int64_t* axes_a, const int64_t* axes_b, int n_pairs, ember_tensor_t** out);
EMBER_API ember_status_t ember_outer(ember_ctx_t* ctx, const ember_tensor_t* a, const ember_tensor_t* b, ember_tensor_t** out);
EMBER_API ember_status_t ember_vecdot(ember_ctx_t* ctx, const ember_tensor_t* a, const ember_tensor_t* b, int64_t axis, ember_tensor_t** out);
EMBER_API ember_status_t ember_trace(ember_ctx_t* ctx, const ember_tensor_t* x, int64_t offset, ember_tensor_t** out);

#include "ember/ember_ops.h"
/* Families with their own entry points (issue 3); each header is owned by its family. */
#include "ember/ember_linalg.h"
#include "ember/ember_random.h"
#include "ember/ember_stats.h"
#include "ember/ember_signal.h"
#include "ember/ember_io.h"

#ifdef __cplusplus
}
#endif
#endif
