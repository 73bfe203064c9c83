"""The TT-Mesh sharding spec's test plan: a sweep of random valid mapper configs and an adversarial set of invalid ones.

Sweep: for every config the pieces from `distribute` must equal pieces cut here independently,
the TTNN way (np.split along the mapper's dims, row chunks then column chunks); `write_sharded`
with the lowered config (the faithful 2D one when the TT-Mesh sharding spec's rule allows it, and always the ND
one) must give every device exactly its piece flattened to 2D; reading back must give the tensor.
Adversarial: invalid configs raise UnsupportedSharding or a LayoutError (a ValueError) with a
message, never anything else; whatever the 2D form refuses, the ND form does.
"""

import math

import numpy as np
import pytest

from meshc.layout import (
    ConcatMesh2dToTensor,
    ConcatMeshToTensor,
    LayoutError,
    ReplicateTensorToMesh,
    ShardedBufferConfig,
    ShardTensor2dMesh,
    ShardTensorToMesh,
    UnsupportedSharding,
    aggregate,
    distribute,
    lower_mesh_mapper,
    lower_mesh_mapper_nd,
    read_sharded,
    write_sharded,
)
from meshc.layout.mesh_mappers import ConcatMeshNdToTensor, ShardTensorNdMesh

from helpers_distribution import reference_pieces

MESHES = [(1, 2), (2, 4), (8, 4), (4, 8), (2, 2, 2)]
CHUNKS = 10
PER_CHUNK = 220  # 2,200 configs in all


def per_axis_of(mapper, mesh, rank):
    if isinstance(mapper, ShardTensorToMesh):
        return "flat", mapper.dim % rank
    if isinstance(mapper, ReplicateTensorToMesh):
        return "axes", [None] * len(mesh)
    return "axes", list(mapper.dims)


def expected_pieces(t, mesh, mapper):
    kind, v = per_axis_of(mapper, mesh, t.ndim)
    if kind == "flat":  # ShardTensorToMesh: one split over all devices, in device order
        return np.split(t, math.prod(mesh), axis=v)
    return reference_pieces(t, mesh, v)


