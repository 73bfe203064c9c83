// RUN: meshc-run %s --report --check | filecheck %s
// RUN: meshc-run %s --pipeline 'ttir-to-ttnn-pipeline{memory-space=dram}' --report | filecheck %s --check-prefix=DRAM

// meshc-run --report says where each device tensor sits and why (ttnn-optimize-memory, docs/passes.md).
// A chip whose cores hold 24,576 B of L1; 512x512 f32 in 32x32 tiles (256 tiles of 4,096 B):
// block-sharded over 8x8 cores 2x2 tiles = 16,384 B a core; height- or width-sharded its 16 tile
// rows (columns) go to 16 cores, 16 tiles x 4,096 B = 65,536 B a core, over the L1;
// L1 interleaved 256 tiles round-robin over the 64 cores, 4 tiles = 16,384 B a core (as fast as
// block-sharded for these element-wise ops: both compute on the 8x8 grid; ties keep the block);
// DRAM interleaved ceil(256 / 12 banks) = 22 tiles = 90,112 B a bank. %e (read three times)
// stays in L1; %r would be faster there but does not fit beside %e.
// CHECK: Where each device tensor sits and why
// CHECK: %e (512x512xf32): l1_block_sharded, 16,384 B a core on 64 cores, {{[0-9.]+}} us: the least modelled time
// CHECK-NEXT: other places: l1_interleaved {{[0-9.]+}} us, dram_interleaved {{[0-9.]+}} us, dram_sharded {{[0-9.]+}} us
// CHECK-NEXT: l1_height_sharded: does not fit: 65,536 B a core, over the 24,576 B of a core's L1
// CHECK-NEXT: l1_width_sharded: does not fit: 65,536 B a core, over the 24,576 B of a core's L1
// CHECK-NEXT: %r (512x512xf32): dram_interleaved, 90,112 B a DRAM bank, {{[0-9.]+}} us: the least modelled time of the options that fit: l1_block_sharded is faster but does not fit, l1_interleaved is faster but does not fit
// CHECK-NEXT: other places: l1_block_sharded {{[0-9.]+}} us (does not fit with the others), l1_interleaved {{[0-9.]+}} us (does not fit with the others), dram_sharded {{[0-9.]+}} us
// CHECK: check: result0 matches the golden run

// memory-space=dram keeps every tensor in DRAM as asked; the report says %e would be faster in
// L1 and fit there (16,384 B a core of 24,576 B, every other tensor in DRAM).
// DRAM: %e (512x512xf32): dram_interleaved, 90,112 B a DRAM bank, {{[0-9.]+}} us: kept, though l1_block_sharded would be faster and fits
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<8x8, (d0, d1) -> (0, d0, d1)>, meshShape = 1x1, chipIds = [0]>,
                   tt.system_desc = #tt.system_desc<meshShape = 1x1, chipDescs = [#tt.chip_desc<arch = wormhole_b0, grid = 8x8, l1Size = 24576, dramBanks = 12, dramBankSize = 1073741824>], chipDescIndices = [0], chipCoords = [[0, 0]], links = []>} {
  func.func @main(%x: tensor<512x512xf32>) -> tensor<512x512xf32> {
    %e = "ttir.exp"(%x) : (tensor<512x512xf32>) -> tensor<512x512xf32>
    %r = "ttir.relu"(%x) : (tensor<512x512xf32>) -> tensor<512x512xf32>
    %c = "ttir.add"(%e, %r) : (tensor<512x512xf32>, tensor<512x512xf32>) -> tensor<512x512xf32>
    %d = "ttir.add"(%e, %c) : (tensor<512x512xf32>, tensor<512x512xf32>) -> tensor<512x512xf32>
    %f = "ttir.add"(%e, %d) : (tensor<512x512xf32>, tensor<512x512xf32>) -> tensor<512x512xf32>
    func.return %f : tensor<512x512xf32>
  }
}
