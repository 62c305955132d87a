/*
 * The one SWIG interface of Ember, shared by the Python (bindings/python) and Lua bindings.
 *
 *   swig -python -builtin -threads -DSWIGWORDSIZE64 -Iinclude bindings/ember.i
 *   swig -lua -DSWIGWORDSIZE64 -Iinclude -module ember_c bindings/ember.i
 *
 * What is shared (language-neutral):
 *  - opaque handles: `struct ember_tensor` is wrapped as the class `Tensor`, whose
 *    destructor calls ember_tensor_release; every `ember_tensor_t** out` parameter becomes
 *    a returned, owned Tensor (%newobject semantics: the wrapper owns the new handle).
 *  - contexts never appear in the target language: every `ember_ctx_t* ctx` parameter is
 *    filled with the calling thread's binding context (ember_binding_ctx below), which
 *    follows the process-wide choice made with ember_binding_set_backend and the scoped
 *    ember_ctx_push_backend / ember_ctx_pop_backend of that thread.
 *  - every function returning ember_status_t is checked in one place: a failing status
 *    raises a target-language error carrying ember_last_error() (EMBER_SWIG_RAISE).
 *    This is a typemap on the *type* ember_status_t rather than a global %exception so
 *    that functions appended to ember.h returning other types can never be misread.
 *  - out-parameters (ints, doubles, dtypes, strings, device/memory info) become returns.
 * Language-specific parts sit under SWIGPYTHON / SWIGLUA.
 */
#ifdef SWIGPYTHON
%module(package="ember") _ember_c
#else
%module ember_c
#endif

%{
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include "ember/ember.h"

/* Weak: a build against an ember_io.h without dictionaries still loads. */
extern void ember_tensor_dict_release(struct ember_tensor_dict* dict) __attribute__((weak));

/* ---------------------------------------------------------------- the binding context
 * One ember_ctx_t per OS thread (a context is used by one thread at a time), created on
 * first use with ember_ctx_create (env / config / auto selection). A process-wide choice
 * (ember_binding_set_backend) bumps a generation counter; each thread's context catches
 * up on its next call. Scoped switches (push/pop) stay per thread. */
static pthread_key_t ember_binding_key;
static pthread_once_t ember_binding_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t ember_binding_mutex = PTHREAD_MUTEX_INITIALIZER;
static __thread ember_ctx_t* ember_binding_tls_ctx = NULL;
static __thread unsigned ember_binding_tls_gen = 0;
static unsigned ember_binding_gen = 0;           /* guarded by the mutex; read racily */
static char ember_binding_backend[128] = "";     /* "" : no process-wide choice yet */
static int ember_binding_device = -1;

static void ember_binding_release_ctx(void* p) { ember_ctx_release((ember_ctx_t*)p); }
static void ember_binding_make_key(void) { pthread_key_create(&ember_binding_key, ember_binding_release_ctx); }

static ember_ctx_t* ember_binding_ctx_slow(void) {
    ember_ctx_t* ctx = ember_binding_tls_ctx;
    char backend[128];
    int device;
    unsigned gen;
    pthread_mutex_lock(&ember_binding_mutex);
    memcpy(backend, ember_binding_backend, sizeof backend);
    device = ember_binding_device;
    gen = ember_binding_gen;
    pthread_mutex_unlock(&ember_binding_mutex);
    if (!ctx) {
        ember_status_t st = backend[0] ? ember_ctx_create_on(backend, device, &ctx) : ember_ctx_create(&ctx);
        if (st != EMBER_OK) return NULL;
        pthread_once(&ember_binding_once, ember_binding_make_key);
        pthread_setspecific(ember_binding_key, ctx);
        ember_binding_tls_ctx = ctx;
    } else if (backend[0]) {
        if (ember_ctx_set_backend(ctx, backend, device, 0) != EMBER_OK) return NULL;
    }
    ember_binding_tls_gen = gen;
    return ctx;
}

/* The calling thread's context, or NULL with ember_last_error() set. */
static ember_ctx_t* ember_binding_ctx(void) {
    ember_ctx_t* ctx = ember_binding_tls_ctx;
    if (ctx && ember_binding_tls_gen == __atomic_load_n(&ember_binding_gen, __ATOMIC_RELAXED)) return ctx;
    return ember_binding_ctx_slow();
}

/* Switches every thread's binding context (this one at once, the others on their next
 * call). flags: EMBER_PERSIST also writes the user config file. */
static ember_status_t ember_binding_set_backend(const char* backend, int device, unsigned flags) {
    ember_ctx_t* ctx = ember_binding_ctx();
    if (!ctx) return ember_last_status();
    if (!backend || strlen(backend) >= sizeof ember_binding_backend) {
        return ember_ctx_set_backend(ctx, "", device, flags); /* lets the core report it */
    }
    ember_status_t st = ember_ctx_set_backend(ctx, backend, device, flags);
    if (st != EMBER_OK) return st;
    pthread_mutex_lock(&ember_binding_mutex);
    strcpy(ember_binding_backend, backend);
    ember_binding_device = device;
    __atomic_store_n(&ember_binding_gen, ember_binding_gen + 1, __ATOMIC_RELAXED);
    ember_binding_tls_gen = ember_binding_gen;
    pthread_mutex_unlock(&ember_binding_mutex);
    return EMBER_OK;
}
%}

/* int64_t is `long` on LP64: build with -DSWIGWORDSIZE64. */
%include <stdint.i>
%include <typemaps.i>

#define EMBER_API
%ignore ember_binding_ctx_slow;

/* ---------------------------------------------------------------- the Tensor handle */
%rename(Tensor) ember_tensor;
%feature("nothread") ember_tensor::~ember_tensor;   /* the destructor keeps the GIL: releasing it costs more than the release */
%nodefaultctor ember_tensor;
struct ember_tensor {};
%extend ember_tensor {
    ~ember_tensor() { ember_tensor_release($self); }
}

/* Tensor dictionaries (ember_io.h): an owned handle like Tensor. */
%rename(TensorDict) ember_tensor_dict;
%nodefaultctor ember_tensor_dict;
struct ember_tensor_dict {};
%extend ember_tensor_dict {
    ~ember_tensor_dict() { if (ember_tensor_dict_release) ember_tensor_dict_release($self); }
}
%ignore ember_tensor_dict_release;
%ignore ember_io_free;

/* Things a target language never sees or gets through its own helpers. */
%ignore ember_ctx_create;
%ignore ember_ctx_create_on;
%ignore ember_ctx_retain;
%ignore ember_ctx_release;
%ignore ember_default_ctx;
%ignore ember_ctx_set_backend;   /* ember_binding_set_backend instead */
%ignore ember_tensor_retain;
%ignore ember_tensor_release;
%ignore ember_tensor_adopt;      /* function-pointer deleters: per-language helpers */
%ignore ember_set_log_callback;  /* per-language helpers */
%ignore ember_log_fn;
%ignore ember_deleter_fn;
%ignore ember_split;             /* variable number of outputs: per-language helpers */
%ignore ember_meshgrid;
%ignore ember_tensor_shape;      /* borrowed arrays: per-language accessors */
%ignore ember_tensor_strides;
%ignore ember_tensor_from_data;  /* raw memory: per-language helpers */
%ignore ember_tensor_wrap;
%ignore ember_tensor_read;
%ignore ember_tensor_write;
%ignore ember_tensor_host_data;

/* ================================================================ Python */
#ifdef SWIGPYTHON
%{
/* status code -> exception class, registered by the pure-Python layer
   (ember._errors); a plain RuntimeError until then. */
static PyObject* ember_py_error_map = NULL;

static void ember_py_raise_status(ember_status_t st) {
    const char* msg = ember_last_error();
    if (!msg || !*msg) msg = ember_status_string(st);
    PyObject* cls = NULL;
    if (ember_py_error_map) {
        PyObject* key = PyLong_FromLong((long)st);
        if (key) {
            cls = PyDict_GetItem(ember_py_error_map, key); /* borrowed */
            Py_DECREF(key);
        }
    }
    if (!cls) cls = PyExc_RuntimeError;
    PyObject* exc = PyObject_CallFunction(cls, "s", msg);
    if (!exc) return; /* the constructor raised: keep that error */
    PyObject* code = PyLong_FromLong((long)st);
    if (code) {
        PyObject_SetAttrString(exc, "status", code);
        Py_DECREF(code);
    }
    PyErr_SetObject(cls, exc);
    Py_DECREF(exc);
}
#define EMBER_SWIG_RAISE(st) do { ember_py_raise_status(st); SWIG_fail; } while (0)

/* A sequence of ints (or one int, or None) as int64_t values. */
typedef struct { int64_t* p; int n; int heap; int64_t small[32]; } ember_py_i64s;

static int ember_py_to_i64s(PyObject* o, ember_py_i64s* out, int allow_none) {
    out->p = NULL; out->n = 0; out->heap = 0;
    if (o == Py_None) {
        if (allow_none) return 1;
        PyErr_SetString(PyExc_TypeError, "expected a sequence of ints, got None");
        return 0;
    }
    if (PyLong_Check(o) || (PyIndex_Check(o) && !PySequence_Check(o))) {
        long long v = PyLong_AsLongLong(o);
        if (v == -1 && PyErr_Occurred()) return 0;
        out->small[0] = (int64_t)v; out->p = out->small; out->n = 1;
        return 1;
    }
    PyObject* seq = PySequence_Fast(o, "expected a sequence of ints");
    if (!seq) return 0;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > 0x7fffffff) { Py_DECREF(seq); PyErr_SetString(PyExc_ValueError, "sequence too long"); return 0; }
    out->p = out->small;
    if (n > 32) {
        out->p = (int64_t*)malloc((size_t)n * sizeof(int64_t));
        if (!out->p) { Py_DECREF(seq); PyErr_NoMemory(); return 0; }
        out->heap = 1;
    } else {
        memset(out->small, 0, sizeof out->small);
    }
    PyObject** items = PySequence_Fast_ITEMS(seq);
    for (Py_ssize_t i = 0; i < n; ++i) {
        long long v = PyLong_AsLongLong(items[i]);
        if (v == -1 && PyErr_Occurred()) {
            PyObject* idx = PyNumber_Index(items[i]);
            if (!idx) { Py_DECREF(seq); if (out->heap) free(out->p); out->heap = 0; return 0; }
            PyErr_Clear();
            v = PyLong_AsLongLong(idx);
            Py_DECREF(idx);
            if (v == -1 && PyErr_Occurred()) { Py_DECREF(seq); if (out->heap) free(out->p); out->heap = 0; return 0; }
        }
        out->p[i] = (int64_t)v;
    }
    out->n = (int)n;
    Py_DECREF(seq);
    return 1;
}

static PyObject* ember_py_i64_tuple(const int64_t* p, int n) {
    PyObject* t = PyTuple_New(n);
    if (!t) return NULL;
    for (int i = 0; i < n; ++i) {
        PyObject* v = PyLong_FromLongLong((long long)p[i]);
        if (!v) { Py_DECREF(t); return NULL; }
        PyTuple_SET_ITEM(t, i, v);
    }
    return t;
}
%}

/* The thread's context: never an argument on the Python side. */
%typemap(in, numinputs=0) ember_ctx_t* ctx, const ember_ctx_t* ctx {
    $1 = ember_binding_ctx();
    if (!$1) EMBER_SWIG_RAISE(ember_last_status());
}

/* Status: raise on failure, otherwise return None (or the out-parameters). */
%typemap(out) ember_status_t {
    if ($1 != EMBER_OK) EMBER_SWIG_RAISE($1);
    $result = SWIG_Py_Void();
}

/* New handles come back as owned Tensor objects. */
%typemap(in, numinputs=0) ember_tensor_t** out (ember_tensor_t* temp = NULL) { $1 = &temp; }
%typemap(argout) ember_tensor_t** out {
    $result = SWIG_Python_AppendOutput($result, SWIG_NewPointerObj(SWIG_as_voidptr(temp$argnum), $descriptor(ember_tensor_t*), SWIG_POINTER_OWN));
}

/* Further owned outputs (several per call: unique, topk, histogram, average). */
%typemap(in, numinputs=0) ember_tensor_t** values (ember_tensor_t* temp = NULL), ember_tensor_t** indices (ember_tensor_t* temp = NULL),
                          ember_tensor_t** inverse (ember_tensor_t* temp = NULL), ember_tensor_t** counts (ember_tensor_t* temp = NULL),
                          ember_tensor_t** edges (ember_tensor_t* temp = NULL), ember_tensor_t** sum_of_weights (ember_tensor_t* temp = NULL) { $1 = &temp; }
%typemap(argout) ember_tensor_t** values, ember_tensor_t** indices, ember_tensor_t** inverse, ember_tensor_t** counts,
                 ember_tensor_t** edges, ember_tensor_t** sum_of_weights {
    $result = SWIG_Python_AppendOutput($result, SWIG_NewPointerObj(SWIG_as_voidptr(temp$argnum), $descriptor(ember_tensor_t*), SWIG_POINTER_OWN));
}
/* Any other `ember_tensor_t**` of the C API is an output too (linalg's q, r, u, s, vh, w,
   v, x, lu, ...; split and meshgrid, whose outputs are arrays, are ignored above). An
   optional output left NULL comes back as None. */
