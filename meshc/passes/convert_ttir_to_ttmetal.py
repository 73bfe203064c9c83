"""`convert-ttir-to-ttmetal`: lower ttir to mesh buffers and programs over core grids.

Every device tensor gets a `ttmetal.create_buffer` whose memory config comes from its
`#tt.metal_layout` (as for TTNN); host tensors enter through `enqueue_write_buffer`
(`ttir.mesh_shard full_to_shard` distributes with its shard_dims, a function argument is
replicated; a presharded argument, one piece a device, enters through `enqueue_write_shards`,
each device's piece to its device) and leave through `enqueue_read_buffer`. Each compute op becomes an
`enqueue_program` over its result's core grid (2-d, from the layout; a reinterpreted grid
runs on the cores its `core_map` names) whose kernel reads blocks, computes on them and
writes its block. Lowered: elementwise unary/binary and comparisons (broadcasting a row or a column
on the result's cores, any other broadcast on one core), where,
typecast, matmul (with transposes and its math_fidelity; a batched `a` times a 2-d `b` folds the
batch into the rows; both batched, a batch block a core) and tt-mlir's linear in the same kernel
adding its bias block, 2-d transpose, softmax over any dim, to_layout,
constant (`enqueue_write_constant`), empty, the collectives (`enqueue_ccl`), and the element
moves of convert_ttir_to_ttmetal_movement.py: reshape, permute, broadcast and sum / mean / max / min
over any dims, kept or dropped (a 0-d result is a one-element buffer), and tt-mlir's KV-cache
writes update_cache / fill_cache (convert_ttir_to_ttmetal_cache.py: a program writing the new
cache into the cache's own buffer). A host tensor a
shard_to_full read back is written to every device again where an op uses it (the host round
trip the program states). Anything else is a located error naming the op and why: never a
silently wrong lowering.

Which ttir op runs which kernel, and which collective kind, is the op table in
convert_ttir_to_ttmetal_table.py; the kernels are built by convert_ttir_to_ttmetal_kernel.py.
The rewriting is xDSL's: one RewritePattern an op family, applied in program order by a
GreedyRewritePatternApplier. A lowered ttir op stays until its users have read its buffer, and
is erased when the func is done.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    AffineMapAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    ModuleOp,
    StringAttr,
    TensorType,
    i64,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint
from xdsl.utils.exceptions import VerifyException

from meshc.errors import LocatedError
from meshc.dialects import ttir, ttmetal
from meshc.dialects.tt.enums import presharded
from meshc.dialects.ttnn import MemoryConfigAttr
from meshc.layout.memory_config import MemoryConfig
from meshc.layout.mesh import Mesh, ShardingSpec
from meshc.layout.sharding_rules import replicated
from meshc.layout.shapes import fold_2d
from meshc.passes.convert_ttir_to_ttmetal_cache import cache_constants, cache_kernel
from meshc.passes.convert_ttir_to_ttmetal_kernel import KernelBuilder, even_grid, matmul_fidelity, result_grid
from meshc.passes.convert_ttir_to_ttmetal_select import concat_kernel, embedding_kernel, select_grid, slice_kernel
from meshc.passes.convert_ttir_to_ttmetal_movement import (
    batched_matmul_grid,
    batched_matmul_kernel,
    block_broadcast,
    broadcast_grid,
    broadcast_kernel,
    fused_bias,
    matmul_batch,
    movement_grid,
    movement_kernel,
    reduce_grid,
    reduce_kernel,
    softmax_grid,
    softmax_kernel,
)
from meshc.passes.convert_ttir_to_ttmetal_table import BUFFER_OPS, TTIR_TO_TTMETAL, Kernel, ccl_kind
from meshc.passes.convert_ttir_to_ttmetal_table import lowers_to_ccl  # noqa: F401 (this pass's answer to 'is it a collective?')
from meshc.passes.lowering_utils import (
    check_host_distributions,
    reads_back_to_distribute,
    distribution_attrs,
    encoding_of,
    fix_function_types,
    host_type,
    memory_config_for,
    module_mesh,
    prod,
)

YX = ("y", "x")
"""Selectors of a core's own block: its rows of the grid, its columns."""


