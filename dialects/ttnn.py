"""The ttnn dialect: memory configs, mesh distribution attributes and TTNN-level ops.

The file has three sections, each owned by one part of meshc; each appends its classes to
`_ATTRIBUTES` / `_OPS`, and the `Dialect` object at the end is built from those lists.
"""

from __future__ import annotations

from xdsl.ir import Dialect

_ATTRIBUTES: list = []
_OPS: list = []

# ---- memory attributes (issue 3) ----
# Where a tensor lives on one chip: buffer type, memory layout, shard spec (core range set,
# shard shape, orientation), memory config, and the `#ttnn.ttnn_layout` tensor encoding.
# Each converts to and from its meshc.layout model; a tensor with a ttnn_layout is checked by
# placing it (meshc.layout.placement.place), so a shard spec that does not fit is an error.
# Core coordinates are (y, x), as everywhere in meshc.

from functools import lru_cache as _lru_cache  # noqa: E402
from typing import ClassVar as _ClassVar  # noqa: E402

from xdsl.dialects.builtin import (  # noqa: E402
    ArrayAttr as _ArrayAttr,
    IntAttr as _IntAttr,
    NoneAttr as _NoneAttr,
    StringAttr as _MemStringAttr,
    TensorType as _TensorType,
    AnyFloat as _AnyFloat,
)
from xdsl.ir import Data as _Data, ParametrizedAttribute as _MemPAttr  # noqa: E402
from xdsl.irdl import irdl_attr_definition as _mem_attr_definition  # noqa: E402
from xdsl.parser import AttrParser as _AttrParser  # noqa: E402
from xdsl.printer import Printer as _Printer  # noqa: E402
from xdsl.utils.exceptions import VerifyException as _MemVerifyException  # noqa: E402

from meshc.dialects.syntax import AngleBody as _AngleBody, verified as _verified  # noqa: E402
from meshc.layout import memory_config as _mc  # noqa: E402
from meshc.layout.errors import LayoutError as _LayoutError  # noqa: E402


class _KeywordAttr(_AngleBody, _Data[str]):
    """An attribute that is one keyword of a fixed set, printed `#ttnn.name<keyword>`."""

    KEYWORDS: _ClassVar[tuple[str, ...]] = ()

    def __init__(self, data: str):
        super().__init__(data)

    def verify(self) -> None:
        if self.data not in self.KEYWORDS:
            raise _MemVerifyException(f"{self.name} must be one of {', '.join(self.KEYWORDS)}; got '{self.data}'")

    @classmethod
    def parse_body(cls, parser: _AttrParser) -> str:
        span = parser._current_token.span
        word = parser.parse_optional_identifier()
        if word not in cls.KEYWORDS:
            parser.raise_error(f"expected one of {', '.join(cls.KEYWORDS)} for {cls.name}"
                               + (f", got '{word}'" if word else ""), span.start, span.end)
        return word  # type: ignore[return-value]


@_mem_attr_definition
class BufferTypeAttr(_KeywordAttr):
    """`#ttnn.buffer_type<l1|dram|system_memory>`: the memory a tensor is in."""

    name = "ttnn.buffer_type"
    KEYWORDS = ("l1", "dram", "system_memory")


@_mem_attr_definition
class TensorMemoryLayoutAttr(_KeywordAttr):
    """`#ttnn.tensor_memory_layout<interleaved|height_sharded|...>`: how pages spread over banks/cores."""

    name = "ttnn.tensor_memory_layout"
    KEYWORDS = _mc.LAYOUTS


@_mem_attr_definition
class ShardOrientationAttr(_KeywordAttr):
    """`#ttnn.shard_orientation<row_major|col_major>`: the order shards take the cores in."""

    name = "ttnn.shard_orientation"
    KEYWORDS = _mc.ORIENTATIONS


def _parse_core(parser: _AttrParser) -> tuple[int, int]:
    parser.parse_punctuation("(")
    y = parser.parse_integer(allow_boolean=False, allow_negative=False)
    parser.parse_punctuation(",")
    x = parser.parse_integer(allow_boolean=False, allow_negative=False)
    parser.parse_punctuation(")")
    return y, x


