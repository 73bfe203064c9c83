"""The factors of an op's sharding rule, and the builders every op's rule is made of.

A rule is a list of *factors*, as Shardy's op sharding rules are: a factor is one index space of
the op that appears as (at most) one dim of some operands and results. Matmul (M, K) x (K, N) has
the factors M, N (in an operand and the result) and K (operands only, summed over). Each factor
has a kind:

* `pass`: sharded alike wherever it appears (elementwise dims, batch dims, M and N);
* `sum`: appears in operands only and is summed over (matmul's K, `ttir.sum`'s dims); sharding
  it over mesh axes leaves the result a partial sum over those axes;
* `keep`: must stay whole (softmax's dim, a concat dim, a reshape dim that does not map);
* `bcast`: a result dim an operand broadcasts into (size 1 there): the result may be sharded
  on it while the operand is not;
* `window`: sharded alike in the operands and the result, but a result piece is not the
  operand piece at the same place (a slice's sliced dim at step 1, a concatenation's dim):
  ttir-partition moves each device its piece of the window from the pieces that hold it
  (meshc/layout/reshard/window.py), never gathering the dim; its pieces may be uneven;
* `scan`: sharded alike in the operand and the result, a running reduction along it (cumsum):
  each device scans its piece and adds the total of the pieces before it
  (meshc/passes/partition_select.py); its pieces may be uneven;
* `select`: in the operand only, reduced to an index or a few (argmax, argmin, top_k): a
  device picks among its own piece, the candidates are gathered and picked again, the result
  is whole on its axes (meshc/passes/partition_select.py); its pieces may be uneven.

Each builder takes an `OpInfo` (the op as the rules see it) and returns its factors. The compute
ops name their builder in their registry entry (meshc/layout/compute_ops.py); the other ttir ops
(MoE, constants, annotations) in meshc/layout/sharding_rules.py, which turns factors into a
`Rule`. Pure Python: no IR here.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from meshc.layout.errors import LayoutError

Shape = tuple[int, ...]


@dataclass(frozen=True)
class OpInfo:
    """An op as the rules see it: `kind` (the ttir op name without `ttir.`), global shapes of
    operands and results, and the attributes that shape its rule (normalized python values:
    `dims` for reductions, `dim` for softmax / concat, `permutation`, `transpose_a/_b`, `keep_dim`)."""

    kind: str
    operands: tuple[Shape, ...]
    results: tuple[Shape, ...]
    attrs: dict = field(default_factory=dict, compare=False, hash=False)


@dataclass
class Factor:
    kind: str  # pass | sum | keep | bcast | window | scan | select
    operand_dims: list[int | None]
    result_dims: list[int | None]
    size: int = 1

    def dims_of(self, side: str) -> list[int | None]:
        return self.operand_dims if side == "operand" else self.result_dims


Factors = Callable[[OpInfo], list[Factor]]
"""A rule's builder: the op's factors."""


def identity(info: OpInfo, keep: Sequence[int] = ()) -> list[Factor]:
    """Every dim one factor through every operand and result (`pass`, or `keep` for `keep`)."""
    rank = len(info.results[0])
    n = len(info.operands)
    return [Factor("keep" if d in keep else "pass", [d] * n, [d] * len(info.results), info.results[0][d])
            for d in range(rank)]


def elementwise(info: OpInfo) -> list[Factor]:
    """numpy broadcasting: a result dim is `pass`; an operand of size 1 (or missing) there does
    not carry its axes; a dim no operand has is `bcast`."""
    out = info.results[0]
    factors = []
    for d in range(len(out)):
        operand_dims: list[int | None] = []
        for shape in info.operands:
            od = d - (len(out) - len(shape))
            operand_dims.append(None if od < 0 or (shape[od] == 1 and out[d] != 1) else od)
        kind = "bcast" if all(o is None for o in operand_dims) and operand_dims else "pass"
        factors.append(Factor(kind, operand_dims, [d], out[d]))
    return factors


def matmul(info: OpInfo) -> list[Factor]:
    """Batch dims `pass` (broadcast as in `elementwise`), M and N `pass`, K `sum`."""
    a, b = info.operands
    out = info.results[0]
    ta, tb = info.attrs.get("transpose_a", False), info.attrs.get("transpose_b", False)
    a_m, a_k = (len(a) - 1, len(a) - 2) if ta else (len(a) - 2, len(a) - 1)
    b_k, b_n = (len(b) - 1, len(b) - 2) if tb else (len(b) - 2, len(b) - 1)
    if len(a) < 2 or len(b) < 2:
        raise LayoutError("matmul operands need rank 2 or more for a sharding rule")
    factors = []
    nb = len(out) - 2
    for d in range(nb):
        dims: list[int | None] = []
        for shape in (a, b):
            od = d - (nb - (len(shape) - 2))
            dims.append(None if od < 0 or (shape[od] == 1 and out[d] != 1) else od)
        factors.append(Factor("pass" if any(x is not None for x in dims) else "bcast", dims, [d], out[d]))
    factors.append(Factor("pass", [a_m, None], [len(out) - 2], out[-2]))
    factors.append(Factor("pass", [None, b_n], [len(out) - 1], out[-1]))
    factors.append(Factor("sum", [a_k, b_k], [None], a[a_k]))
    return factors


def linear(info: OpInfo) -> list[Factor]:
    """tt-mlir's linear, matmul(a, b) + bias: matmul's factors, the bias broadcast against the
    product as in `elementwise` (a bias dim of size 1, or missing, carries no axes). Without a
    bias K is `sum`, as matmul's; with one K is `keep`: a device adding the bias to its partial
    product would count the bias once per device in the sum. A bias of higher rank than the
    product adds leading result dims only the bias has."""
    a, b = info.operands[:2]
    bias = info.operands[2] if len(info.operands) > 2 else None
    out = info.results[0]
    if len(a) < 2 or len(b) < 2:
        raise LayoutError("linear operands a and b need rank 2 or more for a sharding rule")
    shift = len(out) - max(len(a), len(b))
    product = tuple(out[shift:])
    factors = matmul(OpInfo("matmul", (a, b), (product,), info.attrs))
    for f in factors:
        f.result_dims = [None if d is None else d + shift for d in f.result_dims]
    factors = [Factor("pass", [None, None], [d], out[d]) for d in range(shift)] + factors
    for f in factors:
        if bias is None:
            f.operand_dims.append(None)
            continue
        d = f.result_dims[0]
        bd = None if d is None else d - (len(out) - len(bias))
        carried = bd is not None and bd >= 0 and not (bias[bd] == 1 and out[d] != 1)
        f.operand_dims.append(bd if carried else None)
        if f.kind == "sum":
            f.kind = "keep"
        elif f.kind == "bcast" and carried:
            f.kind = "pass"
    for f in factors:
        if f.kind == "pass" and all(x is None for x in f.operand_dims):
            f.kind = "bcast"
    return factors


def reduction(summed: bool) -> Factors:
    """A reduction over `dims` (all when absent): the reduced dims `sum` when the op adds them up
    (`summed`: partial sums are then its own), else `keep`; the others `pass`."""

    def factors(info: OpInfo) -> list[Factor]:
        shape = info.operands[0]
        reduced = set(info.attrs.get("dims", range(len(shape))))
        keep_dim = info.attrs.get("keep_dim", False)
        out, r = [], 0
        for d in range(len(shape)):
            if d in reduced:
                out.append(Factor("sum" if summed else "keep", [d], [None], shape[d]))
                r += 1 if keep_dim else 0
            else:
                out.append(Factor("pass", [d], [r], shape[d]))
                r += 1
        return out

    return factors


def keep_dim_attr(info: OpInfo) -> list[Factor]:
    """Every dim `pass` but the `dim` attribute's, which stays whole (softmax)."""
    return identity(info, keep=(info.attrs["dim"],))


