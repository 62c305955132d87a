"""NumPy's dtype helpers: common_type, min_scalar_type, mintypecode and typename, in
Ember's dtypes (NumPy's one-letter codes where NumPy's answer is a code).
tests/python/test_numpy_types.py checks them against NumPy."""
import builtins
import math

from . import _dtypes as _dt
from ._array import Array
from ._creation import asarray

__all__ = ["common_type", "min_scalar_type", "mintypecode", "typename"]

# NumPy's one-letter type codes of Ember's dtypes (Linux x86-64: int64 is 'l'); bfloat16 has none.
_CODES = {"bool": "?", "int8": "b", "uint8": "B", "int16": "h", "uint16": "H", "int32": "i", "uint32": "I",
          "int64": "l", "uint64": "L", "float16": "e", "float32": "f", "float64": "d", "complex64": "F",
          "complex128": "D"}

# What NumPy's typename says of each code.
_CODE_NAMES = {"S1": "character", "?": "bool", "B": "unsigned char", "b": "signed char", "H": "unsigned short",
               "h": "short", "I": "unsigned integer", "i": "integer", "L": "unsigned long integer",
               "l": "long integer", "Q": "unsigned long long integer", "q": "long long integer",
               "f": "single precision", "d": "double precision", "g": "long precision",
               "F": "complex single precision", "D": "complex double precision",
               "G": "complex long double precision", "S": "string", "U": "unicode", "V": "void", "O": "object"}


def typename(char):
    """NumPy's description of a one-letter type code ('d': 'double precision')."""
    return _CODE_NAMES[char]


def common_type(*arrays):
    """The float or complex dtype all of arrays convert to without losing precision:
    integers count as float64, half types as themselves; any complex operand makes it complex."""
    is_complex, bits = False, 16
    for a in arrays:
        d = a.dtype if isinstance(a, Array) else asarray(a).dtype
        if d.kind == "b" or d.kind not in "iufc":
            raise TypeError("can't get common type for non-numeric array")
        is_complex = is_complex or d.kind == "c"
        bits = builtins.max(bits, 64 if d.kind in "iu" else d.itemsize * 8 // (2 if d.kind == "c" else 1))
    if is_complex:
        return _dt.complex64 if bits <= 32 else _dt.complex128
    return {16: _dt.float16, 32: _dt.float32, 64: _dt.float64}[bits]


def _smallest_float(v):
    # NumPy's bounds, rounder than the dtypes' largest values; NaN and infinities fit any float
    v = abs(v)
    if math.isnan(v) or math.isinf(v) or v < 65000.0:
        return _dt.float16
    return _dt.float32 if v < 3.4e38 else _dt.float64


def min_scalar_type(a):
    """The smallest dtype that holds the value a (a Python or 0-d scalar: uint8 for 200, int8
    for -1, float16 for 3.1, complex64 for 1j); an array of dimension >= 1 keeps its dtype."""
    if isinstance(a, Array) and a.ndim > 0:
        return a.dtype
    if isinstance(a, Array):
        kind = a.dtype.kind
        a = builtins.bool(a) if kind == "b" else builtins.int(a) if kind in "iu" else \
            builtins.complex(a) if kind == "c" else builtins.float(a)
    if isinstance(a, builtins.bool):
        return _dt.bool_
    if isinstance(a, builtins.int):
        candidates = ("uint8", "uint16", "uint32", "uint64") if a >= 0 else ("int8", "int16", "int32", "int64")
        for name in candidates:
            info = _dt.iinfo(_dt.as_dtype(name))
            if info.min <= a <= info.max:
                return _dt.as_dtype(name)
        raise OverflowError(f"min_scalar_type: {a} fits no Ember integer dtype (NumPy answers object)")
    if isinstance(a, builtins.complex):
        widest = builtins.max(_smallest_float(a.real), _smallest_float(a.imag), key=lambda d: d.itemsize)
        return _dt.complex128 if widest == _dt.float64 else _dt.complex64
    return _smallest_float(builtins.float(a))


_BY_SIZE = "GDFgdfQqLlIiHhBb?"


def mintypecode(typechars, typeset="GDFgdf", default="d"):
    """The one-letter code of the smallest type in typeset that the codes (or arrays) in
    typechars convert to safely; default when none of them is in typeset."""
    codes = set()
    for t in typechars:
        if isinstance(t, str):
            codes.update(t)
        else:
            codes.add(_CODES.get((t if isinstance(t, Array) else asarray(t)).dtype.name, ""))
    chosen = codes & set(typeset)
    if not chosen:
        return default
    if "F" in chosen and "d" in chosen:
        return "D"
    return builtins.min(chosen, key=_BY_SIZE.index)
