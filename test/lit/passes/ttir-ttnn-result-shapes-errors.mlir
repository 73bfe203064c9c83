// A user typed for the declared shape of a value that takes TTNN's shape
// (ttir-ttnn-result-shapes) is refused at the user, with the shapes, after the warning.
// RUN: meshc-opt %s --verify-diagnostics -p 'ttir-to-ttnn-pipeline{mesh-shape=1,2}'
// RUN: not meshc-opt %s -p 'ttir-to-ttnn-pipeline{mesh-shape=1,2}' 2>&1 | filecheck %s
// CHECK: [[# @LINE + 4]]:3: warning: 'ttir.reduce_scatter'
// CHECK: [[# @LINE + 5]]:3: error: 'ttir.add'
func.func @user_typed_for_the_declared_shape(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
  // expected-warning @below {{'ttir.reduce_scatter' op result shape 64x128 is not the 64x64 that TTNN's reduce_scatter over the 2 devices of cluster_axis 1 yields}}
  %0 = "ttir.reduce_scatter"(%arg0) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<sum>, scatter_dim = 1 : si32}> : (tensor<64x128xf32>) -> tensor<64x128xf32>
  // expected-error @below {{'ttir.add' op operand shapes (64, 64) and (64, 128) do not broadcast: dim 1 is 64 against 128 (its operand took the shape TTNN yields)}}
  %1 = "ttir.add"(%0, %arg0) : (tensor<64x128xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
  return %1 : tensor<64x128xf32>
}
