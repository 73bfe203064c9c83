"""`ttnn-check-l1{spill-to-dram=false}`: the compile-time L1 check of a ttnn program.

Every device tensor of each function (the results of distribute_tensor, to_device,
to_memory_config, to_layout, empty, compute ops, collectives and the resharding / MoE ops) is
placed where the simulator places it (`meshc.dialects.ttnn.memory.result_placement`: the
result's `#ttnn.ttnn_layout`, the op's `memory_config`, else its first device operand's
placement, DRAM interleaved for a tensor fresh from the host) and lives from its op to its last
use (a returned tensor to the end; a to_memory_config / to_layout / to_device that changes
nothing is the same buffer). The placement model adds up the L1 each core holds at each op
(`meshc.layout.l1_budget`); when the busiest core needs more than its L1, the pass fails at
the op whose tensor reaches the peak, naming the tensor, the core, the bytes live there and the
shortfall, and saying that DRAM interleaved tensors (or `spill-to-dram=true`) make it fit.

With `spill-to-dram=true` the pass instead moves tensors to DRAM interleaved until the program
fits: each round, of the tensors live where a core first overflows, the one whose move costs the
least modelled time per L1 byte it frees there (`meshc.layout.timemodel`: written once and read at
each use through DRAM instead of over the NoC; then the most bytes, then the longest lived) gets
a DRAM interleaved memory config (its op's `memory_config` and its result's `#ttnn.ttnn_layout`). The L1 capacity is the module's `#tt.system_desc` chip's, else a
wormhole_b0 core's. A spill takes the tensor's bytes off its cores over its live range in the L1
use kept since the last derivation (`l1_budget.L1Use`); the buffers are derived and added up
again only when the spill changes another one (`_respill`: a reader placed like its operand, or
a copy that becomes the same buffer as its source), so each spill costs a step of the budget,
not the whole program.

Then DRAM (`meshc.layout.dram_budget`): when the DRAM tensors live at some op need more than a
bank holds (the chip's banks and bank size, as for L1), the program fits nowhere; the pass fails
at the op whose tensor reaches that point, naming it, the bytes it needs on each device, what
is live in DRAM there and what the chip has. Nothing is spilled beyond DRAM or truncated.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from meshc.errors import LocatedError
from meshc.dialects import ttmetal, ttnn
from meshc.dialects.shape_rules import ints_of
from meshc.dialects.element_types import expect_data_type_name
from meshc.dialects.tt import module_system
from meshc.dialects.ttnn.memory import MemoryConfigAttr, TTNNLayoutAttr, result_placement
from meshc.layout.errors import CapacityError, LayoutError
from meshc.layout.dram_budget import DramOverflow, dram_budget
from meshc.layout.l1_budget import L1Budget, L1Use, LiveTensor, l1_budget
from meshc.layout.memory_config import MemoryConfig
from meshc.layout.system import get_arch
from meshc.passes.lowering_utils import fix_function_types
from meshc.layout.shapes import fmt_shape
from meshc.layout.hardware import ARCH_FACTS, DEFAULT_ARCH
from meshc.layout.timemodel import dram_s, noc_s

DRAM = MemoryConfig("dram", "interleaved")
_HOST_RESULTS = (ttnn.GetDeviceOp, ttnn.ConstantOp, ttnn.AggregateTensorOp, ttnn.FromDeviceOp)
_COMPUTE = tuple(ttnn.COMPUTE_OPS.values())


def _fmt_bytes(n: int) -> str:
    return f"{n:,} B"


def tensor_dtype(v: SSAValue) -> str:
    t = v.type
    if isinstance(t, TensorType) and isinstance(t.encoding, TTNNLayoutAttr):
        return t.encoding.data_type.data
    return expect_data_type_name(t.element_type if isinstance(t, (TensorType, ttmetal.BufferType)) else t)


@dataclass
class DeviceTensor:
    """A device buffer of the program: its producing op and result, and the values aliasing it."""

    op: Operation
    value: SSAValue
    where: tuple
    start: int
    end: int
    aliases: list = field(default_factory=list)
    """Values of later ops that are this same buffer (a to_memory_config that changes nothing)."""


def _placer():
    """result_placement memoised by attribute identity (a type object is shared by many values)
    and the default's: equal placements it returns are one object, so a tensor's placement, the
    default of the ops it feeds, is found by identity too (the memo keeps what it keys by alive,
    so an identity is never reused within it)."""
    seen: dict[tuple, tuple] = {}
    same: dict[tuple, tuple] = {}

    def placement(o: Operation, default, k: int = 0):
        rt = o.results[k].type if len(o.results) > k else None
        attr = o.attributes.get("memory_config")
        key = (id(rt), id(attr), id(default))
        hit = seen.get(key)
        if hit is None:
            where = result_placement(o, default, k)
            hit = seen[key] = (same.setdefault(where, where), rt, attr, default)
        return hit[0]
    placement.seen = seen  # type: ignore[attr-defined]  # for device_tensors' inlined lookup
    return placement


_HOST, _MOVE, _COMPUTE_OP, _RETURN, _OTHER = range(5)
_CATEGORY: dict[type, int] = {}


def _category(o: Operation) -> int:
    """What kind of buffer maker op o is, by its class (isinstance against the 66 compute op
    classes is slow; each class is looked up once)."""
    c = _CATEGORY.get(type(o))
    if c is None:
        t = type(o)
        c = _CATEGORY[t] = (_HOST if issubclass(t, _HOST_RESULTS) else
                            _MOVE if issubclass(t, (ttnn.ToDeviceOp, ttnn.ToMemoryConfigOp, ttnn.ToLayoutOp)) else
                            _COMPUTE_OP if issubclass(t, _COMPUTE) else
                            _RETURN if issubclass(t, func.ReturnOp) else _OTHER)
    return c


def creates_buffers(block: Block) -> bool:
    """Whether a function body allocates its own buffers (`ttmetal.create_buffer`: a ttmetal program)."""
    return any(issubclass(t, ttmetal.CreateBufferOp) for t in set(map(type, block.ops)))


def functions(module: Operation) -> list[func.FuncOp]:
    """The functions with a body in `module`, in walk order (an op without regions holds none)."""
    out = []

    def visit(o: Operation) -> None:
        if isinstance(o, func.FuncOp) and o.body.blocks:
            out.append(o)
        for region in o.regions:
            for block in region.blocks:
                for x in block.ops:
                    if x.regions:
                        visit(x)
    visit(module)
    return out


_NO_SOURCE = (DRAM, None)


def _makes(o: Operation, src: DeviceTensor | None, placement) -> list[tuple[SSAValue, tuple | None]]:
    """The device buffers op o makes, given `src`, the buffer of its first device operand (None:
    it has none): per result, its placement, or None when it is `src`'s buffer itself."""
    category = _category(o)
    if category == _HOST or not o.results:
        return []
    default = src.where if src is not None else _NO_SOURCE
    if category == _MOVE:
        where = placement(o, default)
        if isinstance(o, ttnn.ToLayoutOp):
            layout = o.attributes["layout"].data
            where = (where[0], (32, 32) if layout == "tile" and where[1] is None else where[1])
            where = (where[0], None) if layout == "row_major" else where
        if src is not None and (isinstance(o, ttnn.ToDeviceOp) or where == src.where):
            return [(o.results[0], None)]
        return [(o.results[0], where)]
    if category == _COMPUTE_OP and src is None:
        return []  # computed on the host
    return [(r, placement(o, default, k)) for k, r in enumerate(o.results) if isinstance(r.type, TensorType)]


