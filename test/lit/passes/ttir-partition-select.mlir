// cumsum, argmax, argmin and top_k along a split dim: each device works on its own piece; only the
// pieces' totals (cumsum) or candidates (argmax, argmin: value and global index) are gathered.
// Run on both backends against the golden run (TTMetal through ttir-decompose-selections); link
// bytes by hand.
// RUN: meshc-opt %s --split-input-file -p 'tt-register-device{system=t3k mesh-shape=2,4},ttir-partition' | filecheck %s --check-prefix=PART
// RUN: meshc-run %s --split-input-file --pipeline 'ttir-to-ttnn-pipeline{system=t3k mesh-shape=2,4}' --check --report | filecheck %s --check-prefix=TTNN
// RUN: meshc-run %s --split-input-file --pipeline 'ttir-to-ttmetal-pipeline{system=t3k mesh-shape=2,4}' --target ttmetal --check --report | filecheck %s --check-prefix=METAL

// cumsum of x 4x16 [R, S1] along the split columns (4 a device): a local scan, the local total
// (4x1 f32, 16 B) gathered along y (each of the 8 devices receives 3: 8 x 48 = 384 B), a masked
// sum of the totals before the device's own (the mask's row j is 1 where i < j, a 4x4 constant
// split over y), added to the local scan. Gathering x first moved 8 x 3 x 64 B = 1,536 B. The
// sums associate differently from numpy's running sum: within the f32 tolerance (exact on
// integer-valued data: test/unit/test_sharded_select.py).
// PART-LABEL: func.func @main
// PART: %[[SCAN:.*]] = "ttir.cumsum"(%[[X:.*]]) {dim = 1 : i64} : (tensor<4x4xf32>) -> tensor<4x4xf32>
// PART: %[[TOT:.*]] = "ttir.sum"(%[[X]]) {dim_arg = [1 : i32], keep_dim = true} : (tensor<4x4xf32>) -> tensor<4x1xf32>
// PART: %[[ALL:.*]] = "ttir.reshard"(%[[TOT]]) {source = #tt.sharding<[R, S1], mesh = 2x4>, target = #tt.sharding<[R, R], mesh = 2x4>} : (tensor<4x1xf32>) -> tensor<4x4xf32>
// PART: "ttir.constant"() {value = dense<[0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 1.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 1.000000e+00, 1.000000e+00, 0.000000e+00, 0.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00, 0.000000e+00]> : tensor<16xf32>}
// PART: %[[MASK:.*]] = "ttir.reshape"
// PART: %[[BEFORE:.*]] = "ttir.multiply"(%[[ALL]], %[[MASK]]) : (tensor<4x4xf32>, tensor<1x4xf32>) -> tensor<4x4xf32>
// PART: %[[PRE:.*]] = "ttir.sum"(%[[BEFORE]]) {dim_arg = [1 : i32], keep_dim = true} : (tensor<4x4xf32>) -> tensor<4x1xf32>
// PART: "ttir.add"(%[[SCAN]], %[[PRE]]) : (tensor<4x4xf32>, tensor<4x1xf32>) -> tensor<4x4xf32>
// TTNN: total{{ *}}│ 384 │
// TTNN: {{.*}}ttnn.all_gather{{ *}}│{{ *}}384 │
// TTNN: check: result0 matches the golden run (within the f32 tolerance)
// METAL: total{{ *}}│ 384 │
// METAL: check: result0 matches the golden run (within the f32 tolerance)
func.func @main(%x: tensor<4x16xf32> {tt.sharding = #tt.sharding<[R, S1]>}) -> (tensor<4x16xf32> {tt.sharding = #tt.sharding<[R, S1]>}) {
  %y = "ttir.cumsum"(%x) {dim = 1 : i64} : (tensor<4x16xf32>) -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}

// -----

// argmax of x 8x16 [S0, S1] along the split columns: each device's maximum (4x1 f32) and its
// index made global (its argmax plus the device's column offset 0, 4, 8 or 12, a constant split
// over y; as f32) are gathered along y (8 x 3 x 16 B each: 768 B); among the 4 candidates equal
// to their maximum the smallest index wins (where / max of the negated indices), on a key that
// puts a NaN candidate first (1 at NaNs where the row has one, as numpy and JAX). The result
// [S0] keeps x's rows where they are.
// PART-LABEL: func.func @main
// PART: %[[BEST:.*]] = "ttir.max"(%[[X:.*]]) {dim_arg = [1 : i32], keep_dim = true} : (tensor<4x4xf32>) -> tensor<4x1xf32>
// PART: %[[VALS:.*]] = "ttir.reshard"(%[[BEST]]) {source = #tt.sharding<[S0, S1], mesh = 2x4>, target = #tt.sharding<[S0, R], mesh = 2x4>} : (tensor<4x1xf32>) -> tensor<4x4xf32>
// PART: %[[MINE:.*]] = "ttir.argmax"(%[[X]]) {dim = 1 : i64, keep_dim = true} : (tensor<4x4xf32>) -> tensor<4x1xi32>
// PART: "ttir.constant"() {value = dense<[0, 4, 8, 12]> : tensor<4xi32>}
// PART: %[[OFF:.*]] = "ttir.reshape"
// PART: %[[GLOBAL:.*]] = "ttir.add"(%[[MINE]], %[[OFF]]) : (tensor<4x1xi32>, tensor<1x1xi32>) -> tensor<4x1xi32>
// PART: %[[F:.*]] = "ttir.typecast"(%[[GLOBAL]]) : (tensor<4x1xi32>) -> tensor<4x1xf32>
// PART: %[[IDX:.*]] = "ttir.reshard"(%[[F]]) {source = #tt.sharding<[S0, S1], mesh = 2x4>, target = #tt.sharding<[S0, R], mesh = 2x4>} : (tensor<4x1xf32>) -> tensor<4x4xf32>
// PART: %[[NEG:.*]] = "ttir.neg"(%[[IDX]])
// PART: %[[NAN:.*]] = "ttir.ne"(%[[VALS]], %[[VALS]])
// PART: %[[ANY:.*]] = "ttir.max"(%[[NAN]]) {dim_arg = [1 : i32], keep_dim = true} : (tensor<4x4xf32>) -> tensor<4x1xf32>
// PART: %[[ANYB:.*]] = "ttir.broadcast"(%[[ANY]])
// PART: %[[KEY:.*]] = "ttir.where"(%[[ANYB]], %[[NAN]], %[[VALS]])
// PART: %[[TOP:.*]] = "ttir.max"(%[[KEY]])
// PART: %[[HIT:.*]] = "ttir.eq"(%[[KEY]], %[[TOP]]) : (tensor<4x4xf32>, tensor<4x1xf32>) -> tensor<4x4xf32>
// PART: %[[CAND:.*]] = "ttir.where"(%[[HIT]], %[[NEG]], %{{.*}})
// PART: %[[FIRST:.*]] = "ttir.max"(%[[CAND]])
// PART: %[[PICK:.*]] = "ttir.neg"(%[[FIRST]]) : (tensor<4x1xf32>) -> tensor<4x1xf32>
// PART: %[[I:.*]] = "ttir.typecast"(%[[PICK]]) : (tensor<4x1xf32>) -> tensor<4x1xi32>
// PART: "ttir.reshape"(%[[I]]) : (tensor<4x1xi32>) -> tensor<4xi32>
// TTNN: total{{ *}}│ 768 │
// TTNN: check: result0 matches the golden run (exact)
// TTNN: check: result0: 0 of 8 elements differ
// METAL: total{{ *}}│ 768 │
// METAL: check: result0: 0 of 8 elements differ
func.func @main(%x: tensor<8x16xf32> {tt.sharding = #tt.sharding<[S0, S1]>}) -> (tensor<8xi32> {tt.sharding = #tt.sharding<[S0]>}) {
  %y = "ttir.argmax"(%x) {dim = 1 : i64} : (tensor<8x16xf32>) -> tensor<8xi32>
  return %y : tensor<8xi32>
}

// -----

// argmin is argmax of the negation; on an uneven split (10 columns: 3, 3, 3, 1) the padding of
// each buffer is set to -inf first (from a constant of the global positions split over y, compared
// with 10), so no device picks it. The same 768 B.
// PART-LABEL: func.func @main
// PART: "ttir.neg"
// PART: "ttir.lt"
// PART: "ttir.constant"() {value = dense<{{0x[fF][fF]800000}}> : tensor<1x1xf32>}
// PART: "ttir.where"
// PART: "ttir.max"
// TTNN: total{{ *}}│ 768 │
// TTNN: check: result0: 0 of 8 elements differ
// METAL: total{{ *}}│ 768 │
// METAL: check: result0: 0 of 8 elements differ
func.func @main(%x: tensor<8x10xf32>) -> (tensor<8x1xi32> {tt.sharding = #tt.sharding<[S0, R]>}) {
  %xs = "ttir.sharding_constraint"(%x) {sharding = #tt.sharding<[S0, S1]>} : (tensor<8x10xf32>) -> tensor<8x10xf32>
  %y = "ttir.argmin"(%xs) {dim = 1 : i64, keep_dim = true} : (tensor<8x10xf32>) -> tensor<8x1xi32>
  return %y : tensor<8x1xi32>
}

// -----

// top_k (k = 2) of x 4x1024 split over all 8 chips along its columns ([R, S01]: 128 a device):
// each device's 2 candidates of each row (values, and indices made global with the offsets
// 0, 128, ..., 896, as f32) are gathered over the 8 devices once for both results; the top 2
// of the 16 candidates are the values, and two rounds of the argmax pick (the picked one set to
// -inf) the indices: 8 x 7 x 2 candidates x 4 rows x (4 + 4) B = 3,584 B (gathering x first:
// 114,688 B).
// PART-LABEL: func.func @main
// PART: %[[LV:.*]] = "ttir.top_k"(%[[X:.*]]) {k = 2 : i64, dim = 1 : i64} : (tensor<4x128xf32>) -> tensor<4x2xf32>
// PART: %[[V:.*]] = "ttir.reshard"(%[[LV]]) {source = #tt.sharding<[R, S01], mesh = 2x4>, target = #tt.sharding<[R, R], mesh = 2x4>} : (tensor<4x2xf32>) -> tensor<4x16xf32>
// PART: "ttir.top_k"(%[[V]]) {k = 2 : i64, dim = 1 : i64} : (tensor<4x16xf32>) -> tensor<4x2xf32>
// PART: %[[LI:.*]] = "ttir.top_k_indices"(%[[X]]) {k = 2 : i64, dim = 1 : i64} : (tensor<4x128xf32>) -> tensor<4x2xi32>
// PART: "ttir.constant"() {value = dense<[0, 128, 256, 384, 512, 640, 768, 896]> : tensor<8xi32>}
// PART: %[[GI:.*]] = "ttir.add"(%[[LI]], %{{.*}}) : (tensor<4x2xi32>, tensor<1x1xi32>) -> tensor<4x2xi32>
// PART: %[[GF:.*]] = "ttir.typecast"(%[[GI]]) : (tensor<4x2xi32>) -> tensor<4x2xf32>
// PART: %[[I:.*]] = "ttir.reshard"(%[[GF]]) {{.*}} : (tensor<4x2xf32>) -> tensor<4x16xf32>
// PART-COUNT-2: "ttir.neg"(%{{.*}}) : (tensor<4x1xf32>) -> tensor<4x1xf32>
// PART: "ttir.concat"(%{{.*}}, %{{.*}}) {dim = 1 : si32} : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x2xf32>
// PART: "ttir.typecast"(%{{.*}}) : (tensor<4x2xf32>) -> tensor<4x2xi32>
// PART-NOT: ttir.reshard
// TTNN: total{{ *}}│ 3,584 │
// TTNN: check: result0 matches the golden run (exact)
// TTNN: check: result1 matches the golden run (exact)
// METAL: total{{ *}}│ 3,584 │
// METAL: check: result0 matches the golden run (exact)
// METAL: check: result1 matches the golden run (exact)
func.func @main(%x: tensor<4x1024xf32> {tt.sharding = #tt.sharding<[R, S01]>}) -> (tensor<4x2xf32>, tensor<4x2xi32>) {
  %v = "ttir.top_k"(%x) {k = 2 : i64, dim = 1 : i64} : (tensor<4x1024xf32>) -> tensor<4x2xf32>
  %i = "ttir.top_k_indices"(%x) {k = 2 : i64, dim = 1 : i64} : (tensor<4x1024xf32>) -> tensor<4x2xi32>
  return %v, %i : tensor<4x2xf32>, tensor<4x2xi32>
}
