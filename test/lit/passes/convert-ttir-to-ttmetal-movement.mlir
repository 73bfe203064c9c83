// RUN: meshc-opt %s --split-input-file -p 'ttir-layout,convert-ttir-to-ttmetal' | filecheck %s
// RUN: meshc-run %s --split-input-file --target ttmetal --seed 3 --check | filecheck %s --check-prefix=SIM
// Reshape, permute, broadcast, reductions that drop their dims (down to a scalar) and matmuls with
// batched operands lower to TTMetal programs; each runs on the simulator and matches the golden
// (numpy) run of the ttir program.
// SIM-COUNT-9: check: result0 matches the golden run

// A bias add as JAX writes it: the bias (128) reshaped to 1x128 (the same 2-d buffer: a block copy
// on the result's 1x4 grid) and broadcast to 32x128 (each core repeats its 1x32 block of the row
// into its 32x32 block of the result).
// CHECK-LABEL: func.func @bias_add
// CHECK: "ttmetal.read_tiles"(%{{.*}}) {select = ["y", "x"]} : (!ttmetal.buffer<128xf32>) -> tensor<1x32xf32>
// CHECK-NEXT: "ttmetal.tile_unary"(%{{.*}}) {op = "copy"}
// CHECK: "ttmetal.read_tiles"(%{{.*}}) {select = ["all", "x"]} : (!ttmetal.buffer<1x128xf32>) -> tensor<1x32xf32>
// CHECK-NEXT: "ttmetal.tile_broadcast"(%{{.*}}) {shape = array<i64: 1, 32>, to = array<i64: 32, 32>} : (tensor<1x32xf32>) -> tensor<32x32xf32>
// CHECK-NEXT: "ttmetal.write_tiles"(%{{.*}}, %{{.*}}) {select = ["y", "x"]}
// CHECK: }) {grid = array<i64: 1, 4>}
func.func @bias_add(%x: tensor<32x128xf32>, %b: tensor<128xf32>) -> tensor<32x128xf32> {
  %0 = "ttir.reshape"(%b) {shape = [1 : i32, 128 : i32]} : (tensor<128xf32>) -> tensor<1x128xf32>
  %1 = "ttir.broadcast"(%0) : (tensor<1x128xf32>) -> tensor<32x128xf32>
  %2 = "ttir.add"(%x, %1) : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
  func.return %2 : tensor<32x128xf32>
}

// -----
// A reshape changing the rows: 64x32 -> 32x64 keeps row blocks together for any core count
// dividing gcd(64, 32) = 32; the result (1x2 tiles) sits on a 1x2 grid, so 2 cores, each reading
// 32 rows of 32 (1024 elements) and writing them as 16 rows of 64.
// CHECK-LABEL: func.func @reshape
// CHECK: "ttmetal.read_tiles"(%{{.*}}) {select = ["y", "all"]} : (!ttmetal.buffer<64x32xf32>) -> tensor<32x32xf32>
// CHECK-NEXT: "ttmetal.tile_permute"(%{{.*}}) {shape = array<i64: 1024>, permutation = array<i64: 0>} : (tensor<32x32xf32>) -> tensor<16x64xf32>
// CHECK-NEXT: "ttmetal.write_tiles"(%{{.*}}, %{{.*}}) {select = ["y", "all"]}
// CHECK: }) {grid = array<i64: 2, 1>}
func.func @reshape(%x: tensor<64x32xf32>) -> tensor<32x64xf32> {
  %0 = "ttir.reshape"(%x) {shape = [32 : i32, 64 : i32]} : (tensor<64x32xf32>) -> tensor<32x64xf32>
  func.return %0 : tensor<32x64xf32>
}

