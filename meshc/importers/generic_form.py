"""StableHLO in MLIR's generic form, with every op's source location, for the importer.

The importer reads StableHLO in MLIR's generic form (`"stablehlo.add"(%0, %1) : (...) -> ...`),
which xDSL parses without knowing the dialect. StableHLO's own (custom) syntax needs the
dialect's parser, so a module written that way, or lowered by JAX, is printed in generic form by
JAX's MLIR bindings (`get_asm(print_generic_op_form=True)`). Locations are carried apart: the
ops are listed in walk order with the innermost `file:line:col` of their location (the line in
the input file, or for `meshc.from_jax` the line of Python that made the op), and the importer
stamps them back on the parsed ops in the same walk order (`stamp_locations`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from xdsl.ir import Operation

from meshc.errors import Diagnostic, DiagnosticError, stamp_location

_FILE_LOC = re.compile(r'"((?:[^"\\]|\\.)*)":(\d+):(\d+)')
_GENERIC_MODULE = re.compile(r'^\s*(?:"builtin\.module"|"func\.func")\s*\(', re.M)


def is_generic_form(text: str) -> bool:
    """True when the module is written in MLIR's generic op form (what xDSL reads unaided)."""
    return _GENERIC_MODULE.search(text) is not None


@dataclass
class GenericModule:
    text: str
    """The module in generic form."""
    locations: list[tuple[str, int, int] | None]
    """Per op in walk order (pre-order, regions in order), its source file, line and column."""
    names: list[str]
    """Per op in walk order, its name (to check the walk matches the parsed module's)."""


def _mlir_context():
    """An MLIR context that reads every dialect JAX lowers to (stablehlo, sdy, chlo, func...).

    JAX's public `jax.extend.mlir` registers stablehlo and sdy but not MLIR's upstream dialects
    (func), so the context JAX itself lowers in is used."""
    from jax._src.interpreters import mlir as jax_mlir

    ctx = jax_mlir.make_ir_context()
    ctx.allow_unregistered_dialects = True
    return ctx


def _walk(op, out_locs: list, out_names: list, rename: str | None) -> None:
    m = _FILE_LOC.search(str(op.location))
    if m is None:
        out_locs.append(None)
    else:
        file = m.group(1)
        if rename is not None and file in ("-", ""):
            file = rename
        out_locs.append((file, int(m.group(2)), int(m.group(3))))
    out_names.append(op.name)
    for region in op.regions:
        for block in region.blocks:
            for child in block.operations:
                _walk(child.operation, out_locs, out_names, rename)


def from_mlir_module(module, source_name: str | None = None) -> GenericModule:
    """A JAX / MLIR-bindings module -> generic text and its ops' locations."""
    locs: list = []
    names: list = []
    _walk(module.operation, locs, names, source_name)
    text = module.operation.get_asm(print_generic_op_form=True, enable_debug_info=False)
    return GenericModule(text, locs, names)


def to_generic(text: str, name: str) -> GenericModule:
    """StableHLO text in its custom form -> generic form, by JAX's MLIR parser (jax needed)."""
    try:
        import jax  # noqa: F401
    except ImportError:
        raise DiagnosticError([Diagnostic(name, 1, 1, "this StableHLO is written in the dialects' custom syntax, "
                                          "which meshc reads with JAX's MLIR parser: install meshc[jax], or give "
                                          "the module in MLIR's generic form (mlir-opt --mlir-print-op-generic)")]) \
            from None
    from jax._src.lib.mlir import ir

    ctx = _mlir_context()
    try:
        with ctx:
            module = ir.Module.parse(text)
    except ir.MLIRError as e:
        raise DiagnosticError(_mlir_diagnostics(e, name)) from None
    return from_mlir_module(module, name)


def _mlir_diagnostics(e, name: str) -> list[Diagnostic]:
    diags = []
    for d in getattr(e, "error_diagnostics", []) or []:
        m = _FILE_LOC.search(str(d.location))
        line, col = (int(m.group(2)), int(m.group(3))) if m else (0, 0)
        diags.append(Diagnostic(name, line, col, str(d.message)))
    return diags or [Diagnostic(name, 0, 0, str(e).strip().splitlines()[-1])]


def stamp_locations(module: Operation, generic: GenericModule) -> None:
    """Put each op's source location back, pairing the parsed ops and the listed ones in walk
    order. An op listed without a file location (JAX names the ops of a nested jit only by
    name) takes its nearest enclosing op's, which for a nested jit is the line calling it. When
    the two walks disagree (they should not), the ops keep their places in the generic text."""
    ops = list(module.walk())
    names = [op.op_name.data if hasattr(op, "op_name") else op.name for op in ops]
    if names != generic.names:
        return
    found: dict[int, tuple[str, int, int]] = {}
    for op, loc in zip(ops, generic.locations):
        if loc is not None and loc[1] < 1:  # MLIR puts its implicit module at file:0:0: no place
            loc = None
        parent = op.parent_op()
        while loc is None and parent is not None:
            loc = found.get(id(parent))
            parent = parent.parent_op()
        if loc is not None:
            found[id(op)] = loc
            stamp_location(op, *loc)
