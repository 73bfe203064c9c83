"""The memory plan's reshard phase: copies of a tensor into the place one consumer reads it
fastest from, taken where the time model says the copy pays and L1 still fits.

tt-mlir's layout optimizer inserts a `ttnn.to_memory_config` where an operand's layout is not the
one its consumer wants. meshc's ops read an operand from wherever it sits (paying the NoC and
DRAM bytes of the simulator's time model), so a copy is never needed, only sometimes faster: a
tensor kept in DRAM over a long range because L1 is tight there, read by a matmul as A once per
column of its result's grid (each read from DRAM), is faster copied into L1 just before the
matmul (one DRAM read, then the matmul's reads over the NoC).

After `plan_memory` has placed every tensor (`choice`), for each compute op (the consumer) and
each device tensor it reads, in program order, the phase prices every other option the tensor
has in L1 (the options that fit a core's L1, `memory_plan`'s):

- a new copy: the to_memory_config (timed as the model times any transfer: its bytes read where
  the tensor is and written where the copy is) plus the consumer reading the copy, against the
  consumer reading the tensor where it is, the other operands as chosen (or as copied for this
  consumer before); the copy lives from its to_memory_config (just before the consumer) to the
  consumer;
- the copy of the tensor into that option made for an earlier consumer, kept alive to this one:
  no copy time, the copy's range extended to this consumer.

The choice saving the most is taken when it saves time and L1 still holds the copy over its
(new) range; the tensor's own range ends at the copy when the consumer was its last reader.
Steps are doubled for this (the op at step s is 2s + 1, a copy before it 2s), so the budget is
the one `ttnn-check-l1` checks after the copies are inserted.

Copies go to L1 only (a copy into DRAM pays only where reading it in DRAM is faster than where it
is, which L1 always beats; the DRAM budget stays ttnn-check-l1's). Ties go to the order of
`memory_options.KINDS`, a kept copy before a new one. Tensors kept where they are
(`PlanTensor.fixed`) have one option and get no copies.
"""

from __future__ import annotations

from dataclasses import dataclass

from meshc.layout.l1_budget import L1Use, LiveTensor
from meshc.layout.memory_options import Option
from meshc.layout.memory_plan import MemoryPlan, PlanOp, PlanTensor, plan_memory
from meshc.layout.system import get_arch


@dataclass(frozen=True)
class Reshard:
    """A copy of tensor `tensor` (held by `source`) into `option`, read by the ops `consumers`
    instead (the copy is made just before the first)."""

    tensor: int
    consumers: tuple[int, ...]
    source: Option
    option: Option
    copy_s: float
    """Modelled seconds of the to_memory_config."""
    before_s: float
    """The consumers' modelled seconds reading the tensor where it is."""
    after_s: float
    """The consumers' modelled seconds reading the copy."""

    @property
    def saved_s(self) -> float:
        return self.before_s - self.copy_s - self.after_s


@dataclass
class ReshardPlan:
    reshards: list[Reshard]
    plan: MemoryPlan
    changed: dict[int, float]
    """The modelled seconds of the ops reading a copy (the others' are the plan's)."""

    @property
    def op_seconds(self) -> list[float]:
        """Modelled seconds of each op with the copies (a copy's own time is its Reshard's)."""
        out = list(self.plan.op_seconds)
        for j, s in self.changed.items():
            out[j] = s
        return out

    @property
    def saved_s(self) -> float:
        return sum(r.saved_s for r in self.reshards)


def copy_seconds(t: PlanTensor, source: Option, option: Option, arch: str) -> float:
    """Modelled seconds of a to_memory_config moving tensor t from `source` to `option`: the plan's
    time of that one op (a transfer: what it reads and writes), on a program of it alone."""
    src = PlanTensor(t.name, t.shape, t.dtype, t.tile, 0, 0, source.config, fixed="the source")
    copy = PlanTensor(t.name, t.shape, t.dtype, t.tile, 0, 0, option.config, fixed="the copy")
    return plan_memory([src, copy], [PlanOp(None, (0,), (1,))], arch, capacity=2 ** 62, explained=False).op_seconds[0]


