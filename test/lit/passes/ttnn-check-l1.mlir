// RUN: not meshc-opt %s --split-input-file -p ttnn-check-l1 2>&1 | filecheck %s
// RUN: meshc-opt %s --split-input-file -p 'ttnn-check-l1{spill-to-dram=true}' | filecheck %s --check-prefix=SPILL

// The L1 each core holds, op by op, from the placement model. On wormhole_b0 a core holds
// 1,499,136 B of L1.

// A 512x512 f32 tensor height-sharded over 2 cores is 256x512x4 = 524,288 B a core. %a, %e
// and %s are live together at the add (%a and %e are read by it): 3 x 524,288 = 1,572,864 B on
// core (0, 0), 73,728 B more than its L1. The error is at the op that allocates the third.
// CHECK: ttnn-check-l1.mlir:20:5: error: 'ttnn.add' op ttnn-check-l1: %s (512x512xf32) does not fit in L1: with it, core (0, 0) holds 1,572,864 B (%a (512x512xf32) 524,288 B, %e (512x512xf32) 524,288 B, %s (512x512xf32) 524,288 B), but a wormhole_b0 core's L1 holds 1,499,136 B: 73,728 B short; put tensors in DRAM interleaved ({{.*}}), or let the pass do it with ttnn-check-l1{{[{]}}spill-to-dram=true} (ttir-to-ttnn-pipeline{{[{]}}spill-to-dram=true})
// No move costs modelled time (from 2 cores the NoC is slower than DRAM) and all free the same bytes:
// the longest-lived (%a, read by both ops) goes to DRAM; %e and %s follow their operand's placement.
// SPILL-LABEL: func.func @three_live
// SPILL: %a = "ttnn.to_device"(%x, %d) {memory_config = #ttnn.memory_config<#ttnn.buffer_type<dram>, <interleaved>>}
module {
  func.func @three_live(%x: tensor<512x512xf32>) -> tensor<512x512xf32> {
    %d = "ttnn.get_device"() {mesh_shape = array<i64: 1, 1>} : () -> !ttnn.device
    %a = "ttnn.to_device"(%x, %d) {memory_config = #ttnn.memory_config<#ttnn.buffer_type<l1>, <height_sharded>, #ttnn.shard_spec<#ttnn.core_range_set<[#ttnn.core_range<(0, 0), (1, 0)>]>, <256x512>, <row_major>>>} : (tensor<512x512xf32>, !ttnn.device) -> tensor<512x512xf32>
    %e = "ttnn.exp"(%a) : (tensor<512x512xf32>) -> tensor<512x512xf32>
    %s = "ttnn.add"(%a, %e) : (tensor<512x512xf32>, tensor<512x512xf32>) -> tensor<512x512xf32>
    %b = "ttnn.from_device"(%s) : (tensor<512x512xf32>) -> tensor<512x512xf32>
    func.return %b : tensor<512x512xf32>
  }
}

// -----

// Buffers are freed after their last use: %e dies at the relu, so at most two 524,288 B shards
// are live on core (0, 0) (1,048,576 B): the program fits and is left as it is.
// CHECK-NOT: ttnn-check-l1.mlir:{{[0-9]+}}:{{[0-9]+}}: error: {{.*}}@chain
// SPILL-LABEL: func.func @chain
// SPILL: %a = "ttnn.to_device"(%x, %d) {memory_config = #ttnn.memory_config<#ttnn.buffer_type<l1>, <height_sharded>
// SPILL-NEXT: %e = "ttnn.exp"(%a) : (tensor<512x512xf32>) -> tensor<512x512xf32>
// SPILL-NEXT: %r = "ttnn.relu"(%e) : (tensor<512x512xf32>) -> tensor<512x512xf32>
module {
  func.func @chain(%x: tensor<512x512xf32>) -> tensor<512x512xf32> {
    %d = "ttnn.get_device"() {mesh_shape = array<i64: 1, 1>} : () -> !ttnn.device
    %a = "ttnn.to_device"(%x, %d) {memory_config = #ttnn.memory_config<#ttnn.buffer_type<l1>, <height_sharded>, #ttnn.shard_spec<#ttnn.core_range_set<[#ttnn.core_range<(0, 0), (1, 0)>]>, <256x512>, <row_major>>>} : (tensor<512x512xf32>, !ttnn.device) -> tensor<512x512xf32>
    %e = "ttnn.exp"(%a) : (tensor<512x512xf32>) -> tensor<512x512xf32>
    %r = "ttnn.relu"(%e) : (tensor<512x512xf32>) -> tensor<512x512xf32>
    %b = "ttnn.from_device"(%r) : (tensor<512x512xf32>) -> tensor<512x512xf32>
    func.return %b : tensor<512x512xf32>
  }
}

// -----

// One shard larger than a core's L1: 1024x512x4 = 2,097,152 B, 598,016 B too many. Spilled,
// the tensor is DRAM interleaved.
// CHECK: ttnn-check-l1.mlir:56:5: error: 'ttnn.to_device' op ttnn-check-l1: %a (2048x512xf32) does not fit in L1: {{.*}}2097152 B on core (0, 0){{.*}}598016 B short; put it in DRAM interleaved
// SPILL-LABEL: func.func @too_big
// SPILL: %a = "ttnn.to_device"(%x, %d) {memory_config = #ttnn.memory_config<#ttnn.buffer_type<dram>, <interleaved>>}
module {
  func.func @too_big(%x: tensor<2048x512xf32>) -> tensor<2048x512xf32> {
    %d = "ttnn.get_device"() {mesh_shape = array<i64: 1, 1>} : () -> !ttnn.device
    %a = "ttnn.to_device"(%x, %d) {memory_config = #ttnn.memory_config<#ttnn.buffer_type<l1>, <height_sharded>, #ttnn.shard_spec<#ttnn.core_range_set<[#ttnn.core_range<(0, 0), (1, 0)>]>, <1024x512>, <row_major>>>} : (tensor<2048x512xf32>, !ttnn.device) -> tensor<2048x512xf32>
    %b = "ttnn.from_device"(%a) : (tensor<2048x512xf32>) -> tensor<2048x512xf32>
    func.return %b : tensor<2048x512xf32>
  }
}

// CHECK-NOT: Traceback
