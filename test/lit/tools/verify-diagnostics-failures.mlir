// What --verify-diagnostics reports, as mlir-opt does, and exits 1: a diagnostic nothing expected
// (at the diagnostic, `unexpected warning: ...`), an expectation nothing met (at its designator,
// `expected warning "..." was not produced`), a severity other than the designator's (at the
// designator), a malformed -re designator (at the designator). Every chunk is checked, each on
// its own, for warnings (ttir-ttnn-result-shapes: an all_gather over the 2 devices of
// cluster_axis 1 makes 32x64 of 32x32, whatever it declares) and errors alike.
// RUN: not meshc-opt %s --split-input-file --verify-diagnostics -p 'tt-register-device{mesh-shape=1,2},ttir-ttnn-result-shapes' 2>&1 | filecheck %s
// The chunks that were all right are not printed when one was not:
// RUN: not meshc-opt %s --split-input-file --verify-diagnostics -p 'tt-register-device{mesh-shape=1,2},ttir-ttnn-result-shapes' 2>/dev/null | filecheck %s --check-prefix=NOTHING --allow-empty
// NOTHING-NOT: func.func

// A warning no designator expects.
// CHECK: verify-diagnostics-failures.mlir:[[# @LINE + 2]]:3: error: unexpected warning: 'ttir.all_gather' op result shape 32x96 is not the 32x64 that TTNN's all_gather over the 2 devices of cluster_axis 1 yields; the result takes TTNN's shape
func.func @unexpected_warning(%arg0: tensor<32x32xf32>) -> tensor<32x96xf32> {
  %0 = "ttir.all_gather"(%arg0) <{all_gather_dim = 1 : si32, cluster_axis = 1 : ui32}> : (tensor<32x32xf32>) -> tensor<32x96xf32>
  return %0 : tensor<32x96xf32>
}

// -----

// A warning expected of an op that is right as written.
// CHECK: verify-diagnostics-failures.mlir:[[# @LINE + 2]]:6: error: expected warning "result shape 32x64 is not" was not produced
func.func @unmet_warning(%arg0: tensor<32x32xf32>) -> tensor<32x64xf32> {
  // expected-warning @below {{result shape 32x64 is not}}
  %0 = "ttir.all_gather"(%arg0) <{all_gather_dim = 1 : si32, cluster_axis = 1 : ui32}> : (tensor<32x32xf32>) -> tensor<32x64xf32>
  return %0 : tensor<32x64xf32>
}

// -----

// The text and line of a warning, expected as an error: reported at the designator, which is
// then unmet too.
// CHECK: verify-diagnostics-failures.mlir:[[# @LINE + 3]]:6: error: 'warning' diagnostic emitted when expecting a 'error'
// CHECK: verify-diagnostics-failures.mlir:[[# @LINE + 2]]:6: error: expected error "result shape 32x96" was not produced
func.func @warning_expected_as_error(%arg0: tensor<32x32xf32>) -> tensor<32x96xf32> {
  // expected-error @below {{result shape 32x96}}
  %0 = "ttir.all_gather"(%arg0) <{all_gather_dim = 1 : si32, cluster_axis = 1 : ui32}> : (tensor<32x32xf32>) -> tensor<32x96xf32>
  return %0 : tensor<32x96xf32>
}

// -----

// The right warning, expected on the wrong line (@+2 is one line past the op); and @below points
// at the next line holding no designator, which a plain comment is.
// CHECK: verify-diagnostics-failures.mlir:[[# @LINE + 6]]:3: error: unexpected warning: 'ttir.all_gather' op result shape 32x96
// CHECK: verify-diagnostics-failures.mlir:[[# @LINE + 8]]:3: error: unexpected warning: 'ttir.all_gather' op result shape 32x80
// CHECK: verify-diagnostics-failures.mlir:[[# @LINE + 3]]:6: error: expected warning "result shape 32x96" was not produced
// CHECK: verify-diagnostics-failures.mlir:[[# @LINE + 4]]:6: error: expected warning "result shape 32x80" was not produced
func.func @wrong_line(%arg0: tensor<32x32xf32>) -> tensor<32x64xf32> {
  // expected-warning @+2 {{result shape 32x96}}
  %0 = "ttir.all_gather"(%arg0) <{all_gather_dim = 1 : si32, cluster_axis = 1 : ui32}> : (tensor<32x32xf32>) -> tensor<32x96xf32>
  // expected-warning @below {{result shape 32x80}}
  // a plain comment
  %1 = "ttir.all_gather"(%arg0) <{all_gather_dim = 1 : si32, cluster_axis = 1 : ui32}> : (tensor<32x32xf32>) -> tensor<32x80xf32>
  %2 = "ttir.all_gather"(%arg0) <{all_gather_dim = 1 : si32, cluster_axis = 1 : ui32}> : (tensor<32x32xf32>) -> tensor<32x64xf32>
  return %2 : tensor<32x64xf32>
}

