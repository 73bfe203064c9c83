// RUN: meshc-opt %s -p ttir-partition -o %t.part.mlir
// RUN: meshc-viz %t.part.mlir --value %h --text | filecheck %s --check-prefix=PART
// RUN: meshc-viz %t.part.mlir --value %y --text | filecheck %s --check-prefix=PARTIAL
// RUN: meshc-viz %examples/flagship_transformer_t3k.mlir --value %q --text | filecheck %s --check-prefix=HAND
// RUN: not meshc-viz %examples/flagship_transformer_t3k.mlir --value %%s --text 2>&1 | filecheck %s --check-prefix=PERHEAD

// In an SPMD program (here ttir-partition's output) an intermediate is drawn over its whole
// tensor with the placement its operands give it: x [S0, R] and w [R, S1] give the matmul's
// 32x32 pieces the spec [S0, S1] of a 64x128 tensor.
// PART: %h: tensor<32x32xf32> (a block on every device, placed as its operands place it)  [S0, S1] on mesh 2x4
// PART: B5 {{.*}} [32:64, 32:64]
// The reshard the partitioner wrote states the partial sums it reduces.
// PARTIAL: [S0, R] P(1) on mesh 2x4

// In the hand-written flagship, q = x [S0, R] . wq [R, S1] is a piece of one global matmul ...
// HAND: %q: tensor<32x16xf32> (a block on every device, placed as its operands place it)  [S0, S1] on mesh 2x4
// ... but s = q . k^T, each device's own batch rows and head, is no piece of one global op: not drawn.
// PERHEAD: flagship_transformer_t3k.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'ttir.matmul' op %s (tensor<32x32xf32>) has no placement to draw

module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @main(%x: tensor<64x64xf32> {tt.sharding = #tt.sharding<[S0, R]>},
                  %w1: tensor<64x128xf32> {tt.sharding = #tt.sharding<[R, S1]>},
                  %w2: tensor<128x64xf32> {tt.sharding = #tt.sharding<[S1, R]>}) -> (tensor<64x64xf32> {tt.sharding = #tt.sharding<[S0, R]>}) {
    %h = "ttir.matmul"(%x, %w1) : (tensor<64x64xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
    %g = "ttir.gelu"(%h) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    %y = "ttir.matmul"(%g, %w2) : (tensor<64x128xf32>, tensor<128x64xf32>) -> tensor<64x64xf32>
    return %y : tensor<64x64xf32>
  }
}
