"""Direct moves, planned over the source's pieces: for meshes and cuts too large for cell masks.

The source spec cuts the tensor into pieces, per dim the chunks of its axes, so a piece is a
product of one interval a dim and the pieces tile the tensor. A device needs, of each piece
that overlaps its target box and is not its own, exactly that overlap: one transfer, straight
from the nearest device holding the piece (link hops, then device id; a piece is held by every
device that differs only on the axes the source leaves free). Per device and dim the pieces it
needs are one range of chunk indices, so the plan is a product of ranges a device: it delivers
exactly the lower bound (what a device needs and lacks, each byte once) and is counted in closed
form; its transfers are enumerated in bounded chunks of devices, for link hops and only when
someone reads them (`Step.transfers`). Time and memory grow with devices x dims, not with
devices x cells.

`reduce_moves` is the array form of a reduce-scatter of partial sums over mesh axes: every
member of a group receives its piece of the result from each other member.
"""

from __future__ import annotations

import math

import numpy as np

from meshc.layout.limits import MAX_RESHARD_TRANSFERS, check_count
from meshc.layout.mesh import ShardingSpec
from meshc.layout.reshard.cells import device_bounds
from meshc.layout.reshard.plan import Moves, Step, Transfer
from meshc.layout.shapes import ceil_div

PAIRS_A_CHUNK = 1 << 20
"""(device, piece) pairs (times a piece's holders) enumerated at once."""


def _volume(b: np.ndarray) -> np.ndarray:
    """Elements of each box of (k, rank, 2) bounds."""
    return np.prod(np.maximum(b[..., 1] - b[..., 0], 0), axis=-1)


class BoxMoves(Moves):
    """Transfers given as arrays: src, dst, and per transfer a box (lo, hi: (k, rank))."""

    def __init__(self, src, dst, lo, hi, item: int, reduce: bool = False):
        self.src, self.dst, self.lo, self.hi = src, dst, lo, hi
        self.item, self.reduce = item, reduce
        self.per = np.prod(hi - lo, axis=1) * item if len(src) else np.zeros(0, np.int64)
        self.bytes = int(self.per.sum())

    def hop_bytes(self, hops) -> int:
        if not len(self.src):
            return 0
        return int((self.per * np.asarray(hops[self.src, self.dst], dtype=np.int64)).sum())

    def transfers(self) -> list[Transfer]:
        check_count(len(self.src), MAX_RESHARD_TRANSFERS, "the reshard plan", "transfers")
        return _transfers(self.src, self.dst, self.lo, self.hi, self.per, self.reduce)


def _transfers(src, dst, lo, hi, per, reduce=False) -> list[Transfer]:
    boxes = np.stack([lo, hi], axis=-1).tolist()
    return [Transfer(s, d, tuple(map(tuple, b)), n, reduce)
            for s, d, b, n in zip(src.tolist(), dst.tolist(), boxes, per.tolist())]


