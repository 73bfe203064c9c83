"""Per-op sharding rules: which shardings of an op's operands produce which sharding of its results.

Pure Python over `ShardingSpec`s and global shapes, no IR: the passes `ttir-propagate-sharding`,
`ttir-partition` and `ttir-auto-shard` describe each op as an `OpInfo` (kind, global shapes,
a few attributes) and ask `rule_for(info)`. docs/propagation.md lists every op's rule.

A rule is a list of *factors*, as Shardy's op sharding rules are: a factor is one index space of
the op that appears as (at most) one dim of some operands and results. Matmul (M, K) x (K, N) has
the factors M, N (in an operand and the result) and K (operands only, summed over). Each factor
has a kind:

* `pass`: sharded alike wherever it appears (elementwise dims, batch dims, M and N);
* `sum`: appears in operands only and is summed over (matmul's K, `ttir.sum`'s dims); sharding
  it over mesh axes leaves the result a partial sum over those axes;
* `keep`: must stay whole (softmax's dim, a concat dim, a reshape dim that does not map);
* `bcast`: a result dim an operand broadcasts into (size 1 there): the result may be sharded
  on it while the operand is not.

`Rule.propose(i, spec)` gives the result specs the op computes when operand `i` keeps `spec`
(the forward direction; other operands are then resharded to match); `Rule.require(results)`
gives the operand specs that compute exactly `results` on every device (the backward
direction), or None when no operand sharding does. Only even splits are proposed: a factor
whose pieces do not divide every dim it appears in stays whole.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from meshc.layout.errors import LayoutError
from meshc.layout.mesh import Mesh, ShardingSpec

Shape = tuple[int, ...]

ELEMENTWISE_UNARY = ("exp", "log", "relu", "sigmoid", "tanh", "gelu", "neg", "sqrt", "erf", "typecast", "to_layout")
ELEMENTWISE_BINARY = ("add", "subtract", "multiply", "div", "maximum", "minimum", "pow", "eq", "ne", "gt", "ge", "lt", "le", "where")
REDUCTIONS = ("sum", "mean", "max")
# ops that commute with a sum over devices: a partial-sum operand gives a partial-sum result
LINEAR = ("add", "subtract", "neg", "transpose", "permute", "reshape", "broadcast", "concat", "to_layout",
          "sum", "sharding_constraint")


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
    kind: str  # pass | sum | keep | bcast
    operand_dims: list[int | None]
    result_dims: list[int | None]
    size: int = 1

    def dims_of(self, side: str) -> list[int | None]:
        return self.operand_dims if side == "operand" else self.result_dims


@dataclass
class Rule:
    info: OpInfo
    factors: list[Factor]
    linear: bool = False

    # -- helpers

    def _sizes_ok(self, f: Factor, pieces: int) -> bool:
        if pieces == 1:
            return True
        for shapes, dims in ((self.info.operands, f.operand_dims), (self.info.results, f.result_dims)):
            for shape, d in zip(shapes, dims):
                if d is not None and shape[d] % pieces:
                    return False
        return True

    def _build(self, mesh: Mesh, axes: list[tuple[int, ...]], side: str, partial: tuple[int, ...]
               ) -> tuple[ShardingSpec, ...]:
        shapes = self.info.operands if side == "operand" else self.info.results
        out = []
        for i, shape in enumerate(shapes):
            dims: list[tuple[int, ...]] = [() for _ in shape]
            for f, ax in zip(self.factors, axes):
                d = f.dims_of(side)[i]
                if d is None or not ax:
                    continue
                if side == "operand" and f.kind == "bcast":
                    continue
                dims[d] = ax
            out.append(ShardingSpec(mesh, tuple(dims), partial))
        return tuple(out)

    # -- the two directions

    def propose(self, i: int, spec: ShardingSpec) -> tuple[ShardingSpec, ...] | None:
        """The result specs when operand `i` keeps `spec` (factors it lacks are whole)."""
        return self.merge({i: spec})

    def merge(self, specs: dict[int, ShardingSpec]) -> tuple[ShardingSpec, ...] | None:
        """The result specs when the operands keep `specs` as far as they agree: each factor
        takes the axes of the first operand (in order) sharding it, an axis taken once only."""
        mesh = next(iter(specs.values())).mesh
        axes: list[tuple[int, ...]] = []
        partial: list[int] = []
        taken: set[int] = set()
        for f in self.factors:
            ax: tuple[int, ...] = ()
            for i, spec in sorted(specs.items()):
                d = f.operand_dims[i]
                if d is not None and spec.dims[d]:
                    ax = spec.dims[d]
                    break
            if taken & set(ax):
                ax = ()
            taken |= set(ax)
            pieces = math.prod(mesh.shape[a] for a in ax)
            if f.kind in ("keep", "bcast") or not self._sizes_ok(f, pieces):
                ax = ()
            if f.kind == "sum":
                if self.info.kind in ("matmul", "sum"):
                    partial.extend(ax)
                ax = ()
            axes.append(ax)
        if self.linear:
            for spec in specs.values():
                partial.extend(spec.partial)
        used = [a for ax in axes for a in ax]
        partial = [a for a in dict.fromkeys(partial) if a not in used]
        return self._build(mesh, axes, "result", tuple(sorted(partial)))

    def require(self, results: Sequence[ShardingSpec]) -> tuple[ShardingSpec, ...] | None:
        """Operand specs that compute exactly `results`, or None when none do."""
        mesh = results[0].mesh
        axes: list[tuple[int, ...] | None] = [None] * len(self.factors)
        for r, spec in enumerate(results):
            for k, f in enumerate(self.factors):
                d = f.result_dims[r]
                ax = spec.dims[d] if d is not None else ()
                if d is None:
                    continue
                if axes[k] is not None and axes[k] != ax:
                    return None
                axes[k] = ax
            if spec.partial != results[0].partial:
                return None
        # every mesh axis sharding a result dim not covered by a factor (e.g. a keep_dim size-1
        # dim, a reshape dim that does not map) makes the request impossible
        for r, spec in enumerate(results):
            for d, ax in enumerate(spec.dims):
                if ax and not any(f.result_dims[r] == d for f in self.factors):
                    return None
        final: list[tuple[int, ...]] = []
        for f, ax in zip(self.factors, axes):
            ax = ax or ()
            if ax and (f.kind == "keep" or not self._sizes_ok(f, math.prod(mesh.shape[a] for a in ax))):
                return None
            final.append(ax)
        partial = results[0].partial
        operand_partial: tuple[int, ...] = ()
        if partial:
            sums = [k for k, f in enumerate(self.factors) if f.kind == "sum"]
            if sums and self.info.kind in ("matmul", "sum"):
                k = sums[0]
                pieces = math.prod(mesh.shape[a] for a in partial)
                if not self._sizes_ok(self.factors[k], pieces):
                    return None
                final[k] = tuple(partial)
            elif self.linear:
                operand_partial = tuple(partial)
            else:
                return None
        return self._build(mesh, final, "operand", operand_partial)


# ----------------------------------------------------------------------------- the rules, by op kind


def _identity(info: OpInfo, keep: Sequence[int] = ()) -> list[Factor]:
    rank = len(info.results[0])
    n = len(info.operands)
    return [Factor("keep" if d in keep else "pass", [d] * n, [d] * len(info.results), info.results[0][d])
            for d in range(rank)]


def _elementwise(info: OpInfo) -> list[Factor]:
    out = info.results[0]
    factors = []
    for d in range(len(out)):
        operand_dims: list[int | None] = []
        bcast = False
        for shape in info.operands:
            od = d - (len(out) - len(shape))
            if od < 0 or (shape[od] == 1 and out[d] != 1):
                operand_dims.append(None)
                bcast = True
            else:
                operand_dims.append(od)
        kind = "pass"
        if bcast and all(o is None for o in operand_dims):
            kind = "bcast"
        factors.append(Factor(kind, operand_dims, [d], out[d]))
        if bcast and kind == "pass":  # some operands broadcast: they simply do not carry the axes
            factors[-1] = Factor("pass", operand_dims, [d], out[d])
    return factors


def _matmul(info: OpInfo) -> list[Factor]:
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


def _reduction(info: OpInfo) -> list[Factor]:
    shape = info.operands[0]
    reduced = set(info.attrs.get("dims", range(len(shape))))
    keep_dim = info.attrs.get("keep_dim", False)
    factors, r = [], 0
    for d in range(len(shape)):
        if d in reduced:
            factors.append(Factor("sum" if info.kind == "sum" else "keep", [d], [None], shape[d]))
            if keep_dim:
                r += 1
        else:
            factors.append(Factor("pass", [d], [r], shape[d]))
            r += 1
    return factors


def _permutation(info: OpInfo) -> list[Factor]:
    perm = info.attrs["permutation"]
    return [Factor("pass", [perm[r]], [r], info.results[0][r]) for r in range(len(perm))]


def _reshape(info: OpInfo) -> list[Factor]:
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


def _broadcast(info: OpInfo) -> list[Factor]:
    src, dst = info.operands[0], info.results[0]
    factors = []
    for d in range(len(dst)):
        od = d - (len(dst) - len(src))
        if od < 0 or (src[od] == 1 and dst[d] != 1):
            factors.append(Factor("bcast", [None], [d], dst[d]))
        else:
            factors.append(Factor("pass", [od], [d], dst[d]))
    return factors


def _embedding(info: OpInfo) -> list[Factor]:
    idx, weight = info.operands
    out = info.results[0]
    factors = [Factor("pass", [d, None], [d], out[d]) for d in range(len(idx))]
    factors.append(Factor("keep", [None, 0], [None], weight[0]))  # the vocabulary: rows are gathered
    factors.append(Factor("pass", [None, 1], [len(out) - 1], out[-1]))
    return factors


def _moe_route(info: OpInfo) -> list[Factor]:
    logits = info.operands[0]
    lead = [Factor("pass", [d], [d, d], logits[d]) for d in range(len(logits) - 1)]
    last = len(logits) - 1
    return lead + [Factor("keep", [last], [None, None], logits[-1]), Factor("keep", [None], [last, last], 1)]


def _moe_dispatch(info: OpInfo) -> list[Factor]:
    # tokens [B, S, M], experts [B, S, k] -> dispatched [E, G, C, M], slots [B, S, k]:
    # a device holding a run of batch rows holds whole DP groups, so B and G split alike
    (b, s, m), (_, _, k) = info.operands[0], info.operands[1]
    e, g, c, _ = info.results[0]
    return [Factor("pass", [0, 0], [1, 0], b), Factor("keep", [1, 1], [None, 1], s),
            Factor("pass", [2, None], [3, None], m), Factor("keep", [None, 2], [None, 2], k),
            Factor("keep", [None, None], [0, None], e), Factor("keep", [None, None], [2, None], c)]


def _moe_combine(info: OpInfo) -> list[Factor]:
    # expert_out [E, G, C, N], experts / weights / slots [B, S, k] -> [B, S, N]
    e, g, c, n = info.operands[0]
    b, s, k = info.operands[1]
    return [Factor("pass", [1, 0, 0, 0], [0], b), Factor("keep", [None, 1, 1, 1], [1], s),
            Factor("pass", [3, None, None, None], [2], n), Factor("keep", [None, 2, 2, 2], [None], k),
            Factor("keep", [0, None, None, None], [None], e), Factor("keep", [2, None, None, None], [None], c)]


def _concat(info: OpInfo) -> list[Factor]:
    return _identity(info, keep=(info.attrs["dim"],))


def _source(info: OpInfo) -> list[Factor]:
    """constant / empty: no operands; any sharding of the result is made on the spot."""
    return [Factor("bcast", [], [d], n) for d, n in enumerate(info.results[0])]


_RULES = {
    **{k: _identity for k in ELEMENTWISE_UNARY},
    **{k: _elementwise for k in ELEMENTWISE_BINARY},
    **{k: _reduction for k in REDUCTIONS},
    "sharding_constraint": _identity,
    "softmax": lambda info: _identity(info, keep=(info.attrs["dim"],)),
    "matmul": _matmul,
    "transpose": _permutation,
    "permute": _permutation,
    "reshape": _reshape,
    "broadcast": _broadcast,
    "concat": _concat,
    "embedding": _embedding,
    "moe_route": _moe_route,
    "moe_dispatch": _moe_dispatch,
    "moe_combine": _moe_combine,
    "constant": _source,
    "empty": _source,
}

SUPPORTED_KINDS = tuple(sorted(_RULES))


def rule_for(info: OpInfo) -> Rule:
    """The sharding rule of an op; LayoutError for a kind with no rule."""
    make = _RULES.get(info.kind)
    if make is None:
        raise LayoutError(f"no sharding rule for 'ttir.{info.kind}'; global-view programs take "
                          f"{', '.join(SUPPORTED_KINDS)}")
    return Rule(info, make(info), linear=info.kind in LINEAR)


def canonical(spec: ShardingSpec) -> ShardingSpec:
    """The same placement without mesh axes of one device (they split and sum nothing):
    `[S01, R]` on a 1x4 mesh is `[S1, R]`. Propagation works on canonical specs only."""
    keep = [a for a in range(spec.mesh.rank) if spec.mesh.shape[a] > 1]
    dims = tuple(tuple(a for a in d if a in keep) for d in spec.dims)
    partial = tuple(a for a in spec.partial if a in keep)
    if dims == spec.dims and partial == spec.partial:
        return spec
    return ShardingSpec(spec.mesh, dims, partial)


def replicated(mesh: Mesh, rank: int) -> ShardingSpec:
    return ShardingSpec(mesh, tuple(() for _ in range(rank)))


def local_shape(shape: Shape, spec: ShardingSpec) -> Shape:
    """The per-device shape of an evenly split tensor; LayoutError naming an uneven dim."""
    out = []
    for d, n in enumerate(shape):
        k = spec.num_pieces(d)
        if n % k:
            raise LayoutError(f"sharding {spec} splits dim {d} of size {n} into {k} pieces, which do not divide it; "
                              f"meshc partitions even splits only (pad dim {d} to a multiple of {k})")
        out.append(n // k)
    return tuple(out)