@contextlib.contextmanager
def lowering(op: Operation):
    """A VerifyException while `op` is lowered (a block that does not split) is located at `op`."""
    try:
        yield
    except VerifyException as e:
        raise LocatedError(f"convert-ttir-to-ttmetal cannot lower this op: {e}", op) from None


# ----------------------------------------------------------------------------- buffers of a func


@dataclass
class MetalLowering:
    """What the patterns share while one func is lowered: the buffer of every lowered device
    tensor, the buffers made (freed before the return) and the ttir ops lowered (erased last)."""

    mesh: tuple[int, ...]
    block: Block
    buffers: dict[SSAValue, SSAValue] = field(default_factory=dict)
    created: list[SSAValue] = field(default_factory=list)
    whole: set[SSAValue] = field(default_factory=set)
    """Values every device holds whole: host tensors written replicated, and what programs compute
    from them and constants alone (a returned one is read back once, not a device each)."""
    pending: list[Operation] = field(default_factory=list)
    pieces: set[int] = field(default_factory=set)
    """The func's presharded arguments (on a mesh of several devices): one host tensor a device,
    each written to its device as it is (`enqueue_write_shards`), never whole."""

    @staticmethod
    def insert(new: Operation, before: Operation, loc, rewriter: PatternRewriter) -> Operation:
        new.location = loc
        rewriter.insert(new, InsertPoint.before(before))
        return new

    def create_buffer(self, t: TensorType, before: Operation, origin: Operation, rewriter: PatternRewriter,
                      host: bool = False) -> SSAValue:
        """A `ttmetal.create_buffer` for a tensor of type `t`, placed by its layout (a host tensor,
        or one without a layout, in DRAM interleaved)."""
        shape = tuple(t.get_shape())
        attrs: dict[str, Attribute] = {}
        if host or encoding_of(t) is None:
            cfg, tile = MemoryConfig("dram", "interleaved"), ((32, 32) if len(shape) >= 2 else None)
        else:
            cm = origin.attributes.get("core_map")
            cfg, tile, _ = memory_config_for(t, origin, cm if isinstance(cm, AffineMapAttr) else None, "TTMetal")
        attrs["memory_config"] = MemoryConfigAttr.from_model(cfg)
        if tile is not None:
            attrs["tile"] = DenseArrayBase.from_list(i64, list(tile))
        new = ttmetal.CreateBufferOp.create(result_types=[ttmetal.BufferType(shape, t.element_type)], attributes=attrs)
        self.insert(new, before, origin.location, rewriter)
        self.created.append(new.results[0])
        return new.results[0]

    def buffer_of(self, v: SSAValue, user: Operation, rewriter: PatternRewriter) -> SSAValue:
        """The buffer holding `v`: a lowered device tensor's, or a host tensor replicated onto every
        device: a host argument at the start of the func, a tensor a shard_to_full read back (a
        shard_map's result the program goes on computing with) right after the read. That is a
        host round trip, as the program states it: the pieces come to the host whole and go back
        to every device, each byte counted as host traffic."""
        hit = self.buffers.get(v)
        if hit is not None:
            return hit
        if isinstance(v.owner, Block):
            at = self.block.first_op
        elif isinstance(v.owner, ttmetal.EnqueueReadBufferOp) and v.owner.next_op is not None:
            at = v.owner.next_op
        else:
            raise LocatedError("convert-ttir-to-ttmetal: operand is not a device tensor", user)
        buf = self.create_buffer(v.type, at, user, rewriter, host=True)
        self.buffers[v] = buf
        if isinstance(v, BlockArgument) and v.index in self.pieces:  # one piece a device, written as it is
            self.insert(ttmetal.EnqueueWriteShardsOp.create(operands=[v, buf]), at, user.location, rewriter)
            return buf
        self.write(v, buf, replicated(Mesh(self.mesh), len(v.type.get_shape())), at, user, rewriter)
        self.whole.add(v)
        return buf

    def write(self, v: SSAValue, buf: SSAValue, spec: ShardingSpec, before: Operation, origin: Operation,
              rewriter: PatternRewriter) -> None:
        attrs = distribution_attrs(v.type, spec, origin)
        self.insert(ttmetal.EnqueueWriteBufferOp.create(operands=[v, buf], attributes=attrs), before, origin.location,
                    rewriter)

    def lowered(self, op: Operation, buffer: SSAValue, rewriter: PatternRewriter) -> None:
        """`op`'s result now lives in `buffer`; `op` itself is erased once the func is done (its
        uses must all be lowered ops that read the buffer map)."""
        self.buffers[op.results[0]] = buffer
        for r in op.results:
            if any(u.operation.dialect_name() != "ttir" and not isinstance(u.operation, func.ReturnOp)
                   for u in r.uses):
                raise LocatedError("convert-ttir-to-ttmetal: a device tensor is used by a non-ttir op", op)
        self.pending.append(op)
        rewriter.notify_op_modified(op)

    def erase_lowered(self) -> None:
        for op in reversed(self.pending):
            op.detach()
            op.erase()


