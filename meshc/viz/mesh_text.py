"""A mesh view as terminal tables (rich): the tensor block by block, the mesh chip by chip, and
the list of blocks with the devices and chips holding each (replicas included).

Higher-rank tensors and meshes print as several 2-D tables (small multiples), one for each
index of their leading axes: `dims 0..n-3 piece (i, j)` for the tensor, `mesh[i, j, :, :]`
for the mesh. Every cell names its block (B<n>) and chip, so nothing depends on colour.
"""

from __future__ import annotations

from itertools import product

from rich.console import Console
from rich.table import Table

from meshc.viz.model import MeshView
from meshc.layout.shapes import fmt_shape
from meshc.viz.chip_text import render_chip_text

MAX_CELLS = 1024
"""Tables above this many cells are left out (the block list still prints)."""


def _chips_text(chips: tuple[int, ...], limit: int = 8) -> str:
    shown = ", ".join(str(c) for c in chips[:limit])
    return shown + (f", ... ({len(chips)})" if len(chips) > limit else "")


def _tensor_tables(view: MeshView) -> list[tuple[str, Table]]:
    """The tensor's block grid over its last two dims, one table per leading piece index."""
    pieces = view.pieces()
    rank = len(pieces)
    rows_d, cols_d = (rank - 2, rank - 1) if rank >= 2 else (None, 0)
    lead = pieces[:-2] if rank >= 2 else ()
    by_piece = {b.piece: b for b in view.blocks}
    nr = pieces[rows_d] if rows_d is not None else 1
    nc = pieces[cols_d]
    tables = []
    for lp in product(*[range(n) for n in lead]):
        if len(lead) and any(n > 1 for n in lead):
            sub = ", ".join(f"dim {d} piece {i}" for d, i in enumerate(lp))
            title = f"the tensor, block by block ({sub})"
        else:
            title = "the tensor, block by block"
        t = Table(show_lines=True)
        t.add_column("")
        for c in range(nc):
            b = by_piece[(*lp, 0, c) if rows_d is not None else (c,)]
            a, z = b.bounds[cols_d]
            t.add_column(f"dim {cols_d}\n{a}:{z}", justify="center")
        for r in range(nr):
            cells = []
            for c in range(nc):
                b = by_piece[(*lp, r, c) if rows_d is not None else (c,)]
                cells.append(f"{b.label}\nchip{'s' if len(b.chips) > 1 else ''} {_chips_text(b.chips, 4)}")
            if rows_d is not None:
                b0 = by_piece[(*lp, r, 0)]
                a, z = b0.bounds[rows_d]
                head = f"dim {rows_d}\n{a}:{z}"
            else:
                head = ""
            t.add_row(head, *cells)
        tables.append((title, t))
    return tables


def _mesh_tables(view: MeshView) -> list[tuple[str, Table]]:
    """The mesh chip by chip: one table per index of the mesh's leading axes."""
    shape = view.mesh.shape
    rank = len(shape)
    lead = shape[:-2] if rank >= 2 else ()
    nr = shape[-2] if rank >= 2 else 1
    nc = shape[-1]
    names = view.mesh.names
    tables = []
    for lp in product(*[range(n) for n in lead]):
        where = "mesh" if not lead else "mesh[" + ", ".join(str(i) for i in lp) + ", :, :]"
        t = Table(show_lines=True)
        ax_c = names[-1] if names else f"axis {rank - 1}"
        t.add_column("")
        for c in range(nc):
            t.add_column(f"{ax_c} = {c}", justify="center")
        for r in range(nr):
            cells = []
            for c in range(nc):
                coord = (*lp, r, c) if rank >= 2 else (c,)
                b = view.blocks[view.device_block[coord]]
                part = view.partial_part(coord)
                extra = f"\naddend {part[0] + 1}/{part[1]}" if part else ""
                cells.append(f"chip {view.chip_of(coord)}\n{b.label}{extra}")
            ax_r = (names[-2] if names else f"axis {rank - 2}") if rank >= 2 else ""
            t.add_row(f"{ax_r} = {r}" if rank >= 2 else "", *cells)
        tables.append((f"{where}: the chip and block of every device", t))
    return tables


def _block_table(view: MeshView) -> Table:
    t = Table()
    for col in ("block", "slice", "shape", "devices (mesh coords)", "chips"):
        t.add_column(col)
    for b in view.blocks:
        devs = ", ".join("(" + ",".join(map(str, c)) + ")" for c in b.devices[:6])
        if len(b.devices) > 6:
            devs += f", ... ({len(b.devices)})"
        t.add_row(b.label, b.ranges(), fmt_shape(b.shape), devs, _chips_text(b.chips, 12))
    return t


def render_mesh_text(view: MeshView, console: Console | None = None, chip_detail: bool = True) -> None:
    """Print the view's tables; with a local placement, also where a chip keeps its block."""
    con = console or Console(highlight=False)
    head, what = view.title().split("\n")
    con.print(head, markup=False)  # a named mesh's `[dp=2, tp=4]` is text, not rich markup
    con.print(what, markup=False)
    ncells = len(view.blocks) + view.mesh.size
    if ncells <= MAX_CELLS:
        for title, t in _tensor_tables(view) + _mesh_tables(view):
            con.print(title)
            con.print(t)
    else:
        con.print(f"({len(view.blocks)} blocks on {view.mesh.size} devices: grids left out, the list follows)")
    con.print("blocks: the slice of the tensor each is, and who holds it")
    con.print(_block_table(view))
    if chip_detail and view.local is not None:
        con.print(f"inside every chip, its block ({fmt_shape(view.local.shape)}) is laid out as:")
        render_chip_text(view.local, "the block on one chip", console=con)
