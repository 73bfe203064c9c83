// RUN: meshc-opt %examples/moe_ep8.mlir | filecheck %s --check-prefix=PARSE
// RUN: meshc-opt %examples/moe_ep8.mlir -p reshard-to-collectives | filecheck %s
// RUN: meshc-opt %examples/moe_ep8.mlir -p 'reshard-to-collectives{max-ratio=2.0}' | filecheck %s --check-prefix=WALK
// RUN: meshc-opt %examples/moe_ep8.mlir -p ttir-to-ttnn-pipeline | filecheck %s --check-prefix=TTNN

// examples/moe_ep8.mlir verifies, and reshard-to-collectives turns both of its reshards into
// ttir.point_to_point: no walk of uniform collectives meets the lower bound (to EP the cheapest
// delivers 2.00x, the way back 1.43x), so each carries the fewest-bytes plan's moves: 24 of one
// [1, 1, 2, 4] box out (every device receives 3), 56 boxes back (every device 7). With
// max-ratio = 2.0 both walks are accepted (WALK). Its numbers are checked against a single-device
// numpy MoE layer by test/unit/test_moe_example.py (golden interpreter, before and after this
// lowering, and on the simulator); run-moe-ep8.mlir runs it under meshc-run --check.

// PARSE: "ttir.reshard"(%disp) {source = "[E=8, G=2/DP=2, C=2, M=8/TP=2] on [DP=2, CP=2, TP=2]", target = "[E=8/EP=8, G=2, C=2, M=8]"}
// PARSE: "ttir.reshard"(%yr) {source = "[E=8/EP=8, G=2, C=2, N=8]", target = "[E=8, G=2/DP=2, C=2, N=8/TP=2] on [DP=2, CP=2, TP=2]"}

// CHECK-NOT: ttir.reshard
// CHECK: %disp, %slots = "ttir.moe_dispatch"
// CHECK-NEXT: %ep = "ttir.point_to_point"(%disp) {source = "[E=8, G=2/DP=2, C=2, M=8/TP=2] on [DP=2, CP=2, TP=2]", target = "[E=8/EP=8, G=2, C=2, M=8]", transfers = array<i64: {{.*}}>} : (tensor<8x1x2x4xf32>) -> tensor<1x2x2x8xf32>
// CHECK: %back = "ttir.point_to_point"(%yr) {source = "[E=8/EP=8, G=2, C=2, N=8]", target = "[E=8, G=2/DP=2, C=2, N=8/TP=2] on [DP=2, CP=2, TP=2]", transfers = array<i64: {{.*}}>} : (tensor<1x2x2x8xf32>) -> tensor<8x1x2x4xf32>
// CHECK-NEXT: "ttir.moe_combine"(%back, %experts, %weights, %slots)

// WALK-NOT: ttir.reshard
// To the expert view: DP moves from G to E, CP slices E, TP moves from M to E.
// WALK: %disp, %slots = "ttir.moe_dispatch"
// WALK-NEXT: "ttir.all_to_all"(%disp) {split_dim = 0 : si32, concat_dim = 1 : si32, cluster_axis = 0 : ui32} : (tensor<8x1x2x4xf32>) -> tensor<4x2x2x4xf32>
// WALK-NEXT: "ttir.all_slice"({{.*}}) {slice_dim = 0 : si32, cluster_axis = 1 : ui32} : (tensor<4x2x2x4xf32>) -> tensor<2x2x2x4xf32>
// WALK-NEXT: %ep = "ttir.all_to_all"({{.*}}) {split_dim = 0 : si32, concat_dim = 3 : si32, cluster_axis = 2 : ui32} : (tensor<2x2x2x4xf32>) -> tensor<1x2x2x8xf32>
// And back: TP returns to N, CP's copies are gathered, DP returns to G.
// WALK: "ttir.all_to_all"(%yr) {split_dim = 3 : si32, concat_dim = 0 : si32, cluster_axis = 2 : ui32} : (tensor<1x2x2x8xf32>) -> tensor<2x2x2x4xf32>
// WALK-NEXT: "ttir.all_gather"({{.*}}) {all_gather_dim = 0 : si32, cluster_axis = 1 : ui32} : (tensor<2x2x2x4xf32>) -> tensor<4x2x2x4xf32>
// WALK-NEXT: %back = "ttir.all_to_all"({{.*}}) {split_dim = 1 : si32, concat_dim = 0 : si32, cluster_axis = 0 : ui32} : (tensor<4x2x2x4xf32>) -> tensor<8x1x2x4xf32>
// WALK-NEXT: "ttir.moe_combine"(%back, %experts, %weights, %slots)

// Through ttir-to-ttnn-pipeline: the MoE steps and the moves become their ttnn namesakes, each
// with the layouts of its operands and results (integer expert ids and slots included).
// TTNN-NOT: "ttir.
// TTNN: "ttnn.moe_route"(%lall) {k = 2 : i64} : (tensor<1x4x8xf32, #ttnn_layout>) -> (tensor<1x4x2xi32, #ttnn_layout1>, tensor<1x4x2xf32, #ttnn_layout>)
// TTNN-NEXT: "ttnn.moe_dispatch"(%hall, %experts)
// TTNN-NEXT: %ep = "ttnn.point_to_point"(%disp) {source = "[E=8, G=2/DP=2, C=2, M=8/TP=2] on [DP=2, CP=2, TP=2]", target = "[E=8/EP=8, G=2, C=2, M=8]", transfers = array<i64: {{.*}}>}
// TTNN: %back = "ttnn.point_to_point"(%yr)
// TTNN-NEXT: "ttnn.moe_combine"(%back, %experts, %weights, %slots)