@_mem_attr_definition
class CoreRangeAttr(_MemPAttr):
    """`#ttnn.core_range<(y0, x0), (y1, x1)>`: a rectangle of cores, both corners included."""

    name = "ttnn.core_range"
    start_y: _IntAttr
    start_x: _IntAttr
    end_y: _IntAttr
    end_x: _IntAttr

    def __init__(self, start: tuple[int, int], end: tuple[int, int]):
        super().__init__(_IntAttr(start[0]), _IntAttr(start[1]), _IntAttr(end[0]), _IntAttr(end[1]))

    def verify(self) -> None:
        super().verify()
        self.model()

    def model(self) -> _mc.CoreRange:
        return _verified(lambda: _mc.CoreRange((self.start_y.data, self.start_x.data),
                                               (self.end_y.data, self.end_x.data)))

    @classmethod
    def from_model(cls, r: _mc.CoreRange) -> "CoreRangeAttr":
        return cls(r.start, r.end)

    @classmethod
    def parse_parameters(cls, parser: _AttrParser):
        with parser.in_angle_brackets():
            s = _parse_core(parser)
            parser.parse_punctuation(",")
            e = _parse_core(parser)
        return [_IntAttr(s[0]), _IntAttr(s[1]), _IntAttr(e[0]), _IntAttr(e[1])]

    def print_parameters(self, printer: _Printer) -> None:
        printer.print_string(f"<({self.start_y.data}, {self.start_x.data}), ({self.end_y.data}, {self.end_x.data})>")


@_mem_attr_definition
class CoreRangeSetAttr(_MemPAttr):
    """`#ttnn.core_range_set<[#ttnn.core_range<...>, ...]>`: disjoint core ranges, in order."""

    name = "ttnn.core_range_set"
    ranges: _ArrayAttr[CoreRangeAttr]

    def __init__(self, ranges):
        super().__init__(_ArrayAttr(list(ranges)))

    def verify(self) -> None:
        super().verify()
        self.model()

    def model(self) -> _mc.CoreRangeSet:
        return _verified(lambda: _mc.CoreRangeSet(tuple(r.model() for r in self.ranges.data)))

    @classmethod
    def from_model(cls, crs) -> "CoreRangeSetAttr":
        crs = _mc.CoreRangeSet.of(crs)
        return cls([CoreRangeAttr.from_model(r) for r in crs.ranges])

    @classmethod
    def parse_parameters(cls, parser: _AttrParser):
        with parser.in_angle_brackets():
            ranges = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_attribute)
        for r in ranges:
            if not isinstance(r, CoreRangeAttr):
                parser.raise_error(f"a core range set holds #ttnn.core_range attributes; got {r}")
        return [_ArrayAttr(ranges)]

    def print_parameters(self, printer: _Printer) -> None:
        printer.print_string("<[")
        printer.print_list(self.ranges.data, printer.print_attribute)
        printer.print_string("]>")


def _parse_shape(parser: _AttrParser) -> list[int]:
    with parser.in_angle_brackets():
        dims = parser.parse_dimension_list()
    if not dims:
        parser.raise_error("expected a shape like <32x64>")
    return dims


@_mem_attr_definition
class ShardSpecAttr(_MemPAttr):
    """`#ttnn.shard_spec<#ttnn.core_range_set<[...]>, <HxW>, <row_major|col_major>>` (shape in elements)."""

    name = "ttnn.shard_spec"
    core_range_set: CoreRangeSetAttr
    shard_shape: _ArrayAttr[_IntAttr]
    orientation: ShardOrientationAttr

    def __init__(self, core_range_set: CoreRangeSetAttr, shard_shape, orientation: str = "row_major"):
        super().__init__(core_range_set, _ArrayAttr([_IntAttr(v) for v in shard_shape]),
                         ShardOrientationAttr(orientation))

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(v.data for v in self.shard_shape.data)

    def verify(self) -> None:
        super().verify()
        if any(v <= 0 for v in self.shape):
            raise _MemVerifyException(f"shard shape {'x'.join(map(str, self.shape))} must have positive extents")

    def model(self) -> _mc.ShardSpec:
        return _mc.ShardSpec(self.core_range_set.model(), self.shape, self.orientation.data)

    @classmethod
    def from_model(cls, spec: _mc.ShardSpec) -> "ShardSpecAttr":
        if spec.shard_shape is None:
            raise _LayoutError("a #ttnn.shard_spec needs a shard shape; place() the tensor to derive one")
        return cls(CoreRangeSetAttr.from_model(spec.grid), spec.shard_shape, spec.orientation)

    @classmethod
    def parse_parameters(cls, parser: _AttrParser):
        with parser.in_angle_brackets():
            crs = parser.parse_attribute()
            if not isinstance(crs, CoreRangeSetAttr):
                parser.raise_error(f"a shard spec starts with a #ttnn.core_range_set; got {crs}")
            parser.parse_punctuation(",")
            shape = _parse_shape(parser)
            parser.parse_punctuation(",")
            orientation = ShardOrientationAttr.parse_parameter(parser)
        return [crs, _ArrayAttr([_IntAttr(v) for v in shape]), ShardOrientationAttr(orientation)]

    def print_parameters(self, printer: _Printer) -> None:
        printer.print_string("<")
        printer.print_attribute(self.core_range_set)
        printer.print_string(f", <{'x'.join(map(str, self.shape))}>, <{self.orientation.data}>>")


