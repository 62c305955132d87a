"""save / load, savez, and safetensors dictionaries.

save / load: .npy and .safetensors use the C ABI (ember_save / ember_load) when libember has
them; any other name uses a small self-describing format (a magic line, a JSON header line,
then the raw C-ordered elements). load also reads .npz archives (numpy.savez and
numpy.savez_compressed output) into a dict, and open binary files or bytes holding .npy or
.npz data.

savez(file, *arrays, **named) writes an uncompressed .npz as numpy.savez does;
savez_compressed deflates every entry, as numpy.savez_compressed.
save_safetensors / load_safetensors follow safetensors.numpy's save_file / load_file (and
save / load for bytes)."""
import json
import os

from . import _dtypes as _dt
from ._array import Array
from ._creation import _from_bytes

_MAGIC = b"EMBER1\n"


def _c_format(path):
    """.npy / .safetensors go through the C ABI's ember_save / ember_load when it has them."""
    from . import _ember_c as _c
    return hasattr(_c, "ember_save") and str(path).endswith((".npy", ".safetensors"))


def save(path, x):
    if not isinstance(x, Array):
        raise TypeError("save expects an ember array")
    if _c_format(path):
        from . import _ember_c as _c
        _c.ember_save(str(path), x._h)
        return
    header = json.dumps({"dtype": x.dtype.name, "shape": list(x.shape), "backend": x.backend}).encode()
    with open(path, "wb") as f:
        f.write(_MAGIC)
        f.write(header + b"\n")
        f.write(x.tobytes())


def load(path, device=None):
    """A tensor from .npy, .safetensors (one tensor) or ember's own format; a dict of
    tensors from .npz. path may also be an open binary file or bytes holding .npy or .npz
    data (detected by their magic bytes)."""
    from ._backend import on_device
    if hasattr(path, "read") or isinstance(path, (bytes, bytearray, memoryview)):
        return _load_bytes(path.read() if hasattr(path, "read") else path, device)
    if str(path).endswith(".npz"):
        from . import _ember_c as _c
        with on_device(device):
            return _dict_to_python(_c.ember_load_npz(os.fspath(path)))[0]
    if _c_format(path):
        from . import _ember_c as _c
        from ._array import _wrap
        with on_device(device):
            return _wrap(_c.ember_load(str(path)))
    with open(path, "rb") as f:
        if f.readline() != _MAGIC:
            raise ValueError(f"{path}: not an ember file")
        meta = json.loads(f.readline())
        raw = f.read()
    d = _dt.BY_NAME[meta["dtype"]]
    with on_device(device):
        return _from_bytes(raw, d, tuple(meta["shape"]))


def _load_bytes(data, device):
    from . import _ember_c as _c
    from ._array import _wrap
    from ._backend import on_device
    head = bytes(data[:6])
    with on_device(device):
        if head.startswith(b"PK"):
            return _dict_to_python(_c.ember_load_npz_buffer(data))[0]
        if head == b"\x93NUMPY":
            return _wrap(_c.ember_load_npy_buffer(data))
    raise ValueError("load: the data is neither .npy nor .npz (no magic bytes)")


def _dict_from_python(tensors, metadata, what):
    """A C tensor dictionary holding the arrays of a name -> array mapping."""
    from . import _ember_c as _c
    from ._creation import asarray
    if not hasattr(tensors, "items"):
        raise TypeError(f"{what}: expected a mapping of names to arrays, got {type(tensors).__name__}")
    d = _c.ember_tensor_dict_create()
    for name, x in tensors.items():
        if not isinstance(name, str):
            raise TypeError(f"{what}: tensor names must be str, got {type(name).__name__}")
        _c.ember_tensor_dict_set(d, name, (x if isinstance(x, Array) else asarray(x))._h)
    for key, value in (metadata or {}).items():
        if not isinstance(key, str) or not isinstance(value, str):
            raise TypeError(f"{what}: metadata keys and values must be str")
        _c.ember_tensor_dict_set_metadata(d, key, value)
    return d


def _dict_to_python(d):
    from . import _ember_c as _c
    from ._array import _wrap
    tensors = {}
    for i in range(_c.ember_tensor_dict_size(d)):
        name, h = _c.ember_tensor_dict_entry(d, i)
        tensors[name] = _wrap(h)
    metadata = dict(_c.ember_tensor_dict_metadata_entry(d, i) for i in range(_c.ember_tensor_dict_metadata_count(d)))
    return tensors, metadata


def _savez(file, args, kwds, compressed):
    from . import _ember_c as _c
    what = "savez_compressed" if compressed else "savez"
    named = dict(kwds)
    for i, a in enumerate(args):
        key = f"arr_{i}"
        if key in named:
            raise ValueError(f"{what}: cannot use un-named variables and keyword {key}")
        named[key] = a
    d = _dict_from_python(named, None, what)
    if hasattr(file, "write"):
        file.write((_c.ember_save_npz_compressed_buffer if compressed else _c.ember_save_npz_buffer)(d))
        return
    path = os.fspath(file)
    if not path.endswith(".npz"):
        path += ".npz"
    (_c.ember_save_npz_compressed if compressed else _c.ember_save_npz)(path, d)


def savez(file, *args, **kwds):
    """Writes arrays into an uncompressed .npz archive, as numpy.savez: positional arrays are
    named arr_0, arr_1, ...; keyword arrays by their keyword. file: a path (".npz" is
    appended when missing) or an open binary file."""
    _savez(file, args, kwds, False)


def savez_compressed(file, *args, **kwds):
    """savez with every entry compressed by DEFLATE, as numpy.savez_compressed."""
    _savez(file, args, kwds, True)


def save_safetensors(tensors, filename=None, metadata=None):
    """Writes a name -> array mapping as safetensors (safetensors.numpy.save_file); with no
    filename, returns the file's bytes (safetensors.numpy.save). metadata: str -> str."""
    from . import _ember_c as _c
    d = _dict_from_python(tensors, metadata, "save_safetensors")
    if filename is None:
        return _c.ember_save_safetensors_buffer(d)
    _c.ember_save_safetensors(os.fspath(filename), d)


def load_safetensors(source, *, device=None, with_metadata=False):
    """A dict of arrays from a safetensors file path, or from its bytes
    (safetensors.numpy.load_file / load). with_metadata=True returns (tensors, metadata)."""
    from . import _ember_c as _c
    from ._backend import on_device
    with on_device(device):
        if isinstance(source, (bytes, bytearray, memoryview)):
            d = _c.ember_load_safetensors_buffer(source)
        else:
            d = _c.ember_load_safetensors(os.fspath(source))
    tensors, metadata = _dict_to_python(d)
    return (tensors, metadata) if with_metadata else tensors
