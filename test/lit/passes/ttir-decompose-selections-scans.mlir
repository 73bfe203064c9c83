// ttir-decompose-selections on the scans TTMetal has no kernel for: a reverse cumsum (a matmul by
// the lower-triangular 0/1 matrix) and a cumprod, forward and reversed (ceil(log2 n) steps, each
// multiplying by the elements 1, 2, 4, ... places before, or after, with 1 past the end). Values
// by hand: the products of [1, 2, 3, 4] are [1, 2, 6, 24] forward and [24, 24, 12, 4] reversed;
// the reverse sums of [1, 2, 3, 4] are [10, 9, 7, 4].
// RUN: meshc-opt %s --split-input-file -p ttir-decompose-selections | filecheck %s
// RUN: meshc-run %s --split-input-file --pipeline 'ttir-to-ttmetal-pipeline' --target ttmetal --check | filecheck %s --check-prefix=METAL

// CHECK-LABEL: func.func @reverse_cumsum
// CHECK: %[[L:.*]] = "ttir.constant"() {value = dense<{{\[\[}}1.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00], [1.000000e+00, 1.000000e+00, 0.000000e+00, 0.000000e+00], [1.000000e+00, 1.000000e+00, 1.000000e+00, 0.000000e+00], [1.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00]]> : tensor<4x4xf32>}
// CHECK: "ttir.matmul"(%{{.*}}, %[[L]]) : (tensor<1x4xf32>, tensor<4x4xf32>) -> tensor<1x4xf32>
// CHECK-NOT: ttir.cumsum
// METAL: result0: 1x4 float32 {{.*}} [10, 9, 7, 4]
// METAL: check: result0: 0 of 4 elements differ
func.func @reverse_cumsum() -> tensor<1x4xf32> {
  %x = "ttir.constant"() {value = dense<[[1.0, 2.0, 3.0, 4.0]]> : tensor<1x4xf32>} : () -> tensor<1x4xf32>
  %0 = "ttir.cumsum"(%x) {dim = 1 : i64, reverse = true} : (tensor<1x4xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

// Forward: step 1 multiplies by [1, x0, x1, x2] (a slice of the first 3 after a column of ones),
// step 2 by [1, 1, y0, y1]; reversed, the last n - s elements joined before the ones.
// CHECK-LABEL: func.func @cumprod
// CHECK: %[[A:.*]] = "ttir.slice"(%[[X:.*]]) {begins = [0 : i32, 0 : i32], ends = [1 : i32, 3 : i32], step = [1 : i32, 1 : i32]} : (tensor<1x4xi32>) -> tensor<1x3xi32>
// CHECK: %[[S1:.*]] = "ttir.concat"(%{{.*}}, %[[A]]) {dim = 1 : si32} : (tensor<1x1xi32>, tensor<1x3xi32>) -> tensor<1x4xi32>
// CHECK: %[[Y1:.*]] = "ttir.multiply"(%[[X]], %[[S1]])
// CHECK: %[[B:.*]] = "ttir.slice"(%[[Y1]]) {begins = [0 : i32, 0 : i32], ends = [1 : i32, 2 : i32], step = [1 : i32, 1 : i32]} : (tensor<1x4xi32>) -> tensor<1x2xi32>
// CHECK: %[[S2:.*]] = "ttir.concat"(%{{.*}}, %[[B]]) {dim = 1 : si32} : (tensor<1x2xi32>, tensor<1x2xi32>) -> tensor<1x4xi32>
// CHECK: "ttir.multiply"(%[[Y1]], %[[S2]])
// CHECK: %[[C:.*]] = "ttir.slice"(%[[X]]) {begins = [0 : i32, 1 : i32], ends = [1 : i32, 4 : i32], step = [1 : i32, 1 : i32]} : (tensor<1x4xi32>) -> tensor<1x3xi32>
// CHECK: "ttir.concat"(%[[C]], %{{.*}}) {dim = 1 : si32} : (tensor<1x3xi32>, tensor<1x1xi32>) -> tensor<1x4xi32>
// CHECK-NOT: ttir.cumprod
// METAL: result0: 1x4 int32 {{.*}} [1, 2, 6, 24]
// METAL: result1: 1x4 int32 {{.*}} [24, 24, 12, 4]
// METAL: check: result0: 0 of 4 elements differ
// METAL: check: result1: 0 of 4 elements differ
func.func @cumprod() -> (tensor<1x4xi32>, tensor<1x4xi32>) {
  %x = "ttir.constant"() {value = dense<[[1, 2, 3, 4]]> : tensor<1x4xi32>} : () -> tensor<1x4xi32>
  %0 = "ttir.cumprod"(%x) {dim = 1 : i64} : (tensor<1x4xi32>) -> tensor<1x4xi32>
  %1 = "ttir.cumprod"(%x) {dim = 1 : i64, reverse = true} : (tensor<1x4xi32>) -> tensor<1x4xi32>
  return %0, %1 : tensor<1x4xi32>, tensor<1x4xi32>
}
