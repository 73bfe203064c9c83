// A min reduction over a split dim, built as the max one is (meshc/passes/partition_select.py):
// each device takes the minimum of its piece, then a `reduce_type = min` all_reduce over each axis
// splitting a reduced dim. TTNN runs that all_reduce as ttir-decompose-ccl-reductions makes it
// (TTNN's all_reduce sums only): the minima order-reversed (neg on floats, bitwise_not on
// integers), all_gathered, maxed, reversed back; TTMetal by its CCL kernels, which reduce by
// min. Exact against the golden run; link bytes by hand on the T3K's rows (4 chips in a line: an
// all_gather of k pieces of B bytes crosses k (k - 1) B of links; a ring all-reduce of B bytes
// 2 (k - 1) B).
// RUN: meshc-opt %s --split-input-file -p 'tt-register-device{system=t3k mesh-shape=2,4},ttir-partition' | filecheck %s --check-prefix=PART
// RUN: meshc-opt %s --split-input-file -p 'tt-register-device{system=t3k mesh-shape=2,4},ttir-partition,ttir-decompose-ccl-reductions' | filecheck %s --check-prefix=DECOMP
// RUN: meshc-run %s --split-input-file --pipeline 'ttir-to-ttnn-pipeline{system=t3k mesh-shape=2,4}' --check --report | filecheck %s --check-prefix=TTNN
// RUN: meshc-run %s --split-input-file --pipeline 'ttir-to-ttmetal-pipeline{system=t3k mesh-shape=2,4}' --target ttmetal --check --report | filecheck %s --check-prefix=METAL

// min over dim 1 of x 4x1024 f32 split over y (256 columns a chip; each mesh row holds all of x):
// each chip's 4 minima (16 B) gathered over the row's 4 chips on TTNN, 4 x 3 x 16 = 192 B a row,
// 2 rows = 384 B; a ring all-reduce of 16 B on TTMetal, 2 x 3 x 16 = 96 B a row, 192 B. Gathering
// x first moved 4 x 3 x 4 KiB a row, 98,304 B.
// PART-LABEL: func.func @main
// PART: %[[M:.*]] = "ttir.min"(%{{.*}}) {dim_arg = [1 : i32], keep_dim = false} : (tensor<4x256xf32>) -> tensor<4xf32>
// PART-NEXT: "ttir.all_reduce"(%[[M]]) {cluster_axis = 1 : ui32, reduce_type = #ttir.reduce_type<min>} : (tensor<4xf32>) -> tensor<4xf32>
// PART-NOT: ttir.reshard
// DECOMP-LABEL: func.func @main
// DECOMP: %[[M:.*]] = "ttir.min"
// DECOMP-NEXT: %[[N:.*]] = "ttir.neg"(%[[M]])
// DECOMP-NEXT: %[[R:.*]] = "ttir.reshape"(%[[N]])
// DECOMP-NEXT: %[[G:.*]] = "ttir.all_gather"(%[[R]]) {all_gather_dim = 0 : si32, cluster_axis = 1 : ui32} : (tensor<1x4xf32>) -> tensor<4x4xf32>
// DECOMP-NEXT: %[[X:.*]] = "ttir.max"(%[[G]])
// DECOMP-NEXT: "ttir.neg"(%[[X]])
// TTNN: total{{ *}}│ 384 │
// TTNN: check: result0 matches the golden run (exact)
// METAL: total{{ *}}│ 192 │
// METAL: check: result0 matches the golden run (exact)
func.func @main(%x: tensor<4x1024xf32> {tt.sharding = #tt.sharding<[R, S1]>}) -> (tensor<4xf32> {tt.sharding = #tt.sharding<[R]>}) {
  %y = "ttir.min"(%x) {dim_arg = [1 : i32], keep_dim = false} : (tensor<4x1024xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// An i32 min over both dims of x 8x64 split [S0, S1] (4x16 a chip), keep_dim: one minimum a chip
// (4 B), all-reduced over x, then over y. TTNN order-reverses integers with bitwise_not (neg
// would wrap the smallest i32 onto itself) and gathers down each of the 4 columns (2 x 1 x 4 =
// 8 B), then along each of the 2 rows (4 x 3 x 4 = 48 B): 32 + 96 = 128 B. TTMetal's ring
// all-reduces pad the 4 B to one element a chip of the group (8 B over a column's 2, 16 B over a
// row's 4): 2 x 1 x 8 a column and 2 x 3 x 16 a row, 4 x 16 + 2 x 96 = 256 B.
// PART-LABEL: func.func @main
// PART: %[[M:.*]] = "ttir.min"(%{{.*}}) {dim_arg = [0 : i32, 1 : i32], keep_dim = true} : (tensor<4x16xi32>) -> tensor<1x1xi32>
// PART-NEXT: %[[A:.*]] = "ttir.all_reduce"(%[[M]]) {cluster_axis = 0 : ui32, reduce_type = #ttir.reduce_type<min>}
// PART-NEXT: "ttir.all_reduce"(%[[A]]) {cluster_axis = 1 : ui32, reduce_type = #ttir.reduce_type<min>}
// DECOMP-LABEL: func.func @main
// DECOMP: "ttir.bitwise_not"
// DECOMP-NOT: "ttir.neg"
// TTNN: total{{ *}}│ 128 │
// TTNN: check: result0 matches the golden run (exact)
// METAL: total{{ *}}│ 256 │
// METAL: check: result0 matches the golden run (exact)
func.func @main(%x: tensor<8x64xi32> {tt.sharding = #tt.sharding<[S0, S1]>}) -> (tensor<1x1xi32> {tt.sharding = #tt.sharding<[R, R]>}) {
  %y = "ttir.min"(%x) {dim_arg = [0 : i32, 1 : i32], keep_dim = true} : (tensor<8x64xi32>) -> tensor<1x1xi32>
  return %y : tensor<1x1xi32>
}

// -----

// Uneven: x 4x10 split over y into 3, 3, 3, 1 columns, each buffer padded to 3. The padding is
// masked to +inf (the global column of each buffer position, 0..11 split over y, below 10)
// before the local min; then the all_reduce of the 4 minima as in the first case (x enters
// replicated and is sliced on the mesh: no link bytes), 384 B on TTNN, 192 B on TTMetal.
// PART-LABEL: func.func @main
// PART: %[[V:.*]] = "ttir.lt"
// PART: "ttir.constant"() {value = dense<0x7f800000> : tensor<1x1xf32>}
// PART: %[[W:.*]] = "ttir.where"(%[[V]], %{{.*}}, %{{.*}}) : (tensor<1x3xf32>, tensor<4x3xf32>, tensor<1x1xf32>) -> tensor<4x3xf32>
// PART-NEXT: %[[M:.*]] = "ttir.min"(%[[W]]) {dim_arg = [1 : i32], keep_dim = false} : (tensor<4x3xf32>) -> tensor<4xf32>
// PART-NEXT: "ttir.all_reduce"(%[[M]]) {cluster_axis = 1 : ui32, reduce_type = #ttir.reduce_type<min>}
// DECOMP-LABEL: func.func @main
// DECOMP: "ttir.neg"
// TTNN: total{{ *}}│ 384 │
// TTNN: check: result0 matches the golden run (exact)
// METAL: total{{ *}}│ 192 │
// METAL: check: result0 matches the golden run (exact)
func.func @main(%x: tensor<4x10xf32> {tt.sharding = #tt.sharding<[R, S1]>}) -> (tensor<4xf32> {tt.sharding = #tt.sharding<[R]>}) {
  %y = "ttir.min"(%x) {dim_arg = [1 : i32], keep_dim = false} : (tensor<4x10xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