%typemap(in, numinputs=0) ember_tensor_t** (ember_tensor_t* temp = NULL) { $1 = &temp; }
%typemap(argout) ember_tensor_t** {
    $result = SWIG_Python_AppendOutput($result, SWIG_NewPointerObj(SWIG_as_voidptr(temp$argnum), $descriptor(ember_tensor_t*), SWIG_POINTER_OWN));
}
/* ...but tensor arrays *in* (const ember_tensor_t* const* xs) are not outputs. */
%typemap(argout) const ember_tensor_t* const* "";
%typemap(argout) (const ember_tensor_t* const* xs, int n) "";
/* Borrowed tensors out (dictionary entries): retained, then owned by the wrapper. */
%typemap(in, numinputs=0) ember_tensor_t** tensor (ember_tensor_t* temp = NULL) { $1 = &temp; }
%typemap(argout) ember_tensor_t** tensor {
    if (temp$argnum) ember_tensor_retain(temp$argnum);
    $result = SWIG_Python_AppendOutput($result, SWIG_NewPointerObj(SWIG_as_voidptr(temp$argnum), $descriptor(ember_tensor_t*), SWIG_POINTER_OWN));
}
%typemap(in, numinputs=0) ember_tensor_dict_t** out (ember_tensor_dict_t* temp = NULL) { $1 = &temp; }
%typemap(argout) ember_tensor_dict_t** out {
    $result = SWIG_Python_AppendOutput($result, SWIG_NewPointerObj(SWIG_as_voidptr(temp$argnum), $descriptor(ember_tensor_dict_t*), SWIG_POINTER_OWN));
}
/* Buffers Ember allocates (the *_buffer savers) come back as bytes. */
%typemap(in, numinputs=0) (void** data, size_t* size) (void* tdata = NULL, size_t tsize = 0) { $1 = &tdata; $2 = &tsize; }
%typemap(argout) (void** data, size_t* size) {
    $result = SWIG_Python_AppendOutput($result, PyBytes_FromStringAndSize((const char*)tdata$argnum, (Py_ssize_t)tsize$argnum));
    ember_io_free(tdata$argnum);  /* declared with the *_buffer savers */
}
/* Caller memory in (the *_buffer loaders): any bytes-like object. */
%typemap(in) (const void* data, size_t size) (Py_buffer view, int have = 0) {
    if (PyObject_GetBuffer($input, &view, PyBUF_C_CONTIGUOUS) != 0) SWIG_fail;
    have = 1;
    $1 = view.buf; $2 = (size_t)view.len;
}
%typemap(freearg) (const void* data, size_t size) { if (have$argnum) PyBuffer_Release(&view$argnum); }
%apply long* OUTPUT { int64_t* count };

/* Strings out. */
%typemap(in, numinputs=0) const char** (const char* temp = NULL) { $1 = ($1_ltype)&temp; }
%typemap(argout) const char** {
    $result = SWIG_Python_AppendOutput($result, temp$argnum ? PyUnicode_FromString(temp$argnum) : SWIG_Py_Void());
}

/* Enums out. */
%typemap(in, numinputs=0) ember_dtype_t* (ember_dtype_t temp = EMBER_BOOL) { $1 = &temp; }
%typemap(argout) ember_dtype_t* { $result = SWIG_Python_AppendOutput($result, PyLong_FromLong((long)temp$argnum)); }
%typemap(in, numinputs=0) ember_selection_source_t* (ember_selection_source_t temp = EMBER_SOURCE_CALL) { $1 = &temp; }
%typemap(argout) ember_selection_source_t* { $result = SWIG_Python_AppendOutput($result, PyLong_FromLong((long)temp$argnum)); }

/* Host address (an int) of element 0. */
%typemap(in, numinputs=0) void** data (void* temp = NULL) { $1 = &temp; }
%typemap(argout) void** data { $result = SWIG_Python_AppendOutput($result, PyLong_FromVoidPtr(temp$argnum)); }

/* int64 arrays in: a sequence of ints, one int, or None (NULL, 0). */
%typemap(in) (const int64_t* shape, int ndim) (ember_py_i64s buf),
             (const int64_t* axes, int naxes) (ember_py_i64s buf),
             (const int64_t* reps, int nreps) (ember_py_i64s buf),
             (const int64_t* indices, int n_indices) (ember_py_i64s buf) {
    if (!ember_py_to_i64s($input, &buf, 1)) SWIG_fail;
    $1 = buf.p; $2 = buf.n;
}
/* $1 (NULL until the in typemap succeeds) guards buf: a call that fails before the
   conversion (wrong argument count, an earlier argument of the wrong type) jumps to the same
   cleanup with buf never written. */
%typemap(freearg) (const int64_t* shape, int ndim), (const int64_t* axes, int naxes),
                  (const int64_t* reps, int nreps), (const int64_t* indices, int n_indices) {
    if ($1 && buf$argnum.heap) free(buf$argnum.p);
}
/* Lone int64 arrays (their count is an explicit argument, or implied: pad_width). Always
   at least 32 zero-filled entries, so a short sequence cannot be over-read. (A shape
   followed by its ndim is the pair above: a multi-argument typemap takes precedence.) */
%typemap(in) const int64_t* start (ember_py_i64s buf), const int64_t* stop (ember_py_i64s buf),
             const int64_t* step (ember_py_i64s buf), const int64_t* shifts (ember_py_i64s buf),
             const int64_t* axes_a (ember_py_i64s buf), const int64_t* axes_b (ember_py_i64s buf),
             const int64_t* pad_width (ember_py_i64s buf), const int64_t* axes (ember_py_i64s buf),
             const int64_t* s (ember_py_i64s buf), const int64_t* shape (ember_py_i64s buf),
             const int64_t* strides (ember_py_i64s buf) {
    if (!ember_py_to_i64s($input, &buf, 1)) SWIG_fail;
    $1 = buf.p;
}
%typemap(freearg) const int64_t* start, const int64_t* stop, const int64_t* step, const int64_t* shifts,
                  const int64_t* axes_a, const int64_t* axes_b, const int64_t* pad_width, const int64_t* axes,
                  const int64_t* s, const int64_t* shape, const int64_t* strides {
    if ($1 && buf$argnum.heap) free(buf$argnum.p);  /* $1: as above */
}

/* A sequence of Tensors in. */
%typemap(in) (const ember_tensor_t* const* xs, int n) (ember_tensor_t** arr = NULL) {
    PyObject* seq = PySequence_Fast($input, "expected a sequence of Tensors");
    if (!seq) SWIG_fail;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    arr = (ember_tensor_t**)calloc(n ? (size_t)n : 1, sizeof(ember_tensor_t*));
    for (Py_ssize_t i = 0; i < n; ++i) {
        void* p = NULL;
        if (!SWIG_IsOK(SWIG_ConvertPtr(PySequence_Fast_GET_ITEM(seq, i), &p, $descriptor(ember_tensor_t*), 0))) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_TypeError, "expected a sequence of Tensors");
            SWIG_fail;
        }
        arr[i] = (ember_tensor_t*)p;
    }
    Py_DECREF(seq);
    $1 = ($1_ltype)arr; $2 = (int)n;
}
%typemap(freearg) (const ember_tensor_t* const* xs, int n) { free(arr$argnum); }

/* Scalars out. */
%apply int* OUTPUT { int* ndim, int* device, int* available, int* score, int* count, int* contiguous, int* weak, int* read_only, int* result };
%apply double* OUTPUT { double* value, double* real, double* imag };
%apply long* OUTPUT { int64_t* size, int64_t* offset, int64_t* value };
%apply unsigned char* OUTPUT { uint8_t* code, uint8_t* bits };
%apply unsigned short* OUTPUT { uint16_t* lanes };

/* Device and memory info come back as new struct objects. */
%typemap(in, numinputs=0) ember_device_info_t* info (ember_device_info_t temp) { memset(&temp, 0, sizeof temp); $1 = &temp; }
%typemap(argout) ember_device_info_t* info {
    ember_device_info_t* copy = (ember_device_info_t*)malloc(sizeof *copy);
    *copy = temp$argnum;
    $result = SWIG_Python_AppendOutput($result, SWIG_NewPointerObj(copy, $descriptor(ember_device_info_t*), SWIG_POINTER_OWN));
}
%typemap(in, numinputs=0) ember_memory_info_t* info (ember_memory_info_t temp) { memset(&temp, 0, sizeof temp); $1 = &temp; }
%typemap(argout) ember_memory_info_t* info {
    ember_memory_info_t* copy = (ember_memory_info_t*)malloc(sizeof *copy);
    *copy = temp$argnum;
    $result = SWIG_Python_AppendOutput($result, SWIG_NewPointerObj(copy, $descriptor(ember_memory_info_t*), SWIG_POINTER_OWN));
}

/* Cheap accessors keep the GIL (releasing it would cost more than the call). */
%define EMBER_NOTHREAD(name) %feature("nothread") name; %enddef
EMBER_NOTHREAD(ember_version) EMBER_NOTHREAD(ember_status_string) EMBER_NOTHREAD(ember_last_error)
EMBER_NOTHREAD(ember_last_status) EMBER_NOTHREAD(ember_clear_error) EMBER_NOTHREAD(ember_dtype_name)
EMBER_NOTHREAD(ember_dtype_from_name) EMBER_NOTHREAD(ember_dtype_size) EMBER_NOTHREAD(ember_dtype_to_dlpack)
EMBER_NOTHREAD(ember_dtype_from_dlpack) EMBER_NOTHREAD(ember_result_type) EMBER_NOTHREAD(ember_can_cast)
EMBER_NOTHREAD(ember_live_tensor_count) EMBER_NOTHREAD(ember_tensor_ndim) EMBER_NOTHREAD(ember_tensor_dtype)
EMBER_NOTHREAD(ember_tensor_offset) EMBER_NOTHREAD(ember_tensor_size) EMBER_NOTHREAD(ember_tensor_is_contiguous)
EMBER_NOTHREAD(ember_tensor_is_weak) EMBER_NOTHREAD(ember_tensor_is_read_only) EMBER_NOTHREAD(ember_tensor_set_read_only) EMBER_NOTHREAD(ember_tensor_backend) EMBER_NOTHREAD(ember_scalar_f64)
EMBER_NOTHREAD(ember_scalar_i64) EMBER_NOTHREAD(ember_scalar_bool) EMBER_NOTHREAD(ember_scalar_c128)
EMBER_NOTHREAD(ember_tensor_from_f64) EMBER_NOTHREAD(ember_op_count) EMBER_NOTHREAD(ember_op_info)
EMBER_NOTHREAD(ember_backend_count) EMBER_NOTHREAD(ember_backend_get) EMBER_NOTHREAD(ember_ctx_get_backend)
EMBER_NOTHREAD(ember_ctx_get_default_float) EMBER_NOTHREAD(ember_ctx_selection_source)
EMBER_NOTHREAD(ember_binding_set_backend) EMBER_NOTHREAD(ember_py_shape) EMBER_NOTHREAD(ember_py_meta)
EMBER_NOTHREAD(ember_py_set_error_map) EMBER_NOTHREAD(ember_py_strides) EMBER_NOTHREAD(ember_py_host_address)
EMBER_NOTHREAD(ember_py_same) EMBER_NOTHREAD(ember_py_handle_id) EMBER_NOTHREAD(ember_py_set_log_callback)
EMBER_NOTHREAD(ember_tensor_item_f64) EMBER_NOTHREAD(ember_tensor_item_i64) EMBER_NOTHREAD(ember_tensor_item_c128)
EMBER_NOTHREAD(ember_reshape) EMBER_NOTHREAD(ember_view) EMBER_NOTHREAD(ember_select) EMBER_NOTHREAD(ember_slice) EMBER_NOTHREAD(ember_as_strided)
EMBER_NOTHREAD(ember_expand_dims) EMBER_NOTHREAD(ember_squeeze) EMBER_NOTHREAD(ember_transpose)
EMBER_NOTHREAD(ember_matrix_transpose) EMBER_NOTHREAD(ember_permute_dims) EMBER_NOTHREAD(ember_broadcast_to)
EMBER_NOTHREAD(ember_ctx_push_backend) EMBER_NOTHREAD(ember_ctx_pop_backend)
EMBER_NOTHREAD(ember_backend_score) EMBER_NOTHREAD(ember_op_binding)

%nothread;   /* the helpers below call the Python API: they release the GIL themselves */
%inline %{
/* ---- Python-only helpers (the Lua binding has its own under SWIGLUA) ---- */

/* Registers {status: exception class} (ember._errors does this at import). */
static PyObject* ember_py_set_error_map(PyObject* mapping) {
    if (!PyDict_Check(mapping)) { PyErr_SetString(PyExc_TypeError, "expected a dict"); return NULL; }
    Py_XDECREF(ember_py_error_map);
    Py_INCREF(mapping);
    ember_py_error_map = mapping;
    Py_RETURN_NONE;
}

/* (shape tuple) of a tensor. */
static PyObject* ember_py_shape(const ember_tensor_t* t) {
    int nd; const int64_t* sh = NULL;
    ember_status_t st = ember_tensor_ndim(t, &nd);
    if (st == EMBER_OK) st = ember_tensor_shape(t, &sh);
    if (st != EMBER_OK) { ember_py_raise_status(st); return NULL; }
    return ember_py_i64_tuple(sh, nd);
}
/* (strides tuple, in elements) of a tensor. */
static PyObject* ember_py_strides(const ember_tensor_t* t) {
    int nd; const int64_t* s = NULL;
    ember_status_t st = ember_tensor_ndim(t, &nd);
    if (st == EMBER_OK) st = ember_tensor_strides(t, &s);
    if (st != EMBER_OK) { ember_py_raise_status(st); return NULL; }
    return ember_py_i64_tuple(s, nd);
}
/* (shape, dtype, backend, device) in one call. */
static PyObject* ember_py_meta(const ember_tensor_t* t) {
    int nd, dev; const int64_t* sh = NULL; ember_dtype_t dt; const char* be = NULL;
    ember_status_t st = ember_tensor_ndim(t, &nd);
    if (st == EMBER_OK) st = ember_tensor_shape(t, &sh);
    if (st == EMBER_OK) st = ember_tensor_dtype(t, &dt);
    if (st == EMBER_OK) st = ember_tensor_backend(t, &be, &dev);
    if (st != EMBER_OK) { ember_py_raise_status(st); return NULL; }
    PyObject* shape = ember_py_i64_tuple(sh, nd);
    if (!shape) return NULL;
    return Py_BuildValue("(Nisi)", shape, (int)dt, be, dev);
}
/* Address of element 0 for host tensors, or None on device backends. */
static PyObject* ember_py_host_address(const ember_tensor_t* t) {
    void* p = NULL;
    ember_status_t st = ember_tensor_host_data(t, &p);
    if (st == EMBER_ERR_UNSUPPORTED) { ember_clear_error(); Py_RETURN_NONE; }
    if (st != EMBER_OK) { ember_py_raise_status(st); return NULL; }
    return PyLong_FromVoidPtr(p);
}
/* An integer identifying the handle (for debugging and identity checks). */
static PyObject* ember_py_handle_id(const ember_tensor_t* t) { return PyLong_FromVoidPtr((void*)t); }

/* A new tensor copying a C-contiguous buffer (bytes, memoryview, NumPy array...). */
static PyObject* ember_py_from_buffer(PyObject* obj, int dtype, PyObject* shape) {
    ember_py_i64s sh;
    Py_buffer view;
    ember_ctx_t* ctx = ember_binding_ctx();
    if (!ctx) { ember_py_raise_status(ember_last_status()); return NULL; }
    if (!ember_py_to_i64s(shape, &sh, 0)) return NULL;
    if (PyObject_GetBuffer(obj, &view, PyBUF_C_CONTIGUOUS) != 0) { if (sh.heap) free(sh.p); return NULL; }
    size_t itemsize = ember_dtype_size((ember_dtype_t)dtype);
    long long count = 1;
    for (int i = 0; i < sh.n; ++i) count *= sh.p[i] < 0 ? 0 : sh.p[i];
    if (itemsize == 0 || (long long)view.len < count * (long long)itemsize) {
        PyBuffer_Release(&view);
        if (sh.heap) free(sh.p);
        PyErr_Format(PyExc_ValueError, "buffer of %zd bytes is too small for %lld elements of %zu bytes",
                     view.len, count, itemsize);
        return NULL;
    }
    ember_tensor_t* out = NULL;
    ember_status_t st;
    Py_BEGIN_ALLOW_THREADS
    st = ember_tensor_from_data(ctx, view.buf, (ember_dtype_t)dtype, sh.p, sh.n, &out);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&view);
    if (sh.heap) free(sh.p);
    if (st != EMBER_OK) { ember_py_raise_status(st); return NULL; }
    return SWIG_InternalNewPointerObj(out, SWIGTYPE_p_ember_tensor, SWIG_POINTER_OWN);
}

