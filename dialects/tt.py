"""The tt dialect: devices, grids, system descriptors, tiles, data types and tensor layouts.

Attributes only, in the syntax of tt-mlir's device and tensor-layout specs; every fact they
carry is computed by `meshc.layout` (affine, device, metal_layout, system), and each attribute
converts to and from its model object (`from_model(...)` / `.model()`) and verifies through it.

    #tt.grid<8x16, (d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)>          (map optional)
    #tt.device<workerGrid = #tt.grid<...>, meshShape = 1x2, chipIds = [0, 1]>
    #tt.chip_desc<arch = wormhole_b0, grid = 8x8, l1Size = 1499136, dramBanks = 12,
                  dramBankSize = 1073741824>
    #tt.system_desc<meshShape = 1x2, chipDescs = [#tt.chip_desc<...>], chipDescIndices = [0, 0],
                    chipCoords = [[0, 0], [0, 1]], links = [[0, 1]]>    (or #tt.system_desc<n300>)
    !tt.tile<32x32, bf16>                                               (`32 x 32` accepted)
    #tt.data_type<bfp_bf8>, #tt.memory_space<l1>, #tt.oob_val<zero>
    #tt.metal_layout<LINEAR, OOB, <GRID>, memref<SHARD x ELEM, #tt.memory_space<MS>>>

A module carries its device and system as the attributes `tt.device` and `tt.system_desc` of
the builtin module; `module_device(module)` / `module_system(module)` return the models and
`verify_module(module)` checks the device against the system. A tensor whose encoding is a
`#tt.metal_layout` is checked against it (a registered type checker), so a mismatch is a
located error at the op that uses the tensor. See docs/tt-dialect.md.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    ArrayAttr,
    BFloat16Type,
    Float16Type,
    Float32Type,
    IntAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    NoneAttr,
    Signedness,
    TensorType,
)
from xdsl.dialects.utils.enum_attribute import EnumAttribute
from xdsl.ir import Attribute, Data, Dialect, Operation, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from meshc.diagnostics import LocatedError, register_op_checker, register_type_checker
from meshc.dialects.syntax import AngleBody, verified
from meshc.layout.affine import AffineMap, AffineParseError, map_text_end, parse_map
from meshc.layout.device import Device
from meshc.layout.dtypes import DTYPES, DataType, get_dtype
from meshc.layout.errors import LayoutError
from meshc.layout.metal_layout import MEMORY_SPACES, OOB_VALUES, MetalLayout, Tile
from meshc.layout.system import ChipDesc, SystemDesc, get_arch, system

# ----------------------------------------------------------------------------- parse/print helpers


def _ints(values: Sequence[int]) -> ArrayAttr[IntAttr]:
    return ArrayAttr([IntAttr(int(v)) for v in values])


def _vals(arr: ArrayAttr[IntAttr]) -> tuple[int, ...]:
    return tuple(a.data for a in arr.data)


def _shape_text(shape: Sequence[int]) -> str:
    return "x".join(str(s) for s in shape)


def _parse_affine_map(parser: AttrParser) -> AffineMap:
    """An affine map in MLIR syntax, read from the source text by meshc.layout.affine."""
    start = parser.pos
    text = parser.lexer.input.content
    end = map_text_end(text, start)
    if end == start:
        parser.raise_error("expected an affine map such as '(d0, d1) -> (d0, d1)'")
    try:
        m = parse_map(text[start:end])
    except AffineParseError as e:
        parser.raise_error(str(e), start + e.offset, start + e.offset + 1)
    parser._resume_from(end)  # pyright: ignore[reportPrivateUsage]
    return m


def _parse_dims(parser: AttrParser, what: str) -> list[int]:
    at = parser.pos
    dims = parser.parse_dimension_list()
    if not dims:
        parser.raise_error(f"expected {what} such as 8x8", at)
    if any(d < 0 for d in dims):
        parser.raise_error(f"{what} cannot have dynamic sizes", at)
    return dims


def _parse_key(parser: AttrParser, key: str) -> None:
    parser.parse_keyword(key, f" (the next field of the attribute is '{key} = ...')")
    parser.parse_punctuation("=")


def _parse_int_list(parser: AttrParser) -> list[int]:
    return parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_integer)


def _print_int_list(printer: Printer, values: Sequence[int]) -> None:
    printer.print_string("[" + ", ".join(str(v) for v in values) + "]")


# ----------------------------------------------------------------------------- enums


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


# ----------------------------------------------------------------------------- affine maps, grids


@irdl_attr_definition
class MapAttr(AngleBody, Data[AffineMap]):
    """`#tt.map<(d0) -> (d0 floordiv 8)>`: an affine map kept exactly as written (printed as MLIR does)."""

    name = "tt.map"

    @classmethod
    def parse_body(cls, parser: AttrParser) -> AffineMap:
        return _parse_affine_map(parser)


@irdl_attr_definition
class GridAttr(ParametrizedAttribute):
    """`#tt.grid<8x16, (d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)>`: a logical grid and optional map."""

    name = "tt.grid"

    shape: ArrayAttr[IntAttr]
    mapping: MapAttr | NoneAttr

    def __init__(self, shape: Sequence[int], mapping: "AffineMap | str | None" = None):
        m = NoneAttr() if mapping is None else MapAttr(parse_map(mapping) if isinstance(mapping, str) else mapping)
        super().__init__(_ints(shape), m)

    @property
    def grid_shape(self) -> tuple[int, ...]:
        return _vals(self.shape)

    @property
    def affine_map(self) -> AffineMap | None:
        return None if isinstance(self.mapping, NoneAttr) else self.mapping.data

    def verify(self) -> None:
        shape = self.grid_shape
        if not shape or any(s <= 0 for s in shape):
            raise VerifyException(f"grid {_shape_text(shape) or '<empty>'} must have a rank of at least 1 "
                                  "and positive sizes")
        m = self.affine_map
        if m is not None and m.num_dims != len(shape):
            raise VerifyException(f"the grid map {m} takes {m.num_dims} dims, but the grid "
                                  f"{_shape_text(shape)} has rank {len(shape)}")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            shape = _parse_dims(parser, "a grid shape")
            mapping: Attribute = NoneAttr()
            if parser.parse_optional_punctuation(",") is not None:
                mapping = MapAttr(_parse_affine_map(parser))
        return (_ints(shape), mapping)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self._body()}>")

    def _body(self) -> str:
        m = self.affine_map
        return _shape_text(self.grid_shape) + ("" if m is None else f", {m}")


# ----------------------------------------------------------------------------- device


@irdl_attr_definition
class DeviceAttr(ParametrizedAttribute):
    """`#tt.device<workerGrid = #tt.grid<SHAPE, MAP>, meshShape = 2x1x1, chipIds = [0, 1]>`.

    Verified without a system: mesh volume = chip count, unique ids, a 3-result map that is
    injective and whose chip index is in range with non-negative core coordinates. The
    chips' physical grids (and that the ids exist) are checked by `verify_module` against the
    module's `tt.system_desc`, or 8x8 wormhole_b0 chips when the module has none.
    """

    name = "tt.device"

    worker_grid: GridAttr
    mesh_shape: ArrayAttr[IntAttr]
    chip_ids: ArrayAttr[IntAttr]

    def __init__(self, worker_grid: GridAttr, mesh_shape: Sequence[int], chip_ids: Sequence[int]):
        super().__init__(worker_grid, _ints(mesh_shape), _ints(chip_ids))

    @classmethod
    def from_model(cls, device: Device) -> "DeviceAttr":
        return cls(GridAttr(device.grid_shape, device.mapping), device.mesh_shape, device.chip_ids)

    def model(self) -> Device:
        m = self.worker_grid.affine_map
        if m is None:
            raise VerifyException("the workerGrid of a device needs a map from the logical grid to "
                                  "(chip index, y, x), e.g. #tt.grid<8x8, (d0, d1) -> (0, d0, d1)>")
        return Device(self.worker_grid.grid_shape, m, _vals(self.mesh_shape), _vals(self.chip_ids))

    def verify(self) -> None:
        dev = self.model()
        # the chips' grids are the system's: checked by verify_module
        verified(lambda: dev.verify(physical=False))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            _parse_key(parser, "workerGrid")
            at = parser.pos
            grid = parser.parse_attribute()
            if not isinstance(grid, GridAttr):
                parser.raise_error("workerGrid must be a #tt.grid<...>", at, parser.pos)
            parser.parse_punctuation(",")
            _parse_key(parser, "meshShape")
            mesh = _parse_dims(parser, "a mesh shape")
            parser.parse_punctuation(",")
            _parse_key(parser, "chipIds")
            ids = _parse_int_list(parser)
        return (grid, _ints(mesh), _ints(ids))

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<workerGrid = ")
        printer.print_attribute(self.worker_grid)
        printer.print_string(f", meshShape = {_shape_text(_vals(self.mesh_shape))}, chipIds = ")
        _print_int_list(printer, _vals(self.chip_ids))
        printer.print_string(">")


# ----------------------------------------------------------------------------- system


def _parse_arch(parser: AttrParser, expected: str) -> str:
    """An architecture name, checked against meshc.layout.system's table; located error if unknown."""
    at = parser.pos
    name = parser.parse_identifier(expected)
    try:
        get_arch(name)
    except LayoutError as e:
        parser.raise_error(str(e), at, parser.pos)
    return name


