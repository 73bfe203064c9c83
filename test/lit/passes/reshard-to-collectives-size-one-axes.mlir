// RUN: meshc-opt %s -p reshard-to-collectives | filecheck %s
// RUN: meshc-run %s --target ttmetal --check | filecheck %s --check-prefix=SIM
// RUN: meshc-run %s --target ttmetal --entry reduce_into_size_one_axis --check | filecheck %s --check-prefix=SIM

// Axes of size 1 split nothing: on a 1x4 mesh `[R, S01]` and `[S0, S1]` are the same placement
// (dim 1 in four pieces over the four devices), so the reshard disappears and moves no byte;
// a partial sum reduced into a dim named with the size-1 axis is one reduce_scatter over axis 1.
// Run, the golden reference agrees: a reshard that moves nothing keeps a host argument a host
// value, as the lowering does (the golden run and the simulated one agree on it).
// SIM: check: result0 matches the golden run
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<8x8, (d0, d1) -> (0, d0, d1)>, meshShape = 1x4, chipIds = [0, 1, 2, 3]>} {
  // CHECK-LABEL: func.func @same_placement_spelled_twice
  func.func @same_placement_spelled_twice(%x: tensor<8x3xf32>) -> tensor<8x3xf32> {
    // CHECK-NEXT: func.return %x
    %0 = "ttir.reshard"(%x) {source = "[R, S01]", target = "[S0, S1]"} : (tensor<8x3xf32>) -> tensor<8x3xf32>
    func.return %0 : tensor<8x3xf32>
  }
  // CHECK-LABEL: func.func @reduce_into_size_one_axis
  func.func @reduce_into_size_one_axis(%x: tensor<8x12xf32>) -> tensor<8x3xf32> {
    // CHECK-NEXT: "ttir.reduce_scatter"(%x) {scatter_dim = 1 : si32, cluster_axis = 1 : ui32, reduce_type = #ttir.reduce_type<sum>} : (tensor<8x12xf32>) -> tensor<8x3xf32>
    %0 = "ttir.reshard"(%x) {source = "[R, R] P1", target = "[R, S01]"} : (tensor<8x12xf32>) -> tensor<8x3xf32>
    func.return %0 : tensor<8x3xf32>
  }
}
