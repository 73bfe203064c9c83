// RUN: meshc-opt %examples/dp_2d_batch.mlir -p ttir-to-ttnn-pipeline | filecheck %s --check-prefix=TTNN
// RUN: meshc-opt %examples/dp_2d_batch.mlir -p ttir-to-ttmetal-pipeline | filecheck %s --check-prefix=METAL

// 64x256x1024 split over the batch (mesh axis 0) and the columns (mesh axis 2) of a 2x1x2 mesh.
// TTNN: #ttnn.sharded_buffer_config<nd, global_buffer_size = 67108864, global_shape = [64, 256, 1024], shard_shape = [32, 256, 512], mesh_shape = [2, 1, 2], dim_axes = [[0], [], [2]]>
// TTNN-COUNT-2: "ttnn.distribute_tensor"({{.*}}) {shard_dims = array<i64: 0, -1, 2>, config = #sharded_buffer_config
// TTNN: "ttnn.add"({{.*}}) : (tensor<32x256x512xf32, #ttnn_layout>, tensor<32x256x512xf32, #ttnn_layout>) -> tensor<32x256x512xf32, #ttnn_layout>
// TTNN: "ttnn.sigmoid"
// TTNN: "ttnn.aggregate_tensor"{{.*}} -> tensor<64x256x1024xf32>
// METAL-COUNT-2: "ttmetal.enqueue_write_buffer"
// METAL: "ttmetal.tile_binary"(%{{.*}}, %{{.*}}) {op = "add"}
// METAL: "ttmetal.tile_unary"(%{{.*}}) {op = "sigmoid"}
// METAL: "ttmetal.enqueue_read_buffer"{{.*}} -> tensor<64x256x1024xf32>