// -----
// Heads split as attention does: (b, s, h, d) -> (b, h, s, d) keeps dim 0 in place, so each of the
// 2 cores (b = 2) permutes its batch element's 32x2x32 block into 2x32x32.
// CHECK-LABEL: func.func @permute_heads
// CHECK: "ttmetal.read_tiles"(%{{.*}}) {select = ["y", "all"]} : (!ttmetal.buffer<2x32x2x32xf32>) -> tensor<64x32xf32>
// CHECK-NEXT: "ttmetal.tile_permute"(%{{.*}}) {shape = array<i64: 1, 32, 2, 32>, permutation = array<i64: 0, 2, 1, 3>} : (tensor<64x32xf32>) -> tensor<64x32xf32>
// CHECK: }) {grid = array<i64: 2, 1>}
func.func @permute_heads(%x: tensor<2x32x2x32xf32>) -> tensor<2x2x32x32xf32> {
  %0 = "ttir.permute"(%x) {permutation = array<i64: 0, 2, 1, 3>} : (tensor<2x32x2x32xf32>) -> tensor<2x2x32x32xf32>
  func.return %0 : tensor<2x2x32x32xf32>
}

// -----
// A permute moving dim 0 keeps nothing in place: one core reads the whole tensor.
// CHECK-LABEL: func.func @permute_outer
// CHECK: "ttmetal.read_tiles"(%{{.*}}) {select = ["y", "all"]} : (!ttmetal.buffer<4x32x64xf32>) -> tensor<128x64xf32>
// CHECK-NEXT: "ttmetal.tile_permute"(%{{.*}}) {shape = array<i64: 1, 4, 32, 64>, permutation = array<i64: 0, 2, 1, 3>}
// CHECK: }) {grid = array<i64: 1, 1>}
func.func @permute_outer(%x: tensor<4x32x64xf32>) -> tensor<32x4x64xf32> {
  %0 = "ttir.permute"(%x) {permutation = array<i64: 1, 0, 2>} : (tensor<4x32x64xf32>) -> tensor<32x4x64xf32>
  func.return %0 : tensor<32x4x64xf32>
}

// -----
// A row sum that drops its dim: 64x128 -> 64. Each core of 8 sums 8 rows into an 8x1 column and
// writes it as its 1x8 piece of the result's one row (columns ["all", "y"]).
// CHECK-LABEL: func.func @sum_drop
// CHECK: "ttmetal.tile_reduce"(%{{.*}}) {op = "sum", dim = 1 : i64} : (tensor<8x128xf32>) -> tensor<8x1xf32>
// CHECK-NEXT: "ttmetal.tile_permute"(%{{.*}}) {shape = array<i64: 8>, permutation = array<i64: 0>} : (tensor<8x1xf32>) -> tensor<1x8xf32>
// CHECK-NEXT: "ttmetal.write_tiles"(%{{.*}}, %{{.*}}) {select = ["all", "y"]}
// CHECK: }) {grid = array<i64: 8, 1>}
func.func @sum_drop(%x: tensor<64x128xf32>) -> tensor<64xf32> {
  %0 = "ttir.sum"(%x) {dim_arg = [1 : i32]} : (tensor<64x128xf32>) -> tensor<64xf32>
  func.return %0 : tensor<64xf32>
}

// -----
// max over the last dim of a 3-d tensor, dropped: 4x32x64 -> 4x32. The result is one tile, on one
// core: that core reduces all 128 rows and writes them as the 4x32 result.
// CHECK-LABEL: func.func @max_drop_3d
// CHECK: "ttmetal.tile_reduce"(%{{.*}}) {op = "max", dim = 1 : i64} : (tensor<128x64xf32>) -> tensor<128x1xf32>
// CHECK-NEXT: "ttmetal.tile_permute"(%{{.*}}) {shape = array<i64: 128>, permutation = array<i64: 0>} : (tensor<128x1xf32>) -> tensor<4x32xf32>
// CHECK-NEXT: "ttmetal.write_tiles"(%{{.*}}, %{{.*}}) {select = ["y", "all"]}
// CHECK: }) {grid = array<i64: 1, 1>}
func.func @max_drop_3d(%x: tensor<4x32x64xf32>) -> tensor<4x32xf32> {
  %0 = "ttir.max"(%x) {dim_arg = [2 : i32]} : (tensor<4x32x64xf32>) -> tensor<4x32xf32>
  func.return %0 : tensor<4x32xf32>
}

