"""meshc: place tensors across a mesh of Tenstorrent-style chips, lower them, and simulate them.

Python API (see docs/design.md):
    meshc.parse(text) -> ModuleOp
    meshc.compile(module_or_text, pipeline) -> ModuleOp
    meshc.run(module, inputs) -> RunResult
    meshc.from_jax(fn, *example_args, mesh=None) -> ModuleOp   (needs jax: pip install meshc[jax])
    meshc.visualize_sharding(shape, spec, mesh) -> MeshView   which chip holds which block
    meshc.layout            the placement model
"""

from __future__ import annotations

__version__ = "0.1.0"


def parse(text: str, name: str = "<input>"):
    """Parse and verify MLIR text with meshc's dialects; errors raise DiagnosticError."""
    from meshc.driver import make_context, parse_source, verify_or_raise

    module = parse_source(make_context(), text, name)
    verify_or_raise(module, name)
    return module


def compile(module_or_text, pipeline: str, name: str = "<input>"):
    """Run a pass pipeline spec (e.g. 'ttir-to-ttnn-pipeline{system=t3k mesh-shape=2,4}')."""
    from meshc.driver import apply_pipeline, build_pipeline, make_context

    module = parse(module_or_text, name) if isinstance(module_or_text, str) else module_or_text
    apply_pipeline(make_context(), module, build_pipeline(pipeline), name)
    return module


def run(module, inputs=None, **kwargs):
    """Run a ttir, ttnn or ttmetal module on the simulator; returns a RunResult."""
    from meshc.interp.runner import run as _run

    return _run(module, inputs or {}, **kwargs)


def from_jax(fn, *example_args, mesh=None, system=None):
    """Lower a JAX function with JAX's own export and import it as global-view ttir (meshc.importers)."""
    from meshc.importers import from_jax as _from_jax

    return _from_jax(fn, *example_args, mesh=mesh, system=system)


def visualize_sharding(shape, spec, mesh=None, **kwargs):
    """Show which chip holds which block of a tensor placed by a sharding spec on a mesh:
    `meshc.visualize_sharding((64, 64), "[S0, R]", (2, 4))` prints tables; `output="x.png"`
    (or .svg) draws a picture. See meshc.viz.visualize_sharding."""
    from meshc.viz import visualize_sharding as _visualize

    return _visualize(shape, spec, mesh, **kwargs)
