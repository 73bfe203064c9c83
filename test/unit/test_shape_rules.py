"""Shape rules of the ttir/ttnn ops against numpy and hand-derived values."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.utils.exceptions import VerifyException

from meshc.dialects import shape_rules as r

dims = st.lists(st.sampled_from([1, 2, 3, 4]), min_size=0, max_size=4)


@settings(max_examples=200, deadline=None)
@given(dims, dims)
def test_broadcast_matches_numpy(a, b):
    try:
        expected = np.broadcast_shapes(tuple(a), tuple(b))
    except ValueError:
        with pytest.raises(VerifyException, match="do not broadcast"):
            r.broadcast_shapes(tuple(a), tuple(b))
        return
    assert r.broadcast_shapes(tuple(a), tuple(b)) == expected


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 3), st.integers(1, 3), st.integers(1, 3), st.booleans(), st.booleans(), st.sampled_from([(), (2,), (1, 3)]))
def test_matmul_matches_numpy(m, k, n, ta, tb, batch):
    a = np.zeros(batch + ((k, m) if ta else (m, k)))
    b = np.zeros(((n, k) if tb else (k, n)))
    aa = np.swapaxes(a, -1, -2) if ta else a
    bb = b.T if tb else b
    assert r.matmul_shape(a.shape, b.shape, ta, tb) == (aa @ bb).shape


def test_matmul_names_both_k():
    with pytest.raises(VerifyException, match=r"a \(64, 128\) has K = 128, b \(64, 256\) has K = 64"):
        r.matmul_shape((64, 128), (64, 256), False, False)


def test_reduce_and_concat_by_hand():
    assert r.reduce_shape((2, 3, 4), (1,), True) == (2, 1, 4)
    assert r.reduce_shape((2, 3, 4), (0, 2), False) == (3,)
    assert r.concat_shape([(2, 3), (5, 3)], 0) == (7, 3)
    assert r.concat_shape([(2, 3), (2, 1)], -1) == (2, 4)
    with pytest.raises(VerifyException, match="outside dim 0"):
        r.concat_shape([(2, 3), (5, 4)], 0)


def test_dim_out_of_range_names_dim_and_rank():
    with pytest.raises(VerifyException, match=r"all_gather_dim 2 is out of range for a tensor of rank 2"):
        r.normalize_dim(2, 2, "all_gather_dim")
    assert r.normalize_dim(-1, 3, "d") == 2


def test_mesh_shard_pieces_on_t3k():
    # the TT-Mesh sharding spec example 3: dims [2, 3] over the 2x4 mesh: y in 2 pieces, x in 4 -> 64x64 a device
    pieces = r.check_mesh_shard(4, False, (1, 1, 2, 4), (2, 3), (2, 4))
    assert r.local_shape((1, 1, 128, 256), pieces) == (1, 1, 64, 64)
    # both mesh axes on one dim: 2 * 4 = 8 pieces
    assert r.check_mesh_shard(2, False, (8, 1), (0, 0), (2, 4)) == (8, 1)
    # on a known mesh the pieces are what shard_dims make of it, as tt-mlir's conversion to TTNN
    # reads them: shard_shape [2, 2] (not the 2x4 mesh's) does not change them
    assert r.check_mesh_shard(2, False, (2, 2), (0, 1), (2, 4)) == (2, 4)
    # tt-mlir's simple_add_1x2: shard_shape [2, 4] on a 1x2 mesh: dim 0 in 1 piece, dim 1 in 2
    assert r.check_mesh_shard(2, False, (2, 4), (0, 1), (1, 2)) == (1, 2)
    # while the mesh is unknown, shard_shape says
    assert r.check_mesh_shard(2, False, (2, 4), (0, 1), None) == (2, 4)
    with pytest.raises(VerifyException, match="does not split into 4 equal pieces"):
        r.check_even_split((64, 6), r.check_mesh_shard(2, False, (2, 4), (0, 1), (2, 4)))


def test_permute_pairs():
    r.check_permute_pairs([(0, 1), (1, 0)], 2)
    with pytest.raises(VerifyException, match="target of more than one pair"):
        r.check_permute_pairs([(0, 1), (2, 1)], 4)
    with pytest.raises(VerifyException, match="not on the mesh of 2 devices"):
        r.check_permute_pairs([(0, 2)], 2)
