"""The reference program a lowered module carries: the ttir source it was lowered from.

Lowering (`ttir-to-ttnn-pipeline`, `ttir-to-ttmetal-pipeline`) keeps the source program inside
the lowered module as a nested module marked with the unit attribute `meshc.reference`:

    module attributes {tt.device = ...} {
      func.func @main(...) { ... ttnn ops ... }
      module attributes {meshc.reference, tt.device = ...} {
        func.func @main(...) { ... the ttir ops as written ... }
      }
    }

It is plain MLIR (a nested `builtin.module` with a discardable attribute), so it survives
printing and parsing, generic form and real `mlir-opt --allow-unregistered-dialect`.
`meshc-run --check` compares a lowered file with a numpy run of its reference, so a lowered
file can be checked alone. Passes never see it: the driver takes it out of the module while a
pass runs (`detach_references` / `attach_reference`).
"""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp, UnitAttr

REFERENCE_ATTR = "meshc.reference"


def is_reference(op) -> bool:
    return isinstance(op, ModuleOp) and REFERENCE_ATTR in op.attributes


def find_reference(module: ModuleOp) -> ModuleOp | None:
    """The reference module `module` carries directly in its body, or None."""
    for op in module.body.ops:
        if is_reference(op):
            return op
    return None


def make_reference(module: ModuleOp) -> ModuleOp:
    """A copy of `module` (its attributes and its ops, without references of its own), marked
    as the reference."""
    ref = module.clone()
    for op in list(ref.body.ops):
        if is_reference(op):
            op.detach()
            op.erase()
    ref.attributes[REFERENCE_ATTR] = UnitAttr()
    ref.properties.pop("sym_name", None)
    return ref


def detach_references(module: ModuleOp) -> list[ModuleOp]:
    """Take the reference modules out of `module` (kept for `attach_reference`)."""
    refs = [op for op in module.body.ops if is_reference(op)]
    for r in refs:
        r.detach()
    return refs


def attach_reference(module: ModuleOp, ref: ModuleOp) -> None:
    """Put a reference module at the end of `module`'s body, replacing one it carries."""
    old = find_reference(module)
    if old is not None:
        old.detach()
        old.erase()
    module.body.block.add_op(ref)
