// The accepted forms of mesh axis names (test/lit/tt/sharding-axis-names.mlir): JAX's
// PartitionSpec('data', None), PartitionSpec(('data', 'model')) and PartitionSpec(None, 'model')
// over the mesh ('data'=2, 'model'=4).
func.func @f() attributes {a = #tt.sharding<[data, None], mesh = [data=2, model=4]>,
                           b = #tt.sharding<[(data, model), R], mesh = [data=2, model=4]>,
                           c = #tt.sharding<[None, model], mesh = [data=2, model=4]>} {
  func.return
}
