"""NumPy's text functions: savetxt and loadtxt (written here, without NumPy), and the
printing functions (array2string, array_repr, array_str, set_printoptions,
get_printoptions, printoptions), which go to NumPy's because Ember's repr and str are
NumPy's formatting of the same values (ember/_array.py, _format)."""
import builtins
import contextlib
import io
import os

from . import _dtypes as _dt
from . import _functions as F
from ._array import Array
from ._creation import asarray, zeros

__all__ = ["savetxt", "loadtxt", "array2string", "array_repr", "array_str", "set_printoptions", "get_printoptions",
           "printoptions", "binary_repr", "base_repr"]


@contextlib.contextmanager
def _text_file(fname, mode, encoding):
    if isinstance(fname, (str, bytes, os.PathLike)):
        with open(fname, mode, encoding=encoding or "latin1", newline="" if "w" in mode else None) as f:
            yield f
    else:
        yield fname


def savetxt(fname, X, fmt="%.18e", delimiter=" ", newline="\n", header="", footer="", comments="# ", encoding=None):
    """Writes a 1-d or 2-d array as text, one row per line (a 1-d array: one value per
    line); fmt is one %-format for every column, a sequence of them, or a whole row's."""
    a = asarray(X)
    if a.ndim == 0 or a.ndim > 2:
        raise ValueError(f"savetxt: expected a 1-d or 2-d array, got {a.ndim}-d")
    rows = a.tolist() if a.ndim == 2 else [[v] for v in a.tolist()]
    ncol = a.shape[1] if a.ndim == 2 else 1
    is_complex = a.dtype.kind == "c"
    if is_complex:  # NumPy's form: " (re+imj)" per value
        rows = [[part for v in row for part in (v.real, v.imag)] for row in rows]
    if isinstance(fmt, (list, tuple)) or fmt.count("%") == 1:
        per_column = list(fmt) if isinstance(fmt, (list, tuple)) else [fmt] * ncol
        if len(per_column) != ncol:
            raise ValueError(f"savetxt: fmt has {len(per_column)} formats for {ncol} columns")
        line_fmt = delimiter.join(f" ({f}+{f}j)" if is_complex else f for f in per_column)
    elif fmt.count("%") == (2 * ncol if is_complex else ncol):
        line_fmt = fmt
    else:
        raise ValueError(f"savetxt: fmt {fmt!r} has the wrong number of % formats for {ncol} columns")
    with _text_file(fname, "w", encoding) as f:
        if header:
            f.write(comments + header.replace("\n", "\n" + comments) + newline)
        for row in rows:
            try:
                line = line_fmt % tuple(row)
                f.write((line.replace("+-", "-") if is_complex else line) + newline)
            except TypeError as e:
                raise TypeError(f"savetxt: fmt {fmt!r} does not match the values {tuple(row)!r}") from e
        if footer:
            f.write(comments + footer.replace("\n", "\n" + comments) + newline)


def _parse(token, kind):
    token = token.strip()
    if kind == "c":
        return complex(token.replace("+-", "-"))
    if kind in "iu":
        return builtins.int(token)
    if kind == "b":
        return token.lower() in ("1", "true")
    return float(token)


