// RUN: meshc-run %examples/pipeline_parallel.mlir --check --report --report-json %t.json --trace %t.trace | filecheck %s
// RUN: meshc-run %examples/pipeline_parallel.mlir --check --target ttmetal --report | filecheck %s
// RUN: python %S/Inputs/check_pipeline_report.py %t.json %t.trace | filecheck %s --check-prefix=JSON
// RUN: rm -rf %t.plots && meshc-run %examples/pipeline_parallel.mlir --plot %t.plots 2>&1 | filecheck %s --check-prefix=PLOT
// PLOT: wrote {{.*}}pipeline.png

// One program over two virtual devices of a t3k (chips 0-3 in row 0, 4-7 in row 1, linked along
// rows and columns), its batch of 16 as 4 microbatches of 4. A microbatch's activation is
// 4x64x128 f32 = 131,072 B; every figure below is one microbatch's, four times over. Stage 0 (mesh 2x1x2, shard_dims
// [0, -1, 2]) leaves 2x64x64 pieces: chip 2a+b holds batch half a, column half b. Stage 1 (mesh
// 2x2, shard_dims [0, -1]) wants batch half r on chips 4+2r and 5+2r, all columns: 65,536 B each,
// 262,144 B delivered, two 32,768 B parts a chip from the nearest holders (chip 4 <- 0 and 1,
// chip 5 <- 0 and 1, chip 6 <- 2 and 3, chip 7 <- 2 and 3). Routed axis by axis (down the
// column first, then along row 1): the four column links carry 65,536 B each (one part for the
// chip below, one passing on), and 4<->5, 6<->7 carry 32,768 B each way: 393,216 B of link
// traffic a microbatch, 1,572,864 B for the four.
// CHECK: {{pipeline_transfer|enqueue_transfer}}
// CHECK: chip 0 -> chip 4 │ 262,144
// CHECK: chip 1 -> chip 5 │ 262,144
// CHECK: chip 2 -> chip 6 │ 262,144
// CHECK: chip 3 -> chip 7 │ 262,144
// CHECK: chip 4 -> chip 5 │ 131,072
// CHECK: chip 5 -> chip 4 │ 131,072
// CHECK: chip 6 -> chip 7 │ 131,072
// CHECK: chip 7 -> chip 6 │ 131,072
// CHECK: total            │ 1,572,864
// CHECK: pipeline: 2 stages, 4 microbatches of the batch (16 samples), GPipe forward schedule
// CHECK: stage 0 (chips 0-3, mesh 2x1x2): busy
// CHECK: stage 1 (chips 4-7, mesh 2x2): busy
// CHECK: bubble {{0\.[0-9]+}} of the stages' time idle; throughput
// CHECK: check: result0 matches the golden run
// The JSON report's pipeline section and the trace's stage timeline agree with each other: the
// bubble is the idle share of the stages over the makespan, each stage runs its 4 microbatches in
// order without overlapping itself, and stage 1 starts microbatch m after the transfer of m arrives.
// JSON: stages 2 microbatches 4 samples 16
// JSON: bubble_fraction consistent
// JSON: timeline ordered
// JSON: trace stage threads 2

