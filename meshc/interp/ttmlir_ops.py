"""tt-mlir's mesh_partition, update_cache and fill_cache in both interpreters (their meaning:
meshc/layout/ttmlir_ops.py).

mesh_partition keeps each device's piece: no link traffic; the simulator reads the operand and
writes the result over the NOC. update_cache and fill_cache write their cache operand in place:
the golden interpreter replaces each device's array of the cache value (its `Distributed` list),
the simulator stores the new cache into the cache's own buffer, so every later use of the value
reads the write. The simulator charges them as reading the cache, input and index and writing the
whole cache back (an upper bound: TT-Metal reads and writes only the tiles holding the written
rows). A cache that is not on the devices (a host tensor) is a located error: meshc writes in place
only a device tensor.
"""

from __future__ import annotations

import numpy as np
from xdsl.interpreter import InterpreterFunctions, impl
from xdsl.ir import SSAValue

from meshc.dialects import ttir, ttnn
from meshc.dialects.ttir.base import int_value, tensor_shape
from meshc.errors import LocatedError
from meshc.interp.common import Distributed, charged, element_dtype_name, located
from meshc.interp.runtime import DEFAULT_WHERE, SimTensor, where_of
from meshc.interp.spmd import device_values
from meshc.layout import ttmlir_ops as meaning
from meshc.layout.dtypes import get_dtype
from meshc.sim.encoding import quantize


def _partition(op, vals: list, mesh_shape: tuple[int, ...]) -> list[np.ndarray]:
    return meaning.mesh_partition(vals, mesh_shape, op.normalized_dim(), op.axis(), tensor_shape(op.result))


def _new_cache(op, caches: list, inputs: list, index: list | None) -> list[np.ndarray]:
    """Each device's cache after the write, in the cache's element type."""
    offset = int_value(op.batch_offset)
    if isinstance(op, ttir.UpdateCacheBase):
        new = [meaning.update_cache(c, x, i, offset) for c, x, i in zip(caches, inputs, index)]
    else:
        new = [meaning.fill_cache(c, x, offset) for c, x in zip(caches, inputs)]
    dtype = element_dtype_name(op.cache.type)
    return [quantize(np.asarray(v).astype(get_dtype(dtype).host_dtype), dtype) for v in new]


_SAME_VALUE = (ttnn.ToDeviceOp, ttnn.ToLayoutOp, ttnn.ToMemoryConfigOp, ttir.ToLayoutOp)
"""Ops whose result is their operand's value in another place or layout: a write to the result is
a write to the operand (the cache tt-mlir keeps on the device is one tensor)."""


def _sources(value: SSAValue) -> list[SSAValue]:
    """The value and the values it is a copy of, through `_SAME_VALUE` ops."""
    chain = [value]
    while isinstance(chain[-1].owner, _SAME_VALUE):
        chain.append(chain[-1].owner.operands[0])
    return chain


def _host_form(op, new: list[np.ndarray]) -> np.ndarray:
    """The host tensor of a write whose devices all hold the same cache."""
    if any(not np.array_equal(new[0], v) for v in new[1:]):
        raise LocatedError(f"'{op.name}' writes a different cache on each device, but the cache is also a host "
                           "tensor copied to every device; distribute it with a mesh_shard to write it per device",
                           op)
    return new[0]


class TTMLIROpsGoldenImpls(InterpreterFunctions):
    """The golden interpreter's impls (`self.mesh_shape`)."""

    def partition(self, op, args):
        out = _partition(op, device_values(args[0], self.mesh_shape), self.mesh_shape)
        return (Distributed(out),)

    @impl(ttir.MeshPartitionOp)
    @located
    def run_mesh_partition(self, interpreter, op, args):
        return self.partition(op, args)

    @impl(ttnn.MeshPartitionOp)
    @located
    def run_ttnn_mesh_partition(self, interpreter, op, args):
        return self.partition(op, args)

    def write_cache(self, interpreter, op, args):
        vals = [device_values(a, self.mesh_shape) for a in args]
        new = _new_cache(op, vals[0], vals[1], vals[2] if len(vals) > 2 else None)
        for v in _sources(op.cache):
            held = interpreter.get_values((v,))[0]
            if isinstance(held, Distributed):
                held[:] = new  # the list itself: values sharing it (a to_layout's result) read the write
            elif len(new) == 1:
                interpreter.set_values([(v, new[0])])
            else:
                interpreter.set_values([(v, Distributed(new) if v is op.cache else _host_form(op, new))])
        return ()

    @impl(ttir.UpdateCacheOp)
    @located
    def run_update_cache(self, interpreter, op, args):
        return self.write_cache(interpreter, op, args)

    @impl(ttnn.UpdateCacheOp)
    @located
    def run_ttnn_update_cache(self, interpreter, op, args):
        return self.write_cache(interpreter, op, args)

    @impl(ttir.FillCacheOp)
    @located
    def run_fill_cache(self, interpreter, op, args):
        return self.write_cache(interpreter, op, args)

    @impl(ttnn.FillCacheOp)
    @located
    def run_ttnn_fill_cache(self, interpreter, op, args):
        return self.write_cache(interpreter, op, args)


class TTMLIROpsSimImpls(InterpreterFunctions):
    """The ttnn simulator's impls (`self.machine`, `self.rt`, and `device_inputs` /
    `write_results` of meshc.interp.spmd_sim.TTNNSpmdSimImpls, which the simulator also has)."""

    @impl(ttnn.MeshPartitionOp)
    @charged
    def run_mesh_partition(self, interpreter, op, args):
        m = self.machine
        ins, first = self.device_inputs(op, args)
        where = where_of(first) if first is not None else DEFAULT_WHERE
        if m.abstract:
            return self.write_results(op, [[m.blank(tensor_shape(op.result), element_dtype_name(op.result.type))]
                                           * m.num_devices], where)
        return self.write_results(op, [_partition(op, ins[0], m.mesh_shape)], where)

    def write_cache(self, interpreter, op, args):
        m = self.machine
        if not isinstance(args[0], SimTensor):
            raise LocatedError(f"'{op.name}' writes its cache in place, and the simulator does that only to a "
                               "tensor on the devices; this cache is a host tensor: move it with ttnn.to_device", op)
        ins, _ = self.device_inputs(op, args)
        new = None if m.abstract else _new_cache(op, ins[0], ins[1], ins[2] if len(ins) > 2 else None)
        for v in _sources(op.cache):
            held = interpreter.get_values((v,))[0]
            if isinstance(held, SimTensor):
                if new is not None:
                    self.rt.store(held, new)
                m.count_all(held.buffer, write=True)
            elif new is not None:  # the host value a to_device copied: the program reads the write back
                interpreter.set_values([(v, Distributed(new) if isinstance(held, Distributed) else _host_form(op, new))])
        return ()

    @impl(ttnn.UpdateCacheOp)
    @charged
    def run_update_cache(self, interpreter, op, args):
        return self.write_cache(interpreter, op, args)

    @impl(ttnn.FillCacheOp)
    @charged
    def run_fill_cache(self, interpreter, op, args):
        return self.write_cache(interpreter, op, args)
