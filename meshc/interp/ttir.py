"""The golden interpreter: ttir (and ttnn, read as its numpy meaning) on numpy.

A distributed value is a `Distributed` list of arrays over the mesh in device order; collectives
are plain numpy over that list (concatenate, sum, split), with no machine in between. This is
the reference `meshc-run --check` compares the simulator against. ttnn programs are accepted
too: `ttnn.distribute_tensor` / `aggregate_tensor` mean what `ttir.mesh_shard` means, memory
and layout changes are the identity, and compute ops share the kernels of meshc/sim/compute.py.
The reshard, point-to-point and MoE ops run their meaning of meshc/interp/spmd.py.

`GoldenFunctions` is one static class: the op families of meshc/interp/op_families.py (compute
ops and collectives of both dialects) and one `@impl` each for the other ops.
"""

from __future__ import annotations

import numpy as np
from xdsl.interpreter import impl, register_impls

from meshc.dialects.ttir.base import tensor_shape
from meshc.errors import LocatedError
from meshc.dialects import ttir, ttnn
from meshc.dialects.shape_rules import ints_of
from meshc.dialects.tt import enclosing_module, module_devices
from meshc.dialects.ttir import collective_args
from meshc.interp.common import Distributed, element_dtype_name, kernel_attrs, located, run_at_op
from meshc.interp.moe_ttmlir import TTMLIRMoeGoldenImpls
from meshc.interp.ttmlir_ops import TTMLIROpsGoldenImpls
from meshc.interp.op_families import TTIRCollectiveImpls, TTIRComputeImpls, TTNNCollectiveImpls, TTNNComputeImpls
from meshc.interp.spmd import (
    moe_combine_values,
    moe_dispatch_values,
    moe_route_values,
    point_to_point_plan,
    reshard_plan,
    run_plan,
)
from meshc.layout.collectives import collective
from meshc.layout.dtypes import get_dtype
from meshc.layout.mesh import ShardingSpec, spec_from_shard_dims
from meshc.sim.compute import run_kernel
from meshc.sim.encoding import quantize

# ----------------------------------------------------------------------------- distributed values


def split_to_devices(full: np.ndarray, spec: ShardingSpec) -> Distributed:
    return Distributed(full[spec.local_slices(full.shape, c)] for c in spec.mesh.coords())


def assemble(pieces: list[np.ndarray], spec: ShardingSpec, full_shape: tuple[int, ...]) -> np.ndarray:
    out = np.empty(full_shape, pieces[0].dtype)
    for piece, c in zip(pieces, spec.mesh.coords()):
        out[spec.local_slices(full_shape, c)] = piece
    return out


def golden_collective(kind: str, op, vals: list[np.ndarray], mesh_shape) -> Distributed:
    """numpy meaning of a collective over a distributed value (meshc.layout.collectives)."""
    c = collective(kind)
    return Distributed(c.reference(vals, tuple(mesh_shape), collective_args(op, c, vals[0].ndim)))


def dense_value(attr, shape: tuple[int, ...], dtype: str) -> np.ndarray:
    """The host array of a dense elements attribute (a splat fills the shape), in `dtype`."""
    vals = np.asarray(attr.get_values())
    arr = np.broadcast_to(vals.reshape(()), shape) if vals.size == 1 else vals.reshape(shape)
    return quantize(np.array(arr, dtype=get_dtype(dtype).host_dtype), dtype)


def constant_value(op) -> np.ndarray:
    return dense_value(op.attributes["value"], tensor_shape(op.results[0]), element_dtype_name(op.results[0].type))


class GoldenState:
    """What `ttnn.get_device` returns on numpy: the mesh shape."""

    def __init__(self, mesh_shape: tuple[int, ...]):
        self.mesh_shape = tuple(mesh_shape)


def _per_device(fn, args):
    """Apply fn to per-device arguments when any is distributed (host arrays are shared)."""
    dist = [a for a in args if isinstance(a, Distributed)]
    if not dist:
        return fn(list(args))
    n = len(dist[0])
    return Distributed(fn([a[i] if isinstance(a, Distributed) else a for a in args]) for i in range(n))


