"""Tensor files from Python: .npz (em.savez, em.load) and safetensors dictionaries
(em.save_safetensors, em.load_safetensors), checked against NumPy's own readers and writers
on every backend."""
import io

import numpy as np
import pytest

import ember as em

ARRAYS = {
    "f32": np.arange(12, dtype=np.float32).reshape(3, 4) / 7,
    "f16": np.array([1.5, -2.0, 65504.0], dtype=np.float16),
    "c128": np.array([1 + 2j, -3.5j]),
    "i8": np.array([-128, 0, 127], dtype=np.int8),
    "u64": np.array([0, 2**64 - 1], dtype=np.uint64),
    "flags": np.array([True, False, True]),
    "scalar": np.float64(2.25),
    "empty": np.zeros((0, 4), dtype=np.int16),
}


def same(got, want):
    got_np = np.asarray(got)
    want = np.asarray(want)
    return got_np.dtype == want.dtype and got_np.shape == want.shape and np.array_equal(got_np, want)


@pytest.mark.parametrize("saver", ["savez", "savez_compressed"])
def test_savez_is_what_numpy_reads(tmp_path, backend, saver):
    pos = em.asarray(ARRAYS["f32"])
    getattr(em, saver)(tmp_path / "a", pos, **{k: em.asarray(v) for k, v in ARRAYS.items()})  # ".npz" appended
    with np.load(tmp_path / "a.npz") as z:
        assert sorted(z.files) == sorted(["arr_0", *ARRAYS])
        assert same(z["arr_0"], ARRAYS["f32"])
        for k, v in ARRAYS.items():
            assert same(z[k], v), k
    buf = io.BytesIO()
    getattr(em, saver)(buf, x=[1, 2, 3])  # array-likes are converted; open files written to
    buf.seek(0)
    with np.load(buf) as z:
        assert same(z["x"], np.array([1, 2, 3]))


@pytest.mark.parametrize("saver", [np.savez, np.savez_compressed])
def test_load_reads_numpy_npz(tmp_path, backend, saver):
    # savez_compressed: deflated entries; large patterned and random arrays make zlib use
    # dynamic-Huffman blocks and several blocks per entry.
    arrays = dict(ARRAYS, ramp=np.arange(100000, dtype=np.float64),
                  noise=np.random.default_rng(2).integers(0, 256, size=50000, dtype=np.uint8))
    p = tmp_path / "n.npz"
    saver(p, **arrays)
    got = em.load(p)
    assert isinstance(got, dict) and sorted(got) == sorted(arrays)
    for k, v in arrays.items():
        assert isinstance(got[k], em.Array) and got[k].backend == backend
        assert same(got[k], v), k
    with open(p, "rb") as f:             # an open file, and bytes, detected by magic
        assert same(em.load(f)["ramp"], arrays["ramp"])
    assert same(em.load(p.read_bytes())["noise"], arrays["noise"])


def test_savez_compressed_large_arrays(tmp_path):
    # Every block kind of the encoder, read by NumPy (zlib) and by ember; sizes as zlib's
    rng = np.random.default_rng(4)
    arrays = {"ramp": np.arange(500000, dtype=np.int64) // 7,
              "noise": rng.normal(size=200000).astype(np.float32),
              "zeros": np.zeros(300000, dtype=np.float64),
              "labels": rng.integers(0, 10, size=100000).astype(np.uint8)}
    em.savez_compressed(tmp_path / "ours.npz", **{k: em.asarray(v) for k, v in arrays.items()})
    np.savez_compressed(tmp_path / "numpy.npz", **arrays)
    with np.load(tmp_path / "ours.npz") as z:
        for k, v in arrays.items():
            assert same(z[k], v), k
    back = em.load(tmp_path / "ours.npz")
    for k, v in arrays.items():
        assert same(back[k], v), k
    ours, theirs = (tmp_path / "ours.npz").stat().st_size, (tmp_path / "numpy.npz").stat().st_size
    assert ours < 1.25 * theirs, (ours, theirs)   # greedy matching: within 25% of zlib's level 6


def test_load_npy_from_file_and_bytes(tmp_path, backend):
    p = tmp_path / "x.npy"
    np.save(p, ARRAYS["c128"])
    with open(p, "rb") as f:
        assert same(em.load(f), ARRAYS["c128"])
    assert same(em.load(p.read_bytes()), ARRAYS["c128"])
    with pytest.raises(ValueError, match="neither .npy nor .npz"):
        em.load(b"plain text")


def test_savez_and_dictionary_errors(tmp_path):
    with pytest.raises(ValueError, match="arr_0"):
        em.savez(tmp_path / "e.npz", em.ones(2), arr_0=em.ones(2))
    with pytest.raises(TypeError, match="names must be str"):
        em.save_safetensors({1: em.ones(2)})
    with pytest.raises(TypeError, match="mapping"):
        em.save_safetensors([em.ones(2)])
    with pytest.raises(TypeError, match="metadata"):
        em.save_safetensors({"a": em.ones(2)}, metadata={"k": 1})
    (tmp_path / "bad.npz").write_bytes(b"PK\x05\x06" + b"\0" * 10)
    with pytest.raises(em.EmberError, match="ember_load_npz"):
        em.load(tmp_path / "bad.npz")
    with pytest.raises(em.EmberError):
        em.savez(tmp_path / "bf.npz", x=em.ones(2, dtype=em.bfloat16))  # no NumPy dtype


def test_safetensors_round_trip(tmp_path, backend):
    tensors = {k: em.asarray(v) for k, v in ARRAYS.items() if k != "c128"}  # no complex in the format
    tensors["bf16"] = em.asarray([1.0, -2.5], dtype=em.bfloat16)
    p = tmp_path / "m.safetensors"
    em.save_safetensors(tensors, p, metadata={"origin": "test"})
    back, meta = em.load_safetensors(p, with_metadata=True)
    assert meta["origin"] == "test"
    assert sorted(back) == sorted(tensors)
    for k, v in tensors.items():
        assert back[k].dtype == v.dtype and back[k].shape == v.shape and back[k].backend == backend
        assert back[k].astype(em.float64).tolist() == v.astype(em.float64).tolist(), k
    raw = em.save_safetensors(tensors, metadata={"origin": "test"})  # no filename: the bytes
    assert isinstance(raw, bytes) and raw == p.read_bytes()
    assert sorted(em.load_safetensors(raw)) == sorted(tensors)
