"""NumPy's set routines, sequence helpers, polynomials and window functions
(bindings/python/ember/_numpy_sets.py, _numpy_poly.py) against NumPy itself."""
import numpy as np
import pytest

import ember as em
from test_numpy_names import matches_numpy

S1 = np.array([5, 1, 3, 3, 7, 1, 9])
S2 = np.array([3, 8, 1, 10, 1])
F1 = np.array([2.5, np.nan, 1.0, 4.0, 1.0])
F2 = np.array([1.0, np.nan, 4.0, 6.0])
P = np.array([1.0, -6.0, 11.0, -6.0])  # (x - 1)(x - 2)(x - 3)
Q = np.array([2.0, 0.0, 1.0])


def _w(m, a):
    return em.asarray(a) if m is em else np.asarray(a)


CASES = [
    ("intersect1d", lambda m: m.intersect1d(_w(m, S1), _w(m, S2))),
    ("intersect1d_indices", lambda m: m.intersect1d(_w(m, S1), _w(m, S2), return_indices=True)),
    ("intersect1d_float_nan", lambda m: m.intersect1d(_w(m, F1), _w(m, F2))),
    ("intersect1d_mixed", lambda m: m.intersect1d(_w(m, S1), _w(m, F2))),
    ("union1d", lambda m: m.union1d(_w(m, S1), _w(m, S2))), ("union1d_nan", lambda m: m.union1d(_w(m, F1), _w(m, F2))),
    ("setdiff1d", lambda m: m.setdiff1d(_w(m, S1), _w(m, S2))),
    ("setdiff1d_unique", lambda m: m.setdiff1d(_w(m, [7, 2, 5, 9]), _w(m, S2), assume_unique=True)),
    ("setxor1d", lambda m: m.setxor1d(_w(m, S1), _w(m, S2))),
    ("intersect1d_2d", lambda m: m.intersect1d(_w(m, S1[:6].reshape(2, 3)), _w(m, S2))),
    ("ediff1d", lambda m: m.ediff1d(_w(m, [[1, 2, 4], [7, 0, 3]]))),
    ("ediff1d_ends", lambda m: m.ediff1d(_w(m, [1.0, 2.5, 4.0]), to_end=[88, 99], to_begin=-1)),
    ("ediff1d_empty", lambda m: m.ediff1d(_w(m, np.array([], dtype=np.float32)), to_begin=[1.0])),
    ("trim_zeros", lambda m: m.trim_zeros(_w(m, [0, 0, 1, 0, 2, 0]))),
    ("trim_zeros_front", lambda m: m.trim_zeros(_w(m, [0, 0, 1, 0, 2, 0]), "f")),
    ("trim_zeros_back", lambda m: m.trim_zeros(_w(m, [0.0, 3.0, 0.0]), "b")),
    ("trim_zeros_all", lambda m: m.trim_zeros(_w(m, [0, 0]))),
    ("sort_complex", lambda m: m.sort_complex(_w(m, [1 + 2j, 2 - 1j, 1 - 1j, -3 + 0j]))),
    ("sort_complex_real", lambda m: m.sort_complex(_w(m, [5.0, 3.0, 6.0, 2.0, 1.0]))),
    ("nancumprod", lambda m: m.nancumprod(_w(m, [[1.0, np.nan], [3.0, 4.0]]))),
    ("nancumprod_axis", lambda m: m.nancumprod(_w(m, [[1.0, np.nan], [3.0, 4.0]]), axis=0)),
    ("poly", lambda m: m.poly(_w(m, [1.0, 2.0, 3.0]))), ("poly_int", lambda m: m.poly(_w(m, [1, -1]))),
    ("poly_conjugates", lambda m: m.poly(_w(m, [1 + 1j, 1 - 1j, 2.0]))),
    ("poly_matrix", lambda m: m.poly(_w(m, [[1.0, 2.0], [3.0, 4.0]]))),
    ("poly_empty", lambda m: m.poly(_w(m, np.array([])))),
    ("roots", lambda m: m.sort_complex(m.roots(_w(m, P)))), ("roots_complex", lambda m: m.sort_complex(m.roots(_w(m, Q)))),
    ("roots_zeros", lambda m: m.sort_complex(m.roots(_w(m, [0.0, 1.0, -3.0, 0.0, 0.0])))),
    ("roots_constant", lambda m: m.roots(_w(m, [5.0]))),
    ("polyadd", lambda m: m.polyadd(_w(m, [1, 2]), _w(m, [9, 5, 4]))),
    ("polysub", lambda m: m.polysub(_w(m, [1.5, 2]), _w(m, [9, 5, 4]))),
    ("polymul", lambda m: m.polymul(_w(m, [1, 2, 3]), _w(m, [9, 5, 1]))),
    ("polyder", lambda m: m.polyder(_w(m, [1, 1, 1, 1]))), ("polyder_2", lambda m: m.polyder(_w(m, P), 2)),
    ("polyder_past", lambda m: m.polyder(_w(m, [3.0, 1.0]), 3)),
    ("polyint", lambda m: m.polyint(_w(m, [1, 1, 1]))), ("polyint_k", lambda m: m.polyint(_w(m, P), 2, k=[3.0, 5.0])),
    ("polydiv", lambda m: m.polydiv(_w(m, [3.0, 5.0, 2.0]), _w(m, [2.0, 1.0]))),
    ("polydiv_remainder", lambda m: m.polydiv(_w(m, P), _w(m, Q))),
    ("polydiv_short", lambda m: m.polydiv(_w(m, [1.0]), _w(m, [2.0, 1.0]))),
    ("bartlett", lambda m: m.bartlett(7)), ("blackman", lambda m: m.blackman(8)), ("hamming", lambda m: m.hamming(5)),
    ("hanning", lambda m: m.hanning(6)), ("kaiser", lambda m: m.kaiser(9, 14.0)), ("window_one", lambda m: m.hanning(1)),
    ("window_none", lambda m: m.blackman(0)),
    ("i0", lambda m: m.i0(_w(m, np.array([0.0, 0.5, -1.0, 5.0, 19.0, 29.9, 30.1, 45.0, 300.0])))),
    ("i0_float32", lambda m: m.i0(_w(m, np.array([0.5, -3.0, 20.0], dtype=np.float32)))),
]


@pytest.mark.parametrize("name,call", CASES, ids=[c[0] for c in CASES])
def test_numpy_set_and_polynomial_names_match_numpy(backend, name, call):
    matches_numpy(call, name)


def test_i0_is_accurate_across_its_two_forms():
    x = np.concatenate([np.linspace(0, 60, 601), [0.1, 29.99, 30.0, 30.01, 700.0]])
    got = em.i0(em.asarray(x)).numpy()
    np.testing.assert_allclose(got, np.i0(x), rtol=2e-14)


@pytest.mark.parametrize("call,error", [
    (lambda m: m.trim_zeros(_w(m, [[0, 1]])), ValueError), (lambda m: m.poly(_w(m, [[1.0, 2.0]])), ValueError),
    (lambda m: m.polyder(_w(m, [1.0]), -1), ValueError), (lambda m: m.polydiv(_w(m, [1.0]), _w(m, [0.0])), ZeroDivisionError),
], ids=["trim_zeros 2-d", "poly not square", "polyder order", "polydiv by zero"])
def test_numpy_set_and_polynomial_names_refuse(backend, call, error):
    with pytest.raises(error):
        call(em)
