// A sort along a split dim: its sharding rule keeps the sorted dim whole (`keep`), so ttir-partition
// gathers it first (a distributed sort is out of scope) and each device sorts its rows of the
// whole dim; the other dims stay split. Run on both targets against the golden run (TTMetal sorts
// by ttir-decompose-selections' ranks, after the same partition: the same link bytes); link bytes
// by hand on the T3K (rows of 4 chips in a line: a gather of k pieces of B bytes crosses k (k - 1)
// B of links a row).
// RUN: meshc-opt %s --split-input-file -p 'tt-register-device{system=t3k mesh-shape=2,4},ttir-partition' | filecheck %s --check-prefix=PART
// RUN: meshc-run %s --split-input-file --pipeline 'ttir-to-ttnn-pipeline{system=t3k mesh-shape=2,4}' --check --report | filecheck %s --check-prefix=BOTH
// RUN: meshc-run %s --split-input-file --pipeline 'ttir-to-ttmetal-pipeline{system=t3k mesh-shape=2,4}' --target ttmetal --check --report | filecheck %s --check-prefix=BOTH

// x 8x16 f32 split [S0, S1] (4x4 a chip, 64 B), sorted along dim 1 (values and positions,
// descending): x is gathered over y once for both ops, to [S0, R] (4x16 a chip): each chip receives
// its 3 row neighbours' 64 B, 4 x 3 x 64 = 768 B a row, 1,536 B for the 2 rows. The results leave
// [S0, R] as asked: nothing more moves.
// PART-LABEL: func.func @main
// PART: %[[G:.*]] = "ttir.reshard"(%{{.*}}) {source = #tt.sharding<[S0, S1], mesh = 2x4>, target = #tt.sharding<[S0, R], mesh = 2x4>} : (tensor<4x4xf32>) -> tensor<4x16xf32>
// PART-NEXT: "ttir.sort"(%[[G]]) {dim = 1 : si32, descending = true} : (tensor<4x16xf32>) -> tensor<4x16xf32>
// PART-NEXT: "ttir.sort_indices"(%[[G]]) {dim = 1 : si32, descending = true} : (tensor<4x16xf32>) -> tensor<4x16xi32>
// PART-NOT: ttir.reshard
// BOTH: total{{ *}}│ 1,536 │
// BOTH: check: result0 matches the golden run (exact)
// BOTH: check: result1 matches the golden run (exact)
func.func @main(%x: tensor<8x16xf32> {tt.sharding = #tt.sharding<[S0, S1]>}) -> (tensor<8x16xf32> {tt.sharding = #tt.sharding<[S0, R]>}, tensor<8x16xi32> {tt.sharding = #tt.sharding<[S0, R]>}) {
  %v = "ttir.sort"(%x) {dim = 1 : si32, descending = true} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %i = "ttir.sort_indices"(%x) {dim = 1 : si32, descending = true} : (tensor<8x16xf32>) -> tensor<8x16xi32>
  return %v, %i : tensor<8x16xf32>, tensor<8x16xi32>
}

// -----

// Along dim 0, which x [R, S1] (8x4 a chip) holds whole: each chip sorts its own columns, no
// link bytes; the result leaves split as x is.
// PART-LABEL: func.func @main
// PART-NOT: ttir.reshard
// PART: "ttir.sort"(%{{.*}}) {dim = 0 : si32} : (tensor<8x4xf32>) -> tensor<8x4xf32>
// BOTH: total{{ *}}│ 0 │
// BOTH: check: result0 matches the golden run (exact)
func.func @main(%x: tensor<8x16xf32> {tt.sharding = #tt.sharding<[R, S1]>}) -> (tensor<8x16xf32> {tt.sharding = #tt.sharding<[R, S1]>}) {
  %v = "ttir.sort"(%x) {dim = 0 : si32} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %v : tensor<8x16xf32>
}
