// RUN: meshc-opt %s --split-input-file --verify-diagnostics
// RUN: not meshc-opt %s --split-input-file 2>&1 | filecheck %s

// Each verifier message of #tt.metal_layout: on its own (at the attribute) and against its
// tensor (at the op that uses the tensor).

// tt-mlir's Device spec's "over 2d and batch" tensor exactly as tt-mlir's Device spec writes it: LINEAR has two
// results, but the grid has rank 3.
// expected-error @+1 {{the LINEAR map (d0, d1) -> (d0, d1) has 2 results, but the grid <2x4x16> has rank 3}}
func.func @seed_over_2d_and_batch(%arg0: tensor<64x256x1024xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <2x4x16>, memref<32x2x2x!tt.tile<32 x 32, bfp_bf8>, #tt.memory_space<l1>>>>) {
  func.return
}
// CHECK: metal-layout-invalid.mlir:10:66: error: invalid attribute '#tt.metal_layout': the LINEAR map (d0, d1) -> (d0, d1) has 2 results, but the grid <2x4x16> has rank 3

// -----

// expected-error @+1 {{'func.func' op tensor<3x64x128xf32> does not match its #tt.metal_layout: the LINEAR map (d0, d1, d2, d3) -> (d0, d1 * 64 + d2, d3) takes 4 dims, but the tensor 3x64x128 has rank 3}}
func.func @tensor_rank(%arg0: tensor<3x64x128xf32, #tt.metal_layout<(d0, d1, d2, d3) -> (d0, d1 * 64 + d2, d3), undef, <2x2x4>, memref<8x3x1x!tt.tile<32x32, bfp_bf8>, #tt.memory_space<l1>>>>) {
  func.return
}
// CHECK: metal-layout-invalid.mlir:18:1: error: 'func.func' op tensor<3x64x128xf32> does not match its #tt.metal_layout: the LINEAR map (d0, d1, d2, d3) -> (d0, d1 * 64 + d2, d3) takes 4 dims, but the tensor 3x64x128 has rank 3
// CHECK-NEXT: func.func @tensor_rank
// CHECK-NEXT: {{^\^$}}

// -----

// 2 tiles of 32 columns on each of 16 cores cover 1024 columns, not 1040.
// expected-error @+1 {{the memref shard 2x2 of 32x32 tiles on grid <4x16> covers 256x1024 elements, but the tensor 256x1040 collapses to 256x1040: dim 1 needs 1040, has 1024}}
func.func @shard_too_small(%arg0: tensor<256x1040xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <4x16>, memref<2x2x!tt.tile<32x32, bfp_bf8>, #tt.memory_space<l1>>>>) {
  func.return
}
// CHECK: metal-layout-invalid.mlir:29:1: error: 'func.func' op {{.*}}dim 1 needs 1040, has 1024

// -----

// The result of an op is checked too.
func.func @result(%arg0: tensor<64x64xf32>) {
  // expected-error @+1 {{dim 0 needs 64, has 32}}
  %0 = "tensor.empty"() : () -> tensor<64x64xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <1x1>, memref<32x64xf32, #tt.memory_space<l1>>>>
  func.return
}
// CHECK: metal-layout-invalid.mlir:39:3: error: 'tensor.empty' op {{.*}}dim 0 needs 64, has 32

// -----

// expected-error @+1 {{the memref shard 2x2x1 has rank 3, but the grid <4x16> has rank 2}}
func.func private @memref_rank() attributes {l = #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <4x16>, memref<2x2x1xf32, #tt.memory_space<l1>>>}
// CHECK: metal-layout-invalid.mlir:47:{{[0-9]+}}: error: {{.*}}the memref shard 2x2x1 has rank 3, but the grid <4x16> has rank 2

// -----

// expected-error @+1 {{the memref of a metal_layout needs a memory space}}
func.func private @no_memory_space() attributes {l = #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <4x16>, memref<2x2xf32>>}
// CHECK: metal-layout-invalid.mlir:53:{{[0-9]+}}: error: {{.*}}the memref of a metal_layout needs a memory space

// -----

// expected-error @+1 {{element type i1 has no tt data type; expected f32, f16, bf16, ui32, ui16, ui8, si32 or a !tt.tile<...>}}
func.func private @element_type() attributes {l = #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <4x16>, memref<2x2xi1, #tt.memory_space<l1>>>}
// CHECK: metal-layout-invalid.mlir:59:{{[0-9]+}}: error: {{.*}}element type i1 has no tt data type

// -----

// expected-error @+1 {{the grid of a metal_layout has no map; write it as <2x4>}}
func.func private @grid_map() attributes {l = #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <4x16, (d0, d1) -> (0, d0, d1)>, memref<2x2xf32, #tt.memory_space<l1>>>}
// CHECK: metal-layout-invalid.mlir:65:{{[0-9]+}}: error: {{.*}}the grid of a metal_layout has no map

// -----

// expected-error @+1 {{Expected `undef`, `zero`, `one`, `inf`, or `neginf`}}
func.func private @oob() attributes {l = #tt.metal_layout<(d0, d1) -> (d0, d1), nan, <4x16>, memref<2x2xf32, #tt.memory_space<l1>>>}
// CHECK: metal-layout-invalid.mlir:71:{{[0-9]+}}: error: Expected `undef`, `zero`, `one`, `inf`, or `neginf`

// -----

// expected-error @+1 {{result 0 of the LINEAR map (d0, d1) -> (d0 - d1, d1) reaches -31 on tensor 32x32; LINEAR values must not be negative}}
func.func @negative_linear(%arg0: tensor<32x32xf32, #tt.metal_layout<(d0, d1) -> (d0 - d1, d1), undef, <1x1>, memref<32x32xf32, #tt.memory_space<l1>>>>) {
  func.return
}
// CHECK: metal-layout-invalid.mlir:77:1: error: {{.*}}LINEAR values must not be negative

// -----

// expected-error @+1 {{a tiled layout needs a grid of rank 2 or more}}
func.func private @tiled_rank1() attributes {l = #tt.metal_layout<(d0) -> (d0), undef, <4>, memref<2x!tt.tile<32x32, bf16>, #tt.memory_space<l1>>>}
// CHECK: metal-layout-invalid.mlir:85:{{[0-9]+}}: error: {{.*}}a tiled layout needs a grid of rank 2 or more

// -----

// expected-error @+1 {{expected the shard as a memref<SHAPE x ELEM, #tt.memory_space<...>>}}
func.func private @not_memref() attributes {l = #tt.metal_layout<(d0) -> (d0), undef, <4>, tensor<2xf32>>}
// CHECK: metal-layout-invalid.mlir:91:{{[0-9]+}}: error: expected the shard as a memref

// CHECK-NOT: Traceback
