#!/usr/bin/env python3
"""Cross-checks Ember's tensor files with NumPy and the safetensors package (both directions).

    check_files.py IO_TOOL WORKDIR

IO_TOOL is tests/python_interop/io_tool.c built against libember (scripts/check-io-interop.sh
does that). Ember writes files that NumPy / safetensors (and PyTorch, when importable) must
read with the expected values; NumPy / safetensors write files that Ember must read.
"""
import os
import subprocess
import zipfile
import sys

import numpy as np
import safetensors
import safetensors.numpy

TOOL, WORK = sys.argv[1], sys.argv[2]
os.makedirs(WORK, exist_ok=True)
DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "bfloat16", "float32", "float64", "complex64", "complex128"]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def f(k):
    return (k % 7) - 3.0 + 0.25 * (k % 2)


def expected(dtype, shape):
    """The io_tool.c formula, computed independently in float64."""
    n = int(np.prod(shape)) if shape else 1
    k = np.arange(n)
    z = f(k) - 1j * f(k + 1)
    if dtype.startswith("complex"):
        return z.reshape(shape)
    re = z.real
    if dtype == "bool":
        v = re != 0
    elif dtype.startswith("uint"):
        v = np.maximum(0, np.trunc(re))
    elif dtype.startswith("int"):
        v = np.trunc(re)
    else:
        v = re
    return v.reshape(shape)


def bf16_to_f32(raw):
    u = np.frombuffer(raw, dtype="<u2").astype(np.uint32) << 16
    return u.view(np.float32)


# ---------------------------------------------------------------- Ember -> Python
subprocess.run([TOOL, "write", WORK], check=True)
a = np.load(os.path.join(WORK, "ember.npy"))
check(a.dtype == np.float32 and a.shape == (2, 3, 4), "ember.npy dtype/shape %s %s" % (a.dtype, a.shape))
check(np.array_equal(a, expected("float32", [2, 3, 4])), "ember.npy values")

with zipfile.ZipFile(os.path.join(WORK, "ember_compressed.npz")) as zf:
    check(zf.testzip() is None, "ember_save_npz_compressed: zipfile finds a bad CRC-32")
    check(all(i.compress_type == zipfile.ZIP_DEFLATED for i in zf.infolist()), "ember_save_npz_compressed: entries not deflated")
for npz_name in ("ember.npz", "ember_compressed.npz"):
    with np.load(os.path.join(WORK, npz_name)) as z:
        for i, dt in enumerate(DTYPES):
            if dt == "bfloat16":
                check(dt not in z.files, "bfloat16 must not be in the npz")
                continue
            shape = [2, 3, 4][: 2 + i % 2]
            x = z[dt]
            check(x.dtype == np.dtype(dt) and list(x.shape) == shape, "%s %s: dtype %s shape %s" % (npz_name, dt, x.dtype, x.shape))
            check(np.array_equal(x, expected(dt, shape)), "%s %s values" % (npz_name, dt))
        check(z["empty"].shape == (0, 5) and z["empty"].dtype == np.float32, "%s empty" % npz_name)
        check(z["scalar"].shape == () and z["scalar"] == f(0), "%s scalar" % npz_name)

path = os.path.join(WORK, "ember.safetensors")
raw = dict(safetensors.deserialize(open(path, "rb").read()))  # the Rust crate validates the layout
with safetensors.safe_open(path, framework="numpy") as sf:
    meta = sf.metadata()
    check(meta.get("format") == "pt", "metadata format")
    check(meta.get("ember.version", "").count(".") == 2, "metadata ember.version")
    check(meta.get("ember.backend", "").startswith("reference"), "metadata ember.backend")
    for i, dt in enumerate(DTYPES):
        shape = [2, 3, 4][: 2 + i % 2]
        want = expected(dt, shape)
        check(meta.get("ember.dtype." + dt) == dt, "metadata dtype of %s" % dt)
        if dt == "bfloat16":
            info = raw[dt]
            check(info["dtype"] == "BF16" and list(info["shape"]) == shape, "BF16 header")
            check(np.array_equal(bf16_to_f32(bytes(info["data"])).reshape(shape), want), "BF16 values")
            continue
        x = sf.get_tensor(dt)
        if dt.startswith("complex"):
            check(list(x.shape) == shape + [2], "complex %s stored with a trailing 2" % dt)
            x = x[..., 0] + 1j * x[..., 1]
        check(np.array_equal(x, want), "safetensors %s values" % dt)
try:
    import torch
    from safetensors.torch import load_file
    tt = load_file(path)
    check(tt["bfloat16"].dtype == torch.bfloat16, "torch bf16 dtype")
    check(np.array_equal(tt["bfloat16"].float().numpy(), expected("bfloat16", [2, 3])), "torch bf16 values")
    check(torch.equal(torch.view_as_complex(tt["complex64"]), torch.from_numpy(expected("complex64", [2, 3, 4]).astype(np.complex64))),
          "torch complex64 via view_as_complex")
    print("PyTorch cross-check done")
