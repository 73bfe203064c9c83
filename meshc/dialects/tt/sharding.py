"""`#tt.sharding<SPEC[, mesh = MESH]>`: a tensor's sharding spec over the device mesh, in the
grammar of meshc/layout/sharding_spec.lark (docs/distribution.md), e.g.

    tensor<4x4xf32, #tt.sharding<[S0, R], mesh = 2x2>>
    tensor<2x2x2xbf16, #tt.sharding<[B=2/DP=2, S=2/CP=2, M=2/TP=2]>>
    #tt.sharding<[R, S(TP)] P(DP), mesh = [DP=2, TP=4]>

`#tt.sharding<[S0, R]>` (no mesh) is over the mesh of the module's `#tt.device`: `.bound` is
False and `.on_mesh(shape)` binds it. `.spec` is the meshc.layout ShardingSpec; a tensor carrying one as its encoding must have the
spec's rank and the sizes the named form declares (a registered type checker).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Data
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from meshc.dialects.checkers import register_type_checker
from meshc.layout.errors import LayoutError
from meshc.layout.mesh import Mesh, ShardingSpec, UnboundMesh, bind_spec
from meshc.layout.sharding_spec import SpecSyntaxError, format_spec, parse_spec_unbound
from meshc.layout.shapes import fmt_shape


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
class ShardingAttr(Data[ShardingSpec]):
    """`#tt.sharding<[S0, R], mesh = 2x2>`: which piece of the tensor every device of the mesh holds.
    Without `mesh = ...` an index-form spec is over the module's device mesh (`bound` is False
    until `on_mesh` puts it there)."""

    name = "tt.sharding"

    @classmethod
    def from_model(cls, spec: ShardingSpec) -> "ShardingAttr":
        return cls(spec)

    @property
    def spec(self) -> ShardingSpec:
        return self.data

    @property
    def bound(self) -> bool:
        return not isinstance(self.data.mesh, UnboundMesh)

    def on_mesh(self, mesh_shape: Sequence[int]) -> ShardingSpec:
        """The spec over the mesh `mesh_shape` (a module's device mesh); LayoutError when it
        names another mesh or an axis the mesh lacks."""
        return bind_spec(self.data, Mesh(tuple(mesh_shape)))

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> ShardingSpec:
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
            return parse_spec_unbound(text)
        except SpecSyntaxError as e:
            col = e.column - 1
            if col < len(spec_text):
                at = body_start + col
            else:
                at = body_start + mesh_at + max(col - len(spec_text) - 4, 0)
            parser.raise_error(f"bad sharding spec: {e.reason}", at, at + 1)
        except LayoutError as e:
            parser.raise_error(f"bad sharding spec: {e}", body_start, body_start + len(body))

    def print_parameter(self, printer: Printer) -> None:
        text = format_spec(self.data)
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
    what = f"tensor<{fmt_shape(shape)}x{t.element_type}>"
    if len(shape) != spec.rank:
        raise VerifyException(f"{what} has rank {len(shape)} but its #tt.sharding spec "
                              f"{format_spec(spec, include_mesh=False)} has {spec.rank} dims")
    for d, n in enumerate(spec.dim_sizes):
        if n is not None and shape[d] >= 0 and shape[d] != n:
            raise VerifyException(f"{what}: its #tt.sharding declares dim {spec.dim_names[d]} of size {n}, "
                                  f"the tensor has {shape[d]}")


register_type_checker(check_sharding)
