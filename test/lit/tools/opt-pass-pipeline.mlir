// RUN: meshc-opt %s --pass-pipeline='builtin.module(tt-register-device{system=t3k mesh-shape=2,4})' | filecheck %s
// RUN: meshc-opt %s -p 'tt-register-device{system=t3k mesh-shape=2,4}' | filecheck %s
// RUN: not meshc-opt %s --pass-pipeline='func.func(tt-register-device)' 2>&1 | filecheck %s --check-prefix=ANCHOR
// RUN: not meshc-opt %s --pass-pipeline='builtin.module(func.func(tt-register-device))' 2>&1 | filecheck %s --check-prefix=NESTED
// RUN: not meshc-opt %s --pass-pipeline='tt-register-device' 2>&1 | filecheck %s --check-prefix=FORM
// RUN: not meshc-opt %s -p ttir-layout --pass-pipeline='builtin.module(ttir-layout)' 2>&1 | filecheck %s --check-prefix=BOTH

// MLIR's --pass-pipeline='builtin.module(...)' runs the same passes as -p.
// CHECK: #device = #tt.device<workerGrid = #tt.grid<16x32, {{.*}}meshShape = 2x4
// CHECK: builtin.module attributes {tt.system_desc = #system_desc, tt.device = #device}

// ANCHOR: meshc-opt: error: --pass-pipeline anchors on 'func.func'; meshc's passes run on the module: write 'builtin.module(...)'
// NESTED: meshc-opt: error: --pass-pipeline 'builtin.module(func.func(tt-register-device))': nested pipelines are not supported
// FORM: meshc-opt: error: --pass-pipeline 'tt-register-device' is not of the form 'builtin.module(pass1,pass2{opt=value})'
// BOTH: meshc-opt: error: give the pipeline once: -p or --pass-pipeline, not both

module {
}
