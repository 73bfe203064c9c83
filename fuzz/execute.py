"""Running one `Case` inside a worker: the tool's `run` in-process, output captured, classified.

A tool case writes its files into the worker's scratch directory and calls the tool exactly as
its console script does (`tool_main`), catching the `SystemExit`; an API case calls the
meshc.layout function. The per-input time limit is in CPU seconds (an ITIMER_PROF timer, so a
busy shared machine does not turn slow inputs into hangs) raising `Timeout` (a BaseException,
so no `except Exception` in meshc swallows it); the memory limit is the worker's RLIMIT_AS,
which turns a huge allocation into a MemoryError.
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import signal
import warnings

from fuzz.case import TOOLS, Case
from fuzz.classify import classify_tool


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


def _run_tool(case: Case, workdir: str) -> tuple[str, str]:
    from meshc.tools.common import tool_main

    if os.path.isdir(workdir):
        shutil.rmtree(workdir, ignore_errors=True)
    os.makedirs(workdir)
    for name, data in case.files.items():
        with open(os.path.join(workdir, name), "wb") as f:
            f.write(data)
    argv = [a.replace("{dir}", workdir) for a in case.argv]
    prog, run = _tool(case.kind)
    out, err = io.StringIO(), io.StringIO()
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
            return "internal", f"{type(e).__name__} escaped {prog}: {e}"
    text = err.getvalue()
    klass = classify_tool(code, out.getvalue(), text)
    if len(text) > 6000:
        text = text[:3000] + "\n...\n" + text[-3000:]
    return klass, f"exit {code}\n{text}"
