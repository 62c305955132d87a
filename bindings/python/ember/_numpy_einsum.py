"""NumPy's einsum and einsum_path: the subscripts string or the sublist form, each pair of
operands one batched matmul, in the order of a path (from the left, greedy, or given).
Checked against NumPy by tests/python/test_numpy_math.py on every backend."""
import builtins
import math

from . import _dtypes as _dt
from . import _functions as F
from ._creation import asarray

__all__ = ["einsum", "einsum_path"]


def _einsum_terms(subscripts, operands):
    """Input terms with '...' spelt out as letters of their own (right-aligned, as
    broadcasting aligns them) and the output term (NumPy's implicit one without '->')."""
    s = subscripts.replace(" ", "")
    ins, out = s.split("->") if "->" in s else (s, None)
    terms = ins.split(",")
    if len(terms) != len(operands):
        raise ValueError(f"einsum: {len(terms)} operand terms in {subscripts!r} for {len(operands)} operands")
    used = set(c for c in s if c.isalpha())
    spare = [c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz" if c not in used]
    named = []
    for t, x in zip(terms, operands):
        bare = t.replace("...", "")
        if any(not c.isalpha() for c in bare) or t.count("...") > 1:
            raise ValueError(f"einsum: invalid subscript term {t!r}")
        named.append(len(bare))
        if "..." not in t and len(t) != x.ndim:
            raise ValueError(f"einsum: term {t!r} has {len(t)} subscripts for an operand of {x.ndim} dimensions")
    ell = builtins.max([x.ndim - n for t, x, n in zip(terms, operands, named) if "..." in t] or [0])
    if ell > len(spare):
        raise ValueError("einsum: too many broadcast dimensions")
    ell_letters = "".join(spare[:ell])
    full = []
    for t, x, n in zip(terms, operands, named):
        if "..." in t:
            k = x.ndim - n
            if k < 0:
                raise ValueError(f"einsum: term {t!r} has more subscripts than its operand has dimensions")
            t = t.replace("...", ell_letters[ell - k:])
        full.append(t)
    if out is None:
        letters = "".join(full)
        out = ell_letters + "".join(sorted(c for c in set(letters) if letters.count(c) == 1 and c not in ell_letters))
    else:
        if out.count("...") > 1 or any(not c.isalpha() for c in out.replace("...", "")):
            raise ValueError(f"einsum: invalid output subscripts {out!r}")
        out = out.replace("...", ell_letters)
        if len(set(out)) != len(out):
            raise ValueError(f"einsum: output subscripts {out!r} repeat a letter")
        for c in out:
            if not any(c in t for t in full):
                raise ValueError(f"einsum: output subscript {c!r} appears in no input")
    return full, out


def _einsum_diagonal(x, term):
    """Repeated letters of one term become one axis (the diagonal)."""
    while True:
        dup = next((c for c in term if term.count(c) > 1), None)
        if dup is None:
            return x, term
        i = term.index(dup)
        j = term.index(dup, i + 1)
        if x.shape[i] != x.shape[j]:
            raise ValueError(f"einsum: dimensions of repeated subscript {dup!r} differ ({x.shape[i]} and {x.shape[j]})")
        rest = [k for k in range(x.ndim) if k not in (i, j)]
        x = F.diagonal(F.permute_dims(x, tuple(rest + [i, j])))
        term = "".join(term[k] for k in rest) + dup


def _einsum_sum(x, term, keep):
    axes = tuple(k for k, c in enumerate(term) if c not in keep)
    if not axes:
        return x, term
    return F.sum(x, axis=axes, dtype=x.dtype), "".join(c for c in term if c in keep)


def _einsum_pair(a, ta, b, tb, keep, sizes):
    """The product of a and b summed over their shared letters that keep lacks, as one
    (batched) matmul: a as (batch, left, shared), b as (batch, shared, right)."""
    a, ta = _einsum_sum(a, ta, set(keep) | set(tb))
    b, tb = _einsum_sum(b, tb, set(keep) | set(ta))
    batch = [c for c in ta if c in tb and c in keep]
    shared = [c for c in ta if c in tb and c not in keep]
    left = [c for c in ta if c not in tb]
    right = [c for c in tb if c not in ta]
    a = F.permute_dims(a, tuple(ta.index(c) for c in batch + left + shared))
    b = F.permute_dims(b, tuple(tb.index(c) for c in batch + shared + right))
    a = F.broadcast_to(a, tuple(sizes[c] for c in batch + left + shared))
    b = F.broadcast_to(b, tuple(sizes[c] for c in batch + shared + right))
    nb, nl, ns, nr = (math.prod(sizes[c] for c in g) for g in (batch, left, shared, right))
    r = F.matmul(F.reshape(a, (nb, nl, ns)), F.reshape(b, (nb, ns, nr)))
    return F.reshape(r, tuple(sizes[c] for c in batch + left + right)), "".join(batch + left + right)


def _einsum_sublists(args):
    """NumPy's other form, einsum(x, [0, 1], y, [1, 2], [0, 2]): the subscripts string and
    the operands (axis numbers 0-51 are letters, Ellipsis is '...')."""
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

    def term(sub):
        out = []
        for k in sub:
            if k is Ellipsis:
                out.append("...")
            elif isinstance(k, builtins.int) and 0 <= k < len(letters):
                out.append(letters[k])
            else:
                raise ValueError(f"einsum: subscript {k!r} is not an integer in [0, 52) or Ellipsis")
        return "".join(out)
    output = term(args[-1]) if len(args) % 2 else None  # a trailing output sublist
    args = args[:-1] if len(args) % 2 else args
    terms = ",".join(term(sub) for sub in args[1::2])
    return terms + ("" if output is None else "->" + output), list(args[0::2])


def _einsum_prepare(subscripts, operands, dtype):
    if not isinstance(subscripts, str):
        subscripts, operands = _einsum_sublists((subscripts,) + tuple(operands))
    if not operands:
        raise ValueError("einsum: no operands")
    ops = [asarray(x) for x in operands]
    if dtype is not None:
        ops = [x.astype(dtype) for x in ops]
    else:
        common = _dt.result_type(*ops)
        ops = [x if x.dtype == common else x.astype(common) for x in ops]
    terms, out = _einsum_terms(subscripts, ops)
    sizes = {}
    for t, x in zip(terms, ops):
        for c, n in zip(t, x.shape):
            if sizes.get(c, 1) != 1 and n != 1 and sizes[c] != n:
                raise ValueError(f"einsum: subscript {c!r} has sizes {sizes[c]} and {n}")
            sizes[c] = n if sizes.get(c, 1) == 1 else sizes[c]
    return ops, terms, out, sizes


def _einsum_step(terms, i, j, out):
    """The letters the contraction of terms i and j keeps (those another term or the output
    needs), and every letter it loops over."""
    others = set(out).union(*[set(t) for k, t in enumerate(terms) if k not in (i, j)])
    both = set(terms[i]) | set(terms[j])
    return both & others, both


def _einsum_path(terms, out, sizes, optimize):
    """Pairs of positions in the operand list, NumPy's path form: each pair leaves the list
    and its product joins the end. optimize=False: from the left; True, 'greedy' or
    'optimal': greedily the pair whose product is smallest against its two operands (pairs
    that share a letter first, then the fewer multiply-adds); a list ['einsum_path', (i, j), ...]: that path."""
    n = len(terms)
    if isinstance(optimize, (list, tuple)):
        if not optimize or optimize[0] != "einsum_path":
            raise TypeError("einsum: a path must be a list that starts with 'einsum_path'")
        path, left = [], n
        for p in optimize[1:]:
            p = tuple(builtins.int(k) for k in p)
            if len(p) == 1 and left == 1:
                continue
            if len(p) != 2 or len(set(p)) != 2 or not all(0 <= k < left for k in p):
                raise ValueError(f"einsum: the path step {p} does not name two of the {left} operands left")
            path.append(p)
            left -= 1
        return path + [(0, 1)] * (left - 1)
    if optimize not in (False, None, True, "greedy", "optimal"):
        raise ValueError(f"einsum: optimize must be a bool, 'greedy', 'optimal' or a path, not {optimize!r}")
    if optimize is False or optimize is None or n <= 2:
        return [(0, 1)] * (n - 1) if n <= 2 else [(0, 1)] + [(0, n - 2 - k) for k in range(n - 2)]
    terms, path = list(terms), []
    size = lambda letters: math.prod(sizes[c] for c in letters)  # noqa: E731
    while len(terms) > 1:
        best = None
        for i in range(len(terms)):
            for j in range(i + 1, len(terms)):
                kept, looped = _einsum_step(terms, i, j, out)
                key = (not set(terms[i]) & set(terms[j]), size(kept) - size(terms[i]) - size(terms[j]), size(looped),
                       i, j)
                if best is None or key < best[0]:
                    best = (key, i, j, kept)
        _, i, j, kept = best
        path.append((i, j))
        terms = [t for k, t in enumerate(terms) if k not in (i, j)] + ["".join(sorted(kept))]
    return path


def _einsum_run(ops, terms, out, sizes, path):
    pairs = [_einsum_diagonal(x, t) for x, t in zip(ops, terms)]
    for i, j in path:
        keep, _ = _einsum_step([t for _, t in pairs], i, j, out)
        a, b = pairs[i], pairs[j]
        pairs = [p for k, p in enumerate(pairs) if k not in (i, j)]
        pairs.append(_einsum_pair(a[0], a[1], b[0], b[1], keep, sizes))
    x, t = pairs[0]
    x, t = _einsum_sum(x, t, set(out))
    x = F.broadcast_to(x, tuple(sizes[c] for c in t))
    return F.permute_dims(x, tuple(t.index(c) for c in out)) if t != out else x


def einsum(subscripts, *operands, dtype=None, optimize=False):
    """Einstein summation in NumPy's notation ('ij,jk->ik', 'ii->i', '...ij,...jk', implicit
    outputs; or the sublist form, einsum(x, [0, 1], y, [1, 2], [0, 2])): repeated letters of one
    operand take its diagonal, letters no later term or the output needs are summed, and each
    pair of operands multiplies as one batched matmul. The
    pairs go from the left (optimize=False), in the greedy order einsum_path finds
    (optimize=True, 'greedy', 'optimal'), or along a path einsum_path returned."""
    ops, terms, out, sizes = _einsum_prepare(subscripts, operands, dtype)
    return _einsum_run(ops, terms, out, sizes, _einsum_path(terms, out, sizes, optimize))


def einsum_path(subscripts, *operands, optimize="greedy", einsum_call=False):
    """The order einsum(..., optimize=...) contracts the operands in, as NumPy's einsum_path
    gives it: (['einsum_path', (i, j), ...], a report of the naive and planned costs)."""
    if optimize is False:
        optimize = "greedy"  # NumPy's einsum_path plans even then
    ops, terms, out, sizes = _einsum_prepare(subscripts, operands, None)
    path = _einsum_path(terms, out, sizes, optimize)
    size = lambda letters: math.prod(sizes[c] for c in letters)  # noqa: E731
    letters = set("".join(terms))
    naive = size(letters) * builtins.max(len(terms) - 1, 1) * (2 if letters - set(out) else 1)
    planned, largest, lines, current = 0, 0, [], list(terms)
    for i, j in path:
        kept, looped = _einsum_step(current, i, j, out)
        planned += size(looped) * (2 if looped - kept else 1)
        largest = builtins.max(largest, size(kept))
        step = f"{current[i]},{current[j]}->{''.join(sorted(kept))}"
        current = [t for k, t in enumerate(current) if k not in (i, j)] + ["".join(sorted(kept))]
        lines.append(f"{len(looped):>4}    {step:<24}{','.join(current)}->{out}")
    planned = builtins.max(planned, 1)
    report = "\n".join([
        f"  Complete contraction:  {','.join(terms)}->{out}",
        f"         Naive scaling:  {len(letters)}",
        f"     Optimized scaling:  {builtins.max([int(l.split()[0]) for l in lines] or [len(letters)])}",
        f"      Naive FLOP count:  {naive:.3e}",
        f"  Optimized FLOP count:  {planned:.3e}",
        f"   Theoretical speedup:  {naive / planned:.3f}",
        f"  Largest intermediate:  {largest:.3e} elements",
        "-" * 74,
        "scaling  current                 remaining",
        "-" * 74] + lines)
    return ["einsum_path"] + path, report
