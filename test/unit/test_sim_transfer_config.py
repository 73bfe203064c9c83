"""Host <-> device transfers go through the ShardedBufferConfig: each device's bytes are the block
the config gives it. Expected blocks are derived by hand from the TT-Mesh sharding spec's
examples (T3K, 2 rows x 4 columns of devices), not read back from the code under test."""

import numpy as np
import pytest

from meshc.layout.errors import LayoutError
from meshc.layout.memory_config import MemoryConfig
from meshc.layout.mesh_mappers import ShardTensor2dMesh, ShardTensorToMesh
from meshc.layout.sharded_buffer import (
    NDShardedBufferConfig,
    ShardedBufferConfig,
    check_config_fits,
    lower_mesh_mapper,
    lower_mesh_mapper_nd,
)
from meshc.sim.machine import Machine

T3K = (2, 4)
L1_BLOCK = MemoryConfig("l1", "block_sharded", (2, 2))


def _device(m: Machine, buf, r: int, c: int) -> np.ndarray:
    return m.peek(buf, r * T3K[1] + c)


def test_example_1_height_shards_across_columns_replicated_down_rows():
    # [b=4, z=3, y=32, x=32], ShardTensor2DMesh(dims=[None, 0]): config (0, 96) ROW_MAJOR; device
    # (r, c) holds batch c, whatever its row
    x = np.arange(4 * 3 * 32 * 32, dtype=np.float32).reshape(4, 3, 32, 32)
    cfg = ShardedBufferConfig(x.nbytes, (0, 96), (32, 4 * 3 * 32), "row_major")
    m = Machine("t3k", T3K)
    buf = m.allocate((1, 3, 32, 32), "f32")
    m.write_host(buf, x, cfg)
    for r in range(2):
        for c in range(4):
            assert np.array_equal(_device(m, buf, r, c), x[c:c + 1])
    assert np.array_equal(m.read_host(buf, cfg, x.shape), x)


def test_example_2_width_shards_across_rows_replicated_along_columns():
    # [b=32, z=3, y=128, x=256] shrunk to b=2 (same flattening), dims=[3, None]: config (128, 0)
    # COL_MAJOR; device (r, c) holds columns r*128 .. r*128+127
    x = np.random.default_rng(0).standard_normal((2, 3, 128, 256)).astype(np.float32)
    cfg = ShardedBufferConfig(x.nbytes, (128, 0), (256, 2 * 3 * 128), "col_major")
    assert cfg == lower_mesh_mapper(x.shape, T3K, ShardTensor2dMesh((3, None)), 4)
    m = Machine("t3k", T3K)
    buf = m.allocate((2, 3, 128, 128), "f32", L1_BLOCK)
    m.write_host(buf, x, cfg)
    for r in range(2):
        for c in range(4):
            assert np.array_equal(_device(m, buf, r, c), x[..., r * 128:(r + 1) * 128])
    assert np.array_equal(m.read_host(buf, cfg, x.shape), x)


