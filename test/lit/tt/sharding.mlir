// RUN: meshc-opt %s | filecheck %s
// RUN: meshc-opt %s | meshc-opt | filecheck %s
// RUN: meshc-opt %s --print-op-generic | meshc-opt | filecheck %s

// #tt.sharding in the index form (ColossalAI's DTensor doc) and the named form (the MoE resharding notes) prints as it parses
// and survives a round trip, as a tensor encoding and as an attribute.

// ColossalAI's DTensor doc: A as [S0, R] and [S01, R] on a 2x2 mesh.
// CHECK-LABEL: func.func @dtensor
// CHECK-SAME: tensor<4x4xi32, #tt.sharding<[S0, R], mesh = 2x2>>
// CHECK-SAME: tensor<4x4xi32, #tt.sharding<[S01, R], mesh = 2x2>>
func.func @dtensor(%a: tensor<4x4xi32, #tt.sharding<[S0, R], mesh = 2x2>>,
                   %b: tensor<4x4xi32, #tt.sharding<[S01, R], mesh = 2x2>>) {
  func.return
}

// `on MESH` inside the spec reads like `, mesh = MESH`; meshes of 1 to 4 dims.
// CHECK-LABEL: func.func @index_forms
// CHECK-SAME: a = #tt.sharding<[R, S1], mesh = 2x4>
// CHECK-SAME: b = #tt.sharding<[S10, R], mesh = 2x2>
// CHECK-SAME: c = #tt.sharding<[S0, S13, R] P(2), mesh = 2x1x2x2>
// CHECK-SAME: d = #tt.sharding<[S0], mesh = 8>
// CHECK-SAME: e = #tt.sharding<[R, R] P(0, 1), mesh = 2x2>
func.func @index_forms() attributes {a = #tt.sharding<[R, S1] on 2x4>, b = #tt.sharding<[S(1, 0), R], mesh = 2x2>,
                                     c = #tt.sharding<[S0, S13, R] P2, mesh = 2x1x2x2>, d = #tt.sharding<[S0], mesh = 8>,
                                     e = #tt.sharding<[R, R] P01, mesh = 2x2>} {
  func.return
}

// The MoE resharding notes: the attention inputs on [DP=2, CP=2, TP=2]; the mesh follows from the axes.
// CHECK-LABEL: func.func @moe_notes
// CHECK-SAME: tensor<2x2x2xbf16, #tt.sharding<[B=2/DP=2, S=2/CP=2, M=2/TP=2]>>
func.func @moe_notes(%x: tensor<2x2x2xbf16, #tt.sharding<[B=2/DP=2, S=2/CP=2, M=2/TP=2]>>) {
  func.return
}

// The dispatch layout of the MoE resharding notes: E and C replicated, CP named only in the mesh.
// CHECK-LABEL: func.func @dispatch
// CHECK-SAME: tensor<8x2x1x2xbf16, #tt.sharding<[E, B/DP=2, C=1, M/TP=2], mesh = [DP=2, CP=2, TP=2]>>
func.func @dispatch(%x: tensor<8x2x1x2xbf16, #tt.sharding<[E, B/DP, C=1, M/TP], mesh = [DP=2, CP=2, TP=2]>>) {
  func.return
}

// A dim over several axes (major first), partial sums over a named axis, named axes in S(...).
// CHECK-LABEL: func.func @named
// CHECK-SAME: a = #tt.sharding<[T=8/DP=2/TP=4, H]>
// CHECK-SAME: b = #tt.sharding<[X=4/TP=2, Y] P(DP=2)>
// CHECK-SAME: c = #tt.sharding<[R, S(TP)] P(DP), mesh = [DP=2, TP=4]>
// CHECK-SAME: d = #tt.sharding<[E=8/EP=8, M]>
func.func @named() attributes {a = #tt.sharding<[T=8/DP=2/TP=4, H]>, b = #tt.sharding<[X=4/TP=2, Y] P(DP=2)>,
                               c = #tt.sharding<[R, S(TP)] P(DP), mesh = [DP=2, TP=4]>,
                               d = #tt.sharding<[E=8/EP=8, M]>} {
  func.return
}

// Without a mesh an index-form spec is over the module's device mesh (docs/propagation.md):
// it prints without one, as written.
// CHECK-LABEL: func.func @module_mesh
// CHECK-SAME: (%x: tensor<8x8xf32> {tt.sharding = #tt.sharding<[S0, R]>}) -> (tensor<8x8xf32> {tt.sharding = #tt.sharding<[R, S10] P(2)>})
func.func @module_mesh(%x: tensor<8x8xf32> {tt.sharding = #tt.sharding<[S0, R]>}) -> (tensor<8x8xf32> {tt.sharding = #tt.sharding<[R, S10] P2>}) {
  func.return %x : tensor<8x8xf32>
}
