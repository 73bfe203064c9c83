// ttir-decompose-selections: cumsum, argmax, argmin, top_k and top_k_indices written with the ops
// TTMetal has kernels for (ttir-to-ttmetal-pipeline runs it after ttir-partition), run on TTMetal
// against the golden run of the ops themselves (numpy's cumsum, argmax, argmin, stable sort).
// RUN: meshc-opt %s --split-input-file -p ttir-decompose-selections | filecheck %s
// RUN: meshc-run %s --split-input-file --pipeline 'ttir-to-ttmetal-pipeline' --target ttmetal --check | filecheck %s --check-prefix=METAL

// cumsum along the last dim: a matmul by the 4x4 upper-triangular 0/1 matrix; along dim 0, the
// dim moved last by a permute and back.
// CHECK-LABEL: func.func @cumsum
// CHECK: %[[U:.*]] = "ttir.constant"() {value = dense<{{\[\[}}1.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00], [0.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00], [0.000000e+00, 0.000000e+00, 1.000000e+00, 1.000000e+00], [0.000000e+00, 0.000000e+00, 0.000000e+00, 1.000000e+00]]> : tensor<4x4xf32>}
// CHECK: "ttir.matmul"(%x, %[[U]]) : (tensor<3x4xf32>, tensor<4x4xf32>) -> tensor<3x4xf32>
// CHECK: %[[P:.*]] = "ttir.permute"(%x) {permutation = array<i64: 1, 0>} : (tensor<3x4xf32>) -> tensor<4x3xf32>
// CHECK: "ttir.matmul"(%[[P]], %{{.*}}) : (tensor<4x3xf32>, tensor<3x3xf32>) -> tensor<4x3xf32>
// CHECK: "ttir.permute"(%{{.*}}) {permutation = array<i64: 1, 0>} : (tensor<4x3xf32>) -> tensor<3x4xf32>
// CHECK-NOT: ttir.cumsum
// METAL: check: result0 matches the golden run
// METAL: check: result1 matches the golden run
func.func @cumsum(%x: tensor<3x4xf32>) -> (tensor<3x4xf32>, tensor<3x4xf32>) {
  %0 = "ttir.cumsum"(%x) {dim = 1 : i64} : (tensor<3x4xf32>) -> tensor<3x4xf32>
  %1 = "ttir.cumsum"(%x) {dim = 0 : i64} : (tensor<3x4xf32>) -> tensor<3x4xf32>
  return %0, %1 : tensor<3x4xf32>, tensor<3x4xf32>
}

// -----

// argmax: first a key that puts a NaN first (as numpy and JAX): where a row has a NaN (ne of x
// and itself, its max over the row), 1 at the NaNs and 0 elsewhere, else x. Then the key's
// maximum, where elements equal it their negated position (-inf elsewhere), the maximum of that
// negated: the first position; argmin the same on the negation.
// CHECK-LABEL: func.func @arg
// CHECK: %[[NAN:.*]] = "ttir.ne"(%x, %x) : (tensor<3x8xf32>, tensor<3x8xf32>) -> tensor<3x8xf32>
// CHECK: %[[ANY:.*]] = "ttir.max"(%[[NAN]]) {dim_arg = [1 : i32], keep_dim = true} : (tensor<3x8xf32>) -> tensor<3x1xf32>
// CHECK: %[[B:.*]] = "ttir.broadcast"(%[[ANY]]) : (tensor<3x1xf32>) -> tensor<3x8xf32>
// CHECK: %[[K:.*]] = "ttir.where"(%[[B]], %[[NAN]], %x)
// CHECK: %[[M:.*]] = "ttir.max"(%[[K]]) {dim_arg = [1 : i32], keep_dim = true} : (tensor<3x8xf32>) -> tensor<3x1xf32>
// CHECK: %[[H:.*]] = "ttir.eq"(%[[K]], %[[M]])
// CHECK: %[[C:.*]] = "ttir.where"(%[[H]], %{{.*}}, %{{.*}})
// CHECK: %[[F:.*]] = "ttir.max"(%[[C]])
// CHECK: %[[P:.*]] = "ttir.neg"(%[[F]]) : (tensor<3x1xf32>) -> tensor<3x1xf32>
// CHECK: %[[I:.*]] = "ttir.typecast"(%[[P]]) : (tensor<3x1xf32>) -> tensor<3x1xi32>
// CHECK: "ttir.reshape"(%[[I]]) : (tensor<3x1xi32>) -> tensor<3xi32>
// CHECK: "ttir.neg"(%x)
// CHECK-NOT: ttir.arg
// METAL: check: result0: 0 of 3 elements differ
// METAL: check: result1: 0 of 3 elements differ
func.func @arg(%x: tensor<3x8xf32>) -> (tensor<3xi32>, tensor<3x1xi32>) {
  %0 = "ttir.argmax"(%x) {dim = 1 : i64} : (tensor<3x8xf32>) -> tensor<3xi32>
  %1 = "ttir.argmin"(%x) {dim = 1 : i64, keep_dim = true} : (tensor<3x8xf32>) -> tensor<3x1xi32>
  return %0, %1 : tensor<3xi32>, tensor<3x1xi32>
}

// -----

// top_k (k = 2): two rounds of argmax's pick, the first picked position set to -inf before the
// second; the maxima (values) or the positions (indices) joined by a concat.
// CHECK-LABEL: func.func @top
// CHECK-COUNT-2: "ttir.neg"(%{{.*}}) : (tensor<3x1xf32>) -> tensor<3x1xf32>
// CHECK: "ttir.concat"(%{{.*}}, %{{.*}}) {dim = 1 : si32} : (tensor<3x1xf32>, tensor<3x1xf32>) -> tensor<3x2xf32>
// CHECK: "ttir.concat"(%{{.*}}, %{{.*}}) {dim = 1 : si32} : (tensor<3x1xf32>, tensor<3x1xf32>) -> tensor<3x2xf32>
// CHECK: "ttir.typecast"(%{{.*}}) : (tensor<3x2xf32>) -> tensor<3x2xi32>
// CHECK-NOT: ttir.top_k
// METAL: check: result0: 0 of 6 elements differ
// METAL: check: result1: 0 of 6 elements differ
func.func @top(%x: tensor<3x8xf32>) -> (tensor<3x2xf32>, tensor<3x2xi32>) {
  %0 = "ttir.top_k"(%x) {k = 2 : i64, dim = 1 : i64} : (tensor<3x8xf32>) -> tensor<3x2xf32>
  %1 = "ttir.top_k_indices"(%x) {k = 2 : i64, dim = 1 : i64} : (tensor<3x8xf32>) -> tensor<3x2xi32>
  return %0, %1 : tensor<3x2xf32>, tensor<3x2xi32>
}
