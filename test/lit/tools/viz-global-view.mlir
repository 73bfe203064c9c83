// RUN: meshc-viz %s --value %h --text | filecheck %s --check-prefix=H
// RUN: meshc-viz %s --value %y --text | filecheck %s --check-prefix=Y
// RUN: meshc-viz %s --text | filecheck %s --check-prefix=FIRST
// RUN: meshc-opt %s -p ttir-to-ttnn-pipeline -o %t.ttnn.mlir
// RUN: meshc-viz %t.ttnn.mlir --value %h --text | filecheck %s --check-prefix=LOWERED
// RUN: rm -f %t.png
// RUN: meshc-viz %s --value %h -o %t.png 2>&1 | filecheck %s --check-prefix=WROTE -DOUT=%t.png
// RUN: test -s %t.png

// A global-view program's values, arguments and intermediates alike, are drawn with the
// sharding ttir-propagate-sharding chooses: [S0, R] x [R, S1] -> [S0, S1]; the second matmul's
// contracting dim is split over mesh axis 1, so its result holds partial sums there.
// H: %h: tensor<64x128xf32> (the sharding ttir-propagate-sharding chooses)  [S0, S1] on mesh 2x4
// H: 8 blocks on 8 devices
// H: B5 {{.*}} [32:64, 32:64] {{.*}} 32x32 {{.*}} (1,1) {{.*}} 5
// Y: %y: tensor<64x64xf32> (the sharding ttir-propagate-sharding chooses)  [S0, R] P(1) on mesh 2x4
// Y: 2 blocks on 8 devices, partial sums over mesh axes [1]
// Y: addend 1/4
// FIRST: %x: tensor<64x64xf32> (the sharding ttir-propagate-sharding chooses)  [S0, R] on mesh 2x4

// After lowering, an intermediate (a matmul's result, 32x32 on each device) is drawn over the
// whole tensor with the sharding chosen in the program it was lowered from.
// LOWERED: %h: tensor<64x128xf32> (the sharding ttir-propagate-sharding chooses in the program it was lowered from)  [S0, S1] on mesh 2x4
// LOWERED: inside every chip, its block (32x32) is laid out as:

// -o says what it wrote, on stderr.
// WROTE: meshc-viz: wrote [[OUT]] (%h: tensor<64x128xf32> (the sharding ttir-propagate-sharding chooses) [S0, S1] on mesh 2x4: 8 blocks)

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
