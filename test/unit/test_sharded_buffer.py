"""ShardedBufferConfig: the TT-Mesh sharding spec's three T3K examples field by field, placement by orientation,
whole-dim shards versus replication, the ND form, and write/read on device buffers."""

import numpy as np
import pytest

from meshc.layout import (
    LayoutError,
    NDShardedBufferConfig,
    ReplicateTensorToMesh,
    ShardedBufferConfig,
    ShardTensor2dMesh,
    ShardTensorToMesh,
    UnsupportedSharding,
    distribute,
    lower_mesh_mapper,
    lower_mesh_mapper_nd,
    read_sharded,
    write_sharded,
)

T3K = (2, 4)
DATUM = 2  # bf16


def test_ttmesh_example1_height_sharding_across_columns():
    cfg = lower_mesh_mapper((4, 3, 32, 32), T3K, ShardTensor2dMesh(dims=(None, 0)), DATUM)
    assert cfg.global_buffer_size == 4 * 3 * 32 * 32 * DATUM
    assert cfg.shard_shape == (0, 96)
    assert cfg.global_buffer_shape == (32, 4 * 3 * 32)
    assert cfg.mesh_shard_orientation == "row_major"


def test_ttmesh_example2_width_sharding_across_rows():
    cfg = lower_mesh_mapper((32, 3, 128, 256), T3K, ShardTensor2dMesh(dims=(3, None)), DATUM)
    assert cfg.global_buffer_size == 32 * 3 * 128 * 256 * DATUM
    assert cfg.shard_shape == (128, 0)
    assert cfg.global_buffer_shape == (256, 32 * 3 * 128)
    assert cfg.mesh_shard_orientation == "col_major"


def test_ttmesh_example3_block_sharding():
    cfg = lower_mesh_mapper((1, 1, 128, 256), T3K, ShardTensor2dMesh(dims=(2, 3)), DATUM)
    assert cfg.global_buffer_size == 1 * 1 * 128 * 256 * DATUM
    assert cfg.shard_shape == (64, 64)
    assert cfg.global_buffer_shape == (256, 128)
    assert cfg.mesh_shard_orientation == "row_major"


def test_ttmesh_example1_devices_get_the_seed_shapes():
    t = np.arange(4 * 3 * 32 * 32, dtype=np.int32).reshape(4, 3, 32, 32)
    cfg = lower_mesh_mapper(t.shape, T3K, ShardTensor2dMesh(dims=(None, 0)), 4)
    bufs = write_sharded(t, cfg, T3K)
    for r in range(2):
        for c in range(4):  # column c holds batch element c, on both rows ("each device [z=3, y=32, x=32]")
            assert np.array_equal(bufs[(r, c)], t[c].reshape(96, 32))


def test_ttmesh_example2_devices_get_the_seed_shapes():
    t = np.arange(2 * 3 * 4 * 256, dtype=np.int32).reshape(2, 3, 4, 256)  # b, y made small; same rule
    cfg = lower_mesh_mapper(t.shape, T3K, ShardTensor2dMesh(dims=(3, None)), 4)
    assert cfg.shard_shape == (128, 0) and cfg.mesh_shard_orientation == "col_major"
    bufs = write_sharded(t, cfg, T3K)
    for r in range(2):
        for c in range(4):  # row r holds x half r, replicated along the row
            assert np.array_equal(bufs[(r, c)], t[..., 128 * r:128 * (r + 1)].reshape(24, 128))


def test_ttmesh_example3_devices_get_blocks():
    t = np.arange(128 * 256, dtype=np.int32).reshape(1, 1, 128, 256)
    cfg = lower_mesh_mapper(t.shape, T3K, ShardTensor2dMesh(dims=(2, 3)), 4)
    bufs = write_sharded(t, cfg, T3K)
    for r in range(2):
        for c in range(4):
            assert np.array_equal(bufs[(r, c)], t[0, 0, 64 * r:64 * (r + 1), 64 * c:64 * (c + 1)])
    assert np.array_equal(read_sharded(bufs, cfg, T3K, t.shape), t)


