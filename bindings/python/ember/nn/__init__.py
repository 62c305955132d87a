"""Ember ML's nn namespace (activations)."""
from . import activations  # noqa: F401
