"""ttnn-optimize-memory's L1 interleaved place (meshc/layout/memory_options.py) and its reshard
phase (meshc/layout/memory_reshard.py), on cases derived by hand; the plan's times against the
simulator's.

Hardware figures used by hand (wormhole_b0, meshc/layout/hardware.py and timemodel.py with their
sources): an 8x8 worker grid [GEMM]; 12 DRAM banks; DRAM 288 GB/s [WH spec]; clock 1 GHz; a
worker core puts 28.1 B a cycle on the NoC and reads DRAM at 23.2 B a cycle [NPE]; an op's
launch 5 us; an SFPU op (relu) 512 cycles a tile (the time model's ASSUMPTION); a 32x32x32 tile
product at HiFi4 64 / 0.95 cycles, floored by the unpackers at 76 cycles for f32; the
unoverlapped part of the shorter of compute and data movement 0.6 (fitted on the GEMM report).
"""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.context import Context

import meshc
from helpers_memory_programs import THREE
from meshc.dialects import ttnn
from meshc.interp.common import find_entry
from meshc.layout.memory_config import MemoryConfig
from meshc.layout.memory_options import KINDS, tensor_options
from meshc.layout.memory_plan import PlanOp, PlanTensor, plan_memory
from meshc.layout.memory_reshard import copy_seconds, plan_reshards
from meshc.passes.ttnn_check_l1 import device_tensors, module_l1
from meshc.passes.ttnn_optimize_memory import TTNNOptimizeMemoryPass, program_of, program_ops

DRAM = MemoryConfig("dram", "interleaved")
DRAM_RATE = 288e9
NOC_RATE = 64 * 28.1e9  # the chip's 64 cores, 28.1 B a cycle each at 1 GHz
LAUNCH = 5e-6
MISS = 0.6
HIFI4 = 64 / 0.95 / 1e9  # a bf16 tile product at HiFi4 (over the unpackers' 38 cycles)
F32_TILE = 76 / 1e9  # an f32 tile product: the unpackers' floor (over HiFi4's 67.4 cycles)


def _time(compute: float, dram_bytes: float, noc_bytes: float) -> float:
    movement = max(dram_bytes / DRAM_RATE, noc_bytes / NOC_RATE)
    return LAUNCH + max(compute, movement) + MISS * min(compute, movement)


# ----------------------------------------------------------------------------- L1 interleaved


def test_l1_interleaved_is_a_place_with_the_placement_models_facts():
    assert "l1_interleaved" in KINDS
    # 512x512 f32 in 32x32 tiles: 256 tiles of 4,096 B round-robin over the 64 cores, 4 a core
    opts, _ = tensor_options((512, 512), "f32", (32, 32), "wormhole_b0", None, {})
    o = opts["l1_interleaved"]
    assert o.config == MemoryConfig("l1", "interleaved")
    assert (o.per_core, len(o.cores), o.nbytes, o.grid) == (4 * 4_096, 64, 512 * 512 * 4, (1, 1))
    assert o.bank_bytes == 0 and not o.dram and o.interleaved
    # 32x64 f32: 2 tiles; an interleaved buffer reserves ceil(2 / 64) = 1 page on every core
    # (a lockstep allocation: the same address range on each bank)
    o = tensor_options((32, 64), "f32", (32, 32), "wormhole_b0", None, {})[0]["l1_interleaved"]
    assert (o.per_core, len(o.cores), o.nbytes) == (4_096, 64, 8_192)
    # over a core's L1 it is no option: 4096x4096 f32 is 16,384 tiles, 256 a core = 1,048,576 B,
    # within wormhole_b0's 1,499,136 B; 8192x4096 needs 2,097,152 B a core
    opts, _ = tensor_options((4096, 4096), "f32", (32, 32), "wormhole_b0", None, {})
    assert opts["l1_interleaved"].per_core == 256 * 4_096
    opts, why = tensor_options((8192, 4096), "f32", (32, 32), "wormhole_b0", None, {})
    assert "l1_interleaved" not in opts and "needs 2097152 B on core (0, 0)" in why["l1_interleaved"]


