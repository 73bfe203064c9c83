"""`plan_reshard`: the fewest-bytes plan of a change of sharding spec, and its lower bound.

The planner checks the pair of specs, reduces partial sums first when the target does not keep
them (a reduce-scatter onto the dim that makes the rest cheapest, or an all-reduce), then lets
`moves.move_steps` deliver every device exactly the cells it needs and lacks. Among the
candidates (the mesh view to stage on, the reduce-scatter layout) the one that moves the fewest
bytes, then the fewest link-hop bytes, then has the fewest steps, wins. Past MAX_RESHARD_STAGED
devices x cells the moves come straight from the nearest holders instead (direct.py).

The moves deliver exactly the lower bound, so the fewest bytes are known before any move is
planned (`delivered_bytes`: the bound, or the cheapest reduction plus the bound after it); the
plan's steps are planned on first read, and only for the candidates with those bytes.
"""

from __future__ import annotations

import itertools
import math
from functools import lru_cache
from dataclasses import replace

import numpy as np

from meshc.layout.dtypes import DataType, get_dtype
from meshc.layout.errors import LayoutError
from meshc.layout.limits import MAX_RESHARD_STAGED, tensor_shape
from meshc.layout.mesh import Mesh, ShardingSpec
from meshc.layout.reshard.cells import Cells, cell_entries, device_bounds
from meshc.layout.reshard.direct import direct_step, reduce_groups, reduce_moves
from meshc.layout.reshard.distances import link_distances
from meshc.layout.reshard.moves import move_steps
from meshc.layout.reshard.plan import JoinedMoves, ReshardPlan, Step, link_hop_bytes
from meshc.layout.system import SystemDesc, mesh_system
from meshc.layout.sharding_spec import parse_spec


def as_spec(spec, what: str) -> ShardingSpec:
    """A `ShardingSpec` from a spec, a spec string naming its mesh, or a (spec string, mesh) pair."""
    if isinstance(spec, ShardingSpec):
        return spec
    mesh = None
    if isinstance(spec, tuple) and len(spec) == 2 and isinstance(spec[0], str):
        spec, mesh = spec
        if not isinstance(mesh, Mesh):
            mesh = Mesh(mesh)
    if isinstance(spec, str):
        return parse_spec(spec, mesh)
    raise LayoutError(f"{what} must be a ShardingSpec, a spec string, or (spec string, mesh); got {spec!r}")


def bytes_per_element(dtype: DataType) -> int:
    if dtype.is_block_float:
        raise LayoutError(f"cannot plan a reshard of {dtype.name} element by element: block floats share "
                          "an exponent every 16 elements, so a box of elements has no byte size of its own; "
                          "reshard the tensor in a per-element type (bf16, f32, ...)")
    return dtype.itemsize


def lower_bound_bytes(shape, dtype, source, target) -> int:
    """Over all devices, the bytes a device needs in the target and does not hold in the source.

    Computed by box intersection: sum over devices of |T_d| - |T_d & S_d|. A partial sum is not
    the value, so a device whose source is partial over an axis the target is not partial over
    holds nothing of the final value.
    """
    shape = tuple(int(n) for n in shape)
    src, tgt = as_spec(source, "source"), as_spec(target, "target")
    item = bytes_per_element(get_dtype(dtype))
    check_pair(shape, src, tgt)
    return _bound(shape, item, src, tgt)


def _bound(shape, item: int, src: ShardingSpec, tgt: ShardingSpec) -> int:
    t = device_bounds(tgt, shape)
    vt = np.prod(t[:, :, 1] - t[:, :, 0], axis=1)
    if reduce_axes(src, tgt):
        return int(vt.sum()) * item
    s = device_bounds(src, shape)
    inter = np.maximum(0, np.minimum(t[:, :, 1], s[:, :, 1]) - np.maximum(t[:, :, 0], s[:, :, 0]))
    return int((vt - np.prod(inter, axis=1)).sum()) * item


def nontrivial_partial(spec: ShardingSpec) -> set[int]:
    """The mesh axes of more than one device that `spec` is partial over."""
    return {a for a in spec.partial if spec.mesh.shape[a] > 1}


