// Each StableHLO op as the ttir ops computing the same values (docs/importers.md has the table).
// RUN: meshc-import --split-input-file %s | filecheck %s

// A batched dot_general contracting the rhs's last dim: both operands in (batch, M, K) x
// (batch, K, N) order, one matmul, the result in dot_general's (batch, lhs free, rhs free) order.
// CHECK-LABEL: func.func @main
// CHECK: %[[B:.*]] = "ttir.permute"(%{{.*}}) {permutation = array<i64: 0, 2, 1>} : (tensor<2x8x16xf32>) -> tensor<2x16x8xf32>
// CHECK: "ttir.matmul"(%{{.*}}, %[[B]]) : (tensor<2x4x16xf32>, tensor<2x16x8xf32>) -> tensor<2x4x8xf32>
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<2x4x16xf32>, tensor<2x8x16xf32>) -> tensor<2x4x8xf32>, sym_name = "main"}> ({
  ^bb0(%q: tensor<2x4x16xf32>, %k: tensor<2x8x16xf32>):
    %0 = "stablehlo.dot_general"(%q, %k) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [2]>}> : (tensor<2x4x16xf32>, tensor<2x8x16xf32>) -> tensor<2x4x8xf32>
    "func.return"(%0) : (tensor<2x4x8xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// A dot_general with two free lhs dims and the contraction first on the lhs: (4x2)x3 . 3x5.
// CHECK-LABEL: func.func @main
// CHECK: "ttir.permute"(%{{.*}}) {permutation = array<i64: 1, 2, 0>} : (tensor<3x4x2xf32>) -> tensor<4x2x3xf32>
// CHECK: "ttir.matmul"(%{{.*}}, %{{.*}}) : (tensor<4x2x3xf32>, tensor<3x5xf32>) -> tensor<4x2x5xf32>
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<3x4x2xf32>, tensor<3x5xf32>) -> tensor<4x2x5xf32>, sym_name = "main"}> ({
  ^bb0(%a: tensor<3x4x2xf32>, %b: tensor<3x5xf32>):
    %0 = "stablehlo.dot_general"(%a, %b) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>}> : (tensor<3x4x2xf32>, tensor<3x5xf32>) -> tensor<4x2x5xf32>
    "func.return"(%0) : (tensor<4x2x5xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// broadcast_in_dim with its dims out of order: permute, insert the new dim, broadcast. A scalar
// constant broadcast folds into one splat constant of the full shape.
// CHECK-LABEL: func.func @main
// CHECK: "ttir.permute"(%{{.*}}) {permutation = array<i64: 1, 0>} : (tensor<4x3xf32>) -> tensor<3x4xf32>
// CHECK: "ttir.reshape"(%{{.*}}) : (tensor<3x4xf32>) -> tensor<3x1x4xf32>
// CHECK: "ttir.broadcast"(%{{.*}}) : (tensor<3x1x4xf32>) -> tensor<3x2x4xf32>
// CHECK: "ttir.constant"() {value = dense<2.500000e-01> : tensor<3x2x4xf32>}
// CHECK: "ttir.multiply"
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4x3xf32>) -> tensor<3x2x4xf32>, sym_name = "main"}> ({
  ^bb0(%a: tensor<4x3xf32>):
    %0 = "stablehlo.broadcast_in_dim"(%a) <{broadcast_dimensions = array<i64: 2, 0>}> : (tensor<4x3xf32>) -> tensor<3x2x4xf32>
    %c = "stablehlo.constant"() <{value = dense<2.500000e-01> : tensor<f32>}> : () -> tensor<f32>
    %1 = "stablehlo.broadcast_in_dim"(%c) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<3x2x4xf32>
    %2 = "stablehlo.multiply"(%0, %1) : (tensor<3x2x4xf32>, tensor<3x2x4xf32>) -> tensor<3x2x4xf32>
    "func.return"(%2) : (tensor<3x2x4xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// Unary ops, rsqrt one of them; convert is a typecast; transpose is a permute; a max reduction
// from -inf (0xFF800000) is ttir.max; iota is computed at import.
// CHECK-LABEL: func.func @main
// CHECK: "ttir.exp"
// CHECK: "ttir.sigmoid"
// CHECK: "ttir.neg"
// CHECK: "ttir.rsqrt"
// CHECK: "ttir.permute"(%{{.*}}) {permutation = array<i64: 1, 0>}
// CHECK: "ttir.max"(%{{.*}}) {dim_arg = [0 : i32]} : (tensor<8x4xf32>) -> tensor<4xf32>
// CHECK: "ttir.typecast"(%{{.*}}) : (tensor<4xf32>) -> tensor<4xbf16>
// CHECK: "ttir.constant"() {value = dense<[0, 1, 2, 3]> : tensor<4xi32>}
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4x8xf32>) -> (tensor<4xbf16>, tensor<4xi32>), sym_name = "main"}> ({
  ^bb0(%a: tensor<4x8xf32>):
    %0 = "stablehlo.exponential"(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %1 = "stablehlo.logistic"(%0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %2 = "stablehlo.negate"(%1) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %3 = "stablehlo.rsqrt"(%2) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %4 = "stablehlo.transpose"(%3) <{permutation = array<i64: 1, 0>}> : (tensor<4x8xf32>) -> tensor<8x4xf32>
    %init = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %5 = "stablehlo.reduce"(%4, %init) <{dimensions = array<i64: 0>}> ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %m = "stablehlo.maximum"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%m) : (tensor<f32>) -> ()
    }) : (tensor<8x4xf32>, tensor<f32>) -> tensor<4xf32>
    %6 = "stablehlo.convert"(%5) : (tensor<4xf32>) -> tensor<4xbf16>
    %7 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<4xi32>
    "func.return"(%6, %7) : (tensor<4xbf16>, tensor<4xi32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// A call to a private function (as JAX writes nested jits) is inlined.
// CHECK-LABEL: func.func @main
// CHECK-NOT: call
// CHECK: "ttir.tanh"
// CHECK: "ttir.add"
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4xf32>) -> tensor<4xf32>, sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%a: tensor<4xf32>):
    %0 = "func.call"(%a) <{callee = @act}> : (tensor<4xf32>) -> tensor<4xf32>
    %1 = "stablehlo.add"(%0, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    "func.return"(%1) : (tensor<4xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<4xf32>) -> tensor<4xf32>, sym_name = "act", sym_visibility = "private"}> ({
  ^bb0(%x: tensor<4xf32>):
    %0 = "stablehlo.tanh"(%x) : (tensor<4xf32>) -> tensor<4xf32>
    "func.return"(%0) : (tensor<4xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// compare gives 1 / 0 in its operands' element type, select is ttir.where; a boolean moved by
// broadcast_in_dim keeps that type; iota masks fold to constants.
// CHECK-LABEL: func.func @main
// CHECK: %[[M:.*]] = "ttir.ge"(%{{.*}}, %{{.*}}) : (tensor<4x4xi32>, tensor<4x4xi32>) -> tensor<4x4xi32>
// CHECK: %[[C:.*]] = "ttir.lt"(%{{.*}}, %{{.*}}) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK: "ttir.where"(%[[C]], %{{.*}}, %{{.*}}) : (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK: "ttir.reshape"(%[[M]]) : (tensor<4x4xi32>) -> tensor<1x4x4xi32>
// CHECK: "ttir.where"
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<2x4x4xf32>, sym_name = "main"}> ({
  ^bb0(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>):
    %r = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<4x4xi32>
    %c = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<4x4xi32>
    %mask = "stablehlo.compare"(%r, %c) <{comparison_direction = #stablehlo<comparison_direction GE>, compare_type = #stablehlo<comparison_type SIGNED>}> : (tensor<4x4xi32>, tensor<4x4xi32>) -> tensor<4x4xi1>
    %lt = "stablehlo.compare"(%a, %b) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xi1>
    %0 = "stablehlo.select"(%lt, %a, %b) : (tensor<4x4xi1>, tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %m3 = "stablehlo.broadcast_in_dim"(%mask) <{broadcast_dimensions = array<i64: 1, 2>}> : (tensor<4x4xi1>) -> tensor<2x4x4xi1>
    %x3 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64: 1, 2>}> : (tensor<4x4xf32>) -> tensor<2x4x4xf32>
    %z = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<2x4x4xf32>}> : () -> tensor<2x4x4xf32>
    %1 = "stablehlo.select"(%m3, %x3, %z) : (tensor<2x4x4xi1>, tensor<2x4x4xf32>, tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
    "func.return"(%1) : (tensor<2x4x4xf32>) -> ()
  }) : () -> ()
}) : () -> ()
