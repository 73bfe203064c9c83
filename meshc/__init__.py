"""meshc: place tensors across a mesh of Tenstorrent-style chips, lower them, and simulate them.

Python API (see docs/design.md):
    meshc.parse(text) -> ModuleOp
    meshc.compile(module_or_text, pipeline) -> ModuleOp
    meshc.lower(module, pipeline) -> ModuleOp   (ttir lowered for the simulator)
    meshc.run(module, inputs=None, *, pipeline=None, abstract=False, seed=0) -> RunResult
        (inputs not given are seeded random, as meshc-run's; result.addressable_shards(i) gives
        each device's piece with its device and index, as jax.Array.addressable_shards)
    meshc.from_jax(fn, *example_args, mesh=None) -> ModuleOp   (needs jax: pip install -e '.[jax]')
    meshc.visualize_sharding(shape, spec, mesh) -> MeshView   which chip holds which block (spec:
        "[S0, R]", a JAX NamedSharding / PartitionSpec with its Mesh, or DTensor placements)
    meshc.visualize_value(program, "%x") -> MeshView   where a value of a program lives (the
        sharding the compiler chooses for a global-view program's values)
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


def lower(module, pipeline: str | None = None, target: str = "ttnn"):
    """A ttir module lowered for the simulator with `pipeline` (default ttir-to-<target>-pipeline:
    the module keeps the `#tt.device` it carries; one without runs on one n150 chip), as a clone;
    a ttnn or ttmetal module is returned as it is."""
    from meshc.interp.runner import RunError, dialect_of

    if dialect_of(module) != "ttir":
        return module
    if target not in ("ttnn", "ttmetal"):
        raise RunError(f"target '{target}' is not ttnn or ttmetal")
    return compile(module.clone(), pipeline or f"ttir-to-{target}-pipeline")


def run(module, inputs=None, *, entry: str | None = None, seed: int = 0, mode: str = "sim",
        pipeline: str | None = None, system=None, progress=None, target: str = "ttnn",
        source_device=None, abstract: bool = False):
    """Run a ttir, ttnn or ttmetal module (or its text) on the simulator, a ttir module lowered
    first (to `target`, with `pipeline`); mode="golden" runs it on numpy. `inputs` (by argument
    name, as the program names them: `{"x": ...}` for `%x`) may leave out any argument: it is
    then seeded random (`seed`, default 0), as meshc-run does. `progress` is an
    interpreter listener; `source_device` the device of the program before it was lowered
    (default: the module's own); `abstract=True` runs on shapes only (meshc.interp.runner.run).
    Returns a RunResult; lowering errors raise DiagnosticError, bad input
    meshc.interp.runner.RunError."""
    from meshc.dialects.tt import module_device
    from meshc.interp.runner import run as run_lowered, run_golden

    if isinstance(module, str):
        module = parse(module)
    if mode == "golden":
        return run_golden(module, inputs or {}, entry, seed, progress)
    # the device of the program as written (a caller that lowered it already passes it)
    source_device = source_device if source_device is not None else module_device(module)
    return run_lowered(lower(module, pipeline, target), inputs or {}, entry, seed, system=system,
                       progress=progress, source_device=source_device, abstract=abstract)


def from_jax(fn, *example_args, mesh=None, system=None):
    """Lower a JAX function with JAX's own export and import it as global-view ttir (meshc.importers)."""
    from meshc.importers import from_jax as _from_jax

    return _from_jax(fn, *example_args, mesh=mesh, system=system)


def visualize_value(program, value: str | None = None, *, output: str | None = None, text: bool | None = None):
    """Show where a value of a program lives: `program` is a module, its text or a RunResult
    (the program that ran, as written: a lowered run's values are named as in the ttir program
    it was lowered from); `value` as meshc-opt prints it (`"%h"`, `"%1"`; default: the first
    value with a placement). A global-view program's value is shown with the sharding
    ttir-propagate-sharding chooses for it (so is an intermediate of the program a lowered one
    came from). Prints tables unless `text=False` (default: when no `output`); `output=` writes
    a PNG or SVG. Returns the MeshView (or the one-chip Placement)."""
    from meshc.dialects.reference import find_reference
    from meshc.tools.value_view import show_program_value

    module = getattr(program, "module", program)
    if isinstance(module, str):
        module = parse(module)
    elif module is not program and find_reference(module) is not None:
        module = find_reference(module)  # a run's values by the names of the program as written
    return show_program_value(module, value, output=output, text=text)


def visualize_sharding(shape, spec, mesh=None, **kwargs):
    """Show which chip holds which block of a tensor placed by a sharding spec on a mesh:
    `meshc.visualize_sharding((64, 64), "[S0, R]", (2, 4))` prints tables; `output="x.png"`
    (or .svg) draws a picture. `spec` may also be a JAX NamedSharding, a PartitionSpec (with
    `mesh` a JAX Mesh) or DTensor placements. See meshc.viz.visualize_sharding."""
    from meshc.viz import visualize_sharding as _visualize

    return _visualize(shape, spec, mesh, **kwargs)