def test_whole_dim_shard_is_not_replication():
    # ShardTensorToMesh(0) splits the rows over all 8 devices: each shard spans the whole width (x = 32,
    # not 0, since nothing is replicated) and the shards fill the mesh row by row.
    cfg = lower_mesh_mapper((8, 32), T3K, ShardTensorToMesh(0), 1)
    assert cfg.shard_shape == (32, 1) and cfg.mesh_shard_orientation == "row_major"
    # ShardTensor2dMesh((None, 0)) splits over the 4 columns and replicates down them: x = 0.
    cfg2 = lower_mesh_mapper((4, 32), T3K, ShardTensor2dMesh((None, 0)), 1)
    assert cfg2.shard_shape == (0, 1) and cfg2.mesh_shard_orientation == "row_major"
    # the same rows-of-one-shard config without the 0 fills only mesh row 0
    plain = ShardedBufferConfig(4 * 32, (32, 1), (32, 4), "row_major")
    assert [devs for _, devs in plain.placement(T3K)] == [[(0, 0)], [(0, 1)], [(0, 2)], [(0, 3)]]
    assert [devs for _, devs in cfg2.placement(T3K)] == [[(0, c), (1, c)] for c in range(4)]


def test_orientation_placement_hand_derived():
    # 8 shards of a (x=8, y=8) buffer cut 2 (y) x 4 (x) on a 2x4 mesh
    rm = ShardedBufferConfig(64, (2, 4), (8, 8), "row_major")
    assert [devs[0] for _, devs in rm.placement(T3K)] == [(0, 0), (0, 1), (0, 2), (0, 3), (1, 0), (1, 1), (1, 2), (1, 3)]
    cm = ShardedBufferConfig(64, (2, 4), (8, 8), "col_major")
    assert [devs[0] for _, devs in cm.placement(T3K)] == [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2), (1, 2), (0, 3), (1, 3)]
    # replicated along one axis: col_major spreads over rows, each shard on a whole row
    rep = ShardedBufferConfig(64, (4, 0), (8, 8), "col_major")
    assert [devs for _, devs in rep.placement(T3K)] == [[(0, c) for c in range(4)], [(1, c) for c in range(4)]]
    full = ShardedBufferConfig(64, (0, 0), (8, 8))
    assert [devs for _, devs in full.placement(T3K)] == [[(r, c) for r in range(2) for c in range(4)]]


