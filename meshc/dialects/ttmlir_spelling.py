"""tt-mlir's current spelling of the IR meshc reads, taken as meshc's own where it means the same.

tt-mlir moved its shared attributes from `tt.` to `ttcore.`, writes op attributes as properties
(`<{cluster_axis = 1 : ui32}>`) and gives many ops a destination operand made by `ttir.empty`
(destination-passing style). meshc reads all of these:

* attribute and type names: `#ttcore.X` / `!ttcore.X` are `#tt.X` / `!tt.X`, and the enums
  `#ttcore.shard_type`, `#ttcore.shard_direction`, `#ttcore.reduce_type` (and their older `#tt.`
  spelling) are meshc's `#ttir.` ones (`attribute_synonym`, used by the driver's context when a
  name is not one of meshc's);
* module attribute keys `ttcore.device`, `ttcore.system_desc`, ... are `tt.device`, ...;
* the properties of a meshc op, whose definition declares attributes only, are its attributes;
* `ttir.all_reduce_async` / `ttnn.all_reduce_async` are `ttir.all_reduce` / `ttnn.all_reduce` with
  the unit attribute `async` (the transfer may overlap the ops after it until its result is used);
* a trailing operand made by `ttir.empty` / `tensor.empty`, of the result's type, on a ttir or ttnn
  op that takes one operand fewer, is the destination: it is dropped, and an empty left unused is
  erased (`normalize_module`, run by the driver after parsing, before verifying);
* tt-mlir's `ttir.sort` / `ttnn.sort` with two results (values, indices) is meshc's `sort` and
  `sort_indices` of the same operand and attributes (meshc holds them as two ops, as top_k's);
  tt-mlir's `ttir.topk` / `ttnn.topk` (values, indices; `k`, `dim` -1 when absent, `largest`,
  `sorted`) is meshc's `top_k` and `top_k_indices` (the k largest, sorted: a valid answer to
  `sorted = false` too; `largest = false` is refused, located). Only a result that is used gets
  its op (the values when neither is), and `dim` / `k` take meshc's types (si32 for a sort, i64
  for a top_k), so meshc's own `--emit=ttmlir` output reads back as the module it came from.

The printed form stays meshc's (`#ttir.shard_type<devices>`, attributes in the dictionary, no
destination operands).
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import (
    AnyTensorTypeConstr,
    BoolAttr,
    IntegerAttr,
    IntegerType,
    Signedness,
    UnitAttr,
    i64,
)
from xdsl.ir import Operation
from xdsl.irdl import (
    IRDLOperation,
    OptOperandDef,
    VarOperandDef,
    attr_def,
    irdl_op_definition,
    operand_def,
    opt_attr_def,
    opt_result_def,
    result_def,
)
from xdsl.utils.exceptions import VerifyException
from xdsl.rewriter import InsertPoint, Rewriter

from meshc.dialects import ttir, ttnn

_ENUMS = ("shard_type", "shard_direction", "reduce_type")
ENUM_SYNONYMS = {f"{d}.{n}": f"ttir.{n}" for d in ("tt", "ttcore") for n in _ENUMS}
"""tt-mlir's names of the enum attributes meshc keeps in ttir."""

_DESTINATION_MAKERS = ("ttir.empty", "tensor.empty")


@irdl_op_definition
class TTIRAllReduceAsyncOp(ttir.AllReduceBase):
    """tt-mlir's `ttir.all_reduce_async`: an all_reduce whose transfer may overlap the ops after it
    until its result is used; rewritten to `ttir.all_reduce {async}` right after parsing."""

    name = "ttir.all_reduce_async"
    SYNCHRONOUS: ClassVar[type[IRDLOperation]] = ttir.AllReduceOp


@irdl_op_definition
class TTNNAllReduceAsyncOp(ttir.AllReduceBase):
    """tt-mlir's `ttnn.all_reduce_async`, rewritten to `ttnn.all_reduce {async}`."""

    name = "ttnn.all_reduce_async"
    SYNCHRONOUS: ClassVar[type[IRDLOperation]] = ttnn.AllReduceOp


class TopKSpellingBase(IRDLOperation):
    """tt-mlir's two-result top-k (TTIROps.td / TTNNOps.td TopKOp): the k largest (or smallest)
    elements along `dim` and their indices; rewritten to meshc's top_k + top_k_indices right after
    parsing. One left (a `largest = false`) is refused by its verifier. `ttnn.topk` is also the
    name of meshc's own one-result ttnn top_k (the values), which is read through this class
    too and rewritten to itself."""

    input_tensor = operand_def(AnyTensorTypeConstr)
    values = result_def(AnyTensorTypeConstr)
    indices = opt_result_def(AnyTensorTypeConstr)
    k = attr_def(IntegerAttr)
    dim = opt_attr_def(IntegerAttr)
    largest = opt_attr_def(BoolAttr)
    sorted = opt_attr_def(BoolAttr)

    def verify_(self) -> None:
        raise VerifyException("largest = false asks for the k smallest elements; meshc's top_k is the k largest "
                              "(JAX's top_k): write it as the top_k of the negated operand, negated back")


