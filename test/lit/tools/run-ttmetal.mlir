// RUN: meshc-run %examples/reinterpret_transpose.mlir --target ttmetal --check --report | filecheck %s
// RUN: meshc-opt %examples/dp_2d.mlir -p ttir-to-ttmetal-pipeline -o %t.metal.mlir
// RUN: meshc-run %t.metal.mlir --golden %examples/dp_2d.mlir --check | filecheck %s --check-prefix=DP

// ttmetal programs on the simulator. tt-mlir's Device spec's transpose trick, byte for byte: 256x512 f32 is
// 524,288 B. The host writes it into the cores' L1 (524,288 B over the NOC; ttmetal-optimize-memory
// block-shards it on the exp program's grid: 8,192 B a core, instead of the DRAM the lowering
// gives an argument, which the exp program would read from the banks), the exp program finds
// every block on its core, then the transpose and the relu programs run on the reinterpreted
// (transposed) grid, where every core already holds its block: 0 B cross the NOC.
// CHECK: Per op (in program order)
// CHECK: 0 │ ttmetal.enqueue_write_buffer │ 0 │ 524,288 │    0 │ 524,288 │
// CHECK: 1 │ ttmetal.enqueue_program      │ 0 │       0 │    0 │       0 │
// CHECK: 2 │ ttmetal.enqueue_program      │ 0 │       0 │    0 │       0 │
// CHECK: 3 │ ttmetal.enqueue_program      │ 0 │       0 │    0 │       0 │
// CHECK: 4 │ ttmetal.enqueue_read_buffer  │ 0 │ 524,288 │    0 │ 524,288 │
// CHECK: check: result0 matches the golden run (within the f32 tolerance)
// DP: check: result0 matches the golden run (within the f32 tolerance)