def _source(o: Operation, of: dict) -> DeviceTensor | None:
    for v in o.operands:
        t = of.get(v)
        if t is not None:
            return t
    return None


def device_tensors(block: Block, touching: list | None = None) -> list[DeviceTensor]:
    """The device buffers of one function body in allocation order, as the simulator makes them.
    `touching`: filled with (step, op, its operands' buffers, its results' buffers) of each op
    that reads or makes one (a buffer by its index in the list; -1 for any other value). One
    walk over the body: a buffer's end is its last reader's step (the end of the body for a
    returned one), whichever of its values (itself or an alias) the reader reads."""
    of: dict[SSAValue, int] = {}
    out: list[DeviceTensor] = []
    placement = _placer()
    seen = placement.seen
    category = _CATEGORY.get
    returned: list[DeviceTensor] = []
    i = -1
    for i, o in enumerate(block.ops):
        src = None
        ins = [of.get(v, -1) for v in o.operands]
        for n in ins:
            if n >= 0:
                t = out[n]
                if src is None:
                    src = t
                if t.end < i:
                    t.end = i
        c = category(type(o))
        if c is None:
            c = _category(o)
        if src is not None and c == _RETURN:
            returned += [out[n] for n in ins if n >= 0]
        if c == _OTHER or c == _COMPUTE_OP and src is not None:  # _makes' last line, inlined
            made = []
            default = src.where if src is not None else _NO_SOURCE
            attr = o.attributes.get("memory_config")
            for k, r in enumerate(o.results):
                rt = r.type
                if isinstance(rt, TensorType):
                    hit = seen.get((id(rt), id(attr), id(default)))
                    made.append((r, hit[0] if hit is not None else placement(o, default, k)))
        else:
            made = _makes(o, src, placement)
        if made:
            for r, where in made:
                if where is None:  # the same buffer as its source
                    of[r] = of[src.value]
                    src.aliases.append(r)
                else:
                    of[r] = len(out)
                    out.append(DeviceTensor(o, r, where, i, i))
        if touching is not None and (src is not None or made):
            touching.append((i, o, tuple(ins), tuple([of.get(r, -1) for r in o.results])))
    for t in returned:  # read by the return: live to the end of the body
        t.end = i + 1
    return out