@_mem_attr_definition
class MemoryConfigAttr(_MemPAttr):
    """`#ttnn.memory_config<#ttnn.buffer_type<...>, <layout>[, #ttnn.shard_spec<...>]>`."""

    name = "ttnn.memory_config"
    buffer_type: BufferTypeAttr
    memory_layout: TensorMemoryLayoutAttr
    shard_spec: ShardSpecAttr | _NoneAttr

    def __init__(self, buffer_type: str, memory_layout: str, shard_spec: ShardSpecAttr | None = None):
        super().__init__(BufferTypeAttr(buffer_type), TensorMemoryLayoutAttr(memory_layout),
                         shard_spec if shard_spec is not None else _NoneAttr())

    def verify(self) -> None:
        super().verify()
        buf, lay = self.buffer_type.data, self.memory_layout.data
        spec = self.shard_spec
        if lay == "interleaved" and isinstance(spec, ShardSpecAttr):
            raise _MemVerifyException("an interleaved memory config spreads pages over every bank: "
                                      "it takes no #ttnn.shard_spec")
        if lay != "interleaved" and not isinstance(spec, ShardSpecAttr):
            raise _MemVerifyException(f"a {lay} memory config needs a #ttnn.shard_spec (cores, shard shape, orientation)")
        if buf == "system_memory":
            if lay != "interleaved":
                raise _MemVerifyException(f"system_memory is host memory: it cannot be {lay}; use l1 or dram")
            return
        self.model()

    def model(self) -> _mc.MemoryConfig:
        """The meshc.layout MemoryConfig (system_memory has none: it is host memory)."""
        if self.buffer_type.data == "system_memory":
            raise _MemVerifyException("system_memory is host memory: it has no device memory config")
        spec = self.shard_spec
        if isinstance(spec, ShardSpecAttr):
            s = spec.model()
            return _verified(lambda: _mc.MemoryConfig(self.buffer_type.data, self.memory_layout.data,
                                                      s.grid, s.shard_shape, s.orientation))
        return _verified(lambda: _mc.MemoryConfig(self.buffer_type.data, self.memory_layout.data))

    @classmethod
    def from_model(cls, m: _mc.MemoryConfig) -> "MemoryConfigAttr":
        spec = m.shard_spec
        return cls(m.buffer, m.layout, ShardSpecAttr.from_model(spec) if spec is not None else None)

    @property
    def is_host(self) -> bool:
        return self.buffer_type.data == "system_memory"

    @classmethod
    def parse_parameters(cls, parser: _AttrParser):
        with parser.in_angle_brackets():
            buf = parser.parse_attribute()
            if not isinstance(buf, BufferTypeAttr):
                parser.raise_error(f"a memory config starts with a #ttnn.buffer_type; got {buf}")
            parser.parse_punctuation(",")
            lay = TensorMemoryLayoutAttr.parse_parameter(parser)
            spec = _NoneAttr()
            if parser.parse_optional_punctuation(","):
                spec = parser.parse_attribute()
                if not isinstance(spec, ShardSpecAttr):
                    parser.raise_error(f"expected a #ttnn.shard_spec after the memory layout; got {spec}")
        return [buf, TensorMemoryLayoutAttr(lay), spec]

    def print_parameters(self, printer: _Printer) -> None:
        printer.print_string("<")
        printer.print_attribute(self.buffer_type)
        printer.print_string(f", <{self.memory_layout.data}>")
        if isinstance(self.shard_spec, ShardSpecAttr):
            printer.print_string(", ")
            printer.print_attribute(self.shard_spec)
        printer.print_string(">")


