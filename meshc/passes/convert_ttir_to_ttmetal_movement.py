"""The TTMetal kernels of `convert-ttir-to-ttmetal` that move elements between a tensor's dims:
reshape, permute, broadcast, reductions over any dims (kept or dropped, down to a 0-d tensor),
softmax over any dim and matmuls whose both operands carry batch dims.

Each family has a grid function (the program's core grid, from the result's layout grid) and a
kernel body. They split the work by blocks of whole rows of the buffers folded to 2-d: core `y`
of an `R x 1` program reads the rows `[y, all]` of the operand that hold its part of the
result, moves them within the core (`ttmetal.tile_permute`, `tile_reduce`, `tile_matmul
{batch}`) and writes rows `[y, all]` of the result. `R` divides the leading extent the op leaves
in place (the batch of a matmul, the dims before the first one a permute moves, the rows a
reshape keeps together), so a row block of the operand holds exactly the elements of a row
block of the result; when nothing is left in place (a permute moving dim 0, a reduction over
a middle dim, a full reduction to a scalar) `R = 1` and one core reads the whole per-device
tensor, every byte of it counted over the NOC by the simulator as any other read.
"""

from __future__ import annotations

import math

from xdsl.ir import Operation

from meshc.dialects import ttir
from meshc.dialects.shape_rules import broadcast_shapes
from meshc.layout.compute_ops import Kernel
from meshc.layout.shapes import fold_2d
from meshc.passes.convert_ttir_to_ttmetal_kernel import KernelBuilder, even_grid, matmul_fidelity

ROWS = ("y", "all")
"""A core's block of whole rows."""


def _shape(v) -> tuple[int, ...]:
    return tuple(v.type.get_shape())


def _cores(extent: int, grid: tuple[int, int]) -> int:
    """The most cores, at most the result grid's larger side, that split `extent` evenly."""
    return math.gcd(extent, max(grid))


# ----------------------------------------------------------------------------- reshape and permute


def _fixed_prefix(perm: tuple[int, ...]) -> int:
    """How many leading dims a permutation leaves in place (at most all but the last)."""
    j = 0
    while j < len(perm) - 1 and perm[j] == j:
        j += 1
    return j


def _permutation(op: Operation) -> tuple[int, ...]:
    if isinstance(op, ttir.COMPUTE_OPS["permute"]):
        return tuple(ttir.rules.ints_of(op.attributes["permutation"]))
    return tuple(range(len(_shape(op.operands[0]))))


def _kept_rows(op: Operation) -> int:
    """The rows of the folded operand that stay together in the result: for a permute, the
    elements of its fixed leading dims; for a reshape, the row counts of both folds share."""
    if isinstance(op, ttir.COMPUTE_OPS["permute"]):
        return math.prod(_shape(op.operands[0])[:_fixed_prefix(_permutation(op))])
    return math.gcd(fold_2d(_shape(op.operands[0]))[0], fold_2d(_shape(op.results[0]))[0])


def movement_grid(op: Operation, kernel: Kernel, grid: tuple[int, int]) -> tuple[int, int]:
    if kernel.family == "reshape" and fold_2d(_shape(op.operands[0])) == fold_2d(_shape(op.results[0])):
        return even_grid(fold_2d(_shape(op.results[0])), grid)  # the same 2-d buffer: a block copy on the result's grid
    return (_cores(_kept_rows(op), grid), 1)


