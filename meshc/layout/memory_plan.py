"""The memory-layout optimizer: where each device tensor of a program lives, chosen to minimise
the modelled time within every core's L1 over the tensors' live ranges.

tt-mlir's greedy memory-layout propagation with L1 spill management is the model for it (its
TTNN analyses MemoryLayoutPropagation and L1SpillManagement): ops are visited in program order
and each result takes the layout that scores best given its operands' layouts; then a sweep over
the schedule evicts tensors from L1 where a core overflows. tt-mlir scores with the device's op
model (a device must answer); here the scoring is the time model (`meshc.layout.timemodel`),
offline, and the memory facts are the placement model's (`meshc.layout.memory_options`).

Input: the program as `PlanTensor`s (shape, data type, tile, live range [start, end] in op
steps, the config it has now, or a reason it must keep it) and `PlanOp`s (a compute op's kind
in the registry of meshc.layout.compute_ops, or None for any other op; its operand and result
tensors). An op's time given its tensors' options is the simulator's (meshc/sim/machine.py
`op_time`, meshc/interp/ttnn.py's operand traffic, meshc/interp/timing.py's compute grid):

- a compute op computes on its result's shard grid (the chip's grid when the result is
  interleaved); a matmul reads operand A once per column of that grid and B once per row
  (once each for an interleaved result) and streams its DRAM bytes through one row of cores, or
  a core a bank when B is DRAM-sharded (`matmul_dram_readers`); another compute op reads an operand that sits elsewhere than its
  result, in DRAM, or in another shape; a result in DRAM is written through the NoC to DRAM;
- any other op (transfers, collectives, layout changes) reads its operands and writes its
  results, through DRAM for those in DRAM;
- time = launch + max(compute, DRAM, NoC) + OVERLAP_MISS x min (`OpTime.device_s`).

An op may instead carry its own time (`PlanOp.time`, a callback of its tensors' options): a
TTMetal program's kernels read and write blocks by the program's grid wherever the buffers sit,
so its time is its block traffic under each buffer's option (meshc/passes/ttmetal_optimize_memory.py);
a collective of either dialect carries the simulator's collective time (`ccl_time` there).

The search (`plan_memory`):

1. Start each tensor where it is (the place ttir-layout gave it) when that is an option, else
   in DRAM interleaved (tt-mlir's default); in program order give each tensor the option with
   the least time over the ops that touch it (its producer and its consumers), the others as
   chosen so far; then once more for the tensors beside one that moved, so producers see their
   consumers' choices. Ties keep the tensor's own layout, then the order of `memory_options.KINDS`.
2. While some core's L1 overflows (`l1_budget`, the simulator's lockstep allocation): of the
   tensors live on that core at that step, move the one whose cheapest other option (DRAM, or
   an L1 layout holding less on that core) adds the least time per byte it frees there (ties:
   the most bytes, then the farthest last use, tt-mlir's eviction order); an option a tensor
   was moved off is not taken again, so the sweep ends.

After the plan, `meshc.layout.memory_reshard` finds the copies worth making (a tensor copied into
the place one op reads it fastest from); it reads the plan's `model` and `options`.

The plan keeps, per tensor, the time of every option with the others as chosen, and why the
one chosen won (the cheapest, or moved at which step and core) for `meshc-run --report`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from meshc.layout.compute_ops import compute_op, is_matmul, matmul_dims
from meshc.layout.errors import LayoutError
from meshc.layout.hardware import ARCH_FACTS
from meshc.layout.l1_budget import L1Point, L1Use, LiveTensor, l1_budget
from meshc.layout.memory_config import HOST_UPLOAD_CONFIG, MemoryConfig
from meshc.layout.memory_options import KINDS, Option, kind_of, make_option, tensor_options
from meshc.layout.system import get_arch
from meshc.layout.timemodel import OpTime, compute_s, dram_s, matmul_compute_s, matmul_dram_readers, noc_s


@dataclass
class PlanTensor:
    """A device tensor of the program."""

    name: str
    shape: tuple[int, ...]
    dtype: str
    tile: tuple[int, int] | None
    start: int
    end: int
    current: MemoryConfig
    fixed: str | None = None
    """Why it keeps `current` (None: the optimizer chooses)."""


@dataclass
class PlanOp:
    """An op of the program: its compute kind (None: not a compute op), its operand and result
    tensors (indices into the tensors; -1 for a host value), and a matmul's transposes and math
    fidelity (`transpose_a`, `transpose_b`, `math_fidelity`)."""

    kind: str | None
    operands: tuple[int, ...]
    results: tuple[int, ...]
    attrs: dict = field(default_factory=dict)
    host_shapes: dict[int, tuple[int, ...]] = field(default_factory=dict)
    """Per operand position holding a host value (-1): its shape (a matmul's sizes need it)."""
    time: Callable[[list], OpTime] | None = None
    """The op's time given the options of its operands then results (None for a host value),
    when the model below does not time it (a TTMetal program); ops sharing one callback and
    shapes share the memo."""
    host_dtypes: dict[int, str] = field(default_factory=dict)
    """Per operand position holding a host value the op uploads (a compute op's, a collective's;
    not a distribute_tensor's): its data type. The simulator writes it to DRAM
    (`HOST_UPLOAD_CONFIG`) before the op reads it; the model times both."""


class PlanError(LayoutError):
    """No choice makes the program fit L1: `point` is where a core overflows with nothing left to
    move there."""

    def __init__(self, message: str, point: L1Point):
        super().__init__(message)
        self.point = point


class Unplaceable(LayoutError):
    """A tensor no option holds (not even DRAM): `index` is the tensor's."""

    def __init__(self, message: str, index: int):
        super().__init__(message)
        self.index = index


@dataclass
class Decision:
    """Where one tensor sits and why."""

    option: Option
    why: str
    times: dict[str, float]
    """Per option kind: seconds of the ops touching the tensor with it there, the rest as chosen."""
    refused: dict[str, str]
    """Per kind no option of: why (does not fit, ...)."""


@dataclass
class MemoryPlan:
    choice: list[Option]
    decisions: list[Decision] | None
    model: "_Model"
    """The op times (for the reshard phase, meshc.layout.memory_reshard)."""
    options: list[dict[str, Option]] | None = None
    """Each tensor's options (those that fit a core's L1; a fixed tensor's own)."""

    @cached_property
    def op_seconds(self) -> list[float]:
        """Modelled device time of each op given (`PlanOp`s, in order), as planned (timed when
        first asked: the pass itself needs only the choice)."""
        return [self.model.op_time(j, self.choice) for j in range(len(self.model.ops))]


class _Model:
    """The op times of one program under a choice of options (module docstring), memoised by the
    op's shape signature and the options of its tensors."""

    def __init__(self, tensors: list[PlanTensor], ops: list[PlanOp], arch: str):
        self.t, self.ops, self.arch = tensors, ops, ARCH_FACTS[get_arch(arch).name]
        self.chip = tuple(self.arch.grid)
        self.cores = self.chip[0] * self.chip[1]
        self.memo: dict = {}
        self.uploads: dict = {}  # a host operand's option, by shape and data type
        sigs: dict = {}  # each distinct signature a small int, so a memo key hashes fast
        seen: dict = {}  # the same by the identity of the op's kind and shapes (programs share shape objects)
        shape = [id(t.shape) for t in tensors] + [None]  # [-1]: a host value's
        self.sig, self.idx = [], []
        touching: list[list[int]] = [[] for _ in tensors]
        for j, o in enumerate(ops):
            members = (*o.operands, *o.results)
            quick = None if o.attrs or o.host_shapes else (o.kind, o.time, *map(shape.__getitem__, members))
            s = seen.get(quick) if quick is not None else None
            if s is None:
                s = sigs.setdefault(self._signature(o), len(sigs))
                if quick is not None:
                    seen[quick] = s
            self.sig.append(s)
            ix = members if min(members, default=0) >= 0 else tuple([i for i in members if i >= 0])
            self.idx.append(ix)
            for i in (ix if len(ix) < 2 or (len(ix) == 2 and ix[0] != ix[1]) else dict.fromkeys(ix)):
                touching[i].append(j)
        self.touching = touching

    def _signature(self, o: PlanOp) -> tuple:
        shapes = tuple(self.t[i].shape if i >= 0 else None for i in (*o.operands, *o.results))
        return (o.kind, shapes, tuple(sorted(o.attrs.items())) if o.attrs else (),
                tuple(sorted(o.host_shapes.items())) if o.host_shapes else (), o.time,
                tuple(sorted(o.host_dtypes.items())) if o.host_dtypes else ())

    def op_time(self, j: int, choice: list[Option]) -> float:
        key = (self.sig[j], *map(id, map(choice.__getitem__, self.idx[j])))
        hit = self.memo.get(key)
        if hit is None:
            hit = self.memo[key] = self._op_time(self.ops[j], choice).device_s
        return hit

    def cost(self, i: int, opt: Option, choice: list[Option]) -> float:
        """Seconds of the ops touching tensor i with it held by `opt`, the others as in `choice`."""
        keep, choice[i] = choice[i], opt
        sig, idx, memo, get = self.sig, self.idx, self.memo, choice.__getitem__
        s = 0  # op_time inlined: this is the search's inner loop
        for j in self.touching[i]:
            hit = memo.get((sig[j], *map(id, map(get, idx[j]))))
            s += self.op_time(j, choice) if hit is None else hit
        choice[i] = keep
        return s

    def _upload(self, o: PlanOp, k: int) -> Option | None:
        """The option of operand k, a host value the op uploads (None: no upload known)."""
        if k not in o.host_dtypes:
            return None
        key = (o.host_shapes[k], o.host_dtypes[k])
        opt = self.uploads.get(key)
        if opt is None:
            opt = self.uploads[key] = make_option(*key, None, HOST_UPLOAD_CONFIG, self.arch.name)
        return opt

    def _op_time(self, o: PlanOp, choice: list[Option]) -> OpTime:
        if o.time is not None:
            return o.time([choice[i] if i >= 0 else None for i in (*o.operands, *o.results)])
        ins = [(choice[i], self.t[i]) for i in o.operands if i >= 0]
        outs = [(choice[i], self.t[i]) for i in o.results if i >= 0]
        if o.kind is None or not outs:  # a transfer, collective or layout change: reads, writes
            # a host operand it uploads is written to DRAM, then read (a collective of a constant)
            up = [2 * h.nbytes for h in (self._upload(o, k) for k, i in enumerate(o.operands) if i < 0) if h]
            moved = [opt.nbytes for opt, _ in ins + outs] + up
            dram = sum(opt.nbytes for opt, _ in ins + outs if opt.dram) + sum(up)
            host = any(i < 0 for i in (*o.operands, *o.results))  # to or from the host: no program is launched
            return OpTime(dram=dram_s(self.arch, dram), noc=noc_s(self.arch, sum(moved), self.cores),
                          latency=0.0 if host else self.arch.op_launch_s)
        r, rt = outs[0]
        grid = self.chip if r.interleaved else r.grid
        held = [choice[i] if i >= 0 else self._upload(o, k) for k, i in enumerate(o.operands)]
        # a host operand is written to every device's DRAM first, then read as any DRAM operand
        noc = dram = sum(h.nbytes for h, i in zip(held, o.operands) if i < 0 and h is not None)
        readers = None
        if is_matmul(o.kind):
            gy, gx = (1, 1) if r.interleaved else r.grid
            times = [gx, gy] + [1] * (len(o.operands) - 2)
            for h, n in zip(held, times):
                if h is not None:
                    noc += h.nbytes * n
                    dram += h.nbytes * n if h.dram else 0
            a_shape, b_shape = (self.t[i].shape if i >= 0 else o.host_shapes[k] for k, i in enumerate(o.operands[:2]))
            b = held[1]
            b_dtype = self.t[o.operands[1]].dtype if o.operands[1] >= 0 else o.host_dtypes.get(1, rt.dtype)
            m, k, n = matmul_dims(a_shape, b_shape, o.attrs)
            compute = matmul_compute_s(self.arch, m, k, n, grid, o.attrs.get("math_fidelity"), b_dtype,
                                       math.prod(rt.shape[:-2]))
            sharded_b = b is not None and b.dram and not b.interleaved  # TTNN's DRAM-sharded matmul: a reader a bank
            readers = matmul_dram_readers(grid, b.grid[0] * b.grid[1] if sharded_b else None)
        else:
            for opt, i, k in zip(held, o.operands, range(len(held))):
                if opt is None:
                    continue
                shape = self.t[i].shape if i >= 0 else o.host_shapes[k]
                if (opt.config, opt.tile) != (r.config, r.tile) or opt.dram or shape != rt.shape:
                    noc += opt.nbytes
                    dram += opt.nbytes if opt.dram else 0
            compute = compute_s(self.arch, compute_op(o.kind).name, math.prod(rt.shape), grid[0] * grid[1], rt.dtype)
        if r.dram:
            noc += r.nbytes
            dram += r.nbytes
        return OpTime(compute=compute, dram=dram_s(self.arch, dram, readers), noc=noc_s(self.arch, noc, self.cores),
                      latency=self.arch.op_launch_s)


def plan_memory(tensors: list[PlanTensor], ops: list[PlanOp], arch: str, capacity: int | None = None,
                explained: bool = True) -> MemoryPlan:
    """Choose every tensor's option (module docstring); `explained`: with each tensor's Decision.
    PlanError when a core's L1 overflows with only fixed tensors (or none that another option
    frees bytes of) live there; Unplaceable when a tensor fits nowhere."""
    capacity = get_arch(arch).l1_size if capacity is None else int(capacity)
    model = _Model(tensors, ops, arch)
    touching = model.touching
    cache: dict = {}
    opts: list[dict[str, Option]] = []
    refused: list[dict[str, str]] = []
    rank: list[dict[str, int]] = []
    choice: list[Option] = []
    left: list[frozenset[str]] = []
    # the tensors of one shape, data type, tile and place (config object) share their options,
    # reasons, tie ranking, start and kinds left (the sweep replaces a tensor's kinds left)
    groups: dict[tuple, tuple] = {}
    for n, t in enumerate(tensors):
        key = (t.shape, t.dtype, t.tile, id(t.current), not t.fixed)
        g = groups.get(key)
        if g is None:
            if t.fixed:
                try:
                    own = _own_option(t, arch, cache)
                except LayoutError as e:
                    raise Unplaceable(f"{t.name} cannot be placed where it must stay: {e}", n) from None
                o, why = {kind_of(t.current): own}, {}
            else:
                o, why = _fitting_options(t, arch, capacity, cache)
                if not o:
                    raise Unplaceable(f"{t.name} fits nowhere: " + "; ".join(f"{k}: {w}" for k, w in why.items()), n)
            g = groups[key] = (o, why, _ranking(t, o), _start(t, o), frozenset(o), t.current)
        opts.append(g[0])
        refused.append(g[1])
        rank.append(g[2])
        choice.append(g[3])
        left.append(g[4])
    moved: dict[int, str] = {}

    cost = model.cost
    sig, idx = model.sig, model.idx
    order = sorted(range(len(tensors)), key=lambda i: (tensors[i].start, i))
    todo = set(range(len(tensors)))
    # a tensor's choice depends only on its options and tie ranking and, per op touching it, the op's
    # signature and its other tensors' options (the model's memo key): programs repeat, so a choice
    # is made once per such context
    decided: dict[tuple, Option] = {}
    for _ in range(2):
        changed: set[int] = set()
        for i in order:
            if i in todo and not tensors[i].fixed and len(left[i]) > 1:
                context = (id(opts[i]), id(rank[i]),
                           *[(sig[j], *[-1 if k == i else id(choice[k]) for k in idx[j]]) for j in touching[i]])
                best = decided.get(context)
                if best is None:
                    mine, ranked = opts[i], rank[i]
                    best = decided[context] = min((mine[k] for k in left[i]),
                                                  key=lambda o: (cost(i, o, choice), ranked[o.kind]))
                if best is not choice[i]:
                    choice[i] = best
                    changed.add(i)
        # again, for the tensors beside one that moved (a producer sees its consumers' places)
        todo = {k for i in changed for j in touching[i] for k in (*ops[j].operands, *ops[j].results) if k >= 0}

    _sweep(tensors, ops, choice, opts, left, rank, moved, model, arch, capacity)

    decisions = explain(tensors, ops, choice, arch, capacity, opts, refused, model, moved) if explained else None
    return MemoryPlan(choice, decisions, model, opts)


def _sweep(tensors: list[PlanTensor], ops: list[PlanOp], choice: list[Option], opts: list[dict[str, Option]],
           left: list[frozenset[str]], rank: list[dict[str, int]], moved: dict[int, str], model: _Model, arch: str,
           capacity: int) -> None:
    """Step 2 of the search (module docstring), moving tensors in `choice` one at a time. The L1
    use of every core at every step is kept by `l1_budget.L1Use`, which updates it over the moved
    tensor's live range instead of adding it up again (as ttnn-check-l1's spill does); a tensor's option times,
    and its cheapest move off a core, are kept until a tensor beside it (sharing an op) moves: a
    TTMetal program, whose buffers all live to its end, moves hundreds of them."""
    footprints: dict[int, tuple] = {}  # an option's L1 footprint (make_option's: its cores and bytes a core)

    def footprint(o: Option) -> tuple:
        hit = footprints.get(id(o))
        if hit is None:
            hit = footprints[id(o)] = (o.cores, o.per_core)
        return hit

    l1 = L1Use(tensors, arch, capacity, [footprint(c) for c in choice])
    costs: dict[tuple[int, str], float] = {}
    best_of: dict[int, dict] = {}

    def cost(i: int, o: Option) -> float:
        key = (i, o.kind)
        hit = costs.get(key)
        if hit is None:
            hit = costs[key] = model.cost(i, o, choice)
        return hit

    def cheapest(i: int, core) -> tuple | None:
        """Tensor i's move that adds the least time a byte it frees on `core` (with its tie keys)."""
        mine = best_of.setdefault(i, {})
        if core in mine:
            return mine[core]
        best = None
        here, now = choice[i].per_core, cost(i, choice[i])
        for k in left[i]:
            o = opts[i][k]
            freed = here - (o.per_core if core in o.cores else 0)
            if o is choice[i] or freed <= 0:
                continue
            key = ((cost(i, o) - now) / freed, -freed, -tensors[i].end, i, rank[i][k])
            if best is None or key < best[0]:
                best = (key, i, o)
        mine[core] = best
        return best

    while (at := l1.first_overflow()) is not None:
        step, core, held, live = at.step, at.core, at.bytes, at.live
        moves = [m for m in (cheapest(i, core) for i in live if not tensors[i].fixed) if m is not None]
        if not moves:
            raise PlanError(f"core ({core[0]}, {core[1]}) holds {held:,} B at step {step}, over its "
                            f"{capacity:,} B, and no tensor live there can move",
                            L1Point(step, core, held, live, {i: choice[i].per_core for i in live}))
        _, i, o = min(moves, key=lambda m: m[0])
        left[i] = left[i] - {choice[i].kind}
        moved[i] = (f"moved off {choice[i].describe()} at step {step}: core ({core[0]}, {core[1]}) held "
                    f"{held:,} B, over its {capacity:,} B L1; this move adds the least time a byte freed")
        t = tensors[i]
        choice[i] = o
        l1.move(i, LiveTensor(t.name, t.shape, t.dtype, o.config, t.tile, t.start, t.end), footprint(o))
        for j in model.touching[i]:  # the option times of the tensors beside it change
            for k in (*ops[j].operands, *ops[j].results):
                if k >= 0:
                    best_of.pop(k, None)
                    for kind in opts[k]:
                        costs.pop((k, kind), None)
        best_of.pop(i, None)


def explain(tensors: list[PlanTensor], ops: list[PlanOp], choice: list[Option] | None, arch: str,
            capacity: int | None = None, opts=None, refused=None, model: _Model | None = None,
            moved: dict[int, str] | None = None) -> list[Decision]:
    """Why each tensor sits where it does, with the others where they are: per option the time of
    the ops touching it and whether L1 would overflow with it there. `choice` None: every tensor
    where it is now (`current`), as `meshc-run --report` explains a lowered program."""
    capacity = get_arch(arch).l1_size if capacity is None else int(capacity)
    model = model or _Model(tensors, ops, arch)
    if opts is None:
        cache: dict = {}
        opts, refused = [], []
        for t in tensors:
            o, why = _fitting_options(t, arch, capacity, cache, keep=kind_of(t.current))
            if kind_of(t.current) not in o or o[kind_of(t.current)].config != t.current:
                o[kind_of(t.current)] = _own_option(t, arch, cache)
            opts.append(o if not t.fixed else {kind_of(t.current): o[kind_of(t.current)]})
            refused.append(why if not t.fixed else {})
        choice = [o[kind_of(t.current)] for t, o in zip(tensors, opts)]
    choice = list(choice)
    lives = [LiveTensor(t.name, t.shape, t.dtype, c.config, t.tile, t.start, t.end) for t, c in zip(tensors, choice)]
    budget = l1_budget(lives, arch, capacity)
    col = {c: n for n, c in enumerate(budget.cores)}

    def cost(i: int, opt: Option) -> float:
        return model.cost(i, opt, choice)

    def overflow(i: int, o: Option) -> str | None:
        """Where L1 first overflows with tensor i held by `o` instead (None: it fits)."""
        t, c = tensors[i], choice[i]
        extra = [x for x in o.cores if x not in col]
        if extra and o.per_core > capacity:
            return f"it needs {o.per_core:,} B a core"
        if budget.use is None or not o.cores:
            return None
        rows = budget.use[t.start:t.end + 1]
        cols = [col[x] for x in o.cores if x in col]
        now = rows[:, cols] - np.array([c.per_core if x in c.cores else 0 for x in o.cores if x in col]) + o.per_core
        over = np.argwhere(now > capacity)
        if not len(over):
            return None
        s, k = over[0]
        core = [x for x in o.cores if x in col][k]
        return (f"L1 would overflow at step {t.start + int(s)}: core ({core[0]}, {core[1]}) would hold "
                f"{int(now[s, k]):,} B, over its {capacity:,} B")

    decisions = []
    for i, t in enumerate(tensors):
        times = {k: cost(i, o) for k, o in opts[i].items()}
        mine = times[choice[i].kind]
        notes = dict(refused[i])
        cheaper = []
        for k, o in opts[i].items():
            if o is choice[i]:
                continue
            why = overflow(i, o)
            if why is not None:
                notes[k] = f"does not fit with the other tensors: {why}"
            if times[k] < mine * (1 - 1e-9):
                cheaper.append((k, why))
        if t.fixed:
            why = t.fixed
        elif (moved or {}).get(i):
            why = moved[i]
        elif not cheaper:
            why = "the only option" if len(opts[i]) == 1 else "the least modelled time"
        elif all(w is not None for _, w in cheaper):
            why = ("the least modelled time of the options that fit: " +
                   ", ".join(f"{k} is faster but does not fit" for k, _ in cheaper))
        else:
            why = "kept, though " + ", ".join(f"{k} would be faster and fits" for k, w in cheaper if w is None)
        decisions.append(Decision(choice[i], why, times, notes))
    return decisions


def _own_option(t: PlanTensor, arch: str, cache: dict) -> Option:
    """The option of where tensor t is now (`current`), made once per shape and place in `cache`."""
    key = (t.shape, t.dtype, t.tile, t.current, arch)
    own = cache.get(key)
    if not isinstance(own, Option):
        own = cache[key] = make_option(t.shape, t.dtype, t.tile, t.current, arch)
    return own


def _fitting_options(t: PlanTensor, arch: str, capacity: int, cache: dict,
                     keep: str | None = None) -> tuple[dict[str, Option], dict[str, str]]:
    """Tensor t's options and why it has no other, those over a core's L1 (`capacity`) moved to
    the reasons, except the kind `keep`."""
    o, why = tensor_options(t.shape, t.dtype, t.tile, arch, t.current, cache)
    for k in [k for k, v in o.items() if v.per_core > capacity and k != keep]:
        why[k] = f"does not fit: {o.pop(k).per_core:,} B a core, over the {capacity:,} B of a core's L1"
    return o, why


def _start(t: PlanTensor, opts: dict[str, Option]) -> Option:
    """Where the search starts a tensor: where it is when that is an option (ttir-layout's place),
    else DRAM interleaved (tt-mlir's default), else its first option."""
    own = opts.get(kind_of(t.current))
    if own is not None and own.config == t.current:
        return own
    return opts.get("dram_interleaved") or next(iter(opts.values()))


def _ranking(t: PlanTensor, opts: dict[str, Option]) -> dict[str, int]:
    """Tie order: the tensor's own layout first, then KINDS."""
    own = kind_of(t.current)
    order = [own] + [k for k in KINDS if k != own] + [k for k in opts if k not in KINDS and k != own]
    return {k: n for n, k in enumerate(order)}
