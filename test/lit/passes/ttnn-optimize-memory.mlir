// RUN: meshc-opt %s -p 'ttir-to-ttnn-pipeline' --split-input-file | filecheck %s
// RUN: meshc-opt %s -p 'ttir-to-ttnn-pipeline{optimize-memory=false}' --split-input-file | filecheck %s --check-prefix=OFF

// ttnn-optimize-memory, in the default ttnn pipeline, chooses each device tensor's place.
// 32 x 262,144 bf16 in 32x32 tiles is one row of 8,192 tiles (16,777,216 B): block-sharded it
// takes at most 1x8 cores, 2,097,152 B each, and height-sharded one core, 16,777,216 B, over a
// wormhole_b0 core's 1,499,136 B; width-sharded over the 64 cores it is 32 x 4,096 x 2 =
// 262,144 B a core. %s and %r are width-sharded in L1 (the time model makes DRAM slower: every
// write and read of 16 MiB through the chip's 288 GB/s).
// CHECK-DAG: #[[W:ttnn_layout[0-9]*]] = #ttnn.ttnn_layout<tile<32x32>, bf16, #ttnn.memory_config<#ttnn.buffer_type<l1>, <width_sharded>, #ttnn.shard_spec<#ttnn.core_range_set<[#ttnn.core_range<(0, 0), (7, 7)>]>, <32x4096>, <row_major>>>>
// CHECK: %s = "ttnn.add"({{.*}}) -> tensor<32x262144xbf16, #[[W]]>
// CHECK: %r = "ttnn.relu"(%s) : (tensor<32x262144xbf16, #[[W]]>) -> tensor<32x262144xbf16, #[[W]]>
// Without the optimizer ttir-layout's block sharding does not fit and ttnn-check-l1 spills them
// to DRAM interleaved.
// OFF: #[[D:ttnn_layout[0-9]*]] = #ttnn.ttnn_layout<tile<32x32>, bf16, #ttnn.memory_config<#ttnn.buffer_type<dram>, <interleaved>>>
// OFF: %r = "ttnn.relu"(%s) : (tensor<32x262144xbf16, #[[D]]>) -> tensor<32x262144xbf16, #[[D]]>
module {
  func.func @main(%a: tensor<32x262144xbf16>, %b: tensor<32x262144xbf16>) -> tensor<32x262144xbf16> {
    %s = "ttir.add"(%a, %b) : (tensor<32x262144xbf16>, tensor<32x262144xbf16>) -> tensor<32x262144xbf16>
    %r = "ttir.relu"(%s) : (tensor<32x262144xbf16>) -> tensor<32x262144xbf16>
    return %r : tensor<32x262144xbf16>
  }
}

// -----

// A chip whose cores hold 24,576 B of L1: one 512x512 f32 tensor in tiles, 16,384 B a core
// block-sharded over 8x8, fits; two do not (height- or width-sharded: 16 cores of 65,536 B, over
// the L1 alone). %e is read by three adds, %r by one; live together they need 32,768 B a core.
// In DRAM %e would be written once and read three times, %r written once and read once: %r goes
// to DRAM, and so does each add's result, live with %e and read once after.
// CHECK-DAG: #[[B:ttnn_layout[0-9]*]] = #ttnn.ttnn_layout<tile<32x32>, f32, #ttnn.memory_config<#ttnn.buffer_type<l1>, <block_sharded>, #ttnn.shard_spec<#ttnn.core_range_set<[#ttnn.core_range<(0, 0), (7, 7)>]>, <64x64>, <row_major>>>>
// CHECK-DAG: #[[DR:ttnn_layout[0-9]*]] = #ttnn.ttnn_layout<tile<32x32>, f32, #ttnn.memory_config<#ttnn.buffer_type<dram>, <interleaved>>>
// CHECK: %e = "ttnn.exp"({{.*}}) -> tensor<512x512xf32, #[[B]]>
// CHECK: %r = "ttnn.relu"({{.*}}) -> tensor<512x512xf32, #[[DR]]>
// CHECK: %c = "ttnn.add"({{.*}}) -> tensor<512x512xf32, #[[DR]]>
// CHECK: %d = "ttnn.add"({{.*}}) -> tensor<512x512xf32, #[[DR]]>
// CHECK: %f = "ttnn.add"({{.*}}) -> tensor<512x512xf32, #[[DR]]>
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
