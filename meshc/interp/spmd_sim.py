"""Simulator entries of the ttnn reshard and MoE ops: point-to-point reshards and the MoE steps.

- `ttnn.point_to_point`: the moves of a fewest-bytes reshard plan. The data each device ends
  with is the plan run on the devices' tensors (`execute_plan`, which also checks that every
  sender holds what it sends); every transfer is a routed chip-to-chip move counted by
  `Machine.send` (each hop on `traffic.link`, once on `traffic.delivered` at the receiver) and
  on the NOCs of both end chips. So the delivered bytes the simulator counts are the plan's,
  i.e. the lower bound, and the link bytes are the plan's bytes times the hops of the machine.
- `ttnn.moe_route`, `ttnn.moe_dispatch`, `ttnn.moe_combine`: local compute on
  each device's own tensors through the ops' `spmd` methods (meshc/layout/moe.py: one
  implementation of the semantics); operands are read over the NOC and results written; no
  ethernet traffic, because each needs only the device's own data.
"""

from __future__ import annotations

import numpy as np

from meshc.interp.common import Distributed, element_dtype_name, shape_of
from meshc.dialects.ttnn.memory import result_placement
from meshc.interp.runtime import DEFAULT_WHERE, SimTensor, where_of
from meshc.sim.encoding import quantize


def _where(result, default):
    """(memory config, tile) of one result: its `#ttnn.ttnn_layout` (or the op's memory_config),
    else `default` (meshc.dialects.ttnn.memory.result_placement)."""
    return result_placement(result.owner, default, result.index)


def _elem_bytes(dtype: str) -> float:
    from meshc.layout.dtypes import get_dtype

    d = get_dtype(dtype)
    return d.bytes_for(32, 32) / 1024 if d.is_block_float else d.bits / 8


def spmd_sim_table(rt, located) -> dict:
    """{op class: interpreter function} for the ttnn point-to-point and MoE ops on the simulator runtime `rt`
    (meshc.interp.ttnn.SimRuntime); `located` wraps a function so errors point at the op."""
    from meshc.dialects import ttnn

    m = rt.m

    def device_inputs(op, args):
        """Per-device values of every operand (tensors read over the NOC), and the first tensor."""
        ins, first = [], None
        for a, v in zip(args, op.operands):
            t = rt.as_device(op, a, element_dtype_name(v.type))
            first = first or t
            m.count_all(t.buffer, write=False)
            ins.append(rt.local_values(t))
            if not isinstance(a, SimTensor):
                rt.release(t)
        return ins, first

    def write_results(op, results, default):
        outs = []
        for r, vals in zip(op.results, results):
            dtype = element_dtype_name(r.type)
            out = rt.new_tensor(op, shape_of(r), dtype, _where(r, default))
            if not m.abstract:
                rt.store(out, [quantize(np.asarray(v), dtype) for v in vals])
            m.count_all(out.buffer, write=True)
            outs.append(out)
        return tuple(outs)

    @located
    def local(self, interpreter, op, args):
        ins, first = device_inputs(op, args)
        n = m.num_devices
        if m.abstract:  # shapes only: the results' bytes are counted, routing is not computed
            res = [[m.blank(shape_of(r), element_dtype_name(r.type))] * n for r in op.results]
        else:
            res = op.spmd([Distributed(v) for v in ins], m.mesh_shape)
        res = [list(r) if isinstance(r, list) else [r] * n for r in res]
        return write_results(op, res, where_of(first) if first is not None else DEFAULT_WHERE)

    @located
    def point_to_point(self, interpreter, op, args):
        from meshc.layout.reshard import execute_plan

        ins, first = device_inputs(op, args)
        plan = op.plan()
        if m.abstract:
            out = [m.blank(shape_of(op.results[0]), element_dtype_name(op.results[0].type))] * m.num_devices
        else:
            out = execute_plan(plan, ins[0])
        eb = _elem_bytes(element_dtype_name(op.input.type))
        for tr in plan.transfers:
            nbytes = int(round(int(np.prod([hi - lo for lo, hi in tr.box])) * eb))
            a, b = m.devices[tr.src], m.devices[tr.dst]
            m.send(a, b, nbytes)
            m.traffic.noc[a] += nbytes
            m.traffic.noc[b] += nbytes
        return write_results(op, [out], where_of(first))

    table = {ttnn.PointToPointOp: point_to_point}
    for cls in (ttnn.MoeRouteOp, ttnn.MoeDispatchOp, ttnn.MoeCombineOp):
        table[cls] = local
    return table
