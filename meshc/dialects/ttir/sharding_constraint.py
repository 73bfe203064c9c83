"""Global-view sharding annotations of the ttir dialect (docs/propagation.md).

* `"ttir.sharding_constraint"(%x) {sharding = #tt.sharding<[S0, R]>} : (T) -> T`: the value
  is the operand, placed as the spec says; `ttir-propagate-sharding` takes it as a user
  annotation and `ttir-partition` reshards there. On numpy it is the identity. `open_dims =
  array<i64: 0>` lists dims left open (Shardy's `{?}`, GSPMD's `unspecified_dims`): propagation
  may split such a dim further (after the axes the spec names there); the other dims are bound.
* `{tt.sharding = #tt.sharding<...>}` on a function argument or result: how the argument arrives
  on the mesh and how the result is left before it goes back to the host. Unannotated ones are
  replicated.

A spec without `mesh = ...` is over the module's device mesh. `check_annotation` is the one
check of an annotation against its tensor and the module's mesh (rank, mesh, partial sums).
"""

from __future__ import annotations

from xdsl.dialects.builtin import AnyTensorTypeConstr, DenseArrayBase, TensorType
from xdsl.ir import Attribute
from xdsl.irdl import IRDLOperation, attr_def, irdl_op_definition, operand_def, opt_attr_def, result_def, traits_def
from xdsl.traits import NoMemoryEffect
from xdsl.utils.exceptions import VerifyException

from meshc.dialects.tt import ShardingAttr
from meshc.dialects.ttir.base import mesh_shape_of
from meshc.layout.errors import LayoutError
from meshc.layout.mesh import ShardingSpec
from meshc.layout.sharding_spec import format_spec


def check_annotation(attr: Attribute, t: Attribute, mesh: tuple[int, ...] | None, what: str,
                     allow_partial: bool = False) -> ShardingSpec | None:
    """The annotation's spec over `mesh` (None while the mesh is unknown); VerifyException naming
    `what` when it is not a #tt.sharding, its rank differs from the tensor's, it is over another
    mesh or names an axis the mesh lacks, or it holds partial sums where they cannot be."""
    if not isinstance(attr, ShardingAttr):
        raise VerifyException(f"{what}: tt.sharding must be a #tt.sharding attribute, got {attr}")
    spec = attr.spec
    text = format_spec(spec, include_mesh=False)
    if not isinstance(t, TensorType):
        raise VerifyException(f"{what}: a sharding annotates a tensor, not {t}")
    rank = len(t.get_shape())
    if spec.rank != rank:
        raise VerifyException(f"{what}: sharding {text} has {spec.rank} dims but the tensor {t} has rank {rank}")
    if spec.partial and not allow_partial:
        raise VerifyException(f"{what}: sharding {text} holds partial sums; an annotation places a value, "
                              "so it may not be partial (drop the P(...))")
    if mesh is None:
        return None
    try:
        return attr.on_mesh(mesh)
    except LayoutError as e:
        raise VerifyException(f"{what}: {e}") from None


@irdl_op_definition
class ShardingConstraintOp(IRDLOperation):
    """The operand, placed as `sharding` says (a user annotation inside a global-view program)."""

    name = "ttir.sharding_constraint"
    input = operand_def(AnyTensorTypeConstr)
    result = result_def(AnyTensorTypeConstr)
    sharding = attr_def(ShardingAttr)
    open_dims = opt_attr_def(DenseArrayBase)
    traits = traits_def(NoMemoryEffect())

    def verify_(self) -> None:
        if self.input.type != self.result.type:
            raise VerifyException(f"result type {self.result.type} differs from the operand's {self.input.type}")
        check_annotation(self.sharding, self.input.type, mesh_shape_of(self), "sharding")
        dims = self.open()
        rank = len(self.input.type.get_shape())  # type: ignore[union-attr]
        if list(dims) != sorted(set(dims)) or any(not 0 <= d < rank for d in dims):
            raise VerifyException(f"open_dims {list(dims)} must be distinct dims of the rank-{rank} tensor, "
                                  "in ascending order")

    def open(self) -> tuple[int, ...]:
        """The dims propagation may split further (none without `open_dims`)."""
        if self.open_dims is None:
            return ()
        return tuple(int(d) for d in self.open_dims.get_values())
