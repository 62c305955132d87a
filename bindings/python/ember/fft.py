"""Array API fft extension over the C ABI's FFT family (ember_signal.h): fft ifft fftn
ifftn rfft irfft rfftn irfftn hfft ihfft fft2 ifft2 rfft2 irfft2 fftfreq rfftfreq fftshift
ifftshift. A libember without that family raises NotImplementedError for the transforms."""
from . import _ember_c as _c
from . import _dtypes as _dt
from ._array import _wrap
from ._backend import on_device
from ._errors import missing

_NORM = {"backward": 0, "ortho": 1, "forward": 2}


def _norm(norm):
    try:
        return _NORM[norm]
    except KeyError:
        raise ValueError(f"fft: norm must be 'backward', 'ortho' or 'forward', got {norm!r}") from None


def _s_axes(x, s, axes):
    s = None if s is None else tuple(int(v) for v in s)
    if axes is None:
        if s is not None:
            axes = tuple(range(x.ndim - len(s), x.ndim))
    else:
        axes = tuple(int(a) for a in axes)
        if s is not None and len(s) != len(axes):
            raise ValueError("fft: s and axes must have the same length")
    return s, axes


def _one(cname):
    fn = getattr(_c, cname)

    def f(x, /, *, n=None, axis=-1, norm="backward"):
        return _wrap(fn(x._h, -1 if n is None else int(n), int(axis), _norm(norm)))
    f.__name__ = f.__qualname__ = cname[len("ember_"):]
    return f


def _many(cname):
    fn = getattr(_c, cname)

    def f(x, /, *, s=None, axes=None, norm="backward"):
        s, axes = _s_axes(x, s, axes)
        return _wrap(fn(x._h, s, axes, _norm(norm)))
    f.__name__ = f.__qualname__ = cname[len("ember_"):]
    return f


def _two(cname):
    fn = getattr(_c, cname)

    def f(x, /, *, s=None, axes=(-2, -1), norm="backward"):
        return _wrap(fn(x._h, None if s is None else tuple(s), None if axes is None else tuple(axes), _norm(norm)))
    f.__name__ = f.__qualname__ = cname[len("ember_"):]
    return f


_WHY = "this libember has no FFT family (ember_signal.h)"
for _name in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft"):
    globals()[_name] = _one("ember_" + _name) if hasattr(_c, "ember_" + _name) else missing("fft." + _name, _WHY)
for _name in ("fftn", "ifftn", "rfftn", "irfftn"):
    globals()[_name] = _many("ember_" + _name) if hasattr(_c, "ember_" + _name) else missing("fft." + _name, _WHY)
for _name in ("fft2", "ifft2", "rfft2", "irfft2"):
    globals()[_name] = _two("ember_" + _name) if hasattr(_c, "ember_" + _name) else missing("fft." + _name, _WHY)


def fftfreq(n, /, *, d=1.0, dtype=None, device=None):
    with on_device(device):
        if hasattr(_c, "ember_fftfreq"):
            return _wrap(_c.ember_fftfreq(int(n), float(d), -1 if dtype is None else _dt.as_dtype(dtype).code))
        from . import _functions as F
        from ._creation import arange
        k = arange(n, dtype=_dt.int64)
        k = F.where(k < (n + 1) // 2, k, k - n)
        return F.astype(k, dtype or _dt.default_float()) / (n * d)


def rfftfreq(n, /, *, d=1.0, dtype=None, device=None):
    with on_device(device):
        if hasattr(_c, "ember_rfftfreq"):
            return _wrap(_c.ember_rfftfreq(int(n), float(d), -1 if dtype is None else _dt.as_dtype(dtype).code))
        from . import _functions as F
        from ._creation import arange
        return F.astype(arange(n // 2 + 1, dtype=_dt.int64), dtype or _dt.default_float()) / (n * d)


def _axes_of(axes):
    return None if axes is None else ((int(axes),) if isinstance(axes, int) else tuple(int(a) for a in axes))


def fftshift(x, /, *, axes=None):
    if hasattr(_c, "ember_fftshift"):
        return _wrap(_c.ember_fftshift(x._h, _axes_of(axes)))
    from . import _functions as F
    ax = tuple(range(x.ndim)) if axes is None else _axes_of(axes)
    return F.roll(x, tuple(x.shape[a] // 2 for a in ax), axis=ax)


def ifftshift(x, /, *, axes=None):
    if hasattr(_c, "ember_ifftshift"):
        return _wrap(_c.ember_ifftshift(x._h, _axes_of(axes)))
    from . import _functions as F
    ax = tuple(range(x.ndim)) if axes is None else _axes_of(axes)
    return F.roll(x, tuple(-(x.shape[a] // 2) for a in ax), axis=ax)


__all__ = ["fft", "ifft", "fftn", "ifftn", "rfft", "irfft", "rfftn", "irfftn", "hfft", "ihfft", "fft2", "ifft2",
           "rfft2", "irfft2", "fftfreq", "rfftfreq", "fftshift", "ifftshift"]
