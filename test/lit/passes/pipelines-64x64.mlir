// RUN: meshc-opt %s -p 'ttir-to-ttnn-pipeline{mesh-shape=64,64 spill-to-dram=true}' | filecheck %s

// A global-view Megatron MLP lowered for a 64x64 mesh (4096 devices): the sharding passes cost
// every candidate reshard with the planner, which counts bytes without planning moves device by
// device, so this finishes in seconds (it ran past 300 s and 2 GB before; bench/scale.py times it).
// Column- then row-parallel: no movement until the partial sums of the second matmul, which one
// all_reduce along each row of chips (cluster_axis 1) adds up.
// CHECK: "ttnn.get_device"() {mesh_shape = array<i64: 64, 64>
// CHECK: "ttnn.matmul"
// CHECK-SAME: -> tensor<2x4xf32
// CHECK: "ttnn.gelu"
// CHECK: "ttnn.matmul"
// CHECK-SAME: -> tensor<2x128xf32
// CHECK: "ttnn.all_reduce"
// CHECK-SAME: cluster_axis = 1 : ui32
// CHECK: "ttnn.aggregate_tensor"
module {
  func.func @main(%x: tensor<128x128xf32> {tt.sharding = #tt.sharding<[S0, R]>},
                  %w1: tensor<128x256xf32> {tt.sharding = #tt.sharding<[R, S1]>},
                  %w2: tensor<256x128xf32> {tt.sharding = #tt.sharding<[S1, R]>}) -> (tensor<128x128xf32> {tt.sharding = #tt.sharding<[S0, R]>}) {
    %h = "ttir.matmul"(%x, %w1) : (tensor<128x128xf32>, tensor<128x256xf32>) -> tensor<128x256xf32>
    %g = "ttir.gelu"(%h) : (tensor<128x256xf32>) -> tensor<128x256xf32>
    %y = "ttir.matmul"(%g, %w2) : (tensor<128x256xf32>, tensor<256x128xf32>) -> tensor<128x128xf32>
    return %y : tensor<128x128xf32>
  }
}
