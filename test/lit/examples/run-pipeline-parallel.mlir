// RUN: meshc-run %examples/pipeline_parallel.mlir --split-input-file --check --report | filecheck %s
// RUN: meshc-run %examples/pipeline_parallel.mlir --split-input-file --check --target ttmetal | filecheck %s --check-prefix=METAL

// Two stages, one module each: stage 0 on chips 0-3 (meshShape 2x1x2), stage 1 on chips 4-7
// (meshShape 2x2). Each stage runs on its own chips and nothing crosses an ethernet link.
// CHECK-LABEL: // ----- module 0
// CHECK: total{{.*}} 0 │
// CHECK: │    0 │
// CHECK: │    3 │
// CHECK-NOT: │    4 │
// CHECK: check: result0 matches the golden run
// CHECK-LABEL: // ----- module 1
// CHECK: total{{.*}} 0 │
// CHECK-NOT: │    0 │
// CHECK: │    4 │
// CHECK: │    7 │
// CHECK: check: result0 matches the golden run
// METAL-COUNT-2: check: result0 matches the golden run
