"""Running one `Case` inside a worker: the tool's `run` in-process, output captured, classified.

A tool case writes its files into the worker's scratch directory and calls the tool exactly as
its console script does (`tool_main`), catching the `SystemExit`; an API case calls the
meshc.layout function. The per-input time limit is in CPU seconds (an ITIMER_PROF timer, so a
busy shared machine does not turn slow inputs into hangs) raising `Timeout` (a BaseException,
so no `except Exception` in meshc swallows it); the memory limit is the worker's RLIMIT_AS,
which turns a huge allocation into a MemoryError.

Besides the tool's own outcome, a run is held to three promises: a run that fails leaves the
scratch directory as it found it (no input overwritten, no partial output: class "lost"); an
input marked `must_fail` is refused ("accepted" if it exits 0); and with `stderr_closed` the tool
runs again with a stderr whose every write fails as on a closed pipe, and must exit with the same
code ("unread").
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import io
import os
import shutil
import signal
import warnings

from fuzz.case import TOOLS, Case
from fuzz.classify import classify_tool
from meshc.tools.common import tool_main


class Timeout(BaseException):
    """The input ran past its time limit."""


def _on_alarm(signum, frame):
    raise Timeout()


def preload() -> None:
    """Import everything an input may touch, once, before the workers fork."""
    import meshc  # noqa: F401
    import meshc.interp.runner  # noqa: F401
    import meshc.layout.reshard  # noqa: F401
    import meshc.driver  # noqa: F401  (meshc-opt imports it once its arguments are read)
    import meshc.tools.opt  # noqa: F401
    import meshc.tools.pass_catalog  # noqa: F401
    import meshc.tools.run  # noqa: F401
    import meshc.tools.import_stablehlo  # noqa: F401
    from meshc.dialects import get_all_dialects
    from meshc.passes import get_all_passes

    for factory in get_all_dialects().values():
        factory()
    get_all_passes()
    import fuzz.api  # noqa: F401
    import meshc.layout as L

    for name in dir(L):
        getattr(L, name, None)


def _tool(kind: str):
    from meshc.tools import import_stablehlo, opt, run

    return TOOLS[kind], {"opt": opt.run, "run": run.run, "import": import_stablehlo.run}[kind]


def run_case(case: Case, workdir: str, time_limit: float) -> tuple[str, str]:
    """(class, message) of one case."""
    signal.signal(signal.SIGPROF, _on_alarm)
    signal.setitimer(signal.ITIMER_PROF, time_limit)
    try:
        if case.kind == "api":
            from fuzz.api import run_api_case

            return run_api_case(case)
        return _run_tool(case, workdir)
    except Timeout:
        return "hang", f"no result after {time_limit:g} CPU seconds"
    except MemoryError as e:
        return "oom", f"MemoryError: {e}"
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)


class ClosedPipe(io.TextIOBase):
    """A stderr nobody reads: every write fails as on a pipe whose reader has gone (EPIPE)."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise BrokenPipeError(errno.EPIPE, "Broken pipe")

    def flush(self) -> None:
        raise BrokenPipeError(errno.EPIPE, "Broken pipe")


def snapshot(workdir: str) -> dict[str, str]:
    """Every file under `workdir`: relative path -> a hash of its bytes."""
    out = {}
    for root, _, names in os.walk(workdir):
        for n in names:
            path = os.path.join(root, n)
            with open(path, "rb") as f:
                out[os.path.relpath(path, workdir)] = hashlib.sha1(f.read()).hexdigest()
    return out


def _invoke(prog: str, run, argv: list[str], err) -> tuple[int | None, str, str | None]:
    """(exit code, stdout, what escaped the tool or None) of one in-process run, stderr to `err`."""
    out = io.StringIO()
    code: int | None = None
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), warnings.catch_warnings():
        warnings.simplefilter("default")
        try:
            tool_main(prog, run, argv)
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        except (Timeout, MemoryError):
            raise
        except BaseException as e:  # noqa: BLE001 - anything else escaping the tool is a bug
            return code, out.getvalue(), f"{type(e).__name__} escaped {prog}: {e}"
    return code, out.getvalue(), None


def _run_tool(case: Case, workdir: str) -> tuple[str, str]:
    if os.path.isdir(workdir):
        shutil.rmtree(workdir, ignore_errors=True)
    os.makedirs(workdir)
    for name, data in case.files.items():
        with open(os.path.join(workdir, name), "wb") as f:
            f.write(data)
    before = snapshot(workdir)
    argv = [a.replace("{dir}", workdir) for a in case.argv]
    prog, run = _tool(case.kind)
    err = io.StringIO()
    code, out, escaped = _invoke(prog, run, argv, err)
    if escaped is not None:
        return "internal", escaped
    text = err.getvalue()
    klass = classify_tool(code, out, text)
    if len(text) > 6000:
        text = text[:3000] + "\n...\n" + text[-3000:]
    message = f"exit {code}\n{text}"
    if code != 0 and klass != "oom":
        after = snapshot(workdir)
        changed = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
        if changed:
            return "lost", f"{message}\nthe failed run changed or added: {', '.join(changed)}"
    if code == 0 and case.must_fail:
        return "accepted", f"{message}\nexit 0 on an input that must be refused: {case.must_fail}"
    if case.stderr_closed and klass not in ("hang", "oom"):
        for name, data in case.files.items():  # the same inputs again
            with open(os.path.join(workdir, name), "wb") as f:
                f.write(data)
        closed, _, escaped = _invoke(prog, run, argv, ClosedPipe())
        if closed != code:
            return "unread", (f"{message}\nwith stderr a closed pipe: exit {closed}"
                              + (f" ({escaped})" if escaped else ""))
    return klass, message
