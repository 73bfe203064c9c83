// RUN: meshc-opt %s --split-input-file --verify-diagnostics
// RUN: not meshc-opt %s --split-input-file 2>&1 | filecheck %s

// a spec that does not parse
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0 mod 8, d1 mod 8)>, meshShape = 2x2, chipIds = [0, 1, 2, 3]>} {
  func.func @f(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
    // CHECK: error: 'ttir.reshard' op source: sharding spec '[S0, S5]' at column 6: mesh axis 5 is out of range for the 2-d mesh 2x2
    // expected-error @+1 {{source: sharding spec '[S0, S5]' at column 6: mesh axis 5 is out of range for the 2-d mesh 2x2}}
    %0 = "ttir.reshard"(%x) {source = "[S0, S5]", target = "[S0, R]"} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    func.return %0 : tensor<2x4xf32>
  }
}
// -----
// spec rank = tensor rank
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0 mod 8, d1 mod 8)>, meshShape = 2x2, chipIds = [0, 1, 2, 3]>} {
  func.func @f(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
    // CHECK: error: 'ttir.reshard' op source spec [S0] has 1 dims but the operand has rank 2
    // expected-error @+1 {{source spec [S0] has 1 dims but the operand has rank 2}}
    %0 = "ttir.reshard"(%x) {source = "[S0]", target = "[S0, R]"} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    func.return %0 : tensor<2x4xf32>
  }
}
// -----
// the target must split evenly
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0 mod 8, d1 mod 8)>, meshShape = 2x2, chipIds = [0, 1, 2, 3]>} {
  func.func @f(%x: tensor<2x3xf32>) -> tensor<4x1xf32> {
    // CHECK: error: 'ttir.reshard' op target spec [R, S0] splits dim 1 of the (4, 3) tensor into 2 pieces, which do not divide 3
    // expected-error @+1 {{target spec [R, S0] splits dim 1 of the (4, 3) tensor into 2 pieces, which do not divide 3}}
    %0 = "ttir.reshard"(%x) {source = "[S0, R]", target = "[R, S0]"} : (tensor<2x3xf32>) -> tensor<4x1xf32>
    func.return %0 : tensor<4x1xf32>
  }
}
// -----
// the result must be the target's local piece
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0 mod 8, d1 mod 8)>, meshShape = 2x2, chipIds = [0, 1, 2, 3]>} {
  func.func @f(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
    // CHECK: error: 'ttir.reshard' op result shape (2, 4) does not match the expected shape (4, 2)
    // expected-error @+1 {{result shape (2, 4) does not match the expected shape (4, 2)}}
    %0 = "ttir.reshard"(%x) {source = "[S0, R]", target = "[R, S0]"} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    func.return %0 : tensor<2x4xf32>
  }
}
// -----
// a view whose axes do not line up with the mesh
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @f(%x: tensor<4x4xf32>) -> tensor<1x4xf32> {
    // CHECK: error: 'ttir.reshard' op target: axis X (size 4) of [X=4, Y=2] is not a run of consecutive axes of the mesh 2x4; the two views do not line up
    // expected-error @+1 {{target: axis X (size 4) of [X=4, Y=2] is not a run of consecutive axes of the mesh 2x4; the two views do not line up}}
    %0 = "ttir.reshard"(%x) {source = "[S(A), R] on [A=2, B=4]", target = "[S(X), R] on [X=4, Y=2]"} : (tensor<4x4xf32>) -> tensor<1x4xf32>
    func.return %0 : tensor<1x4xf32>
  }
}
// -----
// a view over another number of devices
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @f(%x: tensor<4x4xf32>) -> tensor<1x4xf32> {
    // CHECK: error: 'ttir.reshard' op target: spec [S(EP), R] is over 4 devices but the mesh 2x4 has 8
    // expected-error @+1 {{target: spec [S(EP), R] is over 4 devices but the mesh 2x4 has 8}}
    %0 = "ttir.reshard"(%x) {source = "[S0, R]", target = "[S(EP), R] on [EP=4]"} : (tensor<4x4xf32>) -> tensor<1x4xf32>
    func.return %0 : tensor<1x4xf32>
  }
}
// -----
// a named spec's declared size must match
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0 mod 8, d1 mod 8)>, meshShape = 2x2, chipIds = [0, 1, 2, 3]>} {
  func.func @f(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
    // CHECK: error: 'ttir.reshard' op source spec declares dim 0 of size 8, but the operand makes it 4
    // expected-error @+1 {{source spec declares dim 0 of size 8, but the operand makes it 4}}
    %0 = "ttir.reshard"(%x) {source = "[E=8/DP=2, R] on [DP=2, TP=2]", target = "[S0, R]"} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    func.return %0 : tensor<2x4xf32>
  }
}
// -----
// a placement that is neither a spec string nor a #tt.sharding
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0 mod 8, d1 mod 8)>, meshShape = 2x2, chipIds = [0, 1, 2, 3]>} {
  func.func @f(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
    // CHECK: error: 'ttir.reshard' op target must be a sharding-spec string or a #tt.sharding attribute, got 5 : i64
    // expected-error @+1 {{target must be a sharding-spec string or a #tt.sharding attribute, got 5 : i64}}
    %0 = "ttir.reshard"(%x) {source = "[S0, R]", target = 5 : i64} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    func.return %0 : tensor<2x4xf32>
  }
}
// -----
// an uneven split states the tensor (full_shape); the operand must be its source buffer,
// ceil(n / pieces) a dim: 10 columns in 2 pieces make buffers of 8x5, not 8x4
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0 mod 8, d1 mod 8)>, meshShape = 2x2, chipIds = [0, 1, 2, 3]>} {
  func.func @f(%x: tensor<8x4xf32>) -> tensor<8x10xf32> {
    // CHECK: error: 'ttir.reshard' op full_shape [8, 10] split by the source spec [R, S1] makes buffers of [8, 5], but the operand is (8, 4); expected ceil(n / pieces) a dim
    // expected-error @+1 {{full_shape [8, 10] split by the source spec [R, S1] makes buffers of [8, 5], but the operand is (8, 4); expected ceil(n / pieces) a dim}}
    %0 = "ttir.reshard"(%x) {source = "[R, S1]", target = "[R, R]", full_shape = array<i64: 8, 10>} : (tensor<8x4xf32>) -> tensor<8x10xf32>
    func.return %0 : tensor<8x10xf32>
  }
}
// -----
// an uneven result: the target's buffer, 3 rows in 2 pieces of 2 (the second holding 1)
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0 mod 8, d1 mod 8)>, meshShape = 2x2, chipIds = [0, 1, 2, 3]>} {
  func.func @f(%x: tensor<3x4xf32>) -> tensor<1x4xf32> {
    // CHECK: error: 'ttir.reshard' op result shape (1, 4) does not match the expected shape (2, 4)
    // expected-error @+1 {{result shape (1, 4) does not match the expected shape (2, 4)}}
    %0 = "ttir.reshard"(%x) {source = "[R, R]", target = "[S0, R]", full_shape = array<i64: 3, 4>} : (tensor<3x4xf32>) -> tensor<1x4xf32>
    func.return %0 : tensor<1x4xf32>
  }
}
