"""The pipeline schedule: when each stage runs each microbatch, given how long each stage call and
each transfer takes (the seconds the simulator charged; nothing here knows what an op costs).

GPipe (forward): the batch is split into M microbatches; stage s runs microbatch 0, 1, ..., M-1 in
order, each as soon as the stage is free and every value it reads has arrived (a stage's weights,
written once from the host, as soon as the stage is free). A transfer from
stage j to stage i of microbatch m starts when stage j has finished m and the previous transfer on
the same pair of devices has arrived (the links between two devices carry one transfer at a time),
and arrives its seconds later. Stages and transfers run concurrently otherwise, so the stages
overlap: while stage 1 runs microbatch 0, stage 0 runs microbatch 1.

From the timeline: each stage's busy time (the sum of its calls), the makespan, the pipeline bubble
(the idle share of the stages' time, 1 - sum(busy) / (S x makespan): (S - 1) / (M + S - 1) for S
equal stages without transfers, GPipe's figure) and the throughput (samples / makespan).
1F1B interleaves each microbatch's backward part with later forwards; it needs a backward part,
which this schedule does not take (no program here has one).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Call:
    """One stage call (source == -1) or one transfer (from stage `source` to `stage`)."""

    stage: int
    microbatch: int
    seconds: float
    source: int = -1
    kind: str = ""
    """What the call is, for the timeline ("load": a stage's weights written once); the stage is
    busy for it like for a call."""

    @property
    def is_transfer(self) -> bool:
        return self.source >= 0


@dataclass
class Slot:
    """A call placed on the timeline."""

    call: Call
    start: float
    end: float


@dataclass
class Schedule:
    stages: int
    microbatches: int
    slots: list[Slot] = field(default_factory=list)

    @property
    def makespan(self) -> float:
        return max((s.end for s in self.slots), default=0.0)

    def busy(self, stage: int) -> float:
        """Seconds stage `stage` computes (its calls, transfers not included)."""
        return sum(s.call.seconds for s in self.slots if not s.call.is_transfer and s.call.stage == stage)

    @property
    def serial(self) -> float:
        """Seconds of everything one after the other (no overlap): the run without pipelining."""
        return sum(s.call.seconds for s in self.slots)

    @property
    def bubble(self) -> float:
        """The idle share of the stages' time over the makespan."""
        span = self.makespan
        if span <= 0:
            return 0.0
        return 1.0 - sum(self.busy(s) for s in range(self.stages)) / (self.stages * span)

    def throughput(self, samples: int) -> float:
        """Samples a second over the makespan."""
        span = self.makespan
        return samples / span if span > 0 else 0.0


def gpipe(calls: list[Call], stages: int) -> Schedule:
    """Place `calls` (in program order within each microbatch) on the GPipe forward timeline."""
    microbatches = 1 + max((c.microbatch for c in calls), default=-1)
    stage_free = [0.0] * stages
    pair_free: dict[tuple[int, int], float] = {}
    done: dict[tuple[int, int], float] = {}  # (stage, microbatch) -> end of its call
    arrived: dict[tuple[int, int], float] = {}  # (stage, microbatch) -> last arrival into it
    sched = Schedule(stages, microbatches)
    for c in sorted(calls, key=lambda c: c.microbatch):  # stable: program order within a microbatch
        if c.is_transfer:
            pair = (c.source, c.stage)
            start = max(done.get((c.source, c.microbatch), 0.0), pair_free.get(pair, 0.0))
            end = start + c.seconds
            pair_free[pair] = end
            key = (c.stage, c.microbatch)
            arrived[key] = max(arrived.get(key, 0.0), end)
        else:  # a load (a weight from the host) waits for the stage only, a call for its inputs too
            ready = 0.0 if c.kind == "load" else arrived.get((c.stage, c.microbatch), 0.0)
            start = max(stage_free[c.stage], ready)
            end = start + c.seconds
            stage_free[c.stage] = end
            done[(c.stage, c.microbatch)] = end
        sched.slots.append(Slot(c, start, end))
    return sched
