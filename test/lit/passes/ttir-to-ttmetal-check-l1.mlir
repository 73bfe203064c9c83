// RUN: not meshc-opt %s --split-input-file -p 'ttir-to-ttmetal-pipeline{spill-to-dram=false}' 2>&1 | filecheck %s
// RUN: not meshc-opt %s --split-input-file -p 'ttir-to-ttnn-pipeline{spill-to-dram=false}' 2>&1 | filecheck %s --check-prefix=TTNN
// RUN: not meshc-opt %s --split-input-file -p 'ttir-to-ttmetal-pipeline{spill-to-dram=true}' 2>&1 | filecheck %s --check-prefix=SPILL

// The ttmetal pipeline checks L1 at compile time with the ttnn pipeline's check (ttnn-check-l1,
// over the mesh buffers from create_buffer to deallocate_buffer): both refuse the same programs.
// It used to lower them all, leaving the over-L1 ones to fail at run time and the 10^18-element
// one to the simulator's size guard.
//
// A 8192x8192 f32 tensor block-sharded over 8x8 cores: a 1024x1024 f32 shard is 4,194,304 B, and
// a wormhole_b0 core's L1 holds 1,499,136 B (2,695,168 B short): it fits only in DRAM.
// CHECK: ttir-to-ttmetal-check-l1.mlir:[[# @LINE + 4]]:3: error: 'ttmetal.create_buffer' op ttnn-check-l1: result 0 of 'ttmetal.create_buffer' (8192x8192xf32) does not fit in L1: block sharded 8192x8192xf32 needs 4194304 B on core (0, 0), but the L1 of a wormhole_b0 core holds 1499136 B: 2695168 B short
// TTNN: ttir-to-ttmetal-check-l1.mlir:[[# @LINE + 3]]:3: error: 'ttnn.relu' op ttnn-check-l1: result 0 of 'ttnn.relu' (8192x8192xf32) does not fit in L1: block sharded 8192x8192xf32 needs 4194304 B on core (0, 0), but the L1 of a wormhole_b0 core holds 1499136 B: 2695168 B short
// SPILL: func.func @over_l1
func.func @over_l1(%x: tensor<8192x8192xf32>) -> tensor<8192x8192xf32> {
  %0 = "ttir.relu"(%x) : (tensor<8192x8192xf32>) -> tensor<8192x8192xf32>
  func.return %0 : tensor<8192x8192xf32>
}

// -----

// 10^18 elements: 10^18 / 1024 elements a 32x32 tile = 976,562,500,000,000 pages.
// CHECK: ttir-to-ttmetal-check-l1.mlir:[[# @LINE + 3]]:3: error: 'ttmetal.create_buffer' op ttnn-check-l1: result 0 of 'ttmetal.create_buffer' (1000000000x1000000000xf32) cannot be placed: tensor 1000000000x1000000000 has 976562500000000 pages, more than meshc handles (4194304, meshc.layout.limits.MAX_PAGES)
// TTNN: ttir-to-ttmetal-check-l1.mlir:[[# @LINE + 2]]:3: error: 'ttnn.relu' op ttnn-check-l1: result 0 of 'ttnn.relu' (1000000000x1000000000xf32) cannot be placed: tensor 1000000000x1000000000 has 976562500000000 pages
func.func @huge(%x: tensor<1000000000x1000000000xf32>) -> tensor<1000000000x1000000000xf32> {
  %0 = "ttir.relu"(%x) : (tensor<1000000000x1000000000xf32>) -> tensor<1000000000x1000000000xf32>
  func.return %0 : tensor<1000000000x1000000000xf32>
}

// -----

// Two 4096x4096 f32 tensors live at once in L1: 512x512 f32 = 1,048,576 B a core each, 2,097,152
// B together, 598,016 B over a core's 1,499,136 B. With spill-to-dram=true the check moves buffers
// to DRAM interleaved until it fits (meshc-run --check runs the result: docs/passes.md).
// CHECK: ttir-to-ttmetal-check-l1.mlir:[[# @LINE + 11]]:3: error: 'ttmetal.create_buffer' op ttnn-check-l1: result 0 of 'ttmetal.create_buffer' (4096x4096xf32) does not fit in L1: with it, core (0, 0) holds 2,097,152 B (result 0 of 'ttmetal.create_buffer' (4096x4096xf32) 1,048,576 B, result 0 of 'ttmetal.create_buffer' (4096x4096xf32) 1,048,576 B), but a wormhole_b0 core's L1 holds 1,499,136 B: 598,016 B short
// The input's buffer is DRAM interleaved in any case. The spill moves what costs the least modelled
// time per L1 byte freed: relu's buffer, read by both exp and add, stays in L1; exp's and add's
// (read once each) move to DRAM.
// SPILL-LABEL: func.func @two_live
// SPILL: "ttmetal.create_buffer"() {memory_config = #ttnn.memory_config<#ttnn.buffer_type<dram>, <interleaved>>
// SPILL: "ttmetal.create_buffer"() {memory_config = #ttnn.memory_config<#ttnn.buffer_type<l1>, <block_sharded>
// SPILL-COUNT-2: "ttmetal.create_buffer"() {memory_config = #ttnn.memory_config<#ttnn.buffer_type<dram>, <interleaved>>
// SPILL-NOT: buffer_type<l1>
func.func @two_live(%x: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %0 = "ttir.relu"(%x) : (tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  %1 = "ttir.exp"(%0) : (tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  %2 = "ttir.add"(%0, %1) : (tensor<4096x4096xf32>, tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  func.return %2 : tensor<4096x4096xf32>
}
