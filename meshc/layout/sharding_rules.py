"""Per-op sharding rules: which shardings of an op's operands produce which sharding of its results.

Pure Python over `ShardingSpec`s and global shapes, no IR: the passes `ttir-propagate-sharding`,
`ttir-partition` and `ttir-auto-shard` describe each op as an `OpInfo` (kind, global shapes,
a few attributes) and ask `rule_for(info)`. docs/propagation.md lists every op's rule.

A rule is a list of *factors* (meshc/layout/sharding_factors.py: `pass`, `sum`, `keep`,
`bcast`, as Shardy's op sharding rules are). A compute op's factors and whether it is linear
come from its entry in the compute-op registry (meshc/layout/compute_ops.py); the other ttir ops
a global-view program holds (MoE, constants, layout changes, sharding constraints) are in
`OTHER_RULES` here.

`Rule.propose(i, spec)` gives the result specs the op computes when operand `i` keeps `spec`
(the forward direction; other operands are then resharded to match); `Rule.require(results)`
gives the operand specs that compute exactly `results` on every device (the backward
direction), or None when no operand sharding does. A factor whose pieces do not divide every
dim it appears in stays whole, except a `pass` factor (one size wherever it appears) of an op
of UNEVEN_FAMILIES: that one may split unevenly, each device computing on its padded buffer
(docs/propagation.md, "Uneven splits").
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from meshc.layout import sharding_factors as factors
from meshc.layout.compute_ops import COMPUTE_OPS, ELEMENTWISE
from meshc.layout.errors import LayoutError
from meshc.layout.mesh import Mesh, ShardingSpec
from meshc.layout.sharding_factors import Factor, Factors, OpInfo

Shape = tuple[int, ...]

__all__ = ["OTHER_RULES", "Factor", "OpInfo", "Rule", "canonical", "local_shape", "replicated", "rule_for",
           "supported_kinds"]

OTHER_RULES: dict[str, tuple[Factors, bool]] = {
    "to_layout": (factors.identity, True),
    "sharding_constraint": (factors.identity, True),
    "moe_route": (factors.moe_route, False),
    "moe_dispatch": (factors.moe_dispatch, False),
    "moe_combine": (factors.moe_combine, False),
    "constant": (factors.source, False),
    "empty": (factors.source, False),
}
"""The ttir ops outside the compute-op registry that have a rule: kind -> (factors, linear)."""


UNEVEN_FAMILIES = ELEMENTWISE + ("matmul", "transpose", "permute", "reduction", "softmax")
"""The op families whose `pass` factors may split unevenly: each result element reads operand
elements at its own index of every pass factor (none reads a value as an index), so the padding
of a buffer only ever makes padding. Constants too (made at their buffer shape)."""


@dataclass
class Rule:
    info: OpInfo
    factors: list[Factor]
    linear: bool = False
    uneven: bool = False
    """An op of UNEVEN_FAMILIES or a constant: a `pass` or `bcast` factor of one size wherever it
    appears may split unevenly; `sum` and `keep` factors split evenly."""

    # -- helpers

    def _sizes_ok(self, f: Factor, pieces: int) -> bool:
        if pieces == 1:
            return True
        sizes = [shape[d] for shapes, dims in ((self.info.operands, f.operand_dims), (self.info.results, f.result_dims))
                 for shape, d in zip(shapes, dims) if d is not None]
        if f.kind in ("window", "scan", "select") or all(n % pieces == 0 for n in sizes):
            return True
        return self.uneven and f.kind in ("pass", "bcast") and len(set(sizes)) == 1

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
            if f.kind == "sum":  # summing a split factor leaves partial sums over its axes
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
            if sums:
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


def _rule_of(kind: str) -> tuple[Factors, bool] | None:
    entry = COMPUTE_OPS.get(kind)
    if entry is not None:
        return entry.rule, entry.linear
    return OTHER_RULES.get(kind)


def supported_kinds() -> tuple[str, ...]:
    """Every op kind with a sharding rule, sorted."""
    return tuple(sorted({*COMPUTE_OPS, *OTHER_RULES}))


def rule_for(info: OpInfo) -> Rule:
    """The sharding rule of an op; LayoutError for a kind with no rule."""
    found = _rule_of(info.kind)
    if found is None:
        raise LayoutError(f"no sharding rule for 'ttir.{info.kind}'; global-view programs take "
                          f"{', '.join(supported_kinds())}")
    make, linear = found
    entry = COMPUTE_OPS.get(info.kind)
    uneven = (entry is not None and entry.family in UNEVEN_FAMILIES) or make is factors.source
    return Rule(info, make(info), linear=linear, uneven=uneven)


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
    """The per-device shape of a tensor split by `spec`: its buffer (`ShardingSpec.buffer_shape`),
    ceil(n / k) a dim, padded where the split is uneven."""
    return spec.buffer_shape(tuple(shape))
