// RUN: not meshc-run %s --split-input-file 2>&1 | filecheck %s
// RUN: not meshc-opt %s --split-input-file 2>&1 | filecheck %s --check-prefix=OPT

// Inputs meshc-run used to stop on with an internal error (exit 2) or run while ignoring part of
// them. Each is now a located error (exit 1) or runs as written.

// A ttnn relu whose result layout is host memory (system_memory): the simulator reads only the
// data type from it (reading the memory config raised "VerifyException: system_memory is host
// memory"); the tensor stays where the device op put it.
// CHECK-LABEL: // ----- module 0
// CHECK: result0: 32x32 float32
#host = #ttnn.ttnn_layout<tile<32x32>, f32, #ttnn.memory_config<#ttnn.buffer_type<system_memory>, <interleaved>>>
func.func @host_layout(%x: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %0 = "ttnn.get_device"() {mesh_shape = array<i64: 1, 1>} : () -> !ttnn.device
  %1 = "ttnn.to_device"(%x, %0) : (tensor<32x32xf32>, !ttnn.device) -> tensor<32x32xf32>
  %2 = "ttnn.relu"(%1) : (tensor<32x32xf32>) -> tensor<32x32xf32, #host>
  %3 = "ttnn.from_device"(%2) : (tensor<32x32xf32, #host>) -> tensor<32x32xf32>
  func.return %3 : tensor<32x32xf32>
}

// -----

// A mesh buffer in host memory: refused where it is created (the simulator raised the
// VerifyException when it allocated it).
// CHECK-LABEL: // ----- module 1
// CHECK: run-attribute-errors.mlir:[[# @LINE + 3]]:3: error: 'ttmetal.create_buffer' op a mesh buffer lives in device memory: its memory_config cannot be system_memory (host memory); use l1 or dram
// OPT: run-attribute-errors.mlir:[[# @LINE + 2]]:3: error: 'ttmetal.create_buffer' op a mesh buffer lives in device memory
func.func @host_buffer(%x: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %0 = "ttmetal.create_buffer"() {memory_config = #ttnn.memory_config<#ttnn.buffer_type<system_memory>, <interleaved>>, tile = array<i64: 32, 32>} : () -> !ttmetal.buffer<32x32xf32>
  "ttmetal.enqueue_write_buffer"(%x, %0) {shard_dims = array<i64: -1, -1>} : (tensor<32x32xf32>, !ttmetal.buffer<32x32xf32>) -> ()
  %1 = "ttmetal.enqueue_read_buffer"(%0) {shard_dims = array<i64: -1, -1>} : (!ttmetal.buffer<32x32xf32>) -> tensor<32x32xf32>
  "ttmetal.deallocate_buffer"(%0) : (!ttmetal.buffer<32x32xf32>) -> ()
  "ttmetal.finish"() : () -> ()
  func.return %1 : tensor<32x32xf32>
}

// -----

// A tt.system_desc holding a #tt.device, in a ttnn module (the LocatedError escaped as internal)
// and in a ttir one without a tt.device (it ran, ignoring the attribute): refused at the module.
// CHECK-LABEL: // ----- module 2
// CHECK: run-attribute-errors.mlir:[[# @LINE + 2]]:1: error: 'builtin.module' op module attribute 'tt.system_desc' must be a #tt.system_desc<...>, got #tt.device<
// OPT: run-attribute-errors.mlir:[[# @LINE + 1]]:1: error: 'builtin.module' op module attribute 'tt.system_desc' must be a #tt.system_desc<...>
module attributes {tt.system_desc = #tt.device<workerGrid = #tt.grid<8x8, (d0, d1) -> (0, d0, d1)>, meshShape = 1x1, chipIds = [0]>} {
  func.func @main(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %d = "ttnn.get_device"() {mesh_shape = array<i64: 1, 1>} : () -> !ttnn.device
    %a = "ttnn.to_device"(%x, %d) : (tensor<4x8xf32>, !ttnn.device) -> tensor<4x8xf32>
    %r = "ttnn.relu"(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %b = "ttnn.from_device"(%r) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    func.return %b : tensor<4x8xf32>
  }
}

// -----

// CHECK-LABEL: // ----- module 3
// CHECK: run-attribute-errors.mlir:[[# @LINE + 2]]:1: error: 'builtin.module' op module attribute 'tt.system_desc' must be a #tt.system_desc<...>, got #tt.device<
// OPT: run-attribute-errors.mlir:[[# @LINE + 1]]:1: error: 'builtin.module' op module attribute 'tt.system_desc' must be a #tt.system_desc<...>
module attributes {tt.system_desc = #tt.device<workerGrid = #tt.grid<8x8, (d0, d1) -> (0, d0, d1)>, meshShape = 1x1, chipIds = [0]>} {
  func.func @main(%x: tensor<32x32xf32>) -> tensor<32x32xf32> {
    %0 = "ttir.relu"(%x) : (tensor<32x32xf32>) -> tensor<32x32xf32>
    func.return %0 : tensor<32x32xf32>
  }
}

// -----

// A ttir.reshape carrying an attribute it does not declare (`dimension`, an array): the kernels
// read only the attributes an op declares (reading this one raised AttributeError 'ArrayAttr'
// object has no attribute 'value'). The reshape runs.
// CHECK-LABEL: // ----- module 4
// CHECK: result0: 8x4 float32
func.func @reshape(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %0 = "ttir.reshape"(%x) {shape = [8 : i32, 4 : i32], dimension = [8 : i32, 4 : i32]} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  func.return %0 : tensor<8x4xf32>
}
