"""Helpers shared by meshc's passes: the module's mesh and chip grid, tensor types and layouts,
the memory config of a metal layout and the distribution attributes of a host <-> mesh transfer
(both lowerings, to ttnn and to ttmetal, use them).

Nothing here rewrites IR on its own; the facts come from meshc.layout.
"""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.dialects.builtin import AffineMapAttr, DenseArrayBase, ModuleOp, NoneAttr, TensorType, i64
from xdsl.ir import Attribute, Block, Operation, SSAValue

from meshc.errors import LocatedError
from meshc.dialects.element_types import data_type_name
from meshc.dialects import ttir
from meshc.dialects.tt import module_device, module_mesh_shape, module_system
from meshc.dialects.tt.enums import presharded
from meshc.dialects.ttir import tensor_shape
from meshc.dialects.ttnn import ShardedBufferConfigAttr
from meshc.layout.errors import LayoutError
from meshc.layout.mesh import ShardingSpec, shard_dims_of
from meshc.layout.metal_layout import UnrealisableLayout, ttnn_memory_config
from meshc.layout.sharded_buffer import datum_size, lower_distribution


def module_mesh(module: ModuleOp) -> tuple[int, ...]:
    """The module's mesh shape; one device when it has no `#tt.device`."""
    return module_mesh_shape(module) or (1,)


def module_device_model(module: ModuleOp):
    """The module's Device model, or None."""
    return module_device(module)


def chip_grid(module: ModuleOp) -> tuple[int, int]:
    """The core grid of the module's chips: its system's first chip's, else 8x8."""
    sysdesc = module_system(module)
    if sysdesc is not None:
        g = sysdesc.chips[0].grid
        return int(g[0]), int(g[1])
    return (8, 8)


def prod(xs) -> int:
    n = 1
    for x in xs:
        n *= int(x)
    return n



def largest_divisor_at_most(n: int, limit: int) -> int:
    for k in range(min(n, limit), 0, -1):
        if n % k == 0:
            return k
    return 1


def with_encoding(t: TensorType, encoding: Attribute | None) -> TensorType:
    return TensorType(t.element_type, t.get_shape(), encoding if encoding is not None else NoneAttr())


def encoding_of(t: Attribute) -> Attribute | None:
    if isinstance(t, TensorType) and not isinstance(t.encoding, NoneAttr):
        return t.encoding
    return None


def host_type(t: Attribute) -> Attribute:
    return with_encoding(t, None) if isinstance(t, TensorType) else t


def fix_function_types(module: ModuleOp) -> None:
    """Make every func's signature agree with its block arguments and returned values."""
    for f in module.walk():
        if not isinstance(f, func.FuncOp) or not f.body.blocks:
            continue
        ins = [a.type for a in f.body.blocks[0].args]
        outs = list(f.function_type.outputs.data)
        for op in f.walk():
            if isinstance(op, func.ReturnOp) and op.parent_op() is f:
                outs = [v.type for v in op.operands]
        f.function_type = func.FunctionType.from_lists(ins, outs)


def memory_config_for(t: TensorType, op: Operation, core_map: AffineMapAttr | None, backend: str = "TTNN"):
    """(MemoryConfig, tile, data type name) realising a tensor's #tt.metal_layout
    (meshc.layout.metal_layout.ttnn_memory_config), or a located error naming `backend`.
    A `core_map` must be the transpose (the grid reinterpreted as transposed)."""
    model = encoding_of(t).model()  # type: ignore[union-attr]
    transposed = False
    if core_map is not None and model.memory_space != "dram" and len(model.grid) <= 2:
        if str(core_map.data) != "(d0, d1) -> (d1, d0)":
            raise LocatedError(
                f"{backend} cannot realise the core map {core_map.data}: {backend} places block shards in row-major "
                "or column-major order only", op)
        transposed = True
    try:
        cfg, tile = ttnn_memory_config(model, tuple(t.get_shape()), transposed, backend)
    except UnrealisableLayout as e:
        raise LocatedError(f"{backend} cannot realise the {e.subject} of {t}: {e.reason}", op) from None
    return cfg, tile, model.dtype.name


