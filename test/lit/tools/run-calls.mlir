// RUN: meshc-run %s --split-input-file --check | filecheck %s
// RUN: meshc-run %s --split-input-file --check --target ttmetal | filecheck %s

// func.call on one chip and on a mesh, lowered to TTNN and to TTMetal. The pipelines inline
// calls first (the `inline` pass), so both lowerings and sharding propagation see one function.
// CHECK-LABEL: // ----- module 0
// CHECK: check: result0 matches the golden run
// CHECK-LABEL: // ----- module 1
// CHECK: check: result0 matches the golden run

// @main calls two functions on one chip.
module {
  func.func @f(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %0 = "ttir.matmul"(%a, %b) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    func.return %0 : tensor<64x64xf32>
  }
  func.func @g(%a: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %0 = "ttir.tanh"(%a) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    func.return %0 : tensor<64x64xf32>
  }
  func.func @main(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %0 = func.call @f(%a, %b) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %1 = func.call @g(%0) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    func.return %1 : tensor<64x64xf32>
  }
}

// -----

// A global-view MLP on a t3k whose layers are calls: inlined before sharding propagation, the
// annotations of @main reach the callees' ops (Megatron's column- then row-parallel pair).
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func private @up(%x: tensor<64x64xf32>, %w: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %h = "ttir.matmul"(%x, %w) : (tensor<64x64xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
    %g = "ttir.gelu"(%h) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    func.return %g : tensor<64x128xf32>
  }
  func.func private @down(%g: tensor<64x128xf32>, %w: tensor<128x64xf32>) -> tensor<64x64xf32> {
    %y = "ttir.matmul"(%g, %w) : (tensor<64x128xf32>, tensor<128x64xf32>) -> tensor<64x64xf32>
    func.return %y : tensor<64x64xf32>
  }
  func.func @main(%x: tensor<64x64xf32> {tt.sharding = #tt.sharding<[S0, R]>},
                  %w1: tensor<64x128xf32> {tt.sharding = #tt.sharding<[R, S1]>},
                  %w2: tensor<128x64xf32> {tt.sharding = #tt.sharding<[S1, R]>}) -> (tensor<64x64xf32> {tt.sharding = #tt.sharding<[S0, R]>}) {
    %g = func.call @up(%x, %w1) : (tensor<64x64xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
    %y = func.call @down(%g, %w2) : (tensor<64x128xf32>, tensor<128x64xf32>) -> tensor<64x64xf32>
    func.return %y : tensor<64x64xf32>
  }
}
