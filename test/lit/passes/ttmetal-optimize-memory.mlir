// RUN: meshc-opt %s -p 'ttir-to-ttmetal-pipeline' --split-input-file | filecheck %s
// RUN: meshc-opt %s -p 'ttir-to-ttmetal-pipeline{optimize-memory=false}' --split-input-file | filecheck %s --check-prefix=OFF
// RUN: meshc-opt %s -p 'ttir-to-ttmetal-pipeline' --split-input-file -o %t.mlir
// RUN: meshc-run %t.mlir --split-input-file --check --report | filecheck %s --check-prefix=REPORT

// ttmetal-optimize-memory, in the default ttmetal pipeline, chooses each mesh buffer's place.
// x (32x64 f32, two 32x32 tiles of 4,096 B side by side) is read whole by a matmul program on
// one core, (0, 0) (`select = ["y", "all"]` on a 1x1 grid). Lowered without the optimizer the
// arguments' buffers are DRAM interleaved: the program reads them through the banks. Block-
// sharded over cores (0, 0) and (0, 1) the tile on (0, 1) would cross the NoC; height-sharded
// over the chip x's one tile row sits on core (0, 0) alone: nothing crosses. Likewise w (64x32,
// one tile column, read `["all", "x"]`) width-sharded sits on core (0, 0).
// CHECK-LABEL: func.func @one_core
// CHECK: %[[W:.*]] = "ttmetal.create_buffer"() {memory_config = #ttnn.memory_config<#ttnn.buffer_type<l1>, <width_sharded>, #ttnn.shard_spec<#ttnn.core_range_set<[#ttnn.core_range<(0, 0), (7, 7)>]>, <64x32>, <row_major>>>, tile = array<i64: 32, 32>} : () -> !ttmetal.buffer<64x32xf32>
// CHECK: %[[X:.*]] = "ttmetal.create_buffer"() {memory_config = #ttnn.memory_config<#ttnn.buffer_type<l1>, <height_sharded>, #ttnn.shard_spec<#ttnn.core_range_set<[#ttnn.core_range<(0, 0), (7, 7)>]>, <32x64>, <row_major>>>, tile = array<i64: 32, 32>} : () -> !ttmetal.buffer<32x64xf32>
// CHECK: "ttmetal.enqueue_write_buffer"(%x, %[[X]]) {shard_dims = array<i64: -1, -1>} : (tensor<32x64xf32>, !ttmetal.buffer<32x64xf32>) -> ()
// OFF-LABEL: func.func @one_core
// OFF: "ttmetal.create_buffer"() {memory_config = #ttnn.memory_config<#ttnn.buffer_type<dram>, <interleaved>>, tile = array<i64: 32, 32>} : () -> !ttmetal.buffer<64x32xf32>
// OFF: "ttmetal.create_buffer"() {memory_config = #ttnn.memory_config<#ttnn.buffer_type<dram>, <interleaved>>, tile = array<i64: 32, 32>} : () -> !ttmetal.buffer<32x64xf32>
// REPORT: Where each device tensor sits and why
// REPORT: buffer 1 (32x64xf32, %x from the host): l1_height_sharded, 8,192 B a core on 1 core, {{[0-9.]+}} us: the least modelled time
// REPORT-NEXT: other places: l1_block_sharded {{[0-9.]+}} us
// REPORT: check: result0 matches the golden run
module {
  func.func @one_core(%x: tensor<32x64xf32>, %w: tensor<64x32xf32>) -> tensor<32x32xf32> {
    %h = "ttir.matmul"(%x, %w) : (tensor<32x64xf32>, tensor<64x32xf32>) -> tensor<32x32xf32>
    return %h : tensor<32x32xf32>
  }
}

// -----

// A chip whose cores hold 24,576 B of L1: one 512x512 f32 buffer in tiles, 16,384 B a core
// block-sharded over 8x8, fits; two do not (height- or width-sharded: 16 cores of 65,536 B, over
// the L1 alone). %e's buffer is read by three adds' programs; live beside it, the others (x, %r
// and each add's result) would overflow a core: the sweep moves each to DRAM interleaved, the
// move that adds the least time a byte freed first, and %e stays.
// CHECK-LABEL: func.func @small_l1
// CHECK: "ttmetal.create_buffer"() {memory_config = #ttnn.memory_config<#ttnn.buffer_type<dram>, <interleaved>>, tile = array<i64: 32, 32>}
// CHECK-NEXT: "ttmetal.enqueue_write_buffer"
// CHECK-NEXT: "ttmetal.create_buffer"() {memory_config = #ttnn.memory_config<#ttnn.buffer_type<l1>, <block_sharded>, #ttnn.shard_spec<#ttnn.core_range_set<[#ttnn.core_range<(0, 0), (7, 7)>]>, <64x64>, <row_major>>>, tile = array<i64: 32, 32>}
// CHECK-COUNT-4: "ttmetal.create_buffer"() {memory_config = #ttnn.memory_config<#ttnn.buffer_type<dram>, <interleaved>>, tile = array<i64: 32, 32>}
// CHECK-NOT: buffer_type<l1>
// REPORT: buffer 1 (512x512xf32, line {{[0-9]+}}): l1_block_sharded, 16,384 B a core on 64 cores, {{[0-9.]+}} us: the least modelled time
// REPORT: buffer 2 (512x512xf32, line {{[0-9]+}}): dram_interleaved, 90,112 B a DRAM bank, {{[0-9.]+}} us: the least modelled time of the options that fit: l1_block_sharded is faster but does not fit
// REPORT: check: result0 matches the golden run
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<8x8, (d0, d1) -> (0, d0, d1)>, meshShape = 1x1, chipIds = [0]>,
                   tt.system_desc = #tt.system_desc<meshShape = 1x1, chipDescs = [#tt.chip_desc<arch = wormhole_b0, grid = 8x8, l1Size = 24576, dramBanks = 12, dramBankSize = 1073741824>], chipDescIndices = [0], chipCoords = [[0, 0]], links = []>} {
  func.func @small_l1(%x: tensor<512x512xf32>) -> tensor<512x512xf32> {
    %e = "ttir.exp"(%x) : (tensor<512x512xf32>) -> tensor<512x512xf32>
    %r = "ttir.relu"(%x) : (tensor<512x512xf32>) -> tensor<512x512xf32>
    %c = "ttir.add"(%e, %r) : (tensor<512x512xf32>, tensor<512x512xf32>) -> tensor<512x512xf32>
    %d = "ttir.add"(%e, %c) : (tensor<512x512xf32>, tensor<512x512xf32>) -> tensor<512x512xf32>
    %f = "ttir.add"(%e, %d) : (tensor<512x512xf32>, tensor<512x512xf32>) -> tensor<512x512xf32>
    func.return %f : tensor<512x512xf32>
  }
}
