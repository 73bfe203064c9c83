"""One chip's placement as a picture (matplotlib; PNG or SVG by the file's extension).

Two panels: the tensor as its grid of pages, each coloured by its owner and labelled with the
page number and the owner (so a palette repeating over 64 cores is never ambiguous); and the
owners (the core grid, or the DRAM banks as a near-square grid) with the pages each holds,
slot by slot. Labels are sized to their cells (`meshc.viz.palette.fit_font`) and left out
where no readable size fits, never overlapping. The facts come from a
`meshc.layout.placement.Placement` (seed figures: docs/placement.md).
"""

from __future__ import annotations

import math

import numpy as np

from meshc.viz.chip_text import describe, short_owner
from meshc.viz.model import grid_of
from meshc.viz.palette import EMPTY, colours, drawn_aspect, fit_font, label_cell, points_per_unit


def save_figure(fig, out: str) -> None:
    """Write a figure as PNG or SVG (by the extension of `out`)."""
    import matplotlib.pyplot as plt

    fmt = "svg" if out.lower().endswith(".svg") else "png"
    fig.savefig(out, dpi=110, format=fmt)
    plt.close(fig)


def draw_tensor_pages(ax, p, pal, label: str, tensor_only: bool = False) -> None:
    """The tensor's page grid, pages coloured by owner (by page when `tensor_only`)."""
    from matplotlib.patches import Rectangle

    rows, cols = p.layout.page_grid
    ph, pw = p.layout.page_shape
    hp, wp = p.layout.padded_shape
    if tensor_only:
        page_pal = colours(min(p.num_pages, 20))
        fill = np.array(page_pal)[np.arange(p.num_pages).reshape(rows, cols) % len(page_pal)]
    else:
        fill = np.array(pal)[p.page_owner.reshape(rows, cols)]
    aspect, to_scale = drawn_aspect(hp, wp)  # the tensor's own shape, up to 1:8
    ax.imshow(fill, extent=(0, wp, hp, 0), interpolation="nearest", aspect=aspect)
    ax.set_xlim(0, wp)
    ax.set_ylim(hp, 0)
    if rows * cols <= 4096:
        for r in range(rows + 1):
            ax.axhline(r * ph, color="white", lw=0.6)
        for c in range(cols + 1):
            ax.axvline(c * pw, color="white", lw=0.6)
    scale = points_per_unit(ax)

    def text(q: int) -> str:
        return f"P{q}" if tensor_only else f"P{q}\n{short_owner(p.owners[int(p.page_owner[q])])}"

    longest = max((text(q) for q in range(min(rows * cols, 1025))), key=lambda t: max(map(len, t.split("\n"))))
    size = fit_font(scale, pw, ph, longest) if rows * cols <= 1024 else None
    labelled = size is not None
    if labelled:  # every page labelled at one size, or none
        for q in range(rows * cols):
            r, c = divmod(q, cols)
            label_cell(ax, scale, c * pw, r * ph, pw, ph, text(q), fill[r, c], size=size)
    blocks = p.shard_blocks
    if not labelled and not tensor_only and blocks is not None:  # too many pages: name each shard's core
        r0, r1, c0, c1 = blocks[0]
        size = fit_font(scale, (c1 - c0) * pw, (r1 - r0) * ph, max((short_owner(o) for o in p.owners), key=len))
        for k, (r0, r1, c0, c1) in enumerate(blocks):
            ax.add_patch(Rectangle((c0 * pw, r0 * ph), (c1 - c0) * pw, (r1 - r0) * ph, fill=False, ec="black", lw=0.8))
            if size is not None:
                label_cell(ax, scale, c0 * pw, r0 * ph, (c1 - c0) * pw, (r1 - r0) * ph, short_owner(p.owners[k]),
                           pal[k], size=size)
    outer, h, w = p.layout.outer, p.layout.height, p.layout.width
    if outer <= 64:  # the real (unpadded) extent of each 2D slice
        for o in range(outer):
            ax.add_patch(Rectangle((0, o * p.layout.slice_height), w, h, fill=False, ec="black", lw=1.5))
    ax.set_xlabel("column (elements)" + ("" if to_scale else "; not to scale: too long to draw at its aspect ratio"))
    ax.set_ylabel("row (elements, outer dims folded in)")
    ax.set_title(f"{label}\n{p.num_pages} pages of {ph}x{pw}", fontsize=9)


