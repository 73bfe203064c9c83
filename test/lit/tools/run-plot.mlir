// RUN: rm -rf %t.dir
// RUN: meshc-run %s --plot %t.dir 2>&1 >/dev/null | filecheck %s -DDIR=%t.dir
// RUN: test -s %t.dir/links.png && test -s %t.dir/l1.png && test -s %t.dir/op_time.png
// RUN: rm -rf %t.bad && touch %t.bad
// RUN: not meshc-run %s --plot %t.bad 2>&1 | filecheck %s --check-prefix=BAD

// --plot DIR draws the link traffic on the mesh, the peak L1 per chip and per core, and the
// per-op time by resource, each said on stderr as it is written.
// CHECK: meshc-run: wrote [[DIR]]/links.png ({{[0-9,]+}} bytes)
// CHECK: meshc-run: wrote [[DIR]]/l1.png ({{[0-9,]+}} bytes)
// CHECK: meshc-run: wrote [[DIR]]/op_time.png ({{[0-9,]+}} bytes)
// A DIR that cannot be made is an error naming it, exit 1.
// BAD: meshc-run: error: cannot write '{{.*}}.bad/links.png'

module attributes {tt.device = #tt.device<workerGrid = #tt.grid<8x16, (d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)>, meshShape = 1x2, chipIds = [0, 1]>} {
  func.func @main(%x: tensor<64x128xf32> {tt.sharding = #tt.sharding<[R, S1]>}) -> tensor<64x128xf32> {
    %0 = "ttir.exp"(%x) : (tensor<64x128xf32>) -> tensor<64x128xf32>
    return %0 : tensor<64x128xf32>
  }
}
