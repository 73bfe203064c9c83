// RUN: not meshc-opt %s -p ttir-to-ttnn-pipeline 2>&1 | filecheck %s
// RUN: meshc-opt %s -p 'ttir-to-ttnn-pipeline{spill-to-dram=true}' | filecheck %s --check-prefix=SPILL
// RUN: meshc-run %s --pipeline 'ttir-to-ttnn-pipeline{spill-to-dram=true}' --check --report | filecheck %s --check-prefix=EXEC
// RUN: not meshc-run %s --pipeline 'ttir-to-ttnn-pipeline{check-l1=false}' 2>&1 | filecheck %s --check-prefix=SIM

// ttir-to-ttnn-pipeline ends with ttnn-check-l1. A chip with 40,960 B of L1 a core: each
// 512x512 f32 tensor is block-sharded over the 8x8 cores in 32x32 tiles, 64x64x4 = 16,384 B a
// core. %e, %r and %s are live together at the add: 49,152 B, 8,192 B over. The error is at
// the add's source line.
// CHECK: pipelines-check-l1.mlir:26:5: error: 'ttnn.add' op ttnn-check-l1: %s (512x512xf32) does not fit in L1: with it, core (0, 0) holds 49,152 B (%e (512x512xf32) 16,384 B, %r (512x512xf32) 16,384 B, %s (512x512xf32) 16,384 B), but a wormhole_b0 core's L1 holds 40,960 B: 8,192 B short; put tensors in DRAM interleaved

// spill-to-dram=true moves %e (the longest lived) to DRAM; %r is placed by its own layout and
// stays in L1. The simulator then peaks at two 16,384 B shards a core and the check passes.
// SPILL: %e = "ttnn.exp"({{.*}}) -> tensor<512x512xf32, #[[DRAM:ttnn_layout[0-9]*]]>
// SPILL: %r = "ttnn.relu"(%e) : (tensor<512x512xf32, #[[DRAM]]>) -> tensor<512x512xf32, #[[L1:ttnn_layout[0-9]*]]>
// EXEC: peak L1 a core: 32,768 B
// EXEC: check: result0 matches the golden run

// Without the check, the simulator runs out of L1 at the same op, short by the same bytes.
// SIM: pipelines-check-l1.mlir:26:5: error: 'ttnn.add' op out of memory in the L1 of core (0, 0) of chip 0: a buffer needs 16,384 B there, but only 8,192 B are free in one block (8,192 B free of 40,960 B): 8,192 B missing
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<8x8, (d0, d1) -> (0, d0, d1)>, meshShape = 1x1, chipIds = [0]>,
                   tt.system_desc = #tt.system_desc<meshShape = 1x1, chipDescs = [#tt.chip_desc<arch = wormhole_b0, grid = 8x8, l1Size = 40960, dramBanks = 12, dramBankSize = 1073741824>], chipDescIndices = [0], chipCoords = [[0, 0]], links = []>} {
  func.func @main(%x: tensor<512x512xf32>) -> tensor<512x512xf32> {
    %e = "ttir.exp"(%x) : (tensor<512x512xf32>) -> tensor<512x512xf32>
    %r = "ttir.relu"(%e) : (tensor<512x512xf32>) -> tensor<512x512xf32>
    %s = "ttir.add"(%e, %r) : (tensor<512x512xf32>, tensor<512x512xf32>) -> tensor<512x512xf32>
    func.return %s : tensor<512x512xf32>
  }
}
