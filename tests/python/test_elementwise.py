"""Elementwise ops against NumPy (float64 NumPy as the oracle), on every backend."""
import math
import operator

import numpy as np
import pytest

import ember as em

RNG = np.random.default_rng(0)
BASE = RNG.uniform(-3, 3, size=(4, 5))
POS = RNG.uniform(0.1, 3, size=(4, 5))
UNIT = RNG.uniform(-0.95, 0.95, size=(4, 5))
GE1 = RNG.uniform(1.0, 4, size=(4, 5))

UNARY = [  # name, numpy function, domain
    ("negative", np.negative, BASE), ("positive", np.positive, BASE), ("abs", np.abs, BASE),
    ("sign", np.sign, BASE), ("sqrt", np.sqrt, POS), ("square", np.square, BASE), ("exp", np.exp, BASE),
    ("expm1", np.expm1, BASE), ("log", np.log, POS), ("log1p", np.log1p, POS), ("log2", np.log2, POS),
    ("log10", np.log10, POS), ("sin", np.sin, BASE), ("cos", np.cos, BASE), ("tan", np.tan, UNIT),
    ("asin", np.arcsin, UNIT), ("acos", np.arccos, UNIT), ("atan", np.arctan, BASE), ("sinh", np.sinh, BASE),
    ("cosh", np.cosh, BASE), ("tanh", np.tanh, BASE), ("asinh", np.arcsinh, BASE), ("acosh", np.arccosh, GE1),
    ("atanh", np.arctanh, UNIT), ("floor", np.floor, BASE), ("ceil", np.ceil, BASE), ("round", np.round, BASE),
    ("trunc", np.trunc, BASE), ("reciprocal", np.reciprocal, POS), ("isnan", np.isnan, BASE),
    ("isinf", np.isinf, BASE), ("isfinite", np.isfinite, BASE), ("signbit", np.signbit, BASE),
    ("conj", np.conj, BASE), ("logical_not", np.logical_not, BASE),
    ("sigmoid", lambda x: 1 / (1 + np.exp(-x)), BASE), ("relu", lambda x: np.maximum(x, 0), BASE),
    ("softplus", lambda x: np.logaddexp(x, 0), BASE), ("silu", lambda x: x / (1 + np.exp(-x)), BASE),
    ("erf", np.vectorize(math.erf), BASE),
    ("erfc", np.vectorize(math.erfc), BASE),
    ("cbrt", np.cbrt, BASE),
]

BINARY = [
    ("add", np.add), ("subtract", np.subtract), ("multiply", np.multiply), ("divide", np.divide),
    ("floor_divide", np.floor_divide), ("remainder", np.remainder), ("fmod", np.fmod), ("pow", np.power),
    ("maximum", np.maximum), ("minimum", np.minimum), ("atan2", np.arctan2), ("hypot", np.hypot),
    ("copysign", np.copysign), ("logaddexp", np.logaddexp), ("equal", np.equal),
    ("not_equal", np.not_equal), ("less", np.less), ("less_equal", np.less_equal), ("greater", np.greater),
    ("greater_equal", np.greater_equal), ("logical_and", np.logical_and), ("logical_or", np.logical_or),
    ("logical_xor", np.logical_xor),
]


def check(got, want, rtol=1e-12, atol=1e-12):
    g = np.asarray(got)
    assert g.shape == np.shape(want)
    if g.dtype == np.bool_:
        np.testing.assert_array_equal(g, want)
    else:
        np.testing.assert_allclose(g, want, rtol=rtol, atol=atol, equal_nan=True)


@pytest.mark.parametrize("name,ref,dom", UNARY, ids=[u[0] for u in UNARY])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_unary(backend, name, ref, dom, dtype):
    x = em.asarray(dom.astype(dtype))
    got = getattr(em, name)(x)
    tol = 1e-12 if dtype == "float64" else 2e-6
    want = ref(dom.astype(dtype).astype(np.float64))
    if name in ("floor", "ceil", "round", "trunc", "sign"):
        want = ref(dom.astype(dtype))
    check(got, want, rtol=tol, atol=tol)
    if np.asarray(got).dtype != np.bool_:
        assert got.dtype == em.asarray(dom.astype(dtype)).dtype


