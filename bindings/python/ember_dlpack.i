/* DLPack for the Python binding (included by bindings/ember.i under SWIGPYTHON).
 * Export: versioned ("dltensor_versioned", DLPack >= 1.0) or legacy ("dltensor") capsules
 * over host memory; the managed tensor retains the Ember handle until its deleter runs.
 * Import: either capsule kind on kDLCPU; Ember adopts the memory and calls the producer's
 * deleter when the last view dies. */
%{
#if defined(__has_include)
#  if __has_include(<dlpack/dlpack.h>)
#    include <dlpack/dlpack.h>
#    define EMBER_HAVE_DLPACK_H 1
#  endif
#endif
#ifndef EMBER_HAVE_DLPACK_H
/* The DLPack ABI (stable since 0.x for these structs). */
typedef enum { kDLCPU = 1, kDLCUDA = 2, kDLCUDAHost = 3, kDLOpenCL = 4 } DLDeviceType;
typedef struct { DLDeviceType device_type; int32_t device_id; } DLDevice;
typedef struct { uint8_t code; uint8_t bits; uint16_t lanes; } DLDataType;
typedef struct { void* data; DLDevice device; int32_t ndim; DLDataType dtype; int64_t* shape; int64_t* strides; uint64_t byte_offset; } DLTensor;
typedef struct DLManagedTensor { DLTensor dl_tensor; void* manager_ctx; void (*deleter)(struct DLManagedTensor*); } DLManagedTensor;
#endif
/* DLPack 1.0 additions (Debian 12 ships 0.6). */
typedef struct { uint32_t major; uint32_t minor; } EmberDLPackVersion;
typedef struct EmberDLManagedTensorVersioned {
    EmberDLPackVersion version;
    void* manager_ctx;
    void (*deleter)(struct EmberDLManagedTensorVersioned* self);
    uint64_t flags;
    DLTensor dl_tensor;
} EmberDLManagedTensorVersioned;
#define EMBER_DLPACK_FLAG_READ_ONLY (1ULL << 0)
#define EMBER_DLPACK_FLAG_IS_COPIED (1ULL << 1)

typedef struct {
    ember_tensor_t* t;
    int64_t shape[EMBER_MAX_DIMS];
    int64_t strides[EMBER_MAX_DIMS];
    union { DLManagedTensor legacy; EmberDLManagedTensorVersioned versioned; } m;
} ember_dl_holder;

static void ember_dl_free_holder(ember_dl_holder* h) {
    if (!h) return;
    ember_tensor_release(h->t);
    free(h);
}
static void ember_dl_deleter_legacy(DLManagedTensor* self) { ember_dl_free_holder((ember_dl_holder*)self->manager_ctx); }
static void ember_dl_deleter_versioned(EmberDLManagedTensorVersioned* self) { ember_dl_free_holder((ember_dl_holder*)self->manager_ctx); }

static void ember_dl_capsule_destructor_legacy(PyObject* cap) {
    if (PyCapsule_IsValid(cap, "dltensor")) {  /* never consumed */
        DLManagedTensor* m = (DLManagedTensor*)PyCapsule_GetPointer(cap, "dltensor");
        if (m && m->deleter) m->deleter(m);
    }
}
static void ember_dl_capsule_destructor_versioned(PyObject* cap) {
    if (PyCapsule_IsValid(cap, "dltensor_versioned")) {
        EmberDLManagedTensorVersioned* m = (EmberDLManagedTensorVersioned*)PyCapsule_GetPointer(cap, "dltensor_versioned");
        if (m && m->deleter) m->deleter(m);
    }
}
%}

