"""NumPy's file and text functions: savetxt, loadtxt, genfromtxt and fromfile (written here,
without NumPy; Array.tofile writes what fromfile reads), and the printing functions (array2string, array_repr, array_str, set_printoptions,
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

__all__ = ["savetxt", "loadtxt", "genfromtxt", "fromfile", "fromstring", "format_float_positional",
           "format_float_scientific", "array2string", "array_repr", "array_str", "set_printoptions", "get_printoptions",
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


def _fields(line, markers, delimiter):
    """The fields of one line with its comment cut off; None for a blank line."""
    for m in markers:
        line = line.split(m, 1)[0]
    line = line.strip("\r\n")
    if not line.strip():
        return None
    return line.split(delimiter) if delimiter is not None else line.split()


def _file_dtype(dtype):
    """NumPy's dtype argument of the file readers: Python's float, int and complex too."""
    return {float: _dt.float64, builtins.int: _dt.int64, complex: _dt.complex128}.get(dtype) or _dt.as_dtype(dtype)


def loadtxt(fname, dtype=float, comments="#", delimiter=None, skiprows=0, usecols=None, unpack=False, ndmin=0,
            encoding=None, max_rows=None):
    """Reads a text file (a path, an open file or an iterable of lines) of rows of numbers
    into a 2-d array (one row or one column: 1-d, as NumPy; ndmin raises it)."""
    d = _file_dtype(dtype)
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
            fields = _fields(line, markers, delimiter)
            if fields is None:
                continue
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


def _text_lines(fname, encoding):
    """The lines of fname (a path, an open file, one string or an iterable of lines) as str."""
    with _text_file(fname, "r", encoding) as f:
        lines = io.StringIO(f) if isinstance(f, str) else f
        return [line.decode(encoding or "latin1") if isinstance(line, bytes) else line for line in lines]


def _common_kind(rows, missing):
    """The dtype genfromtxt's dtype=None gives: int64 if every present field is an integer,
    float64 if every one is a real number, complex128 otherwise."""
    kind = "i"
    for row in rows:
        for token in row:
            t = token.strip()
            if t in missing or not t:
                continue
            for k in ("i", "f", "c")[("i", "f", "c").index(kind):]:
                try:
                    _parse(t, k)
                    kind = k
                    break
                except ValueError:
                    continue
    return {"i": _dt.int64, "f": _dt.float64, "c": _dt.complex128}[kind]


def genfromtxt(fname, dtype=float, comments="#", delimiter=None, skip_header=0, skip_footer=0, missing_values=None,
               filling_values=None, usecols=None, unpack=None, usemask=False, max_rows=None, encoding=None, ndmin=0,
               autostrip=True, names=None):
    """loadtxt for files with holes: an empty field, or one listed in missing_values, takes
    filling_values (NaN for floats, -1 for integers, as NumPy). dtype=None picks one dtype
    for the whole file (int64, float64 or complex128); named and structured fields, and
    masked results, are NumPy's alone."""
    if names not in (None, False) or usemask:
        raise NotImplementedError("genfromtxt: named fields and masked arrays are not supported (Ember has no "
                                  "structured dtypes); read the columns by usecols")
    lines = _text_lines(fname, encoding)[skip_header:]
    markers = [comments] if isinstance(comments, str) else list(comments or [])
    missing = {""}
    for m in [missing_values] if isinstance(missing_values, str) else (missing_values or []):
        missing.update(m.split(",") if isinstance(m, str) else [str(m)])
    rows = []
    for line in lines:
        fields = _fields(line, markers, delimiter)
        if fields is not None:
            rows.append([t.strip() if autostrip else t for t in fields])
    if skip_footer:
        rows = rows[:-skip_footer] if skip_footer < len(rows) else []
    if max_rows is not None:
        rows = rows[:max_rows]
    if usecols is not None:
        cols = [usecols] if isinstance(usecols, builtins.int) else list(usecols)
        rows = [[r[c] for c in cols] for r in rows]
    for k, r in enumerate(rows):
        if len(r) != len(rows[0]):
            raise ValueError(f"genfromtxt: row {k + 1} has {len(r)} columns where the first has {len(rows[0])}")
    d = _common_kind(rows, missing) if dtype is None else _file_dtype(dtype)
    fill = filling_values if filling_values is not None else (-1 if d.kind in "iub" else float("nan"))
    values = []
    for k, r in enumerate(rows):
        try:
            values.append([fill if t.strip() in missing else _parse(t, d.kind) for t in r])
        except ValueError as e:
            raise ValueError(f"genfromtxt: could not convert row {k + 1} ({r!r}): {e}") from e
    a = asarray(values, dtype=d) if values else zeros((0,), dtype=d)
    if a.ndim == 2 and 1 in a.shape and ndmin < 2:  # one row or one column: 1-d, as NumPy
        a = F.reshape(a, (-1,))
    if a.ndim < ndmin:
        a = F.reshape(a, (1, -1) if a.ndim == 1 else (1,) * ndmin)
    return F.permute_dims(a, (1, 0)) if unpack and a.ndim == 2 else a


