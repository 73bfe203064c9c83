// RUN: meshc-opt %s | filecheck %s
// RUN: meshc-opt %s --print-op-generic | meshc-opt | filecheck %s

// ttir.reshard between the attention mesh [DP=2, CP=2, TP=2] and the expert view [EP=8] of the
// same 8 devices (the MoE resharding notes), index-form specs on the module's mesh, and ttir.all_slice.
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<2x16x16, (d0, d1, d2) -> (d0 * 4 + (d1 floordiv 8) * 2 + d2 floordiv 8, d1 mod 8, d2 mod 8)>, meshShape = 2x2x2, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  // CHECK-LABEL: func.func @moe_mesh
  func.func @moe_mesh(%x: tensor<8x1x1x1xf32>) -> tensor<8x1x1x1xf32> {
    // CHECK: %0 = "ttir.reshard"(%x) {source = "[E=8, B=2/DP=2, C=1, M=2/TP=2] on [DP=2, CP=2, TP=2]", target = "[E=8/EP=8, B=2, C=1, M=2]"} : (tensor<8x1x1x1xf32>) -> tensor<1x2x1x2xf32>
    %0 = "ttir.reshard"(%x) {source = "[E=8, B=2/DP=2, C=1, M=2/TP=2] on [DP=2, CP=2, TP=2]", target = "[E=8/EP=8, B=2, C=1, M=2]"} : (tensor<8x1x1x1xf32>) -> tensor<1x2x1x2xf32>
    // CHECK: %1 = "ttir.reshard"(%0) {source = "[E=8/EP=8, B=2, C=1, M=2]", target = "[E=8, B=2/DP=2, C=1, M=2/TP=2] on [DP=2, CP=2, TP=2]"} : (tensor<1x2x1x2xf32>) -> tensor<8x1x1x1xf32>
    %1 = "ttir.reshard"(%0) {source = "[E=8/EP=8, B=2, C=1, M=2]", target = "[E=8, B=2/DP=2, C=1, M=2/TP=2] on [DP=2, CP=2, TP=2]"} : (tensor<1x2x1x2xf32>) -> tensor<8x1x1x1xf32>
    func.return %1 : tensor<8x1x1x1xf32>
  }
  // CHECK-LABEL: func.func @index_form
  func.func @index_form(%x: tensor<4x8xf32>) -> tensor<8x2xf32> {
    // CHECK: "ttir.reshard"(%x) {source = "[S01, R]", target = "[S0, S12]"} : (tensor<4x8xf32>) -> tensor<8x2xf32>
    %0 = "ttir.reshard"(%x) {source = "[S01, R]", target = "[S0, S12]"} : (tensor<4x8xf32>) -> tensor<8x2xf32>
    // CHECK: "ttir.all_slice"(%0) {slice_dim = 0 : si32, cluster_axis = 2 : ui32} : (tensor<8x2xf32>) -> tensor<4x2xf32>
    %1 = "ttir.all_slice"(%0) {slice_dim = 0 : si32, cluster_axis = 2 : ui32} : (tensor<8x2xf32>) -> tensor<4x2xf32>
    // CHECK: "ttir.reshard"(%1) {source = "[S2, S1] P(0)", target = "[R, S1]"} : (tensor<4x2xf32>) -> tensor<8x2xf32>
    %2 = "ttir.reshard"(%1) {source = "[S2, S1] P(0)", target = "[R, S1]"} : (tensor<4x2xf32>) -> tensor<8x2xf32>
    func.return %2 : tensor<8x2xf32>
  }
  // Placements may also be #tt.sharding attributes (any view of the module's 8 devices).
  // CHECK-LABEL: func.func @sharding_attrs
  func.func @sharding_attrs(%x: tensor<4x8xf32>) -> tensor<8x1xf32> {
    // CHECK: "ttir.reshard"(%x) {source = #tt.sharding<[S0, R], mesh = 2x4>, target = #tt.sharding<[R, S(EP)], mesh = [EP=8]>} : (tensor<4x8xf32>) -> tensor<8x1xf32>
    %0 = "ttir.reshard"(%x) {source = #tt.sharding<[S0, R], mesh = 2x4>, target = #tt.sharding<[R, S(EP)], mesh = [EP=8]>} : (tensor<4x8xf32>) -> tensor<8x1xf32>
    func.return %0 : tensor<8x1xf32>
  }
}
