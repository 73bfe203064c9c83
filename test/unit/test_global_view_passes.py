"""The global-view passes as separate steps: `partition_module` partitions what ttir-propagate-sharding
chose and never propagates itself (the pipelines order propagate -> partition; the `ttir-partition`
pass on its own runs propagation first, as they do), and reshard-to-collectives is one xDSL
RewritePattern (`LowerReshard`) applied by a walker."""

import pytest
from xdsl.context import Context
from xdsl.pattern_rewriter import PatternRewriteWalker

import meshc
from meshc.errors import LocatedError
from meshc.passes.partition import PartitionPass, needs_propagation, partition_module
from meshc.passes.propagate_sharding import PropagateShardingPass
from meshc.passes.register_device import RegisterDevicePass
from meshc.passes.reshard_to_collectives import LowerReshard, ReshardToCollectivesPass

MLP = """
func.func @mlp(%x: tensor<64x64xf32> {tt.sharding = #tt.sharding<[S0, R]>}, %w1: tensor<64x128xf32> {tt.sharding = #tt.sharding<[R, S1]>}) -> (tensor<64x128xf32> {tt.sharding = #tt.sharding<[S0, S1]>}) {
  %h = "ttir.matmul"(%x, %w1) : (tensor<64x64xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
  %g = "ttir.relu"(%h) : (tensor<64x128xf32>) -> tensor<64x128xf32>
  return %g : tensor<64x128xf32>
}
"""


def _module():
    m = meshc.parse(MLP)
    RegisterDevicePass("t3k", (2, 4)).apply(Context(), m)
    return m


def test_partition_module_needs_the_chosen_shardings():
    m = _module()
    assert needs_propagation(m)
    with pytest.raises(LocatedError, match=r"no chosen sharding \(tt.shardings\); run ttir-propagate-sharding first"):
        partition_module(m)


def test_the_pass_on_its_own_is_propagate_then_partition():
    alone = _module()
    PartitionPass().apply(Context(), alone)
    ordered = _module()
    PropagateShardingPass().apply(Context(), ordered)
    assert not needs_propagation(ordered)
    partition_module(ordered)
    assert str(alone) == str(ordered)
    assert "ttir.mesh_shard" in str(alone) and "tt.sharding" not in str(alone).split("ttir.reshard")[0]


def test_reshard_to_collectives_is_one_rewrite_pattern():
    text = """
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @f(%x: tensor<32x64xf32>) -> tensor<32x64xf32> {
    %0 = "ttir.reshard"(%x) {source = #tt.sharding<[S0, R]>, target = #tt.sharding<[R, R]>} : (tensor<32x64xf32>) -> tensor<64x64xf32>
    %1 = "ttir.reshard"(%0) {source = #tt.sharding<[R, R]>, target = #tt.sharding<[R, R]>} : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %2 = "ttir.reshard"(%1) {source = #tt.sharding<[R, R]>, target = #tt.sharding<[S0, R]>} : (tensor<64x64xf32>) -> tensor<32x64xf32>
    func.return %2 : tensor<32x64xf32>
  }
}
"""
    by_pattern = meshc.parse(text)
    PatternRewriteWalker(LowerReshard(None, True), apply_recursively=False).rewrite_module(by_pattern)
    by_pass = meshc.parse(text)
    ReshardToCollectivesPass().apply(Context(), by_pass)
    names = [op.name for op in by_pattern.walk() if op.name.startswith("ttir.")]
    # [S0, R] -> [R, R] gathers dim 0 over mesh axis 0; [R, R] -> [R, R] moves nothing (the reshard
    # goes, its uses read its input); [R, R] -> [S0, R] keeps each device's own rows (all_slice)
    assert names == ["ttir.all_gather", "ttir.all_slice"]
    assert str(by_pattern) == str(by_pass)
