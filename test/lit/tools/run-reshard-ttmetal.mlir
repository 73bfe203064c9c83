// RUN: meshc-opt %s -p ttir-to-ttmetal-pipeline -o %t.metal.mlir
// RUN: filecheck %s --check-prefix=IR --input-file %t.metal.mlir
// RUN: meshc-run %t.metal.mlir --golden %s --check --report | filecheck %s

// A reshard [R, R] -> [R, S1] on a 2x2 mesh lowers to one all_slice step (reshard-to-collectives),
// which TTMetal carries as an enqueue_ccl; the simulator runs every collective kind there is, so
// the program runs and matches the golden run. all_slice moves nothing between chips: each
// device keeps its own 64x64 half of the 64x128 f32 tensor (0 ethernet bytes).
// IR: "ttmetal.enqueue_ccl"(%{{.*}}, %{{.*}}) {slice_dim = 1 : si32, cluster_axis = 1 : ui32, kind = "all_slice"}
// CHECK: ttmetal.enqueue_ccl all_slice │        0 │
// CHECK: check: result0 matches the golden run (exact)
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<16x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0 mod 8, d1 mod 8)>, meshShape = 2x2, chipIds = [0, 1, 2, 3]>} {
  func.func @main(%x: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %0 = "ttir.mesh_shard"(%x) {shard_type = #ttir.shard_type<replicate>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 1>, shard_dims = array<i64: -1, -1>} : (tensor<64x128xf32>) -> tensor<64x128xf32>
    %1 = "ttir.reshard"(%0) {source = "[R, R]", target = "[R, S1]"} : (tensor<64x128xf32>) -> tensor<64x64xf32>
    %2 = "ttir.mesh_shard"(%1) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<shard_to_full>, shard_shape = array<i64: 1, 2>, shard_dims = array<i64: -1, 1>} : (tensor<64x64xf32>) -> tensor<64x128xf32>
    func.return %2 : tensor<64x128xf32>
  }
}
