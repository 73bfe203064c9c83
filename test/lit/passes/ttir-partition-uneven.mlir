// RUN: meshc-opt %s --split-input-file -p 'ttir-partition' | filecheck %s
// RUN: meshc-opt %s --split-input-file -p 'ttir-partition,reshard-to-collectives' | filecheck %s --check-prefix=MOVES

// Uneven splits are held padded (docs/propagation.md, "Uneven splits"): 10 columns in 4 pieces
// of ceil(10 / 4) = 3 (3, 3, 3, 1), every device a buffer of 8x3. The argument crosses the host
// link replicated (mesh_shard states even splits only) and is sliced on the mesh (no moves);
// relu, elementwise, runs on the buffers; the reshards state the tensor (full_shape) and lower
// to point-to-point moves of the real pieces.
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @f(%x: tensor<8x10xf32> {tt.sharding = #tt.sharding<[R, S1]>}) -> tensor<8x10xf32> {
    %0 = "ttir.relu"(%x) : (tensor<8x10xf32>) -> tensor<8x10xf32>
    return %0 : tensor<8x10xf32>
  }
}
// CHECK-LABEL: func.func @f
// CHECK:      %[[X:.*]] = "ttir.mesh_shard"(%x) {shard_type = #ttir.shard_type<replicate>, {{.*}}} : (tensor<8x10xf32>) -> tensor<8x10xf32>
// CHECK-NEXT: %[[P:.*]] = "ttir.reshard"(%[[X]]) {source = #tt.sharding<[R, R], mesh = 2x4>, target = #tt.sharding<[R, S1], mesh = 2x4>, full_shape = array<i64: 8, 10>} : (tensor<8x10xf32>) -> tensor<8x3xf32>
// CHECK-NEXT: %[[R:.*]] = "ttir.relu"(%[[P]]) : (tensor<8x3xf32>) -> tensor<8x3xf32>
// CHECK-NEXT: "ttir.reshard"(%[[R]]) {source = #tt.sharding<[R, S1], mesh = 2x4>, target = #tt.sharding<[R, R], mesh = 2x4>, full_shape = array<i64: 8, 10>} : (tensor<8x3xf32>) -> tensor<8x10xf32>
// MOVES-LABEL: func.func @f
// MOVES:      "ttir.point_to_point"(%{{.*}}) {source = #tt.sharding<[R, R], mesh = 2x4>, target = #tt.sharding<[R, S1], mesh = 2x4>, transfers = array<i64>, full_shape = array<i64: 8, 10>} : (tensor<8x10xf32>) -> tensor<8x3xf32>
// MOVES:      "ttir.point_to_point"(%{{.*}}) {source = #tt.sharding<[R, S1], mesh = 2x4>, target = #tt.sharding<[R, R], mesh = 2x4>, transfers = array<i64: {{.*}}>, full_shape = array<i64: 8, 10>} : (tensor<8x3xf32>) -> tensor<8x10xf32>

// -----

// A constraint splitting 6 rows over all 8 devices: pieces of 1 (the last two empty), buffers
// of 1x8; exp computes on them; the result is gathered for the host.
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @g(%x: tensor<6x8xf32>) -> tensor<6x8xf32> {
    %0 = "ttir.sharding_constraint"(%x) {sharding = #tt.sharding<[S01, R]>} : (tensor<6x8xf32>) -> tensor<6x8xf32>
    %1 = "ttir.exp"(%0) : (tensor<6x8xf32>) -> tensor<6x8xf32>
    return %1 : tensor<6x8xf32>
  }
}
// CHECK-LABEL: func.func @g
// CHECK:      "ttir.reshard"(%{{.*}}) {source = #tt.sharding<[R, R], mesh = 2x4>, target = #tt.sharding<[S01, R], mesh = 2x4>, full_shape = array<i64: 6, 8>} : (tensor<6x8xf32>) -> tensor<1x8xf32>
// CHECK-NEXT: "ttir.exp"(%{{.*}}) : (tensor<1x8xf32>) -> tensor<1x8xf32>

// -----

// Partial sums to an uneven placement: the matmul's sharded K leaves partial sums over axis 1;
// they are reduced on an even placement first (point-to-point moves cannot add), then sliced.
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @h(%x: tensor<8x16xf32> {tt.sharding = #tt.sharding<[R, S1]>}, %w: tensor<16x10xf32> {tt.sharding = #tt.sharding<[S1, R]>}) -> tensor<8x10xf32> {
    %0 = "ttir.matmul"(%x, %w) : (tensor<8x16xf32>, tensor<16x10xf32>) -> tensor<8x10xf32>
    %1 = "ttir.sharding_constraint"(%0) {sharding = #tt.sharding<[R, S1]>} : (tensor<8x10xf32>) -> tensor<8x10xf32>
    return %1 : tensor<8x10xf32>
  }
}
// CHECK-LABEL: func.func @h
// CHECK:      %[[M:.*]] = "ttir.matmul"(%{{.*}}, %{{.*}}) : (tensor<8x4xf32>, tensor<4x10xf32>) -> tensor<8x10xf32>
// CHECK-NEXT: %[[S:.*]] = "ttir.reshard"(%[[M]]) {source = #tt.sharding<[R, R] P(1), mesh = 2x4>, target = #tt.sharding<[R, R], mesh = 2x4>} : (tensor<8x10xf32>) -> tensor<8x10xf32>
// CHECK-NEXT: "ttir.reshard"(%[[S]]) {source = #tt.sharding<[R, R], mesh = 2x4>, target = #tt.sharding<[R, S1], mesh = 2x4>, full_shape = array<i64: 8, 10>} : (tensor<8x10xf32>) -> tensor<8x3xf32>
// MOVES-LABEL: func.func @h
// MOVES:      "ttir.all_reduce"
// MOVES:      "ttir.point_to_point"(%{{.*}}) {{.*}}transfers = array<i64>, full_shape = array<i64: 8, 10>} : (tensor<8x10xf32>) -> tensor<8x3xf32>
