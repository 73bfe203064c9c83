// RUN: meshc-opt %s --split-input-file --verify-diagnostics
// RUN: not meshc-opt %s --split-input-file 2>&1 | filecheck %s

// Bad #tt.sharding specs are errors at the offending character, saying what was expected.

// expected-error @+1 {{bad sharding spec: unexpected 'R', expected '(' or ',' or '/' or '=' or ']'}}
func.func @f() attributes {c = #tt.sharding<[S0 R], mesh = 2x2>} {
  func.return
}
// CHECK: sharding-errors.mlir:7:49: error: bad sharding spec: unexpected 'R'
// CHECK-NOT: Traceback

// -----

// expected-error @+1 {{bad sharding spec: mesh axis 2 is out of range for the 2-d mesh 2x2}}
func.func @f() attributes {c = #tt.sharding<[S2, R], mesh = 2x2>} {
  func.return
}
// CHECK: sharding-errors.mlir:16:46: error: bad sharding spec: mesh axis 2 is out of range

// -----

// expected-error @+1 {{bad sharding spec: mesh axis 0 is used more than once}}
func.func @f() attributes {c = #tt.sharding<[S0, S01], mesh = 2x2>} {
  func.return
}
// CHECK: sharding-errors.mlir:24:50: error: bad sharding spec: mesh axis 0 is used more than once

// -----

// expected-error @+1 {{bad sharding spec: mesh axis 'DP' has no size: write DP=<n> or give the mesh}}
func.func @f() attributes {c = #tt.sharding<[B/DP, R]>} {
  func.return
}
// CHECK: sharding-errors.mlir:32:48: error: bad sharding spec: mesh axis 'DP' has no size

// -----

// expected-error @+1 {{expected 'mesh = <mesh>' after the spec}}
func.func @f() attributes {c = #tt.sharding<[S0, R], grid = 2x2>} {
  func.return
}
// CHECK: sharding-errors.mlir:40:54: error: expected 'mesh = <mesh>' after the spec

// -----

// expected-error @+1 {{bad sharding spec: the mesh has no axis named 'DP'; its axes are ['TP']}}
func.func @f() attributes {c = #tt.sharding<[B/DP, R], mesh = [TP=2]>} {
  func.return
}
// CHECK: sharding-errors.mlir:48:48: error: bad sharding spec: the mesh has no axis named 'DP'

// -----

// expected-error @+1 {{bad sharding spec: mesh axis 'DP' has size 2 and 4}}
func.func @f() attributes {c = #tt.sharding<[B=2/DP=2, S/DP=4]>} {
  func.return
}
// CHECK: sharding-errors.mlir:56:58: error: bad sharding spec: mesh axis 'DP' has size 2 and 4

// -----

// expected-error @+1 {{bad sharding spec: S needs the mesh axes it shards over}}
func.func @f() attributes {c = #tt.sharding<[S, R], mesh = 2x2>} {
  func.return
}
// CHECK: sharding-errors.mlir:64:46: error: bad sharding spec: S needs the mesh axes

// -----

// A tensor must have the spec's rank and the sizes its named form declares.

// expected-error @+1 {{tensor<4x4x4xf32> has rank 3 but its #tt.sharding spec [S0, R] has 2 dims}}
func.func @f(%a: tensor<4x4x4xf32, #tt.sharding<[S0, R], mesh = 2x2>>) {
  func.return
}
// CHECK: sharding-errors.mlir:74:1: error: 'func.func' op tensor<4x4x4xf32> has rank 3

// -----

// expected-error @+1 {{tensor<4x2x2xf32>: its #tt.sharding declares dim B of size 2, the tensor has 4}}
func.func @f(%a: tensor<4x2x2xf32, #tt.sharding<[B=2/DP=2, S=2/CP=2, M=2/TP=2]>>) {
  func.return
}
// CHECK: sharding-errors.mlir:82:1: error: 'func.func' op tensor<4x2x2xf32>: its #tt.sharding declares dim B of size 2