/* Zero-copy: a tensor over memory at `address` (shape, strides in elements; None: C
   order) owned by `owner`, which is kept alive until the last view of the storage dies. */
static void ember_py_decref_deleter(void* data, void* user) {
    PyGILState_STATE g = PyGILState_Ensure();
    Py_DECREF((PyObject*)user);
    PyGILState_Release(g);
}
static PyObject* ember_py_wrap_address(PyObject* owner, size_t address, int dtype, PyObject* shape, PyObject* strides) {
    ember_py_i64s sh, sd;
    ember_ctx_t* ctx = ember_binding_ctx();
    if (!ctx) { ember_py_raise_status(ember_last_status()); return NULL; }
    if (!ember_py_to_i64s(shape, &sh, 0)) return NULL;
    if (!ember_py_to_i64s(strides, &sd, 1)) { if (sh.heap) free(sh.p); return NULL; }
    if (sd.p && sd.n != sh.n) {
        if (sh.heap) free(sh.p); if (sd.heap) free(sd.p);
        PyErr_SetString(PyExc_ValueError, "strides and shape differ in length");
        return NULL;
    }
    ember_tensor_t* out = NULL;
    Py_INCREF(owner);
    ember_status_t st = ember_tensor_adopt(ctx, (void*)address, (ember_dtype_t)dtype, sh.p, sd.p, sh.n,
                                           ember_py_decref_deleter, owner, &out);
    if (sh.heap) free(sh.p);
    if (sd.heap) free(sd.p);
    if (st != EMBER_OK) { Py_DECREF(owner); ember_py_raise_status(st); return NULL; }
    return SWIG_InternalNewPointerObj(out, SWIGTYPE_p_ember_tensor, SWIG_POINTER_OWN);
}

/* Copies the elements (C order) into a writable buffer of at least size*itemsize bytes. */
static PyObject* ember_py_read_into(const ember_tensor_t* t, PyObject* dst) {
    Py_buffer view;
    if (PyObject_GetBuffer(dst, &view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) != 0) return NULL;
    ember_status_t st;
    Py_BEGIN_ALLOW_THREADS
    st = ember_tensor_read(t, view.buf, (size_t)view.len);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&view);
    if (st != EMBER_OK) { ember_py_raise_status(st); return NULL; }
    Py_RETURN_NONE;
}
/* The elements as bytes (C order). */
static PyObject* ember_py_to_bytes(const ember_tensor_t* t) {
    int64_t n; ember_dtype_t dt;
    ember_status_t st = ember_tensor_size(t, &n);
    if (st == EMBER_OK) st = ember_tensor_dtype(t, &dt);
    if (st != EMBER_OK) { ember_py_raise_status(st); return NULL; }
    Py_ssize_t nbytes = (Py_ssize_t)(n * (int64_t)ember_dtype_size(dt));
    PyObject* b = PyBytes_FromStringAndSize(NULL, nbytes);
    if (!b) return NULL;
    Py_BEGIN_ALLOW_THREADS
    st = ember_tensor_read(t, PyBytes_AS_STRING(b), (size_t)nbytes);
    Py_END_ALLOW_THREADS
    if (st != EMBER_OK) { Py_DECREF(b); ember_py_raise_status(st); return NULL; }
    return b;
}
/* Copies C-ordered data from a buffer into t. */
static PyObject* ember_py_write_from(ember_tensor_t* t, PyObject* src) {
    Py_buffer view;
    ember_ctx_t* ctx = ember_binding_ctx();
    if (!ctx) { ember_py_raise_status(ember_last_status()); return NULL; }
    if (PyObject_GetBuffer(src, &view, PyBUF_C_CONTIGUOUS) != 0) return NULL;
    ember_status_t st;
    Py_BEGIN_ALLOW_THREADS
    st = ember_tensor_write(ctx, t, view.buf, (size_t)view.len);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&view);
    if (st != EMBER_OK) { ember_py_raise_status(st); return NULL; }
    Py_RETURN_NONE;
}

/* ember_split / ember_meshgrid with a list of outputs. */
static PyObject* ember_py_outs_to_list(ember_tensor_t** outs, int n) {
    PyObject* list = PyList_New(n);
    for (int i = 0; i < n; ++i)
        PyList_SET_ITEM(list, i, SWIG_InternalNewPointerObj(outs[i], SWIGTYPE_p_ember_tensor, SWIG_POINTER_OWN));
    return list;
}
static PyObject* ember_py_split(const ember_tensor_t* x, long sections, PyObject* indices, long axis) {
    ember_py_i64s ix;
    ember_ctx_t* ctx = ember_binding_ctx();
    if (!ctx) { ember_py_raise_status(ember_last_status()); return NULL; }
    if (!ember_py_to_i64s(indices, &ix, 1)) return NULL;
    long count = ix.p ? ix.n + 1 : sections;
    if (count <= 0 || count > (1L << 24)) {
        if (ix.heap) free(ix.p);
        PyErr_Format(PyExc_ValueError, "ember.split: number of sections must be positive, got %ld", count);
        return NULL;
    }
    ember_tensor_t** outs = (ember_tensor_t**)calloc((size_t)count, sizeof(ember_tensor_t*));
    ember_status_t st = ember_split(ctx, x, sections, ix.p, ix.n, axis, outs);
    if (ix.heap) free(ix.p);
    if (st != EMBER_OK) { free(outs); ember_py_raise_status(st); return NULL; }
    PyObject* r = ember_py_outs_to_list(outs, (int)count);
    free(outs);
    return r;
}
static PyObject* ember_py_meshgrid(PyObject* tensors, int indexing) {
    ember_ctx_t* ctx = ember_binding_ctx();
    if (!ctx) { ember_py_raise_status(ember_last_status()); return NULL; }
    PyObject* seq = PySequence_Fast(tensors, "expected a sequence of Tensors");
    if (!seq) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    ember_tensor_t** xs = (ember_tensor_t**)calloc(n ? n : 1, sizeof(ember_tensor_t*));
    ember_tensor_t** outs = (ember_tensor_t**)calloc(n ? n : 1, sizeof(ember_tensor_t*));
    for (Py_ssize_t i = 0; i < n; ++i) {
        void* p = NULL;
        if (!SWIG_IsOK(SWIG_ConvertPtr(PySequence_Fast_GET_ITEM(seq, i), &p, SWIGTYPE_p_ember_tensor, 0))) {
            free(xs); free(outs); Py_DECREF(seq);
            PyErr_SetString(PyExc_TypeError, "expected a sequence of Tensors");
            return NULL;
        }
        xs[i] = (ember_tensor_t*)p;
    }
    ember_status_t st = ember_meshgrid(ctx, (const ember_tensor_t* const*)xs, (int)n, indexing, outs);
    Py_DECREF(seq);
    free(xs);
    if (st != EMBER_OK) { free(outs); ember_py_raise_status(st); return NULL; }
    PyObject* r = ember_py_outs_to_list(outs, (int)n);
    free(outs);
    return r;
}

%}


%{
/* Log messages to a Python callable fn(level, message). */
static PyObject* ember_py_log_fn = NULL;
static void ember_py_log_trampoline(ember_log_level_t level, const char* message, void* user) {
    PyGILState_STATE g = PyGILState_Ensure();
    if (ember_py_log_fn) {
        PyObject* r = PyObject_CallFunction(ember_py_log_fn, "is", (int)level, message);
        if (!r) PyErr_WriteUnraisable(ember_py_log_fn);
        Py_XDECREF(r);
    }
    PyGILState_Release(g);
}

#include <structmember.h>
/* ---- The operator fast path: the pure-Python Array class (ember._array.Array, with a
   __slots__ member `_h` holding the Tensor) is registered once; these helpers take Arrays
   or Python scalars and return a new Array without going back through Python code. */
typedef ember_status_t (*ember_py_unary_fn)(ember_ctx_t*, const ember_tensor_t*, ember_tensor_t**);
typedef ember_status_t (*ember_py_binary_fn)(ember_ctx_t*, const ember_tensor_t*, const ember_tensor_t*, ember_tensor_t**);
typedef ember_status_t (*ember_py_reduce_fn)(ember_ctx_t*, const ember_tensor_t*, const int64_t*, int, int, ember_tensor_t**);

#define EMBER_PY_UNARY_OPS(X) X(negative) X(positive) X(abs) X(sign) X(sqrt) X(square) X(exp) X(expm1) \
    X(log) X(log1p) X(log2) X(log10) X(sin) X(cos) X(tan) X(asin) X(acos) X(atan) X(sinh) X(cosh) X(tanh) \
    X(asinh) X(acosh) X(atanh) X(erf) X(erfc) X(cbrt) X(floor) X(ceil) X(round) X(trunc) X(reciprocal) X(isnan) X(isinf) \
    X(isfinite) X(signbit) X(conj) X(logical_not) X(bitwise_invert) X(sigmoid) X(relu) X(softplus) X(silu) \
    X(transpose) X(matrix_transpose) X(flatten) X(copy) X(real) X(imag) X(nonzero)
#define EMBER_PY_BINARY_OPS(X) X(add) X(subtract) X(multiply) X(divide) X(floor_divide) X(remainder) X(fmod) X(pow) \
    X(maximum) X(minimum) X(atan2) X(hypot) X(copysign) X(nextafter) X(logaddexp) X(equal) X(not_equal) \
    X(less) X(less_equal) X(greater) X(greater_equal) X(logical_and) X(logical_or) X(logical_xor) \
    X(bitwise_and) X(bitwise_or) X(bitwise_xor) X(bitwise_left_shift) X(bitwise_right_shift) \
    X(matmul) X(dot) X(outer)
#define EMBER_PY_REDUCE_OPS(X) X(sum) X(prod) X(max) X(min) X(all) X(any) X(mean) X(logsumexp) X(count_nonzero)

#define EMBER_PY_FN(name) ember_##name,
#define EMBER_PY_NAME(name) #name,
static const ember_py_unary_fn ember_py_unary[] = { EMBER_PY_UNARY_OPS(EMBER_PY_FN) };
static const ember_py_binary_fn ember_py_binary[] = { EMBER_PY_BINARY_OPS(EMBER_PY_FN) };
static const ember_py_reduce_fn ember_py_reduce[] = { EMBER_PY_REDUCE_OPS(EMBER_PY_FN) };
static const char* const ember_py_unary_names[] = { EMBER_PY_UNARY_OPS(EMBER_PY_NAME) };
static const char* const ember_py_binary_names[] = { EMBER_PY_BINARY_OPS(EMBER_PY_NAME) };
static const char* const ember_py_reduce_names[] = { EMBER_PY_REDUCE_OPS(EMBER_PY_NAME) };
#define EMBER_PY_COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))
/* Below this many elements the GIL is kept: releasing it costs more than the op. */
#define EMBER_PY_GIL_THRESHOLD 32768

static PyTypeObject* ember_py_array_type = NULL;
static Py_ssize_t ember_py_h_offset = 0;

static inline ember_tensor_t* ember_py_handle_of(PyObject* o) {
    /* o is an Array: its `_h` slot holds a Tensor (a SwigPyObject). */
    PyObject* h = *(PyObject**)((char*)o + ember_py_h_offset);
    if (!h) return NULL;
    return (ember_tensor_t*)((SwigPyObject*)h)->ptr;
}
static inline int ember_py_is_array(PyObject* o) {
    return ember_py_array_type && (Py_TYPE(o) == ember_py_array_type || PyType_IsSubtype(Py_TYPE(o), ember_py_array_type));
}
/* New Array owning handle t (consumed). */
static PyObject* ember_py_new_array(ember_tensor_t* t) {
    PyObject* h = SWIG_InternalNewPointerObj(t, SWIGTYPE_p_ember_tensor, SWIG_POINTER_OWN);
    if (!h) { ember_tensor_release(t); return NULL; }
    PyObject* a = ember_py_array_type->tp_alloc(ember_py_array_type, 0);
    if (!a) { Py_DECREF(h); return NULL; }
    *(PyObject**)((char*)a + ember_py_h_offset) = h;
    return a;
}
/* The tensor for an operand: an Array (borrowed) or a Python scalar (a new weak scalar,
   returned in *owned). 0 with no error set: not an operand we handle (NotImplemented). */
static int ember_py_operand(ember_ctx_t* ctx, PyObject* o, ember_tensor_t** t, ember_tensor_t** owned) {
    ember_status_t st;
    *owned = NULL;
    if (ember_py_is_array(o)) {
        *t = ember_py_handle_of(o);
        if (!*t) { PyErr_SetString(PyExc_ValueError, "uninitialised ember array"); return 0; }
        return 1;
    }
    if (PyBool_Check(o)) {
        st = ember_scalar_bool(ctx, o == Py_True, owned);
    } else if (PyFloat_Check(o)) {
        st = ember_scalar_f64(ctx, PyFloat_AS_DOUBLE(o), owned);
    } else if (PyLong_Check(o)) {
        int overflow = 0;
        long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
        if (overflow) return 0;  /* past int64: Python decides by the other operand's dtype (_big_int_binop) */
        if (v == -1 && PyErr_Occurred()) return 0;
        st = ember_scalar_i64(ctx, (int64_t)v, owned);
    } else if (PyComplex_Check(o)) {
        Py_complex c = PyComplex_AsCComplex(o);
        st = ember_scalar_c128(ctx, c.real, c.imag, owned);
    } else {
        return 0;
    }
    if (st != EMBER_OK) { ember_py_raise_status(st); return 0; }
    *t = *owned;
    return 1;
}
/* Array's own type slots. For a class defined in Python, CPython's slot functions
   (slot_mp_subscript, slot_nb_float, ...) look the method up by name on every call and
   then call the descriptor; a slot that points at the C function skips both. Only a heap
   type's slots are taken (each has its own); assigning the attribute again later gives
   the slot back to CPython's function, and subclasses keep CPython's, which find these
   methods by name. */
static int ember_py_owns_slots(PyObject* cls) {
    PyTypeObject* tp = (PyTypeObject*)cls;
    return (tp->tp_flags & Py_TPFLAGS_HEAPTYPE) && tp->tp_as_mapping && tp->tp_as_sequence && tp->tp_as_number;
}
/* Tensor's direct destructor, installed when the Array class is registered. SWIG's calls
   the delete_Tensor wrapper, which unpacks an argument tuple and converts the pointer
   back (about 200 instructions more per dropped result) to run one ember_tensor_release. */
static destructor ember_py_swig_tensor_dealloc = NULL;
static void ember_py_tensor_dealloc(PyObject* o) {
    SwigPyObject* s = (SwigPyObject*)o;
    if (s->own && s->ptr) {
        ember_tensor_release((ember_tensor_t*)s->ptr);
        s->own = 0;
    }
    ember_py_swig_tensor_dealloc(o);  /* now owns nothing: frees the object only */
}
static void ember_py_take_tensor_dealloc(void) {
    SwigPyClientData* data = (SwigPyClientData*)SWIGTYPE_p_ember_tensor->clientdata;
    PyTypeObject* type = data ? data->pytype : NULL;
    if (!type || type->tp_dealloc == ember_py_tensor_dealloc) return;
    ember_py_swig_tensor_dealloc = type->tp_dealloc;
    type->tp_dealloc = ember_py_tensor_dealloc;
    PyType_Modified(type);
}
/* Why ember_py_operand declined x, for ops that take no other operand. */
static void ember_py_operand_error(const char* op, PyObject* x) {
    if (PyLong_Check(x))
        PyErr_Format(PyExc_OverflowError, "%s: Python int too large for an ember integer scalar", op);
    else
        PyErr_Format(PyExc_TypeError, "%s: expected an ember array, got %.100s", op, Py_TYPE(x)->tp_name);
}
static inline int64_t ember_py_size(const ember_tensor_t* t) {
    int64_t n = 0;
    ember_tensor_size(t, &n);
    return n;
}
%}

