// RUN: meshc-run %examples/mlp_global.mlir --check --report | filecheck %s
// RUN: meshc-run %examples/mlp_global.mlir --target ttmetal --check | filecheck %s --check-prefix=METAL
// RUN: meshc-run %s --check --pipeline 'ttir-to-ttnn-pipeline{system=t3k mesh-shape=2,4}' | filecheck %s --check-prefix=PLAIN
// RUN: meshc-run %s --check --target ttmetal --pipeline 'ttir-to-ttmetal-pipeline{system=t3k mesh-shape=2,4}' | filecheck %s --check-prefix=PLAIN

// The Megatron MLP in global view. The only chip-to-chip traffic is the all_reduce of the
// second matmul's partial sums, 32x64 f32 = 8,192 B a chip, along each row of 4 chips (a line).
// Derived by hand from the simulator's line algorithms: the reduce-scatter sends running sums
// of 2,048 B pieces, one a link for each piece still ahead (0->1: 3, 1->2: 2, 2->3: 1), then
// the all-gather forwards every piece to both ends (0->1: 1, 1->2: 2, 2->3: 3): 4 pieces =
// 8,192 B on every link and direction; 12 directed links in the two rows = 98,304 B.
// CHECK: chip 0 -> chip 1 │  8,192
// CHECK: chip 2 -> chip 3 │  8,192
// CHECK-NOT: chip 0 -> chip 4
// CHECK: total{{ *}}│ 98,304
// CHECK: ttnn.all_reduce
// CHECK: check: result0 matches the golden run (within the f32 tolerance)
// METAL: check: result0 matches the golden run (within the f32 tolerance)

// This file: the same MLP with no annotation and no device; given a 2x4 mesh on the command
// line, everything is replicated and it runs on both backends.
// PLAIN: check: result0 matches the golden run (within the f32 tolerance)
module {
  func.func @main(%x: tensor<64x64xf32>, %w1: tensor<64x128xf32>, %w2: tensor<128x64xf32>) -> tensor<64x64xf32> {
    %h = "ttir.matmul"(%x, %w1) : (tensor<64x64xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
    %g = "ttir.gelu"(%h) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    %y = "ttir.matmul"(%g, %w2) : (tensor<64x128xf32>, tensor<128x64xf32>) -> tensor<64x64xf32>
    return %y : tensor<64x64xf32>
  }
}
