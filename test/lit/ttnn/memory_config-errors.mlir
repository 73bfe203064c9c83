// RUN: meshc-opt %s --split-input-file --verify-diagnostics
// RUN: not meshc-opt %s --split-input-file 2>&1 | filecheck %s

// Illegal memory attributes and tensors that do not fit their ttnn_layout: located errors
// that say what is wrong.

// expected-error @+1 {{expected one of l1, dram, system_memory for ttnn.buffer_type, got 'l2'}}
func.func @f() attributes {m = #ttnn.buffer_type<l2>} {
  func.return
}
// CHECK: memory_config-errors.mlir:8:50: error: expected one of l1, dram, system_memory for ttnn.buffer_type, got 'l2'

// -----

// expected-error @+1 {{expected one of interleaved, height_sharded, width_sharded, block_sharded, nd_sharded for ttnn.tensor_memory_layout, got 'diagonal'}}
func.func @f() attributes {m = #ttnn.memory_config<#ttnn.buffer_type<l1>, <diagonal>>} {
  func.return
}
// CHECK: memory_config-errors.mlir:16:{{[0-9]+}}: error: expected one of interleaved, {{.*}} got 'diagonal'

// -----

// expected-error @+1 {{a block_sharded memory config needs a #ttnn.shard_spec (cores, shard shape, orientation)}}
func.func @f() attributes {m = #ttnn.memory_config<#ttnn.buffer_type<l1>, <block_sharded>>} {
  func.return
}
// CHECK: memory_config-errors.mlir:24:32: error: invalid attribute '#ttnn.memory_config': a block_sharded memory config needs a #ttnn.shard_spec

// -----

// expected-error @+1 {{an interleaved memory config spreads pages over every bank: it takes no #ttnn.shard_spec}}
func.func @f() attributes {m = #ttnn.memory_config<#ttnn.buffer_type<dram>, <interleaved>, #ttnn.shard_spec<#ttnn.core_range_set<[#ttnn.core_range<(0, 0), (1, 1)>]>, <32x32>, <row_major>>>} {
  func.return
}
// CHECK: memory_config-errors.mlir:32:32: error: invalid attribute '#ttnn.memory_config': an interleaved memory config

// -----

// expected-error @+1 {{system_memory is host memory: it cannot be height_sharded; use l1 or dram}}
func.func @f() attributes {m = #ttnn.memory_config<#ttnn.buffer_type<system_memory>, <height_sharded>, #ttnn.shard_spec<#ttnn.core_range_set<[#ttnn.core_range<(0, 0), (1, 1)>]>, <32x32>, <row_major>>>} {
  func.return
}
// CHECK: memory_config-errors.mlir:40:32: error: invalid attribute '#ttnn.memory_config': system_memory is host memory

// -----

// expected-error @+1 {{core ranges (0, 0)-(1, 1) and (1, 1)-(2, 2) overlap; the ranges of a set must be disjoint}}
func.func @f() attributes {m = #ttnn.core_range_set<[#ttnn.core_range<(0, 0), (1, 1)>, #ttnn.core_range<(1, 1), (2, 2)>]>} {
  func.return
}
// CHECK: memory_config-errors.mlir:48:32: error: invalid attribute '#ttnn.core_range_set': core ranges (0, 0)-(1, 1) and (1, 1)-(2, 2) overlap

// -----

// expected-error @+1 {{core range (2, 2)-(1, 1) is empty: its end must not lie above or left of its start}}
func.func @f() attributes {m = #ttnn.core_range<(2, 2), (1, 1)>} {
  func.return
}
// CHECK: memory_config-errors.mlir:56:32: error: invalid attribute '#ttnn.core_range': core range (2, 2)-(1, 1) is empty

// -----

// expected-error @+1 {{shard shape 32x0 must have positive extents}}
func.func @f() attributes {m = #ttnn.shard_spec<#ttnn.core_range_set<[#ttnn.core_range<(0, 0), (1, 1)>]>, <32x0>, <row_major>>} {
  func.return
}
// CHECK: memory_config-errors.mlir:64:32: error: invalid attribute '#ttnn.shard_spec': shard shape 32x0 must have positive extents

