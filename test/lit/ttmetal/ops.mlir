// RUN: meshc-opt %s | filecheck %s
// RUN: meshc-opt %s --print-op-generic | meshc-opt | filecheck %s

// CHECK-LABEL: func.func @program
func.func @program(%x: tensor<64x128xf32>, %w: tensor<128x64xf32>) -> tensor<64x64xf32> {
  // CHECK: "ttmetal.create_buffer"() {memory_config = #ttnn.memory_config<#ttnn.buffer_type<dram>, <interleaved>>, tile = array<i64: 32, 32>} : () -> !ttmetal.buffer<64x128xf32>
  %a = "ttmetal.create_buffer"() {memory_config = #ttnn.memory_config<#ttnn.buffer_type<dram>, <interleaved>>, tile = array<i64: 32, 32>} : () -> !ttmetal.buffer<64x128xf32>
  %b = "ttmetal.create_buffer"() {memory_config = #ttnn.memory_config<#ttnn.buffer_type<dram>, <interleaved>>, tile = array<i64: 32, 32>} : () -> !ttmetal.buffer<128x64xf32>
  %c = "ttmetal.create_buffer"() {memory_config = #ttnn.memory_config<#ttnn.buffer_type<l1>, <block_sharded>, #ttnn.shard_spec<#ttnn.core_range_set<[#ttnn.core_range<(0, 0), (1, 1)>]>, <32x32>, <row_major>>>, tile = array<i64: 32, 32>} : () -> !ttmetal.buffer<64x64xf32>
  "ttmetal.enqueue_write_buffer"(%x, %a) {shard_dims = array<i64: -1>} : (tensor<64x128xf32>, !ttmetal.buffer<64x128xf32>) -> ()
  "ttmetal.enqueue_write_buffer"(%w, %b) {shard_dims = array<i64: -1>} : (tensor<128x64xf32>, !ttmetal.buffer<128x64xf32>) -> ()
  // CHECK: "ttmetal.enqueue_program"(%{{.*}}, %{{.*}}, %{{.*}}) ({
  // CHECK: "ttmetal.read_tiles"(%{{.*}}) {select = ["y", "all"]} : (!ttmetal.buffer<64x128xf32>) -> tensor<32x128xf32>
  // CHECK: "ttmetal.tile_matmul"
  // CHECK: "ttmetal.kernel_end"() : () -> ()
  // CHECK: }) {grid = array<i64: 2, 2>, core_map = affine_map<(d0, d1) -> (d1, d0)>}
  "ttmetal.enqueue_program"(%a, %b, %c) ({
  ^bb0(%0: !ttmetal.buffer<64x128xf32>, %1: !ttmetal.buffer<128x64xf32>, %2: !ttmetal.buffer<64x64xf32>):
    %3 = "ttmetal.read_tiles"(%0) {select = ["y", "all"]} : (!ttmetal.buffer<64x128xf32>) -> tensor<32x128xf32>
    %4 = "ttmetal.read_tiles"(%1) {select = ["all", "x"]} : (!ttmetal.buffer<128x64xf32>) -> tensor<128x32xf32>
    %5 = "ttmetal.tile_matmul"(%3, %4) : (tensor<32x128xf32>, tensor<128x32xf32>) -> tensor<32x32xf32>
    %6 = "ttmetal.tile_unary"(%5) {op = "relu"} : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %7 = "ttmetal.tile_reduce"(%6) {op = "max", dim = 1 : i64} : (tensor<32x32xf32>) -> tensor<32x1xf32>
    %8 = "ttmetal.tile_binary"(%6, %7) {op = "subtract"} : (tensor<32x32xf32>, tensor<32x1xf32>) -> tensor<32x32xf32>
    %9 = "ttmetal.tile_transpose"(%8) : (tensor<32x32xf32>) -> tensor<32x32xf32>
    "ttmetal.write_tiles"(%9, %2) {select = ["y", "x"]} : (tensor<32x32xf32>, !ttmetal.buffer<64x64xf32>) -> ()
    "ttmetal.kernel_end"() : () -> ()
  }) {grid = array<i64: 2, 2>, core_map = affine_map<(d0, d1) -> (d1, d0)>} : (!ttmetal.buffer<64x128xf32>, !ttmetal.buffer<128x64xf32>, !ttmetal.buffer<64x64xf32>) -> ()
  %d = "ttmetal.create_buffer"() {memory_config = #ttnn.memory_config<#ttnn.buffer_type<dram>, <interleaved>>} : () -> !ttmetal.buffer<64x64xf32>
  // CHECK: "ttmetal.enqueue_ccl"(%{{.*}}, %{{.*}}) {kind = "all_reduce", cluster_axis = 0 : ui32, reduce_type = #ttir.reduce_type<sum>}
  "ttmetal.enqueue_ccl"(%c, %d) {kind = "all_reduce", cluster_axis = 0 : ui32, reduce_type = #ttir.reduce_type<sum>} : (!ttmetal.buffer<64x64xf32>, !ttmetal.buffer<64x64xf32>) -> ()
  // CHECK: "ttmetal.enqueue_read_buffer"
  %r = "ttmetal.enqueue_read_buffer"(%d) {shard_dims = array<i64: -1>} : (!ttmetal.buffer<64x64xf32>) -> tensor<64x64xf32>
  "ttmetal.deallocate_buffer"(%a) : (!ttmetal.buffer<64x128xf32>) -> ()
  // CHECK: "ttmetal.finish"() : () -> ()
  "ttmetal.finish"() : () -> ()
  func.return %r : tensor<64x64xf32>
}
