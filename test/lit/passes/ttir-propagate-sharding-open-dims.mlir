// A sharding constraint's open_dims (meshc-import writes them for Shardy's {?} and GSPMD's
// unspecified_dims): such a dim takes its operand's split, or what its users wish, whichever moves
// fewer bytes, after the axes the spec names there and never an axis a closed dim names; the
// closed dims stay as written.
// RUN: meshc-opt %s --split-input-file -p ttir-propagate-sharding | filecheck %s

// Dim 0 open after S0: the operand's [S01, R] starts with S0, so the constraint keeps it.
// CHECK-LABEL: func.func @longer_split
// CHECK: "ttir.sharding_constraint"(%{{.*}}) {sharding = #tt.sharding<[S0, R]>, open_dims = array<i64: 0>, tt.shardings = [#tt.sharding<[S01, R], mesh = 2x4>]}
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @longer_split(%x: tensor<8x32xf32> {tt.sharding = #tt.sharding<[S01, R]>}) -> (tensor<8x32xf32> {tt.unconstrained}) {
    %0 = "ttir.sharding_constraint"(%x) {sharding = #tt.sharding<[S0, R]>, open_dims = array<i64: 0>} : (tensor<8x32xf32>) -> tensor<8x32xf32>
    return %0 : tensor<8x32xf32>
  }
}

// -----

// The operand splits dim 0 over y, which the closed dim 1 names: dim 0 stays as written (whole).
// CHECK-LABEL: func.func @axis_taken
// CHECK: "ttir.sharding_constraint"(%{{.*}}) {sharding = #tt.sharding<[R, S1]>, open_dims = array<i64: 0>, tt.shardings = [#tt.sharding<[R, S1], mesh = 2x4>]}
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @axis_taken(%x: tensor<8x32xf32> {tt.sharding = #tt.sharding<[S1, R]>}) -> (tensor<8x32xf32> {tt.unconstrained}) {
    %0 = "ttir.sharding_constraint"(%x) {sharding = #tt.sharding<[R, S1]>, open_dims = array<i64: 0>} : (tensor<8x32xf32>) -> tensor<8x32xf32>
    return %0 : tensor<8x32xf32>
  }
}

// -----

// A replicated operand, a result wanted [S0, S1]: the open dim takes the wish (S0) and the relu
// before it is asked for the same; read closed, the relu would be asked for [R, S1].
// CHECK-LABEL: func.func @wished
// CHECK: "ttir.relu"(%{{.*}}) {tt.shardings = [#tt.sharding<[S0, S1], mesh = 2x4>]}
// CHECK: "ttir.sharding_constraint"(%{{.*}}) {sharding = #tt.sharding<[R, S1]>, open_dims = array<i64: 0>, tt.shardings = [#tt.sharding<[S0, S1], mesh = 2x4>]}
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @wished(%x: tensor<8x32xf32>) -> (tensor<8x32xf32> {tt.sharding = #tt.sharding<[S0, S1]>}) {
    %0 = "ttir.relu"(%x) : (tensor<8x32xf32>) -> tensor<8x32xf32>
    %1 = "ttir.sharding_constraint"(%0) {sharding = #tt.sharding<[R, S1]>, open_dims = array<i64: 0>} : (tensor<8x32xf32>) -> tensor<8x32xf32>
    %2 = "ttir.tanh"(%1) : (tensor<8x32xf32>) -> tensor<8x32xf32>
    return %2 : tensor<8x32xf32>
  }
}
