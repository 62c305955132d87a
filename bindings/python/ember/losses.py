"""Ember ML's losses over the C API's (ember_stats.h), so that C, Lua and Python compute one
definition. `reduction` is "mean" (the default), "sum" or "none" (the unreduced losses).

The probability forms clamp each log below at -100 (as PyTorch), so p = 0 or 1 gives a
finite loss; `epsilon=` clips the probabilities to [epsilon, 1 - epsilon] first (Keras's
way, which Ember ML's Python losses took with epsilon = 1e-7)."""
from . import _functions as F
from . import _ember_c as _c
from ._array import _wrap
from ._functions import _arr

_REDUCTION = {"none": 0, "mean": 1, "sum": 2}


def _reduction(reduction):
    try:
        return _REDUCTION[reduction]
    except KeyError:
        raise ValueError(f"reduction must be 'mean', 'sum' or 'none', got {reduction!r}") from None


def _elementwise(cfun, y_true, y_pred, axis, reduction, *extra):
    """An elementwise loss; axis= is a mean over those axes (Ember ML's form), which leaves
    nothing for `reduction` to do."""
    t, p = _arr(y_true), _arr(y_pred)
    if axis is None:
        return _wrap(cfun(t._h, p._h, *extra, _reduction(reduction)))
    if reduction != "mean":
        raise ValueError("pass either axis= (a mean over those axes) or reduction=, not both")
    return F.mean(_wrap(cfun(t._h, p._h, *extra, _REDUCTION["none"])), axis=axis)


def mse(y_true, y_pred, axis=None, reduction="mean"):
    return _elementwise(_c.ember_mse, y_true, y_pred, axis, reduction)


mean_squared_error = mse


def mean_absolute_error(y_true, y_pred, axis=None, reduction="mean"):
    return _elementwise(_c.ember_mean_absolute_error, y_true, y_pred, axis, reduction)


mae = mean_absolute_error


def huber_loss(y_true, y_pred, delta=1.0, reduction="mean"):
    return _elementwise(_c.ember_huber_loss, y_true, y_pred, None, reduction, float(delta))


def log_cosh_loss(y_true, y_pred, reduction="mean"):
    return _elementwise(_c.ember_log_cosh, y_true, y_pred, None, reduction)


log_cosh = log_cosh_loss


def _clipped(y_pred, from_logits, epsilon, high):
    p = _arr(y_pred)
    return p if from_logits or epsilon is None else F.clip(p, epsilon, high(epsilon))


def binary_crossentropy(y_true, y_pred, from_logits=False, epsilon=None, reduction="mean"):
    p = _clipped(y_pred, from_logits, epsilon, lambda e: 1.0 - e)
    return _wrap(_c.ember_binary_crossentropy(_arr(y_true)._h, p._h, 1 if from_logits else 0, _reduction(reduction)))


def categorical_crossentropy(y_true, y_pred, from_logits=False, axis=-1, epsilon=None, reduction="mean"):
    p = _clipped(y_pred, from_logits, epsilon, lambda e: 1.0)
    return _wrap(_c.ember_categorical_crossentropy(_arr(y_true)._h, p._h, 1 if from_logits else 0, int(axis),
                                                   _reduction(reduction)))


def sparse_categorical_crossentropy(y_true, y_pred, from_logits=False, axis=-1, epsilon=None, reduction="mean"):
    """Integer labels with y_pred's shape without `axis`; a label outside [0, classes) raises
    IndexError."""
    p = _clipped(y_pred, from_logits, epsilon, lambda e: 1.0)
    return _wrap(_c.ember_sparse_categorical_crossentropy(_arr(y_true)._h, p._h, 1 if from_logits else 0, int(axis),
                                                          _reduction(reduction)))


def kl_divergence(y_true, y_pred, axis=-1, reduction="mean"):
    """sum(t * (log t - log p)) over axis; terms with t == 0 count 0."""
    return _wrap(_c.ember_kl_divergence(_arr(y_true)._h, _arr(y_pred)._h, int(axis), _reduction(reduction)))


def cosine_similarity(a, b, axis=-1, reduction="mean"):
    """sum(a b) / max(|a| |b|, 1e-8) over axis."""
    return _wrap(_c.ember_cosine_similarity(_arr(a)._h, _arr(b)._h, int(axis), _reduction(reduction)))


def euclidean_distance(a, b, axis=-1, reduction="mean"):
    """sqrt(sum((a - b)^2)) over axis."""
    return _wrap(_c.ember_euclidean_distance(_arr(a)._h, _arr(b)._h, int(axis), _reduction(reduction)))
