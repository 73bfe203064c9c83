// RUN: not meshc-opt %s --split-input-file --allow-unregistered-dialect 2>&1 | filecheck %s

// A sigil without a name: xDSL 0.74's lexer words this "Expected suffix identifier after
// {first_char}", its placeholder unfilled; meshc names the sigil and shows a name it takes.
// CHECK: opt-sigil-names.mlir:[[# @LINE + 2]]:3: error: expected a name after '%' (e.g. %x or %0)
func.func @f() {
  % = "test.op"() : () -> ()
}

// -----

// CHECK: opt-sigil-names.mlir:[[# @LINE + 2]]:3: error: expected a name after '^' (e.g. ^bb0)
func.func @g() {
  ^ 
}

// -----

// CHECK: opt-sigil-names.mlir:[[# @LINE + 2]]:23: error: expected a name after '!' (e.g. !ttnn.device)
func.func @h() {
  "test.op"() : () -> ! 
}

// -----

// CHECK: opt-sigil-names.mlir:[[# @LINE + 2]]:20: error: expected a name after '#' (e.g. #map or #tt.device<...>)
func.func @i() {
  "test.op"() {a = # } : () -> ()
}
// CHECK-NOT: first_char
