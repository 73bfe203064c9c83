"""`stablehlo.sort` -> ttir.sort / ttir.sort_indices (part of the importer's op table,
meshc/importers/stablehlo_ops.py), and the `stablehlo.reverse`s JAX writes around a sort.

| StableHLO | ttir |
|---|---|
| sort of x along d by an ascending / descending comparator of x (`jnp.sort`, `lax.sort`) | sort (the values) |
| sort of (x, an iota along d) by such a comparator (`jnp.argsort`) | sort and sort_indices, each only if used |
| reverse along d of such a sort's results, of its operands, or both (`descending=True`) | the sort with `descending` flipped |
| reverse of a constant | folded |

The comparators read: `compare LT` / `GT` of the first operand's two elements (SIGNED / UNSIGNED
on integers, FLOAT / TOTALORDER on floats), or JAX's jnp.sort comparator, which first makes each
element canonical (-0.0 as +0.0, every NaN one NaN: `select(ne(a, a), NaN, select(eq(a, 0), 0,
a))`) and compares those TOTALORDER: NaNs above every number, as ttir.sort orders them. Any
other comparator, a sort of more tensors than (x, iota) (a key-value sort), and a reverse that
does not undo into a sort's direction are refused, located, naming what was found.

JAX's descending sorts are ascending ones reversed: `jnp.sort(x, descending=True)` is reverse(sort(x))
(among equal values the later first: only -0.0 and +0.0, equal but told apart by their sign, can
show it, and ttir.sort gives them in their order), `jnp.argsort(x, descending=True)` is
reverse(sort(reverse(x), reverse(iota))), a stable descending sort: exactly ttir.sort's
`descending` (equal elements in their order, NaNs first). A reversal that would leave equal
elements' positions in reverse order (the indices of reverse(sort(x, iota)) alone) is refused.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from xdsl.dialects.builtin import BoolAttr, IntegerAttr, IntegerType, Signedness
from xdsl.ir import Operation, SSAValue

from meshc.dialects import ttir
from meshc.dialects.ttir import tensor_shape
from meshc.dialects.ttir.base import bool_value
from meshc.errors import LocatedError
from meshc.importers.context import ImportContext, Reversed
from meshc.importers.source import attr_of, dense_array, op_name, unregistered_body

OPS = ttir.COMPUTE_OPS
_SI32 = IntegerType(32, Signedness.SIGNED)
_FLIP = {"LT": "GT", "GT": "LT"}


def _int_attr(op: Operation, key: str) -> list[int]:
    attr = attr_of(op, key)
    if isinstance(attr, IntegerAttr):
        return [int(attr.value.data)]
    return [int(v) for v in attr.get_values()] if attr is not None else []  # type: ignore[attr-defined]


_ATTRS = {"comparison_direction": "stablehlo.comparison_direction", "compare_type": "stablehlo.comparison_type"}


def _words(op: Operation, key: str) -> str:
    """A compare's direction or type (`comparison_direction = #stablehlo<comparison_direction LT>`:
    'LT'; `compare_type = #stablehlo<comparison_type TOTALORDER>`: 'TOTALORDER')."""
    return (unregistered_body(attr_of(op, key), _ATTRS[key]) or "").strip()


def _owner(v: SSAValue) -> Operation | None:
    return v.owner if isinstance(v.owner, Operation) else None


def _body_constant(v: SSAValue) -> float | None:
    """The scalar a `stablehlo.constant` in the comparator holds, else None."""
    o = _owner(v)
    if o is None or op_name(o) != "stablehlo.constant":
        return None
    vals = np.asarray(dense_array(attr_of(o, "value"))).reshape(-1)  # type: ignore[arg-type]
    return float(vals[0]) if vals.size == 1 else None


def _canonical_of(v: SSAValue, seen: set[Operation]) -> SSAValue | None:
    """The element `a` when `v` is JAX's canonical key of it, select(ne(a, a), NaN, select(eq(a, 0),
    0, a)), recording the ops it is made of in `seen`; else None."""
    outer = _owner(v)
    if outer is None or op_name(outer) != "stablehlo.select":
        return None
    is_nan, nan, inner_v = outer.operands
    inner = _owner(inner_v)
    ne, eq = _owner(is_nan), None if inner is None else _owner(inner.operands[0])
    if inner is None or op_name(inner) != "stablehlo.select" or ne is None or eq is None:
        return None
    a = inner.operands[2]
    zero, one_nan = _body_constant(inner.operands[1]), _body_constant(nan)
    ok = (op_name(ne) == op_name(eq) == "stablehlo.compare" and _words(ne, "comparison_direction") == "NE"
          and list(ne.operands) == [a, a] and _words(eq, "comparison_direction") == "EQ" and eq.operands[0] is a
          and _body_constant(eq.operands[1]) == 0.0 and zero == 0.0 and one_nan is not None and np.isnan(one_nan))
    if not ok:
        return None
    seen.update({outer, inner, ne, eq, *(c for c in (_owner(inner.operands[1]), _owner(nan),
                                                      _owner(eq.operands[1])) if c is not None)})
    return a


def _comparator(op: Operation) -> str | None:
    """'LT' (ascending) or 'GT' (descending) when the sort's comparator is one meshc reads (the
    module docstring): a compare of the first operand's two elements, plain or made canonical as
    JAX's jnp.sort makes them, and nothing else; None otherwise."""
    block = op.regions[0].blocks.first
    if block is None or len(block.args) < 2:
        return None
    body = [o for o in block.ops if op_name(o) != "stablehlo.return"]
    ret = block.last_op
    if ret is None or op_name(ret) != "stablehlo.return" or len(ret.operands) != 1:
        return None
    cmp = _owner(ret.operands[0])
    if cmp is None or op_name(cmp) != "stablehlo.compare":
        return None
    direction, kind = _words(cmp, "comparison_direction"), _words(cmp, "compare_type")
    seen: set[Operation] = {cmp}
    lhs, rhs = cmp.operands
    element = block.args[0].type.element_type  # type: ignore[attr-defined]
    if kind == "TOTALORDER" and not isinstance(element, IntegerType):
        canon = _canonical_of(lhs, seen), _canonical_of(rhs, seen)
        if None not in canon:
            lhs, rhs = canon  # type: ignore[assignment]
    wanted = ("SIGNED", "UNSIGNED", "") if isinstance(element, IntegerType) else ("FLOAT", "TOTALORDER", "")
    args = [block.args[0], block.args[1]]
    if direction not in _FLIP or kind not in wanted or len(seen) != len(body) or {lhs, rhs} != set(args):
        return None
    return direction if lhs is args[0] else _FLIP[direction]


