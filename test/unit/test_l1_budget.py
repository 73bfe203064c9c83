"""The compile-time L1 budget (meshc/layout/l1_budget.py, pass ttnn-check-l1): sums derived by
hand, and the figure cross-checked against the peak the simulator measures on real runs."""

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

import meshc
from meshc.interp.common import find_entry
from meshc.layout.l1_budget import L1Use, LiveTensor, l1_budget
from meshc.layout.errors import LayoutError
from meshc.layout.memory_config import CoreRange, CoreRangeSet, MemoryConfig
from meshc.passes.ttnn_check_l1 import function_l1_budget, module_l1

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
HEIGHT_2 = MemoryConfig("l1", "height_sharded", grid=(2, 1), shard_shape=(256, 512))
DRAM = MemoryConfig("dram", "interleaved")


def test_live_tensors_add_up_per_core_and_step():
    # 512x512 f32 height-sharded over cores (0, 0) and (1, 0): 256 * 512 * 4 = 524,288 B a core
    shard = 256 * 512 * 4
    a = LiveTensor("a", (512, 512), "f32", HEIGHT_2, None, 0, 2)
    b = LiveTensor("b", (512, 512), "f32", HEIGHT_2, None, 1, 1)
    c = LiveTensor("c", (512, 512), "f32", HEIGHT_2, None, 2, 3)
    d = LiveTensor("d", (512, 512), "f32", DRAM, None, 0, 3)  # DRAM takes no L1
    budget = l1_budget([a, b, c, d])
    assert budget.peak.bytes == 2 * shard and budget.peak.step == 1 and budget.peak.core == (0, 0)
    assert budget.peak.live == [0, 1] and budget.fits
    assert budget.core_peaks == {(0, 0): 2 * shard, (1, 0): 2 * shard}
    # with 1,000,000 B a core, step 1 is the first over: 1,048,576 - 1,000,000 = 48,576 B
    small = l1_budget([a, b, c, d], capacity=1_000_000)
    assert not small.fits and small.first_overflow.step == 1 and small.shortfall == 48_576


def test_footprint_is_the_aligned_largest_owner():
    # 1x5 u8 row-major, interleaved over the 64 L1 banks: one page of 5 B on core (0, 0),
    # reserved as 16 B (the L1 alignment)
    t = LiveTensor("t", (1, 5), "u8", MemoryConfig("l1", "interleaved"), None, 0, 0)
    assert t.l1_footprint() == (tuple((y, x) for y in range(8) for x in range(8)), 16)
    # 4x8 f32 row-major interleaved: 4 pages of 32 B on cores (0, 0)..(0, 3); every bank of the
    # buffer reserves the largest owner's 32 B (a lockstep allocation)
    budget = l1_budget([LiveTensor("r", (4, 8), "f32", MemoryConfig("l1", "interleaved"), None, 0, 0)])
    assert budget.peak.bytes == 32
    assert l1_budget([LiveTensor("x", (4, 8), "f32", DRAM, None, 0, 0)]).peak is None


CHAIN = """
module {
  func.func @main(%x: tensor<512x512xf32>) -> tensor<512x512xf32> {
    %d = "ttnn.get_device"() {mesh_shape = array<i64: 1, 1>} : () -> !ttnn.device
    %a = "ttnn.to_device"(%x, %d) {memory_config = #ttnn.memory_config<#ttnn.buffer_type<l1>, <height_sharded>, #ttnn.shard_spec<#ttnn.core_range_set<[#ttnn.core_range<(0, 0), (1, 0)>]>, <256x512>, <row_major>>>} : (tensor<512x512xf32>, !ttnn.device) -> tensor<512x512xf32>
    %m = "ttnn.to_memory_config"(%a) {memory_config = #ttnn.memory_config<#ttnn.buffer_type<l1>, <height_sharded>, #ttnn.shard_spec<#ttnn.core_range_set<[#ttnn.core_range<(0, 0), (1, 0)>]>, <256x512>, <row_major>>>} : (tensor<512x512xf32>) -> tensor<512x512xf32>
    %e = "ttnn.exp"(%m) : (tensor<512x512xf32>) -> tensor<512x512xf32>
    %r = "ttnn.relu"(%e) : (tensor<512x512xf32>) -> tensor<512x512xf32>
    %b = "ttnn.from_device"(%r) : (tensor<512x512xf32>) -> tensor<512x512xf32>
    func.return %b : tensor<512x512xf32>
  }
}
"""

