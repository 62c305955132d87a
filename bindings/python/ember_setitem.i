/* x[i, j] = value in C for one element of a host tensor (included by ember.i).

   The Python __setitem__ made a view, a weak scalar tensor and an assign for this: about
   750 ns against NumPy's 100. Here the element's address comes from the strides and the
   value is stored as the assign would store it, for the conversions that cannot fail or
   round differently: a Python float into float32/float64, an int (|v| <= 2^53) into a
   float, an int that fits into an integer dtype, a bool into bool, ints or floats. Every
   other case (device memory, read-only memory, a tensor of another backend than the
   thread's, a partial or out-of-range index, NumPy scalars as keys or values, floats into
   ints, complex and half dtypes) goes to the Python method unchanged, which raises its own
   messages. */
%{
static PyObject* ember_py_setitem_fallback = NULL;

/* Stores v (a Python bool, int or float) at p in dtype; 0 when this path does not take it. */
static int ember_py_store_scalar(void* p, int dtype, PyObject* v) {
    const int is_bool = PyBool_Check(v);
    if (PyFloat_CheckExact(v)) {
        const double d = PyFloat_AS_DOUBLE(v);
        if (dtype == EMBER_FLOAT64) { memcpy(p, &d, sizeof d); return 1; }
        if (dtype == EMBER_FLOAT32) { const float f = (float)d; memcpy(p, &f, sizeof f); return 1; }
        return 0;
    }
    if (!is_bool && !PyLong_CheckExact(v)) return 0;
    int overflow = 0;
    const long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
    if (overflow || (x == -1 && PyErr_Occurred())) { PyErr_Clear(); return 0; }
    switch (dtype) {
    case EMBER_BOOL:
        if (!is_bool) return 0; /* 5 into bool is True: the core's rule, not repeated here */
        { const uint8_t b = (uint8_t)(x != 0); memcpy(p, &b, 1); }
        return 1;
    case EMBER_FLOAT64:
    case EMBER_FLOAT32:
        if (x > (1LL << 53) || x < -(1LL << 53)) return 0; /* one rounding either way only below 2^53 */
        if (dtype == EMBER_FLOAT64) { const double d = (double)x; memcpy(p, &d, sizeof d); }
        else { const float f = (float)x; memcpy(p, &f, sizeof f); }
        return 1;
    case EMBER_INT8: case EMBER_UINT8: { if (!ember_py_int_fits(x, dtype)) return 0; const uint8_t b = (uint8_t)x; memcpy(p, &b, 1); return 1; }
    case EMBER_INT16: case EMBER_UINT16: { if (!ember_py_int_fits(x, dtype)) return 0; const uint16_t h = (uint16_t)x; memcpy(p, &h, 2); return 1; }
    case EMBER_INT32: case EMBER_UINT32: { if (!ember_py_int_fits(x, dtype)) return 0; const uint32_t w = (uint32_t)x; memcpy(p, &w, 4); return 1; }
    case EMBER_INT64: case EMBER_UINT64: { if (!ember_py_int_fits(x, dtype)) return 0; memcpy(p, &x, 8); return 1; }
    default:
        return 0;
    }
}

/* 1 when x[key] = value was done here; 0 when the Python method must do it. */
static int ember_py_setitem_element(PyObject* self, PyObject* key, PyObject* value) {
    ember_tensor_t* x = ember_py_is_array(self) ? ember_py_handle_of(self) : NULL;
    int ndim = 0, read_only = 1;
    const int64_t *shape = NULL, *strides = NULL;
    ember_dtype_t dtype;
    void* base = NULL;
    if (!x || ember_tensor_ndim(x, &ndim) != EMBER_OK) return 0;
    PyObject* const* items = &key;
    Py_ssize_t nk = 1;
    if (PyTuple_CheckExact(key)) {
        items = &PyTuple_GET_ITEM(key, 0);
        nk = PyTuple_GET_SIZE(key);
    } else if (!PyLong_CheckExact(key)) {
        return 0;
    }
    if (nk != ndim) return 0;
    /* as the assign would: a tensor of another backend than the thread's raises there */
    ember_ctx_t* ctx = ember_binding_ctx();
    const char *tensor_backend = NULL, *ctx_backend = NULL;
    int tensor_device = 0, ctx_device = 0;
    if (!ctx || ember_tensor_backend(x, &tensor_backend, &tensor_device) != EMBER_OK
        || ember_ctx_get_backend(ctx, &ctx_backend, &ctx_device) != EMBER_OK || tensor_device != ctx_device
        || strcmp(tensor_backend, ctx_backend) != 0)
        return 0;
    if (ember_tensor_host_data(x, &base) != EMBER_OK) { ember_clear_error(); return 0; }
    if (ember_tensor_is_read_only(x, &read_only) != EMBER_OK || read_only || ember_tensor_dtype(x, &dtype) != EMBER_OK
        || ember_tensor_shape(x, &shape) != EMBER_OK || ember_tensor_strides(x, &strides) != EMBER_OK)
        return 0;
    int64_t offset = 0;
    for (Py_ssize_t k = 0; k < nk; ++k) {
        if (!PyLong_CheckExact(items[k])) return 0;
        int overflow = 0;
        const long long i = PyLong_AsLongLongAndOverflow(items[k], &overflow);
        if (overflow || i < -shape[k] || i >= shape[k]) { PyErr_Clear(); return 0; }
        offset += (i < 0 ? i + shape[k] : i) * strides[k];
    }
    return ember_py_store_scalar((char*)base + offset * (int64_t)ember_dtype_size(dtype), (int)dtype, value);
}

static PyObject* ember_py_setitem_fast(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
    if (nargs != 2) { PyErr_SetString(PyExc_TypeError, "__setitem__ expects a key and a value"); return NULL; }
    if (ember_py_setitem_element(self, args[0], args[1])) Py_RETURN_NONE;
    return PyObject_CallFunctionObjArgs(ember_py_setitem_fallback, self, args[0], args[1], NULL);
}
/* Array's mp_ass_subscript (ember_py_owns_slots): x[key] = value; del x[key] raises NumPy's error. */
static int ember_py_setitem_slot(PyObject* self, PyObject* key, PyObject* value) {
    if (!value) { PyErr_SetString(PyExc_ValueError, "cannot delete array elements"); return -1; }
    if (ember_py_setitem_element(self, key, value)) return 0;
    PyObject* r = PyObject_CallFunctionObjArgs(ember_py_setitem_fallback, self, key, value, NULL);
    if (!r) return -1;
    Py_DECREF(r);
    return 0;
}
static PyMethodDef ember_py_setitem_def = {"__setitem__", (PyCFunction)(void (*)(void))ember_py_setitem_fast, METH_FASTCALL, NULL};

/* install_setitem(cls, fallback): cls.__setitem__ becomes the C path above, which hands
   what it does not take to fallback(self, key, value). */
static PyObject* ember_py_fast_install_setitem(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
    if (nargs != 2 || !PyType_Check(args[0]) || !PyCallable_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "install_setitem(cls, fallback)");
        return NULL;
    }
    PyObject* descr = PyDescr_NewMethod((PyTypeObject*)args[0], &ember_py_setitem_def);
    if (!descr) return NULL;
    int rc = PyObject_SetAttrString(args[0], "__setitem__", descr);
    Py_DECREF(descr);
    if (rc) return NULL;
    Py_INCREF(args[1]);
    Py_XSETREF(ember_py_setitem_fallback, args[1]);
    if (ember_py_owns_slots(args[0])) ((PyTypeObject*)args[0])->tp_as_mapping->mp_ass_subscript = ember_py_setitem_slot;
    Py_RETURN_NONE;
}
%}
