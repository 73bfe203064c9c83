// RUN: meshc-opt %s -p 'ttir-layout,convert-ttir-to-ttmetal' | filecheck %s
// RUN: meshc-run %s --target ttmetal --seed 2 --check --report | filecheck %s --check-prefix=SIM
// An op on a shard_map's result (as JAX's shard_map imports: mesh_shard in, the body, mesh_shard
// out, then ops on the whole tensor): the shard_to_full reads the 64x32 result back to the host,
// and the tanh's operand is that host tensor written to every device of the 1x2 mesh again,
// right after the read (the host round trip the program states). The tanh and the add compute
// on copies every device holds whole, so the result comes back as one tensor (enqueue_read_buffer
// of a replicated buffer), not one tensor a device (enqueue_read_shards).
// CHECK: %[[HOST:.*]] = "ttmetal.enqueue_read_buffer"(%{{.*}}) {shard_dims = array<i64: -1, 1>{{.*}}} : (!ttmetal.buffer<64x16xf32>) -> tensor<64x32xf32>
// CHECK-NEXT: %[[AGAIN:.*]] = "ttmetal.create_buffer"() {{.*}} -> !ttmetal.buffer<64x32xf32>
// CHECK-NEXT: "ttmetal.enqueue_write_buffer"(%[[HOST]], %[[AGAIN]]) {shard_dims = array<i64: -1, -1>{{.*}}}
// CHECK: "ttmetal.tile_unary"(%{{.*}}) {op = "tanh"}
// CHECK: %[[OUT:.*]] = "ttmetal.enqueue_read_buffer"(%{{.*}}) {shard_dims = array<i64: -1, -1>{{.*}}} : (!ttmetal.buffer<64x32xf32>) -> tensor<64x32xf32>
// CHECK: func.return %[[OUT]] : tensor<64x32xf32>
// The round trip's write, by hand: the 64x32 f32 result (8,192 B) to each of the 2 devices: 16,384
// host bytes (op 3, after x's write, the exp and the read).
// SIM: │ 3 │ ttmetal.enqueue_write_buffer │ 0 │ {{[0-9,]+}} │ {{[0-9,]+}} │ 16,384 │
// SIM: check: result0 matches the golden run
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<8x16, (d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)>, meshShape = 1x2, chipIds = [0, 1]>} {
  func.func @main(%x: tensor<64x32xf32>) -> tensor<64x32xf32> {
    %0 = "ttir.mesh_shard"(%x) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 2>, shard_dims = array<i64: -1, 1>} : (tensor<64x32xf32>) -> tensor<64x16xf32>
    %1 = "ttir.exp"(%0) : (tensor<64x16xf32>) -> tensor<64x16xf32>
    %2 = "ttir.mesh_shard"(%1) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<shard_to_full>, shard_shape = array<i64: 1, 2>, shard_dims = array<i64: -1, 1>} : (tensor<64x16xf32>) -> tensor<64x32xf32>
    %3 = "ttir.tanh"(%2) : (tensor<64x32xf32>) -> tensor<64x32xf32>
    %4 = "ttir.add"(%3, %2) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
    func.return %4 : tensor<64x32xf32>
  }
}
