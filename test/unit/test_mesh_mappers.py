"""TTNN mesh mappers and composers: what each device gets (hand-derived), torch.chunk evenness
and the padded mode, composers as TTNN composes, and mappers <-> sharding specs."""

import numpy as np
import pytest

from meshc.layout import (
    ConcatMesh2dToTensor,
    ConcatMeshToTensor,
    LayoutError,
    Mesh,
    ReplicateTensorToMesh,
    ShardingSpec,
    ShardTensor2dMesh,
    ShardTensorToMesh,
    aggregate,
    distribute,
    mapper_from_spec,
    parse_spec,
)
from meshc.layout.mesh_mappers import ConcatMeshNdToTensor, ShardTensorNdMesh


def test_shard_tensor_to_mesh_uses_row_major_device_order():
    t = np.arange(8 * 3).reshape(8, 3)
    shards = distribute(t, (2, 4), ShardTensorToMesh(0))
    # device (r, c) is device r * 4 + c and gets row r * 4 + c
    for r in range(2):
        for c in range(4):
            assert shards[(r, c)].tolist() == [t[r * 4 + c].tolist()]


def test_shard_2d_rows_then_columns():
    t = np.arange(4 * 8).reshape(4, 8)
    shards = distribute(t, (2, 4), ShardTensor2dMesh(dims=(0, 1)))
    assert shards[(1, 2)].tolist() == [[20, 21], [28, 29]]  # rows 2-3, columns 4-5
    shards = distribute(t, (2, 4), ShardTensor2dMesh(dims=(1, 0)))
    assert shards[(1, 2)].tolist() == [[20, 21, 22, 23]]  # columns 4-7 (axis 0 = 1) of row 2 (axis 1 = 2)


def test_shard_2d_none_replicates():
    t = np.arange(4 * 2).reshape(4, 2)
    shards = distribute(t, (2, 4), ShardTensor2dMesh(dims=(None, 0)))
    for c in range(4):
        assert shards[(0, c)].tolist() == shards[(1, c)].tolist() == [t[c].tolist()]


def test_replicate():
    t = np.arange(6).reshape(2, 3)
    shards = distribute(t, (2, 2, 2), ReplicateTensorToMesh())
    assert len(shards) == 8 and all(np.array_equal(s, t) for s in shards.values())


def test_same_dim_twice_is_refused_as_ttnn_does():
    # ttnn 0.81.1: create_mesh_mapper(MeshShape(2, 4), MeshMapperConfig([PlacementShard(-1),
    # PlacementShard(-1)])) + distribute_tensor of an 8x8 tensor -> TT_FATAL "dims must be unique"
    # (also for (0, -2) on a rank-2 tensor, the same dim written two ways). meshc split the dim
    # over both axes (S01) instead; S01 stays a sharding spec, and ShardTensorToMesh says it.
    t = np.arange(64).reshape(8, 8)
    for dims in [(-1, -1), (0, -2), (1, 1)]:
        with pytest.raises(LayoutError, match="dims must be unique"):
            distribute(t, (2, 4), ShardTensor2dMesh(dims=dims))
    with pytest.raises(LayoutError, match=r"tensor dim 0 is given for mesh axes 0 and 2.*S02"):
        distribute(t, (2, 2, 2), ShardTensorNdMesh((0, None, 0)))
    with pytest.raises(LayoutError, match="dims must be unique"):
        aggregate(distribute(t, (2, 2), "[S01, R]"), (2, 2), ConcatMesh2dToTensor(dims=(0, 0)))
    a = distribute(t, (2, 2), ShardTensorToMesh(0))
    b = distribute(t, (2, 2), parse_spec("[S01, R]", (2, 2)))
    assert all(np.array_equal(a[c], b[c]) for c in a) and a[(1, 0)].tolist() == t[4:6].tolist()


def test_negative_dims():
    t = np.arange(2 * 8).reshape(2, 8)
    a = distribute(t, (1, 4), ShardTensorToMesh(-1))
    assert a[(0, 3)].tolist() == [[6, 7], [14, 15]]


def test_uneven_split_is_an_error_naming_dim_and_sizes():
    with pytest.raises(LayoutError) as e:
        distribute(np.zeros((3, 10)), (2, 2), ShardTensorToMesh(1))
    msg = str(e.value)
    assert "dim 1 of size 10" in msg and "4 equal pieces" in msg and "[3, 3, 3, 1]" in msg and "pad=True" in msg


