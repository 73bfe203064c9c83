"""`ttmetal-optimize-memory`: choose where every mesh buffer of a TTMetal program lives.

Per mesh buffer (a `ttmetal.create_buffer`, live to its `deallocate_buffer`), one of L1 height-,
width- or block-sharded, L1 interleaved, DRAM interleaved or DRAM sharded
(`meshc.layout.memory_options`, the buffer's own place first), chosen by
`meshc.layout.memory_plan`'s search (greedy in program order, then the L1 spill sweep) to
minimise the modelled time within every core's L1 over the buffers' live ranges, as
ttnn-optimize-memory does for a ttnn program (docs/passes.md).

A TTMetal kernel reads and writes blocks by its program's grid (`read_tiles` / `write_tiles`
selectors), wherever the buffer's bytes sit: a buffer's memory config decides only which of the
bytes a core touches cross the NoC or come from DRAM banks, never what is computed. So a
program's time under a choice is its block traffic as the simulator counts it
(`meshc.layout.kernel_traffic.block_traffic`) and its compute and DRAM readers as the simulator
charges them (`meshc.dialects.ttmetal_program`, `kernel_compute_s`, `matmul_dram_readers`): each
program op carries that time as its `PlanOp.time` (`ProgramTime`). A collective of the CCL fit
(all_gather, reduce_scatter, all_reduce, all_to_all) is timed as the simulator times it,
`timemodel.collective_op_time` of its charge (`layout.collectives.collective_charge` on the
function's chips) and its two buffers' bytes under their options (`CclTime`): its ethernet time
is the same in every place, its DRAM and NoC terms are not, and its time is the slowest of the
three. Another collective (all_slice, collective_permute, point_to_point) is timed as the
simulator times any other op, `timemodel.traffic_op_time` of its buffers' bytes and of the
sends the simulator makes for it over the routes it takes (`layout.links.send_loads`,
`MoveTime`). Host transfers, constants and stage transfers move their buffers whole and are
timed by the plan's own model. The
`#ttnn.sharded_buffer_config` of a transfer says how the host tensor is cut over the mesh, not
where a device's piece sits on the chip, so it stays as it is.

The choice is written into the create_buffer's `memory_config`. A buffer that no place holds,
not even DRAM, is a located error at its create_buffer naming it and why each place refuses it.
`meshc-run --report` explains where each buffer sits and why (`program_of` here).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import VerifyException

from meshc.dialects import ttmetal
from meshc.dialects.tt.module import (
    DEVICES_ATTR,
    enclosing_module,
    module_device,
    module_mesh_shape,
    stage_device,
    system_or_default,
)
from meshc.dialects.shape_rules import check_permute_pairs
from meshc.dialects.ttir.base import collective_args
from meshc.dialects.ttir.reshard import transfer_rows
from meshc.dialects.ttmetal_program import kernel_tile_ops, matmul_weight_buffers, physical_cores
from meshc.errors import LocatedError, location_of
from meshc.layout.collectives import collective, collective_charge, link_bytes
from meshc.layout.dtypes import get_dtype
from meshc.layout.errors import LayoutError
from meshc.layout.hardware import ARCH_FACTS
from meshc.layout.kernel_traffic import block_traffic
from meshc.layout.links import router_for, send_loads
from meshc.layout.memory_options import tensor_options
from meshc.layout.memory_plan import PlanError, PlanOp, PlanTensor, Unplaceable, plan_memory
from meshc.layout.placement import place
from meshc.layout.system import get_arch, mesh_chips
from meshc.layout.timemodel import (
    CCL_KINDS,
    OpTime,
    collective_op_time,
    kernel_compute_s,
    matmul_dram_readers,
    traffic_op_time,
)
from meshc.passes.lowering_utils import chip_grid
from meshc.passes.ttnn_check_l1 import (
    DeviceTensor,
    device_buffers,
    live_tensor,
    module_dram,
    module_l1,
    place_tensor,
    tensor_name,
)

_FROM_HOST = (ttmetal.EnqueueWriteBufferOp, ttmetal.EnqueueWriteShardsOp, ttmetal.EnqueueWriteConstantOp)
_TO_HOST = (ttmetal.EnqueueReadBufferOp, ttmetal.EnqueueReadShardsOp)
_NO_TIME = (ttmetal.CreateBufferOp, ttmetal.DeallocateBufferOp, ttmetal.FinishOp)


class ProgramTime:
    """The time of one `ttmetal.enqueue_program` given its buffers' options (a `PlanOp.time`):
    the launch + max(compute, DRAM, NoC) + the unoverlapped part, its NoC and DRAM bytes the
    blocks its kernel reads and writes of each buffer under that buffer's option, as the
    simulator counts them; its compute as the simulator charges it."""

    def __init__(self, arch: str, chip_cores: int, op: ttmetal.EnqueueProgramOp, tensors: tuple, placements: dict):
        self.arch, self.facts = arch, ARCH_FACTS[get_arch(arch).name]
        self.chip_cores, self.grid, self.phys = chip_cores, op.core_grid(), physical_cores(op)
        self.accesses, self.tensors, self.placements = _accesses(op), tensors, placements
        self.compute = kernel_compute_s(self.facts, kernel_tile_ops(op))
        self.weights = matmul_weight_buffers(op)
        self.memo: dict = {}

    def placement(self, k: int, opt):
        """The placement model's Placement of buffer operand k held by `opt` (an option is one
        shape's: made once for every program)."""
        p = self.placements.get(opt)
        if p is None:
            t = self.tensors[k]
            p = self.placements[opt] = place(t.shape, get_dtype(t.dtype), opt.config, tile=opt.tile, arch=self.arch)
        return p

    def traffic(self, k: int, opt) -> tuple[int, int]:
        """(NoC bytes, DRAM bytes) of buffer operand k's blocks with it held by `opt`."""
        key = (k, opt)
        hit = self.memo.get(key)
        if hit is None:
            noc = dram = 0
            for select in self.accesses[k]:
                n, d = block_traffic(self.placement(k, opt), self.grid, select, self.phys)
                noc, dram = noc + n, dram + int(d.sum())
            hit = self.memo[key] = (noc, dram)
        return hit

    def __call__(self, options: list) -> OpTime:
        noc = dram = 0
        for k, opt in enumerate(options):
            if opt is not None and self.accesses[k]:
                n, d = self.traffic(k, opt)
                noc, dram = noc + n, dram + d
        readers = None
        for k in self.weights:  # the readers of the last matmul's DRAM operands, as the simulator's
            opt = options[k] if k is not None else None
            sharded = opt is not None and opt.dram and not opt.interleaved  # a DRAM-sharded B: a core a bank
            readers = matmul_dram_readers(self.grid, len(self.placement(k, opt).owners) if sharded else None)
        return traffic_op_time(self.facts, dram, noc, self.chip_cores, compute=self.compute, readers=readers)


