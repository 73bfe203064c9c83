"""The placement API refuses bad and huge arguments with meshc's own LayoutError, at once.

Each case is an argument that must not raise a bare Python exception (StopIteration, IndexError,
OverflowError, MemoryError, TypeError), hang, or return a result for nonsense: it raises a
LayoutError at once. The test asserts the exception type and that the message names the
problem; the limits are meshc.layout.limits' documented constants.
"""

import math

import numpy as np
import pytest

import meshc.layout as L
from meshc.layout import limits


def _raises(fn, *words):
    with pytest.raises(L.LayoutError) as e:
        fn()
    for w in words:
        assert w in str(e.value), str(e.value)


def test_place_huge_tensor_is_refused_before_the_page_table():
    # 2**20 x 2**20 f32 in 32x32 tiles: 2**30 pages, far above MAX_PAGES
    _raises(lambda: L.place((2**20, 2**20), "f32", L.MemoryConfig("dram", "interleaved")),
            "1073741824 pages", str(limits.MAX_PAGES), "MAX_PAGES")


def test_place_tile_given_as_text_names_the_expected_form():
    _raises(lambda: L.place((64, 64), "f32", L.MemoryConfig("dram", "interleaved"), tile="32x32"),
            "tile shape", "(32, 32)", "'32x32'")


def test_memory_config_infinite_shard_extent():
    _raises(lambda: L.MemoryConfig("l1", "height_sharded", (2, 2), shard_shape=(math.inf, 32)), "shard shape")


def test_core_range_to_the_largest_int64_is_refused():
    _raises(lambda: L.CoreRange((0, 0), (0, 2**63 - 1)), str(2**63), "MAX_CORES")


def test_distribute_huge_broadcast_array_is_refused_before_copying():
    big = np.broadcast_to(np.float32(1), (2**20, 2**20))  # a 4 TiB view of one value
    _raises(lambda: L.distribute(big, (2,), L.ShardTensorToMesh(0)), str(2**40), "MAX_ELEMENTS")


def test_distribute_counts_the_replicated_copies():
    x = np.broadcast_to(np.float32(1), (2**20, 8, 6))  # 192 MiB, replicated 7 times
    _raises(lambda: L.distribute(x, (7,), L.ReplicateTensorToMesh()), str(7 * 2**20 * 48))


def test_lower_mesh_mapper_on_a_2_to_the_40_mesh():
    _raises(lambda: L.lower_mesh_mapper((32, 32), (2**40,), L.ShardTensorToMesh(0), 2),
            str(2**40), "MAX_DEVICES")


def test_lower_mesh_mapper_non_integer_datum_size():
    _raises(lambda: L.lower_mesh_mapper((32, 32), (2,), L.ShardTensorToMesh(0), math.nan), "datum_size")


def test_lower_mesh_mapper_2d_spec_on_rank_3_tensor():
    # a 2-dim spec for a 3-dim tensor: a rank mismatch named as such, not an IndexError
    with pytest.raises(L.LayoutError):
        L.lower_mesh_mapper((2, 4, 8), (2, 2), "[S0, S1]", 4)
    _raises(lambda: L.lower_mesh_mapper((2, 4, 8), (2, 2), "[S0, S1]", 4), "2 dims", "rank 3")


def test_aggregate_of_no_shards():
    _raises(lambda: L.aggregate({}, (2,), L.ConcatMeshToTensor(0)), "0 shards", "2 devices")


def test_derive_device_on_a_huge_mesh():
    _raises(lambda: L.derive_device((2**40, 2**40)), "MAX_DEVICES")


def test_mesh_system_beyond_the_device_limit_is_refused_before_enumerating_chips():
    # the default system of a mesh no named system holds is a plain chip mesh of its shape
    _raises(lambda: L.mesh_system((2**63 - 1,)), str(2**63 - 1), "MAX_DEVICES")
    _raises(lambda: L.mesh_system((0, 4)), "positive")


def test_derive_device_huge_chip_grid():
    _raises(lambda: L.derive_device((2, 4), chip_grid=(2**40, 2**40)), "cores", "MAX_CORES")


def test_derive_device_mesh_given_as_text():
    _raises(lambda: L.derive_device("2x4"), "mesh shape", "'2x4'")


def test_plan_reshard_negative_dimension():
    _raises(lambda: L.plan_reshard((-8, 8), "f32", "[S0, R] on 2x2", "[R, S1] on 2x2"), "-8")


def test_plan_reshard_mesh_beyond_the_device_limit_is_refused_at_once():
    # 128x64 = 8192 devices, above MAX_DEVICES (a 64x64 mesh, which the planner handles)
    _raises(lambda: L.plan_reshard((128, 64), "f32", "[S0, S1] on 128x64", "[S1, S0] on 128x64"),
            "8192 devices", "MAX_DEVICES")


def test_plan_reshard_on_a_64x64_mesh_within_the_limits():
    # the 64x64 mesh: 4096 devices x (64 x 64 cells of the common cut) = 2**24 entries
    plan = L.plan_reshard((4096, 4096), "f32", "[S0, S1] on 64x64", "[S1, S0] on 64x64")
    assert plan.steps


def test_plan_reshard_on_a_64x64_mesh_past_the_cell_masks_is_planned_at_the_bound():
    # [S01, R] -> [R, S10]: the common cut is 4096 x 4096 cells, times 4096 devices = 2**36 mask
    # entries (refused before the planner planned over intervals). Device d holds row d and
    # needs one column, of which it holds 1 element: 4095 of 4096 elements lacking, bf16
    plan = L.plan_reshard((4096, 4096), "bf16", "[S01, R] on 64x64", "[R, S10] on 64x64")
    assert plan.lower_bound_bytes == 4096 * 4095 * 2
    assert plan.delivered_bytes == plan.lower_bound_bytes
    # [S0, S1, R] -> [R, S0, S1] of 64x64x64: device (i, j) holds (i, j, :) and needs (:, i, j);
    # only the 64 devices with i == j hold one element of it
    plan = L.plan_reshard((64, 64, 64), "f32", "[S0, S1, R] on 64x64", "[R, S0, S1] on 64x64")
    assert plan.lower_bound_bytes == (4096 * 64 - 64) * 4
    assert plan.delivered_bytes == plan.lower_bound_bytes


def test_reading_every_transfer_of_a_huge_plan_is_refused():
    # the 2**24 transfers of the plan above are counted on arrays; made as objects they are refused
    plan = L.plan_reshard((4096, 4096), "bf16", "[S01, R] on 64x64", "[R, S10] on 64x64")
    _raises(lambda: plan.transfers, str(4096 * 4095), "MAX_RESHARD_TRANSFERS")


def test_plan_reshard_mesh_given_as_a_count():
    _raises(lambda: L.plan_reshard((32, 32), "bf16", ("[R, R]", 8), ("[R, S1]", (2, 4))), "mesh shape")


def test_limits_hold_the_benchmark_sizes():
    # the simulator benchmark moves a 256 MiB f32 tensor: the limits must let it through
    assert limits.MAX_TENSOR_BYTES >= 256 * 2**20
    assert limits.MAX_ELEMENTS >= 256 * 2**20 // 4
    assert limits.MAX_DEVICES >= 64 * 64  # the planner's 64x64-mesh scale
