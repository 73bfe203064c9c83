// RUN: meshc-opt %s -p ttir-to-ttmetal-pipeline | filecheck %s

// The pipelines run reshard-to-collectives first: [R, R] -> [S0, S1] on the 2x4 mesh is two
// all_slice steps (64 -> 32 rows over mesh axis 0, 128 -> 32 columns over axis 1), which
// TTMetal runs as collectives on the buffers.
// CHECK: "ttmetal.enqueue_ccl"(%{{.*}}, %{{.*}}) {slice_dim = 0 : si32, cluster_axis = 0 : ui32, kind = "all_slice"} : (!ttmetal.buffer<64x128xf32>, !ttmetal.buffer<32x128xf32>) -> ()
// CHECK-NEXT: "ttmetal.create_buffer"
// CHECK-NEXT: "ttmetal.enqueue_ccl"(%{{.*}}, %{{.*}}) {slice_dim = 1 : si32, cluster_axis = 1 : ui32, kind = "all_slice"} : (!ttmetal.buffer<32x128xf32>, !ttmetal.buffer<32x32xf32>) -> ()
// CHECK-NOT: ttir.
// The ttir source follows, as the lowered module's reference.
// CHECK: meshc.reference
// CHECK: "ttir.reshard"
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x32, (d0, d1) -> (d1 floordiv 8 + (d0 floordiv 8) * 4, d0 mod 8, d1 mod 8)>, meshShape = 2x4, chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {
  func.func @f(%x: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.mesh_shard"(%x) {shard_type = #ttir.shard_type<replicate>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 1>, shard_dims = array<i64: -1, -1>} : (tensor<64x128xf32>) -> tensor<64x128xf32>
    %1 = "ttir.reshard"(%0) {source = "[R, R]", target = "[S0, S1]"} : (tensor<64x128xf32>) -> tensor<32x32xf32>
    %2 = "ttir.mesh_shard"(%1) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<shard_to_full>, shard_shape = array<i64: 2, 4>, shard_dims = array<i64: 0, 1>} : (tensor<32x32xf32>) -> tensor<64x128xf32>
    func.return %2 : tensor<64x128xf32>
  }
}
