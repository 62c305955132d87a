"""NumPy's names about the memory under arrays: shares_memory/may_share_memory (the C ABI's
ember_tensor_shares_memory), asfortranarray, require, isfortran, and lib.stride_tricks'
as_strided and sliding_window_view (the C ABI's ember_as_strided). tests/python/test_numpy_memory.py
checks them against NumPy on every backend."""
import builtins
import operator

from . import _ember_c as _c
from . import _functions as F
from ._array import Array, _wrap
from ._creation import asarray

__all__ = ["shares_memory", "may_share_memory", "asfortranarray", "require", "isfortran", "as_strided", "sliding_window_view"]


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


def _int_tuple(v, what):
    try:
        return (operator.index(v),) if not hasattr(v, "__iter__") else tuple(operator.index(n) for n in v)
    except TypeError:
        raise TypeError(f"{what} must be an int or a sequence of ints, got {v!r}") from None


def as_strided(x, shape=None, strides=None, *, offset=0, subok=False, writeable=True):
    """A view of x's memory with any shape and strides (NumPy's lib.stride_tricks.as_strided,
    torch.as_strided). Strides count elements, as Array.strides does (NumPy's count bytes);
    offset is the number of elements from x's first element to the view's (negative allowed).
    Unlike NumPy, every element the view reaches must lie in the memory x's storage holds:
    IndexError (EmberIndexError) otherwise. Positions that reach one element alias it, and the
    view is always writable: writing through it writes x (writeable=False is accepted for
    NumPy's signature and changes nothing)."""
    x = x if isinstance(x, Array) else asarray(x)
    shape = x.shape if shape is None else _int_tuple(shape, "as_strided: shape")
    strides = x.strides if strides is None else _int_tuple(strides, "as_strided: strides")
    if len(shape) != len(strides):
        raise ValueError(f"as_strided: shape {shape} and strides {strides} have different lengths")
    return _wrap(_c.ember_as_strided(x._h, shape, strides, len(shape), operator.index(offset)))


def sliding_window_view(x, window_shape, axis=None, *, subok=False, writeable=False):
    """Every window of window_shape over x, as NumPy's lib.stride_tricks.sliding_window_view:
    x's shape with each windowed axis shortened by its window less one, then the window's
    axes; a view (one ember_as_strided). axis None windows every axis; an axis may repeat.
    Unlike NumPy's, the view is writable whatever writeable says: writing through it writes
    x, once per window that holds an element."""
    x = x if isinstance(x, Array) else asarray(x)
    window = _int_tuple(window_shape, "sliding_window_view: window_shape")
    if any(w < 0 for w in window):
        raise ValueError("`window_shape` cannot contain negative values")
    if axis is None:
        if len(window) != x.ndim:
            raise ValueError(f"Since axis is `None`, must provide window_shape for all dimensions of `x`; "
                             f"got {len(window)} window_shape elements and `x.ndim` is {x.ndim}.")
        axes = tuple(range(x.ndim))
    else:
        axes = _int_tuple(axis, "sliding_window_view: axis")
        if len(window) != len(axes):
            raise ValueError(f"Must provide matching length window_shape and axis; got {len(window)} window_shape "
                             f"elements and {len(axes)} axes elements.")
        if any(not -x.ndim <= a < x.ndim for a in axes):
            raise IndexError(f"sliding_window_view: axis {axes} is out of bounds for array of dimension {x.ndim}")
        axes = tuple(a % x.ndim for a in axes)
    shape = list(x.shape)
    for a, w in zip(axes, window):
        if shape[a] < w:
            raise ValueError("window shape cannot be larger than input array shape")
        shape[a] -= w - 1
    strides = x.strides
    return as_strided(x, tuple(shape) + window, strides + tuple(strides[a] for a in axes))
