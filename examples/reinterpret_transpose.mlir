// tt-mlir's Device spec "Reinterpreted Grids (Transpose)": a = exp(a); aT = transpose(a); relu(aT) on one
// chip. ttir-reinterpret-grid places aT on the grid reinterpreted as transposed, so every
// core transposes its own block and relu runs where the data already is: no bytes move.
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<8x8, (d0, d1) -> (0, d0, d1)>, meshShape = 1, chipIds = [0]>} {
  func.func @main(%a: tensor<256x512xf32>) -> tensor<512x256xf32> {
    %0 = "ttir.exp"(%a) : (tensor<256x512xf32>) -> tensor<256x512xf32>
    %1 = "ttir.transpose"(%0) {dim0 = 0 : si32, dim1 = 1 : si32} : (tensor<256x512xf32>) -> tensor<512x256xf32>
    %2 = "ttir.relu"(%1) : (tensor<512x256xf32>) -> tensor<512x256xf32>
    func.return %2 : tensor<512x256xf32>
  }
}
