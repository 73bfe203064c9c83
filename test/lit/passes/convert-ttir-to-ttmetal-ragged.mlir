// A dim whose last tile is partial: 784 columns are 25 tiles, which ttir-layout spreads over 5
// cores (blocks of 160 columns, the last 144). A block selector splits a dim into equal blocks
// only (784 / 5 is not whole), so the program runs that dim on the most cores, at most 5, that
// split its 784 elements: 784 = 2^4 x 7^2, divisors up to 5 are 1, 2, 4, so 4 cores of 196
// columns: a 2x4 grid for the 64x784 exp (64 rows split into 2 blocks of 32 as the layout's 2
// rows of cores do), while the result buffer keeps its 2x5-core layout (each program core reads
// and writes the pages, or parts of pages, it does not hold over the NOC, counted). Before, this
// was a located error, then a 2x1 grid. Checked against numpy.
// RUN: meshc-opt %s -p 'ttir-to-ttmetal-pipeline{optimize-memory=false}' -o %t.mlir
// RUN: filecheck %s < %t.mlir
// CHECK: "ttmetal.create_buffer"() {memory_config = #ttnn.memory_config<#ttnn.buffer_type<l1>, <block_sharded>, #ttnn.shard_spec<#ttnn.core_range_set<[#ttnn.core_range<(0, 0), (1, 4)>]>, <32x160>, <row_major>>>, tile = array<i64: 32, 32>} : () -> !ttmetal.buffer<64x784xf32>
// CHECK: "ttmetal.read_tiles"(%{{.*}}) {select = ["y", "x"]} : (!ttmetal.buffer<64x784xf32>) -> tensor<32x196xf32>
// CHECK: "ttmetal.tile_unary"(%{{.*}}) {op = "exp"}
// CHECK: "ttmetal.write_tiles"(%{{.*}}, %{{.*}}) {select = ["y", "x"]} : (tensor<32x196xf32>, !ttmetal.buffer<64x784xf32>) -> ()
// CHECK: grid = array<i64: 2, 4>
// RUN: python -c "import numpy as np; np.save('%t.x.npy', np.random.default_rng(5).uniform(-4, 4, (64, 784)).astype(np.float32))"
// RUN: meshc-run %t.mlir --input x=%t.x.npy --check --save-outputs %t.out | filecheck %s --check-prefix=RUN1
// RUN1: check: result0: 0 of 50176 elements differ (0 outside the rule), max abs error 0
// RUN: python -c "import numpy as np; np.testing.assert_allclose(np.load('%t.out/result0.npy'), np.exp(np.load('%t.x.npy').astype(np.float64)), rtol=1e-6); print('numpy agrees')" | filecheck %s --check-prefix=NUMPY
// NUMPY: numpy agrees

func.func @main(%x: tensor<64x784xf32>) -> tensor<64x784xf32> {
  %0 = "ttir.exp"(%x) : (tensor<64x784xf32>) -> tensor<64x784xf32>
  return %0 : tensor<64x784xf32>
}
