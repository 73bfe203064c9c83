// meshc's spelling of the MoE layer of ../ttmlir/moe-both-spellings.mlir: moe_dispatch with a
// capacity of 4 (no choice dropped), the experts' batched matmul, moe_combine with the gate weights.
module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x2>]>} {
  func.func @main(%x: tensor<1x4x4xf32>, %experts: tensor<1x4x2xi32>, %gate: tensor<1x4x2xf32>, %w: tensor<4x4x4xf32>) -> tensor<1x4x4xf32> {
    %disp, %slots = "ttir.moe_dispatch"(%x, %experts) : (tensor<1x4x4xf32>, tensor<1x4x2xi32>) -> (tensor<4x1x4x4xf32>, tensor<1x4x2xi32>)
    %flat = "ttir.reshape"(%disp) {shape = [4 : i32, 4 : i32, 4 : i32]} : (tensor<4x1x4x4xf32>) -> tensor<4x4x4xf32>
    %o = "ttir.matmul"(%flat, %w) : (tensor<4x4x4xf32>, tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
    %out = "ttir.reshape"(%o) {shape = [4 : i32, 1 : i32, 4 : i32, 4 : i32]} : (tensor<4x4x4xf32>) -> tensor<4x1x4x4xf32>
    %y = "ttir.moe_combine"(%out, %experts, %gate, %slots) : (tensor<4x1x4x4xf32>, tensor<1x4x2xi32>, tensor<1x4x2xf32>, tensor<1x4x2xi32>) -> tensor<1x4x4xf32>
    return %y : tensor<1x4x4xf32>
  }
}
