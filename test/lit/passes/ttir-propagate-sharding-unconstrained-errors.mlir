// `tt.unconstrained` is a unit attribute on a function result, alone: a result both placed and
// unconstrained, the mark on an argument, or with a value, is refused, located at the function;
// so is the mark in a program written per device (like any sharding annotation there).
// RUN: meshc-opt %s --split-input-file -p 'ttir-propagate-sharding' --verify-diagnostics
// RUN: not meshc-opt %s --split-input-file -p 'ttir-propagate-sharding' 2>&1 | filecheck %s

module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  // CHECK: ttir-propagate-sharding-unconstrained-errors.mlir:[[# @LINE + 2]]:3: error: 'func.func' op result #0 is both placed (tt.sharding) and tt.unconstrained: a result leaves the devices as its tt.sharding says, or unconstrained in its value's sharding; keep one
  // expected-error @+1 {{result #0 is both placed (tt.sharding) and tt.unconstrained: a result leaves the devices as its tt.sharding says, or unconstrained in its value's sharding; keep one}}
  func.func @f(%x: tensor<8x8xf32>) -> (tensor<8x8xf32> {tt.sharding = #tt.sharding<[S0, R]>, tt.unconstrained}) {
    %0 = "ttir.relu"(%x) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    return %0 : tensor<8x8xf32>
  }
}

// -----

module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  // CHECK: error: 'func.func' op argument #0: tt.unconstrained marks a result left to propagation; an argument enters as its tt.sharding says (replicated without one)
  // expected-error @+1 {{argument #0: tt.unconstrained marks a result left to propagation; an argument enters as its tt.sharding says (replicated without one)}}
  func.func @f(%x: tensor<8x8xf32> {tt.unconstrained}) -> tensor<8x8xf32> {
    %0 = "ttir.relu"(%x) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    return %0 : tensor<8x8xf32>
  }
}

// -----

module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  // CHECK: error: 'func.func' op result #0: tt.unconstrained is a unit attribute (write {tt.unconstrained}), got tt.unconstrained = true
  // expected-error @+1 {{result #0: tt.unconstrained is a unit attribute (write {tt.unconstrained}), got tt.unconstrained = true}}
  func.func @f(%x: tensor<8x8xf32>) -> (tensor<8x8xf32> {tt.unconstrained = true}) {
    %0 = "ttir.relu"(%x) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    return %0 : tensor<8x8xf32>
  }
}

// -----

module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  // CHECK: error: 'func.func' op sharding annotations belong to global-view programs; this one already has SPMD ops
  // expected-error @+1 {{sharding annotations belong to global-view programs; this one already has SPMD ops (ttir.mesh_shard, collectives): drop the annotations or the SPMD ops}}
  func.func @f(%x: tensor<8x8xf32>) -> (tensor<8x8xf32> {tt.unconstrained}) {
    %0 = "ttir.mesh_shard"(%x) {shard_type = #ttir.shard_type<replicate>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 1>, shard_dims = array<i64: -1, -1>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %1 = "ttir.mesh_shard"(%0) {shard_type = #ttir.shard_type<replicate>, shard_direction = #ttir.shard_direction<shard_to_full>, shard_shape = array<i64: 1, 1>, shard_dims = array<i64: -1, -1>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
    return %1 : tensor<8x8xf32>
  }
}
