"""`ttir-partition`: a global-view program with its shardings chosen -> the SPMD ttir meshc lowers.

Reads what `ttir-propagate-sharding` wrote (the pipelines run it first; `ttir-partition` on its
own runs it when the module carries no chosen shardings), then per function:

* each argument enters through `ttir.mesh_shard full_to_shard` with its spec (a spec the op
  cannot state, e.g. `[S10, R]`, enters replicated and is resharded);
* each op computes on local shapes (global / pieces per dim): where an operand's sharding is not
  the one the op's rule requires for its chosen result sharding, a `ttir.reshard` is inserted
  (one per value and target), which `reshard-to-collectives` lowers to collectives or
  point-to-point moves; a partial sum reaching an op that needs the value becomes an all_reduce
  (or a reduce_scatter) that way;
* `ttir.sharding_constraint` becomes the reshard to its spec (or nothing);
* an embedding whose table rows are split is a masked local lookup leaving partial sums
  (meshc/passes/partition_embedding.py);
* a slice or a concat along a split dim moves each device its piece of the result from the
  pieces that hold it, a windowed `ttir.point_to_point` (meshc/passes/partition_window.py);
* a cumsum, argmax or argmin along a split dim works on each device's piece and gathers only
  the pieces' totals or candidates; a max reduction over split dims is each device's maximum
  and a max all_reduce over the splitting axes (meshc/passes/partition_select.py);
* each result is resharded to its spec and leaves through `ttir.mesh_shard shard_to_full`.

Shape-carrying attributes follow the local shapes (reshape's `shape`, broadcast's repeat
counts, a splat constant's value); a non-splat constant is made replicated and resharded.
An uneven split (an annotation or constraint the rules never propose) is held padded
(`ShardingSpec.buffer_shape`); its reshards state `full_shape` and move real pieces only, and
an uneven argument or result crosses the host link replicated. On one device the annotations
are dropped and nothing else changes.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    ModuleOp,
    TensorType,
    i64,
)
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from meshc.errors import LocatedError
from meshc.dialects.ttir.base import tensor_shape
from meshc.dialects import ttir
from meshc.dialects.tt import ShardingAttr
from meshc.dialects.ttir.sharding_constraint import ShardingConstraintOp
from meshc.layout.errors import LayoutError
from meshc.layout.mesh import Mesh, ShardingSpec, states_shard_dims
from meshc.layout.sharding_rules import local_shape, replicated
from meshc.passes.partition_embedding import vocab_parallel_lookup
from meshc.passes.partition_select import keep_selected_axes, partition_selection, split_selection
from meshc.passes.partition_window import partition_windowed, windowed
from meshc.passes.propagate_sharding import PropagateShardingPass
from meshc.passes.sharding_ir import (
    CHOSEN,
    body_ops,
    chosen_specs,
    function_specs,
    has_annotations,
    is_global_view,
    mesh_of,
    op_rule,
    set_function_specs,
)


def _local_type(t: TensorType, spec: ShardingSpec, where: Operation, what: str) -> TensorType:
    try:
        local = local_shape(tuple(t.get_shape()), spec)
    except LayoutError as e:
        raise LocatedError(f"{what}: {e}", where) from None
    return TensorType(t.element_type, local, t.encoding)


def _host_places(spec: ShardingSpec, shape: tuple[int, ...]) -> bool:
    """Can a host <-> mesh transfer (`ttir.mesh_shard`) place `shape` as `spec`: shard_dims state
    it and its splits are even. Otherwise the value crosses replicated and is resharded on the mesh."""
    return states_shard_dims(spec) and spec.is_even(shape)


class _Partitioner:
    def __init__(self, f: func.FuncOp, mesh: Mesh):
        self.f, self.mesh = f, mesh
        self.spec: dict[SSAValue, ShardingSpec] = {}
        self.cache: dict[tuple[SSAValue, ShardingSpec], SSAValue] = {}
        self.globals: dict[SSAValue, tuple[int, ...]] = {}

    def insert(self, new: Operation, before: Operation) -> Operation:
        new.location = before.location
        Rewriter.insert_op(new, InsertPoint.before(before))
        return new

    def reshard(self, v: SSAValue, target: ShardingSpec, before: Operation) -> SSAValue:
        src = self.spec[v]
        if src == target:
            return v
        key = (v, target)
        if key not in self.cache:
            t = v.type
            assert isinstance(t, TensorType)
            shape = self.global_shape(v)
            even = src.is_even(shape) and target.is_even(shape)
            if not even and src.partial != target.partial and src.dims != target.dims:  # reduce on the source placement first
                v = self.reshard(v, ShardingSpec(self.mesh, src.dims, target.partial), before)
                src = self.spec[v]
            full = TensorType(t.element_type, shape, t.encoding)
            attrs = {"source": ShardingAttr(src), "target": ShardingAttr(target)}
            if not even:  # the buffers are padded: the reshard states the tensor
                attrs["full_shape"] = DenseArrayBase.from_list(i64, list(shape))
            op = ttir.ReshardOp.create(
                operands=[v], result_types=[_local_type(full, target, before, "reshard")], attributes=attrs)
            self.insert(op, before)
            self.spec[op.results[0]] = target
            self.globals[op.results[0]] = self.global_shape(v)
            self.cache[key] = op.results[0]
        return self.cache[key]

    def reshard_all_uses(self, v: SSAValue, target: ShardingSpec, before: Operation) -> None:
        new = self.reshard(v, target, before)
        v.replace_uses_with_if(new, lambda use: use.operation is not new.owner)

    def global_shape(self, v: SSAValue) -> tuple[int, ...]:
        return self.globals.get(v, tensor_shape(v))

    def run(self) -> None:
        f, mesh = self.f, self.mesh
        ins, outs = function_specs(f, mesh)
        ops = body_ops(f)
        ret = ops[-1]
        first = ops[0]
        for arg, spec in zip(list(f.body.blocks.first.args), ins):
            if not arg.uses:
                continue
            t = arg.type
            assert isinstance(t, TensorType)
            enter = spec if _host_places(spec, tensor_shape(arg)) else replicated(mesh, len(spec.dims))
            ms = self.insert(ttir.MeshShardOp.from_spec(arg, enter, True, _local_type(t, enter, f, f"argument #{arg.index}")), first)
            arg.replace_uses_with_if(ms.results[0], lambda use: use.operation is not ms)
            self.spec[ms.results[0]] = enter
            self.globals[ms.results[0]] = tensor_shape(arg)
            if enter != spec:
                _local_type(t, spec, f, f"argument #{arg.index}")
                self.reshard_all_uses(ms.results[0], spec, first)
        for op in ops[:-1]:
            self.partition_op(op)
        for i, (v, spec) in enumerate(zip(list(ret.operands), outs)):
            shape = self.global_shape(v)
            local = self.reshard(v, spec if _host_places(spec, shape) else replicated(mesh, len(spec.dims)), ret)
            t = local.type
            assert isinstance(t, TensorType)
            full = TensorType(t.element_type, self.global_shape(local), t.encoding)
            ms = self.insert(ttir.MeshShardOp.from_spec(local, self.spec[local], False, full), ret)
            ret.operands[i] = ms.results[0]
        set_function_specs(f, None, None)

    def partition_op(self, op: Operation) -> None:
        chosen = chosen_specs(op)
        if chosen is None:
            raise LocatedError("this op has no chosen sharding (tt.shardings); run ttir-propagate-sharding first", op)
        if isinstance(op, ShardingConstraintOp):
            new = self.reshard(op.input, chosen[0], op)
            op.result.replace_all_uses_with(new)
            Rewriter.erase_op(op)
            return
        required = op_rule(op, self.global_shape).require(chosen)
        if required is None:
            raise LocatedError(f"no operand shardings compute the chosen result shardings "
                               f"{[str(s) for s in chosen]}", op)
        if op.operands and op.operands[0] in self.spec:  # an argmax keeps its reduced dim split
            required = keep_selected_axes(op, required, self.spec[op.operands[0]])
        for i, (v, spec) in enumerate(zip(list(op.operands), required)):
            op.operands[i] = self.reshard(v, spec, op)
        if windowed(op, required, self.global_shape):  # a slice / concat along a split dim
            partition_windowed(self, op, chosen[0])
            return
        if split_selection(op, required):  # a cumsum / argmax / argmin / max along a split dim
            partition_selection(self, op, required[0], chosen[0])
            return
        if isinstance(op, ttir.ConstantOp) and any(chosen[0].dims) and not op.value.is_splat():
            self.local_results(op, (replicated(self.mesh, len(chosen[0].dims)),))
            self.reshard_all_uses(op.results[0], chosen[0], op.next_op)  # type: ignore[arg-type]
        else:
            self.local_results(op, chosen)
        if isinstance(op, ttir.EmbeddingBase) and required[1].dims[0]:  # a vocab-parallel table
            vocab_parallel_lookup(self, op, required[1].dims[0])
        del op.attributes[CHOSEN]

    def local_results(self, op: Operation, specs) -> None:
        for r, spec in zip(list(op.results), specs):
            t = r.type
            assert isinstance(t, TensorType)
            full = tuple(t.get_shape())
            lt = _local_type(t, spec, op, "result")
            new = Rewriter.replace_value_with_new_type(r, lt) if lt != t else r
            self.spec[new] = spec
            self.globals[new] = full
        self.fix_attributes(op)

    def fix_attributes(self, op: Operation) -> None:
        out = tensor_shape(op.results[0])
        if isinstance(op, ttir.ReshapeBase) and "shape" in op.attributes:
            old = op.attributes["shape"]
            assert isinstance(old, ArrayAttr)
            kind = old.data[0].type if old.data else i64  # type: ignore[attr-defined]
            op.attributes["shape"] = ArrayAttr([IntegerAttr(n, kind) for n in out])
        elif isinstance(op, ttir.BroadcastBase) and "broadcast_dimensions" in op.attributes:
            src = tensor_shape(op.operands[0])
            src = (1,) * (len(out) - len(src)) + src
            op.attributes["broadcast_dimensions"] = DenseArrayBase.from_list(
                i64, [o // s if s != o else 1 for s, o in zip(src, out)])
        elif isinstance(op, ttir.SliceBase):
            # a dim sliced from 0 by step 1 ends at its result's extent: the local one of a split dim
            begins, ends, steps = op.bounds()
            kind = op.ends.data[0].type if ends else i64  # type: ignore[attr-defined]
            op.attributes["ends"] = ArrayAttr([IntegerAttr(n if (b, s) == (0, 1) else e, kind)
                                               for b, e, s, n in zip(begins, ends, steps, out)])
        elif isinstance(op, ttir.ConstantOp):
            value = op.attributes["value"]
            assert isinstance(value, DenseIntOrFPElementsAttr)
            rt = op.results[0].type
            assert isinstance(rt, TensorType)
            if tuple(value.type.get_shape()) != out:
                vt = TensorType(value.type.get_element_type(), out)
                op.attributes["value"] = DenseIntOrFPElementsAttr.from_list(vt, [value.get_values()[0]])


def _strip(module: ModuleOp) -> None:
    """One device: drop the annotations and the chosen shardings."""
    for op in list(module.walk()):
        if isinstance(op, ShardingConstraintOp):
            op.result.replace_all_uses_with(op.input)
            Rewriter.erase_op(op)
        elif isinstance(op, func.FuncOp):
            set_function_specs(op, None, None)
        elif CHOSEN in op.attributes:
            del op.attributes[CHOSEN]


@dataclass(frozen=True)
class PartitionPass(ModulePass):
    """`ttir-partition`. The pipelines run ttir-propagate-sharding before it; run on its own, on a
    program whose shardings are not chosen yet (`needs_propagation`), it runs that pass first,
    as a pipeline would. `partition_module` itself only partitions."""

    name = "ttir-partition"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if needs_propagation(op):
            PropagateShardingPass().apply(ctx, op)
        partition_module(op)


def needs_propagation(module: ModuleOp) -> bool:
    """A global-view program on a mesh whose ops carry no chosen shardings (`tt.shardings`) yet,
    or an SPMD program with sharding annotations (which ttir-propagate-sharding refuses, located)."""
    if not is_global_view(module):
        return has_annotations(module)
    return mesh_of(module).size > 1 and not any(o.attributes.get(CHOSEN) is not None for o in module.walk())


def partition_module(module: ModuleOp) -> None:
    """Make a global-view module whose shardings are chosen SPMD (an SPMD module is left alone;
    on one device the annotations are dropped). An op without a chosen sharding is a located error."""
    if not is_global_view(module):
        return
    mesh = mesh_of(module)
    if mesh.size == 1:
        _strip(module)
        return
    for f in list(module.walk()):
        if isinstance(f, func.FuncOp) and f.body.blocks:
            _Partitioner(f, mesh).run()
