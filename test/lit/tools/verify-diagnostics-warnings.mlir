// --verify-diagnostics checks warnings as it checks errors (MLIR's semantics): every warning a
// pass emits must be expected, at its line, and every expectation met. ttir-ttnn-result-shapes
// warns at each op whose declared result is not what TTNN yields (an all_gather over the 2
// devices of cluster_axis 1 makes 32x64 of 32x32, whatever it declares).
// RUN: meshc-opt %s --split-input-file --verify-diagnostics -p 'tt-register-device{mesh-shape=1,2},ttir-ttnn-result-shapes' | filecheck %s
// Without --verify-diagnostics the same warnings are printed, located, and the last chunk's
// error fails the run:
// RUN: not meshc-opt %s --split-input-file -p 'tt-register-device{mesh-shape=1,2},ttir-ttnn-result-shapes' 2>&1 | filecheck %s --check-prefix=PRINTED
// PRINTED: verify-diagnostics-warnings.mlir:[[# @LINE + 12]]:3: warning: 'ttir.all_gather' op result shape 32x96 is not the 32x64
// PRINTED: error: 'ttir.add' op operand shapes (32, 64) and (32, 96) do not broadcast

// Every way of naming the line: @+N, @-N, on the line itself, @above (the last line above
// holding no designator) and @below (the next such line: the designator line after it is
// skipped). A designator matches when the warning's text contains its text; -re takes the {{...}}
// blocks inside it as regular expressions (POSIX classes such as [[:digit:]] too) and the rest
// literally.
// CHECK-LABEL: func.func @offsets
// CHECK-COUNT-8: "ttir.all_gather"(%arg0) {{.*}} -> tensor<32x64xf32>
func.func @offsets(%arg0: tensor<32x32xf32>) -> tensor<32x64xf32> {
  // expected-warning @+1 {{'ttir.all_gather' op result shape 32x96 is not the 32x64 that TTNN's all_gather over the 2 devices of cluster_axis 1 yields; the result takes TTNN's shape}}
  %0 = "ttir.all_gather"(%arg0) <{all_gather_dim = 1 : si32, cluster_axis = 1 : ui32}> : (tensor<32x32xf32>) -> tensor<32x96xf32>
  %1 = "ttir.all_gather"(%arg0) <{all_gather_dim = 1 : si32, cluster_axis = 1 : ui32}> : (tensor<32x32xf32>) -> tensor<32x80xf32>
  // expected-warning @-1 {{result shape 32x80 is not the 32x64}}
  %2 = "ttir.all_gather"(%arg0) <{all_gather_dim = 1 : si32, cluster_axis = 1 : ui32}> : (tensor<32x32xf32>) -> tensor<32x40xf32>
  %3 = "ttir.all_gather"(%arg0) <{all_gather_dim = 1 : si32, cluster_axis = 1 : ui32}> : (tensor<32x32xf32>) -> tensor<32x72xf32> // expected-warning {{32x72}}
  // expected-warning-re @above {{result shape {{[[:digit:]]+}}x40 is not}}
  // expected-warning @below {{result shape 32x48}}
  // expected-warning @+2 {{result shape 32x56}}
  %4 = "ttir.all_gather"(%arg0) <{all_gather_dim = 1 : si32, cluster_axis = 1 : ui32}> : (tensor<32x32xf32>) -> tensor<32x48xf32>
  %5 = "ttir.all_gather"(%arg0) <{all_gather_dim = 1 : si32, cluster_axis = 1 : ui32}> : (tensor<32x32xf32>) -> tensor<32x56xf32>
  // expected-warning-re @+1 {{{{^}}'ttir.all_gather' op result shape 32x88 {{.*}} over the {{[0-9]}} devices of cluster_axis 1 yields; the result}}
  %6 = "ttir.all_gather"(%arg0) <{all_gather_dim = 1 : si32, cluster_axis = 1 : ui32}> : (tensor<32x32xf32>) -> tensor<32x88xf32>
  %7 = "ttir.all_gather"(%arg0) <{all_gather_dim = 1 : si32, cluster_axis = 1 : ui32}> : (tensor<32x32xf32>) -> tensor<32x64xf32>
  return %7 : tensor<32x64xf32>
}

// -----

// Two identical warnings on one line are both met by one designator, as in MLIR (here both
// mesh_shards of one line): an expectation says "this line warns so", not how many times.
// Outside {{...}}, -re's text is literal: its brackets are not character classes.
// CHECK-LABEL: func.func @two_on_a_line
func.func @two_on_a_line(%arg0: tensor<64x128xf32>) -> tensor<64x128xf32> {
  // expected-warning-re @below {{'ttir.mesh_shard' op shard_shape [2, 4] is not the pieces [{{[0-9]}}, 2] shard_dims make; it becomes [1, 2]}}
  %1 = "ttir.mesh_shard"(%arg0) <{shard_dims = array<i64: 0, 1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 2, 4>, shard_type = #ttcore.shard_type<devices>}> : (tensor<64x128xf32>) -> tensor<64x64xf32> %7 = "ttir.mesh_shard"(%1) <{shard_dims = array<i64: 0, 1>, shard_direction = #ttcore.shard_direction<shard_to_full>, shard_shape = array<i64: 2, 4>, shard_type = #ttcore.shard_type<devices>}> : (tensor<64x64xf32>) -> tensor<64x128xf32>
  return %7 : tensor<64x128xf32>
}

// -----

// Errors and warnings in one chunk: the warnings a pass emits before its error are checked with
// it (here an add typed for the all_gather's declared 32x96, which becomes 32x64).
func.func @warning_then_error(%arg0: tensor<32x32xf32>, %arg1: tensor<32x96xf32>) -> tensor<32x96xf32> {
  // expected-warning @below {{result shape 32x96}}
  %0 = "ttir.all_gather"(%arg0) <{all_gather_dim = 1 : si32, cluster_axis = 1 : ui32}> : (tensor<32x32xf32>) -> tensor<32x96xf32>
  // expected-error-re @below {{'ttir.add' op operand shapes (32, 64) and (32, 96) do not broadcast: dim {{[0-9]}} is 64 against 96}}
  %1 = "ttir.add"(%0, %arg1) : (tensor<32x96xf32>, tensor<32x96xf32>) -> tensor<32x96xf32>
  return %1 : tensor<32x96xf32>
}
