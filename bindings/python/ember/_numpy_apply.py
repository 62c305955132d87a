"""NumPy's names for applying Python functions to arrays: vectorize, frompyfunc,
piecewise, apply_along_axis and apply_over_axes. Checked against NumPy by
tests/python/test_numpy_arrays.py on every backend."""
import builtins
import inspect
import math

from . import _dtypes as _dt
from . import _functions as F
from ._array import Array
from ._creation import asarray, full, zeros
from ._numpy_arrays import ndindex

__all__ = ["vectorize", "frompyfunc", "piecewise", "apply_along_axis", "apply_over_axes"]


def piecewise(x, condlist, funclist, *args, **kw):
    """funclist[k] (a function of x's selected elements, or a value) where condlist[k]
    holds; one extra function covers where no condition holds; 0 elsewhere."""
    x = asarray(x)
    one_mask = isinstance(condlist, list) and condlist and isinstance(condlist[0], bool) and x.ndim > 0 \
        and len(condlist) == x.shape[0]
    if isinstance(condlist, Array) or one_mask:
        condlist = [condlist]
    conds = [F.broadcast_to(asarray(c, dtype=_dt.bool_), x.shape) for c in condlist]
    if len(funclist) == len(conds) + 1:
        rest = F.logical_not(F.any(F.stack(conds, axis=0), axis=0)) if conds else full(x.shape, True, dtype=_dt.bool_)
        conds.append(rest)
    elif len(funclist) != len(conds):
        raise ValueError(f"piecewise: with {len(conds)} condition(s), either {len(conds)} or {len(conds) + 1} "
                         "functions are expected")
    out = zeros(x.shape, dtype=x.dtype)
    for c, f in zip(conds, funclist):
        if not builtins.bool(F.any(c)):
            continue
        out[c] = f(x[c], *args, **kw) if callable(f) else f
    return out


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """func1d applied to each 1-d slice of arr along axis; its results (all of one shape)
    take axis' place in the result."""
    arr = asarray(arr)
    axis %= arr.ndim
    moved = F.moveaxis(arr, axis, -1)
    outer = moved.shape[:-1]
    if math.prod(outer) == 0:
        raise ValueError("apply_along_axis: cannot apply over an axis of zero-sized iterations")
    results = [asarray(func1d(moved[idx], *args, **kwargs)) for idx in ndindex(outer)]
    first = results[0]
    stacked = F.reshape(F.stack(results, axis=0), outer + first.shape)
    if first.ndim == 0:
        return stacked
    # the result's own dims go where axis was
    src = list(range(len(outer), len(outer) + first.ndim))
    return F.moveaxis(stacked, src, list(range(axis, axis + first.ndim)))


class vectorize:
    """A Python function applied to each element of its broadcast array arguments (one
    Python call per element, as NumPy's vectorize); otypes names the result dtypes (else
    inferred from the results), excluded the positions or names passed through whole."""

    def __init__(self, pyfunc, otypes=None, doc=None, excluded=None, cache=False, signature=None):
        if signature is not None:
            raise NotImplementedError("vectorize: signature= (generalised ufuncs)")
        self.pyfunc = pyfunc
        self.otypes = None if otypes is None else list(otypes)
        self.excluded = set(excluded or ())
        self.__doc__ = doc if doc is not None else pyfunc.__doc__

    def __call__(self, *args, **kwargs):
        positions = [k for k in range(len(args)) if k not in self.excluded]
        names = [n for n in kwargs if n not in self.excluded]
        arrays = [asarray(args[k]) for k in positions] + [asarray(kwargs[n]) for n in names]
        if not arrays:
            return self.pyfunc(*args, **kwargs)
        shape = F.broadcast_shapes(*[a.shape for a in arrays])
        flat = [F.reshape(F.broadcast_to(a, shape), (-1,)).tolist() for a in arrays]
        results = []
        for values in zip(*flat) if flat and math.prod(shape) else []:
            call_args, call_kwargs = list(args), dict(kwargs)
            for k, v in zip(positions, values):
                call_args[k] = v
            for n, v in zip(names, values[len(positions):]):
                call_kwargs[n] = v
            results.append(self.pyfunc(*call_args, **call_kwargs))
        if not results:
            if self.otypes is None:
                raise ValueError("vectorize: cannot call on a size-0 input without otypes")
            return zeros(shape, dtype=self.otypes[0])
        if isinstance(results[0], tuple):
            columns = list(zip(*results))
            types = self.otypes or [None] * len(columns)
            return tuple(F.reshape(asarray(list(c), dtype=t), shape) for c, t in zip(columns, types))
        return F.reshape(asarray(results, dtype=self.otypes[0] if self.otypes else None), shape)


def frompyfunc(func, /, nin, nout, *, identity=None):
    """A Python function as a function of arrays taking nin arguments and giving nout
    results (a tuple for nout > 1), element by element as vectorize. NumPy's results are
    object arrays; Ember has no object dtype, so each result takes the dtype its values
    convert to."""
    if nin < 1 or nout < 1:
        raise ValueError("frompyfunc: nin and nout must be at least 1")
    v = vectorize(func)

    def call(*args):
        if len(args) != nin:
            raise TypeError(f"{getattr(func, '__name__', 'function')} (vectorized): expected {nin} arguments, got {len(args)}")
        r = v(*args)
        if nout > 1 and not (isinstance(r, tuple) and len(r) == nout):
            raise ValueError(f"frompyfunc: the function must return a tuple of {nout} values")
        return r
    call.nin, call.nout, call.identity = nin, nout, identity
    call.__name__ = f"{getattr(func, '__name__', 'function')} (vectorized)"
    call.__doc__ = func.__doc__
    return call


def apply_over_axes(func, a, axes):
    """func(a, axis) for each axis in turn, each result keeping a's number of dimensions
    (a reduced axis is put back with length 1)."""
    a = asarray(a)
    try:  # the array API's reductions (em.sum, em.max, ...) take axis by keyword only
        param = inspect.signature(func).parameters.get("axis")
        by_keyword = param is not None and param.kind == param.KEYWORD_ONLY
    except (TypeError, ValueError):
        by_keyword = False
    for axis in ([axes] if isinstance(axes, int) else axes):
        axis = axis + a.ndim if axis < 0 else axis
        r = asarray(func(a, axis=axis) if by_keyword else func(a, axis))
        if r.ndim == a.ndim - 1:
            r = F.expand_dims(r, axis=axis)
        elif r.ndim != a.ndim:
            raise ValueError("apply_over_axes: function is not returning an array of the correct shape")
        a = r
    return a