def reduce_axes(src: ShardingSpec, tgt: ShardingSpec) -> tuple[int, ...]:
    """The axes whose partial sums the reshard must reduce (the source's, less those the target keeps)."""
    keep = nontrivial_partial(tgt) if tgt.mesh.shape == src.mesh.shape else set()
    return tuple(sorted(nontrivial_partial(src) - keep))


def check_pair(shape: tuple[int, ...], src: ShardingSpec, tgt: ShardingSpec) -> None:
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
    tp = nontrivial_partial(tgt)
    if tp:
        if tgt.mesh.shape != src.mesh.shape:
            raise LayoutError(f"target {tgt} keeps partial sums, which needs the same mesh shape on both sides; "
                              f"the source mesh is {src.mesh} and the target mesh {tgt.mesh}")
        extra = tp - nontrivial_partial(src)
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
    shape = tensor_shape(shape)
    dt = get_dtype(dtype)
    item = bytes_per_element(dt)
    src, tgt = as_spec(source, "source"), as_spec(target, "target")
    check_pair(shape, src, tgt)
    n = src.mesh.size
    if system is None:  # the view with more axes is the likelier picture of the chips' links
        hops = _default_hops((tgt.mesh if tgt.mesh.rank > src.mesh.rank else src.mesh).shape)
    else:
        hops = link_distances(n, system)
    bound = lower_bound_bytes(shape, dt, src, tgt)
    raxes = reduce_axes(src, tgt)
    keep_partial = tuple(sorted(nontrivial_partial(tgt)))

    views = [src.mesh] if tgt.mesh.shape == src.mesh.shape or keep_partial else [src.mesh, tgt.mesh]
    mids = _reduce_candidates(shape, src, tgt, raxes, item) if raxes else []
    delivered = None
    if strategy == "fewest_bytes":  # the moves deliver the bound: only the cheapest need planning
        delivered = min(cost for _, cost in mids) if raxes else bound
        mids = [(mid, cost) for mid, cost in mids if cost == delivered]

    def build():
        candidates: list[tuple[ShardingSpec | None, Mesh, list[Step]]] = []
        if not raxes:
            if cell_entries(shape, [src, tgt]) <= MAX_RESHARD_STAGED:
                cells = Cells(shape, [src, tgt])
                for view in views:
                    candidates.append((None, view, move_steps(cells, src, tgt, view, hops, item, keep_partial,
                                                              strategy)))
            else:
                candidates.append((None, src.mesh, _direct_steps(shape, src, tgt, hops, item, keep_partial, strategy)))
        groups = reduce_groups(src.mesh, raxes) if raxes else ()
        for mid, _ in mids:
            kind = "all_reduce" if mid.dims == src.dims else "reduce_scatter"
            steps = [Step(kind, raxes, groups, moves=reduce_moves(shape, src, mid, raxes, item))]
            if cell_entries(shape, [src, mid, tgt]) <= MAX_RESHARD_STAGED:
                cells = Cells(shape, [src, mid, tgt])
                steps += move_steps(cells, mid, tgt, src.mesh, hops, item, keep_partial, strategy)
            else:
                steps += _direct_steps(shape, mid, tgt, hops, item, keep_partial, strategy)
            candidates.append((mid, src.mesh, _merge_all_reduce(steps, src, tgt, raxes)))
        # the fewest bytes, then the fewest link-hop bytes (counted only between candidates tied
        # on bytes), then the fewest steps; the first of equals
        least = min(sum(s.bytes for s in c[2]) for c in candidates)
        tied = [c for c in candidates if sum(s.bytes for s in c[2]) == least]
        if len(tied) > 1:
            tied = [min(tied, key=lambda c: (link_hop_bytes(c[2], hops), len(c[2])))]
        return tied[0]

    if delivered is None:  # the naive route: planned now, its bytes are its steps'
        mid, view, steps = build()
        return ReshardPlan(shape, dt, src, tgt, mid, tuple(steps), bound, hops, strategy, view)
    return ReshardPlan(shape, dt, src, tgt, None, (), bound, hops, strategy, None, build=build, delivered=delivered)


@lru_cache(maxsize=64)
def _default_hops(mesh_shape: tuple[int, ...]):
    """Link distances on the default system of a mesh shape (a chip mesh, a line of links along
    every axis), built once a shape: the sharding passes plan many reshards on one mesh."""
    return link_distances(math.prod(mesh_shape), mesh_system(mesh_shape))


