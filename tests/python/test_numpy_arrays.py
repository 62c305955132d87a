"""NumPy's names for making, reshaping and indexing arrays (bindings/python/ember/
_numpy_arrays.py) against NumPy itself: the same call through `m` = numpy or ember."""
import numpy as np
import pytest

import ember as em
from test_numpy_names import matches_numpy

I6 = np.arange(6).reshape(2, 3)
M3 = np.array([[1, 2], [3, 4], [5, 6]])
CH = [[0, 1, 2, 3], [10, 11, 12, 13], [20, 21, 22, 23], [30, 31, 32, 33]]
PW = np.array([-2.5, -1.0, 0.0, 1.0, 2.5])


def _w(m, a):
    return em.asarray(a) if m is em else np.asarray(a)


def _filled(m, shape, val, wrap=False):
    a = m.zeros(shape, dtype=m.int64)
    m.fill_diagonal(a, _w(m, val) if isinstance(val, list) else val, wrap=wrap)
    return a


def _put(m, ind, v, mode="raise"):
    a = _w(m, I6.copy())
    m.put(a, ind, v, mode=mode)
    return a


def _put_along(m):
    a = _w(m, np.array([[10, 30, 20], [60, 40, 50]]))
    m.put_along_axis(a, _w(m, np.array([[1], [0]])), 99, axis=1)
    return a


def _place(m):
    a = _w(m, I6.copy())
    m.place(a, a > 2, [44, 55])
    return a


def _putmask(m):
    a = _w(m, np.arange(6))
    m.putmask(a, a > 1, _w(m, [-33, -44]))
    return a


def _kind(m, name):
    """NumPy's abstract scalar type, or its name, which Ember's issubdtype takes instead."""
    return getattr(np, name) if m is np else name


def _outer(m, v):
    return m.outer(v, v)


