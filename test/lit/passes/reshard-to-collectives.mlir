// RUN: meshc-opt %s --split-input-file -p reshard-to-collectives | filecheck %s
// RUN: meshc-opt %s --split-input-file -p 'reshard-to-collectives{max-ratio=2.0}' | filecheck %s --check-prefix=WALK

// One axis changes: each reshard becomes the one collective that moves exactly the bytes each
// device needs and lacks (see test/unit/test_reshard_sim.py for the simulated byte counts).

module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0 mod 8, d1 mod 8)>, meshShape = 2x2, chipIds = [0, 1, 2, 3]>} {
  // CHECK-LABEL: func.func @s0r_to_rs0
  func.func @s0r_to_rs0(%x: tensor<2x4xf32>) -> tensor<4x2xf32> {
    // CHECK-NEXT: %0 = "ttir.all_to_all"(%x) {split_dim = 1 : si32, concat_dim = 0 : si32, cluster_axis = 0 : ui32} : (tensor<2x4xf32>) -> tensor<4x2xf32>
    // CHECK-NEXT: func.return %0
    %0 = "ttir.reshard"(%x) {source = "[S0, R]", target = "[R, S0]"} : (tensor<2x4xf32>) -> tensor<4x2xf32>
    func.return %0 : tensor<4x2xf32>
  }
  // [S01, R] -> [S10, R]: devices 1 and 2 swap their rows, 0 and 3 keep theirs.
  // CHECK-LABEL: func.func @s01_to_s10
  func.func @s01_to_s10(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
    // CHECK-NEXT: "ttir.collective_permute"(%x) {source_target_pairs = dense<{{\[}}[0, 0], [2, 1], [1, 2], [3, 3]]> : tensor<4x2xi64>}
    %0 = "ttir.reshard"(%x) {source = "[S01, R]", target = "[S10, R]"} : (tensor<1x4xf32>) -> tensor<1x4xf32>
    func.return %0 : tensor<1x4xf32>
  }
  // CHECK-LABEL: func.func @gather_both
  func.func @gather_both(%x: tensor<2x2xf32>) -> tensor<4x4xf32> {
    // CHECK-NEXT: %0 = "ttir.all_gather"(%x) {all_gather_dim = 0 : si32, cluster_axis = 0 : ui32} : (tensor<2x2xf32>) -> tensor<4x2xf32>
    // CHECK-NEXT: %1 = "ttir.all_gather"(%0) {all_gather_dim = 1 : si32, cluster_axis = 1 : ui32} : (tensor<4x2xf32>) -> tensor<4x4xf32>
    %0 = "ttir.reshard"(%x) {source = "[S0, S1]", target = "[R, R]"} : (tensor<2x2xf32>) -> tensor<4x4xf32>
    func.return %0 : tensor<4x4xf32>
  }
  // R -> S moves nothing: each device keeps its piece.
  // CHECK-LABEL: func.func @slice
  func.func @slice(%x: tensor<4x4xf32>) -> tensor<2x4xf32> {
    // CHECK-NEXT: %0 = "ttir.all_slice"(%x) {slice_dim = 0 : si32, cluster_axis = 1 : ui32} : (tensor<4x4xf32>) -> tensor<2x4xf32>
    %0 = "ttir.reshard"(%x) {source = "[R, R]", target = "[S1, R]"} : (tensor<4x4xf32>) -> tensor<2x4xf32>
    func.return %0 : tensor<2x4xf32>
  }
  // Partial sums: reduce over axis 1, either to the whole tensor or scattered.
  // CHECK-LABEL: func.func @partial
  func.func @partial(%x: tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x2xf32>) {
    // CHECK-NEXT: "ttir.all_reduce"(%x) {cluster_axis = 1 : ui32, reduce_type = #ttir.reduce_type<sum>} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    // CHECK-NEXT: "ttir.reduce_scatter"(%x) {scatter_dim = 1 : si32, cluster_axis = 1 : ui32, reduce_type = #ttir.reduce_type<sum>} : (tensor<2x4xf32>) -> tensor<2x2xf32>
    %0 = "ttir.reshard"(%x) {source = "[S0, R] P1", target = "[S0, R]"} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %1 = "ttir.reshard"(%x) {source = "[S0, R] P1", target = "[S0, S1]"} : (tensor<2x4xf32>) -> tensor<2x2xf32>
    func.return %0, %1 : tensor<2x4xf32>, tensor<2x2xf32>
  }
  // The same placement: the reshard disappears.
  // CHECK-LABEL: func.func @same
  func.func @same(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
    // CHECK-NEXT: func.return %x
    %0 = "ttir.reshard"(%x) {source = "[S0, R]", target = "[S0, R]"} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    func.return %0 : tensor<2x4xf32>
  }
}

// -----