class MoveTime:
    """The time of one `ttmetal.enqueue_ccl` of another kind (all_slice, collective_permute,
    point_to_point) given its input's and output's options (a `PlanOp.time`): the simulator's
    (`traffic_op_time`): every chip reads its input and writes its output, its sends (none for
    all_slice) cross their routes' links and both end chips' NoCs (`layout.links.send_loads`:
    `link` bytes on the busiest link direction, `sends` NoC bytes on the busiest chip), and it
    launches."""

    def __init__(self, arch: str, chip_cores: int, link: int, sends: int, links: int):
        self.facts, self.cores = ARCH_FACTS[get_arch(arch).name], chip_cores
        self.link, self.sends, self.links = link, sends, links
        self.key = ("move", link, sends, links)

    def __call__(self, options: list) -> OpTime:
        held = [o for o in options if o is not None]
        return traffic_op_time(self.facts, sum(o.nbytes for o in held if o.dram), sum(o.nbytes for o in held) + self.sends,
                               self.cores, self.link, self.links)


class CclTime:
    """The time of one `ttmetal.enqueue_ccl` of CCL_KINDS given its input's and output's options
    (a `PlanOp.time`): the simulator's (`collective_op_time`), every chip reading its input and
    writing its output, over its NoC and, for a buffer in DRAM, its DRAM banks."""

    def __init__(self, arch: str, chip_cores: int, charge: tuple, links: int):
        self.facts, self.cores, self.charge, self.links = ARCH_FACTS[get_arch(arch).name], chip_cores, charge, links
        self.key = ("ccl", charge, links)

    def __call__(self, options: list) -> OpTime:
        held = [o for o in options if o is not None]
        return collective_op_time(self.facts, *self.charge, self.links, sum(o.nbytes for o in held if o.dram),
                                  sum(o.nbytes for o in held), self.cores)


