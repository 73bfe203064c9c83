"""meshc.dialects.element_types: the one table from MLIR element types to meshc data type names.

Expected names are the device types docs/design.md lists (f32, f16, bf16, u32, u16, u8, si32), written
out here by hand; a type the device does not hold gives None, or a LayoutError naming the types
of its kind that the device holds.
"""

import pytest
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    Signedness,
)

from meshc.dialects.element_types import data_type_name, expect_data_type_name
from meshc.layout.errors import LayoutError

S, U, SL = Signedness.SIGNED, Signedness.UNSIGNED, Signedness.SIGNLESS

HELD = [
    (Float32Type(), "f32"),
    (Float16Type(), "f16"),
    (BFloat16Type(), "bf16"),
    (IntegerType(32, U), "u32"),
    (IntegerType(16, U), "u16"),
    (IntegerType(8, U), "u8"),
    (IntegerType(32, S), "si32"),
    (IntegerType(32, SL), "si32"),
]

NOT_HELD = [
    (IntegerType(1, SL), r"integer type i1 is not one the device holds \(i32, si32, ui32, ui16, ui8\)"),
    (IntegerType(16, S), r"integer type si16 is not one the device holds"),
    (IntegerType(64, U), r"integer type ui64 is not one the device holds"),
    (Float64Type(), r"float type f64 is not one the device holds \(f32, f16, bf16\)"),
    (IndexType(), r"element type index is not one the device holds"),
]


@pytest.mark.parametrize("element_type, name", HELD, ids=[n + "-" + str(t) for t, n in HELD])
def test_held_types_have_their_names(element_type, name):
    assert data_type_name(element_type) == name
    assert expect_data_type_name(element_type) == name


@pytest.mark.parametrize("element_type, message", NOT_HELD, ids=[str(t) for t, _ in NOT_HELD])
def test_other_types_are_none_or_a_layout_error(element_type, message):
    assert data_type_name(element_type) is None
    with pytest.raises(LayoutError, match=message):
        expect_data_type_name(element_type)
