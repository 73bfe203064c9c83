// Slices, concats and embeddings of sharded tensors, partitioned as distributed systems do them,
// run on both backends against the golden run, with the link bytes derived by hand.
// RUN: meshc-opt %s --split-input-file -p 'tt-register-device{system=t3k mesh-shape=2,4},ttir-partition' | filecheck %s --check-prefix=PART
// RUN: meshc-run %s --split-input-file --pipeline 'ttir-to-ttnn-pipeline{system=t3k mesh-shape=2,4}' --check --report | filecheck %s --check-prefixes=BOTH,TTNN
// RUN: meshc-run %s --split-input-file --pipeline 'ttir-to-ttmetal-pipeline{system=t3k mesh-shape=2,4}' --target ttmetal --check --report | filecheck %s --check-prefixes=BOTH,METAL

// Slice dim 1 (not sharded) of x [S0, R, S1]: each device slices its own piece, nothing moves.
// The concat along dim 2, split over y, needs dim 2 whole: x's slice is gathered along y only
// (an all_gather of 4 pieces of 4x3x4 f32 = 192 B: each device receives 3 pieces, 576 B, over
// 3 link hops in all; 8 devices: 4,608 B). z is replicated: its slice is local.
// PART-LABEL: func.func @main
// PART: "ttir.slice"(%{{.*}}) {begins = [0 : i32, 1 : i32, 0 : i32], ends = [4 : i32, 4 : i32, 4 : i32], step = [1 : i32, 1 : i32, 1 : i32]} : (tensor<4x4x4xf32>) -> tensor<4x3x4xf32>
// PART: "ttir.reshard"(%{{.*}}) {source = #tt.sharding<[S0, R, S1], mesh = 2x4>, target = #tt.sharding<[S0, R, R], mesh = 2x4>} : (tensor<4x3x4xf32>) -> tensor<4x3x16xf32>
// PART: "ttir.concat"({{.*}}) {dim = 2 : si32} : (tensor<4x3x16xf32>, tensor<4x3x8xf32>) -> tensor<4x3x24xf32>
// BOTH: total{{ *}}│ 4,608 │
// TTNN: {{.*}}ttnn.all_gather{{ *}}│{{ *}}4,608 │
// METAL: {{.*}}ttmetal.enqueue_ccl all_gather{{ *}}│{{ *}}4,608 │
// BOTH: check: result0 matches the golden run (exact)
func.func @main(%x: tensor<8x4x16xf32> {tt.sharding = #tt.sharding<[S0, R, S1]>}, %z: tensor<8x4x8xf32>)
    -> (tensor<8x3x24xf32> {tt.sharding = #tt.sharding<[S0, R, R]>}) {
  %y = "ttir.slice"(%x) {begins = [0 : i32, 1 : i32, 0 : i32], ends = [8 : i32, 4 : i32, 16 : i32], step = [1 : i32, 1 : i32, 1 : i32]} : (tensor<8x4x16xf32>) -> tensor<8x3x16xf32>
  %w = "ttir.slice"(%z) {begins = [0 : i32, 0 : i32, 0 : i32], ends = [8 : i32, 3 : i32, 8 : i32], step = [1 : i32, 1 : i32, 1 : i32]} : (tensor<8x4x8xf32>) -> tensor<8x3x8xf32>
  %c = "ttir.concat"(%y, %w) {dim = 2 : si32} : (tensor<8x3x16xf32>, tensor<8x3x8xf32>) -> tensor<8x3x24xf32>
  return %c : tensor<8x3x24xf32>
}

// -----

// A vocab-parallel embedding: the 64x32 table split by rows over y (16 rows a device), the
// indices over x. Each device looks its indices up in its own rows (the rest clamped, and
// masked to 0) and the partial sums are added over y: an all_reduce of the 2x8x32 f32 result
// piece (2,048 B) among 4 devices, a reduce-scatter and an all-gather each moving 3/4 of it
// out of every device: 2 x 3/4 x 2,048 = 3,072 B a device, 24,576 B for 8. (Gathering the
// table instead would move 3 x 16 x 32 x 4 = 6,144 B into each device: 49,152 B.)
// PART-LABEL: func.func @main
// PART: %[[OFF:.*]] = "ttir.constant"() {value = dense<[0, 16, 32, 48]> : tensor<4xi32>}
// PART: "ttir.reshard"(%[[OFF]]) {source = #tt.sharding<[R], mesh = 2x4>, target = #tt.sharding<[S1], mesh = 2x4>} : (tensor<4xi32>) -> tensor<1xi32>
// PART: %[[LOCAL:.*]] = "ttir.subtract"
// PART: %[[CLAMPED:.*]] = "ttir.minimum"
// PART: %[[IN:.*]] = "ttir.eq"(%[[CLAMPED]], %[[LOCAL]])
// PART: %[[ROWS:.*]] = "ttir.embedding"(%[[CLAMPED]], %{{.*}}) : (tensor<2x8xi32>, tensor<16x32xf32>) -> tensor<2x8x32xf32>
// PART: "ttir.multiply"(%[[ROWS]], %{{.*}}) : (tensor<2x8x32xf32>, tensor<2x8x1xf32>) -> tensor<2x8x32xf32>
// PART: "ttir.reshard"(%{{.*}}) {source = #tt.sharding<[S0, R, R] P(1), mesh = 2x4>, target = #tt.sharding<[S0, R, R], mesh = 2x4>}
// BOTH: total{{ *}}│ 24,576 │
// TTNN: {{.*}}ttnn.all_reduce{{ *}}│{{ *}}24,576 │
// METAL: {{.*}}ttmetal.enqueue_ccl all_reduce{{ *}}│{{ *}}24,576 │
// BOTH: check: result0 matches the golden run (exact)
func.func @main(%w: tensor<64x32xf32> {tt.sharding = #tt.sharding<[S1, R]>})
    -> (tensor<4x8x32xf32> {tt.sharding = #tt.sharding<[S0, R, R]>}) {
  %ids = "ttir.constant"() {value = dense<[[5, 42, 15, 52, 25, 62, 35, 8], [45, 18, 55, 28, 1, 38, 11, 48], [21, 58, 31, 4, 41, 14, 51, 24], [61, 34, 7, 44, 17, 54, 27, 0]]> : tensor<4x8xi32>} : () -> tensor<4x8xi32>
  %ids_s = "ttir.sharding_constraint"(%ids) {sharding = #tt.sharding<[S0, R]>} : (tensor<4x8xi32>) -> tensor<4x8xi32>
  %y = "ttir.embedding"(%ids_s, %w) : (tensor<4x8xi32>, tensor<64x32xf32>) -> tensor<4x8x32xf32>
  return %y : tensor<4x8x32xf32>
}
