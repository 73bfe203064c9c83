"""`from_jax(fn, *example_args, mesh=None)`: a JAX function -> a global-view ttir module.

The function is lowered by JAX itself (`jax.jit(fn).lower(*example_args)`), so its shardings are
whatever JAX writes: Shardy's `sdy` annotations by default, GSPMD's `mhlo.sharding` when Shardy
is off (then the `mesh`, a `jax.sharding.Mesh`, gives the mesh shape the strings are read over).
The lowered module is printed in generic form and imported by `import_module`; an op meshc
cannot import is reported at the line of Python that made it (JAX records it on every op).
jax is an optional dependency (`pip install meshc[jax]`).
"""

from __future__ import annotations

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
        raise DiagnosticError([Diagnostic("<from_jax>", 0, 0, "meshc.from_jax needs jax: pip install meshc[jax]")]) \
            from None
    jitted = fn if hasattr(fn, "lower") else jax.jit(fn)
    name = f"<{getattr(fn, '__name__', 'jax function')} StableHLO>"
    lowered = jitted.lower(*example_args)
    generic = from_mlir_module(lowered.compiler_ir("stablehlo"))
    module = parse_source(make_context(allow_unregistered=True), generic.text, name)
    stamp_locations(module, generic)
    mesh_shape = tuple(mesh.devices.shape) if mesh is not None else None
    return import_module(module, name, mesh_shape=mesh_shape, system=system)
