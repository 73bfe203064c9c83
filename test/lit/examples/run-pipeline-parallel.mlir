// RUN: meshc-run %examples/pipeline_parallel.mlir --check --report | filecheck %s
// RUN: meshc-run %examples/pipeline_parallel.mlir --check --target ttmetal --report | filecheck %s

// One program over two virtual devices of a t3k (chips 0-3 in row 0, 4-7 in row 1, linked along
// rows and columns). The activation is 4x64x128 f32 = 131,072 B. Stage 0 (mesh 2x1x2, shard_dims
// [0, -1, 2]) leaves 2x64x64 pieces: chip 2a+b holds batch half a, column half b. Stage 1 (mesh
// 2x2, shard_dims [0, -1]) wants batch half r on chips 4+2r and 5+2r, all columns: 65,536 B each,
// 262,144 B delivered, two 32,768 B parts a chip from the nearest holders (chip 4 <- 0 and 1,
// chip 5 <- 0 and 1, chip 6 <- 2 and 3, chip 7 <- 2 and 3). Routed axis by axis (down the
// column first, then along row 1): the four column links carry 65,536 B each (one part for the
// chip below, one passing on), and 4<->5, 6<->7 carry 32,768 B each way: 393,216 B of link traffic.
// CHECK: {{pipeline_transfer|enqueue_transfer}}
// CHECK: chip 0 -> chip 4 │  65,536
// CHECK: chip 1 -> chip 5 │  65,536
// CHECK: chip 2 -> chip 6 │  65,536
// CHECK: chip 3 -> chip 7 │  65,536
// CHECK: chip 4 -> chip 5 │  32,768
// CHECK: chip 5 -> chip 4 │  32,768
// CHECK: chip 6 -> chip 7 │  32,768
// CHECK: chip 7 -> chip 6 │  32,768
// CHECK: total            │ 393,216
// CHECK: check: result0 matches the golden run
