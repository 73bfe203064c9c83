"""meshc's IR printed in tt-mlir's spelling (`meshc-opt --emit=ttmlir`), the inverse of
meshc/dialects/ttmlir_spelling.py's reading.

What changes from meshc's own print:
* `#tt.X` / `!tt.X` attributes and types are `#ttcore.X` / `!ttcore.X`, and the enums meshc keeps
  in ttir (`#ttir.shard_type`, `#ttir.shard_direction`, `#ttir.reduce_type`) are `#ttcore.` ones;
* the module's `tt.device`, `tt.system_desc`, `tt.meshes` are `ttcore.device`, ...;
* an op's own (declared) attributes are printed as properties, `<{cluster_axis = 1 : ui32}>`;
* `ttir.all_reduce {async}` is `ttir.all_reduce_async` (and so for ttnn);
* meshc's `sort` + `sort_indices` and `top_k` + `top_k_indices` (one op a result) of the same
  operand and attributes in one block are tt-mlir's one two-result `sort` / `topk` (ttir and
  ttnn), its results taking their uses; tt-mlir has no one-result form, so a lone one is the
  two-result op with the other result unused (its type: the operand's element type or i32, of the
  result's shape; a ttnn layout the present result's, with the other's data type). A topk is
  `largest = true, sorted = true` (meshc's top_k), `k` and `dim` i32 (si32 for ttnn's dim), a ttnn
  sort's `dim` si8, as tt-mlir declares them.
Ops are printed in generic form, as tt-mlir's own tests write them. Ops tt-mlir does not have
(meshc's `ttir.reshard`, `ttir.sharding_constraint`, the MoE ops of the MoE resharding notes,
`ttir.cumprod`: tt-mlir has only TTNN's cumprod) keep meshc's names: lower them first (the
pipelines do) when the output is for tt-mlir. A scan run from the end of its dim (meshc's
`reverse`) has no tt-mlir spelling (neither TTIR's nor TTNN's cumsum / cumprod takes one): it is a
located error rather than a cumsum tt-mlir would run forwards.
Reading the output back with meshc gives the module it was printed from (test/lit/tools).
"""

from __future__ import annotations

import re
from io import StringIO

from xdsl.dialects.builtin import (
    BoolAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    Signedness,
    TensorType,
    UnregisteredOp,
    i32,
)
from xdsl.ir import Attribute, Operation
from xdsl.irdl import IRDLOperation
from xdsl.printer import Printer
from xdsl.rewriter import InsertPoint, Rewriter

from meshc.dialects import ttir, ttnn
from meshc.dialects.element_types import expect_data_type_name
from meshc.dialects.ttir.base import int_value
from meshc.dialects.ttnn.memory import TTNNLayoutAttr
from meshc.errors import LocatedError

from meshc.dialects.ttmlir_spelling import ENUM_SYNONYMS, NORMALIZED_DIALECTS

_ASYNC_FLAG = "async"
_MODULE_KEYS = re.compile(r"(?<![\w.#!$%@\"])tt\.(?=\w+ = )")
_TT_NAMES = re.compile(r"(?<![\w.])([#!])tt\.")
_ENUMS = re.compile(r"#ttir\.(" + "|".join(sorted({k.split(".", 1)[1] for k in ENUM_SYNONYMS})) + r")<")


def _as_ttmlir_op(op: Operation) -> Operation:
    """A copy of one ttir / ttnn op with its declared attributes as properties (and an async
    all_reduce under tt-mlir's own name)."""
    if not isinstance(op, IRDLOperation) or op.name.split(".", 1)[0] not in NORMALIZED_DIALECTS:
        return op
    declared = type(op).get_irdl_definition().attributes
    for key in [k for k in op.attributes if k in declared]:
        op.properties[key] = op.attributes.pop(key)
    if _ASYNC_FLAG in op.attributes:
        del op.attributes[_ASYNC_FLAG]
        op.name = op.name + "_async"  # the instance's name; the class stays meshc's  # type: ignore[misc]
    return op


_SELECTIONS = {"sort": ("sort", 0), "sort_indices": ("sort", 1), "top_k": ("topk", 0), "top_k_indices": ("topk", 1)}
"""meshc's one-result selection op kind -> (tt-mlir's two-result op, the result it is)."""
_KINDS = {ops[kind]: kind for ops in (ttir.COMPUTE_OPS, ttnn.COMPUTE_OPS) for kind in _SELECTIONS}


def _selection(op: Operation) -> tuple[str, str, int] | None:
    """(dialect, tt-mlir's op name, which result) of a ttir / ttnn sort or top_k op, else None."""
    kind = _KINDS.get(type(op))
    return None if kind is None else (op.name.split(".", 1)[0], *_SELECTIONS[kind])


