"""The moves of a reshard: every device receives exactly the cells it needs and lacks, each once.

`move_steps` tries every order of the mesh axes: along each axis in turn, a device takes what it
still lacks from the members of its fiber (the devices that differ from it only on that axis),
nearest first; a device may forward a cell it received in an earlier step. What is left then
comes straight from the nearest holder anywhere. The order with the fewest link-hop bytes wins.

All of it is array work over a devices x cells matrix: the axis steps walk the candidates of
every device at once (rank r = each device's r-th nearest fiber member) over bit-packed cell
masks, and the last step picks, for every (device, cell) still missing, its nearest holder.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from meshc.layout.errors import LayoutError
from meshc.layout.mesh import Mesh, ShardingSpec
from meshc.layout.reshard.cells import Cells
from meshc.layout.reshard.plan import Moves, Step, Transfer, link_hop_bytes
from meshc.layout.shapes import ceil_div


class _Sends:
    """The sends of one step, sorted by receiver then sender: sender and receiver ids, and the
    cells each send carries, bit-packed (`packed`, 64 cells a word) and as booleans (`masks`)."""

    def __init__(self, src: np.ndarray, dst: np.ndarray, packed: np.ndarray, cells: int):
        order = np.lexsort((src, dst))
        self.src, self.dst, self.packed = src[order], dst[order], packed[order]
        self.cells = cells
        self._masks: np.ndarray | None = None

    @property
    def masks(self) -> np.ndarray:
        if self._masks is None:
            self._masks = _unpack(self.packed, self.cells)
        return self._masks

    def __len__(self) -> int:
        return len(self.src)


def _words(cells: int) -> int:
    return max(1, ceil_div(cells, 64))


def _pack(m: np.ndarray) -> np.ndarray:
    """(rows, cells) bool -> (rows, words) uint64, 64 cells a word (padding bits 0)."""
    rows, cells = m.shape
    out = np.zeros((rows, _words(cells) * 8), dtype=np.uint8)
    out[:, : ceil_div(cells, 8)] = np.packbits(m, axis=1)
    return out.view(np.uint64)


def _unpack(p: np.ndarray, cells: int) -> np.ndarray:
    return np.unpackbits(np.ascontiguousarray(p).view(np.uint8), axis=1, count=cells).view(bool)


def _bits(p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(rows, cells) of the set bits of packed masks, row-major, unpacking only nonzero words."""
    r, w = np.nonzero(p)
    bits = np.unpackbits(np.ascontiguousarray(p[r, w]).view(np.uint8).reshape(-1, 8), axis=1)
    k, b = np.nonzero(bits)
    return r[k], w[k] * 64 + b


