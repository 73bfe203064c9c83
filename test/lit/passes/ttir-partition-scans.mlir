// A reverse cumsum, a cumprod and a reverse cumprod along a split dim: each device scans its own
// piece; only the pieces' totals cross the links (as the forward cumsum of
// ttir-partition-select.mlir), the later pieces' totals (a suffix) for a reverse scan. Run on both
// backends against the golden run (TTMetal through ttir-decompose-selections); link bytes by hand.
// RUN: meshc-opt %s --split-input-file -p 'tt-register-device{system=t3k mesh-shape=2,4},ttir-partition' | filecheck %s --check-prefix=PART
// RUN: meshc-run %s --split-input-file --pipeline 'ttir-to-ttnn-pipeline{system=t3k mesh-shape=2,4}' --check --report | filecheck %s --check-prefix=TTNN
// RUN: meshc-run %s --split-input-file --pipeline 'ttir-to-ttmetal-pipeline{system=t3k mesh-shape=2,4}' --target ttmetal --check --report | filecheck %s --check-prefix=METAL

// A reverse cumsum of x 4x16 [R, S1] along the split columns (4 a device): a local reverse scan,
// the local total (4x1 f32, 16 B) gathered along y (each of the 8 devices receives 3: 8 x 48 =
// 384 B), a masked sum of the totals after the device's own (the mask's row j is 1 where i > j:
// the 4x4 strictly upper-triangular constant, split over y), added to the local scan. The band
// matmul it was imported as before gathered x: 8 x 3 x 64 B = 1,536 B.
// PART-LABEL: func.func @main
// PART: %[[SCAN:.*]] = "ttir.cumsum"(%[[X:.*]]) {dim = 1 : i64, reverse = true} : (tensor<4x4xf32>) -> tensor<4x4xf32>
// PART: %[[TOT:.*]] = "ttir.sum"(%[[X]]) {dim_arg = [1 : i32], keep_dim = true} : (tensor<4x4xf32>) -> tensor<4x1xf32>
// PART: %[[ALL:.*]] = "ttir.reshard"(%[[TOT]]) {source = #tt.sharding<[R, S1], mesh = 2x4>, target = #tt.sharding<[R, R], mesh = 2x4>} : (tensor<4x1xf32>) -> tensor<4x4xf32>
// PART: "ttir.constant"() {value = dense<[0.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00, 0.000000e+00, 0.000000e+00, 1.000000e+00, 1.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 1.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00]> : tensor<16xf32>}
// PART: %[[MASK:.*]] = "ttir.reshape"
// PART: %[[AFTER:.*]] = "ttir.multiply"(%[[ALL]], %[[MASK]]) : (tensor<4x4xf32>, tensor<1x4xf32>) -> tensor<4x4xf32>
// PART: %[[SUF:.*]] = "ttir.sum"(%[[AFTER]]) {dim_arg = [1 : i32], keep_dim = true} : (tensor<4x4xf32>) -> tensor<4x1xf32>
// PART: "ttir.add"(%[[SCAN]], %[[SUF]]) : (tensor<4x4xf32>, tensor<4x1xf32>) -> tensor<4x4xf32>
// TTNN: total{{ *}}│ 384 │
// TTNN: check: result0 matches the golden run (within the f32 tolerance)
// METAL: total{{ *}}│ 384 │
// METAL: check: result0 matches the golden run (within the f32 tolerance)
func.func @main(%x: tensor<4x16xf32> {tt.sharding = #tt.sharding<[R, S1]>}) -> (tensor<4x16xf32> {tt.sharding = #tt.sharding<[R, S1]>}) {
  %y = "ttir.cumsum"(%x) {dim = 1 : i64, reverse = true} : (tensor<4x16xf32>) -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}

// -----

// A cumprod of x 4x16 [R, S1] along the split columns: a local scan; the piece's product, the
// scan's last column (4x1 f32, 16 B), gathered along y (8 x 3 x 16 = 384 B); the totals of the
// earlier pieces (row j of the strictly lower-triangular mask: i < j) kept, 1 elsewhere
// (`where`), multiplied in order by a cumprod of the 4 and its last element; the local scan
// times that.
// PART-LABEL: func.func @main
// PART: %[[SCAN:.*]] = "ttir.cumprod"(%[[X:.*]]) {dim = 1 : i64} : (tensor<4x4xf32>) -> tensor<4x4xf32>
// PART: %[[LAST:.*]] = "ttir.slice"(%[[SCAN]]) {begins = [0 : i32, 3 : i32], ends = [4 : i32, 4 : i32], step = [1 : i32, 1 : i32]} : (tensor<4x4xf32>) -> tensor<4x1xf32>
// PART: %[[ALL:.*]] = "ttir.reshard"(%[[LAST]]) {source = #tt.sharding<[R, S1], mesh = 2x4>, target = #tt.sharding<[R, R], mesh = 2x4>} : (tensor<4x1xf32>) -> tensor<4x4xf32>
// PART: "ttir.constant"() {value = dense<[0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 1.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 1.000000e+00, 1.000000e+00, 0.000000e+00, 0.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00, 0.000000e+00]> : tensor<16xf32>}
// PART: %[[MASK:.*]] = "ttir.reshape"
// PART: %[[ONE:.*]] = "ttir.constant"() {value = dense<1.000000e+00> : tensor<1x1xf32>}
// PART: %[[KEPT:.*]] = "ttir.where"(%[[MASK]], %[[ALL]], %[[ONE]]) : (tensor<1x4xf32>, tensor<4x4xf32>, tensor<1x1xf32>) -> tensor<4x4xf32>
// PART: %[[PROD:.*]] = "ttir.cumprod"(%[[KEPT]]) {dim = 1 : i64} : (tensor<4x4xf32>) -> tensor<4x4xf32>
// PART: %[[PRE:.*]] = "ttir.slice"(%[[PROD]]) {begins = [0 : i32, 3 : i32], ends = [4 : i32, 4 : i32], step = [1 : i32, 1 : i32]} : (tensor<4x4xf32>) -> tensor<4x1xf32>
// PART: "ttir.multiply"(%[[SCAN]], %[[PRE]]) : (tensor<4x4xf32>, tensor<4x1xf32>) -> tensor<4x4xf32>
// TTNN: total{{ *}}│ 384 │
// TTNN: check: result0 matches the golden run (within the f32 tolerance)
// METAL: total{{ *}}│ 384 │
// METAL: check: result0 matches the golden run (within the f32 tolerance)
func.func @main(%x: tensor<4x16xf32> {tt.sharding = #tt.sharding<[R, S1]>}) -> (tensor<4x16xf32> {tt.sharding = #tt.sharding<[R, S1]>}) {
  %y = "ttir.cumprod"(%x) {dim = 1 : i64} : (tensor<4x16xf32>) -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}

// -----

// A reverse cumprod of an i32 4x14 [R, S1], 14 columns split into y's 4 pieces of 4 (torch.chunk;
// the last device holds 2 and 2 of padding): the padding masked to 1 first (the product's
// identity, from a constant of the global positions split over y), the piece's product the
// reverse scan's first column, the later pieces' totals (i > j) multiplied in: exact on integers,
// as numpy. (Its link bytes are those of moving an uneven split in and out, not this scan's:
// the even cases above count the scan's.)
// PART-LABEL: func.func @main
// PART: "ttir.where"
// PART: %[[SCAN:.*]] = "ttir.cumprod"(%{{.*}}) {dim = 1 : i64, reverse = true} : (tensor<4x4xi32>) -> tensor<4x4xi32>
// PART: "ttir.slice"(%[[SCAN]]) {begins = [0 : i32, 0 : i32], ends = [4 : i32, 1 : i32], step = [1 : i32, 1 : i32]} : (tensor<4x4xi32>) -> tensor<4x1xi32>
// PART: "ttir.constant"() {value = dense<[0, 1, 1, 1, 0, 0, 1, 1, 0, 0, 0, 1, 0, 0, 0, 0]> : tensor<16xi32>}
// TTNN: check: result0: 0 of 56 elements differ
// METAL: check: result0: 0 of 56 elements differ
func.func @main(%x: tensor<4x14xi32> {tt.sharding = #tt.sharding<[R, S1]>}) -> (tensor<4x14xi32> {tt.sharding = #tt.sharding<[R, S1]>}) {
  %y = "ttir.cumprod"(%x) {dim = 1 : i64, reverse = true} : (tensor<4x14xi32>) -> tensor<4x14xi32>
  return %y : tensor<4x14xi32>
}
