"""NumPy's names for computing and statistics (bindings/python/ember/_numpy_math.py and
_numpy_stats.py: einsum, convolve, correlate, quantiles, nan-quantiles, histograms,
frexp/ldexp, gcd/lcm, ...) against NumPy itself."""
import numpy as np
import pytest

import ember as em
from test_numpy_names import matches_numpy

RNG = np.random.default_rng(11)
A, B = RNG.standard_normal((3, 4)), RNG.standard_normal((4, 5))
C, D = RNG.standard_normal((2, 3, 4)), RNG.standard_normal((2, 4, 5))
S, V, W5 = RNG.standard_normal((4, 4)), RNG.standard_normal(4), RNG.standard_normal(5)
XN = RNG.standard_normal((4, 6))
XN[0, 1] = XN[2, :] = XN[3, 0] = np.nan
FR = np.array([0.0, -0.0, 1.0, 0.75, -3.5, 1e-310, -5e-324, 1.7976931348623157e308, np.inf, np.nan, 2.0 ** -1022,
               1 - 2.0 ** -53])
SIGNALS = {n: RNG.standard_normal(n) for n in (1, 3, 5, 7, 10, 100, 200)}
ZA = RNG.standard_normal(100) + 1j * RNG.standard_normal(100)
ZB = RNG.standard_normal(80) * 1j
BIG_A, BIG_V = RNG.integers(-2 ** 40, 2 ** 40, 200), RNG.integers(-2 ** 12, 2 ** 12, 100)  # sums near 2^58


def _w(m, a):
    return em.asarray(a) if m is em else np.asarray(a)


EINSUM = [
    ("ij,jk->ik", (A, B)), ("ij,jk", (A, B)), ("ii", (S,)), ("ii->i", (S,)), ("ij->ji", (A,)), ("ij->", (A,)),
    ("ij->j", (A,)), ("i,i", (V, V)), ("i,j->ij", (V, W5)), ("bij,bjk->bik", (C, D)), ("...ij,...jk->...ik", (C, D)),
    ("...ij,jk", (C, B)), ("ij,jk,kl->il", (A, B, B.T)), ("ij,ij->ij", (A, A)), ("i,ij,j->", (A[:, 0], A, V)),
    ("ij,jk->ik", (np.arange(6).reshape(2, 3), np.arange(6).reshape(3, 2))), ("iji->j", (np.arange(18.0).reshape(3, 2, 3),)),
    ("ij,ik->jk", (A, A)), ("i...->...", (C,)), ("bij->bji", (C,)), ("ij,kj->ik", (A, B.T)),
]
CASES = [(f"einsum {s}", lambda m, s=s, ops=ops: _w(m, m.einsum(s, *[_w(m, o) for o in ops]))) for s, ops in EINSUM]
for mode in ("full", "same", "valid"):
    for n, k in ((10, 3), (3, 10), (7, 7), (200, 100), (100, 200), (1, 5)):
        CASES += [(f"convolve {mode} {n},{k}", lambda m, a=SIGNALS[n], b=SIGNALS[k], mode=mode: m.convolve(_w(m, a), _w(m, b), mode=mode)),
                  (f"correlate {mode} {n},{k}", lambda m, a=SIGNALS[n], b=SIGNALS[k], mode=mode: m.correlate(_w(m, a), _w(m, b), mode=mode))]
