// RUN: meshc-opt %s --verify-diagnostics

// A stage index past the module's tt.devices (here int64's least) is the stage's own located error;
// a later stage reading its result no longer indexes the devices with it (an internal IndexError).
module attributes {tt.system_desc = #tt.system_desc<meshShape = 1x2, chipDescs = [#tt.chip_desc<arch = wormhole_b0, grid = 8x8, l1Size = 1499136, dramBanks = 12, dramBankSize = 1073741824>], chipDescIndices = [0, 0], chipCoords = [[0, 0], [0, 1]], links = []>, tt.devices = [#tt.device<workerGrid = #tt.grid<8x8, (d0, d1) -> (0, d0, d1)>, meshShape = 1, chipIds = [0]>, #tt.device<workerGrid = #tt.grid<8x8, (d0, d1) -> (0, d0, d1)>, meshShape = 1, chipIds = [1]>]} {
  // expected-error @+1 {{is pipeline stage -9223372036854775808, but the module's 'tt.devices' has 2 devices (stages 0 to 1)}}
  func.func @s0(%x: tensor<64x64xf32>) -> tensor<64x64xf32> attributes {tt.stage = -9223372036854775808} {
    %0 = "ttir.tanh"(%x) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    func.return %0 : tensor<64x64xf32>
  }
  func.func @s1(%x: tensor<64x64xf32>) -> tensor<64x64xf32> attributes {tt.stage = 1} {
    %0 = "ttir.relu"(%x) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    func.return %0 : tensor<64x64xf32>
  }
  func.func @main(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %0 = func.call @s0(%x) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %1 = func.call @s1(%0) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    func.return %1 : tensor<64x64xf32>
  }
}