def _reduce_candidates(shape, src: ShardingSpec, tgt: ShardingSpec, raxes: tuple[int, ...],
                       item: int) -> list[tuple[ShardingSpec, int]]:
    """The layouts a reduction of partial sums over `raxes` may scatter onto (the source's, or one
    dim gaining the reduced axes at either end), each with the bytes of the fewest-bytes plan
    through it: the reduction's (every device receives its piece from each other member of its
    group) plus the lower bound from there (the moves deliver exactly that)."""
    options = {(dim, new) for dim in range(len(shape)) for perm in itertools.permutations(raxes)
               for new in (tuple(src.dims[dim]) + perm, perm + tuple(src.dims[dim]))}
    sbox = device_bounds(src, shape)
    members = math.prod(src.mesh.shape[a] for a in raxes)
    out = []
    for dim, new in [(None, None)] + sorted(options):
        dims = list(src.dims)
        if dim is not None:
            dims[dim] = new
        mid = replace(src, dims=tuple(dims), partial=tuple(a for a in src.partial if a not in raxes))
        # a reduce-scatter keeps each device inside its own partial box; uneven chunks may not nest
        mbox = device_bounds(mid, shape)
        if not ((mbox[:, :, 0] >= sbox[:, :, 0]) & (mbox[:, :, 1] <= sbox[:, :, 1])).all():
            continue
        reduce = int(np.prod(mbox[:, :, 1] - mbox[:, :, 0], axis=1).sum()) * (members - 1) * item
        out.append((mid, reduce + _bound(shape, item, mid, tgt)))
    return out


def delivered_bytes(shape, dtype, source, target) -> int:
    """The bytes `plan_reshard`'s fewest-bytes plan delivers, without planning its moves: the
    lower bound, or, with partial sums to reduce, the cheapest reduction plus the bound after it."""
    shape = tensor_shape(shape)
    src, tgt = as_spec(source, "source"), as_spec(target, "target")
    item = bytes_per_element(get_dtype(dtype))
    check_pair(shape, src, tgt)
    raxes = reduce_axes(src, tgt)
    if not raxes:
        return _bound(shape, item, src, tgt)
    return min(cost for _, cost in _reduce_candidates(shape, src, tgt, raxes, item))


def _direct_steps(shape, cur: ShardingSpec, tgt: ShardingSpec, hops, item: int, keep: tuple[int, ...],
                  strategy: str) -> list[Step]:
    """Moves straight from the nearest holders (meshc.layout.reshard.direct), then an all_slice
    for the devices that drop part of what they held."""
    whole = ShardingSpec(cur.mesh, tuple(() for _ in shape))
    step = direct_step(shape, cur, whole if strategy == "gather_then_slice" else tgt, hops, item, keep)
    steps = [step] if step is not None else []
    cb, tb = device_bounds(cur, shape), device_bounds(tgt, shape)
    held = (cb[:, :, 1] > cb[:, :, 0]).all(axis=1)
    kept = ((cb[:, :, 0] >= tb[:, :, 0]) & (cb[:, :, 1] <= tb[:, :, 1])).all(axis=1)
    drop = ~(tb == np.array([(0, n) for n in shape], dtype=np.int64)).all(axis=(1, 2)) \
        if strategy == "gather_then_slice" else held & ~kept
    if drop.any():
        steps.append(Step("all_slice", (), (tuple(np.flatnonzero(drop).tolist()),), ()))
    return steps


def _merge_all_reduce(steps: list[Step], src: ShardingSpec, tgt: ShardingSpec, raxes) -> list[Step]:
    """reduce_scatter then all_gather over the same axes back to the source's dims is an all_reduce."""
    if (len(steps) >= 2 and steps[1].kind == "all_gather" and steps[1].axes == raxes
            and tgt.mesh.shape == src.mesh.shape and tgt.dims == src.dims):
        rest = [s for s in steps[2:] if s.kind != "all_slice"]
        if not rest:
            return [Step("all_reduce", raxes, steps[0].groups, moves=JoinedMoves(steps[:2]))]
    return steps
