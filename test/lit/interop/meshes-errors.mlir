// The mesh a `ttcore.meshes` names is checked like a device's: the verifiers use it, and a
// module names exactly one mesh, the one its tt.device has.
// RUN: meshc-opt --split-input-file --verify-diagnostics %s

module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x2>]>} {
  func.func @axis_out_of_range(%arg0: tensor<32x32xf32>) -> tensor<32x64xf32> {
    // expected-error @+1 {{cluster_axis 2 is out of range for the 2-d mesh (1, 2)}}
    %0 = "ttir.all_gather"(%arg0) <{all_gather_dim = 1 : si32, cluster_axis = 2 : ui32}> : (tensor<32x32xf32>) -> tensor<32x64xf32>
    return %0 : tensor<32x64xf32>
  }
}

// -----

// expected-error @+1 {{the module names 2 meshes (a = 1x2, b = 2x4); meshc runs a module on exactly one mesh}}
module attributes {ttcore.meshes = #ttcore.meshes<[<"a" = 1x2>, <"b" = 2x4>]>} {
}

// -----

// expected-error @+1 {{the module's mesh (tt.meshes) is 2x2 but its tt.device has mesh 1x2; expected the same shape}}
module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 2x2>]>, ttcore.device = #ttcore.device<workerGrid = #ttcore.grid<8x16, (d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)>, meshShape = 1x2, chipIds = [0, 1]>} {
}

// -----

// expected-error @+1 {{mesh "m" = 0x2 must have positive sizes}}
module attributes {ttcore.meshes = #ttcore.meshes<[<"m" = 0x2>]>} {
}
