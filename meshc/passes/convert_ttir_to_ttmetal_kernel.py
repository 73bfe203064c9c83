"""Building one `ttmetal.enqueue_program` for `convert-ttir-to-ttmetal`: its buffers, its core
grid and the kernel block of tile ops (read_tiles, compute, write_tiles) every core runs.

`KernelBuilder` appends tile ops to the kernel block and computes each block's type from the
buffer, the selectors and the grid (meshc.dialects.ttmetal.block_shape); `result_grid` is the
2-d core grid a result's `#tt.metal_layout` asks for, `even_grid` the part of a grid a program's
block selectors can split a buffer by.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, IntegerAttr, StringAttr, TensorType, i64
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from meshc.errors import LocatedError
from meshc.dialects import ttmetal
from meshc.dialects.shape_rules import broadcast_shapes
from meshc.layout.hardware import FIDELITY_PHASES
from meshc.layout.shapes import fmt_shape
from meshc.passes.lowering_utils import encoding_of


def _selectors(*s: str) -> ArrayAttr:
    return ArrayAttr([StringAttr(x) for x in s])


class KernelBuilder:
    """Builds one enqueue_program: its buffers, grid and the kernel block."""

    def __init__(self, buffers: list[SSAValue], grid: tuple[int, int], core_map: Attribute | None, loc):
        self.buffers = buffers
        self.grid = grid
        self.core_map = core_map
        self.block = Block(arg_types=[b.type for b in buffers])
        self.loc = loc

    def _add(self, op: Operation) -> Operation:
        op.location = self.loc
        self.block.add_op(op)
        return op

    def _block_type(self, buf: SSAValue, sel: tuple[str, str]) -> TensorType:
        shape = ttmetal.block_shape(buf.type.get_shape(), sel, self.grid)
        return TensorType(buf.type.element_type, shape)

    def read(self, i: int, sel: tuple[str, str]) -> SSAValue:
        arg = self.block.args[i]
        op = ttmetal.ReadTilesOp.create(operands=[arg], result_types=[self._block_type(self.buffers[i], sel)],
                                        attributes={"select": _selectors(*sel)})
        return self._add(op).results[0]

    def write(self, v: SSAValue, i: int, sel: tuple[str, str]) -> None:
        self._add(ttmetal.WriteTilesOp.create(operands=[v, self.block.args[i]], attributes={"select": _selectors(*sel)}))

    def unary(self, kind: str, v: SSAValue, elem: Attribute | None = None) -> SSAValue:
        t = v.type if elem is None else TensorType(elem, v.type.get_shape())
        op = ttmetal.TileUnaryOp.create(operands=[v], result_types=[t], attributes={"op": StringAttr(kind)})
        return self._add(op).results[0]

    def binary(self, kind: str, a: SSAValue, b: SSAValue) -> SSAValue:
        shape = broadcast_shapes(tuple(a.type.get_shape()), tuple(b.type.get_shape()))
        t = TensorType(a.type.element_type, shape)
        op = ttmetal.TileBinaryOp.create(operands=[a, b], result_types=[t], attributes={"op": StringAttr(kind)})
        return self._add(op).results[0]

    def where(self, c: SSAValue, a: SSAValue, b: SSAValue) -> SSAValue:
        shape = broadcast_shapes(broadcast_shapes(tuple(c.type.get_shape()), tuple(a.type.get_shape())),
                                 tuple(b.type.get_shape()))
        t = TensorType(a.type.element_type, shape)
        return self._add(ttmetal.TileWhereOp.create(operands=[c, a, b], result_types=[t])).results[0]

    def matmul(self, a: SSAValue, b: SSAValue, batch: int = 1, fidelity: str | None = None) -> SSAValue:
        """`tile_matmul` of the blocks; `fidelity` its math_fidelity (None: the format's default)."""
        t = TensorType(a.type.element_type, (a.type.get_shape()[0], b.type.get_shape()[1]))
        attrs: dict[str, Attribute] = {} if batch == 1 else {"batch": IntegerAttr(batch, i64)}
        if fidelity is not None:
            attrs["math_fidelity"] = StringAttr(fidelity)
        return self._add(ttmetal.TileMatmulOp.create(operands=[a, b], result_types=[t], attributes=attrs)).results[0]

    def permute(self, v: SSAValue, shape: tuple[int, ...], perm: tuple[int, ...], out: tuple[int, int]) -> SSAValue:
        """The block read as a tensor of `shape`, its dims permuted by `perm`, as an `out` block
        (an identity `perm` reshapes; one that leaves the block as it is emits nothing)."""
        if list(perm) == sorted(perm) and tuple(v.type.get_shape()) == tuple(out):
            return v
        op = ttmetal.TilePermuteOp.create(
            operands=[v], result_types=[TensorType(v.type.element_type, out)],
            attributes={"shape": DenseArrayBase.from_list(i64, list(shape)),
                        "permutation": DenseArrayBase.from_list(i64, list(perm))})
        return self._add(op).results[0]

    def transpose(self, v: SSAValue) -> SSAValue:
        s = v.type.get_shape()
        t = TensorType(v.type.element_type, (s[1], s[0]))
        return self._add(ttmetal.TileTransposeOp.create(operands=[v], result_types=[t])).results[0]

    def reduce(self, kind: str, v: SSAValue, dim: int) -> SSAValue:
        s = list(v.type.get_shape())
        s[dim] = 1
        t = TensorType(v.type.element_type, s)
        return self._add(ttmetal.TileReduceOp.create(
            operands=[v], result_types=[t],
            attributes={"op": StringAttr(kind), "dim": IntegerAttr(dim, i64)})).results[0]

    def broadcast(self, v: SSAValue, shape: tuple[int, ...], to: tuple[int, ...], out: tuple[int, int]) -> SSAValue:
        """The block read as a tensor of `shape`, broadcast to `to`, as an `out` block."""
        op = ttmetal.TileBroadcastOp.create(
            operands=[v], result_types=[TensorType(v.type.element_type, out)],
            attributes={"shape": DenseArrayBase.from_list(i64, list(shape)),
                        "to": DenseArrayBase.from_list(i64, list(to))})
        return self._add(op).results[0]

    def slice(self, v: SSAValue, shape: tuple[int, ...], bounds, out: tuple[int, int]) -> SSAValue:
        """The block read as a tensor of `shape`, sliced by `bounds` (begins, ends, step), as an
        `out` block."""
        attrs = {k: DenseArrayBase.from_list(i64, list(x)) for k, x in zip(("shape", "begins", "ends", "step"),
                                                                              (shape, *bounds))}
        op = ttmetal.TileSliceOp.create(operands=[v], result_types=[TensorType(v.type.element_type, out)],
                                        attributes=attrs)
        return self._add(op).results[0]

    def concat(self, vs: list[SSAValue], shape: tuple[int, ...], sizes: list[int], dim: int,
               out: tuple[int, int]) -> SSAValue:
        """The blocks read as tensors of `shape` with `sizes[i]` along `dim`, joined along `dim`, as
        an `out` block."""
        op = ttmetal.TileConcatOp.create(
            operands=vs, result_types=[TensorType(vs[0].type.element_type, out)],
            attributes={"shape": DenseArrayBase.from_list(i64, list(shape)),
                        "sizes": DenseArrayBase.from_list(i64, list(sizes)), "dim": IntegerAttr(dim, i64)})
        return self._add(op).results[0]

    def embedding(self, idx: SSAValue, table: SSAValue, out: tuple[int, int]) -> SSAValue:
        """The rows of the `table` block the `idx` block names, as an `out` block."""
        op = ttmetal.TileEmbeddingOp.create(operands=[idx, table], result_types=[TensorType(table.type.element_type, out)])
        return self._add(op).results[0]

    def build(self) -> Operation:
        self._add(ttmetal.KernelEndOp.create())
        attrs: dict[str, Attribute] = {"grid": DenseArrayBase.from_list(i64, list(self.grid))}
        if self.core_map is not None:
            attrs["core_map"] = self.core_map
        op = ttmetal.EnqueueProgramOp.create(operands=self.buffers, attributes=attrs, regions=[Region(self.block)])
        op.location = self.loc
        return op


def matmul_fidelity(op: Operation) -> str | None:
    """The `math_fidelity` a ttir matmul (or linear) names, for its tile_matmul: one of TTNN's
    LoFi, HiFi2, HiFi3, HiFi4 (a located error otherwise), None when it names none."""
    attr = op.attributes.get("math_fidelity")
    if attr is None:
        return None
    value = attr.data if isinstance(attr, StringAttr) else str(attr)
    if value not in FIDELITY_PHASES:
        raise LocatedError(f"math_fidelity '{value}' is not one of {', '.join(FIDELITY_PHASES)}", op)
    return value


def result_grid(t: TensorType, op: Operation) -> tuple[int, int]:
    """The 2-d core grid of a result's `#tt.metal_layout` (a 1-d grid is one row)."""
    enc = encoding_of(t)
    if enc is None and not t.get_shape():
        return (1, 1)  # a 0-d tensor: one element in one page (ttir-layout gives it no layout)
    if enc is None or enc.name != "tt.metal_layout":
        raise LocatedError(f"convert-ttir-to-ttmetal: the result {t} has no #tt.metal_layout; run ttir-layout first", op)
    g = tuple(enc.model().grid)
    if len(g) == 1:
        return (1, g[0])
    if len(g) != 2:
        raise LocatedError(
            f"convert-ttir-to-ttmetal: programs run on 2-d core grids of a chip; the layout grid "
            f"{fmt_shape(g)} of {t} has rank {len(g)}", op)
    return g[0], g[1]


def even_grid(shape2d: tuple[int, int], grid: tuple[int, int]) -> tuple[int, int]:
    """The program grid for a result folded to `shape2d` on `grid`: along each dim the most cores,
    at most the grid's, that split the dim's elements into equal blocks (the band cut of
    meshc/layout/kernel_traffic.py: a block selector cuts a dim into equal bands of lines). A
    layout grid divides a dim's tiles, not always its elements (784 columns are 25 tiles, the last
    one partial, over 5 cores: blocks of 160 and 144 columns), and a block has one static shape
    for every core, so such a dim runs on the largest divisor of its elements not above the grid's
    extent (784 over 5: 4 cores of 196 columns, one core only for a dim with no divisor from 2 up
    to the extent); a band need not end on a tile, and each core reads the pages, or parts of
    pages, it does not hold over the NOC (counted by kernel_traffic.block_traffic). An even dim
    keeps the grid's cores."""
    return tuple(next(c for c in range(g, 0, -1) if n % c == 0) for n, g in zip(shape2d, grid))  # type: ignore[return-value]