class MetalPattern(RewritePattern):
    """A pattern of this pass: it reads and updates the func's `MetalLowering`."""

    def __init__(self, lowering: MetalLowering):
        self.lowering = lowering


# ----------------------------------------------------------------------------- buffers and transfers


class MeshShardToTransfer(MetalPattern):
    """`ttir.mesh_shard` full_to_shard: a buffer and `enqueue_write_buffer` with its sharding;
    shard_to_full: `enqueue_read_buffer` of the operand's buffer."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ttir.MeshShardOp, rewriter: PatternRewriter) -> None:
        lo = self.lowering
        spec = op.sharding(lo.mesh)
        if op.is_full_to_shard:
            host = op.input
            if reads_back_to_distribute(op):  # a whole tensor every device holds: one copy read back
                t = host_type(op.input.type)
                read = ttmetal.EnqueueReadBufferOp.create(
                    operands=[lo.buffer_of(op.input, op, rewriter)], result_types=[t],
                    attributes=distribution_attrs(t, replicated(Mesh(lo.mesh), len(t.get_shape())), op))
                lo.insert(read, op, op.location, rewriter)
                host = read.results[0]
            buf = lo.create_buffer(op.result.type, op, op, rewriter)
            lo.write(host, buf, spec, op, op, rewriter)
            lo.lowered(op, buf, rewriter)
            return
        src = lo.buffer_of(op.input, op, rewriter)
        attrs = distribution_attrs(op.result.type, spec, op)
        new = ttmetal.EnqueueReadBufferOp.create(operands=[src], result_types=[op.result.type], attributes=attrs)
        lo.insert(new, op, op.location, rewriter)
        rewriter.replace_all_uses_with(op.result, new.results[0])
        rewriter.erase(op)


class ConstantToBuffer(MetalPattern):
    """`ttir.constant`: a buffer and `enqueue_write_constant` of its value."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ttir.ConstantOp, rewriter: PatternRewriter) -> None:
        lo = self.lowering
        buf = lo.create_buffer(op.results[0].type, op, op, rewriter)
        lo.insert(ttmetal.EnqueueWriteConstantOp.create(operands=[buf], attributes={"value": op.value}), op,
                  op.location, rewriter)
        lo.lowered(op, buf, rewriter)


class EmptyToBuffer(MetalPattern):
    """`ttir.empty`: a buffer."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ttir.EmptyOp, rewriter: PatternRewriter) -> None:
        lo = self.lowering
        lo.lowered(op, lo.create_buffer(op.results[0].type, op, op, rewriter), rewriter)


class CollectiveToCcl(MetalPattern):
    """A ttir collective: `enqueue_ccl` of its kind (`ccl_kind`) from its operand's buffer into a
    new one, with the collective's attributes."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        kind = ccl_kind(op)
        if kind is None:
            return
        lo = self.lowering
        with lowering(op):
            op.verify_()  # its shapes against the mesh the pipeline registered (unknown when it was parsed)
            src = lo.buffer_of(op.operands[0], op, rewriter)
            out = lo.create_buffer(op.results[0].type, op, op, rewriter)
            attrs = dict(op.attributes)
            attrs["kind"] = StringAttr(kind)
            lo.insert(ttmetal.EnqueueCclOp.create(operands=[src, out], attributes=attrs), op, op.location, rewriter)
            lo.lowered(op, out, rewriter)