// -----
// A mean over a middle dim: one core moves dim 1 last and reduces it.
// CHECK-LABEL: func.func @mean_middle
// CHECK: "ttmetal.tile_permute"(%{{.*}}) {shape = array<i64: 4, 32, 64>, permutation = array<i64: 0, 2, 1>} : (tensor<128x64xf32>) -> tensor<256x32xf32>
// CHECK-NEXT: "ttmetal.tile_reduce"(%{{.*}}) {op = "mean", dim = 1 : i64} : (tensor<256x32xf32>) -> tensor<256x1xf32>
// CHECK: }) {grid = array<i64: 1, 1>}
func.func @mean_middle(%x: tensor<4x32x64xf32>) -> tensor<4x64xf32> {
  %0 = "ttir.mean"(%x) {dim_arg = [1 : i32]} : (tensor<4x32x64xf32>) -> tensor<4x64xf32>
  func.return %0 : tensor<4x64xf32>
}

// -----
// A full sum to a scalar (jnp.mean's sum): a 0-d result is one element in one page of DRAM, the
// buffer !ttmetal.buffer<f32>; it is read back 0-d.
// CHECK-LABEL: func.func @sum_all
// CHECK: "ttmetal.read_tiles"(%{{.*}}) {select = ["all", "all"]} : (!ttmetal.buffer<32x64xf32>) -> tensor<32x64xf32>
// CHECK-NEXT: "ttmetal.tile_permute"(%{{.*}}) {shape = array<i64: 32, 64>, permutation = array<i64: 0, 1>} : (tensor<32x64xf32>) -> tensor<1x2048xf32>
// CHECK-NEXT: "ttmetal.tile_reduce"(%{{.*}}) {op = "sum", dim = 1 : i64} : (tensor<1x2048xf32>) -> tensor<1x1xf32>
// CHECK-NEXT: "ttmetal.write_tiles"(%{{.*}}, %{{.*}}) {select = ["all", "all"]} : (tensor<1x1xf32>, !ttmetal.buffer<f32>) -> ()
// CHECK: "ttmetal.enqueue_read_buffer"(%{{.*}}) {{.*}} : (!ttmetal.buffer<f32>) -> tensor<f32>
func.func @sum_all(%x: tensor<32x64xf32>) -> tensor<f32> {
  %0 = "ttir.sum"(%x) {dim_arg = [0 : i32, 1 : i32]} : (tensor<32x64xf32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----
// A batched matmul with b batched too, b transposed (an attention score q k^T): each of 4 cores
// takes one batch element of both operands, turns its k block within the core and multiplies.
// CHECK-LABEL: func.func @bmm
// CHECK: "ttmetal.read_tiles"(%{{.*}}) {select = ["y", "all"]} : (!ttmetal.buffer<4x32x64xf32>) -> tensor<32x64xf32>
// CHECK-NEXT: "ttmetal.read_tiles"(%{{.*}}) {select = ["y", "all"]} : (!ttmetal.buffer<4x32x64xf32>) -> tensor<32x64xf32>
// CHECK-NEXT: "ttmetal.tile_permute"(%{{.*}}) {shape = array<i64: 1, 32, 64>, permutation = array<i64: 0, 2, 1>} : (tensor<32x64xf32>) -> tensor<64x32xf32>
// CHECK-NEXT: "ttmetal.tile_matmul"(%{{.*}}, %{{.*}}) : (tensor<32x64xf32>, tensor<64x32xf32>) -> tensor<32x32xf32>
// CHECK: }) {grid = array<i64: 4, 1>}
func.func @bmm(%q: tensor<4x32x64xf32>, %k: tensor<4x32x64xf32>) -> tensor<4x32x32xf32> {
  %0 = "ttir.matmul"(%q, %k) {transpose_b = true} : (tensor<4x32x64xf32>, tensor<4x32x64xf32>) -> tensor<4x32x32xf32>
  func.return %0 : tensor<4x32x32xf32>
}
