// RUN: not meshc-run %s --aggregate 'garbage[[' 2>&1 | filecheck %s --check-prefix=GARBAGE
// RUN: not meshc-run %s --aggregate 'result0=garbage[[' 2>&1 | filecheck %s --check-prefix=GARBAGE
// RUN: not meshc-run %s --aggregate '[R, S1]' 2>&1 | filecheck %s --check-prefix=NONE

// --aggregate on a run whose results are all host tensors: a spec that does not parse is refused
// (it was never read, and meshc-run exited 0), and so is a spec for every distributed result when
// no result is distributed (it did nothing, silently).
// GARBAGE: meshc-run: error: --aggregate garbage[[{{( for result0)?}} on the 1x1 mesh: sharding spec 'garbage[[' at column 1: unexpected 'garbage', expected '['
// NONE: meshc-run: error: --aggregate [R, S1]: no result is left distributed over the devices (every result is one host tensor); --aggregate makes one tensor of a distributed result's pieces
func.func @main(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = "ttir.relu"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}
