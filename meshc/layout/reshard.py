"""Reshard plans: turn any change of sharding spec into collectives that move the fewest bytes.

`plan_reshard(shape, dtype, source, target)` answers "which bytes must move, from which device
to which" for a tensor going from one `ShardingSpec` to another. The two specs may sit on
different views of the same devices (`[DP=2, CP=2, TP=2]` and `[EP=8]` over 8 devices; device
ids are row-major in each view, and device i of one view is device i of the other).

How a plan is made (docs/reshard.md has the pictures):

1. The tensor is cut into *cells*: per dim, the intervals between every chunk boundary of the
   source and the target spec. Every device holds (source) and needs (target) whole cells, so
   "who holds what" is a small boolean matrix devices x cells, computed from the specs' boxes.
2. Partial sums (source partial over mesh axes the target is not partial over) are first
   reduce-scattered over those axes; the dim they scatter is the one that makes the rest cheapest.
3. Every device then receives exactly the cells it needs and does not hold, each once. Moves
   run axis by axis along the mesh (a device may forward a cell it received earlier, but only a
   cell it needs itself), then one last step sends what is left directly from the nearest holder.
   Every byte delivered is a byte the receiver needs and lacked, so for placements without
   partial sums the delivered bytes equal the lower bound. The axis order with the fewest
   link-hop bytes wins.
4. Each step is named as the collective it is (all_gather, all_to_all, collective_permute,
   reduce_scatter, all_reduce, all_slice) with its mesh axes or device groups and its exact
   transfers: (src device, dst device, global index box, bytes).

`execute_plan(plan, shards)` runs a plan on numpy arrays and checks that every target element is
written exactly once; the tests use it to check every device ends with exactly its target data.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from meshc.layout.dtypes import DataType, get_dtype
from meshc.layout.errors import LayoutError
from meshc.layout.mesh import Mesh, ShardingSpec
from meshc.layout.system import SystemDesc, mesh_system

Box = tuple[tuple[int, int], ...]
"""Per tensor dim, a global [start, stop)."""


@dataclass(frozen=True)
class Transfer:
    """One point-to-point move: `box` of the tensor goes from device `src` into device `dst`."""

    src: int
    dst: int
    box: Box
    bytes: int
    reduce: bool = False
    """True: dst adds src's partial sum of `box` to its own (a reduction), instead of storing it."""


@dataclass(frozen=True)
class Step:
    """One collective of a plan and the transfers it performs."""

    kind: str
    """all_slice | all_gather | all_to_all | collective_permute | reduce_scatter | all_reduce"""
    axes: tuple[int, ...]
    """Mesh axes (of `ReshardPlan.stage_mesh`) the step runs along; () when it runs over `groups`."""
    groups: tuple[tuple[int, ...], ...]
    """The device groups that exchange data (each a tuple of device ids)."""
    transfers: tuple[Transfer, ...] = ()

    @property
    def bytes(self) -> int:
        return sum(t.bytes for t in self.transfers)

    def describe(self, mesh: Mesh | None = None) -> str:
        if self.axes:
            names = [mesh.names[a] if mesh is not None and mesh.names else str(a) for a in self.axes]
            where = "axis " + ",".join(names)
        else:
            where = "groups " + " ".join("[" + ",".join(map(str, g)) + "]" for g in self.groups)
        return f"{self.kind} over {where}: {len(self.transfers)} transfers, {self.bytes} B"


@dataclass(frozen=True)
class ReshardPlan:
    shape: tuple[int, ...]
    dtype: DataType
    source: ShardingSpec
    target: ShardingSpec
    intermediate: ShardingSpec | None
    """The layout after the reduce-scatter of partial sums (None when there is no reduction)."""
    steps: tuple[Step, ...]
    lower_bound_bytes: int
    """Over all devices, the bytes a device needs in the target and does not hold in the source."""
    hops: np.ndarray = field(repr=False, compare=False)
    """hops[s, d]: links a byte crosses from device s to device d in the chosen topology."""
    strategy: str = "fewest_bytes"
    stage_mesh: Mesh | None = None
    """The mesh view whose axes the steps' `axes` refer to (the source's or the target's)."""

    @property
    def transfers(self) -> tuple[Transfer, ...]:
        return tuple(t for s in self.steps for t in s.transfers)

    @property
    def delivered_bytes(self) -> int:
        """Bytes delivered into devices, each counted once at the device that receives it."""
        return sum(t.bytes for t in self.transfers)

    @property
    def link_hop_bytes(self) -> int:
        """Bytes times links crossed, over every transfer (a multi-hop route counts each hop)."""
        return int(sum(t.bytes * int(self.hops[t.src, t.dst]) for t in self.transfers))

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


# ----------------------------------------------------------------------------------------------
# inputs