@pytest.mark.parametrize("name,ref", BINARY, ids=[b[0] for b in BINARY])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_binary(backend, name, ref, dtype):
    a = BASE.astype(dtype)
    b = POS[:1].astype(dtype)  # broadcasting (1, 5)
    if name == "pow":
        a = np.abs(a)
    got = getattr(em, name)(em.asarray(a), em.asarray(b))
    tol = 1e-12 if dtype == "float64" else 3e-6
    check(got, ref(a.astype(np.float64), b.astype(np.float64)), rtol=tol, atol=tol)


INT_BINARY = [("add", np.add), ("subtract", np.subtract), ("multiply", np.multiply),
              ("floor_divide", np.floor_divide), ("remainder", np.remainder), ("bitwise_and", np.bitwise_and),
              ("bitwise_or", np.bitwise_or), ("bitwise_xor", np.bitwise_xor),
              ("bitwise_left_shift", np.left_shift), ("bitwise_right_shift", np.right_shift),
              ("maximum", np.maximum), ("minimum", np.minimum)]


@pytest.mark.parametrize("name,ref", INT_BINARY, ids=[b[0] for b in INT_BINARY])
@pytest.mark.parametrize("dtype", ["int8", "int32", "int64", "uint8", "uint32"])
def test_integer_binary(backend, name, ref, dtype):
    a = np.array([[0, 1, 5, 7], [9, 100, 3, 2]], dtype=dtype)
    b = np.array([1, 2, 3, 4], dtype=dtype)
    got = getattr(em, name)(em.asarray(a), em.asarray(b))
    assert got.dtype == dtype
    np.testing.assert_array_equal(np.asarray(got), ref(a, b))


