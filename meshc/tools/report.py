"""The `meshc-run --report` tables (rich), after a summary (meshc/tools/report_views.py: totals,
the busiest links, the slowest ops): traffic per link, per chip NOC, per DRAM bank, per op,
host; peak L1 a core and, per core, its peak and worst fragmentation; the time estimate and the
model behind it."""

from __future__ import annotations

from collections import defaultdict

from rich.console import Console
from rich.table import Table

from meshc.interp.pipeline_view import pipeline_lines
from meshc.interp.result_export import report
from meshc.layout.hardware import DEFAULT_ARCH, arch_facts
from meshc.layout.timemodel import OVERLAP_MISS, link_s
from meshc.tools.report_views import summary_lines


def _b(n: int) -> str:
    return f"{int(n):,}"


def print_report(result, console: Console) -> None:
    for line in summary_lines(report(result)):  # first what matters: totals, busiest links, slowest ops
        console.print(line, markup=False, highlight=False)
    t = result.traffic
    system = result.system
    arch = arch_facts(system.chips[0].arch if system is not None else DEFAULT_ARCH)
    per_pair = system.links_per_pair if system is not None else 1
    links = Table(title="Ethernet traffic per link and direction", title_justify="left")
    for col in ("link", "bytes", "busy time (us)"):
        links.add_column(col, justify="right" if col != "link" else "left")
    for (a, b), n in sorted(t.link.items()):
        links.add_row(f"chip {a} -> chip {b}", _b(n), f"{link_s(arch, n, per_pair)[1] * 1e6:.3f}")
    if not t.link:
        links.add_row("(none)", "0", "0")
    links.add_row("total", _b(t.link_bytes), "", style="bold")
    console.print(links)

    chips = sorted(set(result.memory) | set(t.noc) | {c for c, _ in t.dram_read} | {c for c, _ in t.dram_write})
    per_chip = Table(title="Per chip: NOC, DRAM, host, memory", title_justify="left")
    for col in ("chip", "NOC bytes", "DRAM read", "DRAM written", "host->dev", "dev->host", "peak L1 a core",
                "peak DRAM a bank"):
        per_chip.add_column(col, justify="right")
    dr, dw = defaultdict(int), defaultdict(int)
    for (c, _), n in t.dram_read.items():
        dr[c] += n
    for (c, _), n in t.dram_write.items():
        dw[c] += n
    for c in chips:
        mem = result.memory.get(c, {})
        per_chip.add_row(str(c), _b(t.noc.get(c, 0)), _b(dr[c]), _b(dw[c]), _b(t.host_to_device.get(c, 0)),
                         _b(t.device_to_host.get(c, 0)), _b(mem.get("peak_l1_core", 0)),
                         _b(mem.get("peak_dram_bank", 0)))
    console.print(per_chip)

    banks = sorted({b for _, b in t.dram_read} | {b for _, b in t.dram_write})
    if banks:
        bank_t = Table(title="DRAM bytes per bank (read + written)", title_justify="left")
        bank_t.add_column("chip", justify="right")
        for b in banks:
            bank_t.add_column(f"bank {b}", justify="right")
        for c in chips:
            bank_t.add_row(str(c), *(_b(t.dram_read.get((c, b), 0) + t.dram_write.get((c, b), 0)) for b in banks))
        console.print(bank_t)

    ops = Table(title="Per op (in program order)", title_justify="left")
    for col in ("#", "op", "ethernet", "NOC", "DRAM", "host", "time (us)"):
        ops.add_column(col, justify="left" if col == "op" else "right")
    times = Table(title="Per op time (us) and what bound it", title_justify="left")
    for col in ("#", "compute", "DRAM", "NOC", "ethernet", "latency", "host", "op", "bound"):
        times.add_column(col, justify="left" if col == "bound" else "right")
    for i, o in enumerate(result.ops):
        ot, tm = o.traffic, o.time
        dram = sum(ot.dram_read.values()) + sum(ot.dram_write.values())
        ops.add_row(str(i), o.name, _b(ot.link_bytes), _b(ot.noc_bytes), _b(dram), _b(ot.host_bytes),
                    f"{o.seconds * 1e6:.3f}")
        times.add_row(str(i), *(f"{x * 1e6:.3f}" for x in (tm.compute, tm.dram, tm.noc, tm.ethernet, tm.latency,
                                                             tm.host, o.seconds)), tm.bound)
    console.print(ops)
    console.print(times)

    console.print(f"host <-> device: {_b(sum(t.host_to_device.values()))} B in, "
                  f"{_b(sum(t.device_to_host.values()))} B out")
    console.print(f"peak L1 a core: {_b(result.peak_l1_core)} B")
    _print_cores(result, console)
    console.print(
        f"time estimate: {result.time_estimate * 1e6:.3f} us over {len(result.ops)} ops: device "
        f"{sum(o.time.device_s for o in result.ops) * 1e6:.3f} us, host transfers "
        f"{sum(o.time.host for o in result.ops) * 1e6:.3f} us (meshc.layout.timemodel: per op its latency "
        f"+ max(compute, data movement) + {OVERLAP_MISS} x the shorter; docs/simulator.md)"
    )
    if getattr(result, "pipeline", None):  # a pipelined run: its stages overlapped (docs/pipeline.md)
        for line in pipeline_lines(result.pipeline):
            console.print(line, markup=False, highlight=False)


def _print_cores(result, console: Console) -> None:
    """Peak L1 bytes and worst fragmentation of every core, as a grid (the chips of a mesh are
    alike: a mesh buffer takes the same address on every chip)."""
    cores = next((m.get("cores") for m in result.memory.values() if m.get("cores")), None)
    if not cores:
        return
    rows = 1 + max(y for y, _ in cores)
    cols = 1 + max(x for _, x in cores)
    grid = Table(title="Per core (every chip of the mesh alike): peak L1 bytes / worst fragmentation",
                 title_justify="left")
    grid.add_column("core", justify="right")
    for x in range(cols):
        grid.add_column(f"x={x}", justify="right")
    for y in range(rows):
        cells = []
        for x in range(cols):
            c = cores.get((y, x), {"peak": 0, "fragmentation": 0.0})
            cells.append(f"{_b(c['peak'])} / {c['fragmentation']:.0%}" if c["peak"] else "-")
        grid.add_row(f"y={y}", *cells)
    console.print(grid)
