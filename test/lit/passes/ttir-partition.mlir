// RUN: meshc-opt %s --split-input-file -p 'tt-register-device{system=t3k mesh-shape=2,4},ttir-partition' | filecheck %s

// The Megatron MLP: arguments enter with their specs, ops compute on local shapes, and the
// partial sum of the row-parallel matmul is resharded (reduced) to the result's spec.
// CHECK-LABEL: func.func @mlp
// CHECK-SAME: (%x: tensor<64x64xf32>, %w1: tensor<64x128xf32>, %w2: tensor<128x64xf32>) -> tensor<64x64xf32>
// CHECK: %[[X:.*]] = "ttir.mesh_shard"(%x) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 2, 1>, shard_dims = array<i64: 0, -1>} : (tensor<64x64xf32>) -> tensor<32x64xf32>
// CHECK: %[[W1:.*]] = "ttir.mesh_shard"(%w1) {{.*}}shard_shape = array<i64: 1, 4>, shard_dims = array<i64: -1, 1>} : (tensor<64x128xf32>) -> tensor<64x32xf32>
// CHECK: %[[W2:.*]] = "ttir.mesh_shard"(%w2) {{.*}}shard_shape = array<i64: 4, 1>, shard_dims = array<i64: -1, 0>} : (tensor<128x64xf32>) -> tensor<32x64xf32>
// CHECK: %[[H:.*]] = "ttir.matmul"(%[[X]], %[[W1]]) : (tensor<32x64xf32>, tensor<64x32xf32>) -> tensor<32x32xf32>
// CHECK: %[[G:.*]] = "ttir.relu"(%[[H]]) : (tensor<32x32xf32>) -> tensor<32x32xf32>
// CHECK: %[[Y:.*]] = "ttir.matmul"(%[[G]], %[[W2]]) : (tensor<32x32xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
// CHECK: %[[R:.*]] = "ttir.reshard"(%[[Y]]) {source = #tt.sharding<[S0, R] P(1), mesh = 2x4>, target = #tt.sharding<[S0, R], mesh = 2x4>} : (tensor<32x64xf32>) -> tensor<32x64xf32>
// CHECK: %[[O:.*]] = "ttir.mesh_shard"(%[[R]]) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<shard_to_full>, shard_shape = array<i64: 2, 1>, shard_dims = array<i64: 0, -1>} : (tensor<32x64xf32>) -> tensor<64x64xf32>
// CHECK: func.return %[[O]]
// CHECK-NOT: tt.sharding
func.func @mlp(%x: tensor<64x64xf32> {tt.sharding = #tt.sharding<[S0, R]>}, %w1: tensor<64x128xf32> {tt.sharding = #tt.sharding<[R, S1]>}, %w2: tensor<128x64xf32> {tt.sharding = #tt.sharding<[S1, R]>}) -> (tensor<64x64xf32> {tt.sharding = #tt.sharding<[S0, R]>}) {
  %h = "ttir.matmul"(%x, %w1) : (tensor<64x64xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
  %g = "ttir.relu"(%h) : (tensor<64x128xf32>) -> tensor<64x128xf32>
  %y = "ttir.matmul"(%g, %w2) : (tensor<64x128xf32>, tensor<128x64xf32>) -> tensor<64x64xf32>
  return %y : tensor<64x64xf32>
}

// -----

// A spec mesh_shard cannot state ([S10]: axis 1 major) enters replicated and is resharded; a
// constraint becomes a reshard; an unannotated result is gathered (replicated) at the return.
// CHECK-LABEL: func.func @entry_and_constraint
// CHECK: %[[X:.*]] = "ttir.mesh_shard"(%x) {shard_type = #ttir.shard_type<replicate>{{.*}} -> tensor<64x8xf32>
// CHECK: %[[A:.*]] = "ttir.reshard"(%[[X]]) {source = #tt.sharding<[R, R], mesh = 2x4>, target = #tt.sharding<[S10, R], mesh = 2x4>} : (tensor<64x8xf32>) -> tensor<8x8xf32>
// CHECK: %[[E:.*]] = "ttir.exp"(%[[A]]) : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK: %[[C:.*]] = "ttir.reshard"(%[[E]]) {source = #tt.sharding<[S10, R], mesh = 2x4>, target = #tt.sharding<[S0, R], mesh = 2x4>} : (tensor<8x8xf32>) -> tensor<32x8xf32>
// CHECK: %[[N:.*]] = "ttir.neg"(%[[C]]) : (tensor<32x8xf32>) -> tensor<32x8xf32>
// CHECK: %[[G:.*]] = "ttir.reshard"(%[[N]]) {source = #tt.sharding<[S0, R], mesh = 2x4>, target = #tt.sharding<[R, R], mesh = 2x4>} : (tensor<32x8xf32>) -> tensor<64x8xf32>
// CHECK: "ttir.mesh_shard"(%[[G]]) {shard_type = #ttir.shard_type<replicate>, shard_direction = #ttir.shard_direction<shard_to_full>
func.func @entry_and_constraint(%x: tensor<64x8xf32> {tt.sharding = #tt.sharding<[S10, R]>}) -> tensor<64x8xf32> {
  %0 = "ttir.exp"(%x) : (tensor<64x8xf32>) -> tensor<64x8xf32>
  %1 = "ttir.sharding_constraint"(%0) {sharding = #tt.sharding<[S0, R]>} : (tensor<64x8xf32>) -> tensor<64x8xf32>
  %2 = "ttir.neg"(%1) : (tensor<64x8xf32>) -> tensor<64x8xf32>
  return %2 : tensor<64x8xf32>
}

// -----

// Shape-carrying attributes follow the local shapes: a splat constant is made at its local
// shape, reshape's `shape` and broadcast's repeat counts are rewritten; a non-splat constant
// is made whole and sliced.
// CHECK-LABEL: func.func @attributes
// CHECK: "ttir.constant"() {value = dense<1.000000e+00> : tensor<16x16xf32>} : () -> tensor<16x16xf32>
// CHECK: "ttir.reshape"({{.*}}) {shape = [4 : i32, 4 : i32, 16 : i32]} : (tensor<16x16xf32>) -> tensor<4x4x16xf32>
// CHECK: "ttir.broadcast"({{.*}}) {broadcast_dimensions = array<i64: 1, 16>} : (tensor<32x1xf32>) -> tensor<32x16xf32>
// CHECK: %[[K:.*]] = "ttir.constant"() {value = dense<{{\[}}[1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>} : () -> tensor<2x2xf32>
// CHECK: "ttir.reshard"(%[[K]]) {source = #tt.sharding<[R, R], mesh = 2x4>, target = #tt.sharding<[S0, R], mesh = 2x4>} : (tensor<2x2xf32>) -> tensor<1x2xf32>
func.func @attributes(%x: tensor<32x64xf32> {tt.sharding = #tt.sharding<[S0, S1]>}, %b: tensor<32x1xf32> {tt.sharding = #tt.sharding<[R, R]>}, %k: tensor<2x2xf32> {tt.sharding = #tt.sharding<[S0, R]>}) -> (tensor<32x64xf32> {tt.sharding = #tt.sharding<[S0, S1]>}, tensor<8x4x64xf32> {tt.sharding = #tt.sharding<[S0, R, S1]>}, tensor<32x64xf32> {tt.sharding = #tt.sharding<[R, S1]>}, tensor<2x2xf32> {tt.sharding = #tt.sharding<[S0, R]>}) {
  %c = "ttir.constant"() {value = dense<1.0> : tensor<32x64xf32>} : () -> tensor<32x64xf32>
  %0 = "ttir.add"(%x, %c) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
  %1 = "ttir.reshape"(%0) {shape = [8 : i32, 4 : i32, 64 : i32]} : (tensor<32x64xf32>) -> tensor<8x4x64xf32>
  %2 = "ttir.broadcast"(%b) {broadcast_dimensions = array<i64: 1, 64>} : (tensor<32x1xf32>) -> tensor<32x64xf32>
  %m = "ttir.constant"() {value = dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>} : () -> tensor<2x2xf32>
  %3 = "ttir.add"(%k, %m) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return %0, %1, %2, %3 : tensor<32x64xf32>, tensor<8x4x64xf32>, tensor<32x64xf32>, tensor<2x2xf32>
}
