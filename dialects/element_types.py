"""MLIR element types -> meshc data type names (the names of `meshc.layout.dtypes`).

One table for every part that reads an element type off a tensor type: the passes choosing a
device layout, the interpreters choosing how to round and encode values. The device holds
f32, f16 and bf16 floats; ui32, ui16 and ui8 unsigned integers (`u32`, `u16`, `u8`); and 32-bit
signed integers, written `si32` or signless `i32` (`si32`). Block floats exist only inside tiles
(`!tt.tile<...>`), so no plain element type names them.
"""

from __future__ import annotations

from xdsl.dialects.builtin import AnyFloat, BFloat16Type, Float16Type, Float32Type, IntegerType, Signedness
from xdsl.ir import Attribute

from meshc.layout.errors import LayoutError


def data_type_name(element_type: Attribute) -> str | None:
    """The meshc data type name of an untiled MLIR element type, or None for a type the device
    does not hold (f64, i1, i16, si8, index, ...)."""
    if isinstance(element_type, Float32Type):
        return "f32"
    if isinstance(element_type, BFloat16Type):
        return "bf16"
    if isinstance(element_type, Float16Type):
        return "f16"
    if isinstance(element_type, IntegerType):
        width = element_type.width.data
        if element_type.signedness.data == Signedness.UNSIGNED:
            return f"u{width}" if width in (8, 16, 32) else None
        return "si32" if width == 32 else None
    return None


def expect_data_type_name(element_type: Attribute) -> str:
    """As `data_type_name`, but a type the device does not hold raises LayoutError naming the
    types of its kind that it does hold."""
    name = data_type_name(element_type)
    if name is not None:
        return name
    if isinstance(element_type, IntegerType):
        raise LayoutError(f"integer type {element_type} is not one the device holds (i32, si32, ui32, ui16, ui8)")
    if isinstance(element_type, AnyFloat):
        raise LayoutError(f"float type {element_type} is not one the device holds (f32, f16, bf16)")
    raise LayoutError(f"element type {element_type} is not one the device holds")
