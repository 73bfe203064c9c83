// tt-mlir's KV-cache writes on TTMetal: one program on one core reads the whole cache buffer and
// writes the new cache back into it, so a later read of the cache value sees the write and an
// earlier one does not. The program:
// RUN: meshc-opt %s -p 'ttir-to-ttmetal-pipeline{optimize-memory=false}' | filecheck %s --check-prefix=IR
// IR: "ttmetal.enqueue_program"(%{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}})
// IR: "ttmetal.tile_where"
// IR: "ttmetal.tile_concat"
// IR: "ttmetal.write_tiles"(%{{[0-9]+}}, %{{[0-9]+}}) {select = ["all", "all"]}
// IR: }) {grid = array<i64: 1, 1>}
//
// By hand, cache c [3, 2, 40, 32] (users, heads, positions, dims):
// - %early = c + c before any write;
// - update_cache at the position the run-time index names (its first element, 7), batch_offset 1,
//   input u [1, 2, 1, 32]: c[1, h, 7, :] = u[0, h, 0, :];
// - fill_cache batch_offset 2, input f [1, 2, 36, 32]: c[2, :, :36] = f[0]; the input's last
//   32-row tile ends at 64, past the 40 positions, so rows 36 .. 39 keep the cache's values;
// - fill_cache batch_offset 0, input g [1, 2, 8, 32]: c[0, :, :8] = g[0], rows 8 .. 31 zero (the
//   tile's padding), 32 .. 39 kept;
// - %late = c + c after them, and c itself returned.
// RUN: python -c "import numpy as np; r = np.random.default_rng(4); np.savez('%t.npz', c=r.integers(-8, 8, (3, 2, 40, 32)).astype(np.float32), u=r.integers(-8, 8, (1, 2, 1, 32)).astype(np.float32), i=np.array([7, 30], np.int32), f=r.integers(-8, 8, (1, 2, 36, 32)).astype(np.float32), g=r.integers(-8, 8, (1, 2, 8, 32)).astype(np.float32))"
// RUN: meshc-opt %s -p 'ttir-to-ttmetal-pipeline' -o %t.metal.mlir
// RUN: meshc-run %t.metal.mlir --input %t.npz --check --save-outputs %t.metal | filecheck %s
// RUN: meshc-opt %s -p 'ttir-to-ttnn-pipeline' -o %t.ttnn.mlir
// RUN: meshc-run %t.ttnn.mlir --input %t.npz --check --save-outputs %t.ttnn | filecheck %s
// CHECK-COUNT-3: matches the golden run
// RUN: python -c "import numpy as np; z = np.load('%t.npz'); c = z['c'].copy(); early = 2 * c; c[1, :, 7, :] = z['u'][0, :, 0, :]; c[2, :, :36] = z['f'][0]; c[0, :, :8] = z['g'][0]; c[0, :, 8:32] = 0; [(np.testing.assert_array_equal(np.load(d + '/result0.npy'), early), np.testing.assert_array_equal(np.load(d + '/result1.npy'), 2 * c), np.testing.assert_array_equal(np.load(d + '/result2.npy'), c)) for d in ('%t.metal', '%t.ttnn')]; print('numpy agrees')" | filecheck %s --check-prefix=NUMPY
// NUMPY: numpy agrees
func.func @main(%c: tensor<3x2x40x32xf32>, %u: tensor<1x2x1x32xf32>, %i: tensor<2xi32>, %f: tensor<1x2x36x32xf32>,
                %g: tensor<1x2x8x32xf32>) -> (tensor<3x2x40x32xf32>, tensor<3x2x40x32xf32>, tensor<3x2x40x32xf32>) {
  %early = "ttir.add"(%c, %c) : (tensor<3x2x40x32xf32>, tensor<3x2x40x32xf32>) -> tensor<3x2x40x32xf32>
  "ttir.update_cache"(%c, %u, %i) <{batch_offset = 1 : i32}> : (tensor<3x2x40x32xf32>, tensor<1x2x1x32xf32>, tensor<2xi32>) -> ()
  "ttir.fill_cache"(%c, %f) <{batch_offset = 2 : i32}> : (tensor<3x2x40x32xf32>, tensor<1x2x36x32xf32>) -> ()
  "ttir.fill_cache"(%c, %g) <{batch_offset = 0 : i32}> : (tensor<3x2x40x32xf32>, tensor<1x2x8x32xf32>) -> ()
  %late = "ttir.add"(%c, %c) : (tensor<3x2x40x32xf32>, tensor<3x2x40x32xf32>) -> tensor<3x2x40x32xf32>
  return %early, %late, %c : tensor<3x2x40x32xf32>, tensor<3x2x40x32xf32>, tensor<3x2x40x32xf32>
}
