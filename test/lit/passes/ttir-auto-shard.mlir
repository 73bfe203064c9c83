// RUN: meshc-opt %s --split-input-file -p 'ttir-auto-shard{mesh-shape=1,4}' | filecheck %s

// A matmul of a large activation by a small weight on four chips: replicating x costs four
// host copies of 256 KiB, splitting its rows moves nothing between chips (each computes its
// rows with the whole 16x16 weight), so auto-shard splits x and the result by rows, and the
// estimate is below all-replicated's.
// CHECK-LABEL: func.func @rows
// CHECK-SAME: %x: tensor<4096x16xf32> {tt.sharding = #tt.sharding<[S1, R], mesh = 1x4>}
// CHECK-SAME: -> (tensor<4096x16xf32> {tt.sharding = #tt.sharding<[S1, R], mesh = 1x4>})
// CHECK-SAME: tt.auto_shard = {time_us = {{[0-9.e+]+}} : f64, link_bytes = {{[0-9]+}} : i64, replicated_time_us = {{[0-9.e+]+}} : f64}
func.func @rows(%x: tensor<4096x16xf32>, %w: tensor<16x16xf32>) -> tensor<4096x16xf32> {
  %0 = "ttir.matmul"(%x, %w) : (tensor<4096x16xf32>, tensor<16x16xf32>) -> tensor<4096x16xf32>
  return %0 : tensor<4096x16xf32>
}

// -----

// An annotated argument stays as written.
// CHECK-LABEL: func.func @kept
// CHECK-SAME: %x: tensor<64x64xf32> {tt.sharding = #tt.sharding<[R, R], mesh = 1x4>}
func.func @kept(%x: tensor<64x64xf32> {tt.sharding = #tt.sharding<[R, R]>}) -> tensor<64x64xf32> {
  %0 = "ttir.relu"(%x) : (tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}
