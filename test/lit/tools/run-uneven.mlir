// RUN: meshc-run %s --check | filecheck %s
// RUN: meshc-run %s --check --target ttmetal | filecheck %s

// Uneven splits on both targets, checked against the golden run of the global program: 10
// columns over 4 chips (3, 3, 3, 1) and 6 rows over 2 then over 4 (3, 3, then 2, 2, 2, 0);
// each chip computes on its padded buffer (docs/propagation.md, "Uneven splits").
// CHECK: check: result0 matches the golden run
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @main(%x: tensor<6x10xf32> {tt.sharding = #tt.sharding<[S0, S1]>}) -> tensor<6x10xf32> {
    %0 = "ttir.exp"(%x) : (tensor<6x10xf32>) -> tensor<6x10xf32>
    %1 = "ttir.sharding_constraint"(%0) {sharding = #tt.sharding<[S1, S0]>} : (tensor<6x10xf32>) -> tensor<6x10xf32>
    %2 = "ttir.multiply"(%1, %x) : (tensor<6x10xf32>, tensor<6x10xf32>) -> tensor<6x10xf32>
    return %2 : tensor<6x10xf32>
  }
}
