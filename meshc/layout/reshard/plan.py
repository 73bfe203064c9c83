"""The data of a reshard plan: transfers (who sends which box to whom), steps, the plan itself.

A `ReshardPlan` is what `plan_reshard` returns and `execute_plan` runs; `ttir.point_to_point`
builds one from its transfers. A step of a large plan holds its moves as arrays (`Moves`) and
makes its `Transfer` objects only when they are read. Boxes are global index boxes, per tensor dim a [start, stop).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from meshc.layout.dtypes import DataType
from meshc.layout.mesh import Mesh, ShardingSpec

Box = tuple[tuple[int, int], ...]
"""Per tensor dim, a global [start, stop)."""


def within(box: Box, outer: Box) -> bool:
    """Whether `box` lies inside `outer`, dim by dim."""
    return all(o0 <= lo and hi <= o1 for (lo, hi), (o0, o1) in zip(box, outer))


@dataclass(frozen=True)
class Transfer:
    """One point-to-point move: `box` of the tensor goes from device `src` into device `dst`."""

    src: int
    dst: int
    box: Box
    bytes: int
    reduce: bool = False
    """True: dst adds src's partial sum of `box` to its own (a reduction), instead of storing it."""


class Step:
    """One collective of a plan and the transfers it performs.

    Its transfers are either given (a tuple) or made on demand from `moves`, an array form
    (`Moves`): a large plan counts its bytes and link hops on arrays and builds `Transfer`
    objects only for whoever reads `transfers` (execute_plan, ttir.point_to_point)."""

    __slots__ = ("kind", "axes", "_groups", "_transfers", "moves")

    def __init__(self, kind: str, axes: tuple[int, ...], groups, transfers: tuple[Transfer, ...] = (),
                 moves: Moves | None = None):
        self.kind = kind
        """all_slice | all_gather | all_to_all | collective_permute | reduce_scatter | all_reduce"""
        self.axes = axes
        """Mesh axes (of `ReshardPlan.stage_mesh`) the step runs along; () when it runs over `groups`."""
        self._groups = groups
        self._transfers = None if moves is not None else tuple(transfers)
        self.moves = moves

    @property
    def groups(self) -> tuple[tuple[int, ...], ...]:
        """The device groups that exchange data (each a tuple of device ids); made on first use
        when given as a function."""
        if callable(self._groups):
            self._groups = self._groups()
        return self._groups

    @property
    def transfers(self) -> tuple[Transfer, ...]:
        if self._transfers is None:
            self._transfers = tuple(self.moves.transfers())
        return self._transfers

    @property
    def bytes(self) -> int:
        if self._transfers is None:
            return self.moves.bytes
        return sum(t.bytes for t in self._transfers)

    def hop_bytes(self, hops) -> int:
        """Bytes times links crossed over this step's transfers."""
        if self.moves is not None:
            return self.moves.hop_bytes(hops)
        return _hop_bytes(self._transfers, hops)

    def __repr__(self) -> str:
        return f"Step({self.kind!r}, axes={self.axes}, {self.bytes} B)"

    def describe(self, mesh: Mesh | None = None) -> str:
        if self.axes:
            names = [mesh.names[a] if mesh is not None and mesh.names else str(a) for a in self.axes]
            where = "axis " + ",".join(names)
        else:
            where = "groups " + " ".join("[" + ",".join(map(str, g)) + "]" for g in self.groups)
        return f"{self.kind} over {where}: {len(self.transfers)} transfers, {self.bytes} B"


class Moves:
    """The transfers of a step in array form: the bytes it delivers, its link-hop bytes, and the
    `Transfer` objects themselves, made only when asked."""

    bytes: int

    def hop_bytes(self, hops) -> int:
        raise NotImplementedError

    def transfers(self) -> list[Transfer]:
        raise NotImplementedError


class JoinedMoves(Moves):
    """The moves of several steps as one (a reduce-scatter and an all-gather become an all-reduce)."""

    def __init__(self, steps):
        self.steps = tuple(steps)
        self.bytes = sum(s.bytes for s in self.steps)

    def hop_bytes(self, hops) -> int:
        return sum(s.hop_bytes(hops) for s in self.steps)

    def transfers(self) -> list[Transfer]:
        return [t for s in self.steps for t in s.transfers]


