"""Simulator throughput: distribute and gather a 256 MiB f32 tensor over an 8x4 galaxy mesh.

The tensor (8192 x 8192 f32) is sharded over the 8x4 chip mesh (rows over mesh axis 0, columns
over axis 1: 1024 x 2048 a chip) and block-sharded over each chip's 8x8 worker cores (128 x 256
a core, in L1). In the same run, numpy copies the same bytes twice (`np.copyto` of the whole
tensor, twice: the baseline). Printed: the throughput ratio simulator / numpy (target >= 0.5)
and the peak traced memory of the run (tracemalloc, everything numpy allocates, target <= 3x
the tensor). Each phase is repeated (`--repeat`, best kept). The source tensor is dropped once
it is on the devices; the gathered copy is then checked against a regenerated source, chunk by
chunk.

    python bench/sim.py [--mib 256] [--repeat 3]
"""

from __future__ import annotations

import argparse
import time
import tracemalloc

import numpy as np

from meshc.interp.ttir import split_to_devices, spec_for
from meshc.layout.memory_config import MemoryConfig
from meshc.sim.machine import Machine


def make_source(rows: int, cols: int, start_row: int = 0, stop_row: int | None = None) -> np.ndarray:
    """Rows [start_row, stop_row) of the source: element i holds the bits of i (finite floats)."""
    stop_row = rows if stop_row is None else stop_row
    return np.arange(start_row * cols, stop_row * cols, dtype=np.uint32).view(np.float32).reshape(-1, cols)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mib", type=int, default=256, help="tensor size in MiB (default 256)")
    ap.add_argument("--repeat", type=int, default=5, help="timed repetitions, best kept (default 5)")
    args = ap.parse_args()

    mesh = (8, 4)
    cols = 8192
    rows = args.mib * (1 << 20) // 4 // cols
    nbytes = rows * cols * 4
    tracemalloc.start()

    src = make_source(rows, cols)

    # the baseline: numpy copies the same bytes twice, into a preallocated array
    out = np.empty_like(src)
    base = float("inf")
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        np.copyto(out, src)
        np.copyto(out, src)
        base = min(base, time.perf_counter() - t0)
    del out

    machine = Machine("galaxy", mesh)
    local = (rows // mesh[0], cols // mesh[1])
    buf = machine.allocate(local, "f32", MemoryConfig("l1", "block_sharded", (8, 8)), name="bench")
    spec = spec_for((0, 1), 2, mesh)
    pieces = list(split_to_devices(src, spec))  # views into the source, no copies
    dist = float("inf")
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        machine.write(buf, pieces)
        dist = min(dist, time.perf_counter() - t0)
    del pieces, src  # checked later against a regenerated source

    out = np.empty((rows, cols), np.float32)
    views = list(split_to_devices(out, spec))
    gather = float("inf")
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        machine.read(buf, out=views)
        gather = min(gather, time.perf_counter() - t0)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()

    step = max(rows // 16, 1)
    for r in range(0, rows, step):
        if not np.array_equal(out[r: r + step].view(np.uint32), make_source(rows, cols, r, min(r + step, rows)).view(np.uint32)):
            raise SystemExit(f"bench/sim.py: the gathered tensor differs from the source in rows {r}..{r + step}")

    sim = dist + gather
    ratio = base / sim
    gb = 2 * nbytes / 1e9
    print(f"tensor {rows}x{cols} f32 = {nbytes / (1 << 20):.0f} MiB over a {mesh[0]}x{mesh[1]} galaxy mesh, "
          f"block-sharded over 8x8 cores a chip ({local[0] // 8}x{local[1] // 8} a core)")
    print(f"numpy copy x2:        {base * 1e3:8.1f} ms  ({gb / base:6.2f} GB/s)")
    print(f"simulator distribute: {dist * 1e3:8.1f} ms, gather {gather * 1e3:8.1f} ms  ({gb / sim:6.2f} GB/s)")
    print(f"throughput ratio simulator / numpy: {ratio:.2f} (target >= 0.5: {'met' if ratio >= 0.5 else 'NOT met'})")
    print(f"peak traced memory: {peak / (1 << 20):.0f} MiB = {peak / nbytes:.2f}x the tensor "
          f"(target <= 3x: {'met' if peak <= 3 * nbytes else 'NOT met'})")
    reps = args.repeat
    print(f"counted a round: host->device {sum(machine.traffic.host_to_device.values()) // reps // (1 << 20)} MiB, "
          f"device->host {sum(machine.traffic.device_to_host.values()) // reps // (1 << 20)} MiB, "
          f"peak L1 a core {machine.peak_l1_core:,} B")


if __name__ == "__main__":
    main()
