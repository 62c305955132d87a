"""Ember ML's losses, composed from ops (mean over all elements unless axis is given)."""
from . import _functions as F


def mse(y_true, y_pred, axis=None):
    return F.mean(F.square(y_pred - y_true), axis=axis)


mean_squared_error = mse


def mean_absolute_error(y_true, y_pred, axis=None):
    return F.mean(F.abs(y_pred - y_true), axis=axis)


mae = mean_absolute_error


def binary_crossentropy(y_true, y_pred, from_logits=False, epsilon=1e-7):
    if from_logits:
        # max(z, 0) - z*y + log(1 + exp(-|z|))
        z = y_pred
        return F.mean(F.relu(z) - z * y_true + F.log1p(F.exp(-F.abs(z))))
    p = F.clip(y_pred, epsilon, 1.0 - epsilon)
    return F.mean(-(y_true * F.log(p) + (1.0 - y_true) * F.log(1.0 - p)))


def categorical_crossentropy(y_true, y_pred, from_logits=False, axis=-1, epsilon=1e-7):
    logp = F.log_softmax(y_pred, axis) if from_logits else F.log(F.clip(y_pred, epsilon, 1.0))
    return F.mean(-F.sum(y_true * logp, axis=axis))


def sparse_categorical_crossentropy(y_true, y_pred, from_logits=False, axis=-1, epsilon=1e-7):
    """categorical_crossentropy of the one-hot labels, computed on the labelled entries only:
    the one-hot product took 30x as long for 1000 classes. Labels outside [0, classes) raise."""
    labels = F.asarray(y_true)
    classes = y_pred.shape[axis]
    if labels.size and (int(F.min(labels)) < 0 or int(F.max(labels)) >= classes):
        raise IndexError(f"sparse_categorical_crossentropy: labels must lie in [0, {classes})")
    axis = axis % y_pred.ndim
    picked = F.take_along_axis(y_pred, F.expand_dims(labels, axis=axis), axis=axis)
    if from_logits:
        logp = picked - F.logsumexp(y_pred, axis=axis, keepdims=True)
    else:
        logp = F.log(F.clip(picked, epsilon, 1.0))
    return F.mean(-logp)


def huber_loss(y_true, y_pred, delta=1.0):
    err = F.abs(y_pred - y_true)
    quad = F.minimum(err, delta)
    return F.mean(0.5 * quad * quad + delta * (err - quad))


def log_cosh_loss(y_true, y_pred):
    d = y_pred - y_true
    # log(cosh(d)) = d + softplus(-2d) - log(2), stable
    return F.mean(d + F.softplus(-2.0 * d) - 0.6931471805599453)


log_cosh = log_cosh_loss
