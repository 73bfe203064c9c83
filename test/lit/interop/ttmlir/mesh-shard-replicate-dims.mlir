// A replicate mesh_shard reads no shard_dims: tt-mlir's verifier accepts any, and its conversion to
// TTNN replicates on every mesh axis whatever they say. tt-mlir's canonicalize test
// (Dialect/TTIR/canonicalize/mesh_shard_fold_tests.mlir, @mesh_shard_replicate_no_fold) writes
// shard_dims [0, 1] with shard_shape [1] on a 64x128 tensor. By hand on the 1x2 mesh: distributed
// with shard_dims [-1, -1], each of the 2 devices holding all 64 x 128 = 8192 elements (16384 compared).
// RUN: meshc-opt %S/Inputs/mesh_shard_replicate_no_fold.mlir -p 'ttir-to-ttnn-pipeline{mesh-shape=1,2}' -o %t.mlir
// RUN: filecheck %s --check-prefix=TTNN < %t.mlir
// TTNN: "ttnn.distribute_tensor"(%arg0, %{{.*}}) {shard_dims = array<i64: -1, -1>, {{.*}} : (tensor<64x128xf32>, !ttnn.device) -> tensor<64x128xf32,
// RUN: meshc-run %t.mlir --check | filecheck %s
// CHECK: result0@device0: 64x128 float32
// CHECK: result0@device1: 64x128 float32
// CHECK: check: result0: 0 of 16384 elements differ
