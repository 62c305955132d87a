"""NumPy's text functions (bindings/python/ember/_numpy_text.py): files written by one of
NumPy and Ember read by the other, and the printing functions."""
import io

import numpy as np
import pytest

import ember as em

M = np.array([[1.5, -2.25, 3.0], [4.0, 5.125, -6.5]])


@pytest.mark.parametrize("data,kwargs", [
    (M, {}), (M, {"fmt": "%.3f", "delimiter": ",", "header": "a,b,c", "footer": "end"}),
    (M[0], {"fmt": "%g"}), (np.arange(6).reshape(3, 2), {"fmt": "%d"}),
    (M, {"fmt": ["%.1f", "%.2f", "%.3e"]}), (np.array([[1 + 2j, -3.5 - 1j]]), {}),
    (M, {"fmt": "%.2f|%.2f|%.2f"}),
], ids=["default", "options", "1-d", "ints", "per column", "complex", "row format"])
def test_savetxt_writes_what_numpy_writes(tmp_path, data, kwargs):
    np.savetxt(tmp_path / "np.txt", data, **kwargs)
    em.savetxt(tmp_path / "em.txt", em.asarray(data), **kwargs)
    assert (tmp_path / "em.txt").read_text() == (tmp_path / "np.txt").read_text()
    buf = io.StringIO()
    em.savetxt(buf, em.asarray(data), **kwargs)
    assert buf.getvalue() == (tmp_path / "np.txt").read_text()


@pytest.mark.parametrize("text,kwargs", [
    ("1 2 3\n4 5 6\n", {}), ("# c\n1,2\n3,4 # x\n\n5,6\n", {"delimiter": ","}),
    ("a b\n1 2\n3 4\n", {"skiprows": 1, "dtype": int}), ("1 2 3\n4 5 6\n", {"usecols": (0, 2)}),
    ("1 2 3\n4 5 6\n", {"usecols": 1}), ("1 2 3\n", {}), ("1\n2\n3\n", {}), ("7\n", {}), ("7\n", {"ndmin": 2}),
    ("1 2 3\n", {"ndmin": 2}), ("1\n2\n", {"ndmin": 2}), ("1 2\n3 4\n5 6\n", {"unpack": True}),
    ("1 2\n3 4\n5 6\n", {"max_rows": 2}), ("(1+2j) (3-1j)\n", {"dtype": complex}),
    ("1;2;3 % c\n4;5;6\n", {"delimiter": ";", "comments": "%"}),
], ids=["plain", "comments", "skiprows", "usecols", "one column", "one row", "column", "one number", "ndmin 2",
        "row ndmin 2", "column ndmin 2", "unpack", "max_rows", "complex", "comment marker"])
def test_loadtxt_reads_what_numpy_reads(tmp_path, backend, text, kwargs):
    path = tmp_path / "t.txt"
    path.write_text(text)
    want = np.loadtxt(path, **kwargs)
    got = em.loadtxt(path, **kwargs)
    assert got.shape == want.shape
    np.testing.assert_array_equal(got.numpy(), want)
    np.testing.assert_array_equal(em.loadtxt(io.StringIO(text), **kwargs).numpy(), want)


def test_loadtxt_refuses_ragged_and_bad_values(tmp_path):
    (tmp_path / "r.txt").write_text("1 2\n3\n")
    (tmp_path / "b.txt").write_text("1 x\n")
    for name in ("r.txt", "b.txt"):
        with pytest.raises(ValueError):
            np.loadtxt(tmp_path / name)
        with pytest.raises(ValueError):
            em.loadtxt(tmp_path / name)
    with pytest.raises(ValueError):
        em.savetxt(tmp_path / "x.txt", em.asarray(M), fmt=["%d"])


def test_printing_functions_follow_numpy():
    x = em.asarray(M)
    assert em.array2string(x, precision=2) == np.array2string(M, precision=2)
    assert em.array_repr(x) == repr(x) and em.array_str(x) == str(x) == str(M)
    before = em.get_printoptions()
    with em.printoptions(precision=1):
        assert str(x) == np.array2string(M, precision=1)
    assert em.get_printoptions() == before
    em.set_printoptions(precision=3)
    try:
        assert str(em.asarray([1 / 3])) == "[0.333]"
    finally:
        em.set_printoptions(**before)


@pytest.mark.parametrize("num,width", [(5, None), (5, 8), (-5, None), (-5, 8), (-5, 2), (-128, 8), (-129, 8), (0, None),
                                       (0, 4), (5, 2), (-1, 1), (-8, 4)])
def test_binary_repr_is_numpys(num, width):
    outcomes = []
    for m in (np, em):
        try:
            outcomes.append(m.binary_repr(num, width))
        except ValueError:
            outcomes.append(ValueError)
    assert outcomes[0] == outcomes[1]