def _respill(block: Block, t: DeviceTensor, of: dict, was: SSAValue) -> bool:
    """After tensor t was put in DRAM (its value `was` replaced by t.value): t's new placement,
    when that is all that changed, as device_tensors would now find it (True); False when the
    buffers of its op or its readers changed otherwise (a reader that was t's buffer is now a
    copy, or a result placed like its source moved too): then derive them all again. `of` maps
    each value to its buffer and is kept up to date."""
    if t.value is not was:
        del of[was]
        of[t.value] = t
    placement = _placer()
    readers = [u.operation for v in (t.value, *t.aliases) for u in v.uses]
    for o in dict.fromkeys([t.op, *readers]):
        src = _source(o, of)
        if o.parent is not block or (o is not t.op and src is not t):
            continue  # not a buffer of the body, or placed by another source
        made = _makes(o, src, placement)
        if {r for r, _ in made} != {r for r in o.results if r in of}:
            return False
        for r, where in made:
            have = of[r]
            if where is None:
                if have is not src:
                    return False
            elif have.value is not r:
                return False
            elif have is t:
                t.where = where
            elif have.where != where:
                return False
    return True


def device_buffers(block: Block) -> list[DeviceTensor]:
    """The mesh buffers of one ttmetal function body (the ttir-to-ttmetal lowering's), placed by
    their `memory_config` and `tile`, each live from its create_buffer to its deallocate_buffer
    (else to the end): the same check as a ttnn program's tensors."""
    ops = list(block.ops)
    of: dict[SSAValue, DeviceTensor] = {}
    for i, o in enumerate(ops):
        if isinstance(o, ttmetal.CreateBufferOp):
            of[o.results[0]] = DeviceTensor(o, o.results[0], _buffer_where(o), i, len(ops))
        elif isinstance(o, ttmetal.DeallocateBufferOp) and o.buffer in of:
            of[o.buffer].end = i
    return list(of.values())


def _buffer_where(o: ttmetal.CreateBufferOp) -> tuple:
    return o.memory_config.model(), (tuple(ints_of(o.tile)) if o.tile is not None else None)


def tensor_name(t: DeviceTensor) -> str:
    v = t.value
    shape = fmt_shape(v.type.get_shape())
    what = f"%{v.name_hint}" if v.name_hint else f"result {v.index} of '{t.op.name}'"
    return f"{what} ({shape}x{tensor_dtype(v)})"


def type_facts():
    """A memo of (shape, data type name, the "(shape x dtype)" `tensor_name` ends with) per value
    type, by identity (a program's values share a few type objects; the memo keeps each alive);
    a located error at the tensor's op for an element type no device holds, as `live_tensor`."""
    seen: dict[int, tuple] = {}

    def facts(t: DeviceTensor) -> tuple:
        ty = t.value.type
        hit = seen.get(id(ty))
        if hit is None:
            try:
                dtype = tensor_dtype(t.value)
            except LayoutError as e:
                raise LocatedError(str(e), t.op) from None
            shape = tuple(ty.get_shape())
            hit = seen[id(ty)] = (shape, dtype, f"({fmt_shape(shape)}x{dtype})", ty)
        return hit
    return facts


def tensor_names(tensors: list[DeviceTensor]) -> list[str]:
    """`tensor_name` of each tensor (the shape and data type formatted once per type)."""
    facts = type_facts()
    return [f"%{t.value.name_hint} {facts(t)[2]}" if t.value.name_hint else tensor_name(t) for t in tensors]


def live_tensors(tensors: list[DeviceTensor]) -> list[LiveTensor]:
    """`live_tensor` of each tensor (the shape and data type read once per type)."""
    facts = type_facts()
    out = []
    for t in tensors:
        shape, dtype = facts(t)[:2]
        out.append(LiveTensor("", shape, dtype, t.where[0], t.where[1], t.start, t.end))
    return out


