"""The collective registry (meshc/layout/collectives.py) and the layers that derive from it.

Golden values are hand derivations written here (numpy slicing and concatenation of small
arrays), never numbers taken from the code under test.
"""

import numpy as np
import pytest

import meshc
from meshc.dialects import ttir, ttmetal, ttnn
from meshc.interp.runner import run_golden
from meshc.layout.collectives import COLLECTIVES, CollectiveArgs, collective, groups
from meshc.layout.errors import LayoutError

MESH = (2, 2)


def _vals():
    """Device d holds a 2x4 array whose every element is 10 * d + its flat index."""
    return [10 * d + np.arange(8, dtype=np.float32).reshape(2, 4) for d in range(4)]


def test_groups_along_an_axis():
    assert groups(MESH, 1) == [[0, 1], [2, 3]]
    assert groups(MESH, 0) == [[0, 2], [1, 3]]
    with pytest.raises(LayoutError, match="cluster_axis 2 is out of range"):
        groups(MESH, 2)


def test_all_gather_concatenates_the_group():
    v = _vals()
    out = COLLECTIVES["all_gather"].reference(v, MESH, CollectiveArgs((1,), 1))
    assert np.array_equal(out[0], np.concatenate([v[0], v[1]], axis=1))
    assert np.array_equal(out[3], np.concatenate([v[2], v[3]], axis=1))


def test_all_slice_keeps_the_own_piece():
    v = _vals()
    out = COLLECTIVES["all_slice"].reference(v, MESH, CollectiveArgs((1,), 1))
    # devices 0 and 2 are first along axis 1: columns 0..1; devices 1 and 3 columns 2..3
    assert np.array_equal(out[0], v[0][:, :2])
    assert np.array_equal(out[1], v[1][:, 2:])
    assert np.array_equal(out[2], v[2][:, :2])
    assert np.array_equal(out[3], v[3][:, 2:])


def test_reduce_scatter_and_all_reduce():
    v = _vals()
    total01 = v[0] + v[1]
    rs = COLLECTIVES["reduce_scatter"].reference(v, MESH, CollectiveArgs((0,), 1, "sum"))
    assert np.array_equal(rs[0], total01[:1])
    assert np.array_equal(rs[1], total01[1:])
    ar = COLLECTIVES["all_reduce"].reference(v, MESH, CollectiveArgs((), 0, "max"))
    assert np.array_equal(ar[0], np.maximum(v[0], v[2]))


def test_all_to_all_and_permute():
    v = _vals()
    out = COLLECTIVES["all_to_all"].reference(v, MESH, CollectiveArgs((1, 0), 1))
    # device 0 gets column half 0 of devices 0 and 1, stacked on rows
    assert np.array_equal(out[0], np.concatenate([v[0][:, :2], v[1][:, :2]], axis=0))
    perm = COLLECTIVES["collective_permute"].reference(v, MESH, CollectiveArgs(pairs=((0, 3), (3, 0))))
    assert np.array_equal(perm[3], v[0]) and np.array_equal(perm[0], v[3])
    assert not perm[1].any() and not perm[2].any()


def test_placement_meaning():
    rr = (((), ()), ())
    assert COLLECTIVES["all_slice"].placement_after(rr, CollectiveArgs((1,), 1)) == (((), (1,)), ())
    s1 = (((), (1,)), ())
    assert COLLECTIVES["all_gather"].placement_after(s1, CollectiveArgs((1,), 1)) == rr
    assert COLLECTIVES["all_to_all"].placement_after(s1, CollectiveArgs((0, 1), 1)) == (((1,), ()), ())
    partial = (((), ()), (0,))
    assert COLLECTIVES["reduce_scatter"].placement_after(partial, CollectiveArgs((0,), 0)) == (((0,), ()), ())
    assert COLLECTIVES["all_reduce"].placement_after(partial, CollectiveArgs((), 0)) == rr
    with pytest.raises(LayoutError, match="not the minor axis"):
        COLLECTIVES["all_gather"].placement_after(rr, CollectiveArgs((1,), 1))
    with pytest.raises(LayoutError, match="unknown collective 'broadcast'"):
        collective("broadcast")


def test_every_layer_has_every_kind():
    assert set(ttir.COLLECTIVE_OPS) == set(COLLECTIVES) == set(ttnn.COLLECTIVE_OPS)
    for kind, c in COLLECTIVES.items():
        for op in (ttir.COLLECTIVE_OPS[kind], ttnn.COLLECTIVE_OPS[kind]):
            defined = set(op.get_irdl_definition().attributes) | set(op.get_irdl_definition().properties)
            assert set(c.attributes) <= defined, (op.name, c.attributes)


_DEVICE = ('#tt.device<workerGrid = #tt.grid<16x16, (d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, '
           'd0 mod 8, d1 mod 8)>, meshShape = 2x2, chipIds = [0, 1, 2, 3]>')


def _reshard_program(elem: str) -> str:
    return f"""module attributes {{tt.device = {_DEVICE}}} {{
  func.func @main(%x: tensor<64x128x{elem}>) -> tensor<64x128x{elem}> {{
    %0 = "ttir.mesh_shard"(%x) {{shard_type = #ttir.shard_type<replicate>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 1>, shard_dims = array<i64: -1, -1>}} : (tensor<64x128x{elem}>) -> tensor<64x128x{elem}>
    %1 = "ttir.reshard"(%0) {{source = "[R, R]", target = "[R, S1]"}} : (tensor<64x128x{elem}>) -> tensor<64x64x{elem}>
    %2 = "ttir.mesh_shard"(%1) {{shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<shard_to_full>, shard_shape = array<i64: 1, 2>, shard_dims = array<i64: -1, 1>}} : (tensor<64x64x{elem}>) -> tensor<64x128x{elem}>
    func.return %2 : tensor<64x128x{elem}>
  }}
}}"""


def test_reshard_all_slice_runs_on_ttmetal():
    """[R, R] -> [R, S1] lowers to enqueue_ccl all_slice, which the simulator runs: each device
    keeps its column half, and gathering the halves back gives the input."""
    module = meshc.compile(_reshard_program("f32"), "ttir-to-ttmetal-pipeline")
    ccl = [op for op in module.walk() if isinstance(op, ttmetal.EnqueueCclOp)]
    assert [op.kind.data for op in ccl] == ["all_slice"]
    x = np.arange(64 * 128, dtype=np.float32).reshape(64, 128)
    res = meshc.run(module, {"x": x})
    assert np.array_equal(res.outputs[0], x)
    assert res.traffic.link_bytes == 0  # all_slice moves nothing between chips


def test_reshard_ui16_runs_in_the_golden_run():
    """The golden run reads the reshard's data type from the one element-type table (u16)."""
    x = (np.arange(64 * 128) % 7).astype(np.uint16).reshape(64, 128)
    module = meshc.parse(_reshard_program("ui16"))
    golden = run_golden(module, {"x": x})
    assert golden.outputs[0].dtype == np.uint16
    assert np.array_equal(golden.outputs[0], x)
    assert np.array_equal(meshc.run(module, {"x": x}).outputs[0], x)
