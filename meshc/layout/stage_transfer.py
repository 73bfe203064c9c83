"""A value crossing from one pipeline stage's virtual device to the next: which bytes go from
which chip of the first device to which chip of the second.

The value is a global tensor sharded over the source device's mesh by `source_shard_dims` (per
mesh axis, the tensor dim it splits, or -1: a mesh_shard's placement) and wanted over the target
device's mesh by `target_shard_dims`. Every device's box is `device_bounds` (the reshard planner's,
torch.chunk pieces). The two chip sets are disjoint, so no target device holds any of what it
needs: the fewest-bytes plan delivers each target device exactly its box, each part once, from
the source device holding it that is the fewest ethernet links away (a replica of the source
placement is a choice of holder; ties go to the lower device index). Delivered bytes are then the
lower bound (the sum of the target boxes), and the link-hop bytes the fewest any plan of whole
parts can have, since each part is routed alone on a shortest route.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from meshc.layout.mesh import spec_from_shard_dims
from meshc.layout.reshard.cells import device_bounds
from meshc.layout.reshard.plan import Transfer
from meshc.layout.system import SystemDesc
from meshc.layout.virtual_devices import hops_between


@dataclass(frozen=True)
class StagePlacement:
    """A value's placement on one virtual device: its mesh, chips and shard_dims."""

    mesh_shape: tuple[int, ...]
    chip_ids: tuple[int, ...]
    shard_dims: tuple[int, ...]

    def bounds(self, shape: tuple[int, ...]) -> np.ndarray:
        """(devices, rank, 2): each device's [start, stop) per tensor dim."""
        return device_bounds(spec_from_shard_dims(self.shard_dims, len(shape), self.mesh_shape), shape)


@dataclass(frozen=True, eq=False)
class StageTransferPlan:
    transfers: tuple[Transfer, ...]
    """src / dst are device indices of the source / target device; `box` global."""
    source_chips: tuple[int, ...]
    target_chips: tuple[int, ...]
    delivered_bytes: int
    lower_bound_bytes: int
    link_hop_bytes: int
    source_bounds: np.ndarray
    """(source devices, rank, 2): each source device's box."""
    target_bounds: np.ndarray
    """(target devices, rank, 2): each target device's box."""

    def chip_pairs(self) -> list[tuple[int, int, int]]:
        """(source chip, target chip, bytes) of every transfer."""
        return [(self.source_chips[t.src], self.target_chips[t.dst], t.bytes) for t in self.transfers]


def plan_stage_transfer(shape: Sequence[int], itemsize: float, source: StagePlacement, target: StagePlacement,
                        system: SystemDesc) -> StageTransferPlan:
    """The fewest-bytes plan moving a `shape` tensor from `source` to `target` (module docstring)."""
    shape = tuple(int(n) for n in shape)
    sb = source.bounds(shape)  # (S, rank, 2)
    tb = target.bounds(shape)  # (T, rank, 2)
    hops = hops_between(system, source.chip_ids, target.chip_ids)  # (S, T)
    # the distinct source pieces, each with the devices holding it (replicas)
    keys, piece_of = np.unique(sb.reshape(len(sb), -1), axis=0, return_inverse=True)
    piece_of = piece_of.reshape(-1)
    pieces = keys.reshape(len(keys), len(shape), 2)
    # per (piece, target device): the overlap box and its volume
    lo = np.maximum(pieces[:, None, :, 0], tb[None, :, :, 0])
    hi = np.minimum(pieces[:, None, :, 1], tb[None, :, :, 1])
    vol = np.prod(np.maximum(hi - lo, 0), axis=-1)  # (P, T)
    # nearest holder of each piece for each target device: unreachable holders never chosen
    far = np.where(hops < 0, np.iinfo(np.int64).max // 4, hops)  # (S, T)
    holders = piece_of[:, None] == np.arange(len(pieces))[None, :]  # (S, P)
    cost = np.where(holders[:, :, None], far[:, None, :], np.iinfo(np.int64).max // 2)  # (S, P, T)
    best = np.argmin(cost, axis=0)  # (P, T): lowest index among the nearest
    p_idx, t_idx = np.nonzero(vol > 0)
    transfers = []
    hop_bytes = 0
    for p, t in zip(p_idx.tolist(), t_idx.tolist()):
        s = int(best[p, t])
        nbytes = int(round(int(vol[p, t]) * itemsize))
        box = tuple((int(a), int(b)) for a, b in zip(lo[p, t], hi[p, t]))
        transfers.append(Transfer(s, t, box, nbytes))
        hop_bytes += nbytes * int(hops[s, t])
    lower = int(round(float(np.prod(tb[:, :, 1] - tb[:, :, 0], axis=-1).sum()) * itemsize))
    delivered = sum(t.bytes for t in transfers)
    return StageTransferPlan(tuple(transfers), tuple(source.chip_ids), tuple(target.chip_ids), delivered, lower,
                             hop_bytes, sb, tb)