def _on_mesh(op, pairs, ndevices: int) -> None:
    """The (source, target) device pairs `op` sends between are on its mesh of `ndevices`, else
    the verifier's located error (the plan runs before the lowered module is verified)."""
    try:
        check_permute_pairs([(s, t) for s, t in pairs], ndevices)
    except VerifyException as e:
        if "more than one pair" not in str(e):  # repeated devices are the verifier's to judge
            raise LocatedError(str(e), op) from None


def ccl_time(op, tensor: PlanTensor, arch: str, chip_cores: int, kind: str | None = None) -> CclTime | MoveTime | None:
    """The time of a collective reading `tensor` (None for a kind the simulator has no traffic
    model of): a `CclTime` for CCL_KINDS, its group's topology on the chips its function runs on,
    as the simulator's Machine places them; else a `MoveTime` of the sends the simulator makes
    (a point_to_point's transfers, a collective_permute's whole tensor a pair of chips). `op` is a
    `ttmetal.enqueue_ccl` (`kind` None: its own) or a ttnn collective of `kind`
    (ttnn-optimize-memory times those the same way)."""
    kind = op.kind.data if kind is None else kind
    f = op.parent_op()
    while not isinstance(f, func.FuncOp):
        f = f.parent_op()
    module = enclosing_module(f)
    system = system_or_default(module)
    dev = stage_device(f) if DEVICES_ATTR in module.attributes else module_device(module)
    mesh = tuple(dev.mesh_shape) if dev is not None else (module_mesh_shape(module) or (1,))
    chips = mesh_chips(system, mesh, None if dev is None else dev.chip_ids)
    eb = get_dtype(tensor.dtype).element_bytes
    if kind == "point_to_point":
        rows = transfer_rows(op.attributes["transfers"], len(tensor.shape))
        _on_mesh(op, [(int(r[1]), int(r[2])) for r in rows], len(chips))
        sends = [(chips[r[1]], chips[r[2]], link_bytes(int(np.prod(r[4::2] - r[3::2])), eb)) for r in rows]
    else:
        args = collective_args(op, collective(kind), len(tensor.shape))
        if kind in CCL_KINDS:
            charge = collective_charge(kind, mesh, args.axis, chips, frozenset(system.links),
                                       math.prod(tensor.shape), eb)
            return CclTime(arch, chip_cores, charge, system.links_per_pair)
        if kind == "collective_permute":  # a chip sending to itself (or nothing) moves nothing
            n = link_bytes(math.prod(tensor.shape), eb)
            _on_mesh(op, args.pairs, len(chips))
            sends = [(chips[a], chips[b], n) for a, b in args.pairs if chips[a] != chips[b] and n]
        elif not collective(kind).moves_data:
            sends = []
        else:
            return None
    link, noc = send_loads(router_for(system), sends)
    return MoveTime(arch, chip_cores, link, max(noc.values(), default=0), system.links_per_pair)


def _accesses(op: ttmetal.EnqueueProgramOp) -> tuple:
    """Per buffer operand, the selectors of every read_tiles / write_tiles of it in the kernel."""
    args = {a: k for k, a in enumerate(op.body.block.args)}
    out: list[list] = [[] for _ in args]
    for o in op.body.block.ops:
        if isinstance(o, (ttmetal.ReadTilesOp, ttmetal.WriteTilesOp)) and o.buffer in args:
            out[args[o.buffer]].append(o.selectors())
    return tuple(tuple(a) for a in out)


def chip_cores(module: ModuleOp) -> int:
    """The worker cores of the module's chip (`lowering_utils.chip_grid`: its `#tt.system_desc`'s,
    else 8x8, the default wormhole_b0's)."""
    gy, gx = chip_grid(module)
    return gy * gx


def buffer_name(t: DeviceTensor, i: int, source: str | None = None) -> str:
    """How messages and the report name the i-th buffer of a function: its SSA name when it has
    one, else its place among the create_buffers ("buffer 0" first); with its shape and type, and
    where its value comes from: `source` (the host argument written into it), else the line of
    its create_buffer's location (the ttir op it was lowered from, or its own line in a file read
    already lowered) when known."""
    name = tensor_name(t)
    if t.value.name_hint:
        return name
    loc = location_of(t.op)
    where = f", {source} from the host" if source else (f", line {loc[1]}" if loc else "")
    return f"buffer {i}" + name[name.rindex(" ("):-1] + where + ")"