def live_tensor(t: DeviceTensor) -> LiveTensor:
    """The tensor for the placement model (named by the pass's messages, not here)."""
    try:
        dtype = tensor_dtype(t.value)
    except LayoutError as e:  # an element type no device holds (i8), at the op that makes the tensor
        raise LocatedError(str(e), t.op) from None
    return LiveTensor("", tuple(t.value.type.get_shape()), dtype, t.where[0], t.where[1], t.start, t.end)


def _unplaceable(tensors: list[DeviceTensor], lives: list[LiveTensor], arch: str, spill: bool) -> bool:
    """Spill (or report) the L1 tensors whose shard fits no core at all (the placement model's
    CapacityError); True if one was spilled."""
    spilled = False
    placed: dict[tuple, tuple] = {}  # the placement model's answer per shape, data type, tile and config object
    for t, lt in zip(tensors, lives):
        key = (id(lt.config), lt.shape, lt.dtype, lt.tile)
        hit = placed.get(key)
        if hit is None:
            try:
                lt.l1_footprint(arch)
                hit = placed[key] = (None, lt.config)
            except LayoutError as e:
                hit = placed[key] = (e, lt.config)
        e = hit[0]
        if e is None:
            continue
        if not isinstance(e, CapacityError):
            raise LocatedError(f"ttnn-check-l1: {tensor_name(t)} cannot be placed: {e}", t.op) from None
        if not spill:
            raise LocatedError(f"ttnn-check-l1: {tensor_name(t)} does not fit in L1: {e}; put it in DRAM "
                               f"interleaved, or let the pass do it with ttnn-check-l1{{spill-to-dram=true}}",
                               t.op) from None
        _spill(t)
        spilled = True
    return spilled


def _spill_cost(t: DeviceTensor, lt: LiveTensor, arch: str) -> float:
    """Modelled seconds a tensor costs in DRAM beyond L1 (meshc.layout.timemodel): written once and
    read at each use through the chip's DRAM instead of over the NoC from the cores holding it."""
    cores, per_core = lt.l1_footprint(arch)
    moved = len(cores) * per_core * (1 + sum(1 for _ in t.value.uses))
    facts = ARCH_FACTS[arch]
    return max(0.0, dram_s(facts, moved) - noc_s(facts, moved, len(cores)))


def _spill(t: DeviceTensor) -> None:
    """Put a tensor in DRAM interleaved."""
    place_tensor(t, DRAM)


def place_tensor(t: DeviceTensor, config: MemoryConfig, cache: dict | None = None) -> None:
    """Put a tensor where `config` says: its op's memory_config and its result's ttnn_layout
    (`cache`: the attributes already made, by type and config; programs repeat a few)."""
    cache = {} if cache is None else cache
    o, r = t.op, t.value
    enc = r.type.encoding if isinstance(r.type, TensorType) else None
    if isinstance(enc, TTNNLayoutAttr):
        key = (r.type, config)
        ty = cache.get(key)
        if ty is None:
            ty = cache[key] = TensorType(r.type.element_type, r.type.get_shape(),
                                         TTNNLayoutAttr.from_model(enc.tile_shape, enc.data_type.data, config))
        new = Rewriter.replace_value_with_new_type(r, ty)
        new.name_hint = r.name_hint
        t.value = new
    if "memory_config" in o.attributes or not isinstance(enc, TTNNLayoutAttr):
        attr = cache.get(config)
        if attr is None:
            attr = cache[config] = MemoryConfigAttr.from_model(config)
        o.attributes["memory_config"] = attr


def module_l1(module: ModuleOp) -> tuple[str, int]:
    """(architecture, L1 bytes a core) of the module's `#tt.system_desc` chip, else wormhole_b0's."""
    sysdesc = module_system(module)
    if sysdesc is None:
        return DEFAULT_ARCH, get_arch(DEFAULT_ARCH).l1_size
    chip = sysdesc.chips[0]
    return chip.arch, chip.l1_size


def module_dram(module: ModuleOp) -> tuple[int, int]:
    """(DRAM banks, bytes a bank) of the module's `#tt.system_desc` chip, else wormhole_b0's."""
    sysdesc = module_system(module)
    if sysdesc is None:
        a = get_arch(DEFAULT_ARCH)
        return a.dram_banks, a.dram_bank_size
    chip = sysdesc.chips[0]
    return chip.dram_banks, chip.dram_bank_size


def function_l1_budget(f: func.FuncOp, arch: str = DEFAULT_ARCH, capacity: int | None = None) -> L1Budget:
    """The L1 budget of one ttnn function as the simulator would allocate it (no check, no spill)."""
    return l1_budget([live_tensor(t) for t in device_tensors(f.body.blocks[0])], arch, capacity)


