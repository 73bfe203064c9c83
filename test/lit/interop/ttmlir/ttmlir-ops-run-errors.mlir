// What tt-mlir's verifiers leave to the run, refused by meshc-run with a located error at the op:
// a mesh_partition whose dim does not split over the devices, and cache writes outside the cache;
// and the ttmetal lowering's refusal of these ops.
// RUN: rm -rf %t && mkdir -p %t
// RUN: python -c "import re; t = open('%s').read(); [open('%t/' + n + '.mlir', 'w').write(b) for n, b in re.findall(r'^//--- (\w+)\.mlir\n(.*?)(?=^//--- |\Z)', t, re.S | re.M)]"
// RUN: meshc-opt %t/partition.mlir -p 'ttir-to-ttnn-pipeline{mesh-shape=1,4}' -o %t/partition.ttnn.mlir
// RUN: not meshc-run %t/partition.ttnn.mlir 2>&1 | filecheck %s --check-prefix=PARTITION
// PARTITION: partition.ttnn.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'ttnn.mesh_partition' op dim 0 (6) does not split into the 4 devices of the mesh
// RUN: meshc-opt %t/index.mlir -p 'ttir-to-ttnn-pipeline' -o %t/index.ttnn.mlir
// RUN: not meshc-run %t/index.ttnn.mlir 2>&1 | filecheck %s --check-prefix=INDEX
// INDEX: index.ttnn.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'ttnn.update_cache' op update_index 16 is outside the cache's 16 positions
// RUN: meshc-opt %t/offset.mlir -p 'ttir-to-ttnn-pipeline' -o %t/offset.ttnn.mlir
// RUN: not meshc-run %t/offset.ttnn.mlir 2>&1 | filecheck %s --check-prefix=OFFSET
// OFFSET: offset.ttnn.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'ttnn.fill_cache' op batch_offset 1 + 1 users runs past the cache's 1 users (cache [1, 8, 16, 64])
// The ttmetal pipeline's decomposition of mesh_partition (all_slice ops) refuses the split, located.
// RUN: not meshc-opt %t/partition.mlir -p 'ttir-to-ttmetal-pipeline{mesh-shape=1,4}' 2>&1 | filecheck %s --check-prefix=METAL-PART
// METAL-PART: partition.mlir:3:3: error: 'ttir.mesh_partition' op ttir-decompose-ttmlir-ops: dim 0 (6) does not split into the 4 devices of the mesh
// The ttmetal lowering checks a cache write's batch_offset, and a constant update_index, when it
// writes the program (a position read on the device is the golden run's error).
// RUN: not meshc-opt %t/offset.mlir -p 'ttir-to-ttmetal-pipeline' 2>&1 | filecheck %s --check-prefix=METAL-FILL
// METAL-FILL: offset.mlir:2:3: error: 'ttir.fill_cache' op convert-ttir-to-ttmetal: batch_offset 1 + 1 users runs past the cache's 1 users (cache [1, 8, 16, 64])
// RUN: not meshc-opt %t/index.mlir -p 'ttir-to-ttmetal-pipeline' 2>&1 | filecheck %s --check-prefix=METAL-INDEX
// METAL-INDEX: index.mlir:3:3: error: 'ttir.update_cache' op convert-ttir-to-ttmetal: update_index 16 is outside the cache's 16 positions

//--- partition.mlir
func.func @main(%arg0: tensor<6x3xf32>) -> tensor<2x3xf32> {
  %r = "ttir.mesh_shard"(%arg0) <{shard_dims = array<i64: -1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1>, shard_type = #ttcore.shard_type<replicate>}> : (tensor<6x3xf32>) -> tensor<6x3xf32>
  %0 = "ttir.mesh_partition"(%r) <{dim = 0 : si32}> : (tensor<6x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

//--- index.mlir
func.func @main(%c: tensor<1x8x16x64xf32>, %x: tensor<1x8x1x64xf32>) -> tensor<1x8x16x64xf32> {
  %i = "ttir.constant"() <{value = dense<16> : tensor<1xi32>}> : () -> tensor<1xi32>
  "ttir.update_cache"(%c, %x, %i) <{batch_offset = 0 : i32}> : (tensor<1x8x16x64xf32>, tensor<1x8x1x64xf32>, tensor<1xi32>) -> ()
  return %c : tensor<1x8x16x64xf32>
}

//--- offset.mlir
func.func @main(%c: tensor<1x8x16x64xf32>, %x: tensor<1x8x4x64xf32>) -> tensor<1x8x16x64xf32> {
  "ttir.fill_cache"(%c, %x) <{batch_offset = 1 : i32}> : (tensor<1x8x16x64xf32>, tensor<1x8x4x64xf32>) -> ()
  return %c : tensor<1x8x16x64xf32>
}
