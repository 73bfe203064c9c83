// RUN: meshc-opt %examples/reinterpret_transpose.mlir -p ttir-to-ttnn-pipeline | filecheck %s --check-prefix=TTNN
// RUN: meshc-opt %examples/reinterpret_transpose.mlir -p ttir-to-ttmetal-pipeline | filecheck %s --check-prefix=METAL

// exp's 256x512 result: 8x16 tiles on the 8x8 grid, 1x2 tiles a core, shard 32x64, row-major.
// The transpose's 512x256 result is on the grid reinterpreted as transposed: TTNN says it
// with a column-major block shard spec over the same physical cores (shard 64x32).
// TTNN-DAG: #ttnn.ttnn_layout<tile<32x32>, f32, #ttnn.memory_config<#ttnn.buffer_type<l1>, <block_sharded>, #ttnn.shard_spec<#ttnn.core_range_set<[#ttnn.core_range<(0, 0), (7, 7)>]>, <32x64>, <row_major>>>>
// TTNN-DAG: #ttnn.ttnn_layout<tile<32x32>, f32, #ttnn.memory_config<#ttnn.buffer_type<l1>, <block_sharded>, #ttnn.shard_spec<#ttnn.core_range_set<[#ttnn.core_range<(0, 0), (7, 7)>]>, <64x32>, <col_major>>>>
// TTNN: "ttnn.exp"
// TTNN: "ttnn.transpose"
// TTNN: "ttnn.relu"
// TTNN: "ttnn.from_device"
// The transpose kernel: logical core (y, x) runs on physical core (x, y) and reads operand
// block (x, y), which that core holds: a local transpose. relu runs on the same cores.
// METAL: "ttmetal.read_tiles"(%{{.*}}) {select = ["x", "y"]} : (!ttmetal.buffer<256x512xf32>) -> tensor<32x64xf32>
// METAL-NEXT: "ttmetal.tile_transpose"
// METAL: }) {grid = array<i64: 8, 8>, core_map = affine_map<(d0, d1) -> (d1, d0)>}
// METAL: "ttmetal.tile_unary"(%{{.*}}) {op = "relu"}
// METAL: }) {grid = array<i64: 8, 8>, core_map = affine_map<(d0, d1) -> (d1, d0)>}
