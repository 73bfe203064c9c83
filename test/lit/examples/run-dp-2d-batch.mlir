// RUN: meshc-run %examples/dp_2d_batch.mlir --check | filecheck %s
// RUN: meshc-run %examples/dp_2d_batch.mlir --target ttmetal --check | filecheck %s

// examples/dp_2d_batch.mlir, lowered with ttir-to-ttnn-pipeline (and with ttir-to-ttmetal-pipeline) and
// run on the simulator, against the numpy golden run of the ttir program.
// CHECK: result0:
// CHECK: check: result0 matches the golden run
