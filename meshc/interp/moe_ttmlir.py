"""tt-mlir's MoE ops (all_to_all_dispatch, all_to_all_dispatch_metadata, all_to_all_combine,
moe_expert_token_remap, sparse_matmul) in both interpreters.

`moe_ttmlir_run(op, args, mesh_shape)` reads an op's attributes and result shapes and runs its
meaning (meshc/layout/moe_ttmlir.py) on the devices' arrays. `TTMLIRMoeGoldenImpls` gives the
golden interpreter (meshc/interp/ttir.py) the ttir and ttnn ops; `TTMLIRMoeSimImpls` gives the
ttnn simulator (meshc/interp/ttnn.py) the ttnn ops: the data each device ends with is the same
function's, and every element a device sends another (a token to the device owning its expert,
an expert output back, the all-gathered ids) is a routed chip-to-chip move `Machine.send` counts
on each link it crosses, at the operand's data type's width. remap and sparse_matmul are local:
operands read and results written over the NOC, nothing on the links; sparse_matmul's compute
is charged as the dense batched matmul of its result (an upper bound: TT-Metal skips the blocks
the sparsity marks 0). With `--abstract` (no
data) the routing is unknown: results are written, nothing is sent.
"""

from __future__ import annotations

import numpy as np
from xdsl.interpreter import InterpreterFunctions, impl

from meshc.dialects import ttir, ttnn
from meshc.dialects.ttir import moe_ttmlir as ops
from meshc.dialects.ttir.base import int_value, tensor_shape
from meshc.interp.common import Distributed, charged, element_dtype_name, located
from meshc.interp.runtime import DEFAULT_WHERE, SimTensor, where_of
from meshc.interp.timing import charge_compute
from meshc.interp.spmd import device_values
from meshc.layout import moe_ttmlir as moe
from meshc.layout.dtypes import get_dtype
from meshc.sim.encoding import quantize


def _shapes(op) -> tuple[tuple[int, ...], ...]:
    return tuple(tensor_shape(r) for r in op.results)


def moe_ttmlir_run(op, args, mesh_shape: tuple[int, ...]) -> moe.MoeRun:
    """The op's meaning on the devices' arrays (a host array is on every device)."""
    vals = [device_values(a, mesh_shape) for a in args]
    if isinstance(op, ops.SparseMatmulBase):
        a_sparse, b_sparse = op.modes()
        out = [moe.sparse_matmul(a, b, s, a_sparse, b_sparse) for a, b, s in zip(*vals)]
        return moe.MoeRun((out,), {})
    if isinstance(op, ops.MoeExpertTokenRemapBase):
        return moe.moe_expert_token_remap(*vals, int_value(op.reduction_size), _shapes(op))
    axis, n = int_value(op.cluster_axis), int_value(op.num_devices)
    if isinstance(op, ops.AllToAllDispatchBase):
        return moe.all_to_all_dispatch(*vals, mesh_shape, axis, n, _shapes(op))
    if isinstance(op, ops.AllToAllDispatchMetadataBase):
        return moe.all_to_all_dispatch_metadata(*vals, mesh_shape, axis, n, _shapes(op))
    return moe.all_to_all_combine(*vals, mesh_shape, axis, n, int_value(op.num_experts_per_tok), op.shard_dim(),
                                  _shapes(op)[0])


def _typed(op, results) -> list[list[np.ndarray]]:
    """Each result list cast to its result's data type."""
    out = []
    for r, vals in zip(op.results, results):
        dtype = element_dtype_name(r.type)
        out.append([quantize(np.asarray(v).astype(get_dtype(dtype).host_dtype), dtype) for v in vals])
    return out