def distribution_attrs(t: TensorType, spec: ShardingSpec, op: Operation) -> dict[str, Attribute]:
    """`shard_dims` and `config` of a host <-> mesh transfer of a host tensor of type `t` placed as
    `spec`: the one source the op states and the config the simulator executes
    (meshc.layout.sharded_buffer.lower_distribution: the 2D config when TT-Mesh's 2D infra
    expresses it, else the ND one). On one device, `shard_dims` only."""
    try:
        attrs: dict[str, Attribute] = {"shard_dims": DenseArrayBase.from_list(i64, list(shard_dims_of(spec)))}
    except LayoutError as e:
        raise LocatedError(f"cannot distribute over the module's mesh {spec.mesh}: {e}", op) from None
    if spec.mesh.size == 1:
        return attrs
    try:
        config = lower_distribution(tensor_shape(t), spec, datum_size(data_type_name(t.element_type) or "f32"))
    except LayoutError as e:
        raise LocatedError(f"cannot lower the distribution to a ShardedBufferConfig: {e}", op) from None
    attrs["config"] = ShardedBufferConfigAttr.from_model(config)
    return attrs


def whole_values(f: func.FuncOp) -> set[SSAValue]:
    """The values of `f` that are whole (global) tensors, the same on every device the lowerings
    compute them on: the function's arguments (but presharded ones, one piece a device),
    shard_to_full results, and the results of ops (other than the per-device ones: collectives,
    full_to_shard mesh_shards) whose operands are all whole. A value computed from a
    full_to_shard's pieces is not."""
    args = f.body.blocks[0].args if f.body.blocks else ()
    attrs = f.arg_attrs.data if f.arg_attrs is not None else (None,) * len(args)
    whole: set[SSAValue] = {a for a, d in zip(args, attrs) if not presharded(d)}
    for op in f.walk():
        if isinstance(op, ttir.MeshShardOp):
            if not op.is_full_to_shard:
                whole.update(op.results)
        elif not op.has_trait(ttir.PerDevice) and all(o in whole for o in op.operands):
            whole.update(op.results)
    return whole


def reads_back_to_distribute(op: ttir.MeshShardOp) -> bool:
    """Whether a full_to_shard mesh_shard distributes a whole tensor the lowering computed on the
    devices (every device holds all of it), which it first reads back to the host, as tt-mlir's
    runtime distributes host tensors only (check_host_distributions has refused the others: the
    input is in `whole_values`)."""
    owner = op.input.owner
    return op.is_full_to_shard and not isinstance(owner, Block) and not (
        isinstance(owner, ttir.MeshShardOp) and not owner.is_full_to_shard)


def check_host_distributions(f: func.FuncOp, pass_name: str, whole: set[SSAValue] | None = None) -> None:
    """Every full_to_shard `ttir.mesh_shard` of `f` distributes a whole tensor: a function
    argument, what a shard_to_full mesh_shard gathered back to the host, or what ops computed
    from those (the lowerings compute such an op on every device, read one copy back to the host
    and distribute it: a host round trip, counted). Distributing a value computed from
    per-device pieces would read each device's own piece as the whole tensor: refused, located
    at the mesh_shard, before anything is rewritten. `whole`: `whole_values(f)`, when the caller has it."""
    whole = whole_values(f) if whole is None else whole
    for op in f.walk():
        if not isinstance(op, ttir.MeshShardOp) or not op.is_full_to_shard or op.input in whole:
            continue
        owner = op.input.owner
        raise LocatedError(f"{pass_name}: distributes the result of '{owner.name}', which holds per-device pieces "
                           "(it is computed from a full_to_shard's result); a full_to_shard mesh_shard distributes "
                           "a whole tensor (a function argument, a shard_to_full's result, or ops on those): "
                           "gather the pieces back with a shard_to_full first", op)
