"""ttnn-optimize-memory's plan (meshc/passes/ttnn_optimize_memory.py, meshc/layout/memory_plan.py)
times a ttnn collective, and an op reading a host value (its upload to DRAM included), as the
simulator does: op by op, the plan's time of a lowered ttnn program equals `meshc.run`'s, and two
collectives' times and one host operand's upload derived by hand.

Hardware figures used by hand (wormhole_b0, meshc/layout/hardware.py and timemodel.py with their
sources): an 8x8 worker grid [GEMM]; DRAM 288 GB/s [WH spec]; clock 1 GHz [WH spec]; a worker
core puts 28.1 B a cycle on the NoC [NPE]. Collectives [CCL, TT's CCL bandwidth report]: a
Wormhole ethernet link 100 Gb/s = 12.5 GB/s a direction; a t3k joins neighbouring chips by 2
usable links [MESH]; on a line of n chips an all_reduce starts in 6.5 us, adds 7.75 us a hop
(n - 1 hops) and moves 2 (n - 1) / n of a device's input through the busiest link at 0.83 of
the links' rate; an all_gather starts in 5.25 us, adds 1.75 us a hop and moves (n - 1) pieces
through the busiest link at 0.955 (the report's fit, longer than 2 devices). An op launches in
5 us [GEMM, fitted]; an elementwise FPU op takes the unpackers' floor a tile, f32 76 cycles
(twice bf16's fitted 38 [GEMM]); the time model adds 0.6 of the shorter of compute and data
movement; the host reaches a t3k's 8 chips through 4 PCIe 4.0 x16 links [MESH], 32 GB/s each [WH spec].
"""

from __future__ import annotations

from pathlib import Path

import pytest

import meshc
from meshc.dialects import ttnn
from meshc.interp.common import find_entry
from meshc.layout.memory_options import tensor_options
from meshc.layout.memory_plan import plan_memory
from meshc.passes.ttmetal_optimize_memory import CclTime, MoveTime
from meshc.passes.ttnn_check_l1 import device_tensors, module_l1
from meshc.passes.ttnn_optimize_memory import program_ops
from test_ttmetal_optimize_memory import CCL_GALAXY, PERMUTE_T3K, UNEVEN_T3K

ROOT = Path(__file__).resolve().parents[2]
NOC_RATE = 64 * 28.1e9  # the chip's 64 cores, 28.1 B a cycle each at 1 GHz
DRAM_RATE = 288e9
LINKS_RATE = 2 * 12.5e9  # a t3k's 2 links between neighbours, 100 Gb/s each a direction

# A host constant read by a matmul as B, by a matmul as A, and by an add (each uploads it), and
# one read as B by a matmul whose 256x2048 result is width-sharded over the chip's 64 cores.
HOST_MATMULS = """
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @main(%x: tensor<256x256xbf16> {tt.sharding = #tt.sharding<[R, R]>}, %y: tensor<256x32xbf16> {tt.sharding = #tt.sharding<[R, R]>}) -> (tensor<256x256xbf16>, tensor<256x2048xbf16>) {
    %w = "ttir.constant"() {value = dense<5.000000e-01> : tensor<256x256xbf16>} : () -> tensor<256x256xbf16>
    %0 = "ttir.matmul"(%x, %w) : (tensor<256x256xbf16>, tensor<256x256xbf16>) -> tensor<256x256xbf16>
    %1 = "ttir.matmul"(%w, %0) : (tensor<256x256xbf16>, tensor<256x256xbf16>) -> tensor<256x256xbf16>
    %2 = "ttir.add"(%1, %w) : (tensor<256x256xbf16>, tensor<256x256xbf16>) -> tensor<256x256xbf16>
    %v = "ttir.constant"() {value = dense<2.500000e-01> : tensor<32x2048xbf16>} : () -> tensor<32x2048xbf16>
    %3 = "ttir.matmul"(%y, %v) : (tensor<256x32xbf16>, tensor<32x2048xbf16>) -> tensor<256x2048xbf16>
    %4 = "ttir.relu"(%3) : (tensor<256x2048xbf16>) -> tensor<256x2048xbf16>
    return %2, %4 : tensor<256x256xbf16>, tensor<256x2048xbf16>
  }
}
"""

SOURCES = {"mlp_global": (ROOT / "examples/mlp_global.mlir").read_text(),
           "flagship_t3k": (ROOT / "examples/flagship_transformer_t3k.mlir").read_text(),
           "flagship_global": (ROOT / "examples/flagship_transformer_global.mlir").read_text(),
           "ccl_galaxy": CCL_GALAXY, "permute_t3k": PERMUTE_T3K, "uneven_t3k": UNEVEN_T3K,
           "host_matmuls": HOST_MATMULS}