def test_col_major_write_reads_shards_row_major():
    t = np.arange(64, dtype=np.uint8).reshape(8, 8)
    cm = ShardedBufferConfig(64, (2, 4), (8, 8), "col_major")
    bufs = write_sharded(t, cm, T3K)
    # shard i (row-major over the 2x4 shard grid) goes to device (i % 2, i // 2)
    for i in range(8):
        sy, sx = divmod(i, 4)
        assert np.array_equal(bufs[(i % 2, i // 2)], t[4 * sy:4 * sy + 4, 2 * sx:2 * sx + 2])
    assert np.array_equal(read_sharded(bufs, cm, T3K), t)


def test_replicated_buffer_cannot_be_read_back():
    t = np.zeros((4, 32), np.float32)
    cfg = lower_mesh_mapper(t.shape, T3K, ReplicateTensorToMesh(), 4)
    assert cfg.shard_shape == (0, 0)
    bufs = write_sharded(t, cfg, T3K)
    assert len(bufs) == 8
    with pytest.raises(LayoutError, match="cannot read back a buffer replicated"):
        read_sharded(bufs, cfg, T3K)


def test_one_d_mesh_is_one_row():
    t = np.arange(32, dtype=np.int8).reshape(4, 8)
    cfg = lower_mesh_mapper(t.shape, (4,), ShardTensorToMesh(1), 1)
    assert cfg.shard_shape == (2, 4) and cfg.mesh_shard_orientation == "row_major"
    bufs = write_sharded(t, cfg, (4,))
    assert sorted(bufs) == [(0,), (1,), (2,), (3,)]
    assert np.array_equal(bufs[(3,)], t[:, 6:8])


def test_to_nd_places_like_the_2d_form():
    rng = np.random.default_rng(3)
    t = rng.integers(0, 99, (16, 8)).astype(np.int16)
    for cfg in [ShardedBufferConfig(256, (8, 2), (8, 16), "row_major"),
                ShardedBufferConfig(256, (8, 2), (8, 16), "col_major"),
                ShardedBufferConfig(256, (2, 8), (8, 16), "row_major"),
                ShardedBufferConfig(256, (4, 4), (8, 16), "col_major"),
                ShardedBufferConfig(256, (0, 4), (8, 16), "row_major"),
                ShardedBufferConfig(256, (4, 0), (8, 16), "col_major"),
                ShardedBufferConfig(256, (0, 0), (8, 16))]:
        a = write_sharded(t, cfg, T3K)
        b = write_sharded(t, cfg.to_nd(T3K), T3K)
        assert a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a), cfg


def test_nd_form_handles_the_seed_limitations():
    t = np.arange(2 * 3 * 8 * 4, dtype=np.int32).reshape(2, 3, 8, 4)
    mapper = ShardTensor2dMesh((2, None))  # y sharded with b, z > 1
    with pytest.raises(UnsupportedSharding):
        lower_mesh_mapper(t.shape, T3K, mapper, 4)
    nd = lower_mesh_mapper_nd(t.shape, T3K, mapper, 4)
    assert nd == NDShardedBufferConfig(t.nbytes, (2, 3, 8, 4), (2, 3, 4, 4), T3K, ((), (), (0,), ()))
    bufs = write_sharded(t, nd, T3K)
    for r in range(2):
        for c in range(4):
            assert np.array_equal(bufs[(r, c)], t[:, :, 4 * r:4 * r + 4, :].reshape(24, 4))
    assert np.array_equal(read_sharded(bufs, nd, T3K), t)


def test_nd_padded_split_matches_padded_distribute():
    t = np.arange(10 * 3, dtype=np.float32).reshape(10, 3)
    mapper = ShardTensorToMesh(0, pad=True)
    nd = lower_mesh_mapper_nd(t.shape, T3K, mapper, 4)
    assert nd.shard_shape == (2, 3) and nd.padded
    bufs = write_sharded(t, nd, T3K)
    pieces = distribute(t, T3K, mapper)
    assert all(np.array_equal(bufs[c], pieces[c]) for c in pieces)
    assert np.array_equal(bufs[(1, 3)], np.zeros((2, 3)))  # rows 14, 15 do not exist: all padding
    assert np.array_equal(read_sharded(bufs, nd, T3K), t)
    with pytest.raises(LayoutError, match="pad the tensor"):
        lower_mesh_mapper(t.shape, T3K, mapper, 4)


def test_write_checks_the_tensor_against_the_config():
    cfg = lower_mesh_mapper((8, 32), T3K, ShardTensorToMesh(0), 2)
    with pytest.raises(LayoutError, match="global_buffer_shape"):
        write_sharded(np.zeros((16, 32), np.float16), cfg, T3K)
    with pytest.raises(LayoutError, match="global_buffer_size"):
        write_sharded(np.zeros((8, 32), np.float32), cfg, T3K)
    with pytest.raises(UnsupportedSharding, match="3 axes"):
        write_sharded(np.zeros((8, 32), np.float16), cfg, (2, 2, 2))


def test_read_checks_buffers():
    t = np.arange(64, dtype=np.uint8).reshape(8, 8)
    cfg = ShardedBufferConfig(64, (2, 4), (8, 8), "row_major")
    bufs = write_sharded(t, cfg, T3K)
    del bufs[(1, 2)]
    with pytest.raises(LayoutError, match=r"no buffer for device \(1, 2\)"):
        read_sharded(bufs, cfg, T3K)
    bufs[(1, 2)] = np.zeros((3, 3), np.uint8)
    with pytest.raises(LayoutError, match="has shape"):
        read_sharded(bufs, cfg, T3K)


def test_buffers_are_independent_copies():
    t = np.ones((4, 32), np.float32)
    bufs = write_sharded(t, lower_mesh_mapper(t.shape, T3K, ReplicateTensorToMesh(), 4), T3K)
    bufs[(0, 0)][:] = 7
    assert t.sum() == 128 and bufs[(1, 1)].sum() == 128
