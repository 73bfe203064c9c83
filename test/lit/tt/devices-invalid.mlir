// RUN: meshc-opt --split-input-file --verify-diagnostics %s
// RUN: not meshc-opt --split-input-file %s 2>&1 | filecheck %s
// Several virtual devices in one module (tt-mlir's Device spec, "Pipeline Parallel"): disjoint
// views of the system, each legal on it; stages placed on them; values flowing forward between
// stages whose chips ethernet links join.

// Two devices sharing chip 3.
// CHECK: devices-invalid.mlir:[[# @LINE + 2]]:1: error: 'builtin.module' op tt.devices[1] takes chip 3, which tt.devices[0] takes too; virtual devices are disjoint views of the system
// expected-error @+1 {{tt.devices[1] takes chip 3, which tt.devices[0] takes too}}
module attributes {tt.system_desc = #tt.system_desc<t3k>, tt.devices = [#tt.device<workerGrid = #tt.grid<2x8x16, (d0, d1, d2) -> (d0 * 2 + (d1 floordiv 8) * 2 + d2 floordiv 8, d1, d2 mod 8)>, meshShape = 2x1x2, chipIds = [0, 1, 2, 3]>, #tt.device<workerGrid = #tt.grid<16x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0 mod 8, d1 mod 8)>, meshShape = 2x2, chipIds = [3, 5, 6, 7]>]} {
}

// -----

// A device outside the system: a t3k has chips 0 to 7.
// CHECK: error: 'builtin.module' op tt.devices[1] is not a legal device on the system: chip id 8 is not in the system, which has 8 chips
// expected-error @+1 {{tt.devices[1] is not a legal device on the system: chip id 8 is not in the system, which has 8 chips}}
module attributes {tt.system_desc = #tt.system_desc<t3k>, tt.devices = [#tt.device<workerGrid = #tt.grid<2x8x16, (d0, d1, d2) -> (d0 * 2 + (d1 floordiv 8) * 2 + d2 floordiv 8, d1, d2 mod 8)>, meshShape = 2x1x2, chipIds = [0, 1, 2, 3]>, #tt.device<workerGrid = #tt.grid<16x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0 mod 8, d1 mod 8)>, meshShape = 2x2, chipIds = [4, 5, 6, 8]>]} {
}

// -----

// A device whose map sends two logical cores to one physical core (d1 floordiv 8 dropped).
// CHECK: devices-invalid.mlir:[[# @LINE + 2]]:73: error: invalid attribute '#tt.device': the device map is not injective: logical cores (0, 0) and (0, 8) both map to core (0, 0) of chip 0
// expected-error @+1 {{the device map is not injective: logical cores (0, 0) and (0, 8) both map to core (0, 0) of chip 0}}
module attributes {tt.system_desc = #tt.system_desc<t3k>, tt.devices = [#tt.device<workerGrid = #tt.grid<16x16, (d0, d1) -> ((d0 floordiv 8) * 2, d0 mod 8, d1 mod 8)>, meshShape = 2x2, chipIds = [0, 1, 2, 3]>, #tt.device<workerGrid = #tt.grid<16x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0 mod 8, d1 mod 8)>, meshShape = 2x2, chipIds = [4, 5, 6, 7]>]} {
}

// -----

// One device and several at once.
// CHECK: error: 'builtin.module' op a module carries one device ('tt.device') or several virtual devices ('tt.devices'), not both
// expected-error @+1 {{a module carries one device ('tt.device') or several virtual devices ('tt.devices'), not both}}
module attributes {tt.system_desc = #tt.system_desc<t3k>, tt.device = #tt.device<workerGrid = #tt.grid<16x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0 mod 8, d1 mod 8)>, meshShape = 2x2, chipIds = [4, 5, 6, 7]>, tt.devices = [#tt.device<workerGrid = #tt.grid<2x8x16, (d0, d1, d2) -> (d0 * 2 + (d1 floordiv 8) * 2 + d2 floordiv 8, d1, d2 mod 8)>, meshShape = 2x1x2, chipIds = [0, 1, 2, 3]>, #tt.device<workerGrid = #tt.grid<16x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0 mod 8, d1 mod 8)>, meshShape = 2x2, chipIds = [4, 5, 6, 7]>]} {
}

// -----