def fromfile(file, dtype=float, count=-1, sep="", offset=0, *, like=None):
    """A 1-d array of the values in file: its raw bytes (sep="", after offset bytes) or text
    values separated by sep (whitespace around sep is skipped; sep=" " is any whitespace).
    Array.tofile writes both forms."""
    d = _file_dtype(dtype)
    if sep == "":
        if isinstance(file, (str, bytes, os.PathLike)):
            with open(file, "rb") as f:
                f.seek(offset)
                raw = f.read() if count < 0 else f.read(count * d.itemsize)
        else:
            file.seek(offset, 1)
            raw = file.read() if count < 0 else file.read(count * d.itemsize)
        n = len(raw) // d.itemsize
        if len(raw) % d.itemsize and count < 0:
            raise ValueError(f"fromfile: the file's {len(raw)} bytes are not a whole number of {d.name} items")
        if n == 0:
            return zeros((0,), dtype=d)
        from ._creation import frombuffer
        return frombuffer(bytearray(raw[:n * d.itemsize]), d).copy()
    if offset:
        raise TypeError("fromfile: offset is only for binary files (sep='')")
    with _text_file(file, "r", None) as f:
        return _separated_values("fromfile", f.read(), d, count, sep)


def _separated_values(caller, text, d, count, sep):
    tokens = text.split() if not sep.strip() else [x.strip() for x in text.split(sep.strip())]
    if tokens and tokens[-1] == "":
        tokens.pop()
    if count >= 0:
        tokens = tokens[:count]
    try:
        values = [_parse(t, d.kind) for t in tokens]
    except ValueError as e:
        raise ValueError(f"{caller}: could not convert {e}") from e
    return asarray(values, dtype=d) if values else zeros((0,), dtype=d)


def fromstring(string, dtype=float, count=-1, *, sep, like=None):
    """A 1-d array of the text values in string separated by sep (NumPy 2 removed the binary
    mode: frombuffer reads bytes)."""
    if sep == "":
        raise ValueError("fromstring: the binary mode is removed (as in NumPy 2); use frombuffer")
    if isinstance(string, bytes):
        string = string.decode("latin1")
    return _separated_values("fromstring", string, _file_dtype(dtype), count, sep)


def format_float_positional(x, *args, **kwargs):
    """NumPy's positional text of a float (Ember's repr is NumPy's formatting); x may be a
    0-d Array, whose dtype sets the shortest digits that round-trip."""
    return _numpy().format_float_positional(_host(x)[()] if isinstance(x, Array) else x, *args, **kwargs)


def format_float_scientific(x, *args, **kwargs):
    """NumPy's scientific text of a float; x may be a 0-d Array."""
    return _numpy().format_float_scientific(_host(x)[()] if isinstance(x, Array) else x, *args, **kwargs)


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
