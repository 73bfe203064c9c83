"""MLIR element types <-> meshc data type names (the names of `meshc.layout.dtypes`).

One table (`_ELEMENT_TYPES`) for every part that reads an element type off a tensor type: the passes choosing a
device layout, the interpreters choosing how to round and encode values. The device holds
f32, f16 and bf16 floats; ui32, ui16 and ui8 unsigned integers (`u32`, `u16`, `u8`); and 32-bit
signed integers, written `si32` or signless `i32` (`si32`). Block floats exist only inside tiles
(`!tt.tile<...>`), so no plain element type names them.
"""

from __future__ import annotations

from xdsl.dialects.builtin import AnyFloat, BFloat16Type, Float16Type, Float32Type, IntegerType, Signedness
from xdsl.ir import Attribute

from meshc.layout.dtypes import DataType, get_dtype
from meshc.layout.errors import LayoutError

_ELEMENT_TYPES: dict[str, Attribute] = {
    "f32": Float32Type(), "f16": Float16Type(), "bf16": BFloat16Type(),
    "u32": IntegerType(32, Signedness.UNSIGNED), "u16": IntegerType(16, Signedness.UNSIGNED),
    "u8": IntegerType(8, Signedness.UNSIGNED), "si32": IntegerType(32, Signedness.SIGNED),
}  # fmt: skip
"""Data type name -> the builtin element type a tensor of it has (signless i32 also reads as si32)."""
_NAMES: dict[Attribute, str] = {t: name for name, t in _ELEMENT_TYPES.items()}


def data_type_name(element_type: Attribute) -> str | None:
    """The meshc data type name of an untiled MLIR element type, or None for a type the device
    does not hold (f64, i1, i16, si8, index, ...)."""
    if isinstance(element_type, IntegerType) and element_type.signedness.data == Signedness.SIGNLESS:
        element_type = IntegerType(element_type.width.data, Signedness.SIGNED)
    return _NAMES.get(element_type)


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


def data_type_of(element_type: Attribute) -> DataType:
    """The meshc DataType of an element type; for one the device does not hold, the LayoutError of
    `get_dtype` (which lists the data types there are)."""
    name = data_type_name(element_type)
    return get_dtype(name if name is not None else str(element_type))


def element_type_of(dtype: DataType | str) -> Attribute:
    """The builtin MLIR type of an untiled element (block floats only exist in tiles)."""
    d = get_dtype(dtype)
    if d.name not in _ELEMENT_TYPES:
        raise LayoutError(f"{d.name} elements are stored in tiles only; use a !tt.tile<32x32, {d.name}> element type")
    return _ELEMENT_TYPES[d.name]
