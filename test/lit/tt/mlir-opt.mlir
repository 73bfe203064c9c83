// REQUIRES: mlir-opt
// RUN: meshc-opt %s --print-op-generic | %mlir-opt --allow-unregistered-dialect | filecheck %s
// RUN: meshc-opt %s --print-op-generic | %mlir-opt --allow-unregistered-dialect --mlir-print-op-generic | meshc-opt | filecheck %s --check-prefix=BACK

// Real MLIR accepts meshc's generic output: the tt attributes are well-formed dialect
// attributes (balanced, opaque to MLIR), and MLIR's output comes back into meshc-opt unchanged.

// CHECK: module attributes {tt.device = #tt.device<workerGrid = #tt.grid<2x8x16, (d0, d1, d2) -> (d2 floordiv 8 + d0 * 2, d1, d2 mod 8)>, meshShape = 2x1x2, chipIds = [0, 1, 2, 3]>, tt.system_desc = #tt.system_desc<meshShape = 2x2, {{.*}}links = [[0, 1], [0, 2], [1, 3], [2, 3]]>}
// CHECK: func.func @f(%arg0: tensor<16x3x64x128xf32, #tt.metal_layout<(d0, d1, d2, d3) -> (d0, d1 * 64 + d2, d3), undef, <2x2x4>, memref<8x3x1x!tt.tile<32x32, bfp_bf8>, #tt.memory_space<l1>>>>)
// CHECK-SAME: attributes {t = !tt.tile<32x32, bf16>}

// BACK: #device = #tt.device<workerGrid = #tt.grid<2x8x16, (d0, d1, d2) -> (d2 floordiv 8 + d0 * 2, d1, d2 mod 8)>, meshShape = 2x1x2, chipIds = [0, 1, 2, 3]>
// BACK: #layout = #tt.metal_layout<(d0, d1, d2, d3) -> (d0, d1 * 64 + d2, d3), undef, <2x2x4>, memref<8x3x1x!tt.tile<32x32, bfp_bf8>, #tt.memory_space<l1>>>
// BACK: func.func @f(%arg0: tensor<16x3x64x128xf32, #layout>)

module attributes {
  tt.device = #tt.device<workerGrid = #tt.grid<2x8x16, (d0, d1, d2) -> (d2 floordiv 8 + d0 * 2, d1, d2 mod 8)>, meshShape = 2x1x2, chipIds = [0, 1, 2, 3]>,
  tt.system_desc = #tt.system_desc<meshShape = 2x2, chipDescs = [#tt.chip_desc<arch = wormhole_b0, grid = 8x8, l1Size = 1499136, dramBanks = 12, dramBankSize = 1073741824>], chipDescIndices = [0, 0, 0, 0], chipCoords = [[0, 0], [0, 1], [1, 0], [1, 1]], links = [[0, 1], [0, 2], [1, 3], [2, 3]]>
} {
  func.func @f(%arg0: tensor<16x3x64x128xf32, #tt.metal_layout<(d0, d1, d2, d3) -> (d0, d1 * 64 + d2, d3), undef, <2x2x4>, memref<8x3x1x!tt.tile<32 x 32, bfp_bf8>, #tt.memory_space<l1>>>>) attributes {t = !tt.tile<32x32, bf16>} {
    func.return
  }
}
