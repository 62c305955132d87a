"""DLPack interop with PyTorch, both directions.

PyPI's torch wheel is the CUDA build (gigabytes), so the test venv has no torch;
scripts/test-python.sh runs this file a second time with Debian's /usr/bin/python3, which
has python3-torch 1.13 (CPU) and python3-numpy 1.24, importing the ember package that pip
installed into the venv (see docs/bindings.md, "NumPy, DLPack and PyTorch"). There
EMBER_REQUIRE_TORCH=1 is set, and a torch that does not import is an error, not a skip.

torch 1.13 predates DLPack 1.0: it calls `__dlpack__()` with no arguments (Ember answers
with a legacy "dltensor" capsule), and its own `__dlpack__(stream=None)` rejects
`max_version`, so `ember.from_dlpack` falls back to the legacy capsule.
"""
import gc
import os

import numpy as np
import pytest

import ember as em

try:
    import torch
    import torch.utils.dlpack
except ImportError:
    if os.environ.get("EMBER_REQUIRE_TORCH") == "1":
        raise
    pytest.skip("torch does not import in this interpreter (scripts/test-python.sh runs this file "
                "with Debian's /usr/bin/python3 and python3-torch)", allow_module_level=True)

# torch.from_dlpack (the Array API entry point) and torch.utils.dlpack.from_dlpack (which
# also takes a capsule).
CONSUMERS = {"torch.from_dlpack": torch.from_dlpack, "torch.utils.dlpack.from_dlpack": torch.utils.dlpack.from_dlpack}

TORCH_VERSION = tuple(int(v) for v in torch.__version__.split("+")[0].split(".")[:2])

# torch before 2.1 (pytorch/pytorch#108486) refuses bool in DLPack both ways ("Bool type is
# not supported by dlpack" on export, "Unsupported code 6" (kDLBool) on import);
# test_bool_* check that the refusal is clean there and that bool works on a newer torch.
TORCH_DLPACK_BOOL = TORCH_VERSION >= (2, 1)

# Ember dtype name -> torch dtype, for every dtype both libraries can put through DLPack.
DTYPES = {
    "int8": torch.int8, "int16": torch.int16, "int32": torch.int32, "int64": torch.int64,
    "uint8": torch.uint8, "float16": torch.float16, "float32": torch.float32, "float64": torch.float64,
    "complex64": torch.complex64, "complex128": torch.complex128,
}


def _as_list(x):
    """x.tolist(), going through float32 for float16: Array.tolist() of a float16 array
    fails on CPython 3.11 (memoryview.cast("e") needs 3.12), not an interop matter."""
    if x.dtype == em.float16:
        x = x.astype(em.float32)
    return x.tolist()


def _host_address(x):
    """The address of x's first element in host memory, or None on a device backend."""
    return em._ember_c.ember_py_host_address(x._h)


def _values(dtype_name, shape=(2, 3)):
    n = int(np.prod(shape))
    a = (np.arange(n) % 3 - 1).reshape(shape)
    if dtype_name == "bool":
        return a > 0
    if dtype_name.startswith("uint"):
        a = a + 1
    if dtype_name.startswith("complex"):
        return (a + 1j * (a - 1)).astype(dtype_name)
    return a.astype(dtype_name)


def _torch_tensor(a):
    """A torch tensor with a's values, built without torch.from_numpy (so that it does
    not depend on the NumPy torch was compiled against)."""
    dt = DTYPES[str(a.dtype)]
    return torch.tensor(a.tolist(), dtype=dt).reshape(a.shape)


def test_torch_version():
    assert TORCH_VERSION >= (1, 10), "torch.from_dlpack needs torch >= 1.10"


# ----------------------------------------------------------------- Ember -> torch
@pytest.mark.parametrize("consumer", list(CONSUMERS))
def test_ember_to_torch_zero_copy(backend, consumer):
    x = em.asarray(np.arange(6, dtype=np.float32).reshape(2, 3))
    t = CONSUMERS[consumer](x)
    assert isinstance(t, torch.Tensor)
    assert tuple(t.shape) == (2, 3) and t.dtype == torch.float32 and t.device.type == "cpu"
    assert t.tolist() == x.tolist()
    addr = _host_address(x)
    if addr is None:
        # device backend: __dlpack_device__ is not kDLCPU, __dlpack__() copies to host
        assert x.__dlpack_device__()[0] != 1
        return
    assert t.data_ptr() == addr                    # same memory
    x[0, 1] = 42.0
    assert t[0, 1].item() == 42.0                  # an Ember write is seen by torch
    t[1, 2] = -5.0
    assert float(x[1, 2]) == -5.0                  # and a torch write by Ember
    t.add_(1)
    assert x.tolist() == [[1.0, 43.0, 3.0], [4.0, 5.0, -4.0]]
    del x
    gc.collect()
    assert t.tolist() == [[1.0, 43.0, 3.0], [4.0, 5.0, -4.0]]   # torch keeps the storage alive


