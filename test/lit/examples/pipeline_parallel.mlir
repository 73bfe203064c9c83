// RUN: meshc-opt %examples/pipeline_parallel.mlir -p ttir-to-ttnn-pipeline | filecheck %s --check-prefix=TTNN
// RUN: meshc-opt %examples/pipeline_parallel.mlir -p ttir-to-ttmetal-pipeline | filecheck %s --check-prefix=METAL

// Each stage lowered on its own virtual device; the activation stays on chips 0-3 (stage 0 returns
// its device tensor, no read back to the host) and reaches stage 1 through a transfer from stage
// 0's sharding to stage 1's, which stage 1 takes as the tensor it would have written itself. The
// weight w (not batched) is written to stage 1's chips by @main itself (tt.stage = 1), once for
// every microbatch, and stage 1 takes it on its devices.
// TTNN: tt.devices = [#device, #device1]
// TTNN-LABEL: func.func @stage0
// TTNN: "ttnn.get_device"() {mesh_shape = array<i64: 2, 1, 2>
// TTNN: "ttnn.tanh"
// TTNN-NOT: aggregate_tensor
// TTNN: func.return
// TTNN-LABEL: func.func @stage1(%h: tensor<2x64x128xf32, #ttnn_layout1>, %w: tensor<128x128xf32, #ttnn_layout1>)
// TTNN: "ttnn.get_device"() {mesh_shape = array<i64: 2, 2>
// TTNN: "ttnn.matmul"(%h,
// TTNN-LABEL: func.func @main
// TTNN-NEXT: %h = func.call @stage0(%x)
// TTNN-NEXT: "ttnn.pipeline_transfer"(%h) {source_stage = 0 : i64, target_stage = 1 : i64, shape = array<i64: 4, 64, 128>, source_shard_dims = array<i64: 0, -1, 2>, target_shard_dims = array<i64: 0, -1>, memory_config = {{.*}}} : (tensor<2x64x64xf32, #ttnn_layout>) -> tensor<2x64x128xf32, #ttnn_layout1>
// TTNN-NEXT: "ttnn.distribute_tensor"(%w) {{.*}}tt.stage = 1 : i64
// TTNN-NEXT: func.call @stage1
// METAL-LABEL: func.func @stage0
// METAL: "ttmetal.tile_unary"(%{{.*}}) {op = "tanh"}
// METAL-NOT: enqueue_read_buffer
// METAL: func.return %{{.*}} : !ttmetal.buffer<2x64x64xf32>
// METAL-LABEL: func.func @stage1(%h: !ttmetal.buffer<2x64x128xf32>, %w: !ttmetal.buffer<128x128xf32>)
// METAL: "ttmetal.tile_matmul"
// METAL: "ttmetal.deallocate_buffer"(%h)
// METAL-NOT: "ttmetal.deallocate_buffer"(%w)
// METAL-LABEL: func.func @main
// METAL: "ttmetal.enqueue_transfer"(%h) {source_stage = 0 : i64, target_stage = 1 : i64, shape = array<i64: 4, 64, 128>, source_shard_dims = array<i64: 0, -1, 2>, target_shard_dims = array<i64: 0, -1>, memory_config = {{.*}}, tile = array<i64: 32, 32>} : (!ttmetal.buffer<2x64x64xf32>) -> !ttmetal.buffer<2x64x128xf32>
// METAL-NEXT: %[[W:.*]] = "ttmetal.create_buffer"() {{.*}}tt.stage = 1 : i64
// METAL-NEXT: "ttmetal.enqueue_write_buffer"(%w, %[[W]]) {{.*}}tt.stage = 1 : i64
// METAL-NEXT: func.call @stage1(%{{.*}}, %[[W]])