@irdl_attr_definition
class ArchAttr(AngleBody, Data[str]):
    """`#tt.arch<wormhole_b0>`: a chip architecture (grayskull, wormhole_b0, blackhole)."""

    name = "tt.arch"

    @classmethod
    def parse_body(cls, parser: AttrParser) -> str:
        return _parse_arch(parser, " (an architecture)")

    def verify(self) -> None:
        verified(lambda: get_arch(self.data))


@irdl_attr_definition
class ChipDescAttr(ParametrizedAttribute):
    """`#tt.chip_desc<arch = wormhole_b0, grid = 8x8, l1Size = 1499136, dramBanks = 12, dramBankSize = N>`."""

    name = "tt.chip_desc"

    arch: ArchAttr
    grid: ArrayAttr[IntAttr]
    l1_size: IntAttr
    dram_banks: IntAttr
    dram_bank_size: IntAttr

    def __init__(self, arch: str, grid: Sequence[int], l1_size: int, dram_banks: int, dram_bank_size: int):
        super().__init__(ArchAttr(arch), _ints(grid), IntAttr(l1_size), IntAttr(dram_banks), IntAttr(dram_bank_size))

    @property
    def arch_name(self) -> str:
        return self.arch.data

    def verify(self) -> None:
        g = _vals(self.grid)
        if len(g) != 2 or any(v <= 0 for v in g):
            raise VerifyException(f"a chip's grid must be 2-d with positive sizes, got {_shape_text(g)}")
        for key, v in (("l1Size", self.l1_size), ("dramBanks", self.dram_banks), ("dramBankSize", self.dram_bank_size)):
            if v.data <= 0:
                raise VerifyException(f"{key} must be positive, got {v.data}")

    def model(self, coord: Sequence[int]) -> ChipDesc:
        g = _vals(self.grid)
        return ChipDesc(self.arch_name, (g[0], g[1]), self.l1_size.data, self.dram_banks.data,
                        self.dram_bank_size.data, tuple(coord))

    @classmethod
    def from_model(cls, chip: ChipDesc) -> "ChipDescAttr":
        return cls(chip.arch, chip.grid, chip.l1_size, chip.dram_banks, chip.dram_bank_size)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            _parse_key(parser, "arch")
            arch = _parse_arch(parser, " (an architecture: grayskull, wormhole_b0 or blackhole)")
            parser.parse_punctuation(",")
            _parse_key(parser, "grid")
            grid = _parse_dims(parser, "a chip grid")
            values = []
            for key in ("l1Size", "dramBanks", "dramBankSize"):
                parser.parse_punctuation(",")
                _parse_key(parser, key)
                values.append(IntAttr(parser.parse_integer(allow_boolean=False, allow_negative=False)))
        return (ArchAttr(arch), _ints(grid), *values)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(
            f"<arch = {self.arch_name}, grid = {_shape_text(_vals(self.grid))}, l1Size = {self.l1_size.data}, "
            f"dramBanks = {self.dram_banks.data}, dramBankSize = {self.dram_bank_size.data}>")


