// RUN: not meshc-opt %s -p 'tt-register-device{mesh-shape=1,4096},ttir-partition' 2>&1 | filecheck %s

// A cumsum along a dim split over more devices than MAX_SCAN_PIECES (1024): its pieces would be
// combined through a 4096 x 4096 mask constant (16M elements), so it is refused, located.
func.func @f(%x: tensor<4x16xf32> {tt.sharding = #tt.sharding<[R, S1]>}) -> tensor<4x16xf32> {
  // CHECK: ttir-partition-scan-limit.mlir:[[# @LINE + 1]]:3: error: 'ttir.cumsum' op ttir-partition scans a split dim through a 4096 x 4096 mask of its pieces; 4096 pieces (the mesh axes splitting dim 1) is over the 1024 it allows
  %y = "ttir.cumsum"(%x) {dim = 1 : i64} : (tensor<4x16xf32>) -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}
