"""A mesh view as a picture (matplotlib; PNG or SVG by the file's extension).

Left: the global tensor over its last two dims, drawn to its aspect ratio (up to 1:8; a longer
tensor is drawn 1:8 and says so), cut into its blocks, each coloured and labelled with its block
(B<n>) and the chips holding it, the block boundaries as the axis ticks; a tensor whose leading
dims are split draws one small panel per leading piece. Middle: the mesh of chips (rows: the
next-to-last mesh axis, columns: the last, each axis named when the mesh names it), each chip
labelled with its id and its block; a 3-D or 4-D mesh draws one small panel per index of its
leading axes. Right (when the chip-level placement is known): one chip's cores or DRAM banks and
the pages of its block each holds. The labels in the cells are the legend (no list repeats
them); they are sized to fit their cells (`meshc.viz.palette`).
"""

from __future__ import annotations

from itertools import product

from meshc.viz.chip_picture import draw_owners, save_figure
from meshc.viz.model import MeshView, grid_of
from meshc.viz.palette import MAX_ASPECT, colours, drawn_aspect, label_cell, points_per_unit
from meshc.layout.shapes import fmt_shape

MAX_PANELS = 64
"""Small multiples drawn at most (the rest are named in the panel area's title)."""
MAX_TICKS = 16
"""Block boundaries marked on an axis at most (evenly spaced ones beyond)."""


def axis_name(names: tuple[str, ...], axis: int) -> str:
    """`mesh axis 1 (tp)`, or `mesh axis 1` on a mesh whose axes have no names."""
    return f"mesh axis {axis}" + (f" ({names[axis]})" if names else "")