@irdl_attr_definition
class SystemDescAttr(ParametrizedAttribute):
    """`#tt.system_desc<meshShape = ..., chipDescs = [...], chipDescIndices = [...], chipCoords = [...], links = [...]>`.

    `chipDescs` lists the distinct kinds of chip; chip i is `chipDescs[chipDescIndices[i]]` at
    `chipCoords[i]` of the chip mesh; `links` are the ethernet links as pairs of chip ids.
    `#tt.system_desc<t3k>` (n150, n300, t3k, galaxy) builds a named wormhole_b0 system.
    """

    name = "tt.system_desc"

    mesh_shape: ArrayAttr[IntAttr]
    chip_descs: ArrayAttr[ChipDescAttr]
    chip_desc_indices: ArrayAttr[IntAttr]
    chip_coords: ArrayAttr[ArrayAttr[IntAttr]]
    links: ArrayAttr[ArrayAttr[IntAttr]]

    @classmethod
    def from_model(cls, sysdesc: SystemDesc) -> "SystemDescAttr":
        kinds: list[ChipDescAttr] = []
        indices: list[int] = []
        for chip in sysdesc.chips:
            a = ChipDescAttr.from_model(chip)
            if a not in kinds:
                kinds.append(a)
            indices.append(kinds.index(a))
        return cls(
            _ints(sysdesc.mesh_shape),
            ArrayAttr(kinds),
            _ints(indices),
            ArrayAttr([_ints(c.coord) for c in sysdesc.chips]),
            ArrayAttr([_ints(link) for link in sysdesc.links]),
        )

    def model(self) -> SystemDesc:
        kinds = list(self.chip_descs.data)
        idx = _vals(self.chip_desc_indices)
        coords = [_vals(c) for c in self.chip_coords.data]
        if len(idx) != len(coords):
            raise VerifyException(f"chipDescIndices has {len(idx)} entries but chipCoords has {len(coords)}; "
                                  "both list one entry per chip")
        for i, k in enumerate(idx):
            if not 0 <= k < len(kinds):
                raise VerifyException(f"chip {i} refers to chipDescs[{k}], but there are {len(kinds)} chip descs")
        links = []
        for link in self.links.data:
            pair = _vals(link)
            if len(pair) != 2:
                raise VerifyException(f"an ethernet link joins two chips, got [{', '.join(map(str, pair))}]")
            links.append((min(pair), max(pair)))
        chips = tuple(kinds[k].model(c) for k, c in zip(idx, coords))
        return verified(lambda: SystemDesc(chips, tuple(links), _vals(self.mesh_shape)))

    def verify(self) -> None:
        self.model()

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            at = parser.pos
            named = parser.parse_optional_identifier()
            if named is not None and named != "meshShape":
                try:
                    s = system(named)
                except LayoutError as e:
                    parser.raise_error(str(e), at, parser.pos)
                return cls.from_model(s).parameters
            if named is None:
                _parse_key(parser, "meshShape")
            else:
                parser.parse_punctuation("=")
            mesh = _parse_dims(parser, "a chip mesh shape")
            parser.parse_punctuation(",")
            _parse_key(parser, "chipDescs")

            def chip_desc() -> ChipDescAttr:
                p = parser.pos
                a = parser.parse_attribute()
                if not isinstance(a, ChipDescAttr):
                    parser.raise_error("chipDescs lists #tt.chip_desc<...> attributes", p, parser.pos)
                return a

            kinds = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, chip_desc)
            parser.parse_punctuation(",")
            _parse_key(parser, "chipDescIndices")
            idx = _parse_int_list(parser)
            parser.parse_punctuation(",")
            _parse_key(parser, "chipCoords")
            coords = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, lambda: _ints(_parse_int_list(parser)))
            parser.parse_punctuation(",")
            _parse_key(parser, "links")
            links = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, lambda: _ints(_parse_int_list(parser)))
        return (_ints(mesh), ArrayAttr(kinds), _ints(idx), ArrayAttr(coords), ArrayAttr(links))

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<meshShape = {_shape_text(_vals(self.mesh_shape))}, chipDescs = [")
        for i, k in enumerate(self.chip_descs.data):
            if i:
                printer.print_string(", ")
            printer.print_attribute(k)
        printer.print_string("], chipDescIndices = ")
        _print_int_list(printer, _vals(self.chip_desc_indices))
        printer.print_string(", chipCoords = [" + ", ".join(
            "[" + ", ".join(map(str, _vals(c))) + "]" for c in self.chip_coords.data) + "]")
        printer.print_string(", links = [" + ", ".join(
            "[" + ", ".join(map(str, _vals(c))) + "]" for c in self.links.data) + "]>")


# ----------------------------------------------------------------------------- tiles, layouts


@irdl_attr_definition
class TileType(ParametrizedAttribute, TypeAttribute):
    """`!tt.tile<32x32, bf16>`: a tile of a data type, the element type of tiled memrefs."""

    name = "tt.tile"

    shape: ArrayAttr[IntAttr]
    data_type: DataTypeAttr

    def __init__(self, shape: Sequence[int], dtype: "str | DataType"):
        super().__init__(_ints(shape), DataTypeAttr.from_model(dtype))

    def model(self) -> Tile:
        s = _vals(self.shape)
        if len(s) != 2:
            raise VerifyException(f"a tile is 2-d, got {_shape_text(s)}")
        return verified(lambda: Tile((s[0], s[1]), self.data_type.model()))

    @classmethod
    def from_model(cls, tile: Tile) -> "TileType":
        return cls(tile.shape, tile.dtype)

    def verify(self) -> None:
        self.model()

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            shape = _parse_dims(parser, "a tile shape")
            parser.parse_punctuation(",")
            dtype = parser.parse_str_enum(DataTypeEnum)
        return (_ints(shape), DataTypeAttr(dtype))

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{_shape_text(_vals(self.shape))}, {self.data_type.data.value}>")


def element_type_of(dtype: "DataType | str") -> Attribute:
    """The builtin MLIR type of an untiled element (block floats only exist in tiles)."""
    d = get_dtype(dtype)
    types: dict[str, Attribute] = {
        "f32": Float32Type(), "f16": Float16Type(), "bf16": BFloat16Type(),
        "u32": IntegerType(32, Signedness.UNSIGNED), "u16": IntegerType(16, Signedness.UNSIGNED),
        "u8": IntegerType(8, Signedness.UNSIGNED), "si32": IntegerType(32, Signedness.SIGNED),
    }
    if d.name not in types:
        raise LayoutError(f"{d.name} elements are stored in tiles only; use a !tt.tile<32x32, {d.name}> element type")
    return types[d.name]


def dtype_of(element_type: Attribute) -> DataType:
    """The DataType of a builtin element type (f32, f16, bf16, ui32, ui16, ui8, si32/i32)."""
    if isinstance(element_type, Float32Type):
        return get_dtype("f32")
    if isinstance(element_type, Float16Type):
        return get_dtype("f16")
    if isinstance(element_type, BFloat16Type):
        return get_dtype("bf16")
    if isinstance(element_type, IntegerType):
        w, sign = element_type.width.data, element_type.signedness.data
        if sign == Signedness.UNSIGNED and w in (8, 16, 32):
            return get_dtype(f"u{w}")
        if w == 32:
            return get_dtype("si32")
    raise LayoutError(f"element type {element_type} has no tt data type; expected f32, f16, bf16, ui32, ui16, "
                      "ui8, si32 or a !tt.tile<...>")


@irdl_attr_definition
class MetalLayoutAttr(ParametrizedAttribute):
    """`#tt.metal_layout<LINEAR, OOB, <GRID>, memref<SHARD x ELEM, #tt.memory_space<MS>>>`, a tensor encoding."""

    name = "tt.metal_layout"

    linear: MapAttr
    oob: OOBValAttr
    grid: GridAttr
    memref: MemRefType

    @classmethod
    def from_model(cls, layout: MetalLayout) -> "MetalLayoutAttr":
        elem = TileType.from_model(layout.element) if isinstance(layout.element, Tile) else element_type_of(layout.element)
        memref = MemRefType(elem, layout.shard_shape, NoneAttr(), MemorySpaceAttr(MemorySpace(layout.memory_space)))
        return cls(MapAttr(layout.linear), OOBValAttr(OOBVal(layout.oob)), GridAttr(layout.grid), memref)

    def model(self) -> MetalLayout:
        cached = self.__dict__.get("_model")
        if cached is None:
            cached = self._build_model()
            object.__setattr__(self, "_model", cached)  # attributes are immutable: build once
        return cached

    def fits(self, shape: Sequence[int]) -> None:
        """Raise LayoutError unless a tensor of `shape` fits this layout (successes are remembered)."""
        shape = tuple(shape)
        ok: set[tuple[int, ...]] = self.__dict__.setdefault("_fits", set())
        if shape not in ok:
            self.model().verify_against(shape)
            ok.add(shape)

    def _build_model(self) -> MetalLayout:
        space = self.memref.memory_space
        if not isinstance(space, MemorySpaceAttr):
            raise VerifyException("the memref of a metal_layout needs a memory space, e.g. "
                                  "memref<2x2x!tt.tile<32x32, bf16>, #tt.memory_space<l1>>")
        if not isinstance(self.memref.layout, NoneAttr):
            raise VerifyException("the memref of a metal_layout must not have its own layout map")
        shard = self.memref.get_shape()
        if any(s < 0 for s in shard):
            raise VerifyException("the memref of a metal_layout must have a static shape")
        et = self.memref.element_type
        if isinstance(et, TileType):
            elem: DataType | Tile = et.model()
        else:
            elem = verified(lambda: dtype_of(et))
        if self.grid.affine_map is not None:
            raise VerifyException("the grid of a metal_layout has no map; write it as <2x4>")
        return verified(lambda: MetalLayout(self.linear.data, self.oob.data.value, self.grid.grid_shape,
                                             shard, elem, space.data.value))

    def verify(self) -> None:
        self.model()

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            linear = MapAttr(_parse_affine_map(parser))
            parser.parse_punctuation(",")
            oob = OOBValAttr(parser.parse_str_enum(OOBVal))
            parser.parse_punctuation(",")
            grid_params = GridAttr.parse_parameters(parser)
            grid = GridAttr.new(grid_params)
            parser.parse_punctuation(",")
            at = parser.pos
            memref = parser.parse_type()
            if not isinstance(memref, MemRefType):
                parser.raise_error("expected the shard as a memref<SHAPE x ELEM, #tt.memory_space<...>>", at, parser.pos)
        return (linear, oob, grid, memref)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.linear.data}, {self.oob.data.value}, <{self.grid._body()}>, ")  # pyright: ignore[reportPrivateUsage]
        printer.print_attribute(self.memref)
        printer.print_string(">")