def test_padded_mode_zero_pads_and_trims():
    t = np.arange(1, 11)
    shards = distribute(t, (2, 2), ShardTensorToMesh(0, pad=True))
    assert [shards[c].tolist() for c in [(0, 0), (0, 1), (1, 0), (1, 1)]] == [[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 0, 0]]
    assert aggregate(shards, (2, 2), ConcatMeshToTensor(0), shape=(10,)).tolist() == t.tolist()
    # 5 over 4 devices: torch.chunk gives [2, 2, 1] (unequal), so pad=True pads to 8
    shards = distribute(np.arange(5), (1, 4), ShardTensorToMesh(0, pad=True))
    assert [shards[(0, c)].tolist() for c in range(4)] == [[0, 1], [2, 3], [4, 0], [0, 0]]
    # fewer elements than devices in equal pieces is TTNN's own split (below): pad=True pads nothing
    shards = distribute(np.array([5, 6]), (1, 4), ShardTensorToMesh(0, pad=True))
    assert {c: s.tolist() for c, s in shards.items()} == {(0, 0): [5], (0, 1): [6]}


# What ttnn 0.81.1 does (the PyPI wheel, host side: ttnn.create_mesh_mapper(ttnn.MeshShape(2, 4),
# ttnn.MeshMapperConfig([ttnn.PlacementShard(dim)], ttnn.MeshShape([8]))), which is how
# shard_tensor_to_mesh_mapper builds ShardTensorToMesh, then ttnn.distribute_tensor; the devices
# holding a piece are tensor_topology().mesh_coords(), the pieces get_device_tensors()). A tensor
# [8, n] of arange values, dim 1, on the 2x4 mesh:
#   n = 2  -> two [8, 1] pieces on (0, 0), (0, 1); six devices empty
#   n = 12 -> six [8, 2] pieces on (0, 0) .. (1, 1)
#   n = 1  -> one [8, 1] piece on (0, 0)
#   n = 9, 11 -> TT_FATAL "Shard shape mismatch" (torch.chunk gives unequal pieces)
#   n = 0  -> TT_FATAL "No chunks were produced"
# and with two placements (MeshMapperConfig([PlacementReplicate(), PlacementShard(1)]), i.e.
# ShardTensor2dMesh((None, 1))), n = 2 -> TT_FATAL "ND sharding requires the number of chunks 2 to
# match the mesh dimension size 4". On a 1-D mesh MeshShape([8]) with [PlacementShard(1)], n = 2
# -> two [8, 1] pieces on (0,) and (1,).
@pytest.mark.parametrize("n, devices", [(2, [(0, 0), (0, 1)]), (12, [(0, 0), (0, 1), (0, 2), (0, 3), (1, 0), (1, 1)]),
                                        (1, [(0, 0)])])
def test_fewer_pieces_than_devices_go_to_the_first_devices_as_in_ttnn(n, devices):
    t = np.arange(8 * n).reshape(8, n)
    shards = distribute(t, (2, 4), ShardTensorToMesh(1))
    assert list(shards) == devices
    width = n // len(devices)
    for i, c in enumerate(devices):
        assert shards[c].tolist() == t[:, i * width:(i + 1) * width].tolist()
    # the composer concatenates the pieces there are, as TTNN's ConcatMeshToTensor does
    assert np.array_equal(aggregate(shards, (2, 4), ConcatMeshToTensor(1)), t)
    assert np.array_equal(aggregate(list(shards.values()), (2, 4), ConcatMeshToTensor(-1)), t)


def test_fewer_pieces_on_a_1d_mesh_and_what_ttnn_refuses():
    t = np.arange(16).reshape(8, 2)
    shards = distribute(t, (8,), ShardTensorNdMesh((1,)))
    assert list(shards) == [(0,), (1,)] and shards[(1,)].tolist() == t[:, 1:].tolist()
    assert np.array_equal(aggregate(shards, (8,), ConcatMeshNdToTensor((1,))), t)
    for n in (9, 11):
        with pytest.raises(LayoutError, match="equal pieces"):
            distribute(np.zeros((8, n)), (2, 4), ShardTensorToMesh(1))
    with pytest.raises(LayoutError, match="no pieces"):
        distribute(np.zeros((8, 0)), (2, 4), ShardTensorToMesh(1))
    with pytest.raises(LayoutError, match=r"4 equal pieces \(torch.chunk gives \[1, 1, 0, 0\]\)"):
        distribute(t, (2, 4), ShardTensor2dMesh((None, 1)))
    # fewer shards than devices must be the first devices' (what a 1-D mapper leaves)
    with pytest.raises(LayoutError, match="first 2 devices"):
        aggregate({(0, 0): t[:, :1], (0, 2): t[:, 1:]}, (2, 4), ConcatMeshToTensor(1))
    with pytest.raises(LayoutError, match="fewer only for ConcatMeshToTensor"):
        aggregate({(0, 0): t, (0, 1): t}, (2, 4), ConcatMesh2dToTensor((0, 1)))