def _ticks(edges: list[int]) -> list[int]:
    if len(edges) <= MAX_TICKS:
        return edges
    step = -(-len(edges) // MAX_TICKS)
    return edges[::step] + ([edges[-1]] if (len(edges) - 1) % step else [])


def _chips(chips: tuple[int, ...], limit: int) -> str:
    s = ",".join(str(c) for c in chips[:limit])
    return s + ("..." if len(chips) > limit else "")


def _panel_axes(fig, rect: tuple[float, float, float, float], n: int, square: bool | float) -> list:
    """n axes in a near-square grid filling rect = (left, bottom, width, height) of the figure."""
    gr, gc = grid_of(n)
    left, bottom, width, height = rect
    gap_x = 0.012 if n > 1 else 0.0
    gap_y = 0.045 if n > 1 else 0.0
    w = (width - gap_x * (gc - 1)) / gc
    h = (height - gap_y * (gr - 1)) / gr
    axes = []
    for i in range(n):
        r, c = divmod(i, gc)
        ax = fig.add_axes((left + c * (w + gap_x), bottom + (gr - 1 - r) * (h + gap_y), w, h))
        if square:
            ax.set_aspect("equal" if square is True else float(square), adjustable="box")
        axes.append(ax)
    return axes


def _draw_tensor(fig, rect, view: MeshView, pal) -> None:
    from matplotlib.patches import Rectangle

    rank = len(view.shape)
    pieces = view.pieces()
    lead = pieces[:-2] if rank >= 2 else ()
    combos = list(product(*[range(n) for n in lead]))
    shown = combos[:MAX_PANELS]
    height = view.shape[-2] if rank >= 2 else 1
    width = view.shape[-1]
    aspect, to_scale = drawn_aspect(height, width) if rank >= 2 else (max(width, 1) / 8, False)
    axes = _panel_axes(fig, rect, len(shown), square=aspect)
    col_edges = sorted({e for b in view.blocks for e in b.bounds[-1]})
    row_edges = sorted({e for b in view.blocks for e in b.bounds[-2]}) if rank >= 2 else []
    for ax, lp in zip(axes, shown):
        ax.set_xlim(0, max(width, 1))
        ax.set_ylim(max(height, 1), 0)
        scale = points_per_unit(ax)
        for b in view.blocks:
            if b.piece[: len(lead)] != lp or b.is_empty:
                continue
            x0, x1 = b.bounds[-1]
            y0, y1 = b.bounds[-2] if rank >= 2 else (0, 1)
            fill = pal[b.index]
            ax.add_patch(Rectangle((x0, y0), x1 - x0, y1 - y0, fc=fill, ec="white", lw=1.0))
            for text in (f"{b.label}\nchip{'s' if len(b.chips) > 1 else ''} {_chips(b.chips, 4)}", b.label):
                if label_cell(ax, scale, x0, y0, x1 - x0, y1 - y0, text, fill):
                    break
        if any(n > 1 for n in lead):
            first = next(bb for bb in view.blocks if bb.piece[: len(lead)] == lp)
            ax.set_title(", ".join(f"dim {d}: {a}:{z}" for d, (a, z) in enumerate(first.bounds[: len(lead)])),
                         fontsize=7)
        ax.set_xticks(_ticks(col_edges))
        ax.set_yticks(_ticks(row_edges))
        ax.tick_params(labelsize=7)
        if ax is not axes[0] and len(shown) > 1 and axes.index(ax) % grid_of(len(shown))[1]:
            ax.tick_params(labelleft=False)
    if rank >= 2:
        axes[-1].set_xlabel(f"dim {rank - 1} (elements)", fontsize=8)
        axes[0].set_ylabel(f"dim {rank - 2} (elements)", fontsize=8)
    else:
        for ax in axes:
            ax.set_yticks([])
        axes[-1].set_xlabel("dim 0 (elements)", fontsize=8)
    more = f" (first {MAX_PANELS} of {len(combos)} panels)" if len(combos) > len(shown) else ""
    scale = "" if to_scale else " (not to scale: too long to draw at its aspect ratio)"
    fig.text(rect[0] + rect[2] / 2, rect[1] + rect[3] + 0.035, f"the tensor {fmt_shape(view.shape)}, "
             f"block by block{more}{scale}", ha="center", fontsize=10)


def _draw_mesh(fig, rect, view: MeshView, pal) -> None:
    from matplotlib.patches import Rectangle

    shape = view.mesh.shape
    rank = len(shape)
    lead = shape[:-2] if rank >= 2 else ()
    nr, nc = (shape[-2], shape[-1]) if rank >= 2 else (1, shape[0])
    combos = list(product(*[range(n) for n in lead]))
    shown = combos[:MAX_PANELS]
    axes = _panel_axes(fig, rect, len(shown), square=True)
    names = view.mesh.names
    for ax, lp in zip(axes, shown):
        ax.set_xlim(0, nc)
        ax.set_ylim(nr, 0)
        scale = points_per_unit(ax)
        for r in range(nr):
            for c in range(nc):
                coord = (*lp, r, c) if rank >= 2 else (c,)
                b = view.blocks[view.device_block[coord]]
                fill = pal[b.index]
                ax.add_patch(Rectangle((c, r), 1, 1, fc=fill, ec="black", lw=0.8))
                part = view.partial_part(coord)
                extra = f"\naddend {part[0] + 1}/{part[1]}" if part else ""
                for text in (f"chip {view.chip_of(coord)}\n{b.label}{extra}",
                             f"{view.chip_of(coord)}\n{b.label}", b.label):
                    if label_cell(ax, scale, c, r, 1, 1, text, fill, largest=10):
                        break
        ax.set_xticks([i + 0.5 for i in range(nc)], [str(i) for i in range(nc)], fontsize=7)
        ax.set_yticks([i + 0.5 for i in range(nr)], [str(i) for i in range(nr)] if rank >= 2 else [""], fontsize=7)
        ax.tick_params(length=0)
        if lead:
            ax.set_title("mesh[" + ", ".join(str(i) for i in lp) + ", :, :]", fontsize=8)
    axes[-1].set_xlabel(axis_name(names, rank - 1), fontsize=8)
    if rank >= 2:
        axes[0].set_ylabel(axis_name(names, rank - 2), fontsize=8)
    more = f" (first {MAX_PANELS} of {len(combos)} panels)" if len(combos) > len(shown) else ""
    fig.text(rect[0] + rect[2] / 2, rect[1] + rect[3] + 0.035, f"the mesh {view.mesh}: chip and block of "
             f"every device{more}", ha="center", fontsize=10)


def _body_height(view: MeshView, width: float, local: bool) -> float:
    """Inches the panels need: the tensor and the mesh at their aspect ratios across their share
    of the width (2.5 to 6; small multiples take 6)."""
    rank, mrank = len(view.shape), len(view.mesh.shape)
    if (rank > 2 and any(n > 1 for n in view.pieces()[:-2])) or mrank > 2 or local:
        return 6.0
    h, w = (view.shape[-2], view.shape[-1]) if rank >= 2 else (1, view.shape[0])
    drawn = min(max(h / max(w, 1), 1 / MAX_ASPECT), MAX_ASPECT)
    nr, nc = (view.mesh.shape[-2], view.mesh.shape[-1]) if mrank >= 2 else (1, view.mesh.shape[0])
    need = max(0.48 * width * drawn, 0.36 * width * nr / nc) + 0.6
    return min(max(need, 2.5), 6.0)


def render_mesh_png(view: MeshView, out: str, title: str | None = None) -> None:
    """Draw the view (see the module docstring) into `out` (.png or .svg)."""
    save_figure(mesh_figure(view, title), out)


def mesh_figure(view: MeshView, title: str | None = None):
    """The matplotlib figure of a mesh view."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    pal = colours(len(view.blocks))
    local = view.local is not None
    width = 17.0 if local else 13.0
    body_h = _body_height(view, width, local)
    foot_h = 0.45
    total_h = body_h + foot_h + 0.9
    fig = plt.figure(figsize=(width, total_h))
    bottom = (foot_h + 0.35) / total_h
    top = 1 - 1.05 / total_h
    cols = 3 if local else 2
    left_w = [0.40, 0.34, 0.22][:cols] if local else [0.52, 0.40]
    x = 0.05
    rects = []
    for w in left_w:
        rects.append((x, bottom, w - 0.04, top - bottom))
        x += w
    _draw_tensor(fig, rects[0], view, pal)
    _draw_mesh(fig, rects[1], view, pal)
    if local:
        ax = fig.add_axes(rects[2])
        light = [(0.87, 0.9, 0.96, 1.0)] * len(view.local.owners)  # not the blocks' colours: labels tell pages apart
        draw_owners(ax, view.local, light,
                    title=f"inside every chip: its block's pages\n({view.local.config.buffer} "
                          f"{view.local.config.layout})")
    fig.suptitle(title or view.title(), fontsize=11)
    nblocks = len(view.blocks)
    fig.text(0.5, 0.02, f"{nblocks} block{'s' if nblocks != 1 else ''} (B<n>; same colour, same block): the ticks "
             "of the tensor are the block boundaries, every mesh cell names its chip and the block it holds",
             ha="center", fontsize=8)
    return fig