// -----

// An error no designator expects, and one whose text is not in the error (the designator's text
// must be contained, not merely share words).
// CHECK: verify-diagnostics-failures.mlir:[[# @LINE + 4]]:3: error: unexpected error: 'func.return' op Expected arguments to have the same types as the function output types: expected [i32], got []
// CHECK: verify-diagnostics-failures.mlir:[[# @LINE + 7]]:3: error: unexpected error: 'func.return' op Expected arguments
// CHECK: verify-diagnostics-failures.mlir:[[# @LINE + 5]]:6: error: expected error "'func.return' op expected [i32] got []" was not produced
func.func @unexpected_error() -> i32 {
  func.return
}
func.func @text_not_contained() -> i32 {
  // expected-error @below {{'func.return' op expected [i32] got []}}
  func.return
}

// -----

// Outside {{...}}, the text of -re is literal: `.` is a dot, not any character.
// CHECK: verify-diagnostics-failures.mlir:[[# @LINE + 4]]:3: error: unexpected warning: 'ttir.all_gather' op result shape 32x96
// CHECK: verify-diagnostics-failures.mlir:[[# @LINE + 2]]:6: error: expected warning "result shape 32x9. is" was not produced
func.func @literal_outside_blocks(%arg0: tensor<32x32xf32>) -> tensor<32x96xf32> {
  // expected-warning-re @below {{result shape 32x9. is}}
  %0 = "ttir.all_gather"(%arg0) <{all_gather_dim = 1 : si32, cluster_axis = 1 : ui32}> : (tensor<32x32xf32>) -> tensor<32x96xf32>
  return %0 : tensor<32x96xf32>
}

// -----

// Malformed -re designators are errors at the designator; they expect nothing, so the warning
// they were written for is unexpected.
// CHECK: verify-diagnostics-failures.mlir:[[# @LINE + 6]]:6: error: found start of regex with no end '}}'
// CHECK: verify-diagnostics-failures.mlir:[[# @LINE + 6]]:6: error: invalid regex: bad character range z-a
// CHECK: verify-diagnostics-failures.mlir:[[# @LINE + 6]]:6: error: invalid regex: unknown character class [:nope:]
// CHECK: verify-diagnostics-failures.mlir:[[# @LINE + 6]]:3: error: unexpected warning: 'ttir.all_gather' op result shape 32x96
// CHECK-NOT: "result shape
func.func @malformed(%arg0: tensor<32x32xf32>) -> tensor<32x96xf32> {
  // expected-warning-re @+3 {{result shape {{32x96 is}}
  // expected-warning-re @+2 {{result shape {{[z-a]}}}}
  // expected-warning-re @+1 {{result shape {{[[:nope:]]}}}}
  %0 = "ttir.all_gather"(%arg0) <{all_gather_dim = 1 : si32, cluster_axis = 1 : ui32}> : (tensor<32x32xf32>) -> tensor<32x96xf32>
  return %0 : tensor<32x96xf32>
}

// -----

// Notes, remarks, diagnostics with no location (@unknown) and a @below after the last op are
// expected like the others; nothing in this chunk produces them.
// CHECK: verify-diagnostics-failures.mlir:[[# @LINE + 4]]:6: error: expected note "a note" was not produced
// CHECK: verify-diagnostics-failures.mlir:[[# @LINE + 4]]:6: error: expected remark "a remark" was not produced
// CHECK: verify-diagnostics-failures.mlir:[[# @LINE + 4]]:6: error: expected error "nowhere" was not produced
// CHECK: verify-diagnostics-failures.mlir:[[# @LINE + 7]]:5: error: expected warning "after the end" was not produced
  // expected-note @+2 {{a note}}
  // expected-remark @+1 {{a remark}}
  // expected-error @unknown {{nowhere}}
func.func @nothing() {
  return
}
 // expected-warning @below {{after the end}}
