"""The simulated machine: a system of chips, each a grid of cores with an L1 and DRAM banks.

`Machine(system, mesh_shape)` builds one checked allocator per core L1 and per DRAM bank of
every chip, a router over the system's ethernet links and the traffic counters. The program's
device mesh maps onto chips: device d (row-major over `mesh_shape`) is the chip at the same
mesh coordinate of the system (a smaller mesh takes the chips at the origin corner; a mesh of
another shape whose volume fits, like 2x2x2 on a t3k, is a view of the first chips in row-major
chip order).

Host transfers (`write` / `read`) move whole device tensors in and out of mesh buffers and
count host bytes per chip, NOC bytes per chip and DRAM bytes per bank; `send` moves bytes
between chips over routed ethernet hops. Ops bracket their traffic with `op(name)` so that the
time model can charge each op its busiest resource.
"""

from __future__ import annotations

import itertools
import math
import os
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np

from meshc.layout.dtypes import get_dtype
from meshc.layout.errors import LayoutError
from meshc.layout.system import SystemDesc, mesh_view_chips, system as named_system
from meshc.sim.allocator import Allocator, allocate_lockstep
from meshc.sim.links import router_for
from meshc.sim.memory import MeshBuffer, ShardLayout, memory_config as as_memory_config
from meshc.sim.traffic import Traffic


_PARALLEL_BYTES = 8 << 20
"""Host transfers at least this large run one device per host thread (numpy copies release the GIL)."""

_pool: ThreadPoolExecutor | None = None


def _per_device(work, n: int, nbytes_each: int) -> list:
    """[work(i) for i in range(n)], spread over the host's cores when the transfer is large.

    Devices own disjoint buffers, so their copies are independent; strided shard copies are
    latency-bound and run about twice as fast on two threads as on one."""
    global _pool
    workers = min(n, os.cpu_count() or 1)
    if workers < 2 or n * nbytes_each < _PARALLEL_BYTES:
        return [work(i) for i in range(n)]
    if _pool is None:
        _pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="meshc-sim")
    return list(_pool.map(work, range(n)))


@dataclass
class OpRecord:
    name: str
    traffic: Traffic
    seconds: float


class Chip:
    """One chip: an allocator per worker core's L1 and per DRAM bank."""

    def __init__(self, chip_id: int, desc):
        self.id = chip_id
        self.desc = desc
        arch = desc.arch_info
        gy, gx = desc.grid
        self.grid = (gy, gx)
        self.l1 = {(y, x): Allocator(f"the L1 of core ({y}, {x}) of chip {chip_id}", desc.l1_size, arch.l1_alignment)
                   for y in range(gy) for x in range(gx)}
        self.dram = [Allocator(f"DRAM bank {b} of chip {chip_id}", desc.dram_bank_size, arch.dram_alignment)
                     for b in range(desc.dram_banks)]
        self.l1_alignment = arch.l1_alignment
        self.dram_alignment = arch.dram_alignment

    def allocators(self, layout: ShardLayout) -> list[Allocator]:
        if layout.buffer == "dram":
            return [self.dram[b] for b in layout.owners]
        return [self.l1[c] for c in layout.owners]

    @property
    def l1_peak(self) -> int:
        """Peak bytes allocated in any one core's L1."""
        return max(a.peak for a in self.l1.values())

    @property
    def dram_peak(self) -> int:
        return max(a.peak for a in self.dram)


