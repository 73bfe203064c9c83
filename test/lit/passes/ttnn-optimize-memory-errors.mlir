// RUN: not meshc-opt %s -p ttnn-optimize-memory 2>&1 | filecheck %s

// Tensors read as the very buffer they are (a to_memory_config that changes nothing) keep their
// place. Here two such 512x512 f32 tensors, row-major and block-sharded over 8x8 cores in 64x64
// shards (64 x 64 x 4 = 16,384 B a core), are live together on a chip whose cores hold 24,576 B:
// 32,768 B at %b's op, and neither may move. The error is located at %b.
// CHECK: ttnn-optimize-memory-errors.mlir:[[# @LINE + 8]]:5: error: 'ttnn.to_device' op ttnn-optimize-memory: %b (512x512xf32) does not fit in L1: core (0, 0) holds 32,768 B at step 3, over its 24,576 B, and no tensor live there can move; put one of the tensors live there in DRAM
#block = #ttnn.memory_config<#ttnn.buffer_type<l1>, <block_sharded>, #ttnn.shard_spec<#ttnn.core_range_set<[#ttnn.core_range<(0, 0), (7, 7)>]>, <64x64>, <row_major>>>
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<8x8, (d0, d1) -> (0, d0, d1)>, meshShape = 1x1, chipIds = [0]>,
                   tt.system_desc = #tt.system_desc<meshShape = 1x1, chipDescs = [#tt.chip_desc<arch = wormhole_b0, grid = 8x8, l1Size = 24576, dramBanks = 12, dramBankSize = 1073741824>], chipDescIndices = [0], chipCoords = [[0, 0]], links = []>} {
  func.func @main(%x: tensor<512x512xf32>) -> tensor<512x512xf32> {
    %d = "ttnn.get_device"() {mesh_shape = array<i64: 1, 1>} : () -> !ttnn.device
    %a = "ttnn.to_device"(%x, %d) {memory_config = #block} : (tensor<512x512xf32>, !ttnn.device) -> tensor<512x512xf32>
    %a2 = "ttnn.to_memory_config"(%a) {memory_config = #block} : (tensor<512x512xf32>) -> tensor<512x512xf32>
    %b = "ttnn.to_device"(%x, %d) {memory_config = #block} : (tensor<512x512xf32>, !ttnn.device) -> tensor<512x512xf32>
    %b2 = "ttnn.to_memory_config"(%b) {memory_config = #block} : (tensor<512x512xf32>) -> tensor<512x512xf32>
    %s = "ttnn.add"(%a2, %b2) : (tensor<512x512xf32>, tensor<512x512xf32>) -> tensor<512x512xf32>
    %h = "ttnn.from_device"(%s) : (tensor<512x512xf32>) -> tensor<512x512xf32>
    func.return %h : tensor<512x512xf32>
  }
}
