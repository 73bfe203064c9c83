// tt-mlir's presharded arguments and results (#ttcore.shard_status<presharded>: one piece a device,
// placed before the program runs), run as tt-mlir's Dialect/TTNN/trace/scenarios/multichip.mlir
// writes them (Inputs/multichip.mlir, mesh 1x2). The program is per device (no partitioning); the
// ttnn lowering moves each argument's pieces to their devices (ttnn.to_device, no replication) and
// returns the presharded result one tensor a device (ttnn.from_device). meshc-run takes a
// presharded input as its pieces stacked, [devices, *type shape]; device d's result is
// arg1[d] + arg0[d], checked against numpy.
// RUN: python -c "import numpy as np; r = np.random.default_rng(4); np.savez('%t.npz', arg0=r.integers(-8, 8, (2, 5, 128, 512)).astype(np.float32), arg1=r.integers(-8, 8, (2, 5, 128, 512)).astype(np.float32))"
// RUN: meshc-opt %S/Inputs/multichip.mlir -p 'ttir-to-ttnn-pipeline{mesh-shape=1,2}' -o %t.mlir
// RUN: filecheck %s --check-prefix=TTNN < %t.mlir
// TTNN-NOT: ttnn.distribute_tensor
// TTNN-COUNT-2: "ttnn.to_device"
// TTNN: "ttnn.add"
// TTNN: "ttnn.from_device"
// RUN: meshc-run %t.mlir --input %t.npz --check --save-outputs %t.out | filecheck %s
// CHECK: check: result0 matches the golden run
// RUN: python -c "import numpy as np; z = np.load('%t.npz'); o = np.load('%t.out/result0.npy'); np.testing.assert_array_equal(o, (z['arg1'].astype(np.float32) + z['arg0'].astype(np.float32))); print('numpy agrees')" | filecheck %s --check-prefix=NUMPY
// NUMPY: numpy agrees
// An input given whole (not one piece a device) is refused at the function, saying the shape it takes.
// RUN: python -c "import numpy as np; np.savez('%t.bad.npz', arg0=np.zeros((5, 128, 512), np.float32))"
// RUN: not meshc-run %t.mlir --input %t.bad.npz --seed 0 2>&1 | filecheck %s --check-prefix=SHAPE
// SHAPE: error: 'func.func' op input 'arg0' has shape 5x128x512, but @main takes tensor<5x128x512xbf16>, one piece for each of the 2 devices (2x5x128x512: it is presharded)
// TTMetal: each argument's pieces go to their devices by enqueue_write_shards (device d's piece to
// device d, no replicating write), the add runs on every device, the result comes back one tensor a
// device (enqueue_read_shards); the same numpy check.
// RUN: meshc-opt %S/Inputs/multichip.mlir -p 'ttir-to-ttmetal-pipeline{mesh-shape=1,2}' -o %t.metal.mlir
// RUN: filecheck %s --check-prefix=METAL < %t.metal.mlir
// METAL-NOT: "ttmetal.enqueue_write_buffer"
// METAL-COUNT-2: "ttmetal.enqueue_write_shards"
// METAL: "ttmetal.enqueue_program"
// METAL: "ttmetal.enqueue_read_shards"
// RUN: meshc-run %t.metal.mlir --input %t.npz --check --save-outputs %t.metal.out | filecheck %s --check-prefix=METALOUT
// METALOUT: check: result0: 0 of 655360 elements differ (0 outside the rule), max abs error 0
// RUN: python -c "import numpy as np; z = np.load('%t.npz'); o = np.load('%t.metal.out/result0.npy'); np.testing.assert_array_equal(o, (z['arg1'].astype(np.float32) + z['arg0'].astype(np.float32))); print('numpy agrees')" | filecheck %s --check-prefix=NUMPY
