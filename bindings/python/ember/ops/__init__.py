"""Ember ML's ops frontend (`ember.ops.*`): the master op list over the same functions as
the array API namespace, with Ember ML's names as aliases."""
from .. import _functions as F
from .. import _ember_c as _c
from .._array import _wrap
from .. import linalg as _linalg, stats as _stats, random as _random, losses as _losses, signal as _signal
from .._backend import (get_available_devices, memory_info, memory_usage, synchronize, set_default_device,
                        get_default_device, is_available, set_backend, get_backend, auto_select_backend,
                        using_backend, get_available_backends)
from .._io import save, load
from ..nn import activations as _act

# every array API function under its own name
for _n in F.__all__:
    globals()[_n] = getattr(F, _n)

power = F.pow
mod = F.remainder
arctan2 = F.atan2
dot = F.dot
abs = F.abs
pi = 3.141592653589793


def to_device(x, device):
    return x.to_device(device)


def get_device(x=None):
    from .. import get_device as g
    return g(x)


get_device_of_tensor = get_device


def gradient(f, *varargs, axis=None, edge_order=1):
    """numpy.gradient along one axis (each axis, as a list, for an n-d f without one): central
    differences inside, one-sided ones of order edge_order (1 or 2) at the edges."""
    if axis is None:
        if f.ndim != 1:
            return [gradient(f, *varargs, axis=a, edge_order=edge_order) for a in range(f.ndim)]
        axis = 0
    h = float(varargs[0]) if varargs else 1.0
    x = f if f.dtype.kind in "fc" else F.astype(f, "float64")  # numpy's float64 for integers
    return _wrap(_c.ember_gradient(x._h, h, int(axis), int(edge_order)))


# activations
relu = _act.relu
sigmoid = _act.sigmoid
softmax = _act.softmax
softplus = _act.softplus
tanh = F.tanh

# stats / linear algebra / losses / random, also reachable flat as in Ember ML
for _mod in (_stats, _linalg, _losses, _random):
    for _n in dir(_mod):
        if not _n.startswith("_") and _n not in globals() and callable(getattr(_mod, _n)):
            globals()[_n] = getattr(_mod, _n)

# the wave-processing pattern of Ember ML: ops.hann_window(n), ops.frame(x, frame_length=,
# hop_length=), ops.stft(...) (see ember.signal for the full signatures)
hann_window = _signal.hann_window
hamming_window = _signal.hamming_window
blackman_window = _signal.blackman_window
frame = _signal.frame
istft = _signal.istft


def stft(x, n_fft=None, hop_length=None, win_length=None, window=None, **kwargs):
    """ember.signal.stft; without n_fft, the spectrum of each row of x (already framed and
    windowed, as in ops.stft(ops.multiply(frames, window))): n_fft = x.shape[-1], one frame
    per row, no centre padding, so the result is (..., n_fft // 2 + 1, 1) for real x."""
    if n_fft is None:
        n_fft = x.shape[-1]
        kwargs.setdefault("center", False)
        hop_length = n_fft if hop_length is None else hop_length
    return _signal.stft(x, n_fft, hop_length, win_length, window, **kwargs)


linearalg = _linalg
stats = _stats
signal = _signal
random = _random
loss = _losses
