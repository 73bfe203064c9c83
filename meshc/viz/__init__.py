"""Pictures and terminal tables of where tensors live: across a mesh of chips (`mesh_view`,
`visualize_sharding`) and inside one chip, core by core and bank by bank.

Every fact drawn here comes from the placement model (`meshc.layout`): this package draws, it
never decides a placement. `meshc.visualize_sharding(shape, spec, mesh)` prints the mesh view
in the terminal (as JAX's `visualize_array_sharding` and DTensor's `visualize_sharding` do for
1-D and 2-D meshes, here for any mesh rank) and, given `output=`, writes a PNG or SVG picture.
"""

from __future__ import annotations

from meshc.viz.foreign import as_spec
from meshc.viz.model import Block, MeshView, mesh_view
from meshc.viz.mesh_text import render_mesh_text
from meshc.viz.mesh_picture import render_mesh_png


def show(view: MeshView, output: str | None = None, text: bool = True, title: str | None = None) -> MeshView:
    """Print a mesh view (rich tables) and/or draw it into `output` (.png or .svg)."""
    if text:
        render_mesh_text(view)
    if output:
        render_mesh_png(view, output, title)
    return view


def visualize_sharding(shape, spec, mesh=None, *, output: str | None = None, text: bool | None = None,
                       chips=None, system=None, dtype: str | None = None, label: str = "") -> MeshView:
    """Show which chip holds which block of a `shape` tensor placed by `spec` on `mesh`.

    `spec` is a sharding spec (`"[S0, R]"`, `"[S01, R]"`, `"[B=2/DP=2, T]"`, or a ShardingSpec),
    a JAX `NamedSharding`, a JAX `PartitionSpec` (with `mesh` a JAX Mesh), or DTensor placements
    (`[Shard(0), Replicate()]`, one a mesh dim; meshc.viz.foreign); `mesh` a shape tuple such as
    (2, 4), a meshc.layout.Mesh or a JAX Mesh (optional when the spec names its mesh). Prints tables in the terminal unless `text=False` (default: print when no
    `output` is given); `output=` writes a PNG or SVG picture. `chips` (device order) defaults
    to the chips the simulator runs the mesh on. Returns the MeshView (blocks, chips)."""
    spec, mesh = as_spec(spec, mesh, len(tuple(shape)))
    view = mesh_view(shape, spec, mesh, chips=chips, system=system, dtype=dtype, label=label)
    return show(view, output, text if text is not None else output is None)


__all__ = ["Block", "MeshView", "mesh_view", "show", "visualize_sharding"]
