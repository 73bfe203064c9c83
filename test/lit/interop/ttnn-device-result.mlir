// A ttnn program on a 1x2 mesh returning a device tensor with no ttnn.from_device: the result is
// read back one tensor a device and --check compares each device's with the golden ttir run
// (it once reported "simulator nan, golden nan"). A wrong golden program is caught.
// RUN: meshc-run %s --golden %S/Inputs/spmd_exp.mlir --check | filecheck %s
// RUN: sed 's/ttir.exp/ttir.neg/' %S/Inputs/spmd_exp.mlir > %t.wrong.mlir
// RUN: not meshc-run %s --golden %t.wrong.mlir --check 2>&1 | filecheck %s --check-prefix=WRONG
// CHECK: result0@device0: 64x64 float32
// CHECK: result0@device1: 64x64 float32
// CHECK: check: result0 matches the golden run (within the f32 tolerance)
// CHECK: check: result0: 0 of 8192 elements differ (0 outside the rule), max abs error 0, max rel error 0, PCC 1
// WRONG: check: MISMATCH at result0@device0[0, 0]: simulator
// WRONG-NOT: nan
#system_desc = #tt.system_desc<meshShape = 1x2, chipDescs = [#tt.chip_desc<arch = wormhole_b0, grid = 8x8, l1Size = 1499136, dramBanks = 12, dramBankSize = 1073741824>], chipDescIndices = [0, 0], chipCoords = [[0, 0], [0, 1]], links = [[0, 1]]>
#device = #tt.device<workerGrid = #tt.grid<8x16, (d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)>, meshShape = 1x2, chipIds = [0, 1]>
#sharded_buffer_config = #ttnn.sharded_buffer_config<global_buffer_size = 32768, shard_shape = [64, 64], global_buffer_shape = [128, 64], orientation = row_major>
#ttnn_layout = #ttnn.ttnn_layout<tile<32x32>, f32, #ttnn.memory_config<#ttnn.buffer_type<l1>, <block_sharded>, #ttnn.shard_spec<#ttnn.core_range_set<[#ttnn.core_range<(0, 0), (1, 1)>]>, <32x32>, <row_major>>>>
builtin.module attributes {tt.meshes = #tt.meshes<[<"mesh" = 1x2>]>, tt.system_desc = #system_desc, tt.device = #device} {
  func.func @main(%arg0: tensor<64x128xf32>) -> tensor<64x64xf32, #ttnn_layout> {
    %0 = "ttnn.get_device"() {mesh_shape = array<i64: 1, 2>, mesh_offset = array<i64: 0, 0>} : () -> !ttnn.device
    %1 = "ttnn.distribute_tensor"(%arg0, %0) {shard_dims = array<i64: -1, 1>, config = #sharded_buffer_config, memory_config = #ttnn.memory_config<#ttnn.buffer_type<l1>, <block_sharded>, #ttnn.shard_spec<#ttnn.core_range_set<[#ttnn.core_range<(0, 0), (1, 1)>]>, <32x32>, <row_major>>>} : (tensor<64x128xf32>, !ttnn.device) -> tensor<64x64xf32, #ttnn_layout>
    %2 = "ttnn.exp"(%1) : (tensor<64x64xf32, #ttnn_layout>) -> tensor<64x64xf32, #ttnn_layout>
    func.return %2 : tensor<64x64xf32, #ttnn_layout>
  }
}