def test_base_repr_is_numpys():
    for n, b, p in [(5, 2, 0), (255, 16, 0), (0, 2, 0), (0, 2, 3), (-35, 36, 2), (10, 2, 5)]:
        assert em.base_repr(n, b, p) == np.base_repr(n, b, p)
    with pytest.raises(ValueError):
        em.base_repr(3, 37)


@pytest.mark.parametrize("text,kwargs", [
    ("1,2,3\n4,,6\n", {"delimiter": ","}), ("1,2,3\n4,,6\n", {"delimiter": ",", "filling_values": 0}),
    ("1 2\nNA 4\n", {"missing_values": "NA"}), ("h\n1 2\n3 4\nend\n", {"skip_header": 1, "skip_footer": 1}),
    ("1,2\n3,\n", {"delimiter": ",", "dtype": int}), ("1 2\n3 4\n", {"dtype": None}),
    ("1.5 2.5\n3.0 4\n", {"dtype": None}), ("# c\n1 2 # x\n3 4\n", {"usecols": (1,)}),
    ("1 2\n3 4\n5 6\n", {"max_rows": 2, "unpack": True}), ("1 2 3\n", {}),
], ids=["hole", "filled hole", "missing marker", "header footer", "int hole", "inferred int", "inferred float",
        "usecols", "max_rows unpack", "one row"])
def test_genfromtxt_reads_what_numpy_reads(tmp_path, backend, text, kwargs):
    path = tmp_path / "g.txt"
    path.write_text(text)
    want = np.genfromtxt(path, **kwargs)
    got = em.genfromtxt(path, **kwargs)
    assert got.shape == want.shape and got.dtype.name == want.dtype.name
    np.testing.assert_array_equal(got.numpy(), want)
    np.testing.assert_array_equal(em.genfromtxt(io.StringIO(text), **kwargs).numpy(), want)


def test_genfromtxt_refuses_what_it_cannot_do(tmp_path):
    with pytest.raises(ValueError):
        em.genfromtxt(io.StringIO("1 2\n3\n"))
    with pytest.raises(NotImplementedError):
        em.genfromtxt(io.StringIO("a b\n1 2\n"), names=True)


@pytest.mark.parametrize("dtype", ["float32", "int16", "uint8", "complex64", "float64"])
@pytest.mark.parametrize("sep", ["", " ", ", "])
def test_tofile_and_fromfile_round_trip_with_numpy(tmp_path, backend, dtype, sep):
    if sep and dtype == "complex64":
        pytest.skip("NumPy reads no complex text with fromfile")
    data = (np.arange(12) * 3 - 7).astype(dtype)
    em.asarray(data).reshape(3, 4).tofile(tmp_path / "em.bin", sep=sep)
    data.reshape(3, 4).tofile(tmp_path / "np.bin", sep=sep)
    assert (tmp_path / "em.bin").read_bytes() == (tmp_path / "np.bin").read_bytes()
    got = em.fromfile(tmp_path / "np.bin", dtype=dtype, sep=sep)
    np.testing.assert_array_equal(got.numpy(), np.fromfile(tmp_path / "np.bin", dtype=dtype, sep=sep))
    assert got.dtype.name == dtype
    np.testing.assert_array_equal(em.fromfile(tmp_path / "em.bin", dtype=dtype, sep=sep, count=5).numpy(), data[:5])
    if not sep:
        np.testing.assert_array_equal(em.fromfile(tmp_path / "em.bin", dtype=dtype, offset=2 * data.itemsize).numpy(),
                                      data[2:])
        with open(tmp_path / "em.bin", "rb") as f:
            np.testing.assert_array_equal(em.fromfile(f, dtype=dtype, count=3).numpy(), data[:3])


@pytest.mark.parametrize("text,kwargs", [("1 2 3", {"sep": " "}), ("1, 2,3", {"sep": ","}), ("1.5;-2;7", {"sep": ";"}),
                                         ("1 2 3 4", {"sep": " ", "count": 2}), ("4 5", {"sep": " ", "dtype": int})])
def test_fromstring_reads_what_numpy_reads(backend, text, kwargs):
    want = np.fromstring(text, **kwargs)
    got = em.fromstring(text, **kwargs)
    assert got.dtype.name == want.dtype.name
    np.testing.assert_array_equal(got.numpy(), want)
    with pytest.raises(ValueError):
        em.fromstring(b"abcd", dtype="uint8", sep="")


def test_format_float_functions_are_numpys(backend):
    for value in (0.1, 1 / 3, 1e-30, 123456.789):
        assert em.format_float_positional(value) == np.format_float_positional(value)
        assert em.format_float_scientific(value, precision=4) == np.format_float_scientific(value, precision=4)
    x = em.asarray(0.1, dtype=em.float32)
    assert em.format_float_positional(x) == np.format_float_positional(np.float32(0.1)) == "0.1"