CASES += [
    ("convolve int", lambda m: m.convolve(_w(m, np.arange(10)), _w(m, [1, -2, 1]))),
    ("convolve int long", lambda m: m.convolve(_w(m, np.arange(300)), _w(m, np.arange(100) % 7))),
    ("convolve int64 past 2^53", lambda m: m.convolve(_w(m, BIG_A), _w(m, BIG_V))),
    ("convolve bool", lambda m: m.convolve(_w(m, np.arange(100) % 3 == 0), _w(m, np.arange(7) % 5 == 0))),
    ("correlate bool long", lambda m: m.correlate(_w(m, np.arange(100) % 3 == 0), _w(m, np.arange(70) % 5 == 0), "full")),
    ("convolve int8 wrapping", lambda m: m.convolve(_w(m, (np.arange(200) % 120).astype(np.int8)),
                                                    _w(m, (np.arange(90) % 50).astype(np.int8)))),
    ("correlate complex", lambda m: m.correlate(_w(m, [1 + 2j, 3, -1j]), _w(m, [0.5j, 1]), "full")),
    ("convolve complex long", lambda m: m.convolve(_w(m, ZA), _w(m, ZB))),
    ("quantile list", lambda m: m.quantile(_w(m, A), [0.1, 0.5, 0.9], axis=1)),
    ("quantile tuple axis", lambda m: m.quantile(_w(m, C), 0.3, axis=(0, 2))),
    ("quantile keepdims", lambda m: m.quantile(_w(m, C), [0.3], axis=1, keepdims=True)),
    ("percentile list", lambda m: m.percentile(_w(m, A), [10, 50])),
    ("percentile NaN", lambda m: m.percentile(_w(m, XN), [10, 50], axis=1)),
    ("nanquantile none", lambda m: m.nanquantile(_w(m, XN), 0.4)),
    ("nanquantile axis0 keepdims", lambda m: m.nanquantile(_w(m, XN), 0.4, axis=0, keepdims=True)),
    ("nanpercentile", lambda m: m.nanpercentile(_w(m, XN), 75, axis=1)),
    ("nanmedian", lambda m: m.nanmedian(_w(m, XN), axis=1)), ("nanmedian none", lambda m: m.nanmedian(_w(m, XN))),
    ("nanmedian float32", lambda m: m.nanmedian(_w(m, XN.astype(np.float32)), axis=0)),
    ("nanquantile int", lambda m: m.nanquantile(_w(m, np.arange(10)), 0.35)),
    ("fix", lambda m: m.fix(_w(m, [-2.5, -0.4, 0.4, 2.7, np.inf]))), ("fabs", lambda m: m.fabs(_w(m, [-2.5, 0.0, 3.0]))),
    ("modf", lambda m: m.modf(_w(m, [-2.5, -2.0, 0.4, 3.0, np.inf, -np.inf, np.nan, -0.0]))),
    ("gcd", lambda m: m.gcd(_w(m, [12, -20, 0, 0, 17, 2 ** 40]), _w(m, [18, 15, 0, 5, -51, 2 ** 20 * 3]))),
    ("lcm", lambda m: m.lcm(_w(m, [4, -6, 0, 7]), _w(m, [6, 4, 5, 3]))),
    ("gcd python int", lambda m: m.gcd(_w(m, np.arange(10, dtype=np.int8)), 6)),
    ("real_if_close", lambda m: m.real_if_close(_w(m, [2.1 + 4e-14j, 5.2 + 3e-15j]))),
    ("real_if_close not", lambda m: m.real_if_close(_w(m, [2.1 + 4e-13j]))),
]
HX, HY = RNG.standard_normal(200), RNG.standard_normal(200)
PHASE = np.mod(np.linspace(0, 20, 50), 2 * np.pi)
CASES += [
    ("spacing", lambda m: m.spacing(_w(m, np.array([1.0, -1.0, 0.0, 1e300, np.inf])))),
    ("bitwise_count", lambda m: m.bitwise_count(_w(m, np.array([0, 1, 255, -1, -128, 2 ** 40 + 3])))),
    ("bitwise_count uint8", lambda m: m.bitwise_count(_w(m, np.array([7, 255], dtype=np.uint8)))),
    ("matvec", lambda m: m.matvec(_w(m, np.arange(24.0).reshape(2, 3, 4)), _w(m, np.arange(4.0)))),
    ("vecmat", lambda m: m.vecmat(_w(m, np.array([1 + 1j, 2])), _w(m, np.arange(6.0).reshape(2, 3)))),
    ("unwrap", lambda m: m.unwrap(_w(m, PHASE))),
    ("unwrap period", lambda m: m.unwrap(_w(m, np.array([0.0, 1, 2, 3, 0, 1, 2, 3])), period=4)),
    ("unwrap 2d", lambda m: m.unwrap(_w(m, np.stack([PHASE, PHASE[::-1]])), axis=1)),
    ("histogram_bin_edges", lambda m: m.histogram_bin_edges(_w(m, HX), 5)),
    ("histogram_bin_edges range", lambda m: m.histogram_bin_edges(_w(m, HX), 4, range=(-1, 1))),
    ("histogram2d", lambda m: m.histogram2d(_w(m, HX), _w(m, HY), bins=4)),
    ("histogram2d edges", lambda m: m.histogram2d(_w(m, HX), _w(m, HY), bins=[_w(m, [-2.0, 0, 2]), 3])),
    ("histogram2d weights density", lambda m: m.histogram2d(_w(m, HX), _w(m, HY), bins=3, range=[[-1, 1], [-2, 2]],
                                                             weights=_w(m, np.abs(HX)), density=True)),
    ("histogramdd", lambda m: m.histogramdd(_w(m, np.stack([HX, HY, HX * HY], 1)), bins=(2, 3, 2))),
    ("histogram2d ints", lambda m: m.histogram2d(_w(m, [0, 1, 1, 2, 3]), _w(m, [0, 0, 1, 1, 3]), bins=2)),
]
CASES += [
    ("packbits", lambda m: m.packbits(_w(m, np.array([[1, 0, 1], [0, 1, 1]], dtype=np.uint8)), axis=-1)),
    ("packbits flat little", lambda m: m.packbits(_w(m, np.array([True, False, True] * 5)), bitorder="little")),
    ("packbits axis0", lambda m: m.packbits(_w(m, (np.arange(30).reshape(10, 3) % 3 == 0)), axis=0)),
    ("unpackbits", lambda m: m.unpackbits(_w(m, np.array([[2], [7], [23]], dtype=np.uint8)), axis=1)),
    ("unpackbits count", lambda m: m.unpackbits(_w(m, np.array([2, 255], dtype=np.uint8)), count=-3)),
    ("unpackbits count more", lambda m: m.unpackbits(_w(m, np.array([129], dtype=np.uint8)), count=11, bitorder="little")),
    ("median tuple axis", lambda m: m.median(_w(m, C), axis=(0, 2))),
    ("median keepdims", lambda m: m.median(_w(m, C), axis=1, keepdims=True)),
    ("histogram", lambda m: m.histogram(_w(m, HX), 6)),
    ("histogram edges", lambda m: m.histogram(_w(m, HX), _w(m, [-3.0, -1.0, 0.0, 0.5, 3.0]))),
    ("histogram density", lambda m: m.histogram(_w(m, HX), 5, (-2, 2), True)),
    ("histogram weights", lambda m: m.histogram(_w(m, HX), [-1.0, 0.0, 1.0], weights=_w(m, HY))),
    ("cov y", lambda m: m.cov(_w(m, HX[:20]), _w(m, HY[:20]))), ("cov columns", lambda m: m.cov(_w(m, A), rowvar=False)),
    ("cov one", lambda m: _w(m, m.cov(_w(m, HX[:20])))), ("cov bias", lambda m: m.cov(_w(m, A), bias=True)),
    ("corrcoef y", lambda m: m.corrcoef(_w(m, A[0]), _w(m, A[1]))),
    ("corrcoef columns", lambda m: m.corrcoef(_w(m, B), rowvar=False)),
]
CASES += [(f"nanquantile {meth}", lambda m, meth=meth: m.nanquantile(_w(m, XN), [0.0, 0.25, 0.5, 0.7, 1.0], axis=1, method=meth))
          for meth in ("linear", "lower", "higher", "nearest", "midpoint")]