KINDS = {"mlp_global": {"all_reduce"}, "flagship_t3k": {"all_gather"}, "flagship_global": {"all_gather", "all_slice"},
         "ccl_galaxy": {"all_gather", "reduce_scatter", "all_reduce", "all_to_all"},
         "permute_t3k": {"collective_permute"}, "uneven_t3k": {"point_to_point"},
         "host_matmuls": set()}


def _program(source: str):
    module = meshc.compile(meshc.parse(source), "ttir-to-ttnn-pipeline")
    block = find_entry(module, None).body.blocks.first
    tensors, ops, where = program_ops(device_tensors(block), block)
    arch, capacity = module_l1(module)
    return module, tensors, ops, where, arch, capacity


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_the_plans_op_times_are_the_simulators(name):
    module, tensors, ops, where, arch, capacity = _program(SOURCES[name])
    for t in tensors:
        t.fixed = "as lowered"  # time the program as it stands
    plan = plan_memory(tensors, ops, arch, capacity)
    sim = meshc.run(module, seed=0).ops
    records, k = [], 0
    for op in where:  # the simulator's record of each plan op (it also records ops on no device tensor)
        while sim[k].name.split()[0] != op.name:
            assert sim[k].time.device_s == 0, sim[k].name
            k += 1
        records.append(sim[k])
        k += 1
    compared, uploads = set(), 0
    for o, op, s, record in zip(ops, where, plan.op_seconds, records):
        uploads += bool(o.host_dtypes)
        assert s == pytest.approx(record.time.device_s, rel=1e-9, abs=1e-15), record.name
        compared.add(op.name)
    collectives = {cls.name for cls in (*ttnn.COLLECTIVE_OPS.values(), ttnn.PointToPointOp)} & compared
    assert {c.split(".")[1] for c in collectives} == KINDS[name]
    # flagship_t3k multiplies by a host constant, flagship_global all_slices one (0.0023 us in the
    # plan before it counted the upload, 0.1138 us in the simulator): their uploads are compared above
    assert uploads == {"flagship_t3k": 1, "flagship_global": 1, "host_matmuls": 4}.get(name, 0), uploads
    for o, op in zip(ops, where):  # every collective of a device tensor times itself (the simulator's formula)
        if op.name in collectives and min(o.operands) >= 0:
            assert isinstance(o.time, MoveTime if op.name in ("ttnn.collective_permute", "ttnn.point_to_point")
                              else CclTime), op.name


def _options(tensors, i, arch):
    t = tensors[i]
    return t, tensor_options(t.shape, t.dtype, t.tile, arch, t.current, {})[0]


def test_the_all_reduce_of_mlp_global_by_hand():
    # mlp_global on a t3k (2x4 chips, no wrap-around link between chips 0 and 3): each chip row
    # adds its partial y, 32x64 f32 = 8,192 B a device, with one all_reduce over the row's 4
    # chips, a line. Startup 6.5 us + 7.75 us a hop x 3 hops = 29.75 us; the busiest link
    # carries 2 x 3 / 4 x 8,192 = 12,288 B at 2 x 12.5 GB/s x 0.83 = 20.75 GB/s: 0.5922 us; no
    # op launch (the fit's startup holds it). Every chip reads its 8,192 B input and writes its
    # 8,192 B result: 16,384 B over the NoC (9.1 ns) and, both in DRAM, 16,384 B through the DRAM
    # (56.9 ns): under the ethernet's 0.59 us, so the time is the same in every place. The plan's
    # own model (launch + max(DRAM, NoC)) gave 5.009 us.
    module, tensors, ops, where, arch, _ = _program(SOURCES["mlp_global"])
    (j,) = [j for j, op in enumerate(where) if op.name == "ttnn.all_reduce"]
    eth = 2 * 3 / 4 * 8192 / (LINKS_RATE * 0.83)
    expected = (6.5 + 7.75 * 3) * 1e-6 + eth
    (t_in, o_in), (t_out, o_out) = _options(tensors, ops[j].operands[0], arch), _options(tensors, ops[j].results[0], arch)
    assert t_in.shape == t_out.shape == (32, 64) and t_in.dtype == "f32"
    assert {"l1_height_sharded", "l1_interleaved", "dram_interleaved"} <= set(o_in)
    for a, oa in o_in.items():  # the input in every place, the output in every place
        for b, ob in o_out.items():
            t = ops[j].time([oa, ob])
            assert t.ethernet == pytest.approx(eth, rel=1e-9)
            assert t.noc == pytest.approx(2 * 8192 / NOC_RATE, rel=1e-9)
            assert t.dram == pytest.approx(sum(k.startswith("dram") for k in (a, b)) * 8192 / DRAM_RATE, rel=1e-9)
            assert t.device_s == pytest.approx(expected, rel=1e-9)
    (record,) = [r for r in meshc.run(module, seed=0).ops if r.name == "ttnn.all_reduce"]
    assert record.time.device_s == pytest.approx(expected, rel=1e-9)