class Machine:
    def __init__(self, system: SystemDesc | str = "n150", mesh_shape: tuple[int, ...] | None = None,
                 chip_ids: tuple[int, ...] | None = None):
        self.system = named_system(system) if isinstance(system, str) else system
        self.chips = [Chip(i, c) for i, c in enumerate(self.system.chips)]
        self.router = router_for(self.system)
        self.traffic = Traffic()
        self.ops: list[OpRecord] = []
        self.buffers: dict[int, MeshBuffer] = {}
        self._ids = itertools.count()
        self.mesh_shape = tuple(mesh_shape) if mesh_shape else tuple(self.system.mesh_shape)
        if chip_ids is not None:
            chip_ids = tuple(int(c) for c in chip_ids)
            if len(chip_ids) != math.prod(self.mesh_shape):
                raise LayoutError(f"{len(chip_ids)} chip ids for a {'x'.join(map(str, self.mesh_shape))} device mesh")
            bad = [c for c in chip_ids if not 0 <= c < len(self.chips)]
            if bad:
                raise LayoutError(f"chip id {bad[0]} is not a chip of the {len(self.chips)}-chip system")
            self.devices = chip_ids
        else:
            self.devices = mesh_view_chips(self.system, self.mesh_shape)

    @property
    def num_devices(self) -> int:
        return len(self.devices)

    # ------------------------------------------------------------------ allocation

    def layout(self, shape, dtype, memory_config=None, tile=None) -> ShardLayout:
        """The placement of a device tensor on one chip (meshc.layout.place); tile None: row-major."""
        chip = self.chips[self.devices[0]]
        return ShardLayout(tuple(int(s) for s in shape), get_dtype(dtype), as_memory_config(memory_config),
                           None if tile is None else tuple(tile), chip.desc.arch)

    def allocate(self, shape, dtype, memory_config=None, name: str = "", devices=None, tile=None) -> MeshBuffer:
        """A mesh buffer holding a `shape` tensor on every device, at one address everywhere."""
        layout = self.layout(shape, dtype, memory_config, tile)
        devs = tuple(self.devices if devices is None else devices)
        allocs = [a for d in devs for a in self.chips[d].allocators(layout)]
        addr = allocate_lockstep(allocs, layout.owner_bytes)
        buf = MeshBuffer(next(self._ids), name or f"buffer{len(self.buffers)}", layout, devs, addr)
        self.buffers[buf.id] = buf
        return buf

    def free(self, buf: MeshBuffer) -> None:
        if buf.freed:
            return
        for d in buf.devices:
            for a in self.chips[d].allocators(buf.layout):
                a.free(buf.address)
        buf.freed = True
        buf._data = None
        del self.buffers[buf.id]

    # ------------------------------------------------------------------ counting

    def _count_local(self, buf: MeshBuffer, device_index: int, write: bool) -> None:
        """Bytes of one device's part of a buffer crossing that chip's NOC (and its DRAM banks)."""
        chip = buf.devices[device_index]
        per_owner = buf.layout.owner_data_bytes()
        self.traffic.noc[chip] += int(per_owner.sum())
        if buf.memory == "dram":
            counter = self.traffic.dram_write if write else self.traffic.dram_read
            for bank, n in zip(buf.layout.owners, per_owner):
                if n:
                    counter[(chip, bank)] += int(n)

    def count_read(self, buf: MeshBuffer, device_index: int) -> None:
        self._count_local(buf, device_index, write=False)

    def count_write(self, buf: MeshBuffer, device_index: int) -> None:
        self._count_local(buf, device_index, write=True)

    def send(self, src_chip: int, dst_chip: int, nbytes: int) -> None:
        """Count `nbytes` over every hop of the ethernet route from src_chip to dst_chip, and once
        as delivered into dst_chip."""
        for hop in self.router.route(src_chip, dst_chip):
            self.traffic.link[hop] += int(nbytes)
        if src_chip != dst_chip:
            self.traffic.delivered[dst_chip] += int(nbytes)

    @contextmanager
    def op(self, name: str):
        """Charge the traffic inside the block to one op of the time model."""
        before = self.traffic.copy()
        try:
            yield
        finally:
            delta = self.traffic - before
            self.ops.append(OpRecord(name, delta, delta.time_estimate()))

    @property
    def time_estimate(self) -> float:
        return sum(o.seconds for o in self.ops)

    # ------------------------------------------------------------------ host transfers

    def write(self, buf: MeshBuffer, shards) -> None:
        """Host -> device: shards[i] (host values) into device i's part of `buf`."""
        layout = buf.layout
        if len(shards) != len(buf.devices):
            raise LayoutError(f"buffer '{buf.name}' spans {len(buf.devices)} devices, got {len(shards)} shards")
        data = buf.data
        shards = [np.asarray(s) for s in shards]
        for i, s in enumerate(shards):
            if tuple(s.shape) != layout.shape:
                raise LayoutError(f"device {i} shard has shape {tuple(s.shape)}, but buffer '{buf.name}' holds "
                                  f"{'x'.join(map(str, layout.shape))} tensors")
        _per_device(lambda i: layout.scatter(shards[i], data[i]), len(shards), layout.nbytes)
        for i in range(len(shards)):
            self.traffic.host_to_device[buf.devices[i]] += layout.nbytes
            self.count_write(buf, i)

    def read(self, buf: MeshBuffer, out: list[np.ndarray] | None = None) -> list[np.ndarray]:
        """Device -> host: every device's tensor of `buf` (host values); `out` may preallocate them."""
        data = buf.data
        n = len(buf.devices)
        result = _per_device(lambda i: buf.layout.gather(data[i], None if out is None else out[i]), n,
                             buf.layout.nbytes)
        for i in range(n):
            self.traffic.device_to_host[buf.devices[i]] += buf.layout.nbytes
            self.count_read(buf, i)
        return result

    def peek(self, buf: MeshBuffer, device_index: int) -> np.ndarray:
        """One device's tensor of `buf` as host values, without counting (a kernel's local read)."""
        return buf.layout.gather(buf.data[device_index])

    def poke(self, buf: MeshBuffer, device_index: int, values: np.ndarray) -> None:
        """Store host values as device `device_index`'s tensor of `buf`, without counting."""
        buf.layout.scatter(np.asarray(values), buf.data[device_index])

    # ------------------------------------------------------------------ reports

    def memory_use(self) -> dict[int, dict[str, int]]:
        """Per chip: peak L1 bytes of its busiest core, L1 bytes in use now (all cores), DRAM peak a bank."""
        out = {}
        for d in sorted(set(self.devices)):
            c = self.chips[d]
            out[d] = {"peak_l1_core": c.l1_peak, "l1_in_use": sum(a.in_use for a in c.l1.values()),
                      "peak_dram_bank": c.dram_peak}
        return out

    @property
    def peak_l1_core(self) -> int:
        return max(c.l1_peak for c in self.chips)
