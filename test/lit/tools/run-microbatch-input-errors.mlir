// RUN: python -c "import numpy as np; np.save('%t.scalar.npy', np.float32(1.0))"
// RUN: not meshc-run %examples/pipeline_parallel.mlir --input x=%t.scalar.npy 2>&1 | filecheck %s

// A pipelined module whose host function splits its batch into microbatches (tt.microbatches = 4)
// checks the run's inputs against a copy of its signature with the whole batch; the copy had no
// location, so a bad input was an error at 0:0 (unlocated; the fuzz harness's 20,000-input
// campaign found it). It is at the function as written.
// CHECK: pipeline_parallel.mlir:{{[1-9][0-9]*}}:3: error: 'func.func' op input 'x' has shape scalar, but @main takes tensor<16x64x128xf32>
// CHECK-NOT: :0:0:
