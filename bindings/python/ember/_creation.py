"""Creation functions and conversion from Python objects, NumPy and DLPack."""
import array as _pyarray
import builtins
import operator
import sys
import math

from . import _ember_c as _c
from . import _dtypes as _dt
from ._array import Array, _wrap, _SCALARS, _scalar_handle
from ._backend import Device, as_device, on_device

_DEFAULT = -1  # EMBER_DTYPE_DEFAULT


def _code(dtype):
    return _DEFAULT if dtype is None else _dt.as_dtype(dtype).code


def _from_bytes(raw, dtype, shape):
    return _wrap(_c.ember_py_from_buffer(raw, dtype.code, tuple(shape)))


class _ForeignLeaf(TypeError):
    """A nested sequence holds something other than Python scalars and ember arrays."""


def _flatten_nested(obj):
    """(flat list, shape) of nested sequences of scalars / 0-d arrays. NumPy scalars (some
    subclass float or complex) raise TypeError: asarray lets NumPy infer their dtype."""
    if isinstance(obj, _SCALARS) and (type(obj) in _SCALARS or _numpy_module(obj) is None):
        return [obj], ()
    if isinstance(obj, Array):
        return [obj], None
    if not isinstance(obj, (list, tuple)):
        raise _ForeignLeaf(f"cannot convert {type(obj).__name__} to an ember array")
    if len(obj) == 0:
        return [], (0,)
    flat, shape0 = [], None
    for item in obj:
        f, s = _flatten_nested(item)
        if s is None:
            raise TypeError("nested sequences mixing arrays are not supported; use stack()")
        if shape0 is None:
            shape0 = s
        elif s != shape0:
            raise ValueError("setting an array element with a sequence: the nested sequences are not rectangular")
        flat.extend(f)
    return flat, (len(obj),) + shape0


def _infer_dtype(flat):
    kind = "b"
    for v in flat:
        if isinstance(v, builtins.bool):
            continue
        if isinstance(v, builtins.int):
            kind = "i" if kind == "b" else kind
        elif isinstance(v, builtins.float):
            kind = "f" if kind in "bi" else kind
        elif isinstance(v, builtins.complex):
            kind = "c"
        else:
            raise TypeError(f"cannot convert {type(v).__name__} to an ember array element")
    if kind == "b":
        return _dt.bool_
    if kind == "i":
        return _dt.int64
    if kind == "f":
        return _dt.default_float()
    return _dt.default_complex()


def _from_python(obj, dtype):
    flat, shape = _flatten_nested(obj)
    d = _dt.as_dtype(dtype) if dtype is not None else _infer_dtype(flat) if flat else _dt.default_float()
    if d.kind != "c" and dtype is not None and any(isinstance(v, builtins.complex) for v in flat):
        raise TypeError(f"cannot convert a complex number to {d.name} (take .real or pass a complex dtype)")
    if d.kind == "c" or any(isinstance(v, builtins.complex) for v in flat):
        vals = []
        for v in flat:
            c = builtins.complex(v)
            vals.append(c.real)
            vals.append(c.imag)
        t = _from_bytes(_pyarray.array("d", vals).tobytes(), _dt.complex128, shape)
    elif d.kind in "iu" or (d.kind == "b" and all(isinstance(v, (builtins.bool, builtins.int)) for v in flat)):
        if d.kind == "u" and not any(isinstance(v, builtins.float) for v in flat) and any(v > (1 << 63) - 1 for v in flat):
            t = _from_bytes(_pyarray.array("Q", flat).tobytes(), _dt.uint64, shape)
        else:
            for v in flat:
                if isinstance(v, builtins.float):
                    break
            else:
                ints = [builtins.int(v) for v in flat]
                if d.kind in "iu" and ints:
                    info = _dt.iinfo(d)
                    for v in flat:  # Python ints out of range fail, as in NumPy; others cast
                        if type(v) is builtins.int and not info.min <= v <= info.max:
                            raise OverflowError(f"Python integer {v} out of bounds for {d.name}")
                try:
                    t = _from_bytes(_pyarray.array("q", ints).tobytes(), _dt.int64, shape)
                except OverflowError:
                    raise OverflowError("Python int too large for int64") from None
                return t if t.dtype == d else _wrap(_c.ember_astype(t._h, d.code))
            t = _from_bytes(_pyarray.array("d", [builtins.float(v) for v in flat]).tobytes(), _dt.float64, shape)
    else:
        t = _from_bytes(_pyarray.array("d", [builtins.float(v) if not isinstance(v, Array) else builtins.float(v) for v in flat]).tobytes(), _dt.float64, shape)
    return t if t.dtype == d else _wrap(_c.ember_astype(t._h, d.code))


