"""ttnn-optimize-memory's plan (meshc/passes/ttnn_optimize_memory.py, meshc/layout/memory_plan.py)
times a ttnn collective as the simulator does: op by op, the plan's time of a lowered ttnn program
equals `meshc.run`'s, and two collectives' times derived by hand.

Hardware figures used by hand (wormhole_b0, meshc/layout/hardware.py and timemodel.py with their
sources): an 8x8 worker grid [GEMM]; DRAM 288 GB/s [WH spec]; clock 1 GHz [WH spec]; a worker
core puts 28.1 B a cycle on the NoC [NPE]. Collectives [CCL, TT's CCL bandwidth report]: a
Wormhole ethernet link 100 Gb/s = 12.5 GB/s a direction; a t3k joins neighbouring chips by 2
usable links [MESH]; on a line of n chips an all_reduce starts in 6.5 us, adds 7.75 us a hop
(n - 1 hops) and moves 2 (n - 1) / n of a device's input through the busiest link at 0.83 of
the links' rate; an all_gather starts in 5.25 us, adds 1.75 us a hop and moves (n - 1) pieces
through the busiest link at 0.955 (the report's fit, longer than 2 devices).
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

SOURCES = {"mlp_global": (ROOT / "examples/mlp_global.mlir").read_text(),
           "flagship_t3k": (ROOT / "examples/flagship_transformer_t3k.mlir").read_text(),
           "ccl_galaxy": CCL_GALAXY, "permute_t3k": PERMUTE_T3K, "uneven_t3k": UNEVEN_T3K}
KINDS = {"mlp_global": {"all_reduce"}, "flagship_t3k": {"all_gather"},
         "ccl_galaxy": {"all_gather", "reduce_scatter", "all_reduce", "all_to_all"},
         "permute_t3k": {"collective_permute"}, "uneven_t3k": {"point_to_point"}}


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
    compared = set()
    for o, op, s, record in zip(ops, where, plan.op_seconds, records):
        if -1 in o.operands and op.name != "ttnn.distribute_tensor":
            continue  # a host operand's upload (flagship_t3k's constant scale) is not in the plan's model
        assert s == pytest.approx(record.time.device_s, rel=1e-9, abs=1e-15), record.name
        compared.add(op.name)
    collectives = {cls.name for cls in (*ttnn.COLLECTIVE_OPS.values(), ttnn.PointToPointOp)} & compared
    assert {c.split(".")[1] for c in collectives} == KINDS[name]
    for o, op in zip(ops, where):  # every collective times itself (the simulator's formula)
        if op.name in collectives:
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
