"""meshc-viz: draw where a tensor lives, across the mesh and inside a chip (PNG, SVG or tables).

The tensor comes from an .mlir file (ttir, ttnn or ttmetal; the value `--value` names as
meshc-opt prints it, `%x` or `%1`, by default the first one with a placement; a value of a
global-view program with the sharding the compiler chooses for it, meshc/tools/value_view.py)
or from flags:
`--shape 64x64 --spec "[S0, S1]" --mesh 2x4` for a tensor over a mesh, and `--dtype --tile
--buffer --layout --grid --shard --orientation` for the layout of a tensor (or of every chip's
block) on a chip's cores and DRAM banks.

A tensor over a mesh draws as a mesh view (meshc.viz.mesh_picture / mesh_text): the tensor block
by block, the chips holding each block, replicas, and, when the chip-level layout is known, one
chip's cores or banks. A tensor on one chip draws as the chip view of the TT-Metal "Tensor and
Memory Layouts" report's figures (meshc.viz.chip_picture / chip_text). `-o` writes a PNG or an
SVG (by extension); `--text` prints tables. All placement facts come from meshc.layout.

Errors (bad flags, bad input files, layouts that do not fit) print one line (or a located
diagnostic for a file) and exit 1.
"""

from __future__ import annotations

import argparse
import re
import sys

from rich.console import Console

from meshc.layout.errors import LayoutError
from meshc.layout.memory_config import CoreRange, CoreRangeSet, MemoryConfig
from meshc.layout.placement import place
from meshc.layout.shapes import fmt_shape
from meshc.layout.system import system as named_system
from meshc.tools.common import add_version, tool_main, wrote
from meshc.viz.chip_picture import render_chip_png
from meshc.viz.chip_text import render_chip_text
from meshc.viz.mesh_picture import render_mesh_png
from meshc.viz.mesh_text import render_mesh_text
from meshc.viz.model import mesh_view
from meshc.layout.hardware import DEFAULT_ARCH

# A CLI entry point: the heavy modules are imported inside the functions that use them, so
# `meshc-viz --spec` and an argument error answer without loading the compiler (xDSL)
# (test_architecture.CLI_ENTRY_POINTS allows it here).


class _Usage(Exception):
    pass


class _ArgParser(argparse.ArgumentParser):
    def error(self, message):  # exit 1 with one line, as every meshc tool does on bad input
        raise _Usage(message)


def _arg_parser() -> argparse.ArgumentParser:
    p = _ArgParser(prog="meshc-viz", description="Draw where a tensor lives: which chip holds which block, "
                                                 "which core or bank which page (PNG, SVG or tables).")
    p.add_argument("input_file", nargs="?", help="a ttir, ttnn or ttmetal .mlir file")
    p.add_argument("-o", "--output", help="write the picture here (.png or .svg)")
    p.add_argument("--text", action="store_true", help="print tables in the terminal")
    p.add_argument("--value", help="the value to draw as meshc-opt prints it, e.g. %%x or %%1 "
                                   "(default: the first with a placement)")
    g = p.add_argument_group("describe a tensor directly (instead of FILE)")
    g.add_argument("--shape", help="tensor shape, e.g. 64x64 or 2x3x64x128")
    g.add_argument("--spec", help="sharding spec over a mesh, e.g. '[S0, R]' or '[S01, R]'")
    g.add_argument("--mesh", help="device mesh shape for --spec, e.g. 2x4, 8x4 or 2x2x2")
    g.add_argument("--system", help="system whose chips the mesh runs on (n150, n300, t3k, galaxy; "
                                    "default: the smallest that holds it)")
    g.add_argument("--dtype", default="bf16", help="data type (default bf16)")
    g.add_argument("--tile", default="32x32", help="tile shape, or 'row_major' (default 32x32)")
    g.add_argument("--buffer", default=None, help="l1 or dram (default: dram when interleaved, else l1)")
    g.add_argument("--layout", default=None,
                   help="interleaved | height_sharded | width_sharded | block_sharded | nd_sharded")
    g.add_argument("--grid", help="cores: RxC (a grid from core (0, 0)) or ranges 'y0,x0-y1,x1;...'")
    g.add_argument("--shard", help="shard shape in elements, e.g. 64x64 (ND: one extent per dim)")
    g.add_argument("--orientation", default="row_major", help="row_major or col_major")
    g.add_argument("--banks", type=int, help="interleave over this many banks (default: all)")
    g.add_argument("--arch", default=DEFAULT_ARCH, help="grayskull | wormhole_b0 | blackhole")
    p.add_argument("--tensor-only", action="store_true", help="draw only the tensor's pages (Figures 1 and 2)")
    p.add_argument("--title", help="title of the picture")
    add_version(p)
    return p


# ----------------------------------------------------------------------------- inputs

