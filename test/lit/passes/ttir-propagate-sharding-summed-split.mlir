// RUN: meshc-opt %s --split-input-file -p 'tt-register-device{system=t3k mesh-shape=2,4},ttir-propagate-sharding' | filecheck %s
// RUN: meshc-run %s --split-input-file --check --report | filecheck %s --check-prefix=SIM
// RUN: meshc-run %s --split-input-file --check --report --pipeline 'ttir-to-ttmetal-pipeline{system=t3k mesh-shape=2,4}' | filecheck %s --check-prefix=SIM

// A row-parallel weight (K split over mesh axis 1) asks the activation it multiplies for K split
// alike, whatever the result is wished (here [S0, R], annotated): the K/V heads of grouped-query
// attention repeated by reshape -> broadcast -> reshape (jnp.repeat) keep their split through the
// broadcast, and the matmul leaves partial sums of its 32x16 f32 output (2 KiB a device),
// all_reduced over axis 1 at the result: a reduce-scatter and an all-gather each sending 3/4 of
// it out of every device, 8 x 2 x 1,536 = 24,576 B. Asking the broadcast for its result whole
// instead gathered its operand (3 pieces of 32x16 f32 into each device, 49,152 B) only to slice
// it again for the weight's split and all_reduce the same partial sums: 73,728 B.
// CHECK-LABEL: func.func @repeat_then_row_parallel
// CHECK: "ttir.broadcast"{{.*}}tt.shardings = [#tt.sharding<[S0, S1, R], mesh = 2x4>]
// CHECK: "ttir.reshape"{{.*}}tt.shardings = [#tt.sharding<[S0, S1], mesh = 2x4>]
// CHECK: "ttir.matmul"{{.*}}tt.shardings = [#tt.sharding<[S0, R] P(1), mesh = 2x4>]
// SIM-LABEL: module 0
// SIM: moved: ethernet 24,576 B
func.func @repeat_then_row_parallel(%k: tensor<64x64xf32> {tt.sharding = #tt.sharding<[S0, S1], mesh = 2x4>},
                                    %w: tensor<128x16xf32> {tt.sharding = #tt.sharding<[S1, R], mesh = 2x4>})
    -> (tensor<64x16xf32> {tt.sharding = #tt.sharding<[S0, R], mesh = 2x4>}) {
  %0 = "ttir.reshape"(%k) {shape = [64 : i32, 64 : i32, 1 : i32]} : (tensor<64x64xf32>) -> tensor<64x64x1xf32>
  %1 = "ttir.broadcast"(%0) : (tensor<64x64x1xf32>) -> tensor<64x64x2xf32>
  %2 = "ttir.reshape"(%1) {shape = [64 : i32, 128 : i32]} : (tensor<64x64x2xf32>) -> tensor<64x128xf32>
  %3 = "ttir.matmul"(%2, %w) : (tensor<64x128xf32>, tensor<128x16xf32>) -> tensor<64x16xf32>
  return %3 : tensor<64x16xf32>
}

// -----

// A weight split on K over an axis the wished result already uses keeps the plain wish: the
// result [S1, R] cannot also be partial over axis 1, so the activation is asked for [S1, R].
// CHECK-LABEL: func.func @axis_taken
// CHECK: "ttir.exp"{{.*}}tt.shardings = [#tt.sharding<[S1, R], mesh = 2x4>]
// SIM-LABEL: module 1
// SIM: check: result0 matches the golden run
func.func @axis_taken(%x: tensor<64x32xf32> {tt.sharding = #tt.sharding<[S1, R], mesh = 2x4>},
                      %w: tensor<32x64xf32> {tt.sharding = #tt.sharding<[S1, R], mesh = 2x4>})
    -> (tensor<64x64xf32> {tt.sharding = #tt.sharding<[S1, R], mesh = 2x4>}) {
  %0 = "ttir.exp"(%x) : (tensor<64x32xf32>) -> tensor<64x32xf32>
  %1 = "ttir.matmul"(%0, %w) : (tensor<64x32xf32>, tensor<32x64xf32>) -> tensor<64x64xf32>
  return %1 : tensor<64x64xf32>
}
