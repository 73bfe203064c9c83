"""Element encodings the simulator stores: how a value of each data type becomes bytes.

f32, f16 and the integer types are stored as their numpy bytes; bf16 as the upper half of the
f32 bits after round-to-nearest-even (`to_bf16_bits`). Block floats are handled by
meshc.layout.numerics (shared exponents need whole blocks); `storage_dtype` says what
numpy dtype a stored element is viewed as.
"""

from __future__ import annotations

import numpy as np

from meshc.layout.dtypes import DataType, get_dtype
from meshc.layout.errors import LayoutError

_STORAGE = {"f32": np.float32, "f16": np.float16, "bf16": np.uint16, "u32": np.uint32, "u16": np.uint16,
            "u8": np.uint8, "si32": np.int32}


def storage_dtype(dtype: DataType | str) -> np.dtype:
    d = get_dtype(dtype)
    if d.name not in _STORAGE:
        raise LayoutError(f"the simulator stores {', '.join(_STORAGE)} element by element; "
                          f"{d.name} is a block float, stored per tile: use a tiled layout of a supported type")
    return np.dtype(_STORAGE[d.name])


def to_bf16_bits(values: np.ndarray) -> np.ndarray:
    """bf16 bit patterns (uint16) of float32 values, rounding to nearest even; NaN stays NaN."""
    x = np.ascontiguousarray(values, dtype=np.float32).view(np.uint32)
    rounded = x + (np.uint32(0x7FFF) + ((x >> 16) & np.uint32(1)))
    bits = (rounded >> 16).astype(np.uint16)
    nan = np.isnan(values)
    if nan.any():
        bits[nan] = np.uint16(0x7FC0)
    return bits


def from_bf16_bits(bits: np.ndarray) -> np.ndarray:
    return (bits.astype(np.uint32) << 16).view(np.float32)


def round_bf16(values: np.ndarray) -> np.ndarray:
    """float32 values rounded to the nearest bf16 (ties to even)."""
    return from_bf16_bits(to_bf16_bits(values))


def encode(values: np.ndarray, dtype: DataType | str) -> np.ndarray:
    """Host values -> the stored element array (same shape), in `storage_dtype(dtype)`."""
    d = get_dtype(dtype)
    if d.name == "bf16":
        return to_bf16_bits(values)
    st = storage_dtype(d)
    if np.asarray(values).dtype == st:
        return values
    return np.asarray(values).astype(st)


def decode(stored: np.ndarray, dtype: DataType | str) -> np.ndarray:
    """Stored elements -> host values (bf16 comes back as float32)."""
    d = get_dtype(dtype)
    if d.name == "bf16":
        return from_bf16_bits(stored)
    return stored


def quantize(values: np.ndarray, dtype: DataType | str) -> np.ndarray:
    """What a value of `dtype` can hold: the compute golden's rounding (bf16, block floats)."""
    d = get_dtype(dtype)
    if d.name == "bf16":
        return round_bf16(values)
    if d.is_block_float:
        try:
            from meshc.layout.numerics import quantize as q
        except ImportError as e:  # pragma: no cover - depends on another module landing
            raise LayoutError(f"block float {d.name} needs meshc.layout.numerics") from e
        return q(values, d.name)
    if d.kind in ("int", "uint"):
        return np.asarray(values).astype(d.host_dtype)
    return np.asarray(values, dtype=d.host_dtype)