def test_a_noc_bound_matmul_result_goes_to_l1_interleaved_as_the_simulator_times_it():
    module = meshc.compile(meshc.parse(THREE), "ttir-to-ttnn-pipeline")
    block = find_entry(module, None).body.blocks.first
    tensors, ops = program_of(device_tensors(block), block)
    kinds = {t.name.split(" ")[0]: t.current for t in tensors}
    assert kinds["%m"] == MemoryConfig("l1", "interleaved")
    # %m = %e @ %r, 512x512 f32, both operands in L1: 16 x 16 x 16 tile products over the chip's
    # 64 cores = 64 a core at 76 cycles = 4.864 us either way. Interleaved, the matmul reads A
    # and B once: 2 x 1,048,576 B over the NoC; block-sharded over 8x8 it reads A once per
    # column and B once per row: 16 x 1,048,576 B.
    compute = 64 * F32_TILE
    interleaved = _time(compute, 0, 2 * 2**20)
    block_sharded = _time(compute, 0, 16 * 2**20)
    assert interleaved == pytest.approx(10.564e-6, abs=1e-9) and block_sharded == pytest.approx(17.247e-6, abs=1e-9)
    sim = {o.name: o.time.device_s for o in meshc.run(module, seed=0).ops}
    assert sim["ttnn.matmul"] == pytest.approx(interleaved, rel=1e-9)
    for t in tensors:
        t.fixed = "as lowered"
    plan = plan_memory(tensors, ops, *module_l1(module))
    model = {o.kind: s for o, s in zip(ops, plan.op_seconds) if o.kind}
    for kind, seconds in model.items():
        assert seconds == pytest.approx(sim[f"ttnn.{kind}"], rel=1e-9), kind


# ----------------------------------------------------------------------------- reshards

BLOCK = ("#ttnn.memory_config<#ttnn.buffer_type<l1>, <block_sharded>, #ttnn.shard_spec<#ttnn.core_range_set<"
         "[#ttnn.core_range<(0, 0), (7, 7)>]>, <128x128>, <row_major>>>")
SYSTEM = ("module attributes {tt.device = #tt.device<workerGrid = #tt.grid<8x8, (d0, d1) -> (0, d0, d1)>, meshShape = 1x1, "
          "chipIds = [0]>, tt.system_desc = #tt.system_desc<meshShape = 1x1, chipDescs = [#tt.chip_desc<arch = "
          "wormhole_b0, grid = 8x8, l1Size = 32768, dramBanks = 12, dramBankSize = 1073741824>], chipDescIndices = [0], "
          "chipCoords = [[0, 0]], links = []>}")
# %big (1024x1024 bf16 block-sharded over 8x8: 128 x 128 x 2 = 32,768 B a core, the whole L1) is
# kept in L1 (%big2 reads it as the same buffer) from its to_device to the relu; %a (32x1024
# bf16) is live from its to_device to the matmul, after %big is freed.
PROGRAM = f"""
{SYSTEM} {{
  func.func @main(%xa: tensor<32x1024xbf16>, %xw: tensor<1024x2048xbf16>, %xb: tensor<1024x1024xbf16>) -> (tensor<1024x1024xbf16>, tensor<32x2048xbf16>) {{
    %d = "ttnn.get_device"() {{mesh_shape = array<i64: 1, 1>}} : () -> !ttnn.device
    %a = "ttnn.to_device"(%xa, %d) : (tensor<32x1024xbf16>, !ttnn.device) -> tensor<32x1024xbf16>
    %w = "ttnn.to_device"(%xw, %d) : (tensor<1024x2048xbf16>, !ttnn.device) -> tensor<1024x2048xbf16>
    %big = "ttnn.to_device"(%xb, %d) {{memory_config = {BLOCK}}} : (tensor<1024x1024xbf16>, !ttnn.device) -> tensor<1024x1024xbf16>
    %big2 = "ttnn.to_memory_config"(%big) {{memory_config = {BLOCK}}} : (tensor<1024x1024xbf16>) -> tensor<1024x1024xbf16>
    %r = "ttnn.relu"(%big2) : (tensor<1024x1024xbf16>) -> tensor<1024x1024xbf16>
    %rh = "ttnn.from_device"(%r) : (tensor<1024x1024xbf16>) -> tensor<1024x1024xbf16>
    %m = "ttnn.matmul"(%a, %w) : (tensor<32x1024xbf16>, tensor<1024x2048xbf16>) -> tensor<32x2048xbf16>
    %mh = "ttnn.from_device"(%m) : (tensor<32x2048xbf16>) -> tensor<32x2048xbf16>
    func.return %rh, %mh : tensor<1024x1024xbf16>, tensor<32x2048xbf16>
  }}
}}
"""
A_BYTES = 32 * 1024 * 2
W_BYTES = 1024 * 2048 * 2
# %m = %a @ %w (32x2048) width-sharded over the 64 cores (a 1x64 grid): 1 x 1 x 32 tile
# products a core at HiFi4; A read once per grid column (64 times), W once.
MATMUL_COMPUTE = 32 * HIFI4
BEFORE = _time(MATMUL_COMPUTE, 64 * A_BYTES + W_BYTES, 64 * A_BYTES + W_BYTES)  # A and W from DRAM
COPY = _time(0.0, A_BYTES, 2 * A_BYTES)  # A read from DRAM, written to L1
AFTER = _time(MATMUL_COMPUTE, W_BYTES, 64 * A_BYTES + W_BYTES)  # only W from DRAM


