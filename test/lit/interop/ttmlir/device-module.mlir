// tt-mlir's ttcore.device_module wraps the module of device functions: meshc lifts its functions and
// attributes into the module and runs them; a device_module holding anything but one module, two
// device_modules, or attributes that disagree with the outer module's are refused at the op.
// RUN: not meshc-opt --split-input-file %s 2>/dev/null | filecheck %s
// RUN: not meshc-opt --split-input-file %s 2>&1 >/dev/null | filecheck %s --check-prefix=BAD
// RUN: head -n 22 %s > %t.ok.mlir
// RUN: meshc-opt %t.ok.mlir -p 'ttir-to-ttnn-pipeline' -o %t.ttnn.mlir
// RUN: meshc-run %t.ttnn.mlir --check | filecheck %s --check-prefix=RESULT
// CHECK: builtin.module attributes {tt.meshes = #tt.meshes<[<"mesh" = 1x2>]>} {
// CHECK-NEXT: func.func @main
// RESULT: check: result0: 0 of 4096 elements differ
module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x2>]>} {
  ttcore.device_module {
    builtin.module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x2>]>} {
      func.func @main(%arg0: tensor<32x64xf32>) -> tensor<32x128xf32> {
        %0 = "ttir.mesh_shard"(%arg0) <{shard_dims = array<i64: -1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1>, shard_type = #ttcore.shard_type<replicate>}> : (tensor<32x64xf32>) -> tensor<32x64xf32>
        %1 = "ttir.mesh_shard"(%0) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 1, 2>, shard_type = #ttcore.shard_type<devices>}> : (tensor<32x64xf32>) -> tensor<32x128xf32>
        return %1 : tensor<32x128xf32>
      }
    }
  }
}

// -----

// BAD: device-module.mlir:[[# @LINE + 6]]:3: error: 'tt.device_module' op a module holds one ttcore.device_module; this one holds 2
module {
  ttcore.device_module {
    builtin.module {
    }
  }
  ttcore.device_module {
    builtin.module {
    }
  }
}

// -----

// BAD: device-module.mlir:[[# @LINE + 3]]:5: error: 'builtin.module' op the device module's ttcore.meshes = #tt.meshes<[<"mesh" = 1x4>]> differs from the outer module's #tt.meshes<[<"mesh" = 1x2>]>
module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x2>]>} {
  ttcore.device_module {
    builtin.module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x4>]>} {
    }
  }
}
