"""The ttmetal tile ops that select and join elements within a core: `ttmetal.tile_slice` (a ttir
slice's kernel), `ttmetal.tile_concat` (a ttir concat's) and `ttmetal.tile_embedding` (a ttir
embedding's). Each reads its blocks row-major as
tensors of stated shapes, so a kernel slicing or joining any dim of the tensor it holds whole
states the dims it works on. Part of the ttmetal dialect (meshc/dialects/ttmetal.py lists them)."""

from __future__ import annotations

import math

from xdsl.dialects.builtin import AnyTensorTypeConstr, DenseArrayBase, IntegerAttr
from xdsl.irdl import IRDLOperation, attr_def, irdl_op_definition, operand_def, result_def, var_operand_def
from xdsl.utils.exceptions import VerifyException

from meshc.dialects import shape_rules as rules
from meshc.dialects.ttir.base import tensor_shape


def check_block_holds(v, shape, what: str) -> None:
    """A tile op reads (or writes) the block `v` row-major as a tensor of `shape`: the shape has no
    negative dim and the block holds exactly its elements. The one check of every tile op that
    states the shape of its block (tile_slice, tile_concat, tile_embedding, tile_permute,
    tile_broadcast)."""
    if any(n < 0 for n in shape):
        raise VerifyException(f"shape {rules.fmt(shape)} of the {what} block has a negative dim")
    held, wanted = math.prod(tensor_shape(v)), math.prod(shape)
    if held != wanted:
        raise VerifyException(f"{what} block {rules.fmt(tensor_shape(v))} holds {held} elements, expected the "
                              f"{wanted} of shape {rules.fmt(shape)}")


@irdl_op_definition
class TileSliceOp(IRDLOperation):
    """The block read row-major as a tensor of `shape`, sliced by `begins` / `ends` / `step` (one
    entry a dim), read row-major into the result block."""

    name = "ttmetal.tile_slice"
    input = operand_def(AnyTensorTypeConstr)
    result = result_def(AnyTensorTypeConstr)
    shape = attr_def(DenseArrayBase)
    begins = attr_def(DenseArrayBase)
    ends = attr_def(DenseArrayBase)
    step = attr_def(DenseArrayBase)

    def verify_(self) -> None:
        shape = rules.ints_of(self.shape)
        check_block_holds(self.input, shape, "input")
        out = rules.slice_shape(shape, rules.ints_of(self.begins), rules.ints_of(self.ends), rules.ints_of(self.step))
        check_block_holds(self.result, out, "result")


@irdl_op_definition
class TileConcatOp(IRDLOperation):
    """The blocks read row-major as tensors of `shape` with `sizes[i]` along `dim`, joined along
    `dim` (a tensor of `shape`), read row-major into the result block."""

    name = "ttmetal.tile_concat"
    inputs = var_operand_def(AnyTensorTypeConstr)
    result = result_def(AnyTensorTypeConstr)
    shape = attr_def(DenseArrayBase)
    sizes = attr_def(DenseArrayBase)
    dim = attr_def(IntegerAttr)

    def piece_shapes(self) -> list[tuple[int, ...]]:
        shape, d = list(rules.ints_of(self.shape)), int(self.dim.value.data)
        return [tuple(n if i != d else s for i, n in enumerate(shape)) for s in rules.ints_of(self.sizes)]

    def verify_(self) -> None:
        shape, sizes, d = rules.ints_of(self.shape), rules.ints_of(self.sizes), int(self.dim.value.data)
        if not 0 <= d < len(shape):
            raise VerifyException(f"dim {d} is not a dim of shape {rules.fmt(shape)}")
        if len(sizes) != len(self.inputs) or sum(sizes) != shape[d]:
            raise VerifyException(f"sizes {list(sizes)} must give each of the {len(self.inputs)} blocks its extent "
                                  f"along dim {d}, adding up to {shape[d]}")
        for i, (v, s) in enumerate(zip(self.inputs, self.piece_shapes())):
            check_block_holds(v, s, f"input {i}")
        check_block_holds(self.result, shape, "result")


@irdl_op_definition
class TileEmbeddingOp(IRDLOperation):
    """The rows of the `table` block (rows, width) the integer `indices` block names, in the
    indices' row-major order, read row-major into the result block."""

    name = "ttmetal.tile_embedding"
    indices = operand_def(AnyTensorTypeConstr)
    table = operand_def(AnyTensorTypeConstr)
    result = result_def(AnyTensorTypeConstr)

    def verify_(self) -> None:
        table = tensor_shape(self.table)
        if len(table) != 2:
            raise VerifyException(f"table block {rules.fmt(table)} must be 2-d (rows, width), got rank {len(table)}")
        rows, width = table
        check_block_holds(self.result, (math.prod(tensor_shape(self.indices)), width), "result")
