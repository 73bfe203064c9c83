// RUN: meshc-viz %s --text | filecheck %s
// RUN: meshc-viz %s --text --value %%arg1 | filecheck %s --check-prefix=ARG1
// RUN: meshc-viz %s -o %t.png && od -An -c -N4 %t.png | filecheck %s --check-prefix=PNG
// RUN: meshc-viz --shape 64x64 --tile 32x32 --buffer dram --banks 3 --text | filecheck %s --check-prefix=FIG3
// RUN: meshc-viz --shape 64x64 --tile row_major --text --tensor-only | filecheck %s --check-prefix=FIG1
// RUN: meshc-viz --shape 256x64 --layout height_sharded --grid "0,0-0,1;3,4-3,5" --shard 64x64 --orientation col_major --text | filecheck %s --check-prefix=CRS

// meshc-viz draws the first tensor with a #ttnn.ttnn_layout, or the one --value names.
// TT-Metal's Tensor and Memory Layouts report, Figure 4: 16 pages block-sharded as 2x2-page shards over a 2x2 core grid.

// CHECK: %arg0: tensor<128x128xbf16>: l1 block_sharded, tile 32x32, bf16, row_major
// CHECK: 16 pages of 32x32 elements, 2048 B each (2048 B aligned); page grid 4x4
// CHECK: │ 0 {{.*}}│ (0,0) │ (0,0) │ (0,1) │ (0,1) │
// CHECK: │ 3 {{.*}}│ (1,0) │ (1,0) │ (1,1) │ (1,1) │
// CHECK: │ core (0, 0) │ 0, 1, 4, 5     │ 8192  │
// CHECK: │ core (0, 1) │ 2, 3, 6, 7     │ 8192  │
// CHECK: │ core (1, 0) │ 8, 9, 12, 13   │ 8192  │
// CHECK: │ core (1, 1) │ 10, 11, 14, 15 │ 8192  │

// ARG1: %arg1: tensor<96x64xf32>: l1 nd_sharded, tile 32x32, f32, row_major
// ARG1: │ core (0, 0) │ 0, 2, 4, - │ 16384 │
// ARG1: │ core (0, 1) │ 1, 3, 5, - │ 16384 │

// PNG: 211 P N G

// TT-Metal's Tensor and Memory Layouts report, Figure 3: four pages interleaved over three banks.
// FIG3: 4 pages of 32x32 elements
// FIG3: │ bank 0 │ 0, 3  │ 4096  │
// FIG3: │ bank 1 │ 1     │ 2048  │
// FIG3: │ bank 2 │ 2     │ 2048  │

// TT-Metal's Tensor and Memory Layouts report, Figure 1: a row-major 64x64 tensor is 64 pages, a row each.
// FIG1: 64 pages of 1x64 elements, 128 B each

// A core range set of two rectangles, col-major: cores (0,0), (0,1), then (3,4), (3,5).
// CRS: │ core (0, 0) │ 0, 1, 2, 3 │
// CRS: │ core (0, 1) │ 4, 5, 6, 7 │
// CRS: │ core (3, 4) │ 8, 9, 10, 11 │
// CRS: │ core (3, 5) │ 12, 13, 14, 15 │

// ND: 96x64 in 32x32 tiles (a 3x2 page grid) cut into 64x32 shards: a 2x2 shard grid,
// shard 0 = pages 0, 2; 1 = pages 1, 3; 2 = page 4 + padding; 3 = page 5 + padding.
// Shard i -> core i % 2 at slot block i // 2, so core (0, 0) holds 0, 2 | 4, - (4 slots).
func.func @f(%arg0: tensor<128x128xbf16, #ttnn.ttnn_layout<tile<32x32>, bf16, #ttnn.memory_config<#ttnn.buffer_type<l1>, <block_sharded>, #ttnn.shard_spec<#ttnn.core_range_set<[#ttnn.core_range<(0, 0), (1, 1)>]>, <64x64>, <row_major>>>>>, %arg1: tensor<96x64xf32, #ttnn.ttnn_layout<tile<32x32>, f32, #ttnn.memory_config<#ttnn.buffer_type<l1>, <nd_sharded>, #ttnn.shard_spec<#ttnn.core_range_set<[#ttnn.core_range<(0, 0), (0, 1)>]>, <64x32>, <row_major>>>>>) {
  func.return
}