// A stage index outside tt.devices.
module attributes {tt.system_desc = #tt.system_desc<t3k>, tt.devices = [#tt.device<workerGrid = #tt.grid<2x8x16, (d0, d1, d2) -> (d0 * 2 + (d1 floordiv 8) * 2 + d2 floordiv 8, d1, d2 mod 8)>, meshShape = 2x1x2, chipIds = [0, 1, 2, 3]>, #tt.device<workerGrid = #tt.grid<16x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0 mod 8, d1 mod 8)>, meshShape = 2x2, chipIds = [4, 5, 6, 7]>]} {
  // CHECK: error: 'func.func' op is pipeline stage 2, but the module's 'tt.devices' has 2 devices (stages 0 to 1)
  // expected-error @+1 {{is pipeline stage 2, but the module's 'tt.devices' has 2 devices (stages 0 to 1)}}
  func.func @s(%x: tensor<64x64xf32>) -> tensor<64x64xf32> attributes {tt.stage = 2} {
    %0 = "ttir.tanh"(%x) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    func.return %0 : tensor<64x64xf32>
  }
}

// -----

// A stage in a module with no virtual devices.
module {
  // CHECK: error: 'func.func' op is pipeline stage 0, but its module has no 'tt.devices' to place it on
  // expected-error @+1 {{is pipeline stage 0, but its module has no 'tt.devices' to place it on}}
  func.func @s(%x: tensor<64x64xf32>) -> tensor<64x64xf32> attributes {tt.stage = 0} {
    %0 = "ttir.tanh"(%x) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    func.return %0 : tensor<64x64xf32>
  }
}

// -----

// Stage 0 reads a value stage 1 produces: values flow forward through a pipeline.
module attributes {tt.system_desc = #tt.system_desc<t3k>, tt.devices = [#tt.device<workerGrid = #tt.grid<2x8x16, (d0, d1, d2) -> (d0 * 2 + (d1 floordiv 8) * 2 + d2 floordiv 8, d1, d2 mod 8)>, meshShape = 2x1x2, chipIds = [0, 1, 2, 3]>, #tt.device<workerGrid = #tt.grid<16x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0 mod 8, d1 mod 8)>, meshShape = 2x2, chipIds = [4, 5, 6, 7]>]} {
  func.func @s0(%x: tensor<64x64xf32>) -> tensor<64x64xf32> attributes {tt.stage = 0} {
    %0 = "ttir.tanh"(%x) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    func.return %0 : tensor<64x64xf32>
  }
  func.func @s1(%x: tensor<64x64xf32>) -> tensor<64x64xf32> attributes {tt.stage = 1} {
    %0 = "ttir.relu"(%x) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    func.return %0 : tensor<64x64xf32>
  }
  func.func @main(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %0 = func.call @s1(%x) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    // CHECK: devices-invalid.mlir:[[# @LINE + 2]]:5: error: 'func.call' op stage 0 (@s0) reads operand #0, produced by stage 1 (@s1), a later stage; values flow forward through a pipeline
    // expected-error @+1 {{stage 0 (@s0) reads operand #0, produced by stage 1 (@s1), a later stage}}
    %1 = func.call @s0(%0) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    func.return %1 : tensor<64x64xf32>
  }
}

// -----

// A transfer between devices no link joins: a two-chip system without ethernet links.
module attributes {tt.system_desc = #tt.system_desc<meshShape = 1x2, chipDescs = [#tt.chip_desc<arch = wormhole_b0, grid = 8x8, l1Size = 1499136, dramBanks = 12, dramBankSize = 1073741824>], chipDescIndices = [0, 0], chipCoords = [[0, 0], [0, 1]], links = []>, tt.devices = [#tt.device<workerGrid = #tt.grid<8x8, (d0, d1) -> (0, d0, d1)>, meshShape = 1, chipIds = [0]>, #tt.device<workerGrid = #tt.grid<8x8, (d0, d1) -> (0, d0, d1)>, meshShape = 1, chipIds = [1]>]} {
  func.func @s0(%x: tensor<64x64xf32>) -> tensor<64x64xf32> attributes {tt.stage = 0} {
    %0 = "ttir.tanh"(%x) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    func.return %0 : tensor<64x64xf32>
  }
  func.func @s1(%x: tensor<64x64xf32>) -> tensor<64x64xf32> attributes {tt.stage = 1} {
    %0 = "ttir.relu"(%x) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    func.return %0 : tensor<64x64xf32>
  }
  func.func @main(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %0 = func.call @s0(%x) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    // CHECK: error: 'func.call' op operand #0 goes from stage 0 to stage 1, but no ethernet link joins chips 0 to chips 1: no chain of the system's links leads from one set to the other
    // expected-error @+1 {{operand #0 goes from stage 0 to stage 1, but no ethernet link joins chips 0 to chips 1}}
    %1 = func.call @s1(%0) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    func.return %1 : tensor<64x64xf32>
  }
}

