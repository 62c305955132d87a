"""Windows, frame, stft and istft (ember.signal) vs NumPy: numpy's symmetric windows, a
stride-based framing, and an STFT computed here by a direct DFT in float64 (no FFT), plus
round trips istft(stft(x)) == x. Runs on every backend."""
import numpy as np
import pytest

import ember as em

RNG = np.random.default_rng(7)
SIG = RNG.normal(size=(2, 50))


def check(got, want, tol=1e-12):
    g = np.asarray(got)
    assert g.shape == np.shape(want), (g.shape, np.shape(want))
    np.testing.assert_allclose(g, want, rtol=tol, atol=tol)


@pytest.mark.parametrize("name,ref", [("hann_window", np.hanning), ("hamming_window", np.hamming),
                                      ("blackman_window", np.blackman)])
@pytest.mark.parametrize("n", [0, 1, 2, 7, 16, 33])
def test_windows_match_numpy(backend, name, ref, n):
    fn = getattr(em.signal, name)
    check(fn(n, periodic=False, dtype=em.float64), ref(n), 1e-15)
    # periodic: the first n points of the symmetric (n + 1)-point window (torch/scipy default)
    want = ref(n + 1)[:-1] if n > 1 else np.ones(n)
    check(fn(n, dtype=em.float64), want, 1e-15)
    assert fn(n).dtype == em.float32


def test_get_window(backend):
    check(em.signal.get_window("hann", 8, dtype=em.float64), np.hanning(9)[:-1], 1e-15)
    check(em.signal.get_window("hamming", 8, fftbins=False, dtype=em.float64), np.hamming(8), 1e-15)
    with pytest.raises(ValueError):
        em.signal.get_window("kaiser", 8)


