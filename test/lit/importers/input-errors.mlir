// meshc-import's own input and output: bytes that are not UTF-8 and an output it cannot write are
// errors (exit 1), as in meshc-opt, never an internal error.
// RUN: python -c "import sys; open(sys.argv[1], 'wb').write(b'\"builtin.module\"() ({\n  \xff\n}) : () -> ()\n')" %t.latin.mlir
// RUN: not meshc-import %t.latin.mlir 2>&1 | filecheck %s --check-prefix=UTF8
// RUN: not meshc-import %s -o %t.nodir/sub/out.mlir 2>&1 | filecheck %s --check-prefix=OUT
// UTF8: latin.mlir:2:3: error: the input is not valid UTF-8: byte 0xff (invalid start byte); MLIR source is UTF-8 text
// OUT: meshc-import: error: cannot write '{{.*}}nodir/sub/out.mlir': No such file or directory
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4xf32>) -> tensor<4xf32>, sym_name = "main"}> ({
  ^bb0(%a: tensor<4xf32>):
    "func.return"(%a) : (tensor<4xf32>) -> ()
  }) : () -> ()
}) : () -> ()
