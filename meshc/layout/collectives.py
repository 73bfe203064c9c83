"""The collectives: one registry of their kinds, operands, attributes and meaning.

Every layer derives from `COLLECTIVES`: the ttir / ttnn ops carry a kind's attributes, the
ttmetal `enqueue_ccl` accepts exactly these kinds, `convert-ttir-to-ttmetal` lowers exactly
these ops, `reshard-to-collectives` emits them, the golden interpreter runs `reference` and the
simulator runs the traffic-counted version of a kind that moves data (a kind that moves nothing,
all_slice, is the same local slice on both).

A collective works on a distributed value (one array a device, device order row-major over the
mesh) within *groups*: the devices that share every mesh coordinate but the `cluster_axis` one,
ordered along that axis. Its placement meaning, on a sharding spec's `dims` (per tensor dim,
the mesh axes splitting it, major first) and `partial` (mesh axes holding partial sums), is
`placement_after`:

- all_gather(dim, axis): drops `axis`, the minor axis of `dim` (everyone gets the whole dim);
- all_slice(dim, axis): adds the free `axis` at the minor end of `dim` (moves nothing);
- all_to_all(split_dim, concat_dim, axis): moves `axis` from the minor end of `concat_dim` to the
  minor end of `split_dim`;
- reduce_scatter(scatter_dim, axis): reduces the partial `axis`, splitting `scatter_dim` by it;
- all_reduce(axis): reduces the partial `axis`;
- collective_permute(pairs): relabels devices; the placement is the target's.

Pure Python and numpy: no IR here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from meshc.layout.errors import LayoutError

_REDUCE = {"sum": np.sum, "mean": np.mean, "max": np.max, "min": np.min}


def groups(mesh_shape: tuple[int, ...], cluster_axis: int | None) -> list[list[int]]:
    """Device-index groups along `cluster_axis` (each ordered along the axis), or the whole mesh."""
    n = int(np.prod(mesh_shape))
    if cluster_axis is None:
        return [list(range(n))]
    if not 0 <= cluster_axis < len(mesh_shape):
        raise LayoutError(f"cluster_axis {cluster_axis} is out of range for the {len(mesh_shape)}-d mesh {mesh_shape}")
    ids = np.arange(n).reshape(mesh_shape)
    moved = np.moveaxis(ids, cluster_axis, -1).reshape(-1, mesh_shape[cluster_axis])
    return [list(map(int, row)) for row in moved]


def topology(chips: list[int], links) -> str:
    """A group's topology on the chips it runs on: "ring" when it has more than two and a link
    (`links`: a system's unordered chip pairs, a < b) joins its two ends, else "line"."""
    return "ring" if len(chips) > 2 and (min(chips[0], chips[-1]), max(chips[0], chips[-1])) in links else "line"


def link_bytes(elements: int, element_bytes: float) -> int:
    """Bytes a piece of `elements` elements takes on a link (`DataType.element_bytes` each)."""
    return int(round(elements * element_bytes))


def collective_charge(kind: str, mesh_shape: tuple[int, ...], axis: int | None, chips: tuple[int, ...], links,
                      elements: int, element_bytes: float) -> tuple[str, str, int, int]:
    """(kind, topology, devices of a group, a device's input bytes) of a collective over
    `mesh_shape` (its devices on `chips`, a system's `links`) whose input holds `elements` a
    device: what the time model's CCL fit takes (meshc.layout.timemodel.collective_op_time),
    read from its first group (the groups along one axis are alike)."""
    group = groups(mesh_shape, axis)[0]
    return kind, topology([chips[g] for g in group], links), len(group), link_bytes(elements, element_bytes)


@dataclass(frozen=True)
class CollectiveArgs:
    """The attributes of one collective, read off its op: tensor dims (negative ones resolved by
    the reader), the cluster axis, the reduction and the (source, target) device pairs."""

    dims: tuple[int, ...] = ()
    axis: int | None = None
    reduce: str = "sum"
    pairs: tuple[tuple[int, int], ...] = ()


Placement = tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]
"""(dims, partial) of a sharding spec: per tensor dim its mesh axes, and the partial-sum axes."""


