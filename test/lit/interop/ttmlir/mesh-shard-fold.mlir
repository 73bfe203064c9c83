// A devices mesh_shard of one piece (shard_shape [1]) is, as tt-mlir folds it, the identity whatever
// its shard_dims say: tt-mlir's canonicalize test (Dialect/TTIR/canonicalize/mesh_shard_fold_tests.mlir,
// @mesh_shard_1d_fold) writes shard_dims [0, 1] on a rank-1 tensor. meshc reads it as replicated:
// distributed with shard_dims [-1, -1] on the 1x2 mesh, each of the 2 devices holding all 128
// elements (the result stays distributed: 2 x 128 = 256 elements compared).
// RUN: meshc-opt %S/Inputs/mesh_shard_fold_tests.mlir -p 'ttir-to-ttnn-pipeline{mesh-shape=1,2}' -o %t.mlir
// RUN: filecheck %s --check-prefix=TTNN < %t.mlir
// TTNN: "ttnn.distribute_tensor"(%arg0, %{{.*}}) {shard_dims = array<i64: -1, -1>, {{.*}} : (tensor<128xf32>, !ttnn.device) -> tensor<128xf32,
// RUN: meshc-run %t.mlir --check | filecheck %s
// CHECK: result0@device0: 128 float32
// CHECK: result0@device1: 128 float32
// CHECK: check: result0: 0 of 256 elements differ