def _dims(text: str, what: str) -> tuple[int, ...]:
    if not re.fullmatch(r"\d+(x\d+)*", text or ""):
        raise LayoutError(f"{what} '{text}' is not a shape like 64x64")
    return tuple(int(v) for v in text.split("x"))


def _grid(text: str):

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
    """The one-chip Placement the flags describe, and its label."""

    shape = _dims(a.shape, "--shape")
    tile = None if a.tile in ("row_major", "none") else _dims(a.tile, "--tile")
    buffer = a.buffer or ("dram" if a.layout == "interleaved" else "l1")
    grid = _grid(a.grid) if a.grid else None
    shard = _dims(a.shard, "--shard") if a.shard else None
    cfg = MemoryConfig(buffer, a.layout, grid, shard, a.orientation)
    p = place(shape, a.dtype, cfg, tile=tile, arch=a.arch, num_banks=a.banks)
    return p, f"tensor<{a.shape}x{a.dtype}>"


def _view_from_file(a):
    """A MeshView, or ("chip", Placement, label), of the value --value names (default: the first
    one with a placement)."""
    from meshc.errors import DiagnosticError, op_diagnostic
    from meshc.located_parser import decode_source
    from meshc.driver import make_context, parse_source, verify_or_raise
    from meshc.tools.value_view import describe_program_value
    from meshc.viz.values import ValueViewError

    try:
        with open(a.input_file, "rb") as f:
            data = f.read()
    except OSError as e:
        raise _Usage(f"cannot read '{a.input_file}': {e.strerror}") from None
    text = decode_source(data, a.input_file)
    module = parse_source(make_context(), text, a.input_file)
    verify_or_raise(module, a.input_file)
    try:
        return describe_program_value(module, a.value, arch=a.arch)
    except ValueViewError as e:  # about a value of the file: at its op's line
        if e.op is None:
            raise _Usage(str(e)) from None
        raise DiagnosticError([op_diagnostic(e.op, str(e), a.input_file)]) from None


def _view_from_flags(a):
    """A MeshView (with --spec and --mesh) or ("chip", Placement, label) from the flags."""

    if not a.spec:
        if a.mesh:
            raise _Usage("--mesh needs --spec, e.g. --spec '[S0, R]' --mesh 2x4")
        p, label = _placement_from_flags(a)
        return ("chip", p, label)
    shape = _dims(a.shape, "--shape")
    mesh = _dims(a.mesh, "--mesh") if a.mesh else None
    sysdesc = named_system(a.system) if a.system else None
    view = mesh_view(shape, a.spec, mesh, system=sysdesc, label=f"tensor<{a.shape}x{a.dtype}>", dtype=a.dtype)
    if a.layout_given:  # the memory layout of every chip's block
        block = next(b for b in view.blocks if not b.is_empty)
        a.shape = fmt_shape(block.shape)
        view.local, _ = _placement_from_flags(a)
    return view


# ----------------------------------------------------------------------------- main

def run(argv: list[str] | None = None) -> int:
    from meshc.errors import DiagnosticError, SourceFile

    try:
        a = _arg_parser().parse_args(argv)
        a.layout_given = any(x is not None for x in (a.layout, a.grid, a.shard, a.buffer))
        a.layout = a.layout or "interleaved"
        if a.input_file and a.shape:
            raise _Usage("give either an input file or --shape, not both")
        if not a.input_file and not a.shape:
            raise _Usage("give an input .mlir file or describe a tensor with --shape")
        if not a.text and not a.output:
            raise _Usage("give -o OUT.png (or .svg) for a picture, or --text for tables")
        if a.output and not a.output.lower().endswith((".png", ".svg")):
            raise _Usage(f"-o '{a.output}': the picture is written as PNG or SVG, name it .png or .svg")
        view = _view_from_file(a) if a.input_file else _view_from_flags(a)
        if isinstance(view, tuple):
            _, p, label = view
            if a.text:
                render_chip_text(p, label, a.tensor_only)
            if a.output:
                render_chip_png(p, label, a.output, a.tensor_only, a.title)
                wrote("meshc-viz", a.output, f"{label}: the chip view")
        else:
            if a.text:
                render_mesh_text(view, Console(width=None if sys.stdout.isatty() else 160, highlight=False))
            if a.output:
                render_mesh_png(view, a.output, a.title)
                wrote("meshc-viz", a.output, f"{view.label or 'tensor ' + fmt_shape(view.shape)} "
                      f"{view.spec_text} on mesh {view.mesh}: {len(view.blocks)} blocks")
        return 0
    except _Usage as e:
        print(f"meshc-viz: error: {e}", file=sys.stderr)
        return 1
    except DiagnosticError as e:
        try:
            with open(a.input_file, "rb") as f:
                src = SourceFile(a.input_file, f.read().decode("utf-8", errors="replace"))
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
