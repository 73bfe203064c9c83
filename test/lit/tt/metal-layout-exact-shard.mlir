// RUN: meshc-opt %s --split-input-file --verify-diagnostics
// RUN: not meshc-opt %s --split-input-file 2>&1 | filecheck %s

// The memref of a #tt.metal_layout is exactly the shard the layout derives for its tensor:
// per collapsed dim ceil(extent / grid), in tiles (rounded up) for a tiled element type.
// One larger than that is refused as well as one too small.

// The seed's "Data Parallel Over 2d" tensor: 256x1024 on <4x16> is 64x64 elements a core,
// 2x2 tiles of 32x32. Three tiles of columns is one too many.
// expected-error @+1 {{the memref shard 2x3 of 32x32 tiles is larger than the shard of tensor 256x1024 on grid <4x16>: the tensor collapses to 256x1024, so the shard is 2x2 of 32x32 tiles (ceil(ceil(1024 / 16) / 32) = 2 in dim 1, not 3)}}
func.func @tiled_too_wide(%arg0: tensor<256x1024xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <4x16>, memref<2x3x!tt.tile<32x32, bfp_bf8>, #tt.memory_space<l1>>>>) {
  func.return
}
// CHECK: metal-layout-exact-shard.mlir:11:1: error: 'func.func' op tensor<256x1024xf32> does not match its #tt.metal_layout: the memref shard 2x3 of 32x32 tiles is larger than the shard

// -----

// Untiled: ceil(256 / 4) = 64 rows a core, not 65.
func.func @untiled_result(%arg0: tensor<64x64xf32>) {
  // expected-error @+1 {{the memref shard 65x64 is larger than the shard of tensor 256x1024 on grid <4x16>: the tensor collapses to 256x1024, so the shard is 64x64 (ceil(256 / 4) = 64 in dim 0, not 65)}}
  %0 = "tensor.empty"() : () -> tensor<256x1024xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <4x16>, memref<65x64xf32, #tt.memory_space<l1>>>>
  func.return
}
// CHECK: metal-layout-exact-shard.mlir:21:3: error: 'tensor.empty' op {{.*}}(ceil(256 / 4) = 64 in dim 0, not 65)

// -----

// The seed's "Data Parallel Over Batch" tensor: 16x3x64x128 collapses to 16x192x128; on
// <2x2x4> that is 8x96x32 elements, 8x3x1 tiles. An outer dim of 9 is refused.
// expected-error @+1 {{the memref shard 9x3x1 of 32x32 tiles is larger than the shard of tensor 16x3x64x128 on grid <2x2x4>: the tensor collapses to 16x192x128, so the shard is 8x3x1 of 32x32 tiles (ceil(16 / 2) = 8 in dim 0, not 9)}}
func.func @batch_outer_dim(%arg0: tensor<16x3x64x128xf32, #tt.metal_layout<(d0, d1, d2, d3) -> (d0, d1 * 64 + d2, d3), undef, <2x2x4>, memref<9x3x1x!tt.tile<32x32, bfp_bf8>, #tt.memory_space<l1>>>>) {
  func.return
}
// CHECK: metal-layout-exact-shard.mlir:31:1: error: {{.*}}(ceil(16 / 2) = 8 in dim 0, not 9)

// -----

// The exact shards are accepted (no diagnostic).
func.func @exact(%arg0: tensor<256x1024xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <4x16>, memref<2x2x!tt.tile<32x32, bfp_bf8>, #tt.memory_space<l1>>>>,
                 %arg1: tensor<16x3x64x128xf32, #tt.metal_layout<(d0, d1, d2, d3) -> (d0, d1 * 64 + d2, d3), undef, <2x2x4>, memref<8x3x1x!tt.tile<32x32, bfp_bf8>, #tt.memory_space<l1>>>>,
                 %arg2: tensor<100x30xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <3x4>, memref<34x8xf32, #tt.memory_space<l1>>>>) {
  func.return
}
// CHECK-NOT: error:
