"""Array API linalg extension over the C ABI: matmul, tensordot, vecdot, trace, diagonal,
outer, matrix_transpose, and the linalg family of ember_linalg.h (decompositions, solvers,
norms, powers). Compositions of elementwise ops stand in for the norms, matrix_power and
cross when libember has no linalg family; the decompositions then raise
NotImplementedError."""
import builtins

from . import _functions as F
from . import _dtypes as _dt
from . import _creation as _C
from ._errors import missing, LinAlgError  # noqa: F401

matmul = F.matmul
tensordot = F.tensordot
vecdot = F.vecdot
trace = F.trace
diagonal = F.diagonal
outer = F.outer
matrix_transpose = F.matrix_transpose


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    a = F.abs(x)
    if a.dtype.kind in "biu":
        a = F.astype(a, _dt.default_float())
    if ord == float("inf"):
        return F.max(a, axis=axis, keepdims=keepdims)
    if ord == -float("inf"):
        return F.min(a, axis=axis, keepdims=keepdims)
    if ord == 0:
        return F.astype(F.sum(F.astype(F.not_equal(a, 0), a.dtype), axis=axis, keepdims=keepdims), a.dtype)
    if ord == 1:
        return F.sum(a, axis=axis, keepdims=keepdims)
    if ord == 2:
        return F.sqrt(F.sum(a * a, axis=axis, keepdims=keepdims))
    return F.pow(F.sum(F.pow(a, float(ord)), axis=axis, keepdims=keepdims), 1.0 / ord)


def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    if ord == "fro":
        a = F.abs(x)
        r = F.sqrt(F.sum(a * a, axis=(-2, -1), keepdims=keepdims))
        return r
    if ord in (1, -1):
        s = F.sum(F.abs(x), axis=-2, keepdims=True)
        r = F.max(s, axis=-1, keepdims=True) if ord == 1 else F.min(s, axis=-1, keepdims=True)
    elif ord in (float("inf"), -float("inf")):
        s = F.sum(F.abs(x), axis=-1, keepdims=True)
        r = F.max(s, axis=-2, keepdims=True) if ord > 0 else F.min(s, axis=-2, keepdims=True)
    else:
        raise NotImplementedError(f"matrix_norm(ord={ord!r}) needs an SVD, which the C ABI does not offer yet")
    return r if keepdims else F.squeeze(r, axis=(-2, -1))


def matrix_power(x, n, /):
    if n < 0:
        raise NotImplementedError("matrix_power with a negative exponent needs inv, which the C ABI does not offer yet")
    eye = F.broadcast_to(_C.eye(x.shape[-1], dtype=x.dtype, device=x.device), x.shape)
    result, base = F.copy(eye), x
    while n:
        if n & 1:
            result = F.matmul(result, base)
        n >>= 1
        if n:
            base = F.matmul(base, base)
    return result


