/* asarray of nested lists and tuples of Python bools, ints and floats, in C: the common
   case, where the Python path (flatten, infer, array.array, then a tensor) costs
   microseconds. Included by ember.i before its table of METH_FASTCALL functions.

   _ember_c.from_nested(obj, dtype_code) -> Array, or None when the Python path must decide:
   a leaf of any other type (complex, NumPy scalars, Arrays, subclasses of int or float),
   ragged nesting, an empty sequence anywhere, an int beyond int64, a complex dtype, or a
   float too large for a double. That path raises the errors, so their messages stay in
   one place. dtype_code < 0: inferred as the Python path does (bool, int64, or the binding
   context's default float). The values go through the same buffers as there: int64 when
   every leaf is a bool or an int and the dtype is not a float one, else float64 (float32
   when that is the dtype), then one ember_astype to the dtype where it differs. */
%{
#define EMBER_PY_NESTED_LEAF_BOOL 0
#define EMBER_PY_NESTED_LEAF_INT 1
#define EMBER_PY_NESTED_LEAF_FLOAT 2

/* Collects the leaves of seq (at depth `depth` of `ndim`) into leaves[*at...], checking
   each sequence's length against shape and each leaf's type; the widest leaf kind goes to
   *kind. 0: not a case for the fast path. */
static int ember_py_nested_collect(PyObject* seq, int depth, int ndim, const int64_t* shape, PyObject** leaves,
                                   int64_t* at, int* kind) {
    if (!(PyList_CheckExact(seq) || PyTuple_CheckExact(seq)) || PySequence_Fast_GET_SIZE(seq) != shape[depth]) return 0;
    PyObject** items = PySequence_Fast_ITEMS(seq);
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (depth + 1 < ndim) {
        for (Py_ssize_t i = 0; i < n; ++i)
            if (!ember_py_nested_collect(items[i], depth + 1, ndim, shape, leaves, at, kind)) return 0;
        return 1;
    }
    for (Py_ssize_t i = 0; i < n; ++i) {
        PyObject* v = items[i];
        if (PyFloat_CheckExact(v)) *kind = EMBER_PY_NESTED_LEAF_FLOAT;
        else if (PyLong_CheckExact(v)) { if (*kind < EMBER_PY_NESTED_LEAF_INT) *kind = EMBER_PY_NESTED_LEAF_INT; }
        else if (!PyBool_Check(v)) return 0;
        leaves[(*at)++] = v;
    }
    return 1;
}

static int ember_py_is_float_dtype(int d) {
    return d == EMBER_FLOAT16 || d == EMBER_BFLOAT16 || d == EMBER_FLOAT32 || d == EMBER_FLOAT64;
}

/* Whether integer dtype `dtype` holds x (any other dtype: true). */
static int ember_py_int_fits(long long x, int dtype) {
    int bits = 8 * (int)ember_dtype_size((ember_dtype_t)dtype);
    if (dtype >= EMBER_INT8 && dtype <= EMBER_INT64) return bits == 64 || (x >= -(1LL << (bits - 1)) && x < (1LL << (bits - 1)));
    if (dtype >= EMBER_UINT8 && dtype <= EMBER_UINT64) return x >= 0 && (bits == 64 || x < (1LL << bits));
    return 1;
}

static PyObject* ember_py_fast_from_nested(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
    if (nargs != 2) { PyErr_SetString(PyExc_TypeError, "from_nested(obj, dtype_code)"); return NULL; }
    PyObject* obj = args[0];
    int want = (int)PyLong_AsLong(args[1]);
    if (want == -1 && PyErr_Occurred()) return NULL;
    if (want == EMBER_COMPLEX64 || want == EMBER_COMPLEX128) Py_RETURN_NONE;
    int64_t shape[EMBER_MAX_DIMS];
    int ndim = 0;
    int64_t count = 1;
    for (PyObject* cur = obj; PyList_CheckExact(cur) || PyTuple_CheckExact(cur); cur = PySequence_Fast_GET_ITEM(cur, 0)) {
        if (ndim == EMBER_MAX_DIMS) Py_RETURN_NONE;
        shape[ndim] = PySequence_Fast_GET_SIZE(cur);
        if (shape[ndim] == 0) Py_RETURN_NONE;
        count *= shape[ndim++];
        if (count > ((int64_t)1 << 40)) Py_RETURN_NONE;
    }
    if (ndim == 0) Py_RETURN_NONE;
    PyObject* small_leaves[64];
    PyObject** leaves = count <= 64 ? small_leaves : (PyObject**)PyMem_Malloc((size_t)count * sizeof(PyObject*));
    if (!leaves) return PyErr_NoMemory();
    PyObject* result = NULL;
    void* values = NULL;
    int64_t at = 0;
    int kind = EMBER_PY_NESTED_LEAF_BOOL;
    if (!ember_py_nested_collect(obj, 0, ndim, shape, leaves, &at, &kind) || at != count) {
        result = Py_None;
        Py_INCREF(result);
        goto done;
    }
    {
        ember_ctx_t* ctx = ember_binding_ctx();
        if (!ctx) { ember_py_raise_status(ember_last_status()); goto done; }
        int target = want;
        if (target < 0) {
            if (kind == EMBER_PY_NESTED_LEAF_BOOL) target = EMBER_BOOL;
            else if (kind == EMBER_PY_NESTED_LEAF_INT) target = EMBER_INT64;
            else {
                ember_dtype_t d = EMBER_FLOAT32;
                ember_status_t st = ember_ctx_get_default_float(ctx, &d);
                if (st != EMBER_OK) { ember_py_raise_status(st); goto done; }
                target = (int)d;
            }
        }
        const int as_ints = kind != EMBER_PY_NESTED_LEAF_FLOAT && !ember_py_is_float_dtype(target);
        /* float32 directly: the double's rounding to float is what astype would do */
        const int as_float32 = !as_ints && target == EMBER_FLOAT32;
        values = PyMem_Malloc((size_t)count * 8);
        if (!values) { PyErr_NoMemory(); goto done; }
        for (int64_t i = 0; i < count; ++i) {
            PyObject* v = leaves[i];
            if (as_ints) {
                int overflow = 0;
                long long x = v == Py_True ? 1 : v == Py_False ? 0 : PyLong_AsLongLongAndOverflow(v, &overflow);
                if (overflow) { result = Py_None; Py_INCREF(result); goto done; }
                if (!ember_py_int_fits(x, target) && v != Py_True && v != Py_False) {  /* as NumPy: no silent wrap */
                    PyErr_Format(PyExc_OverflowError, "Python integer %lld out of bounds for %s", x, ember_dtype_name((ember_dtype_t)target));
                    goto done;
                }
                ((int64_t*)values)[i] = (int64_t)x;
            } else {
                double x = PyFloat_CheckExact(v) ? PyFloat_AS_DOUBLE(v) : v == Py_True ? 1.0 : v == Py_False ? 0.0 : PyLong_AsDouble(v);
                if (x == -1.0 && PyErr_Occurred()) { PyErr_Clear(); result = Py_None; Py_INCREF(result); goto done; }
                if (as_float32) ((float*)values)[i] = (float)x;
                else ((double*)values)[i] = x;
            }
        }
        const ember_dtype_t buffer_dtype = as_ints ? EMBER_INT64 : as_float32 ? EMBER_FLOAT32 : EMBER_FLOAT64;
        ember_tensor_t* t = NULL;
        ember_status_t st = ember_tensor_from_data(ctx, values, buffer_dtype, shape, ndim, &t);
        if (st == EMBER_OK && target != (int)buffer_dtype) {
            ember_tensor_t* converted = NULL;
            st = ember_astype(ctx, t, (ember_dtype_t)target, &converted);
            ember_tensor_release(t);
            t = converted;
        }
        if (st != EMBER_OK) { ember_py_raise_status(st); goto done; }
        result = ember_py_new_array(t);
    }
done:
    PyMem_Free(values);
    if (leaves != small_leaves) PyMem_Free(leaves);
    return result;
}
%}