@dataclass(frozen=True)
class TTNNCheckL1Pass(ModulePass):
    name = "ttnn-check-l1"
    spill_to_dram: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        arch, capacity = module_l1(op)
        for f in functions(op):
            block = f.body.blocks[0]
            spilled = False
            metal = creates_buffers(block)
            tensors = None
            while True:
                if tensors is None:  # derive every buffer and add up the L1 (again)
                    tensors = device_buffers(block) if metal else device_tensors(block)
                    lives = live_tensors(tensors)
                    if _unplaceable(tensors, lives, arch, self.spill_to_dram):
                        spilled, tensors = True, None
                        continue
                    use = L1Use(lives, arch, capacity)
                    of = None  # each value's buffer, made at the first spill
                    costs: dict[int, float] = {}
                at = use.first_overflow()
                if at is None:
                    break
                if not self.spill_to_dram:
                    raise self._error(tensors, use.budget(), arch)

                def cost(i: int) -> float:
                    if i not in costs:
                        costs[i] = _spill_cost(tensors[i], lives[i], arch)
                    return costs[i]

                victim = min(at.live, key=lambda i: (cost(i) / at.bytes_of[i], -at.bytes_of[i],
                                                     tensors[i].start - tensors[i].end))
                t, was = tensors[victim], tensors[victim].value
                _spill(t)
                spilled = True
                if not metal and of is None:
                    of = {v: b for b in tensors for v in (b.value, *b.aliases)}
                    of[was] = t  # t.value is the new value: _respill moves it
                if metal:
                    t.where = _buffer_where(t.op)
                elif not _respill(block, t, of, was):
                    tensors = None
                    continue
                # only the victim moved: its bytes leave its cores over its live range
                lives[victim] = live_tensor(t)
                use.move(victim, lives[victim])
            banks, bank_size = module_dram(op)
            over = dram_budget(lives, arch, banks, bank_size)
            if over is not None:
                raise _nowhere(tensors, over, arch, banks, bank_size)
            if spilled:
                fix_function_types(op)

    @staticmethod
    def _error(tensors: list[DeviceTensor], budget: L1Budget, arch: str) -> LocatedError:
        at = budget.first_overflow
        here = [i for i in at.live if tensors[i].start == at.step] or at.live
        culprit = tensors[here[-1]]
        y, x = at.core
        parts = ", ".join(f"{tensor_name(tensors[i])} {_fmt_bytes(at.bytes_of[i])}" for i in at.live)
        peak = budget.peak
        worst = "" if peak.bytes == at.bytes else (
            f"; the program's peak is {_fmt_bytes(peak.bytes)} on core ({peak.core[0]}, {peak.core[1]}), "
            f"{_fmt_bytes(budget.shortfall)} over")
        return LocatedError(
            f"ttnn-check-l1: {tensor_name(culprit)} does not fit in L1: with it, core ({y}, {x}) holds "
            f"{_fmt_bytes(at.bytes)} ({parts}), but a {arch} core's L1 holds {_fmt_bytes(budget.capacity)}: "
            f"{_fmt_bytes(at.bytes - budget.capacity)} short{worst}; put tensors in DRAM interleaved "
            "(#ttnn.memory_config<#ttnn.buffer_type<dram>, <interleaved>>), or let the pass do it with "
            "ttnn-check-l1{spill-to-dram=true} (ttir-to-ttnn-pipeline{spill-to-dram=true})",
            culprit.op)


def _nowhere(tensors: list[DeviceTensor], over: DramOverflow, arch: str, banks: int, bank_size: int) -> LocatedError:
    """The located error of a program whose DRAM tensors overflow a bank: the tensor that reaches
    the overflow, the bytes it needs, what is live in DRAM there and what the chip has."""
    here = [i for i in over.live if tensors[i].start == over.step] or over.live
    i = max(here, key=lambda k: over.bytes_of[k])
    parts = ", ".join(f"{tensor_name(tensors[k])} {_fmt_bytes(over.bytes_of[k])}" for k in over.live)
    return LocatedError(
        f"ttnn-check-l1: {tensor_name(tensors[i])} does not fit in DRAM: it reserves {_fmt_bytes(over.bytes_of[i] * banks)} "
        f"of DRAM on each device ({_fmt_bytes(over.bytes_of[i])} in each of {banks} banks), and with it each DRAM "
        f"bank holds {_fmt_bytes(over.bytes)} ({parts}), but a {arch} chip has {banks} banks of "
        f"{_fmt_bytes(bank_size)} ({_fmt_bytes(banks * bank_size)}): {_fmt_bytes(over.bytes - bank_size)} a bank "
        "short; split the tensors over more devices (a larger mesh) or make them smaller",
        tensors[i].op)
