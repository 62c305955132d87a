"""Activations: relu sigmoid tanh softmax softplus (+ silu, gelu, leaky_relu, lecun_tanh)."""
from .. import _functions as F

relu = F.relu
sigmoid = F.sigmoid
tanh = F.tanh
softplus = F.softplus
silu = F.silu
swish = F.silu
gelu = F.gelu
leaky_relu = F.leaky_relu
log_softmax = F.log_softmax


def softmax(x, axis=-1):
    return F.softmax(x, axis)


def lecun_tanh(x):
    """1.7159 * tanh(2x/3)."""
    return 1.7159 * F.tanh(x * (2.0 / 3.0))


def get_activation(name):
    return globals()[name]