def _as_spec(spec, what: str) -> ShardingSpec:
    if isinstance(spec, ShardingSpec):
        return spec
    mesh = None
    if isinstance(spec, tuple) and len(spec) == 2 and isinstance(spec[0], str):
        spec, mesh = spec
        if not isinstance(mesh, Mesh):
            mesh = Mesh(tuple(mesh))
    if isinstance(spec, str):
        try:
            from meshc.layout.sharding_spec import parse_spec
        except ImportError as e:  # pragma: no cover - the parser is another module of the package
            raise LayoutError(f"{what} spec '{spec}' is text, but the spec parser "
                              "(meshc.layout.sharding_spec) is not available") from e
        return parse_spec(spec, mesh)
    raise LayoutError(f"{what} must be a ShardingSpec, a spec string, or (spec string, mesh); got {spec!r}")


def _bytes_per_element(dtype: DataType) -> int:
    if dtype.is_block_float:
        raise LayoutError(f"cannot plan a reshard of {dtype.name} element by element: block floats share "
                          "an exponent every 16 elements, so a box of elements has no byte size of its own; "
                          "reshard the tensor in a per-element type (bf16, f32, ...)")
    return dtype.itemsize


def _hops(n: int, system: SystemDesc) -> np.ndarray:
    """All-pairs link distances between the first n chips of `system` (BFS by boolean matrix products)."""
    if system.num_chips != n:
        raise LayoutError(f"the topology has {system.num_chips} chips but the mesh has {n} devices")
    adj = np.zeros((n, n), dtype=bool)
    for a, b in system.links:
        adj[a, b] = adj[b, a] = True
    dist = np.full((n, n), -1, dtype=np.int64)
    reach = np.eye(n, dtype=bool)
    dist[reach] = 0
    for h in range(1, n):
        nxt = reach | ((reach.astype(np.int64) @ adj.astype(np.int64)) > 0)
        new = nxt & ~reach
        if not new.any():
            break
        dist[new] = h
        reach = nxt
    if (dist < 0).any():
        a, b = map(int, np.argwhere(dist < 0)[0])
        raise LayoutError(f"devices {a} and {b} are not connected by any chain of links in the topology")
    return dist


# ----------------------------------------------------------------------------------------------
# cells: the common refinement of every spec's chunk boundaries