@_mem_attr_definition
class TTNNLayoutAttr(_MemPAttr):
    """`#ttnn.ttnn_layout<tile<32x32>|row_major, DTYPE, #ttnn.memory_config<...>>`: a tensor encoding.

    DTYPE is the storage data type (f32, f16, bf16, bfp_bf8, bfp_bf4, u32, u16, u8, si32); it
    may differ from the tensor's element type (a bf16 tensor stored as bfp_bf8) but not in kind
    (float vs integer).
    """

    name = "ttnn.ttnn_layout"
    tile: _ArrayAttr[_IntAttr]
    """Tile shape (rows, cols); empty for row-major."""
    data_type: _MemStringAttr
    memory_config: MemoryConfigAttr

    def __init__(self, tile, data_type: str, memory_config: MemoryConfigAttr):
        t = [] if tile is None else [_IntAttr(v) for v in tile]
        super().__init__(_ArrayAttr(t), _MemStringAttr(data_type), memory_config)

    @property
    def tile_shape(self) -> tuple[int, int] | None:
        t = tuple(v.data for v in self.tile.data)
        return t if t else None  # type: ignore[return-value]

    def verify(self) -> None:
        super().verify()
        from meshc.layout.dtypes import get_dtype
        from meshc.layout.tensor_layout import check_tile

        d = _verified(lambda: get_dtype(self.data_type.data))
        _verified(lambda: check_tile(self.tile_shape))
        if d.is_block_float and self.tile_shape is None:
            raise _MemVerifyException(f"{d.name} is a block float, stored in tiles: a row_major layout cannot hold it")

    def model(self) -> tuple[tuple[int, int] | None, str, _mc.MemoryConfig]:
        """(tile or None, data type name, MemoryConfig)."""
        return self.tile_shape, self.data_type.data, self.memory_config.model()

    @classmethod
    def from_model(cls, tile, data_type: str, memory_config: _mc.MemoryConfig) -> "TTNNLayoutAttr":
        return cls(tile, data_type, MemoryConfigAttr.from_model(memory_config))

    def place(self, shape, arch: str = "wormhole_b0"):
        """The Placement of a tensor of this shape (raises LayoutError when it does not fit)."""
        from meshc.layout.placement import place

        tile, dt, cfg = self.model()
        return place(tuple(shape), dt, cfg, tile=tile, arch=arch)

    @classmethod
    def parse_parameters(cls, parser: _AttrParser):
        with parser.in_angle_brackets():
            kind = parser.parse_optional_identifier()
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
        return [_ArrayAttr([_IntAttr(v) for v in tile]), _MemStringAttr(dt), mem]

    def print_parameters(self, printer: _Printer) -> None:
        t = self.tile_shape
        printer.print_string(f"<tile<{t[0]}x{t[1]}>, " if t else "<row_major, ")
        printer.print_string(f"{self.data_type.data}, ")
        printer.print_attribute(self.memory_config)
        printer.print_string(">")


@_lru_cache(maxsize=256)
def _check_placement(shape: tuple[int, ...], layout: TTNNLayoutAttr) -> None:
    layout.place(shape)


def check_ttnn_layout(t) -> None:
    """Type checker: a tensor with a #ttnn.ttnn_layout must fit it (shard spec, grid, capacity)."""
    if not isinstance(t, _TensorType) or not isinstance(t.encoding, TTNNLayoutAttr):
        return
    from meshc.layout.dtypes import get_dtype

    enc: TTNNLayoutAttr = t.encoding
    shape = tuple(t.get_shape())

    def what() -> str:  # built only for a message: printing a type is slow
        return f"tensor<{'x'.join(map(str, shape))}x{t.element_type}>"

    if any(d < 0 for d in shape):
        raise _MemVerifyException(f"{what()} with a #ttnn.ttnn_layout must have a static shape")
    d = get_dtype(enc.data_type.data)
    elt_is_float = isinstance(t.element_type, _AnyFloat)
    if elt_is_float != d.is_float:
        kind = "a float" if elt_is_float else "an integer"
        raise _MemVerifyException(f"{what()} cannot be stored as {d.name}: {kind} tensor needs {kind} data type "
                                  "in its ttnn_layout")
    if enc.memory_config.is_host:
        return
    try:
        _check_placement(shape, enc)
    except _LayoutError as e:
        raise _MemVerifyException(f"{what()} does not fit its #ttnn.ttnn_layout: {e}") from None


from meshc.diagnostics import register_type_checker as _register_type_checker  # noqa: E402

_register_type_checker(check_ttnn_layout)

_ATTRIBUTES += [BufferTypeAttr, TensorMemoryLayoutAttr, ShardOrientationAttr, CoreRangeAttr, CoreRangeSetAttr,
                ShardSpecAttr, MemoryConfigAttr, TTNNLayoutAttr]


# ---- mesh distribution attributes (issue 4) ----
# How a host tensor spreads over the mesh: `#ttnn.mesh_mapper` (TTNN's mesh mappers) and
# `#ttnn.sharded_buffer_config` (TT-Mesh's buffer config, 2D or ND). Each holds its
# meshc.layout model (`.data`, `from_model`), which checks it; syntax (docs/distribution.md):
#   #ttnn.mesh_mapper<replicate>   #ttnn.mesh_mapper<shard, dim = 0>   (`, padded` for pad=True)
#   #ttnn.mesh_mapper<shard_2d, dims = [none, 0]>   #ttnn.mesh_mapper<shard_nd, dims = [0, none, 1]>
#   #ttnn.sharded_buffer_config<global_buffer_size = 24576, shard_shape = [0, 96],
#                               global_buffer_shape = [32, 384], orientation = row_major>
#   #ttnn.sharded_buffer_config<nd, global_buffer_size = 512, global_shape = [2, 4, 16],
#                               shard_shape = [2, 4, 8], mesh_shape = [2, 4], dim_axes = [[], [], [0]]>

