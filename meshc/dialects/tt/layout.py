"""tt tiles and tensor layouts: `!tt.tile<32x32, bf16>`, `#tt.metal_layout<...>`, and the
builtin element type <-> data type conversions; a tensor whose encoding is a metal layout is
checked against it (a registered type checker)."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    ArrayAttr,
    IntAttr,
    MemRefType,
    NoneAttr,
    TensorType,
)
from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from meshc.dialects.checkers import register_type_checker
from meshc.dialects.element_types import data_type_name, element_type_of
from meshc.dialects.syntax import verified
from meshc.dialects.tt.enums import (
    DataTypeAttr,
    DataTypeEnum,
    MemorySpace,
    MemorySpaceAttr,
    OOBVal,
    OOBValAttr,
)
from meshc.dialects.tt.grid import GridAttr, MapAttr
from meshc.dialects.tt.parsing import int_array, parse_affine_map, parse_dims, array_ints
from meshc.dialects.tt.model_cache import cached_model
from meshc.layout.dtypes import DataType, get_dtype
from meshc.layout.errors import LayoutError
from meshc.layout.metal_layout import MetalLayout, Tile
from meshc.layout.shapes import fmt_shape


@irdl_attr_definition
class TileType(ParametrizedAttribute, TypeAttribute):
    """`!tt.tile<32x32, bf16>`: a tile of a data type, the element type of tiled memrefs."""

    name = "tt.tile"

    shape: ArrayAttr[IntAttr]
    data_type: DataTypeAttr

    def __init__(self, shape: Sequence[int], dtype: "str | DataType"):
        super().__init__(int_array(shape), DataTypeAttr.from_model(dtype))

    def model(self) -> Tile:
        s = array_ints(self.shape)
        if len(s) != 2:
            raise VerifyException(f"a tile is 2-d, got {fmt_shape(s)}")
        return verified(lambda: Tile((s[0], s[1]), self.data_type.model()))

    @classmethod
    def from_model(cls, tile: Tile) -> "TileType":
        return cls(tile.shape, tile.dtype)

    def verify(self) -> None:
        self.model()

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            shape = parse_dims(parser, "a tile shape")
            parser.parse_punctuation(",")
            dtype = parser.parse_str_enum(DataTypeEnum)
        return (int_array(shape), DataTypeAttr(dtype))

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{fmt_shape(array_ints(self.shape))}, {self.data_type.data.value}>")


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
        return cached_model(self, self._build_model)

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
            name = data_type_name(et)
            if name is None:
                raise VerifyException(f"element type {et} has no tt data type; expected f32, f16, bf16, ui32, ui16, "
                                      "ui8, si32 or a !tt.tile<...>")
            elem = get_dtype(name)
        if self.grid.affine_map is not None:
            raise VerifyException("the grid of a metal_layout has no map; write it as <2x4>")
        return verified(lambda: MetalLayout(self.linear.data, self.oob.data.value, self.grid.grid_shape,
                                             shard, elem, space.data.value))

    def verify(self) -> None:
        self.model()

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            linear = MapAttr(parse_affine_map(parser))
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
            raise VerifyException(f"tensor<{fmt_shape(shape)}x{t.element_type}> does not match its "
                                  f"#tt.metal_layout: {e}") from e


register_type_checker(check_tensor_layout)
