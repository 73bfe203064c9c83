"""meshc-viz: draw where the pages of a tensor live (seed 002's Figures 1-4, for any layout).

The tensor comes from an .mlir file (the first tensor type carrying a `#ttnn.ttnn_layout`, or
the value named by `--value`) or from flags (`--shape 64x64 --dtype bf16 --tile 32x32
--buffer l1 --layout block_sharded --grid 2x2 --shard 64x64`). The picture has two panels:
the tensor as a grid of pages coloured by owner, and the owners (the core grid, or the DRAM
banks) with the pages each holds, slot by slot. `--text` prints the same as tables instead.
All placement facts come from `meshc.layout.placement.place`.

Errors (bad flags, bad input files, layouts that do not fit) print one line (or a located
diagnostic for a file) and exit 1.
"""

from __future__ import annotations

import argparse
import math
import re
import sys

import numpy as np

from meshc.layout.errors import LayoutError
from meshc.tools.common import tool_main


class _Usage(Exception):
    pass


class _ArgParser(argparse.ArgumentParser):
    def error(self, message):  # exit 1 with one line, as every meshc tool does on bad input
        raise _Usage(message)


def _arg_parser() -> argparse.ArgumentParser:
    p = _ArgParser(prog="meshc-viz", description="Draw where the pages of a tensor live (PNG or a terminal table).")
    p.add_argument("input_file", nargs="?", help=".mlir file with a tensor carrying a #ttnn.ttnn_layout")
    p.add_argument("-o", "--output", help="write the picture here (PNG)")
    p.add_argument("--text", action="store_true", help="print tables in the terminal instead of drawing")
    p.add_argument("--value", help="the SSA value whose tensor to draw, e.g. %%arg0 (default: the first)")
    g = p.add_argument_group("describe a tensor directly (instead of FILE)")
    g.add_argument("--shape", help="tensor shape, e.g. 64x64 or 2x3x64x128")
    g.add_argument("--dtype", default="bf16", help="data type (default bf16)")
    g.add_argument("--tile", default="32x32", help="tile shape, or 'row_major' (default 32x32)")
    g.add_argument("--buffer", default=None, help="l1 or dram (default: dram when interleaved, else l1)")
    g.add_argument("--layout", default="interleaved",
                   help="interleaved | height_sharded | width_sharded | block_sharded | nd_sharded")
    g.add_argument("--grid", help="cores: RxC (a grid from core (0, 0)) or ranges 'y0,x0-y1,x1;...'")
    g.add_argument("--shard", help="shard shape in elements, e.g. 64x64 (ND: one extent per dim)")
    g.add_argument("--orientation", default="row_major", help="row_major or col_major")
    g.add_argument("--banks", type=int, help="interleave over this many banks (default: all)")
    g.add_argument("--arch", default="wormhole_b0", help="grayskull | wormhole_b0 | blackhole")
    p.add_argument("--tensor-only", action="store_true", help="draw only the tensor's pages (Figures 1 and 2)")
    p.add_argument("--title", help="title of the picture")
    return p


# ----------------------------------------------------------------------------- inputs

def _dims(text: str, what: str) -> tuple[int, ...]:
    if not re.fullmatch(r"\d+(x\d+)*", text or ""):
        raise LayoutError(f"{what} '{text}' is not a shape like 64x64")
    return tuple(int(v) for v in text.split("x"))


def _grid(text: str):
    from meshc.layout.memory_config import CoreRange, CoreRangeSet

    if re.fullmatch(r"\d+x\d+", text):
        return _dims(text, "--grid")
    ranges = []
    for part in text.split(";"):
        m = re.fullmatch(r"\s*(\d+),(\d+)-(\d+),(\d+)\s*", part)
        if not m:
            raise LayoutError(f"--grid '{text}' is neither RxC nor ranges like '0,0-1,1;3,4-3,5'")
        y0, x0, y1, x1 = (int(v) for v in m.groups())
        ranges.append(CoreRange((y0, x0), (y1, x1)))
    return CoreRangeSet(tuple(ranges))


def _placement_from_flags(a):
    from meshc.layout.memory_config import MemoryConfig
    from meshc.layout.placement import place

    shape = _dims(a.shape, "--shape")
    tile = None if a.tile in ("row_major", "none") else _dims(a.tile, "--tile")
    buffer = a.buffer or ("dram" if a.layout == "interleaved" else "l1")
    grid = _grid(a.grid) if a.grid else None
    shard = _dims(a.shard, "--shard") if a.shard else None
    cfg = MemoryConfig(buffer, a.layout, grid, shard, a.orientation)
    p = place(shape, a.dtype, cfg, tile=tile, arch=a.arch, num_banks=a.banks)
    return p, f"tensor<{a.shape}x{a.dtype}>"


