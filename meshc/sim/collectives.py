"""Collectives as real moves over ethernet links, so that their traffic is measured.

Every collective works on a distributed value (one array a device, device order over the
machine's mesh) within *groups*: the devices that share every mesh coordinate but the
`cluster_axis` one, ordered along that axis (or the whole mesh in device order when the axis is
None). A group whose two ends are joined by a link is a ring; otherwise it is a line.

- all_gather: ring: n - 1 steps, each device forwards the piece it got last to its successor;
  line: every piece travels to both ends, hop by hop.
- reduce_scatter: piece k is reduced along a chain that ends at device k (ring: starting at
  k + 1 and going round; line: from both ends towards k), one partial piece a hop.
- all_reduce: reduce_scatter then all_gather over the flattened tensor (padded to n pieces).
- all_to_all: device p sends its piece q to device q over the routed path.
- collective_permute: each (source, target) pair sends the whole tensor; a device nobody
  sends to ends with zeros.

Each send is counted by `Machine.send` (every hop of its route, each direction apart) and on
the NOCs of both end chips. On an abstract machine the values are shape-only arrays and the
combining steps (concatenate, reduce, copy) only make shapes, so the same sends are counted
without holding data. The arithmetic happens in float32 (or the integer type); the caller
rounds results to the storage type when it writes them.
"""

from __future__ import annotations

import itertools

import numpy as np

from collections.abc import Callable

from meshc.layout.collectives import CollectiveArgs, collective_charge, groups, link_bytes, topology
from meshc.layout.errors import LayoutError
from meshc.layout.shapes import round_up
from meshc.layout.timemodel import CCL_KINDS
from meshc.sim.machine import Machine

REDUCERS = {"sum": np.add, "max": np.maximum, "min": np.minimum, "prod": np.multiply}


