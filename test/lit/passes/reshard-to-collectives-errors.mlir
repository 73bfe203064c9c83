// RUN: meshc-opt %s --split-input-file -p 'reshard-to-collectives{max-ratio=1.5 point-to-point=false}' --verify-diagnostics
// RUN: not meshc-opt %s --split-input-file -p 'reshard-to-collectives{max-ratio=1.5 point-to-point=false}' 2>&1 | filecheck %s

// A target that invents partial sums is not a reshard.
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0 mod 8, d1 mod 8)>, meshShape = 2x2, chipIds = [0, 1, 2, 3]>} {
  func.func @f(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
    // CHECK: reshard-to-collectives-errors.mlir:9:5: error: 'ttir.reshard' op cannot lower the reshard [S0, R] -> [S0, R] P(1): target [S0, R] P(1) is partial over mesh axes [1] that the source [S0, R] is not partial over
    // expected-error @+1 {{cannot lower the reshard [S0, R] -> [S0, R] P(1): target [S0, R] P(1) is partial over mesh axes [1] that the source [S0, R] is not partial over; turning a value into partial sums is not a reshard meshc plans}}
    %0 = "ttir.reshard"(%x) {source = "[S0, R]", target = "[S0, R] P1"} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    func.return %0 : tensor<2x4xf32>
  }
}

// -----

// An element type without a byte size per element.
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0 mod 8, d1 mod 8)>, meshShape = 2x2, chipIds = [0, 1, 2, 3]>} {
  func.func @f(%x: tensor<2x4xi1>) -> tensor<4x2xi1> {
    // CHECK: error: 'ttir.reshard' op cannot lower the reshard [S0, R] -> [R, S0]: unknown data type 'i1'
    // expected-error @+1 {{cannot lower the reshard [S0, R] -> [R, S0]: unknown data type 'i1'; expected one of f32, f16, bf16, bfp_bf8, bfp_bf4, u32, u16, u8, si32}}
    %0 = "ttir.reshard"(%x) {source = "[S0, R]", target = "[R, S0]"} : (tensor<2x4xi1>) -> tensor<4x2xi1>
    func.return %0 : tensor<4x2xi1>
  }
}

// -----

// The MoE resharding notes' transition: uniform collectives forward bytes through devices that do not keep
// them (twice the lower bound); with point-to-point moves switched off, max-ratio = 1.5 refuses that.
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<2x16x16, (d0, d1, d2) -> (d0 * 4 + (d1 floordiv 8) * 2 + d2 floordiv 8, d1 mod 8, d2 mod 8)>, meshShape = 2x2x2, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @to_ep(%x: tensor<8x1x4x8xf32>) -> tensor<1x2x4x16xf32> {
    // CHECK: error: 'ttir.reshard' op the collectives for [R, S0, R, S2] -> [S012, R, R, R] deliver 6144 B, 2.00x the lower bound of 3072 B (max-ratio = 1.5)
    // expected-error @+1 {{the collectives for [R, S0, R, S2] -> [S012, R, R, R] deliver 6144 B, 2.00x the lower bound of 3072 B (max-ratio = 1.5)}}
    %0 = "ttir.reshard"(%x) {source = "[E=8, B=2/DP=2, C=4, M=16/TP=2] on [DP=2, CP=2, TP=2]", target = "[E=8/EP=8, B=2, C=4, M=16]"} : (tensor<8x1x4x8xf32>) -> tensor<1x2x4x16xf32>
    func.return %0 : tensor<1x2x4x16xf32>
  }
}

