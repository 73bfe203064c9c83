"""Simulator speed: host transfers against numpy memcpy, building big machines, abstract runs.

Measured in one run, each figure the median of interleaved pairs (with min and max):

1. distribute + gather of a 256 MiB f32 tensor (8192 x 8192) over an 8x4 galaxy mesh, through
   the ShardedBufferConfig of ShardTensor2dMesh(dims=(0, 1)) (1024 x 2048 a chip), block-sharded
   over each chip's 8x8 worker cores in L1 (128 x 256 a core), against numpy copying the same
   bytes twice into a preallocated array (`np.copyto`, twice). Target ratio >= 0.7. Large
   copies go through meshc's streaming-store copy when it was built (meshc/sim/stream_copy.py);
   printed beside it: the same with numpy copies only, and numpy's own copy into and out of a
   per-core block order (1 KiB rows) in one thread and on the host's cores. The peak
   memory (tracemalloc) of one round in which the host drops the source once it is on the
   devices, then gathers it: target <= 2x the tensor (the simulated memory holds it once).
2. the same for a 1 MiB tensor (512 x 512; 8 x 16 a core): target ratio >= 0.3.
3. building a Machine for a 64x64 chip mesh (4096 chips): target <= 1 s.
4. an abstract (shape-only) run of a tensor-parallel matmul + all_gather program on a 32x32
   mesh (a galaxy of galaxies, 1024 chips): its time, lowering excluded.

    python bench/sim.py [--pairs 7]
"""

from __future__ import annotations

import argparse
import statistics
import time
import tracemalloc
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from meshc.layout.memory_config import MemoryConfig
from meshc.layout.mesh_mappers import ShardTensor2dMesh
from meshc.layout.sharded_buffer import lower_mesh_mapper
from meshc.layout.system import mesh_system
from meshc.sim import stream_copy
from meshc.sim.machine import HOST_WORKERS, Machine

MESH = (8, 4)


def stats(xs: list[float]) -> str:
    return f"{statistics.median(xs):.2f} (min {min(xs):.2f}, max {max(xs):.2f})"


def make_source(rows: int, cols: int) -> np.ndarray:
    """Element i holds the bits of i (finite floats), so a misplaced element is caught."""
    return np.arange(rows * cols, dtype=np.uint32).view(np.float32).reshape(rows, cols)