from typing import ClassVar as _ClassVar  # noqa: E402

from xdsl.ir import Data as _MDData  # noqa: E402
from xdsl.parser import AttrParser as _AttrParser  # noqa: E402
from xdsl.printer import Printer as _Printer  # noqa: E402
from xdsl.irdl import irdl_attr_definition as _md_attr_definition  # noqa: E402

from meshc.layout import mesh_mappers as _mm  # noqa: E402
from meshc.layout.errors import LayoutError as _LayoutError  # noqa: E402
from meshc.layout import sharded_buffer as _sb  # noqa: E402


def _md_key(parser: _AttrParser, key: str) -> None:
    parser.parse_punctuation(",", f" before the next field, '{key} = ...'")
    parser.parse_keyword(key, f" (the next field is '{key} = ...')")
    parser.parse_punctuation("=")


def _md_ints(parser: _AttrParser, allow_none: bool = False) -> list:
    """`[1, 2]`; with allow_none, tensor dims: `none` or an integer (negative counts from the end)."""
    def one():
        if allow_none and parser.parse_optional_keyword("none"):
            return None
        return parser.parse_integer(allow_boolean=False, allow_negative=allow_none)

    return parser.parse_comma_separated_list(parser.Delimiter.SQUARE, one)


def _md_list(values) -> str:
    return "[" + ", ".join("none" if v is None else str(v) for v in values) + "]"


def _md_model(parser: _AttrParser, start: int, build):
    """Build a model; its LayoutError is a parse error at the attribute."""
    try:
        return build()
    except _LayoutError as e:
        parser.raise_error(str(e), start, parser.pos)


@_md_attr_definition
class MeshMapperAttr(_MDData[_mm.MeshMapper]):
    """`#ttnn.mesh_mapper<...>`: a TTNN mesh mapper (shard, shard_2d, shard_nd, replicate)."""

    name = "ttnn.mesh_mapper"
    KINDS: _ClassVar[tuple[str, ...]] = ("replicate", "shard", "shard_2d", "shard_nd")

    @classmethod
    def from_model(cls, mapper: _mm.MeshMapper) -> "MeshMapperAttr":
        return cls(mapper)

    @classmethod
    def parse_parameter(cls, parser: _AttrParser) -> _mm.MeshMapper:
        with parser.in_angle_brackets():
            start = parser.pos
            kind = parser.parse_optional_keyword_in(cls.KINDS)
            if kind is None:
                parser.raise_error(f"expected a mesh mapper kind: {', '.join(cls.KINDS)}")
            if kind == "replicate":
                return _mm.ReplicateTensorToMesh()
            if kind == "shard":
                _md_key(parser, "dim")
                dim = parser.parse_integer(allow_boolean=False)
            else:
                _md_key(parser, "dims")
                dims = tuple(_md_ints(parser, allow_none=True))
            pad = False
            if parser.parse_optional_punctuation(","):
                parser.parse_keyword("padded", " (the only option after the dims is 'padded')")
                pad = True
            if kind == "shard":
                return _mm.ShardTensorToMesh(dim, pad=pad)
            if kind == "shard_2d":
                return _md_model(parser, start, lambda: _mm.ShardTensor2dMesh(dims, pad=pad))
            return _mm.ShardTensorNdMesh(dims, pad=pad)

    def print_parameter(self, printer: _Printer) -> None:
        m = self.data
        pad = ", padded" if m.pad else ""
        if isinstance(m, _mm.ReplicateTensorToMesh):
            printer.print_string("<replicate>")
        elif isinstance(m, _mm.ShardTensorToMesh):
            printer.print_string(f"<shard, dim = {m.dim}{pad}>")
        elif isinstance(m, _mm.ShardTensor2dMesh):
            printer.print_string(f"<shard_2d, dims = {_md_list(m.dims)}{pad}>")
        else:
            printer.print_string(f"<shard_nd, dims = {_md_list(m.dims)}{pad}>")