def _planned(text: str):
    module = meshc.parse(text)
    block = find_entry(module, None).body.blocks.first
    tensors, ops, where = program_ops(device_tensors(block), block)
    arch, capacity = module_l1(module)
    plan = plan_memory(tensors, ops, arch, capacity, explained=False)
    steps = [list(block.ops).index(o) for o in where]
    return tensors, ops, plan, plan_reshards(tensors, ops, plan, arch, capacity, steps)


def test_the_hand_derived_times():
    # 29.127 us of DRAM (8,388,608 B) against 2.156 us of compute; the copy 0.228 us of DRAM;
    # after it 14.564 us of DRAM (the NoC's 8,388,608 B take 4.664 us)
    assert (BEFORE, COPY, AFTER) == pytest.approx((35.421e-6, 5.228e-6, 20.857e-6), abs=1e-9)
    assert BEFORE - COPY - AFTER == pytest.approx(9.336e-6, abs=2e-9)


def test_a_tensor_kept_in_dram_by_a_full_l1_is_copied_into_l1_before_its_matmul():
    tensors, ops, plan, rs = _planned(PROGRAM)
    names = [t.name.split(" ")[0] for t in tensors]
    a, m = names.index("%a"), names.index("%m")
    assert plan.choice[a].dram  # no room beside %big
    assert plan.choice[m].kind == "l1_width_sharded" and plan.choice[m].grid == (1, 64)
    (r,) = rs.reshards
    assert r.tensor == a and ops[r.consumers[0]].kind == "matmul" and not r.option.dram
    assert (r.before_s, r.copy_s, r.after_s) == pytest.approx((BEFORE, COPY, AFTER), rel=1e-9)
    assert r.saved_s == pytest.approx(BEFORE - COPY - AFTER, rel=1e-9)
    assert rs.op_seconds[r.consumers[0]] == pytest.approx(AFTER, rel=1e-9)
    assert copy_seconds(tensors[a], r.source, r.option, "wormhole_b0") == pytest.approx(COPY, rel=1e-9)


def test_the_simulator_takes_the_planned_time_and_the_same_bytes():
    tensors, ops, plan, rs = _planned(PROGRAM)
    on, off = meshc.parse(PROGRAM), meshc.parse(PROGRAM)
    TTNNOptimizeMemoryPass().apply(Context(), on)
    TTNNOptimizeMemoryPass(reshard=False).apply(Context(), off)
    copies = [o for o in find_entry(on, None).body.blocks.first.ops
              if isinstance(o, ttnn.ToMemoryConfigOp) and o.results[0].name_hint != "big2"]
    assert [c.results[0].name_hint for c in copies] == ["a_l1_block_sharded"]
    run_on, run_off = meshc.run(on, seed=3), meshc.run(off, seed=3)
    for x, y in zip(run_on.outputs, run_off.outputs):
        assert np.array_equal(np.asarray(x), np.asarray(y))
    sim_on = [o for o in run_on.ops if o.name in ("ttnn.to_memory_config", "ttnn.matmul")]
    assert [o.name for o in sim_on] == ["ttnn.to_memory_config", "ttnn.to_memory_config", "ttnn.matmul"]
    (r,) = rs.reshards
    assert sim_on[1].time.device_s == pytest.approx(r.copy_s, rel=1e-9)
    assert sim_on[2].time.device_s == pytest.approx(rs.op_seconds[r.consumers[0]], rel=1e-9)
    # the whole program is faster by what the plan said (no other op changes)
    device = [sum(o.time.device_s for o in r.ops) for r in (run_off, run_on)]
    assert device[0] - device[1] == pytest.approx(rs.saved_s, rel=1e-6)
    assert rs.saved_s == pytest.approx(BEFORE - COPY - AFTER, rel=1e-9)


