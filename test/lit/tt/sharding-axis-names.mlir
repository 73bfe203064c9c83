// RUN: meshc-opt %s --split-input-file --verify-diagnostics
// RUN: not meshc-opt %s --split-input-file 2>&1 | filecheck %s --check-prefix=ERR
// RUN: meshc-opt %S/Inputs/sharding-axis-names-ok.mlir | filecheck %s --check-prefix=OK
// RUN: not meshc-viz --spec "[x, None]" --mesh 2x4 --shape 8x8 --text 2>&1 | filecheck %s --check-prefix=VIZ
// RUN: meshc-viz --spec "[x, None] on [x=2, y=4]" --shape 8x8 --text | filecheck %s --check-prefix=VIZOK

// A bare name in a spec is the name of the mesh axis splitting that dim, as JAX's PartitionSpec
// writes it ([data, None], [(data, model), R]), over a mesh that names its axes. Over one that
// does not, it is refused at the name, with the accepted forms: it used to read as a replicated
// named dim, so [data, R] silently meant [R, R].

// expected-error @+1 {{bad sharding spec: 'data' would shard this dim over a mesh axis of that name, but the module's mesh does not name its axes; accepted forms: the index form [S0, R] or [S(0), R]; mesh axis names as in JAX's PartitionSpec, [data, None] or [(data, model), R], over a mesh that names its axes ([data, R] on [data=2, model=4]; in a #tt.sharding: mesh = [data=2, model=4]); the named form [B=8/data=2, M=4]}}
func.func @f() attributes {c = #tt.sharding<[data, R]>} {
  func.return
}
// ERR: sharding-axis-names.mlir:13:46: error: bad sharding spec: 'data' would shard this dim
// ERR-NOT: Traceback

// -----

// expected-error @+1 {{bad sharding spec: 'x' would shard this dim over a mesh axis of that name, but the mesh 2x4 does not name its axes}}
func.func @f() attributes {c = #tt.sharding<[x, None], mesh = 2x4>} {
  func.return
}

// -----

// expected-error @+1 {{bad sharding spec: 'x' would shard this dim over a mesh axis of that name, but the mesh [data=2, model=4] has no axis named 'x'}}
func.func @f() attributes {c = #tt.sharding<[R, x], mesh = [data=2, model=4]>} {
  func.return
}

// -----

// expected-error @+1 {{bad sharding spec: 'model' is a mesh axis, but in the named form (NAME=size/AXIS) a bare entry is a replicated tensor dim}}
func.func @f() attributes {c = #tt.sharding<[B/data, model], mesh = [data=2, model=4]>} {
  func.return
}

// OK: #tt.sharding<[S(data), R], mesh = [data=2, model=4]>
// OK: #tt.sharding<[S(data, model), R], mesh = [data=2, model=4]>
// OK: #tt.sharding<[R, S(model)], mesh = [data=2, model=4]>

// VIZ: meshc-viz: error: sharding spec '[x, None]' at column 2: 'x' would shard this dim over a mesh axis of that name, but the mesh 2x4 does not name its axes; accepted forms:
// VIZOK: [S(x), R] on mesh [x=2, y=4]
// VIZOK: 2 blocks on 8 devices, each held 4 times