def seed_rule_supports(shape, mesh, mapper):
    """The TT-Mesh sharding spec's rule, stated independently: the 2D buffer (x, b*z*y) can shard an outer dim only
    when every dim outside it is 1 on each device (1, or split into single indices)."""
    if len(mesh) > 2:
        return False
    kind, v = per_axis_of(mapper, mesh, len(shape))
    pieces = [1] * len(shape)
    if kind == "flat":
        pieces[v] = math.prod(mesh)
    else:
        for n, d in zip(mesh, v):
            if d is not None:
                pieces[d] *= n
    outer = [d for d in range(len(shape) - 1) if pieces[d] > 1]
    return not outer or all(shape[d] // pieces[d] == 1 for d in range(max(outer)))


def random_config(rng):
    mesh = MESHES[rng.integers(len(MESHES))]
    rank = int(rng.integers(1, 5))
    kind = rng.choice(["flat", "2d", "replicate"], p=[0.35, 0.55, 0.10])
    if kind == "flat":
        mapper = ShardTensorToMesh(int(rng.integers(-rank, rank)))
    elif kind == "replicate":
        mapper = ReplicateTensorToMesh()
    else:
        # TTNN's ND mappers take each tensor dim once ("dims must be unique"; test_mesh_mappers)
        free = list(rng.permutation(rank))
        dims = tuple(None if rng.random() < 0.25 or not free else int(free.pop()) for _ in mesh)
        mapper = ShardTensor2dMesh(dims) if len(mesh) == 2 else ShardTensorNdMesh(dims)
    pieces = [1] * rank
    _, v = per_axis_of(mapper, mesh, rank)
    if isinstance(mapper, ShardTensorToMesh):
        pieces[v] = math.prod(mesh)
    else:
        for n, d in zip(mesh, v):
            if d is not None:
                pieces[d] *= n
    # sizes: a multiple of the piece count; outer dims often 1 so the 2D form applies half the time
    shape = []
    for d in range(rank):
        mult = 1 if (d < rank - 1 and rng.random() < 0.5) else int(rng.integers(1, 4))
        shape.append(pieces[d] * mult)
    dtype = [np.float32, np.int16, np.uint8, np.float64][rng.integers(4)]
    t = (rng.random(shape) * 100).astype(dtype)
    return mesh, mapper, t


def composer_for(mapper, mesh, rank):
    kind, v = per_axis_of(mapper, mesh, rank)
    if kind == "flat":
        return ConcatMeshToTensor(v)
    return ConcatMesh2dToTensor(tuple(v)) if len(mesh) == 2 else ConcatMeshNdToTensor(tuple(v))


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_sweep(chunk):
    rng = np.random.default_rng(1000 + chunk)
    faithful = 0
    for _ in range(PER_CHUNK):
        mesh, mapper, t = random_config(rng)
        coords = list(np.ndindex(*mesh))
        want = dict(zip(coords, expected_pieces(t, mesh, mapper)))
        got = distribute(t, mesh, mapper)
        assert got.keys() == want.keys()
        for c in coords:
            assert got[c].dtype == t.dtype and np.array_equal(got[c], want[c]), (mesh, mapper, t.shape, c)
        assert np.array_equal(aggregate(got, mesh, composer_for(mapper, mesh, t.ndim)), t)

        flat = {c: w.reshape(-1, w.shape[-1]) for c, w in want.items()}
        nd = lower_mesh_mapper_nd(t.shape, mesh, mapper, t.itemsize)
        buffers = write_sharded(t, nd, mesh)
        assert buffers.keys() == flat.keys()
        for c in coords:
            assert np.array_equal(buffers[c], flat[c]), (mesh, mapper, t.shape, c, nd)
        assert np.array_equal(read_sharded(buffers, nd, mesh), t)

        if seed_rule_supports(t.shape, mesh, mapper):
            cfg = lower_mesh_mapper(t.shape, mesh, mapper, t.itemsize)
            assert cfg.global_buffer_shape == (t.shape[-1], t.size // t.shape[-1])
            assert cfg.global_buffer_size == t.nbytes
            buffers = write_sharded(t, cfg, mesh)
            assert buffers.keys() == flat.keys()
            for c in coords:
                assert np.array_equal(buffers[c], flat[c]), (mesh, mapper, t.shape, c, cfg)
            if 0 not in cfg.shard_shape:
                assert np.array_equal(read_sharded(buffers, cfg, mesh, t.shape), t)
            faithful += 1
        else:
            with pytest.raises(UnsupportedSharding):
                lower_mesh_mapper(t.shape, mesh, mapper, t.itemsize)
    # the 2D (faithful) form must carry a good share of the sweep, not only the ND form
    assert faithful >= PER_CHUNK // 3


# ---- adversarial -----------------------------------------------------------------------------

def adversarial_case(rng):
    """One invalid config and the exception type it must raise."""
    kind = rng.integers(6)
    if kind == 0:  # the TT-Mesh sharding spec's ND case: y sharded with b or z > 1 (4D tensor)
        b, z = (int(rng.integers(2, 4)), 1) if rng.random() < 0.5 else (1, int(rng.integers(2, 4)))
        mapper = ShardTensor2dMesh((2, None)) if rng.random() < 0.5 else ShardTensor2dMesh((None, 2))
        return (b, z, 8 * int(rng.integers(1, 3)), 8), (2, 4), mapper, UnsupportedSharding
    if kind == 1:  # the TT-Mesh sharding spec's ND case: z sharded with b > 1
        b = int(rng.integers(2, 5))
        mapper = [ShardTensor2dMesh((1, None)), ShardTensor2dMesh((None, 1)), ShardTensorToMesh(1)][rng.integers(3)]
        return (b, 8, 4, 4), (2, 4), mapper, UnsupportedSharding
    if kind == 2:  # a non-dividing shape
        dim = int(rng.integers(3))
        shape = [8, 8, 8]
        shape[dim] = int(rng.choice([3, 5, 7, 9, 10]))
        return tuple(shape), (2, 4), ShardTensorToMesh(dim), LayoutError
    if kind == 3:  # the 2D form on a 3D mesh
        return (8, 8), (2, 2, 2), ShardTensorToMesh(0), UnsupportedSharding
    if kind == 4:  # a dim out of range
        return (4, 4), (2, 4), ShardTensor2dMesh((5, None)), LayoutError
    return (4, 4), (2, 2, 2), ShardTensor2dMesh((0, 1)), LayoutError  # a 2D mapper on a 3D mesh


@pytest.mark.parametrize("seed", range(4))
def test_adversarial_lowering(seed):
    rng = np.random.default_rng(seed)
    for _ in range(60):
        shape, mesh, mapper, expected = adversarial_case(rng)
        try:
            lower_mesh_mapper(shape, mesh, mapper, 2)
        except expected as e:
            assert len(str(e)) > 40
        else:
            pytest.fail(f"{mapper} of {shape} on {mesh} lowered without an error")
        if expected is UnsupportedSharding:
            # the ND form takes every case the faithful one refuses, and writes the right pieces
            t = rng.integers(0, 1000, shape).astype(np.int32)
            nd = lower_mesh_mapper_nd(shape, mesh, mapper, 4)
            buffers = write_sharded(t, nd, mesh)
            for c, piece in zip(np.ndindex(*mesh), expected_pieces(t, mesh, mapper)):
                assert np.array_equal(buffers[c], piece.reshape(-1, piece.shape[-1]))


def test_adversarial_seed_messages_say_what_works():
    with pytest.raises(UnsupportedSharding) as e:
        lower_mesh_mapper((2, 3, 32, 64), (2, 4), ShardTensor2dMesh((2, None)), 2)
    msg = str(e.value)
    assert "dim 2 (y)" in msg and "b = z = 1" in msg and "Transpose" in msg and "lower_mesh_mapper_nd" in msg
    with pytest.raises(LayoutError) as e:
        lower_mesh_mapper((10, 8), (2, 4), ShardTensorToMesh(0), 2)
    assert "dim 0 of size 10" in str(e.value) and "[2, 2, 2, 2, 2, 0, 0, 0]" in str(e.value)


def test_adversarial_raw_configs():
    rng = np.random.default_rng(7)
    for _ in range(100):
        gx, gy = int(rng.integers(1, 5)) * 8, int(rng.integers(1, 5)) * 8
        kind = rng.integers(4)
        try:
            if kind == 0:  # more shards than devices
                cfg = ShardedBufferConfig(gx * gy, (gx // 8, gy // 8), (gx, gy), "row_major")
                write_sharded(np.zeros((gy, gx), np.uint8), cfg, (2, 2))
            elif kind == 1:  # a shard that does not divide the buffer
                ShardedBufferConfig(gx * gy, (gx + 1, 8), (gx, gy))
            elif kind == 2:  # a bad orientation
                ShardedBufferConfig(gx * gy, (8, 8), (gx, gy), "diagonal")
            else:  # a tensor that does not match the config
                cfg = ShardedBufferConfig(gx * gy * 2, (8, 8), (gx, gy))
                write_sharded(np.zeros((gy, gx), np.uint8), cfg, (8, 8))
        except LayoutError as e:
            assert str(e)
        else:
            pytest.fail(f"raw config case {kind} was accepted")