class CacheWriteToProgram(MetalPattern):
    """`ttir.update_cache` / `ttir.fill_cache`: a one-core program that writes the new cache into
    the cache's own buffer (convert_ttir_to_ttmetal_cache.py); later reads of the cache value read
    that buffer, so they see the write. The op has no result; it is erased with the lowered ops."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, (ttir.UpdateCacheOp, ttir.FillCacheOp)):
            return
        lo = self.lowering
        with lowering(op):
            consts = cache_constants(op)
            ins = [lo.buffer_of(v, op, rewriter) for v in op.operands]
            elem = op.update_index.type.element_type if isinstance(op, ttir.UpdateCacheOp) else op.cache.type.element_type
            for value in consts:
                t = TensorType(elem, value.shape)
                buf = lo.create_buffer(t, op, op, rewriter)
                flat = [v.item() for v in value.reshape(-1)]
                lo.insert(ttmetal.EnqueueWriteConstantOp.create(
                    operands=[buf], attributes={"value": DenseIntOrFPElementsAttr.from_list(t, flat)}), op, op.location,
                    rewriter)
                ins.append(buf)
            k = KernelBuilder(ins, (1, 1), None, op.location)
            cache_kernel(op, k)
            lo.insert(k.build(), op, op.location, rewriter)
        if not all(v in lo.whole for v in op.operands[1:] if not isinstance(v.owner, ttir.ConstantOp)):
            lo.whole.discard(op.cache)  # each device's own input written: the copies differ
        lo.pending.append(op)
        rewriter.notify_op_modified(op)


class ReturnReadsBuffers(MetalPattern):
    """`func.return`: a returned device tensor is read back (on a mesh it stays distributed:
    `enqueue_read_shards`, one host tensor a device), every buffer the func made is deallocated,
    and the queue finished."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: func.ReturnOp, rewriter: PatternRewriter) -> None:
        lo = self.lowering
        for i, v in enumerate(op.operands):
            buf = lo.buffers.get(v)
            if buf is None:
                continue
            rt = TensorType(v.type.element_type, v.type.get_shape())
            if prod(lo.mesh) > 1 and v not in lo.whole:  # distributed: every device's tensor is read back
                new = ttmetal.EnqueueReadShardsOp.create(operands=[buf], result_types=[rt])
            else:
                new = ttmetal.EnqueueReadBufferOp.create(
                    operands=[buf], result_types=[rt],
                    attributes=distribution_attrs(rt, replicated(Mesh(lo.mesh), len(rt.get_shape())), op))
            lo.insert(new, op, op.location, rewriter)
            op.operands[i] = new.results[0]
        for buf in lo.created:
            lo.insert(ttmetal.DeallocateBufferOp.create(operands=[buf]), op, op.location, rewriter)
        lo.insert(ttmetal.FinishOp.create(), op, op.location, rewriter)