@dataclass(frozen=True)
class Collective:
    """One kind of collective: its op attributes and its meaning."""

    name: str
    dim_attrs: tuple[str, ...]
    """Attributes naming tensor dims, in the order of `CollectiveArgs.dims`."""
    cluster_axis: bool
    """Runs within the groups along a `cluster_axis` attribute (else over device pairs)."""
    reduces: bool
    """Carries a `reduce_type` (sum when absent)."""
    pairs: bool
    """Carries `source_target_pairs` (an N x 2 tensor of flat device ids)."""
    moves_data: bool
    """False: each device keeps a piece of what it holds (no traffic)."""
    _reference: Callable[[list, list[list[int]], CollectiveArgs], list]
    _placement: Callable[[Placement, CollectiveArgs], Placement]

    @property
    def attributes(self) -> tuple[str, ...]:
        """Every attribute of the kind's ops, in the order they are written."""
        return (self.dim_attrs + (("cluster_axis",) if self.cluster_axis else ())
                + (("reduce_type",) if self.reduces else ()) + (("source_target_pairs",) if self.pairs else ()))

    def reference(self, vals: list[np.ndarray], mesh_shape: tuple[int, ...], args: CollectiveArgs) -> list[np.ndarray]:
        """The numpy meaning over per-device arrays (device order): one new array a device."""
        gs = groups(tuple(mesh_shape), args.axis) if self.cluster_axis else [list(range(len(vals)))]
        return self._reference(vals, gs, args)

    def placement_after(self, placement: Placement, args: CollectiveArgs) -> Placement:
        """The (dims, partial) of the value after this collective (see the module docstring)."""
        return self._placement(placement, args)


def _each_group(fn):
    """A reference from `fn(local values of one group, args) -> their results`."""

    def run(vals, gs, args):
        out: list = [None] * len(vals)
        for g in gs:
            for i, r in zip(g, fn([vals[i] for i in g], args)):
                out[i] = np.array(r, copy=True)
        return out

    return run


def _reduced(local, args):
    red = _REDUCE[args.reduce](np.stack(local), axis=0)
    return red.astype(local[0].dtype, copy=False)


def _all_gather(local, args):
    return [np.concatenate(local, axis=args.dims[0])] * len(local)


def _all_slice(local, args):
    return [np.split(v, len(local), axis=args.dims[0])[i] for i, v in enumerate(local)]


def _reduce_scatter(local, args):
    return np.split(_reduced(local, args), len(local), axis=args.dims[0])


def _all_reduce(local, args):
    return [_reduced(local, args)] * len(local)


def _all_to_all(local, args):
    n = len(local)
    split, concat = args.dims
    parts = [np.split(v, n, axis=split) for v in local]
    return [np.concatenate([parts[p][q] for p in range(n)], axis=concat) for q in range(n)]


def _permute(vals, gs, args):
    out = [np.zeros_like(v) for v in vals]
    for s, t in args.pairs:
        out[t] = vals[s].copy()
    return out


def _with_dim(dims, d, axes):
    return tuple(axes if i == d else x for i, x in enumerate(dims))


def _gather_placement(p, a):
    dims, partial = p
    d = a.dims[0]
    if not dims[d] or dims[d][-1] != a.axis:
        raise LayoutError(f"all_gather on dim {d} over axis {a.axis}: the axis is not the minor axis of the dim")
    return _with_dim(dims, d, dims[d][:-1]), partial


def _slice_placement(p, a):
    dims, partial = p
    if any(a.axis in x for x in dims) or a.axis in partial:
        raise LayoutError(f"all_slice over axis {a.axis}: the axis already splits the tensor")
    return _with_dim(dims, a.dims[0], dims[a.dims[0]] + (a.axis,)), partial


def _to_all_placement(p, a):
    split, concat = a.dims
    dims, partial = _gather_placement(p, CollectiveArgs((concat,), a.axis))
    return _with_dim(dims, split, dims[split] + (a.axis,)), partial


def _scatter_placement(p, a):
    dims, partial = p
    if a.axis not in partial:
        raise LayoutError(f"reduce_scatter over axis {a.axis}: the axis holds no partial sums")
    return _with_dim(dims, a.dims[0], dims[a.dims[0]] + (a.axis,)), tuple(x for x in partial if x != a.axis)


def _all_reduce_placement(p, a):
    dims, partial = p
    if a.axis not in partial:
        raise LayoutError(f"all_reduce over axis {a.axis}: the axis holds no partial sums")
    return dims, tuple(x for x in partial if x != a.axis)


def _permute_placement(p, a):
    return p  # a relabelling of devices: the caller knows the target placement


COLLECTIVES: dict[str, Collective] = {c.name: c for c in (
    Collective("all_gather", ("all_gather_dim",), True, False, False, True,
               _each_group(_all_gather), _gather_placement),
    Collective("reduce_scatter", ("scatter_dim",), True, True, False, True,
               _each_group(_reduce_scatter), _scatter_placement),
    Collective("all_reduce", (), True, True, False, True, _each_group(_all_reduce), _all_reduce_placement),
    Collective("all_to_all", ("split_dim", "concat_dim"), True, False, False, True,
               _each_group(_all_to_all), _to_all_placement),
    Collective("all_slice", ("slice_dim",), True, False, False, False, _each_group(_all_slice), _slice_placement),
    Collective("collective_permute", (), False, False, True, True, _permute, _permute_placement),
)}
"""Every collective kind meshc has, by name."""


def collective(kind: str) -> Collective:
    """The registry entry of `kind`; LayoutError naming the kinds there are otherwise."""
    c = COLLECTIVES.get(kind)
    if c is None:
        raise LayoutError(f"unknown collective '{kind}'; expected one of {', '.join(COLLECTIVES)}")
    return c
