// A global-view program runs on the mesh it states, or fails saying how to give one. It used to
// run on one chip with its shardings ignored (meshc-run FILE, and FILE --system galaxy), exit 0,
// and ttir-propagate-sharding printed no shardings.
// RUN: meshc-opt %s --split-input-file --verify-diagnostics -p ttir-propagate-sharding
// RUN: meshc-opt %s --split-input-file --verify-diagnostics -p tt-register-device
// RUN: not meshc-run %S/Inputs/mlp-global-no-device.mlir 2>&1 | filecheck %s --check-prefix=NOMESH
// RUN: not meshc-run %S/Inputs/mlp-global-no-device.mlir --system galaxy 2>&1 | filecheck %s --check-prefix=NOMESH
// RUN: meshc-run %S/Inputs/mlp-global-no-device.mlir --check --pipeline 'ttir-to-ttnn-pipeline{mesh-shape=2,4}' | filecheck %s --check-prefix=GIVEN
// RUN: sed -e 's/\(#tt.sharding<\[[^]]*\]\)>/\1, mesh = 2x4>/' %S/Inputs/mlp-global-no-device.mlir > %t.stated.mlir
// RUN: meshc-opt %t.stated.mlir -p ttir-to-ttnn-pipeline | filecheck %s --check-prefix=STATED
// RUN: meshc-run %t.stated.mlir --check --report | filecheck %s --check-prefix=RAN

// NOMESH: error: 'func.func' op this global-view program shards over the module's device mesh (#tt.sharding<[S0, R]>), but the module names no mesh (no #tt.device, no tt.meshes, no `mesh = ...` in its shardings), and meshc does not guess one; give it with the pipeline option mesh-shape (ttir-to-ttnn-pipeline{mesh-shape=2,4}; meshc-run FILE --pipeline 'ttir-to-ttnn-pipeline{mesh-shape=2,4}'), a #tt.device or tt.meshes on the module, or `mesh = 2x4` in the #tt.sharding
// NOMESH-NOT: Traceback
// GIVEN: check: result0 matches the golden run (within the f32 tolerance)
// STATED: meshShape = 2x4
// STATED: ttnn.all_reduce
// RAN: chip 0 -> chip 1
// RAN: check: result0 matches the golden run (within the f32 tolerance)

// expected-error @+1 {{this global-view program shards over the module's device mesh (#tt.sharding<[R, S1]>), but the module names no mesh}}
func.func @f(%x: tensor<8x8xf32> {tt.sharding = #tt.sharding<[R, S1]>}) -> tensor<8x8xf32> {
  %0 = "ttir.relu"(%x) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// A constraint inside the body states a mesh axis as much as an argument's annotation.
func.func @f(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{this global-view program shards over the module's device mesh (#tt.sharding<[S0, R]>)}}
  %0 = "ttir.sharding_constraint"(%x) {sharding = #tt.sharding<[S0, R]>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// Replicated annotations split nothing: they run on one chip as on any mesh, no error.
func.func @f(%x: tensor<8x8xf32> {tt.sharding = #tt.sharding<[R, R]>}) -> tensor<8x8xf32> {
  %0 = "ttir.relu"(%x) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
