"""The ttmetal interpreter on the simulator: mesh buffers, host transfers, programs, CCLs.

- create_buffer allocates a mesh buffer (lockstep, checked) placed by its memory config and
  tile; deallocate_buffer frees it; enqueue_write/read_buffer move host tensors in and out
  through their `#ttnn.sharded_buffer_config` (or the config their `shard_dims` lower to),
  counted as host, NOC and DRAM bytes; enqueue_read_shards reads every device's tensor back
  as it is (a distributed result, one host tensor a device) and enqueue_write_shards writes
  one host tensor a device (a presharded argument's pieces) into device i's part as it is;
  enqueue_write_constant writes its value to every device the same way;
- enqueue_program runs its kernel region on every core (y, x) of its grid, on every device:
  `read_tiles` brings the selected block of a buffer into the core, and every byte of it held
  by another owner (another core's L1, or a DRAM bank) crosses the chip's NOC (DRAM reads are
  counted per bank); `write_tiles` stores a block the same way (the bytes of every block access
  over the whole grid are meshc.layout.kernel_traffic's, counted once a program on every
  device, not core by core); the tile ops compute with the
  kernels of meshc/sim/compute.py, rounded to the block's element type. The physical core is
  `core_map(y, x)` (identity when absent) plus `grid_offset`. The program computes for one
  core's tile ops on its block (meshc.layout.timemodel.kernel_compute_s), charged to the time
  model as TTNN charges the same op on the same grid, in data and abstract runs alike;
- enqueue_ccl runs the collective of meshc/sim/collectives.py from one buffer into another.

`TTMetalSimFunctions` is one static class with one `@impl` an op; the kernel a program runs
sees its core through the class's `KernelContext`.
"""

from __future__ import annotations

import numpy as np
from xdsl.ir import BlockArgument
from xdsl.interpreter import InterpreterFunctions, ReturnedValues, impl, impl_terminator, register_impls

from meshc.dialects.ttir.base import tensor_shape
from meshc.dialects import ttmetal
from meshc.dialects.ttmetal_program import kernel_tile_ops, matmul_weight_buffers, physical_cores
from meshc.dialects.ttir.reshard import placement_specs, transfer_rows
from meshc.dialects.shape_rules import ints_of
from meshc.interp.common import Distributed, element_dtype_name, located, transfer_config
from meshc.interp.runtime import SimRuntime
from meshc.interp.select_impls import TTMetalSelectImpls
from meshc.interp.spmd import moves_plan
from meshc.interp.spmd_sim import run_moves
from meshc.interp.stage_transfer_impls import TTMetalStageTransferImpls
from meshc.interp.ttir import dense_value
from meshc.interp.ttnn import run_collective
from meshc.layout.kernel_traffic import block_slices, block_traffic
from meshc.layout.shapes import fold_2d
from meshc.layout.timemodel import kernel_compute_s, matmul_dram_readers
from meshc.sim.compute import run_kernel
from meshc.sim.encoding import quantize
from meshc.sim.machine import Machine
from meshc.sim.memory import MeshBuffer

# ----------------------------------------------------------------------------- cores and blocks


ONE_ELEMENT = (1,)
"""The shape a 0-d tensor crosses between host and device in: one element (TTNN holds a scalar
as a one-element tensor too)."""


def _buffer_dtype(t) -> str:
    return element_dtype_name(t.element_type)


class KernelContext:
    """What a kernel sees while it runs on one core of one device."""

    def __init__(self):
        self.device = 0
        self.core = (0, 0)  # logical (y, x) in the program's grid
        self.grid = (1, 1)
        self.arrays: dict[int, np.ndarray] = {}  # buffer id -> this device's tensor, folded 2-d
        self.written: set[int] = set()


def _result_dtype(op) -> str:
    return element_dtype_name(op.results[0].type)


# ----------------------------------------------------------------------------- the interpreter


