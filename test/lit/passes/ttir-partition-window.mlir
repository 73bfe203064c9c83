// Slices and concatenations along a split dim: each device takes its piece of the result from the
// pieces that hold it (a windowed ttir.point_to_point), never gathering the dim. Run on both
// backends against the golden run; the link bytes are derived by hand in each chunk.
// RUN: meshc-opt %s --split-input-file -p 'tt-register-device{system=t3k mesh-shape=2,4},ttir-partition' | filecheck %s --check-prefix=PART
// RUN: meshc-run %s --split-input-file --pipeline 'ttir-to-ttnn-pipeline{system=t3k mesh-shape=2,4}' --check --report | filecheck %s --check-prefixes=BOTH,TTNN
// RUN: meshc-run %s --split-input-file --pipeline 'ttir-to-ttmetal-pipeline{system=t3k mesh-shape=2,4}' --target ttmetal --check --report | filecheck %s --check-prefixes=BOTH,METAL

// x 8x16 [S0, S1]: along y the devices hold columns [0, 4), [4, 8), [8, 12), [12, 16) (4 rows
// a device). x[:, 2:14] is 12 columns, 3 a device: [2, 5), [5, 8), [8, 11), [11, 14). y=0 lacks
// column 4 (from y=1), y=3 column 11 (from y=2), y=1 and y=2 hold theirs: 2 columns x 4 rows x
// 4 B = 32 B a mesh row over one link each, 64 B for the 2 rows (a row of transfers: step, src,
// dst, then the rows and columns moved: device 1 sends rows [0, 4) of column 4 to device 0).
// (Gathering x along y first moved 3 x 64 B into each of the 8 devices: 1,536 B.)
// PART-LABEL: func.func @main
// PART: "ttir.point_to_point"(%{{.*}}) {source = #tt.sharding<[S0, S1], mesh = 2x4>, target = #tt.sharding<[S0, S1], mesh = 2x4>,
// PART-SAME: transfers = array<i64: 0, 1, 0, 0, 4, 4, 5, 0, 2, 3, 0, 4, 11, 12, 0, 5, 4, 4, 8, 4, 5, 0, 6, 7, 4, 8, 11, 12>, window = array<i64: 0, 8, 2, 14>} : (tensor<4x4xf32>) -> tensor<4x3xf32>
// PART-NOT: ttir.slice
// BOTH: total{{ *}}│ 64 │
// TTNN: {{.*}}ttnn.point_to_point{{ *}}│{{ *}}64 │
// METAL: {{.*}}ttmetal.enqueue_ccl point_to_point{{ *}}│{{ *}}64 │
// BOTH: check: result0 matches the golden run (exact)
func.func @main(%x: tensor<8x16xf32> {tt.sharding = #tt.sharding<[S0, S1]>}) -> (tensor<8x12xf32> {tt.sharding = #tt.sharding<[S0, S1]>}) {
  %y = "ttir.slice"(%x) {begins = [0 : i32, 2 : i32], ends = [8 : i32, 14 : i32], step = [1 : i32, 1 : i32]} : (tensor<8x16xf32>) -> tensor<8x12xf32>
  return %y : tensor<8x12xf32>
}

// -----

// Uneven pieces: x 8x10 [S0, S1] holds columns [0, 3), [3, 6), [6, 9), [9, 10) along y (torch.chunk,
// buffers of 3, padded). x[:, 1:9] is 8 columns, 2 a device: [1, 3), [3, 5), [5, 7), [7, 9).
// y=0 and y=1 hold theirs; y=2 lacks column 5 (from y=1), y=3 columns 7 and 8 (from y=2): 3
// columns x 4 rows x 4 B = 48 B a mesh row over one link each, 96 B. The uneven argument enters
// replicated and is cut on the mesh (no link bytes).
// PART-LABEL: func.func @main
// PART: "ttir.point_to_point"(%{{.*}}) {source = #tt.sharding<[S0, S1], mesh = 2x4>, target = #tt.sharding<[S0, S1], mesh = 2x4>,
// PART-SAME: full_shape = array<i64: 8, 10>
// PART-SAME: : (tensor<4x3xf32>) -> tensor<4x2xf32>
// BOTH: total{{ *}}│ 96 │
// BOTH: check: result0 matches the golden run (exact)
func.func @main(%x: tensor<8x10xf32>) -> (tensor<8x8xf32> {tt.sharding = #tt.sharding<[S0, S1]>}) {
  %xs = "ttir.sharding_constraint"(%x) {sharding = #tt.sharding<[S0, S1]>} : (tensor<8x10xf32>) -> tensor<8x10xf32>
  %y = "ttir.slice"(%xs) {begins = [0 : i32, 1 : i32], ends = [8 : i32, 9 : i32], step = [1 : i32, 1 : i32]} : (tensor<8x10xf32>) -> tensor<8x8xf32>
  return %y : tensor<8x8xf32>
}

// -----

// concat of a 8x16 and b 8x8, both [S0, S1], along dim 1 into 8x24 [S0, S1]. Along y, a's
// pieces are result columns [0, 4), [4, 8), [8, 12), [12, 16), b's [16, 18), [18, 20), [20, 22),
// [22, 24); the result's pieces [0, 6), [6, 12), [12, 18), [18, 24). y=0 lacks [4, 6) (from y=1,
// 1 hop); y=1 lacks [8, 12) (y=2, 1 hop); y=2 lacks [12, 16) (y=3, 1 hop) and [16, 18) (y=0, 2
// hops); y=3 lacks [18, 20) (y=1, 2 hops) and [20, 22) (y=2, 1 hop): 2 + 4 + 4 + 2x2 + 2x2 + 2 =
// 20 column-hops x 4 rows x 4 B = 320 B a mesh row, 640 B. Each operand is moved into the
// result's pieces (zeros elsewhere) and the two added. (Gathering both along y first moved
// 3 x 64 B + 3 x 32 B into each of the 8 devices: 2,304 B.)
// PART-LABEL: func.func @main
// PART: %[[A:.*]] = "ttir.point_to_point"(%{{.*}}) {{{.*}}window = array<i64: 0, 8, 0, 24>} : (tensor<4x4xf32>) -> tensor<4x6xf32>
// PART: %[[B:.*]] = "ttir.point_to_point"(%{{.*}}) {{{.*}}window = array<i64: 0, 8, -16, 8>} : (tensor<4x2xf32>) -> tensor<4x6xf32>
// PART: "ttir.add"(%[[A]], %[[B]]) : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
// PART-NOT: ttir.concat
// BOTH: total{{ *}}│ 640 │
// BOTH: check: result0 matches the golden run (exact)
func.func @main(%a: tensor<8x16xf32> {tt.sharding = #tt.sharding<[S0, S1]>}, %b: tensor<8x8xf32> {tt.sharding = #tt.sharding<[S0, S1]>})
    -> (tensor<8x24xf32> {tt.sharding = #tt.sharding<[S0, S1]>}) {
  %c = "ttir.concat"(%a, %b) {dim = 1 : si32} : (tensor<8x16xf32>, tensor<8x8xf32>) -> tensor<8x24xf32>
  return %c : tensor<8x24xf32>
}

// -----

// A strided slice of a split dim is not a window: the dim is gathered along x first (x[0:8:2]
// of 8x16 [S0, S1]: one 4x4 f32 piece, 64 B, into each device, 512 B), then each device slices.
// PART-LABEL: func.func @main
// PART: "ttir.reshard"(%{{.*}}) {source = #tt.sharding<[S0, S1], mesh = 2x4>, target = #tt.sharding<[R, S1], mesh = 2x4>}
// PART: "ttir.slice"
// BOTH: total{{ *}}│ 512 │
// BOTH: check: result0 matches the golden run (exact)
func.func @main(%x: tensor<8x16xf32> {tt.sharding = #tt.sharding<[S0, S1]>}) -> (tensor<4x16xf32> {tt.sharding = #tt.sharding<[R, S1]>}) {
  %y = "ttir.slice"(%x) {begins = [0 : i32, 0 : i32], ends = [8 : i32, 16 : i32], step = [2 : i32, 1 : i32]} : (tensor<8x16xf32>) -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}
