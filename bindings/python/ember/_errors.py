"""Exceptions: each Ember status code maps to one class, registered with the C layer so
every failing C call raises it with Ember's own message (``exc.status`` holds the code)."""
from . import _ember_c as _c


class EmberError(Exception):
    """Base of every error raised from an Ember status code (``.status`` is the code)."""
    status = None


class InvalidArgumentError(EmberError, ValueError):
    pass


class EmberIndexError(EmberError, IndexError):
    pass


class EmberOverflowError(EmberError, OverflowError):
    """A Python int that does not fit the dtype it meets (uint8 array + 300), as NumPy's OverflowError."""


class ShapeError(EmberError, ValueError):
    pass


class DTypeError(EmberError, TypeError):
    pass


class UnsupportedError(EmberError, NotImplementedError):
    pass


class BackendMismatchError(EmberError, ValueError):
    """Tensors of different backends or devices were mixed in one operation."""


class BackendUnavailableError(EmberError, ValueError):
    """Unknown backend name or device."""


class EmberMemoryError(EmberError, MemoryError):
    pass


class DeviceError(EmberError, RuntimeError):
    pass


class EmberIOError(EmberError, OSError):
    pass


class FormatError(EmberError, ValueError):
    pass


class PluginError(EmberError, RuntimeError):
    pass


class LinAlgError(EmberError, ValueError):
    """Singular matrix, not positive definite, or no convergence (like numpy.linalg.LinAlgError)."""


class InternalError(EmberError, RuntimeError):
    pass


STATUS_CLASSES = {
    _c.EMBER_ERR_INVALID_ARGUMENT: InvalidArgumentError,
    _c.EMBER_ERR_INDEX: EmberIndexError,
    _c.EMBER_ERR_OVERFLOW: EmberOverflowError,
    _c.EMBER_ERR_SHAPE: ShapeError,
    _c.EMBER_ERR_UNSUPPORTED_DTYPE: DTypeError,
    _c.EMBER_ERR_UNSUPPORTED: UnsupportedError,
    _c.EMBER_ERR_BACKEND_MISMATCH: BackendMismatchError,
    _c.EMBER_ERR_BACKEND_UNAVAILABLE: BackendUnavailableError,
    _c.EMBER_ERR_OUT_OF_MEMORY: EmberMemoryError,
    _c.EMBER_ERR_DEVICE: DeviceError,
    _c.EMBER_ERR_IO: EmberIOError,
    _c.EMBER_ERR_FORMAT: FormatError,
    _c.EMBER_ERR_PLUGIN: PluginError,
    _c.EMBER_ERR_LINALG: LinAlgError,
    _c.EMBER_ERR_INTERNAL: InternalError,
}

_c.ember_py_set_error_map(dict(STATUS_CLASSES))


def missing(name, why="the C ABI has no such operation yet"):
    """A function that raises NotImplementedError naming itself."""
    def f(*args, **kwargs):
        raise NotImplementedError(f"ember.{name} is not available: {why} (see docs/bindings.md)")
    f.__name__ = name.rsplit(".", 1)[-1]
    f.__qualname__ = f.__name__
    f.__doc__ = f"Not implemented: {why}."
    f._ember_missing = True
    return f