class Collectives:
    """Collectives on one machine. `elem_bytes` is the stored size of an element (bf16: 2, a
    bfp_bf8 element 1088 / 1024); a piece of n elements costs n * elem_bytes on a link."""

    def __init__(self, machine: Machine, elem_bytes: float | None = None):
        self.m = machine
        self.elem_bytes = elem_bytes

    def _cat(self, pieces: list[np.ndarray], axis: int) -> np.ndarray:
        if not self.m.abstract:
            return np.concatenate(pieces, axis=axis)
        shape = list(pieces[0].shape)
        shape[axis] = sum(p.shape[axis] for p in pieces)
        return np.broadcast_to(np.zeros((), pieces[0].dtype), tuple(shape))

    def _combine(self, op, a: np.ndarray, b: np.ndarray, into: bool = False) -> np.ndarray:
        """op(a, b); `into`: a is a partial result of this collective's own, which nothing else
        holds, so it is overwritten (the same values, one array fewer a step)."""
        if not self.m.abstract:
            if into and np.result_type(a, b) == a.dtype and a.shape == np.broadcast_shapes(a.shape, b.shape):
                return op(a, b, out=a)
            return op(a, b)
        return np.broadcast_to(np.zeros((), np.result_type(a, b)), np.broadcast_shapes(a.shape, b.shape))

    def _copy(self, v: np.ndarray) -> np.ndarray:
        return v if self.m.abstract else v.copy()

    def _bytes(self, piece: np.ndarray) -> int:
        if self.elem_bytes is None:
            return int(piece.nbytes)
        return link_bytes(piece.size, self.elem_bytes)

    def _chips(self, group: list[int]) -> list[int]:
        return [self.m.devices[g] for g in group]

    def _send(self, a: int, b: int, piece: np.ndarray) -> None:
        nbytes = self._bytes(piece)
        if a == b or nbytes == 0:
            return
        self.m.send(a, b, nbytes)
        noc = self.m.traffic.counter("noc")
        noc[a] += nbytes
        noc[b] += nbytes
        self.m.charge_send(a, b, nbytes)

    def _is_ring(self, chips: list[int]) -> bool:
        return topology(chips, self.m.router.links) == "ring"

    def _split_groups(self, vals: list[np.ndarray], dim: int, cluster_axis: int | None, what: str):
        """For each group of devices along `cluster_axis`: the group, its chips, and each member's
        value split along `dim` into one equal piece per member (LayoutError, naming the
        collective `what`, when the dim does not divide evenly)."""
        for group in groups(self.m.mesh_shape, cluster_axis):
            n = len(group)
            size = vals[group[0]].shape[dim]
            if size % n:
                raise LayoutError(f"{what} splits dim {dim} of size {size} into {n} pieces; it must divide evenly")
            yield group, self._chips(group), [np.split(vals[g], n, axis=dim) for g in group]

    # ------------------------------------------------------------------ all_gather

    def all_gather(self, vals: list[np.ndarray], dim: int, cluster_axis: int | None) -> list[np.ndarray]:
        out: list[np.ndarray | None] = [None] * len(vals)
        for group in groups(self.m.mesh_shape, cluster_axis):
            chips = self._chips(group)
            n = len(group)
            have = [{p: vals[g]} for p, g in enumerate(group)]
            if self._is_ring(chips):
                for step in range(1, n):
                    for p in range(n):
                        origin = (p - step + 1) % n
                        q = (p + 1) % n
                        piece = have[p][origin]
                        self._send(chips[p], chips[q], piece)
                        have[q][origin] = piece
            else:
                for origin in range(n):
                    piece = vals[group[origin]]
                    for p in range(origin, n - 1):  # rightwards
                        self._send(chips[p], chips[p + 1], piece)
                        have[p + 1][origin] = have[p][origin]
                    for p in range(origin, 0, -1):  # leftwards
                        self._send(chips[p], chips[p - 1], piece)
                        have[p - 1][origin] = have[p][origin]
            made: dict[tuple, np.ndarray] = {}  # members holding the same pieces share one result
            for p, g in enumerate(group):
                parts = [have[p][o] for o in range(n)]
                key = tuple(id(x) for x in parts)
                if key not in made:
                    made[key] = self._cat(parts, dim)
                out[g] = made[key]
        return out  # type: ignore[return-value]

    # ------------------------------------------------------------------ reduce_scatter

    def reduce_scatter(self, vals: list[np.ndarray], dim: int, cluster_axis: int | None,
                       reduce: str = "sum") -> list[np.ndarray]:
        if reduce not in REDUCERS:
            raise LayoutError(f"reduce_type '{reduce}' is not one of {', '.join(REDUCERS)}")
        op = REDUCERS[reduce]
        out: list[np.ndarray | None] = [None] * len(vals)
        for group, chips, pieces in self._split_groups(vals, dim, cluster_axis, "reduce_scatter"):
            n = len(group)
            ring = self._is_ring(chips)
            for k in range(n):
                if ring:
                    order = [(k + 1 + i) % n for i in range(n)]
                    acc = pieces[order[0]][k]
                    for step, (a, b) in enumerate(itertools.pairwise(order)):
                        self._send(chips[a], chips[b], acc)
                        acc = self._combine(op, acc, pieces[b][k], into=step > 0)
                    out[group[k]] = acc
                else:
                    acc = pieces[k][k]
                    left = None
                    for p in range(0, k):
                        left = pieces[p][k] if left is None else self._combine(op, left, pieces[p][k])
                        self._send(chips[p], chips[p + 1], left)
                    right = None
                    for p in range(n - 1, k, -1):
                        right = pieces[p][k] if right is None else self._combine(op, right, pieces[p][k])
                        self._send(chips[p], chips[p - 1], right)
                    if left is not None:
                        acc = self._combine(op, left, acc)
                    if right is not None:
                        acc = self._combine(op, acc, right)
                    out[group[k]] = acc
        return out  # type: ignore[return-value]

    # ------------------------------------------------------------------ all_reduce

    def all_reduce(self, vals: list[np.ndarray], cluster_axis: int | None, reduce: str = "sum") -> list[np.ndarray]:
        n = len(groups(self.m.mesh_shape, cluster_axis)[0])
        if n == 1:
            return [self._copy(v) for v in vals]
        shape = vals[0].shape
        size = vals[0].size
        padded = round_up(size, n)
        flat = []
        for v in vals:
            if self.m.abstract:
                flat.append(np.broadcast_to(np.zeros((), v.dtype), (padded,)))
                continue
            if padded == size:  # no padding: the flattened tensor itself
                flat.append(np.ravel(v))
                continue
            f = np.zeros(padded, v.dtype)
            f[:size] = v.reshape(-1)
            flat.append(f)
        scattered = self.reduce_scatter(flat, 0, cluster_axis, reduce)
        gathered = self.all_gather(scattered, 0, cluster_axis)
        made: dict[int, np.ndarray] = {}  # one result object a distinct gathered array
        for g in gathered:
            if id(g) not in made:
                made[id(g)] = g[:size].reshape(shape)  # a blank reshapes as a view
        return [made[id(g)] for g in gathered]

    # ------------------------------------------------------------------ all_to_all

    def all_to_all(self, vals: list[np.ndarray], split_dim: int, concat_dim: int,
                   cluster_axis: int | None) -> list[np.ndarray]:
        out: list[np.ndarray | None] = [None] * len(vals)
        for group, chips, pieces in self._split_groups(vals, split_dim, cluster_axis, "all_to_all"):
            n = len(group)
            for p in range(n):
                for q in range(n):
                    self._send(chips[p], chips[q], pieces[p][q])
            for q, g in enumerate(group):
                out[g] = self._cat([pieces[p][q] for p in range(n)], concat_dim)
        return out  # type: ignore[return-value]

    # ------------------------------------------------------------------ collective_permute

    def collective_permute(self, vals: list[np.ndarray], pairs) -> list[np.ndarray]:
        n = len(vals)
        out = [np.broadcast_to(np.zeros((), v.dtype), v.shape) if self.m.abstract else np.zeros_like(v)
               for v in vals]
        targets = set()
        for src, dst in pairs:
            src, dst = int(src), int(dst)
            if not (0 <= src < n and 0 <= dst < n):
                raise LayoutError(f"collective_permute pair ({src}, {dst}) names a device outside the {n} of the mesh")
            if dst in targets:
                raise LayoutError(f"collective_permute sends to device {dst} twice")
            targets.add(dst)
            self._send(self.m.devices[src], self.m.devices[dst], vals[src])
            out[dst] = self._copy(vals[src])
        return out

    # ------------------------------------------------------------------ by kind

    def run(self, kind: str, vals: list[np.ndarray], args: CollectiveArgs) -> list[np.ndarray]:
        """The collective `kind` of the registry (meshc.layout.collectives) with `args` over
        per-device arrays, through `RUNS`; a mean is a sum divided by the group's size."""
        fn = RUNS.get(kind)
        if fn is None:
            raise LayoutError(f"the simulator has no traffic model for the collective '{kind}' "
                              f"(it has: {', '.join(RUNS)})")
        if kind in CCL_KINDS and vals:
            m = self.m
            eb = vals[0].itemsize if self.elem_bytes is None else self.elem_bytes
            m.charge_collective(*collective_charge(kind, m.mesh_shape, args.axis, m.devices, m.router.links,
                                                   vals[0].size, eb))
        res = fn(self, vals, args)
        if args.reduce == "mean" and not self.m.abstract:
            n = np.float32(self.m.mesh_shape[args.axis])
            made: dict[int, np.ndarray] = {}
            for r in res:
                if id(r) not in made:
                    made[id(r)] = r / n
            res = [made[id(r)] for r in res]
        return res


def _reduction(args: CollectiveArgs) -> str:
    return "sum" if args.reduce == "mean" else args.reduce



RUNS: dict[str, Callable[[Collectives, list[np.ndarray], CollectiveArgs], list[np.ndarray]]] = {
    "all_gather": lambda c, vals, a: c.all_gather(vals, a.dims[0], a.axis),
    "reduce_scatter": lambda c, vals, a: c.reduce_scatter(vals, a.dims[0], a.axis, _reduction(a)),
    "all_reduce": lambda c, vals, a: c.all_reduce(vals, a.axis, _reduction(a)),
    "all_to_all": lambda c, vals, a: c.all_to_all(vals, a.dims[0], a.dims[1], a.axis),
    "collective_permute": lambda c, vals, a: c.collective_permute(vals, list(a.pairs)),
}
"""Each registry kind that moves data -> its run on the links (a kind that moves nothing runs its
registry meaning on each device's own data: the interpreters do that)."""
