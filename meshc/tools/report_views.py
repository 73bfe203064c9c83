"""Views of a run's report (RunResult.to_json's dict) for `meshc-run`: the summary that opens the
text report (totals, the busiest links, the slowest ops), the per-op CSV of `--report-csv`, and
the pictures of `--plot DIR`:

* `links.png`: ethernet traffic drawn on the system's topology (each chip at its place in the
  chip mesh, each link a pair of arrows, one a direction, as wide and as dark as its bytes);
* `l1.png`: peak L1 bytes a core, per chip (a heatmap over the chip mesh) and per core (a
  heatmap over a chip's core grid: the chips of a mesh are alike);
* `op_time.png`: every op's simulated time split by resource (one bar an op in program order;
  ops of one name summed when there are too many to draw one by one);
* `pipeline.png`, for a pipelined run: its GPipe schedule, a row a stage (meshc.viz.pipeline_picture).

Everything is read from the report's fields (`traffic.link`, `memory.per_chip`, each op's
`time` and `totals`), generically: a resource the time model adds shows up as another column
and another colour. The system (chip places and links) comes from the RunResult.
"""

from __future__ import annotations

import csv
import io
from collections import defaultdict

import numpy as np

from meshc.viz.palette import text_colour
from meshc.viz.pipeline_picture import pipeline_figure

MAX_OP_BARS = 60
"""Ops drawn one bar each at most; beyond, one bar an op name."""


def _b(n: float) -> str:
    return f"{int(n):,}"


def _resources(ops: list[dict]) -> list[str]:
    """The time model's resources an op's `time` names (`compute_s` -> `compute`), in order;
    `device_s` is their combination, not a resource."""
    keys: dict[str, None] = {}
    for o in ops:
        for k, v in o.get("time", {}).items():
            if k.endswith("_s") and k != "device_s" and isinstance(v, (int, float)):
                keys[k[:-2]] = None
    return list(keys)


def _links(rep: dict) -> list[tuple[str, int]]:
    return sorted(((k, int(v)) for k, v in rep["traffic"].get("link", {}).items()), key=lambda kv: -kv[1])


def summary_lines(rep: dict, top: int = 3) -> list[str]:
    """The report's first lines: totals, the busiest links, the slowest ops."""
    tot = rep["traffic"]["totals"]
    tm = rep["time_model"]
    ops = rep["ops"]
    mesh = "x".join(str(n) for n in rep["mesh_shape"])
    lines = [f"summary: {len(ops)} ops on a {mesh} mesh ({rep.get('chips')} chips in the system), "
             f"time estimate {tm['seconds'] * 1e6:.3f} us (device {tm.get('device_seconds', 0) * 1e6:.3f} us, "
             f"host transfers {tm.get('host_seconds', 0) * 1e6:.3f} us)",
             f"  moved: ethernet {_b(tot['ethernet_bytes'])} B, NOC {_b(tot['noc_bytes'])} B, DRAM "
             f"{_b(tot['dram_read_bytes'] + tot['dram_write_bytes'])} B, host->device "
             f"{_b(tot['host_to_device_bytes'])} B, device->host {_b(tot['device_to_host_bytes'])} B; "
             f"peak L1 a core {_b(rep['memory']['peak_l1_core_bytes'])} B"]
    links = _links(rep)
    if links:
        shown = ", ".join(f"chip {k.replace('->', ' -> chip ')} {_b(v)} B" for k, v in links[:top])
        lines.append(f"  busiest links ({min(top, len(links))} of {len(links)} used): {shown}")
    else:
        lines.append("  busiest links: none (no ethernet traffic)")
    total = tm["seconds"] or 1e-30
    slow = sorted(ops, key=lambda o: -o["seconds"])[:top]
    shown = "; ".join(f"#{o['index']} {o['name']} {o['seconds'] * 1e6:.3f} us ({100 * o['seconds'] / total:.0f}%"
                      f"{', ' + o['time']['bound'] + '-bound' if o.get('time', {}).get('bound') else ''})"
                      for o in slow)
    lines.append(f"  slowest ops: {shown}" if slow else "  slowest ops: none")
    return lines


def csv_text(rep: dict) -> str:
    """One row an op: index, name, start and time (seconds), what bound it, the time of every
    resource, the bytes of every counter."""
    ops = rep["ops"]
    resources = _resources(ops)
    counters = list(dict.fromkeys(k for o in ops for k in o.get("totals", {})))
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["index", "op", "start_s", "seconds", "bound", *(f"{r}_s" for r in resources), *counters])
    for o in ops:
        t = o.get("time", {})
        w.writerow([o["index"], o["name"], repr(o.get("start_s", 0.0)), repr(o["seconds"]), t.get("bound", ""),
                    *(repr(float(t.get(f"{r}_s", 0.0))) for r in resources),
                    *(int(o.get("totals", {}).get(c, 0)) for c in counters)])
    return out.getvalue()


# ----------------------------------------------------------------------------- pictures

def _png(fig) -> bytes:
    import matplotlib.pyplot as plt

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110)
    plt.close(fig)
    return buf.getvalue()