def test_integer_division_by_zero_is_zero(backend):
    a = em.asarray([5, -5, 0], dtype=em.int32)
    z = em.zeros((3,), dtype=em.int32)
    assert (a // z).tolist() == [0, 0, 0]


OPS = [(operator.add, "+"), (operator.sub, "-"), (operator.mul, "*"), (operator.truediv, "/"),
       (operator.floordiv, "//"), (operator.mod, "%"), (operator.pow, "**"), (operator.lt, "<"),
       (operator.le, "<="), (operator.gt, ">"), (operator.ge, ">="), (operator.eq, "=="), (operator.ne, "!=")]


@pytest.mark.parametrize("op,sym", OPS, ids=[o[1] for o in OPS])
def test_operators_arrays_and_scalars(backend, op, sym):
    a = POS.copy()
    b = POS[::-1].copy()
    x, y = em.asarray(a), em.asarray(b)
    check(op(x, y), op(a, b))
    check(op(x, 2.5), op(a, 2.5))        # scalar on the right
    check(op(2.5, x), op(2.5, a))        # scalar on the left (reflected)
    check(op(x, 2), op(a, 2.0))
    check(op(3, x), op(3.0, a))


@pytest.mark.parametrize("op", [operator.and_, operator.or_, operator.xor, operator.lshift, operator.rshift])
def test_bitwise_operators(backend, op):
    a = np.array([1, 2, 3, 12], dtype=np.int32)
    x = em.asarray(a)
    np.testing.assert_array_equal(np.asarray(op(x, 2)), op(a, 2))
    np.testing.assert_array_equal(np.asarray(op(5, x)), op(np.int32(5), a))
    np.testing.assert_array_equal(np.asarray(op(x, x)), op(a, a))
    np.testing.assert_array_equal(np.asarray(~x), ~a)


def test_matmul_operator(backend):
    a = BASE
    b = POS.T.copy()
    check(em.asarray(a) @ em.asarray(b), a @ b)
    check(em.matmul(em.asarray(a), em.asarray(b)), a @ b)


def test_inplace_operators(backend):
    a = em.asarray([1.0, 2.0, 3.0], dtype=em.float64)
    ident = id(a)
    a += 1
    a *= em.asarray([2.0, 2.0, 2.0], dtype=em.float64)
    a -= 1.5
    a /= 2
    a **= 2
    assert id(a) == ident
    e = np.array([1.0, 2, 3])
    e += 1; e *= 2; e -= 1.5; e /= 2; e **= 2
    check(a, e)
    i = em.asarray([1, 2, 3], dtype=em.int32)
    i += 1
    i <<= 1
    i //= 3
    i %= 3
    i |= 4
    i &= 5
    i ^= 1
    assert i.dtype == em.int32
    w = np.array([1, 2, 3], dtype=np.int32)
    w += 1; w <<= 1; w //= 3; w %= 3; w |= 4; w &= 5; w ^= 1
    np.testing.assert_array_equal(np.asarray(i), w)


def test_inplace_operators_on_views_match_numpy(backend):
    # One pass into the left operand (ember_elementwise_into), except where an operand
    # overlaps it other than element for element: NumPy's answers use the original values.
    x = em.asarray([1.0, 2, 3, 4, 5])
    x[1:] += x[:-1]
    e = np.array([1.0, 2, 3, 4, 5])
    e[1:] += e[:-1]
    check(x, e)
    sq = BASE[:4, :4].copy()
    a = em.asarray(sq)
    a += a.T
    b = sq.copy()
    b += b.T
    check(a, b)
    s = em.asarray(np.arange(12.0).reshape(3, 4))
    s[:, ::2] *= np.array([10.0, 100.0])  # a NumPy operand goes through the fallback
    t = np.arange(12.0).reshape(3, 4)
    t[:, ::2] *= np.array([10.0, 100.0])
    check(s, t)
    m = em.asarray(np.eye(4) * 2)
    m @= em.asarray(sq)
    check(m, 2 * sq)


def test_out_argument_writes_into_the_given_array(backend):
    x = em.asarray(BASE)
    out = em.zeros((4, 5), dtype=em.float64)
    assert em.exp(x, out=out) is out
    check(out, np.exp(BASE))
    assert em.add(x, 1.5, out=out) is out
    check(out, BASE + 1.5)
    em.multiply(x, x, out=x)  # in place
    check(x, BASE * BASE)
    i = em.zeros((4, 5), dtype=em.int32)
    em.floor(em.asarray(BASE), out=i)  # NumPy needs casting="unsafe" here; Ember converts as assign does
    np.testing.assert_array_equal(np.asarray(i), np.floor(BASE).astype(np.int32))
    m = em.zeros((4, 4), dtype=em.float64)
    assert em.matmul(em.asarray(BASE), em.asarray(BASE.T), out=m) is m
    check(m, BASE @ BASE.T, rtol=1e-10, atol=1e-10)
    with pytest.raises(ValueError):
        em.add(x, x, out=em.zeros((5,), dtype=em.float64))
    with pytest.raises(TypeError):
        em.exp(x, out=np.zeros((4, 5)))


def test_inplace_keeps_dtype_and_rejects_broadcast_growth(backend):
    a = em.asarray([1.0], dtype=em.float32)
    with pytest.raises(ValueError):
        a += em.asarray([1.0, 2.0], dtype=em.float32)


def test_unary_operators(backend):
    a = BASE
    x = em.asarray(a)
    check(-x, -a)
    check(+x, +a)
    check(abs(x), abs(a))


def test_special_values(backend):
    v = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0], dtype=np.float64)
    x = em.asarray(v)
    np.testing.assert_array_equal(np.asarray(em.isnan(x)), np.isnan(v))
    np.testing.assert_array_equal(np.asarray(em.isinf(x)), np.isinf(v))
    np.testing.assert_array_equal(np.asarray(em.isfinite(x)), np.isfinite(v))
    np.testing.assert_array_equal(np.asarray(em.signbit(x)), np.signbit(v))
    with np.errstate(all="ignore"):
        check(em.sqrt(x), np.sqrt(v))
        check(em.log(x), np.log(v))
        check(em.exp(x), np.exp(v))
        check(x / 0.0, v / 0.0)
        check(em.maximum(x, 0.5), np.maximum(v, 0.5))
        check(em.minimum(x, 0.5), np.minimum(v, 0.5))
        check(em.copysign(1.0, x), np.copysign(1.0, v))
        check(em.atan2(x, 1.0), np.arctan2(v, 1.0))
        check(em.floor(x), np.floor(v))
        check(em.round(x), np.round(v))
    assert math.copysign(1.0, float(em.asarray(-0.0, dtype=em.float64))) == -1.0
    np.testing.assert_array_equal(np.asarray(em.equal(x, x)), v == v)
    np.testing.assert_array_equal(np.asarray(em.nextafter(em.asarray([0.0], dtype=em.float64), 1.0)),
                                  np.nextafter(np.array([0.0]), 1.0))


