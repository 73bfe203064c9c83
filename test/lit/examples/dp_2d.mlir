// RUN: meshc-opt %examples/dp_2d.mlir -p ttir-to-ttnn-pipeline | filecheck %s --check-prefix=TTNN
// RUN: meshc-opt %examples/dp_2d.mlir -p ttir-to-ttmetal-pipeline | filecheck %s --check-prefix=METAL

// 256x1024 f32 split by columns over two chips side by side (1x2): x = 512 a chip, the 2-d form.
// TTNN-DAG: #ttnn.sharded_buffer_config<global_buffer_size = 1048576, shard_shape = [512, 256], global_buffer_shape = [1024, 256], orientation = row_major>
// TTNN: "ttnn.distribute_tensor"(%x, %{{.*}}) {shard_dims = array<i64: -1, 1>{{.*}} -> tensor<256x512xf32, #ttnn_layout>
// TTNN: "ttnn.distribute_tensor"(%s, %{{.*}}) {shard_dims = array<i64: -1, -1>
// TTNN: "ttnn.multiply"
// TTNN: "ttnn.gelu"
// TTNN: "ttnn.all_gather"(%{{.*}}) {all_gather_dim = 1 : si32, cluster_axis = 1 : ui32} : (tensor<256x512xf32, #ttnn_layout>) -> tensor<256x1024xf32, #ttnn_layout2>
// TTNN: "ttnn.aggregate_tensor"
// METAL: "ttmetal.read_tiles"(%{{.*}}) {select = ["all", "x"]} : (!ttmetal.buffer<1x512xf32>)
// METAL: "ttmetal.tile_binary"(%{{.*}}, %{{.*}}) {op = "multiply"}
// METAL: "ttmetal.tile_unary"(%{{.*}}) {op = "gelu"}
// METAL: "ttmetal.enqueue_ccl"(%{{.*}}, %{{.*}}) {all_gather_dim = 1 : si32, cluster_axis = 1 : ui32, kind = "all_gather"}
// METAL: "ttmetal.enqueue_read_buffer"
