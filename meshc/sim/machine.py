"""The simulated machine: a system of chips, each a grid of cores with an L1 and DRAM banks.

`Machine(system, mesh_shape)` runs a program's device mesh on a system's chips: device d
(row-major over `mesh_shape`) is the chip at the same mesh coordinate of the system (a smaller
mesh takes the chips at the origin corner; a mesh of another shape whose volume fits, like 2x2x2
on a t3k, is a view of the first chips in row-major chip order). Its memory is real bytes
(meshc/sim/store.py): one byte-addressed array per core L1 and per DRAM bank on every chip of the
mesh, each with a checked allocator; a mesh buffer takes one address in every owner on every chip.
Building a machine touches no per-chip state, so a 4096-chip system costs as little as one chip.

Host transfers go through a TT-Mesh ShardedBufferConfig (`write_host` / `read_host`: every
device's piece is a view of the host tensor, meshc/layout/buffer_pieces.py, and whole shards move
as array slices into the memories) or take one tensor a device (`write` / `read`); they count host
bytes per chip, NOC bytes per chip and DRAM bytes per bank. `send` moves bytes between chips over
routed ethernet hops. Ops bracket their traffic with `op(name)` (and tell what they compute with
`charge_compute` / `charge_collective`) so that the time model (meshc.layout.timemodel) times
each op.

An *abstract* machine (`abstract=True`) allocates and counts exactly as a data machine does but
holds no bytes: transfers only count, and tensors read back are shape-only (zero-stride) arrays.
"""

from __future__ import annotations

import itertools
import os
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field, replace

import numpy as np

from meshc.layout.buffer_pieces import local_view, mesh_pieces
from meshc.layout.dtypes import get_dtype
from meshc.layout.errors import LayoutError
from meshc.layout.hardware import arch_facts
from meshc.layout.system import SystemDesc, mesh_chips, system as named_system
from meshc.layout.timemodel import OpTime, collective_op_time, host_s, traffic_op_time
from meshc.sim.allocator import allocate_lockstep
from meshc.sim.encoding import decode
from meshc.layout.links import router_for
from meshc.sim.memory import MeshBuffer, ShardLayout, as_items, memory_config as as_memory_config, shard_layout
from meshc.sim.store import Memory
from meshc.sim.traffic import Traffic
from meshc.layout.shapes import fmt_shape, fold_2d


_PARALLEL_BYTES = 8 << 20
"""Host transfers at least this large are split over the host's cores (numpy copies release the GIL)."""

_pool: ThreadPoolExecutor | None = None
HOST_WORKERS = min(os.cpu_count() or 1, 4)
"""Threads a large host transfer is split over (the host's cores, at most 4)."""


def _split_run(work, values: np.ndarray, regions: list[np.ndarray], grid: np.ndarray | None, nbytes: int) -> None:
    """work(values, regions, grid), split along the first batch (mesh) axis over the host's cores
    when the transfer is large: the parts write disjoint bytes, and strided shard copies are
    latency-bound, so two threads copy about twice as fast as one."""
    global _pool
    workers = HOST_WORKERS
    n = values.shape[0] if values.ndim else 1
    if nbytes < _PARALLEL_BYTES or workers < 2 or n < 2:
        work(values, regions, grid)
        return
    if _pool is None:
        _pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="meshc-sim")
    cuts = np.linspace(0, n, min(workers, n) + 1).astype(int)
    parts = [(values[a:b], [r[a:b] for r in regions], None if grid is None else grid[:, :, a:b])
             for a, b in zip(cuts[:-1], cuts[1:]) if b > a]
    list(_pool.map(lambda p: work(*p), parts))


@dataclass
class OpRecord:
    name: str
    traffic: Traffic
    seconds: float
    """Device time plus host transfer time (`time.seconds`)."""
    time: OpTime = OpTime()
    """What each resource took (meshc.layout.timemodel)."""


@dataclass
class _Charges:
    """What an op tells the time model beyond its traffic."""

    compute: float = 0.0
    program: bool = False
    readers: int | None = None
    collective: tuple | None = None
    sends: dict = field(default_factory=dict)
    """Per chip, the NoC bytes of a collective's sends (inside its CCL fit, not its NoC time)."""


