"""What a large point_to_point table costs written packed and written out, and the lowering that makes it.

    python bench/transfer_table.py [--mesh 32,128] [--repeats 5]

Lowers the second chunk of test/lit/passes/select-sharded.mlir (a vocab-parallel embedding) with
`ttir-to-ttnn-pipeline{mesh-shape=MESH}` (on 32x128 its reshards are explicit moves: 8 rows over
32 devices split unevenly), takes the largest `#ttir.transfers` table of the result and prints,
as the median of `--repeats` runs with the range: the lowering's CPU time (one meshc-opt a run),
`unpack` and `pack` of the table, and the length of the packed text against the table written
as `array<i64: ...>`.
"""

from __future__ import annotations

import argparse
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from meshc.layout.reshard.transfer_table import pack, unpack

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "test/lit/passes/select-sharded.mlir"
PACKED = re.compile(r'#ttir\.transfers<(\d+), (\d+), "([^"]*)">')


def _median(times: list[float]) -> str:
    return f"median {statistics.median(times):.3f} s (range {min(times):.3f}-{max(times):.3f})"


def _timed(fn, repeats: int) -> list[float]:
    out = []
    for _ in range(repeats):
        unpack.cache_clear()
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--mesh", default="32,128")
    p.add_argument("--repeats", type=int, default=5)
    args = p.parse_args()
    chunk = SOURCE.read_text().split("// -----")[1]
    opt = Path(sys.executable).parent / "meshc-opt"
    with tempfile.TemporaryDirectory() as tmp:
        src, out = Path(tmp) / "in.mlir", Path(tmp) / "out.mlir"
        src.write_text(chunk)
        lowering = []
        for _ in range(args.repeats):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run([str(opt), str(src), "-p", f"ttir-to-ttnn-pipeline{{mesh-shape={args.mesh}}}",
                            "-o", str(out)], check=True, capture_output=True)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            lowering.append((after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime))
        text = out.read_text()
    m = max(PACKED.finditer(text), key=lambda m: int(m.group(1)), default=None)
    if m is None:
        sys.exit(f"no packed transfers table in the lowering on {args.mesh}")
    n, width, data = int(m.group(1)), int(m.group(2)), m.group(3)
    rows = unpack(data, n, width)
    written = len(", ".join(map(str, rows.reshape(-1).tolist())))
    print(f"mesh {args.mesh}: {n} rows x {width} = {rows.size} numbers; packed {len(data)} characters, "
          f"as array<i64: ...> {written}")
    print(f"lowering (meshc-opt, CPU)  {_median(lowering)}")
    print(f"unpack                     {_median(_timed(lambda: unpack(data, n, width), args.repeats))}")
    print(f"pack                       {_median(_timed(lambda: pack(rows), args.repeats))}")


if __name__ == "__main__":
    main()
