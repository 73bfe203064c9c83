"""`jax.shard_map` as StableHLO writes it: `sdy.manual_computation` and the collectives in its body.

A manual computation is an SPMD region: every device runs its body on its own pieces. It
imports as meshc's SPMD form (docs/contracts.md):

* each operand enters through `ttir.mesh_shard full_to_shard` with its `in_shardings` spec (the
  region's block arguments are the per-device pieces), each result leaves through
  `ttir.mesh_shard shard_to_full` with its `out_shardings` spec;
* a computation manual over only some mesh axes (`axis_names={"x"}`) sees whole tensors along
  the others (the free axes): meshc holds them replicated there, so the specs keep only the
  manual axes, and the body's `sdy.sharding_constraint`s (hints for the free axes) are dropped;
* the body's ops translate as anywhere else (a `func.call` is inlined: the callee's body in its
  place), and its collectives become ttir's:
  `stablehlo.all_reduce` (an add / maximum / minimum body) -> `ttir.all_reduce` sum / max / min,
  `all_gather` -> `ttir.all_gather`, `reduce_scatter` -> `ttir.reduce_scatter` (one an axis
  over several axes, in the groups' order), `all_to_all` (one tensor, one piece a device of the
  group, one axis) -> `ttir.all_to_all`,
  `collective_permute` -> `ttir.collective_permute` (the same global device ids).
  `replica_groups` name devices by their id on the mesh (row-major); the groups must be the lines
  of devices along mesh axes (each a `cluster_axis`), listed row-major over the axes in some
  order; a reduction over several axes (`psum` over ("x", "y")) is one all_reduce an axis.

A dim split by mesh axes in an order `ttir.mesh_shard` cannot state (`[{"y", "x"}]`) enters
through the mesh_shard of the ascending prefix and an `all_slice` an axis after it, and leaves
through an `all_gather` an axis and the mesh_shard; a result's unreduced axes are summed by an
`all_reduce` before it leaves (`_mesh_shard`).

Refused with a located error: manual axes no mesh of the module has, operands with unreduced
axes, groups that are not lines along mesh axes, and all_to_alls over several axes at once.
"""

from __future__ import annotations

import math
import re

import numpy as np
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, IntegerAttr, IntegerType, Signedness, \
    TensorType, i64
from xdsl.dialects import func
from xdsl.ir import Operation, SSAValue

from meshc.errors import LocatedError
from meshc.dialects import ttir
from meshc.importers.context import ImportContext, located
from meshc.importers.shardings import parse_sdy_sharding, sdy_spec
from meshc.importers.source import attr_of, dense_array, op_name, unregistered_body
from meshc.layout.mesh import ShardingSpec
from meshc.layout.shapes import fmt_shape

_SI32 = IntegerType(32, Signedness.SIGNED)
_UI32 = IntegerType(32, Signedness.UNSIGNED)
_REDUCERS = {"stablehlo.add": "sum", "stablehlo.maximum": "max", "stablehlo.minimum": "min"}


