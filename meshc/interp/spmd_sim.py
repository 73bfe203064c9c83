"""Simulator entries of the ttnn reshard and MoE ops: point-to-point reshards and the MoE steps.

- `ttnn.point_to_point`: the moves of a fewest-bytes reshard plan. The data each device ends
  with is the plan run on the devices' tensors (`execute_plan`, which also checks that every
  sender holds what it sends); every transfer is a routed chip-to-chip move counted by
  `Machine.send` (each hop on `traffic.link`, once on `traffic.delivered` at the receiver) and
  on the NOCs of both end chips. So the delivered bytes the simulator counts are the plan's,
  i.e. the lower bound, and the link bytes are the plan's bytes times the hops of the machine.
- `ttnn.moe_route`, `ttnn.moe_dispatch`, `ttnn.moe_combine`: local compute on each device's
  own tensors through meshc/interp/spmd.py (meshc/layout/moe.py: one implementation of the
  semantics); operands are read over the NOC and results written; no ethernet traffic,
  because each needs only the device's own data.

`TTNNSpmdSimImpls` is the family base the ttnn simulator (meshc/interp/ttnn.py) derives from:
its impls use the simulator's `self.machine` and `self.rt` (meshc/interp/runtime.py).
"""

from __future__ import annotations

import numpy as np
from xdsl.interpreter import InterpreterFunctions, impl

from meshc.dialects.ttir.base import tensor_shape
from meshc.dialects import ttnn
from meshc.dialects.ttnn.memory import result_placement
from meshc.interp.common import Distributed, charged, element_dtype_name
from meshc.interp.runtime import DEFAULT_WHERE, SimTensor, where_of
from meshc.interp.spmd import moe_combine_values, moe_dispatch_values, moe_route_values, point_to_point_plan
from meshc.layout.reshard import execute_plan
from meshc.layout.collectives import link_bytes
from meshc.layout.dtypes import get_dtype
from meshc.sim.encoding import quantize


def _where(result, default):
    """(memory config, tile) of one result: its `#ttnn.ttnn_layout` (or the op's memory_config),
    else `default` (meshc.dialects.ttnn.memory.result_placement)."""
    return result_placement(result.owner, default, result.index)


def run_moves(m, plan, values: list, buffer_shape: tuple[int, ...], dtype: str) -> list:
    """A point-to-point plan on the machine `m`: every device's target buffer from `values` (the
    source buffers, uneven pieces padded), each transfer sent over the links and counted on both
    NOCs. Only real pieces move: a padded buffer's padding is never sent."""
    if m.abstract:
        out = [m.blank(buffer_shape, dtype)] * m.num_devices
    else:
        out = execute_plan(plan, values, padded=True)
    eb = get_dtype(dtype).element_bytes
    for tr in plan.transfers:
        nbytes = link_bytes(int(np.prod([hi - lo for lo, hi in tr.box])), eb)
        a, b = m.devices[tr.src], m.devices[tr.dst]
        m.send(a, b, nbytes)
        m.traffic.noc[a] += nbytes
        m.traffic.noc[b] += nbytes
    return out


class TTNNSpmdSimImpls(InterpreterFunctions):
    """The ttnn point-to-point and MoE ops on the simulator (`self.machine`, `self.rt`)."""

    # -------------------------------------------------------------- operands in, results out

    def device_inputs(self, op, args):
        """Per-device values of every operand (tensors read over the NOC), and the first tensor."""
        m, rt = self.machine, self.rt
        ins, first = [], None
        for a, v in zip(args, op.operands):
            t = rt.as_device(op, a, element_dtype_name(v.type))
            first = first or t
            m.count_all(t.buffer, write=False)
            ins.append(rt.local_values(t))
            if not isinstance(a, SimTensor):
                rt.release(t)
        return ins, first

    def write_results(self, op, results, default):
        m, rt = self.machine, self.rt
        outs = []
        for r, vals in zip(op.results, results):
            dtype = element_dtype_name(r.type)
            out = rt.new_tensor(op, tensor_shape(r), dtype, _where(r, default))
            if not m.abstract:
                rt.store(out, [quantize(np.asarray(v), dtype) for v in vals])
            m.count_all(out.buffer, write=True)
            outs.append(out)
        return tuple(outs)

    # -------------------------------------------------------------- point to point

    @impl(ttnn.PointToPointOp)
    @charged
    def run_point_to_point(self, interpreter, op, args):
        m = self.machine
        ins, first = self.device_inputs(op, args)
        out = run_moves(m, point_to_point_plan(op), ins[0], tensor_shape(op.results[0]),
                        element_dtype_name(op.input.type))
        return self.write_results(op, [out], where_of(first))

    # -------------------------------------------------------------- mixture of experts: each device on its own data

    def local(self, op, args, values):
        """`values(op, per-device args)` on every device; results written to new tensors."""
        m = self.machine
        ins, first = self.device_inputs(op, args)
        n = m.num_devices
        if m.abstract:  # shapes only: the results' bytes are counted, routing is not computed
            res = [[m.blank(tensor_shape(r), element_dtype_name(r.type))] * n for r in op.results]
        else:
            res = values(op, [Distributed(v) for v in ins])
        res = [list(r) if isinstance(r, list) else [r] * n for r in res]
        return self.write_results(op, res, where_of(first) if first is not None else DEFAULT_WHERE)

    @impl(ttnn.MoeRouteOp)
    @charged
    def run_moe_route(self, interpreter, op, args):
        return self.local(op, args, moe_route_values)

    @impl(ttnn.MoeDispatchOp)
    @charged
    def run_moe_dispatch(self, interpreter, op, args):
        return self.local(op, args, moe_dispatch_values)

    @impl(ttnn.MoeCombineOp)
    @charged
    def run_moe_combine(self, interpreter, op, args):
        return self.local(op, args, moe_combine_values)
