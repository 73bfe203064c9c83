// tt-mlir's Dialect/TTNN/trace/scenarios/multichip_kv_cache.mlir as written
// (Inputs/multichip_kv_cache.mlir, mesh 1x2): %arg0 and the cache presharded (one piece a device,
// stacked in the input), %update_input unsharded (every device gets it whole). update_cache at
// position 0 (the constant index), batch_offset 0, one user: device d's cache keeps
// cache[d] but cache[d][0, h, 0, :] = update[0, h, 0, :]; the presharded results are device d's
// arg0[d] + arg0[d] and its cache, each checked against numpy.
// RUN: python -c "import numpy as np; r = np.random.default_rng(2); np.savez('%t.npz', arg0=r.integers(-8, 8, (2, 5, 128, 512)).astype(np.float32), cache=r.integers(-8, 8, (2, 1, 32, 64, 512)).astype(np.float32), update_input=r.integers(-8, 8, (1, 32, 1, 512)).astype(np.float32))"
// RUN: meshc-opt %S/Inputs/multichip_kv_cache.mlir -p 'ttir-to-ttnn-pipeline{mesh-shape=1,2}' -o %t.mlir
// RUN: filecheck %s --check-prefix=TTNN < %t.mlir
// TTNN: "ttnn.update_cache"
// RUN: meshc-run %t.mlir --input %t.npz --check --save-outputs %t.out | filecheck %s
// CHECK-COUNT-2: matches the golden run
// RUN: python -c "import numpy as np; z = np.load('%t.npz'); c = z['cache'].copy(); c[:, 0, :, 0, :] = z['update_input'][0, :, 0, :]; np.testing.assert_array_equal(np.load('%t.out/result0.npy'), 2 * z['arg0']); np.testing.assert_array_equal(np.load('%t.out/result1.npy'), c); print('numpy agrees')" | filecheck %s --check-prefix=NUMPY
// NUMPY: numpy agrees
// TTMetal: %arg0 and the cache go to their devices by enqueue_write_shards (device d's piece to
// device d), %update_input by a replicating enqueue_write_buffer; the one-core update_cache program
// writes each device's own cache buffer, both results come back one tensor a device
// (enqueue_read_shards); byte exact against the golden run and the same numpy check.
// RUN: meshc-opt %S/Inputs/multichip_kv_cache.mlir -p 'ttir-to-ttmetal-pipeline{mesh-shape=1,2}' -o %t.metal.mlir
// RUN: filecheck %s --check-prefix=METAL < %t.metal.mlir
// METAL: "ttmetal.enqueue_write_shards"(%arg0
// METAL: "ttmetal.enqueue_write_buffer"(%update_input, %{{.*}}) {shard_dims = array<i64: -1, -1>
// METAL: "ttmetal.enqueue_write_shards"(%cache
// METAL-COUNT-2: "ttmetal.enqueue_read_shards"
// RUN: meshc-run %t.metal.mlir --input %t.npz --check --save-outputs %t.metal.out | filecheck %s --check-prefix=METALOUT
// METALOUT: check: result0: 0 of 655360 elements differ (0 outside the rule), max abs error 0
// METALOUT: check: result1: 0 of 2097152 elements differ (0 outside the rule), max abs error 0
// RUN: python -c "import numpy as np; z = np.load('%t.npz'); c = z['cache'].copy(); c[:, 0, :, 0, :] = z['update_input'][0, :, 0, :]; np.testing.assert_array_equal(np.load('%t.metal.out/result0.npy'), 2 * z['arg0']); np.testing.assert_array_equal(np.load('%t.metal.out/result1.npy'), c); print('numpy agrees')" | filecheck %s --check-prefix=NUMPY
