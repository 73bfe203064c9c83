"""Element encodings as the simulator stores them: a thin layer over meshc.layout.numerics.

The bytes of every data type are meshc.layout.numerics' (bf16 round-to-nearest-even, block
floats with shared exponents); this module only says which numpy dtype a stored element is
viewed as (`storage_dtype`: bf16 as uint16 bit patterns) and converts whole arrays, keeping
their shape. Values already of the storage type pass through without a copy.
"""

from __future__ import annotations

import numpy as np

from meshc.layout import numerics
from meshc.layout.dtypes import DataType, get_dtype
from meshc.layout.errors import LayoutError

_STORAGE = {"f32": np.float32, "f16": np.float16, "bf16": np.uint16, "u32": np.uint32, "u16": np.uint16,
            "u8": np.uint8, "si32": np.int32}


def storage_dtype(dtype: DataType | str) -> np.dtype:
    d = get_dtype(dtype)
    if d.name not in _STORAGE:
        raise LayoutError(f"{d.name} is a block float: it is stored per tile (shared exponents), "
                          "not element by element")
    return np.dtype(_STORAGE[d.name])


def encode(values: np.ndarray, dtype: DataType | str) -> np.ndarray:
    """Host values -> the stored elements (same shape), in `storage_dtype(dtype)`."""
    d = get_dtype(dtype)
    st = storage_dtype(d)
    a = np.asarray(values)
    if a.dtype == st and d.name != "bf16":
        return a
    return numerics.encode(a.reshape(-1), d).view(st).reshape(a.shape)


def decode(stored: np.ndarray, dtype: DataType | str) -> np.ndarray:
    """Stored elements -> host values (bf16 comes back as float32)."""
    d = get_dtype(dtype)
    if d.name != "bf16":
        return stored
    flat = np.ascontiguousarray(stored).reshape(-1).view(np.uint8)
    return numerics.decode(flat, d, stored.size).reshape(stored.shape)


def roundtrips(values: np.ndarray, dtype: DataType | str) -> bool:
    """Whether decoding the stored elements of host values `values` gives them back bit for
    bit: values of the storage type itself, or float32 values that are bf16 values already
    (the low 16 bits zero) and not NaN (storing a NaN may change its bits: ml_dtypes gives
    most of them one quiet NaN). Block floats: False (not decided here)."""
    d = get_dtype(dtype)
    a = np.asarray(values)
    if d.is_block_float:
        return False
    if d.name != "bf16":
        return a.dtype == storage_dtype(d)
    if a.dtype != np.float32:
        return False
    b = a.view(np.uint32)
    return not ((b & np.uint32(0xFFFF)) != 0).any() and not np.isnan(a).any()


def quantize(values: np.ndarray, dtype: DataType | str) -> np.ndarray:
    """The values a device tensor of `dtype` holds (numerics.quantize); integer results of a
    computation are truncated to the type, f32 passes through."""
    d = get_dtype(dtype)
    a = np.asarray(values)
    if d.kind in ("int", "uint"):
        return a.astype(d.host_dtype, copy=False)
    if d.name == "f32":
        return a.astype(np.float32, copy=False)
    return numerics.quantize(a, d)