CASES = [
    ("mgrid", lambda m: m.mgrid[0:3, 0:4]), ("mgrid_complex_step", lambda m: m.mgrid[-1:1:5j]),
    ("mgrid_float", lambda m: m.mgrid[0:1:0.25, 0:2]), ("ogrid", lambda m: m.ogrid[0:3, 0:2]),
    ("ix_", lambda m: m.ix_([0, 2], [1, 3])), ("ix_bool", lambda m: m.ix_(_w(m, [True, False, True]), [1])),
    ("ix_indexing", lambda m: _w(m, np.arange(20).reshape(4, 5))[m.ix_([0, 3], [1, 2, 4])]),
    ("fromfunction", lambda m: m.fromfunction(lambda i, j: i * 10 + j, (3, 4), dtype=m.int64)),
    ("fromfunction_float", lambda m: m.fromfunction(lambda i, j: i / (j + 1), (2, 3))),
    ("logspace", lambda m: m.logspace(0, 3, 4)), ("logspace_base2", lambda m: m.logspace(0, 3, 4, base=2, endpoint=False)),
    ("geomspace", lambda m: m.geomspace(1, 1000, 4)), ("geomspace_negative", lambda m: m.geomspace(-1000, -1, 5)),
    ("diagflat", lambda m: m.diagflat([[1, 2], [3, 4]], 1)), ("tril_indices", lambda m: m.tril_indices(3, -1, 4)),
    ("triu_indices", lambda m: m.triu_indices(4, 1)), ("tril_indices_from", lambda m: m.tril_indices_from(_w(m, I6))),
    ("triu_indices_from", lambda m: m.triu_indices_from(_w(m, I6), 1)), ("diag_indices", lambda m: m.diag_indices(3, 3)),
    ("diag_indices_from", lambda m: m.diag_indices_from(_w(m, np.eye(3)))),
    ("fill_diagonal", lambda m: _filled(m, (3, 3), 5)), ("fill_diagonal_tall", lambda m: _filled(m, (7, 3), 5)),
    ("fill_diagonal_tall_wrap", lambda m: _filled(m, (7, 3), [1, 2], True)),
    ("fill_diagonal_wide", lambda m: _filled(m, (3, 5), [1, 2, 3, 4])), ("fill_diagonal_3d", lambda m: _filled(m, (2, 2, 2), 4)),
    ("ravel_multi_index", lambda m: m.ravel_multi_index((_w(m, [3, 6, 6]), _w(m, [4, 5, 1])), (7, 6))),
    ("ravel_multi_index_F", lambda m: m.ravel_multi_index((_w(m, [3, 6, 6]), _w(m, [4, 5, 1])), (7, 6), order="F")),
    ("ravel_multi_index_clip", lambda m: m.ravel_multi_index((_w(m, [3, 9, -6]), _w(m, [4, 5, 1])), (7, 6), mode="clip")),
    ("ravel_multi_index_wrap", lambda m: m.ravel_multi_index((_w(m, [3, 9, -6]), _w(m, [4, 5, 1])), (7, 6), mode="wrap")),
    ("column_stack", lambda m: m.column_stack([_w(m, [1, 2]), _w(m, [[3, 4], [5, 6]])])),
    ("dstack", lambda m: m.dstack([_w(m, [1, 2]), _w(m, [3, 4])])),
    ("dsplit", lambda m: m.dsplit(_w(m, np.arange(16).reshape(2, 2, 4)), 2)),
    ("block", lambda m: m.block([[m.ones((2, 2)), m.zeros((2, 1))], [m.zeros((1, 2)), m.ones((1, 1))]])),
    ("block_1d", lambda m: m.block([_w(m, [1, 2]), 3, _w(m, [4])])),
    ("block_3d", lambda m: m.block([[[m.ones((1, 1, 2))], [m.zeros((1, 1, 2))]]])),
    ("resize", lambda m: m.resize(_w(m, [[1, 2], [3, 4]]), (3, 3))), ("resize_int", lambda m: m.resize(_w(m, [1, 2, 3]), 2)),
    ("resize_empty", lambda m: m.resize(_w(m, np.array([], dtype=np.float32)), (2,))),
    ("insert", lambda m: m.insert(_w(m, [1, 2, 3]), 1, 9)),
    ("insert_list", lambda m: m.insert(_w(m, [1, 2, 3]), [1, 1, 3, 0], [7, 8, 9, 10])),
    ("insert_negative", lambda m: m.insert(_w(m, [1, 2, 3]), -1, [7, 8])),
    ("insert_axis1", lambda m: m.insert(_w(m, I6), 1, [10, 20], axis=1)),
    ("insert_axis1_list", lambda m: m.insert(_w(m, I6), [1], [[10], [20]], axis=1)),
    ("insert_slice", lambda m: m.insert(_w(m, I6), slice(0, 2), 5, axis=0)),
    ("insert_flattened", lambda m: m.insert(_w(m, np.arange(4).reshape(2, 2)), 2, 5)),
    ("insert_float_into_int", lambda m: m.insert(_w(m, [1, 2]), 0, 2.7)),
    ("ndindex", lambda m: list(m.ndindex(2, 3))), ("ndindex_tuple", lambda m: list(m.ndindex((1, 2)))),
    ("ndenumerate", lambda m: [(i, float(v)) for i, v in m.ndenumerate(_w(m, [[1.5, 2], [3, 4]]))]),
    ("put", lambda m: _put(m, [0, 5], [-1, -2])), ("put_repeat", lambda m: _put(m, [-1, 1, 2], [9])),
    ("put_wrap", lambda m: _put(m, [7, 22], [9, 8], "wrap")), ("put_clip", lambda m: _put(m, [7, -9], [9, 8], "clip")),
    ("put_along_axis", _put_along), ("place", _place),
    ("extract", lambda m: m.extract(_w(m, I6 % 3 == 0), _w(m, I6))),
    ("compress", lambda m: m.compress([0, 1], _w(m, M3), axis=0)),
    ("compress_flat", lambda m: m.compress([False, True, True], _w(m, M3))),
    ("compress_axis1", lambda m: m.compress([True, False], _w(m, M3), axis=1)),
    ("choose", lambda m: m.choose(_w(m, [2, 3, 1, 0]), CH)),
    ("choose_broadcast", lambda m: m.choose(_w(m, [[1, 0, 1], [0, 1, 0]]), [_w(m, -10), _w(m, [1, 2, 3])])),
    ("choose_clip", lambda m: m.choose(_w(m, [2, 4, 1, 0]), CH[:3], mode="clip")),
    ("choose_wrap", lambda m: m.choose(_w(m, [2, 4, -1, 0]), CH[:3], mode="wrap")),
    ("select", lambda m: m.select([m.arange(6) < 3, m.arange(6) > 3], [m.arange(6), m.arange(6) ** 2], 42)),
    ("select_float", lambda m: m.select([m.arange(4) < 2], [m.arange(4) * 1.5])),
    ("piecewise", lambda m: m.piecewise(_w(m, PW), [_w(m, PW) < 0, _w(m, PW) >= 0], [lambda x: -x, lambda x: x * 2])),
    ("piecewise_otherwise", lambda m: m.piecewise(_w(m, PW), [_w(m, PW) < 0], [-1, lambda x: x + 0.5])),
    ("apply_along_axis", lambda m: m.apply_along_axis(lambda v: v[0] + v[-1], 0, _w(m, np.arange(12.0).reshape(3, 4)))),
    ("apply_along_axis_vector", lambda m: m.apply_along_axis(lambda v: v * 2, 1, _w(m, np.arange(6.0).reshape(2, 3)))),
    ("apply_along_axis_matrix", lambda m: m.apply_along_axis(lambda v: _outer(m, v), 1, _w(m, np.arange(6.0).reshape(3, 2)))),
    ("promote_types", lambda m: str(m.promote_types("int8", "uint8")) == "int16"),
    ("iterable", lambda m: (m.iterable([1]), m.iterable(3))),
    ("ascontiguousarray", lambda m: m.ascontiguousarray(5.0)), ("asanyarray", lambda m: m.asanyarray([1, 2])),
    ("rollaxis", lambda m: m.rollaxis(m.ones((3, 4, 5, 6)), 3, 1).shape),
    ("rollaxis_forward", lambda m: m.rollaxis(m.ones((3, 4, 5, 6)), 1, 4).shape),
    ("putmask", _putmask), ("asarray_chkfinite", lambda m: m.asarray_chkfinite([1.0, 2.0])),
    ("fromiter", lambda m: m.fromiter((i * i for i in range(5)), dtype=m.int64)),
    ("fromiter_count", lambda m: m.fromiter(iter([1.5, 2.5, 3.5]), dtype=m.float32, count=2)),
    ("vectorize", lambda m: m.vectorize(lambda a, b: a - b if a > b else a + b)(_w(m, [1, 2, 3, 4]), 2)),
    ("vectorize_broadcast", lambda m: m.vectorize(lambda a, b: a * 10 + b)(_w(m, [[1], [2]]), _w(m, [3, 4, 5]))),
    ("vectorize_otypes", lambda m: m.vectorize(lambda a: a / 2, otypes=[m.float64])(_w(m, [1, 2, 3]))),
    ("vectorize_tuple", lambda m: m.vectorize(lambda a: (a + 1, a * 2))(_w(m, [1, 2]))),
    ("vectorize_excluded", lambda m: m.vectorize(lambda a, table: table[a], excluded={1})(_w(m, [0, 2]), [5, 6, 7])),
    ("row_stack", lambda m: m.row_stack([_w(m, [1, 2]), _w(m, [[3, 4], [5, 6]])])) if hasattr(np, "row_stack") else
    ("vstack", lambda m: m.vstack([_w(m, [1, 2]), _w(m, [[3, 4], [5, 6]])])),
    ("apply_over_axes", lambda m: m.apply_over_axes(m.sum, _w(m, np.arange(24).reshape(2, 3, 4)), [0, 2])),
    ("apply_over_axes_keep", lambda m: m.apply_over_axes(lambda x, ax: m.cumsum(x, axis=ax) if m is np else
                                                          em.cumulative_sum(x, axis=ax), _w(m, np.arange(6).reshape(2, 3)), 1)),
    ("issubdtype", lambda m: [m.issubdtype(m.float32, _kind(m, "floating")), m.issubdtype(m.int8, _kind(m, "signedinteger")),
                              m.issubdtype(m.uint8, _kind(m, "signedinteger")), m.issubdtype(m.complex64, _kind(m, "inexact")),
                              m.issubdtype(m.float64, m.float64), m.issubdtype(m.float64, m.float32),
                              m.issubdtype(m.bool_, _kind(m, "number"))]),
]