def test_two_matmuls_reading_the_dram_tensor_share_one_copy():
    # %a read by a second matmul after the first (%n = %a @ %w, the same shape): one copy kept
    # alive to the second saves both matmuls' 64 DRAM reads of A for one copy: 2 x (35.421 -
    # 20.857) - 5.228 = 23.900 us (a copy each would save 2 x 9.336 = 18.672 us). L1 holds it:
    # at the second matmul %m (2,048 B a core), the copy (8,192 B on 8 cores) and %n (2,048 B).
    second = ('    %n = "ttnn.matmul"(%a, %w) : (tensor<32x1024xbf16>, tensor<1024x2048xbf16>) -> tensor<32x2048xbf16>\n'
              '    %nh = "ttnn.from_device"(%n) : (tensor<32x2048xbf16>) -> tensor<32x2048xbf16>\n'
              '    %mh = "ttnn.from_device"(%m)')
    text = PROGRAM.replace('    %mh = "ttnn.from_device"(%m)', second).replace(
        "func.return %rh, %mh : tensor<1024x1024xbf16>, tensor<32x2048xbf16>",
        '%s = "ttnn.add"(%mh, %nh) : (tensor<32x2048xbf16>, tensor<32x2048xbf16>) -> tensor<32x2048xbf16>\n'
        "    func.return %rh, %s : tensor<1024x1024xbf16>, tensor<32x2048xbf16>")
    tensors, ops, plan, rs = _planned(text)
    (r,) = rs.reshards
    assert [ops[j].kind for j in r.consumers] == ["matmul", "matmul"]
    assert (r.before_s, r.copy_s, r.after_s) == pytest.approx((2 * BEFORE, COPY, 2 * AFTER), rel=1e-9)
    assert r.saved_s == pytest.approx(23.900e-6, abs=2e-9)
    on = meshc.parse(text)
    TTNNOptimizeMemoryPass().apply(Context(), on)
    block = find_entry(on, None).body.blocks.first
    (copy,) = [o for o in block.ops if isinstance(o, ttnn.ToMemoryConfigOp) and o.results[0].name_hint != "big2"]
    assert [u.operation.name for u in copy.results[0].uses] == ["ttnn.matmul", "ttnn.matmul"]
    sim = [o.time.device_s for o in meshc.run(on, seed=1).ops if o.name == "ttnn.matmul"]
    assert sim == pytest.approx([AFTER, AFTER], rel=1e-9)


def test_no_copy_for_an_elementwise_reader_of_a_dram_tensor():
    # y = relu(x), 512x512 f32, x kept in DRAM: relu reads x's 1,048,576 B from DRAM once
    # (3.641 us, over its 4 tiles a core x 512 cycles = 2.048 us of compute). A copy into L1
    # reads the same bytes from DRAM (3.641 us) and launches an op of its own, so it never pays:
    # 9.870 us without against 8.641 + 7.048 us with.
    s = (512, 512)
    x = PlanTensor("x", s, "f32", (32, 32), 0, 1, DRAM, fixed="kept in DRAM")
    y = PlanTensor("y", s, "f32", (32, 32), 1, 2, DRAM)
    ops = [PlanOp("relu", (0,), (1,))]
    plan = plan_memory([x, y], ops, "wormhole_b0", explained=False)
    assert plan.choice[1].kind == "l1_block_sharded"
    compute, nbytes = 4 * 512 / 1e9, 2**20
    assert plan.op_seconds[0] == pytest.approx(_time(compute, nbytes, nbytes), rel=1e-9)
    opts, _ = tensor_options(s, "f32", (32, 32), "wormhole_b0", None, {})
    assert copy_seconds(x, plan.choice[0], opts["l1_block_sharded"], "wormhole_b0") == \
        pytest.approx(_time(0.0, nbytes, 2 * nbytes), rel=1e-9)
    assert plan_reshards([x, y], ops, plan, "wormhole_b0").reshards == []
    # x not kept: the plan moves x itself (no copy needed): it is in L1 and read as it is
    x.fixed = None
    plan = plan_memory([x, y], ops, "wormhole_b0", explained=False)
    assert not plan.choice[0].dram and plan_reshards([x, y], ops, plan, "wormhole_b0").reshards == []
