// RUN: meshc-opt %s -p 'ttir-to-ttnn-pipeline{memory-space=dram}' | filecheck %s
// RUN: not meshc-opt %s -p 'ttir-to-ttnn-pipeline{memory-space=dram memory-layout=sharded}' 2>&1 | filecheck %s --check-prefix=SHARDED

// memory-space=dram on the ttnn pipeline puts every device tensor in DRAM interleaved over the
// banks, as TTNN keeps DRAM tensors (before: the sharded default gave DRAM layouts an 8x8 grid,
// which TTNN cannot realise, and the pipeline failed). Asked for explicitly, a sharded DRAM grid
// is still refused, located.
// CHECK: #[[L:.*]] = #ttnn.ttnn_layout<tile<32x32>, f32, #ttnn.memory_config<#ttnn.buffer_type<dram>, <interleaved>>>
// CHECK-NOT: buffer_type<l1>
// CHECK: "ttnn.relu"
// CHECK-SAME: -> tensor<256x256xf32, #[[L]]>
// SHARDED: pipelines-memory-space-dram.mlir:[[# @LINE + 3]]:5: error: 'ttir.relu' op TTNN cannot realise the DRAM layout grid 8x8
module {
  func.func @main(%x: tensor<256x256xf32>) -> tensor<256x256xf32> {
    %y = "ttir.relu"(%x) : (tensor<256x256xf32>) -> tensor<256x256xf32>
    return %y : tensor<256x256xf32>
  }
}