%inline %{
/* Log messages to a Python callable fn(level, message); None removes it. */
static PyObject* ember_py_set_log_callback(PyObject* fn, int min_level) {
    if (fn == Py_None) {
        ember_set_log_callback(NULL, NULL, (ember_log_level_t)min_level);
        Py_CLEAR(ember_py_log_fn);
        Py_RETURN_NONE;
    }
    if (!PyCallable_Check(fn)) { PyErr_SetString(PyExc_TypeError, "expected a callable or None"); return NULL; }
    Py_INCREF(fn);
    Py_XSETREF(ember_py_log_fn, fn);
    ember_set_log_callback(ember_py_log_trampoline, NULL, (ember_log_level_t)min_level);
    Py_RETURN_NONE;
}

/* Registers the Array class (whose __slots__ include `_h`) and Tensor's direct destructor. */
static PyObject* ember_py_register_array(PyObject* cls) {
    if (!PyType_Check(cls)) { PyErr_SetString(PyExc_TypeError, "expected a class"); return NULL; }
    PyObject* descr = PyObject_GetAttrString(cls, "_h");
    if (!descr) return NULL;
    if (Py_TYPE(descr) != &PyMemberDescr_Type) {
        Py_DECREF(descr);
        PyErr_SetString(PyExc_TypeError, "the array class must declare __slots__ = ('_h', ...)");
        return NULL;
    }
    ember_py_h_offset = ((PyMemberDescrObject*)descr)->d_member->offset;
    Py_DECREF(descr);
    Py_INCREF(cls);
    Py_XSETREF(ember_py_array_type, (PyTypeObject*)cls);
    ember_py_take_tensor_dealloc();
    Py_RETURN_NONE;
}
/* ((unary names), (binary names), (reduction names)): the op numbers of the fast path. */
static PyObject* ember_py_fast_ops(void) {
    PyObject* r = PyTuple_New(3);
    const char* const* lists[3] = { ember_py_unary_names, ember_py_binary_names, ember_py_reduce_names };
    int counts[3] = { EMBER_PY_COUNT(ember_py_unary_names), EMBER_PY_COUNT(ember_py_binary_names), EMBER_PY_COUNT(ember_py_reduce_names) };
    for (int k = 0; k < 3; ++k) {
        PyObject* t = PyTuple_New(counts[k]);
        for (int i = 0; i < counts[k]; ++i) PyTuple_SET_ITEM(t, i, PyUnicode_FromString(lists[k][i]));
        PyTuple_SET_ITEM(r, k, t);
    }
    return r;
}
/* A new Array from ember_empty, ember_zeros or ember_ones (kind 0, 1, 2) on the thread's
   context. Through the SWIG wrapper and the Python-side wrap, em.zeros(10) took 670 ns:
   the wrap alone 155 and the wrapper's proxy object about as much. */
static PyObject* ember_py_create(int kind, PyObject* shape, int dtype) {
    typedef ember_status_t (*create_fn)(ember_ctx_t*, const int64_t*, int, int, ember_tensor_t**);
    static const create_fn fns[3] = { ember_empty, ember_zeros, ember_ones };
    if (kind < 0 || kind > 2) { PyErr_SetString(PyExc_ValueError, "bad creation kind"); return NULL; }
    ember_ctx_t* ctx = ember_binding_ctx();
    if (!ctx) { ember_py_raise_status(ember_last_status()); return NULL; }
    ember_py_i64s sh;
    if (!ember_py_to_i64s(shape, &sh, 1)) return NULL;
    long long count = 1;
    for (int i = 0; i < sh.n; ++i) count *= sh.p[i] < 0 ? 0 : sh.p[i];
    ember_tensor_t* out = NULL;
    ember_status_t st;
    if (count >= EMBER_PY_GIL_THRESHOLD) {
        Py_BEGIN_ALLOW_THREADS
        st = fns[kind](ctx, sh.p, sh.n, dtype, &out);
        Py_END_ALLOW_THREADS
    } else {
        st = fns[kind](ctx, sh.p, sh.n, dtype, &out);
    }
    if (sh.heap) free(sh.p);
    if (st != EMBER_OK) { ember_py_raise_status(st); return NULL; }
    return ember_py_new_array(out);
}
/* Array op(Array) */
static PyObject* ember_py_unop(int op, PyObject* x) {
    if (op < 0 || op >= EMBER_PY_COUNT(ember_py_unary)) { PyErr_SetString(PyExc_ValueError, "bad op"); return NULL; }
    ember_ctx_t* ctx = ember_binding_ctx();
    if (!ctx) { ember_py_raise_status(ember_last_status()); return NULL; }
    ember_tensor_t *t, *owned, *out = NULL;
    if (!ember_py_operand(ctx, x, &t, &owned)) {
        if (!PyErr_Occurred()) ember_py_operand_error(ember_py_unary_names[op], x);
        return NULL;
    }
    ember_status_t st;
    if (ember_py_size(t) >= EMBER_PY_GIL_THRESHOLD) {
        Py_BEGIN_ALLOW_THREADS
        st = ember_py_unary[op](ctx, t, &out);
        Py_END_ALLOW_THREADS
    } else {
        st = ember_py_unary[op](ctx, t, &out);
    }
    ember_tensor_release(owned);
    if (st != EMBER_OK) { ember_py_raise_status(st); return NULL; }
    return ember_py_new_array(out);
}
/* Array op(a, b), a and b Arrays or Python scalars (weak). NotImplemented for other types. */
static PyObject* ember_py_binop(int op, PyObject* a, PyObject* b) {
    if (op < 0 || op >= EMBER_PY_COUNT(ember_py_binary)) { PyErr_SetString(PyExc_ValueError, "bad op"); return NULL; }
    ember_ctx_t* ctx = ember_binding_ctx();
    if (!ctx) { ember_py_raise_status(ember_last_status()); return NULL; }
    ember_tensor_t *ta, *tb, *oa, *ob, *out = NULL;
    if (!ember_py_operand(ctx, a, &ta, &oa)) {
        if (PyErr_Occurred()) return NULL;
        Py_RETURN_NOTIMPLEMENTED;
    }
    if (!ember_py_operand(ctx, b, &tb, &ob)) {
        ember_tensor_release(oa);
        if (PyErr_Occurred()) return NULL;
        Py_RETURN_NOTIMPLEMENTED;
    }
    ember_status_t st;
    if (ember_py_size(ta) + ember_py_size(tb) >= EMBER_PY_GIL_THRESHOLD || ember_py_binary[op] == ember_matmul
        || ember_py_binary[op] == ember_dot || ember_py_binary[op] == ember_outer) {
        Py_BEGIN_ALLOW_THREADS
        st = ember_py_binary[op](ctx, ta, tb, &out);
        Py_END_ALLOW_THREADS
    } else {
        st = ember_py_binary[op](ctx, ta, tb, &out);
    }
    ember_tensor_release(oa);
    ember_tensor_release(ob);
    if (st != EMBER_OK) { ember_py_raise_status(st); return NULL; }
    return ember_py_new_array(out);
}
/* In place: a[...] = op(a, b) in one pass through ember_elementwise_into (a keeps its dtype
   and identity); the matrix products compute a new result and assign it. */
static PyObject* ember_py_ibinop(int op, PyObject* a, PyObject* b) {
    if (op < 0 || op >= EMBER_PY_COUNT(ember_py_binary)) { PyErr_SetString(PyExc_ValueError, "bad op"); return NULL; }
    const ember_py_binary_fn fn = ember_py_binary[op];
    const int product = fn == ember_matmul || fn == ember_dot || fn == ember_outer;
    ember_ctx_t* ctx = ember_binding_ctx();
    if (!ctx) { ember_py_raise_status(ember_last_status()); return NULL; }
    if (!ember_py_is_array(a)) { PyErr_SetString(PyExc_TypeError, "in-place operators need an ember array on the left"); return NULL; }
    ember_tensor_t* dst = ember_py_handle_of(a);
    if (!dst) { PyErr_SetString(PyExc_ValueError, "uninitialised ember array"); return NULL; }
    PyObject* r = NULL;
    ember_tensor_t *tb = NULL, *ob = NULL;
    if (product) {
        r = ember_py_binop(op, a, b);
        if (!r || r == Py_NotImplemented) return r;
    } else if (!ember_py_operand(ctx, b, &tb, &ob)) {
        if (PyErr_Occurred()) return NULL;
        Py_RETURN_NOTIMPLEMENTED;
    }
    ember_status_t st;
    const int big = ember_py_size(dst) >= EMBER_PY_GIL_THRESHOLD;
    PyThreadState* released = big ? PyEval_SaveThread() : NULL;
    if (product) {
        st = ember_assign(ctx, dst, ember_py_handle_of(r));
    } else {
        const ember_tensor_t* xs[2] = {dst, tb};
        st = ember_elementwise_into(ctx, ember_py_binary_names[op], xs, 2, dst);
    }
    if (released) PyEval_RestoreThread(released);
    Py_XDECREF(r);
    ember_tensor_release(ob);
    if (st != EMBER_OK) { ember_py_raise_status(st); return NULL; }
    Py_INCREF(a);
    return a;
}
/* Array reduce(x, axes or None, keepdims) */
static PyObject* ember_py_reduceop(int op, PyObject* x, PyObject* axes, int keepdims) {
    if (op < 0 || op >= EMBER_PY_COUNT(ember_py_reduce)) { PyErr_SetString(PyExc_ValueError, "bad op"); return NULL; }
    ember_ctx_t* ctx = ember_binding_ctx();
    if (!ctx) { ember_py_raise_status(ember_last_status()); return NULL; }
    ember_tensor_t *t, *owned, *out = NULL;
    if (!ember_py_operand(ctx, x, &t, &owned)) {
        if (!PyErr_Occurred()) ember_py_operand_error(ember_py_reduce_names[op], x);
        return NULL;
    }
    ember_py_i64s ax;
    if (!ember_py_to_i64s(axes, &ax, 1)) { ember_tensor_release(owned); return NULL; }
    ember_status_t st;
    if (ember_py_size(t) >= EMBER_PY_GIL_THRESHOLD) {
        Py_BEGIN_ALLOW_THREADS
        st = ember_py_reduce[op](ctx, t, ax.p, ax.n, keepdims, &out);
        Py_END_ALLOW_THREADS
    } else {
        st = ember_py_reduce[op](ctx, t, ax.p, ax.n, keepdims, &out);
    }
    if (ax.heap) free(ax.p);
    ember_tensor_release(owned);
    if (st != EMBER_OK) { ember_py_raise_status(st); return NULL; }
    return ember_py_new_array(out);
}
%}

