"""NumPy's names about the memory under arrays: shares_memory/may_share_memory (the C ABI's
ember_tensor_shares_memory), asfortranarray, require and isfortran. tests/python/test_numpy_memory.py
checks them against NumPy on every backend."""
import builtins

from . import _ember_c as _c
from . import _functions as F
from ._array import Array
from ._creation import asarray

__all__ = ["shares_memory", "may_share_memory", "asfortranarray", "require", "isfortran"]


def _shares(a, b, exact):
    # Anything that is not an Array would be converted into new memory, which shares nothing.
    if not (isinstance(a, Array) and isinstance(b, Array)):
        return False
    return builtins.bool(_c.ember_tensor_shares_memory(a._h, b._h, 1 if exact else 0))


def shares_memory(a, b, /, max_work=None):
    """Whether some element of a and some element of b share memory, always answered
    exactly (ember_tensor_shares_memory), so max_work bounds nothing and NumPy's
    TooHardError never comes."""
    return _shares(a, b, True)


def may_share_memory(a, b, /, max_work=None):
    """Whether a and b are views of one memory whose byte ranges overlap (max_work=-1: the
    exact answer, as shares_memory)."""
    return _shares(a, b, max_work is not None and max_work < 0)


def _is_f_contiguous(a):
    expected = 1
    for n, s in zip(a.shape, a.strides):
        if n > 1 and s != expected:
            return False
        expected *= n
    return True


def isfortran(a):
    """True when a is in Fortran order and not also in C order (so never for 1-d)."""
    if not isinstance(a, Array):
        raise TypeError("isfortran: expected an Array")
    return _is_f_contiguous(a) and not a.is_contiguous


def asfortranarray(a, dtype=None, *, like=None):
    """a in Fortran (column-major) order, at least 1-d; a itself when it already is."""
    a = asarray(a, dtype=dtype)
    if a.ndim == 0:
        return F.reshape(a, (1,))
    if _is_f_contiguous(a):
        return a
    # A copy is in C order: that of a's reversed-axes view, viewed back, is a in F order.
    reverse = tuple(range(a.ndim))[::-1]
    return F.permute_dims(F.permute_dims(a, reverse).copy(), reverse)


_REQUIREMENTS = {"C": "C", "C_CONTIGUOUS": "C", "CONTIGUOUS": "C", "F": "F", "F_CONTIGUOUS": "F",
                 "FORTRAN": "F", "A": "A", "ALIGNED": "A", "W": "W", "WRITEABLE": "W", "O": "O", "OWNDATA": "O",
                 "E": "E", "ENSUREARRAY": "E"}


def require(a, dtype=None, requirements=None, *, like=None):
    """a as an Array of dtype meeting requirements: "C" (C order), "F" (Fortran order),
    "W" (writeable), "O" (owns its data: a copy), "A" and "E" (always met by Arrays)."""
    wanted = set()  # a string is a sequence of one-letter requirements, as NumPy reads it
    for r in requirements or ():
        key = _REQUIREMENTS.get(str(r).upper())
        if key is None:
            raise KeyError(f"require: unknown requirement {r!r}")
        wanted.add(key)
    if {"C", "F"} <= wanted:
        raise ValueError("Cannot specify both 'C' and 'F' order")
    original = a
    a = asarray(a, dtype=dtype)
    if "F" in wanted:
        a = asfortranarray(a)
    elif "C" in wanted and not a.is_contiguous:
        a = a.copy()
    if ("O" in wanted and a is original) or ("W" in wanted and _c.ember_tensor_is_read_only(a._h)):
        a = asfortranarray(a.copy()) if "F" in wanted else a.copy()
    return a