def permutation(info: OpInfo) -> list[Factor]:
    """Each result dim `pass` with the operand dim `permutation` takes it from."""
    perm = info.attrs["permutation"]
    return [Factor("pass", [perm[r]], [r], info.results[0][r]) for r in range(len(perm))]


def reshape(info: OpInfo) -> list[Factor]:
    """Operand dim d and result dim e are one factor when the dims before them hold as many
    elements (prefix products equal): a split of d then is a split of e (sizes permitting)."""
    src, dst = info.operands[0], info.results[0]
    pre_src = [math.prod(src[:d]) for d in range(len(src))]
    pre_dst = {math.prod(dst[:e]): e for e in range(len(dst)) if dst[e] != 1}
    factors, matched = [], set()
    for d in range(len(src)):
        e = pre_dst.get(pre_src[d]) if src[d] != 1 else None
        if e is not None and e not in matched:
            matched.add(e)
            factors.append(Factor("pass", [d], [e], src[d]))
        else:
            factors.append(Factor("keep", [d], [None], src[d]))
    factors += [Factor("keep", [None], [e], dst[e]) for e in range(len(dst)) if e not in matched]
    return factors


def slice_dims(info: OpInfo) -> list[Factor]:
    """A dim the slice keeps whole (the result has all of it) `pass`; a dim sliced at step 1
    `window` (a device's result piece comes from the operand pieces that overlap it: halo moves,
    no gather); a strided dim `keep`."""
    src, dst = info.operands[0], info.results[0]
    steps = info.attrs.get("step", (1,) * len(dst))
    return [Factor("pass" if src[d] == dst[d] else "window" if steps[d] == 1 else "keep", [d], [d], dst[d])
            for d in range(len(dst))]


