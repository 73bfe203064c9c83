// `ttcore.` module attributes and attribute names read as meshc's `tt.` ones.
// RUN: meshc-opt %s | filecheck %s
// CHECK: #device = #tt.device<workerGrid = #tt.grid<8x16, (d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)>, meshShape = 1x2, chipIds = [0, 1]>
// CHECK: builtin.module attributes {tt.device = #device}
// CHECK: "ttir.all_gather"(%{{.*}}) {all_gather_dim = 1 : si32, cluster_axis = 1 : ui32} : (tensor<32x32xf32>) -> tensor<32x64xf32>
module attributes {ttcore.device = #ttcore.device<workerGrid = #ttcore.grid<8x16, (d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)>, meshShape = 1x2, chipIds = [0, 1]>} {
  func.func @main(%arg0: tensor<32x32xf32>) -> tensor<32x64xf32> {
    %0 = ttir.empty() : tensor<32x64xf32>
    %1 = "ttir.all_gather"(%arg0, %0) <{all_gather_dim = 1 : si32, cluster_axis = 1 : ui32}> : (tensor<32x32xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
    return %1 : tensor<32x64xf32>
  }
}