def loadtxt(fname, dtype=float, comments="#", delimiter=None, skiprows=0, usecols=None, unpack=False, ndmin=0,
            encoding=None, max_rows=None):
    """Reads a text file (a path, an open file or an iterable of lines) of rows of numbers
    into a 2-d array (one row or one column: 1-d, as NumPy; ndmin raises it)."""
    d = _dt.float64 if dtype is float else _dt.int64 if dtype is builtins.int else _dt.complex128 if dtype is complex \
        else _dt.as_dtype(dtype)
    markers = [comments] if isinstance(comments, str) else list(comments or [])
    cols = None if usecols is None else [usecols] if isinstance(usecols, builtins.int) else list(usecols)
    rows = []
    with _text_file(fname, "r", encoding) as f:
        lines = f if not isinstance(f, (str, bytes)) else io.StringIO(f)
        for k, line in enumerate(lines):
            if k < skiprows:
                continue
            if isinstance(line, bytes):
                line = line.decode(encoding or "latin1")
            for m in markers:
                line = line.split(m, 1)[0]
            line = line.strip("\r\n")
            if not line.strip():
                continue
            fields = line.split(delimiter) if delimiter is not None else line.split()
            if cols is not None:
                fields = [fields[c] for c in cols]
            try:
                rows.append([_parse(t, d.kind) for t in fields])
            except ValueError as e:
                raise ValueError(f"loadtxt: could not convert line {k + 1} ({line.strip()!r}): {e}") from e
            if max_rows is not None and len(rows) >= max_rows:
                break
    if any(len(r) != len(rows[0]) for r in rows):
        raise ValueError("loadtxt: the rows have different numbers of columns")
    if ndmin not in (0, 1, 2):
        raise ValueError(f"loadtxt: illegal value of ndmin keyword: {ndmin}")
    a = asarray(rows, dtype=d) if rows else zeros((0,), dtype=d)
    if a.ndim > ndmin:  # as NumPy: size-1 dimensions go (a single number: 0-d) ...
        a = F.reshape(a, tuple(n for n in a.shape if n != 1))
    if a.ndim < ndmin:  # ... and come back as ndmin asks: a 1-d result as a column for ndmin=2
        a = F.reshape(a, (-1,)) if ndmin == 1 else F.reshape(a, (-1, 1) if a.ndim == 1 else (1, 1))
    return F.permute_dims(a, (1, 0)) if unpack and a.ndim == 2 else a


def _numpy():
    try:
        import numpy as np
    except ImportError:  # pragma: no cover - NumPy is optional
        raise NotImplementedError("ember's printing functions use NumPy's formatting: install numpy") from None
    return np


def _host(a):
    a = asarray(a) if not isinstance(a, Array) else a
    return _numpy().asarray(a.astype(_dt.float32) if a.dtype == _dt.bfloat16 else a)


def array2string(a, *args, **kwargs):
    return _numpy().array2string(_host(a), *args, **kwargs)


def array_repr(arr, *args, **kwargs):
    return repr(asarray(arr))


def array_str(a, *args, **kwargs):
    return str(asarray(a))


def set_printoptions(*args, **kwargs):
    _numpy().set_printoptions(*args, **kwargs)


def get_printoptions():
    return _numpy().get_printoptions()


def printoptions(*args, **kwargs):
    return _numpy().printoptions(*args, **kwargs)


def binary_repr(num, width=None):
    """num in binary; a negative num with a width is its two's complement, widened with 1s
    to width (ValueError when width is too small, as NumPy)."""
    num = builtins.int(num)
    if num < 0 and width is None:
        return "-" + bin(-num)[2:]
    if num < 0:
        bits = len(bin(-num)[2:])
        if 1 << (bits - 1) == -num:  # -2^k fits in k + 1 bits
            bits -= 1
        binary = bin((1 << (bits + 1)) + num)[2:]
    else:
        binary = bin(num)[2:]
    if width is not None and width < len(binary):
        raise ValueError(f"binary_repr: insufficient bit width={width} provided for binwidth={len(binary)}")
    fill = "1" if num < 0 else "0"
    return fill * ((width or 0) - len(binary)) + binary


def base_repr(number, base=2, padding=0):
    """number written in base (2 to 36) with padding zeros in front."""
    if not 2 <= base <= 36:
        raise ValueError("base_repr: bases greater than 36 or less than 2 are not handled")
    digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    n = abs(builtins.int(number))
    out = []
    while n:
        n, r = divmod(n, base)
        out.append(digits[r])
    s = "0" * padding + ("".join(reversed(out)) or ("0" if not padding else ""))
    return "-" + s if number < 0 else s