%inline %{
/* A DLPack capsule over host tensor t (its storage must be on a host-memory backend).
   versioned: 1 for "dltensor_versioned" (flags: copied = 1 marks IS_COPIED). */
static PyObject* ember_py_to_dlpack(ember_tensor_t* t, int versioned, int copied) {
    int nd, dev; ember_dtype_t dt; const int64_t* sh = NULL; const int64_t* sd = NULL; void* data = NULL;
    const char* backend = NULL;
    ember_status_t st = ember_tensor_ndim(t, &nd);
    if (st == EMBER_OK) st = ember_tensor_dtype(t, &dt);
    if (st == EMBER_OK) st = ember_tensor_shape(t, &sh);
    if (st == EMBER_OK) st = ember_tensor_strides(t, &sd);
    if (st == EMBER_OK) st = ember_tensor_backend(t, &backend, &dev);
    if (st == EMBER_OK) st = ember_tensor_host_data(t, &data);
    if (st == EMBER_ERR_UNSUPPORTED) {
        ember_clear_error();
        PyErr_SetString(PyExc_BufferError, "__dlpack__: the tensor is not in host memory; move it with to_device('cpu') or pass dl_device=(1, 0)");
        return NULL;
    }
    int read_only = 0;
    if (st == EMBER_OK) st = ember_tensor_is_read_only(t, &read_only);
    if (st != EMBER_OK) { ember_py_raise_status(st); return NULL; }
    if (read_only && !versioned) {
        /* An unversioned capsule cannot say read-only: the consumer would write into it. */
        PyErr_SetString(PyExc_BufferError, "__dlpack__: the tensor is read-only and the consumer did not ask for DLPack 1.0 "
                                           "(max_version), which can say so; pass copy=True");
        return NULL;
    }
    uint8_t code, bits; uint16_t lanes;
    st = ember_dtype_to_dlpack(dt, &code, &bits, &lanes);
    if (st != EMBER_OK) { ember_py_raise_status(st); return NULL; }
    ember_dl_holder* h = (ember_dl_holder*)calloc(1, sizeof *h);
    if (!h) return PyErr_NoMemory();
    ember_tensor_retain(t);
    h->t = t;
    for (int i = 0; i < nd; ++i) { h->shape[i] = sh[i]; h->strides[i] = sd[i]; }
    DLTensor* dl = versioned ? &h->m.versioned.dl_tensor : &h->m.legacy.dl_tensor;
    dl->data = data;
    dl->device.device_type = kDLCPU;
    dl->device.device_id = 0;
    dl->ndim = nd;
    dl->dtype.code = code; dl->dtype.bits = bits; dl->dtype.lanes = lanes;
    dl->shape = h->shape;
    dl->strides = h->strides;
    dl->byte_offset = 0;
    PyObject* cap;
    if (versioned) {
        h->m.versioned.version.major = 1;
        h->m.versioned.version.minor = 0;
        h->m.versioned.manager_ctx = h;
        h->m.versioned.deleter = ember_dl_deleter_versioned;
        h->m.versioned.flags = (copied ? EMBER_DLPACK_FLAG_IS_COPIED : 0) | (read_only ? EMBER_DLPACK_FLAG_READ_ONLY : 0);
        cap = PyCapsule_New(&h->m.versioned, "dltensor_versioned", ember_dl_capsule_destructor_versioned);
    } else {
        h->m.legacy.manager_ctx = h;
        h->m.legacy.deleter = ember_dl_deleter_legacy;
        cap = PyCapsule_New(&h->m.legacy, "dltensor", ember_dl_capsule_destructor_legacy);
    }
    if (!cap) ember_dl_free_holder(h);
    return cap;
}

/* DLPack import: called (with the GIL or without) when the last Ember view dies. */
%}
%{
typedef struct { int versioned; void* managed; } ember_dl_import;
static void ember_dl_import_deleter(void* data, void* user) {
    ember_dl_import* imp = (ember_dl_import*)user;
    PyGILState_STATE g = PyGILState_Ensure();
    if (imp->versioned) {
        EmberDLManagedTensorVersioned* m = (EmberDLManagedTensorVersioned*)imp->managed;
        if (m->deleter) m->deleter(m);
    } else {
        DLManagedTensor* m = (DLManagedTensor*)imp->managed;
        if (m->deleter) m->deleter(m);
    }
    PyGILState_Release(g);
    free(imp);
}
%}
%inline %{
/* A Tensor over the memory of a DLPack capsule (consumed: renamed "used_..."). Only
   kDLCPU / kDLCUDAHost memory can be adopted. Returns (tensor, read_only). */
static PyObject* ember_py_from_dlpack_capsule(PyObject* cap) {
    int versioned;
    void* managed;
    DLTensor* dl;
    uint64_t flags = 0;
    if (PyCapsule_IsValid(cap, "dltensor_versioned")) {
        versioned = 1;
        EmberDLManagedTensorVersioned* m = (EmberDLManagedTensorVersioned*)PyCapsule_GetPointer(cap, "dltensor_versioned");
        if (m->version.major > 1) {
            PyErr_Format(PyExc_BufferError, "from_dlpack: DLPack version %u.%u is newer than this Ember supports (1.x)",
                         (unsigned)m->version.major, (unsigned)m->version.minor);
            return NULL;
        }
        managed = m; dl = &m->dl_tensor; flags = m->flags;
    } else if (PyCapsule_IsValid(cap, "dltensor")) {
        versioned = 0;
        DLManagedTensor* m = (DLManagedTensor*)PyCapsule_GetPointer(cap, "dltensor");
        managed = m; dl = &m->dl_tensor;
    } else {
        PyErr_SetString(PyExc_TypeError, "from_dlpack: expected a \"dltensor\" or \"dltensor_versioned\" capsule (already consumed?)");
        return NULL;
    }
    if (dl->device.device_type != kDLCPU && dl->device.device_type != kDLCUDAHost) {
        PyErr_Format(PyExc_BufferError, "from_dlpack: only host memory (kDLCPU) can be imported, got device type %d",
                     (int)dl->device.device_type);
        return NULL;
    }
    if (dl->ndim > EMBER_MAX_DIMS || dl->ndim < 0) {
        PyErr_Format(PyExc_ValueError, "from_dlpack: %d dimensions exceed EMBER_MAX_DIMS", (int)dl->ndim);
        return NULL;
    }
    ember_dtype_t dt;
    ember_status_t st = ember_dtype_from_dlpack(dl->dtype.code, dl->dtype.bits, dl->dtype.lanes, &dt);
    if (st != EMBER_OK) { ember_py_raise_status(st); return NULL; }
    ember_ctx_t* ctx = ember_binding_ctx();
    if (!ctx) { ember_py_raise_status(ember_last_status()); return NULL; }
    int64_t shape[EMBER_MAX_DIMS], strides[EMBER_MAX_DIMS];
    for (int i = 0; i < dl->ndim; ++i) { shape[i] = dl->shape[i]; if (dl->strides) strides[i] = dl->strides[i]; }
    ember_dl_import* imp = (ember_dl_import*)malloc(sizeof *imp);
    imp->versioned = versioned;
    imp->managed = managed;
    ember_tensor_t* out = NULL;
    st = ember_tensor_adopt(ctx, (char*)dl->data + dl->byte_offset, dt, shape, dl->strides ? strides : NULL, dl->ndim,
                            ember_dl_import_deleter, imp, &out);
    if (st != EMBER_OK) { free(imp); ember_py_raise_status(st); return NULL; }
    /* Consumed: the capsule's destructor must no longer call the deleter. */
    PyCapsule_SetName(cap, versioned ? "used_dltensor_versioned" : "used_dltensor");
    PyObject* t = SWIG_InternalNewPointerObj(out, SWIGTYPE_p_ember_tensor, SWIG_POINTER_OWN);
    return Py_BuildValue("(Ni)", t, (int)((flags & EMBER_DLPACK_FLAG_READ_ONLY) != 0));
}
%}
