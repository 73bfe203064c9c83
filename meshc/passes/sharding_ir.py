"""The IR side of global-view sharding, shared by ttir-propagate-sharding, ttir-partition and
ttir-auto-shard: ttir ops as `meshc.layout.sharding_rules.OpInfo`, the function annotations, the
chosen specs carried on ops (`tt.shardings`), and the bytes a reshard costs (the planner's).

A module is *global view* when it has none of the SPMD ops (`ttir.mesh_shard`, collectives,
reshards: the ops with the `ttir.PerDevice` trait): those are written per device by hand, and
the sharding passes leave them alone.
"""

from __future__ import annotations

import math
from functools import lru_cache

from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, ModuleOp, TensorType, UnitAttr
from xdsl.ir import Operation, SSAValue
from xdsl.utils.exceptions import VerifyException

from meshc.errors import LocatedError
from meshc.dialects.element_types import data_type_name
from meshc.dialects.tt import ShardingAttr
from meshc.dialects.tt.enums import presharded
from meshc.dialects.ttir.sharding_constraint import ShardingConstraintOp, check_annotation
from meshc.layout.errors import LayoutError
from meshc.layout.mesh import Mesh, ShardingSpec
from meshc.layout.sharding_rules import OpInfo, Rule, canonical, replicated, rule_for
from meshc.passes.lowering_utils import module_mesh
from meshc.dialects.shape_rules import ints_of
from meshc.dialects import ttir
from meshc.dialects.ttir import bool_value, int_value, tensor_shape
from meshc.layout.reshard import plan_reshard
from meshc.dialects.ttir.scan import ArgReduceBase, ScanBase, SortBase, TopKBase

CHOSEN = "tt.shardings"
"""The op attribute ttir-propagate-sharding writes: one #tt.sharding a result."""

UNCONSTRAINED = "tt.unconstrained"
"""The unit attribute of a function result whose sharding is left to propagation (JAX's result
without `out_shardings`): it leaves the devices in its value's sharding (docs/propagation.md)."""


def is_global_view(module: ModuleOp) -> bool:
    """No ttir op of the module is written per device (the `PerDevice` trait: mesh_shard, the
    collectives, the reshards), and no function takes or gives a presharded value (tt-mlir's
    `#ttcore.shard_status<presharded>`: one piece a device, so its program is per device)."""
    return not any((op.has_trait(ttir.PerDevice) and op.dialect_name() == "ttir")
                   or (isinstance(op, func.FuncOp) and _has_presharded(op)) for op in module.walk())


def _has_presharded(f: func.FuncOp) -> bool:
    return any(presharded(a) for attrs in (f.arg_attrs, f.res_attrs) if attrs is not None for a in attrs.data)


def has_annotations(module: ModuleOp) -> bool:
    for op in module.walk():
        if isinstance(op, ShardingConstraintOp) or CHOSEN in op.attributes:
            return True
        if isinstance(op, func.FuncOp):
            for attrs in (op.arg_attrs, op.res_attrs):
                if attrs is not None and any("tt.sharding" in d.data or UNCONSTRAINED in d.data for d in attrs.data):
                    return True
    return False


def mesh_of(module: ModuleOp) -> Mesh:
    return Mesh(module_mesh(module))


def _dims(values, rank: int) -> list[int]:
    vals = values if isinstance(values, list) else ints_of(values)
    return [d + rank if d < 0 else d for d in vals]


def op_info(op: Operation, shape_of=None) -> OpInfo:
    """The op as the sharding rules see it; LocatedError for a non-tensor or non-ttir op.
    `shape_of(value)` gives the global shape of a value (default: its type's shape)."""
    if not op.name.startswith("ttir.") or not all(isinstance(v.type, TensorType) for v in (*op.operands, *op.results)):
        raise LocatedError(f"a global-view program holds ttir ops on tensors; '{op.name}' has no sharding rule", op)
    kind = op.name.split(".", 1)[1]
    shape_of = shape_of or tensor_shape
    ins = tuple(shape_of(v) for v in op.operands)
    outs = tuple(shape_of(v) for v in op.results)
    attrs: dict = {}
    rank = len(ins[0]) if ins else 0
    a = op.attributes
    if isinstance(op, ttir.ReductionBase):
        attrs["dims"] = tuple(op.reduced_dims())
        attrs["keep_dim"] = bool_value(a.get("keep_dim"))
    elif isinstance(op, ttir.SoftmaxBase):
        attrs["dim"] = _dims([int_value(a["dimension"])], rank)[0]
    elif isinstance(op, ttir.ConcatBase):
        attrs["dim"] = _dims([int_value(a["dim"])], rank)[0]
    elif isinstance(op, ttir.SliceBase):
        attrs["step"] = tuple(op.bounds()[2])
    elif isinstance(op, ttir.TransposeBase):
        d0, d1 = op.dims()
        perm = list(range(rank))
        perm[d0], perm[d1] = perm[d1], perm[d0]
        attrs["permutation"] = tuple(perm)
    elif isinstance(op, ttir.PermuteBase):
        attrs["permutation"] = tuple(_dims(a["permutation"], rank))
    elif isinstance(op, (ScanBase, ArgReduceBase, TopKBase)):
        attrs["dim"] = _dims([int_value(a["dim"])], rank)[0]
        attrs["keep_dim"] = bool_value(a.get("keep_dim"))
    elif isinstance(op, SortBase):  # its dim may be absent (tt-mlir's default, the last)
        attrs["dim"] = op.sort_dim()
    elif isinstance(op, (ttir.MatmulBase, ttir.LinearBase)):
        attrs["transpose_a"] = bool_value(a.get("transpose_a"))
        attrs["transpose_b"] = bool_value(a.get("transpose_b"))
    return OpInfo(kind, ins, outs, attrs)


