"""The golden interpreter: ttir (and ttnn, read as its numpy meaning) on numpy.

A distributed value is a `Distributed` list of arrays over the mesh in device order; collectives
are plain numpy over that list (concatenate, sum, split), with no machine in between. This is
the reference `meshc-run --check` compares the simulator against. ttnn programs are accepted
too: `ttnn.distribute_tensor` / `aggregate_tensor` mean what `ttir.mesh_shard` means, memory
and layout changes are the identity, and compute ops share the kernels of meshc/sim/compute.py. Ops that carry their own SPMD
meaning (a `spmd(args, mesh_shape)` method: ttir.reshard, all_slice, the MoE ops) run through it.
"""

from __future__ import annotations


import numpy as np
from xdsl.interpreter import Interpreter, InterpreterFunctions, impl, register_impls

from meshc.diagnostics import LocatedError
from meshc.interp.common import Distributed, element_dtype_name, kernel_attrs, located, shape_of
from meshc.dialects.ttir import collective_args
from meshc.layout.collectives import COLLECTIVES, collective
from meshc.layout.errors import LayoutError
from meshc.layout.mesh import ShardingSpec, spec_from_shard_dims
from meshc.sim.compute import KINDS, run_kernel
from meshc.sim.encoding import quantize

COLLECTIVE_KINDS = COLLECTIVES.keys()
"""The collective kinds (a live view of meshc.layout.collectives.COLLECTIVES), each run by its
registry entry."""


def spec_for(shard_dims: tuple[int, ...], rank: int, mesh_shape: tuple[int, ...]) -> ShardingSpec:
    """The ShardingSpec of a mesh_shard / distribute: per mesh axis, the tensor dim it splits."""
    if len(shard_dims) > len(mesh_shape):
        raise LayoutError(f"shard_dims {list(shard_dims)} has {len(shard_dims)} entries for a mesh of "
                          f"{len(mesh_shape)} axes; expected one entry per mesh axis")
    for axis, d in enumerate(shard_dims):
        if d >= rank:
            raise LayoutError(f"shard_dims entry {d} (mesh axis {axis}) is not a dim of a rank-{rank} tensor; "
                              f"expected -1 (replicate) or a dim below {rank}")
    return spec_from_shard_dims(shard_dims, rank, mesh_shape)


def split_to_devices(full: np.ndarray, spec: ShardingSpec) -> Distributed:
    return Distributed(full[spec.local_slices(full.shape, c)] for c in spec.mesh.coords())


def assemble(pieces: list[np.ndarray], spec: ShardingSpec, full_shape: tuple[int, ...]) -> np.ndarray:
    out = np.empty(full_shape, pieces[0].dtype)
    for piece, c in zip(pieces, spec.mesh.coords()):
        out[spec.local_slices(full_shape, c)] = piece
    return out


def shard_dims_of(op) -> tuple[int, ...]:
    from meshc.dialects.shape_rules import ints_of

    if "shard_type" in op.attributes and op.attributes["shard_type"].data in ("replicate", "identity"):
        return tuple(-1 for _ in ints_of(op.attributes["shard_dims"]))
    return ints_of(op.attributes["shard_dims"])


def golden_collective(kind: str, op, vals: list[np.ndarray], mesh_shape) -> Distributed:
    """numpy meaning of a collective over a distributed value (meshc.layout.collectives)."""
    c = collective(kind)
    return Distributed(c.reference(vals, tuple(mesh_shape), collective_args(op, c, vals[0].ndim)))


def dense_value(attr, shape: tuple[int, ...], dtype: str) -> np.ndarray:
    """The host array of a dense elements attribute (a splat fills the shape), in `dtype`."""
    from meshc.layout.dtypes import get_dtype

    vals = np.asarray(attr.get_values())
    arr = np.broadcast_to(vals.reshape(()), shape) if vals.size == 1 else vals.reshape(shape)
    return quantize(np.array(arr, dtype=get_dtype(dtype).host_dtype), dtype)


def constant_value(op) -> np.ndarray:
    return dense_value(op.attributes["value"], shape_of(op.results[0]), element_dtype_name(op.results[0].type))


class GoldenState:
    def __init__(self, mesh_shape: tuple[int, ...]):
        self.mesh_shape = tuple(mesh_shape)


def _per_device(fn, args):
    """Apply fn to per-device arguments when any is distributed (host arrays are shared)."""
    dist = [a for a in args if isinstance(a, Distributed)]
    if not dist:
        return fn(list(args))
    n = len(dist[0])
    return Distributed(fn([a[i] if isinstance(a, Distributed) else a for a in args]) for i in range(n))


def compute_impl(self, interpreter: Interpreter, op, args):
    kind = op.name.split(".", 1)[1]
    attrs = kernel_attrs(op)
    dtype = element_dtype_name(op.results[0].type)
    try:
        return (_per_device(lambda xs: quantize(run_kernel(kind, xs, attrs), dtype), args),)
    except (LayoutError, ValueError) as e:
        raise LocatedError(str(e), op) from None


