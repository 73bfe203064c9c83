"""Parity: the distribution strategies real models use, each lowered to TT-Mesh's 2D
ShardedBufferConfig and checked by writing random data and reading every device's shard back,
or refused with the documented limitation (and then carried by the ND form). One test per row of
the parity table in docs/distribution.md; the model math (matmuls, partial sums) is checked
against numpy on the whole tensors.
"""

import numpy as np
import pytest

from meshc.layout import (
    ConcatMeshToTensor,
    ReplicateTensorToMesh,
    ShardTensor2dMesh,
    ShardTensorToMesh,
    UnsupportedSharding,
    aggregate,
    distribute,
    lower_mesh_mapper,
    lower_mesh_mapper_nd,
    parse_spec,
    read_sharded,
    to_global,
    write_sharded,
)

from helpers_distribution import reference_pieces

T3K = (2, 4)
GALAXY = (8, 4)
RNG = np.random.default_rng(2024)


def rand(*shape):
    return RNG.integers(-8, 8, shape).astype(np.int32)


def pieces_2d(t, mesh, per_axis):
    """Reference pieces by device coordinate: split along mesh axis 0's dim, then axis 1's."""
    return dict(zip(np.ndindex(*mesh), reference_pieces(t, mesh, per_axis)))


def check_faithful(t, mesh, mapper, reference):
    """Lower to the 2D config, write, and compare every device buffer with the reference piece."""
    cfg = lower_mesh_mapper(t.shape, mesh, mapper, t.itemsize)
    buffers = write_sharded(t, cfg, mesh)
    assert buffers.keys() == reference.keys()
    for c, piece in reference.items():
        assert np.array_equal(buffers[c], piece.reshape(-1, piece.shape[-1])), c
    if 0 not in cfg.shard_shape:
        assert np.array_equal(read_sharded(buffers, cfg, mesh, t.shape), t)
    return cfg


def check_limitation(t, mesh, mapper, reference, reason):
    """The 2D form refuses with the documented reason; the ND form carries the same placement."""
    with pytest.raises(UnsupportedSharding, match=reason):
        lower_mesh_mapper(t.shape, mesh, mapper, t.itemsize)
    nd = lower_mesh_mapper_nd(t.shape, mesh, mapper, t.itemsize)
    buffers = write_sharded(t, nd, mesh)
    for c, piece in reference.items():
        assert np.array_equal(buffers[c], piece.reshape(-1, piece.shape[-1])), c


def test_parity_data_parallel_batch():
    x = rand(8, 32, 64)  # [batch, seq, hidden], one batch element a device
    cfg = check_faithful(x, T3K, ShardTensorToMesh(0), dict(zip(np.ndindex(*T3K), np.split(x, 8))))
    assert cfg.shard_shape == (64, 32) and cfg.mesh_shard_orientation == "row_major"


def test_parity_data_parallel_4d_batch_over_columns():
    x = rand(4, 1, 32, 64)  # [b, 1, s, h], batch over the 4 columns, replicated down the rows
    cfg = check_faithful(x, T3K, ShardTensor2dMesh((None, 0)), pieces_2d(x, T3K, (None, 0)))
    assert cfg.shard_shape == (0, 32)


def test_parity_column_parallel_linear():
    x, w = rand(16, 32), rand(32, 64)  # y = x @ w, w split by output columns
    check_faithful(x, T3K, ReplicateTensorToMesh(), pieces_2d(x, T3K, (None, None)))
    check_faithful(w, T3K, ShardTensorToMesh(-1), dict(zip(np.ndindex(*T3K), np.split(w, 8, axis=1))))
    xs, ws = distribute(x, T3K, ReplicateTensorToMesh()), distribute(w, T3K, ShardTensorToMesh(-1))
    ys = {c: xs[c] @ ws[c] for c in xs}
    assert np.array_equal(aggregate(ys, T3K, ConcatMeshToTensor(-1)), x @ w)