def frames_ref(x, fl, hop, pad_end=False, pad_value=0.0):
    """tf.signal.frame along the last axis, by slicing."""
    x = np.asarray(x)
    L = x.shape[-1]
    if pad_end:
        nf = -(-L // hop)
        need = (nf - 1) * hop + fl if nf else 0
        if need > L:
            x = np.concatenate([x, np.full(x.shape[:-1] + (need - L,), pad_value, dtype=x.dtype)], axis=-1)
    else:
        nf = 1 + (L - fl) // hop if L >= fl else 0
    if not nf:
        return np.zeros(x.shape[:-1] + (0, fl), x.dtype)
    return np.stack([x[..., i * hop:i * hop + fl] for i in range(nf)], axis=-2)


@pytest.mark.parametrize("fl,hop,pad_end", [(4, 3, False), (4, 3, True), (2, 5, False), (60, 10, False), (60, 10, True)])
def test_frame(backend, fl, hop, pad_end):
    got = em.signal.frame(em.asarray(SIG), fl, hop, pad_end=pad_end, pad_value=-2.0)
    check(got, frames_ref(SIG, fl, hop, pad_end=pad_end, pad_value=-2.0), 0)


def test_frame_axis0_int(backend):
    x = np.arange(24, dtype=np.int32).reshape(12, 2)
    got = em.signal.frame(em.asarray(x), 5, 3, axis=0)
    want = np.stack([x[i * 3:i * 3 + 5] for i in range(3)])  # (3, 5, 2)
    assert got.dtype == em.int32
    check(got, want, 0)


def stft_ref(x, n_fft, hop, win_length, window, center, pad_mode, normalized, onesided):
    x = np.asarray(x)
    if center:
        p = n_fft // 2
        mode = {"reflect": "reflect", "constant": "constant", "replicate": "edge", "circular": "wrap"}[pad_mode]
        x = np.pad(x, [(0, 0)] * (x.ndim - 1) + [(p, p)], mode=mode)
    w = np.ones(win_length) if window is None else np.asarray(window, dtype=np.float64)
    left = (n_fft - win_length) // 2
    wp = np.zeros(n_fft)
    wp[left:left + win_length] = w
    nf = 1 + (x.shape[-1] - n_fft) // hop
    frames = np.stack([x[..., t * hop:t * hop + n_fft] * wp for t in range(nf)], axis=-2)  # (..., nf, n_fft)
    k = np.arange(n_fft)
    nfreq = n_fft // 2 + 1 if onesided else n_fft
    dft = np.exp(-2j * np.pi * np.outer(np.arange(nfreq), k) / n_fft)  # direct DFT matrix
    spec = frames @ dft.T  # (..., nf, nfreq)
    if normalized:
        spec = spec / np.sqrt(n_fft)
    return np.swapaxes(spec, -1, -2)


@pytest.mark.parametrize("n_fft,hop,win_length", [(16, 4, 16), (15, 5, 15), (16, 3, 9), (8, 8, 8)])
@pytest.mark.parametrize("center,pad_mode", [(True, "reflect"), (True, "constant"), (True, "replicate"),
                                             (True, "circular"), (False, "reflect")])
@pytest.mark.parametrize("normalized", [False, True])
def test_stft_matches_direct_dft(backend, n_fft, hop, win_length, center, pad_mode, normalized):
    w = np.hanning(win_length + 1)[:-1]
    got = em.signal.stft(em.asarray(SIG), n_fft, hop_length=hop, win_length=win_length, window=em.asarray(w),
                         center=center, pad_mode=pad_mode, normalized=normalized)
    assert got.dtype == em.complex128
    check(got, stft_ref(SIG, n_fft, hop, win_length, w, center, pad_mode, normalized, True), 1e-12)


def test_stft_defaults_complex_and_float32(backend):
    # defaults: hop n_fft // 4, rectangular window, centred reflect, onesided for real input
    check(em.signal.stft(em.asarray(SIG), 16), stft_ref(SIG, 16, 4, 16, None, True, "reflect", False, True), 1e-12)
    z = SIG[0] + 1j * SIG[1]
    got = em.signal.stft(em.asarray(z), 16, hop_length=4)
    check(got, stft_ref(z, 16, 4, 16, None, True, "reflect", False, False), 1e-12)
    got32 = em.signal.stft(em.asarray(SIG.astype(np.float32)), 16, window=em.signal.hann_window(16))
    assert got32.dtype == em.complex64
    check(got32, stft_ref(SIG, 16, 4, 16, np.hanning(17)[:-1], True, "reflect", False, True), 2e-5)


@pytest.mark.parametrize("name,n_fft,hop", [("hann_window", 16, 4), ("hann_window", 32, 16), ("hamming_window", 20, 5),
                                            ("blackman_window", 24, 8)])
def test_istft_round_trip(backend, name, n_fft, hop):
    w = getattr(em.signal, name)(n_fft, dtype=em.float64)
    x = em.asarray(SIG)
    S = em.signal.stft(x, n_fft, hop_length=hop, window=w)
    check(em.signal.istft(S, n_fft, hop_length=hop, window=w, length=SIG.shape[-1]), SIG, 1e-12)
    # complex signal, two-sided spectrum, complex inverse
    z = SIG[0] + 1j * SIG[1]
    Sz = em.signal.stft(em.asarray(z), n_fft, hop_length=hop, window=w)
    check(em.signal.istft(Sz, n_fft, hop_length=hop, window=w, length=z.size, return_complex=True), z, 1e-12)


def test_istft_errors(backend):
    w = em.signal.hann_window(16, dtype=em.float64)
    S = em.signal.stft(em.asarray(SIG), 16, hop_length=4, window=w)
    with pytest.raises(em.InvalidArgumentError, match="envelope"):
        em.signal.istft(S, 16, hop_length=4, window=w, center=False)
    with pytest.raises(em.DTypeError):
        em.signal.istft(em.asarray(SIG), 16)
    with pytest.raises(em.InvalidArgumentError, match="hop_length"):
        em.signal.stft(em.asarray(SIG), 16, hop_length=0)
    with pytest.raises(em.ShapeError, match="window"):
        em.signal.stft(em.asarray(SIG), 16, window=em.signal.hann_window(8))
    with pytest.raises(ValueError):
        em.signal.stft(em.asarray(SIG), 16, pad_mode="mirror")


def test_ember_ml_wave_pattern(backend):
    """The seeds' pattern: ops.frame, ops.hann_window, ops.stft of windowed frames."""
    x = em.asarray(SIG[0], dtype=em.float64)
    window = em.ops.hann_window(16, dtype=em.float64)
    frames = em.ops.frame(x, frame_length=16, hop_length=8)
    spec = em.ops.stft(em.ops.multiply(frames, window))
    want = np.fft.rfft(np.asarray(frames) * np.asarray(window), axis=-1)[..., None]
    check(spec, want, 1e-12)
    # with n_fft the call is ember.signal.stft
    check(em.ops.stft(x, 16, 4, window=window), em.signal.stft(x, 16, 4, window=window), 0)
