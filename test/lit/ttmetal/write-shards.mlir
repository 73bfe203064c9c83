// ttmetal.enqueue_write_shards on the simulator: one host tensor a device (a presharded argument,
// given to meshc-run as its pieces stacked [devices, *shape]) written into device i's part of the
// mesh buffer as it is. Read back one tensor a device (enqueue_read_shards), device d's tensor is
// exactly piece d of the input (values 1000 d + 32 i + j name the device, row and column).
// Host bytes, by hand: each of the 2 devices receives its own 32x32 f32 piece once, 4,096 B, so
// 8,192 B host->device (a replicating write of the stacked array would send 2 x 8,192 B) and the
// same back.
// RUN: python -c "import numpy as np; d, i, j = np.meshgrid(np.arange(2), np.arange(32), np.arange(32), indexing='ij'); np.savez('%t.npz', x=(1000 * d + 32 * i + j).astype(np.float32))"
// RUN: meshc-run %s --input %t.npz --report --save-outputs %t.out | filecheck %s
// CHECK: moved: ethernet 0 B, {{.*}}host->device 8,192 B, device->host 8,192 B
// RUN: python -c "import numpy as np; np.testing.assert_array_equal(np.load('%t.out/result0.npy'), np.load('%t.npz')['x']); print('numpy agrees')" | filecheck %s --check-prefix=NUMPY
// NUMPY: numpy agrees
// One tensor where a tensor a device is written (an argument that is not presharded, on two
// devices) is a located error of the run.
// RUN: not meshc-run %S/Inputs/write-shards-whole.mlir --seed 0 2>&1 | filecheck %s --check-prefix=WHOLE
// WHOLE: write-shards-whole.mlir:5:5: error: 'ttmetal.enqueue_write_shards' op enqueue_write_shards writes one host tensor a device; on this mesh of 2 devices it got one tensor

module attributes {tt.device = #tt.device<workerGrid = #tt.grid<8x8, (d0, d1) -> (0, d0, d1)>, meshShape = 1x2, chipIds = [0, 1]>} {
  func.func @main(%x: tensor<32x32xf32> {ttcore.shard_status = #ttcore.shard_status<presharded>}) -> (tensor<32x32xf32> {ttcore.shard_status = #ttcore.shard_status<presharded>}) {
    %b = "ttmetal.create_buffer"() {memory_config = #ttnn.memory_config<#ttnn.buffer_type<dram>, <interleaved>>, tile = array<i64: 32, 32>} : () -> !ttmetal.buffer<32x32xf32>
    "ttmetal.enqueue_write_shards"(%x, %b) : (tensor<32x32xf32>, !ttmetal.buffer<32x32xf32>) -> ()
    %r = "ttmetal.enqueue_read_shards"(%b) : (!ttmetal.buffer<32x32xf32>) -> tensor<32x32xf32>
    "ttmetal.deallocate_buffer"(%b) : (!ttmetal.buffer<32x32xf32>) -> ()
    "ttmetal.finish"() : () -> ()
    func.return %r : tensor<32x32xf32>
  }
}