def transfer_setup(rows: int, cols: int):
    machine = Machine("galaxy", MESH)
    local = (rows // MESH[0], cols // MESH[1])
    buf = machine.allocate(local, "f32", MemoryConfig("l1", "block_sharded", (8, 8)), name="bench")
    config = lower_mesh_mapper((rows, cols), MESH, ShardTensor2dMesh((0, 1)), 4)
    return machine, buf, config, local


def transfer_pairs(rows: int, cols: int, pairs: int, inner: int) -> list[float]:
    """Ratios numpy time / simulator time, pairs interleaved (order alternating)."""
    machine, buf, config, _ = transfer_setup(rows, cols)
    src = make_source(rows, cols)
    out = np.empty_like(src)

    def base():
        for _ in range(inner):
            np.copyto(out, src)
            np.copyto(out, src)

    def sim():
        for _ in range(inner):
            machine.write_host(buf, src, config)
            machine.read_host(buf, config, src.shape, out=out)

    sim()
    if not np.array_equal(out.view(np.uint32), src.view(np.uint32)):
        raise SystemExit("bench/sim.py: the gathered tensor differs from the source")
    return interleaved_ratios(base, sim, pairs)


def interleaved_ratios(base, other, pairs: int) -> list[float]:
    """base's time / other's time, per pair; the pairs interleaved, the order alternating."""
    ratios = []
    for i in range(pairs):
        times = {}
        for name, fn in ((("base", base), ("other", other)) if i % 2 == 0 else (("other", other), ("base", base))):
            t0 = time.perf_counter()
            fn()
            times[name] = time.perf_counter() - t0
        ratios.append(times["base"] / times["other"])
    return ratios


def block_order_pairs(rows: int, cols: int, pairs: int) -> dict[str, list[float]]:
    """References for the simulator's ratio: numpy memcpy x2 over numpy copying the tensor into
    and out of the per-core block order the simulator stores (blocks of the bench's core shard
    width, so 1 KiB rows at 256 MiB), in one thread and split over the host's cores as the
    simulator splits a large transfer; pairs interleaved."""
    width = cols // MESH[1] // 8
    src = make_source(rows, cols)
    out = np.empty_like(src)
    blocks = np.empty((cols // width, rows, width), src.dtype)
    view = src.reshape(rows, cols // width, width).transpose(1, 0, 2)
    back = out.reshape(rows, cols // width, width).transpose(1, 0, 2)
    cuts = np.linspace(0, rows, HOST_WORKERS + 1).astype(int)
    parts = list(zip(cuts[:-1], cuts[1:]))
    pool = ThreadPoolExecutor(HOST_WORKERS)

    def base():
        np.copyto(out, src)
        np.copyto(out, src)

    def numpy_one():
        np.copyto(blocks, view)
        np.copyto(back, blocks)

    def numpy_cores():
        list(pool.map(lambda p: np.copyto(blocks[:, p[0]:p[1]], view[:, p[0]:p[1]]), parts))
        list(pool.map(lambda p: np.copyto(back[:, p[0]:p[1]], blocks[:, p[0]:p[1]]), parts))

    result = {}
    for name, fn in (("1 thread", numpy_one), (f"{HOST_WORKERS} threads", numpy_cores)):
        out.fill(0)
        fn()
        if not np.array_equal(out.view(np.uint32), src.view(np.uint32)):
            raise SystemExit(f"bench/sim.py: numpy's block-order copy ({name}) differs from the source")
        result[name] = interleaved_ratios(base, fn, pairs)
    pool.shutdown()
    return result


def transfer_memory(rows: int, cols: int) -> tuple[float, int, int]:
    """Peak traced memory / tensor bytes of one round (source -> devices, drop source, gather),
    with its parts beside the tensor's bytes: what the machine holds before the round (its
    allocators and tables) and what the round adds beyond the copies of the tensor."""
    tracemalloc.start()
    machine, buf, config, _ = transfer_setup(rows, cols)
    held = tracemalloc.get_traced_memory()[0]
    src = make_source(rows, cols)
    machine.write_host(buf, src, config)
    del src
    out = machine.read_host(buf, config, (rows, cols))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    step = max(rows // 16, 1)
    for r in range(0, rows, step):
        want = np.arange(r * cols, min(r + step, rows) * cols, dtype=np.uint32)
        if not np.array_equal(out[r:r + step].view(np.uint32).reshape(-1), want):
            raise SystemExit(f"bench/sim.py: the gathered tensor differs from the source in rows {r}..{r + step}")
    nbytes = rows * cols * 4
    return peak / nbytes, held, peak - 2 * nbytes - held


def machine_build(pairs: int) -> list[float]:
    system = mesh_system((64, 64))
    times = []
    for _ in range(pairs):
        t0 = time.perf_counter()
        Machine(system, (64, 64))
        times.append(time.perf_counter() - t0)
    return times


PROGRAM = """
module {
  func.func @main(%x: tensor<32768x8192xbf16>, %w: tensor<8192x8192xbf16>) -> tensor<32768x8192xbf16> {
    %0 = "ttir.mesh_shard"(%x) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 32, 1>, shard_dims = array<i64: 0, -1>} : (tensor<32768x8192xbf16>) -> tensor<1024x8192xbf16>
    %1 = "ttir.mesh_shard"(%w) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 32>, shard_dims = array<i64: -1, 1>} : (tensor<8192x8192xbf16>) -> tensor<8192x256xbf16>
    %2 = "ttir.matmul"(%0, %1) : (tensor<1024x8192xbf16>, tensor<8192x256xbf16>) -> tensor<1024x256xbf16>
    %3 = "ttir.all_gather"(%2) {all_gather_dim = 1 : si32, cluster_axis = 1 : ui32} : (tensor<1024x256xbf16>) -> tensor<1024x8192xbf16>
    %4 = "ttir.mesh_shard"(%3) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<shard_to_full>, shard_shape = array<i64: 32, 1>, shard_dims = array<i64: 0, -1>} : (tensor<1024x8192xbf16>) -> tensor<32768x8192xbf16>
    func.return %4 : tensor<32768x8192xbf16>
  }
}
"""


def abstract_run(pairs: int):
    import meshc

    from meshc.dialects.tt import DeviceAttr, SystemDescAttr
    from meshc.layout.device import derive_device
    from meshc.layout.system import mesh_view_chips

    mesh = (32, 32)
    system = mesh_system(mesh)
    module = meshc.parse(PROGRAM)
    module.attributes["tt.system_desc"] = SystemDescAttr.from_model(system)
    module.attributes["tt.device"] = DeviceAttr.from_model(
        derive_device(mesh, system=system, chip_ids=mesh_view_chips(system, mesh)))
    module = meshc.compile(module, "ttir-to-ttnn-pipeline")
    times, result = [], None
    for _ in range(pairs):
        t0 = time.perf_counter()
        result = meshc.run(module, abstract=True, system=system)
        times.append(time.perf_counter() - t0)
    return times, result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pairs", type=int, default=7, help="interleaved pairs a figure (default 7)")
    args = ap.parse_args()

    copy = "streaming-store copy (meshc/sim/_stream_copy.c)" if stream_copy.AVAILABLE else \
        "numpy copies (meshc was built without its native copy: no C compiler?)"
    big = transfer_pairs(8192, 8192, args.pairs, 1)
    print(f"256 MiB distribute+gather on a galaxy / numpy memcpy x2: {stats(big)}  (target >= 0.7), "
          f"through the {copy}")
    if stream_copy.AVAILABLE:
        stream_copy.use_native(False)
        plain = transfer_pairs(8192, 8192, args.pairs, 1)
        stream_copy.use_native(True)
        print(f"  the same through numpy copies only / numpy memcpy x2: {stats(plain)}")
    for name, ratios in block_order_pairs(8192, 8192, args.pairs).items():
        print(f"  reference, numpy's own copy into and out of that block order, {name} / memcpy x2: {stats(ratios)}")
    small = transfer_pairs(512, 512, args.pairs, 200)
    print(f"1 MiB distribute+gather on a galaxy / numpy memcpy x2:   {stats(small)}  (target >= 0.3)")
    mem, held, extra = transfer_memory(8192, 8192)
    print(f"peak traced memory of a 256 MiB round: {mem:.4f}x the tensor  (target <= 2x): two copies of "
          f"the tensor (the host's and the devices'), {held / 1024:.0f} KiB the machine held before the "
          f"round, {extra / 1024:.0f} KiB more during it")
    build = machine_build(args.pairs)
    print(f"Machine for 4096 chips (64x64): {stats([t * 1e3 for t in build])} ms  (target <= 1000 ms)")
    abstract, res = abstract_run(max(3, args.pairs // 2))
    print(f"abstract run on a 32x32 mesh (1024 chips): {stats(abstract)} s; "
          f"{res.traffic.link_bytes / 2**30:.2f} GiB over links, time estimate {res.time_estimate * 1e3:.3f} ms")
    print(f"SUMMARY sim: 256MiB {statistics.median(big):.2f}x [{min(big):.2f}-{max(big):.2f}] "
          f"native-copy {'on' if stream_copy.AVAILABLE else 'off'} "
          f"1MiB {statistics.median(small):.2f}x [{min(small):.2f}-{max(small):.2f}] "
          f"peak-mem {mem:.4f}x build-4096 {statistics.median(build) * 1e3:.0f}ms "
          f"abstract-32x32 {statistics.median(abstract):.2f}s")


if __name__ == "__main__":
    main()