@pytest.mark.parametrize("tile,dtype", [(None, "f32"), ((32, 32), "bf16"), ((32, 32), "bfp_bf8")])
def test_example_3_block_shards_and_the_col_major_edit_moves_them(tile, dtype):
    # [1, 1, 128, 256], dims=[2, 3]: 64x64 blocks, ROW_MAJOR: device (r, c) holds block (r, c).
    # The same blocks COL_MAJOR fill down each mesh column: block i = (i // 4, i % 4) goes to
    # device (i % 2, i // 2), so device (r, c) holds block i = 2c + r.
    from meshc.sim.encoding import quantize

    x = quantize(np.random.default_rng(1).standard_normal((1, 1, 128, 256)).astype(np.float32), dtype)
    row = ShardedBufferConfig(128 * 256 * 4, (64, 64), (256, 128), "row_major")
    col = ShardedBufferConfig(128 * 256 * 4, (64, 64), (256, 128), "col_major")
    m = Machine("t3k", T3K)
    for cfg, block_of in ((row, lambda r, c: (r, c)), (col, lambda r, c: divmod(2 * c + r, 4))):
        buf = m.allocate((1, 1, 64, 64), dtype, L1_BLOCK, tile=tile)
        m.write_host(buf, x, cfg)
        for r in range(2):
            for c in range(4):
                by, bx = block_of(r, c)
                assert np.array_equal(_device(m, buf, r, c), x[..., by * 64:(by + 1) * 64, bx * 64:(bx + 1) * 64])
        assert np.array_equal(m.read_host(buf, cfg, x.shape), x)  # the same config reads them back
        m.free(buf)
    # written one way, read the other: the blocks land elsewhere
    buf = m.allocate((1, 1, 64, 64), dtype, L1_BLOCK, tile=tile)
    m.write_host(buf, x, col)
    back = m.read_host(buf, row, x.shape)
    assert np.array_equal(back[..., :64, 64:128], x[..., 0:64, 128:192])  # device (0, 1): block 2


def test_nd_config_with_padded_shards_round_trips():
    # 5x8 over 2x4, dims (0, 1) padded: shards 3x2; device (1, c) holds rows 3..4 (+ a zero row)
    x = np.arange(40, dtype=np.float32).reshape(5, 8)
    cfg = lower_mesh_mapper_nd(x.shape, T3K, ShardTensor2dMesh((0, 1), pad=True), 4)
    assert isinstance(cfg, NDShardedBufferConfig) and cfg.shard_shape == (3, 2)
    m = Machine("t3k", T3K)
    buf = m.allocate((3, 2), "f32")
    m.write_host(buf, x, cfg)
    assert np.array_equal(_device(m, buf, 1, 2), np.array([[28, 29], [36, 37], [0, 0]], np.float32))
    assert np.array_equal(m.read_host(buf, cfg, x.shape), x)


def test_a_1d_mesh_takes_the_2d_config_as_one_row():
    x = np.arange(8 * 16, dtype=np.int32).reshape(8, 16)
    cfg = lower_mesh_mapper(x.shape, (8,), ShardTensorToMesh(0), 4)
    m = Machine("t3k", (8,))
    buf = m.allocate((1, 16), "si32")
    m.write_host(buf, x, cfg)
    assert [int(m.peek(buf, d)[0, 0]) for d in range(8)] == [16 * d for d in range(8)]
    assert np.array_equal(m.read_host(buf, cfg, x.shape), x)


def test_transfers_count_the_host_bytes_of_every_device():
    x = np.zeros((128, 256), np.float32)
    cfg = ShardedBufferConfig(x.nbytes, (64, 64), (256, 128), "row_major")
    m = Machine("t3k", T3K)
    buf = m.allocate((64, 64), "f32")
    m.write_host(buf, x, cfg)
    m.read_host(buf, cfg, x.shape)
    assert dict(m.traffic.host_to_device) == {c: 64 * 64 * 4 for c in range(8)}
    assert dict(m.traffic.device_to_host) == {c: 64 * 64 * 4 for c in range(8)}
    # DRAM interleaved: 64 rows of 256 B over 12 banks: banks 0..3 take 6 rows, 4..11 take 5
    assert m.traffic.dram_write[(3, 3)] == 6 * 256 and m.traffic.dram_write[(3, 4)] == 5 * 256


def test_a_config_that_does_not_fit_the_transfer_is_refused():
    cfg = ShardedBufferConfig(128 * 256 * 4, (16, 0), (256, 128), "col_major")
    with pytest.raises(LayoutError, match="more shards than places"):
        check_config_fits(cfg, (128, 256), (64, 64), T3K, 4)
    ok = ShardedBufferConfig(128 * 256 * 4, (64, 64), (256, 128), "col_major")
    check_config_fits(ok, (128, 256), (64, 64), T3K, 4)  # legal, though not the mapper's