def cross(x1, x2, /, *, axis=-1):
    if x1.shape[axis] != 3 or x2.shape[axis] != 3:
        raise ValueError("cross: the axis must have length 3")
    a = F.unstack(x1, axis=axis)
    b = F.unstack(x2, axis=axis)
    c = [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
    return F.stack(c, axis=axis)


def norm(x, ord=None, axis=None, keepdims=False):
    """Ember ML / NumPy-style norm: vector norm, or Frobenius for 2-d with axis None."""
    if axis is None and x.ndim == 2 and ord in (None, "fro"):
        return matrix_norm(x, keepdims=keepdims)
    return vector_norm(x, axis=axis, keepdims=keepdims, ord=2 if ord is None else ord)


def diag(x, k=0):
    if x.ndim == 1:
        n = x.shape[0] + builtins.abs(k)
        out = _C.zeros((n, n), dtype=x.dtype, device=x.device)
        d = F.diagonal(out, offset=k)
        d[...] = x
        return out
    return F.diagonal(x, offset=k)


# ---------------------------------------------------------------- the C ABI's linalg family
from . import _ember_c as _c
from ._array import _wrap, _handle

_WHY = "this libember has no linear algebra family (ember_linalg.h)"


class _Result(tuple):
    _fields = ()

    def __getattr__(self, name):
        try:
            return self[type(self)._fields.index(name)]
        except ValueError:
            raise AttributeError(name) from None


class EighResult(_Result):
    _fields = ("eigenvalues", "eigenvectors")


class EigResult(_Result):
    _fields = ("eigenvalues", "eigenvectors")


class QRResult(_Result):
    _fields = ("Q", "R")


class SlogdetResult(_Result):
    _fields = ("sign", "logabsdet")


class SVDResult(_Result):
    _fields = ("U", "S", "Vh")


class LstsqResult(_Result):
    _fields = ("solution", "residuals", "rank", "singular_values")


def _w(*hs):
    return tuple(None if h is None else _wrap(h) for h in hs)


_MNORM = {"fro": 0, "nuc": 1, 1: 2, -1: 3, 2: 4, -2: 5, float("inf"): 6, -float("inf"): 7}


def _tol(rtol):
    return -1.0 if rtol is None else float(rtol)


if hasattr(_c, "ember_inv"):
    def cholesky(x, /, *, upper=False):
        return _wrap(_c.ember_cholesky(x._h, 1 if upper else 0))

    def det(x, /):
        return _wrap(_c.ember_det(x._h))

    def inv(x, /):
        return _wrap(_c.ember_inv(x._h))

    def slogdet(x, /):
        return SlogdetResult(_w(*_c.ember_slogdet(x._h)))

    def eigh(x, /, *, upper=False):
        return EighResult(_w(*_c.ember_eigh(x._h, 1 if upper else 0)))

    def eigvalsh(x, /, *, upper=False):
        return _wrap(_c.ember_eigvalsh(x._h, 1 if upper else 0))

    def eig(x, /):
        return EigResult(_w(*_c.ember_eig(x._h)))

    def eigvals(x, /):
        return _wrap(_c.ember_eigvals(x._h))

    def qr(x, /, *, mode="reduced"):
        modes = {"reduced": 0, "complete": 1, "r": 2}
        if mode not in modes:
            raise ValueError(f"qr: mode must be 'reduced', 'complete' or 'r', got {mode!r}")
        q, r = _w(*_c.ember_qr(x._h, modes[mode]))
        return r if mode == "r" else QRResult((q, r))

    def svd(x, /, *, full_matrices=True):
        return SVDResult(_w(*_c.ember_svd(x._h, 1 if full_matrices else 0)))

    def svdvals(x, /):
        return _wrap(_c.ember_svdvals(x._h))

    def solve(x1, x2, /):
        return _wrap(_c.ember_solve(_handle(x1), _handle(x2)))

    def lstsq(a, b, /, *, rcond=None):
        return LstsqResult(_w(*_c.ember_lstsq(_handle(a), _handle(b), -1.0 if rcond is None else float(rcond))))

    def pinv(x, /, *, rtol=None, atol=0.0):
        return _wrap(_c.ember_pinv(x._h, float(atol), _tol(rtol)))

    def matrix_rank(x, /, *, rtol=None, atol=0.0):
        return _wrap(_c.ember_matrix_rank(x._h, float(atol), _tol(rtol)))

    def matrix_power(x, n, /):
        return _wrap(_c.ember_matrix_power(x._h, int(n)))

    def matrix_norm(x, /, *, keepdims=False, ord="fro"):
        try:
            code = _MNORM[ord]
        except KeyError:
            raise ValueError(f"matrix_norm: unsupported ord {ord!r}") from None
        return _wrap(_c.ember_matrix_norm(x._h, code, 1 if keepdims else 0))

    def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
        axes = None if axis is None else ((int(axis),) if isinstance(axis, int) else tuple(int(a) for a in axis))
        return _wrap(_c.ember_vector_norm(x._h, float(ord), axes, 1 if keepdims else 0))

    def cross(x1, x2, /, *, axis=-1):
        return _wrap(_c.ember_cross(_handle(x1), _handle(x2), int(axis)))

    def kron(a, b, /):
        return _wrap(_c.ember_kron(a._h, b._h))

    def multi_dot(arrays, /):
        return _wrap(_c.ember_multi_dot([a._h for a in arrays]))

    def expm(x, /):
        return _wrap(_c.ember_expm(x._h))

    def diag(x, k=0):
        return _wrap(_c.ember_diag(x._h, int(k)))
else:
    for _name in ("cholesky", "det", "eigh", "eigvalsh", "inv", "matrix_rank", "pinv", "qr", "slogdet", "solve",
                  "svd", "svdvals", "eig", "eigvals", "lstsq", "expm", "kron", "multi_dot"):
        globals()[_name] = missing("linalg." + _name, _WHY)


def orthogonal(shape, dtype=None, device=None):
    """A random matrix with orthonormal columns (rows when wider): Q of a Gaussian matrix."""
    from . import random as _random
    g = _random.random_normal(shape, dtype=dtype, device=device)
    transpose = shape[-2] < shape[-1]
    q = qr(F.matrix_transpose(g) if transpose else g).Q
    return F.matrix_transpose(q) if transpose else q


__all__ = ["cholesky", "cross", "det", "diagonal", "eigh", "eigvalsh", "inv", "matmul", "matrix_norm",
           "matrix_power", "matrix_rank", "matrix_transpose", "outer", "pinv", "qr", "slogdet", "solve", "svd",
           "svdvals", "tensordot", "trace", "vecdot", "vector_norm"]