def test_round_half_to_even_and_decimals(backend):
    v = np.array([0.5, 1.5, 2.5, -0.5, -1.5, 1.2345], dtype=np.float64)
    check(em.round(em.asarray(v)), np.round(v))
    check(em.round(em.asarray(v), decimals=2), np.round(v, 2))


def test_clip_where_isclose(backend):
    a = BASE
    x = em.asarray(a)
    check(em.clip(x, -1.0, 1.0), np.clip(a, -1, 1))
    check(em.clip(x, min=0.0), np.clip(a, 0, None))
    check(em.where(x > 0, x, 0.0), np.where(a > 0, a, 0.0))
    check(em.where(x > 0, 1.0, x), np.where(a > 0, 1.0, a))
    check(em.isclose(x, x + 1e-9), np.isclose(a, a + 1e-9))
    assert em.allclose(x, x)


def test_complex(backend):
    z = np.array([1 + 2j, -3 + 0.5j, 0 - 1j], dtype=np.complex128)
    x = em.asarray(z)
    assert x.dtype == em.complex128
    check(x * x, z * z)
    check(x + 1j, z + 1j)
    check(em.abs(x), np.abs(z))
    check(em.conj(x), np.conj(z))
    check(x.real, z.real)
    check(x.imag, z.imag)
    check(em.real(x), z.real)
    check(em.exp(x), np.exp(z))
    assert complex(x[0]) == 1 + 2j


def test_activations(backend):
    a = BASE
    x = em.asarray(a)
    check(em.nn.activations.relu(x), np.maximum(a, 0))
    e = np.exp(a - a.max(axis=-1, keepdims=True))
    check(em.nn.activations.softmax(x), e / e.sum(axis=-1, keepdims=True))
    check(em.log_softmax(x, axis=0), a - np.log(np.exp(a).sum(axis=0, keepdims=True)))
    check(em.leaky_relu(x, 0.1), np.where(a > 0, a, 0.1 * a))
    erf = np.vectorize(math.erf)
    check(em.gelu(x), a * 0.5 * (1 + erf(a / math.sqrt(2))))
    check(em.nn.activations.lecun_tanh(x), 1.7159 * np.tanh(2 * a / 3))


_ASTYPE_DTYPES = ["bool", "int8", "uint8", "int16", "int32", "uint32", "int64", "uint64", "float16", "bfloat16",
                  "float32", "float64", "complex64", "complex128"]


def test_astype_method_matches_the_python_path(backend):
    """x.astype(dtype) with an Ember dtype object runs in C (bindings/ember.i); the Python
    method it hands every other call to is the oracle."""
    from ember._array import _astype_in_python
    assert type(em.Array.__dict__["astype"]).__name__ == "method_descriptor"
    base = em.asarray(np.array([[0.0, -1.5, 2.75, 100.0], [-0.0, 1.0, -7.0, 0.5]]))
    for src in _ASTYPE_DTYPES:
        x = _astype_in_python(base, getattr(em, src))
        for view in (x, x.T, x[:, ::2]):
            for dst in _ASTYPE_DTYPES:
                d = getattr(em, dst)
                got, want = view.astype(d), _astype_in_python(view, d)
                assert got is not view and got.dtype == want.dtype == d and got.shape == want.shape, (src, dst)
                assert got.tolist() == want.tolist(), (src, dst)
    x = base.astype(em.float32)
    assert x.astype(em.float32, copy=False) is x            # the Python method's cases
    same = x.astype(em.float32)
    assert same is not x and same.tolist() == x.tolist()
    assert x.astype("int16").dtype == em.int16 and x.astype(np.float64).dtype == em.float64
    assert x.astype(dtype=em.int8).dtype == em.int8
    with pytest.raises(TypeError):
        x.astype()
