"""dtype objects, promotion (ember_result_type), can_cast, finfo / iinfo, isdtype."""
import builtins
import math

from . import _ember_c as _c


class DType:
    """An Ember dtype. Compares equal to itself, its name and the matching NumPy dtype."""
    __slots__ = ("name", "code", "itemsize", "kind", "_np")

    def __init__(self, name, code, kind):
        self.name = name
        self.code = code
        self.itemsize = _c.ember_dtype_size(code)
        self.kind = kind        # 'b' bool, 'i' signed, 'u' unsigned, 'f' real float, 'c' complex
        self._np = None

    def __repr__(self):
        return f"ember.{self.name}"

    __str__ = lambda self: self.name

    def __eq__(self, other):
        if isinstance(other, DType):
            return self.code == other.code
        if isinstance(other, str):
            return self.name == other or (self.name == "bool" and other == "bool_")
        if other is builtins.bool or other is builtins.int or other is builtins.float or other is builtins.complex:
            return False
        name = getattr(other, "name", None)  # numpy dtypes and scalar types
        if name is None and isinstance(other, type):
            name = getattr(getattr(other, "dtype", None), "name", None)
            try:
                import numpy as np
                name = np.dtype(other).name
            except Exception:
                pass
        return isinstance(name, str) and self == name

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash(("ember.dtype", self.code))

    def __reduce__(self):
        return (_by_name, (self.name,))

    @property
    def bits(self):
        return self.itemsize * 8


_SPECS = [
    ("bool", _c.EMBER_BOOL, "b"),
    ("int8", _c.EMBER_INT8, "i"), ("int16", _c.EMBER_INT16, "i"),
    ("int32", _c.EMBER_INT32, "i"), ("int64", _c.EMBER_INT64, "i"),
    ("uint8", _c.EMBER_UINT8, "u"), ("uint16", _c.EMBER_UINT16, "u"),
    ("uint32", _c.EMBER_UINT32, "u"), ("uint64", _c.EMBER_UINT64, "u"),
    ("float16", _c.EMBER_FLOAT16, "f"), ("bfloat16", _c.EMBER_BFLOAT16, "f"),
    ("float32", _c.EMBER_FLOAT32, "f"), ("float64", _c.EMBER_FLOAT64, "f"),
    ("complex64", _c.EMBER_COMPLEX64, "c"), ("complex128", _c.EMBER_COMPLEX128, "c"),
]
BY_CODE = [None] * len(_SPECS)
BY_NAME = {}
for _n, _code, _k in _SPECS:
    _d = DType(_n, _code, _k)
    BY_CODE[_code] = _d
    BY_NAME[_n] = _d
BY_NAME["bool_"] = BY_NAME["bool"]

bool_ = BY_NAME["bool"]
int8, int16, int32, int64 = (BY_NAME[n] for n in ("int8", "int16", "int32", "int64"))
uint8, uint16, uint32, uint64 = (BY_NAME[n] for n in ("uint8", "uint16", "uint32", "uint64"))
float16, bfloat16, float32, float64 = (BY_NAME[n] for n in ("float16", "bfloat16", "float32", "float64"))
complex64, complex128 = BY_NAME["complex64"], BY_NAME["complex128"]

# Array-interface type strings (bfloat16 has none: NumPy gets it as float32 through __array__).
TYPESTR = {"bool": "|b1", "int8": "|i1", "int16": "<i2", "int32": "<i4", "int64": "<i8",
           "uint8": "|u1", "uint16": "<u2", "uint32": "<u4", "uint64": "<u8", "float16": "<f2",
           "float32": "<f4", "float64": "<f8", "complex64": "<c8", "complex128": "<c16"}
# memoryview / struct formats
FORMAT = {"bool": "?", "int8": "b", "int16": "h", "int32": "i", "int64": "q", "uint8": "B",
          "uint16": "H", "uint32": "I", "uint64": "Q", "float16": "e", "float32": "f", "float64": "d"}


def _by_name(name):
    return BY_NAME[name]


def as_dtype(d, allow_none=False):
    """An Ember DType from a DType, a name, a NumPy dtype / scalar type, or a Python type."""
    if d is None:
        if allow_none:
            return None
        raise TypeError("a dtype is required")
    if isinstance(d, DType):
        return d
    if isinstance(d, str):
        try:
            return BY_NAME[d]
        except KeyError:
            raise TypeError(f"unknown dtype {d!r}") from None
    if d is builtins.bool:
        return bool_
    if d is builtins.int:
        return int64
    if d is builtins.float:
        return float64
    if d is builtins.complex:
        return complex128
    name = getattr(d, "name", None)
    if not isinstance(name, str):
        try:
            import numpy as np
            name = np.dtype(d).name
        except Exception:
            name = None
    if isinstance(name, str) and name in BY_NAME:
        return BY_NAME[name]
    raise TypeError(f"cannot interpret {d!r} as an ember dtype")


