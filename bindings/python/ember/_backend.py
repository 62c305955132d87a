"""Backends, devices and the calling thread's context (see bindings/ember.i: every thread
gets its own ember_ctx_t; set_backend switches all threads, using_backend only this one)."""
import contextlib

from . import _ember_c as _c

PERSIST = _c.EMBER_PERSIST
_DEVICE_TYPES = {_c.EMBER_DEVICE_CPU: "cpu", _c.EMBER_DEVICE_GPU: "gpu",
                 _c.EMBER_DEVICE_ACCELERATOR: "accelerator", _c.EMBER_DEVICE_OTHER: "other"}


class Device:
    """A backend and a device index of it: Device('cpu', 0). Array API device object."""
    __slots__ = ("backend", "index")

    def __init__(self, backend, index=0):
        self.backend = str(backend)
        self.index = int(index)

    def __eq__(self, other):
        if isinstance(other, str):
            other = as_device(other)
        return isinstance(other, Device) and (self.backend, self.index) == (other.backend, other.index)

    def __hash__(self):
        return hash((self.backend, self.index))

    def __repr__(self):
        return f"Device({self.backend!r}, {self.index})"

    def __str__(self):
        return f"{self.backend}:{self.index}"

    def __reduce__(self):
        return (Device, (self.backend, self.index))


def as_device(d):
    """None, a Device, 'name', 'name:index' or (name, index) -> Device or None."""
    if d is None or isinstance(d, Device):
        return d
    if isinstance(d, str):
        name, _, idx = d.partition(":")
        return Device(name, int(idx) if idx else _default_index(name))
    if isinstance(d, tuple) and len(d) == 2:
        return Device(d[0], d[1])
    raise TypeError(f"cannot interpret {d!r} as an ember device")


def _default_index(name):
    return 0


def backend_list(available_only=True):
    out = []
    for i in range(_c.ember_backend_count()):
        name, available, path, reason = _c.ember_backend_get(i)
        if available or not available_only:
            out.append(name)
    return out


def backend_details():
    """[(name, available, path, reason)] of every registered backend."""
    return [tuple(_c.ember_backend_get(i)) for i in range(_c.ember_backend_count())]


def get_available_backends():
    return backend_list(True)


def set_backend(name, device=None, persist=False):
    """Switch the process (every thread) to backend `name` (and device); with persist=True
    also write the choice to the user config file."""
    _c.ember_binding_set_backend(str(name), -1 if device is None else int(device), PERSIST if persist else 0)


def get_backend():
    """Name of the calling thread's active backend."""
    return _c.ember_ctx_get_backend()[0]


def get_backend_device():
    name, dev = _c.ember_ctx_get_backend()
    return Device(name, dev)


def auto_select_backend():
    """The best available backend by score and its default device: (name, Device)."""
    best, best_score = None, None
    for name in backend_list(True):
        s = _c.ember_backend_score(name)
        if best_score is None or s > best_score:
            best, best_score = name, s
    return best, Device(best, 0)


@contextlib.contextmanager
def using_backend(name, device=None):
    """with ember.using_backend('cpu'): ...  (this thread only; nests)."""
    if isinstance(name, Device):
        name, device = name.backend, name.index
    _c.ember_ctx_push_backend(str(name), -1 if device is None else int(device))
    try:
        yield
    finally:
        _c.ember_ctx_pop_backend()


def on_device(device):
    """Context manager activating `device` (None: nothing)."""
    d = as_device(device)
    if d is None:
        return contextlib.nullcontext()
    return using_backend(d.backend, d.index)


def selection_source():
    return {0: "call", 1: "env", 2: "config", 3: "auto"}.get(_c.ember_ctx_selection_source(), "?")


def _info_dict(info):
    return {"name": info.name, "vendor": info.vendor, "driver": info.driver,
            "type": _DEVICE_TYPES.get(info.type, "other"), "compute_units": info.compute_units,
            "memory_bytes": info.memory_bytes, "supports_fp64": bool(info.supports_fp64),
            "supports_fp16": bool(info.supports_fp16)}


def get_available_devices():
    """Every device of every available backend, as 'backend:index' strings."""
    out = []
    for name in backend_list(True):
        for i in range(_c.ember_backend_device_count(name)):
            out.append(f"{name}:{i}")
    return out


def device_info(device=None):
    d = as_device(device) or get_backend_device()
    return _info_dict(_c.ember_backend_device_info(d.backend, d.index))


def memory_info(device=None):
    with on_device(device):
        m = _c.ember_ctx_memory_info()
    return {"total": m.total_bytes, "free": m.free_bytes, "allocated": m.allocated_bytes,
            "cached": m.cached_bytes, "limit": m.limit_bytes}


def memory_usage(device=None):
    return memory_info(device)["allocated"]


def synchronize(device=None):
    with on_device(device):
        _c.ember_synchronize()


def set_default_device(device):
    d = as_device(device)
    set_backend(d.backend, d.index)


def get_default_device():
    return get_backend_device()


def is_available(device):
    d = as_device(device)
    try:
        return d.backend in backend_list(True) and d.index < _c.ember_backend_device_count(d.backend)
    except Exception:
        return False


def set_default_float(dtype):
    from ._dtypes import as_dtype
    _c.ember_ctx_set_default_float(as_dtype(dtype).code)


def op_binding(op, backend=None):
    """How `op` is bound on a backend: 'native', 'composite', 'reference' or 'unsupported'."""
    return _c.ember_op_binding(backend or get_backend(), op)
