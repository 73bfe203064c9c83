"""A TTMetal program's compute in the time model: one core's tile ops on its block, the cores of
its grid in parallel (meshc.layout.timemodel.kernel_compute_s), charged by the simulator's
enqueue_program. The same ttir op lowered through ttir-to-ttnn-pipeline and ttir-to-ttmetal-pipeline
onto the same result grid costs the same compute seconds, in data and abstract runs; the figures
are derived here by hand from Wormhole B0's facts (meshc/layout/hardware.py and its sources)."""

from __future__ import annotations

import math

import pytest

import meshc
from meshc.layout.hardware import arch_facts
from meshc.layout.timemodel import TileOp, kernel_compute_s

# Wormhole B0, by hand from the sources meshc/layout/hardware.py cites:
CLOCK = 1.0e9  # [WH spec] AI clock 1 GHz
HIFI4_TILE = 16 * 4 / 0.95  # [GEMM] LoFi 16 cycles a 32x32x32 tile, HiFi4 4 passes; 95% sustained (fitted)
UNPACK = {"bf16": 38.0, "f32": 76.0}  # [GEMM]-fitted unpacker floor a tile, f32 twice bf16
SFPU_TILE = 32 * 32 / 32 * 16  # [ISA] 32 SFPU lanes; ASSUMPTION 16 instructions an element op

PROGRAM = """
func.func @main(%a: tensor<{m}x{k}x{t}>, %b: tensor<{k}x{n}x{t}>) -> tensor<{m}x{n}x{t}> {{
  %0 = "ttir.matmul"(%a, %b) : (tensor<{m}x{k}x{t}>, tensor<{k}x{n}x{t}>) -> tensor<{m}x{n}x{t}>
  %1 = "ttir.gelu"(%0) : (tensor<{m}x{n}x{t}>) -> tensor<{m}x{n}x{t}>
  %2 = "ttir.add"(%1, %0) : (tensor<{m}x{n}x{t}>, tensor<{m}x{n}x{t}>) -> tensor<{m}x{n}x{t}>
  %3 = "ttir.transpose"(%2) {{dim0 = 0 : si32, dim1 = 1 : si32}} : (tensor<{m}x{n}x{t}>) -> tensor<{n}x{m}x{t}>
  return %2 : tensor<{m}x{n}x{t}>
}}
"""


def _programs(module) -> list:
    return [op for op in module.walk() if op.name == "ttmetal.enqueue_program"]


def _compute(result, names) -> list[float]:
    return [o.time.compute for o in result.ops if o.name in names]


@pytest.mark.parametrize("m,k,n,t", [(256, 512, 256, "bf16"), (96, 160, 64, "f32")])
@pytest.mark.parametrize("abstract", [False, True])
def test_matmul_and_elementwise_cost_the_same_on_both_targets(m, k, n, t, abstract):
    text = PROGRAM.format(m=m, k=k, n=n, t=t)
    ttnn = meshc.run(text, target="ttnn", abstract=abstract)
    metal = meshc.run(text, target="ttmetal", abstract=abstract)
    nn = _compute(ttnn, ("ttnn.matmul", "ttnn.gelu", "ttnn.add", "ttnn.transpose"))
    mt = _compute(metal, ("ttmetal.enqueue_program",))
    assert mt == pytest.approx(nn, rel=1e-12, abs=0)
    # by hand on the programs' grid: each core its (m/gy) x (n/gx) block over all of k
    (gy, gx), = {tuple(p.core_grid()) for p in _programs(meshc.lower(meshc.parse(text), None, "ttmetal"))[:3]}
    tiles = math.ceil(m / gy / 32) * math.ceil(n / gx / 32)
    matmul = tiles * math.ceil(k / 32) * max(HIFI4_TILE, UNPACK[t]) / CLOCK
    gelu = tiles * max(UNPACK[t], SFPU_TILE) / CLOCK
    add = tiles * UNPACK[t] / CLOCK
    assert mt == pytest.approx([matmul, gelu, add, 0.0], rel=1e-12)


def test_programs_that_only_move_data_compute_nothing_but_launch():
    text = PROGRAM.format(m=64, k=64, n=128, t="bf16")
    metal = meshc.run(text, target="ttmetal", abstract=True)
    transpose = [o for o in metal.ops if o.name == "ttmetal.enqueue_program"][-1]
    assert transpose.time.compute == 0.0
    assert transpose.time.latency == pytest.approx(5.0e-6)  # [GEMM]-fitted launch of a program


