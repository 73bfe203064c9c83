// RUN: not meshc-opt %s -p 'ttir-to-ttnn-pipeline{spill-to-dram=false}' 2>&1 | filecheck %s
// RUN: meshc-opt %s -p 'ttir-to-ttnn-pipeline{spill-to-dram=true}' | filecheck %s --check-prefix=SPILL
// RUN: meshc-opt %s -p ttir-to-ttnn-pipeline | filecheck %s --check-prefix=SPILL
// RUN: meshc-run %s --pipeline 'ttir-to-ttnn-pipeline{spill-to-dram=true}' --check --report | filecheck %s --check-prefix=EXEC
// RUN: not meshc-run %s --pipeline 'ttir-to-ttnn-pipeline{check-l1=false optimize-memory=false}' 2>&1 | filecheck %s --check-prefix=SIM

// ttir-to-ttnn-pipeline ends with ttnn-check-l1, which by default spills to DRAM what L1 cannot
// hold (spill-to-dram=false: the strict check, an error instead). A chip with 40,960 B of L1 a core: each
// 512x512 f32 tensor is block-sharded over the 8x8 cores in 32x32 tiles, 64x64x4 = 16,384 B a
// core. %e, %r and %s are live together at the add: 49,152 B, 8,192 B over. The error is at
// the add's source line.
// CHECK: pipelines-check-l1.mlir:[[# @LINE + 21]]:5: error: 'ttnn.add' op ttnn-check-l1: %s (512x512xf32) does not fit in L1: with it, core (0, 0) holds 49,152 B (%e (512x512xf32) 16,384 B, %r (512x512xf32) 16,384 B, %s (512x512xf32) 16,384 B), but a wormhole_b0 core's L1 holds 40,960 B: 8,192 B short; put tensors in DRAM interleaved

// spill-to-dram=true (the default) moves to DRAM the tensor whose move costs the least modelled
// time per L1 byte it frees (all three free 16,384 B a core): %r, read once, rather than %e, read
// twice (a DRAM tensor is written once and read at each use through DRAM instead of over the NoC).
// The simulator then peaks at two 16,384 B shards a core (%e and %s) and the check passes.
// SPILL: #[[L1:ttnn_layout[0-9]*]] = #ttnn.ttnn_layout<{{.*}}buffer_type<l1>
// SPILL: #[[DRAM:ttnn_layout[0-9]*]] = #ttnn.ttnn_layout<{{.*}}buffer_type<dram>, <interleaved>
// SPILL: %e = "ttnn.exp"({{.*}}) -> tensor<512x512xf32, #[[L1]]>
// SPILL: %r = "ttnn.relu"(%e) : (tensor<512x512xf32, #[[L1]]>) -> tensor<512x512xf32, #[[DRAM]]>
// SPILL: %s = "ttnn.add"({{.*}}) -> tensor<512x512xf32, #[[L1]]>
// EXEC: peak L1 a core: 32,768 B
// EXEC: check: result0 matches the golden run

// Without the check, the simulator runs out of L1 at the same op, short by the same bytes.
// SIM: pipelines-check-l1.mlir:[[# @LINE + 6]]:5: error: 'ttnn.add' op out of memory in the L1 of core (0, 0) of chip 0: a buffer needs 16,384 B there, but only 8,192 B are free in one block (8,192 B free of 40,960 B): 8,192 B missing
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<8x8, (d0, d1) -> (0, d0, d1)>, meshShape = 1x1, chipIds = [0]>,
                   tt.system_desc = #tt.system_desc<meshShape = 1x1, chipDescs = [#tt.chip_desc<arch = wormhole_b0, grid = 8x8, l1Size = 40960, dramBanks = 12, dramBankSize = 1073741824>], chipDescIndices = [0], chipCoords = [[0, 0]], links = []>} {
  func.func @main(%x: tensor<512x512xf32>) -> tensor<512x512xf32> {
    %e = "ttir.exp"(%x) : (tensor<512x512xf32>) -> tensor<512x512xf32>
    %r = "ttir.relu"(%e) : (tensor<512x512xf32>) -> tensor<512x512xf32>
    %s = "ttir.add"(%e, %r) : (tensor<512x512xf32>, tensor<512x512xf32>) -> tensor<512x512xf32>
    func.return %s : tensor<512x512xf32>
  }
}
