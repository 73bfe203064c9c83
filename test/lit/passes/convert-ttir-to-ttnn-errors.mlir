// RUN: meshc-opt %s --split-input-file --verify-diagnostics -p 'convert-ttir-to-ttnn'

// tt-mlir's Device spec's "Concerns": a staircase grid is a legal #tt.device that TTNN cannot open.
// expected-error @+1 {{TTNN cannot realise the device grid 8x8 with map (d0, d1) -> (0, d0, (d0 + d1) mod 8): TTNN opens a mesh of chips side by side with the map (d0, d1) -> (0, d0, d1) for mesh 1; lower this device with convert-ttir-to-ttmetal instead}}
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<8x8, (d0, d1) -> (0, d0, (d0 + d1) mod 8)>, meshShape = 1, chipIds = [0]>} {
  func.func @f(%a: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %0 = "ttir.exp"(%a) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    func.return %0 : tensor<64x64xf32>
  }
}

// -----
// A transposed device grid (tt-mlir's Device spec's reinterpretation at device level) is not TTNN's either.
// expected-error @+1 {{TTNN cannot realise the device grid 8x8 with map (d0, d1) -> (0, d1, d0)}}
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<8x8, (d0, d1) -> (0, d1, d0)>, meshShape = 1, chipIds = [0]>} {
  func.func @f(%a: tensor<64x64xf32>) -> tensor<64x64xf32> {
    func.return %a : tensor<64x64xf32>
  }
}

// -----
func.func @dram(%a: tensor<64x64xf32>) {
  // expected-error @+1 {{TTNN cannot realise the DRAM layout grid 2x2 of tensor<64x64xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <2x2>, memref<1x1x!tt.tile<32x32, f32>, #tt.memory_space<dram>>>>: TTNN keeps DRAM tensors interleaved over the banks; use a 1x1 grid}}
  %0 = "ttir.exp"(%a) : (tensor<64x64xf32>) -> tensor<64x64xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <2x2>, memref<1x1x!tt.tile<32x32, f32>, #tt.memory_space<dram>>>>
  func.return
}

// -----
func.func @grid3(%a: tensor<2x64x64xf32>) {
  // expected-error @+1 {{TTNN shards over a 2-d core grid of one chip}}
  %0 = "ttir.exp"(%a) : (tensor<2x64x64xf32>) -> tensor<2x64x64xf32, #tt.metal_layout<(d0, d1, d2) -> (d0, d1, d2), undef, <2x2x2>, memref<1x1x1x!tt.tile<32x32, f32>, #tt.memory_space<l1>>>>
  func.return
}

// -----
func.func @core_map(%a: tensor<64x64xf32>) {
  // expected-error @+1 {{TTNN cannot realise the core map (d0, d1) -> (d0, ((d0 + d1) mod 2)): TTNN places block shards in row-major or column-major order only}}
  %0 = "ttir.exp"(%a) {core_map = affine_map<(d0, d1) -> (d0, (d0 + d1) mod 2)>} : (tensor<64x64xf32>) -> tensor<64x64xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <2x2>, memref<1x1x!tt.tile<32x32, f32>, #tt.memory_space<l1>>>>
  func.return
}

// -----
// A full_to_shard mesh_shard distributes a whole tensor. A value computed from per-device pieces
// (here exp of a full_to_shard's result) is not one: each device would send its own piece as
// the whole tensor. (An op on whole tensors may feed one: run-whole-then-distributed.mlir.)
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<8x16, (d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)>, meshShape = 1x2, chipIds = [0, 1]>} {
  func.func @pieces_then_distributed(%a: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %0 = "ttir.mesh_shard"(%a) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 1>, shard_dims = array<i64: -1, -1>} : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %1 = "ttir.exp"(%0) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    // expected-error @+1 {{distributes the result of 'ttir.exp', which holds per-device pieces (it is computed from a full_to_shard's result); a full_to_shard mesh_shard distributes a whole tensor (a function argument, a shard_to_full's result, or ops on those): gather the pieces back with a shard_to_full first}}
    %2 = "ttir.mesh_shard"(%1) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 2>, shard_dims = array<i64: -1, 1>} : (tensor<64x64xf32>) -> tensor<64x32xf32>
    %3 = "ttir.mesh_shard"(%2) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<shard_to_full>, shard_shape = array<i64: 1, 2>, shard_dims = array<i64: -1, 1>} : (tensor<64x32xf32>) -> tensor<64x64xf32>
    func.return %3 : tensor<64x64xf32>
  }
}

// -----
// A tensor gathered back to the host may be distributed again (a round trip through the host).
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<8x16, (d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)>, meshShape = 1x2, chipIds = [0, 1]>} {
  func.func @round_trip(%a: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %0 = "ttir.mesh_shard"(%a) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 2>, shard_dims = array<i64: -1, 1>} : (tensor<64x64xf32>) -> tensor<64x32xf32>
    %1 = "ttir.mesh_shard"(%0) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<shard_to_full>, shard_shape = array<i64: 1, 2>, shard_dims = array<i64: -1, 1>} : (tensor<64x32xf32>) -> tensor<64x64xf32>
    %2 = "ttir.mesh_shard"(%1) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 2, 1>, shard_dims = array<i64: -1, 0>} : (tensor<64x64xf32>) -> tensor<32x64xf32>
    %3 = "ttir.mesh_shard"(%2) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<shard_to_full>, shard_shape = array<i64: 2, 1>, shard_dims = array<i64: -1, 0>} : (tensor<32x64xf32>) -> tensor<64x64xf32>
    func.return %3 : tensor<64x64xf32>
  }
}
