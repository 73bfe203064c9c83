// The MoE resharding notes end to end: attention on the mesh [DP=2, CP=2, TP=2] (batch over DP, sequence over
// CP, model dim over TP), then a mixture-of-experts layer whose 8 experts live one a device on
// the view [EP=8] of the same 8 chips:
//   attention (TP projections with all_reduce, K/V gathered over CP, residual)
//   -> router logits -> top-2 routing and dispatch with capacity C = 2 per expert per DP shard
//   -> ttir.reshard to [E/EP=8] -> each device's expert (a matmul) -> ttir.reshard back
//   -> combine with the router weights (a dropped choice adds zero) -> residual.
// Sizes: B = 2, S = 4, M = 8 (head dim 8), E = 8, k = 2, C = 2. The output equals a single-device
// numpy MoE layer (test/unit/test_moe_example.py). Run it on the simulator (a t3k: the 2x2x2
// mesh is a view of its 8 chips) with `meshc-run examples/moe_ep8.mlir --check --report`; both
// reshards become point-to-point moves delivering exactly the lower bound (768 B and 1,792 B;
// see `meshc-opt examples/moe_ep8.mlir -p reshard-to-collectives`).
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<2x16x16, (d0, d1, d2) -> (d2 floordiv 8 + (d1 floordiv 8) * 2 + d0 * 4, d1 mod 8, d2 mod 8)>, meshShape = 2x2x2, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @main(%x: tensor<2x4x8xf32>, %wq: tensor<8x8xf32>, %wk: tensor<8x8xf32>, %wv: tensor<8x8xf32>, %wo: tensor<8x8xf32>, %wr: tensor<8x8xf32>, %we: tensor<8x8x8xf32>) -> tensor<2x4x8xf32> {
    // ---- placement: x [B/DP, S/CP, M/TP]; Wq, Wk, Wv, Wr split by rows over TP; Wo by columns; experts over EP
    %xs = "ttir.mesh_shard"(%x) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 2, 2, 2>, shard_dims = array<i64: 0, 1, 2>} : (tensor<2x4x8xf32>) -> tensor<1x2x4xf32>
    %wqs = "ttir.mesh_shard"(%wq) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 2, 1>, shard_dims = array<i64: -1, -1, 0>} : (tensor<8x8xf32>) -> tensor<4x8xf32>
    %wks = "ttir.mesh_shard"(%wk) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 2, 1>, shard_dims = array<i64: -1, -1, 0>} : (tensor<8x8xf32>) -> tensor<4x8xf32>
    %wvs = "ttir.mesh_shard"(%wv) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 2, 1>, shard_dims = array<i64: -1, -1, 0>} : (tensor<8x8xf32>) -> tensor<4x8xf32>
    %wos = "ttir.mesh_shard"(%wo) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 2>, shard_dims = array<i64: -1, -1, 1>} : (tensor<8x8xf32>) -> tensor<8x4xf32>
    %wrs = "ttir.mesh_shard"(%wr) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 2, 1>, shard_dims = array<i64: -1, -1, 0>} : (tensor<8x8xf32>) -> tensor<4x8xf32>
    %wes = "ttir.mesh_shard"(%we) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 8, 1, 1>, shard_dims = array<i64: 0, 0, 0>} : (tensor<8x8x8xf32>) -> tensor<1x8x8xf32>
    // ---- attention: row-parallel projections (partial sums over TP), K and V gathered over CP
    %qp = "ttir.matmul"(%xs, %wqs) : (tensor<1x2x4xf32>, tensor<4x8xf32>) -> tensor<1x2x8xf32>
    %q = "ttir.all_reduce"(%qp) {cluster_axis = 2 : ui32, reduce_type = #ttir.reduce_type<sum>} : (tensor<1x2x8xf32>) -> tensor<1x2x8xf32>
    %kp = "ttir.matmul"(%xs, %wks) : (tensor<1x2x4xf32>, tensor<4x8xf32>) -> tensor<1x2x8xf32>
    %k = "ttir.all_reduce"(%kp) {cluster_axis = 2 : ui32, reduce_type = #ttir.reduce_type<sum>} : (tensor<1x2x8xf32>) -> tensor<1x2x8xf32>
    %vp = "ttir.matmul"(%xs, %wvs) : (tensor<1x2x4xf32>, tensor<4x8xf32>) -> tensor<1x2x8xf32>
    %v = "ttir.all_reduce"(%vp) {cluster_axis = 2 : ui32, reduce_type = #ttir.reduce_type<sum>} : (tensor<1x2x8xf32>) -> tensor<1x2x8xf32>
    %kall = "ttir.all_gather"(%k) {all_gather_dim = 1 : si32, cluster_axis = 1 : ui32} : (tensor<1x2x8xf32>) -> tensor<1x4x8xf32>
    %vall = "ttir.all_gather"(%v) {all_gather_dim = 1 : si32, cluster_axis = 1 : ui32} : (tensor<1x2x8xf32>) -> tensor<1x4x8xf32>
    %scores = "ttir.matmul"(%q, %kall) {transpose_b = true} : (tensor<1x2x8xf32>, tensor<1x4x8xf32>) -> tensor<1x2x4xf32>
    %probs = "ttir.softmax"(%scores) {dimension = 2 : si32} : (tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
    %att = "ttir.matmul"(%probs, %vall) : (tensor<1x2x4xf32>, tensor<1x4x8xf32>) -> tensor<1x2x8xf32>
    %o = "ttir.matmul"(%att, %wos) : (tensor<1x2x8xf32>, tensor<8x4xf32>) -> tensor<1x2x4xf32>
    %h = "ttir.add"(%xs, %o) : (tensor<1x2x4xf32>, tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
    // ---- router; a DP shard's tokens are routed together (priority spans its CP shards)
    %lp = "ttir.matmul"(%h, %wrs) : (tensor<1x2x4xf32>, tensor<4x8xf32>) -> tensor<1x2x8xf32>
    %logits = "ttir.all_reduce"(%lp) {cluster_axis = 2 : ui32, reduce_type = #ttir.reduce_type<sum>} : (tensor<1x2x8xf32>) -> tensor<1x2x8xf32>
    %hall = "ttir.all_gather"(%h) {all_gather_dim = 1 : si32, cluster_axis = 1 : ui32} : (tensor<1x2x4xf32>) -> tensor<1x4x4xf32>
    %lall = "ttir.all_gather"(%logits) {all_gather_dim = 1 : si32, cluster_axis = 1 : ui32} : (tensor<1x2x8xf32>) -> tensor<1x4x8xf32>
    %experts, %weights = "ttir.moe_route"(%lall) {k = 2 : i64} : (tensor<1x4x8xf32>) -> (tensor<1x4x2xi32>, tensor<1x4x2xf32>)
    // ---- dispatch: [E, B/DP, C, M/TP], the same on both CP devices of a (dp, tp) pair
    %disp, %slots = "ttir.moe_dispatch"(%hall, %experts) : (tensor<1x4x4xf32>, tensor<1x4x2xi32>) -> (tensor<8x1x2x4xf32>, tensor<1x4x2xi32>)
    // ---- to the expert mesh: device e holds expert e's slots of both DP shards, whole rows
    %ep = "ttir.reshard"(%disp) {source = "[E=8, G=2/DP=2, C=2, M=8/TP=2] on [DP=2, CP=2, TP=2]", target = "[E=8/EP=8, G=2, C=2, M=8]"} : (tensor<8x1x2x4xf32>) -> tensor<1x2x2x8xf32>
    %tok = "ttir.reshape"(%ep) {shape = [1 : i32, 4 : i32, 8 : i32]} : (tensor<1x2x2x8xf32>) -> tensor<1x4x8xf32>
    %y = "ttir.matmul"(%tok, %wes) : (tensor<1x4x8xf32>, tensor<1x8x8xf32>) -> tensor<1x4x8xf32>
    %yr = "ttir.reshape"(%y) {shape = [1 : i32, 2 : i32, 2 : i32, 8 : i32]} : (tensor<1x4x8xf32>) -> tensor<1x2x2x8xf32>
    // ---- and back to the attention mesh
    %back = "ttir.reshard"(%yr) {source = "[E=8/EP=8, G=2, C=2, N=8]", target = "[E=8, G=2/DP=2, C=2, N=8/TP=2] on [DP=2, CP=2, TP=2]"} : (tensor<1x2x2x8xf32>) -> tensor<8x1x2x4xf32>
    %moe = "ttir.moe_combine"(%back, %experts, %weights, %slots) : (tensor<8x1x2x4xf32>, tensor<1x4x2xi32>, tensor<1x4x2xf32>, tensor<1x4x2xi32>) -> tensor<1x4x4xf32>
    %out = "ttir.add"(%hall, %moe) : (tensor<1x4x4xf32>, tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
    %res = "ttir.mesh_shard"(%out) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<shard_to_full>, shard_shape = array<i64: 2, 1, 2>, shard_dims = array<i64: 0, -1, 2>} : (tensor<1x4x4xf32>) -> tensor<2x4x8xf32>
    func.return %res : tensor<2x4x8xf32>
  }
}