def _describe(op: Operation) -> str:
    """The comparator's ops as an error names them (`stablehlo.compare GE SIGNED, ...`)."""
    block = op.regions[0].blocks.first
    out = []
    for o in (block.ops if block is not None else ()):
        if op_name(o) == "stablehlo.return":
            continue
        words = " ".join(w for w in (_words(o, "comparison_direction"), _words(o, "compare_type")) if w)
        out.append(f"{op_name(o)} {words}".strip())
    return ", ".join(out) or "nothing"


def _is_reverse_along(o: Operation | None, d: int) -> bool:
    """Whether `o` is a stablehlo.reverse along exactly dim d."""
    return o is not None and op_name(o) == "stablehlo.reverse" and _int_attr(o, "dimensions") == [d]


def _is_iota(imp: ImportContext, v: SSAValue, shape: tuple[int, ...], d: int, reversed_: bool) -> bool:
    """Whether `v` is known at import as the positions along d (reversed along d if `reversed_`)."""
    got = imp.constants.get(v)
    if got is None or tuple(np.shape(got)) != shape:
        return False
    pos = np.arange(shape[d])[::-1] if reversed_ else np.arange(shape[d])
    return bool(np.array_equal(np.asarray(got), np.broadcast_to(
        pos.reshape([shape[d] if i == d else 1 for i in range(len(shape))]), shape)))