def check_tensor_layout(t: Attribute) -> None:
    """Type checker: a tensor with a #tt.metal_layout encoding must fit it."""
    if isinstance(t, TensorType) and isinstance(t.encoding, MetalLayoutAttr):
        shape = t.get_shape()
        try:
            t.encoding.fits(shape)
        except LayoutError as e:
            raise VerifyException(f"tensor<{_shape_text(shape)}x{t.element_type}> does not match its "
                                  f"#tt.metal_layout: {e}") from e


register_type_checker(check_tensor_layout)


# ----------------------------------------------------------------------------- module attributes

DEVICE_ATTR = "tt.device"
SYSTEM_DESC_ATTR = "tt.system_desc"


def _module_model(module: ModuleOp, key: str, cls: type[DeviceAttr] | type[SystemDescAttr]):
    """The model of the module attribute `key`, which must be a `cls` when present, or None."""
    a = module.attributes.get(key)
    if a is None:
        return None
    if not isinstance(a, cls):
        raise LocatedError(f"module attribute '{key}' must be a #{cls.name}<...>, got {a}", module)
    return a.model()


def module_device(module: ModuleOp) -> Device | None:
    """The device of a module (its `tt.device` attribute), or None."""
    return _module_model(module, DEVICE_ATTR, DeviceAttr)


