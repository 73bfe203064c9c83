// tt-mlir's conversion of a mesh_shard to TTNN reads shard_dims and the mesh, never shard_shape,
// and its verifier reads no result shape; meshc does the same (ttir-ttnn-result-shapes).
// simple_add_1x2.mlir writes shard_shape [2, 4] (a 2x4 mesh's) on its RUN line's 1x2 mesh:
// shard_dims [0, 1] split dim 0 over 1 device and dim 1 over 2, 1024x2048 -> 1024x1024, which
// is what it declares; shard_shape becomes [1, 2] with a warning on each of the three mesh_shards.
// RUN: meshc-opt %S/Inputs/simple_add_1x2.mlir -p 'ttir-to-ttnn-pipeline{mesh-shape=1,2}' -o %t.add.mlir 2>&1 | filecheck %s --check-prefix=ADD
// ADD-COUNT-3: warning: 'ttir.mesh_shard' op shard_shape [2, 4] is not the pieces [1, 2] shard_dims make; it becomes [1, 2]
// RUN: meshc-run %t.add.mlir --check | filecheck %s --check-prefix=RAN
// const_eval/ccl.mlir declares 4096x512 for shard_dims [-1, 1] on 1x2 (4096 / 2 = 2048 a
// device): the piece takes TTNN's 4096x2048 and the shard_to_full joins two of them into the
// declared 4096x4096.
// RUN: meshc-opt %S/Inputs/const_eval_ccl.mlir -p 'ttir-to-ttnn-pipeline{mesh-shape=1,2}' -o %t.ccl.mlir 2>&1 | filecheck %s --check-prefix=CCL
// CCL: const_eval_ccl.mlir:5:5: warning: 'ttir.mesh_shard' op result shape 4096x512 is not the 4096x2048 that TTNN's distribute_tensor splits by shard_dims [-1, 1] on the mesh 1x2 into pieces [1, 2] yields
// CCL-NOT: warning
// RUN: meshc-run %t.ccl.mlir --check | filecheck %s --check-prefix=RAN
// RAN: check: result0 matches the golden run