@pytest.mark.parametrize("name,call", CASES, ids=[c[0] for c in CASES])
def test_numpy_math_names_match_numpy(backend, name, call):
    matches_numpy(call, name)


def test_frexp_and_ldexp_are_exact(backend):
    """frexp splits every float64 (subnormals, the largest, 1 - 2^-53 just below a power of
    two) exactly as NumPy, and ldexp puts them back, also past the exponent range."""
    m, e = em.frexp(em.asarray(FR))
    want_m, want_e = np.frexp(FR)
    np.testing.assert_array_equal(m.numpy(), want_m)
    np.testing.assert_array_equal(e.numpy(), want_e)
    assert e.dtype == em.int32
    back = em.ldexp(m, e).numpy()
    np.testing.assert_array_equal(back, FR)
    x, k = np.array([1.0, 0.5, -3.0, 1.5, 3.0, 0.75]), np.array([3, 1024, -1074, -1075, 2000, -2000])
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(em.ldexp(em.asarray(x), em.asarray(k)).numpy(), np.ldexp(x, k))
    f32 = np.array([3.0, 1e-40, 0.1, -7], dtype=np.float32)
    got = em.frexp(em.asarray(f32))
    np.testing.assert_array_equal(got[0].numpy(), np.frexp(f32)[0])
    assert got[0].dtype == em.float32
    np.testing.assert_array_equal(em.ldexp(em.asarray(f32), 5).numpy(), np.ldexp(f32, 5))


@pytest.mark.parametrize("call,error", [
    (lambda m: m.einsum("ij,jk->ik", _w(m, A), _w(m, A)), ValueError),
    (lambda m: m.einsum("ij->k", _w(m, A)), ValueError),
    (lambda m: m.einsum("ijk", _w(m, A)), ValueError),
    (lambda m: m.convolve(_w(m, []), _w(m, [1.0])), ValueError),
    (lambda m: m.convolve(_w(m, A), _w(m, V)), ValueError),
    (lambda m: m.nanquantile(_w(m, XN), 1.5), ValueError),
    (lambda m: m.gcd(_w(m, [1.5]), 2), TypeError),
    (lambda m: m.ldexp(_w(m, [1.5]), 2.0), TypeError),
], ids=["einsum sizes", "einsum output", "einsum term", "convolve empty", "convolve 2d", "nanquantile q", "gcd float",
        "ldexp float exponent"])
