// RUN: meshc-run %examples/reinterpret_extra_wide.mlir --target ttmetal --check | filecheck %s
// RUN: not meshc-run %examples/reinterpret_extra_wide.mlir --check 2>&1 | filecheck %s --check-prefix=TTNN

// examples/reinterpret_extra_wide.mlir keeps its own device grid, which TTMetal realises (the simulator runs its
// programs and checks them against the numpy golden run of the ttir program) and TTNN cannot
// (tt-mlir's Device spec's "Concerns"): lowering it to ttnn is a located error at the module.
// CHECK: result0:
// CHECK: check: result0 matches the golden run
// TTNN: reinterpret_extra_wide.mlir:{{[0-9]+}}:1: error: 'builtin.module' op TTNN cannot realise the device grid