def _numpy_module(obj):
    mod = type(obj).__module__
    if mod == "numpy" or mod.startswith("numpy."):
        import numpy as np
        return np
    return None


# NumPy dtype -> ember dtype. NumPy 2's dtype.name is a Python property of ~5 us, which
# made em.asarray of a small array take 13 us; a dict lookup of the dtype takes 0.15.
_FROM_NUMPY = {}


def _numpy_dtype(npdtype):
    """The ember dtype of a NumPy dtype (any byte order), or None."""
    d = _FROM_NUMPY.get(npdtype)
    if d is None:
        d = _dt.BY_NAME.get(npdtype.name)
        if d is not None:
            _FROM_NUMPY[npdtype] = d
    return d


def _from_numpy(a, dtype, copy):
    import numpy as np
    d = _numpy_dtype(a.dtype)
    if d is None:
        if a.dtype.kind == "O":
            return _from_python(a.tolist(), dtype)
        raise TypeError(f"NumPy dtype {a.dtype} has no ember equivalent")
    if copy is False:
        if dtype is not None and _dt.as_dtype(dtype) != d:
            raise ValueError("asarray(copy=False): the dtype differs, a copy is needed")
        return wrap_numpy(a)
    if not a.flags.c_contiguous or not a.dtype.isnative:
        a = np.ascontiguousarray(a, dtype=a.dtype.newbyteorder("="))
    t = _wrap(_c.ember_py_from_buffer(a, d.code, a.shape))
    if dtype is not None and _dt.as_dtype(dtype) != d:
        t = _wrap(_c.ember_astype(t._h, _dt.as_dtype(dtype).code))
    return t