def _hop_bytes(ts, hops) -> int:
    if not ts:
        return 0
    src = np.fromiter((t.src for t in ts), dtype=np.int64, count=len(ts))
    dst = np.fromiter((t.dst for t in ts), dtype=np.int64, count=len(ts))
    nbytes = np.fromiter((t.bytes for t in ts), dtype=np.int64, count=len(ts))
    return int((nbytes * np.asarray(hops[src, dst], dtype=np.int64)).sum())


def link_hop_bytes(steps, hops) -> int:
    """Bytes times links crossed over every transfer of `steps`; `hops[src, dst]` takes index arrays."""
    return sum(s.hop_bytes(hops) for s in steps)


class ReshardPlan:
    """A plan: its steps, what they deliver and the lower bound.

    `plan_reshard` knows the bytes of its fewest-bytes plan before it plans the moves (the moves
    deliver exactly the bound), so it may hand over `build` instead of the steps: a function
    returning (intermediate, stage_mesh, steps), called on the first read of any of the three;
    `delivered_bytes` is then answered without it (the sharding passes ask only that)."""

    def __init__(self, shape: tuple[int, ...], dtype: DataType, source: ShardingSpec, target: ShardingSpec,
                 intermediate: ShardingSpec | None, steps: tuple[Step, ...], lower_bound_bytes: int, hops,
                 strategy: str = "fewest_bytes", stage_mesh: Mesh | None = None, *, build=None,
                 delivered: int | None = None, window: Box | None = None):
        self.shape, self.dtype, self.source, self.target = shape, dtype, source, target
        self.window = window
        """None, or the box of the tensor whose pieces the target holds (a windowed move,
        meshc/layout/reshard/window.py): the target spec splits `x[window]`, zeros past `x`."""
        self.lower_bound_bytes = lower_bound_bytes
        """Over all devices, the bytes a device needs in the target and does not hold in the source."""
        self.hops = hops
        """hops[s, d]: links a byte crosses from device s to device d in the chosen topology (an array,
        or a `LinkDistances`, which answers the same indexing without holding all pairs)."""
        self.strategy = strategy
        self._built = None if build is not None else (intermediate, tuple(steps), stage_mesh)
        self._build, self._delivered = build, delivered

    def _parts(self):
        if self._built is None:
            mid, view, steps = self._build()
            self._built = (mid, tuple(steps), view)
        return self._built

    @property
    def intermediate(self) -> ShardingSpec | None:
        """The layout after the reduce-scatter of partial sums (None when there is no reduction)."""
        return self._parts()[0]

    @property
    def steps(self) -> tuple[Step, ...]:
        return self._parts()[1]

    @property
    def stage_mesh(self) -> Mesh | None:
        """The mesh view whose axes the steps' `axes` refer to (the source's or the target's)."""
        return self._parts()[2]

    def __repr__(self) -> str:
        return f"ReshardPlan({self.shape}, {self.source} -> {self.target}, {self.delivered_bytes} B)"

    @property
    def transfers(self) -> tuple[Transfer, ...]:
        return tuple(t for s in self.steps for t in s.transfers)

    @property
    def delivered_bytes(self) -> int:
        """Bytes delivered into devices, each counted once at the device that receives it."""
        if self._built is None and self._delivered is not None:
            return self._delivered
        return sum(s.bytes for s in self.steps)

    @property
    def link_hop_bytes(self) -> int:
        """Bytes times links crossed, over every transfer (a multi-hop route counts each hop)."""
        return link_hop_bytes(self.steps, self.hops)

    @property
    def ratio(self) -> float:
        """delivered / lower bound (1.0 when both are zero)."""
        if self.lower_bound_bytes == 0:
            return 1.0 if self.delivered_bytes == 0 else math.inf
        return self.delivered_bytes / self.lower_bound_bytes

    def summary(self) -> str:
        lines = [f"reshard {self.shape} {self.dtype.name}: {self.source} on {self.source.mesh} -> "
                 f"{self.target} on {self.target.mesh}"]
        lines += ["  " + s.describe(self.stage_mesh) for s in self.steps]
        lines.append(f"  delivered {self.delivered_bytes} B, bound {self.lower_bound_bytes} B, "
                     f"link-hop {self.link_hop_bytes} B")
        return "\n".join(lines)