def test_parity_row_parallel_linear():
    x, w = rand(16, 32), rand(32, 64)  # w split by input rows, x by its last dim: partial sums
    check_faithful(w, T3K, ShardTensorToMesh(0), dict(zip(np.ndindex(*T3K), np.split(w, 8, axis=0))))
    check_faithful(x, T3K, ShardTensorToMesh(-1), dict(zip(np.ndindex(*T3K), np.split(x, 8, axis=1))))
    xs, ws = distribute(x, T3K, ShardTensorToMesh(-1)), distribute(w, T3K, ShardTensorToMesh(0))
    partial = {c: xs[c] @ ws[c] for c in xs}
    assert np.array_equal(to_global(partial, parse_spec("[R, R] P(0, 1)", T3K)), x @ w)


@pytest.mark.parametrize("dims", [(3, 2), (2, 3)])
def test_parity_galaxy_2d_weight(dims):
    # Llama-style 2D weight sharding on an 8x4 Galaxy: w [1, 1, K, N] with K and N over the two axes
    x, w = rand(1, 1, 8, 64), rand(1, 1, 64, 128)
    cfg = check_faithful(w, GALAXY, ShardTensor2dMesh(dims), pieces_2d(w, GALAXY, dims))
    assert cfg.mesh_shard_orientation == ("col_major" if dims == (3, 2) else "row_major")
    if dims == (3, 2):  # N over rows, K over columns: x split on K over columns, partial over columns
        ws = distribute(w, GALAXY, ShardTensor2dMesh(dims))
        xs = distribute(x, GALAXY, ShardTensor2dMesh((None, 3)))
        ys = {c: xs[c] @ ws[c] for c in ws}
        assert np.array_equal(to_global(ys, parse_spec("[R, R, R, S0] P1", GALAXY)), x @ w)


def test_parity_sequence_parallel_single_batch():
    x = rand(1, 64, 32)  # [1, seq, hidden], seq over every device: z = 1, so the 2D form works
    check_faithful(x, GALAXY, ShardTensorToMesh(1), dict(zip(np.ndindex(*GALAXY), np.split(x, 32, axis=1))))


def test_parity_sequence_parallel_batched_is_a_limitation():
    x = rand(2, 64, 32)  # [batch, seq, hidden] with batch 2: y sharding with z > 1
    check_limitation(x, T3K, ShardTensorToMesh(1), dict(zip(np.ndindex(*T3K), np.split(x, 8, axis=1))),
                     "shards y only when b = z = 1")


def test_parity_heads_with_batch_is_a_limitation():
    x = rand(2, 8, 16, 32)  # [b, heads, s, d], heads over devices with b = 2: z sharding with b > 1
    check_limitation(x, T3K, ShardTensorToMesh(1), dict(zip(np.ndindex(*T3K), np.split(x, 8, axis=1))),
                     "z only when b = 1")


def test_parity_expert_parallel_weights():
    w = rand(8, 32, 64)  # [experts, K, N], one expert a device (the MoE resharding notes' EP=8)
    cfg = check_faithful(w, (1, 8), ShardTensorToMesh(0), dict(zip(np.ndindex(1, 8), np.split(w, 8))))
    assert cfg.shard_shape == (64, 32)


def test_parity_expert_parallel_dispatch_on_attention_mesh_is_a_limitation():
    # the MoE resharding notes' dispatched tokens [E=8, B/DP, C=1, M/TP] live on the 3-axis mesh [DP, CP, TP]
    mesh = (2, 2, 2)
    spec = parse_spec("[E, B/DP, C=1, M/TP] on [DP=2, CP=2, TP=2]")
    t = rand(8, 2, 1, 4)
    want = {c: t[:, c[0]:c[0] + 1, :, 2 * c[2]:2 * c[2] + 2] for c in np.ndindex(*mesh)}
    with pytest.raises(UnsupportedSharding, match="3 axes"):
        lower_mesh_mapper(t.shape, mesh, spec, 4)
    nd = lower_mesh_mapper_nd(t.shape, mesh, spec, 4)
    buffers = write_sharded(t, nd, mesh)
    for c, piece in want.items():
        assert np.array_equal(buffers[c], piece.reshape(-1, 2))


def test_parity_replicated_weights():
    g = rand(1, 1, 1, 64)  # a norm's gamma on every device
    cfg = check_faithful(g, GALAXY, ReplicateTensorToMesh(), pieces_2d(g, GALAXY, (None, None)))
    assert cfg.shard_shape == (0, 0)