def _items(body: str) -> list[str]:
    """The `<...>` entries of `[<...>, <...>]`, each without its brackets."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(body):
        if ch == "<":
            if depth == 0:
                start = i + 1
            depth += 1
        elif ch == ">":
            depth -= 1
            if depth == 0:
                out.append(body[start:i])
    return out


def _specs(imp: ImportContext, op: Operation, key: str, ranks: list[int]) -> list[ShardingSpec]:
    body = unregistered_body(attr_of(op, key), "sdy.sharding_per_value")
    if body is None:
        raise LocatedError(f"expected {key} = #sdy.sharding_per_value<[...]>", op)
    items = _items(body)
    if len(items) != len(ranks):
        raise LocatedError(f"{key} lists {len(items)} shardings for {len(ranks)} values", op)
    specs = []
    for text, rank in zip(items, ranks):
        def read(text=text, rank=rank):
            sh = parse_sdy_sharding(text)
            mesh = sh.inline_mesh if sh.mesh_ref is None else imp.meshes.get(sh.mesh_ref)
            if mesh is None:
                raise ValueError(f"the sharding names the mesh @{sh.mesh_ref}, which the module does not declare")
            if len(sh.dims) != rank:
                raise ValueError(f"the sharding has {len(sh.dims)} dims, the tensor {rank}")
            return sdy_spec(sh, mesh)
        specs.append(located(op, read))
    return specs


def _manual_axes(imp: ImportContext, op: Operation) -> set[int]:
    """The mesh axes (indices) the computation is manual over; the others are free (auto)."""
    attr = attr_of(op, "manual_axes")
    names = set(re.findall(r'"([^"]+)"', "" if attr is None else str(attr)))
    for mesh in imp.meshes.values():
        if names <= set(mesh.names):
            return {a for a, n in enumerate(mesh.names) if n in names}
    raise LocatedError(f"is manual over {', '.join(sorted(names))}, which no mesh of the module has", op)


def _on_axes(spec: ShardingSpec, axes: set[int]) -> ShardingSpec:
    """`spec` with only the mesh axes `axes`: over the free axes of a manual computation the
    body sees whole tensors, which meshc places replicated."""
    return ShardingSpec(spec.mesh, tuple(tuple(a for a in d if a in axes) for d in spec.dims),
                        tuple(a for a in spec.partial if a in axes))


def _stated(spec: ShardingSpec) -> tuple[ShardingSpec, list[tuple[int, int]]]:
    """(the spec `ttir.mesh_shard` states, the (dim, axis) splits left over, in order): each dim
    keeps the ascending prefix of its axes, the axes after it (`[{"y", "x"}]`, y-major) split
    the dim further, major to minor. Partial sums are not in the stated spec."""
    kept, rest = [], []
    for d, axes in enumerate(spec.dims):
        n = 1
        while n < len(axes) and axes[n] > axes[n - 1]:
            n += 1
        kept.append(axes[:n])
        rest += [(d, a) for a in axes[n:]]
    return ShardingSpec(spec.mesh, tuple(kept)), rest


def _split_type(t: TensorType, d: int, by: int, op: Operation) -> TensorType:
    shape = list(t.get_shape())
    if shape[d] % by:
        raise LocatedError(f"splits dim {d} of {fmt_shape(tuple(shape))} into {by} pieces, which do not divide it", op)
    shape[d] //= by
    return TensorType(t.element_type, shape)


def _mesh_shard(imp: ImportContext, value: SSAValue, spec: ShardingSpec, to_device: bool, rt: TensorType,
                op: Operation) -> SSAValue:
    """`value` entering (to_device) or leaving the manual computation with `spec`.

    `ttir.mesh_shard` states a dim split by mesh axes in ascending order (tt-mlir's shard_dims
    name each mesh axis's tensor dim, nothing more); a dim Shardy splits by axes in another order
    (`[{"y", "x"}]`: device (x, y) holds piece y * |x| + x) enters through the mesh_shard of its
    ascending prefix and a `ttir.all_slice` an axis after it (each device keeps its piece of its
    piece: nothing moves), and leaves through an `all_gather` an axis, last first, then the
    mesh_shard. Unreduced axes of a result (`unreduced={"x"}`: the devices hold partial sums) are
    summed by an `all_reduce` an axis before the mesh_shard; unreduced operands are refused."""
    mesh = spec.mesh.shape
    stated, rest = _stated(spec)
    if to_device:
        if spec.partial:
            raise LocatedError("has an in_sharding with unreduced axes (the operand held as partial sums over "
                               f"mesh axes {list(spec.partial)}): a whole tensor has no one split into partial "
                               "sums, and meshc imports unreduced axes on out_shardings only", op)
        t = rt
        for d, a in rest:
            t = TensorType(t.element_type, [n * (mesh[a] if i == d else 1) for i, n in enumerate(t.get_shape())])
        x = imp.emit(ttir.MeshShardOp, [value], t, ttir.MeshShardOp.spec_attributes(stated, True))
        for d, a in rest:
            t = _split_type(t, d, mesh[a], op)
            x = imp.emit(ttir.AllSliceOp, [x], t, {"slice_dim": IntegerAttr(d, _SI32),
                                                  "cluster_axis": IntegerAttr(a, _UI32)})
        return x
    x = value
    for a in spec.partial:
        x = imp.emit(ttir.AllReduceOp, [x], x.type,
                     {"cluster_axis": IntegerAttr(a, _UI32), "reduce_type": ttir.ReduceTypeAttr("sum")})
    for d, a in reversed(rest):
        t = x.type
        shape = [n * (mesh[a] if i == d else 1) for i, n in enumerate(t.get_shape())]
        x = imp.emit(ttir.AllGatherOp, [x], TensorType(t.element_type, shape),
                     {"all_gather_dim": IntegerAttr(d, _SI32), "cluster_axis": IntegerAttr(a, _UI32)})
    return imp.emit(ttir.MeshShardOp, [x], rt, ttir.MeshShardOp.spec_attributes(stated, False))


def manual_computation(imp: ImportContext, op: Operation) -> None:
    block = op.regions[0].blocks.first
    assert block is not None
    ins = _specs(imp, op, "in_shardings", [len(a.type.get_shape()) for a in block.args])
    outs = _specs(imp, op, "out_shardings", [len(r.type.get_shape()) for r in op.results])
    manual = _manual_axes(imp, op)
    ins, outs = [_on_axes(s, manual) for s in ins], [_on_axes(s, manual) for s in outs]
    for src, arg, spec in zip(op.operands, block.args, ins):
        local = imp.check_type(arg.type, op, f"block argument #{arg.index}")
        imp.values[arg] = _mesh_shard(imp, imp.value(src), spec, True, local, op)
    for inner in block.ops:
        imp.located_at = inner
        if op_name(inner) == "sdy.sharding_constraint":  # a hint for the free axes: the body holds whole tensors
            imp.values[inner.results[0]] = imp.value(inner.operands[0])
            continue
        if isinstance(inner, func.CallOp):  # JAX calls helpers (jnp functions, nested jits) from the body
            imp.inline_call(inner)
            continue
        if op_name(inner) == "sdy.return":
            imp.located_at = op
            for r, v, spec in zip(op.results, inner.operands, outs):
                full = imp.check_type(r.type, op, f"result #{r.index}")
                imp.values[r] = _mesh_shard(imp, imp.value(v), spec, False, full, op)
            return
        imp.translate(inner)
    raise LocatedError("the manual computation's body does not end with sdy.return", op)


# ---- collectives -----------------------------------------------------------------------------

def _mesh(imp: ImportContext, op: Operation) -> tuple[int, ...]:
    if imp.mesh_shape is None:
        raise LocatedError("is a collective, but the module declares no mesh (sdy.mesh)", op)
    return tuple(imp.mesh_shape)


def _lines(mesh: tuple[int, ...], axes: tuple[int, ...]) -> set[tuple[int, ...]]:
    """The device groups varying along `axes`, each listed row-major over `axes` in that order
    (the first the slowest), as a set."""
    ids = np.arange(math.prod(mesh)).reshape(mesh)
    others = [a for a in range(len(mesh)) if a not in axes]
    moved = np.transpose(ids, others + list(axes)).reshape(-1, math.prod(mesh[a] for a in axes))
    return {tuple(int(x) for x in row) for row in moved}


def _axes_of(op: Operation, mesh: tuple[int, ...]) -> tuple[int, ...]:
    """The mesh axes whose lines are the op's replica_groups, in the order the groups list their
    devices (the first axis the slowest): `axis_name=("y", "x")` lists y-major groups."""
    groups = attr_of(op, "replica_groups")
    if not isinstance(groups, DenseIntOrFPElementsAttr):
        raise LocatedError("expected replica_groups = dense<[[...]]>", op)
    rows = np.atleast_2d(dense_array(groups)).astype(np.int64)
    got = {tuple(int(x) for x in row) for row in rows}
    if rows.size and 0 <= rows.min() and rows.max() < math.prod(mesh):
        # the axes the first group varies along, slowest first: in a row-major listing an axis
        # first changes after as many devices as the faster axes hold
        coords = np.stack(np.unravel_index(rows[0], mesh))
        first_change = {a: int(np.argmax(coords[a] != coords[a][0])) for a in range(len(mesh))
                        if (coords[a] != coords[a][0]).any()}
        axes = tuple(sorted(first_change, key=lambda a: -first_change[a]))
        if axes and _lines(mesh, axes) == got:
            return axes
    raise LocatedError(f"has replica_groups {sorted(got)}, which are not the lines of devices along mesh axes of "
                       f"the {fmt_shape(mesh)} mesh (device ids row-major)", op)


def _reducer(op: Operation) -> str:
    body = [o for o in op.regions[0].blocks.first.ops  # type: ignore[union-attr]
            if op_name(o) not in ("stablehlo.return", "sdy.sharding_constraint")]
    kind = _REDUCERS.get(op_name(body[0])) if len(body) == 1 else None
    if kind is None:
        raise LocatedError(f"reduces with {', '.join(op_name(o) for o in body) or 'nothing'}; meshc imports "
                           "collective reductions by stablehlo.add, maximum and minimum", op)
    return kind


def _one_axis(op: Operation, axes: tuple[int, ...]) -> int:
    if len(axes) != 1:  # all_to_all over several axes: refused (its pieces would need one exchange an axis pair)
        raise LocatedError(f"runs over mesh axes {list(axes)} at once; meshc imports all_to_all over one mesh "
                           "axis", op)
    return axes[0]


def _int(op: Operation, key: str) -> int:
    a = attr_of(op, key)
    if not isinstance(a, IntegerAttr):
        raise LocatedError(f"expected an integer attribute {key}", op)
    return int(a.value.data)


def _dim(op: Operation, key: str) -> IntegerAttr:
    return IntegerAttr(_int(op, key), _SI32)


def all_reduce(imp: ImportContext, op: Operation) -> None:
    mesh = _mesh(imp, op)
    kind = _reducer(op)
    x = imp.value(op.operands[0])
    for axis in _axes_of(op, mesh):
        x = imp.emit(ttir.AllReduceOp, [x], x.type,
                     {"cluster_axis": IntegerAttr(axis, _UI32), "reduce_type": ttir.ReduceTypeAttr(kind)})
    imp.values[op.results[0]] = x


def _step_type(op: Operation, t: TensorType, dim: IntegerAttr, mul: int = 1, div: int = 1) -> TensorType:
    """`t` with dim `dim` times mul / div: the type between two steps of a collective over
    several axes."""
    shape, d = list(t.get_shape()), int(dim.value.data)
    if not 0 <= d < len(shape):
        raise LocatedError(f"names dim {d} of a rank-{len(shape)} tensor", op)
    if shape[d] * mul % div:
        raise LocatedError(f"splits dim {d} of {fmt_shape(tuple(shape))} into {div} pieces, which do not divide it", op)
    shape[d] = shape[d] * mul // div
    return TensorType(t.element_type, shape)


def all_gather(imp: ImportContext, op: Operation) -> None:
    """Over several axes, one ttir.all_gather an axis from the fastest: the pieces then line up
    in the groups' order."""
    mesh = _mesh(imp, op)
    axes = _axes_of(op, mesh)
    dim = _dim(op, "all_gather_dim")
    t = imp.check_type(op.results[0].type, op, "result 0")
    x = imp.value(op.operands[0])
    for k, axis in enumerate(reversed(axes)):
        step = t if k == len(axes) - 1 else _step_type(op, x.type, dim, mul=mesh[axis])  # type: ignore[arg-type]
        x = imp.emit(ttir.AllGatherOp, [x], step, {"all_gather_dim": dim, "cluster_axis": IntegerAttr(axis, _UI32)})
    imp.values[op.results[0]] = x


def reduce_scatter(imp: ImportContext, op: Operation) -> None:
    """Over several axes, one ttir.reduce_scatter an axis from the slowest: device (i, j) keeps
    piece i * n_j + j of the total, as the groups' order says."""
    mesh = _mesh(imp, op)
    axes = _axes_of(op, mesh)
    dim = _dim(op, "scatter_dimension")
    kind = ttir.ReduceTypeAttr(_reducer(op))
    t = imp.check_type(op.results[0].type, op, "result 0")
    x = imp.value(op.operands[0])
    for k, axis in enumerate(axes):
        step = t if k == len(axes) - 1 else _step_type(op, x.type, dim, div=mesh[axis])  # type: ignore[arg-type]
        x = imp.emit(ttir.ReduceScatterOp, [x], step,
                     {"scatter_dim": dim, "cluster_axis": IntegerAttr(axis, _UI32), "reduce_type": kind})
    imp.values[op.results[0]] = x


def all_to_all(imp: ImportContext, op: Operation) -> None:
    axis = _one_axis(op, _axes_of(op, mesh := _mesh(imp, op)))
    if len(op.operands) != 1 or len(op.results) != 1:
        raise LocatedError(f"exchanges {len(op.operands)} tensors at once; meshc imports all_to_all of one tensor", op)
    count = _int(op, "split_count")
    if count != mesh[axis]:
        raise LocatedError(f"splits into {count} pieces over mesh axis {axis} of {mesh[axis]} devices; meshc imports "
                           "all_to_all with one piece a device of the group", op)
    t = imp.check_type(op.results[0].type, op, "result 0")
    imp.values[op.results[0]] = imp.emit(ttir.AllToAllOp, [imp.value(op.operands[0])], t,
                                         {"split_dim": _dim(op, "split_dimension"),
                                          "concat_dim": _dim(op, "concat_dimension"),
                                          "cluster_axis": IntegerAttr(axis, _UI32)})


def collective_permute(imp: ImportContext, op: Operation) -> None:
    _mesh(imp, op)
    pairs = attr_of(op, "source_target_pairs")
    if not isinstance(pairs, DenseIntOrFPElementsAttr):
        raise LocatedError("expected source_target_pairs = dense<[[source, target], ...]>", op)
    vals = np.asarray(dense_array(pairs)).reshape(-1, 2)
    attr = DenseIntOrFPElementsAttr.from_list(TensorType(i64, [len(vals), 2]), [int(v) for v in vals.reshape(-1)])
    x = imp.value(op.operands[0])
    imp.values[op.results[0]] = imp.emit(ttir.CollectivePermuteOp, [x], x.type, {"source_target_pairs": attr})


HANDLERS = {
    "sdy.manual_computation": manual_computation,
    "stablehlo.all_reduce": all_reduce,
    "stablehlo.all_gather": all_gather,
    "stablehlo.reduce_scatter": reduce_scatter,
    "stablehlo.collective_permute": collective_permute,
    "stablehlo.all_to_all": all_to_all,
}