def plan_reshards(tensors: list[PlanTensor], ops: list[PlanOp], plan: MemoryPlan, arch: str,
                  capacity: int | None = None, steps: list[int] | None = None) -> ReshardPlan:
    """The copies worth making after `plan` (module docstring). `steps`: each op's step in the
    program (the steps the tensors' live ranges count in); None: its index."""
    capacity = get_arch(arch).l1_size if capacity is None else int(capacity)
    steps = list(range(len(ops))) if steps is None else list(steps)
    choice, model = plan.choice, plan.model
    changed: dict[int, float] = {}
    use = None  # the L1 use over the doubled steps, added up when a copy first pays
    view = list(choice)  # the options one consumer reads (its copies in place of the tensors)
    options: dict[int, list[Option]] = {}
    others: dict[tuple, list[Option]] = {}  # by the tensor's options and choice (shared by tensors of one shape)
    copies: dict[tuple, float] = {}
    out: list[Reshard] = []
    made: dict[int, list[int]] = {}  # per tensor, its copies (indices into out)
    for j, o in enumerate(ops):
        if o.kind is None or getattr(o, "time", None) is not None:  # a compute op the model times
            continue
        at = 2 * steps[j]
        taken = []
        # A new copy pays only if the consumer reading the tensor where it is takes more than the
        # copy (a transfer on the device: at least a launch) and the consumer reading the copy (a
        # compute op with a device result: at least a launch); so not below two launches
        floor = 2 * model.arch.op_launch_s if any(r >= 0 for r in o.results) else -1.0
        for i in dict.fromkeys(k for k in o.operands if k >= 0):
            if i not in made and model.op_time(j, view) <= floor:
                continue
            if i not in options:
                mine = (id(choice[i]), *map(id, plan.options[i].values()))
                if mine not in others:
                    others[mine] = [x for x in plan.options[i].values() if x.config != choice[i].config and not x.dram]
                options[i] = others[mine]
            if not options[i]:
                continue
            before = model.op_time(j, view)
            ranked = []
            for n, x in enumerate(options[i]):
                key = (id(choice[i]), id(x))  # options are shared by tensors of one shape and place
                if key not in copies:
                    copies[key] = copy_seconds(tensors[i], choice[i], x, arch)
                view[i] = x
                after = model.op_time(j, view)
                view[i] = choice[i]
                for k in made.get(i, []):  # kept alive from the copy made for an earlier consumer
                    if out[k].option is x and before - after > 1e-9 * before:
                        ranked.append((after - before, n, 0, x, after, k))
                if before - copies[key] - after > 1e-9 * before:
                    ranked.append((copies[key] + after - before, n, 1, x, after, None))
            for _, _, _, x, after, k in sorted(ranked, key=lambda r: r[:3]):
                first = at if k is None else 2 * steps[out[k].consumers[-1]] + 2
                if use is None:
                    use = _l1_use(tensors, choice, arch, capacity)
                if not use.fits((x.cores, x.per_core), first, at + 1):
                    continue
                _take(use, x, first, at + 1, i, tensors[i], choice[i], steps[j])
                view[i] = x
                taken.append(i)
                if k is None:
                    made.setdefault(i, []).append(len(out))
                    out.append(Reshard(i, (j,), choice[i], x, copies[(id(choice[i]), id(x))], before, after))
                else:
                    r = out[k]
                    out[k] = Reshard(i, (*r.consumers, j), r.source, x, r.copy_s, r.before_s + before,
                                     r.after_s + after)
                break
        if taken:
            changed[j] = model.op_time(j, view)
            for i in taken:
                view[i] = choice[i]
    return ReshardPlan(out, plan, changed)


def _l1_use(tensors: list[PlanTensor], choice: list[Option], arch: str, capacity: int) -> L1Use:
    """The L1 use of the tensors as planned over the doubled steps (the op at step s at 2s + 1;
    each option's footprint is make_option's: its cores and bytes a core)."""
    held: dict[int, tuple] = {}  # one footprint object an option
    return L1Use([LiveTensor(t.name, t.shape, t.dtype, c.config, t.tile, 2 * t.start + 1, 2 * t.end + 1)
                  for t, c in zip(tensors, choice)], arch, capacity,
                 [held.setdefault(id(c), (c.cores, c.per_core)) for c in choice])


def _take(use: L1Use, x: Option, first: int, last: int, i: int, t: PlanTensor, source: Option, step: int) -> None:
    """Hold the copy over [first, last] in the L1 use; the tensor's own range ends before the
    consumer (at `step`) when that was its last reader."""
    use.reserve((x.cores, x.per_core), first, last)
    if t.end == step and source.cores:
        use.move(i, LiveTensor(t.name, t.shape, t.dtype, source.config, t.tile, 2 * t.start + 1, 2 * step),
                 use.footprints[i])
