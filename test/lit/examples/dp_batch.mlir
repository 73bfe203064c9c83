// RUN: meshc-opt %examples/dp_batch.mlir -p ttir-to-ttnn-pipeline | filecheck %s --check-prefix=TTNN
// RUN: meshc-opt %examples/dp_batch.mlir -p ttir-to-ttmetal-pipeline | filecheck %s --check-prefix=METAL

// 16x3x64x128 f32 split over the batch on a 2x1x1 mesh: 8x3x64x128 a chip. The mesh has three
// axes, which TT-Mesh's 2-d buffer config cannot describe: the ND form (16*3*64*128*4 bytes).
// TTNN: #sharded_buffer_config = #ttnn.sharded_buffer_config<nd, global_buffer_size = 1572864, global_shape = [16, 3, 64, 128], shard_shape = [8, 3, 64, 128], mesh_shape = [2, 1, 1], dim_axes = [[0], [], [], []]>
// TTNN: "ttnn.get_device"() {mesh_shape = array<i64: 2, 1, 1>
// TTNN: "ttnn.distribute_tensor"(%x, %{{.*}}) {shard_dims = array<i64: 0, -1, -1>, config = #sharded_buffer_config{{.*}}-> tensor<8x3x64x128xf32, #ttnn_layout>
// TTNN-NEXT: "ttnn.exp"
// TTNN-NEXT: "ttnn.relu"
// TTNN-NEXT: "ttnn.aggregate_tensor"{{.*}} -> tensor<16x3x64x128xf32>
// METAL: "ttmetal.enqueue_write_buffer"(%x, %{{.*}}) {shard_dims = array<i64: 0, -1, -1>, config = #sharded_buffer_config}
// METAL-COUNT-2: "ttmetal.enqueue_program"
// METAL: "ttmetal.enqueue_read_buffer"(%{{.*}}) {shard_dims = array<i64: 0, -1, -1>, config = #sharded_buffer_config}{{.*}} -> tensor<16x3x64x128xf32>
// METAL-NOT: ttir.
// The ttir source follows, as the lowered module's reference (docs/simulator.md, checking).
// METAL: meshc.reference
// METAL: "ttir.exp"