def op_rule(op: Operation, shape_of=None) -> Rule:
    try:
        return rule_for(op_info(op, shape_of))
    except LayoutError as e:
        raise LocatedError(str(e), op) from None


def dtype_name(value: SSAValue) -> str:
    t = value.type
    assert isinstance(t, TensorType)
    return data_type_name(t.element_type) or "f32"


@lru_cache(maxsize=65536)
def _bytes(shape_: tuple[int, ...], dtype: str, src: ShardingSpec, tgt: ShardingSpec) -> float:
    try:
        return float(plan_reshard(shape_, dtype, src, tgt).delivered_bytes)
    except LayoutError:
        return math.inf


def reshard_bytes(value: SSAValue, src: ShardingSpec, tgt: ShardingSpec) -> float:
    """Bytes the fewest-bytes plan delivers to move `value` from `src` to `tgt` (inf: no plan,
    e.g. turning a value into partial sums)."""
    if src == tgt:
        return 0.0
    return _bytes(tensor_shape(value), dtype_name(value), src, tgt)


def function_specs(f: func.FuncOp, mesh: Mesh) -> tuple[list[ShardingSpec], list[ShardingSpec]]:
    """The annotated (else replicated) spec of every argument and result; LocatedError at the
    function naming a bad annotation."""

    def read(attrs: ArrayAttr | None, types, what: str) -> list[ShardingSpec]:
        out = []
        for i, t in enumerate(types):
            d = attrs.data[i].data if attrs is not None and i < len(attrs.data) else {}
            attr = d.get("tt.sharding")
            _check_unconstrained(f, d, what, i)
            if attr is None:
                out.append(replicated(mesh, len(t.get_shape())))
                continue
            try:
                spec = check_annotation(attr, t, mesh.shape, f"{what} #{i}")
            except VerifyException as e:
                raise LocatedError(str(e), f) from None
            assert spec is not None
            out.append(canonical(spec))
        return out

    ins = read(f.arg_attrs, f.function_type.inputs.data, "argument")
    outs = read(f.res_attrs, f.function_type.outputs.data, "result")
    return ins, outs


def _check_unconstrained(f: func.FuncOp, d: dict, what: str, i: int) -> None:
    """A `tt.unconstrained` marks a result, alone, as a unit attribute; else a LocatedError at `f`."""
    mark = d.get(UNCONSTRAINED)
    if mark is None:
        return
    if what != "result":
        raise LocatedError(f"{what} #{i}: {UNCONSTRAINED} marks a result left to propagation; an argument enters "
                           "as its tt.sharding says (replicated without one)", f)
    if not isinstance(mark, UnitAttr):
        raise LocatedError(f"result #{i}: {UNCONSTRAINED} is a unit attribute (write {{{UNCONSTRAINED}}}), got "
                           f"{UNCONSTRAINED} = {mark}", f)
    if "tt.sharding" in d:
        raise LocatedError(f"result #{i} is both placed (tt.sharding) and {UNCONSTRAINED}: a result leaves the "
                           "devices as its tt.sharding says, or unconstrained in its value's sharding; keep one", f)


def unconstrained_results(f: func.FuncOp) -> list[bool]:
    """Which results carry `tt.unconstrained` (checked by `function_specs`)."""
    n = len(f.function_type.outputs.data)
    attrs = f.res_attrs
    return [attrs is not None and i < len(attrs.data) and UNCONSTRAINED in attrs.data[i].data for i in range(n)]


def set_function_specs(f: func.FuncOp, ins: list[ShardingSpec] | None, outs: list[ShardingSpec] | None) -> None:
    """Write (or with None, remove) the `tt.sharding` of every argument and result; a result's
    `tt.unconstrained` goes either way (its sharding is then written, or the program is SPMD)."""

    def write(attrs: ArrayAttr | None, specs: list[ShardingSpec] | None, n: int) -> ArrayAttr | None:
        dicts = []
        for i in range(n):
            d = dict(attrs.data[i].data) if attrs is not None and i < len(attrs.data) else {}
            d.pop("tt.sharding", None)
            d.pop(UNCONSTRAINED, None)
            if specs is not None:
                d["tt.sharding"] = ShardingAttr(specs[i])
            dicts.append(DictionaryAttr(d))
        return ArrayAttr(dicts) if any(d.data for d in dicts) else None

    f.arg_attrs = write(f.arg_attrs, ins, len(f.function_type.inputs.data))
    f.res_attrs = write(f.res_attrs, outs, len(f.function_type.outputs.data))


def chosen_specs(op: Operation) -> tuple[ShardingSpec, ...] | None:
    attr = op.attributes.get(CHOSEN)
    if attr is None:
        return None
    assert isinstance(attr, ArrayAttr)
    return tuple(a.spec for a in attr.data)  # type: ignore[attr-defined]


def set_chosen(op: Operation, specs: tuple[ShardingSpec, ...]) -> None:
    op.attributes[CHOSEN] = ArrayAttr([ShardingAttr(s) for s in specs])


def body_ops(f: func.FuncOp) -> list[Operation]:
    """The ops of a function body, the return last; LocatedError for control flow."""
    if len(f.body.blocks) != 1:
        raise LocatedError("a global-view function has one block", f)
    return list(f.body.blocks.first.ops)
