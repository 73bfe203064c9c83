"""tt affine maps and grids: `#tt.grid<8x16, (d0, d1) -> (...)>` (map optional)."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import ArrayAttr, IntAttr, NoneAttr
from xdsl.ir import Attribute, Data, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from meshc.dialects.syntax import AngleBody
from meshc.dialects.tt.parsing import int_array, parse_affine_map, parse_dims, array_ints
from meshc.layout.affine import AffineMap, parse_map
from meshc.layout.shapes import fmt_shape


@irdl_attr_definition
class MapAttr(AngleBody, Data[AffineMap]):
    """`#tt.map<(d0) -> (d0 floordiv 8)>`: an affine map kept exactly as written (printed as MLIR does)."""

    name = "tt.map"

    @classmethod
    def parse_body(cls, parser: AttrParser) -> AffineMap:
        return parse_affine_map(parser)


@irdl_attr_definition
class GridAttr(ParametrizedAttribute):
    """`#tt.grid<8x16, (d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)>`: a logical grid and optional map."""

    name = "tt.grid"

    shape: ArrayAttr[IntAttr]
    mapping: MapAttr | NoneAttr

    def __init__(self, shape: Sequence[int], mapping: "AffineMap | str | None" = None):
        m = NoneAttr() if mapping is None else MapAttr(parse_map(mapping) if isinstance(mapping, str) else mapping)
        super().__init__(int_array(shape), m)

    @property
    def grid_shape(self) -> tuple[int, ...]:
        return array_ints(self.shape)

    @property
    def affine_map(self) -> AffineMap | None:
        return None if isinstance(self.mapping, NoneAttr) else self.mapping.data

    def verify(self) -> None:
        shape = self.grid_shape
        if not shape or any(s <= 0 for s in shape):
            raise VerifyException(f"grid {fmt_shape(shape) or '<empty>'} must have a rank of at least 1 "
                                  "and positive sizes")
        m = self.affine_map
        if m is not None and m.num_dims != len(shape):
            raise VerifyException(f"the grid map {m} takes {m.num_dims} dims, but the grid "
                                  f"{fmt_shape(shape)} has rank {len(shape)}")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            shape = parse_dims(parser, "a grid shape")
            mapping: Attribute = NoneAttr()
            if parser.parse_optional_punctuation(",") is not None:
                mapping = MapAttr(parse_affine_map(parser))
        return (int_array(shape), mapping)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self._body()}>")

    def _body(self) -> str:
        m = self.affine_map
        return fmt_shape(self.grid_shape) + ("" if m is None else f", {m}")