%include "ember_from_nested.i"
%include "ember_setitem.i"
%{
/* METH_FASTCALL entry points of the operator fast path (no argument tuple, no SWIG
   unpacking): _ember_c.binop(op, a, b), unop(op, x), ibinop(op, a, b). */
static PyObject* ember_py_binop(int op, PyObject* a, PyObject* b);
static PyObject* ember_py_unop(int op, PyObject* x);
static PyObject* ember_py_ibinop(int op, PyObject* a, PyObject* b);
static PyObject* ember_py_fast_binop(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
    if (nargs != 3) { PyErr_SetString(PyExc_TypeError, "binop(op, a, b)"); return NULL; }
    return ember_py_binop((int)PyLong_AsLong(args[0]), args[1], args[2]);
}
static PyObject* ember_py_fast_ibinop(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
    if (nargs != 3) { PyErr_SetString(PyExc_TypeError, "ibinop(op, a, b)"); return NULL; }
    return ember_py_ibinop((int)PyLong_AsLong(args[0]), args[1], args[2]);
}
static PyObject* ember_py_fast_unop(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
    if (nargs != 2) { PyErr_SetString(PyExc_TypeError, "unop(op, x)"); return NULL; }
    return ember_py_unop((int)PyLong_AsLong(args[0]), args[1]);
}
/* Operators as method descriptors on the Array class (the kind of object a C type's own
   methods are), so `a + b` reaches C without a Python frame in between. One C function
   per slot; its op and variant are set when ember_py_install_operators fills the slot. */
enum { EMBER_PY_FORWARD = 0, EMBER_PY_REFLECTED = 1, EMBER_PY_INPLACE = 2, EMBER_PY_UNARY = 3 };
#define EMBER_PY_OPERATOR_SLOTS 64
static int ember_py_slot_op[EMBER_PY_OPERATOR_SLOTS];
static int ember_py_slot_variant[EMBER_PY_OPERATOR_SLOTS];
static char ember_py_slot_name[EMBER_PY_OPERATOR_SLOTS][24];
static PyMethodDef ember_py_slot_defs[EMBER_PY_OPERATOR_SLOTS];
/* Python's fallback(op, variant, self, other) for operands the fast path declines. */
static PyObject* ember_py_operator_fallback = NULL;
static PyObject* ember_py_slot_call(int k, PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
    int op = ember_py_slot_op[k], variant = ember_py_slot_variant[k];
    if (nargs != (variant == EMBER_PY_UNARY ? 0 : 1)) {
        PyErr_Format(PyExc_TypeError, "%s takes %d argument(s), got %d", ember_py_slot_name[k], variant == EMBER_PY_UNARY ? 0 : 1, (int)nargs);
        return NULL;
    }
    if (variant == EMBER_PY_UNARY) return ember_py_unop(op, self);
    PyObject* other = args[0];
    PyObject* r = variant == EMBER_PY_FORWARD     ? ember_py_binop(op, self, other)
                  : variant == EMBER_PY_REFLECTED ? ember_py_binop(op, other, self)
                                                  : ember_py_ibinop(op, self, other);
    if (r != Py_NotImplemented || !ember_py_operator_fallback) return r;
    Py_DECREF(r);
    return PyObject_CallFunction(ember_py_operator_fallback, "iiOO", op, variant, self, other);
}
/* Slot functions are named 10..17, 20..27, ..., 80..87 (two digits from token pasting);
   slot n sits at position (n / 10 - 1) * 8 + n % 10 of ember_py_slot_fns. */
#define EMBER_PY_SLOT_POS(n) (((n) / 10 - 1) * 8 + (n) % 10)
#define EMBER_PY_SLOT(n) \
    static PyObject* ember_py_slot_##n(PyObject* s, PyObject* const* a, Py_ssize_t k) { return ember_py_slot_call(EMBER_PY_SLOT_POS(n), s, a, k); }
#define EMBER_PY_SLOT8(k) EMBER_PY_SLOT(k##0) EMBER_PY_SLOT(k##1) EMBER_PY_SLOT(k##2) EMBER_PY_SLOT(k##3) \
    EMBER_PY_SLOT(k##4) EMBER_PY_SLOT(k##5) EMBER_PY_SLOT(k##6) EMBER_PY_SLOT(k##7)
EMBER_PY_SLOT8(1) EMBER_PY_SLOT8(2) EMBER_PY_SLOT8(3) EMBER_PY_SLOT8(4)
EMBER_PY_SLOT8(5) EMBER_PY_SLOT8(6) EMBER_PY_SLOT8(7) EMBER_PY_SLOT8(8)
#define EMBER_PY_SLOT_FN(k) (PyCFunction)(void (*)(void))ember_py_slot_##k
#define EMBER_PY_SLOT_FN8(k) EMBER_PY_SLOT_FN(k##0), EMBER_PY_SLOT_FN(k##1), EMBER_PY_SLOT_FN(k##2), EMBER_PY_SLOT_FN(k##3), \
    EMBER_PY_SLOT_FN(k##4), EMBER_PY_SLOT_FN(k##5), EMBER_PY_SLOT_FN(k##6), EMBER_PY_SLOT_FN(k##7)
static const PyCFunction ember_py_slot_fns[EMBER_PY_OPERATOR_SLOTS] = {
    EMBER_PY_SLOT_FN8(1), EMBER_PY_SLOT_FN8(2), EMBER_PY_SLOT_FN8(3), EMBER_PY_SLOT_FN8(4),
    EMBER_PY_SLOT_FN8(5), EMBER_PY_SLOT_FN8(6), EMBER_PY_SLOT_FN8(7), EMBER_PY_SLOT_FN8(8)};
/* Array's number slots and tp_richcompare (ember_py_owns_slots), for the operators
   install_operators is given: CPython's slot_nb_add and its kin look __add__ or __radd__
   up by name on every call (about 220 of the 2860 instructions of y + y). One C function
   per slot; nb_add serves a + b for an Array a and, reflected, for an Array b only, so it
   tells the Python fallback which side the Array is on. */
enum { EMBER_PY_NB_COUNT = 13, EMBER_PY_UNARY_SLOT_COUNT = 4 };
static int ember_py_nb_op[EMBER_PY_NB_COUNT], ember_py_unary_slot_op[EMBER_PY_UNARY_SLOT_COUNT], ember_py_compare_op[6];
static PyObject* ember_py_nb_call(int slot, PyObject* a, PyObject* b, int inplace) {
    const int op = ember_py_nb_op[slot];
    const int forward = inplace || ember_py_is_array(a);
    PyObject* r = inplace ? ember_py_ibinop(op, a, b) : ember_py_binop(op, a, b);
    if (r != Py_NotImplemented || !ember_py_operator_fallback) return r;
    Py_DECREF(r);
    return PyObject_CallFunction(ember_py_operator_fallback, "iiOO", op, inplace ? EMBER_PY_INPLACE : forward ? EMBER_PY_FORWARD : EMBER_PY_REFLECTED,
                                 forward ? a : b, forward ? b : a);
}
#define EMBER_PY_NB_FNS(slot, field) \
    static PyObject* ember_py_nb_##field(PyObject* a, PyObject* b) { return ember_py_nb_call(slot, a, b, 0); } \
    static PyObject* ember_py_nb_inplace_##field(PyObject* a, PyObject* b) { return ember_py_nb_call(slot, a, b, 1); }
EMBER_PY_NB_FNS(0, add) EMBER_PY_NB_FNS(1, subtract) EMBER_PY_NB_FNS(2, multiply) EMBER_PY_NB_FNS(3, true_divide)
EMBER_PY_NB_FNS(4, floor_divide) EMBER_PY_NB_FNS(5, remainder) EMBER_PY_NB_FNS(6, matrix_multiply) EMBER_PY_NB_FNS(7, and)
EMBER_PY_NB_FNS(8, or) EMBER_PY_NB_FNS(9, xor) EMBER_PY_NB_FNS(10, lshift) EMBER_PY_NB_FNS(11, rshift)
static PyObject* ember_py_nb_power(PyObject* a, PyObject* b, PyObject* mod) {
    if (mod != Py_None) Py_RETURN_NOTIMPLEMENTED;  /* pow(x, y, m): TypeError, as before */
    return ember_py_nb_call(12, a, b, 0);
}
static PyObject* ember_py_nb_inplace_power(PyObject* a, PyObject* b, PyObject* mod) {
    if (mod != Py_None) Py_RETURN_NOTIMPLEMENTED;
    return ember_py_nb_call(12, a, b, 1);
}
static PyObject* ember_py_nb_negative(PyObject* a) { return ember_py_unop(ember_py_unary_slot_op[0], a); }
static PyObject* ember_py_nb_positive(PyObject* a) { return ember_py_unop(ember_py_unary_slot_op[1], a); }
static PyObject* ember_py_nb_absolute(PyObject* a) { return ember_py_unop(ember_py_unary_slot_op[2], a); }
static PyObject* ember_py_nb_invert(PyObject* a) { return ember_py_unop(ember_py_unary_slot_op[3], a); }
/* self is always an Array here: CPython calls the other operand's tp_richcompare with the
   operands swapped (and the comparison mirrored), never this one with self on the right. */
static PyObject* ember_py_richcompare(PyObject* self, PyObject* other, int cmp) {
    const int op = ember_py_compare_op[cmp];
    PyObject* r = ember_py_binop(op, self, other);
    if (r != Py_NotImplemented || !ember_py_operator_fallback) return r;
    Py_DECREF(r);
    return PyObject_CallFunction(ember_py_operator_fallback, "iiOO", op, EMBER_PY_FORWARD, self, other);
}
/* The slots by Python name; `index` is the position in ember_py_nb_op (binary and inplace),
   ember_py_unary_slot_op (unary) or ember_py_compare_op (Py_LT..Py_GE). */
typedef struct { const char* name; int kind, index; size_t offset; void* fn; } ember_py_slot_entry;
enum { EMBER_PY_SLOT_BINARY, EMBER_PY_SLOT_INPLACE, EMBER_PY_SLOT_UNARY, EMBER_PY_SLOT_COMPARE };
#define EMBER_PY_NB_ENTRIES(py, slot, field) \
    {"__" py "__", EMBER_PY_SLOT_BINARY, slot, offsetof(PyNumberMethods, nb_##field), (void*)ember_py_nb_##field}, \
    {"__r" py "__", EMBER_PY_SLOT_BINARY, slot, offsetof(PyNumberMethods, nb_##field), (void*)ember_py_nb_##field}, \
    {"__i" py "__", EMBER_PY_SLOT_INPLACE, slot, offsetof(PyNumberMethods, nb_inplace_##field), (void*)ember_py_nb_inplace_##field},
static const ember_py_slot_entry ember_py_slot_entries[] = {
    EMBER_PY_NB_ENTRIES("add", 0, add) EMBER_PY_NB_ENTRIES("sub", 1, subtract) EMBER_PY_NB_ENTRIES("mul", 2, multiply)
    EMBER_PY_NB_ENTRIES("truediv", 3, true_divide) EMBER_PY_NB_ENTRIES("floordiv", 4, floor_divide)
    EMBER_PY_NB_ENTRIES("mod", 5, remainder) EMBER_PY_NB_ENTRIES("matmul", 6, matrix_multiply) EMBER_PY_NB_ENTRIES("and", 7, and)
    EMBER_PY_NB_ENTRIES("or", 8, or) EMBER_PY_NB_ENTRIES("xor", 9, xor) EMBER_PY_NB_ENTRIES("lshift", 10, lshift)
    EMBER_PY_NB_ENTRIES("rshift", 11, rshift) EMBER_PY_NB_ENTRIES("pow", 12, power)
    {"__neg__", EMBER_PY_SLOT_UNARY, 0, offsetof(PyNumberMethods, nb_negative), (void*)ember_py_nb_negative},
    {"__pos__", EMBER_PY_SLOT_UNARY, 1, offsetof(PyNumberMethods, nb_positive), (void*)ember_py_nb_positive},
    {"__abs__", EMBER_PY_SLOT_UNARY, 2, offsetof(PyNumberMethods, nb_absolute), (void*)ember_py_nb_absolute},
    {"__invert__", EMBER_PY_SLOT_UNARY, 3, offsetof(PyNumberMethods, nb_invert), (void*)ember_py_nb_invert},
    {"__lt__", EMBER_PY_SLOT_COMPARE, Py_LT, 0, NULL}, {"__le__", EMBER_PY_SLOT_COMPARE, Py_LE, 0, NULL},
    {"__eq__", EMBER_PY_SLOT_COMPARE, Py_EQ, 0, NULL}, {"__ne__", EMBER_PY_SLOT_COMPARE, Py_NE, 0, NULL},
    {"__gt__", EMBER_PY_SLOT_COMPARE, Py_GT, 0, NULL}, {"__ge__", EMBER_PY_SLOT_COMPARE, Py_GE, 0, NULL},
};
/* After install_operators has put its descriptors on cls: each slot whose every name (a
   number slot: __x__ and __rx__; tp_richcompare: all six comparisons) was given, and whose
   names all carry one op, points at C. */
static void ember_py_take_number_slots(PyObject* cls, PyObject* specs) {
    const int n = EMBER_PY_COUNT(ember_py_slot_entries);
    int op_of[EMBER_PY_COUNT(ember_py_slot_entries)];
    for (int e = 0; e < n; ++e) op_of[e] = -1;
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(specs); ++k) {
        const char* name;
        int op, variant;
        if (!PyArg_ParseTuple(PyList_GET_ITEM(specs, k), "sii", &name, &op, &variant)) { PyErr_Clear(); return; }
        for (int e = 0; e < n; ++e)
            if (!strcmp(ember_py_slot_entries[e].name, name)) op_of[e] = op;
    }
    PyTypeObject* tp = (PyTypeObject*)cls;
    int all_compare = 1;
    for (int e = 0; e < n; ++e) {
        const ember_py_slot_entry* x = &ember_py_slot_entries[e];
        if (x->kind == EMBER_PY_SLOT_COMPARE) {
            if (op_of[e] < 0) all_compare = 0;
            else ember_py_compare_op[x->index] = op_of[e];
            continue;
        }
        if (op_of[e] < 0) continue;
        if (x->kind == EMBER_PY_SLOT_BINARY) {  /* __x__ and __rx__: adjacent entries, one op */
            const int partner = !strncmp(x->name, "__r", 3) ? e - 1 : e + 1;
            if (op_of[partner] != op_of[e]) continue;
            ember_py_nb_op[x->index] = op_of[e];
        } else if (x->kind == EMBER_PY_SLOT_INPLACE) {
            if (op_of[e - 2] != op_of[e]) continue;  /* the inplace slot shares the binary one's op table entry */
            ember_py_nb_op[x->index] = op_of[e];
        } else {
            ember_py_unary_slot_op[x->index] = op_of[e];
        }
        memcpy((char*)tp->tp_as_number + x->offset, &x->fn, sizeof(void*));
    }
    if (all_compare) tp->tp_richcompare = ember_py_richcompare;
}
/* install_operators(cls, [(name, op, variant), ...], fallback): replaces each named
   attribute of cls by a method descriptor bound to the fast path. */
static PyObject* ember_py_fast_install_operators(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
    if (nargs != 3 || !PyType_Check(args[0]) || !PyList_Check(args[1]) || !PyCallable_Check(args[2])) {
        PyErr_SetString(PyExc_TypeError, "install_operators(cls, [(name, op, variant), ...], fallback)");
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(args[1]);
    if (n > EMBER_PY_OPERATOR_SLOTS) { PyErr_SetString(PyExc_ValueError, "too many operators"); return NULL; }
    for (Py_ssize_t k = 0; k < n; ++k) {
        const char* name;
        int op, variant;
        if (!PyArg_ParseTuple(PyList_GET_ITEM(args[1], k), "sii", &name, &op, &variant)) return NULL;
        int limit = variant == EMBER_PY_UNARY ? EMBER_PY_COUNT(ember_py_unary) : EMBER_PY_COUNT(ember_py_binary);
        if (op < 0 || op >= limit || variant < 0 || variant > EMBER_PY_UNARY || strlen(name) >= sizeof ember_py_slot_name[k]) {
            PyErr_Format(PyExc_ValueError, "bad operator spec for '%s'", name);
            return NULL;
        }
        strcpy(ember_py_slot_name[k], name);
        ember_py_slot_op[k] = op;
        ember_py_slot_variant[k] = variant;
        PyMethodDef def = {ember_py_slot_name[k], ember_py_slot_fns[k], METH_FASTCALL, NULL};
        ember_py_slot_defs[k] = def;
        PyObject* descr = PyDescr_NewMethod((PyTypeObject*)args[0], &ember_py_slot_defs[k]);
        if (!descr) return NULL;
        int rc = PyObject_SetAttrString(args[0], name, descr);
        Py_DECREF(descr);
        if (rc) return NULL;
    }
    Py_INCREF(args[2]);
    Py_XSETREF(ember_py_operator_fallback, args[2]);
    if (ember_py_owns_slots(args[0])) ember_py_take_number_slots(args[0], args[1]);
    Py_RETURN_NONE;
}
/* x[key] in C for the common basic index: an int, a slice, or a tuple of ints, slices, one
   Ellipsis and Nones, giving the view Python's __getitem__ gives as one ember_as_strided
   (the geometry computed here: one handle, where a slice, a squeeze and an expand_dims per
   None made up to three), and for a boolean mask over leading axes (ember_py_mask_select,
   below). Every other key,
   and every key that would fail (out of range, a zero step, too many indices), goes to the
   Python method, which raises its own messages. */
#define EMBER_PY_FAST_INDEX_DIMS 16
static PyObject* ember_py_getitem_fallback = NULL;
/* x[mask], a boolean Array over x's leading axes (x[x > 50]): those axes flattened, one
   nonzero of the flat mask and one take of its positions (the Python method's general path,
   which treats the mask as index arrays, cost 8 us for a (10, 10) x[x > 50] where this
   costs 4). Returns NULL with no error set for other keys. */
static PyObject* ember_py_mask_select(ember_ctx_t* ctx, ember_tensor_t* x, int ndim, const int64_t* shape, ember_tensor_t* mask) {
    int k = 0;
    ember_dtype_t dt;
    const int64_t* mshape = NULL;
    if (!mask || ember_tensor_dtype(mask, &dt) != EMBER_OK || dt != EMBER_BOOL || ember_tensor_ndim(mask, &k) != EMBER_OK || k < 1 || k > ndim
        || ember_tensor_shape(mask, &mshape) != EMBER_OK || memcmp(mshape, shape, (size_t)k * sizeof(int64_t)) != 0 || ndim > EMBER_PY_FAST_INDEX_DIMS)
        return NULL;
    int64_t flat_shape[EMBER_PY_FAST_INDEX_DIMS], count = 1;
    for (int d = 0; d < k; ++d) count *= shape[d];
    flat_shape[0] = count;
    for (int d = k; d < ndim; ++d) flat_shape[d - k + 1] = shape[d];
    ember_tensor_t *flat_x = NULL, *flat_m = NULL, *coords = NULL, *positions = NULL, *out = NULL;
    PyThreadState* released = count >= EMBER_PY_GIL_THRESHOLD ? PyEval_SaveThread() : NULL;
    ember_status_t st = k == 1 ? EMBER_OK : ember_reshape(ctx, x, flat_shape, ndim - k + 1, &flat_x);
    if (st == EMBER_OK && k > 1) st = ember_reshape(ctx, mask, &count, 1, &flat_m);
    if (st == EMBER_OK) st = ember_nonzero(ctx, flat_m ? flat_m : mask, &coords);
    if (st == EMBER_OK) st = ember_select(ctx, coords, 1, 0, &positions);
    if (st == EMBER_OK) st = ember_take(ctx, flat_x ? flat_x : x, positions, 0, &out);
    if (released) PyEval_RestoreThread(released);
    ember_tensor_release(flat_x);
    ember_tensor_release(flat_m);
    ember_tensor_release(coords);
    ember_tensor_release(positions);
    if (st != EMBER_OK) { ember_py_raise_status(st); return NULL; }
    return ember_py_new_array(out);
}
static PyObject* ember_py_getitem_fast(PyObject* self, PyObject* key) {
    ember_tensor_t* x = ember_py_is_array(self) ? ember_py_handle_of(self) : NULL;
    ember_ctx_t* ctx = x ? ember_binding_ctx() : NULL;
    int ndim = 0;
    const int64_t *shape = NULL, *strides = NULL;
    PyObject* const* items = &key;
    Py_ssize_t nk = 1, n_index = 0, n_ellipsis = 0;
    /* the view: its axes (slices and the axes the key leaves whole, in order), the offset
       of its first element from x's (ints and slice starts), and where each None goes */
    int64_t out_shape[EMBER_PY_FAST_INDEX_DIMS], out_strides[EMBER_PY_FAST_INDEX_DIMS], offset = 0;
    int new_axes[EMBER_PY_FAST_INDEX_DIMS];
    int nout = 0, nnew = 0, dim = 0, out_dim = 0;
    ember_tensor_t* out = NULL;
    ember_status_t st;
    if (!ctx || ember_tensor_ndim(x, &ndim) != EMBER_OK || ember_tensor_shape(x, &shape) != EMBER_OK
        || ember_tensor_strides(x, &strides) != EMBER_OK || ndim > EMBER_PY_FAST_INDEX_DIMS)
        goto python;
    if (ember_py_is_array(key)) {
        PyObject* selected = ember_py_mask_select(ctx, x, ndim, shape, ember_py_handle_of(key));
        if (selected || PyErr_Occurred()) return selected;
        goto python;
    }
    if (PyTuple_CheckExact(key)) {
        items = &PyTuple_GET_ITEM(key, 0);
        nk = PyTuple_GET_SIZE(key);
    } else if (!PyLong_CheckExact(key) && !PySlice_Check(key)) {
        goto python;
    }
    if (nk > EMBER_PY_FAST_INDEX_DIMS) goto python;
    for (Py_ssize_t k = 0; k < nk; ++k) {
        if (items[k] == Py_Ellipsis) ++n_ellipsis;
        else if (items[k] != Py_None) ++n_index;
    }
    if (n_ellipsis > 1 || n_index > ndim) goto python;
    for (Py_ssize_t k = 0; k < nk; ++k) {
        PyObject* item = items[k];
        if (item == Py_None) {
            new_axes[nnew++] = out_dim++;
            continue;
        }
        if (item == Py_Ellipsis) {
            for (Py_ssize_t j = 0; j < ndim - n_index; ++j, ++dim, ++out_dim, ++nout) {
                out_shape[nout] = shape[dim];
                out_strides[nout] = strides[dim];
            }
            continue;
        }
        const int64_t n = shape[dim];
        if (PyLong_CheckExact(item)) {
            int overflow = 0;
            long long v = PyLong_AsLongLongAndOverflow(item, &overflow);
            if (overflow || v < -n || v >= n) goto python;
            offset += (v < 0 ? v + n : v) * strides[dim];
        } else if (PySlice_Check(item)) {
            Py_ssize_t a, b, c;
            if (PySlice_Unpack(item, &a, &b, &c) < 0) {
                PyErr_Clear();
                goto python;
            }
            const Py_ssize_t len = PySlice_AdjustIndices((Py_ssize_t)n, &a, &b, c);
            /* an empty slice adds nothing to the offset and keeps the axis's stride, as ember_slice */
            out_shape[nout] = len;
            out_strides[nout++] = len ? strides[dim] * c : strides[dim];
            if (len) offset += a * strides[dim];
            ++out_dim;
        } else {
            goto python;
        }
        ++dim;
    }
    for (; dim < ndim; ++dim, ++nout) {
        out_shape[nout] = shape[dim];
        out_strides[nout] = strides[dim];
    }
    if (nout + nnew > EMBER_PY_FAST_INDEX_DIMS) goto python;
    /* each None's axis inserted in turn, with the stride ember_expand_dims gives it */
    for (int j = 0; j < nnew; ++j, ++nout) {
        const int p = new_axes[j];
        for (int d = nout; d > p; --d) {
            out_shape[d] = out_shape[d - 1];
            out_strides[d] = out_strides[d - 1];
        }
        out_shape[p] = 1;
        out_strides[p] = p < nout ? out_strides[p + 1] * out_shape[p + 1] : 1;
    }
    st = ember_as_strided(ctx, x, out_shape, out_strides, nout, offset, &out);
    if (st != EMBER_OK) { ember_py_raise_status(st); return NULL; }
    return ember_py_new_array(out);
python:
    return PyObject_CallFunctionObjArgs(ember_py_getitem_fallback, self, key, NULL);
}
static PyMethodDef ember_py_getitem_def = {"__getitem__", (PyCFunction)ember_py_getitem_fast, METH_O, NULL};
/* install_getitem(cls, fallback): cls.__getitem__ becomes the C fast path above, which
   hands the keys it does not take to fallback(self, key). */
static PyObject* ember_py_fast_install_getitem(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
    if (nargs != 2 || !PyType_Check(args[0]) || !PyCallable_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "install_getitem(cls, fallback)");
        return NULL;
    }
    PyObject* descr = PyDescr_NewMethod((PyTypeObject*)args[0], &ember_py_getitem_def);
    if (!descr) return NULL;
    int rc = PyObject_SetAttrString(args[0], "__getitem__", descr);
    Py_DECREF(descr);
    if (rc) return NULL;
    Py_INCREF(args[1]);
    Py_XSETREF(ember_py_getitem_fallback, args[1]);
    if (ember_py_owns_slots(args[0])) ((PyTypeObject*)args[0])->tp_as_mapping->mp_subscript = ember_py_getitem_fast;
    Py_RETURN_NONE;
}
/* x.reshape(2, 5) or x.reshape((2, 5)): a method descriptor (installed with the attributes)
   that returns the Array without the SWIG proxy in between. */
static PyObject* ember_py_reshape_method(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
    ember_tensor_t* t = ember_py_handle_of(self);
    if (!t) { PyErr_SetString(PyExc_ValueError, "uninitialised ember array"); return NULL; }
    ember_ctx_t* ctx = ember_binding_ctx();
    if (!ctx) { ember_py_raise_status(ember_last_status()); return NULL; }
    ember_py_i64s sh;
    int ok;
    if (nargs == 1) {
        ok = ember_py_to_i64s(args[0], &sh, 0);
    } else {
        PyObject* dims = PyTuple_New(nargs);
        if (!dims) return NULL;
        for (Py_ssize_t i = 0; i < nargs; ++i) { Py_INCREF(args[i]); PyTuple_SET_ITEM(dims, i, args[i]); }
        ok = ember_py_to_i64s(dims, &sh, 0);
        Py_DECREF(dims);
    }
    if (!ok) return NULL;
    ember_tensor_t* out = NULL;
    ember_status_t st = ember_reshape(ctx, t, sh.p, sh.n, &out);
    if (sh.heap) free(sh.p);
    if (st != EMBER_OK) { ember_py_raise_status(st); return NULL; }
    return ember_py_new_array(out);
}
static PyMethodDef ember_py_reshape_def = {"reshape", (PyCFunction)(void (*)(void))ember_py_reshape_method, METH_FASTCALL,
                                           "x.reshape(2, 5) or x.reshape((2, 5)): the view (or copy) with that shape"};
/* Attributes as C getset descriptors (the kind NumPy's ndarray.shape is): x.shape, x.ndim,
   x.size, x.dtype and x.T read the handle without a Python frame. The closure names the
   attribute; dtype objects come from the tuple install_properties was given, by code. */
enum { EMBER_PY_SHAPE, EMBER_PY_NDIM, EMBER_PY_SIZE, EMBER_PY_DTYPE, EMBER_PY_TRANSPOSE };
static PyObject* ember_py_dtypes_by_code = NULL;
static int ember_py_transpose_op = 0; /* the index of "transpose" in ember_py_unary_names */
static PyObject* ember_py_attribute(PyObject* self, void* closure) {
    ember_tensor_t* t = ember_py_handle_of(self);
    if (!t) { PyErr_SetString(PyExc_ValueError, "uninitialised ember array"); return NULL; }
    int nd = 0; int64_t n = 0; ember_dtype_t dt;
    switch ((int)(intptr_t)closure) {
    case EMBER_PY_SHAPE: return ember_py_shape(t);
    case EMBER_PY_NDIM: ember_tensor_ndim(t, &nd); return PyLong_FromLong(nd);
    case EMBER_PY_SIZE: ember_tensor_size(t, &n); return PyLong_FromLongLong((long long)n);
    case EMBER_PY_DTYPE:
        ember_tensor_dtype(t, &dt);
        if ((Py_ssize_t)dt < 0 || (Py_ssize_t)dt >= PyTuple_GET_SIZE(ember_py_dtypes_by_code)) {
            PyErr_Format(PyExc_ValueError, "dtype code %d has no Python dtype", (int)dt);
            return NULL;
        }
        { PyObject* d = PyTuple_GET_ITEM(ember_py_dtypes_by_code, dt); Py_INCREF(d); return d; }
    default: return ember_py_unop(ember_py_transpose_op, self);
    }
}
static PyGetSetDef ember_py_attribute_defs[] = {
    {"shape", ember_py_attribute, NULL, "the shape, a tuple of ints", (void*)(intptr_t)EMBER_PY_SHAPE},
    {"ndim", ember_py_attribute, NULL, "the number of axes", (void*)(intptr_t)EMBER_PY_NDIM},
    {"size", ember_py_attribute, NULL, "the number of elements", (void*)(intptr_t)EMBER_PY_SIZE},
    {"dtype", ember_py_attribute, NULL, "the element type", (void*)(intptr_t)EMBER_PY_DTYPE},
    {"T", ember_py_attribute, NULL, "the view with the axes reversed", (void*)(intptr_t)EMBER_PY_TRANSPOSE},
};
/* Python scalars of one-element arrays and len(x) without a Python frame: item(), float(x),
   int(x), bool(x), operator.index(x) (float(x[2, 3]) took 0.4 us in Python methods). */
enum { EMBER_PY_ITEM, EMBER_PY_FLOAT, EMBER_PY_INT, EMBER_PY_BOOL, EMBER_PY_INDEX, EMBER_PY_LEN };
static PyObject* ember_py_convert_tensor(ember_tensor_t* t, int what) {
    int nd = 0; int64_t n = 0; ember_dtype_t dt = EMBER_FLOAT32; const int64_t* sh = NULL;
    ember_tensor_ndim(t, &nd); ember_tensor_size(t, &n); ember_tensor_dtype(t, &dt);
    if (what == EMBER_PY_LEN) {
        if (nd == 0) { PyErr_SetString(PyExc_TypeError, "len() of a 0-d array"); return NULL; }
        ember_tensor_shape(t, &sh);
        return PyLong_FromLongLong((long long)sh[0]);
    }
    const int is_complex = dt == EMBER_COMPLEX64 || dt == EMBER_COMPLEX128;
    const int is_int = dt >= EMBER_INT8 && dt <= EMBER_UINT64;
    static const char* const names[] = {"item", "float", "int", "bool", "index"};
    if (what == EMBER_PY_INDEX && !is_int) {
        PyErr_Format(PyExc_TypeError, "only integer arrays can be used as an index, not %s", ember_dtype_name(dt));
        return NULL;
    }
    if (n != 1) {
        if (what == EMBER_PY_ITEM) PyErr_Format(PyExc_ValueError, "item() needs an array of one element, got %lld elements", (long long)n);
        else if (what == EMBER_PY_BOOL)  /* NumPy: ValueError, also for no elements */
            PyErr_Format(PyExc_ValueError, "the truth value of an array of %lld elements is ambiguous: use any() or all()", (long long)n);
        else PyErr_Format(PyExc_TypeError, "only arrays of one element can be converted to Python %s (%lld elements)", names[what], (long long)n);
        return NULL;
    }
    ember_status_t st;
    if (is_complex) {
        double re = 0, im = 0;
        if (what == EMBER_PY_FLOAT || what == EMBER_PY_INT) {
            PyErr_Format(PyExc_TypeError, "cannot convert a complex array to %s; use abs() or .real", names[what]);
            return NULL;
        }
        if ((st = ember_tensor_item_c128(t, &re, &im)) != EMBER_OK) { ember_py_raise_status(st); return NULL; }
        if (what == EMBER_PY_BOOL) return PyBool_FromLong(re != 0 || im != 0);
        return PyComplex_FromDoubles(re, im);
    }
    if (is_int || (dt == EMBER_BOOL && what != EMBER_PY_FLOAT)) {
        int64_t v = 0;
        if ((st = ember_tensor_item_i64(t, &v)) != EMBER_OK) { ember_py_raise_status(st); return NULL; }
        if (what == EMBER_PY_BOOL || (dt == EMBER_BOOL && what == EMBER_PY_ITEM)) return PyBool_FromLong(v != 0);
        if (what == EMBER_PY_FLOAT) return PyFloat_FromDouble(dt == EMBER_UINT64 ? (double)(uint64_t)v : (double)v);
        /* uint64 beyond int64 comes back wrapped: its bits are the value */
        return dt == EMBER_UINT64 ? PyLong_FromUnsignedLongLong((unsigned long long)v) : PyLong_FromLongLong((long long)v);
    }
    double v = 0;
    if ((st = ember_tensor_item_f64(t, &v)) != EMBER_OK) { ember_py_raise_status(st); return NULL; }
    if (what == EMBER_PY_BOOL) return PyBool_FromLong(v != 0);
    if (what == EMBER_PY_INT) return PyLong_FromDouble(v); /* ValueError for nan, OverflowError for inf */
    return PyFloat_FromDouble(v);
}
static PyObject* ember_py_convert(PyObject* self, int what) {
    ember_tensor_t* t = ember_py_handle_of(self);
    if (!t) { PyErr_SetString(PyExc_ValueError, "uninitialised ember array"); return NULL; }
    return ember_py_convert_tensor(t, what);
}
/* x.item(), and NumPy's x.item(k) (the k-th element in C order) and x.item(i, j, ...) or
   x.item((i, j, ...)) (one element): the element's 0-d view (one ember_as_strided), no Array
   object; negative indices count from the end, as NumPy's. */
static PyObject* ember_py_item_method(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
    ember_tensor_t* t = ember_py_handle_of(self);
    if (!t) { PyErr_SetString(PyExc_ValueError, "uninitialised ember array"); return NULL; }
    if (nargs == 0) return ember_py_convert_tensor(t, EMBER_PY_ITEM);
    PyObject* const* index = args;
    Py_ssize_t nindex = nargs;
    if (nargs == 1 && PyTuple_Check(args[0])) {
        index = &PyTuple_GET_ITEM(args[0], 0);
        nindex = PyTuple_GET_SIZE(args[0]);
    }
    int nd = 0;
    int64_t size = 0, offset = 0;
    const int64_t *shape = NULL, *strides = NULL;
    ember_tensor_ndim(t, &nd);
    ember_tensor_size(t, &size);
    ember_tensor_shape(t, &shape);
    ember_tensor_strides(t, &strides);
    if (nindex == 1 && nd != 1) {  /* a flat index in C order */
        long long k = PyLong_AsLongLong(index[0]);
        if (k == -1 && PyErr_Occurred()) return NULL;
        if (k < -size || k >= size) {
            PyErr_Format(PyExc_IndexError, "index %lld is out of bounds for size %lld", k, (long long)size);
            return NULL;
        }
        if (k < 0) k += size;
        for (int d = nd - 1; d >= 0; --d) {
            offset += (k % shape[d]) * strides[d];
            k /= shape[d];
        }
    } else {
        if (nindex != nd) {
            PyErr_SetString(PyExc_ValueError, "incorrect number of indices for array");
            return NULL;
        }
        for (int d = 0; d < nd; ++d) {
            long long k = PyLong_AsLongLong(index[d]);
            if (k == -1 && PyErr_Occurred()) return NULL;
            if (k < -shape[d] || k >= shape[d]) {
                PyErr_Format(PyExc_IndexError, "index %lld is out of bounds for axis %d with size %lld", k, d, (long long)shape[d]);
                return NULL;
            }
            offset += (k < 0 ? k + shape[d] : k) * strides[d];
        }
    }
    ember_ctx_t* ctx = ember_binding_ctx();
    if (!ctx) { ember_py_raise_status(ember_last_status()); return NULL; }
    ember_tensor_t* element = NULL;
    ember_status_t st = ember_as_strided(ctx, t, NULL, NULL, 0, offset, &element);
    if (st != EMBER_OK) { ember_py_raise_status(st); return NULL; }
    PyObject* r = ember_py_convert_tensor(element, EMBER_PY_ITEM);
    ember_tensor_release(element);
    return r;
}
static PyObject* ember_py_float_method(PyObject* self, PyObject* unused) { (void)unused; return ember_py_convert(self, EMBER_PY_FLOAT); }
static PyObject* ember_py_int_method(PyObject* self, PyObject* unused) { (void)unused; return ember_py_convert(self, EMBER_PY_INT); }
static PyObject* ember_py_bool_method(PyObject* self, PyObject* unused) { (void)unused; return ember_py_convert(self, EMBER_PY_BOOL); }
static PyObject* ember_py_index_method(PyObject* self, PyObject* unused) { (void)unused; return ember_py_convert(self, EMBER_PY_INDEX); }
static PyObject* ember_py_len_method(PyObject* self, PyObject* unused) { (void)unused; return ember_py_convert(self, EMBER_PY_LEN); }
static Py_ssize_t ember_py_len_slot(PyObject* self) {
    PyObject* n = ember_py_convert(self, EMBER_PY_LEN);
    if (!n) return -1;
    const Py_ssize_t v = PyLong_AsSsize_t(n);
    Py_DECREF(n);
    return v;
}
static int ember_py_bool_slot(PyObject* self) {
    PyObject* b = ember_py_convert(self, EMBER_PY_BOOL);
    if (!b) return -1;
    const int v = b == Py_True;
    Py_DECREF(b);
    return v;
}
static PyObject* ember_py_float_slot(PyObject* self) { return ember_py_convert(self, EMBER_PY_FLOAT); }
static PyObject* ember_py_int_slot(PyObject* self) { return ember_py_convert(self, EMBER_PY_INT); }
static PyObject* ember_py_index_slot(PyObject* self) { return ember_py_convert(self, EMBER_PY_INDEX); }
static PyMethodDef ember_py_conversion_defs[] = {
    {"item", (PyCFunction)(void (*)(void))ember_py_item_method, METH_FASTCALL,
     "x.item(): the single element as a Python scalar of the matching kind; x.item(k): the k-th element in C order; "
     "x.item(i, j, ...) or x.item((i, j, ...)): that element"},
    {"__float__", ember_py_float_method, METH_NOARGS, "float(x) of a one-element array"},
    {"__int__", ember_py_int_method, METH_NOARGS, "int(x) of a one-element array (truncates floats)"},
    {"__bool__", ember_py_bool_method, METH_NOARGS, "bool(x) of a one-element array"},
    {"__index__", ember_py_index_method, METH_NOARGS, "operator.index(x) of a one-element integer array"},
    {"__len__", ember_py_len_method, METH_NOARGS, "len(x): the length of axis 0"},
};
/* x.astype(dtype) for an Ember dtype object other than x's: one ember_astype, no Python
   frame (the Python method and function around it were 0.7 of its 1.15 us on Zen 3). Every
   other call (another dtype spelling, the same dtype, copy= or device=) goes to the Python
   method, installed as the fallback (install_astype). */
static PyObject* ember_py_astype_fallback = NULL;
static PyObject* ember_py_astype_method(PyObject* self, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
    ember_tensor_t* t = ember_py_handle_of(self);
    ember_dtype_t have;
    if (t && nargs == 1 && !kwnames && ember_py_dtypes_by_code && ember_tensor_dtype(t, &have) == EMBER_OK) {
        for (Py_ssize_t code = 0; code < PyTuple_GET_SIZE(ember_py_dtypes_by_code); ++code) {
            if (PyTuple_GET_ITEM(ember_py_dtypes_by_code, code) != args[0]) continue;
            if (code == (Py_ssize_t)have) break;
            ember_ctx_t* ctx = ember_binding_ctx();
            if (!ctx) { ember_py_raise_status(ember_last_status()); return NULL; }
            int64_t n = 0;
            ember_tensor_size(t, &n);
            ember_tensor_t* out = NULL;
            PyThreadState* released = n >= EMBER_PY_GIL_THRESHOLD ? PyEval_SaveThread() : NULL;
            ember_status_t st = ember_astype(ctx, t, (ember_dtype_t)code, &out);
            if (released) PyEval_RestoreThread(released);
            if (st != EMBER_OK) { ember_py_raise_status(st); return NULL; }
            return ember_py_new_array(out);
        }
    }
    PyObject* stack[8];
    const Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    if (nargs + nkw + 1 > 8) { PyErr_SetString(PyExc_TypeError, "astype() takes at most 3 arguments"); return NULL; }
    stack[0] = self;
    for (Py_ssize_t i = 0; i < nargs + nkw; ++i) stack[i + 1] = args[i];
    return PyObject_Vectorcall(ember_py_astype_fallback, stack, (size_t)(nargs + 1), kwnames);
}
static PyMethodDef ember_py_astype_def = {"astype", (PyCFunction)(void (*)(void))ember_py_astype_method, METH_FASTCALL | METH_KEYWORDS,
                                          "x.astype(dtype, copy=True): x converted to dtype"};
/* install_astype(cls, fallback): cls.astype becomes the method above (after
   install_properties, which registers the dtype objects it recognises). */
static PyObject* ember_py_fast_install_astype(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
    if (nargs != 2 || !PyType_Check(args[0]) || !PyCallable_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "install_astype(cls, fallback)");
        return NULL;
    }
    PyObject* descr = PyDescr_NewMethod((PyTypeObject*)args[0], &ember_py_astype_def);
    if (!descr) return NULL;
    int rc = PyObject_SetAttrString(args[0], "astype", descr);
    Py_DECREF(descr);
    if (rc) return NULL;
    Py_INCREF(args[1]);
    Py_XSETREF(ember_py_astype_fallback, args[1]);
    Py_RETURN_NONE;
}
/* install_properties(cls, dtypes_by_code): the getset descriptors above and the reshape
   and conversion methods replace cls's. */
static PyObject* ember_py_fast_install_properties(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
    if (nargs != 2 || !PyType_Check(args[0]) || !PyTuple_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "install_properties(cls, dtypes_by_code)");
        return NULL;
    }
    for (int op = 0; op < EMBER_PY_COUNT(ember_py_unary_names); ++op)
        if (!strcmp(ember_py_unary_names[op], "transpose")) ember_py_transpose_op = op;
    Py_INCREF(args[1]);
    Py_XSETREF(ember_py_dtypes_by_code, args[1]);
    for (size_t k = 0; k < sizeof(ember_py_attribute_defs) / sizeof(ember_py_attribute_defs[0]); ++k) {
        PyObject* descr = PyDescr_NewGetSet((PyTypeObject*)args[0], &ember_py_attribute_defs[k]);
        if (!descr) return NULL;
        int rc = PyObject_SetAttrString(args[0], ember_py_attribute_defs[k].name, descr);
        Py_DECREF(descr);
        if (rc) return NULL;
    }
    PyObject* reshape = PyDescr_NewMethod((PyTypeObject*)args[0], &ember_py_reshape_def);
    if (!reshape) return NULL;
    int rc = PyObject_SetAttrString(args[0], "reshape", reshape);
    Py_DECREF(reshape);
    if (rc) return NULL;
    for (size_t k = 0; k < sizeof(ember_py_conversion_defs) / sizeof(ember_py_conversion_defs[0]); ++k) {
        PyObject* method = PyDescr_NewMethod((PyTypeObject*)args[0], &ember_py_conversion_defs[k]);
        if (!method) return NULL;
        rc = PyObject_SetAttrString(args[0], ember_py_conversion_defs[k].ml_name, method);
        Py_DECREF(method);
        if (rc) return NULL;
    }
    if (ember_py_owns_slots(args[0])) {
        PyTypeObject* tp = (PyTypeObject*)args[0];
        tp->tp_as_mapping->mp_length = tp->tp_as_sequence->sq_length = ember_py_len_slot;
        tp->tp_as_number->nb_bool = ember_py_bool_slot;
        tp->tp_as_number->nb_float = ember_py_float_slot;
        tp->tp_as_number->nb_int = ember_py_int_slot;
        tp->tp_as_number->nb_index = ember_py_index_slot;
    }
    Py_RETURN_NONE;
}
/* em.empty, em.zeros and em.ones as C functions: a shape and no keywords but dtype (None or
   an Ember dtype object) and device=None go straight to ember_py_create; every other call
   goes, unchanged, to the Python function the creator was made with (another dtype spelling,
   a device, bad arguments and their messages). Module-level functions (no self), so that
   they print, pickle and report their signature as the Python functions did. */
static PyObject* ember_py_creator_fallback[3] = {NULL, NULL, NULL};
static PyObject* ember_py_creator_call(int kind, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
    PyObject* dtype = Py_None;
    int fast = nargs == 1 && ember_py_dtypes_by_code != NULL;
    for (Py_ssize_t i = 0; fast && kwnames && i < PyTuple_GET_SIZE(kwnames); ++i) {
        PyObject* value = args[nargs + i];
        if (PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, i), "dtype") == 0) dtype = value;
        else fast = value == Py_None && PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, i), "device") == 0;
    }
    int code = -1;  /* EMBER_DTYPE_DEFAULT */
    for (Py_ssize_t c = 0; fast && dtype != Py_None && code < 0; ++c) {
        if (c == PyTuple_GET_SIZE(ember_py_dtypes_by_code)) fast = 0;
        else if (PyTuple_GET_ITEM(ember_py_dtypes_by_code, c) == dtype) code = (int)c;
    }
    if (fast) return ember_py_create(kind, args[0], code);
    return PyObject_Vectorcall(ember_py_creator_fallback[kind], args, (size_t)nargs, kwnames);
}
static PyObject* ember_py_empty_fn(PyObject* self, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
    return ember_py_creator_call(0, args, nargs, kwnames);
}
static PyObject* ember_py_zeros_fn(PyObject* self, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
    return ember_py_creator_call(1, args, nargs, kwnames);
}
static PyObject* ember_py_ones_fn(PyObject* self, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
    return ember_py_creator_call(2, args, nargs, kwnames);
}
static PyMethodDef ember_py_creator_defs[3] = {
    {"empty", (PyCFunction)(void (*)(void))ember_py_empty_fn, METH_FASTCALL | METH_KEYWORDS,
     "empty(shape, *, dtype=None, device=None)\n--\n\nA new array of the shape, its elements not set."},
    {"zeros", (PyCFunction)(void (*)(void))ember_py_zeros_fn, METH_FASTCALL | METH_KEYWORDS,
     "zeros(shape, *, dtype=None, device=None)\n--\n\nA new array of the shape, filled with zeros."},
    {"ones", (PyCFunction)(void (*)(void))ember_py_ones_fn, METH_FASTCALL | METH_KEYWORDS,
     "ones(shape, *, dtype=None, device=None)\n--\n\nA new array of the shape, filled with ones."},
};
/* make_creator(kind, fallback, module_name): the C function for em.empty (kind 0), em.zeros
   (1) or em.ones (2), handing other calls to fallback. */
static PyObject* ember_py_fast_make_creator(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
    if (nargs != 3 || !PyLong_Check(args[0]) || !PyCallable_Check(args[1]) || !PyUnicode_Check(args[2])) {
        PyErr_SetString(PyExc_TypeError, "make_creator(kind, fallback, module_name)");
        return NULL;
    }
    const long kind = PyLong_AsLong(args[0]);
    if (kind < 0 || kind > 2) { PyErr_SetString(PyExc_ValueError, "bad creation kind"); return NULL; }
    Py_INCREF(args[1]);
    Py_XSETREF(ember_py_creator_fallback[kind], args[1]);
    return PyCFunction_NewEx(&ember_py_creator_defs[kind], NULL, args[2]);
}
static PyMethodDef ember_py_fast_methods[] = {
    {"install_operators", (PyCFunction)(void (*)(void))ember_py_fast_install_operators, METH_FASTCALL,
     "install_operators(cls, [(name, op, variant), ...], fallback)"},
    {"install_getitem", (PyCFunction)(void (*)(void))ember_py_fast_install_getitem, METH_FASTCALL, "install_getitem(cls, fallback)"},
    {"install_setitem", (PyCFunction)(void (*)(void))ember_py_fast_install_setitem, METH_FASTCALL, "install_setitem(cls, fallback)"},
    {"install_astype", (PyCFunction)(void (*)(void))ember_py_fast_install_astype, METH_FASTCALL, "install_astype(cls, fallback)"},
    {"install_properties", (PyCFunction)(void (*)(void))ember_py_fast_install_properties, METH_FASTCALL,
     "install_properties(cls, dtypes_by_code)"},
    {"binop", (PyCFunction)(void (*)(void))ember_py_fast_binop, METH_FASTCALL, "binop(op, a, b) -> Array"},
    {"ibinop", (PyCFunction)(void (*)(void))ember_py_fast_ibinop, METH_FASTCALL, "ibinop(op, a, b) -> a"},
    {"unop", (PyCFunction)(void (*)(void))ember_py_fast_unop, METH_FASTCALL, "unop(op, x) -> Array"},
    {"from_nested", (PyCFunction)(void (*)(void))ember_py_fast_from_nested, METH_FASTCALL, "from_nested(obj, dtype_code) -> Array or None"},
    {"make_creator", (PyCFunction)(void (*)(void))ember_py_fast_make_creator, METH_FASTCALL, "make_creator(kind, fallback, module_name)"},
    {NULL, NULL, 0, NULL}
};
%}
%init %{
    for (PyMethodDef* md_fast = ember_py_fast_methods; md_fast->ml_name; ++md_fast) {
        PyObject* fn = PyCFunction_New(md_fast, NULL);
        if (fn) {
            PyModule_AddObject(m, md_fast->ml_name, fn);
#ifdef SWIGPYTHON_BUILTIN
            SwigPyBuiltin_AddPublicSymbol(public_interface, md_fast->ml_name);
#endif
        }
    }
%}

%include "ember_dlpack.i"
%clearnothread;
#endif /* SWIGPYTHON */

/* ================================================================ Lua */
#ifdef SWIGLUA
%{
#define EMBER_SWIG_RAISE(st) do { lua_pushfstring(L, "%s", ember_last_error()[0] ? ember_last_error() : ember_status_string(st)); SWIG_fail; } while (0)
%}
%typemap(in, numinputs=0) ember_ctx_t* ctx, const ember_ctx_t* ctx {
    $1 = ember_binding_ctx();
    if (!$1) EMBER_SWIG_RAISE(ember_last_status());
}
%typemap(out) ember_status_t {
    if ($1 != EMBER_OK) EMBER_SWIG_RAISE($1);
}
%typemap(in, numinputs=0) ember_tensor_t** out (ember_tensor_t* temp = NULL) { $1 = &temp; }
%typemap(argout) ember_tensor_t** out {
    SWIG_NewPointerObj(L, temp$argnum, $descriptor(ember_tensor_t*), 1); SWIG_arg++;
}
%typemap(in, numinputs=0) const char** (const char* temp = NULL) { $1 = ($1_ltype)&temp; }
%typemap(argout) const char** { if (temp$argnum) lua_pushstring(L, temp$argnum); else lua_pushnil(L); SWIG_arg++; }
%typemap(in, numinputs=0) ember_dtype_t* (ember_dtype_t temp = EMBER_BOOL) { $1 = &temp; }
%typemap(argout) ember_dtype_t* { lua_pushinteger(L, (lua_Integer)temp$argnum); SWIG_arg++; }
%typemap(in, numinputs=0) ember_selection_source_t* (ember_selection_source_t temp = EMBER_SOURCE_CALL) { $1 = &temp; }
%typemap(argout) ember_selection_source_t* { lua_pushinteger(L, (lua_Integer)temp$argnum); SWIG_arg++; }
%typemap(in, numinputs=0) int* ndim (int temp), int* device (int temp), int* available (int temp), int* score (int temp),
                          int* count (int temp), int* contiguous (int temp), int* weak (int temp), int* read_only (int temp), int* result (int temp) { $1 = &temp; }
%typemap(argout) int* ndim, int* device, int* available, int* score, int* count, int* contiguous, int* weak, int* read_only, int* result {
    lua_pushinteger(L, (lua_Integer)temp$argnum); SWIG_arg++;
}
%typemap(in, numinputs=0) int64_t* size (int64_t temp), int64_t* offset (int64_t temp), int64_t* value (int64_t temp) { $1 = &temp; }
%typemap(argout) int64_t* size, int64_t* offset, int64_t* value { lua_pushinteger(L, (lua_Integer)temp$argnum); SWIG_arg++; }
%typemap(out) int64_t, int { lua_pushinteger(L, (lua_Integer)$1); SWIG_arg++; }
%apply double* OUTPUT { double* value, double* real, double* imag };
%apply unsigned char* OUTPUT { uint8_t* code, uint8_t* bits };
%apply unsigned short* OUTPUT { uint16_t* lanes };
/* int64 arrays from Lua tables of integers (nil: NULL, 0). */
%{
static int64_t* ember_lua_i64s(lua_State* L, int idx, int* n) {
    *n = 0;
    if (lua_isnoneornil(L, idx)) return NULL;
    if (lua_isinteger(L, idx)) {
        int64_t* p = (int64_t*)calloc(32, sizeof(int64_t));
        p[0] = (int64_t)lua_tointeger(L, idx); *n = 1; return p;
    }
    luaL_checktype(L, idx, LUA_TTABLE);
    int len = (int)luaL_len(L, idx);
    int64_t* p = (int64_t*)calloc(len > 32 ? len : 32, sizeof(int64_t));
    for (int i = 0; i < len; ++i) {
        lua_geti(L, idx, i + 1);
        p[i] = (int64_t)luaL_checkinteger(L, -1);
        lua_pop(L, 1);
    }
    *n = len;
    return p;
}
%}
%typemap(in) (const int64_t* shape, int ndim), (const int64_t* axes, int naxes),
             (const int64_t* reps, int nreps), (const int64_t* indices, int n_indices) {
    $1 = ember_lua_i64s(L, $input, &$2);
}
%typemap(freearg) (const int64_t* shape, int ndim), (const int64_t* axes, int naxes),
                  (const int64_t* reps, int nreps), (const int64_t* indices, int n_indices) { free($1); }
%typemap(in) const int64_t* start, const int64_t* stop, const int64_t* step, const int64_t* shifts,
             const int64_t* axes_a, const int64_t* axes_b, const int64_t* pad_width, const int64_t* axes,
             const int64_t* shape, const int64_t* strides {
    int n_ignored; $1 = ember_lua_i64s(L, $input, &n_ignored);
}
%typemap(freearg) const int64_t* start, const int64_t* stop, const int64_t* step, const int64_t* shifts,
                  const int64_t* axes_a, const int64_t* axes_b, const int64_t* pad_width, const int64_t* axes,
                  const int64_t* shape, const int64_t* strides { free($1); }
%typemap(in) (const ember_tensor_t* const* xs, int n) {
    luaL_checktype(L, $input, LUA_TTABLE);
    int len = (int)luaL_len(L, $input);
    ember_tensor_t** arr = (ember_tensor_t**)calloc(len ? len : 1, sizeof(ember_tensor_t*));
    for (int i = 0; i < len; ++i) {
        void* p = NULL;
        lua_geti(L, $input, i + 1);
        if (!SWIG_IsOK(SWIG_ConvertPtr(L, -1, &p, $descriptor(ember_tensor_t*), 0))) { free(arr); lua_pop(L, 1); SWIG_fail_arg("$symname", $argnum, "Tensor"); }
        lua_pop(L, 1);
        arr[i] = (ember_tensor_t*)p;
    }
    $1 = ($1_ltype)arr; $2 = len;
}
%typemap(freearg) (const ember_tensor_t* const* xs, int n) { free((void*)$1); }
%typemap(in, numinputs=0) ember_device_info_t* info (ember_device_info_t temp) { memset(&temp, 0, sizeof temp); $1 = &temp; }
%typemap(argout) ember_device_info_t* info {
    ember_device_info_t* copy = (ember_device_info_t*)malloc(sizeof *copy); *copy = temp$argnum;
    SWIG_NewPointerObj(L, copy, $descriptor(ember_device_info_t*), 1); SWIG_arg++;
}
%typemap(in, numinputs=0) ember_memory_info_t* info (ember_memory_info_t temp) { memset(&temp, 0, sizeof temp); $1 = &temp; }
%typemap(argout) ember_memory_info_t* info {
    ember_memory_info_t* copy = (ember_memory_info_t*)malloc(sizeof *copy); *copy = temp$argnum;
    SWIG_NewPointerObj(L, copy, $descriptor(ember_memory_info_t*), 1); SWIG_arg++;
}
%ignore ember_tensor_offset;
#endif /* SWIGLUA */

/* ================================================================ the C API itself */
/* Every op returns its new handle through `ember_tensor_t** out`, which the typemaps above
   turn into an owned return value (the out-parameter analog of %newobject). */
%include "ember/ember.h"
%include "ember/ember_ops.h"
%include "ember/ember_linalg.h"
%include "ember/ember_random.h"
%include "ember/ember_stats.h"
%include "ember/ember_signal.h"
%include "ember/ember_io.h"

/* The binding context, for every language. */
ember_status_t ember_binding_set_backend(const char* backend, int device, unsigned flags);

/* unique_values and unique_counts of the array API: ember_unique without the permutation
   (indices and inverse left NULL), so that integers of a narrow range are counted, not sorted. */
%inline %{
static ember_status_t ember_binding_unique_counts(ember_ctx_t* ctx, const ember_tensor_t* x, ember_tensor_t** values, ember_tensor_t** counts) {
    return ember_unique(ctx, x, values, NULL, NULL, counts);
}
%}