def wrap_numpy(a):
    """Zero-copy Array over a NumPy array's memory (host backends only); the NumPy array
    stays alive as long as any view of the Array's storage does."""
    import numpy as np
    d = _numpy_dtype(a.dtype)
    if d is None or not a.dtype.isnative:
        raise ValueError(f"cannot wrap NumPy dtype {a.dtype} without a copy")
    item = a.itemsize
    if any(s % item for s in a.strides):
        raise ValueError("cannot wrap a NumPy array whose strides are not multiples of its item size")
    strides = tuple(s // item for s in a.strides)
    addr = a.__array_interface__["data"][0]
    x = _wrap(_c.ember_py_wrap_address(a, addr, d.code, a.shape, strides))
    if not a.flags.writeable:  # np.broadcast_to results, read-only mappings: never written
        _c.ember_tensor_set_read_only(x._h)
    return x


def asarray(obj, /, *, dtype=None, device=None, copy=None):
    """Array API asarray. NumPy arrays are copied unless copy=False (zero-copy wrap)."""
    if (type(obj) is list or type(obj) is tuple) and device is None and copy is not False:
        # Nested lists of bools, ints and floats in C; None: the cases below decide.
        t = _c.from_nested(obj, -1 if dtype is None else _dt.as_dtype(dtype).code)
        if t is not None:
            return t
    if type(obj) is Array or isinstance(obj, Array):
        x = obj
        dev = as_device(device)
        if dev is not None and dev != x.device:
            if copy is False:
                raise ValueError("asarray(copy=False): moving to another device needs a copy")
            x = x.to_device(dev)
        if dtype is not None and _dt.as_dtype(dtype) != x.dtype:
            if copy is False:
                raise ValueError("asarray(copy=False): changing the dtype needs a copy")
            return _wrap(_c.ember_astype(x._h, _dt.as_dtype(dtype).code))
        if copy and x is obj:
            return x.copy()
        return x
    with on_device(device):
        # Python scalars exactly: NumPy's float64 and complex128 scalars subclass float and
        # complex but carry a dtype, which the NumPy path below keeps (as NumPy and PyTorch).
        if type(obj) in _SCALARS:
            if dtype is None:
                dtype = _dt.uint64 if type(obj) is builtins.int and obj >= 1 << 63 else _infer_dtype([obj])
            return full((), obj, dtype=dtype)
        np = _numpy_module(obj)
        if np is not None:
            a = obj if isinstance(obj, np.ndarray) else np.asarray(obj)
            return _from_numpy(a, dtype, copy)
        if hasattr(obj, "__dlpack__") and not isinstance(obj, (list, tuple)):
            t = from_dlpack(obj, copy=copy)
            if dtype is not None and _dt.as_dtype(dtype) != t.dtype:
                t = _wrap(_c.ember_astype(t._h, _dt.as_dtype(dtype).code))
            return t
        if copy is False:
            raise ValueError("asarray(copy=False) needs an object whose memory can be shared")
        if isinstance(obj, (list, tuple)):
            try:
                return _from_python(obj, dtype)
            except _ForeignLeaf as e:
                # NumPy scalars among the leaves ([np.float32(1), ...]): NumPy infers the
                # dtype as it would for the list itself
                np = sys.modules.get("numpy")
                try:
                    a = np.asarray(obj) if np is not None else None
                except Exception:
                    a = None
                if a is None or a.dtype.kind not in "biufc":
                    raise TypeError(str(e)) from None
                return _from_numpy(a, dtype, True)
        if hasattr(obj, "__array_interface__") or hasattr(obj, "__array__"):
            import numpy as np
            return _from_numpy(np.asarray(obj), dtype, True)
        if isinstance(obj, (bytes, bytearray, memoryview)):
            raise TypeError("asarray: raw buffers need a dtype and shape; use frombuffer()")
        if hasattr(obj, "__index__"):
            return asarray(int(obj), dtype=dtype)
        if hasattr(obj, "__float__"):
            return asarray(float(obj), dtype=dtype)
        raise TypeError(f"cannot convert {type(obj).__name__} to an ember array")


def frombuffer(buffer, dtype, shape=None):
    d = _dt.as_dtype(dtype)
    n = memoryview(buffer).nbytes // d.itemsize
    return _wrap(_c.ember_py_from_buffer(buffer, d.code, tuple(shape) if shape is not None else (n,)))


def _active_device():
    from ._backend import get_backend_device
    return get_backend_device()


def from_dlpack(x, /, *, device=None, copy=None):
    """Array API from_dlpack: imports host memory zero-copy (copy=True copies)."""
    if isinstance(x, Array):
        return asarray(x, device=device, copy=copy)
    dev = x.__dlpack_device__() if hasattr(x, "__dlpack_device__") else (1, 0)
    if int(dev[0]) not in (1, 3):
        if copy is False:
            raise BufferError(f"from_dlpack: device type {dev[0]} cannot be imported without a copy")
    try:
        cap = x.__dlpack__(max_version=(1, 0), dl_device=(1, 0), copy=copy)
    except TypeError:
        cap = x.__dlpack__()
    from ._errors import UnsupportedError
    try:
        t, read_only = _c.ember_py_from_dlpack_capsule(cap)
        a = _wrap(t)
        if read_only:  # the producer's memory: writes into it fail instead of reaching it
            _c.ember_tensor_set_read_only(a._h)
    except UnsupportedError:
        # the active backend keeps tensors in device memory: import on the host, then copy
        if copy is False:
            raise BufferError("from_dlpack: the active backend cannot share host memory (copy=False given)") from None
        with on_device(Device("reference", 0)):
            t, read_only = _c.ember_py_from_dlpack_capsule(cap)
        return _wrap(t).to_device(device if device is not None else _active_device())
    if copy:
        a = a.copy()
    if device is not None:
        a = a.to_device(device)
    return a


# ---------------------------------------------------------------- creation
def _fill_dtype(value, dtype):
    if dtype is not None:
        return _dt.as_dtype(dtype)
    if isinstance(value, Array):
        return value.dtype
    return _infer_dtype([value])


_EMPTY, _ZEROS, _ONES = 0, 1, 2  # ember_py_create's kinds (bindings/ember.i)


def _create(kind, shape, dtype, device):
    """ember_empty / zeros / ones of shape on device, straight to an Array. The C side
    takes shape as an int or a sequence of ints (or objects with __index__) and raises
    TypeError for anything else."""
    if device is None:  # no context switch: a third of em.zeros(10)'s time
        return _c.ember_py_create(kind, shape, _code(dtype))
    with on_device(device):
        return _c.ember_py_create(kind, shape, _code(dtype))


def _empty(shape, *, dtype=None, device=None):
    return _create(_EMPTY, shape, dtype, device)


def _zeros(shape, *, dtype=None, device=None):
    return _create(_ZEROS, shape, dtype, device)


def _ones(shape, *, dtype=None, device=None):
    return _create(_ONES, shape, dtype, device)


# C functions (bindings/ember.i, make_creator): a shape with dtype=None or an Ember dtype
# object and no device goes straight to C; every other call to the Python function above.
empty = _c.make_creator(_EMPTY, _empty, __name__.rpartition(".")[0])
zeros = _c.make_creator(_ZEROS, _zeros, __name__.rpartition(".")[0])
ones = _c.make_creator(_ONES, _ones, __name__.rpartition(".")[0])


def full(shape, fill_value, *, dtype=None, device=None):
    d = _fill_dtype(fill_value, dtype)
    with on_device(device):
        t = _c.ember_empty(shape, d.code)  # the typemap takes the shape as zeros() does
        _c.ember_assign(t, fill_value._h if isinstance(fill_value, Array) else _scalar_handle(fill_value, d))
        return _wrap(t)


def empty_like(x, /, *, dtype=None, device=None):
    with on_device(device):
        return _wrap(_c.ember_empty_like(x._h, _code(dtype)))


def zeros_like(x, /, *, dtype=None, device=None):
    with on_device(device):
        return _wrap(_c.ember_zeros_like(x._h, _code(dtype)))


def ones_like(x, /, *, dtype=None, device=None):
    with on_device(device):
        return _wrap(_c.ember_ones_like(x._h, _code(dtype)))


def full_like(x, /, fill_value, *, dtype=None, device=None):
    d = _dt.as_dtype(dtype) if dtype is not None else x.dtype
    with on_device(device):
        t = _c.ember_empty_like(x._h, d.code)
        _c.ember_assign(t, _scalar_handle(fill_value, d) if isinstance(fill_value, _SCALARS) else fill_value._h)
        return _wrap(t)


def _is_integer(v):
    """int, bool and integer scalars of other libraries (NumPy's): what has __index__."""
    try:
        operator.index(v)
        return True
    except TypeError:
        return False


def arange(start, /, stop=None, step=1, *, dtype=None, device=None):
    if stop is None:
        start, stop = 0, start
    if step == 0:
        raise ValueError("arange: step must not be 0")
    if dtype is None:
        # By the Python types, as NumPy and the array API do: arange(6.0) is floating even
        # though its values are integral (the C call alone would make it int64).
        dtype = _dt.int64 if all(_is_integer(v) for v in (start, stop, step)) else _dt.default_float()
    with on_device(device):
        return _wrap(_c.ember_arange(float(start), float(stop), float(step), _code(dtype)))


def linspace(start, stop, /, num, *, dtype=None, device=None, endpoint=True):
    d = None if dtype is None else _dt.as_dtype(dtype)
    if isinstance(start, builtins.complex) or isinstance(stop, builtins.complex) or (d is not None and d.kind == "c"):
        # real and imaginary parts are each spaced linearly (ember_linspace is real)
        cd = d or _dt.default_complex()
        rd = _dt.float64 if cd == _dt.complex128 else _dt.float32
        start, stop = builtins.complex(start), builtins.complex(stop)
        re = linspace(start.real, stop.real, num, dtype=rd, device=device, endpoint=endpoint)
        im = linspace(start.imag, stop.imag, num, dtype=rd, device=device, endpoint=endpoint)
        return re.astype(cd) + im.astype(cd) * 1j
    with on_device(device):
        return _wrap(_c.ember_linspace(float(start), float(stop), int(num), 1 if endpoint else 0, _code(dtype)))


def eye(n_rows, n_cols=None, /, *, k=0, dtype=None, device=None):
    with on_device(device):
        return _wrap(_c.ember_eye(int(n_rows), int(n_rows if n_cols is None else n_cols), int(k), _code(dtype)))


def tril(x, /, *, k=0):
    return _wrap(_c.ember_tril(x._h, int(k)))


def triu(x, /, *, k=0):
    return _wrap(_c.ember_triu(x._h, int(k)))


def meshgrid(*arrays, indexing="xy"):
    if indexing not in ("xy", "ij"):
        raise ValueError("meshgrid: indexing must be 'xy' or 'ij'")
    if not arrays:
        return []
    return [_wrap(h) for h in _c.ember_py_meshgrid([a._h for a in arrays], 0 if indexing == "xy" else 1)]
