"""ttir multi-device ops: `ttir.mesh_shard` (SPMD entry and exit) and the collectives along a
`cluster_axis` of the module's mesh."""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import AnyTensorTypeConstr, DenseArrayBase, DenseIntOrFPElementsAttr, IntegerAttr, i64
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import attr_def, irdl_op_definition, operand_def, result_def, traits_def
from xdsl.utils.exceptions import VerifyException

from meshc.dialects import shape_rules as rules
from meshc.layout.collectives import COLLECTIVES
from meshc.dialects.ttir.attributes import ReduceTypeAttr, ShardDirectionAttr, ShardTypeAttr
from meshc.dialects.ttir.base import (
    CollectiveBase,
    HostTransfer,
    PerDevice,
    TTIROpBase,
    check_same_shape,
    int_value,
    mesh_shape_of,
    tensor_shape,
)
from meshc.layout.mesh import ShardingSpec, shard_dims_of
from meshc.layout.mesh_mappers import as_mesh
from meshc.layout.sharding_rules import replicated
from meshc.layout.shapes import fmt_shape


# ----------------------------------------------------------------------------- multi-device


@irdl_op_definition
class MeshShardOp(HostTransfer, TTIROpBase):
    """Host tensor <-> per-device pieces over the module's mesh (SPMD entry and exit).

    `shard_dims[a]` is the tensor dim mesh axis `a` splits (-1: none); `shard_shape[d]` is the
    number of pieces of tensor dim d (the product of the mesh axes splitting it, major axis
    first). full_to_shard: result = operand / shard_shape per dim (the pieces must be equal);
    shard_to_full: result = operand * shard_shape. `replicate` copies the whole tensor.
    `identity` (tt-mlir's: the front end placed the tensor already) passes it through unchanged on
    every device: full_to_shard puts the whole host tensor on each device (as replicate does),
    shard_to_full leaves every device's tensor where it is (the result stays distributed); the
    result has the operand's type, and shard_shape / shard_dims are not read.
    """

    name = "ttir.mesh_shard"
    input = operand_def(AnyTensorTypeConstr)
    result = result_def(AnyTensorTypeConstr)
    shard_type = attr_def(ShardTypeAttr)
    shard_direction = attr_def(ShardDirectionAttr)
    shard_shape = attr_def(DenseArrayBase)
    shard_dims = attr_def(DenseArrayBase)
    traits = traits_def(PerDevice())

    @property
    def is_full_to_shard(self) -> bool:
        return self.shard_direction.data == "full_to_shard"

    @property
    def is_replicate(self) -> bool:
        return self.shard_type.data == "replicate"

    @property
    def is_identity(self) -> bool:
        return self.shard_type.data == "identity"

    @property
    def splits_nothing(self) -> bool:
        return self.shard_type.data == "devices" and rules.splits_nothing(False, rules.ints_of(self.shard_shape))

    @staticmethod
    def spec_attributes(spec: ShardingSpec, to_device: bool) -> dict[str, Attribute]:
        """The attributes of the mesh_shard that moves a host tensor onto the mesh as `spec` says
        (`to_device`), or assembles it from there; LayoutError when shard_dims cannot state `spec`
        (meshc.layout.mesh.shard_dims_of)."""
        return {
            "shard_type": ShardTypeAttr("devices" if any(spec.dims) else "replicate"),
            "shard_direction": ShardDirectionAttr("full_to_shard" if to_device else "shard_to_full"),
            "shard_shape": DenseArrayBase.from_list(i64, [spec.num_pieces(d) for d in range(spec.rank)]),
            "shard_dims": DenseArrayBase.from_list(i64, list(shard_dims_of(spec))),
        }

    @classmethod
    def from_spec(cls, value: SSAValue, spec: ShardingSpec, to_device: bool, result_type: Attribute) -> "MeshShardOp":
        """The mesh_shard of `value` with `spec_attributes(spec, to_device)`, of `result_type`."""
        return cls.create(operands=[value], result_types=[result_type], attributes=cls.spec_attributes(spec, to_device))

    def host_shape(self) -> tuple[int, ...]:
        return tensor_shape(self.input) if self.is_full_to_shard else self.result_shape()

    def sharding(self, mesh_shape=None) -> ShardingSpec:
        """As HostTransfer.sharding; replicate and identity split nothing (tt-mlir writes a single -1
        for the whole mesh there: `shard_dims = array<i64: -1>`), nor does a devices mesh_shard of
        one piece (shard_shape all 1), whatever its shard_dims say (rules.splits_nothing)."""
        if self.is_replicate or self.is_identity or self.splits_nothing:
            mesh = mesh_shape if mesh_shape is not None else mesh_shape_of(self) or (1,)
            return replicated(as_mesh(mesh), len(self.host_shape()))
        return super().sharding(mesh_shape)

    def pieces(self) -> tuple[int, ...]:
        """The pieces of every tensor dim (rules.check_mesh_shard: from shard_dims and the module's
        mesh once it is known, as TTNN reads them); an identity mesh_shard splits nothing."""
        if self.is_identity:
            return (1,) * len(tensor_shape(self.input))
        return rules.check_mesh_shard(len(tensor_shape(self.input)), self.is_replicate,
                                      rules.ints_of(self.shard_shape), rules.ints_of(self.shard_dims),
                                      mesh_shape_of(self))

    def ttnn_shape(self) -> tuple[int, ...]:
        """The result shape TTNN's distribute_tensor (full_to_shard) / aggregate_tensor
        (shard_to_full) yields from the operand: its pieces, or the pieces put together."""
        shape, pieces = tensor_shape(self.input), self.pieces()
        if self.is_full_to_shard or self.is_identity:
            return rules.local_shape(shape, pieces)
        return tuple(n * k for n, k in zip(shape, pieces))

    def verify_(self) -> None:
        """tt-mlir's verifier refuses shard_type maximal only, and its conversion to TTNN reads
        shard_dims and the mesh: meshc checks the attributes and that the host tensor splits
        evenly, but not the declared result shape (`ttir-ttnn-result-shapes` retypes a result
        that is not what TTNN yields, with a warning)."""
        if self.shard_type.data == "maximal":
            raise VerifyException("shard_type maximal (the whole tensor on one device) is not supported, as in "
                                  "tt-mlir; expected replicate, devices or identity")
        if self.is_identity:
            got, want = self.result_shape(), tensor_shape(self.input)
            if got != want:
                raise VerifyException(f"an identity mesh_shard passes its operand through unchanged, but the result "
                                      f"shape {fmt_shape(got)} is not the operand's {fmt_shape(want)}")
            return
        pieces = self.pieces()
        if self.is_full_to_shard:
            rules.check_even_split(tensor_shape(self.input), pieces)


