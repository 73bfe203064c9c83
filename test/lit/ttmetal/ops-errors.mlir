// RUN: meshc-opt %s --split-input-file --verify-diagnostics

func.func @memcfg() {
  // expected-error @+1 {{memory_config must be a #ttnn.memory_config attribute, got "l1"}}
  %a = "ttmetal.create_buffer"() {memory_config = "l1"} : () -> !ttmetal.buffer<64x128xf32>
  func.return
}
// -----
func.func @tile() {
  // expected-error @+1 {{tile [32, 8] is not a tile shape}}
  %a = "ttmetal.create_buffer"() {memory_config = #ttnn.memory_config<#ttnn.buffer_type<dram>, <interleaved>>, tile = array<i64: 32, 8>} : () -> !ttmetal.buffer<64x128xf32>
  func.return
}
// -----
func.func @write(%x: tensor<64x64xf32>, %a: !ttmetal.buffer<64x128xf32>) {
  // expected-error @+1 {{buffer shape (64, 128) differs from the host tensor (64, 64) in dim 1, which no mesh axis splits}}
  "ttmetal.enqueue_write_buffer"(%x, %a) {shard_dims = array<i64: -1>} : (tensor<64x64xf32>, !ttmetal.buffer<64x128xf32>) -> ()
  func.return
}
// -----
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<8x16, (d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)>, meshShape = 1x2, chipIds = [0, 1]>} {
  func.func @write(%x: tensor<64x64xf32>, %a: !ttmetal.buffer<64x64xf32>) {
    // expected-error @+1 {{buffer shape (64, 64) does not match the per-device shape (64, 32) of the host tensor (64, 64)}}
    "ttmetal.enqueue_write_buffer"(%x, %a) {shard_dims = array<i64: -1, 1>} : (tensor<64x64xf32>, !ttmetal.buffer<64x64xf32>) -> ()
    func.return
  }
}
// -----
func.func @write_shards(%x: tensor<64x32xf32>, %a: !ttmetal.buffer<64x64xf32>) {
  // expected-error @+1 {{input shape (64, 32) is not the per-device buffer shape (64, 64): each device's piece is written as it is}}
  "ttmetal.enqueue_write_shards"(%x, %a) : (tensor<64x32xf32>, !ttmetal.buffer<64x64xf32>) -> ()
  func.return
}
// -----
func.func @end(%a: !ttmetal.buffer<64x128xf32>) {
  // expected-error @+1 {{the kernel must end with ttmetal.kernel_end}}
  "ttmetal.enqueue_program"(%a) ({
  ^bb0(%0: !ttmetal.buffer<64x128xf32>):
  }) {grid = array<i64: 1, 1>} : (!ttmetal.buffer<64x128xf32>) -> ()
  func.return
}
// -----
func.func @ccl(%a: !ttmetal.buffer<64x128xf32>) {
  // expected-error @+1 {{kind must be one of all_gather, reduce_scatter, all_reduce, all_to_all, all_slice, collective_permute, got "broadcast"}}
  "ttmetal.enqueue_ccl"(%a, %a) {kind = "broadcast"} : (!ttmetal.buffer<64x128xf32>, !ttmetal.buffer<64x128xf32>) -> ()
  func.return
}
// -----
func.func @grid(%a: !ttmetal.buffer<64x128xf32>) {
  // expected-error @+1 {{grid [2] must be two positive sizes (rows, cols)}}
  "ttmetal.enqueue_program"(%a) ({
  ^bb0(%0: !ttmetal.buffer<64x128xf32>):
    "ttmetal.kernel_end"() : () -> ()
  }) {grid = array<i64: 2>} : (!ttmetal.buffer<64x128xf32>) -> ()
  func.return
}
// -----
func.func @end(%a: !ttmetal.buffer<64x128xf32>) {
  // expected-error @+1 {{the kernel takes 0 buffers but the program passes 1}}
  "ttmetal.enqueue_program"(%a) ({
    "ttmetal.kernel_end"() : () -> ()
  }) {grid = array<i64: 1, 1>} : (!ttmetal.buffer<64x128xf32>) -> ()
  func.return
}
// -----
func.func @block(%a: !ttmetal.buffer<64x128xf32>) {
  "ttmetal.enqueue_program"(%a) ({
  ^bb0(%0: !ttmetal.buffer<64x128xf32>):
    // expected-error @+1 {{block shape (32, 32) does not match the selected block (32, 64)}}
    %1 = "ttmetal.read_tiles"(%0) {select = ["y", "x"]} : (!ttmetal.buffer<64x128xf32>) -> tensor<32x32xf32>
    "ttmetal.kernel_end"() : () -> ()
  }) {grid = array<i64: 2, 2>} : (!ttmetal.buffer<64x128xf32>) -> ()
  func.return
}
// -----
func.func @select(%a: !ttmetal.buffer<64x128xf32>) {
  "ttmetal.enqueue_program"(%a) ({
  ^bb0(%0: !ttmetal.buffer<64x128xf32>):
    // expected-error @+1 {{select must be two of "y", "x", "all" (rows, cols)}}
    %1 = "ttmetal.read_tiles"(%0) {select = ["z", "x"]} : (!ttmetal.buffer<64x128xf32>) -> tensor<32x32xf32>
    "ttmetal.kernel_end"() : () -> ()
  }) {grid = array<i64: 2, 2>} : (!ttmetal.buffer<64x128xf32>) -> ()
  func.return
}
// -----
func.func @split(%a: !ttmetal.buffer<64x128xf32>) {
  "ttmetal.enqueue_program"(%a) ({
  ^bb0(%0: !ttmetal.buffer<64x128xf32>):
    // expected-error @+1 {{buffer rows (64) do not split into 3 blocks for selector 'y'}}
    %1 = "ttmetal.read_tiles"(%0) {select = ["y", "all"]} : (!ttmetal.buffer<64x128xf32>) -> tensor<21x128xf32>
    "ttmetal.kernel_end"() : () -> ()
  }) {grid = array<i64: 3, 1>} : (!ttmetal.buffer<64x128xf32>) -> ()
  func.return
}
// -----
func.func @unary(%t: tensor<4x4xf32>) {
  // expected-error @+1 {{op must be one of exp, log, relu}}
  %0 = "ttmetal.tile_unary"(%t) {op = "cosh"} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  func.return
}
// -----
func.func @reduce(%t: tensor<4x4xf32>) {
  // expected-error @+1 {{dim 2 must be 0 (rows) or 1 (cols) of the block}}
  %0 = "ttmetal.tile_reduce"(%t) {op = "sum", dim = 2 : i64} : (tensor<4x4xf32>) -> tensor<4x1xf32>
  func.return
}
// -----
func.func @transpose(%t: tensor<4x8xf32>) {
  // expected-error @+1 {{result block (4, 8) is not the transpose of (4, 8)}}
  %0 = "ttmetal.tile_transpose"(%t) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  func.return
}
// -----
func.func @matmul(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) {
  // expected-error @+1 {{result block (4, 8) does not match (4, 4)}}
  %0 = "ttmetal.tile_matmul"(%a, %b) : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x8xf32>
  func.return
}
// -----
func.func @fidelity(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) {
  // expected-error @+1 {{math_fidelity 'HiFi5' is not one of LoFi, HiFi2, HiFi3, HiFi4}}
  %0 = "ttmetal.tile_matmul"(%a, %b) {math_fidelity = "HiFi5"} : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  func.return
}
// -----
func.func @outside(%a: !ttmetal.buffer<64x128xf32>) {
  // expected-error @+1 {{must be inside a ttmetal.enqueue_program kernel}}
  %1 = "ttmetal.read_tiles"(%a) {select = ["y", "x"]} : (!ttmetal.buffer<64x128xf32>) -> tensor<64x128xf32>
  func.return
}
// -----
func.func @constant(%a: !ttmetal.buffer<2x2xf32>) {
  // expected-error @+1 {{value shape (2, 3) does not match the buffer shape (2, 2)}}
  "ttmetal.enqueue_write_constant"(%a) {value = dense<1.0> : tensor<2x3xf32>} : (!ttmetal.buffer<2x2xf32>) -> ()
  func.return
}
// -----
// A program without its grid is reported at the program; the kernel ops in it, whose checks
// read the program's grid, are not verified (so no internal error follows the located one).
func.func @no_grid(%a: !ttmetal.buffer<64x128xf32>) {
  // expected-error @+1 {{attribute 'grid' expected in operation 'ttmetal.enqueue_program'}}
  "ttmetal.enqueue_program"(%a) ({
  ^bb0(%0: !ttmetal.buffer<64x128xf32>):
    %1 = "ttmetal.read_tiles"(%0) {select = ["y", "all"]} : (!ttmetal.buffer<64x128xf32>) -> tensor<21x128xf32>
    "ttmetal.kernel_end"() : () -> ()
  }) : (!ttmetal.buffer<64x128xf32>) -> ()
  func.return
}

// -----

// The table an embedding reads rows of is a 2-d block (rows, width): a 1-d one is refused, not a crash.
func.func @tile_embedding_1d_table(%i: tensor<2x8xi32>, %w: tensor<16xf32>) -> tensor<16x16xf32> {
  // expected-error @+1 {{table block (16,) must be 2-d (rows, width), got rank 1}}
  %0 = "ttmetal.tile_embedding"(%i, %w) : (tensor<2x8xi32>, tensor<16xf32>) -> tensor<16x16xf32>
  return %0 : tensor<16x16xf32>
}