@irdl_op_definition
class TTIRTopKOp(TopKSpellingBase):
    name = "ttir.topk"


@irdl_op_definition
class TTNNTopKOp(TopKSpellingBase):
    name = "ttnn.topk"


SPELLING_OPS: dict[str, type[IRDLOperation]] = {
    op.name: op for op in (TTIRAllReduceAsyncOp, TTNNAllReduceAsyncOp, TTIRTopKOp, TTNNTopKOp)}
"""Ops only tt-mlir spells: the driver's context parses them, normalize_module rewrites each into
the meshc op it names in SYNCHRONOUS; no dialect lists them, so nothing after parsing meets one."""
NORMALIZED_DIALECTS = ("ttir", "ttnn")
"""The dialects whose ops tt-mlir writes with properties and destination operands."""


def attribute_synonym(name: str) -> str | None:
    """meshc's name for a tt-mlir attribute or type name, or None when it has none."""
    hit = ENUM_SYNONYMS.get(name)
    if hit is not None:
        return hit
    if name.startswith("ttcore."):
        return "tt." + name[7:]
    return None


def _properties_to_attributes(op: IRDLOperation) -> None:
    declared = type(op).get_irdl_definition().properties
    for key in [k for k in op.properties if k not in declared]:
        op.attributes[key] = op.properties.pop(key)


def _drop_destination(op: IRDLOperation, empties: list[Operation]) -> None:
    if len(op.results) != 1 or not op.operands:
        return
    defs = type(op).get_irdl_definition().operands
    if any(isinstance(d, (VarOperandDef, OptOperandDef)) for _, d in defs) or len(op.operands) != len(defs) + 1:
        return
    dest = op.operands[-1]
    owner = dest.owner
    if isinstance(owner, Operation) and owner.name in _DESTINATION_MAKERS and dest.type == op.results[0].type:
        op.operands = op.operands[:-1]
        empties.append(owner)


def normalize_module(module: Operation) -> None:
    """Rewrite tt-mlir's spelling into meshc's in place (see the module docstring)."""
    for key in [k for k in module.attributes if k.startswith("ttcore.")]:
        module.attributes["tt." + key[7:]] = module.attributes.pop(key)
    empties: list[Operation] = []
    for op in module.walk():
        if not isinstance(op, IRDLOperation) or op.name.split(".", 1)[0] not in NORMALIZED_DIALECTS:
            continue
        if op.properties:
            _properties_to_attributes(op)
        if len(op.operands) > 1:
            _drop_destination(op, empties)
    for op in [o for o in module.walk() if o.name in SPELLING_OPS and hasattr(SPELLING_OPS[o.name], "SYNCHRONOUS")]:
        _as_synchronous_with_flag(op)
    for op in [o for o in module.walk() if o.name in _SORTS and len(o.results) == 2]:
        _split_two_results(op, ("sort", "sort_indices"), {"dim": _SI32})
    for op in [o for o in module.walk() if isinstance(o, TopKSpellingBase)]:
        if op.largest is None or op.largest.value.data:  # type: ignore[attr-defined]
            op.attributes.setdefault("dim", IntegerAttr(-1, i64))
            for key in ("largest", "sorted"):
                op.attributes.pop(key, None)
            _split_two_results(op, ("top_k", "top_k_indices"), {"k": i64, "dim": i64})
    for empty in empties:
        if empty.parent is not None and not empty.results[0].uses:
            empty.detach()
            empty.erase()


def _as_synchronous_with_flag(op: Operation) -> None:
    """`<dialect>.<kind>_async` -> `<dialect>.<kind> {async}`: the op class names its synchronous
    twin in the ClassVar `SYNCHRONOUS`."""
    new = SPELLING_OPS[op.name].SYNCHRONOUS.create(operands=list(op.operands), result_types=[r.type for r in op.results],
                          attributes={**op.attributes, "async": UnitAttr()})
    new.location = op.location
    Rewriter.replace_op(op, new)


_SORTS = {f"{d}.sort": d for d in NORMALIZED_DIALECTS}
_SI32 = IntegerType(32, Signedness.SIGNED)


def _split_two_results(op: Operation, kinds: tuple[str, str], types: dict) -> None:
    """tt-mlir's two-result sort or top-k -> meshc's op of `kinds[0]` (the values) and of
    `kinds[1]` (the indices) of the same operand and attributes (those named in `types` in meshc's
    type), for each result that is used (the values op when neither is), its uses moved to it."""
    ops = (ttir if op.name.startswith("ttir.") else ttnn).COMPUTE_OPS
    attrs = dict(op.attributes)
    for key, t in types.items():
        if isinstance(attrs.get(key), IntegerAttr):
            attrs[key] = IntegerAttr(attrs[key].value.data, t)
    wanted = [i for i, r in enumerate(op.results) if r.uses] or [0]
    for i in wanted:
        r = op.results[i]
        new = ops[kinds[i]].create(operands=list(op.operands), result_types=[r.type], attributes=dict(attrs))
        new.location = op.location
        Rewriter.insert_op(new, InsertPoint.before(op))
        r.replace_all_uses_with(new.results[0])
    Rewriter.erase_op(op)