class AllGatherBase(CollectiveBase):
    """Concatenate the pieces of the devices along cluster_axis on `all_gather_dim`."""

    all_gather_dim = attr_def(IntegerAttr)

    def expected_shape(self, shape: tuple[int, ...], n: int) -> tuple[int, ...]:
        d = rules.normalize_dim(int_value(self.all_gather_dim), len(shape), "all_gather_dim")
        return shape[:d] + (shape[d] * n,) + shape[d + 1 :]


@irdl_op_definition
class AllGatherOp(AllGatherBase):
    name = "ttir.all_gather"
    TTNN_SHAPE_WINS: ClassVar[bool] = True


COLLECTIVE_REDUCTIONS = ("sum", "max", "min")
"""The reductions a collective applies across devices: tt-mlir refuses the others (mean, std, var)
on all_reduce and reduce_scatter, and so does meshc."""


def check_collective_reduction(op: CollectiveBase, kind: str) -> None:
    rt = op.attributes["reduce_type"]
    if rt.data not in COLLECTIVE_REDUCTIONS:  # type: ignore[attr-defined]
        raise VerifyException(f"reduce_type {rt.data} is not a reduction {kind} applies across devices "  # type: ignore
                              f"(expected {', '.join(COLLECTIVE_REDUCTIONS[:-1])} or {COLLECTIVE_REDUCTIONS[-1]})")


