"""The placement-model value of an attribute, built once: attributes are immutable, so the model
(`Device`, `MetalLayout`, ...) an attribute stands for is built on first use and kept on it."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def cached_model(attr: object, build: Callable[[], T]) -> T:
    """`build()` the first time `attr` is asked for its model, the same object afterwards."""
    cached = attr.__dict__.get("_model")
    if cached is None:
        cached = build()
        object.__setattr__(attr, "_model", cached)  # attributes are frozen: set past the guard
    return cached