def module_system(module: ModuleOp) -> SystemDesc | None:
    """The system of a module (its `tt.system_desc` attribute), or None."""
    return _module_model(module, SYSTEM_DESC_ATTR, SystemDescAttr)


def set_module_device(module: ModuleOp, device: Device, sysdesc: SystemDesc | None = None) -> None:
    """Attach a device (and optionally its system) to a module, verifying one against the other."""
    sysdesc = sysdesc if sysdesc is not None else module_system(module)
    try:
        device.verify(system=sysdesc)
    except LayoutError as e:
        raise LocatedError(f"device does not fit the system: {e}", module) from e
    module.attributes[DEVICE_ATTR] = DeviceAttr.from_model(device)
    if sysdesc is not None:
        module.attributes[SYSTEM_DESC_ATTR] = SystemDescAttr.from_model(sysdesc)


def verify_module(module: ModuleOp) -> None:
    """The module's device against its system (or 8x8 chips when it has none): LocatedError if not legal."""
    device = module_device(module)
    if device is None:
        return
    sysdesc = module_system(module)
    try:
        device.verify(system=sysdesc)
    except LayoutError as e:
        where = "the module's #tt.system_desc" if sysdesc is not None else "8x8 chips (no tt.system_desc)"
        raise LocatedError(f"'{DEVICE_ATTR}' is not a legal device on {where}: {e}", module) from e