@_md_attr_definition
class ShardedBufferConfigAttr(_MDData["_sb.ShardedBufferConfig | _sb.NDShardedBufferConfig"]):
    """`#ttnn.sharded_buffer_config<...>`: TT-Mesh's 2D ShardedBufferConfig, or (`nd, ...`) the ND form."""

    name = "ttnn.sharded_buffer_config"

    @classmethod
    def from_model(cls, config) -> "ShardedBufferConfigAttr":
        return cls(config)

    @property
    def is_nd(self) -> bool:
        return isinstance(self.data, _sb.NDShardedBufferConfig)

    @classmethod
    def parse_parameter(cls, parser: _AttrParser):
        with parser.in_angle_brackets():
            start = parser.pos
            if parser.parse_optional_keyword("nd"):
                _md_key(parser, "global_buffer_size")
                size = parser.parse_integer(allow_boolean=False, allow_negative=False)
                _md_key(parser, "global_shape")
                gshape = _md_ints(parser)
                _md_key(parser, "shard_shape")
                sshape = _md_ints(parser)
                _md_key(parser, "mesh_shape")
                mshape = _md_ints(parser)
                _md_key(parser, "dim_axes")
                axes = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, lambda: tuple(_md_ints(parser)))
                return _md_model(parser, start, lambda: _sb.NDShardedBufferConfig(size, gshape, sshape, mshape, axes))
            parser.parse_keyword("global_buffer_size", " (or 'nd' for the ND form)")
            parser.parse_punctuation("=")
            size = parser.parse_integer(allow_boolean=False, allow_negative=False)
            _md_key(parser, "shard_shape")
            shard = _md_ints(parser)
            _md_key(parser, "global_buffer_shape")
            gshape = _md_ints(parser)
            _md_key(parser, "orientation")
            at = parser.pos
            orientation = parser.parse_optional_keyword_in(_sb._ORIENTATIONS)
            if orientation is None:
                parser.raise_error("expected orientation row_major or col_major", at)
            return _md_model(parser, start, lambda: _sb.ShardedBufferConfig(size, shard, gshape, orientation))

    def print_parameter(self, printer: _Printer) -> None:
        c = self.data
        if isinstance(c, _sb.NDShardedBufferConfig):
            axes = "[" + ", ".join(_md_list(a) for a in c.dim_axes) + "]"
            printer.print_string(
                f"<nd, global_buffer_size = {c.global_buffer_size}, global_shape = {_md_list(c.global_shape)}, "
                f"shard_shape = {_md_list(c.shard_shape)}, mesh_shape = {_md_list(c.mesh_shape)}, dim_axes = {axes}>")
        else:
            printer.print_string(
                f"<global_buffer_size = {c.global_buffer_size}, shard_shape = {_md_list(c.shard_shape)}, "
                f"global_buffer_shape = {_md_list(c.global_buffer_shape)}, orientation = {c.mesh_shard_orientation}>")


_ATTRIBUTES += [MeshMapperAttr, ShardedBufferConfigAttr]


# ---- ops (issue 5) ----
# TTNN-level ops: the mesh device, host <-> mesh transfers (distribute / aggregate with the
# mapper and its ShardedBufferConfig), layout and memory-config changes, compute ops (the
# ttir op families under ttnn names) and collectives along a cluster_axis of the mesh.

from xdsl.dialects.builtin import (  # noqa: E402
    AnyTensorTypeConstr as _AnyTensor,
    DenseArrayBase as _DenseArray,
    StringAttr as _StringAttr,
)
from xdsl.ir import Attribute as _Attribute, ParametrizedAttribute as _PAttr, TypeAttribute as _TypeAttr  # noqa: E402
from xdsl.irdl import (  # noqa: E402
    attr_def as _attr_def,
    irdl_attr_definition as _attr_definition,
    irdl_op_definition as _op_definition,
    operand_def as _operand_def,
    opt_attr_def as _opt_attr_def,
    opt_operand_def as _opt_operand_def,
    result_def as _result_def,
)
from xdsl.utils.exceptions import VerifyException as _VerifyException  # noqa: E402
from typing import ClassVar  # noqa: E402

from meshc.dialects import shape_rules as _rules  # noqa: E402
from meshc.dialects import ttir as _ttir  # noqa: E402


@_attr_definition
class DeviceType(_PAttr, _TypeAttr):
    """`!ttnn.device`: the mesh device handle `ttnn.get_device` returns."""

    name = "ttnn.device"


@_op_definition
class GetDeviceOp(_ttir.TTIROpBase):
    """Open (a submesh of) the mesh device: `mesh_shape` devices starting at `mesh_offset`."""

    name = "ttnn.get_device"
    device = _result_def(DeviceType)
    mesh_shape = _attr_def(_DenseArray)
    mesh_offset = _opt_attr_def(_DenseArray)

    def verify_(self) -> None:
        shape = _rules.ints_of(self.mesh_shape)
        if not shape or any(n < 1 for n in shape):
            raise _VerifyException(f"mesh_shape {list(shape)} must have at least one axis, each of at least one device")
        if self.mesh_offset is not None:
            off = _rules.ints_of(self.mesh_offset)
            if len(off) != len(shape) or any(o < 0 for o in off):
                raise _VerifyException(f"mesh_offset {list(off)} must be {len(shape)} non-negative integers, one per mesh axis")
        mesh = _ttir.mesh_shape_of(self)
        if mesh is not None and _rules.prod(shape) > _rules.prod(mesh):
            raise _VerifyException(
                f"mesh_shape {list(shape)} has more devices than the module's mesh {_rules.fmt(mesh)}"
            )


