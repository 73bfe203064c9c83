"""Forked workers that run cases under per-input time and memory limits.

The parent imports meshc once (`execute.preload`), then forks the workers; each runs case
after case in-process (no new interpreter per input) with RLIMIT_AS set to its size at start
plus the memory limit, and a CPU-time interval timer per input. The parent also keeps a
watchdog on the worker's CPU time (from /proc): a worker that has used the time limit plus a
grace period on one input without answering (a hang in C code the timer cannot interrupt) is
killed and its input counted as a hang; so is one silent for half an hour of wall time. CPU
time, not wall time, so a heavily shared machine does not turn slow inputs into hangs. A worker that dies or hits a limit is
replaced, and every worker is replaced after `recycle` inputs so no state builds up.
"""

from __future__ import annotations

import gc
import multiprocessing as mp
import os
import resource
import signal
import sys
import time
from collections.abc import Iterable, Iterator
from multiprocessing.connection import wait

from fuzz.case import Case
from fuzz.execute import run_case

CPU_GRACE = 5.0
"""CPU seconds past the per-input limit before the watchdog kills a worker."""
WALL_CAP = 1800.0
"""Wall-clock seconds after which a silent worker is killed whatever its CPU time."""
_TICK = os.sysconf("SC_CLK_TCK")


def _cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process, from /proc/PID/stat."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / _TICK
    except (OSError, IndexError, ValueError):
        return 0.0


def _vm_size() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    return 0  # pragma: no cover


def _worker(conn, scratch: str, time_limit: float, mem_limit: int) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    limit = _vm_size() + mem_limit
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    sys.stdin = open(os.devnull)
    workdir = os.path.join(scratch, f"w{os.getpid()}")
    while True:
        try:
            msg = conn.recv()
        except EOFError:
            break
        if msg is None:
            break
        idx, case = msg
        try:
            klass, message = run_case(case, workdir, time_limit)
        except MemoryError:
            klass, message = "oom", "MemoryError"
        except BaseException as e:  # noqa: BLE001 - the harness must survive anything an input does
            klass, message = "internal", f"{type(e).__name__} escaped the case: {e}"
        try:
            conn.send((idx, klass, message))
        except MemoryError:
            conn.send((idx, "oom", "MemoryError"))
        if klass in ("oom", "hang"):
            break  # a fresh worker for the next input
    os._exit(0)


class _Slot:
    def __init__(self, pool: "Pool"):
        parent, child = mp.Pipe()
        ctx = mp.get_context("fork")
        self.proc = ctx.Process(target=_worker, args=(child, pool.scratch, pool.time_limit, pool.mem_limit),
                                daemon=True)
        self.proc.start()
        child.close()
        self.conn = parent
        self.job: tuple[int, Case] | None = None
        self.started = 0.0
        self.cpu_at_start = 0.0
        self.done = 0

    def kill(self) -> None:
        if self.proc.is_alive():
            os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.join(5)
        self.conn.close()


class Pool:
    """`run(cases)` yields (index, case, class, message) in completion order."""

    def __init__(self, workers: int, time_limit: float, mem_limit_mb: int, scratch: str, recycle: int = 400):
        self.workers, self.time_limit, self.recycle = workers, time_limit, recycle
        self.mem_limit = mem_limit_mb * 1024 * 1024
        self.scratch = scratch
        os.makedirs(scratch, exist_ok=True)

    def run(self, cases: Iterable[Case]) -> Iterator[tuple[int, Case, str, str]]:
        gc.collect()
        gc.freeze()  # the imported modules stay shared with the workers, not copied on write
        todo = iter(enumerate(cases))
        slots = [_Slot(self) for _ in range(self.workers)]
        exhausted = False
        try:
            while True:
                for i, s in enumerate(slots):
                    if s.job is None and not exhausted:
                        if s.done >= self.recycle:
                            s.conn.send(None)
                            s.proc.join(5)
                            s.kill()
                            slots[i] = s = _Slot(self)
                        nxt = next(todo, None)
                        if nxt is None:
                            exhausted = True
                            break
                        s.job, s.started = nxt, time.monotonic()
                        s.cpu_at_start = _cpu_seconds(s.proc.pid)
                        s.conn.send(nxt)
                busy = [s for s in slots if s.job is not None]
                if not busy:
                    return
                ready = wait([s.conn for s in busy], timeout=0.5)
                now = time.monotonic()
                for i, s in enumerate(slots):
                    if s.job is None:
                        continue
                    idx, case = s.job
                    if s.conn in ready:
                        try:
                            ridx, klass, message = s.conn.recv()
                        except (EOFError, OSError):
                            s.proc.join(5)
                            code = s.proc.exitcode
                            klass = "oom" if code == -signal.SIGKILL else "internal"
                            message = f"the worker died (exit code {code})"
                            ridx = idx
                        s.job = None
                        s.done += 1
                        yield ridx, case, klass, message
                        if klass in ("oom", "hang") or not s.proc.is_alive():
                            s.kill()
                            slots[i] = _Slot(self)
                    else:
                        cpu = _cpu_seconds(s.proc.pid) - s.cpu_at_start
                        if cpu > self.time_limit + CPU_GRACE or now - s.started > WALL_CAP:
                            s.kill()
                            slots[i] = _Slot(self)
                            yield idx, case, "hang", (f"killed after {cpu:.0f} CPU seconds, {now - s.started:.0f} s "
                                                      "of wall time (did not answer the timer)")
        finally:
            for s in slots:
                try:
                    s.conn.send(None)
                except (OSError, BrokenPipeError):
                    pass
                s.kill()
            gc.unfreeze()