def _or_by(keys: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct `keys` and, for each, the bitwise or of its `rows` (packed masks)."""
    order = np.argsort(keys, kind="stable")
    uniq, first = np.unique(keys[order], return_index=True)
    return uniq, np.bitwise_or.reduceat(rows[order], first, axis=0)


def move_steps(cells: Cells, cur: ShardingSpec, tgt: ShardingSpec, mesh: Mesh, hops, item: int,
               keep_partial: tuple[int, ...], strategy: str) -> list[Step]:
    """Steps that give every device the cells it needs and lacks, each cell delivered once."""
    have0 = cells.masks(cur)
    need = cells.masks(tgt)
    need_recv = np.ones_like(need) if strategy == "gather_then_slice" else need  # gather all, then slice
    coords = np.indices(cur.mesh.shape).reshape(cur.mesh.rank, -1).T
    # partial sums only mix within a partial index: devices with equal `pkey` may exchange
    pkey = np.ravel_multi_index(tuple(coords[:, list(keep_partial)].T), tuple(cur.mesh.shape[a] for a in keep_partial)) \
        if keep_partial else np.zeros(cur.mesh.size, dtype=np.int64)
    axes = [a for a in range(mesh.rank) if mesh.shape[a] > 1 and a not in keep_partial]

    best = None
    for order in itertools.permutations(axes):
        steps, unneeded = _staged(cells, mesh, order, have0, need_recv, need, pkey, hops, item)
        key = (link_hop_bytes(steps, hops), len(steps))
        if best is None or key < best[0]:
            best = (key, steps, unneeded)
    if best is None:
        steps, unneeded = _staged(cells, mesh, (), have0, need_recv, need, pkey, hops, item)
    else:
        steps, unneeded = best[1], best[2]

    drop = have0 & ~need
    if strategy == "gather_then_slice":
        drop = ~need
    if drop.any():
        dropping = tuple(int(d) for d in np.flatnonzero(drop.any(axis=1)))
        slice_step = Step("all_slice", (), (dropping,), ())
        # slicing first is safe when no device sends a cell it does not keep
        steps = steps + [slice_step] if unneeded or strategy == "gather_then_slice" else [slice_step] + steps
    return steps


def _staged(cells: Cells, mesh: Mesh, order, have0, need, keep, pkey, hops, item) -> tuple[list[Step], bool]:
    """The steps for one order of the axes, and whether any device sends a cell it does not `keep`."""
    coords = np.indices(mesh.shape).reshape(mesh.rank, -1).T
    have, want = _pack(have0), _pack(need & ~have0)
    need_p, keep_p = _pack(need), _pack(keep)
    steps: list[Step] = []
    unneeded = False
    for axis in order:
        sends, groups = _axis_sends(coords, mesh, axis, have, want, pkey, hops, cells.count)
        if len(sends):
            steps.append(_make_step(cells, sends, (axis,), groups, have, need_p, item))
            unneeded |= bool((sends.packed & ~keep_p[sends.src]).any())
            rows, got = _or_by(sends.dst, sends.packed)
            have[rows] |= got
            want[rows] &= ~got
    if want.any():
        sends = _nearest_holder_sends(want, have, cells.count, pkey, hops)
        steps.append(_make_step(cells, sends, (), _components(sends), have, need_p, item))
        unneeded |= bool((sends.packed & ~keep_p[sends.src]).any())
    return steps, unneeded


def _axis_sends(coords, mesh: Mesh, axis: int, have, want, pkey, hops, cells: int):
    """Along `axis`: each device takes what it lacks from its fiber, nearest member first (by
    link hops, then distance along the axis, then device id); a cell comes from the first member
    that holds it at the start of the step."""
    n, m = mesh.size, mesh.shape[axis]
    stride = math.prod(mesh.shape[axis + 1:])
    pos = coords[:, axis]
    base = np.arange(n) - pos * stride  # the fiber's member at position 0
    others = np.array([[j for j in range(m) if j != i] for i in range(m)], dtype=np.int64).reshape(m, m - 1)
    cand = base[:, None] + others[pos] * stride  # (n, m - 1) fiber members other than the device
    me = np.broadcast_to(np.arange(n)[:, None], cand.shape)
    dist = np.asarray(hops[cand, me], dtype=np.int64)
    along = np.abs(others[pos] - pos[:, None])
    rank = np.lexsort((cand, along, dist), axis=-1)
    cand = np.take_along_axis(cand, rank, axis=-1)
    cand = np.where(pkey[cand] == pkey[:, None], cand, n)  # row n: holds nothing

    have_p = np.concatenate([have, np.zeros((1, have.shape[1]), dtype=np.uint64)])
    # only what some member of the fiber holds can come along this axis: the rest waits
    words = have.shape[1]
    fiber_has = np.bitwise_or.reduce(have.reshape(mesh.shape + (words,)), axis=axis, keepdims=True)
    remaining = want & np.broadcast_to(fiber_has, mesh.shape + (words,)).reshape(n, words)
    rows = np.flatnonzero(remaining.any(axis=1))
    src, dst, got = [], [], []
    for r in range(m - 1):
        if not len(rows):
            break
        f = cand[rows, r]
        take = remaining[rows] & have_p[f]
        hit = take.any(axis=1)
        if hit.any():
            src.append(f[hit])
            dst.append(rows[hit])
            got.append(take[hit])
            remaining[rows[hit]] &= ~take[hit]
            rows = rows[remaining[rows].any(axis=1)]
    if not src:
        return _Sends(np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros((0, have.shape[1]), np.uint64), cells), ()
    sends = _Sends(np.concatenate(src), np.concatenate(dst), np.concatenate(got), cells)
    senders = np.unique(base[sends.src])  # fibers (by first member) with a sender, in device order
    groups = tuple(tuple(int(b + j * stride) for j in range(m)) for b in senders)
    return sends, groups


def _nearest_holder_sends(want, have, cells: int, pkey, hops, chunk: int = 1 << 22) -> _Sends:
    """Every (device, cell) still wanted comes from its nearest holder (link hops, then device id)
    among the devices of its partial index. `want`, `have`: packed masks."""
    n = len(have)
    wd, wc = _bits(want)
    hd, hc = _bits(have & np.bitwise_or.reduce(want, axis=0))  # holders of wanted cells only
    by_cell = np.argsort(hc, kind="stable")  # holders, grouped by cell
    hd, hc = hd[by_cell], hc[by_cell]
    start = np.searchsorted(hc, np.arange(cells + 1))
    count = np.diff(start)
    if (count[wc] == 0).any():  # cannot happen: the source layout covers the tensor
        d = int(wd[np.argmax(count[wc] == 0)])
        raise LayoutError(f"no device holds part of what device {d} needs; the source layout does "
                          "not cover the tensor")
    best = np.empty(len(wd), dtype=np.int64)
    big = np.iinfo(np.int64).max
    lo = 0
    while lo < len(wd):  # pairs x holders, a chunk of pairs at a time
        cum = np.cumsum(count[wc[lo:]])
        hi = lo + max(1, int(np.searchsorted(cum, chunk, side="right")))
        d, c = wd[lo:hi], wc[lo:hi]
        per = count[c]
        pair = np.repeat(np.arange(len(d)), per)
        offs = np.arange(len(pair)) - np.repeat(np.cumsum(per) - per, per)
        f = hd[start[c][pair] + offs]
        dd = d[pair]
        key = np.asarray(hops[f, dd], dtype=np.int64) * (n + 1) + f
        key[(f == dd) | (pkey[f] != pkey[dd])] = big
        seg = np.cumsum(per) - per
        kmin = np.minimum.reduceat(key, seg)
        if (kmin == big).any():
            bad = int(d[np.argmax(kmin == big)])
            raise LayoutError(f"no device holds part of what device {bad} needs; the source layout does "
                              "not cover the tensor")
        best[lo:hi] = kmin % (n + 1)
        lo = hi
    pairs, inv = np.unique(best * n + wd, return_inverse=True)
    packed = np.zeros((len(pairs), _words(cells) * 8), dtype=np.uint8)
    np.bitwise_or.at(packed, (inv.reshape(-1), wc >> 3), (128 >> (wc & 7)).astype(np.uint8))  # packbits' order
    return _Sends(pairs // n, pairs % n, packed.view(np.uint64), cells)


def _make_step(cells: Cells, sends: _Sends, axes, groups, have, need, item) -> Step:
    return Step(_classify(sends, groups, have, need), tuple(axes), groups, moves=_StagedMoves(cells, sends, item))


class _StagedMoves(Moves):
    """The sends of one staged step: bytes and link hops counted on the packed masks; the
    transfers (each send's cells covered by boxes) made when read."""

    def __init__(self, cells: Cells, sends: _Sends, item: int):
        self.cells, self.sends, self.item = cells, sends, item
        rows, cols = _bits(sends.packed)
        per = np.zeros(len(sends), dtype=np.int64)
        np.add.at(per, rows, cells.volume[cols])
        self.per_send = per * item
        self.bytes = int(self.per_send.sum())

    def hop_bytes(self, hops) -> int:
        if not len(self.sends):
            return 0
        return int((self.per_send * np.asarray(hops[self.sends.src, self.sends.dst], dtype=np.int64)).sum())

    def transfers(self) -> list[Transfer]:
        cells, sends, item = self.cells, self.sends, self.item
        transfers = []
        ncells = np.count_nonzero(sends.masks, axis=1)
        first = np.unravel_index(sends.masks.argmax(axis=1), cells.grid)  # the box of a one-cell send
        lo = [e[i].tolist() for e, i in zip(cells.edges, first)]
        hi = [e[i + 1].tolist() for e, i in zip(cells.edges, first)]
        for k, (f, d, one) in enumerate(zip(sends.src.tolist(), sends.dst.tolist(), (ncells == 1).tolist())):
            boxes = [tuple((a[k], b[k]) for a, b in zip(lo, hi))] if one else cells.boxes(sends.masks[k])
            for box in boxes:
                transfers.append(Transfer(f, d, box, math.prod(b - a for a, b in box) * item))
        return transfers


def _classify(sends: _Sends, groups, have, need) -> str:
    """Name the exchange: all_gather, collective_permute or all_to_all (see the module docstring).
    `have` and `need` are packed masks (devices x words)."""
    n = len(have)
    group_of = np.full(n, -1, dtype=np.int64)
    for i, g in enumerate(groups):
        group_of[list(g)] = i
    # all_gather: whatever moves within a group is needed by every member of that group
    gids, got = _or_by(group_of[sends.dst], sends.packed)
    exchanged = np.zeros((len(groups), have.shape[1]), dtype=np.uint64)
    exchanged[gids] = got
    receiving = np.zeros(len(groups), dtype=bool)
    receiving[gids] = True
    members = np.flatnonzero((group_of >= 0) & receiving[np.maximum(group_of, 0)])
    if not (exchanged[group_of[members]] & ~need[members]).any():
        return "all_gather"
    one_to_one = np.bincount(sends.src, minlength=n).max() <= 1 and np.bincount(sends.dst, minlength=n).max() <= 1
    if one_to_one and (sends.packed == have[sends.src]).all():
        return "collective_permute"
    return "all_to_all"


def _components(sends: _Sends) -> tuple[tuple[int, ...], ...]:
    """The groups of a step without axes: devices joined by its sends, connected components."""
    parent: dict[int, int] = {}

    def find(x):
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for s, d in zip(sends.src.tolist(), sends.dst.tolist()):
        parent[find(s)] = find(d)
    comps: dict[int, list[int]] = {}
    for x in list(parent):
        comps.setdefault(find(x), []).append(x)
    return tuple(tuple(sorted(c)) for c in sorted(comps.values()))
