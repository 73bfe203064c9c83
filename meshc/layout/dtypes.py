"""Data types of tensors on device: names, element sizes, host numpy dtypes, tile byte sizes.

Block floats (bfp_bf8, bfp_bf4) store, for every 16-element row of a 16x16 face, one shared
8-bit exponent plus one sign+mantissa field an element (8 or 4 bits). A 32x32 tile is then
1024 + 64 = 1088 bytes (bfp_bf8) and 512 + 64 = 576 bytes (bfp_bf4), the sizes TT-Metal uses.
See docs/placement.md.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from meshc.layout.errors import LayoutError

BLOCK = 16
"""Elements sharing one exponent in a block float: a 16-element row of a face."""


@dataclass(frozen=True)
class DataType:
    name: str
    bits: int
    """Bits an element (for block floats: of the per-element sign+mantissa field)."""
    host: str
    """numpy dtype of the host-side values (bf16 and block floats are held as float32)."""
    kind: str  # "float" | "int" | "uint" | "block_float"

    @property
    def is_block_float(self) -> bool:
        return self.kind == "block_float"

    @property
    def is_float(self) -> bool:
        return self.kind in ("float", "block_float")

    @property
    def host_dtype(self) -> np.dtype:
        return np.dtype(self.host)

    @property
    def itemsize(self) -> int:
        """Bytes an element; an error for block floats, whose size is only defined per tile."""
        if self.is_block_float:
            raise LayoutError(f"data type {self.name} has no per-element size: it is stored in tiles "
                              "with a shared exponent every 16 elements; use the tiled layout")
        return self.bits // 8

    @property
    def element_bytes(self) -> float:
        """Stored bytes an element takes on average (a block float's share of its tile: bfp_bf8
        1088 / 1024): what an element costs on an ethernet link."""
        return self.bytes_for(32, 32) / 1024 if self.is_block_float else self.bits / 8

    def bytes_for(self, rows: int, cols: int) -> int:
        """Bytes a rows x cols page (a tile, or a row-major page of one row) takes."""
        if self.is_block_float:
            n = rows * cols
            if n % BLOCK:
                raise LayoutError(f"a {rows}x{cols} page of {self.name} is not a whole number of "
                                  f"{BLOCK}-element exponent blocks")
            return n * self.bits // 8 + n // BLOCK
        return rows * cols * self.itemsize


DTYPES: dict[str, DataType] = {
    d.name: d
    for d in (
        DataType("f32", 32, "float32", "float"),
        DataType("f16", 16, "float16", "float"),
        DataType("bf16", 16, "float32", "float"),
        DataType("bfp_bf8", 8, "float32", "block_float"),
        DataType("bfp_bf4", 4, "float32", "block_float"),
        DataType("u32", 32, "uint32", "uint"),
        DataType("u16", 16, "uint16", "uint"),
        DataType("u8", 8, "uint8", "uint"),
        DataType("si32", 32, "int32", "int"),
    )
}

_ALIASES = {"float32": "f32", "float16": "f16", "bfloat16": "bf16", "bfp8": "bfp_bf8", "bfp4": "bfp_bf4",
            "uint32": "u32", "uint16": "u16", "uint8": "u8", "int32": "si32", "i32": "si32"}


def get_dtype(name: "str | DataType") -> DataType:
    if isinstance(name, DataType):
        return name
    key = _ALIASES.get(name, name)
    if key not in DTYPES:
        raise LayoutError(f"unknown data type '{name}'; expected one of {', '.join(DTYPES)}")
    return DTYPES[key]