def make_functions(op_classes: dict, base: type, name: str) -> type:
    """An InterpreterFunctions class with `@impl(cls)` of `fn` for every (cls, fn)."""
    ns = {}
    for i, (cls, fn) in enumerate(op_classes.items()):
        ns[f"run_{i}_{cls.__name__}"] = impl(cls)(fn)
    return register_impls(type(name, (base,), ns))


def golden_functions(mesh_shape: tuple[int, ...]) -> InterpreterFunctions:
    """Golden implementations of every ttir op and of the ttnn ops (numpy meaning)."""
    from meshc.dialects import ttir, ttnn

    state = GoldenState(mesh_shape)
    table: dict = {}

    for dialect in (ttir.TTIR, ttnn.TTNN):
        for cls in dialect.operations:
            kind = cls.name.split(".", 1)[1]
            if kind in KINDS:
                table[cls] = compute_impl
            elif kind in COLLECTIVE_KINDS:
                @located
                def coll(self, interpreter, op, args, kind=kind):
                    (x,) = args
                    if not isinstance(x, Distributed):
                        x = Distributed([x] * int(np.prod(state.mesh_shape)))
                    return (golden_collective(kind, op, list(x), state.mesh_shape),)
                table[cls] = coll

    def constant(self, interpreter, op, args):
        return (constant_value(op),)

    def empty(self, interpreter, op, args):
        from meshc.layout.dtypes import get_dtype

        return (np.zeros(shape_of(op.results[0]), get_dtype(element_dtype_name(op.results[0].type)).host_dtype),)

    def identity(self, interpreter, op, args):
        return (args[0],)

    def to_device(self, interpreter, op, args):
        x = args[0]
        if isinstance(x, Distributed):
            return (x,)
        return (Distributed([x] * int(np.prod(state.mesh_shape))),)

    def from_device(self, interpreter, op, args):
        x = args[0]
        if isinstance(x, Distributed) and len(x) == 1:
            return (x[0],)
        return (x,)

    def get_device(self, interpreter, op, args):
        return (state,)

    def shard(self, interpreter, op, args):
        x = args[0]
        if op.name == "ttir.mesh_shard" and op.is_identity:  # unchanged on every device
            return (x,)
        full_to_shard = op.name == "ttnn.distribute_tensor" or (
            op.name == "ttir.mesh_shard" and op.attributes["shard_direction"].data == "full_to_shard")
        dims = shard_dims_of(op)
        if full_to_shard:
            if isinstance(x, Distributed):
                raise LocatedError("full_to_shard needs a host tensor, but its operand is already distributed", op)
            spec = spec_for(dims, x.ndim, state.mesh_shape)
            return (split_to_devices(x, spec),)
        full = shape_of(op.results[0])
        if not isinstance(x, Distributed):
            x = Distributed([x] * int(np.prod(state.mesh_shape)))
        spec = spec_for(dims, len(full), state.mesh_shape)
        return (assemble(list(x), spec, full),)

    table[ttir.ConstantOp] = constant
    table[ttnn.ConstantOp] = constant
    table[ttir.EmptyOp] = empty
    table[ttnn.EmptyOp] = empty
    for cls in (ttir.ToLayoutOp, ttnn.ToLayoutOp, ttnn.ToMemoryConfigOp):
        table[cls] = identity
    table[ttnn.ToDeviceOp] = to_device
    table[ttnn.FromDeviceOp] = from_device
    table[ttnn.GetDeviceOp] = get_device
    for cls in (ttir.MeshShardOp, ttnn.DistributeTensorOp, ttnn.AggregateTensorOp):
        table[cls] = shard
    cls = make_functions(table, InterpreterFunctions, "GoldenFunctions")
    return cls()


def spmd_functions(mesh_shape: tuple[int, ...], exclude: InterpreterFunctions | None = None) -> InterpreterFunctions:
    """Implementations of the ops that define their own SPMD meaning (`op.spmd(args, mesh_shape)`:
    ttir.reshard, all_slice, the MoE ops), for those `exclude` does not implement already."""
    from meshc.dialects import ttir, ttnn

    have = {cls for cls, _ in type(exclude)._impls()} if exclude is not None else set()

    @located
    def spmd(self, interpreter, op, args):
        res = op.spmd(list(args), tuple(mesh_shape))
        return tuple(Distributed(r) if isinstance(r, list) else r for r in res)

    table = {cls: spmd for d in (ttir.TTIR, ttnn.TTNN) for cls in d.operations
             if cls not in have and callable(getattr(cls, "spmd", None))}
    return make_functions(table, InterpreterFunctions, "SpmdFunctions")()
