"""Ember ML's tensor frontend: convert_to_tensor, creation and shape functions."""
from . import _functions as F
from . import _creation as C
from . import _dtypes as _dt
from ._array import Array

zeros, ones, eye, full, arange, linspace, meshgrid = C.zeros, C.ones, C.eye, C.full, C.arange, C.linspace, C.meshgrid
zeros_like, ones_like, full_like, empty, empty_like = C.zeros_like, C.ones_like, C.full_like, C.empty, C.empty_like
reshape, stack, split, expand_dims, squeeze, tile, pad = F.reshape, F.stack, F.split, F.expand_dims, F.squeeze, F.tile, F.pad
gather = F.take
sort, argsort, maximum, copy = F.sort, F.argsort, F.maximum, F.copy
scatter, nonzero, one_hot = F.scatter, F.nonzero, F.one_hot
EmberTensor = Array


def convert_to_tensor(data, dtype=None, device=None):
    return C.asarray(data, dtype=dtype, device=device)


def tensor(data, dtype=None, device=None):
    return C.asarray(data, dtype=dtype, device=device, copy=True)


def cast(x, dtype):
    return F.astype(x, dtype, copy=False)


def to_numpy(x):
    import numpy as np
    return np.asarray(x)


def item(x):
    return x.item()


def shape(x):
    return x.shape


def dtype(x):
    return x.dtype


def transpose(x, axes=None):
    return F.transpose(x, axes)


def concatenate(tensors, axis=0):
    return F.concat(tensors, axis=axis)


def vstack(tensors):
    ts = [t if t.ndim >= 2 else F.reshape(t, (1, -1)) for t in tensors]
    return F.concat(ts, axis=0)


def hstack(tensors):
    return F.concat(tensors, axis=0 if tensors[0].ndim == 1 else 1)


def slice_tensor(x, starts, sizes):
    idx = tuple(slice(s, None if z == -1 else s + z) for s, z in zip(starts, sizes))
    return x[idx]


def slice_update(x, starts, update):
    out = F.copy(x)
    idx = tuple(slice(s, s + n) for s, n in zip(starts, update.shape))
    out[idx] = update
    return out


def index_update(x, index, value):
    out = F.copy(x)
    out[index] = value
    return out


def tensor_scatter_nd_update(x, indices, updates):
    out = F.copy(x)
    for idx, v in zip(indices.tolist(), updates):
        out[tuple(idx)] = v
    return out