def _distributed(results) -> tuple:
    """Per-device lists of results as `Distributed` values (host arrays stay)."""
    return tuple(Distributed(r) if isinstance(r, list) else r for r in results)


# ----------------------------------------------------------------------------- the interpreter


@register_impls
class GoldenFunctions(TTIRComputeImpls, TTNNComputeImpls, TTIRCollectiveImpls, TTNNCollectiveImpls,
                      TTMLIRMoeGoldenImpls, TTMLIROpsGoldenImpls):
    """Golden implementations of every ttir op and of the ttnn ops (their numpy meaning) on a
    mesh of `mesh_shape`."""

    def __init__(self, mesh_shape: tuple[int, ...]):
        self.state = GoldenState(mesh_shape)

    @property
    def mesh_shape(self) -> tuple[int, ...]:
        return self.state.mesh_shape

    def on_devices(self, x) -> Distributed:
        """`x` as one array a device: a host array is on every device."""
        return x if isinstance(x, Distributed) else Distributed([x] * int(np.prod(self.mesh_shape)))

    # -------------------------------------------------------------- the op families

    def compute(self, kind: str, op, args):
        """A compute op: its kernel on each device's arrays, rounded to the result type."""
        attrs = kernel_attrs(op)
        dtype = element_dtype_name(op.results[0].type)
        return run_at_op(op, lambda: (_per_device(lambda xs: quantize(run_kernel(kind, xs, attrs), dtype), args),))

    def collective(self, kind: str, op, args):
        """A collective: its registry meaning (numpy over the devices' arrays)."""
        (x,) = args
        return run_at_op(op, lambda: (golden_collective(kind, op, list(self.on_devices(x)), self.mesh_shape),))

    # -------------------------------------------------------------- tensors made by the program

    def constant(self, op):
        return (constant_value(op),)

    def empty(self, op):
        return (np.zeros(tensor_shape(op.results[0]), get_dtype(element_dtype_name(op.results[0].type)).host_dtype),)

    @impl(ttir.ConstantOp)
    def run_constant(self, interpreter, op, args):
        return self.constant(op)

    @impl(ttnn.ConstantOp)
    def run_ttnn_constant(self, interpreter, op, args):
        return self.constant(op)

    @impl(ttir.EmptyOp)
    def run_empty(self, interpreter, op, args):
        return self.empty(op)

    @impl(ttnn.EmptyOp)
    def run_ttnn_empty(self, interpreter, op, args):
        return self.empty(op)

    # -------------------------------------------------------------- layouts, memory and devices: no change of value

    @impl(ttir.ToLayoutOp)
    def run_to_layout(self, interpreter, op, args):
        return (args[0],)

    @impl(ttnn.ToLayoutOp)
    def run_ttnn_to_layout(self, interpreter, op, args):
        return (args[0],)

    @impl(ttnn.ToMemoryConfigOp)
    def run_to_memory_config(self, interpreter, op, args):
        return (args[0],)

    @impl(ttnn.GetDeviceOp)
    def run_get_device(self, interpreter, op, args):
        return (self.state,)

    @impl(ttnn.ToDeviceOp)
    def run_to_device(self, interpreter, op, args):
        return (self.on_devices(args[0]),)

    @impl(ttnn.FromDeviceOp)
    def run_from_device(self, interpreter, op, args):
        x = args[0]
        if isinstance(x, Distributed) and len(x) == 1:
            return (x[0],)
        return (x,)

    # -------------------------------------------------------------- host <-> mesh

    def shard(self, op, x, full_to_shard: bool):
        """Split a host tensor into the devices' pieces (full_to_shard), or assemble them."""
        spec = op.sharding(self.mesh_shape)
        if full_to_shard:
            if isinstance(x, Distributed):
                raise LocatedError("full_to_shard needs a host tensor, but its operand is already distributed", op)
            return (split_to_devices(x, spec),)
        full = tensor_shape(op.results[0])
        return (assemble(list(self.on_devices(x)), spec, full),)

    @impl(ttnn.PipelineTransferOp)
    @located
    def run_pipeline_transfer(self, interpreter, op, args):
        """A value sent from one pipeline stage's devices to a later one's (each on its own mesh of
        the module's tt.devices): the source pieces assembled, cut into the target's."""
        devices = module_devices(enclosing_module(op))
        shape = tuple(ints_of(op.shape))
        src = spec_from_shard_dims(ints_of(op.source_shard_dims), len(shape),
                                   devices[int(op.source_stage.value.data)].mesh_shape)
        tgt = spec_from_shard_dims(ints_of(op.target_shard_dims), len(shape),
                                   devices[int(op.target_stage.value.data)].mesh_shape)
        x = args[0]
        pieces = list(x) if isinstance(x, Distributed) else [np.asarray(x)] * src.mesh.size
        return (split_to_devices(assemble(pieces, src, shape), tgt),)

    @impl(ttir.MeshShardOp)
    def run_mesh_shard(self, interpreter, op, args):
        if op.is_identity:  # unchanged on every device
            return (args[0],)
        return self.shard(op, args[0], op.attributes["shard_direction"].data == "full_to_shard")

    @impl(ttnn.DistributeTensorOp)
    def run_distribute_tensor(self, interpreter, op, args):
        return self.shard(op, args[0], True)

    @impl(ttnn.AggregateTensorOp)
    def run_aggregate_tensor(self, interpreter, op, args):
        return self.shard(op, args[0], False)

    # -------------------------------------------------------------- reshards (meshc/interp/spmd.py)

    @impl(ttir.ReshardOp)
    @located
    def run_reshard(self, interpreter, op, args):
        plan = reshard_plan(op)
        if not plan.steps and not isinstance(args[0], Distributed):
            # every device already holds its target piece (the same placement, spelled another
            # way): reshard-to-collectives emits nothing, so a host value stays the host value
            return (args[0],)
        return (Distributed(run_plan(plan, args[0], self.mesh_shape)),)

    @impl(ttir.PointToPointOp)
    @located
    def run_point_to_point(self, interpreter, op, args):
        return (Distributed(run_plan(point_to_point_plan(op), args[0], self.mesh_shape)),)

    @impl(ttnn.PointToPointOp)
    @located
    def run_ttnn_point_to_point(self, interpreter, op, args):
        return (Distributed(run_plan(point_to_point_plan(op), args[0], self.mesh_shape)),)

    @impl(ttir.ShardingConstraintOp)
    @located
    def run_sharding_constraint(self, interpreter, op, args):
        """On numpy (a global value), the identity."""
        return (args[0],)

    # -------------------------------------------------------------- mixture of experts (meshc/interp/spmd.py)

    @impl(ttir.MoeRouteOp)
    @located
    def run_moe_route(self, interpreter, op, args):
        return _distributed(moe_route_values(op, list(args)))

    @impl(ttnn.MoeRouteOp)
    @located
    def run_ttnn_moe_route(self, interpreter, op, args):
        return _distributed(moe_route_values(op, list(args)))

    @impl(ttir.MoeDispatchOp)
    @located
    def run_moe_dispatch(self, interpreter, op, args):
        return _distributed(moe_dispatch_values(op, list(args)))

    @impl(ttnn.MoeDispatchOp)
    @located
    def run_ttnn_moe_dispatch(self, interpreter, op, args):
        return _distributed(moe_dispatch_values(op, list(args)))

    @impl(ttir.MoeCombineOp)
    @located
    def run_moe_combine(self, interpreter, op, args):
        return _distributed(moe_combine_values(op, list(args)))

    @impl(ttnn.MoeCombineOp)
    @located
    def run_ttnn_moe_combine(self, interpreter, op, args):
        return _distributed(moe_combine_values(op, list(args)))


def golden_functions(mesh_shape: tuple[int, ...]) -> GoldenFunctions:
    """Golden implementations of every ttir op and of the ttnn ops (numpy meaning)."""
    return GoldenFunctions(mesh_shape)
