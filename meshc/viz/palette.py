"""Colours and label sizes shared by meshc's pictures.

Colours only help the eye: every coloured cell also carries a text label (its block, page or
owner), so a palette that has to repeat or to use close colours at 32 chips or 64 cores never
makes a picture ambiguous. `fit_font` picks a font size that keeps a label inside its cell
(or None when no readable size fits), so labels never overlap their neighbours.
"""

from __future__ import annotations

import numpy as np

_QUALITATIVE = ("tab10", "tab20", "tab20b", "tab20c")


def colours(n: int) -> list[tuple[float, float, float, float]]:
    """n colours, distinct up to 60 (the matplotlib tab palettes), evenly spread hues beyond."""
    from matplotlib import colormaps

    n = max(int(n), 1)
    if n <= 10:
        return [colormaps["tab10"](i) for i in range(n)]
    if n <= 20:
        return [colormaps["tab20"](i) for i in range(n)]
    pool = [colormaps[name](i) for name in _QUALITATIVE[1:] for i in range(20)]
    if n <= len(pool):
        return pool[:n]
    cmap = colormaps["turbo"]
    return [cmap(x) for x in np.linspace(0.05, 0.95, n)]


def text_colour(rgba) -> str:
    """Black or white, whichever reads better on `rgba`."""
    r, g, b = rgba[:3]
    return "black" if 0.299 * r + 0.587 * g + 0.114 * b > 0.5 else "white"


MAX_ASPECT = 8.0
"""A tensor longer than this along one of its two drawn dims is drawn at this ratio."""


def drawn_aspect(height: float, width: float) -> tuple[float, bool]:
    """The y/x aspect (matplotlib's `set_aspect`) a height x width tensor is drawn at, and
    whether that is to scale: 1 (to scale) up to 1:MAX_ASPECT either way, clamped beyond."""
    ratio = max(height, 1) / max(width, 1)
    if 1 / MAX_ASPECT <= ratio <= MAX_ASPECT:
        return 1.0, True
    return min(max(ratio, 1 / MAX_ASPECT), MAX_ASPECT) / ratio, False


EMPTY = (0.92, 0.92, 0.92, 1.0)
"""The colour of a slot or cell that holds nothing."""


def points_per_unit(ax) -> tuple[float, float]:
    """Points per data unit along x and y of an axes, after its aspect is applied."""
    ax.apply_aspect()
    pos = ax.get_position()
    w_in, h_in = ax.figure.get_size_inches()
    x0, x1 = ax.get_xlim()
    y0, y1 = ax.get_ylim()
    return pos.width * w_in * 72 / abs(x1 - x0), pos.height * h_in * 72 / abs(y1 - y0)


def fit_font(scale: tuple[float, float], w: float, h: float, text: str,
             largest: float = 11.0, smallest: float = 4.5) -> float | None:
    """The largest font size (points) at which `text` fits a w x h (data units) cell, given
    `scale` from points_per_unit; None if even `smallest` does not fit."""
    lines = text.split("\n")
    longest = max(len(s) for s in lines) or 1
    by_height = 0.8 * h * scale[1] / (1.3 * len(lines))
    by_width = 0.9 * w * scale[0] / (0.62 * longest)
    size = min(largest, by_height, by_width)
    return size if size >= smallest else None


def label_cell(ax, scale, x: float, y: float, w: float, h: float, text: str, fill,
               largest: float = 11.0, size: float | None = None) -> bool:
    """Write `text` centred in the cell (x, y, w, h) if it fits (at `size` when given, so that
    a panel's labels share one size); False when it does not."""
    size = size or fit_font(scale, w, h, text, largest)
    if size is None:
        return False
    ax.text(x + w / 2, y + h / 2, text, ha="center", va="center", fontsize=size,
            color=text_colour(fill), linespacing=1.1)
    return True