// -----

// expected-error @+1 {{block sharding needs a single rectangle of cores}}
func.func @f() attributes {m = #ttnn.memory_config<#ttnn.buffer_type<l1>, <block_sharded>, #ttnn.shard_spec<#ttnn.core_range_set<[#ttnn.core_range<(0, 0), (0, 0)>, #ttnn.core_range<(1, 1), (1, 1)>]>, <32x32>, <row_major>>>} {
  func.return
}
// CHECK: memory_config-errors.mlir:72:32: error: invalid attribute '#ttnn.memory_config': block sharding needs a single rectangle of cores

// -----

// The shard spec does not fit the grid: 4x4 shards of one tile need a 4x4 core grid.
// expected-error @+1 {{does not fit its #ttnn.ttnn_layout: block sharding cuts the 4x4-page tensor into 4x4 shards of 1x1 pages (shard shape 32x32); a row_major shard grid needs 4x4 cores but the core grid (0, 0)-(1, 1) is 2x2}}
func.func @f(%arg0: tensor<128x128xbf16, #ttnn.ttnn_layout<tile<32x32>, bf16, #ttnn.memory_config<#ttnn.buffer_type<l1>, <block_sharded>, #ttnn.shard_spec<#ttnn.core_range_set<[#ttnn.core_range<(0, 0), (1, 1)>]>, <32x32>, <row_major>>>>>) {
  func.return
}
// CHECK: memory_config-errors.mlir:81:1: error: 'func.func' op tensor<128x128xbf16> does not fit its #ttnn.ttnn_layout: block sharding cuts

// -----

// The shard spec does not fit the tensor: height shards keep whole rows.
// expected-error @+1 {{height sharding keeps whole rows: the shard width must be the tensor width 64 (padded to tiles); got shard shape 32x32}}
func.func @f(%arg0: tensor<64x64xbf16, #ttnn.ttnn_layout<tile<32x32>, bf16, #ttnn.memory_config<#ttnn.buffer_type<l1>, <height_sharded>, #ttnn.shard_spec<#ttnn.core_range_set<[#ttnn.core_range<(0, 0), (0, 1)>]>, <32x32>, <row_major>>>>>) {
  func.return
}
// CHECK: memory_config-errors.mlir:90:1: error: 'func.func' op tensor<64x64xbf16> does not fit its #ttnn.ttnn_layout: height sharding keeps whole rows

// -----

// expected-error @+1 {{shard shape 32x48 is not a whole number of 32x32 tiles}}
func.func @f(%arg0: tensor<64x96xbf16, #ttnn.ttnn_layout<tile<32x32>, bf16, #ttnn.memory_config<#ttnn.buffer_type<l1>, <block_sharded>, #ttnn.shard_spec<#ttnn.core_range_set<[#ttnn.core_range<(0, 0), (1, 1)>]>, <32x48>, <row_major>>>>>) {
  func.return
}
// CHECK: memory_config-errors.mlir:98:1: error: {{.*}} shard shape 32x48 is not a whole number of 32x32 tiles

// -----

// Too many shards for the cores of the set.
// expected-error @+1 {{height sharded cuts the tensor into 8 shards of shard shape 32x32 but the core range set {(0, 0)-(0, 1)} has only 2 cores}}
func.func @f(%arg0: tensor<256x32xf32, #ttnn.ttnn_layout<tile<32x32>, f32, #ttnn.memory_config<#ttnn.buffer_type<l1>, <height_sharded>, #ttnn.shard_spec<#ttnn.core_range_set<[#ttnn.core_range<(0, 0), (0, 1)>]>, <32x32>, <row_major>>>>>) {
  func.return
}
// CHECK: memory_config-errors.mlir:107:1: error: {{.*}} 8 shards {{.*}} has only 2 cores

// -----