class _DistributionBase(_ttir.TTIROpBase):
    """Host tensor <-> per-device pieces, as ttir.mesh_shard but carrying TTNN's description.

    `shard_dims` (per mesh axis, the tensor dim it splits or -1) is the placement; `mapper` is
    the TTNN mesh mapper that expresses it and `config` the TT-Mesh ShardedBufferConfig it
    lowers to, in the `form` "2d" (faithful to the seed's 2D sharding infra) or "nd".
    """

    input = _operand_def(_AnyTensor)
    result = _result_def(_AnyTensor)
    shard_dims = _attr_def(_DenseArray)
    form = _attr_def(_StringAttr)
    mapper = _opt_attr_def(_Attribute)
    config = _opt_attr_def(_Attribute)
    memory_config = _opt_attr_def(_Attribute)
    FULL_IS_INPUT: ClassVar[bool] = True

    def pieces(self) -> tuple[int, ...]:
        full = _ttir.tensor_shape(self.input) if self.FULL_IS_INPUT else self.result_shape()
        return _rules.mesh_pieces(len(full), _rules.ints_of(self.shard_dims), _ttir.mesh_shape_of(self))

    def verify_(self) -> None:
        _ttir.check_form(self.form.data)
        _ttir.check_attr_name(self, "mapper", "ttnn.mesh_mapper")
        _ttir.check_attr_name(self, "config", "ttnn.sharded_buffer_config")
        _ttir.check_attr_name(self, "memory_config", "ttnn.memory_config")
        full = _ttir.tensor_shape(self.input) if self.FULL_IS_INPUT else self.result_shape()
        local = self.result_shape() if self.FULL_IS_INPUT else _ttir.tensor_shape(self.input)
        what = "result" if self.FULL_IS_INPUT else "operand"
        pieces = self.pieces()
        if _ttir.mesh_shape_of(self) is None:  # the mesh is not known yet
            _rules.check_unsharded_dims(full, local, _rules.ints_of(self.shard_dims), what)
            return
        _rules.check_even_split(full, pieces)
        expected = _rules.local_shape(full, pieces)
        if local != expected:
            raise _VerifyException(f"{what} shape {_rules.fmt(local)} does not match the per-device shape {_rules.fmt(expected)}")


@_op_definition
class DistributeTensorOp(_DistributionBase):
    """Write a host tensor to the mesh: the result is each device's piece."""

    name = "ttnn.distribute_tensor"
    input = _operand_def(_AnyTensor)
    device = _opt_operand_def(DeviceType)


@_op_definition
class AggregateTensorOp(_DistributionBase):
    """Read the devices' pieces back into one host tensor (the mapper's inverse composer)."""

    name = "ttnn.aggregate_tensor"
    FULL_IS_INPUT: ClassVar[bool] = False


class _SameShapeBase(_ttir.TTIROpBase):
    input = _operand_def(_AnyTensor)
    result = _result_def(_AnyTensor)

    def verify_(self) -> None:
        self.expect_result(_ttir.tensor_shape(self.input))


@_op_definition
class ToDeviceOp(_SameShapeBase):
    """Move a host tensor to the device, into `memory_config`."""

    name = "ttnn.to_device"
    input = _operand_def(_AnyTensor)
    device = _operand_def(DeviceType)
    memory_config = _opt_attr_def(_Attribute)


@_op_definition
class FromDeviceOp(_SameShapeBase):
    """Move a device tensor back to the host."""

    name = "ttnn.from_device"


@_op_definition
class ToLayoutOp(_SameShapeBase):
    """Convert between row-major and tiled layout (`layout` = "tile" | "row_major")."""

    name = "ttnn.to_layout"
    layout = _attr_def(_StringAttr)

    def verify_(self) -> None:
        super().verify_()
        if self.layout.data not in ("tile", "row_major"):
            raise _VerifyException(f"layout must be \"tile\" or \"row_major\", got \"{self.layout.data}\"")


@_op_definition
class ToMemoryConfigOp(_SameShapeBase):
    """Move a device tensor into another memory config (buffer type, interleaved / sharded)."""

    name = "ttnn.to_memory_config"
    memory_config = _attr_def(_Attribute)

    def verify_(self) -> None:
        super().verify_()
        _ttir.check_attr_name(self, "memory_config", "ttnn.memory_config")


def _mirror(base: type, op_name: str, doc: str) -> type:
    cls = type(op_name.split(".")[1].title().replace("_", "") + "Op", (base,), {"name": op_name, "__doc__": doc})
    return _op_definition(cls)