// -----

// An op in a stage is verified against its stage's mesh (2x2 here), not another's.
module attributes {tt.system_desc = #tt.system_desc<t3k>, tt.devices = [#tt.device<workerGrid = #tt.grid<2x8x16, (d0, d1, d2) -> (d0 * 2 + (d1 floordiv 8) * 2 + d2 floordiv 8, d1, d2 mod 8)>, meshShape = 2x1x2, chipIds = [0, 1, 2, 3]>, #tt.device<workerGrid = #tt.grid<16x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0 mod 8, d1 mod 8)>, meshShape = 2x2, chipIds = [4, 5, 6, 7]>]} {
  func.func @s1(%x: tensor<64x64xf32>) -> tensor<32x32xf32> attributes {tt.stage = 1} {
    // CHECK: error: 'ttir.mesh_shard' op shard_dims has 3 entries, expected one per mesh axis of the mesh (2, 2)
    // expected-error @+1 {{shard_dims has 3 entries, expected one per mesh axis of the mesh (2, 2)}}
    %0 = "ttir.mesh_shard"(%x) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 2, 2>, shard_dims = array<i64: 0, -1, 1>} : (tensor<64x64xf32>) -> tensor<32x32xf32>
    func.return %0 : tensor<32x32xf32>
  }
}

// -----

// Microbatches with no argument carrying the batch.
module attributes {tt.system_desc = #tt.system_desc<t3k>, tt.devices = [#tt.device<workerGrid = #tt.grid<2x8x16, (d0, d1, d2) -> (d0 * 2 + (d1 floordiv 8) * 2 + d2 floordiv 8, d1, d2 mod 8)>, meshShape = 2x1x2, chipIds = [0, 1, 2, 3]>, #tt.device<workerGrid = #tt.grid<16x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0 mod 8, d1 mod 8)>, meshShape = 2x2, chipIds = [4, 5, 6, 7]>]} {
  func.func @s0(%x: tensor<64x64xf32>) -> tensor<64x64xf32> attributes {tt.stage = 0} {
    %0 = "ttir.tanh"(%x) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    func.return %0 : tensor<64x64xf32>
  }
  // CHECK: error: 'func.func' op splits the batch into 4 microbatches, but no argument carries it: mark the batched arguments {tt.batch}
  // expected-error @+1 {{splits the batch into 4 microbatches, but no argument carries it}}
  func.func @main(%x: tensor<64x64xf32>) -> tensor<64x64xf32> attributes {tt.microbatches = 4} {
    %0 = func.call @s0(%x) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    func.return %0 : tensor<64x64xf32>
  }
}

// -----

// Microbatches on a stage instead of the host function.
module attributes {tt.system_desc = #tt.system_desc<t3k>, tt.devices = [#tt.device<workerGrid = #tt.grid<2x8x16, (d0, d1, d2) -> (d0 * 2 + (d1 floordiv 8) * 2 + d2 floordiv 8, d1, d2 mod 8)>, meshShape = 2x1x2, chipIds = [0, 1, 2, 3]>, #tt.device<workerGrid = #tt.grid<16x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0 mod 8, d1 mod 8)>, meshShape = 2x2, chipIds = [4, 5, 6, 7]>]} {
  // CHECK: error: 'func.func' op 'tt.microbatches' belongs on the host function of a pipelined module, not on a stage
  // expected-error @+1 {{'tt.microbatches' belongs on the host function of a pipelined module, not on a stage}}
  func.func @s0(%x: tensor<64x64xf32> {tt.batch}) -> tensor<64x64xf32> attributes {tt.stage = 0, tt.microbatches = 2} {
    %0 = "ttir.tanh"(%x) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    func.return %0 : tensor<64x64xf32>
  }
}