def _other_type(op: Operation, which: int) -> TensorType:
    """The type of result `which` a lone op lacks: the values' (the operand's element type) or the
    indices' (i32), of the present result's shape and encoding (a ttnn layout with the other
    result's data type)."""
    t = op.results[0].type
    assert isinstance(t, TensorType)
    elem = i32 if which == 1 else op.operands[0].type.element_type  # type: ignore[attr-defined]
    enc = t.encoding
    if isinstance(enc, TTNNLayoutAttr):
        tile, _, config = enc.model()
        enc = TTNNLayoutAttr.from_model(tile, expect_data_type_name(elem), config)
    return TensorType(elem, t.get_shape(), enc)


def _two_result(ops: list[Operation | None], dialect: str, name: str) -> Operation:
    """tt-mlir's two-result op for a values op and an indices op (either may be None), placed at the
    first of them, each result taking its op's uses; the originals are erased."""
    present = [(i, o) for i, o in enumerate(ops) if o is not None]
    first = present[0][1]
    types = [o.results[0].type if o is not None else _other_type(first, i) for i, o in enumerate(ops)]
    props: dict[str, Attribute] = {}
    attrs = dict(first.attributes)
    if name == "sort":
        props["dim"] = IntegerAttr(int_value(first.dim), IntegerType(8 if dialect == "ttnn" else 32, Signedness.SIGNED))
        for key in ("descending", "stable"):
            if key in attrs:
                props[key] = attrs[key]
        attrs = {k: v for k, v in attrs.items() if k not in ("dim", "descending", "stable")}
    else:
        props["k"] = IntegerAttr(int_value(first.k), i32)
        props["dim"] = IntegerAttr(int_value(first.dim), IntegerType(32, Signedness.SIGNED) if dialect == "ttnn" else i32)
        props["largest"], props["sorted"] = BoolAttr.from_bool(True), BoolAttr.from_bool(True)
        attrs = {k: v for k, v in attrs.items() if k not in ("k", "dim")}
    new = UnregisteredOp.with_name(f"{dialect}.{name}").create(
        operands=list(first.operands), result_types=types, properties=props, attributes=attrs)
    new.location = first.location
    Rewriter.insert_op(new, InsertPoint.before(first))
    for (_, o), r in zip(present, [new.results[i] for i, _ in present]):
        o.results[0].replace_all_uses_with(r)
        Rewriter.erase_op(o)
    return new


def _join_selections(module: Operation) -> None:
    """Each block's sort / sort_indices and top_k / top_k_indices as tt-mlir's two-result ops: a
    values op and an indices op of the same operand and attributes are one op."""
    for region in [r for op in module.walk() for r in op.regions]:
        for block in region.blocks:
            open_pairs: dict[tuple, list[Operation | None]] = {}
            groups: list[tuple[str, str, list[Operation | None]]] = []
            for op in block.ops:
                hit = _selection(op)
                if hit is None:
                    continue
                dialect, name, which = hit
                key = (dialect, name, op.operands[0], tuple(sorted((k, str(v)) for k, v in op.attributes.items())))
                slot = open_pairs.get(key)
                if slot is None or slot[which] is not None:  # no twin waiting: a new op
                    slot = open_pairs[key] = [None, None]
                    groups.append((dialect, name, slot))
                slot[which] = op
            for dialect, name, slot in groups:
                _two_result(slot, dialect, name)


def _refuse_reverse_scans(module: Operation) -> None:
    """A located error at the first ttir / ttnn scan with `reverse` set: tt-mlir's cumsum and cumprod
    run forwards only, so printing it without the flag would change what it computes."""
    for op in module.walk():
        flag = op.attributes.get("reverse")
        if op.name.split(".", 1)[0] in ("ttir", "ttnn") and isinstance(flag, IntegerAttr) and flag.value.data:
            raise LocatedError(f"--emit=ttmlir: this scan runs from the end of dim {int_value(op.dim)} (reverse = true), "
                               "which tt-mlir's cumsum / cumprod cannot say (they take only a dim); print this "
                               "module in meshc's own form, or write the scan over a reversed tensor", op)


def print_ttmlir(module: ModuleOp) -> str:
    """The module's text in tt-mlir's spelling (see the module docstring); `module` is unchanged.
    LocatedError at an op tt-mlir's spelling cannot say (a reverse scan)."""
    _refuse_reverse_scans(module)
    copy = module.clone()
    for op in copy.walk():
        if op.name.split(".", 1)[0] in ("ttir", "ttnn") and "reverse" in op.attributes:
            del op.attributes["reverse"]  # false (a true one is refused above): tt-mlir's forward scan
    _join_selections(copy)
    for op in copy.walk():
        _as_ttmlir_op(op)
    stream = StringIO()
    Printer(stream=stream, print_generic_format=True).print_op(copy)
    text = stream.getvalue() + "\n"
    text = _ENUMS.sub(lambda m: f"#ttcore.{m.group(1)}<", text)
    text = _TT_NAMES.sub(lambda m: f"{m.group(1)}ttcore.", text)
    return _MODULE_KEYS.sub("ttcore.", text)
