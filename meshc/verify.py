"""Op-by-op verification with located diagnostics, MLIR style: every failing op is reported at its
location (`file:12:3: error: 'ttir.all_gather' op ...`), not only the first."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from xdsl.ir import Attribute, ErasedSSAValue, OpResult, Operation
from xdsl.irdl import IRDLOperation
from xdsl.traits import NoTerminator
from xdsl.utils.exceptions import VerifyException

from meshc.dialects.checkers import op_checkers, type_checkers
from meshc.errors import Diagnostic, LocatedError, first_line as _first_line, location_of, op_diagnostic


def _check_types(op: Operation, checked: dict[int, Attribute]) -> None:
    """Run the type checkers on op's types; `checked` holds the types already found good in this
    verification (by id, holding the type so its id stays its own): a program repeats a handful
    of types on thousands of ops, and a check depends on the type alone."""
    types = [r.type for r in op.results] + [o.type for o in op.operands]
    for region in op.regions:
        for block in region.blocks:
            types += [a.type for a in block.args]
    for t in types:
        if id(t) in checked:
            continue
        for check in type_checkers():
            check(t)
        checked[id(t)] = t


def _irdl_parts(cls: type) -> tuple | None:
    """(op definition, its custom verifier or None) that xDSL's `verify_` of an IRDL op class runs
    (`op_def.verify(op)`, then the class's own `verify_`), or None when the class's `verify_` is
    not the one irdl_op_definition made (then an op of it is always verified whole)."""
    fn = cls.__dict__.get("verify_") if issubclass(cls, IRDLOperation) else None
    code, cells = getattr(fn, "__code__", None), getattr(fn, "__closure__", None)
    if code is None or cells is None or set(code.co_freevars) - {"op_def", "custom_verify"}:
        return None
    parts = dict(zip(code.co_freevars, (c.cell_contents for c in cells)))
    op_def = parts.get("op_def")
    if op_def is None or op_def is not cls.get_irdl_definition():
        return None
    return op_def, parts.get("custom_verify")


class _ConstraintMemo:
    """IRDL constraint checks already passed in one verification.

    xDSL's `OpDef.verify` checks an op's operand, result, attribute and property values against its
    definition (and its region and successor counts), then its traits; the constraint part depends
    on the op's class and those values alone. A program repeats a handful of (class, types,
    attributes) on thousands of ops, so once an op of a combination has verified whole, an op of
    the same combination (values by identity, held here so their ids stay theirs) runs only the
    rest of Operation.verify: its traits and its class's own verifier. Any failure there is
    re-verified whole, so a diagnostic is the one xDSL's full verification gives."""

    def __init__(self):
        self._passed: dict[tuple, tuple] = {}
        self._parts: dict[type, tuple | None] = {}

    def verify(self, op: Operation) -> None:
        cls = type(op)
        parts = self._parts.get(cls, False)
        if parts is False:
            parts = self._parts[cls] = _irdl_parts(cls)
        block = op.parent
        if parts is None or op.regions or op.successors or block is None or block.last_op is op:
            return op.verify(verify_nested_ops=False)  # (a block's last op: the terminator checks)
        attrs, props = op.attributes, op.properties
        key = (cls, *[id(v.type) for v in op.operands], None, *[id(r.type) for r in op.results], None,
               *([(k, id(v)) for k, v in attrs.items()] if attrs else ()), None,
               *([(k, id(v)) for k, v in props.items()] if props else ()))
        if key not in self._passed:
            op.verify(verify_nested_ops=False)
            self._passed[key] = ([v.type for v in op.operands], [r.type for r in op.results],
                                 dict(op.attributes), dict(op.properties))
            return
        op_def, custom = parts
        try:
            if any(isinstance(v, ErasedSSAValue) for v in op.operands):
                raise ValueError("erased operand")
            for trait in op_def.traits:
                trait.verify(op)
            if custom is not None:
                custom(op)
        except Exception:
            op.verify(verify_nested_ops=False)  # raises what xDSL's verification raises
            raise


def _walk_skipping(op: Operation, skip: Callable[[Operation], bool]) -> Iterable[Operation]:
    """op and the ops nested in it, in text order, leaving out every op `skip` accepts (and its body)."""
    stack = [op]
    while stack:
        cur = stack.pop()
        yield cur
        for region in reversed(cur.regions):
            for block in reversed(region.blocks):
                stack.extend(o for o in reversed(list(block.ops)) if not skip(o))


def verify_located(module: Operation, file: str = "<unknown>",
                   skip: Callable[[Operation], bool] | None = None) -> list[Diagnostic]:
    """Verify every op; return one located diagnostic per failing op (MLIR reports them all).

    Ops that `skip` accepts are left out with their bodies (the driver skips a reference program
    it verified before: meshc/dialects/reference.py). The ops nested in an op that fails its own
    verifier are not verified: their verifiers may read the parent's attributes (a kernel op its
    program's `grid`, a return its function's type), which are then missing or malformed."""
    diags: list[Diagnostic] = []
    defined: set[int] = set()
    checked: dict[int, Attribute] = {}
    memo = _ConstraintMemo()
    broken: set[int] = set()
    for op in (module.walk() if skip is None else _walk_skipping(module, skip)):  # pre-order: parents first
        parent = op.parent_op()
        if parent is not None and id(parent) in broken:
            broken.add(id(op))
            defined.update(id(r) for r in op.results)
            continue
        late = _used_before_defined(op, defined, file)
        if late is not None:
            diags.append(late)
        try:
            try:
                memo.verify(op)
            except (LocatedError, VerifyException):
                if op.regions:
                    broken.add(id(op))
                raise
            _check_empty_blocks(op)
            _check_types(op, checked)
            for check in op_checkers():
                check(op)
        except LocatedError as e:
            diags.append(op_diagnostic(e.op or op, e.message, file))
        except VerifyException as e:
            diags.append(op_diagnostic(op, _first_line(str(e)), file))
    return diags


def _check_empty_blocks(op: Operation) -> None:
    """MLIR's 'empty block' error: a single-block region of an op that needs a terminator holds a
    block without one (`func.func @f() {}`). xDSL checks this in Block.verify, which a verification
    that does not recurse (verify_nested_ops=False, as here) never reaches."""
    if op.has_trait(NoTerminator):
        return
    for region in op.regions:
        if len(region.blocks) == 1 and region.blocks.first.first_op is None:
            raise VerifyException("empty block: expected at least a terminator (e.g. func.return) in its "
                                  "single-block region")


def _used_before_defined(op: Operation, defined: set[int], file: str) -> Diagnostic | None:
    """An op using a result of an op that comes after it (swapped ops): MLIR's dominance error.

    `defined` holds the results of the ops walked so far (walk order is text order)."""
    bad = None
    for i, v in enumerate(op.operands):
        if isinstance(v, OpResult) and id(v) not in defined and bad is None:
            bad = (i, v)
    for r in op.results:
        defined.add(id(r))
    if bad is None:
        return None
    i, v = bad
    name = f" (%{v.name_hint})" if v.name_hint else ""
    where = location_of(v.op)
    at = f" at line {where[1]}" if where is not None else ""
    return op_diagnostic(op, f"operand #{i}{name} does not dominate this use: it is defined by "
                             f"'{v.op.name}'{at}, after this op", file)