TTIR_THREE = """
func.func @main(%x: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %e = "ttir.exp"(%x) : (tensor<512x512xf32>) -> tensor<512x512xf32>
  %r = "ttir.relu"(%e) : (tensor<512x512xf32>) -> tensor<512x512xf32>
  %s = "ttir.add"(%e, %r) : (tensor<512x512xf32>, tensor<512x512xf32>) -> tensor<512x512xf32>
  func.return %s : tensor<512x512xf32>
}
"""


def _lowered(text: str, pipeline: str = "ttir-to-ttnn-pipeline"):
    module = meshc.parse(text)
    if any(op.name.startswith("ttir.") for op in module.walk()):
        module = meshc.compile(module, pipeline)
    return module


OPTIMIZED = object()
"""The default pipeline (ttnn-optimize-memory chooses the places) instead of ttir-layout's."""


@pytest.mark.parametrize("text, by_hand", [
    # %a (to_memory_config to the same place is the same buffer), then %e while %a lives (the
    # exp reads it), then %r while %e lives: two 524,288 B shards at most
    (CHAIN, 2 * 524_288),
    # three 512x512 f32 block-sharded over 8x8 cores in 32x32 tiles, 64x64x4 = 16,384 B a core,
    # all live at the add (ttir-layout's places, the memory optimizer left out)
    (TTIR_THREE, 3 * 16_384),
    # with the optimizer the input %x, fresh from the host in row-major pages, sits in L1 too,
    # block-sharded over 8x1 cores: 512 / 8 = 64 rows of 512 x 4 B = 131,072 B a core, live until
    # the exp, whose %e adds its 16,384 B there: 147,456 B, more than the 49,152 B at the add
    ((TTIR_THREE, OPTIMIZED), 131_072 + 16_384),
    ((EXAMPLES / "dp_batch.mlir").read_text(), None),
    ((EXAMPLES / "t3k_height_shard.mlir").read_text(), None),
    ((EXAMPLES / "dp_2d.mlir").read_text(), None),
], ids=["ttnn-chain", "ttir-three-live", "ttir-three-live-optimized", "dp_batch", "t3k_height_shard", "dp_2d"])
def test_compile_time_peak_is_the_simulators(text, by_hand):
    if isinstance(text, tuple):
        module = _lowered(text[0])
    else:
        module = _lowered(text, "ttir-to-ttnn-pipeline{optimize-memory=false}")
    arch, capacity = module_l1(module)
    budget = function_l1_budget(find_entry(module, None), arch, capacity)
    measured = meshc.run(module, seed=0).peak_l1_core
    assert budget.peak_bytes == measured
    if by_hand is not None:
        assert measured == by_hand


def test_a_shard_past_any_memory_is_refused_not_overflowed():
    # a height-sharded shard of 2**63 - 1 rows of 512 f32 (the largest int64 row count): 2**63 * 2 KiB
    # would overflow the int64 sums; the budget refuses it past MAX_TENSOR_BYTES, naming it
    huge = MemoryConfig("l1", "height_sharded", CoreRangeSet((CoreRange((0, 0), (1, 0)),)), (2**63 - 1, 512))
    with pytest.raises(LayoutError, match="one core's shard 9223372036854775807x512 of the 512x512 tensor has"):
        l1_budget([LiveTensor("t", (512, 512), "f32", huge, None, 0, 0)])


