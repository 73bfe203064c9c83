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
- point_to_point (reshard moves), all_slice and the MoE ops: meshc/interp/spmd_sim.py.
Buffers are freed after the last use of every value that holds them (reference counted), so
the peak L1 a core is the peak of the live tensors.
"""

from __future__ import annotations

import numpy as np
from xdsl.interpreter import Interpreter, InterpreterFunctions

from meshc.diagnostics import LocatedError
from meshc.dialects.ttir import collective_args
from meshc.interp.common import Distributed, element_dtype_name, kernel_attrs, shape_of, transfer_config
from meshc.interp.common import located as located_impl
from meshc.interp.runtime import DEFAULT_WHERE, SimRuntime, SimTensor, Where, placement_of, where_of
from meshc.interp.spmd_sim import spmd_sim_table
from meshc.interp.ttir import COLLECTIVE_KINDS, constant_value, make_functions, shard_dims_of
from meshc.layout.buffer_pieces import mesh_pieces
from meshc.layout.collectives import collective
from meshc.layout.dtypes import get_dtype
from meshc.sim.compute import KINDS, run_kernel
from meshc.sim.encoding import quantize
from meshc.sim.machine import Machine


def _count_operand(rt: SimRuntime, t: SimTensor, times: int = 1) -> None:
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
    d = get_dtype(dtype)
    rt.coll.elem_bytes = d.bytes_for(32, 32) / 1024 if d.is_block_float else d.bits / 8
    return rt.coll.run(kind, vals, args)


def sim_functions(machine: Machine) -> tuple[InterpreterFunctions, SimRuntime]:
    from meshc.dialects import ttnn

    rt = SimRuntime(machine)
    m = machine
    table: dict = {}

    def located(fn):
        return located_impl(fn, m)

    @located
    def compute(self, interpreter, op, args):
        kind = op.name.split(".", 1)[1]
        attrs = kernel_attrs(op)
        dtype = element_dtype_name(op.results[0].type)
        if not any(isinstance(a, SimTensor) for a in args):
            if m.abstract:  # shapes only: no kernel runs
                return (m.blank(shape_of(op.results[0]), dtype),)
            vals = [list(a) if isinstance(a, Distributed) else a for a in args]
            if any(isinstance(a, list) for a in vals):
                n = len(next(a for a in vals if isinstance(a, list)))
                return (Distributed(quantize(run_kernel(kind, [a[i] if isinstance(a, list) else a for a in vals],
                                                        attrs), dtype) for i in range(n)),)
            return (quantize(run_kernel(kind, list(vals), attrs), dtype),)
        ins = [rt.as_device(op, a, element_dtype_name(v.type)) for a, v in zip(args, op.operands)]
        first = next(a for a in args if isinstance(a, SimTensor))
        where = placement_of(op, where_of(first))
        out = rt.new_tensor(op, shape_of(op.results[0]), dtype, where)
        # operand traffic
        if kind == "matmul":
            ly = out.buffer.layout
            gy, gx = (1, 1) if ly.interleaved else ly.grid
            _count_operand(rt, ins[0], gx)
            _count_operand(rt, ins[1], gy)
        else:
            for t in ins:
                if where_of(t) != where or t.buffer.memory == "dram" or t.shape != out.shape:
                    _count_operand(rt, t)
        if m.abstract:  # shapes only: the result's bytes are counted, no kernel runs
            if out.buffer.memory == "dram":
                m.count_all(out.buffer, write=True)
        else:
            per_dev = [rt.local_values(t) for t in ins]
            for i in range(len(out.buffer.devices)):
                res = quantize(run_kernel(kind, [p[i] for p in per_dev], attrs), dtype)
                m.poke(out.buffer, i, res)
                if out.buffer.memory == "dram":
                    m.count_write(out.buffer, i)
        for t, a in zip(ins, args):
            if not isinstance(a, SimTensor):
                rt.release(t)
        return (out,)

    for cls in ttnn.TTNN.operations:
        kind = cls.name.split(".", 1)[1]
        if kind in KINDS:
            table[cls] = compute

    @located
    def collective(self, interpreter, op, args):
        kind = op.name.split(".", 1)[1]
        (x,) = args
        dtype = element_dtype_name(op.results[0].type)
        t = rt.as_device(op, x, dtype)
        vals = rt.local_values(t)
        m.count_all(t.buffer, write=False)
        res = run_collective(rt, op, kind, vals, dtype)
        if not isinstance(x, SimTensor):
            rt.release(t)
        out = rt.new_tensor(op, shape_of(op.results[0]), dtype, placement_of(op, where_of(t)))
        if not m.abstract:
            rt.store(out, [quantize(r, dtype) for r in res])
        m.count_all(out.buffer, write=True)
        return (out,)

    for cls in ttnn.TTNN.operations:
        if cls.name.split(".", 1)[1] in COLLECTIVE_KINDS:
            table[cls] = collective

    def get_device(self, interpreter, op, args):
        return (m,)

    @located
    def distribute(self, interpreter, op, args):
        x = args[0]
        if isinstance(x, (SimTensor, Distributed)):
            raise LocatedError("distribute_tensor needs a host tensor, but its operand is already on the devices", op)
        x = np.asarray(x)
        dtype = element_dtype_name(op.results[0].type)
        config = transfer_config(op, x.shape, m.mesh_shape, dtype, shard_dims_of(op))
        t = rt.new_tensor(op, shape_of(op.results[0]), dtype, placement_of(op, DEFAULT_WHERE))
        m.write_host(t.buffer, x, config)
        return (t,)

    @located
    def aggregate(self, interpreter, op, args):
        x = args[0]
        full = shape_of(op.results[0])
        dtype = element_dtype_name(op.operands[0].type)
        config = transfer_config(op, full, m.mesh_shape, dtype, shard_dims_of(op))
        if isinstance(x, SimTensor):
            return (m.read_host(x.buffer, config, full),)
        if m.abstract:
            return (m.blank(full, dtype),)
        vals = list(x) if isinstance(x, Distributed) else [np.asarray(x)] * m.num_devices
        pieces = mesh_pieces(config, m.mesh_shape)
        out = np.empty(full, vals[0].dtype)
        return (pieces.assemble(np.stack(vals).reshape(tuple(pieces.mesh_shape) + pieces.block), out),)

    @located
    def to_device(self, interpreter, op, args):
        x = args[0]
        if isinstance(x, SimTensor):
            return (x,)
        vals = list(x) if isinstance(x, Distributed) else [np.asarray(x)] * m.num_devices
        return (rt.upload(op, vals, element_dtype_name(op.results[0].type), placement_of(op, DEFAULT_WHERE)),)

    @located
    def from_device(self, interpreter, op, args):
        x = args[0]
        if not isinstance(x, SimTensor):
            return (x,)
        vals = m.read(x.buffer)
        return (vals[0] if len(vals) == 1 else Distributed(vals),)

    def relaid(op, t: SimTensor, dtype: str, where: Where) -> SimTensor:
        """A copy of `t` in a new buffer placed at `where`: each device reads every page of its
        piece and writes it again."""
        out = rt.new_tensor(op, t.shape, dtype, where)
        if not m.abstract:
            for i in range(len(t.buffer.devices)):
                m.poke(out.buffer, i, m.peek(t.buffer, i))
        m.count_all(t.buffer, write=False)
        m.count_all(out.buffer, write=True)
        return out

    @located
    def to_memory_config(self, interpreter, op, args):
        x = args[0]
        dtype = element_dtype_name(op.results[0].type)
        t = rt.as_device(op, x, dtype)
        where = placement_of(op, where_of(t))
        if where == where_of(t):
            return (t,)
        return (relaid(op, t, dtype, where),)

    @located
    def to_layout(self, interpreter, op, args):
        x = args[0]
        dtype = element_dtype_name(op.results[0].type)
        t = rt.as_device(op, x, dtype)
        config, tile = placement_of(op, where_of(t))
        tile = (32, 32) if op.attributes["layout"].data == "tile" and tile is None else tile
        tile = None if op.attributes["layout"].data == "row_major" else tile
        if (config, tile) == where_of(t):
            return (t,)
        return (relaid(op, t, dtype, (config, tile)),)  # (un)tilize: every page read and rewritten

    @located
    def constant(self, interpreter, op, args):
        return (constant_value(op),)

    @located
    def empty(self, interpreter, op, args):
        dtype = element_dtype_name(op.results[0].type)
        return (rt.new_tensor(op, shape_of(op.results[0]), dtype, placement_of(op, DEFAULT_WHERE)),)

    table[ttnn.GetDeviceOp] = get_device
    table[ttnn.DistributeTensorOp] = distribute
    table[ttnn.AggregateTensorOp] = aggregate
    table[ttnn.ToDeviceOp] = to_device
    table[ttnn.FromDeviceOp] = from_device
    table[ttnn.ToMemoryConfigOp] = to_memory_config
    table[ttnn.ToLayoutOp] = to_layout
    table[ttnn.ConstantOp] = constant
    table[ttnn.EmptyOp] = empty
    table.update(spmd_sim_table(rt, located))  # point_to_point, MoE
    cls = make_functions(table, InterpreterFunctions, "TTNNSimFunctions")
    return cls(), rt


class BufferLifetimes(Interpreter.Listener):
    """Frees a value's buffer after its last use (reference counted across aliases)."""

    def __init__(self, rt: SimRuntime, body_ops, keep):
        self.rt = rt
        self.last_use: dict = {}
        for op in body_ops:
            for v in op.operands:
                self.last_use[v] = op
        self.keep = keep
        self.values: dict = {}

    def did_interpret_op(self, op, results) -> None:
        for r, val in zip(op.results, results):
            if isinstance(val, SimTensor):
                val.refs += 1
                self.values[r] = val
                if r not in self.last_use and r not in self.keep:
                    self.rt.release(val)
        for v in set(op.operands):
            if self.last_use.get(v) is op and v in self.values and v not in self.keep:
                self.rt.release(self.values.pop(v))