@pytest.mark.parametrize("name,call", CASES, ids=[c[0] for c in CASES])
def test_numpy_array_names_match_numpy(backend, name, call):
    matches_numpy(call, name)


@pytest.mark.parametrize("call", [
    lambda m: m.ravel_multi_index((_w(m, [3, 9]), _w(m, [4, 5])), (7, 6)),
    lambda m: m.dsplit(_w(m, np.arange(16).reshape(2, 2, 4)), 3),
    lambda m: m.select([m.arange(3) < 1], []),
    lambda m: m.choose(_w(m, [0, 3]), [[1, 2], [3, 4]]),
    lambda m: m.block([[_w(m, [1])], _w(m, [2])]),
    lambda m: m.resize(_w(m, [1]), (-1, 2)),
    lambda m: m.diag_indices_from(_w(m, I6)),
    lambda m: m.piecewise(_w(m, PW), [_w(m, PW) < 0], [1, 2, 3]),
    lambda m: m.asarray_chkfinite([1.0, np.nan]),
    lambda m: m.fromiter(iter([1, 2]), dtype=m.int64, count=3),
    lambda m: m.rollaxis(m.ones((2, 3)), 2),
], ids=["ravel_multi_index", "dsplit", "select", "choose", "block", "resize", "diag_indices_from", "piecewise",
        "asarray_chkfinite", "fromiter", "rollaxis"])
