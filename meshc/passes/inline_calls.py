"""`inline`: replace every `func.call` by the body of the function it calls (MLIR's `inline` pass,
for the calls meshc meets: direct calls to functions of the same module).

The global-view passes (sharding propagation, partitioning) and both lowerings see one
function at a time; a call would cross from one program into another, so the pipelines inline
calls first. Callees are inlined bottom-up (a callee's own calls first), each call site gets its
own copy of the callee's ops (with the callee's source locations, so an error inside an inlined
body points at the line that wrote it), and a private callee no call names any more is erased
(a public one stays a function of its own). A pipeline stage (a function carrying `tt.stage`,
docs/pipeline.md) is not inlined: its calls are the pipeline's structure.

Located errors: a call to a declaration (no body) and recursion (which inlining cannot end); the
verifier has already refused a call to a function the module does not define and one whose types
are not the callee's.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from meshc.dialects.tt import STAGE_ATTR
from meshc.errors import LocatedError


def _callee_name(call: func.CallOp) -> str:
    return call.callee.root_reference.data


def _check_call(call: func.CallOp, callee: func.FuncOp) -> None:
    name = _callee_name(call)
    if not callee.body.blocks or callee.body.blocks.first is None or not callee.body.blocks.first.ops:
        raise LocatedError(f"calls @{name}, a declaration without a body; meshc inlines calls and needs the "
                           "callee's ops", call)
    if len(callee.body.blocks) != 1:
        raise LocatedError(f"calls @{name}, which has {len(callee.body.blocks)} blocks; meshc inlines "
                           "functions of one block", call)


def inline_calls(module: ModuleOp) -> None:
    """Inline every call of `module` (see the module docstring); LocatedError on bad calls."""
    funcs = {f.sym_name.data: f for f in module.body.block.ops if isinstance(f, func.FuncOp)}
    done: set[str] = set()

    def visit(f: func.FuncOp, stack: list[str]) -> None:
        name = f.sym_name.data
        if name in done:
            return
        stack.append(name)
        for call in [op for op in f.walk() if isinstance(op, func.CallOp)]:
            target = _callee_name(call)
            callee = funcs[target]  # (the verifier checked that the module defines it)
            if STAGE_ATTR in callee.attributes:
                continue  # a pipeline stage: the call is the pipeline's structure
            if target in stack:
                cycle = " -> ".join(f"@{n}" for n in stack[stack.index(target):] + [target])
                raise LocatedError(f"calls @{target} recursively ({cycle}); inlining cannot end", call)
            _check_call(call, callee)
            visit(callee, stack)
            _inline_one(call, callee)
        stack.pop()
        done.add(name)

    for f in list(funcs.values()):
        visit(f, [])
    called = {_callee_name(c) for c in module.walk() if isinstance(c, func.CallOp)}
    for name, f in funcs.items():
        if name not in called and f.sym_visibility is not None and f.sym_visibility.data == "private":
            f.detach()
            f.erase()


def _inline_one(call: func.CallOp, callee: func.FuncOp) -> None:
    """Replace `call` by a copy of `callee`'s body (which holds no calls any more)."""
    region = callee.body.clone()
    block = region.blocks.first
    assert block is not None
    ret = block.last_op
    assert isinstance(ret, func.ReturnOp)
    Rewriter.inline_block(block, InsertPoint.before(call), call.arguments)
    results = list(ret.operands)  # (a returned argument is now the caller's value)
    for old, new in zip(call.results, results):
        old.replace_all_uses_with(new)
    ret.detach()
    ret.erase()
    call.detach()
    call.erase()


@dataclass(frozen=True)
class InlinePass(ModulePass):
    """`inline`: every func.call replaced by its callee's body (pipeline stages excepted)."""

    name = "inline"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        inline_calls(op)