def default_float():
    return BY_CODE[_c.ember_ctx_get_default_float()]


def default_complex():
    return complex128 if default_float() == float64 else complex64


def result_type_pair(a, b):
    return BY_CODE[_c.ember_result_type(a.code, b.code)]


def can_cast(from_, to):
    from ._array import Array
    if isinstance(from_, Array):
        from_ = from_.dtype
    return builtins.bool(_c.ember_can_cast(as_dtype(from_).code, as_dtype(to).code))


def result_type(*arrays_and_dtypes):
    """Array API result_type: arrays, dtypes and (2024.12) Python scalars."""
    from ._array import Array
    dts, scalars = [], []
    for x in arrays_and_dtypes:
        if isinstance(x, Array):
            dts.append(x.dtype)
        elif isinstance(x, (builtins.bool, builtins.int, builtins.float, builtins.complex)):
            scalars.append(x)
        else:
            dts.append(as_dtype(x))
    if not dts:
        if not scalars:
            raise ValueError("result_type needs at least one array or dtype")
        raise TypeError("result_type needs at least one array or dtype besides Python scalars")
    r = dts[0]
    for d in dts[1:]:
        r = result_type_pair(r, d)
    for s in scalars:
        if isinstance(s, builtins.bool):
            continue
        if isinstance(s, builtins.int):
            if r.kind == "b":
                r = int64
        elif isinstance(s, builtins.float):
            if r.kind in "biu":
                r = default_float()
        else:
            if r.kind in "biu":
                r = default_complex()
            elif r.kind == "f":
                r = complex128 if r == float64 else complex64
    return r


class finfo_object:
    __slots__ = ("bits", "eps", "max", "min", "smallest_normal", "dtype", "resolution", "tiny")

    def __repr__(self):
        return f"finfo(resolution={self.resolution}, min={self.min}, max={self.max}, dtype={self.dtype.name})"


class iinfo_object:
    __slots__ = ("bits", "max", "min", "dtype")

    def __repr__(self):
        return f"iinfo(min={self.min}, max={self.max}, dtype={self.dtype.name})"


_FINFO = {  # bits, eps, max, smallest_normal, precision digits
    "float16": (16, 2.0 ** -10, 65504.0, 2.0 ** -14, 3),
    "bfloat16": (16, 2.0 ** -7, 3.3895313892515355e38, 2.0 ** -126, 2),
    "float32": (32, 2.0 ** -23, 3.4028234663852886e38, 2.0 ** -126, 6),
    "float64": (64, 2.0 ** -52, 1.7976931348623157e308, 2.0 ** -1022, 15),
}


def finfo(type):
    from ._array import Array
    d = type.dtype if isinstance(type, Array) else as_dtype(type)
    if d.kind == "c":
        d = float32 if d == complex64 else float64
    if d.kind != "f":
        raise TypeError(f"finfo: {d.name} is not a floating dtype")
    bits, eps, mx, tiny, digits = _FINFO[d.name]
    f = finfo_object()
    f.bits, f.eps, f.max, f.min = bits, eps, mx, -mx
    f.smallest_normal = f.tiny = tiny
    f.resolution = 10.0 ** -digits
    f.dtype = d
    return f


def iinfo(type):
    from ._array import Array
    d = type.dtype if isinstance(type, Array) else as_dtype(type)
    if d.kind not in "iu":
        raise TypeError(f"iinfo: {d.name} is not an integer dtype")
    i = iinfo_object()
    i.bits = d.itemsize * 8
    i.dtype = d
    if d.kind == "i":
        i.min, i.max = -(1 << (i.bits - 1)), (1 << (i.bits - 1)) - 1
    else:
        i.min, i.max = 0, (1 << i.bits) - 1
    return i


_KINDS = {
    "bool": lambda d: d.kind == "b",
    "signed integer": lambda d: d.kind == "i",
    "unsigned integer": lambda d: d.kind == "u",
    "integral": lambda d: d.kind in "iu",
    "real floating": lambda d: d.kind == "f",
    "complex floating": lambda d: d.kind == "c",
    "numeric": lambda d: d.kind in "iufc",
}


def isdtype(dtype, kind):
    """Array API isdtype: kind is a dtype, a kind name, or a tuple of those."""
    dtype = as_dtype(dtype)
    if isinstance(kind, tuple):
        return any(isdtype(dtype, k) for k in kind)
    if isinstance(kind, str):
        try:
            return _KINDS[kind](dtype)
        except KeyError:
            raise ValueError(f"isdtype: unknown kind {kind!r}") from None
    return dtype == as_dtype(kind)
