// RUN: meshc-opt %s -p 'ttir-layout,convert-ttir-to-ttmetal' | filecheck %s

// On a 1x2 mesh: a column-sharded activation plus a replicated row, softmax over rows, a
// column max, a transposed matmul, a typecast and an all_gather; kernels by hand:
// add over the 2x4 grid of the 64x128 local tensor (32x32 blocks), the row broadcasts as
// a 1x32 block; softmax and row reductions over whole rows on a 2x1 grid; the column max
// over whole columns on a 1x4 grid; A^T B reads A's column block and transposes it.
// Configs: the replicated 1x128 f32 row is 512 bytes, shard (0, 0) = replicated both ways;
// the 64x256 f32 activation is 65536 bytes, its columns split in two: shard x = 128.
// CHECK-DAG: #[[REP:sharded_buffer_config[0-9]*]] = #ttnn.sharded_buffer_config<global_buffer_size = 512, shard_shape = [0, 0], global_buffer_shape = [128, 1], orientation = row_major>
// CHECK-DAG: #[[COLS:sharded_buffer_config[0-9]*]] = #ttnn.sharded_buffer_config<global_buffer_size = 65536, shard_shape = [128, 64], global_buffer_shape = [256, 64], orientation = row_major>
// CHECK: %[[R:.*]] = "ttmetal.create_buffer"() {{.*}} -> !ttmetal.buffer<1x128xf32>
// CHECK-NEXT: "ttmetal.enqueue_write_buffer"(%r, %[[R]]) {shard_dims = array<i64: -1, -1>, config = #[[REP]]}
// CHECK: "ttmetal.enqueue_write_buffer"(%x, %{{.*}}) {shard_dims = array<i64: -1, 1>, config = #[[COLS]]}
// CHECK: "ttmetal.read_tiles"(%{{.*}}) {select = ["y", "x"]} : (!ttmetal.buffer<64x128xf32>) -> tensor<32x32xf32>
// CHECK-NEXT: "ttmetal.read_tiles"(%{{.*}}) {select = ["all", "x"]} : (!ttmetal.buffer<1x128xf32>) -> tensor<1x32xf32>
// CHECK-NEXT: "ttmetal.tile_binary"(%{{.*}}, %{{.*}}) {op = "add"} : (tensor<32x32xf32>, tensor<1x32xf32>) -> tensor<32x32xf32>
// CHECK: }) {grid = array<i64: 2, 4>}
// CHECK: "ttmetal.read_tiles"(%{{.*}}) {select = ["y", "all"]} : (!ttmetal.buffer<64x128xf32>) -> tensor<32x128xf32>
// CHECK-NEXT: "ttmetal.tile_reduce"(%{{.*}}) {op = "max", dim = 1 : i64}
// CHECK-NEXT: "ttmetal.tile_binary"(%{{.*}}, %{{.*}}) {op = "subtract"}
// CHECK-NEXT: "ttmetal.tile_unary"(%{{.*}}) {op = "exp"}
// CHECK-NEXT: "ttmetal.tile_reduce"(%{{.*}}) {op = "sum", dim = 1 : i64}
// CHECK-NEXT: "ttmetal.tile_binary"(%{{.*}}, %{{.*}}) {op = "div"}
// CHECK-NEXT: "ttmetal.write_tiles"(%{{.*}}, %{{.*}}) {select = ["y", "all"]}
// CHECK: }) {grid = array<i64: 2, 1>}
// CHECK: "ttmetal.read_tiles"(%{{.*}}) {select = ["all", "x"]} : (!ttmetal.buffer<64x128xf32>) -> tensor<64x32xf32>
// CHECK-NEXT: "ttmetal.tile_reduce"(%{{.*}}) {op = "max", dim = 0 : i64} : (tensor<64x32xf32>) -> tensor<1x32xf32>
// CHECK: }) {grid = array<i64: 1, 4>}
// CHECK: "ttmetal.read_tiles"(%{{.*}}) {select = ["all", "y"]} : (!ttmetal.buffer<64x128xf32>) -> tensor<64x32xf32>
// CHECK-NEXT: "ttmetal.tile_transpose"(%{{.*}}) : (tensor<64x32xf32>) -> tensor<32x64xf32>
// CHECK-NEXT: "ttmetal.read_tiles"(%{{.*}}) {select = ["all", "x"]} : (!ttmetal.buffer<64x128xf32>) -> tensor<64x32xf32>
// CHECK-NEXT: "ttmetal.tile_matmul"(%{{.*}}, %{{.*}}) : (tensor<32x64xf32>, tensor<64x32xf32>) -> tensor<32x32xf32>
// CHECK: }) {grid = array<i64: 4, 4>}
// CHECK: "ttmetal.tile_unary"(%{{.*}}) {op = "typecast"} : (tensor<32x32xf32>) -> tensor<32x32xbf16>
// CHECK: "ttmetal.enqueue_ccl"(%{{.*}}, %{{.*}}) {all_gather_dim = 1 : si32, cluster_axis = 1 : ui32, kind = "all_gather"} : (!ttmetal.buffer<64x128xf32>, !ttmetal.buffer<64x256xf32>) -> ()
// CHECK: %[[OUT:.*]] = "ttmetal.enqueue_read_buffer"(%{{.*}}) {shard_dims = array<i64: -1, -1>{{.*}}} : (!ttmetal.buffer<64x256xf32>) -> tensor<64x256xf32>
// CHECK: "ttmetal.deallocate_buffer"
// CHECK: "ttmetal.finish"() : () -> ()
// CHECK-NEXT: func.return %[[OUT]] : tensor<64x256xf32>
// CHECK-NOT: ttir.
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<8x16, (d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)>, meshShape = 1x2, chipIds = [0, 1]>} {
  func.func @f(%x: tensor<64x256xf32>, %r: tensor<1x128xf32>) -> tensor<64x256xf32> {
    %0 = "ttir.mesh_shard"(%x) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 2>, shard_dims = array<i64: -1, 1>} : (tensor<64x256xf32>) -> tensor<64x128xf32>
    %1 = "ttir.add"(%0, %r) : (tensor<64x128xf32>, tensor<1x128xf32>) -> tensor<64x128xf32>
    %2 = "ttir.softmax"(%1) {dimension = -1 : si32} : (tensor<64x128xf32>) -> tensor<64x128xf32>
    %3 = "ttir.max"(%2) {dim_arg = [0 : i32], keep_dim = true} : (tensor<64x128xf32>) -> tensor<1x128xf32>
    %4 = "ttir.matmul"(%2, %2) {transpose_a = true} : (tensor<64x128xf32>, tensor<64x128xf32>) -> tensor<128x128xf32>
    %5 = "ttir.typecast"(%2) : (tensor<64x128xf32>) -> tensor<64x128xbf16>
    %6 = "ttir.all_gather"(%2) {all_gather_dim = 1 : si32, cluster_axis = 1 : ui32} : (tensor<64x128xf32>) -> tensor<64x256xf32>
    %7 = "ttir.mesh_shard"(%6) {shard_type = #ttir.shard_type<replicate>, shard_direction = #ttir.shard_direction<shard_to_full>, shard_shape = array<i64: 1, 1>, shard_dims = array<i64: -1, -1>} : (tensor<64x256xf32>) -> tensor<64x256xf32>
    func.return %7 : tensor<64x256xf32>
  }
}
