"""Signal processing over the C ABI's signal family (ember_signal.h): the window functions
hann_window, hamming_window, blackman_window (and scipy-style get_window), frame
(tf.signal.frame), stft and istft (torch.stft / torch.istft with return_complex=True) —
the wave-processing ops of Ember ML (``ops.hann_window``, ``ops.frame``, ``ops.stft``).

    import ember as em
    w = em.signal.hann_window(1024)                       # periodic, like torch
    S = em.signal.stft(x, 1024, hop_length=256, window=w)  # (..., 513, n_frames) complex
    y = em.signal.istft(S, 1024, hop_length=256, window=w, length=x.shape[-1])

Formulas, padding and the inverse's window-envelope normalisation: docs/numerics-signal.md.
A libember without these entry points raises NotImplementedError."""
from . import _ember_c as _c
from . import _dtypes as _dt
from ._array import Array, _wrap
from ._backend import on_device
from ._errors import missing

_PAD_MODES = {"constant": 0, "edge": 1, "replicate": 1, "reflect": 2, "wrap": 3, "circular": 3}
_WHY = "this libember has no windows/STFT (ember_signal.h)"


def _arr(x):
    if isinstance(x, Array):
        return x
    from ._creation import asarray
    return asarray(x)


def _dtype_code(dtype):
    return -1 if dtype is None else _dt.as_dtype(dtype).code


def _window(cname):
    fn = getattr(_c, cname, None)
    name = cname[len("ember_"):]
    if fn is None:
        return missing("signal." + name, _WHY)

    def f(window_length, /, *, periodic=True, dtype=None, device=None):
        with on_device(device):
            return _wrap(fn(int(window_length), 1 if periodic else 0, _dtype_code(dtype)))
    f.__name__ = f.__qualname__ = name
    f.__doc__ = (f"{name}(window_length, *, periodic=True, dtype=None, device=None): an n-point window; "
                 "periodic=True is torch's and scipy.signal.get_window's default (N = n), periodic=False the "
                 "symmetric window of numpy (N = n - 1). dtype: a real float dtype (default: the default float).")
    return f


hann_window = _window("ember_hann_window")
hamming_window = _window("ember_hamming_window")
blackman_window = _window("ember_blackman_window")

_WINDOWS = {"hann": hann_window, "hanning": hann_window, "hamming": hamming_window, "blackman": blackman_window}


def get_window(window, Nx, *, fftbins=True, dtype=None, device=None):
    """scipy.signal.get_window for 'hann' ('hanning'), 'hamming' and 'blackman': periodic when
    fftbins is true (scipy's default), symmetric otherwise."""
    key = window.lower() if isinstance(window, str) else window
    if key not in _WINDOWS:
        raise ValueError(f"get_window: unknown window {window!r} (use one of {sorted(_WINDOWS)})")
    return _WINDOWS[key](Nx, periodic=fftbins, dtype=dtype, device=device)


def frame(x, frame_length, hop_length, *, axis=-1, pad_end=False, pad_value=0.0):
    """Frames of frame_length samples every hop_length samples along axis (tf.signal.frame):
    the axis becomes (n_frames, frame_length). pad_end pads the end with pad_value so that
    every sample lands in a frame (n_frames = ceil(L / hop_length))."""
    if not hasattr(_c, "ember_frame"):
        return missing("signal.frame", _WHY)()
    x = _arr(x)
    return _wrap(_c.ember_frame(x._h, int(frame_length), int(hop_length), int(axis), 1 if pad_end else 0, float(pad_value)))


def _opt(v):
    return -1 if v is None else int(v)


def _onesided(v):
    return -1 if v is None else (1 if v else 0)


def stft(x, n_fft, hop_length=None, win_length=None, window=None, *, center=True, pad_mode="reflect",
         normalized=False, onesided=None):
    """Short-time Fourier transform along the last axis, as torch.stft(..., return_complex=True):
    a complex (..., n_freq, n_frames) array. hop_length defaults to n_fft // 4, win_length to
    n_fft, window to a rectangular window (a shorter window is zero-padded to n_fft, centred).
    center pads n_fft // 2 samples on both sides with pad_mode ('reflect', 'constant',
    'replicate'/'edge', 'circular'/'wrap'). normalized scales by 1/sqrt(n_fft). onesided
    (default: for real input and window) keeps the n_fft // 2 + 1 non-negative frequencies."""
    if not hasattr(_c, "ember_stft"):
        return missing("signal.stft", _WHY)()
    try:
        mode = _PAD_MODES[pad_mode]
    except KeyError:
        raise ValueError(f"stft: pad_mode must be one of {sorted(_PAD_MODES)}, got {pad_mode!r}") from None
    x = _arr(x)
    w = None if window is None else _arr(window)._h
    return _wrap(_c.ember_stft(x._h, int(n_fft), _opt(hop_length), _opt(win_length), w, 1 if center else 0, mode,
                               1 if normalized else 0, _onesided(onesided)))


def istft(x, n_fft, hop_length=None, win_length=None, window=None, *, center=True, normalized=False, onesided=None,
          length=None, return_complex=False):
    """Inverse of stft by windowed overlap-add divided by the overlap-added squared window
    (torch.istft). With the forward call's parameters it restores the signal; length cuts
    or zero-pads the result. return_complex (two-sided spectra only) keeps it complex.
    Raises InvalidArgumentError where the window envelope vanishes (e.g. center=False
    with a Hann window)."""
    if not hasattr(_c, "ember_istft"):
        return missing("signal.istft", _WHY)()
    x = _arr(x)
    w = None if window is None else _arr(window)._h
    return _wrap(_c.ember_istft(x._h, int(n_fft), _opt(hop_length), _opt(win_length), w, 1 if center else 0,
                                1 if normalized else 0, _onesided(onesided), _opt(length), 1 if return_complex else 0))


__all__ = ["hann_window", "hamming_window", "blackman_window", "get_window", "frame", "stft", "istft"]
