"""The ttnn interpreter on the simulator: every device tensor lives as bytes in a mesh buffer.

Values: host arrays, the `Machine` (what `ttnn.get_device` returns) and `SimTensor`s (a mesh
buffer holding one tensor a device). What each op moves, and how it is counted:
- distribute_tensor: host -> device through the op's `#ttnn.sharded_buffer_config` (or, without
  one, the config its `shard_dims` lower to): device d receives the piece the config gives it
  (meshc.layout.buffer_pieces), stored in the op's memory config (default DRAM interleaved);
  to_device: the same tensor to every device;
- aggregate_tensor: device -> host through its config (a replicated piece read from its first
  device); from_device: each device's tensor;
- to_memory_config: every device reads its tensor out of the old placement and writes the new
  one (NOC bytes of both sides, DRAM bytes per bank of DRAM sides); to_layout keeps the bytes;
- compute ops: each device runs the kernel of meshc/sim/compute.py on its operands and writes the
  result (rounded to its element type) into a new buffer in the memory config of the op, of
  its result type, or else of its first operand; operands that live in DRAM or in another
  placement than the result cross the NOC; a matmul multicasts A along the rows of the result's
  core grid and B along its columns;
- collectives: meshc/sim/collectives.py, over the ethernet links;
- point_to_point (reshard moves) and the MoE ops: meshc/interp/spmd_sim.py.
Buffers are freed after the last use of every value that holds them (reference counted), so
the peak L1 a core is the peak of the live tensors.

`TTNNSimFunctions` is one static class: the ttnn op families of meshc/interp/op_families.py,
the reshard and MoE ops of meshc/interp/spmd_sim.py, and one `@impl` each for the device and
transfer ops. The simulator state (`SimRuntime`, meshc/interp/runtime.py) is its `rt`.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects import func
from xdsl.interpreter import Interpreter, impl, register_impls

from meshc.errors import LocatedError
from meshc.dialects.ttir.base import tensor_shape
from meshc.dialects import ttnn
from meshc.dialects.ttir import collective_args
from meshc.layout.compute_ops import is_matmul
from meshc.interp.common import Distributed, charged, element_dtype_name, kernel_attrs, run_at_op, transfer_config
from meshc.interp.moe_ttmlir import TTMLIRMoeSimImpls
from meshc.interp.ttmlir_ops import TTMLIROpsSimImpls
from meshc.interp.op_families import TTNNCollectiveImpls, TTNNComputeImpls
from meshc.interp.runtime import DEFAULT_WHERE, SimRuntime, SimTensor, Where, per_object, placement_of, where_of
from meshc.interp.spmd_sim import TTNNSpmdSimImpls
from meshc.interp.stage_transfer_impls import TTNNStageTransferImpls
from meshc.interp.timing import charge_compute
from meshc.interp.ttir import constant_value
from meshc.layout.buffer_pieces import mesh_pieces
from meshc.layout.collectives import collective
from meshc.layout.dtypes import get_dtype
from meshc.sim.compute import run_kernel
from meshc.sim.encoding import quantize
from meshc.sim.machine import Machine

# ----------------------------------------------------------------------------- shared with ttmetal


def count_operand(rt: SimRuntime, t: SimTensor, times: int = 1) -> None:
    """Bytes of an operand a kernel pulls over the NOC (and out of DRAM)."""
    for _ in range(times):
        rt.m.count_all(t.buffer, write=False)


def run_collective(rt: SimRuntime, op, kind: str, vals: list[np.ndarray], dtype: str) -> list[np.ndarray]:
    """A collective `kind` with the attributes of `op` (ttir's names) over per-device arrays: a kind
    that moves data runs on the simulator's links, one that moves nothing (all_slice) is its
    registry meaning on each device's own data."""
    c = collective(kind)
    args = collective_args(op, c, vals[0].ndim)
    if not c.moves_data:
        return c.reference(vals, rt.m.mesh_shape, args)
    rt.coll.elem_bytes = get_dtype(dtype).element_bytes
    return rt.coll.run(kind, vals, args)


# ----------------------------------------------------------------------------- the interpreter


@register_impls
class TTNNSimFunctions(TTNNComputeImpls, TTNNCollectiveImpls, TTNNSpmdSimImpls, TTNNStageTransferImpls,
                       TTMLIRMoeSimImpls, TTMLIROpsSimImpls):
    """The ttnn ops on the simulator `machine`: every device tensor a mesh buffer, every move counted."""

    def __init__(self, machine: Machine):
        self.machine = machine
        self.rt = SimRuntime(machine)

    # -------------------------------------------------------------- the op families

    def compute(self, kind: str, op, args):
        return run_at_op(op, lambda: self._compute(kind, op, args), self.machine)

    def _compute(self, kind: str, op, args):
        """A compute op: each device runs the kernel on its operands; host operands go to the
        devices first; operands in another placement than the result cross the NOC."""
        m, rt = self.machine, self.rt
        attrs = kernel_attrs(op)
        dtype = element_dtype_name(op.results[0].type)
        if not any(isinstance(a, SimTensor) for a in args):
            if m.abstract:  # shapes only: no kernel runs
                return (m.blank(tensor_shape(op.results[0]), dtype),)
            vals = [list(a) if isinstance(a, Distributed) else a for a in args]
            if any(isinstance(a, list) for a in vals):
                n = len(next(a for a in vals if isinstance(a, list)))
                return (Distributed(quantize(run_kernel(kind, [a[i] if isinstance(a, list) else a for a in vals],
                                                        attrs), dtype) for i in range(n)),)
            return (quantize(run_kernel(kind, list(vals), attrs), dtype),)
        ins = [rt.as_device(op, a, element_dtype_name(v.type)) for a, v in zip(args, op.operands)]
        first = next(a for a in args if isinstance(a, SimTensor))
        where = placement_of(op, where_of(first))
        out = rt.new_tensor(op, tensor_shape(op.results[0]), dtype, where)
        # operand traffic
        if is_matmul(kind):
            ly = out.buffer.layout
            gy, gx = (1, 1) if ly.interleaved else ly.grid
            count_operand(rt, ins[0], gx)
            count_operand(rt, ins[1], gy)
            for t in ins[2:]:  # a linear's bias, read once by the output stage
                count_operand(rt, t)
        else:
            for t in ins:
                if where_of(t) != where or t.buffer.memory == "dram" or t.shape != out.shape:
                    count_operand(rt, t)
        charge_compute(m, kind, attrs, ins, out, op)
        if m.abstract:  # shapes only: the result's bytes are counted, no kernel runs
            if out.buffer.memory == "dram":
                m.count_all(out.buffer, write=True)
        else:
            per_dev = [rt.local_values(t) for t in ins]
            n = len(out.buffer.devices)
            keys = [tuple(id(p[i]) for p in per_dev) for i in range(n)]
            first: dict[tuple, int] = {}
            for i, k in enumerate(keys):
                first.setdefault(k, i)

            def result(i):
                return quantize(run_kernel(kind, [p[i] for p in per_dev], attrs), dtype)

            # devices with the same operand objects compute once and share the result; the
            # results are held as values, laid out in pages only if bytes are looked at
            done = {k: result(i) for k, i in first.items()}
            m.poke_all(out.buffer, [done[k] for k in keys])
            if out.buffer.memory == "dram":
                for i in range(n):
                    m.count_write(out.buffer, i)
        for t, a in zip(ins, args):
            if not isinstance(a, SimTensor):
                rt.release(t)
        return (out,)

    def collective(self, kind: str, op, args):
        return run_at_op(op, lambda: self._collective(kind, op, args), self.machine)

    def _collective(self, kind: str, op, args):
        """A collective over the ethernet links (meshc/sim/collectives.py), into a new tensor."""
        m, rt = self.machine, self.rt
        (x,) = args
        dtype = element_dtype_name(op.results[0].type)
        t = rt.as_device(op, x, dtype)
        vals = rt.local_values(t)
        m.count_all(t.buffer, write=False)
        res = run_collective(rt, op, kind, vals, dtype)
        if not isinstance(x, SimTensor):
            rt.release(t)
        out = rt.new_tensor(op, tensor_shape(op.results[0]), dtype, placement_of(op, where_of(t)))
        if not m.abstract:
            rt.store(out, per_object(lambda r: quantize(r, dtype), res))
        m.count_all(out.buffer, write=True)
        return (out,)

    # -------------------------------------------------------------- the device and host <-> mesh transfers

    @impl(ttnn.GetDeviceOp)
    def run_get_device(self, interpreter, op, args):
        return (self.machine,)

    @impl(ttnn.DistributeTensorOp)
    @charged
    def run_distribute_tensor(self, interpreter, op, args):
        m = self.machine
        x = args[0]
        if isinstance(x, (SimTensor, Distributed)):
            raise LocatedError("distribute_tensor needs a host tensor, but its operand is already on the devices", op)
        x = np.asarray(x)
        dtype = element_dtype_name(op.results[0].type)
        config = transfer_config(op, x.shape, m.mesh_shape, dtype)
        t = self.rt.new_tensor(op, tensor_shape(op.results[0]), dtype, placement_of(op, DEFAULT_WHERE))
        m.write_host(t.buffer, x, config, borrow=True)  # the interpreter changes no host value in place
        return (t,)

    @impl(ttnn.AggregateTensorOp)
    @charged
    def run_aggregate_tensor(self, interpreter, op, args):
        m = self.machine
        x = args[0]
        full = tensor_shape(op.results[0])
        dtype = element_dtype_name(op.operands[0].type)
        config = transfer_config(op, full, m.mesh_shape, dtype)
        if isinstance(x, SimTensor):
            return (m.read_host(x.buffer, config, full),)
        if m.abstract:
            return (m.blank(full, dtype),)
        vals = list(x) if isinstance(x, Distributed) else [np.asarray(x)] * m.num_devices
        pieces = mesh_pieces(config, m.mesh_shape)
        out = np.empty(full, vals[0].dtype)
        return (pieces.assemble(np.stack(vals).reshape(tuple(pieces.mesh_shape) + pieces.block), out),)

    @impl(ttnn.ToDeviceOp)
    @charged
    def run_to_device(self, interpreter, op, args):
        x = args[0]
        if isinstance(x, SimTensor):
            return (x,)
        vals = list(x) if isinstance(x, Distributed) else [np.asarray(x)] * self.machine.num_devices
        return (self.rt.upload(op, vals, element_dtype_name(op.results[0].type), placement_of(op, DEFAULT_WHERE)),)

    @impl(ttnn.FromDeviceOp)
    @charged
    def run_from_device(self, interpreter, op, args):
        x = args[0]
        if not isinstance(x, SimTensor):
            return (x,)
        vals = self.machine.read(x.buffer)
        return (vals[0] if len(vals) == 1 else Distributed(vals),)

    # -------------------------------------------------------------- memory configs and layouts

    def relaid(self, op, t: SimTensor, dtype: str, where: Where) -> SimTensor:
        """A copy of `t` in a new buffer placed at `where`: each device reads every page of its
        piece and writes it again."""
        m = self.machine
        out = self.rt.new_tensor(op, t.shape, dtype, where)
        if not m.abstract:
            m.poke_all(out.buffer, m.peek_all(t.buffer))
        m.count_all(t.buffer, write=False)
        m.count_all(out.buffer, write=True)
        return out

    @impl(ttnn.ToMemoryConfigOp)
    @charged
    def run_to_memory_config(self, interpreter, op, args):
        dtype = element_dtype_name(op.results[0].type)
        t = self.rt.as_device(op, args[0], dtype)
        where = placement_of(op, where_of(t))
        if where == where_of(t):
            return (t,)
        return (self.relaid(op, t, dtype, where),)

    @impl(ttnn.ToLayoutOp)
    @charged
    def run_to_layout(self, interpreter, op, args):
        dtype = element_dtype_name(op.results[0].type)
        t = self.rt.as_device(op, args[0], dtype)
        config, tile = placement_of(op, where_of(t))
        tile = (32, 32) if op.attributes["layout"].data == "tile" and tile is None else tile
        tile = None if op.attributes["layout"].data == "row_major" else tile
        if (config, tile) == where_of(t):
            return (t,)
        return (self.relaid(op, t, dtype, (config, tile)),)  # (un)tilize: every page read and rewritten

    # -------------------------------------------------------------- tensors made by the program

    @impl(ttnn.ConstantOp)
    @charged
    def run_constant(self, interpreter, op, args):
        return (constant_value(op),)

    @impl(ttnn.EmptyOp)
    @charged
    def run_empty(self, interpreter, op, args):
        dtype = element_dtype_name(op.results[0].type)
        return (self.rt.new_tensor(op, tensor_shape(op.results[0]), dtype, placement_of(op, DEFAULT_WHERE)),)


def sim_functions(machine: Machine) -> tuple[TTNNSimFunctions, SimRuntime]:
    """The ttnn simulator's functions on `machine`, and the runtime they drive."""
    fns = TTNNSimFunctions(machine)
    return fns, fns.rt


# ----------------------------------------------------------------------------- buffer lifetimes


class BufferLifetimes(Interpreter.Listener):
    """Frees a value's buffer after its last use (reference counted across aliases).

    `of_program` follows calls too: the last uses are those of every function of the module, and
    the values a callee returns are released only once its caller's `func.call` holds them (its
    results take a reference first), so a tensor made in a callee lives on in the caller."""

    def __init__(self, rt: SimRuntime, body_ops, keep, entry_return=None):
        self.rt = rt
        self.last_use: dict = {}
        for op in body_ops:
            for v in op.operands:
                self.last_use[v] = op
        self.keep = keep
        self.entry_return = entry_return
        self.values: dict = {}
        self.returned: list[list[SimTensor]] = []

    @classmethod
    def of_program(cls, rt: SimRuntime, module, entry: func.FuncOp) -> "BufferLifetimes":
        """Lifetimes over every function of `module` (not nested modules), `entry` the one run."""
        ops = [op for f in module.body.block.ops if isinstance(f, func.FuncOp) and f.body.blocks
               for op in f.body.blocks.first.ops]
        ret = entry.body.blocks.first.last_op
        return cls(rt, ops, set(ret.operands), ret)

    def did_interpret_op(self, op, results) -> None:
        for r, val in zip(op.results, results):
            if isinstance(val, SimTensor):
                val.refs += 1
                self.values[r] = val
                if r not in self.last_use and r not in self.keep:
                    self.rt.release(val)
        callee_return = isinstance(op, func.ReturnOp) and self.entry_return is not None and op is not self.entry_return
        held = []
        for v in set(op.operands):
            if self.last_use.get(v) is op and v in self.values and v not in self.keep:
                held.append(self.values.pop(v))
        if callee_return:  # released once the caller's call holds them
            self.returned.append(held)
            return
        for t in held:
            self.rt.release(t)
        if isinstance(op, func.CallOp) and self.returned:
            for t in self.returned.pop():
                self.rt.release(t)
