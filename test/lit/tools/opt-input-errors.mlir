// RUN: python -c "import sys; open(sys.argv[1], 'wb').write(b'module {\n  \xff\n}\n')" %t.latin.mlir
// RUN: not meshc-opt %t.latin.mlir 2>&1 | filecheck %s --check-prefix=UTF8
// RUN: not meshc-run %t.latin.mlir 2>&1 | filecheck %s --check-prefix=UTF8
// RUN: python -c "import sys; open(sys.argv[1], 'w').write('module {\n}\n')" %t.ok.mlir
// RUN: not meshc-opt %t.ok.mlir -o %t.nodir/sub/out.mlir 2>&1 | filecheck %s --check-prefix=OUT
// RUN: not meshc-opt %s --split-input-file 2>&1 | filecheck %s

// Input meshc-opt cannot take is a located error (exit 1), never an internal error:
// bytes that are not UTF-8 are reported at their line and column.
// UTF8: latin.mlir:2:3: error: the input is not valid UTF-8: byte 0xff (invalid start byte)
// UTF8-NOT: internal error
// An output file that cannot be written names the -o argument.
// OUT: meshc-opt: error: cannot write '{{.*}}nodir/sub/out.mlir': No such file or directory
// OUT-NOT: internal error

// Swapped ops: an operand defined after its use is MLIR's dominance error, at the use.
// CHECK: opt-input-errors.mlir:19:3: error: 'ttir.relu' op operand #0 does not dominate this use: it is defined by 'ttir.relu' at line 20, after this op
func.func @swapped(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %1 = "ttir.relu"(%0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %0 = "ttir.relu"(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

// Integer attribute values out of their type's range: at the value, not at 0:0.
// CHECK: opt-input-errors.mlir:28:24: error: invalid attribute: Integer value 4294967296 is out of range for type ui32
module attributes {a = 4294967296 : ui32} {
}

// -----

// CHECK: opt-input-errors.mlir:34:24: error: invalid attribute: Integer value 2147483648 is out of range for type si32
module attributes {b = 2147483648 : si32} {
}

// -----

// Affine maps xDSL cannot hold: division by zero and semi-affine ceildiv, at the map.
// CHECK: opt-input-errors.mlir:41:24: error: invalid attribute: division by zero
module attributes {m = affine_map<(d0) -> (0 floordiv 0)>} {
}

// -----

// CHECK: opt-input-errors.mlir:47:24: error: invalid attribute: Ceil division with non-constant (semi-affine) is not supported yet
module attributes {m = affine_map<(d0, d1) -> (d0 ceildiv d1)>} {
}

// -----

// Huge sizes are refused before anything is enumerated, naming the limit.
// CHECK: opt-input-errors.mlir:54:32: error: invalid attribute '#tt.device': grid 99999999999x1 has 99999999999 cores, more than meshc handles (1048576, meshc.layout.limits.MAX_CORES)
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<99999999999x1, (d0, d1) -> (0, d0, d1)>, meshShape = 1, chipIds = [0]>} {
}

// -----

// CHECK: opt-input-errors.mlir:60:24: error: invalid attribute '#ttnn.core_range': core range (0, 0)-(0, 9223372036854775807) has 9223372036854775808 cores, more than meshc handles
module attributes {a = #ttnn.core_range<(0, 0), (0, 9223372036854775807)>} {
}

// -----

// An affine constant beyond 64 bits.
// CHECK: opt-input-errors.mlir:67:{{[0-9]+}}: error: {{.*}}constant 99999999999999999999 in affine map does not fit in 64 bits
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<8x8, (d0, d1) -> (99999999999999999999, d0, d1)>, meshShape = 1, chipIds = [0]>} {
}
// CHECK-NOT: internal error

// -----

// An op whose assembly format refuses a type while parsing: at the op, not at 0:0.
// CHECK: opt-input-errors.mlir:76:3: error: Expected attribute #builtin.signedness<signless> but got #builtin.signedness<signed>
func.func @signed_constant() {
  %0 = arith.constant 1 : si32
  func.return
}

// -----

// A dense attribute over a huge tensor type: refused at its type before the splat is expanded
// (xDSL would build one Python value per element: a MemoryError or a hang), naming the limit.
// CHECK: opt-input-errors.mlir:86:49: error: invalid attribute: dense attribute of type tensor<2147483648x3xf32> has 6442450944 elements, more than meshc handles (2097152, meshc.layout.limits.MAX_ATTRIBUTE_ELEMENTS)
func.func @huge_splat() -> tensor<2147483648x3xf32> {
  %0 = "arith.constant"() {value = dense<1.0> : tensor<2147483648x3xf32>} : () -> tensor<2147483648x3xf32>
  func.return %0 : tensor<2147483648x3xf32>
}

// -----

// A function body with no operation at all lacks its terminator: MLIR's empty-block error at
// the function (passes then never see a body without a return).
// CHECK: opt-input-errors.mlir:95:1: error: 'func.func' op empty block: expected at least a terminator (e.g. func.return) in its single-block region
func.func @no_return(%a: tensor<32x32xf32>) {
}

// -----

// A function without its type (generic form): at the function; the return in it, whose check
// reads the function's type, is not verified (so no internal error follows the located one).
// CHECK: opt-input-errors.mlir:104:3: error: 'func.func' op property 'function_type' expected in operation 'func.func'
"builtin.module"() ({
  "func.func"() <{sym_name = "main"}> ({
  ^bb0(%a: tensor<4xf64>):
    "func.return"(%a) : (tensor<4xf64>) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// A device map whose values leave 64-bit integers is refused at the attribute (numpy's int64
// would wrap silently, or warn): 9223372036854775807 * 4 overflows.
// CHECK: opt-input-errors.mlir:[[# @LINE + 1]]:32: error: invalid attribute '#tt.device': affine map {{.*}} overflows 64-bit integers: '9223372036854775807 * 4' reaches 36893488147419103228
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<8x8, (d0, d1) -> (9223372036854775807 * 4, d0, d1)>, meshShape = 1x1, chipIds = [0]>} {
}
// CHECK-NOT: internal error
// CHECK-NOT: RuntimeWarning

// -----

// A literal xDSL's parser asserts on (hex bits for a complex element type): at the value.
// CHECK: opt-input-errors.mlir:[[# @LINE + 1]]:24: error: invalid attribute: a value its type cannot hold (e.g. a hex literal for a complex element type)
module attributes {c = dense<0x7F800000> : tensor<complex<f32>>} {
}

// -----

// A block label xDSL cannot name a block after (it starts with a digit): at the label.
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4xf32>) -> tensor<4xf32>, sym_name = "main"}> ({
// CHECK: opt-input-errors.mlir:[[# @LINE + 1]]:3: error: invalid block label: expected `^` and a name that starts with a letter or `_` (`^bb0`, `^exit`)
  ^0xbb0(%a: tensor<4xf32>):
    "func.return"(%a) : (tensor<4xf32>) -> ()
  }) : () -> ()
}) : () -> ()