class Machine:
    def __init__(self, system: SystemDesc | str = "n150", mesh_shape: tuple[int, ...] | None = None,
                 chip_ids: tuple[int, ...] | None = None, abstract: bool = False):
        self.system = named_system(system) if isinstance(system, str) else system
        self.abstract = bool(abstract)
        self.router = router_for(self.system)
        self.traffic = Traffic()
        self.ops: list[OpRecord] = []
        self._charges: _Charges | None = None
        self.buffers: dict[int, MeshBuffer] = {}
        self._ids = itertools.count()
        self._count_keys: dict[tuple, tuple] = {}
        self.mesh_shape = tuple(mesh_shape) if mesh_shape else tuple(self.system.mesh_shape)
        self.devices = mesh_chips(self.system, self.mesh_shape, chip_ids)
        chips = self.system.chips
        self.desc = chips[self.devices[0]]
        kinds = {(c.arch, c.grid, c.l1_size, c.dram_banks, c.dram_bank_size) for c in (chips[d] for d in self.devices)}
        if len(kinds) > 1:
            raise LayoutError("the chips of a mesh must be alike (one architecture, grid and memory size): "
                              "a mesh buffer takes the same address on every chip")
        arch = self.desc.arch_info
        self.arch = arch_facts(self.desc.arch)
        gy, gx = self.grid = tuple(self.desc.grid)
        n = len(self.devices)
        where = f" of chip {self.devices[0]}" + (f" (and of the other {n - 1} chips of the mesh)" if n > 1 else "")
        self.l1 = Memory("l1", [f"the L1 of core ({y}, {x}){where}" for y in range(gy) for x in range(gx)],
                         self.desc.l1_size, arch.l1_alignment, n)
        self.dram = Memory("dram", [f"DRAM bank {b}{where}" for b in range(self.desc.dram_banks)],
                           self.desc.dram_bank_size, arch.dram_alignment, n)

    @property
    def num_devices(self) -> int:
        return len(self.devices)

    # ------------------------------------------------------------------ allocation

    def layout(self, shape, dtype, memory_config=None, tile=None) -> ShardLayout:
        """The placement of a device tensor on one chip (meshc.layout.place); tile None: row-major."""
        return shard_layout(tuple(int(s) for s in shape), get_dtype(dtype), as_memory_config(memory_config),
                            None if tile is None else tuple(int(t) for t in tile), self.desc.arch)

    def _units(self, layout: ShardLayout) -> tuple[Memory, tuple[int, ...]]:
        if layout.buffer == "dram":
            return self.dram, tuple(int(b) for b in layout.owners)
        gx = self.grid[1]
        return self.l1, tuple(y * gx + x for y, x in layout.owners)

    def allocate(self, shape, dtype, memory_config=None, name: str = "", devices=None, tile=None) -> MeshBuffer:
        """A mesh buffer holding a `shape` tensor on every device, at one address everywhere."""
        layout = self.layout(shape, dtype, memory_config, tile)
        if devices is not None and tuple(devices) != tuple(self.devices):
            raise LayoutError("a mesh buffer spans every device of the mesh (lockstep allocation)")
        mem, units = self._units(layout)
        bid = next(self._ids)
        addr = allocate_lockstep([mem.allocators[u] for u in units], layout.owner_bytes, owner=bid)
        buf = MeshBuffer(bid, name or f"buffer{len(self.buffers)}", layout, tuple(self.devices), addr,
                         None if self.abstract else mem, units, mesh=tuple(self.mesh_shape))
        if not self.abstract:  # a new buffer reads as zeros: one shared zero copy until written
            shape = (len(units),) + (1,) * len(self.mesh_shape) + (layout.owner_bytes,)
            buf.share(np.broadcast_to(np.zeros((), np.uint8), shape))  # no bytes at all
            buf.blank = True
        self.buffers[buf.id] = buf
        return buf

    def free(self, buf: MeshBuffer) -> None:
        if buf.freed:
            return
        mem, units = self._units(buf.layout)
        for u in units:
            mem.allocators[u].free(buf.address)
        buf.freed = True
        if buf.store is not None:
            buf.share(None)
        del self.buffers[buf.id]

    # ------------------------------------------------------------------ counting

    def _keys(self, buf: MeshBuffer, rows: tuple[int, ...] | None) -> tuple:
        """(chip keys, per-chip bytes, (chip, bank) keys, their bytes) of a transfer of `buf` on
        the devices `rows` (all when None); built once a layout and device set."""
        key = (id(buf.layout), rows)
        hit = self._count_keys.get(key)
        if hit is None or hit[0] is not buf.layout:
            chips = tuple(buf.devices[i] for i in (range(len(buf.devices)) if rows is None else rows))
            per = buf.layout.owner_data
            total = sum(per)
            banks = ((), ())
            if buf.memory == "dram":
                nz = [(b, n) for b, n in zip(buf.layout.owners, per) if n]
                banks = (tuple((c, b) for c in chips for b, _ in nz), tuple(n for _ in chips for _, n in nz))
            hit = (buf.layout, chips, (total,) * len(chips), buf.layout.nbytes, banks)
            self._count_keys[key] = hit
        return hit[1:]

    def _count(self, buf: MeshBuffer, write: bool, rows: tuple[int, ...] | None = None, host: bool = False) -> None:
        """Count a transfer of `buf` on the devices `rows`: its pages cross each chip's NOC, and
        DRAM banks are written / read; `host` adds the host link bytes."""
        chips, per_chip, nbytes, (bank_keys, bank_bytes) = self._keys(buf, rows)
        t = self.traffic
        t.add_many("noc", chips, per_chip)
        if bank_keys:
            t.add_many("dram_write" if write else "dram_read", bank_keys, bank_bytes)
        if host:
            hb = self._count_keys.setdefault(("host", nbytes, len(chips)), (nbytes,) * len(chips))
            t.add_many("host_to_device" if write else "device_to_host", chips, hb)

    def count_read(self, buf: MeshBuffer, device_index: int) -> None:
        self._count(buf, False, (device_index,))

    def count_write(self, buf: MeshBuffer, device_index: int) -> None:
        self._count(buf, True, (device_index,))

    def count_all(self, buf: MeshBuffer, write: bool) -> None:
        """Every device reads (or writes) its whole tensor of `buf`."""
        self._count(buf, write)

    def send(self, src_chip: int, dst_chip: int, nbytes: int) -> None:
        """Count `nbytes` over every hop of the ethernet route from src_chip to dst_chip, and once
        as delivered into dst_chip."""
        n = int(nbytes)
        link = self.traffic.counter("link")
        for hop in self.router.route(src_chip, dst_chip):
            link[hop] += n
        if src_chip != dst_chip:
            self.traffic.counter("delivered")[dst_chip] += n

    @contextmanager
    def op(self, name: str):
        """Charge the traffic inside the block (and what `charge_*` says) to one op of the time model."""
        before = self.traffic.copy()
        outer, self._charges = self._charges, _Charges()
        try:
            yield
        finally:
            charges, self._charges = self._charges, outer
            delta = self.traffic - before
            t = self.op_time(delta, charges)
            self.ops.append(OpRecord(name, delta, t.seconds, t))

    def charge_compute(self, seconds: float, dram_readers: int | None = None) -> None:
        """The current op runs a device program computing for `seconds` (meshc.layout.timemodel);
        `dram_readers`: the cores that stream its DRAM operands (a matmul's one row)."""
        if self._charges is not None:
            self._charges.compute += seconds
            self._charges.program = True
            if dram_readers is not None:
                self._charges.readers = dram_readers

    def charge_collective(self, kind: str, topology: str, n: int, input_bytes: float) -> None:
        """The current op is the collective `kind` over groups of `n` devices (`topology` line or
        ring), each device's input `input_bytes`: its ethernet time is the CCL model's."""
        if self._charges is not None:
            self._charges.collective = (kind, topology, n, input_bytes)

    def charge_send(self, a: int, b: int, nbytes: int) -> None:
        """A collective's send of `nbytes` from chip a to chip b crossed both chips' NoCs."""
        if self._charges is not None:
            s = self._charges.sends
            s[a], s[b] = s.get(a, 0) + nbytes, s.get(b, 0) + nbytes

    def op_time(self, t: Traffic, charges: _Charges | None = None) -> OpTime:
        """One op's time (meshc.layout.timemodel): compute as charged; DRAM and NOC of the
        busiest chip; a charged collective as alpha-beta, other link traffic as its busiest link
        direction; host bytes over the system's host links; a device program's launch. A charged
        collective is `collective_op_time` of its busiest chip's DRAM and NoC bytes, its sends' NoC
        bytes (`charge_send`) taken out."""
        c = charges or _Charges()
        arch = self.arch
        per_chip: dict = {}
        for (chip, _bank), v in list(t.dram_read.items()) + list(t.dram_write.items()):
            per_chip[chip] = per_chip.get(chip, 0) + v
        cores, links = self.grid[0] * self.grid[1], self.system.links_per_pair
        hosts = min(self.system.host_links or self.num_devices, self.num_devices)
        host = host_s(arch, t.host_bytes, hosts)
        if c.collective is not None:  # the CCL fit holds its sends' NoC moves
            own = max((v - c.sends.get(k, 0) for k, v in t.noc.items()), default=0)
            ot = collective_op_time(arch, *c.collective, links, max(per_chip.values(), default=0), own, cores)
            return replace(ot, compute=c.compute, host=host)
        on_chip = bool(t.noc or t.dram_read or t.dram_write)
        return traffic_op_time(arch, max(per_chip.values(), default=0), max(t.noc.values(), default=0), cores,
                               max(t.link.values(), default=0), links, c.program or (on_chip and not t.host_bytes),
                               c.compute, c.readers, host)

    @property
    def time_estimate(self) -> float:
        """Device time plus host transfer time of every op, in program order."""
        return sum(o.seconds for o in self.ops)

    @property
    def device_time(self) -> float:
        return sum(o.time.device_s for o in self.ops)

    @property
    def host_time(self) -> float:
        return sum(o.time.host for o in self.ops)

    # ------------------------------------------------------------------ host transfers

    def blank(self, shape, dtype) -> np.ndarray:
        """A shape-only tensor (zero strides, no bytes): what an abstract run holds for data."""
        return np.broadcast_to(np.zeros((), get_dtype(dtype).host_dtype), tuple(shape))

    @staticmethod
    def _views(buf: MeshBuffer, mesh: tuple[int, ...], readers: tuple[int, ...] | None = None):
        """(regions, grid) of `buf` with the device axis split into the mesh axes (views into the
        memory, cached while they stay valid); with `readers` (replicated mesh axes), only index
        0 along those axes."""
        def build():
            regions = [r.reshape(tuple(mesh) + r.shape[1:]) for r in buf.regions()]
            g = buf.grid()
            if g is not None:
                g = g.reshape(g.shape[:2] + tuple(mesh) + g.shape[3:])
            if readers:
                idx = tuple(slice(0, 1) if a in readers else slice(None) for a in range(len(mesh)))
                regions = [r[idx] for r in regions]
                g = None if g is None else g[(slice(None), slice(None)) + idx]
            return regions, g
        return buf.cached(("views", tuple(mesh), readers), build)

    def _plan(self, buf: MeshBuffer, config, host: np.ndarray, write: bool):
        """A small transfer's copies, recorded once per buffer, config and host array geometry:
        per copy the memory side (a view) and the host side as (byte offset, shape, strides,
        item dtype) of the host array, so a repeated transfer only rebuilds one host view a copy.
        None when the transfer cannot be recorded (encoded types, a host array that is not
        C-contiguous, copies that are not whole rows)."""
        layout = buf.layout
        if (host.dtype != layout.stored or not host.flags.c_contiguous
                or layout.nbytes * self.num_devices >= _PARALLEL_BYTES):
            return None
        key = ("plan", write, config, host.shape, host.dtype.str)

        def build():
            pieces = mesh_pieces(config, self.mesh_shape)
            mesh = pieces.mesh_shape
            view = pieces.view(host, readers=not write)
            if view is None:
                return None
            vals = local_view(view, len(mesh), layout.shape)
            _, grid = self._views(buf, mesh, None if write else pieces.replicated_axes)
            if grid is None:
                return None
            t = vals.reshape(vals.shape[: len(mesh)] + fold_2d(layout.shape))
            base = host.ctypes.data
            steps = []
            for mem, hv in layout.shard_pairs(t, grid):
                mi, hi = as_items(mem), as_items(hv)
                if mi is None or hi is None:
                    return None
                steps.append((mi, (hi.ctypes.data - base, hi.shape, hi.strides, hi.dtype)))
            return steps

        return buf.cached(key, build)

    @staticmethod
    def _run_plan(plan, host: np.ndarray, write: bool) -> None:
        for mem, (offset, shape, strides, dt) in plan:
            h = np.ndarray(shape, dt, buffer=host, offset=offset, strides=strides)
            if write:
                mem[...] = h
            else:
                h[...] = mem

    def write_host(self, buf: MeshBuffer, tensor: np.ndarray, config, borrow: bool = False) -> None:
        """Host -> device through a ShardedBufferConfig (2D or ND): device d receives the piece
        the config gives it, moved shard by shard into its owners' bytes (or held as values
        until bytes are looked at, `_write_held`). `borrow`: the caller never changes `tensor`
        while the buffer may hold it (an interpreter's SSA value), so the buffer may hold views
        of its pieces instead of a copy."""
        if not self.abstract and self._write_held(buf, tensor, config, borrow):
            self._count(buf, True, host=True)
            return
        if not self.abstract and isinstance(tensor, np.ndarray):
            plan = self._plan(buf, config, tensor, True)
            if plan is not None:
                self._run_plan(plan, tensor, True)
                self._count(buf, True, host=True)
                return
        pieces = mesh_pieces(config, self.mesh_shape)
        if not self.abstract:
            layout = buf.layout
            vals = local_view(pieces.stacked(tensor), len(pieces.mesh_shape), layout.shape)
            regions, grid = self._views(buf, pieces.mesh_shape)
            _split_run(lambda v, rg, g: layout.scatter(v, rg, g), vals, regions, grid,
                       layout.nbytes * self.num_devices)
        self._count(buf, True, host=True)

    def _write_held(self, buf: MeshBuffer, tensor, config, borrow: bool = False) -> bool:
        """Host -> device as held values (MeshBuffer.hold): each distinct piece once for the
        chips along mesh axes that the config gives the same piece, laid out in pages only when
        bytes are looked at; a copy of it, or with `borrow` the view of the tensor itself.
        Taken when borrowing, when some chips share a piece, or when the layout encodes (tiles,
        block floats); otherwise (a row-major layout, one piece a chip, a copy in any case) the
        pieces go straight to the bytes. False: not taken (or the pieces are no view of the
        tensor)."""
        pieces = mesh_pieces(config, self.mesh_shape)
        mesh = tuple(pieces.mesh_shape)
        rep = [a for a in pieces.replicated_axes if mesh[a] > 1]
        if mesh != tuple(self.mesh_shape) or not (borrow or rep or not buf.layout.fast):
            return False
        view = pieces.view(np.asarray(tensor))
        if view is None:
            return False
        one = tuple(slice(0, 1) if a in rep else slice(None) for a in range(len(mesh)))
        vals = local_view(view[one], len(mesh), buf.layout.shape)
        pattern = vals.shape[: len(mesh)]
        if not borrow:
            vals = np.array(vals)  # the devices' copy: the host may change its tensor afterwards
        buf.hold(pattern, [vals[idx + (...,)] for idx in np.ndindex(*pattern)])  # (a 0-d piece stays an array)
        return True

    def _shared_values(self, buf: MeshBuffer, raw: bool = False) -> list[np.ndarray]:
        """The distinct tensors of a buffer that holds its own bytes, one a position of its
        pattern (row-major), each read on its own (no batch of them decoded at once)."""
        return [self._piece(buf, idx, raw) for idx in np.ndindex(*buf.shared.shape[1:-1])]

    def _piece(self, buf: MeshBuffer, idx: tuple, raw: bool = False) -> np.ndarray:
        """The tensor at position `idx` of the pattern of a buffer holding its own bytes."""
        kept = buf.values.get(int(np.ravel_multi_index(idx, buf.shared.shape[1:-1]))) if idx else buf.values.get(0)
        if kept is not None and (not raw or kept.dtype == buf.layout.stored):
            return kept
        regions, grid = buf.shared_views(tuple(slice(i, i + 1) for i in idx))
        flat = [r.reshape((1, r.shape[-1])) for r in regions]
        g = None if grid is None else grid.reshape(grid.shape[:2] + (1, grid.shape[-1]))
        return buf.layout.gather(flat, raw=raw, grid=g)[0]

    def _device_index(self, buf: MeshBuffer, device_index: int) -> tuple:
        """Device `device_index`'s index into the pattern of a buffer holding its own bytes."""
        coords = np.unravel_index(device_index, self.mesh_shape)
        return tuple(int(c) if p > 1 else 0 for c, p in zip(coords, buf.shared.shape[1:-1]))

    def _pattern_position(self, buf: MeshBuffer, device_index: int) -> int:
        """Device `device_index`'s position in the row-major order of its buffer's pattern."""
        return int(np.ravel_multi_index(self._device_index(buf, device_index), buf.shared.shape[1:-1]))

    def peek_all(self, buf: MeshBuffer) -> list[np.ndarray]:
        """Every device's tensor of `buf` as host values, without counting: chips that share
        bytes get the same array object (decoded once)."""
        if self.abstract or buf.shared is None:
            return [self.peek(buf, i) for i in range(len(buf.devices))]
        buf.check_live()
        vals = self._shared_values(buf)
        return [vals[self._pattern_position(buf, i)] for i in range(len(buf.devices))]

    def poke_all(self, buf: MeshBuffer, vals: list[np.ndarray]) -> None:
        """Store vals[i] as device i's tensor of `buf`, without counting: held as values until
        bytes are looked at (MeshBuffer.hold; the buffer takes the arrays, which the caller
        must not change afterwards). Devices whose values are the same array object along a
        mesh axis share one of them."""
        if self.abstract:
            return
        mesh = tuple(self.mesh_shape)
        ids = np.array([id(v) for v in vals], np.int64).reshape(mesh)
        rep = [a for a in range(len(mesh)) if mesh[a] > 1 and (ids == ids.take([0], axis=a)).all()]
        one = tuple(slice(0, 1) if a in rep else slice(None) for a in range(len(mesh)))
        distinct = np.arange(len(vals)).reshape(mesh)[one]
        buf.hold(distinct.shape, [vals[i] for i in distinct.reshape(-1)])

    def read_host(self, buf: MeshBuffer, config, full_shape, out: np.ndarray | None = None) -> np.ndarray:
        """Device -> host through a ShardedBufferConfig: the host tensor assembled from the pieces
        (a piece on several devices is read from the first); `out` (the stored element type,
        e.g. float32 for f32) may receive it."""
        self._count(buf, False, host=True)
        layout = buf.layout
        full = tuple(int(n) for n in full_shape)
        if self.abstract:
            return self.blank(full, layout.dtype)
        pieces = mesh_pieces(config, self.mesh_shape)
        st = layout.stored if layout.fast else layout.dtype.host_dtype
        if out is None or out.dtype != st or out.shape != full or not out.flags.c_contiguous:
            out = np.empty(full, st)
        if (buf.shared is not None and (buf.shared.shape[1:-1] != tuple(self.mesh_shape) or buf.pending is not None)
                and self._read_shared(buf, pieces, out)):
            return decode(out, layout.dtype) if layout.fast else out
        plan = self._plan(buf, config, out, False)
        if plan is not None:
            self._run_plan(plan, out, False)
            return decode(out, layout.dtype)
        view = pieces.view(out, readers=True)
        mesh = pieces.mesh_shape
        if view is not None:
            dst = local_view(view, len(mesh), layout.shape)
            regions, grid = self._views(buf, mesh, pieces.replicated_axes)
            _split_run(lambda v, rg, g: layout.gather(rg, out=v, raw=True, grid=g), dst, regions, grid,
                       layout.nbytes * self.num_devices)
        else:
            regions, grid = self._views(buf, mesh)
            vals = layout.gather(regions, raw=True, grid=grid)
            pieces.assemble(vals.reshape(tuple(mesh) + pieces.block), out)
        return decode(out, layout.dtype) if layout.fast else out

    def _read_shared(self, buf: MeshBuffer, pieces, out: np.ndarray) -> bool:
        """Device -> host of a shared buffer without copying it to the chips: each distinct piece
        written into its place in `out` (False when the pieces are no view of `out`)."""
        mesh = tuple(pieces.mesh_shape)
        view = pieces.view(out, readers=True) if mesh == tuple(self.mesh_shape) else None
        if view is None:
            return False
        buf.check_live()
        dst = local_view(view, len(mesh), buf.layout.shape)
        pattern = buf.shared.shape[1:-1]
        for idx in np.ndindex(*pattern):  # each piece into every reader it is the piece of
            at = tuple(slice(None) if p == 1 else slice(i, i + 1) for i, p in zip(idx, pattern))
            target = dst[at]
            if target.size:
                target[...] = self._piece(buf, idx, raw=buf.layout.fast)
        return True

    def write(self, buf: MeshBuffer, shards) -> None:
        """Host -> device: shards[i] (host values) into device i's part of `buf`."""
        layout = buf.layout
        if len(shards) != len(buf.devices):
            raise LayoutError(f"buffer '{buf.name}' spans {len(buf.devices)} devices, got {len(shards)} shards")
        for i, s in enumerate(shards):
            if tuple(np.shape(s)) != layout.shape:
                raise LayoutError(f"device {i} shard has shape {tuple(np.shape(s))}, but buffer '{buf.name}' holds "
                                  f"{fmt_shape(layout.shape)} tensors")
        if not self.abstract:  # the devices' copy (one an array object): the host may change its arrays
            copies: dict[int, np.ndarray] = {}
            self.poke_all(buf, [copies.setdefault(id(s), np.array(s)) for s in shards])
        self._count(buf, True, host=True)

    def read(self, buf: MeshBuffer, out=None) -> list[np.ndarray]:
        """Device -> host: every device's tensor of `buf` (host values)."""
        self._count(buf, False, host=True)
        if self.abstract:
            return [self.blank(buf.layout.shape, buf.layout.dtype)] * len(buf.devices)
        if buf.shared is not None and (buf.shared.shape[1:-1] != tuple(self.mesh_shape) or buf.pending is not None):
            return [np.array(v) for v in self.peek_all(buf)]  # the host gets one array a device
        vals = buf.layout.gather(buf.regions(), grid=buf.grid())
        return list(vals)

    def peek(self, buf: MeshBuffer, device_index: int) -> np.ndarray:
        """One device's tensor of `buf` as host values, without counting (a kernel's local read)."""
        if self.abstract:
            return self.blank(buf.layout.shape, buf.layout.dtype)
        if buf.shared is not None:  # read in place, not copied to the chips
            buf.check_live()
            v = self._piece(buf, self._device_index(buf, device_index))
            return v if v.flags.writeable else np.array(v)  # the caller's own array
        rows = slice(device_index, device_index + 1)
        return buf.layout.gather(buf.regions(rows), grid=buf.grid(rows))[0]

    def poke(self, buf: MeshBuffer, device_index: int, values: np.ndarray) -> None:
        """Store host values as device `device_index`'s tensor of `buf`, without counting."""
        if self.abstract:
            return
        v = np.asarray(values)
        if buf.pending is not None:  # still values: replace this device's (a copy of them)
            buf.check_live()
            vals = [buf.pending[self._pattern_position(buf, d)] for d in range(len(buf.devices))]
            vals[device_index] = np.array(v.reshape(buf.layout.shape))
            buf.hold(tuple(self.mesh_shape), vals)
            return
        rows = slice(device_index, device_index + 1)
        buf.layout.scatter(v.reshape((1,) + buf.layout.shape), buf.regions(rows), buf.grid(rows))

    # ------------------------------------------------------------------ reports

    def core_report(self) -> dict[tuple[int, int], dict[str, float]]:
        """Per core (y, x) of every chip of the mesh (all alike: lockstep): peak L1 bytes and the
        worst external fragmentation (1 - largest free block / free bytes)."""
        gx = self.grid[1]
        return {divmod(u, gx): {"peak": a.peak, "fragmentation": round(a.peak_fragmentation, 4)}
                for u, a in enumerate(self.l1.allocators)}

    def memory_use(self) -> dict[int, dict]:
        """Per chip: peak L1 bytes of its busiest core, L1 bytes in use now (all cores), DRAM peak a
        bank, and per core its peak and fragmentation (`cores`, one dict shared by the chips)."""
        summary = {"peak_l1_core": self.peak_l1_core,
                   "l1_in_use": sum(a.in_use for a in self.l1.allocators),
                   "peak_dram_bank": max(a.peak for a in self.dram.allocators),
                   "peak_l1_fragmentation": max(a.peak_fragmentation for a in self.l1.allocators)}
        cores = self.core_report()
        return {d: {**summary, "cores": cores} for d in sorted(set(self.devices))}

    @property
    def peak_l1_core(self) -> int:
        return max(a.peak for a in self.l1.allocators)