def movement_kernel(op: Operation, kernel: Kernel, k: KernelBuilder, n: int) -> None:
    """Reshape (the same row-major elements, another shape) and permute: each core's rows of the
    operand, read as a tensor whose leading dim is the core's share of the fixed leading
    elements, permuted within the core into its rows of the result."""
    src, out = _shape(op.operands[0]), _shape(op.results[0])
    if kernel.family == "reshape" and fold_2d(src) == fold_2d(out):
        k.write(k.unary("copy", k.read(0, ("y", "x"))), n, ("y", "x"))
        return
    r = k.grid[0]
    perm = _permutation(op)
    j = _fixed_prefix(perm) if kernel.family == "permute" else 0
    if kernel.family == "permute":
        view = (math.prod(src[:j]) // r, *src[j:])
        moved = (0, *(p - j + 1 for p in perm[j:]))
    else:  # a reshape: the core's rows in row-major order
        view, moved = (math.prod(src) // r,), (0,)
    h, w = fold_2d(out)
    k.write(k.permute(k.read(0, ROWS), view, moved, (h // r, w)), n, ROWS)


# ----------------------------------------------------------------------------- broadcast


def block_broadcast(s: tuple[int, ...], os: tuple[int, ...]) -> tuple[str, str] | None:
    """The selectors a core of the result's grid reads an operand of shape `s` broadcast to `os`
    with (its own block, or all of a row, a column or a scalar), or None when the broadcast is
    not of a row, a column or a scalar of the folded buffers."""
    if s == os:
        return ("y", "x")
    h, w = fold_2d(s)
    H, W = fold_2d(os)
    padded = (1,) * (len(os) - len(s)) + s
    rows_ok = h == H and padded[:-1] == os[:-1] or h == 1
    if not rows_ok or w not in (1, W):
        return None
    return ("y" if h == H and H != 1 else "all", "x" if w == W and W != 1 else "all")


def broadcast_grid(op: Operation, kernel: Kernel, grid: tuple[int, int]) -> tuple[int, int]:
    if block_broadcast(_shape(op.operands[0]), _shape(op.results[0])) is not None:
        H, W = fold_2d(_shape(op.results[0]))
        return math.gcd(H, grid[0]), math.gcd(W, grid[1])
    return (1, 1)


def broadcast_kernel(op: Operation, kernel: Kernel, k: KernelBuilder, n: int) -> None:
    """ttir.broadcast: a row, a column or a scalar repeated by every core into its block of the
    result; any other broadcast by one core over the whole tensor."""
    s, os = _shape(op.operands[0]), _shape(op.results[0])
    H, W = fold_2d(os)
    sel = block_broadcast(s, os)
    if sel is None:
        k.write(k.broadcast(k.read(0, ("all", "all")), (1,) * (len(os) - len(s)) + s, os, (H, W)), n, ("all", "all"))
        return
    blk = k.read(0, sel)
    out = (H // k.grid[0], W // k.grid[1])
    k.write(k.broadcast(blk, tuple(blk.type.get_shape()), out, out), n, ("y", "x"))


# ----------------------------------------------------------------------------- reductions


def _reduction(op: Operation) -> tuple[tuple[int, ...], tuple[int, ...], bool]:
    return _shape(op.input), tuple(op.reduced_dims()), ttir.bool_value(op.attributes.get("keep_dim"))


def reduce_grid(op: Operation, kernel: Kernel, grid: tuple[int, int]) -> tuple[int, int]:
    shape, dims, keep = _reduction(op)
    rank = len(shape)
    h, w = fold_2d(_shape(op.results[0]))
    if rank == 2 and dims == (0,):  # column blocks; a ragged column count (784 over 5 cores) on 4 (even_grid)
        return even_grid((h, w), (1, grid[1]))
    if dims == (rank - 1,):
        if keep:  # row blocks; a ragged row count (39 rows over 2 cores) on one (even_grid)
            return even_grid((h, w), (grid[0], 1))
        return (_cores(h if h > 1 else w, grid), 1)
    return (1, 1)


def reduce_kernel(op: Operation, kernel: Kernel, k: KernelBuilder, n: int) -> None:
    """sum / mean / max / min over any dims. Over the last dim, by row blocks (a dropped dim's
    column of results becomes the result's rows, or its one row for a rank-1 result); over dim 0
    of a 2-d tensor, by column blocks; otherwise one core moves the reduced dims last
    (`tile_permute`) and reduces them as one."""
    shape, dims, keep = _reduction(op)
    rank = len(shape)
    h, w = fold_2d(_shape(op.results[0]))
    r = k.grid[0]
    if rank == 2 and dims == (0,):
        k.write(k.reduce(kernel.tile_op, k.read(0, ("all", "x")), 0), n, ("all", "x"))
    elif dims == (rank - 1,) and keep:
        k.write(k.reduce(kernel.tile_op, k.read(0, ROWS), 1), n, ROWS)
    elif dims == (rank - 1,):
        col = k.reduce(kernel.tile_op, k.read(0, ROWS), 1)
        rows = h > 1
        block = (h // r, w) if rows else (1, w // r)
        k.write(k.permute(col, (math.prod(block),), (0,), block), n, ROWS if rows else ("all", "y"))
    else:
        kept = tuple(d for d in range(rank) if d not in dims)
        outer = math.prod(shape[d] for d in kept)
        flat = k.permute(k.read(0, ("all", "all")), shape, kept + dims, (outer, math.prod(shape) // max(outer, 1)))
        col = k.reduce(kernel.tile_op, flat, 1)
        k.write(k.permute(col, (outer,), (0,), (h, w)), n, ("all", "all"))


# ----------------------------------------------------------------------------- softmax


def _softmax_dim(op: Operation) -> tuple[tuple[int, ...], int]:
    s = _shape(op.results[0])
    return s, ttir.rules.normalize_dim(ttir.int_value(op.dimension), len(s), "dimension")


def softmax_grid(op: Operation, kernel: Kernel, grid: tuple[int, int]) -> tuple[int, int]:
    """Over the last dim, row blocks (`R x 1`; on a ragged row count the most rows of cores that
    split it evenly, `even_grid`); over dim 0 of a 2-d tensor, column blocks (`1 x C`, likewise
    along ragged columns); over any other dim, `R x 1` with `R` splitting the
    elements of the dims before it (one core for dim 0)."""
    s, d = _softmax_dim(op)
    h, w = fold_2d(s)
    if d == len(s) - 1:
        return even_grid((h, w), (grid[0], 1))
    if len(s) == 2:
        return even_grid((h, w), (1, grid[1]))
    return (_cores(math.prod(s[:d]), grid), 1)


def _softmax(k: KernelBuilder, x, dim: int):
    """exp(x - max) / sum(exp(x - max)) along `dim` (0 rows, 1 cols) of the block."""
    e = k.unary("exp", k.binary("subtract", x, k.reduce("max", x, dim)))
    return k.binary("div", e, k.reduce("sum", e, dim))


def softmax_kernel(op: Operation, kernel: Kernel, k: KernelBuilder, n: int) -> None:
    """Softmax over any dim. The last: each core's rows, reduced along the block's cols. Dim 0
    of a 2-d tensor: each core's columns, along the block's rows. Any other dim d: core y reads
    its rows (its share of the elements of the dims before d, with everything after), turns d
    last (`tile_permute`), takes the softmax along the cols and turns it back."""
    s, d = _softmax_dim(op)
    if d == len(s) - 1:
        k.write(_softmax(k, k.read(0, ROWS), 1), n, ROWS)
        return
    if len(s) == 2:
        k.write(_softmax(k, k.read(0, ("all", "x")), 0), n, ("all", "x"))
        return
    h, w = fold_2d(s)
    r = k.grid[0]
    view = (math.prod(s[:d]) // r, *s[d:])
    m = len(view)
    turned = (view[0], *view[2:], view[1])
    flat = k.permute(k.read(0, ROWS), view, (0, *range(2, m), 1), (math.prod(view) // s[d], s[d]))
    back = k.permute(_softmax(k, flat, 1), turned, (0, m - 1, *range(1, m - 1)), (h // r, w))
    k.write(back, n, ROWS)


# ----------------------------------------------------------------------------- batched matmul


def matmul_batch(op: Operation) -> tuple[int, ...] | None:
    """The batch dims of a matmul run batch by batch: the result's, when b carries batch dims
    (not all 1), or a does and is transposed (None: the fold the 2-d kernel runs, a's batch dims
    in its rows)."""
    a, b = _shape(op.operands[0]), _shape(op.operands[1])
    ta = ttir.bool_value(op.attributes.get("transpose_a"))
    if math.prod(b[:-2]) == 1 and not (ta and math.prod(a[:-2]) != 1):
        return None
    return _shape(op.results[0])[:-2]


def _whole_batch(s: tuple[int, ...], batch: tuple[int, ...]) -> bool:
    """Whether an operand of shape `s` carries the matmul's batch dims as they are (no broadcast)."""
    return s[:-2] == batch


def fused_bias(op: Operation) -> bool:
    """Whether a ttir.linear runs as one matmul program adding its bias in the kernel: both
    operands of rank 2 or more, the result the product's shape, a bias (absent: no add) that is a
    row, a column or a scalar of it, or, when both operands are batched (a batch block a core), a
    row or the result's own shape; equal batch dims when b has any. Other linears are
    ttir-decompose-ttmlir-ops' matmul and add."""
    a, b, out = _shape(op.operands[0]), _shape(op.operands[1]), _shape(op.results[0])
    if len(a) < 2 or len(b) < 2:
        return False
    ta, tb = (ttir.bool_value(op.attributes.get(f)) for f in ("transpose_a", "transpose_b"))
    m, n = (a[-1] if ta else a[-2]), (b[-2] if tb else b[-1])
    batched = math.prod(b[:-2]) != 1 or ta and math.prod(a[:-2]) != 1
    if batched and a[:-2] != b[:-2] or out != broadcast_shapes(a[:-2], b[:-2]) + (m, n):
        return False
    if len(op.operands) < 3:
        return True
    bias = _shape(op.operands[2])
    if batched:
        return bias == out or fold_2d(bias)[0] == 1 and len(bias) <= len(out)
    return block_broadcast(bias, out) is not None


def batched_matmul_grid(op: Operation, kernel: Kernel, grid: tuple[int, int]) -> tuple[int, int]:
    batch = matmul_batch(op) or (1,)
    if not all(_whole_batch(_shape(v), batch) for v in op.operands[:2]):
        return (1, 1)  # an operand broadcast along the batch: one core repeats it
    return (_cores(math.prod(batch), grid), 1)


def batched_matmul_kernel(op: Operation, k: KernelBuilder, n: int) -> None:
    """(B..., M, K) x (B..., K, N): core y takes batch elements [y*B/R, (y+1)*B/R) of both operands
    (whole rows of their folded buffers) and multiplies them pairwise (`tile_matmul {batch}`),
    a transposed operand turned within the core first. An operand whose batch dims broadcast to
    the result's (none, or some of size 1) is read whole by the one core and repeated along the
    batch (`tile_broadcast`)."""
    batch = matmul_batch(op)
    per = math.prod(batch) // k.grid[0]
    blocks = []
    for i, flag in ((0, "transpose_a"), (1, "transpose_b")):
        s = _shape(op.operands[i])
        if _whole_batch(s, batch):
            blk = k.read(i, ROWS)
        else:
            full = (*batch, *s[-2:])
            blk = k.broadcast(k.read(i, ("all", "all")), (1,) * (len(full) - len(s)) + s, full,
                              (math.prod(full[:-1]), s[-1]))
        if ttir.bool_value(op.attributes.get(flag)):
            blk = k.permute(blk, (per, s[-2], s[-1]), (0, 2, 1), (per * s[-1], s[-2]))
        blocks.append(blk)
    product = k.matmul(blocks[0], blocks[1], per, matmul_fidelity(op))
    if len(op.operands) > 2:  # a linear's bias: the result's own rows, or one row every core adds
        whole = _shape(op.operands[2]) != _shape(op.results[0])
        product = k.binary("add", product, k.read(2, ("all", "all") if whole else ROWS))
    k.write(product, n, ROWS)
