"""Uneven splits held padded (issue 23), in the placement model: `ShardingSpec.buffer_shape`,
the padding it costs, `execute_plan` on padded buffers, and the sharding rules that let an
elementwise op compute on padded pieces while every other op's factors split only evenly.
Every expected piece is cut by hand (torch.chunk: pieces of ceil(n / k), the last shorter or
empty) or computed by numpy on the whole tensor."""

from __future__ import annotations

import numpy as np
import pytest

from meshc.layout.mesh import Mesh, ShardingSpec
from meshc.layout.reshard import execute_plan, plan_reshard
from meshc.layout.sharding_rules import OpInfo, replicated, rule_for
from meshc.layout.sharding_spec import from_global, to_global

MESH = Mesh((2, 4))
XY = ShardingSpec(MESH, ((0,), (1,)))  # [S0, S1]
YX = ShardingSpec(MESH, ((1,), (0,)))  # [S1, S0]


def test_buffer_shape_is_ceil_and_padding_is_what_the_pieces_leave():
    # 8x10 on [S0, S1]: rows 4 a device, columns 3, 3, 3, 1 along a mesh row
    assert XY.buffer_shape((8, 10)) == (4, 3)
    assert [XY.local_shape((8, 10), (0, c)) for c in range(4)] == [(4, 3), (4, 3), (4, 3), (4, 1)]
    # 8 buffers of 12 hold 80 elements: 16 of padding (two columns of 4 on each of 2 devices)
    assert XY.padding_elements((8, 10)) == 8 * 12 - 80 == 2 * 2 * 4
    # 3 columns in 4 pieces: 1, 1, 1 and an empty one (a buffer of 1, all padding)
    spec = ShardingSpec(MESH, ((), (1,)))
    assert spec.buffer_shape((8, 3)) == (8, 1)
    assert spec.local_shape((8, 3), (1, 3)) == (8, 0)
    assert spec.padding_elements((8, 3)) == 2 * 8
    assert ShardingSpec(MESH, ((0,), ())).padding_elements((8, 10)) == 0  # even


def _buffers(x, spec):
    """Every device's buffer cut by hand: its torch.chunk piece, zero-padded at the end."""
    out = []
    for c in spec.mesh.coords():
        piece = x[spec.local_slices(x.shape, c)]
        out.append(np.pad(piece, [(0, b - n) for n, b in zip(piece.shape, spec.buffer_shape(x.shape))]))
    return out


@pytest.mark.parametrize("src, tgt, shape", [
    (XY, YX, (6, 10)),                                        # uneven both sides, other piece counts
    (XY, replicated(MESH, 2), (8, 10)),                       # gather an uneven split
    (replicated(MESH, 2), XY, (8, 10)),                       # slice: nothing moves
    (ShardingSpec(MESH, ((), (1,))), ShardingSpec(MESH, ((1,), ())), (5, 3)),
])
def test_execute_plan_on_padded_buffers(src, tgt, shape):
    x = np.arange(np.prod(shape), dtype=np.float32).reshape(shape) + 1
    plan = plan_reshard(shape, "f32", src, tgt)
    # padding holds garbage (-1): it must never be read
    garbage = [b.copy() for b in _buffers(x, src)]
    for b, c in zip(garbage, src.mesh.coords()):
        real = src.local_shape(shape, c)
        mask = np.ones(b.shape, bool)
        mask[tuple(slice(0, n) for n in real)] = False
        b[mask] = -1
    out = execute_plan(plan, garbage, padded=True)
    want = _buffers(x, tgt)
    for o, w in zip(out, want):
        np.testing.assert_array_equal(o, w)  # each piece in place, zeros after it
    # the plan sends real elements only: the lower bound, counted by hand as the elements of
    # every device's target piece it does not hold in the source
    held = 0
    for c in MESH.coords():
        s, t = src.local_bounds(shape, c), tgt.local_bounds(shape, c)
        held += np.prod([max(0, min(a1, b1) - max(a0, b0)) for (a0, a1), (b0, b1) in zip(s, t)])
    need = sum(np.prod(tgt.local_shape(shape, c)) for c in MESH.coords())
    assert plan.delivered_bytes == plan.lower_bound_bytes == 4 * (need - held)


def test_an_elementwise_op_on_padded_pieces_is_the_op():
    # multiply of 6x10 tensors, [S1, S0]: rows 2, 2, 2, 0 and columns 5, 5; a buffer of 2x5
    rule = rule_for(OpInfo("multiply", ((6, 10), (6, 10)), ((6, 10),)))
    (res,) = rule.propose(0, YX)
    assert res == YX and rule.require((YX,)) == (YX, YX)
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((6, 10)), rng.standard_normal((6, 10))
    out = [x * y for x, y in zip(_buffers(a, YX), _buffers(b, YX))]  # each device on its buffer
    pieces = {c: o[tuple(slice(0, n) for n in YX.local_shape((6, 10), c))] for c, o in zip(MESH.coords(), out)}
    np.testing.assert_array_equal(to_global(pieces, YX), a * b)
    assert from_global(a, YX)[(0, 3)].shape == (0, 5)  # rows piece 3 (mesh column 3) is empty


def test_a_matmul_on_padded_rows_is_the_matmul():
    # 10 rows of a over mesh axis 1 (3, 3, 3, 1), columns of b over axis 0 (8 in 2): [S1, S0]
    rule = rule_for(OpInfo("matmul", ((10, 16), (16, 8)), ((10, 8),)))
    spec_a, spec_b = ShardingSpec(MESH, ((1,), ())), ShardingSpec(MESH, ((), (0,)))
    (res,) = rule.merge({0: spec_a, 1: spec_b})
    assert res == YX and rule.require((YX,)) == (spec_a, spec_b)
    rng = np.random.default_rng(1)
    a, b = rng.standard_normal((10, 16)), rng.standard_normal((16, 8))
    out = [x @ y for x, y in zip(_buffers(a, spec_a), _buffers(b, spec_b))]
    assert out[0].shape == YX.buffer_shape((10, 8)) == (3, 4)
    pieces = {c: o[tuple(slice(0, n) for n in YX.local_shape((10, 8), c))] for c, o in zip(MESH.coords(), out)}
    np.testing.assert_allclose(to_global(pieces, YX), a @ b, rtol=1e-12)
    # K of 10 in 4 would sum padding: it stays whole
    k = rule_for(OpInfo("matmul", ((8, 10), (10, 8)), ((8, 8),)))
    assert k.propose(0, ShardingSpec(MESH, ((), (1,)))) == (replicated(MESH, 2),)


def test_other_factors_split_only_evenly():
    rows = ShardingSpec(MESH, ((1,), ()))  # 6 rows in 4
    # a sum over the uneven dim would add padding; a softmax row needs its row whole
    s = rule_for(OpInfo("sum", ((6, 16),), ((16,),), {"dims": (0,), "keep_dim": False}))
    assert s.propose(0, rows) == (replicated(MESH, 1),)
    # a reshape relates dims of different sizes (6 rows -> 96 elements): 2-row buffers of 6
    # rows in 4 are not 24-element pieces of 96
    r = rule_for(OpInfo("reshape", ((6, 16),), ((96,),), {"result_shape": (96,)}))
    assert r.propose(0, rows) == (replicated(MESH, 1),)
    assert r.require((ShardingSpec(MESH, ((1,),)),)) is None
    # broadcasting: a (1, 10) operand is not split, the (6, 10) result may be
    add = rule_for(OpInfo("add", ((6, 10), (1, 10)), ((6, 10),)))
    assert add.require((rows,)) == (rows, replicated(MESH, 2))