@pytest.mark.parametrize("dtype", list(DTYPES))
def test_ember_to_torch_dtypes(backend, dtype):
    a = _values(dtype)
    x = em.asarray(a)
    assert x.dtype == dtype
    t = torch.from_dlpack(x)
    assert t.dtype == DTYPES[dtype], f"{dtype} arrived as {t.dtype}"
    assert tuple(t.shape) == a.shape
    assert t.tolist() == a.tolist()
    if _host_address(x) is not None:
        assert t.data_ptr() == _host_address(x)


def test_ember_to_torch_bfloat16(backend):
    x = em.asarray([1.0, -2.5, 0.5]).astype(em.bfloat16)
    t = torch.from_dlpack(x)
    assert t.dtype == torch.bfloat16
    assert t.tolist() == [1.0, -2.5, 0.5]


def test_ember_to_torch_strided(backend):
    x = em.asarray(np.arange(12, dtype=np.float64).reshape(3, 4))
    expect = np.arange(12, dtype=np.float64).reshape(3, 4)
    for view, ref in ((x.T, expect.T), (x[:, ::2], expect[:, ::2]), (x[1:, 1:3], expect[1:, 1:3])):
        t = torch.from_dlpack(view)
        assert tuple(t.shape) == ref.shape
        assert t.tolist() == ref.tolist()
        if _host_address(x) is not None:
            assert not t.is_contiguous() or ref.flags.c_contiguous
            assert tuple(t.stride()) == tuple(s // ref.itemsize for s in ref.strides)
            assert t.data_ptr() == _host_address(view)
    if _host_address(x) is not None:
        t = torch.from_dlpack(x.T)
        t[3, 0] = 100.0                            # element (0, 3) of x
        assert float(x[0, 3]) == 100.0


def test_ember_to_torch_0d_and_empty(backend):
    s = torch.from_dlpack(em.asarray(2.5, dtype=em.float64))
    assert s.shape == () and s.dtype == torch.float64 and s.item() == 2.5
    i = torch.from_dlpack(em.asarray(7))
    assert i.shape == () and i.dtype == torch.int64 and i.item() == 7
    c = torch.from_dlpack(em.asarray(1.5 - 2j, dtype=em.complex64))
    assert c.shape == () and c.dtype == torch.complex64 and c.item() == 1.5 - 2j
    for shape in ((0,), (0, 3), (2, 0, 4)):
        e = torch.from_dlpack(em.zeros(shape, dtype=em.float32))
        assert tuple(e.shape) == shape and e.numel() == 0 and e.dtype == torch.float32


def test_ember_legacy_capsule_to_torch(backend):
    x = em.asarray([1.0, 2.0, 3.0], dtype=em.float32)
    cap = x.__dlpack__()                           # no max_version: legacy capsule
    assert '"dltensor"' in repr(cap) and "versioned" not in repr(cap)
    t = torch.utils.dlpack.from_dlpack(cap)        # torch takes the capsule itself
    assert '"used_dltensor"' in repr(cap)          # consumed: renamed by torch
    assert t.tolist() == [1.0, 2.0, 3.0]
    with pytest.raises(Exception):
        torch.utils.dlpack.from_dlpack(cap)        # a capsule is consumed once
    if _host_address(x) is not None:
        x[2] = 9.0
        assert t[2].item() == 9.0
    # copy=True through the same legacy path: torch gets its own memory
    c = torch.utils.dlpack.from_dlpack(x.__dlpack__(copy=True))
    c[0] = -1.0
    assert float(x[0]) == 1.0


def test_bool_ember_to_torch(backend):
    x = em.asarray([True, False, True])
    if not TORCH_DLPACK_BOOL:
        gc.collect()
        start = em.live_tensor_count()
        with pytest.raises(RuntimeError, match="code 6"):
            torch.from_dlpack(x)                   # kDLBool: unknown to torch < 2.1
        gc.collect()
        assert em.live_tensor_count() == start     # the unconsumed capsule released its reference
        return
    t = torch.from_dlpack(x)
    assert t.dtype == torch.bool and t.tolist() == [True, False, True]


def test_bool_torch_to_ember(backend):
    t = torch.tensor([True, False, True])
    if not TORCH_DLPACK_BOOL:
        with pytest.raises(RuntimeError, match="Bool"):
            em.from_dlpack(t)                      # torch < 2.1 refuses to export bool
        return
    x = em.from_dlpack(t)
    assert x.dtype == em.bool and x.tolist() == [True, False, True]


def test_ember_to_torch_lifetime(backend):
    # Many exported tensors, each dropped on the torch side only or the Ember side first
    # (reference counting frees them at once; one gc.collect() at the end).
    gc.collect()
    start = em.live_tensor_count()
    for i in range(200):
        x = em.full((16,), float(i), dtype=em.float32)
        t = torch.from_dlpack(x)
        if i % 2:
            del x
        else:
            del t
            t = None
        if t is not None:
            assert t.sum().item() == 16.0 * i
    unconsumed = em.ones((3,)).__dlpack__()        # never consumed: released by the capsule
    del unconsumed, t
    gc.collect()
    assert em.live_tensor_count() == start         # every torch deleter released its handle


# ----------------------------------------------------------------- torch -> Ember
def test_torch_to_ember_zero_copy(backend):
    t = torch.arange(6, dtype=torch.float32).reshape(2, 3)
    x = em.from_dlpack(t)
    assert isinstance(x, em.Array) and x.dtype == em.float32 and x.shape == (2, 3)
    assert x.tolist() == t.tolist()
    addr = _host_address(x)
    if addr is None:
        return                                     # device backend: imported on the host, then copied
    assert addr == t.data_ptr()
    t[0, 0] = 11.0
    assert float(x[0, 0]) == 11.0                  # a torch write is seen by Ember
    x[1, 1] = -7.0
    assert t[1, 1].item() == -7.0                  # and an Ember write by torch
    y = em.from_dlpack(t, copy=True)
    t[0, 1] = 99.0
    assert float(y[0, 1]) == 1.0                   # copy=True: independent
    del t
    gc.collect()
    assert x.tolist() == [[11.0, 99.0, 2.0], [3.0, -7.0, 5.0]]   # Ember keeps torch's storage alive
    assert float(em.sum(x)) == 11.0 + 99.0 + 2.0 + 3.0 - 7.0 + 5.0


@pytest.mark.parametrize("dtype", list(DTYPES))
def test_torch_to_ember_dtypes(backend, dtype):
    a = _values(dtype)
    t = _torch_tensor(a)
    x = em.from_dlpack(t)
    assert x.dtype == dtype, f"torch {t.dtype} arrived as {x.dtype}"
    assert x.shape == a.shape
    assert _as_list(x) == a.tolist()
    if _host_address(x) is not None:
        assert _host_address(x) == t.data_ptr()


def test_torch_to_ember_bfloat16(backend):
    t = torch.tensor([1.0, -2.5, 0.5], dtype=torch.bfloat16)
    x = em.from_dlpack(t)
    assert x.dtype == em.bfloat16
    assert x.tolist() == [1.0, -2.5, 0.5]


def test_torch_to_ember_strided(backend):
    base = torch.arange(12, dtype=torch.float64).reshape(3, 4)
    for view in (base.t(), base[:, ::2], base[1:, 1:3], base.t()[::2]):
        assert not view.is_contiguous()
        x = em.from_dlpack(view)
        assert x.shape == tuple(view.shape)
        assert x.tolist() == view.tolist()
        if _host_address(x) is not None:
            assert _host_address(x) == view.data_ptr()
    if _host_address(em.ones((1,))) is not None:
        x = em.from_dlpack(base.t())
        base[0, 3] = -1.0                          # element (3, 0) of the transpose
        assert float(x[3, 0]) == -1.0
        # Ember ops on the strided import read it through its strides
        assert (x + 0).tolist() == base.t().tolist()


def test_torch_to_ember_offset_view(backend):
    base = torch.arange(10, dtype=torch.int64)
    view = base[3:7]                               # storage_offset 3
    x = em.from_dlpack(view)
    assert x.tolist() == [3, 4, 5, 6]
    if _host_address(x) is not None:
        base[4] = 40
        assert int(x[1]) == 40


def test_torch_to_ember_0d_and_empty(backend):
    x = em.from_dlpack(torch.tensor(2.5, dtype=torch.float64))
    assert x.shape == () and x.dtype == em.float64 and float(x) == 2.5
    i = em.from_dlpack(torch.tensor(-3))
    assert i.shape == () and i.dtype == em.int64 and int(i) == -3
    c = em.from_dlpack(torch.tensor(0.5 + 1j, dtype=torch.complex128))
    assert c.shape == () and c.dtype == em.complex128 and complex(c) == 0.5 + 1j
    for shape in ((0,), (0, 3), (2, 0, 4)):
        e = em.from_dlpack(torch.zeros(shape, dtype=torch.float32))
        assert e.shape == shape and e.size == 0 and e.dtype == em.float32
        assert e.tolist() == torch.zeros(shape).tolist()
        assert np.asarray(e).shape == shape  # a null data address: NumPy 1.24 took it for a sequence


def test_torch_legacy_capsule_to_ember(backend):
    # torch 1.13's __dlpack__ takes `stream` only: Ember's max_version request fails with
    # TypeError and from_dlpack falls back to the legacy capsule.
    t = torch.arange(4, dtype=torch.int32)
    with pytest.raises(TypeError):
        t.__dlpack__(max_version=(1, 0))
    assert '"dltensor"' in repr(t.__dlpack__())

    class LegacyProducer:
        """A producer handing out torch.utils.dlpack.to_dlpack's capsule."""
        def __init__(self, tensor):
            self.tensor = tensor
            self.capsule = None

        def __dlpack_device__(self):
            return (1, 0)

        def __dlpack__(self):
            self.capsule = torch.utils.dlpack.to_dlpack(self.tensor)
            return self.capsule

    p = LegacyProducer(t)
    x = em.from_dlpack(p)
    assert '"used_dltensor"' in repr(p.capsule)    # consumed by Ember
    assert x.dtype == em.int32 and x.tolist() == [0, 1, 2, 3]
    if _host_address(x) is not None:
        t[3] = 30
        assert int(x[3]) == 30
    del p, t
    gc.collect()
    assert x.tolist()[:3] == [0, 1, 2]


def test_torch_to_ember_lifetime(backend):
    gc.collect()
    start = em.live_tensor_count()
    for i in range(200):
        t = torch.full((16,), float(i))
        x = em.from_dlpack(t)
        if i % 2:
            del t
        else:
            del x
            x = None
        if x is not None:
            assert float(em.sum(x)) == 16.0 * i
    del x
    gc.collect()
    assert em.live_tensor_count() == start


def test_torch_requires_grad_is_refused(backend):
    t = torch.ones(3, requires_grad=True)
    with pytest.raises(RuntimeError):
        em.from_dlpack(t)                          # torch refuses to export; the error propagates
    assert em.from_dlpack(t.detach()).tolist() == [1.0, 1.0, 1.0]


# ----------------------------------------------------------------- round trips
def test_round_trips_share_memory(backend):
    x = em.asarray(np.arange(4, dtype=np.float32))
    y = em.from_dlpack(torch.from_dlpack(x))       # Ember -> torch -> Ember
    assert y.tolist() == [0.0, 1.0, 2.0, 3.0]
    t = torch.arange(4, dtype=torch.float64)
    u = torch.from_dlpack(em.from_dlpack(t))       # torch -> Ember -> torch
    assert u.tolist() == [0.0, 1.0, 2.0, 3.0]
    if _host_address(x) is not None:
        assert _host_address(y) == _host_address(x)
        x[0] = 5.0
        assert float(y[0]) == 5.0
        assert u.data_ptr() == t.data_ptr()
        t[1] = 6.0
        assert u[1].item() == 6.0


def test_ember_ops_on_torch_memory(backend):
    a = torch.linspace(-1.0, 1.0, 7, dtype=torch.float64)
    x = em.from_dlpack(a)
    r = torch.from_dlpack(em.tanh(x) * 2)
    assert torch.allclose(r, torch.tanh(a) * 2)