// A core outside the chip's worker grid.
// expected-error @+1 {{core (8, 0) lies outside the 8x8 worker grid of wormhole_b0}}
func.func @f(%arg0: tensor<64x64xbf16, #ttnn.ttnn_layout<tile<32x32>, bf16, #ttnn.memory_config<#ttnn.buffer_type<l1>, <height_sharded>, #ttnn.shard_spec<#ttnn.core_range_set<[#ttnn.core_range<(8, 0), (8, 1)>]>, <32x64>, <row_major>>>>>) {
  func.return
}
// CHECK: memory_config-errors.mlir:116:1: error: {{.*}} core (8, 0) lies outside the 8x8 worker grid

// -----

// Capacity: one 1024x384 f32 shard is 1572864 B; a wormhole_b0 core has 1499136 B of L1.
// expected-error @+1 {{needs 1572864 B on core (0, 0), but the L1 of a wormhole_b0 core holds 1499136 B: 73728 B short}}
func.func @f(%arg0: tensor<1024x384xf32, #ttnn.ttnn_layout<tile<32x32>, f32, #ttnn.memory_config<#ttnn.buffer_type<l1>, <height_sharded>, #ttnn.shard_spec<#ttnn.core_range_set<[#ttnn.core_range<(0, 0), (0, 0)>]>, <1024x384>, <row_major>>>>>) {
  func.return
}
// CHECK: memory_config-errors.mlir:125:1: error: {{.*}} 73728 B short

// -----

// expected-error @+1 {{bfp_bf8 is a block float, stored in tiles: a row_major layout cannot hold it}}
func.func @f(%arg0: tensor<64x64xbf16, #ttnn.ttnn_layout<row_major, bfp_bf8, #ttnn.memory_config<#ttnn.buffer_type<dram>, <interleaved>>>>) {
  func.return
}
// CHECK: memory_config-errors.mlir:133:{{[0-9]+}}: error: invalid attribute '#ttnn.ttnn_layout': bfp_bf8 is a block float

// -----

// expected-error @+1 {{tile shape 64x64 is not supported; expected one of 32x32, 16x32, 32x16, 16x16, 8x32, 4x32, 2x32, 1x32}}
func.func @f(%arg0: tensor<64x64xbf16, #ttnn.ttnn_layout<tile<64x64>, bf16, #ttnn.memory_config<#ttnn.buffer_type<dram>, <interleaved>>>>) {
  func.return
}
// CHECK: memory_config-errors.mlir:141:{{[0-9]+}}: error: invalid attribute '#ttnn.ttnn_layout': tile shape 64x64 is not supported

// -----

// expected-error @+1 {{tensor<64x64xi32> cannot be stored as bf16: an integer tensor needs an integer data type in its ttnn_layout}}
func.func @f(%arg0: tensor<64x64xi32, #ttnn.ttnn_layout<tile<32x32>, bf16, #ttnn.memory_config<#ttnn.buffer_type<dram>, <interleaved>>>>) {
  func.return
}
// CHECK: memory_config-errors.mlir:149:1: error: 'func.func' op tensor<64x64xi32> cannot be stored as bf16

// -----

// expected-error @+1 {{unknown data type 'bf17'}}
func.func @f(%arg0: tensor<64x64xbf16, #ttnn.ttnn_layout<tile<32x32>, bf17, #ttnn.memory_config<#ttnn.buffer_type<dram>, <interleaved>>>>) {
  func.return
}
// CHECK: memory_config-errors.mlir:157:{{[0-9]+}}: error: invalid attribute '#ttnn.ttnn_layout': unknown data type 'bf17'

// -----

// expected-error @+1 {{a ttnn_layout starts with tile<RxC> or row_major}}
func.func @f(%arg0: tensor<64x64xbf16, #ttnn.ttnn_layout<tiled, bf16, #ttnn.memory_config<#ttnn.buffer_type<dram>, <interleaved>>>>) {
  func.return
}
// CHECK: memory_config-errors.mlir:165:{{[0-9]+}}: error: a ttnn_layout starts with tile<RxC> or row_major
