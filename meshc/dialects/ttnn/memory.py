"""ttnn memory attributes: where a tensor lives on one chip.

Buffer type, memory layout, shard spec (core range set, shard shape, orientation), memory
config, and the `#ttnn.ttnn_layout` tensor encoding. Each converts to and from its meshc.layout
model; a tensor with a ttnn_layout is checked by placing it (meshc.layout.placement.place), so
a shard spec that does not fit is an error. Core coordinates are (y, x), as everywhere in meshc."""

from __future__ import annotations

from functools import lru_cache
from typing import ClassVar

from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    IntAttr,
    MemRefType,
    NoneAttr,
    StringAttr,
    TensorType,
)
from xdsl.ir import Data, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from meshc.dialects.checkers import register_type_checker
from meshc.dialects.element_types import data_type_name
from meshc.dialects.syntax import AngleBody, verified
from meshc.dialects.tt.layout import TileType
from meshc.layout import memory_config as mc
from meshc.layout.errors import LayoutError
from meshc.layout.shapes import fmt_shape
from meshc.layout.dtypes import get_dtype
from meshc.layout.tensor_layout import check_tile
from meshc.layout.placement import place
from meshc.layout.hardware import DEFAULT_ARCH







class _KeywordAttr(AngleBody, Data[str]):
    """An attribute that is one keyword of a fixed set, printed `#ttnn.name<keyword>`."""

    KEYWORDS: ClassVar[tuple[str, ...]] = ()

    def __init__(self, data: str):
        super().__init__(data)

    def verify(self) -> None:
        if self.data not in self.KEYWORDS:
            raise VerifyException(f"{self.name} must be one of {', '.join(self.KEYWORDS)}; got '{self.data}'")

    @classmethod
    def parse_body(cls, parser: AttrParser) -> str:
        span = parser._current_token.span
        word = parser.parse_optional_identifier()
        if word not in cls.KEYWORDS:
            parser.raise_error(f"expected one of {', '.join(cls.KEYWORDS)} for {cls.name}"
                               + (f", got '{word}'" if word else ""), span.start, span.end)
        return word  # type: ignore[return-value]


@irdl_attr_definition
class BufferTypeAttr(_KeywordAttr):
    """`#ttnn.buffer_type<l1|dram|system_memory>`: the memory a tensor is in."""

    name = "ttnn.buffer_type"
    KEYWORDS = ("l1", "dram", "system_memory")


@irdl_attr_definition
class TensorMemoryLayoutAttr(_KeywordAttr):
    """`#ttnn.tensor_memory_layout<interleaved|height_sharded|...>`: how pages spread over banks/cores."""

    name = "ttnn.tensor_memory_layout"
    KEYWORDS = mc.LAYOUTS


@irdl_attr_definition
class ShardOrientationAttr(_KeywordAttr):
    """`#ttnn.shard_orientation<row_major|col_major>`: the order shards take the cores in."""

    name = "ttnn.shard_orientation"
    KEYWORDS = mc.ORIENTATIONS


def _parse_core(parser: AttrParser) -> tuple[int, int]:
    parser.parse_punctuation("(")
    y = parser.parse_integer(allow_boolean=False, allow_negative=False)
    parser.parse_punctuation(",")
    x = parser.parse_integer(allow_boolean=False, allow_negative=False)
    parser.parse_punctuation(")")
    return y, x


@irdl_attr_definition
class CoreRangeAttr(ParametrizedAttribute):
    """`#ttnn.core_range<(y0, x0), (y1, x1)>`: a rectangle of cores, both corners included."""

    name = "ttnn.core_range"
    start_y: IntAttr
    start_x: IntAttr
    end_y: IntAttr
    end_x: IntAttr

    def __init__(self, start: tuple[int, int], end: tuple[int, int]):
        super().__init__(IntAttr(start[0]), IntAttr(start[1]), IntAttr(end[0]), IntAttr(end[1]))

    def verify(self) -> None:
        super().verify()
        self.model()

    def model(self) -> mc.CoreRange:
        return verified(lambda: mc.CoreRange((self.start_y.data, self.start_x.data),
                                               (self.end_y.data, self.end_x.data)))

    @classmethod
    def from_model(cls, r: mc.CoreRange) -> "CoreRangeAttr":
        return cls(r.start, r.end)

    @classmethod
    def parse_parameters(cls, parser: AttrParser):
        with parser.in_angle_brackets():
            s = _parse_core(parser)
            parser.parse_punctuation(",")
            e = _parse_core(parser)
        return [IntAttr(s[0]), IntAttr(s[1]), IntAttr(e[0]), IntAttr(e[1])]

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<({self.start_y.data}, {self.start_x.data}), ({self.end_y.data}, {self.end_x.data})>")


