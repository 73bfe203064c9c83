// RUN: meshc-opt %s --split-input-file --verify-diagnostics

func.func @mesh() {
  // expected-error @+1 {{mesh_shape [0, 2] must have at least one axis, each of at least one device}}
  %d = "ttnn.get_device"() {mesh_shape = array<i64: 0, 2>} : () -> !ttnn.device
  func.return
}
// -----
func.func @offset() {
  // expected-error @+1 {{mesh_offset [0] must be 2 non-negative integers, one per mesh axis}}
  %d = "ttnn.get_device"() {mesh_shape = array<i64: 1, 1>, mesh_offset = array<i64: 0>} : () -> !ttnn.device
  func.return
}
// -----
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<8x16, (d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)>, meshShape = 1x2, chipIds = [0, 1]>} {
  func.func @big() {
    // expected-error @+1 {{mesh_shape [2, 4] has more devices than the module's mesh (1, 2)}}
    %d = "ttnn.get_device"() {mesh_shape = array<i64: 2, 4>} : () -> !ttnn.device
    func.return
  }
}
// -----
// A transfer states its placement once (shard_dims); the config's class is its form.
func.func @form(%x: tensor<4x4xf32>) {
  // expected-error @+1 {{'form' is not an attribute of a host <-> mesh transfer: shard_dims state the placement and config (a 2D or ND #ttnn.sharded_buffer_config) executes it}}
  %0 = "ttnn.aggregate_tensor"(%x) {shard_dims = array<i64: -1>, form = "2d"} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  func.return
}
// -----
func.func @mapper(%x: tensor<4x4xf32>) {
  // expected-error @+1 {{'mapper' is not an attribute of a host <-> mesh transfer}}
  %0 = "ttnn.aggregate_tensor"(%x) {shard_dims = array<i64: -1>, mapper = #ttnn.mesh_mapper<replicate>} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  func.return
}
// -----
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @local(%x: tensor<64x128xf32>) {
    // expected-error @+1 {{result shape (64, 32) does not match the per-device shape (32, 32)}}
    %0 = "ttnn.distribute_tensor"(%x) {shard_dims = array<i64: 0, 1>} : (tensor<64x128xf32>) -> tensor<64x32xf32>
    func.return
  }
}
// -----
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @dims(%x: tensor<64x128xf32>) {
    // expected-error @+1 {{shard_dims[1] = 2 is not a dim of the rank-2 tensor}}
    %0 = "ttnn.distribute_tensor"(%x) {shard_dims = array<i64: 0, 2>} : (tensor<64x128xf32>) -> tensor<32x128xf32>
    func.return
  }
}
// -----
func.func @layout(%x: tensor<4x4xf32>) {
  // expected-error @+1 {{layout must be "tile" or "row_major", got "tiled"}}
  %0 = "ttnn.to_layout"(%x) {layout = "tiled"} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  func.return
}
// -----
func.func @memcfg(%x: tensor<4x4xf32>) {
  // expected-error @+1 {{memory_config must be a #ttnn.memory_config attribute, got "l1"}}
  %0 = "ttnn.to_memory_config"(%x) {memory_config = "l1"} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  func.return
}
// -----
func.func @compute(%a: tensor<64x128xf32>, %b: tensor<64x256xf32>) {
  // expected-error @+1 {{matmul inner dimensions differ: a (64, 128) has K = 128, b (64, 256) has K = 64}}
  %0 = "ttnn.matmul"(%a, %b) : (tensor<64x128xf32>, tensor<64x256xf32>) -> tensor<64x256xf32>
  func.return
}
// -----
func.func @gather(%a: tensor<64x128xf32>) {
  // expected-error @+1 {{all_gather_dim -3 is out of range for a tensor of rank 2}}
  %0 = "ttnn.all_gather"(%a) {all_gather_dim = -3 : si32, cluster_axis = 0 : ui32} : (tensor<64x128xf32>) -> tensor<64x128xf32>
  func.return
}
