"""Ember for Python: an array API (2024.12) namespace and Ember ML's frontend over Ember's
stable C ABI (SWIG module ``ember._ember_c``, interface bindings/ember.i).

    import ember as em
    x = em.asarray([[1.0, 2.0], [3.0, 4.0]], dtype=em.float64)
    with em.using_backend("reference"):
        y = em.softmax(x @ x.T, axis=-1)
"""
import math as _math

from . import _ember_c
from ._errors import (EmberError, InvalidArgumentError, EmberIndexError, EmberOverflowError, ShapeError, DTypeError,
                      UnsupportedError, BackendMismatchError, BackendUnavailableError, EmberMemoryError,
                      DeviceError, EmberIOError, FormatError, PluginError, LinAlgError, InternalError)
from ._dtypes import (DType, bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16,
                      bfloat16, float32, float64, complex64, complex128, can_cast, result_type, finfo, iinfo,
                      isdtype)
from ._backend import (Device, set_backend, get_backend, auto_select_backend, using_backend,
                       get_available_backends, get_available_devices, device_info, memory_info, memory_usage,
                       synchronize, set_default_device, get_default_device, is_available, set_default_float,
                       backend_details, selection_source, op_binding)
from ._array import Array
from ._creation import (asarray, empty, zeros, ones, full, empty_like, zeros_like, ones_like, full_like, arange,
                        linspace, eye, tril, triu, meshgrid, from_dlpack, frombuffer, wrap_numpy)
from ._functions import *  # noqa: F401,F403  (the array API functions)
from ._functions import __all__ as _fn_all
from ._info import __array_namespace_info__
from . import linalg, fft, random, ops, tensor, nn, stats, losses, signal, features
from ._io import save, load, savez, savez_compressed, save_safetensors, load_safetensors
from ._numpy_names import *  # noqa: F401,F403  (NumPy's names: arcsin, concatenate, ptp, isin, ...)
from ._numpy_arrays import *  # noqa: F401,F403  (NumPy's mgrid, ix_, block, insert, put, select, ...)
from ._numpy_apply import *  # noqa: F401,F403  (NumPy's vectorize, frompyfunc, piecewise, apply_along_axis, ...)
from ._numpy_einsum import *  # noqa: F401,F403  (NumPy's einsum, einsum_path)
from ._numpy_math import *  # noqa: F401,F403  (NumPy's convolve, frexp, gcd, errstate, ...)
from ._numpy_stats import *  # noqa: F401,F403  (NumPy's quantile, nanmedian, histogram2d, cov, ...)
from ._numpy_sets import *  # noqa: F401,F403  (NumPy's intersect1d, union1d, setdiff1d, ediff1d, ...)
from ._numpy_poly import *  # noqa: F401,F403  (NumPy's roots, polyadd, polyder, ..., and its window functions)
from ._numpy_text import *  # noqa: F401,F403  (NumPy's savetxt, loadtxt, genfromtxt, fromfile, array2string, set_printoptions, ...)
from ._numpy_memory import *  # noqa: F401,F403  (NumPy's shares_memory, may_share_memory, asfortranarray, require)
from ._numpy_types import *  # noqa: F401,F403  (NumPy's common_type, min_scalar_type, mintypecode, typename)

bool = bool_  # the array API's name (shadows the builtin inside this namespace only)
__array_api_version__ = "2024.12"
__version__ = _ember_c.ember_version()[1]

e = _math.e
pi = _math.pi
inf = float("inf")
nan = float("nan")
newaxis = None

Tensor = Array  # Ember ML's name


def backends():
    """Names of the available backends (`ember backends list`)."""
    return get_available_backends()


def live_tensor_count():
    """Number of live Ember tensor handles in the process (ember_live_tensor_count)."""
    return _ember_c.ember_live_tensor_count()


def set_log_callback(fn, min_level=2):
    """fn(level, message) receives Ember's log messages (warnings and up by default); None removes it."""
    _ember_c.ember_py_set_log_callback(fn, int(min_level))


def to_device(x, device, /):
    return x.to_device(device)


def get_device(x=None):
    """The device of x, or the active default device."""
    return x.device if x is not None else get_default_device()


get_device_of_tensor = get_device