def program_of(buffers: list[DeviceTensor], block, arch: str, chip_cores: int) -> tuple[list[PlanTensor], list[PlanOp]]:
    """The mesh buffers and the ops touching them of one ttmetal function body, for the plan."""
    plan_tensors = []
    index = {}
    hosted = {o.buffer: f"%{o.input.name_hint}" for o in block.ops
              if isinstance(o, ttmetal.EnqueueWriteBufferOp) and o.input.name_hint}
    for i, t in enumerate(buffers):
        lt = live_tensor(t)
        dtype = str(getattr(lt.dtype, "name", lt.dtype))
        plan_tensors.append(PlanTensor(buffer_name(t, i, hosted.get(t.value)), lt.shape, dtype, lt.tile,
                                       t.start, t.end, lt.config))
        index[t.value] = i
    ops = []
    timers: dict = {}
    placements: dict = {}
    for o in block.ops:
        if isinstance(o, _NO_TIME):
            continue
        bufs = tuple(index.get(v, -1) for v in o.operands)
        if all(i < 0 for i in bufs):
            continue
        if isinstance(o, ttmetal.EnqueueProgramOp):
            operands = tuple(plan_tensors[i] if i >= 0 else None for i in bufs)
            timer = ProgramTime(arch, chip_cores, o, operands, placements)
            key = (timer.grid, timer.phys.tobytes(), timer.accesses, timer.compute, tuple(timer.weights),
                   tuple((t.shape, t.dtype) if t else None for t in operands))
            timer = timers.setdefault(key, timer)  # programs alike share one timer (and the plan's memo)
            ops.append(PlanOp(None, bufs, (), time=timer))
        elif isinstance(o, _FROM_HOST):
            ops.append(PlanOp(None, (-1,), tuple(i for i in bufs if i >= 0)))
        elif isinstance(o, _TO_HOST):
            ops.append(PlanOp(None, bufs, (-1,)))
        elif isinstance(o, ttmetal.EnqueueCclOp):
            timer = ccl_time(o, plan_tensors[bufs[0]], arch, chip_cores) if bufs[0] >= 0 else None
            if timer is not None:  # collectives alike share one timer
                timer = timers.setdefault(timer.key, timer)
            ops.append(PlanOp(None, bufs[:1], bufs[1:], time=timer))
        else:  # a stage transfer, ...: reads its buffers whole
            ops.append(PlanOp(None, bufs, ()))
    return plan_tensors, ops


def _placeable(t: PlanTensor, arch: str) -> bool:
    try:
        tensor_options(t.shape, t.dtype, t.tile, arch, t.current, {})
    except LayoutError:
        return False
    return True


@dataclass(frozen=True)
class TTMetalOptimizeMemoryPass(ModulePass):
    name = "ttmetal-optimize-memory"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        arch, capacity = module_l1(op)
        cores = chip_cores(op)
        for f in [x for x in op.walk() if isinstance(x, func.FuncOp) and x.body.blocks]:
            block = f.body.blocks[0]
            buffers = device_buffers(block)
            if not buffers:
                continue
            plan_tensors, ops = program_of(buffers, block, arch, cores)
            try:
                plan = plan_memory(plan_tensors, ops, arch, capacity, explained=False)
            except Unplaceable as e:  # not even DRAM holds it
                banks, bank = module_dram(op)
                raise LocatedError(f"ttmetal-optimize-memory: {e}; a {arch} chip has {capacity:,} B of L1 a core "
                                   f"and {banks} DRAM banks of {bank:,} B: split it over more devices (a larger "
                                   "mesh) or make it smaller", buffers[e.index].op) from None
            except PlanError as e:  # no buffer is kept where it is, so DRAM always frees L1: defensive
                at = e.point
                here = [i for i in at.live if buffers[i].start == at.step] or at.live
                raise LocatedError(f"ttmetal-optimize-memory: {plan_tensors[here[-1]].name} does not fit in L1: "
                                   f"{e}", buffers[here[-1]].op) from None
            except LayoutError as e:  # a buffer the placement model cannot lay out at all
                at = next((b.op for b, t in zip(buffers, plan_tensors) if not _placeable(t, arch)), None)
                name = next((t.name for t in plan_tensors if not _placeable(t, arch)), None)
                raise LocatedError(f"ttmetal-optimize-memory: {name + ' cannot be placed: ' if name else ''}{e}",
                                   at or f) from None
            attrs: dict = {}
            for t, pt, o in zip(buffers, plan_tensors, plan.choice):
                if o.config != pt.current:
                    place_tensor(t, o.config, attrs)
