// --emit=ttmlir prints meshc's one-result sort / sort_indices and top_k / top_k_indices as tt-mlir's
// two-result ttir.sort and ttir.topk: one op for a values op and an indices op of the same operand
// and attributes, each result taking its op's uses; a lone one is the two-result op with the other
// result unused (tt-mlir has no one-result form). Read back, it is the module it was printed from,
// before and after the ttnn lowering, and the real mlir-opt parses it.
// RUN: meshc-opt %s --emit=ttmlir -o %t.mlir
// RUN: filecheck %s < %t.mlir
// CHECK: %[[V:[0-9]+]], %[[I:[0-9]+]] = "ttir.sort"(%x) <{dim = -1 : si32, descending = true, stable = true}> : (tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xi32>)
// CHECK-NEXT: %[[S:[0-9]+]], %{{[0-9]+}} = "ttir.sort"(%x) <{dim = 0 : si32}> : (tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xi32>)
// CHECK-NEXT: %{{[0-9]+}}, %[[SI:[0-9]+]] = "ttir.sort"(%y) <{dim = 0 : si32}> : (tensor<3x5xbf16>) -> (tensor<3x5xbf16>, tensor<3x5xi32>)
// CHECK-NEXT: %[[TV:[0-9]+]], %[[TI:[0-9]+]] = "ttir.topk"(%x) <{k = 2 : i32, dim = 1 : i32, largest = true, sorted = true}> : (tensor<2x4xf32>) -> (tensor<2x2xf32>, tensor<2x2xi32>)
// CHECK-NEXT: %{{[0-9]+}}, %[[LI:[0-9]+]] = "ttir.topk"(%y) <{k = 2 : i32, dim = 1 : i32, largest = true, sorted = true}> : (tensor<3x5xbf16>) -> (tensor<3x2xbf16>, tensor<3x2xi32>)
// CHECK-NEXT: "func.return"(%[[V]], %[[I]], %[[S]], %[[SI]], %[[TV]], %[[TI]], %[[LI]])
// CHECK-NOT: sort_indices
// CHECK-NOT: top_k
// RUN: meshc-opt %s > %t.direct.mlir
// RUN: meshc-opt %t.mlir > %t.back.mlir
// RUN: diff %t.direct.mlir %t.back.mlir
// RUN: %if mlir-opt %{ %mlir-opt --allow-unregistered-dialect %t.mlir -o /dev/null %}
// The ttnn lowering's ops likewise (ttnn.sort's dim si8, ttnn.topk's dim si32, as tt-mlir declares
// them; a lone op's other result in the present one's layout with its own data type).
// RUN: meshc-opt %s -p 'ttir-to-ttnn-pipeline{keep-reference=false}' --emit=ttmlir -o %t.ttnn.mlir
// RUN: filecheck %s --check-prefix=TTNN < %t.ttnn.mlir
// TTNN: = "ttnn.sort"(%{{[0-9]+}}) <{dim = -1 : si8, descending = true, stable = true}> : (tensor<2x4xf32>) -> (tensor<2x4xf32, #ttnn.ttnn_layout<tile<32x32>, f32, {{.*}}>>, tensor<2x4xi32, #ttnn.ttnn_layout<tile<32x32>, si32, {{.*}}>>)
// TTNN: = "ttnn.sort"(%{{[0-9]+}}) <{dim = 0 : si8}> : (tensor<3x5xbf16>) -> (tensor<3x5xbf16, #ttnn.ttnn_layout<tile<32x32>, bf16, {{.*}}>>, tensor<3x5xi32, #ttnn.ttnn_layout<tile<32x32>, si32, {{.*}}>>)
// TTNN: = "ttnn.topk"(%{{[0-9]+}}) <{k = 2 : i32, dim = 1 : si32, largest = true, sorted = true}>
// TTNN-NOT: sort_indices
// TTNN-NOT: topk_indices
// RUN: meshc-opt %s -p 'ttir-to-ttnn-pipeline{keep-reference=false}' > %t.ttnn.direct.mlir
// RUN: meshc-opt %t.ttnn.mlir > %t.ttnn.back.mlir
// RUN: diff %t.ttnn.direct.mlir %t.ttnn.back.mlir
// The printed file runs as the module does: the golden run of the read-back program matches the
// simulator's, and numpy's sort / top-k of the inputs (the first of equal values first).
// RUN: python -c "import numpy as np; r = np.random.default_rng(3); np.savez('%t.npz', x=r.permutation(8).reshape(2, 4).astype(np.float32), y=r.permutation(15).reshape(3, 5).astype(np.float32))"
// RUN: meshc-opt %t.mlir -p ttir-to-ttnn-pipeline -o %t.run.mlir
// RUN: meshc-run %t.run.mlir --input %t.npz --check --save-outputs %t.out | filecheck %s --check-prefix=GOLD
// GOLD-COUNT-7: matches the golden run (exact)
// RUN: python -c "import numpy as np; z = np.load('%t.npz'); x, y = z['x'], z['y']; o = [np.load('%t.out/result%%d.npy' %% i) for i in range(7)]; e = np.testing.assert_array_equal; d = np.argsort(-x, axis=1, kind='stable'); e(o[0], np.take_along_axis(x, d, 1)); e(o[1], d); e(o[2], np.sort(x, axis=0)); e(o[3], np.argsort(y, axis=0, kind='stable')); e(o[4], np.take_along_axis(x, d, 1)[:, :2]); e(o[5], d[:, :2]); e(o[6], np.argsort(-y, axis=1, kind='stable')[:, :2]); print('numpy agrees')" | filecheck %s --check-prefix=NUMPY
// NUMPY: numpy agrees
func.func @main(%x: tensor<2x4xf32>, %y: tensor<3x5xbf16>) -> (tensor<2x4xf32>, tensor<2x4xi32>, tensor<2x4xf32>, tensor<3x5xi32>, tensor<2x2xf32>, tensor<2x2xi32>, tensor<3x2xi32>) {
  %0 = "ttir.sort"(%x) {dim = -1 : si32, descending = true, stable = true} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %1 = "ttir.sort_indices"(%x) {dim = -1 : si32, descending = true, stable = true} : (tensor<2x4xf32>) -> tensor<2x4xi32>
  %2 = "ttir.sort"(%x) {dim = 0 : si32} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %3 = "ttir.sort_indices"(%y) {dim = 0 : si32} : (tensor<3x5xbf16>) -> tensor<3x5xi32>
  %4 = "ttir.top_k"(%x) {k = 2 : i64, dim = 1 : i64} : (tensor<2x4xf32>) -> tensor<2x2xf32>
  %5 = "ttir.top_k_indices"(%x) {k = 2 : i64, dim = 1 : i64} : (tensor<2x4xf32>) -> tensor<2x2xi32>
  %6 = "ttir.top_k_indices"(%y) {k = 2 : i64, dim = 1 : i64} : (tensor<3x5xbf16>) -> tensor<3x2xi32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<2x4xf32>, tensor<2x4xi32>, tensor<2x4xf32>, tensor<3x5xi32>, tensor<2x2xf32>, tensor<2x2xi32>, tensor<3x2xi32>
}
