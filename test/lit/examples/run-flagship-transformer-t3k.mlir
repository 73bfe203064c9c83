// RUN: meshc-opt %examples/flagship_transformer_t3k.mlir -p 'ttir-to-ttnn-pipeline{system=t3k mesh-shape=2,4}' -o %t.ttnn.mlir
// RUN: meshc-run %t.ttnn.mlir --golden %examples/flagship_transformer_t3k.mlir --check --report | filecheck %s
// RUN: meshc-run %examples/flagship_transformer_t3k.mlir --check | filecheck %s --check-prefix=TTIR
// RUN: meshc-run %examples/flagship_transformer_t3k.mlir --target ttmetal --check | filecheck %s --check-prefix=TTIR

// The flagship (what `make demo` runs). Ethernet traffic, derived by hand: two all_gathers along
// each row of 4 chips (a line, no wrap link on a t3k): the heads, 32x16 f32 = 2048 B a piece,
// and the MLP's hidden units, 32x32 f32 = 4096 B a piece. On a line every piece travels to both
// ends: link 0->1 carries chip 0's piece, 1->2 the pieces of chips 0 and 1, 2->3 three pieces:
//   0->1: 2048 + 4096 = 6144, 1->2: 2 * 6144 = 12288, 2->3: 3 * 6144 = 18432, the same leftwards;
// rows of chips (DP replicas) never talk: no traffic on 0->4 .. 3->7.
// CHECK: result0: 64x64 float32
// CHECK: chip 0 -> chip 1 │   6,144
// CHECK: chip 1 -> chip 0 │  18,432
// CHECK: chip 1 -> chip 2 │  12,288
// CHECK: chip 2 -> chip 1 │  12,288
// CHECK: chip 2 -> chip 3 │  18,432
// CHECK: chip 3 -> chip 2 │   6,144
// CHECK-NOT: chip 0 -> chip 4
// CHECK: chip 4 -> chip 5 │   6,144
// CHECK: total{{ *}}│ 147,456
// CHECK: peak L1 a core:
// CHECK: time estimate:
// CHECK: check: result0 matches the golden run (within the f32 tolerance)
// TTIR: check: result0 matches the golden run