class DirectMoves(Moves):
    """Every device takes what it needs of the target and lacks from the nearest holder of each
    source piece (see the module docstring); `keep` axes are partial axes kept by the target,
    along which nothing may move (a partial sum mixes only with its own partial index)."""

    def __init__(self, shape: tuple[int, ...], cur: ShardingSpec, tgt: ShardingSpec, hops, item: int,
                 keep: tuple[int, ...] = ()):
        self.shape, self.cur, self.hops, self.item, self.keep = shape, cur, hops, item, keep
        mesh = cur.mesh
        self.n = mesh.size
        rank = len(shape)
        self.k = np.array([cur.num_pieces(d) for d in range(rank)], dtype=np.int64)
        self.sz = np.array([max(ceil_div(n, k), 1) for n, k in zip(shape, self.k)], dtype=np.int64)
        self.tb = device_bounds(tgt, shape)
        sb = device_bounds(cur, shape)
        lo, hi = self.tb[:, :, 0], self.tb[:, :, 1]
        live = (hi > lo).all(axis=1)
        self.a = np.where(live[:, None], lo // self.sz, 0)
        self.b = np.where(live[:, None], np.minimum(-(-hi // self.sz), self.k), 0)
        held = (sb[:, :, 1] > sb[:, :, 0]).all(axis=1)  # a device holding an empty chunk owns no piece
        self.own = np.where(held[:, None], sb[:, :, 0] // self.sz, -1)
        self.count = np.prod(self.b - self.a, axis=1)
        inter = np.stack([np.maximum(lo, sb[:, :, 0]), np.minimum(hi, sb[:, :, 1])], axis=-1)
        self.bytes = int((_volume(self.tb) - _volume(inter)).sum()) * item
        # the mesh axes a piece is spread over (per dim, major first) and the free ones
        used = {a for d in cur.dims for a in d}
        self.free = [a for a in range(mesh.rank) if a not in used and a not in keep and mesh.shape[a] > 1]
        self.replicas = math.prod(mesh.shape[a] for a in self.free)

    # ------------------------------------------------------------------ enumeration

    def _holders(self, p: np.ndarray, dst: np.ndarray) -> np.ndarray:
        """The nearest device holding piece p (k, rank) for each dst (k,)."""
        mesh = self.cur.mesh
        coords = np.stack(np.unravel_index(dst, mesh.shape), axis=1) if mesh.rank else np.zeros((len(dst), 0), np.int64)
        coords = coords.astype(np.int64)
        for d, axes in enumerate(self.cur.dims):
            rest = p[:, d].copy()
            for a in reversed(axes):
                coords[:, a] = rest % mesh.shape[a]
                rest //= mesh.shape[a]
        if self.replicas == 1:
            return np.ravel_multi_index(tuple(coords.T), mesh.shape) if mesh.rank else np.zeros(len(dst), np.int64)
        sizes = [mesh.shape[a] for a in self.free]
        combos = np.stack(np.unravel_index(np.arange(self.replicas), sizes), axis=1)  # (R, free)
        cand = np.repeat(coords[:, None, :], self.replicas, axis=1)
        cand[:, :, self.free] = combos[None, :, :]
        ids = np.ravel_multi_index(tuple(np.moveaxis(cand, -1, 0)), mesh.shape)  # (k, R)
        key = np.asarray(self.hops[ids, dst[:, None]], dtype=np.int64) * (self.n + 1) + ids
        return ids[np.arange(len(dst)), key.argmin(axis=1)]

    def chunks(self):
        """(src, dst, lo, hi) arrays of the transfers, a bounded chunk of devices at a time."""
        cum = np.cumsum(self.count)
        budget = max(1, PAIRS_A_CHUNK // self.replicas)
        start = 0
        while start < self.n:
            done = int(cum[start - 1]) if start else 0
            stop = max(start + 1, int(np.searchsorted(cum, done + budget, side="right")))
            devs = np.arange(start, stop)
            start = stop
            c = self.count[devs]
            if not c.sum():
                continue
            dst = np.repeat(devs, c)
            off = np.arange(len(dst)) - np.repeat(np.cumsum(c) - c, c)
            lens = (self.b - self.a)[dst]
            p = np.empty_like(lens)
            for j in reversed(range(lens.shape[1])):
                p[:, j] = self.a[dst, j] + off % lens[:, j]
                off = off // lens[:, j]
            lo = np.maximum(p * self.sz, self.tb[dst, :, 0])
            hi = np.minimum(p * self.sz + self.sz, self.tb[dst, :, 1])
            keep = (hi > lo).all(axis=1) & ~(p == self.own[dst]).all(axis=1)
            if keep.any():
                p, dst, lo, hi = p[keep], dst[keep], lo[keep], hi[keep]
                yield self._holders(p, dst), dst, lo, hi

    def hop_bytes(self, hops) -> int:
        total = 0
        for src, dst, lo, hi in self.chunks():
            total += int((np.prod(hi - lo, axis=1) * self.item * np.asarray(hops[src, dst], dtype=np.int64)).sum())
        return total

    def transfers(self) -> list[Transfer]:
        check_count(int((self.count - self._holds_own()).sum()), MAX_RESHARD_TRANSFERS, "the reshard plan", "transfers")
        out: list[Transfer] = []
        for src, dst, lo, hi in self.chunks():
            out += _transfers(src, dst, lo, hi, np.prod(hi - lo, axis=1) * self.item)
        return out

    def kind(self) -> str:
        """all_gather when every receiver needs the same box (so all that moves is needed by every
        receiver), collective_permute when each device receives one whole piece from one device
        that sends only it, else all_to_all."""
        recv = self.count - self._holds_own()
        live = recv > 0
        if live.any() and (self.tb[live] == self.tb[live][0]).all():
            return "all_gather"
        if recv.max(initial=0) <= 1:
            src = np.concatenate([c[0] for c in self.chunks()] or [np.zeros(0, np.int64)])
            whole = all(((hi - lo) == self.sz[None, :]).all() for _, _, lo, hi in self.chunks())
            if whole and np.bincount(src, minlength=self.n).max(initial=0) <= 1:
                return "collective_permute"
        return "all_to_all"

    def _holds_own(self) -> np.ndarray:
        return ((self.own >= self.a) & (self.own < self.b)).all(axis=1).astype(np.int64)

    def groups(self) -> tuple[tuple[int, ...], ...]:
        """One group: every device that sends or receives."""
        ids = [np.unique(np.concatenate([s, d])) for s, d, _, _ in self.chunks()]
        return (tuple(np.unique(np.concatenate(ids)).tolist()),) if ids else ()


def direct_step(shape, cur: ShardingSpec, tgt: ShardingSpec, hops, item: int, keep: tuple[int, ...]) -> Step | None:
    """The one step of direct moves from `cur` to `tgt`, or None when nothing moves."""
    moves = DirectMoves(tuple(shape), cur, tgt, hops, item, keep)
    if not moves.bytes:
        return None
    return Step(moves.kind(), (), moves.groups, moves=moves)


def reduce_moves(shape, src: ShardingSpec, mid: ShardingSpec, raxes: tuple[int, ...], item: int) -> BoxMoves:
    """Reduce-scatter over `raxes`: every device receives its `mid` piece from each other member
    of its group (the devices that differ from it only on `raxes`), to add to its own."""
    mesh = src.mesh
    coords = np.indices(mesh.shape).reshape(mesh.rank, -1).T
    g = math.prod(mesh.shape[a] for a in raxes)
    mb = device_bounds(mid, shape)
    dst = np.flatnonzero((mb[:, :, 1] > mb[:, :, 0]).all(axis=1))
    # the other members: dst's coordinates with every combination on raxes but its own
    combos = np.stack(np.unravel_index(np.arange(g), [mesh.shape[a] for a in raxes]), axis=1)
    cand = np.repeat(coords[dst][:, None, :], g, axis=1)
    cand[:, :, list(raxes)] = combos[None, :, :]
    ids = np.ravel_multi_index(tuple(np.moveaxis(cand, -1, 0)), mesh.shape)  # (k, g)
    others = ids != dst[:, None]
    src_ids = ids[others]
    dsts = np.broadcast_to(dst[:, None], ids.shape)[others]
    return BoxMoves(src_ids, dsts, mb[dsts, :, 0], mb[dsts, :, 1], item, reduce=True)


def reduce_groups(mesh, raxes: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """The groups of a reduction over `raxes`: devices equal on every other axis, in device order."""
    coords = np.indices(mesh.shape).reshape(mesh.rank, -1).T
    others = [a for a in range(mesh.rank) if a not in raxes]
    key = np.ravel_multi_index(tuple(coords[:, others].T), [mesh.shape[a] for a in others]) if others \
        else np.zeros(mesh.size, np.int64)
    order = np.argsort(key, kind="stable")
    _, first = np.unique(key[order], return_index=True)
    return tuple(tuple(g.tolist()) for g in np.split(order, first[1:]))