def _by_hand(tensors, capacity):
    """The budget added up one step, core and tensor at a time (the module docstring's rules):
    (use per (step, core), first overflow as (step, core, live), peak as (bytes, step, core))."""
    fp = [t.l1_footprint() for t in tensors]
    cores = sorted({c for cs, _ in fp for c in cs})
    steps = max(t.end for t in tensors) + 1
    use = {(s, c): sum(b for t, (cs, b) in zip(tensors, fp) if t.start <= s <= t.end and c in cs)
           for s in range(steps) for c in cores}
    first = None
    for s in range(steps):
        over = [c for c in cores if use[s, c] > capacity]
        if over:
            core = max(cores, key=lambda c: (use[s, c], [-x for x in c]))  # busiest, then lowest core
            first = (s, core, [i for i, (t, (cs, _)) in enumerate(zip(tensors, fp))
                               if t.start <= s <= t.end and core in cs])
            break
    peak = None
    for c in cores:  # the busiest core (lowest on ties), at its earliest busiest step
        for s in range(steps):
            if peak is None or use[s, c] > peak[0]:
                peak = (use[s, c], s, c)
    return use, first, peak


def test_incremental_use_is_the_sum_after_every_move():
    # random live ranges and places on an 8x8 wormhole_b0 grid, tensors moved one at a time
    # (to other cores, to DRAM, to another live range): after each move the kept use, first
    # overflow and peak are the ones added up from scratch, by hand and by l1_budget
    rng = np.random.default_rng(20261126)
    places = [HEIGHT_2, DRAM, MemoryConfig("l1", "interleaved"),
              MemoryConfig("l1", "height_sharded", grid=(4, 1), shard_shape=(128, 512)),
              MemoryConfig("l1", "block_sharded", grid=(2, 2), shard_shape=(256, 256)),
              MemoryConfig("l1", "width_sharded", grid=(1, 4), shard_shape=(512, 128))]
    capacity = 1_200_000

    def tensor(n):
        start = int(rng.integers(0, 12))
        return LiveTensor(f"t{n}", (512, 512), "f32", places[int(rng.integers(1, len(places)))], None,
                          start, start + int(rng.integers(0, 6)))

    checked_overflows = 0
    for _ in range(4):
        tensors = [tensor(n) for n in range(10)]
        use = L1Use(tensors, capacity=capacity)
        for _ in range(25):
            i = int(rng.integers(0, len(tensors)))
            moved = tensor(i) if rng.random() < 0.2 else replace(tensors[i], config=places[int(rng.integers(0, len(places)))])
            tensors[i] = moved
            use.move(i, moved)
            want_use, want_first, want_peak = _by_hand(tensors, capacity)
            full = l1_budget(tensors, capacity=capacity)
            got, at = use.budget(), use.first_overflow()
            if want_peak is None:
                assert at is None and got.peak is None and full.peak is None
                continue
            assert (got.peak.bytes, got.peak.step, got.peak.core) == want_peak
            assert got.core_peaks == full.core_peaks == {c: max(want_use[s, c] for s, cc in want_use if cc == c)
                                                         for c in got.cores}
            assert {(s, c): int(got.use[s, k]) for s in range(len(got.use) - 1)
                    for k, c in enumerate(got.cores)} == want_use
            if want_first is None:
                assert at is None and got.fits and full.fits
            else:
                checked_overflows += 1
                assert (at.step, at.core, at.live) == want_first
                assert at.bytes == want_use[want_first[0], want_first[1]]
                assert at.bytes_of == {k: tensors[k].l1_footprint()[1] for k in at.live}
                f = full.first_overflow
                assert (f.step, f.core, f.live, f.bytes) == (at.step, at.core, at.live, at.bytes)
    assert checked_overflows > 10  # the moves cross the capacity both ways


