// RUN: meshc-opt %s -p 'ttir-layout' | filecheck %s
// RUN: meshc-opt %s -p 'ttir-layout{memory-space=dram memory-layout=interleaved tiled=false}' | filecheck %s --check-prefix=DRAM

// Hand-derived on an 8x8 chip: 64x256 is 2x8 tiles -> grid 2x8, one tile a core.
// 2x3x64x128 folds to 384x128 = 12x4 tiles -> grid 6x4 (largest divisors <= 8), 2x1 tiles a core.
// A rank-1 256 is one row: grid <8>, 32 elements a core. A written layout is kept.
// CHECK-DAG: #layout = #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <2x8>, memref<1x1x!tt.tile<32x32, f32>, #tt.memory_space<l1>>>
// CHECK-DAG: #tt.metal_layout<(d0, d1, d2, d3) -> (d0 * 192 + d1 * 64 + d2, d3), undef, <6x4>, memref<2x1x!tt.tile<32x32, bf16>, #tt.memory_space<l1>>>
// CHECK-DAG: #tt.metal_layout<(d0) -> (d0), undef, <8>, memref<32xf32, #tt.memory_space<l1>>>
// CHECK-DAG: #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <1x1>, memref<64x256xf32, #tt.memory_space<dram>>>
// DRAM-DAG: #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <1x1>, memref<64x256xf32, #tt.memory_space<dram>>>
// DRAM-DAG: #tt.metal_layout<(d0, d1, d2, d3) -> (d0 * 192 + d1 * 64 + d2, d3), undef, <1x1>, memref<384x128xbf16, #tt.memory_space<dram>>>
// CHECK-LABEL: func.func @f(%a: tensor<64x256xf32>, %b: tensor<2x3x64x128xbf16>) -> tensor<64x256xf32, #layout>
func.func @f(%a: tensor<64x256xf32>, %b: tensor<2x3x64x128xbf16>) -> tensor<64x256xf32> {
  %0 = "ttir.exp"(%a) : (tensor<64x256xf32>) -> tensor<64x256xf32>
  %1 = "ttir.relu"(%b) : (tensor<2x3x64x128xbf16>) -> tensor<2x3x64x128xbf16>
  %2 = "ttir.sum"(%0) {dim_arg = [0 : i32]} : (tensor<64x256xf32>) -> tensor<256xf32>
  %3 = "ttir.neg"(%0) : (tensor<64x256xf32>) -> tensor<64x256xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <1x1>, memref<64x256xf32, #tt.memory_space<dram>>>>
  func.return %0 : tensor<64x256xf32>
}