class _Cells:
    """The tensor cut along every chunk boundary of the given specs; boxes become cell masks."""

    def __init__(self, shape: tuple[int, ...], specs: Sequence[ShardingSpec]):
        self.shape = shape
        self.edges: list[np.ndarray] = []
        for d, n in enumerate(shape):
            cuts = {0, n}
            for s in specs:
                k = s.num_pieces(d)
                size = -(-n // k) if n else 0
                cuts.update(min(i * size, n) for i in range(k + 1))
            self.edges.append(np.array(sorted(cuts), dtype=np.int64))
        self.grid = tuple(len(e) - 1 for e in self.edges)
        self.count = math.prod(self.grid)
        vol = np.ones((), dtype=np.int64)
        for e in self.edges:
            vol = np.multiply.outer(vol, np.diff(e))
        self.volume = vol.reshape(-1)

    def masks(self, spec: ShardingSpec) -> np.ndarray:
        """(devices, cells) bool: which cells each device's box of `spec` covers."""
        coords = spec.mesh.coords()
        out = np.empty((len(coords), self.count), dtype=bool)
        for dev, c in enumerate(coords):
            m = np.ones((), dtype=bool)
            for (lo, hi), e in zip(spec.local_bounds(self.shape, c), self.edges):
                i0, i1 = np.searchsorted(e, lo), np.searchsorted(e, hi)
                dim = np.zeros(len(e) - 1, dtype=bool)
                dim[i0:i1] = True
                m = np.multiply.outer(m, dim)
            out[dev] = m.reshape(-1)
        return out

    def boxes(self, mask: np.ndarray) -> list[Box]:
        """Cover the cells of `mask` with disjoint boxes (greedy maximal boxes over the cell grid)."""
        m = mask.reshape(self.grid).copy()
        out: list[Box] = []
        rank = len(self.grid)
        while m.any():
            start = tuple(int(i) for i in np.argwhere(m)[0])
            hi = [s + 1 for s in start]
            for dim in reversed(range(rank)):
                while hi[dim] < self.grid[dim]:
                    probe = tuple(slice(s, h) if k != dim else slice(h, h + 1)
                                  for k, (s, h) in enumerate(zip(start, hi)))
                    if not m[probe].all():
                        break
                    hi[dim] += 1
            m[tuple(slice(s, h) for s, h in zip(start, hi))] = False
            out.append(tuple((int(e[s]), int(e[h])) for e, s, h in zip(self.edges, start, hi)))
        return out


# ----------------------------------------------------------------------------------------------
# planning


def lower_bound_bytes(shape, dtype, source, target) -> int:
    """Over all devices, the bytes a device needs in the target and does not hold in the source.

    Computed by box intersection: sum over devices of |T_d| - |T_d & S_d|. A partial sum is not
    the value, so a device whose source is partial over an axis the target is not partial over
    holds nothing of the final value.
    """
    shape = tuple(int(n) for n in shape)
    src, tgt = _as_spec(source, "source"), _as_spec(target, "target")
    item = _bytes_per_element(get_dtype(dtype))
    _check_pair(shape, src, tgt)
    reduce_axes = _reduce_axes(src, tgt)
    total = 0
    for dev in range(src.mesh.size):
        t = tgt.local_bounds(shape, tgt.mesh.coord_of(dev))
        vt = math.prod(b - a for a, b in t)
        if reduce_axes:
            total += vt
            continue
        s = src.local_bounds(shape, src.mesh.coord_of(dev))
        inter = math.prod(max(0, min(b1, b2) - max(a1, a2)) for (a1, b1), (a2, b2) in zip(t, s))
        total += vt - inter
    return total * item


def _nontrivial(spec: ShardingSpec) -> set[int]:
    return {a for a in spec.partial if spec.mesh.shape[a] > 1}


def _reduce_axes(src: ShardingSpec, tgt: ShardingSpec) -> tuple[int, ...]:
    return tuple(sorted(_nontrivial(src) - (_nontrivial(tgt) if tgt.mesh.shape == src.mesh.shape else set())))


def _check_pair(shape: tuple[int, ...], src: ShardingSpec, tgt: ShardingSpec) -> None:
    if src.mesh.size != tgt.mesh.size:
        raise LayoutError(f"source mesh {src.mesh} has {src.mesh.size} devices but target mesh {tgt.mesh} has "
                          f"{tgt.mesh.size}; a reshard moves data between views of the same devices")
    if src.rank != len(shape) or tgt.rank != len(shape):
        raise LayoutError(f"tensor of rank {len(shape)} {shape} but the source spec {src} has {src.rank} dims "
                          f"and the target spec {tgt} has {tgt.rank}")
    for spec, what in ((src, "source"), (tgt, "target")):
        for d, (decl, n) in enumerate(zip(spec.dim_sizes, shape)):
            if decl is not None and decl != n:
                name = f" ({spec.dim_names[d]})" if spec.dim_names and spec.dim_names[d] else ""
                raise LayoutError(f"{what} spec {spec} declares dim {d}{name} of size {decl}, "
                                  f"but the tensor {shape} has {n} there")
    tp = _nontrivial(tgt)
    if tp:
        if tgt.mesh.shape != src.mesh.shape:
            raise LayoutError(f"target {tgt} keeps partial sums, which needs the same mesh shape on both sides; "
                              f"the source mesh is {src.mesh} and the target mesh {tgt.mesh}")
        extra = tp - _nontrivial(src)
        if extra:
            raise LayoutError(f"target {tgt} is partial over mesh axes {sorted(extra)} that the source {src} is "
                              "not partial over; turning a value into partial sums is not a reshard meshc plans")


def plan_reshard(shape, dtype, source, target, system: SystemDesc | None = None,
                 strategy: str = "fewest_bytes") -> ReshardPlan:
    """Plan moving a `shape` tensor of `dtype` from layout `source` to layout `target`.

    source/target: `ShardingSpec`, a spec string with the mesh in it (named form), or a
    (spec string, mesh) pair. `system`: the link topology between the devices (device i = chip i);
    default: the shape of the view with more axes as a chip mesh, a line of links along every axis.
    `strategy="gather_then_slice"` plans the naive route instead (every device gathers the whole
    tensor, then keeps its piece), for comparison.
    """
    if strategy not in ("fewest_bytes", "gather_then_slice"):
        raise LayoutError(f"unknown reshard strategy '{strategy}'; expected fewest_bytes or gather_then_slice")
    shape = tuple(int(n) for n in shape)
    dt = get_dtype(dtype)
    item = _bytes_per_element(dt)
    src, tgt = _as_spec(source, "source"), _as_spec(target, "target")
    _check_pair(shape, src, tgt)
    n = src.mesh.size
    if system is None:  # the view with more axes is the likelier picture of the chips' links
        system = mesh_system((tgt.mesh if tgt.mesh.rank > src.mesh.rank else src.mesh).shape)
    hops = _hops(n, system)
    bound = lower_bound_bytes(shape, dt, src, tgt)
    raxes = _reduce_axes(src, tgt)
    keep_partial = tuple(sorted(_nontrivial(tgt)))

    views = [src.mesh] if tgt.mesh.shape == src.mesh.shape or keep_partial else [src.mesh, tgt.mesh]
    candidates: list[tuple[ShardingSpec | None, Mesh, list[Step]]] = []
    if not raxes:
        cells = _Cells(shape, [src, tgt])
        for view in views:
            candidates.append((None, view, _move_steps(cells, src, tgt, view, hops, item, keep_partial, strategy)))
    else:
        options = {(dim, new) for dim in range(len(shape)) for perm in itertools.permutations(raxes)
                   for new in (tuple(src.dims[dim]) + perm, perm + tuple(src.dims[dim]))}
        sbox = [src.local_bounds(shape, src.mesh.coord_of(d)) for d in range(n)]
        for dim, new in [(None, None)] + sorted(options):
            dims = list(src.dims)
            if dim is not None:
                dims[dim] = new
            mid = replace(src, dims=tuple(dims), partial=tuple(a for a in src.partial if a not in raxes))
            # a reduce-scatter keeps each device inside its own partial box; uneven chunks may not nest
            if any(not _within(mid.local_bounds(shape, src.mesh.coord_of(d)), sbox[d]) for d in range(n)):
                continue
            cells = _Cells(shape, [src, mid, tgt])
            steps = [_reduce_step(cells, src, mid, raxes, item)]
            steps += _move_steps(cells, mid, tgt, src.mesh, hops, item, keep_partial, strategy)
            candidates.append((mid, src.mesh, _merge_all_reduce(steps, src, tgt, raxes)))

    def cost(c):
        steps = c[2]
        moved = sum(s.bytes for s in steps)
        hop = sum(t.bytes * int(hops[t.src, t.dst]) for s in steps for t in s.transfers)
        return (moved, hop, len(steps))

    mid, view, steps = min(candidates, key=cost)
    return ReshardPlan(shape, dt, src, tgt, mid, tuple(steps), bound, hops, strategy, view)


def _partial_coord(spec: ShardingSpec, axes: tuple[int, ...]) -> np.ndarray:
    coords = np.array(spec.mesh.coords(), dtype=np.int64).reshape(spec.mesh.size, spec.mesh.rank)
    return coords[:, list(axes)] if axes else np.zeros((spec.mesh.size, 0), dtype=np.int64)


def _reduce_step(cells: _Cells, src: ShardingSpec, mid: ShardingSpec, raxes: tuple[int, ...], item: int) -> Step:
    """Reduce-scatter over `raxes`: every member of a group receives the others' partials of its piece."""
    mesh = src.mesh
    coords = np.array(mesh.coords(), dtype=np.int64)
    others = [a for a in range(mesh.rank) if a not in raxes]
    key = [tuple(c[others]) for c in coords]
    groups: dict[tuple, list[int]] = {}
    for dev, k in enumerate(key):
        groups.setdefault(k, []).append(dev)
    mid_mask = cells.masks(mid)
    transfers = []
    for members in groups.values():
        for d in members:
            for box in cells.boxes(mid_mask[d]):
                b = math.prod(hi - lo for lo, hi in box) * item
                transfers += [Transfer(s, d, box, b, reduce=True) for s in members if s != d]
    kind = "all_reduce" if mid.dims == src.dims else "reduce_scatter"
    return Step(kind, raxes, tuple(tuple(g) for g in groups.values()), tuple(transfers))


def _merge_all_reduce(steps: list[Step], src: ShardingSpec, tgt: ShardingSpec, raxes) -> list[Step]:
    """reduce_scatter then all_gather over the same axes back to the source's dims is an all_reduce."""
    if (len(steps) >= 2 and steps[1].kind == "all_gather" and steps[1].axes == raxes
            and tgt.mesh.shape == src.mesh.shape and tgt.dims == src.dims):
        rest = [s for s in steps[2:] if s.kind != "all_slice"]
        if not rest:
            return [Step("all_reduce", raxes, steps[0].groups, steps[0].transfers + steps[1].transfers)]
    return steps


def _move_steps(cells: _Cells, cur: ShardingSpec, tgt: ShardingSpec, mesh: Mesh, hops: np.ndarray, item: int,
                keep_partial: tuple[int, ...], strategy: str) -> list[Step]:
    """Steps that give every device the cells it needs and lacks, each cell delivered once."""
    have0 = cells.masks(cur)
    need = cells.masks(tgt)
    if strategy == "gather_then_slice":
        need_recv = np.ones_like(need)  # every device collects the whole tensor ...
    else:
        need_recv = need
    pc = _partial_coord(cur, keep_partial)
    compat = (pc[:, None, :] == pc[None, :, :]).all(axis=2)  # partial sums only mix within a partial index
    axes = [a for a in range(mesh.rank) if mesh.shape[a] > 1 and a not in keep_partial]

    best = None
    for order in itertools.permutations(axes):
        steps = _staged(cells, mesh, order, have0, need_recv, compat, hops, item)
        hop = sum(t.bytes * int(hops[t.src, t.dst]) for s in steps for t in s.transfers)
        key = (hop, len(steps))
        if best is None or key < best[0]:
            best = (key, steps)
    steps = best[1] if best is not None else _staged(cells, mesh, (), have0, need_recv, compat, hops, item)

    drop = have0 & ~need
    if strategy == "gather_then_slice":
        drop = np.ones_like(need) & ~need
    if drop.any():
        dropping = tuple(int(d) for d in np.flatnonzero(drop.any(axis=1)))
        slice_step = Step("all_slice", (), (dropping,), ())
        # slicing first is safe when no device sends a cell it does not keep
        sends_dropped = _sends_unneeded(cells, steps, need)
        steps = steps + [slice_step] if sends_dropped or strategy == "gather_then_slice" else [slice_step] + steps
    return steps


def _sends_unneeded(cells: _Cells, steps: list[Step], need: np.ndarray) -> bool:
    for s in steps:
        for t in s.transfers:
            if not _box_within_need(cells, t.box, need[t.src]):
                return True
    return False


def _box_within_need(cells: _Cells, box: Box, need_row: np.ndarray) -> bool:
    m = np.ones((), dtype=bool)
    for (lo, hi), e in zip(box, cells.edges):
        dim = np.zeros(len(e) - 1, dtype=bool)
        dim[np.searchsorted(e, lo):np.searchsorted(e, hi)] = True
        m = np.multiply.outer(m, dim)
    m = m.reshape(-1)
    return bool((need_row[m]).all())


def _staged(cells: _Cells, mesh: Mesh, order, have0, need, compat, hops, item) -> list[Step]:
    n = mesh.size
    coords = np.array(mesh.coords(), dtype=np.int64).reshape(n, mesh.rank)
    have = have0.copy()
    want = need & ~have
    steps: list[Step] = []
    for axis in order:
        others = [a for a in range(mesh.rank) if a != axis]
        fiber_key = [tuple(c[others]) for c in coords]
        fibers: dict[tuple, list[int]] = {}
        for dev, k in enumerate(fiber_key):
            fibers.setdefault(k, []).append(dev)
        got = np.zeros_like(have)
        sends: dict[tuple[int, int], np.ndarray] = {}
        for members in fibers.values():
            for d in members:
                if not want[d].any():
                    continue
                cand = [f for f in members if f != d and compat[d, f]]
                cand.sort(key=lambda f: (hops[f, d], abs(int(coords[f, axis]) - int(coords[d, axis])), f))
                remaining = want[d].copy()
                for f in cand:
                    take = remaining & have[f]
                    if take.any():
                        sends[(f, d)] = take
                        got[d] |= take
                        remaining &= ~take
        if sends:
            groups = tuple(tuple(m) for m in fibers.values() if any(k[0] in m for k in sends))
            steps.append(_make_step(cells, sends, (axis,), groups, have, need, item))
        have |= got
        want &= ~got
    if want.any():
        sends = {}
        for d in np.flatnonzero(want.any(axis=1)):
            d = int(d)
            cand = [f for f in range(n) if f != d and compat[d, f]]
            cand.sort(key=lambda f: (hops[f, d], f))
            remaining = want[d].copy()
            for f in cand:
                take = remaining & have[f]
                if take.any():
                    sends[(f, d)] = take
                    remaining &= ~take
            if remaining.any():  # cannot happen: every cell is held by some device of each partial index
                raise LayoutError(f"no device holds part of what device {d} needs; the source layout does "
                                  "not cover the tensor")
        steps.append(_make_step(cells, sends, (), _components(sends), have, need, item))
    return steps


def _components(sends) -> tuple[tuple[int, ...], ...]:
    parent: dict[int, int] = {}

    def find(x):
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for s, d in sends:
        parent[find(s)] = find(d)
    comps: dict[int, list[int]] = {}
    for x in list(parent):
        comps.setdefault(find(x), []).append(x)
    return tuple(tuple(sorted(c)) for c in sorted(comps.values()))


def _make_step(cells: _Cells, sends: dict[tuple[int, int], np.ndarray], axes, groups, have, need, item) -> Step:
    transfers = []
    for (f, d), mask in sorted(sends.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        for box in cells.boxes(mask):
            transfers.append(Transfer(f, d, box, math.prod(hi - lo for lo, hi in box) * item))
    return Step(_classify(sends, groups, have, need), tuple(axes), groups, tuple(transfers))


def _classify(sends, groups, have, need) -> str:
    """Name the exchange: all_gather, collective_permute or all_to_all (see the module docstring)."""
    group_of = {d: g for g in groups for d in g}
    # all_gather: whatever moves within a group is needed by every member of that group
    exchanged: dict[tuple, np.ndarray] = {}
    for (f, d), m in sends.items():
        g = group_of[d]
        exchanged[g] = exchanged.get(g, np.zeros_like(m)) | m
    if all(need[list(g)][:, exchanged[g]].all() for g in exchanged):
        return "all_gather"
    out_deg: dict[int, int] = {}
    in_deg: dict[int, int] = {}
    for f, d in sends:
        out_deg[f] = out_deg.get(f, 0) + 1
        in_deg[d] = in_deg.get(d, 0) + 1
    whole = all((m == have[f]).all() for (f, _), m in sends.items())
    if max(out_deg.values()) <= 1 and max(in_deg.values()) <= 1 and whole:
        return "collective_permute"
    return "all_to_all"


# ----------------------------------------------------------------------------------------------
# execution on numpy


def _rel(box: Box, origin: Box) -> tuple[slice, ...]:
    return tuple(slice(lo - o, hi - o) for (lo, hi), (o, _) in zip(box, origin))


def _within(box: Box, outer: Box) -> bool:
    return all(o0 <= lo and hi <= o1 for (lo, hi), (o0, o1) in zip(box, outer))


def execute_plan(plan: ReshardPlan, shards) -> list[np.ndarray]:
    """Run `plan` on per-device numpy arrays (source layout, device-id order); return the target shards.

    Checks the plan as it goes: every transfer reads data its sender holds at that point, and every
    element of every target shard is written exactly once (by the device's own copy or by one
    transfer). A violation raises LayoutError naming the device.
    """
    src, tgt, shape = plan.source, plan.target, plan.shape
    n = src.mesh.size
    if isinstance(shards, Mapping):
        shards = [shards[k] for k in sorted(shards, key=lambda k: src.mesh.device_id(k) if isinstance(k, tuple) else k)]
    shards = list(shards)
    if len(shards) != n:
        raise LayoutError(f"plan is for {n} devices but {len(shards)} shards were given")
    sbox = [src.local_bounds(shape, src.mesh.coord_of(d)) for d in range(n)]
    for d, a in enumerate(shards):
        want = tuple(hi - lo for lo, hi in sbox[d])
        if tuple(np.shape(a)) != want:
            raise LayoutError(f"device {d} shard has shape {tuple(np.shape(a))}, but {src} puts a {want} piece there")

    cur, cbox = [np.asarray(a) for a in shards], sbox
    reduce_steps = [s for s in plan.steps if any(t.reduce for t in s.transfers)]
    if plan.intermediate is not None:
        mid = plan.intermediate
        mbox = [mid.local_bounds(shape, mid.mesh.coord_of(d)) for d in range(n)]
        acc = [cur[d][_rel(mbox[d], sbox[d])].copy() for d in range(n)]
        cnt = [np.zeros(a.shape, dtype=np.int64) for a in acc]
        for s in reduce_steps:
            for t in s.transfers:
                if t.reduce:
                    if not _within(t.box, mbox[t.dst]) or not _within(t.box, sbox[t.src]):
                        raise LayoutError(f"reduce transfer {t} reads or writes outside the devices' pieces")
                    acc[t.dst][_rel(t.box, mbox[t.dst])] += cur[t.src][_rel(t.box, sbox[t.src])]
                    cnt[t.dst][_rel(t.box, mbox[t.dst])] += 1
        group = math.prod(src.mesh.shape[a] for a in plan.steps[0].axes) if reduce_steps else 1
        for d in range(n):
            if (cnt[d] != group - 1).any():
                raise LayoutError(f"device {d} did not receive exactly {group - 1} partial sums of every element")
        cur, cbox = acc, mbox

    tbox = [tgt.local_bounds(shape, tgt.mesh.coord_of(d)) for d in range(n)]
    if plan.strategy == "gather_then_slice":  # every device builds the whole tensor, then slices
        whole = tuple((0, k) for k in shape)
        tbox_move = [whole] * n
    else:
        tbox_move = tbox
    dtype = np.result_type(*[a.dtype for a in cur]) if cur else np.float64
    out = [np.zeros(tuple(hi - lo for lo, hi in tbox_move[d]), dtype=dtype) for d in range(n)]
    written = [np.zeros(o.shape, dtype=np.int64) for o in out]
    for d in range(n):  # each device keeps what it holds of its (target) piece
        inter = tuple((max(a0, b0), min(a1, b1)) for (a0, a1), (b0, b1) in zip(tbox_move[d], cbox[d]))
        if all(lo < hi for lo, hi in inter):
            out[d][_rel(inter, tbox_move[d])] = cur[d][_rel(inter, cbox[d])]
            written[d][_rel(inter, tbox_move[d])] += 1
    for s in plan.steps:
        pending = []
        for t in s.transfers:
            if t.reduce:
                continue
            if _within(t.box, cbox[t.src]):
                data = cur[t.src][_rel(t.box, cbox[t.src])]
            elif _within(t.box, tbox_move[t.src]) and written[t.src][_rel(t.box, tbox_move[t.src])].all():
                data = out[t.src][_rel(t.box, tbox_move[t.src])]
            else:
                raise LayoutError(f"step {s.kind}: device {t.src} sends {t.box}, which it does not hold yet")
            if not _within(t.box, tbox_move[t.dst]):
                raise LayoutError(f"step {s.kind}: device {t.dst} receives {t.box}, outside its target piece")
            pending.append((t, data.copy()))
        for t, data in pending:
            out[t.dst][_rel(t.box, tbox_move[t.dst])] = data
            written[t.dst][_rel(t.box, tbox_move[t.dst])] += 1
    for d in range(n):
        if (written[d] != 1).any():
            bad = np.argwhere(written[d] != 1)[0]
            raise LayoutError(f"device {d}: target element at local index {tuple(int(i) for i in bad)} was written "
                              f"{int(written[d][tuple(bad)])} times, expected exactly once")
    if plan.strategy == "gather_then_slice":
        out = [out[d][_rel(tbox[d], tbox_move[d])].copy() for d in range(n)]
    return out


def as_view(spec: ShardingSpec, mesh: Mesh) -> ShardingSpec:
    """`spec` written over another view `mesh` of the same devices.

    Possible when every axis of `spec.mesh` is a run of consecutive axes of `mesh` (device ids
    row-major in both), as `[EP=8]` is the run DP, CP, TP of `[DP=2, CP=2, TP=2]`: an axis then
    becomes its run, major first. Raises LayoutError naming the axis that does not line up.
    """
    if spec.mesh.shape == mesh.shape:
        return spec if spec.mesh == mesh else replace(spec, mesh=mesh)
    if spec.mesh.size != mesh.size:
        raise LayoutError(f"spec {spec} is over {spec.mesh.size} devices but the mesh {mesh} has {mesh.size}")
    runs: list[tuple[int, ...]] = []
    j = 0
    for a, size in enumerate(spec.mesh.shape):
        run, prod = [], 1
        while prod < size and j < mesh.rank:
            prod *= mesh.shape[j]
            run.append(j)
            j += 1
        if prod != size:
            name = spec.mesh.names[a] if spec.mesh.names else str(a)
            raise LayoutError(f"axis {name} (size {size}) of {spec.mesh} is not a run of consecutive axes of "
                              f"the mesh {mesh}; the two views do not line up")
        runs.append(tuple(run))
    runs[-1] = runs[-1] + tuple(range(j, mesh.rank))  # trailing axes of size 1
    dims = tuple(tuple(x for a in d for x in runs[a]) for d in spec.dims)
    partial = tuple(x for a in spec.partial for x in runs[a])
    return ShardingSpec(mesh, dims, partial)


# ----------------------------------------------------------------------------------------------
# SPMD collectives: the same reshard as a walk of uniform per-axis collectives


@dataclass(frozen=True)
class CollectiveStep:
    """One SPMD collective of a walk, with the standard meaning of its ttir op.

    all_gather(dim, axis), all_slice(dim, axis), all_to_all(split_dim=dim, concat_dim=dim2,
    axis), reduce_scatter(dim, axis), all_reduce(axis), collective_permute(pairs).
    """

    kind: str
    axis: int | None
    dim: int | None
    dim2: int | None
    pairs: tuple[tuple[int, int], ...]
    after: ShardingSpec
    bytes: int
    """Bytes delivered into devices by this step (each device's received bytes, summed)."""


def collective_walk(shape, dtype, source: ShardingSpec, target: ShardingSpec,
                    max_states: int = 20000) -> list[CollectiveStep]:
    """The cheapest sequence of uniform SPMD collectives (every device the same local shape) from
    `source` to `target` on one mesh, by Dijkstra over the specs in between (bytes, then steps).

    Moves: all_gather drops the minor axis of a dim; all_to_all moves it to the minor end of
    another dim; all_slice adds a free axis at the minor end of a dim (moves nothing);
    reduce_scatter / all_reduce reduce a partial axis; collective_permute relabels devices when
    only the order of the axes of a dim differs. Intermediate local shapes must be even.
    Raises LayoutError when no walk exists (uneven splits, or beyond `max_states`).
    """
    import heapq

    shape = tuple(int(n) for n in shape)
    item = _bytes_per_element(get_dtype(dtype))
    if source.mesh.shape != target.mesh.shape:
        raise LayoutError(f"a collective walk runs over one mesh; got {source.mesh} and {target.mesh}")
    mesh = source.mesh
    n_dev = mesh.size
    goal = (target.dims, tuple(sorted(_nontrivial(target))))
    start = (source.dims, tuple(sorted(_nontrivial(source))))
    for spec, what in ((source, "source"), (target, "target")):
        if not spec.is_even(shape):
            raise LayoutError(f"{what} {spec} does not split the {shape} tensor evenly; SPMD collectives need "
                              "every device to hold the same shape")

    def spec_of(state) -> ShardingSpec:
        return ShardingSpec(mesh, state[0], state[1])

    def local_elems(state) -> int:
        return math.prod(n // math.prod(mesh.shape[a] for a in d) for n, d in zip(shape, state[0]))

    def even(dims) -> bool:
        return all(n % math.prod(mesh.shape[a] for a in d) == 0 for n, d in zip(shape, dims))

    def moves(state):
        dims, partial = state
        used = {a for d in dims for a in d} | set(partial)
        free = [a for a in range(mesh.rank) if a not in used and mesh.shape[a] > 1]
        out = []
        for a in partial:
            if a in goal[1]:
                continue
            n = mesh.shape[a]
            rest = tuple(p for p in partial if p != a)
            per_dev = local_elems(state) * item
            out.append(("all_reduce", a, None, None, (dims, rest), n_dev * 2 * (n - 1) * per_dev // n))
            for j in range(len(dims)):
                nd = list(dims)
                nd[j] = dims[j] + (a,)
                if even(nd):
                    out.append(("reduce_scatter", a, j, None, (tuple(nd), rest), n_dev * (n - 1) * per_dev // n))
        for i, d in enumerate(dims):
            if not d:
                continue
            a = d[-1]
            nd = list(dims)
            nd[i] = d[:-1]
            out.append(("all_gather", a, i, None, (tuple(nd), partial), None))
            for j in range(len(dims)):
                if j != i:
                    md = list(nd)
                    md[j] = dims[j] + (a,)
                    if even(md):
                        out.append(("all_to_all", a, j, i, (tuple(md), partial), None))
        for a in free:
            for j in range(len(dims)):
                nd = list(dims)
                nd[j] = dims[j] + (a,)
                if even(nd):
                    out.append(("all_slice", a, j, None, (tuple(nd), partial), 0))
        if dims != goal[0] and partial == goal[1] and all(set(x) == set(y) for x, y in zip(dims, goal[0])):
            out.append(("collective_permute", None, None, None, goal, None))
        return out

    best = {start: (0, 0)}
    heap = [(0, 0, 0, start, None)]
    back: dict = {}
    counter = 1
    seen = 0
    while heap:
        cost, nsteps, _, state, _ = heapq.heappop(heap)
        if best.get(state, (math.inf, 0)) < (cost, nsteps):
            continue
        if state == goal:
            break
        seen += 1
        if seen > max_states:
            raise LayoutError(f"no collective walk from {source} to {target} within {max_states} states")
        cur = spec_of(state)
        for kind, axis, dim, dim2, nxt, b in moves(state):
            if b is None:
                b = lower_bound_bytes(shape, get_dtype(dtype), cur, spec_of(nxt))
            key = (cost + b, nsteps + 1)
            if key < best.get(nxt, (math.inf, math.inf)):
                best[nxt] = key
                back[nxt] = (state, kind, axis, dim, dim2, b)
                heapq.heappush(heap, (key[0], key[1], counter, nxt, None))
                counter += 1
    if goal not in best:
        raise LayoutError(f"no walk of uniform collectives takes {source} to {target} for a {shape} tensor "
                          "(an intermediate layout would split a dim unevenly)")
    steps: list[CollectiveStep] = []
    state = goal
    while state != start:
        prev, kind, axis, dim, dim2, b = back[state]
        after = spec_of(state)
        pairs = _permute_pairs(shape, spec_of(prev), after) if kind == "collective_permute" else ()
        steps.append(CollectiveStep(kind, axis, dim, dim2, pairs, after, int(b)))
        state = prev
    return steps[::-1]


def _permute_pairs(shape, before: ShardingSpec, after: ShardingSpec) -> tuple[tuple[int, int], ...]:
    """(src, dst) for every device: src holds in `before` exactly what dst holds in `after`,
    preferring src = dst, then a src with dst's coordinates on the axes no dim uses."""
    mesh = before.mesh
    boxes_b = [before.local_bounds(shape, c) for c in mesh.coords()]
    pairs = []
    free = before.replicated_axes()
    for d, c in enumerate(mesh.coords()):
        want = after.local_bounds(shape, c)
        cands = [s for s in range(mesh.size) if boxes_b[s] == want]
        if not cands:
            raise LayoutError(f"no device holds in {before} the piece device {d} holds in {after}")
        same = [s for s in cands if all(mesh.coord_of(s)[a] == c[a] for a in free)]
        src = d if d in cands else (same or cands)[0]
        pairs.append((src, d))
    return tuple(pairs)