def _placement_from_file(a):
    from xdsl.dialects.builtin import TensorType

    from meshc.dialects.ttnn import TTNNLayoutAttr
    from meshc.driver import make_context, parse_source, verify_or_raise

    with open(a.input_file) as f:
        text = f.read()
    module = parse_source(make_context(), text, a.input_file)
    verify_or_raise(module, a.input_file)
    want = a.value.lstrip("%") if a.value else None
    seen: list[str] = []
    for op in module.walk():
        values = [arg for r in op.regions for b in r.blocks for arg in b.args] + list(op.results)
        for v in values:
            t = v.type
            if not (isinstance(t, TensorType) and isinstance(t.encoding, TTNNLayoutAttr)):
                continue
            name = v.name_hint or "?"
            seen.append("%" + name)
            if want is None or name == want:
                enc: TTNNLayoutAttr = t.encoding
                if enc.memory_config.is_host:
                    raise LayoutError(f"%{name} is in system_memory (on the host): it has no device placement to draw")
                return enc.place(tuple(t.get_shape()), arch=a.arch), f"%{name}: tensor<{'x'.join(map(str, t.get_shape()))}x{t.element_type}>"
    if want is not None:
        raise LayoutError(f"no value %{want} with a #ttnn.ttnn_layout tensor type in {a.input_file}; "
                          f"found {', '.join(seen) if seen else 'none'}")
    raise LayoutError(f"no tensor with a #ttnn.ttnn_layout encoding in {a.input_file}")


# ----------------------------------------------------------------------------- shared views

def _owner_name(o) -> str:
    return f"core ({o[0]}, {o[1]})" if isinstance(o, tuple) else f"bank {o}"


def _describe(p) -> str:
    cfg = p.config
    tile = f"tile {p.layout.tile[0]}x{p.layout.tile[1]}" if p.layout.tile else "row-major"
    s = f"{cfg.buffer} {cfg.layout}, {tile}, {p.dtype.name}"
    if cfg.is_sharded:
        s += f", {cfg.orientation}"
    return s


def _slots(p) -> np.ndarray:
    """(owners, slots): page id in every slot of every owner, -1 where empty."""
    return p.slot_table()


# ----------------------------------------------------------------------------- text

def render_text(p, label: str, tensor_only: bool = False) -> None:
    from rich.console import Console
    from rich.table import Table

    con = Console(width=120, highlight=False)
    rows, cols = p.layout.page_grid
    ph, pw = p.layout.page_shape
    con.print(f"{label}: {_describe(p)}")
    con.print(f"{p.num_pages} pages of {ph}x{pw} elements, {p.page_bytes} B each "
              f"({p.aligned_page_bytes} B aligned); page grid {rows}x{cols}")
    if rows * cols <= 1024 and not tensor_only:
        t = Table(title="owner of each page (row-major page grid)", show_header=True)
        t.add_column("page row")
        for c in range(cols):
            t.add_column(f"c{c}")
        names = ["(%d,%d)" % o if isinstance(o, tuple) else f"b{o}" for o in p.owners]
        grid = p.page_owner.reshape(rows, cols)
        for r in range(rows):
            t.add_row(str(r), *[names[int(k)] for k in grid[r]])
        con.print(t)
    if tensor_only:
        return
    t = Table(title="pages each owner holds, slot by slot")
    t.add_column("owner")
    t.add_column("pages")
    t.add_column("bytes")
    table = _slots(p)
    for k, o in enumerate(p.owners):
        n = int(p.owner_slots[k])
        if n == 0:
            continue
        ids = table[k, :n]
        shown = ", ".join("-" if q < 0 else str(int(q)) for q in ids[:32]) + (" ..." if n > 32 else "")
        t.add_row(_owner_name(o), shown, str(n * p.aligned_page_bytes))
    con.print(t)


# ----------------------------------------------------------------------------- picture

def _colours(n: int):
    from matplotlib import colormaps

    cmap = colormaps["tab20"] if n > 10 else colormaps["tab10"]
    return [cmap(i % cmap.N) for i in range(max(n, 1))]


def render_png(p, label: str, out: str, tensor_only: bool = False, title: str | None = None) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle

    colours = _colours(len(p.owners))
    rows, cols = p.layout.page_grid
    ph, pw = p.layout.page_shape
    hp, wp = p.layout.padded_shape
    npanels = 1 if tensor_only else 2
    fig, axes = plt.subplots(1, npanels, figsize=(6 * npanels, 6), squeeze=False)
    ax = axes[0][0]
    # the tensor: pages coloured by owner (one colour each when only the pages are drawn)
    img = np.array(colours)[p.page_owner.reshape(rows, cols)] if not tensor_only else None
    if tensor_only:
        pal = _colours(min(p.num_pages, 20))
        img = np.array(pal)[np.arange(p.num_pages).reshape(rows, cols) % len(pal)]
    ax.imshow(img, extent=(0, wp, hp, 0), interpolation="nearest", aspect="auto")
    if rows * cols <= 4096:
        for r in range(rows + 1):
            ax.axhline(r * ph, color="white", lw=0.6)
        for c in range(cols + 1):
            ax.axvline(c * pw, color="white", lw=0.6)
    if rows * cols <= 256:
        fs = max(4, min(12, 360 / rows, 240 / cols))
        for q in range(rows * cols):
            r, c = divmod(q, cols)
            ax.text((c + 0.5) * pw, (r + 0.5) * ph, f"P{q}", ha="center", va="center", fontsize=fs)
    # the real (unpadded) extent of each 2D slice
    outer, h, w = p.layout.outer, p.layout.height, p.layout.width
    if outer <= 64:
        for o in range(outer):
            ax.add_patch(Rectangle((0, o * p.layout.slice_height), w, h, fill=False, ec="black", lw=1.5))
    ax.set_xlim(0, wp)
    ax.set_ylim(hp, 0)
    ax.set_xlabel("column (elements)")
    ax.set_ylabel("row (elements, outer dims folded in)")
    ax.set_title(f"{label}\n{p.num_pages} pages of {ph}x{pw}", fontsize=9)
    if not tensor_only:
        _draw_owners(axes[0][1], p, colours)
    if title is None and tensor_only:
        title = (f"tiled layout: a page is a {ph}x{pw} tile" if p.layout.tile
                 else f"row-major layout: a page is a row ({pw} elements)")
    fig.suptitle(title or _describe(p), fontsize=11)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


