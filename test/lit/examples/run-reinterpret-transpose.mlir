// RUN: meshc-run %examples/reinterpret_transpose.mlir --check | filecheck %s

// examples/reinterpret_transpose.mlir, lowered with ttir-to-ttnn-pipeline and run on the simulator, against the
// numpy golden run of the ttir program.
// CHECK: result0:
// CHECK: check: result0 matches the golden run
