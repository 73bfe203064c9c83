// RUN: meshc-opt %s -p 'ttir-to-ttnn-pipeline{system=t3k mesh-shape=2,4}' -o %t.ttnn.mlir
// RUN: meshc-viz %t.ttnn.mlir --value %%2 --text | filecheck %s --check-prefix=TTNN
// RUN: meshc-viz %t.ttnn.mlir --value 2 -o %t.png && od -An -c -N4 %t.png | filecheck %s --check-prefix=PNG
// RUN: meshc-viz %t.ttnn.mlir --value %%2 -o %t.svg && filecheck %s --check-prefix=SVG < %t.svg
// RUN: meshc-viz %s --value %%x --text | filecheck %s --check-prefix=HOST
// RUN: meshc-opt %s -p 'ttir-to-ttmetal-pipeline{system=t3k mesh-shape=2,4}' -o %t.metal.mlir
// RUN: meshc-viz %t.metal.mlir --value %%1 --text | filecheck %s --check-prefix=METAL
// RUN: meshc-viz --shape 256x128 --spec "[S0, S1]" --mesh 8x4 --text | filecheck %s --check-prefix=GALAXY
// RUN: meshc-viz --shape 64x32x16 --spec "[S0, S1, S2]" --mesh 2x2x2 --text | filecheck %s --check-prefix=MESH3
// RUN: meshc-viz --shape 64x64 --spec "[S0, R]" --mesh 2x4 --text | filecheck %s --check-prefix=REPL

// The TT-Mesh sharding spec's Example 3 (ShardTensor2dMesh(dims=[2, 3]) on a T3K): the
// 1x1x128x256 tensor in 8 blocks of 64x64, block (i, j) on the chip at mesh (i, j) = chip 4i + j.
// %2 is the ttnn.relu of the distributed pieces (named as meshc-opt prints it).

// TTNN: %2: tensor<1x1x64x64xf32> (a block on every device)  [R, R, S0, S1] on mesh 2x4
// TTNN: 8 blocks on 8 devices
// TTNN: │ axis 0 = 1 │   chip 4   │   chip 5   │   chip 6   │   chip 7   │
// TTNN-NEXT: │            │     B4     │     B5     │     B6     │     B7     │
// TTNN: │ B6    │ [0:1, 0:1, 64:128, 128:192] │ 1x1x64x64 │ (1,2)                 │ 6     │
// TTNN: inside every chip, its block (1x1x64x64) is laid out as:
// TTNN: │ core (1, 1) │ 3     │ 4096  │

// PNG: 211 P N G
// SVG: <svg

// HOST: %x: tensor<1x1x128x256xf32> (the host tensor, as distributed)  [R, R, S0, S1] on mesh 2x4

// METAL: %1: buffer<1x1x64x64xf32> (a block on every device)  [R, R, S0, S1] on mesh 2x4
// METAL: inside every chip, its block (1x1x64x64) is laid out as:

// A galaxy: 32 blocks of 32x32 on chips 0..31, row-major.
// GALAXY: 32 blocks on 32 devices
// GALAXY: │ B31   │ [224:256, 96:128] │ 32x32 │ (7,3) {{.*}}│ 31    │

// A 2x2x2 mesh prints one table for each index of its first axis.
// MESH3: mesh[0, :, :]: the chip and block of every device
// MESH3: mesh[1, :, :]: the chip and block of every device
// MESH3: │ B5    │ [32:64, 0:16, 8:16] │ 32x16x8 │ (1,0,1) {{.*}}│ 5     │

// Replicas: each block of [S0, R] is held by the four chips of a mesh row.
// REPL: 2 blocks on 8 devices, each held 4 times
// REPL: │ B1    │ [32:64, 0:64] │ 32x64 │ (1,0), (1,1), (1,2), (1,3) │ 4, 5, 6, 7 │

module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @main(%x: tensor<1x1x128x256xf32>) -> tensor<1x1x128x256xf32> {
    %0 = "ttir.mesh_shard"(%x) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 1, 2, 4>, shard_dims = array<i64: 2, 3>} : (tensor<1x1x128x256xf32>) -> tensor<1x1x64x64xf32>
    %1 = "ttir.relu"(%0) : (tensor<1x1x64x64xf32>) -> tensor<1x1x64x64xf32>
    %2 = "ttir.mesh_shard"(%1) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<shard_to_full>, shard_shape = array<i64: 1, 1, 2, 4>, shard_dims = array<i64: 2, 3>} : (tensor<1x1x64x64xf32>) -> tensor<1x1x128x256xf32>
    func.return %2 : tensor<1x1x128x256xf32>
  }
}
