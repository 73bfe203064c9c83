// RUN: meshc-opt %s --tt-register-device='system=t3k mesh-shape=2,4' --ttir-layout | filecheck %s
// RUN: meshc-opt %s -p 'tt-register-device{system=t3k mesh-shape=2,4},ttir-layout' | filecheck %s
// RUN: not meshc-opt %s -p ttir-layout --tt-register-device 2>&1 | filecheck %s --check-prefix=BOTH
// RUN: not meshc-opt %s --tt-register-device='sytem=t3k' 2>&1 | filecheck %s --check-prefix=OPT
// RUN: meshc-opt --help | filecheck %s --check-prefix=HELP

// Every pass is a flag, as in mlir-opt: the flags run in command-line order, options as
// --NAME='option=value ...'; the same module comes out as with -p.
// CHECK: builtin.module attributes {tt.system_desc = #system_desc, tt.device = #device}
// CHECK: "ttir.relu"(%{{.*}}) : (tensor<64x64xf32>) -> tensor<64x64xf32, #layout>

// BOTH: meshc-opt: error: give the pipeline one way: -p, --pass-pipeline or pass flags such as --tt-register-device, not several
// OPT: meshc-opt: error: pass 'tt-register-device' has no option 'sytem'; did you mean 'system'?

// HELP: every pass is also a flag
// HELP: --ttir-propagate-sharding
// HELP: --ttir-to-ttnn-pipeline

func.func @f(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = "ttir.relu"(%x) : (tensor<64x64xf32>) -> tensor<64x64xf32>
  func.return %0 : tensor<64x64xf32>
}
