// tt-mlir's Device spec "Reinterpreted Grids (Extra)": the staircase device grid. TTMetal realises it; TTNN
// cannot (it opens chips with their own row-major core grid), so convert-ttir-to-ttnn
// reports a located error naming the map.
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<8x8, (d0, d1) -> (0, d0, (d0 + d1) mod 8)>, meshShape = 1, chipIds = [0]>} {
  func.func @main(%a: tensor<64x256xf32>, %b: tensor<64x256xf32>) -> tensor<64x256xf32> {
    %0 = "ttir.add"(%a, %b) : (tensor<64x256xf32>, tensor<64x256xf32>) -> tensor<64x256xf32>
    %1 = "ttir.exp"(%0) : (tensor<64x256xf32>) -> tensor<64x256xf32>
    func.return %1 : tensor<64x256xf32>
  }
}
