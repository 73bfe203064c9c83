// `{tt.unconstrained}` on a function result (what meshc-import writes for a result JAX leaves
// unconstrained; a user may write it by hand): the result asks nothing of the ops computing it
// and leaves the devices in its value's sharding, partial sums reduced, written as its
// tt.sharding by ttir-propagate-sharding. A result without either is replicated, as before.
// RUN: meshc-opt %s --split-input-file | filecheck %s --check-prefix=ROUNDTRIP
// RUN: meshc-opt %s --split-input-file -p ttir-propagate-sharding | filecheck %s
// RUN: meshc-opt %s --split-input-file -p ttir-partition | filecheck %s --check-prefix=PART

// The mark round-trips as written.
// ROUNDTRIP: -> (tensor<8x32xf32> {tt.unconstrained}, tensor<8x32xf32>)
// ROUNDTRIP: -> (tensor<8x32xf32> {tt.unconstrained})
// ROUNDTRIP: -> (tensor<8x8xf32> {tt.unconstrained})

// x [S0, R] times w [R, S1] is [S0, S1]: the unconstrained result takes it, the unannotated one
// is replicated.
// CHECK-LABEL: func.func @free_and_replicated
// CHECK-SAME: -> (tensor<8x32xf32> {tt.sharding = #tt.sharding<[S0, S1], mesh = 2x4>}, tensor<8x32xf32> {tt.sharding = #tt.sharding<[R, R], mesh = 2x4>})
// PART-LABEL: func.func @free_and_replicated
// PART: "ttir.mesh_shard"(%{{.*}}) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<shard_to_full>, shard_shape = array<i64: 2, 4>, shard_dims = array<i64: 0, 1>} : (tensor<4x8xf32>) -> tensor<8x32xf32>
// PART: "ttir.reshard"
// PART: "ttir.mesh_shard"(%{{.*}}) {shard_type = #ttir.shard_type<replicate>, shard_direction = #ttir.shard_direction<shard_to_full>
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @free_and_replicated(%x: tensor<8x16xf32> {tt.sharding = #tt.sharding<[S0, R]>}, %w: tensor<16x32xf32> {tt.sharding = #tt.sharding<[R, S1]>}) -> (tensor<8x32xf32> {tt.unconstrained}, tensor<8x32xf32>) {
    %0 = "ttir.matmul"(%x, %w) : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    return %0, %0 : tensor<8x32xf32>, tensor<8x32xf32>
  }
}

// -----

// A matmul contracting over y (x [S0, S1], w [S1, R]) leaves partial sums over y: the
// unconstrained result is their sum, [S0, R] (reduced on the mesh, then read by the host).
// CHECK-LABEL: func.func @partial
// CHECK-SAME: -> (tensor<8x32xf32> {tt.sharding = #tt.sharding<[S0, R], mesh = 2x4>})
// PART-LABEL: func.func @partial
// PART: "ttir.reshard"(%{{.*}}) {source = #tt.sharding<[S0, R] P(1), mesh = 2x4>, target = #tt.sharding<[S0, R], mesh = 2x4>}
// PART: shard_direction = #ttir.shard_direction<shard_to_full>, shard_shape = array<i64: 2, 1>, shard_dims = array<i64: 0, -1>
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @partial(%x: tensor<8x16xf32> {tt.sharding = #tt.sharding<[S0, S1]>}, %w: tensor<16x32xf32> {tt.sharding = #tt.sharding<[S1, R]>}) -> (tensor<8x32xf32> {tt.unconstrained}) {
    %0 = "ttir.matmul"(%x, %w) : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    return %0 : tensor<8x32xf32>
  }
}

// -----

// A value split over the mesh's axes in descending order ([S10, R]) has no host transfer
// (shard_dims state ascending axes only): the unconstrained result leaves replicated.
// CHECK-LABEL: func.func @descending
// CHECK-SAME: -> (tensor<8x8xf32> {tt.sharding = #tt.sharding<[R, R], mesh = 2x4>})
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @descending(%x: tensor<8x8xf32>) -> (tensor<8x8xf32> {tt.unconstrained}) {
    %0 = "ttir.sharding_constraint"(%x) {sharding = #tt.sharding<[S10, R]>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %1 = "ttir.relu"(%0) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    return %1 : tensor<8x8xf32>
  }
}
