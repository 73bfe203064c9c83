"""The ttmetal dialect: mesh buffers, host transfers and programs over core grids.

A ttmetal program is host code: it creates mesh buffers (one per device of the module's
mesh, each with the per-device shape, placed per core or per DRAM bank by its memory config),
writes host tensors into them (`enqueue_write_buffer`, distributing by `shard_dims` and the
ShardedBufferConfig; `enqueue_write_shards` for one host tensor a device; `enqueue_write_constant`
for constants), runs programs (`enqueue_program`: every core of a grid, on every
device, runs the kernel region over the buffers), moves data between devices
(`enqueue_ccl`) or from one pipeline stage's device to the next's (`enqueue_transfer`), reads results back (`enqueue_read_buffer`, or `enqueue_read_shards` for a result that stays
distributed) and frees buffers.

Kernels are regions of tile-level ops with a fixed meaning (docs/ttmetal.md): `read_tiles`
brings a block of a buffer into the core (from wherever it lives: the simulator counts the
bytes that cross cores), `tile_unary`, `tile_binary` (arithmetic and the comparisons, 1 / 0 in
the block's type), `tile_where`, `tile_matmul`, `tile_reduce` and
`tile_transpose` compute on blocks, `write_tiles` stores a block, `kernel_end` ends it.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyTensorTypeConstr,
    ArrayAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    IntAttr,
    IntegerAttr,
    StringAttr,
    TensorType,
)
from xdsl.ir import Attribute, Dialect, Operation, ParametrizedAttribute, SSAValue, TypeAttribute
from xdsl.irdl import (
    IRDLOperation,
    attr_def,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_attr_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.traits import IsTerminator
from xdsl.utils.exceptions import VerifyException

from meshc.dialects import shape_rules as rules
from meshc.dialects.tt.pipeline import check_stage_transfer
from meshc.dialects.ttir import HostTransfer, check_attr_name, tensor_shape
from meshc.dialects.ttmetal_select import TileConcatOp, TileEmbeddingOp, TileSliceOp, check_block_holds
from meshc.layout.collectives import COLLECTIVES
from meshc.layout.compute_ops import tile_ops
from meshc.layout.errors import LayoutError
from meshc.layout.hardware import FIDELITY_PHASES
from meshc.layout.kernel_traffic import SELECTORS, block_dims
from meshc.layout.shapes import fold_2d

# ----------------------------------------------------------------------------- types


@irdl_attr_definition
class BufferType(ParametrizedAttribute, TypeAttribute):
    """`!ttmetal.buffer<64x128xf32>`: a mesh buffer; the shape is the per-device tensor shape."""

    name = "ttmetal.buffer"
    shape: ArrayAttr[IntAttr]
    element_type: Attribute

    def __init__(self, shape: Sequence[int], element_type: Attribute):
        super().__init__(ArrayAttr([IntAttr(n) for n in shape]), element_type)

    def get_shape(self) -> tuple[int, ...]:
        return tuple(a.data for a in self.shape.data)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            dims, elem = parser.parse_ranked_shape()
        return (ArrayAttr([IntAttr(n) for n in dims]), elem)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<" + "".join(f"{n}x" for n in self.get_shape()))
        printer.print_attribute(self.element_type)
        printer.print_string(">")

    def verify(self) -> None:
        if any(n < 0 for n in self.get_shape()):
            raise VerifyException(f"buffer shape {list(self.get_shape())} must be static and non-negative")


# ----------------------------------------------------------------------------- host ops


@irdl_op_definition
class CreateBufferOp(IRDLOperation):
    """Allocate a mesh buffer: on every device, the per-device tensor laid out by `memory_config`.

    `memory_config` (`#ttnn.memory_config`) places the pages per core or per DRAM bank, as
    meshc.layout.place does (block shard (i, j) on core (i, j), or (j, i) when col_major).
    `tile` (array<i64: 32, 32>, optional) makes pages tiles.
    """

    name = "ttmetal.create_buffer"
    result = result_def(BufferType)
    memory_config = attr_def(Attribute)
    tile = opt_attr_def(DenseArrayBase)

    def verify_(self) -> None:
        check_attr_name(self, "memory_config", "ttnn.memory_config")
        if getattr(self.memory_config, "is_host", False):
            raise VerifyException("a mesh buffer lives in device memory: its memory_config cannot be "
                                  "system_memory (host memory); use l1 or dram")
        if self.tile is not None:
            t = rules.ints_of(self.tile)
            if len(t) != 2 or t not in _TILES:
                raise VerifyException(f"tile {list(t)} is not a tile shape; expected one of {sorted(_TILES)}")


_TILES = {(32, 32), (16, 32), (32, 16), (16, 16), (8, 32), (4, 32), (2, 32), (1, 32)}


class _ShardedTransfer(HostTransfer, IRDLOperation):
    """Host tensor <-> mesh buffer, split over the mesh by `shard_dims` as ttir.mesh_shard; the
    transfer itself goes through `config` (`#ttnn.sharded_buffer_config`, 2D or ND), which must
    give every device the block `shard_dims` give it, or without one through the config
    `shard_dims` lowers to."""

    shard_dims = attr_def(DenseArrayBase)
    config = opt_attr_def(Attribute)


@irdl_op_definition
class EnqueueWriteBufferOp(_ShardedTransfer):
    """Write a host tensor into a mesh buffer (each device gets its piece)."""

    name = "ttmetal.enqueue_write_buffer"
    input = operand_def(AnyTensorTypeConstr)
    buffer = operand_def(BufferType)

    def host_shape(self) -> tuple[int, ...]:
        return tensor_shape(self.input)

    def verify_(self) -> None:
        self.verify_transfer(tensor_shape(self.buffer), "buffer")


@irdl_op_definition
class EnqueueReadBufferOp(_ShardedTransfer):
    """Read a mesh buffer back into one host tensor (the pieces assembled per `shard_dims`)."""

    name = "ttmetal.enqueue_read_buffer"
    buffer = operand_def(BufferType)
    result = result_def(AnyTensorTypeConstr)

    def host_shape(self) -> tuple[int, ...]:
        return tensor_shape(self.result)

    def verify_(self) -> None:
        self.verify_transfer(tensor_shape(self.buffer), "buffer")


@irdl_op_definition
class EnqueueReadShardsOp(IRDLOperation):
    """Read every device's tensor of a mesh buffer back to the host, one host tensor a device (the
    result stays distributed: a function returning it returns one value a device)."""

    name = "ttmetal.enqueue_read_shards"
    buffer = operand_def(BufferType)
    result = result_def(AnyTensorTypeConstr)

    def verify_(self) -> None:
        if tensor_shape(self.result) != tensor_shape(self.buffer):
            raise VerifyException(f"result shape {rules.fmt(tensor_shape(self.result))} is not the per-device "
                                  f"buffer shape {rules.fmt(tensor_shape(self.buffer))}")


@irdl_op_definition
class EnqueueWriteShardsOp(IRDLOperation):
    """Write one host tensor a device into a mesh buffer: device i receives the i-th (device order,
    row-major over the mesh) as it is, no split and no copy to another device (the inverse of
    enqueue_read_shards; tt-mlir's presharded arguments, placed one piece a device). On one device
    the value is the one tensor."""

    name = "ttmetal.enqueue_write_shards"
    input = operand_def(AnyTensorTypeConstr)
    buffer = operand_def(BufferType)

    def verify_(self) -> None:
        if tensor_shape(self.input) != tensor_shape(self.buffer):
            raise VerifyException(f"input shape {rules.fmt(tensor_shape(self.input))} is not the per-device "
                                  f"buffer shape {rules.fmt(tensor_shape(self.buffer))}: each device's piece is "
                                  "written as it is")


@irdl_op_definition
class EnqueueWriteConstantOp(IRDLOperation):
    """Fill a mesh buffer with a constant (the same on every device), as a host write does."""

    name = "ttmetal.enqueue_write_constant"
    buffer = operand_def(BufferType)
    value = attr_def(DenseIntOrFPElementsAttr)

    def verify_(self) -> None:
        shape = tuple(self.value.get_type().get_shape())
        if shape != tensor_shape(self.buffer):
            raise VerifyException(f"value shape {rules.fmt(shape)} does not match the buffer shape {rules.fmt(tensor_shape(self.buffer))}")
        if self.value.get_type().get_element_type() != self.buffer.type.element_type:
            raise VerifyException(
                f"value element type {self.value.get_type().get_element_type()} differs from the buffer's {self.buffer.type.element_type}"
            )


@irdl_op_definition
class DeallocateBufferOp(IRDLOperation):
    name = "ttmetal.deallocate_buffer"
    buffer = operand_def(BufferType)


@irdl_op_definition
class FinishOp(IRDLOperation):
    """Wait for every enqueued command to complete."""

    name = "ttmetal.finish"


@irdl_op_definition
class EnqueueCclOp(IRDLOperation):
    """A collective between devices over ethernet, buffer to buffer (ttir/ttnn collective semantics).

    `kind` names the collective; its attributes are ttir's (all_gather_dim, scatter_dim,
    split_dim, concat_dim, slice_dim, cluster_axis, reduce_type, source_target_pairs), or
    `point_to_point` with ttir.point_to_point's (source, target, transfers, full_shape).
    """

    name = "ttmetal.enqueue_ccl"
    input = operand_def(BufferType)
    output = operand_def(BufferType)
    kind = attr_def(StringAttr)

    def verify_(self) -> None:
        if self.kind.data == "point_to_point":  # a reshard's explicit moves, ttir.point_to_point's attributes
            missing = [a for a in ("source", "target", "transfers") if a not in self.attributes]
            if missing:
                raise VerifyException(f"a point_to_point needs the attributes {', '.join(missing)}")
            return
        kind = COLLECTIVES.get(self.kind.data)
        if kind is None:
            raise VerifyException(f"kind must be one of {', '.join(COLLECTIVES)}, got \"{self.kind.data}\" "
                                  f"(or point_to_point, a reshard's explicit moves)")
        missing = [a for a in kind.attributes if a != "reduce_type" and a not in self.attributes]
        if missing:
            raise VerifyException(f"a {kind.name} needs the attribute{'s' if len(missing) > 1 else ''} "
                                  f"{', '.join(missing)}")


# ----------------------------------------------------------------------------- programs


@irdl_op_definition
class EnqueueProgramOp(IRDLOperation):
    """Run a kernel on every core of `grid` (rows x cols) of every device.

    The region has one block whose arguments are the operand buffers; logical core (y, x)
    executes it with `y`, `x` bound for the block selectors of read_tiles / write_tiles, on
    the physical core `core_map(y, x)` (identity when absent) plus `grid_offset`.
    """

    name = "ttmetal.enqueue_program"
    buffers = var_operand_def(BufferType)
    grid = attr_def(DenseArrayBase)
    grid_offset = opt_attr_def(DenseArrayBase)
    core_map = opt_attr_def(AffineMapAttr)
    body = region_def("single_block")

    def core_grid(self) -> tuple[int, int]:
        g = rules.ints_of(self.grid)
        return g[0], g[1]

    def verify_(self) -> None:
        g = rules.ints_of(self.grid)
        if len(g) != 2 or any(n < 1 for n in g):
            raise VerifyException(f"grid {list(g)} must be two positive sizes (rows, cols)")
        if self.grid_offset is not None:
            off = rules.ints_of(self.grid_offset)
            if len(off) != 2 or any(o < 0 for o in off):
                raise VerifyException(f"grid_offset {list(off)} must be two non-negative core coordinates")
        if self.core_map is not None:
            m = self.core_map.data
            if m.num_dims != 2 or len(m.results) != 2:
                raise VerifyException(f"core_map {m} must map a core (y, x) to a core (y, x)")
        block = self.body.block
        if len(block.args) != len(self.buffers):
            raise VerifyException(
                f"the kernel takes {len(block.args)} buffers but the program passes {len(self.buffers)}"
            )
        for i, (a, b) in enumerate(zip(block.args, self.buffers)):
            if a.type != b.type:
                raise VerifyException(f"kernel argument {i} has type {a.type}, but the program passes {b.type}")
        if not block.ops or not isinstance(block.last_op, KernelEndOp):
            raise VerifyException("the kernel must end with ttmetal.kernel_end")


def block_shape(shape: tuple[int, ...], select: Sequence[str], grid: tuple[int, int]) -> tuple[int, int]:
    """Shape of the block a core sees of a buffer folded to 2-d, under (row, col) selectors
    (meshc.layout.kernel_traffic.block_dims)."""
    try:
        return block_dims(fold_2d(shape), (select[0], select[1]), grid)
    except LayoutError as e:
        raise VerifyException(str(e)) from None


class _BlockAccess(IRDLOperation):
    """Shared by read_tiles / write_tiles: `select` = [row selector, col selector]."""

    select = attr_def(ArrayAttr)

    def selectors(self) -> tuple[str, str]:
        s = [a.data if isinstance(a, StringAttr) else None for a in self.select.data]
        if len(s) != 2 or any(x not in SELECTORS for x in s):
            raise VerifyException(f"select must be two of \"y\", \"x\", \"all\" (rows, cols), got {self.select}")
        return s[0], s[1]  # type: ignore[return-value]

    def program(self) -> EnqueueProgramOp:
        op = self.parent_op()
        if not isinstance(op, EnqueueProgramOp):
            raise VerifyException("must be inside a ttmetal.enqueue_program kernel")
        return op

    def check_block(self, buffer: SSAValue, block: SSAValue) -> None:
        expected = block_shape(tensor_shape(buffer), self.selectors(), self.program().core_grid())
        got = tensor_shape(block)
        if got != expected:
            raise VerifyException(f"block shape {rules.fmt(got)} does not match the selected block {rules.fmt(expected)}")


@irdl_op_definition
class ReadTilesOp(_BlockAccess):
    """Bring the selected block of a buffer (folded to 2-d) into this core."""

    name = "ttmetal.read_tiles"
    buffer = operand_def(BufferType)
    result = result_def(AnyTensorTypeConstr)

    def verify_(self) -> None:
        self.check_block(self.buffer, self.result)


@irdl_op_definition
class WriteTilesOp(_BlockAccess):
    """Store a block into the selected block of a buffer."""

    name = "ttmetal.write_tiles"
    block = operand_def(AnyTensorTypeConstr)
    buffer = operand_def(BufferType)

    def verify_(self) -> None:
        self.check_block(self.buffer, self.block)


COPY = "copy"
"""The unary tile op that copies a block unchanged (ttir.to_layout's kernel); the other tile ops
are the compute-op registry's (meshc.layout.compute_ops.tile_ops), read when an op verifies."""


def _check_kind(kind: StringAttr, allowed: tuple[str, ...]) -> None:
    if kind.data not in allowed:
        raise VerifyException(f"op must be one of {', '.join(allowed)}, got \"{kind.data}\"")


def _expect_block(result: SSAValue, expected: tuple[int, ...]) -> None:
    got = tensor_shape(result)
    if got != expected:
        raise VerifyException(f"result block {rules.fmt(got)} does not match {rules.fmt(expected)}")


@irdl_op_definition
class TileUnaryOp(IRDLOperation):
    name = "ttmetal.tile_unary"
    input = operand_def(AnyTensorTypeConstr)
    result = result_def(AnyTensorTypeConstr)
    op = attr_def(StringAttr)

    def verify_(self) -> None:
        _check_kind(self.op, (*tile_ops("unary"), COPY))
        if tensor_shape(self.input) != tensor_shape(self.result):
            raise VerifyException("result block shape differs from the operand's")


@irdl_op_definition
class TileBinaryOp(IRDLOperation):
    """Elementwise on two blocks, numpy broadcasting (a (h, 1) or (1, w) block broadcasts)."""

    name = "ttmetal.tile_binary"
    lhs = operand_def(AnyTensorTypeConstr)
    rhs = operand_def(AnyTensorTypeConstr)
    result = result_def(AnyTensorTypeConstr)
    op = attr_def(StringAttr)

    def verify_(self) -> None:
        _check_kind(self.op, tile_ops("binary"))
        _expect_block(self.result, rules.broadcast_shapes(tensor_shape(self.lhs), tensor_shape(self.rhs)))


@irdl_op_definition
class TileWhereOp(IRDLOperation):
    """`on_true` where `condition` is nonzero, else `on_false`, on blocks (numpy broadcasting)."""

    name = "ttmetal.tile_where"
    condition = operand_def(AnyTensorTypeConstr)
    on_true = operand_def(AnyTensorTypeConstr)
    on_false = operand_def(AnyTensorTypeConstr)
    result = result_def(AnyTensorTypeConstr)

    def verify_(self) -> None:
        shape = rules.broadcast_shapes(tensor_shape(self.condition), tensor_shape(self.on_true))
        _expect_block(self.result, rules.broadcast_shapes(shape, tensor_shape(self.on_false)))


@irdl_op_definition
class TileMatmulOp(IRDLOperation):
    """`(m, k) x (k, n) -> (m, n)`; with `batch = n` the blocks hold n matrices stacked by rows,
    `(n*m, k) x (n*k, p) -> (n*m, p)`, the i-th of a times the i-th of b (a batched matmul).
    `math_fidelity` (TTNN's values: LoFi, HiFi2, HiFi3, HiFi4; absent: TTNN's default for the B
    block's format) sets the matrix engine's passes the simulator charges; values are not rounded
    by it."""

    name = "ttmetal.tile_matmul"
    a = operand_def(AnyTensorTypeConstr)
    b = operand_def(AnyTensorTypeConstr)
    result = result_def(AnyTensorTypeConstr)
    batch = opt_attr_def(IntegerAttr)
    math_fidelity = opt_attr_def(StringAttr)

    def batch_size(self) -> int:
        return 1 if self.batch is None else int(self.batch.value.data)

    def verify_(self) -> None:
        if self.math_fidelity is not None and self.math_fidelity.data not in FIDELITY_PHASES:
            raise VerifyException(f"math_fidelity '{self.math_fidelity.data}' is not one of "
                                  f"{', '.join(FIDELITY_PHASES)}")
        n = self.batch_size()
        a, b = tensor_shape(self.a), tensor_shape(self.b)
        if n < 1 or len(a) != 2 or len(b) != 2 or a[0] % n or b[0] % n:
            raise VerifyException(f"batch {n} must be positive and split the rows of both blocks "
                                  f"{rules.fmt(a)} and {rules.fmt(b)}")
        m, k = rules.matmul_shape((a[0] // n, a[1]), (b[0] // n, b[1]), False, False)
        _expect_block(self.result, (n * m, k))


@irdl_op_definition
class TilePermuteOp(IRDLOperation):
    """Move a block's elements within the core: the block read row-major as a tensor of `shape`,
    its dims permuted by `permutation`, read row-major into the result block (any 2-d shape of
    the same size). An identity permutation is a reshape."""

    name = "ttmetal.tile_permute"
    input = operand_def(AnyTensorTypeConstr)
    result = result_def(AnyTensorTypeConstr)
    shape = attr_def(DenseArrayBase)
    permutation = attr_def(DenseArrayBase)

    def verify_(self) -> None:
        shape, perm = rules.ints_of(self.shape), rules.ints_of(self.permutation)
        check_block_holds(self.input, shape, "input")
        if sorted(perm) != list(range(len(shape))):
            raise VerifyException(f"permutation {list(perm)} is not a permutation of the {len(shape)} dims of "
                                  f"shape {rules.fmt(shape)}")
        check_block_holds(self.result, tuple(shape[p] for p in perm), "result")


@irdl_op_definition
class TileBroadcastOp(IRDLOperation):
    """Repeat a block's elements within the core: the block read row-major as a tensor of
    `shape`, broadcast (numpy rules) to `to`, read row-major into the result block."""

    name = "ttmetal.tile_broadcast"
    input = operand_def(AnyTensorTypeConstr)
    result = result_def(AnyTensorTypeConstr)
    shape = attr_def(DenseArrayBase)
    to = attr_def(DenseArrayBase)

    def verify_(self) -> None:
        shape, to = rules.ints_of(self.shape), rules.ints_of(self.to)
        check_block_holds(self.input, shape, "input")
        if len(shape) != len(to) or any(a not in (1, b) for a, b in zip(shape, to)):
            raise VerifyException(f"shape {rules.fmt(shape)} does not broadcast to {rules.fmt(to)}")
        check_block_holds(self.result, to, "result")


@irdl_op_definition
class TileReduceOp(IRDLOperation):
    """Reduce a block along `dim` (0 rows, 1 cols), keeping it as size 1."""

    name = "ttmetal.tile_reduce"
    input = operand_def(AnyTensorTypeConstr)
    result = result_def(AnyTensorTypeConstr)
    op = attr_def(StringAttr)
    dim = attr_def(IntegerAttr)

    def verify_(self) -> None:
        _check_kind(self.op, tile_ops("reduce"))
        d = int(self.dim.value.data)
        if d not in (0, 1):
            raise VerifyException(f"dim {d} must be 0 (rows) or 1 (cols) of the block")
        _expect_block(self.result, rules.reduce_shape(tensor_shape(self.input), (d,), True))


@irdl_op_definition
class TileTransposeOp(IRDLOperation):
    """Transpose a block (each core transposes its data locally)."""

    name = "ttmetal.tile_transpose"
    input = operand_def(AnyTensorTypeConstr)
    result = result_def(AnyTensorTypeConstr)

    def verify_(self) -> None:
        s = tensor_shape(self.input)
        if tensor_shape(self.result) != tuple(reversed(s)):
            raise VerifyException(f"result block {rules.fmt(tensor_shape(self.result))} is not the transpose of {rules.fmt(s)}")


@irdl_op_definition
class KernelEndOp(IRDLOperation):
    name = "ttmetal.kernel_end"
    traits = traits_def(IsTerminator())


@irdl_op_definition
class EnqueueTransferOp(IRDLOperation):
    """Send a mesh buffer of pipeline stage `source_stage`'s device (each device's piece of a
    `shape` tensor, split by `source_shard_dims`) into a new buffer on stage `target_stage`'s
    device (split by `target_shard_dims`, placed by `memory_config` and `tile` as create_buffer
    places it): point-to-point sends over the ethernet links joining the two chip sets, along the
    fewest-bytes plan (meshc.layout.stage_transfer)."""

    name = "ttmetal.enqueue_transfer"
    input = operand_def(BufferType)
    result = result_def(BufferType)
    source_stage = attr_def(IntegerAttr)
    target_stage = attr_def(IntegerAttr)
    shape = attr_def(DenseArrayBase)
    source_shard_dims = attr_def(DenseArrayBase)
    target_shard_dims = attr_def(DenseArrayBase)
    memory_config = attr_def(Attribute)
    tile = opt_attr_def(DenseArrayBase)

    def verify_(self) -> None:
        check_attr_name(self, "memory_config", "ttnn.memory_config")
        check_stage_transfer(self, int(self.source_stage.value.data), int(self.target_stage.value.data),
                             rules.ints_of(self.shape), rules.ints_of(self.source_shard_dims),
                             rules.ints_of(self.target_shard_dims), self.input.type.get_shape(),
                             self.result.type.get_shape())


_ATTRIBUTES: list[type[Attribute]] = [BufferType]
_OPS: list[type[Operation]] = [
    CreateBufferOp, EnqueueWriteBufferOp, EnqueueReadBufferOp, EnqueueReadShardsOp, EnqueueWriteShardsOp, EnqueueWriteConstantOp, DeallocateBufferOp, FinishOp,
    EnqueueCclOp, EnqueueProgramOp, ReadTilesOp, WriteTilesOp, TileUnaryOp, TileBinaryOp, TileWhereOp,
    TileMatmulOp, TilePermuteOp, TileBroadcastOp, TileReduceOp, TileTransposeOp, KernelEndOp, EnqueueTransferOp,
    TileSliceOp, TileConcatOp, TileEmbeddingOp,
]  # fmt: skip

TTMetal = Dialect("ttmetal", _OPS, _ATTRIBUTES)
