"""tt enum attributes: `#tt.data_type`, `#tt.memory_space`, `#tt.oob_val`, and the three that
tt-mlir's front ends write on functions: `#tt.argument_type`, `#tt.shard_status`, `#tt.topology`
(tt-mlir spells them `#ttcore.`; meshc reads both)."""

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


class ArgumentType(StrEnum):
    """What a function argument is to the model: tt-mlir's ArgumentType (TTCoreOpsEnums.td)."""

    INPUT = "input"
    PARAMETER = "parameter"
    CONSTANT = "constant"
    DEFAULT = "default"


class ShardStatus(StrEnum):
    """Whether a function argument or result crosses the host boundary whole (`unsharded`: the
    program's own mesh_shard ops distribute it) or already as per-device pieces (`presharded`)."""

    PRESHARDED = "presharded"
    UNSHARDED = "unsharded"


class Topology(StrEnum):
    """The link topology a collective runs on along one mesh axis (tt-mlir's Topology)."""

    RING = "ring"
    LINEAR = "linear"
    MESH = "mesh"
    TORUS = "torus"
    DISABLED = "disabled"


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


@irdl_attr_definition
class ArgumentTypeAttr(_AngleEnum, EnumAttribute[ArgumentType]):
    """`#tt.argument_type<parameter>` on a function argument: input, parameter, constant or default.
    meshc keeps it and prints it back; it changes no placement and no result."""

    name = "tt.argument_type"


@irdl_attr_definition
class ShardStatusAttr(_AngleEnum, EnumAttribute[ShardStatus]):
    """`#tt.shard_status<unsharded>` on a function argument or result (see ShardStatus)."""

    name = "tt.shard_status"


@irdl_attr_definition
class TopologyAttr(_AngleEnum, EnumAttribute[Topology]):
    """`#tt.topology<ring>`: the topology a collective is configured for."""

    name = "tt.topology"


def presharded(attrs) -> bool:
    """Whether an argument's or result's attribute dictionary (a DictionaryAttr, or None) marks it
    `#ttcore.shard_status<presharded>`: one piece a device crosses the host boundary."""
    if attrs is None:
        return False
    status = attrs.data.get("ttcore.shard_status") or attrs.data.get("tt.shard_status")
    return isinstance(status, ShardStatusAttr) and status.data == ShardStatus.PRESHARDED