def test_numpy_array_names_refuse_what_numpy_refuses(backend, call):
    with pytest.raises(ValueError):
        call(np)
    with pytest.raises(ValueError):
        call(em)


def test_in_place_names_refuse_what_they_cannot_write(backend):
    for f in (lambda: em.put([1, 2], [0], 5), lambda: em.place([1, 2], [True, False], 5), lambda: em.fill_diagonal([[1]], 5)):
        with pytest.raises(TypeError):
            f()
    a = em.asarray(I6.copy())
    with pytest.raises(IndexError):
        em.put(a, [6], 1)
    with pytest.raises(IndexError):
        em.insert(a, 4, 1, axis=1)
    assert a.tolist() == I6.tolist()  # nothing written by the failed calls


def test_mask_indices_and_frompyfunc(backend):
    for func, k in ((np.triu, 0), (np.triu, 1), (np.tril, -1)):
        em_func = {np.triu: em.triu, np.tril: em.tril}[func]
        for got, want in zip(em.mask_indices(4, em_func, k), np.mask_indices(4, func, k)):
            np.testing.assert_array_equal(got.numpy(), want)
    f = em.frompyfunc(lambda a, b: (a + b, a * b), 2, 2)
    g = np.frompyfunc(lambda a, b: (a + b, a * b), 2, 2)
    assert (f.nin, f.nout) == (g.nin, g.nout)
    for got, want in zip(f(em.arange(3), 2), g(np.arange(3), 2)):
        np.testing.assert_array_equal(got.numpy(), want.astype(np.int64))
    h = em.frompyfunc(abs, 1, 1)
    np.testing.assert_array_equal(h(em.asarray([-1.5, 2.0])).numpy(), [1.5, 2.0])
    with pytest.raises(TypeError):
        h(1, 2)
