"""__array_namespace_info__ (array API inspection)."""
from . import _dtypes as _dt
from ._backend import Device, backend_list, get_backend_device
from . import _ember_c as _c


class Info:
    def capabilities(self):
        return {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": _c.EMBER_MAX_DIMS}

    def default_device(self):
        return get_backend_device()

    def default_dtypes(self, *, device=None):
        f = _dt.default_float()
        return {"real floating": f, "complex floating": _dt.default_complex(),
                "integral": _dt.int64, "indexing": _dt.int64}

    def devices(self):
        out = []
        for name in backend_list(True):
            for i in range(_c.ember_backend_device_count(name)):
                out.append(Device(name, i))
        return out

    def dtypes(self, *, device=None, kind=None):
        names = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                 "float32", "float64", "complex64", "complex128"]
        out = {n: _dt.BY_NAME[n] for n in names}
        if kind is None:
            return out
        return {n: d for n, d in out.items() if _dt.isdtype(d, kind)}


def __array_namespace_info__():
    return Info()