def _owner_cells(p) -> tuple[dict, int, int, str]:
    """Where each owner sits in the owner panel: {owner: (row, col)}, grid rows, cols, caption."""
    if isinstance(p.owners[0], tuple):
        cores = p.owners
        y0, x0 = min(c[0] for c in cores), min(c[1] for c in cores)
        y1, x1 = max(c[0] for c in cores), max(c[1] for c in cores)
        if p.config.layout == "interleaved":
            y0, x0, (y1, x1) = 0, 0, (p.arch.grid[0] - 1, p.arch.grid[1] - 1)
        cells = {o: (o[0] - y0, o[1] - x0) for o in cores}
        return cells, y1 - y0 + 1, x1 - x0 + 1, f"cores (y {y0}-{y1}, x {x0}-{x1})"
    gr, gc = grid_of(len(p.owners))
    cells = {o: divmod(i, gc) for i, o in enumerate(p.owners)}
    return cells, gr, gc, f"{len(p.owners)} DRAM banks"


def draw_owners(ax, p, pal, title: str | None = None) -> None:
    """The owners (cores or DRAM banks), each with the pages it holds, slot by slot."""
    from matplotlib.patches import Rectangle

    table = p.slot_table()
    cells, grid_r, grid_c, what = _owner_cells(p)
    max_slots = max(int(p.owner_slots.max(initial=1)), 1)
    if isinstance(p.owners[0], int):
        sub_c = 1 if max_slots <= 8 else math.ceil(math.sqrt(max_slots))  # a bank's pages in a column
    else:
        sub_c = math.ceil(math.sqrt(max_slots))
    sub_r = math.ceil(max_slots / sub_c)
    ax.set_xlim(-0.05, grid_c + 0.05)
    ax.set_ylim(grid_r + 0.05, -0.05)
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])
    scale = points_per_unit(ax)
    head = 0.2  # the top of each cell names the owner; the slots fill the rest
    sw, sh = 0.9 / sub_c, (0.95 - head) / sub_r
    name_size = fit_font(scale, 1, head, max((short_owner(o) for o in p.owners), key=len), largest=9)
    page_size = fit_font(scale, sw, sh, f"P{max(p.num_pages - 1, 0)}", largest=9)
    for k, o in enumerate(p.owners):
        r, c = cells[o]
        ax.add_patch(Rectangle((c, r), 1, 1, fill=False, ec="black", lw=1.0))
        if name_size:
            label_cell(ax, scale, c, r, 1, head, short_owner(o), (1, 1, 1, 1), size=name_size)
        for s in range(int(p.owner_slots[k])):
            sr, sc = divmod(s, sub_c)
            x, y = c + 0.05 + sc * sw, r + head + sr * sh
            q = int(table[k, s])
            fill = pal[k] if q >= 0 else EMPTY
            ax.add_patch(Rectangle((x, y), sw, sh, ec="white", lw=0.5, fc=fill))
            if q >= 0 and page_size:
                label_cell(ax, scale, x, y, sw, sh, f"P{q}", fill, size=page_size)
    ax.set_title(title or f"{what}: the pages each holds, slot by slot", fontsize=9)


def render_chip_png(p, label: str, out: str, tensor_only: bool = False, title: str | None = None) -> None:
    """Draw a one-chip placement (see the module docstring) into `out` (.png or .svg)."""
    save_figure(chip_figure(p, label, tensor_only, title), out)


def chip_figure(p, label: str, tensor_only: bool = False, title: str | None = None):
    """The matplotlib figure of a one-chip placement."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    pal = colours(len(p.owners))
    npanels = 1 if tensor_only else 2
    hp, wp = p.layout.padded_shape
    aspect, _ = drawn_aspect(hp, wp)
    height = min(6.5, max(3.5, 6.5 * aspect * hp / max(wp, 1) + 1.6))  # a wide tensor: a shorter figure
    fig, axes = plt.subplots(1, npanels, figsize=(6.5 * npanels, height), squeeze=False)
    fig.subplots_adjust(left=0.07, right=0.98, top=0.86, bottom=0.09, wspace=0.15)
    draw_tensor_pages(axes[0][0], p, pal, label, tensor_only)
    if not tensor_only:
        draw_owners(axes[0][1], p, pal)
    if title is None and tensor_only:
        ph, pw = p.layout.page_shape
        title = (f"tiled layout: a page is a {ph}x{pw} tile" if p.layout.tile
                 else f"row-major layout: a page is a row ({pw} elements)")
    fig.suptitle(title or describe(p), fontsize=11)
    return fig