def test_the_first_all_gather_of_flagship_t3k_by_hand():
    # flagship_transformer_t3k gathers the 4 heads' attention outputs along a chip row of the t3k
    # (a line of 4 chips): each device's piece is 32x16 f32 = 2,048 B on a link. Startup 5.25 us
    # + 1.75 us a hop x 3 = 10.5 us; the busiest link carries 3 pieces, 6,144 B, at 2 x 12.5
    # GB/s x 0.955 = 23.875 GB/s: 0.2573 us. On the chip the piece takes one 32x32 f32 tile
    # (4,096 B) and the 32x64 result two (8,192 B): 12,288 B over the NoC (6.8 ns) and at most
    # that through the DRAM (42.7 ns), under the ethernet time.
    module, tensors, ops, where, arch, _ = _program(SOURCES["flagship_t3k"])
    j = next(j for j, op in enumerate(where) if op.name == "ttnn.all_gather")
    eth = 3 * 2048 / (LINKS_RATE * 0.955)
    expected = (5.25 + 1.75 * 3) * 1e-6 + eth
    (t_in, o_in), (t_out, o_out) = _options(tensors, ops[j].operands[0], arch), _options(tensors, ops[j].results[0], arch)
    assert t_in.shape == (32, 16) and t_out.shape == (32, 64) and t_in.dtype == "f32"
    for oa in o_in.values():
        for ob in o_out.values():
            t = ops[j].time([oa, ob])
            assert t.noc == pytest.approx((4096 + 8192) / NOC_RATE, rel=1e-9)
            assert t.device_s == pytest.approx(expected, rel=1e-9)
    record = next(r for r in meshc.run(module, seed=0).ops if r.name == "ttnn.all_gather")
    assert record.time.device_s == pytest.approx(expected, rel=1e-9)


def test_a_host_constants_upload_by_hand():
    # flagship_transformer_t3k scales the 32x32 f32 attention scores %s (L1, block-sharded on
    # one core, where the product goes too) by a host constant 32x32 f32. The simulator uploads
    # the constant to every chip's DRAM, interleaved in rows: 32 x 32 x 4 = 4,096 B written
    # through the NoC into DRAM, then the multiply reads those 4,096 B back (a DRAM operand):
    # 8,192 B through the DRAM (28.44 ns) and over the NoC (4.56 ns); %s sits where the result
    # does, so it is not moved. Compute: one tile, 76 cycles = 76 ns. Device time 5 us + 76 ns +
    # 0.6 x 28.44 ns = 5.0931 us (without the upload 5.076 us, the plan's time before). Host time,
    # not device time (the same in every place, so the plan leaves it out): 4,096 B to each of 8
    # chips over 4 links at 32 GB/s = 256 ns.
    module, tensors, ops, where, arch, _ = _program(SOURCES["flagship_t3k"])
    (j,) = [j for j, op in enumerate(where) if op.name == "ttnn.multiply"]
    assert ops[j].operands[1] == -1 and ops[j].host_shapes == {1: (32, 32)} and ops[j].host_dtypes == {1: "f32"}
    dram = 2 * 4096 / DRAM_RATE
    expected = 5e-6 + 76e-9 + 0.6 * dram
    for t in tensors:
        t.fixed = "as lowered"
    plan = plan_memory(tensors, ops, arch)
    assert plan.op_seconds[j] == pytest.approx(expected, rel=1e-9)
    t = plan.model._op_time(ops[j], plan.choice)
    assert t.dram == pytest.approx(dram, rel=1e-9) and t.noc == pytest.approx(2 * 4096 / NOC_RATE, rel=1e-9)
    (record,) = [r for r in meshc.run(module, seed=0).ops if r.name.startswith("ttnn.multiply")]
    assert record.time.device_s == pytest.approx(expected, rel=1e-9)
    assert record.time.host == pytest.approx(8 * 4096 / (4 * 32e9), rel=1e-9)
