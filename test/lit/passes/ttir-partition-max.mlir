// A max reduction over a split dim: each device takes the maximum of its piece, then a max
// all_reduce over each axis splitting a reduced dim (meshc/passes/partition_select.py). TTNN runs
// that all_reduce as ttir-decompose-ccl-reductions makes it (an all_gather of the per-device maxima,
// a max of them); TTMetal by its CCL kernels. Exact against the golden run; link bytes by hand on
// the T3K's rows (4 chips in a line: an all_gather of k pieces of B bytes crosses k (k - 1) B of
// links; a ring all-reduce of B bytes 2 (k - 1) B, as test/unit/test_zoo.py derives it).
// RUN: meshc-opt %s --split-input-file -p 'tt-register-device{system=t3k mesh-shape=2,4},ttir-partition' | filecheck %s --check-prefix=PART
// RUN: meshc-run %s --split-input-file --pipeline 'ttir-to-ttnn-pipeline{system=t3k mesh-shape=2,4}' --check --report | filecheck %s --check-prefix=TTNN
// RUN: meshc-run %s --split-input-file --pipeline 'ttir-to-ttmetal-pipeline{system=t3k mesh-shape=2,4}' --target ttmetal --check --report | filecheck %s --check-prefix=METAL

// max over dim 1 of x 4x1024 f32 split over y (256 columns a chip, each mesh row holds all of x):
// each chip's 4 maxima (16 B), gathered over the row's 4 chips on TTNN, 4 x 3 x 16 = 192 B a row,
// 2 rows = 384 B; a ring all-reduce of 16 B on TTMetal, 2 x 3 x 16 = 96 B a row, 192 B. Gathering
// x first (the keep factor's reshard before) moved 4 x 3 x 4 KiB a row, 98,304 B.
// PART-LABEL: func.func @main
// PART: %[[M:.*]] = "ttir.max"(%{{.*}}) {dim_arg = [1 : i32], keep_dim = false} : (tensor<4x256xf32>) -> tensor<4xf32>
// PART-NEXT: "ttir.all_reduce"(%[[M]]) {cluster_axis = 1 : ui32, reduce_type = #ttir.reduce_type<max>} : (tensor<4xf32>) -> tensor<4xf32>
// PART-NOT: ttir.reshard
// TTNN: total{{ *}}│ 384 │
// TTNN: check: result0 matches the golden run (exact)
// METAL: total{{ *}}│ 192 │
// METAL: check: result0 matches the golden run (exact)
func.func @main(%x: tensor<4x1024xf32> {tt.sharding = #tt.sharding<[R, S1]>}) -> (tensor<4xf32> {tt.sharding = #tt.sharding<[R]>}) {
  %y = "ttir.max"(%x) {dim_arg = [1 : i32], keep_dim = false} : (tensor<4x1024xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// max over both dims of x 8x64 split [S0, S1] (4x16 a chip), keep_dim: one maximum a chip (4 B),
// all-reduced over x, then over y. On TTNN gathered down each of the 4 columns (2 x 1 x 4 = 8 B), then
// along each of the 2 rows (4 x 3 x 4 = 48 B): 32 + 96 = 128 B. On TTMetal ring all-reduces, the
// 4 B maximum padded to one element a chip of the group (8 B over a column's 2, 16 B over a row's
// 4): 2 x 1 x 8 a column and 2 x 3 x 16 a row, 4 x 16 + 2 x 96 = 256 B.
// PART-LABEL: func.func @main
// PART: %[[M:.*]] = "ttir.max"(%{{.*}}) {dim_arg = [0 : i32, 1 : i32], keep_dim = true} : (tensor<4x16xf32>) -> tensor<1x1xf32>
// PART-NEXT: %[[A:.*]] = "ttir.all_reduce"(%[[M]]) {cluster_axis = 0 : ui32, reduce_type = #ttir.reduce_type<max>}
// PART-NEXT: "ttir.all_reduce"(%[[A]]) {cluster_axis = 1 : ui32, reduce_type = #ttir.reduce_type<max>}
// TTNN: total{{ *}}│ 128 │
// TTNN: check: result0 matches the golden run (exact)
// METAL: total{{ *}}│ 256 │
// METAL: check: result0 matches the golden run (exact)
func.func @main(%x: tensor<8x64xf32> {tt.sharding = #tt.sharding<[S0, S1]>}) -> (tensor<1x1xf32> {tt.sharding = #tt.sharding<[R, R]>}) {
  %y = "ttir.max"(%x) {dim_arg = [0 : i32, 1 : i32], keep_dim = true} : (tensor<8x64xf32>) -> tensor<1x1xf32>
  return %y : tensor<1x1xf32>
}

// -----

// Uneven: x 4x10 split over y into 3, 3, 3, 1 columns, each buffer padded to 3. The padding is
// masked to -inf (the global column of each buffer position, 0..11 split over y, below 10) before
// the local max; then the all_reduce of the 4 maxima as above (x enters replicated and is sliced
// on the mesh: no link bytes), 384 B on TTNN, 192 B on TTMetal.
// PART-LABEL: func.func @main
// PART: "ttir.constant"() {value = dense<[0.000000e+00, 1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00, 7.000000e+00, 8.000000e+00, 9.000000e+00, 1.000000e+01, 1.100000e+01]> : tensor<12xf32>}
// PART: %[[V:.*]] = "ttir.lt"
// PART: "ttir.constant"() {value = dense<0xff800000> : tensor<1x1xf32>}
// PART: %[[W:.*]] = "ttir.where"(%[[V]], %{{.*}}, %{{.*}}) : (tensor<1x3xf32>, tensor<4x3xf32>, tensor<1x1xf32>) -> tensor<4x3xf32>
// PART-NEXT: %[[M:.*]] = "ttir.max"(%[[W]]) {dim_arg = [1 : i32], keep_dim = false} : (tensor<4x3xf32>) -> tensor<4xf32>
// PART-NEXT: "ttir.all_reduce"(%[[M]]) {cluster_axis = 1 : ui32, reduce_type = #ttir.reduce_type<max>}
// TTNN: total{{ *}}│ 384 │
// TTNN: check: result0 matches the golden run (exact)
// METAL: total{{ *}}│ 192 │
// METAL: check: result0 matches the golden run (exact)
func.func @main(%x: tensor<4x10xf32> {tt.sharding = #tt.sharding<[R, S1]>}) -> (tensor<4xf32> {tt.sharding = #tt.sharding<[R]>}) {
  %y = "ttir.max"(%x) {dim_arg = [1 : i32], keep_dim = false} : (tensor<4x10xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
