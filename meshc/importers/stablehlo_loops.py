"""`stablehlo.while` with a trip count known at import -> its body unrolled into global-view ttir
(part of the importer's op table, meshc/importers/stablehlo_ops.py).

JAX writes `jax.lax.scan`, and `lax.fori_loop` with Python-int bounds (which JAX runs as a scan),
as a `stablehlo.while` with a counter among its loop-carried values (checked with JAX 0.10.2):

* the counter's initial value is a constant (`stablehlo.constant dense<0> : tensor<i32>`);
* the condition is one `stablehlo.compare LT` of the counter's block argument and a constant
  bound (the scan's length), returned;
* the body returns, in the counter's place, `stablehlo.add` of the counter's block argument and a
  constant step (1).

The trip count follows from those three constants (`trip_count`: LT, LE, GT, GE and NE, either
operand order, any step that reaches the bound). The body is then translated that many times,
its block arguments bound each time to the values the previous iteration returned (the first
time, the while's operands), and the while's results to the last ones. The counter stays a
constant known at import in every iteration, so what the body computes from it folds
(`fold_scalar_integers`: scalar integer add / subtract / multiply / maximum / minimum / compare /
select / and / or / not, as JAX wraps a negative index `w[i]`), and the `dynamic_slice` /
`dynamic_update_slice` at the iteration index (a scan's `xs[i]` and its stacked outputs
`ys.at[i].set(y)`) become static slices (stablehlo_select.py reads constant starts). A sharding
constraint in the body (`with_sharding_constraint`) is translated in every iteration, so each
unrolled copy carries it.

A while whose trip count the importer cannot prove (a condition on values computed when the
program runs, `lax.while_loop(lambda x: jnp.sum(x) < 100, ...)`: a data-dependent loop) is a
located error naming why. So is one whose unrolled body would exceed `MAX_UNROLLED_OPS` source
ops (the error names the loop's trip count, its body's size and the limit).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import IntegerType, SymbolRefAttr, TensorType
from xdsl.ir import Operation, Region, SSAValue

from meshc.errors import LocatedError
from meshc.importers.context import ImportContext
from meshc.importers.source import attr_of, op_name, unregistered_body

MAX_UNROLLED_OPS = 8192
"""The most source ops one loop may unroll to (its trip count times its body's ops, the callees'
and inner loops' counted as unrolled too). The importer and every pass after it are linear in
the ops the unrolled program has, and a 64-layer scan of a transformer block (about 100
StableHLO ops a layer) fits; a loop past it is a located error naming its trip count, rather
than an import that runs for minutes. Past it, write the layers as a Python loop over fewer
steps, or import a smaller model."""

_FLIP = {"LT": "GT", "LE": "GE", "GT": "LT", "GE": "LE", "NE": "NE", "EQ": "EQ"}


def _direction(op: Operation) -> str:
    text = unregistered_body(attr_of(op, "comparison_direction"), "stablehlo.comparison_direction") or ""
    return text.strip()


def _scalar_int(imp: ImportContext, v: SSAValue) -> int | None:
    """`v`'s value when it is a known integer scalar (a 0-d or one-element constant)."""
    t = v.type
    if v not in imp.constants or not isinstance(t, TensorType) \
            or not isinstance(t.element_type, IntegerType) or np.asarray(imp.constants[v]).size != 1:
        return None
    return int(np.asarray(imp.constants[v]).reshape(()))


def _known_int(imp: ImportContext, v: SSAValue, region: Region) -> int | None:
    """An integer scalar known at import: a constant captured from above, or a
    `stablehlo.constant` defined in `region` (not yet translated)."""
    owner = v.owner
    if isinstance(owner, Operation) and owner.parent_region() is region and op_name(owner) == "stablehlo.constant":
        imp.translate(owner)  # a constant only records its value
    return _scalar_int(imp, v)


# ---- the trip count --------------------------------------------------------------------------

def count_trips(start: int, bound: int, step: int, direction: str) -> int | None:
    """How many times `counter <direction> bound` holds for counter = start, start + step, ...
    before it first fails (None: it never fails)."""
    if direction == "LE":
        direction, bound = "LT", bound + 1
    elif direction == "GE":
        direction, bound = "GT", bound - 1
    if direction == "LT":
        if start >= bound:
            return 0
        return None if step <= 0 else -(-(bound - start) // step)
    if direction == "GT":
        if start <= bound:
            return 0
        return None if step >= 0 else -(-(start - bound) // -step)
    if direction == "NE":
        if start == bound:
            return 0
        if step == 0 or (bound - start) % step or (bound - start) // step < 0:
            return None
        return (bound - start) // step
    if direction == "EQ":
        return 0 if start != bound else None if step == 0 else 1
    return None


def _through(v: SSAValue) -> SSAValue:
    """`v` before the sharding constraints on it (JAX with Explicit mesh axes constrains the
    counter and its bound to `[]`, replicated: a scalar's only placement)."""
    while isinstance(v.owner, Operation) and op_name(v.owner) == "sdy.sharding_constraint":
        v = v.owner.operands[0]
    return v


_COND_OPS = ("stablehlo.constant", "sdy.sharding_constraint")
"""The ops a counted loop's condition may have beside its compare and return."""


def trip_count(imp: ImportContext, op: Operation) -> int:
    """The while's trip count from its counter (the module docstring), else a located error
    naming what is not known at import."""
    if len(op.regions) != 2 or any(len(r.blocks) != 1 for r in op.regions):
        raise LocatedError(f"has {len(op.regions)} regions of {[len(r.blocks) for r in op.regions]} blocks; a while "
                           "has two regions of one block each (its condition, then its body)", op)
    cond, body = op.regions
    cblock, bblock = cond.blocks.first, body.blocks.first
    assert cblock is not None and bblock is not None
    ops = list(cblock.ops)
    ret = ops[-1] if ops else None
    why = None
    compare = _through(ret.operands[0]).owner if ret is not None and len(ret.operands) == 1 else None
    if not isinstance(compare, Operation) or op_name(compare) != "stablehlo.compare" \
            or compare.parent_region() is not cond:
        why = "its condition is not one comparison"
    elif any(o is not compare and o is not ret and op_name(o) not in _COND_OPS for o in ops):
        names = sorted({op_name(o) for o in ops if o is not compare and o is not ret
                        and op_name(o) not in _COND_OPS})
        why = (f"its condition computes {', '.join(names)} from the loop's values before comparing: it depends on "
               "values computed when the program runs")
    if why is None:
        assert isinstance(compare, Operation)
        a, b = (_through(v) for v in compare.operands)
        direction = _direction(compare)
        if b in cblock.args and a not in cblock.args:
            a, b, direction = b, a, _FLIP.get(direction, direction)
        bound = _known_int(imp, b, cond)
        if a not in cblock.args:
            why = "its condition compares values computed in the loop, not a loop value with a constant bound"
        elif bound is None:
            why = "its counter's bound is a value computed when the program runs"
        else:
            k = cblock.args.index(a)  # type: ignore[arg-type]
            start = _scalar_int(imp, op.operands[k])
            bret = list(bblock.ops)[-1]
            nxt = _through(bret.operands[k]).owner if k < len(bret.operands) else None
            step = None
            if isinstance(nxt, Operation) and op_name(nxt) == "stablehlo.add" and nxt.parent_region() is body:
                x, y = (_through(v) for v in nxt.operands)
                if y is bblock.args[k]:
                    x, y = y, x
                if x is bblock.args[k]:
                    step = _known_int(imp, y, body)
            if start is None:
                why = f"its counter (loop value {k}) does not start from a constant"
            elif step is None:
                why = f"its body does not add a constant to its counter (loop value {k})"
            else:
                n = count_trips(start, bound, step, direction)
                if n is None:
                    raise LocatedError(f"never ends: its counter (loop value {k}) starts at {start} and steps by "
                                       f"{step}, and the condition counter {direction} {bound} always holds", op)
                return n
    raise LocatedError(f"is a loop whose trip count meshc cannot prove at import ({why}): a data-dependent loop is "
                       "not supported. meshc unrolls a while whose counter starts from a constant, is compared with "
                       "a constant bound and steps by a constant (jax.lax.scan, lax.fori_loop with Python-int "
                       "bounds)", op)


def _callee(imp: ImportContext, call: Operation) -> func.FuncOp | None:
    ref = call.properties.get("callee")
    return imp.funcs.get(ref.root_reference.data) if isinstance(ref, SymbolRefAttr) else None


def unrolled_size(imp: ImportContext, region: Region, seen: tuple[str, ...] = ()) -> int:
    """The source ops `region` translates to, its calls inlined and its inner loops unrolled (an
    inner loop whose trip count is not known yet counts once: its own import says why)."""
    n = 0
    for o in (o for block in region.blocks for o in block.ops):
        if isinstance(o, func.CallOp):
            f = _callee(imp, o)
            name = f.sym_name.data if f is not None else ""
            n += 1 if f is None or name in seen else unrolled_size(imp, f.body, seen + (name,))
        elif op_name(o) == "stablehlo.while":
            try:
                trips = trip_count(imp, o)
            except LocatedError:
                trips = 1
            n += 1 + trips * sum(unrolled_size(imp, r, seen) for r in o.regions)
        else:
            n += 1
    return n


# ---- unrolling -------------------------------------------------------------------------------

def forget(imp: ImportContext, region: Region) -> None:
    """Drop what an earlier translation of `region` bound (its block arguments and op results), so
    translating it again starts clean: a value that was a constant then and is computed now, or
    the other way round, is never read stale."""
    def drop(v: SSAValue) -> None:
        imp.values.pop(v, None)
        imp.constants.pop(v, None)
        imp.reversed.pop(v, None)

    for block in region.blocks:
        for a in block.args:
            drop(a)
    for o in region.walk():
        for r in o.results:
            drop(r)
        for inner in o.regions:
            for block in inner.blocks:
                for a in block.args:
                    drop(a)


Carried = tuple[str, object]
"""A loop-carried value between iterations: ("constant", its array) or ("value", its ttir value)."""


def _carry(imp: ImportContext, v: SSAValue) -> Carried:
    if v in imp.constants:  # known at import (perhaps also materialized: the same values)
        return ("constant", imp.constants[v])
    return ("value", imp.value(v))


def _bind(imp: ImportContext, v: SSAValue, c: Carried) -> None:
    imp.values.pop(v, None)
    imp.constants.pop(v, None)
    imp.reversed.pop(v, None)
    if c[0] == "constant":
        imp.constants[v] = c[1]  # type: ignore[assignment]
    else:
        imp.values[v] = c[1]  # type: ignore[assignment]


def while_op(imp: ImportContext, op: Operation) -> None:
    """`stablehlo.while` unrolled (the module docstring)."""
    trips = trip_count(imp, op)
    per = sum(unrolled_size(imp, r) for r in op.regions)
    if trips * per > MAX_UNROLLED_OPS:
        raise LocatedError(f"is a loop of {trips} iterations of {per} ops (its condition and body): unrolled, {trips * per} ops, "
                           f"past meshc's limit of {MAX_UNROLLED_OPS} (MAX_UNROLLED_OPS); import fewer iterations "
                           "(fewer layers) or a smaller body", op)
    body = op.regions[1]
    block = body.blocks.first
    assert block is not None
    state = [_carry(imp, v) for v in op.operands]
    for _ in range(trips):
        forget(imp, body)
        for a, c in zip(block.args, state, strict=True):
            _bind(imp, a, c)
        for inner in block.ops:
            imp.located_at = inner
            if op_name(inner) == "stablehlo.return":
                if len(inner.operands) != len(state):
                    raise LocatedError(f"returns {len(inner.operands)} values from the body of a loop carrying "
                                       f"{len(state)}; expected one for each loop-carried value", inner)
                state = [_carry(imp, v) for v in inner.operands]
                break
            if isinstance(inner, func.CallOp):
                imp.inline_call(inner)
            else:
                imp.translate(inner)
        else:
            raise LocatedError("the loop's body does not end with stablehlo.return", op)
    imp.located_at = op
    for r, c in zip(op.results, state, strict=True):
        _bind(imp, r, c)
        imp.check_type(r.type, op, f"result {r.index}")


# ---- folding the counter's arithmetic --------------------------------------------------------

_COMPARE: dict[str, Callable] = {"EQ": np.equal, "NE": np.not_equal, "LT": np.less, "LE": np.less_equal,
                                  "GT": np.greater, "GE": np.greater_equal}
_FOLDS: dict[str, Callable] = {
    "stablehlo.add": np.add, "stablehlo.subtract": np.subtract, "stablehlo.multiply": np.multiply,
    "stablehlo.maximum": np.maximum, "stablehlo.minimum": np.minimum,
    "stablehlo.select": lambda c, a, b: np.where(c != 0, a, b),
    "stablehlo.and": np.bitwise_and, "stablehlo.or": np.bitwise_or,
}
_NUMPY_INT = {(8, False): np.uint8, (16, False): np.uint16, (32, False): np.uint32, (64, False): np.uint64,
              (8, True): np.int8, (16, True): np.int16, (32, True): np.int32, (64, True): np.int64}


def _np_int(t: IntegerType):
    if t.width.data == 1:
        return np.uint8  # a boolean, 1 / 0 (source.dense_array)
    return _NUMPY_INT.get((t.width.data, t.signedness.data.name != "UNSIGNED"))


def fold_scalar_integers(imp: ImportContext, op: Operation) -> bool:
    """Fold an integer op of scalars known at import (a loop counter's arithmetic, the index JAX
    computes from it): add subtract multiply maximum minimum select and or of i1 / integer
    scalars, compare; in the result's integer type, wrapping as the device would. Whether it did."""
    name = op_name(op)
    if (name not in _FOLDS and name != "stablehlo.compare") or len(op.results) != 1:
        return False
    vals = [imp.constants.get(v) for v in op.operands]
    if any(x is None for x in vals):
        return False
    types = [v.type for v in op.operands] + [op.results[0].type]
    if not all(isinstance(t, TensorType) and isinstance(t.element_type, IntegerType) and t.get_num_dims() == 0
               for t in types):
        return False
    out_t = types[-1]
    assert isinstance(out_t, TensorType) and isinstance(out_t.element_type, IntegerType)
    dtype = _np_int(out_t.element_type)
    if dtype is None:
        return False
    xs = [np.asarray(x).reshape(()).astype(np.int64) for x in vals]
    if name == "stablehlo.compare":
        fn = _COMPARE.get(_direction(op))
        if fn is None:
            return False
        got = fn(xs[0], xs[1])
    else:
        got = _FOLDS[name](*xs)
    imp.constants[op.results[0]] = np.asarray(got).astype(dtype)  # wraps into the type, as the device does
    return True


HANDLERS: dict[str, Callable[[ImportContext, Operation], None]] = {"stablehlo.while": while_op}
"""The loop ops of the importer's table, by StableHLO name."""
