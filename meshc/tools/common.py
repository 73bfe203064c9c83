"""What meshc's command-line tools share: the `main` that runs a tool and turns its outcome into
an exit code, `--version` (`add_version`), writing a tool's text output (`write_output`) and
saying on stderr what a tool wrote (`wrote`: stdout stays the tool's output alone).

A tool's `run(argv) -> int` reports bad input itself (located errors, exit 1). `tool_main`
adds the rest, the same for every tool: a closed pipe is a quiet success, Ctrl-C exits 130,
and any other exception is an internal bug, printed as one line naming the tool (exit 2; set
MESHC_TRACEBACK=1 for the Python traceback).
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from collections.abc import Callable

from meshc.tools.safe_io import LossyStream, write_text_atomic
from importlib.metadata import PackageNotFoundError, version

from meshc import __version__


def tool_main(prog: str, run: Callable[[list[str] | None], int], argv: list[str] | None = None) -> None:
    """Run `run(argv)` as the tool `prog` and exit with its code (see the module docstring)."""
    err = sys.stderr = LossyStream(sys.stderr)  # a message nobody reads never changes the exit code
    try:
        try:
            code = run(argv)
        except BrokenPipeError:  # pragma: no cover
            code = 0
        except KeyboardInterrupt:  # pragma: no cover
            code = 130
        except Exception as e:  # an internal bug, not bad input: say so, briefly
            if os.environ.get("MESHC_TRACEBACK"):
                traceback.print_exc()
            print(f"{prog}: internal error: {type(e).__name__}: {e} "
                  "(set MESHC_TRACEBACK=1 for the traceback)", file=sys.stderr)
            code = 2
    finally:
        sys.stderr = err.wrapped
    if err.lost and err.wrapped is sys.__stderr__:  # Python's flush of the dead stderr at exit would make it 120
        try:
            sys.stdout.flush()
        except (OSError, ValueError):
            pass
        os._exit(code)
    sys.exit(code)


def version_text(prog: str) -> str:
    """`meshc-run 0.1.0 (xDSL 0.74.0)`: the tool, meshc's version and the xDSL it runs on."""
    try:
        xdsl = version("xdsl")
    except PackageNotFoundError:  # pragma: no cover - xdsl is a dependency
        xdsl = "not installed"
    return f"{prog} {__version__} (xDSL {xdsl})"


class _Version(argparse.Action):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, nargs=0, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        print(version_text(parser.prog))
        parser.exit(0)


def add_version(parser: argparse.ArgumentParser) -> None:
    """`--version`: print `version_text(parser.prog)` and exit 0 (xDSL's version is read from its
    package metadata, without loading it)."""
    parser.add_argument("--version", action=_Version, help="print the tool's, meshc's and xDSL's versions and exit")


def wrote(prog: str, path: str, what: str) -> None:
    """Say on stderr what `prog` wrote to `path` (`meshc-viz: wrote out.png (a 1700x990 PNG)`)."""
    print(f"{prog}: wrote {path} ({what})", file=sys.stderr)


def write_output(prog: str, path: str | None, text: str) -> bool:
    """`text` into the file `path` (stdout when None); False, after saying why as `prog`, when
    the file cannot be written."""
    if not path:
        sys.stdout.write(text)
        return True
    try:
        write_text_atomic(path, text)  # complete or not at all: an input it replaces survives a failure
    except OSError as e:
        print(f"{prog}: error: cannot write '{path}': {e.strerror}", file=sys.stderr)
        return False
    wrote(prog, path, f"{text.count(chr(10))} lines")
    return True
