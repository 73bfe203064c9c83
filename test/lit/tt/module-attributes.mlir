// RUN: meshc-opt %s | filecheck %s
// RUN: meshc-opt %s --print-op-generic | meshc-opt | filecheck %s

// A module carries its device and its system as the attributes `tt.device` and
// `tt.system_desc` of the builtin module. Aliases defined at the top of a file
// (`#device = #tt.device<...>`) parse; meshc-opt prints each long attribute once, as an
// alias, and refers to it everywhere else, as mlir-opt does.

#device = #tt.device<workerGrid = #tt.grid<8x16, (d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)>, meshShape = 1x2, chipIds = [0, 1]>
#system = #tt.system_desc<n300>
#l1 = #tt.memory_space<l1>
#rows = #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <8x16>, memref<1x2x!tt.tile<32x32, bf16>, #l1>>

// CHECK: #device = #tt.device<workerGrid = #tt.grid<8x16, (d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)>, meshShape = 1x2, chipIds = [0, 1]>
// CHECK-NEXT: #system_desc = #tt.system_desc<meshShape = 1x2, chipDescs = [#tt.chip_desc<arch = wormhole_b0, grid = 8x8, l1Size = 1499136, dramBanks = 12, dramBankSize = 1073741824>], chipDescIndices = [0, 0], chipCoords = [[0, 0], [0, 1]], links = [[0, 1]]>
// CHECK-NEXT: #layout = #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <8x16>, memref<1x2x!tt.tile<32x32, bf16>, #tt.memory_space<l1>>>
// CHECK-NEXT: builtin.module attributes {tt.device = #device, tt.system_desc = #system_desc} {
// CHECK-NEXT:   func.func @f(%arg0: tensor<256x1024xbf16, #layout>) -> tensor<256x1024xbf16, #layout> {
// CHECK-NEXT:     func.return %arg0 : tensor<256x1024xbf16, #layout>
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-NOT: #tt.device
module attributes {tt.device = #device, tt.system_desc = #system} {
  func.func @f(%arg0: tensor<256x1024xbf16, #rows>) -> tensor<256x1024xbf16, #rows> {
    func.return %arg0 : tensor<256x1024xbf16, #rows>
  }
}
