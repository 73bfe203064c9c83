"""`from_jax(fn, *example_args, mesh=None)`: a JAX function -> a global-view ttir module.

The function is lowered by JAX itself (`jax.jit(fn).lower(*example_args)`), so its shardings are
whatever JAX writes: Shardy's `sdy` annotations by default, GSPMD's `mhlo.sharding` when Shardy
is off (then the `mesh`, a `jax.sharding.Mesh`, gives the mesh shape the strings are read over).
A result the jit leaves unconstrained (no out_shardings: JAX writes no sharding on it) is marked
`tt.unconstrained` and leaves in the sharding propagation gives it, as JAX's own compiler leaves
it; an out_shardings the jit names, replicated included, is kept.
The lowered module is printed in generic form and imported by `import_module`; an op meshc
cannot import is reported at the line of Python that made it (JAX records it on every op).
The entry's arguments are named as the Python function names its parameters (`def f(x, w)`
gives `%x`, `%w`: the names meshc.run's inputs take) when each parameter is one array; otherwise
as JAX numbers them (`%arg0`, ...). jax is an optional dependency (`pip install -e '.[jax]'` in
a clone of meshc).
"""

from __future__ import annotations

import inspect

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp

from meshc.errors import Diagnostic, DiagnosticError
from meshc.driver import make_context, parse_source
from meshc.importers.generic_form import from_mlir_module, stamp_locations
from meshc.importers.stablehlo import import_module


def from_jax(fn, *example_args, mesh=None, system: str | None = None) -> ModuleOp:
    """Lower `fn` (jitted or not) for `example_args` (arrays or jax.ShapeDtypeStruct) and import it."""
    try:
        import jax
    except ImportError:
        raise DiagnosticError([Diagnostic("<from_jax>", 0, 0, "meshc.from_jax needs jax: pip install -e '.[jax]' "
                                          "in a clone of meshc, or pip install jax")]) \
            from None
    jitted = fn if hasattr(fn, "lower") else jax.jit(fn)
    name = f"<{getattr(fn, '__name__', 'jax function')} StableHLO>"
    lowered = jitted.lower(*example_args)
    generic = from_mlir_module(lowered.compiler_ir("stablehlo"))
    module = parse_source(make_context(allow_unregistered=True), generic.text, name)
    stamp_locations(module, generic)
    mesh_shape = tuple(mesh.devices.shape) if mesh is not None else None
    out = import_module(module, name, mesh_shape=mesh_shape, system=system)
    _name_arguments(out, fn, example_args, jax)
    return out


def _name_arguments(module: ModuleOp, fn, example_args, jax) -> None:
    """Name the entry's arguments after `fn`'s positional parameters when each example argument
    is one array and the names are usable (distinct identifiers); else leave JAX's `arg<i>`."""
    try:
        params = list(inspect.signature(getattr(fn, "__wrapped__", fn)).parameters.values())
    except (TypeError, ValueError):  # a builtin or a callable without a signature
        return
    names = [p.name for p in params[: len(example_args)]
             if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if len(names) != len(example_args) or len(set(names)) != len(names) \
            or any(len(jax.tree_util.tree_leaves(a)) != 1 for a in example_args):
        return
    entry = next((op for op in module.body.ops if isinstance(op, func.FuncOp)), None)
    if entry is None or len(entry.body.blocks.first.args) != len(names):
        return
    for arg, n in zip(entry.body.blocks.first.args, names):
        if n.isidentifier() and not n.startswith("_"):
            arg.name_hint = n
