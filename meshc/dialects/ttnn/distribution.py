"""ttnn mesh distribution attributes: how a host tensor spreads over the mesh.

`#ttnn.mesh_mapper` (TTNN's mesh mappers) and `#ttnn.sharded_buffer_config` (TT-Mesh's buffer
config, 2D or ND). Each holds its meshc.layout model (`.data`, `from_model`), which checks it;
syntax (docs/distribution.md):

    #ttnn.mesh_mapper<replicate>   #ttnn.mesh_mapper<shard, dim = 0>   (`, padded` for pad=True)
    #ttnn.mesh_mapper<shard_2d, dims = [none, 0]>   #ttnn.mesh_mapper<shard_nd, dims = [0, none, 1]>
    #ttnn.sharded_buffer_config<global_buffer_size = 24576, shard_shape = [0, 96],
                                global_buffer_shape = [32, 384], orientation = row_major>
    #ttnn.sharded_buffer_config<nd, global_buffer_size = 512, global_shape = [2, 4, 16],
                                shard_shape = [2, 4, 8], mesh_shape = [2, 4], dim_axes = [[], [], [0]]>
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.ir import Data
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer

from meshc.layout import mesh_mappers as mm, sharded_buffer as sb
from meshc.layout.errors import LayoutError


def _md_key(parser: AttrParser, key: str) -> None:
    parser.parse_punctuation(",", f" before the next field, '{key} = ...'")
    parser.parse_keyword(key, f" (the next field is '{key} = ...')")
    parser.parse_punctuation("=")


def _md_ints(parser: AttrParser, allow_none: bool = False) -> list:
    """`[1, 2]`; with allow_none, tensor dims: `none` or an integer (negative counts from the end)."""
    def one():
        if allow_none and parser.parse_optional_keyword("none"):
            return None
        return parser.parse_integer(allow_boolean=False, allow_negative=allow_none)

    return parser.parse_comma_separated_list(parser.Delimiter.SQUARE, one)


def _md_list(values) -> str:
    return "[" + ", ".join("none" if v is None else str(v) for v in values) + "]"


def _md_model(parser: AttrParser, start: int, build):
    """Build a model; its LayoutError is a parse error at the attribute."""
    try:
        return build()
    except LayoutError as e:
        parser.raise_error(str(e), start, parser.pos)


@irdl_attr_definition
class MeshMapperAttr(Data[mm.MeshMapper]):
    """`#ttnn.mesh_mapper<...>`: a TTNN mesh mapper (shard, shard_2d, shard_nd, replicate)."""

    name = "ttnn.mesh_mapper"
    KINDS: ClassVar[tuple[str, ...]] = ("replicate", "shard", "shard_2d", "shard_nd")

    @classmethod
    def from_model(cls, mapper: mm.MeshMapper) -> "MeshMapperAttr":
        return cls(mapper)

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> mm.MeshMapper:
        with parser.in_angle_brackets():
            start = parser.pos
            kind = parser.parse_optional_keyword_in(cls.KINDS)
            if kind is None:
                parser.raise_error(f"expected a mesh mapper kind: {', '.join(cls.KINDS)}")
            if kind == "replicate":
                return mm.ReplicateTensorToMesh()
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
                return mm.ShardTensorToMesh(dim, pad=pad)
            if kind == "shard_2d":
                return _md_model(parser, start, lambda: mm.ShardTensor2dMesh(dims, pad=pad))
            return mm.ShardTensorNdMesh(dims, pad=pad)

    def print_parameter(self, printer: Printer) -> None:
        m = self.data
        pad = ", padded" if m.pad else ""
        if isinstance(m, mm.ReplicateTensorToMesh):
            printer.print_string("<replicate>")
        elif isinstance(m, mm.ShardTensorToMesh):
            printer.print_string(f"<shard, dim = {m.dim}{pad}>")
        elif isinstance(m, mm.ShardTensor2dMesh):
            printer.print_string(f"<shard_2d, dims = {_md_list(m.dims)}{pad}>")
        else:
            printer.print_string(f"<shard_nd, dims = {_md_list(m.dims)}{pad}>")


@irdl_attr_definition
class ShardedBufferConfigAttr(Data["sb.ShardedBufferConfig | sb.NDShardedBufferConfig"]):
    """`#ttnn.sharded_buffer_config<...>`: TT-Mesh's 2D ShardedBufferConfig, or (`nd, ...`) the ND form."""

    name = "ttnn.sharded_buffer_config"

    @classmethod
    def from_model(cls, config) -> "ShardedBufferConfigAttr":
        return cls(config)

    @property
    def is_nd(self) -> bool:
        return isinstance(self.data, sb.NDShardedBufferConfig)

    @classmethod
    def parse_parameter(cls, parser: AttrParser):
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
                return _md_model(parser, start, lambda: sb.NDShardedBufferConfig(size, gshape, sshape, mshape, axes))
            parser.parse_keyword("global_buffer_size", " (or 'nd' for the ND form)")
            parser.parse_punctuation("=")
            size = parser.parse_integer(allow_boolean=False, allow_negative=False)
            _md_key(parser, "shard_shape")
            shard = _md_ints(parser)
            _md_key(parser, "global_buffer_shape")
            gshape = _md_ints(parser)
            _md_key(parser, "orientation")
            at = parser.pos
            orientation = parser.parse_optional_keyword_in(sb.ORIENTATIONS)
            if orientation is None:
                parser.raise_error("expected orientation row_major or col_major", at)
            return _md_model(parser, start, lambda: sb.ShardedBufferConfig(size, shard, gshape, orientation))

    def print_parameter(self, printer: Printer) -> None:
        c = self.data
        if isinstance(c, sb.NDShardedBufferConfig):
            axes = "[" + ", ".join(_md_list(a) for a in c.dim_axes) + "]"
            printer.print_string(
                f"<nd, global_buffer_size = {c.global_buffer_size}, global_shape = {_md_list(c.global_shape)}, "
                f"shard_shape = {_md_list(c.shard_shape)}, mesh_shape = {_md_list(c.mesh_shape)}, dim_axes = {axes}>")
        else:
            printer.print_string(
                f"<global_buffer_size = {c.global_buffer_size}, shard_shape = {_md_list(c.shard_shape)}, "
                f"global_buffer_shape = {_md_list(c.global_buffer_shape)}, orientation = {c.mesh_shard_orientation}>")