def test_kernel_compute_is_one_cores_tile_ops():
    wh = arch_facts("wormhole_b0")
    ops = [TileOp("matmul", 32 * 64, "bf16", (32, 256, 64)), TileOp("exp", 32 * 64, "bf16"),
           TileOp("multiply", 32 * 64, "f32"), TileOp("copy", 32 * 64), TileOp("transpose", 32 * 64),
           TileOp("matmul", 2 * 32 * 32, "bf16", (32, 32, 32), batch=2, fidelity="LoFi")]
    want = (2 * 8 * HIFI4_TILE + 2 * SFPU_TILE + 2 * UNPACK["f32"] + 2 * max(16 / 0.95, UNPACK["bf16"])) / CLOCK
    assert kernel_compute_s(wh, ops) == pytest.approx(want, rel=1e-12)


DRAM_B = """
#device = #tt.device<workerGrid = #tt.grid<8x8, (d0, d1) -> (0, d0, d1)>, meshShape = 1x1, chipIds = [0]>
builtin.module attributes {tt.device = #device} {
  func.func @main(%a: tensor<256x512xbf16>, %b: tensor<512x256xbf16>) -> tensor<256x256xbf16> {
    %0 = "ttmetal.create_buffer"() {memory_config = #ttnn.memory_config<#ttnn.buffer_type<dram>, <interleaved>>, tile = array<i64: 32, 32>} : () -> !ttmetal.buffer<512x256xbf16>
    "ttmetal.enqueue_write_buffer"(%b, %0) {shard_dims = array<i64: -1, -1>} : (tensor<512x256xbf16>, !ttmetal.buffer<512x256xbf16>) -> ()
    %1 = "ttmetal.create_buffer"() {memory_config = #ttnn.memory_config<#ttnn.buffer_type<l1>, <block_sharded>, #ttnn.shard_spec<#ttnn.core_range_set<[#ttnn.core_range<(0, 0), (7, 7)>]>, <32x64>, <row_major>>>, tile = array<i64: 32, 32>} : () -> !ttmetal.buffer<256x512xbf16>
    "ttmetal.enqueue_write_buffer"(%a, %1) {shard_dims = array<i64: -1, -1>} : (tensor<256x512xbf16>, !ttmetal.buffer<256x512xbf16>) -> ()
    %2 = "ttmetal.create_buffer"() {memory_config = #ttnn.memory_config<#ttnn.buffer_type<l1>, <block_sharded>, #ttnn.shard_spec<#ttnn.core_range_set<[#ttnn.core_range<(0, 0), (7, 7)>]>, <32x32>, <row_major>>>, tile = array<i64: 32, 32>} : () -> !ttmetal.buffer<256x256xbf16>
    "ttmetal.enqueue_program"(%1, %0, %2) ({
    ^bb0(%3: !ttmetal.buffer<256x512xbf16>, %4: !ttmetal.buffer<512x256xbf16>, %5: !ttmetal.buffer<256x256xbf16>):
      %6 = "ttmetal.read_tiles"(%3) {select = ["y", "all"]} : (!ttmetal.buffer<256x512xbf16>) -> tensor<32x512xbf16>
      %7 = "ttmetal.read_tiles"(%4) {select = ["all", "x"]} : (!ttmetal.buffer<512x256xbf16>) -> tensor<512x32xbf16>
      %8 = "ttmetal.tile_matmul"(%6, %7) : (tensor<32x512xbf16>, tensor<512x32xbf16>) -> tensor<32x32xbf16>
      "ttmetal.write_tiles"(%8, %5) {select = ["y", "x"]} : (tensor<32x32xbf16>, !ttmetal.buffer<256x256xbf16>) -> ()
      "ttmetal.kernel_end"() : () -> ()
    }) {grid = array<i64: 8, 8>} : (!ttmetal.buffer<256x512xbf16>, !ttmetal.buffer<512x256xbf16>, !ttmetal.buffer<256x256xbf16>) -> ()
    %9 = "ttmetal.enqueue_read_buffer"(%2) {shard_dims = array<i64: -1, -1>} : (!ttmetal.buffer<256x256xbf16>) -> tensor<256x256xbf16>
    "ttmetal.finish"() : () -> ()
    func.return %9 : tensor<256x256xbf16>
  }
}
"""


@pytest.mark.parametrize("abstract", [False, True])
def test_a_matmul_streams_its_dram_b_through_a_row_of_readers(abstract):
    """B interleaved in DRAM: every core reads its 512x32 bf16 column band (32 KiB), 64 cores
    2 MiB from the banks, streamed by one row of 8 reader cores as TTNN's 2D multicast matmul
    does, each at [NPE]'s 23.2 B a cycle (8 x 23.2 GB/s, under the chip's 288 GB/s [WH spec])."""
    r = meshc.run(DRAM_B, abstract=abstract)
    (prog,) = [o for o in r.ops if o.name == "ttmetal.enqueue_program"]
    assert sum(prog.traffic.dram_read.values()) == 64 * 512 * 32 * 2
    assert prog.time.dram == pytest.approx(64 * 512 * 32 * 2 / (8 * 23.2 * CLOCK), rel=1e-12)
    assert prog.time.compute == pytest.approx(16 * HIFI4_TILE / CLOCK, rel=1e-12)
