// ttir.linear's sharding rule: matmul's (M from a, N from b and the bias), and with a bias the
// contracting dim K stays whole: a device adding the bias to its partial product would put the
// bias once per device into the sum. Without a bias K is matmul's `sum` (partial sums).
// RUN: meshc-opt %s --split-input-file -p 'tt-register-device{system=t3k mesh-shape=2,4},ttir-propagate-sharding' | filecheck %s

// N split over mesh axis 1 in the weight and the bias: the result's columns split alike.
// CHECK-LABEL: func.func @column_parallel
// CHECK: "ttir.linear"{{.*}}tt.shardings = [#tt.sharding<[S0, S1], mesh = 2x4>]
func.func @column_parallel(%x: tensor<64x64xf32> {tt.sharding = #tt.sharding<[S0, R]>}, %w: tensor<64x128xf32> {tt.sharding = #tt.sharding<[R, S1]>}, %b: tensor<128xf32> {tt.sharding = #tt.sharding<[S1]>}) -> tensor<64x128xf32> {
  %0 = "ttir.linear"(%x, %w, %b) : (tensor<64x64xf32>, tensor<64x128xf32>, tensor<128xf32>) -> tensor<64x128xf32>
  return %0 : tensor<64x128xf32>
}

// -----

// K split on both sides with no bias: partial sums over axis 1, as matmul.
// CHECK-LABEL: func.func @row_parallel_no_bias
// CHECK: "ttir.linear"{{.*}}tt.shardings = [#tt.sharding<[S0, R] P(1), mesh = 2x4>]
func.func @row_parallel_no_bias(%x: tensor<64x128xf32> {tt.sharding = #tt.sharding<[S0, S1]>}, %w: tensor<128x64xf32> {tt.sharding = #tt.sharding<[S1, R]>}) -> tensor<64x64xf32> {
  %0 = "ttir.linear"(%x, %w) : (tensor<64x128xf32>, tensor<128x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

// The same with a bias: K is not left split (no partial sums in the result).
// CHECK-LABEL: func.func @row_parallel_bias
// CHECK: "ttir.linear"
// CHECK-NOT: P(1)
// CHECK: return
func.func @row_parallel_bias(%x: tensor<64x128xf32> {tt.sharding = #tt.sharding<[S0, S1]>}, %w: tensor<128x64xf32> {tt.sharding = #tt.sharding<[S1, R]>}, %b: tensor<64xf32>) -> tensor<64x64xf32> {
  %0 = "ttir.linear"(%x, %w, %b) : (tensor<64x128xf32>, tensor<128x64xf32>, tensor<64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}
