// RUN: meshc-opt %examples/pipeline_parallel.mlir --split-input-file -p ttir-to-ttnn-pipeline | filecheck %s --check-prefix=TTNN
// RUN: meshc-opt %examples/pipeline_parallel.mlir --split-input-file -p ttir-to-ttmetal-pipeline | filecheck %s --check-prefix=METAL

// Two virtual devices over disjoint chips, each keeping its own device.
// TTNN: chipIds = [0, 1, 2, 3]
// TTNN: "ttnn.get_device"() {mesh_shape = array<i64: 2, 1, 2>
// TTNN: "ttnn.tanh"
// TTNN: // -----
// TTNN: chipIds = [4, 5, 6, 7]
// Stage 1: rows of h over mesh rows, columns of w over mesh columns: block (i, j) of h @ w.
// TTNN-DAG: #ttnn.sharded_buffer_config<global_buffer_size = 131072, shard_shape = [0, 128], global_buffer_shape = [128, 256], orientation = col_major>
// TTNN-DAG: #ttnn.sharded_buffer_config<global_buffer_size = 262144, shard_shape = [128, 128], global_buffer_shape = [256, 256], orientation = row_major>
// TTNN: "ttnn.get_device"() {mesh_shape = array<i64: 2, 2>
// TTNN: "ttnn.matmul"
// TTNN: "ttnn.aggregate_tensor"{{.*}}mapper = #ttnn.mesh_mapper<shard_2d, dims = [0, 1]>
// METAL: "ttmetal.tile_unary"(%{{.*}}) {op = "tanh"}
// METAL: // -----
// METAL: "ttmetal.tile_matmul"
// METAL: "ttmetal.enqueue_read_buffer"{{.*}}shard_dims = array<i64: 0, 1>{{.*}} -> tensor<256x256xf32>