except ImportError:
    print("PyTorch not installed: skipped its cross-check")

# ---------------------------------------------------------------- Python -> Ember


def dump(p):
    out = subprocess.run([TOOL, "dump", p], check=True, capture_output=True, text=True).stdout
    res = {}
    for line in out.splitlines():
        parts = line.split(" ")
        name, dt, shape = parts[0], parts[1], parts[2]
        shape = [] if shape == "-" else [int(s) for s in shape.split(",")]
        vals = np.array([complex(float(p.split(",")[0]), float(p.split(",")[1])) for p in parts[3:]])
        res[name] = (dt, shape, vals)
    return res


def same(got, dt, arr):
    gdt, gshape, gvals = got
    want = np.asarray(arr).astype(np.complex128).reshape(-1)
    return gdt == dt and gshape == list(np.shape(arr)) and np.array_equal(gvals, want)


src = {
    "f32": np.arange(12, dtype=np.float32).reshape(3, 4) / 4,
    "be_i4": np.array([1, -2, 2**31 - 1], dtype=">i4"),
    "fortran": np.asfortranarray(np.arange(6, dtype=np.float64).reshape(2, 3)),
    "c64": (np.arange(4) - 1j * np.arange(4)).astype(np.complex64),
    "b": np.array([[True, False], [False, True]]),
    "u8": np.arange(5, dtype=np.uint8),
    "h": np.array([0.5, -np.inf, np.nan], dtype=np.float16),
    "scalar": np.array(3.25),
    "empty": np.zeros((0, 2), dtype=np.int16),
}
dtname = {"f32": "float32", "be_i4": "int32", "fortran": "float64", "c64": "complex64", "b": "bool", "u8": "uint8",
          "h": "float16", "scalar": "float64", "empty": "int16"}


def same_nan(got, dt, arr):
    gdt, gshape, gvals = got
    want = np.asarray(arr).astype(np.complex128).reshape(-1)
    return gdt == dt and gshape == list(np.shape(arr)) and np.array_equal(gvals, want, equal_nan=True)


for name, arr in src.items():
    p = os.path.join(WORK, "py_%s.npy" % name)
    np.save(p, arr)
    got = dump(p)["array"]
    check(same_nan(got, dtname[name], arr), "Ember reading np.save %s: %s" % (name, got[:2]))

p = os.path.join(WORK, "py.npz")
np.savez(p, **src)
got = dump(p)
for name, arr in src.items():
    check(name in got and same_nan(got[name], dtname[name], arr), "Ember reading np.savez entry %s" % name)

# np.savez_compressed: deflated entries. Large arrays too, so that zlib emits dynamic-Huffman
# blocks (patterned data), several blocks per entry and incompressible data (random bytes).
big = dict(src)
big["ramp"] = np.arange(300000, dtype=np.float32).reshape(600, 500)
big["noise"] = np.random.default_rng(1).integers(0, 256, size=200000, dtype=np.uint8)
big["sparse"] = (np.arange(100000) % 97 == 0)
dtname_big = dict(dtname, ramp="float32", noise="uint8", sparse="bool")
p = os.path.join(WORK, "py_compressed.npz")
np.savez_compressed(p, **big)
got = dump(p)
for name, arr in big.items():
    check(name in got and same_nan(got[name], dtname_big[name], arr), "Ember reading np.savez_compressed entry %s" % name)

p = os.path.join(WORK, "py.safetensors")
st_src = {k: np.ascontiguousarray(v).astype(v.dtype.newbyteorder("<")) for k, v in src.items() if k not in ("c64",)}
safetensors.numpy.save_file(st_src, p, metadata={"origin": "python"})
got = dump(p)
for name, arr in st_src.items():
    check(name in got and same_nan(got[name], dtname[name], arr), "Ember reading safetensors.numpy %s" % name)
bf = np.array([1.0, -2.5, 3.0e38], dtype=np.float32)
raw_bf = (bf.view(np.uint32) >> 16).astype("<u2").tobytes()
p = os.path.join(WORK, "py_bf16.safetensors")
bf_u16 = np.frombuffer(raw_bf, dtype="<u2").copy()
if hasattr(safetensors, "TensorSpec"):  # safetensors >= 0.7: pointer-based specs
    spec = safetensors.TensorSpec(dtype="bfloat16", shape=[3], data_ptr=bf_u16.ctypes.data, data_len=bf_u16.nbytes)
    safetensors.serialize_file({"bf": spec}, p)
else:
    safetensors.serialize_file({"bf": {"dtype": "BF16", "shape": [3], "data": raw_bf}}, p)
got = dump(p)["bf"]
check(got[0] == "bfloat16" and np.array_equal(got[2], bf16_to_f32(raw_bf).astype(np.complex128)), "Ember reading BF16")

print("%d failure(s)" % len(failures))
sys.exit(1 if failures else 0)