def test_use_is_kept_per_atom_of_cores():
    # 512x512 f32 block-sharded on 2x2 cores (256x256 shards: 262,144 B a core), height-sharded on
    # 4x1 cores (128-row shards: 262,144 B), and interleaved over the 64 L1 banks (256 tiles of
    # 4,096 B: 4 a core, 16,384 B). The cores split into four atoms, each taken whole by every
    # set: (0,0) and (1,0) are in all three sets, (0,1) and (1,1) in the block's and the
    # interleaved one's, (2,0) and (3,0) in the height's and the interleaved one's, the other 58 in
    # the interleaved one's only; every core of an atom holds the same bytes at every step.
    block = MemoryConfig("l1", "block_sharded", grid=(2, 2), shard_shape=(256, 256))
    height = MemoryConfig("l1", "height_sharded", grid=(4, 1), shard_shape=(128, 512))
    tensors = [LiveTensor("b", (512, 512), "f32", block, (32, 32), 0, 1),
               LiveTensor("h", (512, 512), "f32", height, (32, 32), 1, 2),
               LiveTensor("i", (512, 512), "f32", MemoryConfig("l1", "interleaved"), (32, 32), 2, 2)]
    use = L1Use(tensors)
    assert use._use.shape[1] == 4
    per_core = use.use
    col = {c: k for k, c in enumerate(use.cores)}
    b, h, i = 262_144, 262_144, 16_384
    assert [int(per_core[s, col[(0, 0)]]) for s in range(3)] == [b, b + h, h + i]
    assert [int(per_core[s, col[(1, 1)]]) for s in range(3)] == [b, b, i]
    assert [int(per_core[s, col[(3, 0)]]) for s in range(3)] == [0, h, h + i]
    assert [int(per_core[s, col[(7, 7)]]) for s in range(3)] == [0, 0, i]
    # moving the interleaved tensor onto cores (0,0)-(0,1) only (a set cutting the atoms of
    # (0,0)+(1,0) and (0,1)+(1,1)) adds everything up again, atoms refined: the same sums as l1_budget's
    moved = replace(tensors[2], config=MemoryConfig("l1", "width_sharded", grid=CoreRange((0, 0), (0, 1)),
                                                    shard_shape=(512, 256)))
    use.move(2, moved)
    full = l1_budget([*tensors[:2], moved])
    got = use.budget()
    assert got.cores == full.cores and (got.use == full.use).all()
    assert int(got.use[2, got.cores.index((0, 1))]) == 512 * 256 * 4


def test_reserved_bytes_count_in_the_use_and_in_what_fits():
    # a 512x512 f32 tensor height-sharded on cores (0, 0) and (1, 0): 524,288 B a core over steps
    # 0-2; a capacity of 1,000,000 B. 400,000 B more there at step 1 fit (924,288), 500,000 do not
    # (1,024,288); a core nothing holds takes anything up to the capacity
    a = LiveTensor("a", (512, 512), "f32", HEIGHT_2, None, 0, 2)
    use = L1Use([a], capacity=1_000_000)
    pair = ((0, 0), (1, 0))
    assert use.fits((pair, 400_000), 1, 1) and not use.fits((pair, 500_000), 1, 1)
    assert use.fits((((5, 5),), 1_000_000), 0, 2) and not use.fits((((5, 5),), 1_000_001), 0, 2)
    use.reserve((pair, 400_000), 1, 1)  # a copy held at step 1 only
    assert not use.fits((pair, 100_000), 1, 1) and use.fits((pair, 100_000), 0, 0)
    use.reserve((((5, 5),), 7_000), 2, 4)  # a core no tensor held, past the last step: added up again
    per_core = use.use
    col = {c: k for k, c in enumerate(use.cores)}
    assert [int(per_core[s, col[(0, 0)]]) for s in range(5)] == [524_288, 924_288, 524_288, 0, 0]
    assert [int(per_core[s, col[(5, 5)]]) for s in range(5)] == [0, 0, 7_000, 7_000, 7_000]
    # shortening the tensor's range by a move takes its bytes off the step it no longer holds
    use.move(0, replace(a, end=1))
    assert [int(use.use[s, col[(1, 0)]]) for s in range(5)] == [524_288, 924_288, 0, 0, 0]
