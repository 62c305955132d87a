"""NumPy's dtype helpers (bindings/python/ember/_numpy_types.py) against NumPy's answers."""
import numpy as np
import pytest

import ember as em

SCALARS = [0, 200, 300, 70000, 2 ** 40, 2 ** 64 - 1, -1, -129, -2 ** 40, True, False, 3.1, 1e5, 1e300, -65504.0, 64999.0,
           65000.0, 3.3e38, 3.4e38,
           float("nan"), float("inf"), 1j, 1e39j, 2.5 - 1e10j]


@pytest.mark.parametrize("value", SCALARS, ids=[repr(v) for v in SCALARS])
def test_min_scalar_type_of_python_scalars(value):
    assert em.min_scalar_type(value).name == np.min_scalar_type(value).name


def test_min_scalar_type_of_arrays(backend):
    assert em.min_scalar_type(em.asarray([1, 2, 3])) == em.int64  # arrays of dimension >= 1 keep theirs
    assert em.min_scalar_type(em.asarray(5)).name == np.min_scalar_type(np.array(5)).name
    assert em.min_scalar_type(em.asarray(3.0, dtype=em.float32)).name == np.min_scalar_type(np.float32(3.0)).name
    with pytest.raises(OverflowError):
        em.min_scalar_type(2 ** 64)


@pytest.mark.parametrize("dtypes", [("int64",), ("float16",), ("float32", "complex64"), ("float32", "int32"),
                                    ("float16", "float32"), ("uint8", "float16"), ("complex64", "float64")])
def test_common_type(backend, dtypes):
    arrays = [np.ones(2, dtype=d) for d in dtypes]
    assert em.common_type(*[em.asarray(a) for a in arrays]).name == np.dtype(np.common_type(*arrays)).name
    with pytest.raises(TypeError):
        em.common_type(em.asarray([True]))


@pytest.mark.parametrize("typechars", [["d", "f"], "Ff d", ["b", "h"], "G", ["f"], ["F", "d"]])
def test_mintypecode_and_typename(typechars):
    assert em.mintypecode(typechars) == np.mintypecode(typechars)
    assert em.mintypecode(typechars, typeset="bh", default="x") == np.mintypecode(typechars, typeset="bh", default="x")
    for code in "?bBhHiIlLqQfdgFDG":
        assert em.typename(code) == np.typename(code)
    assert em.mintypecode([em.asarray([1.0], dtype=em.float32)]) == np.mintypecode([np.ones(1, np.float32)])
