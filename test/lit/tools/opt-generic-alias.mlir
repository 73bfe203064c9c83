// RUN: meshc-opt %s --mlir-print-op-generic | filecheck %s
// RUN: meshc-opt %s --print-op-generic | filecheck %s
// --mlir-print-op-generic is mlir-opt's spelling of --print-op-generic.
// CHECK: "builtin.module"() ({
// CHECK: "func.func"() <{sym_name = "f", function_type = () -> ()}> ({
func.func @f() {
  func.return
}
