"""SPMD collectives: a reshard as a walk of uniform per-axis collectives, and spec views.

`collective_walk` finds the cheapest sequence of uniform collectives (every device the same
local shape) between two specs on one mesh, which `reshard-to-collectives` emits when it meets
the lower bound. `as_view` rewrites a spec onto another view of the same devices.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass, replace

from meshc.layout.dtypes import get_dtype
from meshc.layout.errors import LayoutError
from meshc.layout.mesh import Mesh, ShardingSpec
from meshc.layout.reshard.planner import bytes_per_element, lower_bound_bytes, nontrivial_partial


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
    shape = tuple(int(n) for n in shape)
    item = bytes_per_element(get_dtype(dtype))
    if source.mesh.shape != target.mesh.shape:
        raise LayoutError(f"a collective walk runs over one mesh; got {source.mesh} and {target.mesh}")
    mesh = source.mesh
    n_dev = mesh.size
    # Axes of size 1 split nothing: a state names only the axes of size > 1, so `[R, S01]` and
    # `[S0, S1]` on a 1x4 mesh are one state (the same placement, no step between them).
    def state_of(spec: ShardingSpec):
        dims = tuple(tuple(a for a in d if mesh.shape[a] > 1) for d in spec.dims)
        return dims, tuple(sorted(nontrivial_partial(spec)))

    goal = state_of(target)
    start = state_of(source)
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
