// RUN: meshc-opt %s | filecheck %s
// RUN: meshc-opt %s | meshc-opt | filecheck %s
// RUN: meshc-opt %s --no-aliases | meshc-opt --no-aliases | filecheck %s --check-prefix=INLINE

// The memory attributes print as they parse, and survive a round trip.

// CHECK-DAG: #ttnn_layout{{[0-9]*}} = #ttnn.ttnn_layout<tile<32x32>, bf16, #ttnn.memory_config<#ttnn.buffer_type<l1>, <block_sharded>, #ttnn.shard_spec<#ttnn.core_range_set<[#ttnn.core_range<(0, 0), (1, 1)>]>, <64x64>, <row_major>>>>
// CHECK-DAG: #ttnn_layout{{[0-9]*}} = #ttnn.ttnn_layout<row_major, f32, #ttnn.memory_config<#ttnn.buffer_type<dram>, <interleaved>>>
// CHECK-DAG: #ttnn_layout{{[0-9]*}} = #ttnn.ttnn_layout<tile<16x32>, bfp_bf8, #ttnn.memory_config<#ttnn.buffer_type<l1>, <height_sharded>, #ttnn.shard_spec<#ttnn.core_range_set<[#ttnn.core_range<(0, 0), (0, 1)>, #ttnn.core_range<(3, 4), (3, 5)>]>, <32x64>, <col_major>>>>
// CHECK-DAG: #ttnn_layout{{[0-9]*}} = #ttnn.ttnn_layout<tile<32x32>, bf16, #ttnn.memory_config<#ttnn.buffer_type<l1>, <nd_sharded>, #ttnn.shard_spec<#ttnn.core_range_set<[#ttnn.core_range<(0, 0), (0, 2)>]>, <1x64x32>, <row_major>>>>

// Figure 4 of TT-Metal's Tensor and Memory Layouts report: 128x128 in 32x32 tiles, 2x2-page shards on a 2x2 core grid.
func.func @block(%arg0: tensor<128x128xbf16, #ttnn.ttnn_layout<tile<32x32>, bf16, #ttnn.memory_config<#ttnn.buffer_type<l1>, <block_sharded>, #ttnn.shard_spec<#ttnn.core_range_set<[#ttnn.core_range<(0, 0), (1, 1)>]>, <64x64>, <row_major>>>>>) {
  func.return
}
// INLINE: func.func @block(%arg0: tensor<128x128xbf16, #ttnn.ttnn_layout<tile<32x32>, bf16, #ttnn.memory_config<#ttnn.buffer_type<l1>, <block_sharded>, #ttnn.shard_spec<#ttnn.core_range_set<[#ttnn.core_range<(0, 0), (1, 1)>]>, <64x64>, <row_major>>>>>)

func.func @dram_row_major(%arg0: tensor<64x64xf32, #ttnn.ttnn_layout<row_major, f32, #ttnn.memory_config<#ttnn.buffer_type<dram>, <interleaved>>>>) {
  func.return
}

// A core range set of two rectangles, col-major, a block float stored in 16x32 tiles.
func.func @two_ranges(%arg0: tensor<128x64xbf16, #ttnn.ttnn_layout<tile<16x32>, bfp_bf8, #ttnn.memory_config<#ttnn.buffer_type<l1>, <height_sharded>, #ttnn.shard_spec<#ttnn.core_range_set<[#ttnn.core_range<(0, 0), (0, 1)>, #ttnn.core_range<(3, 4), (3, 5)>]>, <32x64>, <col_major>>>>>) {
  func.return
}

// ND sharding over three cores.
func.func @nd(%arg0: tensor<4x64x64xbf16, #ttnn.ttnn_layout<tile<32x32>, bf16, #ttnn.memory_config<#ttnn.buffer_type<l1>, <nd_sharded>, #ttnn.shard_spec<#ttnn.core_range_set<[#ttnn.core_range<(0, 0), (0, 2)>]>, <1x64x32>, <row_major>>>>>) {
  func.return
}

// The attributes on their own.
// CHECK: func.func @attrs() attributes {b = #ttnn.buffer_type<system_memory>, l = #ttnn.tensor_memory_layout<width_sharded>, o = #ttnn.shard_orientation<col_major>, m = #ttnn.memory_config<#ttnn.buffer_type<system_memory>, <interleaved>>, r = #ttnn.core_range<(1, 2), (3, 4)>}
func.func @attrs() attributes {b = #ttnn.buffer_type<system_memory>, l = #ttnn.tensor_memory_layout<width_sharded>, o = #ttnn.shard_orientation<col_major>, m = #ttnn.memory_config<#ttnn.buffer_type<system_memory>, <interleaved>>, r = #ttnn.core_range<(1, 2), (3, 4)>} {
  func.return
}
