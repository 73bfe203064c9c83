"""Adding a collective: the registry entry (meshc/layout/collectives.py), its ttir and ttnn op
classes (meshc/dialects/ttir/collectives.py, meshc/dialects/ttnn/collectives.py) and, for a kind that moves
data, its traffic on the links (meshc/sim/collectives.py RUNS) are all it takes; everything
else derives from the registry (docs/contracts.md). This builds a toy kind, `all_broadcast`
(every device of a group gets the first one's tensor), the way those four files would, and
checks that the derived tables and checks pick it up without any other edit."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import IntegerAttr, StringAttr, f32, i64
from xdsl.dialects.test import TestOp as _ValuesOp
from xdsl.irdl import irdl_op_definition

from meshc.dialects import ttir, ttmetal, ttnn
from meshc.dialects.ttir.base import CollectiveBase
from meshc.dialects.ttir.collectives import collective_op_table
from meshc.interp.runtime import SimRuntime
from meshc.interp.ttir import golden_collective
from meshc.interp.ttnn import run_collective
from meshc.layout import collectives as registry
from meshc.layout.collectives import COLLECTIVES, Collective, groups
from meshc.passes.convert_ttir_to_ttmetal import lowers_to_ccl
from meshc.sim import collectives as sim_collectives
from meshc.sim.machine import Machine


# 1. the registry entry: attributes, numpy meaning, placement meaning
def _broadcast(local, args):
    return [local[0]] * len(local)


TOY = Collective("all_broadcast", (), True, False, False, True,
                 registry._each_group(_broadcast), lambda placement, args: placement)


# 2. the ttir and 3. the ttnn op (the shape rule: the result is the operand's shape)
@irdl_op_definition
class AllBroadcastOp(CollectiveBase):
    name = "ttir.all_broadcast"


@irdl_op_definition
class TTNNAllBroadcastOp(CollectiveBase):
    name = "ttnn.all_broadcast"


# 4. the simulator's traffic: the first device of each group sends its tensor to the others
def _sim_broadcast(coll, vals, args):
    out = list(vals)
    for g in groups(coll.m.mesh_shape, args.axis):
        for d in g[1:]:
            coll._send(coll.m.devices[g[0]], coll.m.devices[d], vals[g[0]])
            out[d] = coll._copy(vals[g[0]])
    return out


@pytest.fixture
def toy_kind(monkeypatch):
    monkeypatch.setitem(COLLECTIVES, "all_broadcast", TOY)
    monkeypatch.setitem(sim_collectives.RUNS, "all_broadcast", _sim_broadcast)


def _op(cls=AllBroadcastOp, axis=1):
    return cls.create(attributes={"cluster_axis": IntegerAttr(axis, i64)})


def test_the_op_tables_take_the_new_op(toy_kind):
    for dialect, cls in ((ttir.TTIR, AllBroadcastOp), (ttnn.TTNN, TTNNAllBroadcastOp)):
        table = collective_op_table((*dialect.operations, cls), dialect.name)
        assert table["all_broadcast"] is cls
        assert set(table) == set(COLLECTIVES)
        with pytest.raises(AssertionError, match="all_broadcast"):  # a registry kind without its op
            collective_op_table(tuple(dialect.operations), dialect.name)


def test_enqueue_ccl_and_the_ttmetal_lowering_take_the_new_kind(toy_kind):
    buffer = ttmetal.BufferType((2, 3), f32)
    buffers = _ValuesOp(result_types=[buffer, buffer]).results
    op = ttmetal.EnqueueCclOp.create(operands=buffers, attributes={"kind": StringAttr("all_broadcast"),
                                                                   "cluster_axis": IntegerAttr(0, i64)})
    op.verify_()
    assert lowers_to_ccl("ttir.all_broadcast")
    missing = ttmetal.EnqueueCclOp.create(operands=buffers, attributes={"kind": StringAttr("all_broadcast")})
    with pytest.raises(Exception, match="cluster_axis"):
        missing.verify_()


def test_golden_and_simulator_run_the_new_kind(toy_kind):
    mesh = (2, 4)
    vals = [np.full((2, 3), i, np.float32) for i in range(8)]
    want = [np.full((2, 3), (i // 4) * 4, np.float32) for i in range(8)]  # row leader's value
    golden = golden_collective("all_broadcast", _op(), vals, mesh)
    assert all(np.array_equal(g, w) for g, w in zip(golden, want))
    machine = Machine("t3k", mesh)
    got = run_collective(SimRuntime(machine), _op(TTNNAllBroadcastOp), "all_broadcast", vals, "f32")
    assert all(np.array_equal(g, w) for g, w in zip(got, want))
    # 2 rows x 3 receivers x 2*3 f32 elements (24 B) crossed at least one link each
    assert machine.traffic.link_bytes >= 2 * 3 * 24


def test_every_kind_that_moves_data_has_its_simulator_run():
    assert set(sim_collectives.RUNS) == {k for k, c in COLLECTIVES.items() if c.moves_data}
