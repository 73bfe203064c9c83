// RUN: meshc-opt %s | filecheck %s
// RUN: meshc-opt %s --print-op-generic | meshc-opt | filecheck %s

// The tensors of tt-mlir's Device spec (Device), written as tt-mlir's Device spec writes them, as tensor encodings.
// The tile prints in its canonical form `32x32` (tt-mlir's Device spec's `32 x 32` is accepted).

// CHECK: #layout = #tt.metal_layout<(d0, d1, d2, d3) -> (d0, d1 * 64 + d2, d3), undef, <2x2x4>, memref<8x3x1x!tt.tile<32x32, bfp_bf8>, #tt.memory_space<l1>>>
// CHECK: #layout1 = #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <4x16>, memref<2x2x!tt.tile<32x32, bfp_bf8>, #tt.memory_space<l1>>>
// CHECK: #layout2 = #tt.metal_layout<(d0, d1, d2) -> (d0, d1, d2), undef, <2x4x16>, memref<32x2x2x!tt.tile<32x32, bfp_bf8>, #tt.memory_space<l1>>>
// CHECK: #layout3 = #tt.metal_layout<(d0, d1, d2, d3) -> (d0 * 192 + d1 * 64 + d2, d3), zero, <2x4>, memref<192x32xf32, #tt.memory_space<dram>>>

// Data parallel over batch: half the batch on each chip, a 2x4 grid of cores on each.
// CHECK: func.func @data_parallel_over_batch(%arg0: tensor<16x3x64x128xf32, #layout>) -> tensor<16x3x64x128xf32, #layout>
func.func @data_parallel_over_batch(%arg0: tensor<16x3x64x128xf32,
  #tt.metal_layout<(d0, d1, d2, d3) -> (d0, d1 * 64 + d2, d3),
    undef,
    <2x2x4>,
    memref<8x3x1x!tt.tile<32 x 32, bfp_bf8>, #tt.memory_space<l1>>
  >
>) -> tensor<16x3x64x128xf32, #tt.metal_layout<(d0, d1, d2, d3) -> (d0, d1 * 64 + d2, d3), undef, <2x2x4>, memref<8x3x1x!tt.tile<32x32, bfp_bf8>, #tt.memory_space<l1>>>> {
  func.return %arg0 : tensor<16x3x64x128xf32, #tt.metal_layout<(d0, d1, d2, d3) -> (d0, d1 * 64 + d2, d3), undef, <2x2x4>, memref<8x3x1x!tt.tile<32x32, bfp_bf8>, #tt.memory_space<l1>>>>
}

// Data parallel over 2d: the upper half of the 8x16 grid.
// CHECK: func.func @data_parallel_over_2d(%arg0: tensor<256x1024xf32, #layout1>) -> tensor<256x1024xf32, #layout1>
func.func @data_parallel_over_2d(%arg0: tensor<256x1024xf32,
  #tt.metal_layout<(d0, d1) -> (d0, d1),
    undef,
    <4x16>,
    memref<2x2x!tt.tile<32 x 32, bfp_bf8>, #tt.memory_space<l1>>
  >
>) -> tensor<256x1024xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <4x16>, memref<2x2x!tt.tile<32 x 32, bfp_bf8>, #tt.memory_space<l1>>>> {
  func.return %arg0 : tensor<256x1024xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <4x16>, memref<2x2x!tt.tile<32 x 32, bfp_bf8>, #tt.memory_space<l1>>>>
}

// Data parallel over 2d and batch. tt-mlir's Device spec writes LINEAR as `(d0, d1) -> (d0, d1)`, which
// cannot index a rank-3 tensor on a rank-3 grid (see metal-layout-invalid.mlir); the map
// meant is the identity on three dims, with which tt-mlir's Device spec's grid and memref agree.
// CHECK: func.func @data_parallel_over_2d_and_batch(%arg0: tensor<64x256x1024xf32, #layout2>) -> tensor<64x256x1024xf32, #layout2>
func.func @data_parallel_over_2d_and_batch(%arg0: tensor<64x256x1024xf32,
  #tt.metal_layout<(d0, d1, d2) -> (d0, d1, d2),
    undef,
    <2x4x16>,
    memref<32x2x2x!tt.tile<32 x 32, bfp_bf8>, #tt.memory_space<l1>>
  >
>) -> tensor<64x256x1024xf32, #tt.metal_layout<(d0, d1, d2) -> (d0, d1, d2), undef, <2x4x16>, memref<32x2x2x!tt.tile<32 x 32, bfp_bf8>, #tt.memory_space<l1>>>> {
  func.return %arg0 : tensor<64x256x1024xf32, #tt.metal_layout<(d0, d1, d2) -> (d0, d1, d2), undef, <2x4x16>, memref<32x2x2x!tt.tile<32 x 32, bfp_bf8>, #tt.memory_space<l1>>>>
}

// docs/design.md: 2x3x64x128 on a 2x4 grid with the default collapse, row-major f32 shards in DRAM.
// CHECK: func.func @design_example(%arg0: tensor<2x3x64x128xf32, #layout3>)
func.func @design_example(%arg0: tensor<2x3x64x128xf32, #tt.metal_layout<(d0, d1, d2, d3) -> (d0 * 192 + d1 * 64 + d2, d3), zero, <2x4>, memref<192x32xf32, #tt.memory_space<dram>>>>) {
  func.return
}
