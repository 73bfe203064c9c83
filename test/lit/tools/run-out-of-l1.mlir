// RUN: not meshc-run %s --split-input-file 2>&1 | filecheck %s

// A shard larger than a core's L1 (1,499,136 B on wormhole_b0): 1024x512 f32 = 2,097,152 B on
// core (0, 0), 2,097,152 - 1,499,136 = 598,016 B too many. The error points at the op that
// allocates it.
// CHECK: run-out-of-l1.mlir:{{[0-9]+}}:5: error: 'ttnn.to_device' op {{.*}}2097152 B on core (0, 0){{.*}}598016 B short
module {
  func.func @main(%x: tensor<2048x512xf32>) -> tensor<2048x512xf32> {
    %d = "ttnn.get_device"() {mesh_shape = array<i64: 1, 1>} : () -> !ttnn.device
    %a = "ttnn.to_device"(%x, %d) {memory_config = #ttnn.memory_config<#ttnn.buffer_type<l1>, <height_sharded>, #ttnn.shard_spec<#ttnn.core_range_set<[#ttnn.core_range<(0, 0), (1, 0)>]>, <1024x512>, <row_major>>>} : (tensor<2048x512xf32>, !ttnn.device) -> tensor<2048x512xf32>
    %b = "ttnn.from_device"(%a) : (tensor<2048x512xf32>) -> tensor<2048x512xf32>
    func.return %b : tensor<2048x512xf32>
  }
}

// -----

// Each 256x512 f32 shard (524,288 B) fits a core's L1, but three live at once do not: the third
// allocation finds 450,560 B free on core (0, 0) (1,499,136 - 2 * 524,288), 73,728 B short.
// CHECK: run-out-of-l1.mlir:{{[0-9]+}}:5: error: 'ttnn.add' op out of memory in the L1 of core (0, 0) of chip 0: a buffer needs 524,288 B there, but only 450,560 B are free in one block (450,560 B free of 1,499,136 B): 73,728 B missing
module {
  func.func @main(%x: tensor<512x512xf32>) -> tensor<512x512xf32> {
    %d = "ttnn.get_device"() {mesh_shape = array<i64: 1, 1>} : () -> !ttnn.device
    %a = "ttnn.to_device"(%x, %d) {memory_config = #ttnn.memory_config<#ttnn.buffer_type<l1>, <height_sharded>, #ttnn.shard_spec<#ttnn.core_range_set<[#ttnn.core_range<(0, 0), (1, 0)>]>, <256x512>, <row_major>>>} : (tensor<512x512xf32>, !ttnn.device) -> tensor<512x512xf32>
    %e = "ttnn.exp"(%a) : (tensor<512x512xf32>) -> tensor<512x512xf32>
    %s = "ttnn.add"(%a, %e) : (tensor<512x512xf32>, tensor<512x512xf32>) -> tensor<512x512xf32>
    %b = "ttnn.from_device"(%s) : (tensor<512x512xf32>) -> tensor<512x512xf32>
    func.return %b : tensor<512x512xf32>
  }
}