_TTNN_COMPUTE = {
    "ttnn.exp": _ttir.ElementwiseUnaryBase, "ttnn.log": _ttir.ElementwiseUnaryBase,
    "ttnn.relu": _ttir.ElementwiseUnaryBase, "ttnn.sigmoid": _ttir.ElementwiseUnaryBase,
    "ttnn.tanh": _ttir.ElementwiseUnaryBase, "ttnn.gelu": _ttir.ElementwiseUnaryBase,
    "ttnn.neg": _ttir.ElementwiseUnaryBase, "ttnn.sqrt": _ttir.ElementwiseUnaryBase,
    "ttnn.add": _ttir.ElementwiseBinaryBase, "ttnn.subtract": _ttir.ElementwiseBinaryBase,
    "ttnn.multiply": _ttir.ElementwiseBinaryBase, "ttnn.div": _ttir.ElementwiseBinaryBase,
    "ttnn.maximum": _ttir.ElementwiseBinaryBase,
    "ttnn.matmul": _ttir.MatmulBase, "ttnn.transpose": _ttir.TransposeBase,
    "ttnn.permute": _ttir.PermuteBase, "ttnn.reshape": _ttir.ReshapeBase,
    "ttnn.repeat": _ttir.BroadcastBase, "ttnn.concat": _ttir.ConcatBase,
    "ttnn.sum": _ttir.ReductionBase, "ttnn.mean": _ttir.ReductionBase, "ttnn.max": _ttir.ReductionBase,
    "ttnn.softmax": _ttir.SoftmaxBase, "ttnn.embedding": _ttir.EmbeddingBase,
    "ttnn.typecast": _ttir.TypecastBase,
}  # fmt: skip
"""ttnn compute op -> the ttir family base it shares (same operands, attributes and verifier)."""


@_op_definition
class EmptyOp(_ttir.TTIROpBase):
    """A device tensor with unspecified contents."""

    name = "ttnn.empty"
    result = _result_def(_AnyTensor)


@_op_definition
class ConstantOp(_ttir.ConstantBase):
    """A host tensor given by a dense elements attribute."""

    name = "ttnn.constant"


@_op_definition
class AllGatherOp(_ttir.AllGatherBase):
    name = "ttnn.all_gather"


@_op_definition
class ReduceScatterOp(_ttir.ReduceScatterBase):
    name = "ttnn.reduce_scatter"


@_op_definition
class AllReduceOp(_ttir.AllReduceBase):
    name = "ttnn.all_reduce"


@_op_definition
class AllToAllOp(_ttir.AllToAllBase):
    name = "ttnn.all_to_all"


@_op_definition
class CollectivePermuteOp(_ttir.CollectivePermuteBase):
    name = "ttnn.collective_permute"


# Resharding and MoE (issue 7): the ttir ops of the same names, one device program each; what
# they compute is the ttir op's (`spmd`, from meshc/layout/reshard.py and moe.py).


@_op_definition
class PointToPointOp(_ttir.PointToPointBase):
    """Explicit device-to-device moves of a reshard (see ttir.point_to_point)."""

    name = "ttnn.point_to_point"


@_op_definition
class AllSliceOp(_ttir.AllSliceBase):
    """Each device keeps its piece of `slice_dim` along `cluster_axis` (no traffic)."""

    name = "ttnn.all_slice"


@_op_definition
class MoeRouteOp(_ttir.MoeRouteBase):
    """Top-k routing on each device's logits (see ttir.moe_route)."""

    name = "ttnn.moe_route"


@_op_definition
class MoeDispatchOp(_ttir.MoeDispatchBase):
    """Each device dispatches its tokens into [E, G, C, M] (see ttir.moe_dispatch)."""

    name = "ttnn.moe_dispatch"


@_op_definition
class MoeCombineOp(_ttir.MoeCombineBase):
    """Each device combines its tokens' expert outputs (see ttir.moe_combine)."""

    name = "ttnn.moe_combine"


COMPUTE_OPS: dict[str, type] = {name: _mirror(base, name, f"TTNN's {name[5:]}, as ttir's.") for name, base in _TTNN_COMPUTE.items()}

_ATTRIBUTES += [DeviceType]
_OPS += [
    GetDeviceOp, DistributeTensorOp, AggregateTensorOp, ToDeviceOp, FromDeviceOp, ToLayoutOp,
    ToMemoryConfigOp, EmptyOp, ConstantOp, *COMPUTE_OPS.values(),
    AllGatherOp, ReduceScatterOp, AllReduceOp, AllToAllOp, CollectivePermuteOp,
    PointToPointOp, AllSliceOp, MoeRouteOp, MoeDispatchOp, MoeCombineOp,
]  # fmt: skip



TTNN = Dialect("ttnn", _OPS, _ATTRIBUTES)