// The MoE resharding notes: the dispatched tokens [E, B/DP, C, M/TP] on the attention mesh go to [EP=8], a view
// of the same 8 devices (EP = DP, CP, TP in row-major order). No walk of uniform collectives
// meets the bound (the cheapest delivers 2x), so the pass emits the plan's point-to-point moves;
// device e needs expert e's [1, 2, 4, 16] and holds the [1, 1, 4, 8] of its own DP row and TP
// half, so it receives 3 boxes of [1, 1, 4, 8] (the other row, the other half, or both): 24 moves.
// With max-ratio = 2.0 the walk is accepted instead.
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<2x16x16, (d0, d1, d2) -> (d0 * 4 + (d1 floordiv 8) * 2 + d2 floordiv 8, d1 mod 8, d2 mod 8)>, meshShape = 2x2x2, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  // CHECK-LABEL: func.func @to_ep
  // WALK-LABEL: func.func @to_ep
  func.func @to_ep(%x: tensor<8x1x4x8xf32>) -> tensor<1x2x4x16xf32> {
    // CHECK-NEXT: %0 = "ttir.point_to_point"(%x) {source = "[E=8, B=2/DP=2, C=4, M=16/TP=2] on [DP=2, CP=2, TP=2]", target = "[E=8/EP=8, B=2, C=4, M=16]", transfers = array<i64: [[ROWS:.*]]>} : (tensor<8x1x4x8xf32>) -> tensor<1x2x4x16xf32>
    // CHECK-NEXT: func.return %0
    // DP moves from B to E, CP slices E, TP moves from M to E: E ends split over DP, CP, TP = EP.
    // WALK-NEXT: %0 = "ttir.all_to_all"(%x) {split_dim = 0 : si32, concat_dim = 1 : si32, cluster_axis = 0 : ui32} : (tensor<8x1x4x8xf32>) -> tensor<4x2x4x8xf32>
    // WALK-NEXT: %1 = "ttir.all_slice"(%0) {slice_dim = 0 : si32, cluster_axis = 1 : ui32} : (tensor<4x2x4x8xf32>) -> tensor<2x2x4x8xf32>
    // WALK-NEXT: %2 = "ttir.all_to_all"(%1) {split_dim = 0 : si32, concat_dim = 3 : si32, cluster_axis = 2 : ui32} : (tensor<2x2x4x8xf32>) -> tensor<1x2x4x16xf32>
    // WALK-NEXT: func.return %2
    %0 = "ttir.reshard"(%x) {source = "[E=8, B=2/DP=2, C=4, M=16/TP=2] on [DP=2, CP=2, TP=2]", target = "[E=8/EP=8, B=2, C=4, M=16]"} : (tensor<8x1x4x8xf32>) -> tensor<1x2x4x16xf32>
    func.return %0 : tensor<1x2x4x16xf32>
  }
}

// -----

// Cross-axis changes on a 2x2 mesh, small enough to read every move. A row is
// [step, src, dst, row lo, row hi, col lo, col hi].
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0 mod 8, d1 mod 8)>, meshShape = 2x2, chipIds = [0, 1, 2, 3]>} {
  // [S0, S1] -> [S1, S0] of a 2x2 tensor: devices 1 and 2 swap their elements, 0 and 3 keep theirs
  // (bound: 2 elements; the walk gathers, all_to_alls and slices: 8 elements).
  // CHECK-LABEL: func.func @swap
  func.func @swap(%x: tensor<1x1xf32>) -> tensor<1x1xf32> {
    // CHECK-NEXT: "ttir.point_to_point"(%x) {source = "[S0, S1]", target = "[S1, S0]", transfers = array<i64: 0, 2, 1, 1, 2, 0, 1, 0, 1, 2, 0, 1, 1, 2>}
    %0 = "ttir.reshard"(%x) {source = "[S0, S1]", target = "[S1, S0]"} : (tensor<1x1xf32>) -> tensor<1x1xf32>
    func.return %0 : tensor<1x1xf32>
  }
  // [R, S01] -> [S0, S1] of a 2x4 tensor: device k holds column k; device (i, j) needs row i,
  // columns 2j, 2j+1. Devices 0 and 3 lack one element, 1 and 2 lack two: bound 6 elements, six
  // moves of one element. Step 0: 3 -> 1 (0, 3), 0 -> 2 (1, 0); step 1 (along axis 1):
  // 1 -> 0 (0, 1), 2 -> 3 (1, 2); step 2: 2 -> 1 (0, 2), 1 -> 2 (1, 1).
  // CHECK-LABEL: func.func @rs01
  func.func @rs01(%x: tensor<2x1xf32>) -> tensor<1x2xf32> {
    // CHECK-NEXT: "ttir.point_to_point"(%x) {source = "[R, S01]", target = "[S0, S1]", transfers = array<i64: 0, 3, 1, 0, 1, 3, 4, 0, 0, 2, 1, 2, 0, 1, 1, 1, 0, 0, 1, 1, 2, 1, 2, 3, 1, 2, 2, 3, 2, 2, 1, 0, 1, 2, 3, 2, 1, 2, 1, 2, 1, 2>}
    %0 = "ttir.reshard"(%x) {source = "[R, S01]", target = "[S0, S1]"} : (tensor<2x1xf32>) -> tensor<1x2xf32>
    func.return %0 : tensor<1x2xf32>
  }
}
