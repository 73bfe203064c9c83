"""The memory-layout optimizer's choice (meshc/layout/memory_plan.py) on small cases derived by
hand, its op times against the simulator's, and the Llama-70B MLP layer of issue 25 on a galaxy.

Hardware figures used by hand (wormhole_b0, meshc/layout/hardware.py and timemodel.py with their
sources): a core's L1 holds 1,499,136 B [ISA]; an 8x8 worker grid [GEMM]; 12 DRAM banks; DRAM
288 GB/s [WH spec]; clock 1 GHz [WH spec]; a worker core puts 28.1 B a cycle on the NoC [NPE];
an op's launch 5 us; an SFPU op (relu) takes 1024 / 32 lanes x 16 instructions = 512 cycles a
tile (the time model's ASSUMPTION); the unoverlapped part of the shorter of compute and data
movement 0.6 (fitted on the GEMM report).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import meshc
from helpers_memory_programs import THREE
from meshc.interp.common import find_entry
from meshc.layout.memory_config import MemoryConfig
from meshc.layout.memory_options import tensor_options
from meshc.layout.memory_plan import PlanOp, PlanTensor, explain, plan_memory
from meshc.passes.ttnn_check_l1 import device_tensors, module_l1
from meshc.passes.ttnn_optimize_memory import program_of

DRAM = MemoryConfig("dram", "interleaved")
L1_BYTES = 1_499_136
DRAM_RATE = 288e9
NOC_RATE = 64 * 28.1e9  # the chip's 64 cores, 28.1 B a cycle each at 1 GHz
LAUNCH = 5e-6
MISS = 0.6


def _time(compute: float, dram_bytes: float, noc_bytes: float) -> float:
    movement = max(dram_bytes / DRAM_RATE, noc_bytes / NOC_RATE)
    return LAUNCH + max(compute, movement) + MISS * min(compute, movement)


def test_a_tensor_that_fits_only_width_sharded():
    # y = relu(x), 32 x 262,144 bf16 in 32x32 tiles: one row of 8,192 tiles, 16,777,216 B.
    # block-sharded: one tile row on at most 1x8 cores: 32 x 32,768 x 2 = 2,097,152 B a core > L1;
    # height-sharded: the one tile row on one core, 16,777,216 B > L1;
    # width-sharded over the 64 cores: 32 x 4,096 x 2 = 262,144 B a core: fits;
    # L1 interleaved: 8,192 pages round-robin over 64 cores, 128 x 2,048 B = 262,144 B a core: fits.
    shape = (32, 262_144)
    opts, why = tensor_options(shape, "bf16", (32, 32), "wormhole_b0", None, {})
    assert sorted(opts) == ["dram_interleaved", "dram_sharded", "l1_interleaved", "l1_width_sharded"]
    assert opts["l1_interleaved"].per_core == 128 * 2_048 and len(opts["l1_interleaved"].cores) == 64
    assert "2097152 B" in why["l1_block_sharded"] and "16777216 B" in why["l1_height_sharded"]
    assert opts["l1_width_sharded"].per_core == 32 * 4_096 * 2 and len(opts["l1_width_sharded"].cores) == 64

    x = PlanTensor("x", shape, "bf16", (32, 32), 0, 1, DRAM, fixed="an input in DRAM")
    y = PlanTensor("y", shape, "bf16", (32, 32), 1, 2, DRAM)
    plan = plan_memory([x, y], [PlanOp("relu", (0,), (1,))], "wormhole_b0")
    d = plan.decisions[1]
    assert d.option.kind == "l1_width_sharded" and d.why == "the least modelled time"
    # relu: 8,192 tiles over 64 cores (width: 1x64 shards; DRAM interleaved: the chip's 8x8) =
    # 128 tiles x 512 cycles = 65.536 us either way. y in L1: x (DRAM) read once, 16,777,216 B
    # through DRAM and the NoC; y in DRAM: y written too, twice the bytes.
    compute = 128 * 512 / 1e9
    nbytes = 16_777_216
    assert d.times["l1_width_sharded"] == pytest.approx(_time(compute, nbytes, nbytes), rel=1e-9)
    assert d.times["dram_interleaved"] == pytest.approx(_time(compute, 2 * nbytes, 2 * nbytes), rel=1e-9)


def test_two_live_tensors_overflow_and_the_cheaper_to_spill_goes_to_dram():
    # 512x512 f32 in 32x32 tiles, block-sharded over 8x8 cores: 2x2 tiles = 16,384 B a core
    # (height- or width-sharded: 16 cores of 65,536 B, over this chip's 24,576 B L1).
    # a = exp(x) is read by three adds, b = relu(x) by one; a and b live together need 32,768 B a
    # core, 8,192 B over. In DRAM a would be written once and read three times (4 x 1,048,576 B
    # through DRAM), b written once and read once (2 x 1,048,576 B): b goes.
    s = (512, 512)
    cap = 24_576
    t = lambda name, start, end, fixed=None: PlanTensor(name, s, "f32", (32, 32), start, end, DRAM, fixed)  # noqa: E731
    tensors = [t("x", 0, 1, "an input"), t("a", 0, 4), t("b", 1, 2), t("c", 2, 3, "kept in DRAM"),
               t("d", 3, 4, "kept in DRAM"), t("e", 4, 5, "kept in DRAM")]
    ops = [PlanOp("exp", (0,), (1,)), PlanOp("relu", (0,), (2,)), PlanOp("add", (1, 2), (3,)),
           PlanOp("add", (1, 3), (4,)), PlanOp("add", (1, 4), (5,))]
    plan = plan_memory(tensors, ops, "wormhole_b0", capacity=cap)
    a, b = plan.decisions[1], plan.decisions[2]
    assert a.option.kind == "l1_block_sharded" and a.option.per_core == 2 * 2 * 32 * 32 * 4
    assert b.option.kind == "dram_interleaved"
    assert b.why.startswith("moved off L1 block-sharded on 64 cores") and "held 32,768 B" in b.why
    assert "over the 24,576 B" in a.refused["l1_height_sharded"]
    # the model agrees that a costs more in DRAM than b does
    assert a.times["dram_interleaved"] - a.times["l1_block_sharded"] > \
        b.times["dram_interleaved"] - b.times["l1_block_sharded"] > 0


@pytest.mark.parametrize("pipeline", ["ttir-to-ttnn-pipeline", "ttir-to-ttnn-pipeline{memory-space=dram}"])
def test_the_model_times_compute_ops_as_the_simulator_does(pipeline):
    module = meshc.compile(meshc.parse(THREE), pipeline)
    f = find_entry(module, None)
    block = f.body.blocks.first
    tensors, ops = program_of(device_tensors(block), block)
    arch, capacity = module_l1(module)
    for t in tensors:
        t.fixed = "as lowered"  # time the program as it is
    plan = plan_memory(tensors, ops, arch, capacity)
    assert [d.option.config for d in plan.decisions] == [t.current for t in tensors]
    sim = {o.name: o.time.device_s for o in meshc.run(module, seed=0).ops}
    model = {o.kind: s for o, s in zip(ops, plan.op_seconds) if o.kind}
    assert sorted(model) == ["add", "exp", "matmul", "relu"]
    for kind, seconds in model.items():
        assert seconds == pytest.approx(sim[f"ttnn.{kind}"], rel=1e-9), kind


def test_the_report_explains_a_program_as_it_stands():
    module = meshc.compile(meshc.parse(THREE), "ttir-to-ttnn-pipeline{memory-space=dram}")
    block = find_entry(module, None).body.blocks.first
    tensors, ops = program_of(device_tensors(block), block)
    decisions = explain(tensors, ops, None, *module_l1(module))
    # asked to be in DRAM, %e could sit in L1 (16,384 B a core): the report says it would be faster
    e = decisions[[t.name for t in tensors].index("%e (512x512xf32)")]
    assert e.option.kind == "dram_interleaved"
    assert e.why.startswith("kept, though ") and "l1_block_sharded would be faster and fits" in e.why


sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from scale import LLAMA  # noqa: E402  (issue 25's layer: 32 x 2048 tokens, hidden 8192, FFN 28672, bf16)


def test_llama70b_mlp_layer_compiles_with_the_default_pipeline_on_a_galaxy_and_runs_abstract():
    module = meshc.compile(meshc.parse(LLAMA), "ttir-to-ttnn-pipeline{system=galaxy}")
    block = find_entry(module, None).body.blocks.first
    tensors, ops = program_of(device_tensors(block), block)
    decisions = explain(tensors, ops, None, *module_l1(module))
    # per device (8x4 mesh, Megatron): x 8192x8192, W1 8192x7168, W2 7168x8192, h and gelu(h)
    # 8192x7168, y 8192x8192, bf16: the smallest, 7168 x 8192 x 2 = 117,440,512 B, spread over
    # the 64 cores is 1,835,008 B a core > 1,499,136 B: no L1 layout holds any of them
    assert len(tensors) == 7  # x, W1, W2, h, g, y and the all_reduce's result
    for t, d in zip(tensors, decisions):
        assert d.option.dram, t.name
        assert all(k in d.refused and d.refused[k].startswith("does not fit")
                   for k in ("l1_block_sharded", "l1_height_sharded", "l1_width_sharded")), t.name
    # The weights are DRAM-sharded, the rest interleaved. h = x @ W1 is compute-bound: 32 x 28 x
    # 256 tiles a core of its 8x8 grid at HiFi4's 64 / 0.95 cycles = 15,452.6 us; it streams x, W1
    # and h, (8192 x 8192 + 2 x 8192 x 7168) x 2 = 369,098,752 B, through DRAM: read by one row of
    # 8 cores at 23.2 B a cycle each (185.6 GB/s) when W1 is interleaved, by a core a bank (12,
    # 278.4 GB/s) when it is DRAM-sharded. Only the unoverlapped 0.6 of the movement differs.
    kinds = {t.name.split(" ")[0]: d.option.kind for t, d in zip(tensors, decisions)}
    assert kinds["%w1"] == kinds["%w2"] == "dram_sharded"
    assert kinds["%x"] == kinds["%h"] == kinds["%g"] == kinds["%y"] == "dram_interleaved"
    w1 = decisions[[t.name.split(" ")[0] for t in tensors].index("%w1")]
    moved = (8192 * 8192 + 2 * 8192 * 7168) * 2
    gain = MISS * (moved / (8 * 23.2e9) - moved / (12 * 23.2e9))
    assert w1.times["dram_interleaved"] - w1.times["dram_sharded"] == pytest.approx(gain, rel=1e-6)
    result = meshc.run(module, abstract=True)
    assert result.outputs[0].shape == (32 * 2048, 8192)
