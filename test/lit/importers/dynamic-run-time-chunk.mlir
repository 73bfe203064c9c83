// dynamic_update_slice and dynamic_slice of several positions of one dim at a run-time start
// (a chunk of t tokens' keys written into a KV cache at `pos`, and read back): the start clamped
// into [0, n - t] as StableHLO clamps it, then position j of the chunk written (a where) or read
// (a sum of x times a one-hot) at start + j: the one-hot compares the start with an iota of the
// positions minus j.
// RUN: meshc-import --split-input-file %s | filecheck %s

// A 2x8 update into 8x8 at row `pos`: the start clamped into [0, 6]; row j = 0, 1 of the update
// (a slice) broadcast and written where the row index minus j equals the start.
// CHECK-LABEL: func.func @main
// CHECK: %[[LO:.*]] = "ttir.maximum"(%pos, %{{.*}})
// CHECK: %[[SIX:.*]] = "ttir.constant"() {value = dense<6> : tensor<i32>}
// CHECK: "ttir.minimum"(%[[LO]], %[[SIX]])
// CHECK: %[[S:.*]] = "ttir.broadcast"({{.*}}) : (tensor<1x1xi32>) -> tensor<8x8xi32>
// CHECK: %[[I0:.*]] = "ttir.constant"() {value = dense<{{\[}}[0, 0, 0, 0, 0, 0, 0, 0], [1, 1, 1, 1, 1, 1, 1, 1], [2, 2
// CHECK: %[[E0:.*]] = "ttir.eq"(%[[I0]], %[[S]])
// CHECK: %[[H0:.*]] = "ttir.typecast"(%[[E0]]) : (tensor<8x8xi32>) -> tensor<8x8xf32>
// CHECK: %[[I1:.*]] = "ttir.constant"() {value = dense<{{\[}}[-1, -1, -1, -1, -1, -1, -1, -1], [0, 0, 0, 0, 0, 0, 0, 0], [1, 1
// CHECK: %[[E1:.*]] = "ttir.eq"(%[[I1]], %[[S]])
// CHECK: %[[H1:.*]] = "ttir.typecast"(%[[E1]])
// CHECK: %[[R0:.*]] = "ttir.slice"(%u) {begins = [0 : i32, 0 : i32], ends = [1 : i32, 8 : i32], step = [1 : i32, 1 : i32]}
// CHECK: %[[U0:.*]] = "ttir.broadcast"(%[[R0]]) : (tensor<1x8xf32>) -> tensor<8x8xf32>
// CHECK: %[[W0:.*]] = "ttir.where"(%[[H0]], %[[U0]], %x)
// CHECK: %[[R1:.*]] = "ttir.slice"(%u) {begins = [1 : i32, 0 : i32], ends = [2 : i32, 8 : i32], step = [1 : i32, 1 : i32]}
// CHECK: %[[U1:.*]] = "ttir.broadcast"(%[[R1]])
// CHECK: %[[W1:.*]] = "ttir.where"(%[[H1]], %[[U1]], %[[W0]]) : (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK: return %[[W1]]
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<8x8xf32>, tensor<2x8xf32>, tensor<i32>) -> tensor<8x8xf32>, sym_name = "main"}> ({
  ^bb0(%x: tensor<8x8xf32>, %u: tensor<2x8xf32>, %pos: tensor<i32>):
    %c0 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %0 = "stablehlo.dynamic_update_slice"(%x, %u, %pos, %c0) : (tensor<8x8xf32>, tensor<2x8xf32>, tensor<i32>, tensor<i32>) -> tensor<8x8xf32>
    "func.return"(%0) : (tensor<8x8xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// 3 rows of 8x8 from row `pos`: the start clamped into [0, 5]; each row a sum over the rows of
// x times its one-hot, keeping the dim (1x8); the three joined along dim 0.
// CHECK-LABEL: func.func @main
// CHECK: %[[FIVE:.*]] = "ttir.constant"() {value = dense<5> : tensor<i32>}
// CHECK: "ttir.minimum"(%{{.*}}, %[[FIVE]])
// CHECK: %[[R0:.*]] = "ttir.sum"({{.*}}) {dim_arg = [0 : i32], keep_dim = true} : (tensor<8x8xf32>) -> tensor<1x8xf32>
// CHECK: %[[R1:.*]] = "ttir.sum"({{.*}}) {dim_arg = [0 : i32], keep_dim = true} : (tensor<8x8xf32>) -> tensor<1x8xf32>
// CHECK: %[[R2:.*]] = "ttir.sum"({{.*}}) {dim_arg = [0 : i32], keep_dim = true} : (tensor<8x8xf32>) -> tensor<1x8xf32>
// CHECK: "ttir.concat"(%[[R0]], %[[R1]], %[[R2]]) {dim = 0 : i32} : (tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<3x8xf32>
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<8x8xf32>, tensor<i32>) -> tensor<3x8xf32>, sym_name = "main"}> ({
  ^bb0(%x: tensor<8x8xf32>, %pos: tensor<i32>):
    %c0 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %0 = "stablehlo.dynamic_slice"(%x, %pos, %c0) <{slice_sizes = array<i64: 3, 8>}> : (tensor<8x8xf32>, tensor<i32>, tensor<i32>) -> tensor<3x8xf32>
    "func.return"(%0) : (tensor<3x8xf32>) -> ()
  }) : () -> ()
}) : () -> ()
