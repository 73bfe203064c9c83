"""One sharding currency: a transfer's `shard_dims` and the ShardingSpec meshc computes with convert
both ways in one place (meshc.layout.mesh), a spec lowers to the config the simulator executes
(`lower_distribution`), and a config is checked against the spec by the blocks it gives each
device (`check_config_places`), whichever form it takes.

The blocks a spec gives a device are read from `ShardingSpec.local_slices` (torch.chunk pieces,
the mesh.py model); the blocks a config gives it from `write_sharded`, which executes the config
(TT-Mesh's 2D or the ND form): two independent paths that must agree."""

import itertools

import numpy as np
import pytest

from meshc.layout.errors import LayoutError
from meshc.layout.mesh import Mesh, ShardingSpec, shard_dims_of, spec_from_shard_dims, states_shard_dims
from meshc.layout.sharded_buffer import (
    NDShardedBufferConfig,
    ShardedBufferConfig,
    check_config_places,
    lower_distribution,
    write_sharded,
)

MESHES = [(2,), (4,), (2, 4), (4, 2), (2, 2, 2)]
SHAPES = [(8,), (8, 16), (4, 8, 16), (2, 4, 8, 16)]


def _all_shard_dims(mesh, rank):
    return itertools.product(range(-1, rank), repeat=len(mesh))


@pytest.mark.parametrize("mesh", MESHES)
@pytest.mark.parametrize("rank", [1, 2, 3, 4])
def test_shard_dims_and_spec_convert_both_ways(mesh, rank):
    for dims in _all_shard_dims(mesh, rank):
        spec = spec_from_shard_dims(dims, rank, mesh)
        # mesh axis a splits tensor dim dims[a]; several axes of a dim go major (lowest) first
        for d in range(rank):
            assert spec.dims[d] == tuple(a for a in range(len(mesh)) if dims[a] == d)
        assert states_shard_dims(spec)
        assert shard_dims_of(spec) == tuple(dims)


def test_a_replicated_spec_is_all_minus_one():
    spec = ShardingSpec(Mesh((2, 4)), ((), (), ()))
    assert shard_dims_of(spec) == (-1, -1)
    assert spec_from_shard_dims((-1, -1), 3, (2, 4)) == spec


@pytest.mark.parametrize("dims, partial", [(((1, 0), ()), ()), (((0,), ()), (1,))])
def test_shard_dims_cannot_state_descending_axes_or_partial_sums(dims, partial):
    spec = ShardingSpec(Mesh((2, 4)), dims, partial)
    assert not states_shard_dims(spec)
    with pytest.raises(LayoutError, match="shard_dims cannot state"):
        shard_dims_of(spec)


def test_shard_dims_out_of_range_are_refused_with_the_axis():
    with pytest.raises(LayoutError, match=r"shard_dims entry 2 \(mesh axis 1\) is not a dim of a rank-2 tensor"):
        spec_from_shard_dims((0, 2), 2, (2, 4))
    with pytest.raises(LayoutError, match="has 3 entries for a mesh of 2 axes"):
        spec_from_shard_dims((0, 1, -1), 2, (2, 4))


@pytest.mark.parametrize("mesh", MESHES)
@pytest.mark.parametrize("shape", SHAPES)
def test_the_lowered_config_gives_every_device_the_specs_block(mesh, shape):
    x = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    for dims in _all_shard_dims(mesh, len(shape)):
        spec = spec_from_shard_dims(dims, len(shape), mesh)
        if not spec.is_even(shape):
            continue
        config = lower_distribution(shape, spec, 4)
        check_config_places(config, spec, shape, 4)
        # TT-Mesh's 2D form places shards on a mesh of at most 2 axes; a larger mesh takes the ND form
        assert len(mesh) <= 2 or isinstance(config, NDShardedBufferConfig)
        blocks = write_sharded(x, config, mesh)
        for coord in Mesh(mesh).coords():
            want = x[spec.local_slices(shape, coord)]
            assert np.array_equal(blocks[coord].reshape(want.shape), want), (dims, coord)


def test_a_config_placing_blocks_elsewhere_is_refused_at_the_first_device_it_misplaces():
    # The TT-Mesh sharding spec's Example 3: 64x64 blocks of a 128x256 tensor on a 2x4 mesh. ROW_MAJOR
    # puts block (r, c) on device (r, c), as shard_dims [0, 1] say; COL_MAJOR puts block i = (i // 4,
    # i % 4) on device (i % 2, i // 2), so device (0, 1) gets block 2 at x = 128, not block 1 at x = 64.
    spec = spec_from_shard_dims((0, 1), 2, (2, 4))
    row = ShardedBufferConfig(128 * 256 * 4, (64, 64), (256, 128), "row_major")
    check_config_places(row, spec, (128, 256), 4)
    col = ShardedBufferConfig(128 * 256 * 4, (64, 64), (256, 128), "col_major")
    with pytest.raises(LayoutError, match=r"device \(0, 1\) the block at \[0, 128\] .* gives it the block at "
                                          r"\[0, 64\] \(6 of 8 devices differ\)"):
        check_config_places(col, spec, (128, 256), 4)


def test_either_form_of_the_same_placement_passes():
    spec = spec_from_shard_dims((0, 1), 2, (2, 4))
    nd = NDShardedBufferConfig(128 * 256 * 4, (128, 256), (64, 64), (2, 4), ((0,), (1,)))
    check_config_places(nd, spec, (128, 256), 4)
    other = spec_from_shard_dims((1, 0), 2, (2, 4))
    with pytest.raises(LayoutError, match="per-device shape|gives device"):
        check_config_places(nd, other, (128, 256), 4)