class UnloweredTTIROp(RewritePattern):
    """Last in line: a ttir op no pattern lowered (a located error naming what is covered)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if op.dialect_name() == "ttir" and type(op) not in BUFFER_OPS:
            raise LocatedError(
                f"convert-ttir-to-ttmetal cannot lower '{op.name}': TTMetal kernels here cover elementwise ops "
                "(comparisons and where included), matmul (batched too), transpose, permute, reshape, broadcast, "
                "sum / mean / max / min, softmax, slice, concat, embedding, KV-cache writes, to_layout, constants and "
                "collectives (ttir-to-ttmetal-pipeline decomposes cumsum, cumprod, argmax, argmin, top_k, sort, linear "
                "and mesh_partition into them first)", op)


# ----------------------------------------------------------------------------- programs


class OpToProgram(MetalPattern):
    """A ttir compute op of `TTIR_TO_TTMETAL`: an `enqueue_program` over its result's core grid
    whose kernel (the table's family) reads the operands' blocks and writes the result's."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        kernel = TTIR_TO_TTMETAL.get(type(op))
        if kernel is None:
            return
        with lowering(op):
            self.program(op, kernel, rewriter)

    def program(self, op: Operation, kernel: Kernel, rewriter: PatternRewriter) -> None:
        lo = self.lowering
        out_t = op.results[0].type
        grid = result_grid(out_t, op)
        ins = [lo.buffer_of(v, op, rewriter) for v in op.operands]
        out = lo.create_buffer(out_t, op, op, rewriter)
        H, W = fold_2d(tuple(out_t.get_shape()))
        program_grid = PROGRAM_GRIDS.get(kernel.family)
        if kernel.family == "matmul" and matmul_batch(op) is not None:
            program_grid = batched_matmul_grid
        if program_grid is not None:  # its own grid: a block that does not split is the builder's error
            grid = program_grid(op, kernel, grid)
        else:  # the result's grid; a ragged dim (a partial last tile) on the cores that divide it
            grid = even_grid((H, W), grid)
        k = KernelBuilder([*ins, out], grid, op.attributes.get("core_map"), op.location)
        KERNEL_BODIES[kernel.family](op, kernel, k, len(ins))
        lo.insert(k.build(), op, op.location, rewriter)
        lo.lowered(op, out, rewriter)
        consts = [v for v in op.operands if isinstance(v.owner, ttir.ConstantOp)]
        if len(consts) < len(op.operands) and all(v in lo.whole for v in op.operands if v not in consts):
            lo.whole.add(op.results[0])


def elementwise_grid(op: Operation, kernel: Kernel, grid: tuple[int, int]) -> tuple[int, int]:
    """A binary op's or a where's grid: the result's (`even_grid` along a ragged dim), or one core
    when an operand broadcasts other than as a row, a column or a scalar of the folded result
    (a `[1, 13, 1]` mask over `[3, 13, 64]`): that core broadcasts it whole (`tile_broadcast`)."""
    os = tuple(op.results[0].type.get_shape())
    if any(block_broadcast(tuple(v.type.get_shape()), os) is None for v in op.operands):
        return (1, 1)
    return even_grid(fold_2d(os), grid)


def operand_block(k: KernelBuilder, i: int, op: Operation) -> SSAValue:
    """Operand `i`'s block of an elementwise kernel: its own block, a row, a column or a scalar
    (numpy broadcasting in the tile op does the rest), or, on `elementwise_grid`'s one core, the
    whole operand broadcast to the result."""
    s, os = tuple(op.operands[i].type.get_shape()), tuple(op.results[0].type.get_shape())
    sel = block_broadcast(s, os)
    if sel is not None:
        return k.read(i, sel)
    return k.broadcast(k.read(i, ("all", "all")), (1,) * (len(os) - len(s)) + s, os, fold_2d(os))


def broadcast_selectors(v: SSAValue, out_t: TensorType, op: Operation) -> tuple[str, str]:
    """The selectors a binary kernel reads operand `v` with: its own block, or all of a row, a
    column or a scalar broadcast to the result."""
    s, os = tuple(v.type.get_shape()), tuple(out_t.get_shape())
    sel = block_broadcast(s, os)
    if sel is None:
        raise LocatedError(
            f"convert-ttir-to-ttmetal broadcasts a row, a column or a scalar only; cannot broadcast "
            f"{list(s)} to {list(os)}", op)
    return sel


# ----------------------------------------------------------------------------- kernel bodies
# Each writes the kernel of one family into `k`: operands are buffers 0 .. n-1, the result n.


def unary_kernel(op: Operation, kernel: Kernel, k: KernelBuilder, n: int) -> None:
    out_t = op.results[0].type
    elem = out_t.element_type if kernel.tile_op == "typecast" else None
    k.write(k.unary(kernel.tile_op, k.read(0, YX), elem), n, YX)


def copy_kernel(op: Operation, kernel: Kernel, k: KernelBuilder, n: int) -> None:
    k.write(k.unary(kernel.tile_op, k.read(0, YX)), n, YX)


def binary_kernel(op: Operation, kernel: Kernel, k: KernelBuilder, n: int) -> None:
    k.write(k.binary(kernel.tile_op, operand_block(k, 0, op), operand_block(k, 1, op)), n, YX)


def where_kernel(op: Operation, kernel: Kernel, k: KernelBuilder, n: int) -> None:
    c, a, b = (operand_block(k, i, op) for i in range(3))
    k.write(k.where(c, a, b), n, YX)


def matmul_kernel(op: Operation, kernel: Kernel, k: KernelBuilder, n: int) -> None:
    if isinstance(op, ttir.LinearBase) and not fused_bias(op):
        raise LocatedError(
            "convert-ttir-to-ttmetal lowers a linear as one matmul program when both operands have rank 2 or more, "
            "the result is the product's shape and the bias is a row, a column or a scalar of it; run "
            "ttir-decompose-ttmlir-ops first (ttir-to-ttmetal-pipeline does) for the other forms", op)
    ta = ttir.bool_value(op.attributes.get("transpose_a"))
    tb = ttir.bool_value(op.attributes.get("transpose_b"))
    # (..., M, K) x (K, N): the batch dims of a fold into M, as the 2-d buffers store them;
    # a b whose batch dims are all 1 is 2-d (an a with batch dims untransposed)
    if matmul_batch(op) is not None:  # run batch by batch: a batch block a core
        batched_matmul_kernel(op, k, n)
        return
    a = k.transpose(k.read(0, ("all", "y"))) if ta else k.read(0, ("y", "all"))
    b = k.transpose(k.read(1, ("x", "all"))) if tb else k.read(1, ("all", "x"))
    product = k.matmul(a, b, fidelity=matmul_fidelity(op))
    if len(op.operands) > 2:  # a linear's bias, added to the core's block of the product
        product = k.binary("add", product, k.read(2, broadcast_selectors(op.operands[2], op.results[0].type, op)))
    k.write(product, n, YX)


def transpose_kernel(op: Operation, kernel: Kernel, k: KernelBuilder, n: int) -> None:
    if len(op.results[0].type.get_shape()) != 2:
        raise LocatedError("convert-ttir-to-ttmetal lowers 2-d transpose only", op)
    k.write(k.transpose(k.read(0, ("x", "y"))), n, YX)


KERNEL_BODIES = {
    "unary": unary_kernel,
    "copy": copy_kernel,
    "binary": binary_kernel,
    "where": where_kernel,
    "matmul": matmul_kernel,
    "transpose": transpose_kernel,
    "reduce": reduce_kernel,
    "softmax": softmax_kernel,
    "reshape": movement_kernel,
    "permute": movement_kernel,
    "broadcast": broadcast_kernel,
    "slice": slice_kernel,
    "concat": concat_kernel,
    "embedding": embedding_kernel,
}
"""Kernel family (convert_ttir_to_ttmetal_table.Kernel.family) -> the function writing its body."""

PROGRAM_GRIDS = {
    "binary": elementwise_grid,
    "where": elementwise_grid,
    "reduce": reduce_grid,
    "softmax": softmax_grid,
    "reshape": movement_grid,
    "permute": movement_grid,
    "broadcast": broadcast_grid,
    "slice": select_grid,
    "concat": select_grid,
    "embedding": select_grid,
}
"""Kernel family -> its program's core grid from the result's grid (absent: the result's grid)."""


# ----------------------------------------------------------------------------- the pass


@dataclass(frozen=True)
class ConvertTTIRToTTMetalPass(ModulePass):
    name = "convert-ttir-to-ttmetal"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        mesh = module_mesh(op)
        for f in [x for x in op.walk() if isinstance(x, func.FuncOp)]:
            if not f.body.blocks:
                continue
            check_host_distributions(f, self.name)
            pieces = ({i for i, attrs in enumerate(f.arg_attrs.data) if presharded(attrs)}
                      if prod(mesh) > 1 and f.arg_attrs is not None else set())
            lo = MetalLowering(mesh, f.body.blocks[0], pieces=pieces)
            patterns = GreedyRewritePatternApplier([
                MeshShardToTransfer(lo),
                ConstantToBuffer(lo),
                EmptyToBuffer(lo),
                CollectiveToCcl(lo),
                CacheWriteToProgram(lo),
                OpToProgram(lo),
                ReturnReadsBuffers(lo),
                UnloweredTTIROp(),
            ], dce_enabled=False)
            PatternRewriteWalker(patterns, apply_recursively=False).rewrite_region(f.body)
            lo.erase_lowered()
        fix_function_types(op)
