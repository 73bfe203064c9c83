// RUN: meshc-opt %s | filecheck %s
// RUN: meshc-opt %s --print-op-generic | meshc-opt | filecheck %s

// The MoE steps on one DP shard of the MoE resharding notes: 2 tokens of M = 2, 8 experts, top-2, capacity 1.
// CHECK-LABEL: func.func @moe
func.func @moe(%x: tensor<1x2x2xf32>, %router: tensor<2x8xf32>, %w: tensor<8x1x1x2xf32>) -> tensor<1x2x2xf32> {
  %logits = "ttir.matmul"(%x, %router) : (tensor<1x2x2xf32>, tensor<2x8xf32>) -> tensor<1x2x8xf32>
  // CHECK: %experts, %weights = "ttir.moe_route"(%logits) {k = 2 : i64} : (tensor<1x2x8xf32>) -> (tensor<1x2x2xi32>, tensor<1x2x2xf32>)
  %experts, %weights = "ttir.moe_route"(%logits) {k = 2 : i64} : (tensor<1x2x8xf32>) -> (tensor<1x2x2xi32>, tensor<1x2x2xf32>)
  // CHECK: %dispatched, %slots = "ttir.moe_dispatch"(%x, %experts) : (tensor<1x2x2xf32>, tensor<1x2x2xi32>) -> (tensor<8x1x1x2xf32>, tensor<1x2x2xi32>)
  %dispatched, %slots = "ttir.moe_dispatch"(%x, %experts) : (tensor<1x2x2xf32>, tensor<1x2x2xi32>) -> (tensor<8x1x1x2xf32>, tensor<1x2x2xi32>)
  %out = "ttir.multiply"(%dispatched, %w) : (tensor<8x1x1x2xf32>, tensor<8x1x1x2xf32>) -> tensor<8x1x1x2xf32>
  // CHECK: %y = "ttir.moe_combine"(%out, %experts, %weights, %slots) : (tensor<8x1x1x2xf32>, tensor<1x2x2xi32>, tensor<1x2x2xf32>, tensor<1x2x2xi32>) -> tensor<1x2x2xf32>
  %y = "ttir.moe_combine"(%out, %experts, %weights, %slots) : (tensor<8x1x1x2xf32>, tensor<1x2x2xi32>, tensor<1x2x2xf32>, tensor<1x2x2xi32>) -> tensor<1x2x2xf32>
  func.return %y : tensor<1x2x2xf32>
}
