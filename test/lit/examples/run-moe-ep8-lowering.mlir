// RUN: meshc-opt %examples/moe_ep8.mlir | filecheck %s --check-prefix=PARSE
// RUN: meshc-opt %examples/moe_ep8.mlir -p reshard-to-collectives | filecheck %s

// examples/moe_ep8.mlir verifies, and reshard-to-collectives turns both of its reshards into
// SPMD collectives. Its numbers are checked against a single-device numpy MoE layer by
// test/unit/test_moe_example.py (golden interpreter, before and after this lowering).

// PARSE: "ttir.reshard"(%disp) {source = "[E=8, G=2/DP=2, C=2, M=8/TP=2] on [DP=2, CP=2, TP=2]", target = "[E=8/EP=8, G=2, C=2, M=8]"}
// PARSE: "ttir.reshard"(%yr) {source = "[E=8/EP=8, G=2, C=2, N=8]", target = "[E=8, G=2/DP=2, C=2, N=8/TP=2] on [DP=2, CP=2, TP=2]"}

// CHECK-NOT: ttir.reshard
// To the expert view: DP moves from G to E, CP slices E, TP moves from M to E.
// CHECK: %disp, %slots = "ttir.moe_dispatch"
// CHECK-NEXT: "ttir.all_to_all"(%disp) {split_dim = 0 : si32, concat_dim = 1 : si32, cluster_axis = 0 : ui32} : (tensor<8x1x2x4xf32>) -> tensor<4x2x2x4xf32>
// CHECK-NEXT: "ttir.all_slice"({{.*}}) {slice_dim = 0 : si32, cluster_axis = 1 : ui32} : (tensor<4x2x2x4xf32>) -> tensor<2x2x2x4xf32>
// CHECK-NEXT: %ep = "ttir.all_to_all"({{.*}}) {split_dim = 0 : si32, concat_dim = 3 : si32, cluster_axis = 2 : ui32} : (tensor<2x2x2x4xf32>) -> tensor<1x2x2x8xf32>
// And back: TP returns to N, CP's copies are gathered, DP returns to G.
// CHECK: "ttir.all_to_all"(%yr) {split_dim = 3 : si32, concat_dim = 0 : si32, cluster_axis = 2 : ui32} : (tensor<1x2x2x8xf32>) -> tensor<2x2x2x4xf32>
// CHECK-NEXT: "ttir.all_gather"({{.*}}) {all_gather_dim = 0 : si32, cluster_axis = 1 : ui32} : (tensor<2x2x2x4xf32>) -> tensor<4x2x2x4xf32>
// CHECK-NEXT: %back = "ttir.all_to_all"({{.*}}) {split_dim = 1 : si32, concat_dim = 0 : si32, cluster_axis = 0 : ui32} : (tensor<4x2x2x4xf32>) -> tensor<8x1x2x4xf32>
// CHECK-NEXT: "ttir.moe_combine"(%back, %experts, %weights, %slots)
