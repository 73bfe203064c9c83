// RUN: meshc-opt %s --split-input-file --verify-diagnostics
// RUN: not meshc-opt %s --split-input-file 2>&1 | filecheck %s

func.func @matmul_k(%a: tensor<64x128xf32>, %b: tensor<64x256xf32>) {
  // CHECK: verify-errors.mlir:7:3: error: 'ttir.matmul' op matmul inner dimensions differ: a (64, 128) has K = 128, b (64, 256) has K = 64
  // expected-error @+1 {{matmul inner dimensions differ: a (64, 128) has K = 128, b (64, 256) has K = 64}}
  %0 = "ttir.matmul"(%a, %b) : (tensor<64x128xf32>, tensor<64x256xf32>) -> tensor<64x256xf32>
  func.return
}
// -----
func.func @bcast(%a: tensor<64x128xf32>, %b: tensor<64x3xf32>) {
  // CHECK: error: 'ttir.add' op operand shapes (64, 128) and (64, 3) do not broadcast: dim 1 is 128 against 3
  // expected-error @+1 {{operand shapes (64, 128) and (64, 3) do not broadcast: dim 1 is 128 against 3}}
  %0 = "ttir.add"(%a, %b) : (tensor<64x128xf32>, tensor<64x3xf32>) -> tensor<64x128xf32>
  func.return
}
// -----
func.func @result(%a: tensor<64x128xf32>) {
  // CHECK: error: 'ttir.exp' op result shape (64, 64) does not match the expected shape (64, 128)
  // expected-error @+1 {{result shape (64, 64) does not match the expected shape (64, 128)}}
  %0 = "ttir.exp"(%a) : (tensor<64x128xf32>) -> tensor<64x64xf32>
  func.return
}
// -----
func.func @elem(%a: tensor<64x128xf32>) {
  // expected-error @+1 {{result element type bf16 differs from the operand's f32}}
  %0 = "ttir.relu"(%a) : (tensor<64x128xf32>) -> tensor<64x128xbf16>
  func.return
}
// -----
func.func @gather_dim(%a: tensor<64x128xf32>) {
  // CHECK: error: 'ttir.all_gather' op all_gather_dim 2 is out of range for a tensor of rank 2 (expected -2 <= all_gather_dim < 2)
  // expected-error @+1 {{all_gather_dim 2 is out of range for a tensor of rank 2}}
  %0 = "ttir.all_gather"(%a) {all_gather_dim = 2 : si32, cluster_axis = 0 : ui32} : (tensor<64x128xf32>) -> tensor<64x128xf32>
  func.return
}
// -----
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<8x16, (d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)>, meshShape = 1x2, chipIds = [0, 1]>} {
  func.func @axis(%a: tensor<64x128xf32>) {
    // expected-error @+1 {{cluster_axis 2 is out of range for the 2-d mesh (1, 2) (expected 0 <= cluster_axis < 2)}}
    %0 = "ttir.all_reduce"(%a) {cluster_axis = 2 : ui32, reduce_type = #ttir.reduce_type<sum>} : (tensor<64x128xf32>) -> tensor<64x128xf32>
    func.return
  }
}
// -----
func.func @reduce_type(%a: tensor<64x128xf32>) {
  // expected-error @+1 {{ttir.reduce_type must be one of sum, mean, max, min}}
  %0 = "ttir.all_reduce"(%a) {cluster_axis = 0 : ui32, reduce_type = #ttir.reduce_type<prod>} : (tensor<64x128xf32>) -> tensor<64x128xf32>
  func.return
}
// -----
func.func @transpose(%a: tensor<64x128xf32>) {
  // expected-error @+1 {{dim1 3 is out of range for a tensor of rank 2}}
  %0 = "ttir.transpose"(%a) {dim0 = 0 : si32, dim1 = 3 : si32} : (tensor<64x128xf32>) -> tensor<128x64xf32>
  func.return
}
// -----
func.func @permute(%a: tensor<64x128xf32>) {
  // expected-error @+1 {{permutation [0, 0] is not a permutation of the 2 dims 0..1}}
  %0 = "ttir.permute"(%a) {permutation = array<i64: 0, 0>} : (tensor<64x128xf32>) -> tensor<64x64xf32>
  func.return
}
// -----
func.func @reshape(%a: tensor<64x128xf32>) {
  // expected-error @+1 {{reshape from (64, 128) (8192 elements) to (64, 64) (4096 elements) changes the element count}}
  %0 = "ttir.reshape"(%a) : (tensor<64x128xf32>) -> tensor<64x64xf32>
  func.return
}
// -----
func.func @broadcast(%a: tensor<64x2xf32>) {
  // expected-error @+1 {{cannot broadcast (64, 2) to (64, 8): dim 1 is 2, expected 1 or 8}}
  %0 = "ttir.broadcast"(%a) : (tensor<64x2xf32>) -> tensor<64x8xf32>
  func.return
}
// -----
func.func @concat(%a: tensor<64x2xf32>, %b: tensor<32x3xf32>) {
  // expected-error @+1 {{operand 1 (32, 3) does not match operand 0 (64, 2) outside dim 0}}
  %0 = "ttir.concat"(%a, %b) {dim = 0 : si32} : (tensor<64x2xf32>, tensor<32x3xf32>) -> tensor<96x2xf32>
  func.return
}
// -----
func.func @reduce(%a: tensor<64x2xf32>) {
  // expected-error @+1 {{dim_arg [1, -1] names a dim twice}}
  %0 = "ttir.sum"(%a) {dim_arg = [1 : i32, -1 : i32]} : (tensor<64x2xf32>) -> tensor<64xf32>
  func.return
}
// -----
func.func @softmax(%a: tensor<64x2xf32>) {
  // expected-error @+1 {{dimension -3 is out of range for a tensor of rank 2}}
  %0 = "ttir.softmax"(%a) {dimension = -3 : si32} : (tensor<64x2xf32>) -> tensor<64x2xf32>
  func.return
}
// -----
func.func @embedding(%i: tensor<4xsi32>, %w: tensor<4x8x2xf32>) {
  // expected-error @+1 {{embedding weight must be 2-d (rows, features), got (4, 8, 2)}}
  %0 = "ttir.embedding"(%i, %w) : (tensor<4xsi32>, tensor<4x8x2xf32>) -> tensor<4x2xf32>
  func.return
}
// -----
func.func @constant() {
  // expected-error @+1 {{value shape (2, 2) does not match the expected shape (2, 3)}}
  %0 = "ttir.constant"() {value = dense<1.0> : tensor<2x2xf32>} : () -> tensor<2x3xf32>
  func.return
}
// -----
func.func @to_layout(%a: tensor<2x2xf32>) {
  // expected-error @+1 {{use ttir.typecast to change it}}
  %0 = "ttir.to_layout"(%a) : (tensor<2x2xf32>) -> tensor<2x2xbf16>
  func.return
}
// -----
func.func @shard_type(%a: tensor<2x2xf32>) {
  // expected-error @+1 {{ttir.shard_type must be one of replicate, devices}}
  %0 = "ttir.mesh_shard"(%a) {shard_type = #ttir.shard_type<some>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 1>, shard_dims = array<i64: -1>} : (tensor<2x2xf32>) -> tensor<2x2xf32>
  func.return
}
// -----
func.func @replicate(%a: tensor<2x2xf32>) {
  // expected-error @+1 {{a replicate mesh_shard has shard_shape [2, 1]; expected all 1}}
  %0 = "ttir.mesh_shard"(%a) {shard_type = #ttir.shard_type<replicate>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 2, 1>, shard_dims = array<i64: -1>} : (tensor<2x2xf32>) -> tensor<2x2xf32>
  func.return
}
// -----
func.func @pairs(%a: tensor<2x2xf32>) {
  // expected-error @+1 {{source device -1 of pair (-1, 0) is negative; devices are numbered from 0}}
  %0 = "ttir.collective_permute"(%a) {source_target_pairs = dense<[[-1, 0]]> : tensor<1x2xi64>} : (tensor<2x2xf32>) -> tensor<2x2xf32>
  func.return
}
// -----
func.func @dynamic(%a: tensor<?x4xf32>) {
  // expected-error @+1 {{tensor<?x4xf32> has a dynamic dim; meshc places static shapes only}}
  %0 = "ttir.exp"(%a) : (tensor<?x4xf32>) -> tensor<?x4xf32>
  func.return
}
