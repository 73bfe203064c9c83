"""`ttir-layout`: give every device tensor a `#tt.metal_layout` on the chip's core grid.

Options: `memory-space` = l1 | dram, `memory-layout` = sharded | interleaved, `tiled` = true |
false. The tensor is folded to 2-d (outer dims into the height, the default LINEAR map);
sharded: the grid is, per folded dim, the largest divisor of its size (in tiles when tiled)
that fits the chip grid, so every core holds an equal block; interleaved: a 1x1 grid, the
pages spread over the banks by the memory config later. A rank-1 tensor is one untiled row on a
1-d grid. Layouts already written are kept.
Host tensors (function arguments and results, the full side of `ttir.mesh_shard`) keep no
layout. An argument stored as a block-float format (`tt.storage`, meshc/dialects/tt/storage.py)
gets that data type on the devices; one that reaches them without its `ttir.mesh_shard` is a
located error. An identity `ttir.mesh_shard` shard_to_full is its operand (the tensor stays on the
devices; the lowerings return it distributed).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.passes import ModulePass
from xdsl.ir import BlockArgument
from xdsl.rewriter import Rewriter
from xdsl.utils.exceptions import VerifyException

from meshc.errors import LocatedError
from meshc.dialects.element_types import data_type_name
from meshc.layout.errors import LayoutError
from meshc.layout.shapes import ceil_div, fold_2d
from meshc.passes.lowering_utils import (
    chip_grid,
    encoding_of,
    fix_function_types,
    largest_divisor_at_most,
    with_encoding,
)
from meshc.dialects import ttir
from meshc.dialects.tt import MetalLayoutAttr
from meshc.dialects.tt.storage import stored_arguments, value_storage
from meshc.layout.metal_layout import build_metal_layout

TILE = (32, 32)


def layout_grid(shape: tuple[int, ...], grid: tuple[int, int], tiled: bool, sharded: bool) -> tuple[int, int]:
    if not sharded:
        return (1, 1)
    h, w = fold_2d(shape)
    if tiled:
        h, w = ceil_div(h, TILE[0]), ceil_div(w, TILE[1])
    return largest_divisor_at_most(max(h, 1), grid[0]), largest_divisor_at_most(max(w, 1), grid[1])


@dataclass(frozen=True)
class TTIRLayoutPass(ModulePass):
    name = "ttir-layout"

    memory_space: str = "l1"
    memory_layout: str = "sharded"
    tiled: bool = True

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.memory_space not in ("l1", "dram"):
            raise LocatedError(f"ttir-layout: memory-space must be l1 or dram, got '{self.memory_space}'", op)
        if self.memory_layout not in ("sharded", "interleaved"):
            raise LocatedError(
                f"ttir-layout: memory-layout must be sharded or interleaved, got '{self.memory_layout}'", op
            )
        grid = chip_grid(op)
        for o in [o for o in op.walk() if isinstance(o, ttir.MeshShardOp) and o.is_identity and not o.is_full_to_shard]:
            o.result.replace_all_uses_with(o.input)  # identity: every device's tensor stays where it is
            o.detach()
            o.erase()
        refuse_unplaced_storage(op)
        cache: dict[tuple, TensorType] = {}
        for o in op.walk():
            if o.dialect_name() != "ttir":
                continue
            if isinstance(o, ttir.MeshShardOp) and not o.is_full_to_shard:
                continue  # the result is a host tensor
            for r in o.results:
                t = r.type
                if not isinstance(t, TensorType) or encoding_of(t) is not None:
                    continue
                stored = None
                if isinstance(o, ttir.MeshShardOp):  # an argument entering the devices: its stored format
                    try:
                        stored = value_storage(o.input)
                    except VerifyException as e:
                        raise LocatedError(str(e), o.input.owner.parent_op() if isinstance(
                            o.input, BlockArgument) else o) from None
                new = cache.get((t, stored))
                if new is None:
                    shape = tuple(t.get_shape())
                    dtype = stored or data_type_name(t.element_type)
                    if dtype is None:
                        raise LocatedError(f"ttir-layout: element type {t.element_type} has no device data type", o)
                    if not shape:
                        continue  # a scalar tensor lives in one page wherever it is read
                    tiled = self.tiled and len(shape) >= 2
                    g = layout_grid(shape, grid, tiled, self.memory_layout == "sharded")
                    if len(shape) == 1:  # a rank-1 tensor is one row: a 1-d grid over its columns
                        g = (g[1],)
                    try:
                        model = build_metal_layout(
                            shape, g, memory_space=self.memory_space, dtype=dtype, tile=TILE if tiled else None
                        )
                    except LayoutError as e:
                        raise LocatedError(f"ttir-layout: cannot lay out {t}: {e}", o) from None
                    new = with_encoding(t, MetalLayoutAttr.from_model(model))
                    cache[(t, stored)] = new
                Rewriter.replace_value_with_new_type(r, new)
        fix_function_types(op)


def refuse_unplaced_storage(module: ModuleOp) -> None:
    """A `tt.storage` argument must reach the devices through its `ttir.mesh_shard` (where this
    pass gives it its stored format); located error at its function otherwise."""
    for f in module.walk():
        if not isinstance(f, func.FuncOp) or not f.body.blocks:
            continue
        try:
            stored = stored_arguments(f)
        except VerifyException as e:
            raise LocatedError(str(e), f) from None
        for i, fmt in stored:
            arg = f.body.blocks.first.args[i]
            if any(not isinstance(u.operation, ttir.MeshShardOp) for u in arg.uses):
                raise LocatedError(f"argument #{i} is stored as {fmt} (tt.storage), but reaches the devices without "
                                   "a ttir.mesh_shard (a program on one device): tt.storage is carried on a mesh of "
                                   "more than one device", f)