def _draw_owners(ax, p, colours) -> None:
    from matplotlib.patches import Rectangle

    table = _slots(p)
    if isinstance(p.owners[0], tuple):
        cores = p.owners
        y0, x0 = min(c[0] for c in cores), min(c[1] for c in cores)
        y1, x1 = max(c[0] for c in cores), max(c[1] for c in cores)
        if p.config.layout == "interleaved":
            y0, x0, (y1, x1) = 0, 0, (p.arch.grid[0] - 1, p.arch.grid[1] - 1)
        cells = {o: (o[0] - y0, o[1] - x0) for o in cores}
        grid_r, grid_c = y1 - y0 + 1, x1 - x0 + 1
        what = f"cores (y {y0}-{y1}, x {x0}-{x1})"
    else:
        cells = {o: (0, i) for i, o in enumerate(p.owners)}
        grid_r, grid_c = 1, len(p.owners)
        what = "DRAM banks"
    max_slots = max(int(p.owner_slots.max(initial=1)), 1)
    if cells and isinstance(p.owners[0], int):
        sub_c, sub_r = 1, max_slots  # banks: pages stacked in a column, like the seed's Figure 3
    else:
        sub_c = math.ceil(math.sqrt(max_slots))
        sub_r = math.ceil(max_slots / sub_c)
    label = sum(int(n) for n in p.owner_slots) <= 512
    for k, o in enumerate(p.owners):
        r, c = cells[o]
        ax.add_patch(Rectangle((c, r), 1, 1, fill=False, ec="black", lw=1.2))
        n = int(p.owner_slots[k])
        for s in range(n):
            sr, sc = divmod(s, sub_c)
            x = c + 0.08 + sc * 0.84 / sub_c
            y = r + 0.08 + sr * 0.84 / sub_r
            q = int(table[k, s])
            ax.add_patch(Rectangle((x, y), 0.84 / sub_c, 0.84 / sub_r, ec="white", lw=0.5,
                                   fc=colours[k] if q >= 0 else (0.92, 0.92, 0.92)))
            if label and q >= 0:
                fs = max(4, min(10, 60 / max(sub_c, sub_r, grid_c, grid_r)))
                ax.text(x + 0.42 / sub_c, y + 0.42 / sub_r, f"P{q}", ha="center", va="center", fontsize=fs)
        if grid_r * grid_c <= 64:
            name = _owner_name(o) if grid_c <= 4 else (f"({o[0]},{o[1]})" if isinstance(o, tuple) else f"b{o}")
            ax.text(c + 0.5, r + 0.04, name, ha="center", va="center", fontsize=min(7, 48 / grid_c))
    ax.set_xlim(-0.05, grid_c + 0.05)
    ax.set_ylim(grid_r + 0.05, -0.05)
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])
    ax.set_title(f"{what}: the pages each holds, slot by slot", fontsize=9)


# ----------------------------------------------------------------------------- main

def run(argv: list[str] | None = None) -> int:
    from meshc.diagnostics import DiagnosticError, SourceFile

    try:
        a = _arg_parser().parse_args(argv)
        if a.input_file and a.shape:
            raise _Usage("give either an input file or --shape, not both")
        if not a.input_file and not a.shape:
            raise _Usage("give an input .mlir file or describe a tensor with --shape")
        if not a.text and not a.output:
            raise _Usage("give -o OUT.png for a picture, or --text for tables")
        p, label = _placement_from_file(a) if a.input_file else _placement_from_flags(a)
        if a.text:
            render_text(p, label, a.tensor_only)
        if a.output:
            render_png(p, label, a.output, a.tensor_only, a.title)
        return 0
    except _Usage as e:
        print(f"meshc-viz: error: {e}", file=sys.stderr)
        return 1
    except DiagnosticError as e:
        try:
            src = SourceFile(a.input_file, open(a.input_file).read())
        except OSError:
            src = None
        for d in e.diagnostics:
            print(d.format(src), file=sys.stderr)
        return 1
    except (LayoutError, OSError) as e:
        print(f"meshc-viz: error: {e}", file=sys.stderr)
        return 1


def main(argv: list[str] | None = None) -> None:
    tool_main("meshc-viz", run, argv)


if __name__ == "__main__":
    main()
