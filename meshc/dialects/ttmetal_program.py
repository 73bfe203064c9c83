"""Facts of one `ttmetal.enqueue_program` that the simulator and the TTMetal memory optimizer both
need, read from the op in one place: the physical core of each logical core of its grid, the time
model's view of its kernel's tile ops, and the buffers its matmuls read their B blocks from.
The simulator (meshc/interp/ttmetal.py) charges a program by them; ttmetal-optimize-memory
(meshc/passes/ttmetal_optimize_memory.py) times a program under each buffer's place by them.
"""

from __future__ import annotations

import math

import numpy as np
from xdsl.ir import BlockArgument

from meshc.dialects import shape_rules as rules
from meshc.dialects.element_types import expect_data_type_name
from meshc.dialects.ttir import tensor_shape
from meshc.dialects.ttmetal import EnqueueProgramOp, ReadTilesOp, TileMatmulOp
from meshc.layout.affine import parse_map
from meshc.layout.timemodel import TileOp, math_fidelity_of


def physical_cores(op: EnqueueProgramOp) -> np.ndarray:
    """(grid rows x grid cols, 2) int64: the physical core (y, x) of each logical core of the
    program's grid, row-major: `core_map(y, x)` (identity when absent) plus `grid_offset`."""
    gy, gx = op.core_grid()
    cores = np.stack(np.divmod(np.arange(gy * gx, dtype=np.int64), gx), axis=1)
    if op.core_map is not None:
        cores = parse_map(str(op.core_map.data)).evaluate(cores)
    offset = rules.ints_of(op.grid_offset) if op.grid_offset is not None else (0, 0)
    return np.asarray(cores, dtype=np.int64).reshape(-1, 2) + np.asarray(offset[:2], dtype=np.int64)


def kernel_tile_ops(op: EnqueueProgramOp) -> list[TileOp]:
    """The time model's view of the kernel's tile ops on one core (meshc.layout.timemodel.TileOp):
    a kind its `op` attribute (tile_unary, tile_binary, tile_reduce) or its name (tile_matmul,
    tile_where, tile_transpose, ...), a format its result's; a matmul's format its B block's, with
    its block (m, k, n) per matrix, its batch and its `math_fidelity`."""
    out = []
    for t in op.body.block.ops:
        if not t.name.startswith("ttmetal.tile_"):
            continue
        shape = tensor_shape(t.results[0])
        elements = math.prod(shape) if shape else 1
        if isinstance(t, TileMatmulOp):
            n = t.batch_size()
            (am, ak), bn = tensor_shape(t.a), tensor_shape(t.b)[1]
            fidelity = t.attributes.get("math_fidelity")
            out.append(TileOp("matmul", elements, expect_data_type_name(t.b.type.element_type), (am // n, ak, bn),
                              n, None if fidelity is None else math_fidelity_of(fidelity.data)))
            continue
        kind = t.op.data if "op" in t.attributes else t.name.removeprefix("ttmetal.tile_")
        out.append(TileOp(kind, elements, expect_data_type_name(t.results[0].type.element_type)))
    return out


def matmul_weight_buffers(op: EnqueueProgramOp) -> list[int | None]:
    """For each tile_matmul of the kernel, in order, the program's buffer operand its B block is
    read from by a read_tiles (None: B is computed in the kernel)."""
    out = []
    for t in op.body.block.ops:
        if isinstance(t, TileMatmulOp):
            src = t.b.owner
            arg = src.buffer if isinstance(src, ReadTilesOp) else None
            out.append(arg.index if isinstance(arg, BlockArgument) and arg.owner is op.body.block else None)
    return out