def sort(imp: ImportContext, op: Operation) -> None:
    """`jnp.sort`, `jnp.argsort`, `lax.sort` (see the module docstring) -> ttir.sort and
    ttir.sort_indices along the dim (the dim gathered first where it is split: the rule's
    `keep`)."""
    x_src = op.operands[0]
    shape = tensor_shape(x_src)
    d = _int_attr(op, "dimension")[0] % max(len(shape), 1)
    direction = _comparator(op)
    if direction is None:
        raise LocatedError(f"sorts by a comparator meshc does not read ({_describe(op)}); it imports a compare LT "
                           "or GT of the first operand's two elements (SIGNED / UNSIGNED, FLOAT / TOTALORDER) and "
                           "JAX's jnp.sort comparator (-0.0 and NaNs made canonical, then compared TOTALORDER)", op)
    pre = _is_reverse_along(_owner(x_src), d)
    if len(op.operands) > 2 or (len(op.operands) == 2 and not _is_iota(imp, op.operands[1], shape, d, pre)):
        raise LocatedError(f"sorts {len(op.operands)} tensors, the others not the positions along dim {d} (an "
                           "iota); meshc imports sorts of one tensor and of a tensor with the iota of its "
                           "positions (jnp.sort, jnp.argsort, lax.sort), not key-value sorts", op)
    post = {_is_reverse_along(u.operation, d) for r in op.results for u in r.uses}
    if len(post) > 1:
        raise LocatedError(f"uses its results both reversed along dim {d} and as they are; meshc imports a sort "
                           "whose results are all reversed (JAX's descending form) or none", op)
    post_reversed = post == {True}
    descending = (direction == "GT") != post_reversed
    if pre != post_reversed and len(op.results) > 1 and op.results[1].uses:
        raise LocatedError(f"reverses along dim {d} {'its operands' if pre else 'its results'} only, which puts "
                           "equal elements' positions in reverse order; meshc imports the positions of a sort "
                           "reversed on both sides (jnp.argsort(x, descending=True)) or on neither", op)
    source = _owner(x_src).operands[0] if pre else x_src  # type: ignore[union-attr]
    x = imp.value(source)  # a reversed operand: the tensor before the reverse (a constant's too)
    attrs = {"dim": IntegerAttr(d, _SI32), "descending": BoolAttr.from_bool(descending),
             "stable": BoolAttr.from_bool(bool_value(attr_of(op, "is_stable")))}
    for r, kind in zip(op.results, ("sort", "sort_indices")):
        if r.uses:  # an unused half is not computed
            imp.values[r] = imp.emit(OPS[kind], [x], imp.check_type(r.type, op, f"result {r.index}"), attrs)


def reverse(imp: ImportContext, op: Operation) -> None:
    """A reverse of a constant folds; one a sort absorbs (the module docstring) passes its
    operand through (the sort accounts for the order); any other is held reversed (`imp.reversed`)
    for a scan or a reverse along the same dims to undo, and refused, located here, where
    anything else reads it."""
    (x,) = op.operands
    dims = _int_attr(op, "dimensions")
    rank = len(tensor_shape(x))
    bad = [d for d in dims if not 0 <= d < rank]
    if bad or len(set(dims)) != len(dims):
        raise LocatedError(f"reverses along dimensions {list(dims)}, but its operand has rank {rank}: each dimension "
                           f"must be in [0, {rank}) and named once", op)
    if x in imp.constants and x not in imp.values:
        imp.constants[op.results[0]] = np.flip(np.asarray(imp.constants[x]), axis=tuple(dims))
        return
    sorted_by = _owner(x)
    after_sort = sorted_by is not None and op_name(sorted_by) == "stablehlo.sort" and dims == [
        _int_attr(sorted_by, "dimension")[0] % max(len(tensor_shape(x)), 1)]
    uses = [u.operation for u in op.results[0].uses]
    before_sort = bool(uses) and len(dims) == 1 and all(
        op_name(u) == "stablehlo.sort" and u.operands[0] is op.results[0]
        and _int_attr(u, "dimension")[0] % max(len(tensor_shape(x)), 1) == dims[0] for u in uses)
    if not (after_sort or before_sort):  # held reversed: a scan or a second reverse undoes it (stablehlo_select.py)
        inner = imp.reversed.get(x)
        if inner is not None and inner.dims == tuple(dims):
            imp.values[op.results[0]] = inner.value
        else:
            imp.reversed[op.results[0]] = Reversed(op, imp.value(x), tuple(dims))
        return
    imp.values[op.results[0]] = imp.value(x)


HANDLERS: dict[str, Callable[[ImportContext, Operation], None]] = {
    "stablehlo.sort": sort,
    "stablehlo.reverse": reverse,
}
"""The sort ops of the importer's table, by StableHLO name."""