class ReduceScatterBase(CollectiveBase):
    """Reduce across cluster_axis, each device keeping its piece of `scatter_dim`."""

    scatter_dim = attr_def(IntegerAttr)
    reduce_type = attr_def(ReduceTypeAttr)

    def expected_shape(self, shape: tuple[int, ...], n: int) -> tuple[int, ...]:
        d = rules.normalize_dim(int_value(self.scatter_dim), len(shape), "scatter_dim")
        return shape[:d] + (rules.divide(shape[d], n, f"scatter_dim {d}"),) + shape[d + 1 :]

    def verify_(self) -> None:
        check_collective_reduction(self, "reduce_scatter")
        super().verify_()


@irdl_op_definition
class ReduceScatterOp(ReduceScatterBase):
    name = "ttir.reduce_scatter"
    TTNN_SHAPE_WINS: ClassVar[bool] = True


class AllReduceBase(CollectiveBase):
    """Reduce across cluster_axis; every device gets the whole reduced tensor."""

    reduce_type = attr_def(ReduceTypeAttr)

    def verify_(self) -> None:
        check_collective_reduction(self, "all_reduce")
        super().verify_()


@irdl_op_definition
class AllReduceOp(AllReduceBase):
    name = "ttir.all_reduce"
    TTNN_SHAPE_WINS: ClassVar[bool] = True


class AllToAllBase(CollectiveBase):
    """Split `split_dim` into one piece per device of cluster_axis, exchange, concat on `concat_dim`."""

    split_dim = attr_def(IntegerAttr)
    concat_dim = attr_def(IntegerAttr)

    def expected_shape(self, shape: tuple[int, ...], n: int) -> tuple[int, ...]:
        s = rules.normalize_dim(int_value(self.split_dim), len(shape), "split_dim")
        c = rules.normalize_dim(int_value(self.concat_dim), len(shape), "concat_dim")
        out = list(shape)
        out[s] = rules.divide(out[s], n, f"split_dim {s}")
        out[c] = out[c] * n
        return tuple(out)


@irdl_op_definition
class AllToAllOp(AllToAllBase):
    name = "ttir.all_to_all"


class CollectivePermuteBase(TTIROpBase):
    """Device `src` sends its tensor to device `dst` for each (src, dst) pair (flat device ids);
    a device that receives nothing gets zeros."""

    input = operand_def(AnyTensorTypeConstr)
    result = result_def(AnyTensorTypeConstr)
    source_target_pairs = attr_def(DenseIntOrFPElementsAttr)
    traits = traits_def(PerDevice())

    def pairs(self) -> list[tuple[int, int]]:
        return rules.pairs_of(self.source_target_pairs)

    def verify_(self) -> None:
        self.expect_result(tensor_shape(self.input))
        mesh = mesh_shape_of(self)
        rules.check_permute_pairs(self.pairs(), None if mesh is None else rules.prod(mesh))


@irdl_op_definition
class CollectivePermuteOp(CollectivePermuteBase):
    name = "ttir.collective_permute"


MULTI_DEVICE_OPS = (MeshShardOp, AllGatherOp, ReduceScatterOp, AllReduceOp, AllToAllOp, CollectivePermuteOp)
"""The ops of this file, in the dialect's order: a new collective's ttir op joins them here, and
the TTIR dialect and COLLECTIVE_OPS take it from this tuple."""


def collective_op_table(ops, dialect: str) -> dict:
    """{kind: op class} of the ops of a dialect named after a kind of
    meshc.layout.collectives.COLLECTIVES (the registry every dialect derives from), checked to
    give every kind exactly one op."""
    ops = tuple(ops)
    named = [op for op in ops if op.name.split(".", 1)[1] in COLLECTIVES]
    table = {op.name.split(".", 1)[1]: op for op in named}
    if set(table) != set(COLLECTIVES) or len(table) != len(named):
        raise AssertionError(f"the {dialect} collective ops {sorted(op.name for op in named)} must be one op a kind "
                             f"of {sorted(COLLECTIVES)}")
    return table
