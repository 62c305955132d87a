"""save / load. .npy and .safetensors use the C ABI (ember_save / ember_load) when libember
has them; any other name uses a small self-describing format (a magic line, a JSON header
line, then the raw C-ordered elements)."""
import json

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
    from ._backend import on_device
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
