// Comparisons and where lower to ttmetal (tile_binary eq/ne/gt/ge/lt/le: 1 / 0 in the block's
// type; tile_where) as they do to ttnn, with a row broadcast; both runs match the golden run.
// The values are checked against numpy too: result0 = where(x > y, x, 0) + (x == y) - (x <= 0).
// RUN: meshc-opt %s -p ttir-to-ttmetal-pipeline | filecheck %s --check-prefix=METAL
// RUN: python -c "import numpy as np; x = (np.arange(64 * 64) % 7 - 3).astype(np.float32).reshape(64, 64); y = (np.arange(64) % 5 - 2).astype(np.float32).reshape(1, 64); np.savez('%t.in.npz', arg0=x, arg1=y)"
// RUN: meshc-run %s --input %t.in.npz --check --save-outputs %t.ttnn | filecheck %s
// RUN: meshc-run %s --input %t.in.npz --target ttmetal --check --save-outputs %t.metal | filecheck %s
// RUN: python -c "import numpy as np; z = np.load('%t.in.npz'); x, y = z['arg0'], z['arg1']; want = np.where(x > y, x, 0) + (x == y) - (x <= 0); [np.testing.assert_array_equal(np.load(d + '/result0.npy'), want) for d in ('%t.ttnn', '%t.metal')]; print('numpy agrees')" | filecheck %s --check-prefix=NUMPY
// METAL-DAG: "ttmetal.tile_binary"(%{{.*}}, %{{.*}}) {op = "gt"}
// METAL-DAG: "ttmetal.tile_binary"(%{{.*}}, %{{.*}}) {op = "eq"}
// METAL-DAG: "ttmetal.tile_binary"(%{{.*}}, %{{.*}}) {op = "le"}
// METAL-DAG: "ttmetal.tile_where"(%{{.*}}, %{{.*}}, %{{.*}})
// CHECK: check: result0 matches the golden run
// NUMPY: numpy agrees
module {
  func.func @main(%x: tensor<64x64xf32>, %y: tensor<1x64xf32>) -> tensor<64x64xf32> {
    %gt = "ttir.gt"(%x, %y) : (tensor<64x64xf32>, tensor<1x64xf32>) -> tensor<64x64xf32>
    %zero = "ttir.constant"() {value = dense<0.0> : tensor<64x64xf32>} : () -> tensor<64x64xf32>
    %sel = "ttir.where"(%gt, %x, %zero) : (tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %eq = "ttir.eq"(%x, %y) : (tensor<64x64xf32>, tensor<1x64xf32>) -> tensor<64x64xf32>
    %le = "ttir.le"(%x, %zero) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %a = "ttir.add"(%sel, %eq) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %r = "ttir.subtract"(%a, %le) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    return %r : tensor<64x64xf32>
  }
}