def _check_module_device(op: Operation) -> None:
    if isinstance(op, ModuleOp):
        verify_module(op)


register_op_checker(_check_module_device)


_ATTRIBUTES: list[type[Attribute]] = [
    DataTypeAttr,
    MemorySpaceAttr,
    OOBValAttr,
    MapAttr,
    GridAttr,
    DeviceAttr,
    ArchAttr,
    ChipDescAttr,
    SystemDescAttr,
    TileType,
    MetalLayoutAttr,
]
_OPS: list[type] = []


# ---- sharding annotations (issue 4) ----
# `#tt.sharding<SPEC[, mesh = MESH]>`: a tensor's sharding spec over the device mesh, in the
# grammar of meshc/layout/sharding_spec.lark (docs/distribution.md), e.g.
#   tensor<4x4xf32, #tt.sharding<[S0, R], mesh = 2x2>>
#   tensor<2x2x2xbf16, #tt.sharding<[B=2/DP=2, S=2/CP=2, M=2/TP=2]>>
#   #tt.sharding<[R, S(TP)] P(DP), mesh = [DP=2, TP=4]>
# `.spec` is the meshc.layout ShardingSpec; a tensor carrying one as its encoding must have the
# spec's rank and the sizes the named form declares (a registered type checker).

from meshc.layout.mesh import ShardingSpec as _ShShardingSpec  # noqa: E402
from meshc.layout.sharding_spec import SpecSyntaxError as _ShSpecSyntaxError  # noqa: E402
from meshc.layout.sharding_spec import format_spec as _sh_format_spec  # noqa: E402
from meshc.layout.sharding_spec import parse_spec as _sh_parse_spec  # noqa: E402