def test_concat_mesh_to_tensor_concatenates_every_device_like_ttnn():
    t = np.arange(4).reshape(2, 2)
    shards = distribute(t, (1, 2), ReplicateTensorToMesh())
    # TTNN's ConcatMeshToTensor does not know about replicas: it concatenates both copies
    assert aggregate(shards, (1, 2), ConcatMeshToTensor(0)).tolist() == [[0, 1], [2, 3], [0, 1], [2, 3]]


def test_concat_mesh_2d_to_tensor():
    t = np.arange(4 * 8).reshape(4, 8)
    shards = distribute(t, (2, 4), ShardTensor2dMesh(dims=(0, 1)))
    assert np.array_equal(aggregate(shards, (2, 4), ConcatMesh2dToTensor(dims=(0, 1))), t)
    # a composer with the dims swapped assembles a different (but well-defined) tensor
    swapped = aggregate(shards, (2, 4), ConcatMesh2dToTensor(dims=(1, 0)))
    rows = [np.concatenate([shards[(r, c)] for c in range(4)], axis=0) for r in range(2)]
    assert np.array_equal(swapped, np.concatenate(rows, axis=1))


def test_composer_none_reads_one_replica():
    t = np.arange(8).reshape(4, 2)
    shards = distribute(t, (2, 4), ShardTensor2dMesh(dims=(None, 0)))
    assert np.array_equal(aggregate(shards, (2, 4), ConcatMesh2dToTensor(dims=(None, 0))), t)


def test_mapper_spec_and_back():
    mesh = Mesh((2, 4))
    cases = [
        (ShardTensorToMesh(1), ((), (0, 1))),
        (ShardTensor2dMesh((None, 0)), ((1,), ())),
        (ShardTensor2dMesh((1, 0)), ((1,), (0,))),
        (ReplicateTensorToMesh(), ((), ())),
    ]
    for mapper, dims in cases:
        spec = mapper.spec(mesh, 2)
        assert spec == ShardingSpec(mesh, dims)
        back = mapper_from_spec(spec)
        assert back.spec(mesh, 2) == spec
    assert mapper_from_spec("[S0, S2, R]", (2, 2, 2)) == ShardTensorNdMesh((0, None, 1))


def test_specs_without_a_mapper():
    with pytest.raises(LayoutError, match="partial"):
        mapper_from_spec("[S0, R] P1", (2, 2))
    with pytest.raises(LayoutError, match="ascending"):
        mapper_from_spec("[S10, R]", (2, 2))
    with pytest.raises(LayoutError, match="several|unless"):
        mapper_from_spec("[S01, S2]", (2, 2, 2))


def test_mapper_errors():
    with pytest.raises(LayoutError, match="out of range"):
        distribute(np.zeros((2, 2)), (2,), ShardTensorToMesh(2))
    with pytest.raises(LayoutError, match="needs a 2D mesh"):
        distribute(np.zeros((2, 2)), (2, 2, 2), ShardTensor2dMesh((0, 1)))
    with pytest.raises(LayoutError, match="one entry"):
        distribute(np.zeros((2, 2)), (2, 2, 2), ShardTensorNdMesh((0, 1)))
    # not a dims tuple: a LayoutError naming what is expected, not Python's TypeError
    for bad in (lambda: ShardTensor2dMesh(None), lambda: ShardTensorNdMesh(3), lambda: ShardTensor2dMesh((0, "1")),
                lambda: ShardTensorToMesh(None), lambda: ConcatMeshToTensor("0"), lambda: ConcatMesh2dToTensor(None)):
        with pytest.raises(LayoutError, match="takes dim|entry of dims"):
            bad()


def test_distribute_returns_copies_by_default():
    t = np.zeros((4, 4))
    shards = distribute(t, (2, 2), ShardTensorToMesh(0))
    shards[(0, 0)][:] = 1
    assert t.sum() == 0
    views = distribute(t, (2, 2), ShardTensorToMesh(0), copy=False)
    assert not views[(0, 0)].flags.writeable


def test_spec_text_with_its_own_named_mesh():
    # the MoE resharding notes' dispatch layout names its mesh; the caller gives the same shape unnamed
    t = np.arange(8 * 2 * 1 * 4).reshape(8, 2, 1, 4)
    shards = distribute(t, (2, 2, 2), "[E, B/DP, C=1, M/TP] on [DP=2, CP=2, TP=2]")
    assert np.array_equal(shards[(1, 0, 1)], t[:, 1:2, :, 2:4])
    assert np.array_equal(shards[(1, 1, 1)], shards[(1, 0, 1)])  # replicated along CP
    with pytest.raises(LayoutError, match="is for mesh"):
        distribute(t, (2, 4), "[E, B/DP, C=1, M/TP] on [DP=2, CP=2, TP=2]")