@irdl_attr_definition
class CoreRangeSetAttr(ParametrizedAttribute):
    """`#ttnn.core_range_set<[#ttnn.core_range<...>, ...]>`: disjoint core ranges, in order."""

    name = "ttnn.core_range_set"
    ranges: ArrayAttr[CoreRangeAttr]

    def __init__(self, ranges):
        super().__init__(ArrayAttr(list(ranges)))

    def verify(self) -> None:
        super().verify()
        self.model()

    def model(self) -> mc.CoreRangeSet:
        return verified(lambda: mc.CoreRangeSet(tuple(r.model() for r in self.ranges.data)))

    @classmethod
    def from_model(cls, crs) -> "CoreRangeSetAttr":
        crs = mc.CoreRangeSet.of(crs)
        return cls([CoreRangeAttr.from_model(r) for r in crs.ranges])

    @classmethod
    def parse_parameters(cls, parser: AttrParser):
        with parser.in_angle_brackets():
            ranges = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_attribute)
        for r in ranges:
            if not isinstance(r, CoreRangeAttr):
                parser.raise_error(f"a core range set holds #ttnn.core_range attributes; got {r}")
        return [ArrayAttr(ranges)]

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<[")
        printer.print_list(self.ranges.data, printer.print_attribute)
        printer.print_string("]>")


def _parse_shape(parser: AttrParser) -> list[int]:
    with parser.in_angle_brackets():
        dims = parser.parse_dimension_list()
    if not dims:
        parser.raise_error("expected a shape like <32x64>")
    return dims


@irdl_attr_definition
class ShardSpecAttr(ParametrizedAttribute):
    """`#ttnn.shard_spec<#ttnn.core_range_set<[...]>, <HxW>, <row_major|col_major>>` (shape in elements)."""

    name = "ttnn.shard_spec"
    core_range_set: CoreRangeSetAttr
    shard_shape: ArrayAttr[IntAttr]
    orientation: ShardOrientationAttr

    def __init__(self, core_range_set: CoreRangeSetAttr, shard_shape, orientation: str = "row_major"):
        super().__init__(core_range_set, ArrayAttr([IntAttr(v) for v in shard_shape]),
                         ShardOrientationAttr(orientation))

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(v.data for v in self.shard_shape.data)

    def verify(self) -> None:
        super().verify()
        if any(v <= 0 for v in self.shape):
            raise VerifyException(f"shard shape {fmt_shape(self.shape)} must have positive extents")

    def model(self) -> mc.ShardSpec:
        return mc.ShardSpec(self.core_range_set.model(), self.shape, self.orientation.data)

    @classmethod
    def from_model(cls, spec: mc.ShardSpec) -> "ShardSpecAttr":
        if spec.shard_shape is None:
            raise LayoutError("a #ttnn.shard_spec needs a shard shape; place() the tensor to derive one")
        return cls(CoreRangeSetAttr.from_model(spec.grid), spec.shard_shape, spec.orientation)

    @classmethod
    def parse_parameters(cls, parser: AttrParser):
        with parser.in_angle_brackets():
            crs = parser.parse_attribute()
            if not isinstance(crs, CoreRangeSetAttr):
                parser.raise_error(f"a shard spec starts with a #ttnn.core_range_set; got {crs}")
            parser.parse_punctuation(",")
            shape = _parse_shape(parser)
            parser.parse_punctuation(",")
            orientation = ShardOrientationAttr.parse_parameter(parser)
        return [crs, ArrayAttr([IntAttr(v) for v in shape]), ShardOrientationAttr(orientation)]

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_attribute(self.core_range_set)
        printer.print_string(f", <{fmt_shape(self.shape)}>, <{self.orientation.data}>>")


@irdl_attr_definition
class MemoryConfigAttr(ParametrizedAttribute):
    """`#ttnn.memory_config<#ttnn.buffer_type<...>, <layout>[, #ttnn.shard_spec<...>]>`."""

    name = "ttnn.memory_config"
    buffer_type: BufferTypeAttr
    memory_layout: TensorMemoryLayoutAttr
    shard_spec: ShardSpecAttr | NoneAttr

    def __init__(self, buffer_type: str, memory_layout: str, shard_spec: ShardSpecAttr | None = None):
        super().__init__(BufferTypeAttr(buffer_type), TensorMemoryLayoutAttr(memory_layout),
                         shard_spec if shard_spec is not None else NoneAttr())

    def verify(self) -> None:
        super().verify()
        buf, lay = self.buffer_type.data, self.memory_layout.data
        spec = self.shard_spec
        if lay == "interleaved" and isinstance(spec, ShardSpecAttr):
            raise VerifyException("an interleaved memory config spreads pages over every bank: "
                                      "it takes no #ttnn.shard_spec")
        if lay != "interleaved" and not isinstance(spec, ShardSpecAttr):
            raise VerifyException(f"a {lay} memory config needs a #ttnn.shard_spec (cores, shard shape, orientation)")
        if buf == "system_memory":
            if lay != "interleaved":
                raise VerifyException(f"system_memory is host memory: it cannot be {lay}; use l1 or dram")
            return
        self.model()

    def model(self) -> mc.MemoryConfig:
        """The meshc.layout MemoryConfig (system_memory has none: it is host memory)."""
        if self.buffer_type.data == "system_memory":
            raise VerifyException("system_memory is host memory: it has no device memory config")
        spec = self.shard_spec
        if isinstance(spec, ShardSpecAttr):
            s = spec.model()
            return verified(lambda: mc.MemoryConfig(self.buffer_type.data, self.memory_layout.data,
                                                      s.grid, s.shard_shape, s.orientation))
        return verified(lambda: mc.MemoryConfig(self.buffer_type.data, self.memory_layout.data))

    @classmethod
    def from_model(cls, m: mc.MemoryConfig) -> "MemoryConfigAttr":
        spec = m.shard_spec
        return cls(m.buffer, m.layout, ShardSpecAttr.from_model(spec) if spec is not None else None)

    @property
    def is_host(self) -> bool:
        return self.buffer_type.data == "system_memory"

    @classmethod
    def parse_parameters(cls, parser: AttrParser):
        with parser.in_angle_brackets():
            buf = parser.parse_attribute()
            if not isinstance(buf, BufferTypeAttr):
                parser.raise_error(f"a memory config starts with a #ttnn.buffer_type; got {buf}")
            parser.parse_punctuation(",")
            lay = TensorMemoryLayoutAttr.parse_parameter(parser)
            spec = NoneAttr()
            if parser.parse_optional_punctuation(","):
                spec = parser.parse_attribute()
                if not isinstance(spec, ShardSpecAttr):
                    parser.raise_error(f"expected a #ttnn.shard_spec after the memory layout; got {spec}")
        return [buf, TensorMemoryLayoutAttr(lay), spec]

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_attribute(self.buffer_type)
        printer.print_string(f", <{self.memory_layout.data}>")
        if isinstance(self.shard_spec, ShardSpecAttr):
            printer.print_string(", ")
            printer.print_attribute(self.shard_spec)
        printer.print_string(">")


@irdl_attr_definition
class TTNNLayoutAttr(ParametrizedAttribute):
    """`#ttnn.ttnn_layout<tile<32x32>|row_major, DTYPE, #ttnn.memory_config<...>>`: a tensor encoding.

    DTYPE is the storage data type (f32, f16, bf16, bfp_bf8, bfp_bf4, u32, u16, u8, si32); it
    may differ from the tensor's element type (a bf16 tensor stored as bfp_bf8) but not in kind
    (float vs integer).
    """

    name = "ttnn.ttnn_layout"
    tile: ArrayAttr[IntAttr]
    """Tile shape (rows, cols); empty for row-major."""
    data_type: StringAttr
    memory_config: MemoryConfigAttr

    def __init__(self, tile, data_type: str, memory_config: MemoryConfigAttr):
        t = [] if tile is None else [IntAttr(v) for v in tile]
        super().__init__(ArrayAttr(t), StringAttr(data_type), memory_config)

    @property
    def tile_shape(self) -> tuple[int, int] | None:
        t = tuple(v.data for v in self.tile.data)
        return t if t else None  # type: ignore[return-value]

    def verify(self) -> None:
        super().verify()
        d = verified(lambda: get_dtype(self.data_type.data))
        verified(lambda: check_tile(self.tile_shape))
        if d.is_block_float and self.tile_shape is None:
            raise VerifyException(f"{d.name} is a block float, stored in tiles: a row_major layout cannot hold it")

    def model(self) -> tuple[tuple[int, int] | None, str, mc.MemoryConfig]:
        """(tile or None, data type name, MemoryConfig)."""
        return self.tile_shape, self.data_type.data, self.memory_config.model()

    @classmethod
    def from_model(cls, tile, data_type: str, memory_config: mc.MemoryConfig) -> "TTNNLayoutAttr":
        return cls(tile, data_type, MemoryConfigAttr.from_model(memory_config))

    def place(self, shape, arch: str = DEFAULT_ARCH):
        """The Placement of a tensor of this shape (raises LayoutError when it does not fit)."""
        tile, dt, cfg = self.model()
        return place(tuple(shape), dt, cfg, tile=tile, arch=arch)

    @classmethod
    def parse_parameters(cls, parser: AttrParser):
        with parser.in_angle_brackets():
            kind = parser.parse_optional_identifier()
            if kind is None:  # tt-mlir's form opens with its linear map: `(d0, d1) -> (d0, d1)`
                return _parse_ttmlir_layout(parser)
            if kind == "tile":
                tile = _parse_shape(parser)
            elif kind == "row_major":
                tile = []
            else:
                parser.raise_error("a ttnn_layout starts with tile<RxC> or row_major")
            parser.parse_punctuation(",")
            dt = parser.parse_identifier(" (the data type, e.g. bf16)")
            parser.parse_punctuation(",")
            mem = parser.parse_attribute()
            if not isinstance(mem, MemoryConfigAttr):
                parser.raise_error(f"a ttnn_layout ends with a #ttnn.memory_config; got {mem}")
        return [ArrayAttr([IntAttr(v) for v in tile]), StringAttr(dt), mem]

    def print_parameters(self, printer: Printer) -> None:
        t = self.tile_shape
        printer.print_string(f"<tile<{t[0]}x{t[1]}>, " if t else "<row_major, ")
        printer.print_string(f"{self.data_type.data}, ")
        printer.print_attribute(self.memory_config)
        printer.print_string(">")


def _parse_ttmlir_layout(parser: AttrParser) -> list:
    """The rest of tt-mlir's `#ttnn.ttnn_layout<MAP, <GRID>, [mesh = M,] memref<SHARD x ELEM, #BUF>
    [, <LAYOUT>][, core_ranges = ...][, ignorePhysicalLayout = B]>` after the map's `(`, as
    meshc's parameters: the tile and data type from the memref's element (`!ttcore.tile<32x32,
    bf16>` or a scalar type for row-major), the buffer from its memory space, and for a sharded
    layout the core grid and the shard (the memref's shape, in tiles for a tiled element)."""
    start = parser.pos
    linear = parser.parse_affine_map()
    if len(linear.results) != 2:
        parser.raise_error(f"the ttnn_layout's map {linear} collapses the tensor onto {len(linear.results)} dims; "
                           "meshc places tensors on a 2-D grid (outer dims folded into the rows)", start, parser.pos)
    parser.parse_punctuation(",")
    grid = _parse_shape(parser)
    parser.parse_punctuation(",")
    if parser.parse_optional_keyword("mesh") is not None:
        parser.raise_error("a ttnn_layout with a tensor mesh (`mesh = ...`) is not supported: meshc carries "
                           "a tensor's mesh placement on its ttnn.distribute_tensor")
    memref = parser.parse_type()
    if not isinstance(memref, MemRefType) or not isinstance(memref.memory_space, BufferTypeAttr):
        parser.raise_error(f"expected memref<SHARDxELEM, #ttnn.buffer_type<...>> in a ttnn_layout; got {memref}")
    layout = "interleaved"
    while parser.parse_optional_punctuation(",") is not None:
        if parser.parse_optional_punctuation("<") is not None:
            layout = parser.parse_identifier(" (the memory layout, e.g. interleaved)")
            parser.parse_punctuation(">")
        else:
            key = parser.parse_identifier(" (core_ranges or ignorePhysicalLayout)")
            parser.raise_error(f"a ttnn_layout with `{key} = ...` is not supported; meshc reads the map, grid, "
                               "memref and memory layout")
    elem = memref.element_type
    tile = list(elem.model().shape) if isinstance(elem, TileType) else []
    dtype = elem.data_type.data.value if isinstance(elem, TileType) else data_type_name(elem)
    if dtype is None:
        parser.raise_error(f"the memref element {elem} is no data type a device holds")
    buffer = memref.memory_space.data
    shard = tuple(memref.get_shape())
    if tile:
        shard = tuple(s * d for s, d in zip(shard[-2:], tile))
    try:
        if buffer == "system_memory" or layout == "interleaved":
            config = MemoryConfigAttr(buffer, layout)
        else:
            config = MemoryConfigAttr.from_model(mc.MemoryConfig(buffer, layout, grid=tuple(grid[-2:]),
                                                                 shard_shape=shard[-2:]))
    except (LayoutError, VerifyException) as e:
        parser.raise_error(f"invalid ttnn_layout: {e}")
    return [ArrayAttr([IntAttr(v) for v in tile]), StringAttr(dtype), config]


def result_placement(op, default, result: int = 0):
    """(MemoryConfig, tile or None) where a ttnn op puts its result `result`: the result's
    `#ttnn.ttnn_layout` (tile and memory config), then the op's `memory_config` attribute (the
    memory config); what they leave open comes from `default`, a (MemoryConfig, tile) pair.
    The simulator places results this way and the compile-time L1 check counts them this way."""
    config, tile = default
    if len(op.results) > result:
        enc = getattr(op.results[result].type, "encoding", None)
        if isinstance(enc, TTNNLayoutAttr) and not enc.memory_config.is_host:
            tile, _dtype, config = enc.model()
    attr = op.attributes.get("memory_config")
    if isinstance(attr, MemoryConfigAttr) and not attr.is_host:
        config = attr.model()
    return config, tile


@lru_cache(maxsize=256)
def _check_placement(shape: tuple[int, ...], layout: TTNNLayoutAttr) -> None:
    layout.place(shape)


def check_ttnn_layout(t) -> None:
    """Type checker: a tensor with a #ttnn.ttnn_layout must fit it (shard spec, grid, capacity)."""
    if not isinstance(t, TensorType) or not isinstance(t.encoding, TTNNLayoutAttr):
        return
    enc: TTNNLayoutAttr = t.encoding
    shape = tuple(t.get_shape())

    def what() -> str:  # built only for a message: printing a type is slow
        return f"tensor<{fmt_shape(shape)}x{t.element_type}>"

    if any(d < 0 for d in shape):
        raise VerifyException(f"{what()} with a #ttnn.ttnn_layout must have a static shape")
    d = get_dtype(enc.data_type.data)
    elt_is_float = isinstance(t.element_type, AnyFloat)
    if elt_is_float != d.is_float:
        kind = "a float" if elt_is_float else "an integer"
        raise VerifyException(f"{what()} cannot be stored as {d.name}: {kind} tensor needs {kind} data type "
                                  "in its ttnn_layout")
    if enc.memory_config.is_host:
        return
    try:
        _check_placement(shape, enc)
    except LayoutError as e:
        raise VerifyException(f"{what()} does not fit its #ttnn.ttnn_layout: {e}") from None



register_type_checker(check_ttnn_layout)
