// RUN: python -c "print('func.func @f() attributes {a = ' + '{a = ' * 100 + '1' + '}' * 100 + '} {\n  func.return\n}')" > %t.dicts.mlir
// RUN: python -c "print('module {\n' + '  \"test.op\"() ({\n' * 3000 + '  }) : () -> ()\n' * 3000 + '}')" > %t.regions.mlir
// RUN: python -c "print('func.func @f(%%a: ' + 'tuple<' * 65 + 'i32' + '>' * 65 + ') {\n  func.return\n}')" > %t.types.mlir
// RUN: not meshc-opt %t.dicts.mlir 2>&1 | filecheck %s --check-prefix=DICTS
// RUN: not meshc-opt %t.regions.mlir --allow-unregistered-dialect 2>&1 | filecheck %s --check-prefix=REGIONS
// RUN: not meshc-import %t.regions.mlir 2>&1 | filecheck %s --check-prefix=REGIONS
// RUN: not meshc-run %t.regions.mlir 2>&1 | filecheck %s --check-prefix=REGIONS
// RUN: not meshc-run %s --golden %t.types.mlir --check 2>&1 | filecheck %s --check-prefix=TYPES
// RUN: meshc-opt %s | filecheck %s

// Brackets nested deeper than meshc.layout.limits.MAX_NESTING (64) are refused before parsing, at
// the first bracket past the limit: 100 nested dictionaries raised RecursionError in meshc-opt,
// 3000 nested regions RecursionError in meshc-opt and meshc-run and a segfault in JAX's parser
// under meshc-import. A golden file is measured the same way. Brackets in strings and comments,
// and the `>` of `->`, open and close nothing: this file, nested a few deep, is read as it is.
// DICTS: input-nesting.mlir.tmp.dicts.mlir:1:347: error: brackets nest 65 deep here, more than meshc reads (64, meshc.layout.limits.MAX_NESTING: its parsers recurse once a level); flatten the input
// DICTS-NOT: RecursionError
// REGIONS: input-nesting.mlir.tmp.regions.mlir:33:16: error: brackets nest 65 deep here
// REGIONS-NOT: internal error
// TYPES: input-nesting.mlir.tmp.types.mlir:1:401: error: brackets nest 65 deep here
// CHECK: func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {note = "{{\(+}}"}
// ((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {note = "((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((("} {
  func.return %x : tensor<4xf32>
}
