"""tt enum attributes: `#tt.data_type`, `#tt.memory_space`, `#tt.oob_val`."""

from __future__ import annotations

from xdsl.dialects.utils.enum_attribute import EnumAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.utils.str_enum import StrEnum

from meshc.dialects.syntax import AngleBody
from meshc.layout.dtypes import DTYPES, DataType, get_dtype
from meshc.layout.metal_layout import MEMORY_SPACES, OOB_VALUES
from meshc.layout.system import system


class DataTypeEnum(StrEnum):
    F32 = "f32"
    F16 = "f16"
    BF16 = "bf16"
    BFP_BF8 = "bfp_bf8"
    BFP_BF4 = "bfp_bf4"
    U32 = "u32"
    U16 = "u16"
    U8 = "u8"
    SI32 = "si32"


assert {e.value for e in DataTypeEnum} == set(DTYPES), "tt data types out of step with meshc.layout.dtypes"


class MemorySpace(StrEnum):
    SYSTEM = "system"
    DRAM = "dram"
    L1 = "l1"


class OOBVal(StrEnum):
    UNDEF = "undef"
    ZERO = "zero"
    ONE = "one"
    INF = "inf"
    NEGINF = "neginf"


assert tuple(m.value for m in MemorySpace) == MEMORY_SPACES, "tt memory spaces out of step with metal_layout"
assert tuple(o.value for o in OOBVal) == OOB_VALUES, "tt OOB values out of step with metal_layout"


class _AngleEnum(AngleBody):
    """An enum attribute written `#tt.name<value>`."""

    data: StrEnum
    enum_type: type[StrEnum]

    @classmethod
    def parse_body(cls, parser: AttrParser) -> StrEnum:
        return parser.parse_str_enum(cls.enum_type)


@irdl_attr_definition
class DataTypeAttr(_AngleEnum, EnumAttribute[DataTypeEnum]):
    """`#tt.data_type<bf16>`: an element data type (see meshc.layout.dtypes)."""

    name = "tt.data_type"

    def model(self) -> DataType:
        return get_dtype(self.data.value)

    @classmethod
    def from_model(cls, dtype: "DataType | str") -> "DataTypeAttr":
        return cls(DataTypeEnum(get_dtype(dtype).name))


@irdl_attr_definition
class MemorySpaceAttr(_AngleEnum, EnumAttribute[MemorySpace]):
    """`#tt.memory_space<l1>`: system (host), dram or l1."""

    name = "tt.memory_space"


@irdl_attr_definition
class OOBValAttr(_AngleEnum, EnumAttribute[OOBVal]):
    """`#tt.oob_val<zero>`: the value of the padding of a layout."""

    name = "tt.oob_val"
