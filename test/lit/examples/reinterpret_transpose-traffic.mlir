// RUN: meshc-opt %examples/reinterpret_transpose.mlir -p ttir-to-ttmetal-pipeline -o %t.on.mlir
// RUN: meshc-run %t.on.mlir --report | filecheck %s --check-prefix=ON
// RUN: meshc-opt %examples/reinterpret_transpose.mlir -p 'ttir-to-ttmetal-pipeline{reinterpret-grid=false}' -o %t.off.mlir
// RUN: meshc-run %t.off.mlir --report | filecheck %s --check-prefix=OFF

// tt-mlir's Device spec's claim, measured by the simulator. The 256x512 f32 tensor (524,288 bytes) is in
// 64 equal blocks on the 8x8 grid. Program 1 is exp, 2 the transpose, 3 relu.
// With ttir-reinterpret-grid each core transposes the block it holds: 0 bytes cross cores,
// and relu runs where its operand is: 0 bytes.
// ON: │ 2 │ ttmetal.enqueue_program{{ +}}│{{ +}}0 │{{ +}}0 │{{ +}}0 │
// ON: │ 3 │ ttmetal.enqueue_program{{ +}}│{{ +}}0 │{{ +}}0 │{{ +}}0 │
// Without it, result block (y, x) needs operand block (x, y) from core (x, y): only the 8
// diagonal cores hold theirs, so 56 / 64 * 524,288 = 458,752 bytes cross the NOC.
// OFF: │ 2 │ ttmetal.enqueue_program{{ +}}│{{ +}}0 │ 458,752 │
