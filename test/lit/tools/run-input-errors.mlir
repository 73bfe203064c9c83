// RUN: python -c "import sys; open(sys.argv[1], 'wb').close()" %t.empty.npy
// RUN: not meshc-run %s --input x=%t.empty.npy 2>&1 | filecheck %s --check-prefix=EMPTY
// RUN: python -c "import sys; open(sys.argv[1], 'wb').write(bytes(range(200)))" %t.garbage.npy
// RUN: not meshc-run %s --input x=%t.garbage.npy 2>&1 | filecheck %s --check-prefix=GARBAGE
// RUN: not meshc-run %s --save-outputs %s 2>&1 | filecheck %s --check-prefix=EXISTS
// RUN: not meshc-run %s --system dgx 2>&1 | filecheck %s --check-prefix=SYSTEM
// RUN: python -c "import numpy as np, sys; x = np.ones((4, 8), np.float32); x[0, 0] = np.inf; x[1, 1] = -np.inf; np.save(sys.argv[1], x)" %t.inf.npy
// RUN: meshc-run %s --input x=%t.inf.npy 2>&1 | filecheck %s --check-prefix=INF
// RUN: not meshc-run %S/Inputs/run-no-function.mlir 2>&1 | filecheck %s --check-prefix=NOFUNC
// RUN: not meshc-run %S/Inputs/run-huge-tensors.mlir --split-input-file 2>&1 | filecheck %s --check-prefix=HUGE
// RUN: meshc-run %S/Inputs/run-no-from-device.mlir --check 2>&1 | filecheck %s --check-prefix=NOFROM

// Bad input to meshc-run is an error naming the argument or located in the file, exit 1.
// EMPTY: meshc-run: error: cannot load input 'x' from '{{.*}}empty.npy': the file is empty
// EMPTY-NOT: internal error
// GARBAGE: meshc-run: error: cannot load input 'x' from '{{.*}}garbage.npy'
// GARBAGE-NOT: internal error
// EXISTS: meshc-run: error: --save-outputs: cannot write to '{{.*}}run-input-errors.mlir': File exists
// SYSTEM: meshc-run: error: --system: unknown system 'dgx'
// inf and -inf inputs run as on the device, without a numpy warning on the terminal.
// INF: result0: 4x8 float32  min -inf max inf
// INF-NOT: Warning
// NOFUNC: run-no-function.mlir:1:1: error: the module has no function to run
// A tensor the host cannot hold, or a dynamic one, is refused at the argument or op, before allocation.
// HUGE: run-huge-tensors.mlir:2:3: error: 'func.func' op input 'x' of type tensor<65536x65536xf32> holds 17179869184 bytes, more than the simulator materialises on this host ({{[0-9]+}} bytes: meshc.layout.limits.host_tensor_limit, the larger of MAX_TENSOR_BYTES and the memory available over RUN_COPIES; run with --abstract for shapes, traffic and time without data)
// HUGE: run-huge-tensors.mlir:8:3: error: 'func.func' op input 'x' of type tensor<?x4xf32> has a dynamic or negative dimension; the simulator runs static shapes only
// (the lowering's compile-time check, ttnn-check-l1, finds the op's 16 GiB result too large for L1
// and then for the 12 GiB of DRAM of a chip: it fits nowhere)
// HUGE: run-huge-tensors.mlir:15:5: error: 'ttnn.repeat' op ttnn-check-l1: {{.*}}(65536x65536xf32) does not fit in DRAM
// HUGE-NOT: internal error
// A one-device program returning its result still on the device checks as equal to the golden run
// (of its reference: the same ttnn program, read by the numpy interpreter).
// NOFROM: check: result0 matches the golden run (exact)
module {
  func.func @main(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %d = "ttnn.get_device"() {mesh_shape = array<i64: 1, 1>} : () -> !ttnn.device
    %a = "ttnn.to_device"(%x, %d) : (tensor<4x8xf32>, !ttnn.device) -> tensor<4x8xf32>
    %b = "ttnn.from_device"(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    func.return %b : tensor<4x8xf32>
  }
}