def scan(info: OpInfo) -> list[Factor]:
    """Every dim `pass` but the scanned `dim`, a `scan`."""
    d = info.attrs["dim"]
    return [Factor("scan" if e == d else "pass", [e], [e], n) for e, n in enumerate(info.results[0])]


def arg_reduction(info: OpInfo) -> list[Factor]:
    """The reduced `dim` a `select` (the operand's only), the others `pass` (keep_dim keeps it as
    a whole size-1 result dim)."""
    shape = info.operands[0]
    d = info.attrs["dim"]
    keep = info.attrs.get("keep_dim", False)
    out, r = [], 0
    for e, n in enumerate(shape):
        if e == d:
            out.append(Factor("select", [e], [None], n))
            r += 1 if keep else 0
        else:
            out.append(Factor("pass", [e], [r], n))
            r += 1
    return out


def top_k(info: OpInfo) -> list[Factor]:
    """top_k along `dim`: the operand's dim a `select` (the k are picked among the pieces where
    they lie), the result's k-long dim `keep`, the others `pass`."""
    d = info.attrs["dim"]
    out = info.results[0]
    return [Factor("select", [e], [None], n) if e == d else Factor("pass", [e], [e], n)
            for e, n in enumerate(info.operands[0])] + [Factor("keep", [None], [d], out[d])]


def concat(info: OpInfo) -> list[Factor]:
    """Every dim `pass` but the joined one, a `window`: each operand is a window of the result,
    moved into the result's pieces where it lies (no operand gathered)."""
    rank = len(info.results[0])
    d = info.attrs["dim"]
    n = len(info.operands)
    return [Factor("window" if e == d else "pass", [e] * n, [e], info.results[0][e]) for e in range(rank)]


def broadcast(info: OpInfo) -> list[Factor]:
    """A dim the operand has (> 1) `pass`, a broadcast dim `bcast`."""
    src, dst = info.operands[0], info.results[0]
    factors = []
    for d in range(len(dst)):
        od = d - (len(dst) - len(src))
        if od < 0 or (src[od] == 1 and dst[d] != 1):
            factors.append(Factor("bcast", [None], [d], dst[d]))
        else:
            factors.append(Factor("pass", [od], [d], dst[d]))
    return factors


def embedding(info: OpInfo) -> list[Factor]:
    """The indices' dims `pass` to the leading result dims, the table's rows `sum` (a table split
    by rows is looked up where it lies, each device giving the rows it holds and 0 for the
    others: partial sums, ttir-partition's vocab-parallel lookup), its columns `pass` to the
    last result dim."""
    idx, weight = info.operands
    out = info.results[0]
    factors = [Factor("pass", [d, None], [d], out[d]) for d in range(len(idx))]
    factors.append(Factor("sum", [None, 0], [None], weight[0]))
    factors.append(Factor("pass", [None, 1], [len(out) - 1], out[-1]))
    return factors


def moe_route(info: OpInfo) -> list[Factor]:
    logits = info.operands[0]
    lead = [Factor("pass", [d], [d, d], logits[d]) for d in range(len(logits) - 1)]
    last = len(logits) - 1
    return lead + [Factor("keep", [last], [None, None], logits[-1]), Factor("keep", [None], [last, last], 1)]


def moe_dispatch(info: OpInfo) -> list[Factor]:
    # tokens [B, S, M], experts [B, S, k] -> dispatched [E, G, C, M], slots [B, S, k]:
    # a device holding a run of batch rows holds whole DP groups, so B and G split alike
    (b, s, m), (_, _, k) = info.operands[0], info.operands[1]
    e, g, c, _ = info.results[0]
    return [Factor("pass", [0, 0], [1, 0], b), Factor("keep", [1, 1], [None, 1], s),
            Factor("pass", [2, None], [3, None], m), Factor("keep", [None, 2], [None, 2], k),
            Factor("keep", [None, None], [0, None], e), Factor("keep", [None, None], [2, None], c)]


def moe_combine(info: OpInfo) -> list[Factor]:
    # expert_out [E, G, C, N], experts / weights / slots [B, S, k] -> [B, S, N]
    e, g, c, n = info.operands[0]
    b, s, k = info.operands[1]
    return [Factor("pass", [1, 0, 0, 0], [0], b), Factor("keep", [None, 1, 1, 1], [1], s),
            Factor("pass", [3, None, None, None], [2], n), Factor("keep", [None, 2, 2, 2], [None], k),
            Factor("keep", [0, None, None, None], [None], e), Factor("keep", [2, None, None, None], [None], c)]


def source(info: OpInfo) -> list[Factor]:
    """constant / empty: no operands; any sharding of the result is made on the spot."""
    return [Factor("bcast", [], [d], n) for d, n in enumerate(info.results[0])]
