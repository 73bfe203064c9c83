"""One chip's placement as terminal tables (rich): the owner (core or DRAM bank) of every page,
and the pages each owner holds, slot by slot. The facts come from a
`meshc.layout.placement.Placement`; this module only prints them."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table


def owner_name(o) -> str:
    return f"core ({o[0]}, {o[1]})" if isinstance(o, tuple) else f"bank {o}"


def short_owner(o) -> str:
    return "(%d,%d)" % o if isinstance(o, tuple) else f"b{o}"


def describe(p) -> str:
    cfg = p.config
    tile = f"tile {p.layout.tile[0]}x{p.layout.tile[1]}" if p.layout.tile else "row-major"
    s = f"{cfg.buffer} {cfg.layout}, {tile}, {p.dtype.name}"
    if cfg.is_sharded:
        s += f", {cfg.orientation}"
    return s


def render_chip_text(p, label: str, tensor_only: bool = False, console: Console | None = None) -> None:
    con = console or Console(width=120, highlight=False)
    rows, cols = p.layout.page_grid
    ph, pw = p.layout.page_shape
    con.print(f"{label}: {describe(p)}")
    con.print(f"{p.num_pages} pages of {ph}x{pw} elements, {p.page_bytes} B each "
              f"({p.aligned_page_bytes} B aligned); page grid {rows}x{cols}")
    if rows * cols <= 1024 and not tensor_only:
        t = Table(title="owner of each page (row-major page grid)", show_header=True)
        t.add_column("page row")
        for c in range(cols):
            t.add_column(f"c{c}")
        names = [short_owner(o) for o in p.owners]
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
    table = p.slot_table()
    for k, o in enumerate(p.owners):
        n = int(p.owner_slots[k])
        if n == 0:
            continue
        ids = table[k, :n]
        shown = ", ".join("-" if q < 0 else str(int(q)) for q in ids[:32]) + (" ..." if n > 32 else "")
        t.add_row(owner_name(o), shown, str(n * p.aligned_page_bytes))
    con.print(t)