def _places(rep: dict, system) -> dict[int, tuple[float, float]]:
    """(x, y) of every chip: its place in the system's chip mesh, else a row."""
    chips = range(int(rep.get("chips") or 0)) if system is None else range(system.num_chips)
    if system is None:
        return {c: (float(c), 0.0) for c in chips}
    places = {}
    for c in chips:
        coord = tuple(system.chips[c].coord)
        y, x = (coord[-2], coord[-1]) if len(coord) >= 2 else (0, coord[0])
        places[c] = (float(x), float(y))
    return places


def links_figure(rep: dict, system):
    """Ethernet bytes per link and direction on the chip mesh."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib import colormaps
    from matplotlib.colors import Normalize
    from matplotlib.patches import FancyArrowPatch, Rectangle

    places = _places(rep, system)
    xs = [p[0] for p in places.values()] or [0.0]
    ys = [p[1] for p in places.values()] or [0.0]
    ncol, nrow = max(xs) + 1, max(ys) + 1
    fig, ax = plt.subplots(figsize=(min(4 + 2.2 * ncol, 22), min(2.5 + 2.0 * nrow, 22)))
    traffic = {tuple(int(c) for c in k.split("->")): int(v) for k, v in rep["traffic"].get("link", {}).items()}
    top = max(traffic.values(), default=0)
    cmap, norm = colormaps["viridis_r"], Normalize(0, max(top, 1))
    pairs = set(tuple(sorted(p)) for p in (system.links if system is not None else ())) | \
        {tuple(sorted(p)) for p in traffic}
    for a, b in sorted(pairs):
        if a not in places or b not in places:
            continue
        (xa, ya), (xb, yb) = places[a], places[b]
        dx, dy = xb - xa, yb - ya
        length = max((dx * dx + dy * dy) ** 0.5, 1e-9)
        ox, oy = -dy / length * 0.09, dx / length * 0.09  # the two directions side by side
        for (s, t), sign in (((a, b), 1), ((b, a), -1)):
            n = traffic.get((s, t), 0)
            (x0, y0), (x1, y1) = places[s], places[t]
            colour = cmap(norm(n)) if n else (0.8, 0.8, 0.8, 1.0)
            width = 0.6 + 5.0 * n / top if top else 0.6
            ux, uy = (x1 - x0) / length * 0.22, (y1 - y0) / length * 0.22  # from box edge to box edge
            ax.add_patch(FancyArrowPatch((x0 + ux + sign * ox, y0 + uy + sign * oy),
                                         (x1 - ux + sign * ox, y1 - uy + sign * oy),
                                         arrowstyle="-|>", mutation_scale=12 + 2 * width, lw=width, color=colour,
                                         shrinkA=0, shrinkB=0, zorder=2))
            if n:
                mx, my = (x0 + x1) / 2 + sign * ox * 2.2, (y0 + y1) / 2 + sign * oy * 2.2
                ax.text(mx, my, f"{n:,}", ha="center", va="center", fontsize=7, zorder=4,
                        bbox=dict(boxstyle="round,pad=0.15", fc="white", ec="none", alpha=0.8))
    mesh_chips = set(range(_mesh_size(rep)))
    for c, (x, y) in places.items():
        used = c in mesh_chips
        ax.add_patch(Rectangle((x - 0.18, y - 0.18), 0.36, 0.36, fc=(0.85, 0.9, 1.0) if used else (0.95, 0.95, 0.95),
                               ec="black", lw=0.8, zorder=3))
        ax.text(x, y, f"chip {c}", ha="center", va="center", fontsize=8, zorder=5)
    ax.set_xlim(-0.6, ncol - 0.4)
    ax.set_ylim(nrow - 0.4, -0.6)
    ax.set_aspect("equal")
    ax.axis("off")
    sm = matplotlib.cm.ScalarMappable(norm=norm, cmap=cmap)
    fig.colorbar(sm, ax=ax, shrink=0.7, label="bytes over the link in that direction")
    total = int(rep["traffic"]["totals"]["ethernet_bytes"])
    ax.set_title(f"ethernet traffic per link and direction: {total:,} B in all, {len(traffic)} of "
                 f"{2 * len(pairs)} directions used", fontsize=10)
    fig.tight_layout()
    return fig


def _mesh_size(rep: dict) -> int:
    n = 1
    for d in rep["mesh_shape"]:
        n *= int(d)
    return n


def l1_figure(rep: dict, system):
    """Peak L1 a core per chip (over the chip mesh) and per core (over a chip's grid)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    per_chip = {int(c): m for c, m in rep["memory"]["per_chip"].items()}
    places = _places(rep, system)
    ncol = int(max((p[0] for p in places.values()), default=0)) + 1
    nrow = int(max((p[1] for p in places.values()), default=0)) + 1
    chip_grid = np.full((nrow, ncol), np.nan)
    for c, (x, y) in places.items():
        if c in per_chip:
            chip_grid[int(y), int(x)] = per_chip[c].get("peak_l1_core", 0)
    cores = next((m.get("cores") for m in per_chip.values() if m.get("cores")), None) or {}
    fig, axes = plt.subplots(1, 2, figsize=(13, 5.2))
    _heatmap(fig, axes[0], chip_grid, [[f"chip {c}\n{_b(per_chip[c].get('peak_l1_core', 0))}" if c in per_chip
                                         else f"chip {c}\n(idle)" for c in _row(places, r, ncol)]
                                        for r in range(nrow)],
             "peak L1 bytes on a chip's busiest core, per chip (placed as in the system)")
    axes[0].set_xticks([])
    axes[0].set_yticks([])
    if cores:
        cy = 1 + max(int(k.split(",")[0]) for k in cores)
        cx = 1 + max(int(k.split(",")[1]) for k in cores)
        grid = np.zeros((cy, cx))
        for k, v in cores.items():
            y, x = (int(n) for n in k.split(","))
            grid[y, x] = v["peak"]
        labels = [[_b(grid[y, x]) if cx <= 12 and grid[y, x] else "" for x in range(cx)] for y in range(cy)]
        _heatmap(fig, axes[1], grid, labels, f"peak L1 bytes per core ({cy}x{cx} grid; every chip of the mesh alike)")
        axes[1].set_xlabel("core x")
        axes[1].set_ylabel("core y")
    else:
        axes[1].axis("off")
        axes[1].text(0.5, 0.5, "no core used L1", ha="center", va="center")
    fig.suptitle(f"L1 memory: peak {_b(rep['memory']['peak_l1_core_bytes'])} B on the busiest core", fontsize=11)
    fig.tight_layout()
    return fig


def _row(places: dict, r: int, ncol: int) -> list[int]:
    at = {(int(x), int(y)): c for c, (x, y) in places.items()}
    return [at.get((x, r), -1) for x in range(ncol)]


def _heatmap(fig, ax, grid, labels, title: str) -> None:
    from matplotlib import colormaps

    cmap = colormaps["magma_r"]
    top = float(max(1.0, (grid[grid == grid].max() if (grid == grid).any() else 1.0)))
    im = ax.imshow(grid, cmap=cmap, vmin=0, vmax=top)
    for y, row in enumerate(labels):
        for x, text in enumerate(row):
            if text and grid[y, x] == grid[y, x]:
                ax.text(x, y, text, ha="center", va="center", fontsize=7,
                        color=text_colour(cmap(float(grid[y, x]) / top)))
    ax.set_title(title, fontsize=9)
    fig.colorbar(im, ax=ax, shrink=0.8, label="bytes")


def op_time_figure(rep: dict):
    """Every op's simulated time by resource, stacked (ops by name when there are many)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib import colormaps

    ops = rep["ops"]
    resources = _resources(ops)
    if len(ops) <= MAX_OP_BARS:
        rows = [(f"#{o['index']} {o['name']}", o) for o in ops]
        what = "one bar an op, in program order"
    else:
        grouped: dict[str, dict] = defaultdict(lambda: {"time": defaultdict(float), "seconds": 0.0, "n": 0})
        for o in ops:
            g = grouped[o["name"]]
            g["n"] += 1
            g["seconds"] += o["seconds"]
            for r in resources:
                g["time"][f"{r}_s"] += float(o.get("time", {}).get(f"{r}_s", 0.0))
        rows = [(f"{name} (x{g['n']})", g) for name, g in sorted(grouped.items(), key=lambda kv: -kv[1]["seconds"])]
        what = f"{len(ops)} ops: one bar an op name, summed, slowest first"
    fig, ax = plt.subplots(figsize=(11, max(2.5, 0.28 * len(rows) + 1.6)))
    pal = colormaps["tab10"]
    left = [0.0] * len(rows)
    ys = list(range(len(rows)))
    for i, r in enumerate(resources):
        vals = [float(o.get("time", {}).get(f"{r}_s", 0.0)) * 1e6 for _, o in rows]
        ax.barh(ys, vals, left=left, color=pal(i % 10), label=r, height=0.7)
        left = [a + b for a, b in zip(left, vals)]
    for y, (_, o) in zip(ys, rows):
        ax.text(left[y], y, f" {o['seconds'] * 1e6:.2f} us", va="center", fontsize=7)
    ax.set_xlim(0, max(left, default=0.0) * 1.12 or 1.0)
    ax.set_yticks(ys, [name for name, _ in rows], fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("simulated time (us); each resource's share of the op (an op takes the overlap rule of "
                  "docs/simulator.md, shown at the bar's end)", fontsize=8)
    ax.set_title(f"time by resource per op ({what}); total {rep['time_model']['seconds'] * 1e6:.3f} us", fontsize=10)
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    return fig


def plot_files(rep: dict, system) -> dict[str, bytes]:
    """The PNGs of `--plot DIR` by file name (see the module docstring)."""
    out = {"links.png": _png(links_figure(rep, system)), "l1.png": _png(l1_figure(rep, system)),
           "op_time.png": _png(op_time_figure(rep))}
    if rep.get("pipeline"):  # a pipelined run: its stages on the GPipe timeline
        out["pipeline.png"] = _png(pipeline_figure(rep["pipeline"]))
    return out