class TTMLIRMoeGoldenImpls(InterpreterFunctions):
    """The golden interpreter's impls (`self.mesh_shape`)."""

    def golden(self, op, args):
        run = moe_ttmlir_run(op, list(args), self.mesh_shape)
        return tuple(Distributed(v) for v in _typed(op, run.results))

    @impl(ttir.AllToAllDispatchOp)
    @located
    def run_all_to_all_dispatch(self, interpreter, op, args):
        return self.golden(op, args)

    @impl(ttnn.AllToAllDispatchOp)
    @located
    def run_ttnn_all_to_all_dispatch(self, interpreter, op, args):
        return self.golden(op, args)

    @impl(ttir.AllToAllDispatchMetadataOp)
    @located
    def run_all_to_all_dispatch_metadata(self, interpreter, op, args):
        return self.golden(op, args)

    @impl(ttnn.AllToAllDispatchMetadataOp)
    @located
    def run_ttnn_all_to_all_dispatch_metadata(self, interpreter, op, args):
        return self.golden(op, args)

    @impl(ttir.AllToAllCombineOp)
    @located
    def run_all_to_all_combine(self, interpreter, op, args):
        return self.golden(op, args)

    @impl(ttnn.AllToAllCombineOp)
    @located
    def run_ttnn_all_to_all_combine(self, interpreter, op, args):
        return self.golden(op, args)

    @impl(ttir.MoeExpertTokenRemapOp)
    @located
    def run_moe_expert_token_remap(self, interpreter, op, args):
        return self.golden(op, args)

    @impl(ttnn.MoeExpertTokenRemapOp)
    @located
    def run_ttnn_moe_expert_token_remap(self, interpreter, op, args):
        return self.golden(op, args)

    @impl(ttir.SparseMatmulOp)
    @located
    def run_sparse_matmul(self, interpreter, op, args):
        return self.golden(op, args)

    @impl(ttnn.SparseMatmulOp)
    @located
    def run_ttnn_sparse_matmul(self, interpreter, op, args):
        return self.golden(op, args)


class TTMLIRMoeSimImpls(InterpreterFunctions):
    """The ttnn simulator's impls (`self.machine`, `self.rt`, and `device_inputs` /
    `write_results` of meshc.interp.spmd_sim.TTNNSpmdSimImpls, which the simulator also has)."""

    def simulate(self, op, args):
        m = self.machine
        ins, first = self.device_inputs(op, args)
        where = where_of(first) if first is not None else DEFAULT_WHERE
        if m.abstract:
            blank = [[m.blank(tensor_shape(r), element_dtype_name(r.type))] * m.num_devices for r in op.results]
            return self.write_results(op, blank, where)
        run = moe_ttmlir_run(op, ins, m.mesh_shape)
        for operand, elements in run.moves.items():
            width = get_dtype(element_dtype_name(op.operands[operand].type)).element_bytes
            for src, dst in zip(*np.nonzero(elements)):
                nbytes = int(round(int(elements[src, dst]) * width))
                a, b = m.devices[src], m.devices[dst]
                m.send(a, b, nbytes)
                m.traffic.noc[a] += nbytes
                m.traffic.noc[b] += nbytes
        return self.write_results(op, _typed(op, run.results), where)

    @impl(ttnn.AllToAllDispatchOp)
    @charged
    def run_all_to_all_dispatch(self, interpreter, op, args):
        return self.simulate(op, args)

    @impl(ttnn.AllToAllDispatchMetadataOp)
    @charged
    def run_all_to_all_dispatch_metadata(self, interpreter, op, args):
        return self.simulate(op, args)

    @impl(ttnn.AllToAllCombineOp)
    @charged
    def run_all_to_all_combine(self, interpreter, op, args):
        return self.simulate(op, args)

    @impl(ttnn.MoeExpertTokenRemapOp)
    @charged
    def run_moe_expert_token_remap(self, interpreter, op, args):
        return self.simulate(op, args)

    @impl(ttnn.SparseMatmulOp)
    @charged
    def run_sparse_matmul(self, interpreter, op, args):
        outs = self.simulate(op, args)
        if all(isinstance(a, SimTensor) for a in args[:2]):
            charge_compute(self.machine, "matmul", {}, list(args[:2]), outs[0], op)
        return outs
