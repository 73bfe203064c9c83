// RUN: meshc-opt %s --split-input-file -p 'ttir-propagate-sharding' --verify-diagnostics
// RUN: not meshc-opt %s --split-input-file -p 'ttir-propagate-sharding' 2>&1 | filecheck %s

// An argument annotation of the wrong rank.
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  // CHECK: ttir-propagate-sharding-errors.mlir:8:3: error: 'func.func' op argument #0: sharding [S0] has 1 dims but the tensor tensor<8x8xf32> has rank 2
  // expected-error @+1 {{argument #0: sharding [S0] has 1 dims but the tensor tensor<8x8xf32> has rank 2}}
  func.func @f(%x: tensor<8x8xf32> {tt.sharding = #tt.sharding<[S0]>}) -> tensor<8x8xf32> {
    %0 = "ttir.relu"(%x) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    return %0 : tensor<8x8xf32>
  }
}

// -----

// A result annotation over another mesh than the module's.
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  // CHECK: error: 'func.func' op result #0: spec [S0, R] is over the mesh 2x2, not the mesh 2x4
  // expected-error @+1 {{result #0: spec [S0, R] is over the mesh 2x2, not the mesh 2x4}}
  func.func @f(%x: tensor<8x8xf32>) -> (tensor<8x8xf32> {tt.sharding = #tt.sharding<[S0, R], mesh = 2x2>}) {
    %0 = "ttir.relu"(%x) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    return %0 : tensor<8x8xf32>
  }
}

// -----

// An annotation naming a mesh axis the module's mesh lacks.
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  // CHECK: error: 'func.func' op argument #0: spec [R, S2] uses mesh axis 2, but the mesh 2x4 has 2 axes
  // expected-error @+1 {{argument #0: spec [R, S2] uses mesh axis 2, but the mesh 2x4 has 2 axes}}
  func.func @f(%x: tensor<8x8xf32> {tt.sharding = #tt.sharding<[R, S2]>}) -> tensor<8x8xf32> {
    %0 = "ttir.relu"(%x) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    return %0 : tensor<8x8xf32>
  }
}

// -----

// An annotation places a value: it cannot be a partial sum.
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  // CHECK: error: 'func.func' op argument #0: sharding [S0, R] P(1) holds partial sums
  // expected-error @+1 {{argument #0: sharding [S0, R] P(1) holds partial sums; an annotation places a value, so it may not be partial (drop the P(...))}}
  func.func @f(%x: tensor<8x8xf32> {tt.sharding = #tt.sharding<[S0, R] P1>}) -> tensor<8x8xf32> {
    %0 = "ttir.relu"(%x) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    return %0 : tensor<8x8xf32>
  }
}

// -----

// A sharding_constraint whose spec does not fit its tensor (checked by the op's verifier).
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @f(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
    // CHECK: ttir-propagate-sharding-errors.mlir:57:5: error: 'ttir.sharding_constraint' op sharding: sharding [S0, R, R] has 3 dims but the tensor tensor<8x8xf32> has rank 2
    // expected-error @+1 {{sharding: sharding [S0, R, R] has 3 dims but the tensor tensor<8x8xf32> has rank 2}}
    %0 = "ttir.sharding_constraint"(%x) {sharding = #tt.sharding<[S0, R, R]>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
    return %0 : tensor<8x8xf32>
  }
}

// -----

// A sharding_constraint changes no type.
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @f(%x: tensor<8x8xf32>) -> tensor<8x4xf32> {
    // CHECK: error: 'ttir.sharding_constraint' op result type tensor<8x4xf32> differs from the operand's tensor<8x8xf32>
    // expected-error @+1 {{result type tensor<8x4xf32> differs from the operand's tensor<8x8xf32>}}
    %0 = "ttir.sharding_constraint"(%x) {sharding = #tt.sharding<[S0, R]>} : (tensor<8x8xf32>) -> tensor<8x4xf32>
    return %0 : tensor<8x4xf32>
  }
}

// -----

// Annotations in a program already written per device (SPMD) are refused.
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @f(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
    %0 = "ttir.mesh_shard"(%x) {shard_type = #ttir.shard_type<replicate>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 1>, shard_dims = array<i64: -1, -1>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
    // CHECK: error: 'ttir.sharding_constraint' op sharding annotations belong to global-view programs; this one already has SPMD ops
    // expected-error @+1 {{sharding annotations belong to global-view programs; this one already has SPMD ops (ttir.mesh_shard, collectives): drop the annotations or the SPMD ops}}
    %1 = "ttir.sharding_constraint"(%0) {sharding = #tt.sharding<[S0, R]>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %2 = "ttir.mesh_shard"(%1) {shard_type = #ttir.shard_type<replicate>, shard_direction = #ttir.shard_direction<shard_to_full>, shard_shape = array<i64: 1, 1>, shard_dims = array<i64: -1, -1>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
    return %2 : tensor<8x8xf32>
  }
}