def test_numpy_math_names_refuse_what_numpy_refuses(backend, call, error):
    with pytest.raises(error):
        call(np)
    with pytest.raises(error):
        call(em)


CHAINS = [
    ("ij,jk,kl->il", (RNG.standard_normal((2, 60)), RNG.standard_normal((60, 50)), RNG.standard_normal((50, 3)))),
    ("ab,bc,cd,de->ae", (RNG.standard_normal((40, 3)), RNG.standard_normal((3, 40)), RNG.standard_normal((40, 2)),
                         RNG.standard_normal((2, 30)))),
    ("i,ij,jk,k->", (V[:3], A, B, W5)), ("ij,k,jl->ikl", (A, W5, B)), ("ij,ij,ij->i", (A, A, A)),
    ("bij,bjk,bkl->bil", (C, D, RNG.standard_normal((2, 5, 3)))), ("ij,jk,kl", (A, B, B.T)),
]


@pytest.mark.parametrize("subscripts,ops", CHAINS, ids=[c[0] for c in CHAINS])
def test_einsum_paths_give_numpys_values(backend, subscripts, ops):
    """Every contraction order gives NumPy's values: from the left, greedy, a path of
    einsum_path, and NumPy's own path."""
    want = np.einsum(subscripts, *ops)
    xs = [em.asarray(o) for o in ops]
    path, report = em.einsum_path(subscripts, *xs)
    assert path[0] == "einsum_path" and len(path) == len(ops) and "Complete contraction" in report
    np_path = np.einsum_path(subscripts, *ops, optimize="greedy")[0]
    for optimize in (False, True, "greedy", path, np_path):
        got = em.einsum(subscripts, *xs, optimize=optimize)
        assert got.shape == want.shape
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-10, atol=1e-12)


def test_einsum_sublist_form_is_the_string_form(backend):
    x, y = em.asarray(A), em.asarray(B)
    np.testing.assert_allclose(em.einsum(x, [0, 1], y, [1, 2], [0, 2]).numpy(), np.einsum(A, [0, 1], B, [1, 2], [0, 2]))
    np.testing.assert_allclose(em.einsum(x, [0, 1], y, [1, 2]).numpy(), np.einsum(A, [0, 1], B, [1, 2]))
    np.testing.assert_allclose(em.einsum(em.asarray(C), [Ellipsis, 1, 2], [Ellipsis, 2]).numpy(),
                               np.einsum(C, [Ellipsis, 1, 2], [Ellipsis, 2]))
    assert em.einsum_path(x, [0, 1], y, [1, 2], [0, 2])[0] == ["einsum_path", (0, 1)]
    with pytest.raises(ValueError):
        em.einsum(x, [0, 99])


def test_einsum_refuses_bad_paths():
    with pytest.raises(ValueError):
        em.einsum("ij,jk,kl->il", em.asarray(A), em.asarray(B), em.asarray(B.T), optimize=["einsum_path", (0, 5)])
    with pytest.raises(TypeError):
        em.einsum("ij,jk->ik", em.asarray(A), em.asarray(B), optimize=[(0, 1)])
    with pytest.raises(ValueError):
        em.einsum("ij,jk->ik", em.asarray(A), em.asarray(B), optimize="fastest")


def test_error_settings_are_kept_and_restored():
    """Ember never warns on floating-point errors; NumPy code that sets the handling runs."""
    before = em.geterr()
    with em.errstate(divide="raise", invalid="ignore"):
        assert em.geterr()["divide"] == "raise"
        assert float(em.asarray(1.0) / 0.0) == float("inf")  # still no error
    assert em.geterr() == before
    old = em.seterr(all="warn")
    assert em.geterr() == dict.fromkeys(("divide", "over", "under", "invalid"), "warn")
    em.seterr(**old)
    with pytest.raises(ValueError):
        em.seterr(over="explode")


def test_error_callback_and_buffer_size_are_recorded():
    log = []
    assert em.seterrcall(log.append) is None and em.geterrcall() == log.append
    assert em.seterrcall(None) == log.append
    with pytest.raises(ValueError):
        em.seterrcall(42)
    assert em.getbufsize() == np.getbufsize()
    assert em.setbufsize(16384) == 8192 and em.getbufsize() == 16384
    em.setbufsize(8192)