def _sh_split_mesh(body: str) -> int | None:
    """Offset of the top-level comma that starts `, mesh = ...`, or None."""
    depth = 0
    for i, c in enumerate(body):
        if c in "[(":
            depth += 1
        elif c in "])":
            depth -= 1
        elif c == "," and depth == 0:
            return i
    return None


@irdl_attr_definition
class ShardingAttr(Data[_ShShardingSpec]):
    """`#tt.sharding<[S0, R], mesh = 2x2>`: which piece of the tensor every device of the mesh holds."""

    name = "tt.sharding"

    @classmethod
    def from_model(cls, spec: _ShShardingSpec) -> "ShardingAttr":
        return cls(spec)

    @property
    def spec(self) -> _ShShardingSpec:
        return self.data

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> _ShShardingSpec:
        body_start = parser._current_token.span.start + 1  # pyright: ignore[reportPrivateUsage]
        body = parser._parse_dialect_symbol_body()  # pyright: ignore[reportPrivateUsage]
        comma = _sh_split_mesh(body)
        spec_text, mesh_text, mesh_at = body, "", 0
        if comma is not None:
            rest = body[comma + 1:]
            key = rest.lstrip()
            if not key.startswith("mesh") or not key[4:].lstrip().startswith("="):
                at = body_start + comma + 1 + (len(rest) - len(key))
                parser.raise_error("expected 'mesh = <mesh>' after the spec, e.g. mesh = 2x2 or mesh = [DP=2, TP=2]",
                                   at, at + 1)
            after_eq = key[4:].lstrip()[1:]
            mesh_text = after_eq.strip()
            mesh_at = comma + 1 + len(rest) - len(after_eq) + (len(after_eq) - len(after_eq.lstrip()))
            spec_text = body[:comma]
        text = spec_text + (" on " + mesh_text if mesh_text else "")
        try:
            return _sh_parse_spec(text)
        except _ShSpecSyntaxError as e:
            col = e.column - 1
            if col < len(spec_text):
                at = body_start + col
            else:
                at = body_start + mesh_at + max(col - len(spec_text) - 4, 0)
            parser.raise_error(f"bad sharding spec: {e.reason}", at, at + 1)
        except LayoutError as e:
            parser.raise_error(f"bad sharding spec: {e}", body_start, body_start + len(body))

    def print_parameter(self, printer: Printer) -> None:
        text = _sh_format_spec(self.data)
        if " on " in text:
            spec, mesh = text.rsplit(" on ", 1)
            text = f"{spec}, mesh = {mesh}"
        printer.print_string(f"<{text}>")


def check_sharding(t) -> None:
    """Type checker: a tensor whose encoding is a #tt.sharding has the spec's rank and declared sizes."""
    if not isinstance(t, TensorType) or not isinstance(t.encoding, ShardingAttr):
        return
    spec = t.encoding.spec
    shape = tuple(t.get_shape())
    what = f"tensor<{'x'.join(map(str, shape))}x{t.element_type}>"
    if len(shape) != spec.rank:
        raise VerifyException(f"{what} has rank {len(shape)} but its #tt.sharding spec "
                              f"{_sh_format_spec(spec, include_mesh=False)} has {spec.rank} dims")
    for d, n in enumerate(spec.dim_sizes):
        if n is not None and shape[d] >= 0 and shape[d] != n:
            raise VerifyException(f"{what}: its #tt.sharding declares dim {spec.dim_names[d]} of size {n}, "
                                  f"the tensor has {shape[d]}")


register_type_checker(check_sharding)
_ATTRIBUTES.append(ShardingAttr)


TT = Dialect("tt", _OPS, _ATTRIBUTES)
