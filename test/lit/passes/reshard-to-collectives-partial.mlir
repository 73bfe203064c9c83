// RUN: meshc-opt %s -p reshard-to-collectives | filecheck %s
// RUN: meshc-opt %s -p 'reshard-to-collectives{max-ratio=1.5}' --verify-diagnostics
// RUN: not meshc-opt %s -p 'reshard-to-collectives{max-ratio=1.5}' 2>&1 | filecheck %s --check-prefix=ERR

// Partial sums need a reduction, which point-to-point moves cannot do, so a partial-sum reshard
// takes the walk of uniform collectives. [S0, R] P(1) -> [S1, S0] of a 4x4 f32 tensor: every
// device needs its 2x2 block of the reduced value and holds none of it (a partial sum is not the
// value): bound 4 x 4 x 4 B = 64 B. The walk moves dim 0's axis 0 to dim 1 (all_to_all: each
// device sends half of its 2x4 piece, 16 B, 64 B in all) and reduce-scatters over axis 1 onto
// dim 0 (each device sends half of its 4x2 piece, 16 B, 64 B in all): 128 B, 2.00x the bound.
// Without max-ratio the pass emits it; max-ratio = 1.5 makes it a located error.
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0 mod 8, d1 mod 8)>, meshShape = 2x2, chipIds = [0, 1, 2, 3]>} {
  func.func @f(%x: tensor<2x4xf32>) -> tensor<2x2xf32> {
    // CHECK: %0 = "ttir.all_to_all"(%x) {split_dim = 1 : si32, concat_dim = 0 : si32, cluster_axis = 0 : ui32} : (tensor<2x4xf32>) -> tensor<4x2xf32>
    // CHECK-NEXT: %1 = "ttir.reduce_scatter"(%0) {scatter_dim = 0 : si32, cluster_axis = 1 : ui32, reduce_type = #ttir.reduce_type<sum>} : (tensor<4x2xf32>) -> tensor<2x2xf32>
    // CHECK-NOT: point_to_point
    // ERR: reshard-to-collectives-partial.mlir:19:5: error: 'ttir.reshard' op the collectives for [S0, R] P(1) -> [S1, S0] deliver 128 B, 2.00x the lower bound of 64 B (max-ratio = 1.5); point-to-point moves cannot reduce partial sums
    // expected-error @+1 {{the collectives for [S0, R] P(1) -> [S1, S0] deliver 128 B, 2.00x the lower bound of 64 B (max-ratio = 1.5); point-to-point moves cannot reduce partial sums}}
    %0 = "ttir.reshard"(%x) {source = "[S0, R] P1", target = "[S1, S0]"} : (tensor<2x4xf32>) -> tensor<2x2xf32>
    func.return %0 : tensor<2x2xf32>
  }
}