def _moves(m: Machine, op, vals: list, dtype: str) -> list:
    """An `enqueue_ccl` of kind point_to_point: ttir.point_to_point's moves between the buffers."""
    src, tgt = placement_specs(op)
    local = tuple(np.shape(vals[0]))
    full_attr = op.attributes.get("full_shape")
    full = tuple(ints_of(full_attr)) if full_attr is not None else tuple(
        n * src.num_pieces(d) for d, n in enumerate(local))
    rows = transfer_rows(op.attributes["transfers"], len(full))
    win_attr = op.attributes.get("window")
    window = None if win_attr is None else tuple(zip(ints_of(win_attr)[::2], ints_of(win_attr)[1::2]))
    target = full if window is None else tuple(hi - lo for lo, hi in window)
    return run_moves(m, moves_plan(src, tgt, full, dtype, rows, window), vals, tgt.buffer_shape(target), dtype)


@register_impls
class TTMetalSimFunctions(TTMetalStageTransferImpls, TTMetalSelectImpls):
    """The ttmetal ops on the simulator `machine`: buffers, host transfers, programs and CCLs."""

    def __init__(self, machine: Machine):
        self.machine = machine
        self.rt = SimRuntime(machine)
        self.ctx = KernelContext()
        self.traffic_cache: dict[tuple, tuple] = {}

    # -------------------------------------------------------------- traffic of a program's blocks

    def count_program(self, interpreter, op, bufs: list[MeshBuffer], grid: tuple[int, int],
                      phys: np.ndarray) -> None:
        """The NOC and DRAM bytes of every `read_tiles` / `write_tiles` of the kernel, over every
        core of the grid, on every device (a program's moves depend only on its layouts:
        meshc.layout.kernel_traffic)."""
        m = self.machine
        for access in op.body.block.ops:
            if not isinstance(access, (ttmetal.ReadTilesOp, ttmetal.WriteTilesOp)):
                continue
            write = isinstance(access, ttmetal.WriteTilesOp)
            v = access.buffer
            buf = bufs[v.index] if isinstance(v, BlockArgument) and v.owner is op.body.block else \
                interpreter.get_values((v,))[0]
            sel = access.selectors()
            key = (buf.id, grid, sel, phys.tobytes())
            hit = self.traffic_cache.get(key)
            if hit is None:  # (chip keys, NOC bytes a chip, (chip, bank) keys, bytes a bank)
                noc, dram = block_traffic(buf.layout.placement, grid, sel, phys)
                banks = [(buf.layout.owners[k], int(dram[k])) for k in np.flatnonzero(dram)]
                chips = tuple(buf.devices)
                hit = self.traffic_cache[key] = (chips, (noc,) * len(chips),
                                                 tuple((c, b) for c in chips for b, _ in banks),
                                                 tuple(n for _ in chips for _, n in banks))
            chips, noc, bank_keys, bank_bytes = hit
            if noc and noc[0]:
                m.traffic.add_many("noc", chips, noc)
            if bank_keys:
                m.traffic.add_many("dram_write" if write else "dram_read", bank_keys, bank_bytes)

    def charge_program(self, op, bufs: list[MeshBuffer], grid: tuple[int, int]) -> None:
        """The program's compute (meshc.layout.timemodel.kernel_compute_s: one core's tile ops on
        its block, the cores in parallel); a matmul's DRAM operands stream through the readers
        TTNN's matmul uses (matmul_dram_readers: a row of the grid, or a core a bank of a
        DRAM-sharded B)."""
        readers = None
        for k in matmul_weight_buffers(op):  # a DRAM-sharded B is read by a core a bank
            b = bufs[k].layout if k is not None else None
            banks = len(b.owners) if b is not None and b.buffer == "dram" and not b.interleaved else None
            readers = matmul_dram_readers(grid, banks)
        self.machine.charge_compute(kernel_compute_s(self.machine.arch, kernel_tile_ops(op)), readers)

    # -------------------------------------------------------------- buffers and host transfers

    @impl(ttmetal.CreateBufferOp)
    @located
    def run_create_buffer(self, interpreter, op, args):
        t = op.results[0].type
        tile = ints_of(op.tile) if op.tile is not None else None
        cfg = op.memory_config.model()
        return (self.machine.allocate(t.get_shape(), _buffer_dtype(t), cfg,
                                      name=f"%{op.results[0].name_hint or 'buffer'}", tile=tile),)

    @impl(ttmetal.EnqueueWriteBufferOp)
    @located
    def run_write_buffer(self, interpreter, op, args):
        m = self.machine
        x, buf = args
        x = np.asarray(x)
        config = transfer_config(op, x.shape, m.mesh_shape, _buffer_dtype(op.buffer.type))
        with m.op(op.name):  # a scalar travels as the one-element tensor its config moves
            m.write_host(buf, x.reshape(x.shape or ONE_ELEMENT), config)
        return ()

    @impl(ttmetal.EnqueueWriteShardsOp)
    @located
    def run_write_shards(self, interpreter, op, args):
        m = self.machine
        x, buf = args
        if isinstance(x, Distributed):
            vals = list(x)
        elif m.num_devices == 1:
            vals = [np.asarray(x)]
        else:
            raise ValueError(f"enqueue_write_shards writes one host tensor a device; on this mesh of "
                             f"{m.num_devices} devices it got one tensor (a presharded argument is given "
                             f"as its pieces stacked, [devices, *shape])")
        with m.op(op.name):
            m.write(buf, vals)
        return ()

    @impl(ttmetal.EnqueueWriteConstantOp)
    @located
    def run_write_constant(self, interpreter, op, args):
        m = self.machine
        (buf,) = args
        value = dense_value(op.value, buf.layout.shape, _buffer_dtype(op.buffer.type))
        with m.op(op.name):
            m.write(buf, [value] * len(buf.devices))
        return ()

    @impl(ttmetal.EnqueueReadBufferOp)
    @located
    def run_read_buffer(self, interpreter, op, args):
        m = self.machine
        (buf,) = args
        full = tensor_shape(op.results[0])
        config = transfer_config(op, full, m.mesh_shape, _buffer_dtype(op.buffer.type))
        with m.op(op.name):  # a scalar comes back 0-d from the one element its config moves
            return (m.read_host(buf, config, full or ONE_ELEMENT).reshape(full),)

    @impl(ttmetal.EnqueueReadShardsOp)
    @located
    def run_read_shards(self, interpreter, op, args):
        (buf,) = args
        with self.machine.op(op.name):
            vals = self.machine.read(buf)
        return (vals[0] if len(vals) == 1 else Distributed(vals),)

    @impl(ttmetal.DeallocateBufferOp)
    @located
    def run_deallocate_buffer(self, interpreter, op, args):
        self.machine.free(args[0])
        for key in [k for k in self.traffic_cache if k[0] == args[0].id]:
            del self.traffic_cache[key]
        return ()

    @impl(ttmetal.FinishOp)
    def run_finish(self, interpreter, op, args):
        return ()

    # -------------------------------------------------------------- collectives

    @impl(ttmetal.EnqueueCclOp)
    @located
    def run_ccl(self, interpreter, op, args):
        m = self.machine
        src, dst = args
        kind = op.kind.data
        dtype = _buffer_dtype(op.input.type)
        with m.op(f"{op.name} {kind}"):
            vals = [m.peek(src, i) for i in range(len(src.devices))]
            for i in range(len(src.devices)):
                m.count_read(src, i)
            if kind == "point_to_point":
                res = _moves(m, op, vals, dtype)
            else:
                res = run_collective(self.rt, op, kind, vals, dtype)
            out_dtype = _buffer_dtype(op.output.type)
            for i, r in enumerate(res):
                if not m.abstract:
                    m.poke(dst, i, quantize(r, out_dtype))
                m.count_write(dst, i)
        return ()

    # -------------------------------------------------------------- programs

    @impl(ttmetal.EnqueueProgramOp)
    @located
    def run_program(self, interpreter, op, args):
        m, ctx = self.machine, self.ctx
        grid = op.core_grid()
        ys, xs = np.divmod(np.arange(grid[0] * grid[1]), grid[1])
        phys = physical_cores(op)
        with m.op(op.name):
            self.count_program(interpreter, op, list(args), grid, phys)
            self.charge_program(op, list(args), grid)
            # an abstract run interprets the kernels on device 0 (zeros for data): a program's
            # traffic is counted above for every device, its data is not kept
            devices = [0] if m.abstract else range(m.num_devices)
            for dev in devices:
                ctx.device = dev
                ctx.grid = grid
                ctx.arrays = {b.id: (np.zeros(fold_2d(b.layout.shape), b.layout.dtype.host_dtype) if m.abstract
                                     else m.peek(b, dev).reshape(fold_2d(b.layout.shape))) for b in args}
                ctx.written = set()
                for y, x in zip(ys, xs):
                    ctx.core = (int(y), int(x))
                    interpreter.run_ssacfg_region(op.body, tuple(args), "kernel")
                for b in args:
                    if b.id in ctx.written:
                        m.poke(b, dev, ctx.arrays[b.id].reshape(b.layout.shape))
        return ()

    # -------------------------------------------------------------- kernel ops: one core's blocks

    @impl(ttmetal.ReadTilesOp)
    @located
    def run_read_tiles(self, interpreter, op, args):
        (buf,) = args
        arr = self.ctx.arrays[buf.id]
        rows, cols = block_slices(arr.shape, op.selectors(), self.ctx.grid, self.ctx.core)
        return (arr[rows, cols],)

    @impl(ttmetal.WriteTilesOp)
    @located
    def run_write_tiles(self, interpreter, op, args):
        blk, buf = args
        arr = self.ctx.arrays[buf.id]
        rows, cols = block_slices(arr.shape, op.selectors(), self.ctx.grid, self.ctx.core)
        arr[rows, cols] = quantize(np.asarray(blk), _buffer_dtype(op.buffer.type))
        self.ctx.written.add(buf.id)
        return ()

    @impl(ttmetal.TileUnaryOp)
    @located
    def run_tile_unary(self, interpreter, op, args):
        kind = op.op.data
        x = args[0]
        y = x.copy() if kind in ("copy", "typecast") else run_kernel(kind, [x], {})
        return (quantize(y, _result_dtype(op)),)

    @impl(ttmetal.TileBinaryOp)
    @located
    def run_tile_binary(self, interpreter, op, args):
        return (quantize(run_kernel(op.op.data, list(args), {}), _result_dtype(op)),)

    @impl(ttmetal.TileWhereOp)
    @located
    def run_tile_where(self, interpreter, op, args):
        return (quantize(run_kernel("where", list(args), {}), _result_dtype(op)),)

    @impl(ttmetal.TileMatmulOp)
    @located
    def run_tile_matmul(self, interpreter, op, args):
        n = op.batch_size()
        a, b = (x.reshape(n, x.shape[0] // n, x.shape[1]) for x in args)
        y = run_kernel("matmul", [a, b], {}).reshape(tensor_shape(op.result))
        return (quantize(y, _result_dtype(op)),)

    @impl(ttmetal.TilePermuteOp)
    @located
    def run_tile_permute(self, interpreter, op, args):
        y = np.transpose(args[0].reshape(ints_of(op.shape)), ints_of(op.permutation))
        return (np.ascontiguousarray(y).reshape(tensor_shape(op.result)),)

    @impl(ttmetal.TileBroadcastOp)
    @located
    def run_tile_broadcast(self, interpreter, op, args):
        y = np.broadcast_to(args[0].reshape(ints_of(op.shape)), ints_of(op.to))
        return (np.ascontiguousarray(y).reshape(tensor_shape(op.result)),)

    @impl(ttmetal.TileReduceOp)
    @located
    def run_tile_reduce(self, interpreter, op, args):
        d = int(op.dim.value.data)
        y = run_kernel(op.op.data, [args[0]], {"dim_arg": (d,), "keep_dim": True})
        return (quantize(y, _result_dtype(op)),)

    @impl(ttmetal.TileTransposeOp)
    @located
    def run_tile_transpose(self, interpreter, op, args):
        return (quantize(np.ascontiguousarray(args[0].T), _result_dtype(op)),)

    @impl_terminator(ttmetal.KernelEndOp)
    def run_kernel_end(self, interpreter, op, args):
        return ReturnedValues(()), ()


def metal_functions(machine: Machine) -> tuple[TTMetalSimFunctions, SimRuntime]:
    """The ttmetal simulator's functions on `machine`, and the runtime they drive."""
    fns = TTMetalSimFunctions(machine)
    return fns, fns.rt
