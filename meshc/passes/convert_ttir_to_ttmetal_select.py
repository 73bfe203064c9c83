"""The TTMetal kernels of `convert-ttir-to-ttmetal` that select or join elements: ttir.slice and
ttir.concat.

A slice splits its program over whole rows when the dims it slices leave the leading extent in
place: core `y` of an `R x 1` program reads rows `[y, all]` of the operand folded to 2-d, which
hold exactly the elements of its rows of the result, and slices them within the core
(`ttmetal.tile_slice`). Otherwise (dim 0 sliced, or a rank-1 tensor) one core reads the whole
per-device tensor. A concat joins its operands on one core when the join is along dim 0 or
the operands' leading extent differs, else on `R` cores splitting the leading extent the same
way (`ttmetal.tile_concat`). An embedding splits the indices' rows over `R` cores, each reading
the whole table and writing the rows its indices name (`ttmetal.tile_embedding`). Every byte a core reads or writes crosses the NOC in the simulator.
"""

from __future__ import annotations

import math

from xdsl.ir import Operation

from meshc.dialects import ttir
from meshc.layout.compute_ops import Kernel
from meshc.layout.shapes import fold_2d
from meshc.passes.convert_ttir_to_ttmetal_kernel import KernelBuilder

ROWS = ("y", "all")
WHOLE = ("all", "all")


def _shape(v) -> tuple[int, ...]:
    return tuple(v.type.get_shape())


def _lead(op: Operation) -> int:
    """The elements of the leading dims the op leaves whole (a slice's unsliced dims before its
    first sliced one, a concat's dims before its dim), at most all but the last."""
    src, out = _shape(op.operands[0]), _shape(op.results[0])
    if isinstance(op, ttir.EmbeddingBase):  # the indices' rows
        return math.prod(src[:-1])
    if isinstance(op, ttir.ConcatBase):
        d = int(op.dim.value.data) % len(out)
        return math.prod(out[:min(d, len(out) - 1)])
    j = 0
    while j < len(out) - 1 and src[j] == out[j]:
        j += 1
    return math.prod(out[:j])


def select_grid(op: Operation, kernel: Kernel, grid: tuple[int, int]) -> tuple[int, int]:
    """`R x 1` cores, R the most (at most the result grid's larger side) splitting the leading
    extent the op leaves whole."""
    return (math.gcd(_lead(op), max(grid)), 1)


def slice_kernel(op: Operation, kernel: Kernel, k: KernelBuilder, n: int) -> None:
    """Each core slices its rows of the operand into its rows of the result."""
    src, out = _shape(op.operands[0]), _shape(op.results[0])
    r = k.grid[0]
    begins, ends, steps = op.bounds()
    view = list(src)
    lead = _lead(op)
    if r > 1:  # the core's rows: its share of the leading whole dims, folded into one
        j = next(i for i in range(len(out)) if math.prod(out[:i]) == lead)
        view = [lead // r, *src[j:]]
        begins, ends, steps = ([0, *b[j:]] for b in (begins, ends, steps))
        ends[0] = lead // r
        sel = ROWS
    else:
        sel = WHOLE
    h, w = fold_2d(out)
    k.write(k.slice(k.read(0, sel), tuple(view), (begins, ends, steps), (h // r, w)), n, sel)


def concat_kernel(op: Operation, kernel: Kernel, k: KernelBuilder, n: int) -> None:
    """Each core joins its rows of every operand into its rows of the result."""
    out = _shape(op.results[0])
    d = int(op.dim.value.data) % len(out)
    r = k.grid[0]
    sizes = [_shape(v)[d] for v in op.operands]
    sel = ROWS if r > 1 else WHOLE
    shape = (_lead(op) // r, *out[d:]) if r > 1 else out
    dim = 1 if r > 1 else d
    h, w = fold_2d(out)
    blocks = [k.read(i, sel) for i in range(n)]
    k.write(k.concat(blocks, shape, sizes, dim, (h // r, w)), n, sel)


def embedding_kernel(op: Operation, kernel: Kernel, k: KernelBuilder, n: int) -> None:
    """Each core looks up its rows of the indices in the whole table."""
    r = k.grid[0]
    sel = ROWS if r > 1 else WHOLE
    h, w = fold_2d(_shape(op.results[0]))
    k.write(k.embedding(k.read(0, sel), k.read(1, WHOLE), (h // r, w)), n, sel)
