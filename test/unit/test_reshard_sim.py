"""reshard-to-collectives on the simulator: the lowered collectives run, the data is right, and the
ethernet bytes the simulator counts equal the planner's lower bound (2x2 chip mesh, one hop a move)."""

import numpy as np
import pytest

import meshc
from meshc.interp.runner import run
from meshc.layout.mesh import Mesh, ShardingSpec
from meshc.layout.reshard import plan_reshard
from meshc.layout.system import mesh_system

DEVICE = ("#tt.device<workerGrid = #tt.grid<16x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, "
          "d0 mod 8, d1 mod 8)>, meshShape = 2x2, chipIds = [0, 1, 2, 3]>")
M22 = Mesh((2, 2))


def shard_attrs(dims, rank):
    """mesh_shard attributes for a spec whose dims each use at most one mesh axis."""
    shard_dims = [-1, -1]
    shape = [1] * rank
    for d, axes in enumerate(dims):
        for a in axes:
            shard_dims[a] = d
            shape[d] *= 2
    kind = "devices" if any(dims) else "replicate"
    return (f"shard_type = #ttir.shard_type<{kind}>, shard_shape = array<i64: {', '.join(map(str, shape))}>, "
            f"shard_dims = array<i64: {', '.join(map(str, shard_dims))}>")


def program(n, src_text, src_dims, tgt_text, tgt_dims):
    src = ShardingSpec(M22, src_dims)
    tgt = ShardingSpec(M22, tgt_dims)
    ls = "x".join(map(str, src.local_shape((n, n), (0, 0))))
    lt = "x".join(map(str, tgt.local_shape((n, n), (0, 0))))
    g = f"{n}x{n}"
    return f"""module attributes {{tt.device = {DEVICE}}} {{
  func.func @main(%x: tensor<{g}xf32>) -> tensor<{g}xf32> {{
    %0 = "ttir.mesh_shard"(%x) {{{shard_attrs(src_dims, 2)}, shard_direction = #ttir.shard_direction<full_to_shard>}} : (tensor<{g}xf32>) -> tensor<{ls}xf32>
    %1 = "ttir.reshard"(%0) {{source = "{src_text}", target = "{tgt_text}"}} : (tensor<{ls}xf32>) -> tensor<{lt}xf32>
    %2 = "ttir.mesh_shard"(%1) {{{shard_attrs(tgt_dims, 2)}, shard_direction = #ttir.shard_direction<shard_to_full>}} : (tensor<{lt}xf32>) -> tensor<{g}xf32>
    func.return %2 : tensor<{g}xf32>
  }}
}}"""


CASES = [
    ("[S0, R]", ((0,), ()), "[R, S0]", ((), (0,)), ["ttir.all_to_all"]),
    ("[S0, S1]", ((0,), (1,)), "[R, R]", ((), ()), ["ttir.all_gather", "ttir.all_gather"]),
    ("[S0, R]", ((0,), ()), "[R, R]", ((), ()), ["ttir.all_gather"]),
    ("[R, S1]", ((), (1,)), "[S1, R]", ((1,), ()), ["ttir.all_to_all"]),
]


@pytest.mark.parametrize("src_text,src_dims,tgt_text,tgt_dims,ops", CASES)
def test_simulated_link_bytes_equal_the_bound(src_text, src_dims, tgt_text, tgt_dims, ops):
    n = 32
    module = meshc.compile(program(n, src_text, src_dims, tgt_text, tgt_dims), "reshard-to-collectives")
    names = [o.name for o in module.walk() if o.name.startswith("ttir.") and o.name != "ttir.mesh_shard"]
    assert "ttir.reshard" not in names
    if ops is not None:
        assert names == ops
    x = np.arange(n * n, dtype=np.float32).reshape(n, n)
    res = run(module, {"x": x}, system=mesh_system((2, 2)))
    np.testing.assert_array_equal(res.outputs[0], x)  # shard -> reshard -> gather is the identity
    plan = plan_reshard((n, n), "f32", ShardingSpec(M22, src_dims), ShardingSpec(M22, tgt_dims))
    link_bytes = sum(res.traffic.link.values())
    assert link_bytes == plan.lower_bound_bytes == plan.delivered_bytes


def test_golden_run_agrees():
    text = program(8, "[S0, R]", ((0,), ()), "[R, S0]", ((), (0,)))
    module = meshc.compile(text, "reshard-to-collectives")
    x = np.random.default_rng(0).normal(size=(8, 8)).astype(np.float32)
    res = run(module, {"x": x}, mode="golden")
    np.testing.assert_array_equal(res.outputs[0], x)
