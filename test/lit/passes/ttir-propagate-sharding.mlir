// RUN: meshc-opt %s --split-input-file -p 'tt-register-device{system=t3k mesh-shape=2,4},ttir-propagate-sharding' | filecheck %s

// Elementwise with broadcasting: the result takes every operand's dims (a bias of one row
// carries no axis on the broadcast dim); unary ops keep their operand's sharding.
// CHECK-LABEL: func.func @elementwise
// CHECK: "ttir.add"{{.*}}tt.shardings = [#tt.sharding<[S0, S1], mesh = 2x4>]
// CHECK: "ttir.relu"{{.*}}tt.shardings = [#tt.sharding<[S0, S1], mesh = 2x4>]
func.func @elementwise(%x: tensor<64x64xf32> {tt.sharding = #tt.sharding<[S0, R]>}, %b: tensor<1x64xf32> {tt.sharding = #tt.sharding<[R, S1]>}) -> tensor<64x64xf32> {
  %0 = "ttir.add"(%x, %b) : (tensor<64x64xf32>, tensor<1x64xf32>) -> tensor<64x64xf32>
  %1 = "ttir.relu"(%0) : (tensor<64x64xf32>) -> tensor<64x64xf32>
  return %1 : tensor<64x64xf32>
}

// -----

// Matmul: M from a, N from b; a contracting dim sharded on both sides leaves partial sums.
// CHECK-LABEL: func.func @matmul
// CHECK: "ttir.matmul"{{.*}}tt.shardings = [#tt.sharding<[S0, S1], mesh = 2x4>]
// CHECK: "ttir.matmul"{{.*}}tt.shardings = [#tt.sharding<[S0, R] P(1), mesh = 2x4>]
func.func @matmul(%x: tensor<64x64xf32> {tt.sharding = #tt.sharding<[S0, R]>}, %w1: tensor<64x128xf32> {tt.sharding = #tt.sharding<[R, S1]>}, %w2: tensor<128x64xf32> {tt.sharding = #tt.sharding<[S1, R]>}) -> tensor<64x64xf32> {
  %0 = "ttir.matmul"(%x, %w1) : (tensor<64x64xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
  %1 = "ttir.matmul"(%0, %w2) : (tensor<64x128xf32>, tensor<128x64xf32>) -> tensor<64x64xf32>
  return %1 : tensor<64x64xf32>
}

// -----

// Conflicting operands (both want mesh axis 1): the fewest bytes moved decides. Here a is 4x
// larger than b, so b is gathered and the result keeps a's rows split.
// CHECK-LABEL: func.func @conflict
// CHECK: "ttir.matmul"{{.*}}tt.shardings = [#tt.sharding<[S1, R], mesh = 2x4>]
func.func @conflict(%a: tensor<256x64xf32> {tt.sharding = #tt.sharding<[S1, R]>}, %b: tensor<64x64xf32> {tt.sharding = #tt.sharding<[R, S1]>}) -> tensor<256x64xf32> {
  %0 = "ttir.matmul"(%a, %b) : (tensor<256x64xf32>, tensor<64x64xf32>) -> tensor<256x64xf32>
  return %0 : tensor<256x64xf32>
}

// -----

// The same conflict the other way round: b (64x256) is the larger, so a is gathered.
// CHECK-LABEL: func.func @conflict_other_way
// CHECK: "ttir.matmul"{{.*}}tt.shardings = [#tt.sharding<[R, S1], mesh = 2x4>]
func.func @conflict_other_way(%a: tensor<64x64xf32> {tt.sharding = #tt.sharding<[S1, R]>}, %b: tensor<64x256xf32> {tt.sharding = #tt.sharding<[R, S1]>}) -> tensor<64x256xf32> {
  %0 = "ttir.matmul"(%a, %b) : (tensor<64x64xf32>, tensor<64x256xf32>) -> tensor<64x256xf32>
  return %0 : tensor<64x256xf32>
}

// -----

// Reductions: a sum over a split dim is a partial sum; max and mean over it cannot be, so the
// axis leaves (the operand is gathered); the other dims keep theirs.
// CHECK-LABEL: func.func @reductions
// CHECK: "ttir.sum"{{.*}}tt.shardings = [#tt.sharding<[S1] P(0), mesh = 2x4>]
// CHECK: "ttir.max"{{.*}}tt.shardings = [#tt.sharding<[S1], mesh = 2x4>]
// CHECK: "ttir.mean"{{.*}}tt.shardings = [#tt.sharding<[S0, R], mesh = 2x4>]
func.func @reductions(%x: tensor<64x64xf32> {tt.sharding = #tt.sharding<[S0, S1]>}) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x1xf32>) {
  %0 = "ttir.sum"(%x) {dim_arg = [0 : i32]} : (tensor<64x64xf32>) -> tensor<64xf32>
  %1 = "ttir.max"(%x) {dim_arg = [0 : i32]} : (tensor<64x64xf32>) -> tensor<64xf32>
  %2 = "ttir.mean"(%x) {dim_arg = [1 : i32], keep_dim = true} : (tensor<64x64xf32>) -> tensor<64x1xf32>
  return %0, %1, %2 : tensor<64xf32>, tensor<64xf32>, tensor<64x1xf32>
}

// -----

// Softmax keeps the other dims' axes; its own dim stays whole.
// CHECK-LABEL: func.func @softmax
// CHECK: "ttir.softmax"{{.*}}tt.shardings = [#tt.sharding<[S0, R], mesh = 2x4>]
func.func @softmax(%x: tensor<64x64xf32> {tt.sharding = #tt.sharding<[S0, S1]>}) -> tensor<64x64xf32> {
  %0 = "ttir.softmax"(%x) {dimension = 1 : si32} : (tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

// Transpose and permute move the axes with their dims.
// CHECK-LABEL: func.func @permutations
// CHECK: "ttir.transpose"{{.*}}tt.shardings = [#tt.sharding<[S1, S0], mesh = 2x4>]
// CHECK: "ttir.permute"{{.*}}tt.shardings = [#tt.sharding<[R, S0, S1], mesh = 2x4>]
func.func @permutations(%x: tensor<64x32xf32> {tt.sharding = #tt.sharding<[S0, S1]>}, %y: tensor<8x16x32xf32> {tt.sharding = #tt.sharding<[S0, S1, R]>}) -> (tensor<32x64xf32>, tensor<32x8x16xf32>) {
  %0 = "ttir.transpose"(%x) {dim0 = 0 : si32, dim1 = 1 : si32} : (tensor<64x32xf32>) -> tensor<32x64xf32>
  %1 = "ttir.permute"(%y) {permutation = array<i64: 2, 0, 1>} : (tensor<8x16x32xf32>) -> tensor<32x8x16xf32>
  return %0, %1 : tensor<32x64xf32>, tensor<32x8x16xf32>
}

// -----

// Reshape: a split dim maps to the result dim with as many elements before it (64x64 ->
// 2x32x4x16: dim 0 -> dim 0, dim 1 -> dim 2). Merging 4x16 -> 64 keeps the major dim's axis;
// the minor dim of a merge has no result dim, so its axis leaves.
// CHECK-LABEL: func.func @reshape
// CHECK: "ttir.reshape"{{.*}}tt.shardings = [#tt.sharding<[S0, R, S1, R], mesh = 2x4>]
// CHECK: "ttir.reshape"{{.*}}tt.shardings = [#tt.sharding<[S1], mesh = 2x4>]
// CHECK: "ttir.reshape"{{.*}}tt.shardings = [#tt.sharding<[R], mesh = 2x4>]
func.func @reshape(%x: tensor<64x64xf32> {tt.sharding = #tt.sharding<[S0, S1]>}, %y: tensor<4x16xf32> {tt.sharding = #tt.sharding<[S1, R]>}, %z: tensor<4x16xf32> {tt.sharding = #tt.sharding<[R, S1]>}) -> (tensor<2x32x4x16xf32>, tensor<64xf32>, tensor<64xf32>) {
  %0 = "ttir.reshape"(%x) : (tensor<64x64xf32>) -> tensor<2x32x4x16xf32>
  %1 = "ttir.reshape"(%y) : (tensor<4x16xf32>) -> tensor<64xf32>
  %2 = "ttir.reshape"(%z) : (tensor<4x16xf32>) -> tensor<64xf32>
  return %0, %1, %2 : tensor<2x32x4x16xf32>, tensor<64xf32>, tensor<64xf32>
}

// -----

// Concat keeps every dim's axes, the joined dim's too (a window factor: ttir-partition moves
// each device its piece of the result from the operand pieces that hold it, no gather).
// CHECK-LABEL: func.func @concat
// CHECK: "ttir.concat"{{.*}}tt.shardings = [#tt.sharding<[S0, S1], mesh = 2x4>]
func.func @concat(%x: tensor<32x64xf32> {tt.sharding = #tt.sharding<[S0, S1]>}, %y: tensor<32x64xf32> {tt.sharding = #tt.sharding<[S0, S1]>}) -> tensor<64x64xf32> {
  %0 = "ttir.concat"(%x, %y) {dim = 0 : si32} : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

// Embedding (gather): the indices' dims lead the result, the table's columns end it; a table
// split by rows (the vocabulary, over y) is looked up where it lies: each device gives the rows
// it holds and 0 for the others, partial sums over y (P(1)), never the table gathered.
// CHECK-LABEL: func.func @embedding
// CHECK: "ttir.embedding"{{.*}}tt.shardings = [#tt.sharding<[S0, R, S1], mesh = 2x4>]
// CHECK: "ttir.embedding"{{.*}}tt.shardings = [#tt.sharding<[S0, R, R] P(1), mesh = 2x4>]
func.func @embedding(%i: tensor<8x16xui32> {tt.sharding = #tt.sharding<[S0, R]>}, %w: tensor<128x64xf32> {tt.sharding = #tt.sharding<[R, S1]>}, %v: tensor<128x64xf32> {tt.sharding = #tt.sharding<[S1, R]>}) -> (tensor<8x16x64xf32>, tensor<8x16x64xf32>) {
  %0 = "ttir.embedding"(%i, %w) : (tensor<8x16xui32>, tensor<128x64xf32>) -> tensor<8x16x64xf32>
  %1 = "ttir.embedding"(%i, %v) : (tensor<8x16xui32>, tensor<128x64xf32>) -> tensor<8x16x64xf32>
  return %0, %1 : tensor<8x16x64xf32>, tensor<8x16x64xf32>
}

// -----

// MoE: a batch split over DP stays split through routing, dispatch (as the DP groups G) and
// combine; the expert dim of the logits stays whole.
// CHECK-LABEL: func.func @moe
// CHECK: "ttir.moe_route"{{.*}}tt.shardings = [#tt.sharding<[S0, R, R], mesh = 2x4>, #tt.sharding<[S0, R, R], mesh = 2x4>]
// CHECK: "ttir.moe_dispatch"{{.*}}tt.shardings = [#tt.sharding<[R, S0, R, S1], mesh = 2x4>, #tt.sharding<[S0, R, R], mesh = 2x4>]
// CHECK: "ttir.moe_combine"{{.*}}tt.shardings = [#tt.sharding<[S0, R, S1], mesh = 2x4>]
func.func @moe(%t: tensor<4x8x32xf32> {tt.sharding = #tt.sharding<[S0, R, S1]>}, %l: tensor<4x8x8xf32> {tt.sharding = #tt.sharding<[S0, R, S1]>}) -> tensor<4x8x32xf32> {
  %e, %w = "ttir.moe_route"(%l) {k = 2 : i32} : (tensor<4x8x8xf32>) -> (tensor<4x8x2xsi32>, tensor<4x8x2xf32>)
  %d, %s = "ttir.moe_dispatch"(%t, %e) : (tensor<4x8x32xf32>, tensor<4x8x2xsi32>) -> (tensor<8x2x4x32xf32>, tensor<4x8x2xsi32>)
  %o = "ttir.moe_combine"(%d, %e, %w, %s) : (tensor<8x2x4x32xf32>, tensor<4x8x2xsi32>, tensor<4x8x2xf32>, tensor<4x8x2xsi32>) -> tensor<4x8x32xf32>
  return %o : tensor<4x8x32xf32>
}

// -----

// Backward: the result's annotation reaches back through the unary ops (computing them split
// moves nothing: the replicated argument is only sliced), and a constant takes what its user wants.
// CHECK-LABEL: func.func @backward
// CHECK-SAME: -> (tensor<16x64xf32> {tt.sharding = #tt.sharding<[R, S1], mesh = 2x4>})
// CHECK: "ttir.exp"{{.*}}tt.shardings = [#tt.sharding<[R, S1], mesh = 2x4>]
// CHECK: "ttir.constant"{{.*}}tt.shardings = [#tt.sharding<[R, S1], mesh = 2x4>]
// CHECK: "ttir.multiply"{{.*}}tt.shardings = [#tt.sharding<[R, S1], mesh = 2x4>]
func.func @backward(%x: tensor<16x64xf32>) -> (tensor<16x64xf32> {tt.sharding = #tt.sharding<[R, S1]>}) {
  %0 = "ttir.exp"(%x) : (tensor<16x64xf32>) -> tensor<16x64xf32>
  %c = "ttir.constant"() {value = dense<2.0> : tensor<16x64xf32>} : () -> tensor<16x64xf32>
  %1 = "ttir.multiply"(%0, %c) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
  return %1 : tensor<16x64xf32>
}

// -----

// A sharding_constraint wins over what propagates into it, and propagates on from there.
// CHECK-LABEL: func.func @constraint
// CHECK: "ttir.sharding_constraint"{{.*}}tt.shardings = [#tt.sharding<[R, S0], mesh = 2x4>]
// CHECK: "ttir.relu"{{.*}}tt.shardings = [#tt.sharding<[R, S0], mesh = 2x4>]
func.func @constraint(%x: tensor<64x64xf32> {tt.sharding = #tt.sharding<[S0, R]>}) -> tensor<64x64xf32> {
  %0 = "ttir.sharding_constraint"(%x) {sharding = #tt.sharding<[R, S0]>} : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %1 = "ttir.relu"(%0) : (tensor<64x64xf32>) -> tensor<64x64xf32>
  return %1 : tensor<64x64xf32>
}

// -----

// Unannotated arguments and results are replicated; so is everything computed from them.
// CHECK-LABEL: func.func @defaults
// CHECK-SAME: (%x: tensor<8x8xf32> {tt.sharding = #tt.sharding<[R, R], mesh = 2x4>}) -> (tensor<8x8xf32> {tt.sharding = #tt.sharding<[R, R], mesh = 2x4>})
// CHECK: "ttir.neg"{{.*}}tt.shardings = [#tt.sharding<[R, R], mesh = 2x4>]
func.func @defaults(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = "ttir.neg"(%x) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
