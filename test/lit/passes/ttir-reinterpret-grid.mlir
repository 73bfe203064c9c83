// RUN: meshc-opt %s --split-input-file -p 'ttir-layout,ttir-reinterpret-grid' | filecheck %s

// tt-mlir's Device spec's exp -> transpose -> relu on one chip. exp's 256x512 result is 8x16 tiles on an
// 8x8 grid (1x2 tiles a core); the transpose's 512x256 result takes the grid reinterpreted as
// transposed: logical core (i, j) is physical core (j, i), which already holds block (j, i) of
// the operand, 2x1 tiles. relu reads only the reinterpreted tensor, so it runs there too.
// CHECK-DAG: #[[T:layout[0-9]*]] = #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <8x8>, memref<2x1x!tt.tile<32x32, f32>, #tt.memory_space<l1>>>
// CHECK-DAG: #[[E:layout[0-9]*]] = #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <8x8>, memref<1x2x!tt.tile<32x32, f32>, #tt.memory_space<l1>>>
// CHECK: "ttir.exp"(%{{.*}}) : (tensor<256x512xf32>) -> tensor<256x512xf32, #[[E]]>
// CHECK-NEXT: "ttir.transpose"(%{{.*}}) {dim0 = 0 : si32, dim1 = 1 : si32, core_map = affine_map<(d0, d1) -> (d1, d0)>} : (tensor<256x512xf32, #[[E]]>) -> tensor<512x256xf32, #[[T]]>
// CHECK-NEXT: "ttir.relu"(%{{.*}}) {core_map = affine_map<(d0, d1) -> (d1, d0)>} : (tensor<512x256xf32, #[[T]]>) -> tensor<512x256xf32, #[[T]]>
// CHECK-NEXT: "ttir.add"(%{{.*}}, %{{.*}}) : (tensor<512x256xf32, #[[T]]>, tensor<512x256xf32>)
func.func @transpose(%a: tensor<256x512xf32>, %b: tensor<512x256xf32>) -> tensor<512x256xf32> {
  %0 = "ttir.exp"(%a) : (tensor<256x512xf32>) -> tensor<256x512xf32>
  %1 = "ttir.transpose"(%0) {dim0 = 0 : si32, dim1 = 1 : si32} : (tensor<256x512xf32>) -> tensor<512x256xf32>
  %2 = "ttir.relu"(%1) : (tensor<512x256xf32>) -> tensor<512x256xf32>
  %3 = "ttir.add"(%2, %b) : (tensor<512x256xf32>, tensor<512x256xf32>) -> tensor<512x256xf32>
  func.return %3 : tensor<512x256xf32>
}

// -----
// Not reinterpreted: a 3-d transpose, a transpose of a function argument (no layout), and
// a 48-row tensor whose 2 tile rows do not split evenly (48 = 32 + 16).
// CHECK-LABEL: func.func @kept
// CHECK-NOT: core_map
func.func @kept(%a: tensor<2x64x64xf32>, %b: tensor<64x128xf32>, %c: tensor<48x64xf32>) {
  %0 = "ttir.exp"(%a) : (tensor<2x64x64xf32>) -> tensor<2x64x64xf32>
  %1 = "ttir.transpose"(%0) {dim0 = 1 : si32, dim1 = 2 : si32} : (tensor<2x64x64xf32>) -> tensor<2x64x64xf32>
  %2 = "ttir.transpose"(%b) {dim0 = 0 : si32, dim1 = 1 : si32} : (tensor<64x128xf32>) -> tensor<128x64xf32>
  %3 = "ttir.exp"(%c) : (tensor<48x64xf32>) -> tensor<48x64xf32>
  %4 = "ttir.transpose"(%3) {dim0 = 0 : si32, dim1 = 1 : si32} : (tensor<48x64xf32>) -> tensor<64x48xf32>
  func.return
}
