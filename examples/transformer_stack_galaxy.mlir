// A stack of 8 transformer blocks (the flagship block of flagship_transformer_global.mlir as a function
// of its weights; blocks 2 and 5 have an MLP 4x wider, 512 hidden units, the others 128) on a galaxy
// as a pipeline of 4 stages, cut by the compiler: ttir-split-stages times each block on a 2x4
// submesh with ttir-auto-shard's estimate, cuts the chain where the slowest stage is fastest and
// places stage k on rows 2k and 2k+1 of the galaxy's 8x4 chip mesh. Inside a stage the blocks are
// global view: one sequence a chip row ([S0, R] on x), heads and MLP columns over the chip columns.
// The batch is 4 microbatches of 2 sequences (x holds 8 sequences, 256 rows, at run time).
//   meshc-opt examples/transformer_stack_galaxy.mlir -p 'ttir-split-stages{stages=4 stage-mesh=2,4 system=galaxy}' -o /tmp/stack.mlir
//   meshc-run /tmp/stack.mlir --check --report
module {
  func.func @block128(%x: tensor<64x64xf32>, %wq: tensor<64x64xf32>, %wk: tensor<64x64xf32>, %wv: tensor<64x64xf32>, %wo: tensor<64x64xf32>, %w1: tensor<64x128xf32>, %w2: tensor<128x64xf32>) -> tensor<64x64xf32> {
    %q = "ttir.matmul"(%x, %wq) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %k = "ttir.matmul"(%x, %wk) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %v = "ttir.matmul"(%x, %wv) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %q4 = "ttir.reshape"(%q) : (tensor<64x64xf32>) -> tensor<2x32x4x16xf32>
    %k4 = "ttir.reshape"(%k) : (tensor<64x64xf32>) -> tensor<2x32x4x16xf32>
    %v4 = "ttir.reshape"(%v) : (tensor<64x64xf32>) -> tensor<2x32x4x16xf32>
    %qh = "ttir.permute"(%q4) {permutation = array<i64: 0, 2, 1, 3>} : (tensor<2x32x4x16xf32>) -> tensor<2x4x32x16xf32>
    %kh = "ttir.permute"(%k4) {permutation = array<i64: 0, 2, 1, 3>} : (tensor<2x32x4x16xf32>) -> tensor<2x4x32x16xf32>
    %vh = "ttir.permute"(%v4) {permutation = array<i64: 0, 2, 1, 3>} : (tensor<2x32x4x16xf32>) -> tensor<2x4x32x16xf32>
    %s = "ttir.matmul"(%qh, %kh) {transpose_b = true} : (tensor<2x4x32x16xf32>, tensor<2x4x32x16xf32>) -> tensor<2x4x32x32xf32>
    %scale = "ttir.constant"() {value = dense<2.500000e-01> : tensor<2x4x32x32xf32>} : () -> tensor<2x4x32x32xf32>
    %ss = "ttir.multiply"(%s, %scale) : (tensor<2x4x32x32xf32>, tensor<2x4x32x32xf32>) -> tensor<2x4x32x32xf32>
    %p = "ttir.softmax"(%ss) {dimension = 3 : si32} : (tensor<2x4x32x32xf32>) -> tensor<2x4x32x32xf32>
    %a = "ttir.matmul"(%p, %vh) : (tensor<2x4x32x32xf32>, tensor<2x4x32x16xf32>) -> tensor<2x4x32x16xf32>
    %at = "ttir.permute"(%a) {permutation = array<i64: 0, 2, 1, 3>} : (tensor<2x4x32x16xf32>) -> tensor<2x32x4x16xf32>
    %heads = "ttir.reshape"(%at) : (tensor<2x32x4x16xf32>) -> tensor<64x64xf32>
    %o = "ttir.matmul"(%heads, %wo) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %h = "ttir.add"(%x, %o) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %u = "ttir.matmul"(%h, %w1) : (tensor<64x64xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
    %g = "ttir.gelu"(%u) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    %m = "ttir.matmul"(%g, %w2) : (tensor<64x128xf32>, tensor<128x64xf32>) -> tensor<64x64xf32>
    %y = "ttir.add"(%h, %m) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    func.return %y : tensor<64x64xf32>
  }
  func.func @block512(%x: tensor<64x64xf32>, %wq: tensor<64x64xf32>, %wk: tensor<64x64xf32>, %wv: tensor<64x64xf32>, %wo: tensor<64x64xf32>, %w1: tensor<64x512xf32>, %w2: tensor<512x64xf32>) -> tensor<64x64xf32> {
    %q = "ttir.matmul"(%x, %wq) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %k = "ttir.matmul"(%x, %wk) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %v = "ttir.matmul"(%x, %wv) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %q4 = "ttir.reshape"(%q) : (tensor<64x64xf32>) -> tensor<2x32x4x16xf32>
    %k4 = "ttir.reshape"(%k) : (tensor<64x64xf32>) -> tensor<2x32x4x16xf32>
    %v4 = "ttir.reshape"(%v) : (tensor<64x64xf32>) -> tensor<2x32x4x16xf32>
    %qh = "ttir.permute"(%q4) {permutation = array<i64: 0, 2, 1, 3>} : (tensor<2x32x4x16xf32>) -> tensor<2x4x32x16xf32>
    %kh = "ttir.permute"(%k4) {permutation = array<i64: 0, 2, 1, 3>} : (tensor<2x32x4x16xf32>) -> tensor<2x4x32x16xf32>
    %vh = "ttir.permute"(%v4) {permutation = array<i64: 0, 2, 1, 3>} : (tensor<2x32x4x16xf32>) -> tensor<2x4x32x16xf32>
    %s = "ttir.matmul"(%qh, %kh) {transpose_b = true} : (tensor<2x4x32x16xf32>, tensor<2x4x32x16xf32>) -> tensor<2x4x32x32xf32>
    %scale = "ttir.constant"() {value = dense<2.500000e-01> : tensor<2x4x32x32xf32>} : () -> tensor<2x4x32x32xf32>
    %ss = "ttir.multiply"(%s, %scale) : (tensor<2x4x32x32xf32>, tensor<2x4x32x32xf32>) -> tensor<2x4x32x32xf32>
    %p = "ttir.softmax"(%ss) {dimension = 3 : si32} : (tensor<2x4x32x32xf32>) -> tensor<2x4x32x32xf32>
    %a = "ttir.matmul"(%p, %vh) : (tensor<2x4x32x32xf32>, tensor<2x4x32x16xf32>) -> tensor<2x4x32x16xf32>
    %at = "ttir.permute"(%a) {permutation = array<i64: 0, 2, 1, 3>} : (tensor<2x4x32x16xf32>) -> tensor<2x32x4x16xf32>
    %heads = "ttir.reshape"(%at) : (tensor<2x32x4x16xf32>) -> tensor<64x64xf32>
    %o = "ttir.matmul"(%heads, %wo) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %h = "ttir.add"(%x, %o) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %u = "ttir.matmul"(%h, %w1) : (tensor<64x64xf32>, tensor<64x512xf32>) -> tensor<64x512xf32>
    %g = "ttir.gelu"(%u) : (tensor<64x512xf32>) -> tensor<64x512xf32>
    %m = "ttir.matmul"(%g, %w2) : (tensor<64x512xf32>, tensor<512x64xf32>) -> tensor<64x64xf32>
    %y = "ttir.add"(%h, %m) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    func.return %y : tensor<64x64xf32>
  }
  func.func @main(%x: tensor<64x64xf32> {tt.sharding = #tt.sharding<[S0, R]>, tt.batch},
                  %wq0: tensor<64x64xf32> {tt.sharding = #tt.sharding<[R, S1]>},
                  %wk0: tensor<64x64xf32> {tt.sharding = #tt.sharding<[R, S1]>},
                  %wv0: tensor<64x64xf32> {tt.sharding = #tt.sharding<[R, S1]>},
                  %wo0: tensor<64x64xf32>,
                  %wu0: tensor<64x128xf32> {tt.sharding = #tt.sharding<[R, S1]>},
                  %wd0: tensor<128x64xf32>,
                  %wq1: tensor<64x64xf32> {tt.sharding = #tt.sharding<[R, S1]>},
                  %wk1: tensor<64x64xf32> {tt.sharding = #tt.sharding<[R, S1]>},
                  %wv1: tensor<64x64xf32> {tt.sharding = #tt.sharding<[R, S1]>},
                  %wo1: tensor<64x64xf32>,
                  %wu1: tensor<64x128xf32> {tt.sharding = #tt.sharding<[R, S1]>},
                  %wd1: tensor<128x64xf32>,
                  %wq2: tensor<64x64xf32> {tt.sharding = #tt.sharding<[R, S1]>},
                  %wk2: tensor<64x64xf32> {tt.sharding = #tt.sharding<[R, S1]>},
                  %wv2: tensor<64x64xf32> {tt.sharding = #tt.sharding<[R, S1]>},
                  %wo2: tensor<64x64xf32>,
                  %wu2: tensor<64x512xf32> {tt.sharding = #tt.sharding<[R, S1]>},
                  %wd2: tensor<512x64xf32>,
                  %wq3: tensor<64x64xf32> {tt.sharding = #tt.sharding<[R, S1]>},
                  %wk3: tensor<64x64xf32> {tt.sharding = #tt.sharding<[R, S1]>},
                  %wv3: tensor<64x64xf32> {tt.sharding = #tt.sharding<[R, S1]>},
                  %wo3: tensor<64x64xf32>,
                  %wu3: tensor<64x128xf32> {tt.sharding = #tt.sharding<[R, S1]>},
                  %wd3: tensor<128x64xf32>,
                  %wq4: tensor<64x64xf32> {tt.sharding = #tt.sharding<[R, S1]>},
                  %wk4: tensor<64x64xf32> {tt.sharding = #tt.sharding<[R, S1]>},
                  %wv4: tensor<64x64xf32> {tt.sharding = #tt.sharding<[R, S1]>},
                  %wo4: tensor<64x64xf32>,
                  %wu4: tensor<64x128xf32> {tt.sharding = #tt.sharding<[R, S1]>},
                  %wd4: tensor<128x64xf32>,
                  %wq5: tensor<64x64xf32> {tt.sharding = #tt.sharding<[R, S1]>},
                  %wk5: tensor<64x64xf32> {tt.sharding = #tt.sharding<[R, S1]>},
                  %wv5: tensor<64x64xf32> {tt.sharding = #tt.sharding<[R, S1]>},
                  %wo5: tensor<64x64xf32>,
                  %wu5: tensor<64x512xf32> {tt.sharding = #tt.sharding<[R, S1]>},
                  %wd5: tensor<512x64xf32>,
                  %wq6: tensor<64x64xf32> {tt.sharding = #tt.sharding<[R, S1]>},
                  %wk6: tensor<64x64xf32> {tt.sharding = #tt.sharding<[R, S1]>},
                  %wv6: tensor<64x64xf32> {tt.sharding = #tt.sharding<[R, S1]>},
                  %wo6: tensor<64x64xf32>,
                  %wu6: tensor<64x128xf32> {tt.sharding = #tt.sharding<[R, S1]>},
                  %wd6: tensor<128x64xf32>,
                  %wq7: tensor<64x64xf32> {tt.sharding = #tt.sharding<[R, S1]>},
                  %wk7: tensor<64x64xf32> {tt.sharding = #tt.sharding<[R, S1]>},
                  %wv7: tensor<64x64xf32> {tt.sharding = #tt.sharding<[R, S1]>},
                  %wo7: tensor<64x64xf32>,
                  %wu7: tensor<64x128xf32> {tt.sharding = #tt.sharding<[R, S1]>},
                  %wd7: tensor<128x64xf32>) -> (tensor<64x64xf32> {tt.sharding = #tt.sharding<[S0, R]>}) attributes {tt.microbatches = 4} {
    %y0 = func.call @block128(%x, %wq0, %wk0, %wv0, %wo0, %wu0, %wd0) : (tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x128xf32>, tensor<128x64xf32>) -> tensor<64x64xf32>
    %y1 = func.call @block128(%y0, %wq1, %wk1, %wv1, %wo1, %wu1, %wd1) : (tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x128xf32>, tensor<128x64xf32>) -> tensor<64x64xf32>
    %y2 = func.call @block512(%y1, %wq2, %wk2, %wv2, %wo2, %wu2, %wd2) : (tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x512xf32>, tensor<512x64xf32>) -> tensor<64x64xf32>
    %y3 = func.call @block128(%y2, %wq3, %wk3, %wv3, %wo3, %wu3, %wd3) : (tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x128xf32>, tensor<128x64xf32>) -> tensor<64x64xf32>
    %y4 = func.call @block128(%y3, %wq4, %wk4, %wv4, %wo4, %wu4, %wd4) : (tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x128xf32>, tensor<128x64xf32>) -> tensor<64x64xf32>
    %y5 = func.call @block512(%y4, %wq5, %wk5, %wv5, %wo5, %wu5, %wd5) : (tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x512xf32>, tensor<512x64xf32>) -> tensor<64x64xf32>
    %y6 = func.call @block128(%y5, %wq6, %wk6, %wv6, %wo6, %wu6, %wd6) : (tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x128xf32>, tensor<128x64xf32>) -> tensor<64x64xf32>
    %y7 = func.call @block128(%y6, %wq7, %wk7, %wv7, %wo7, %wu7, %wd7) : (tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x128xf32>, tensor<128x64xf32>) -> tensor<64x64xf32>
    func.return %y7 : tensor<64x64xf32>
  }
}
