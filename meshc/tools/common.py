"""What meshc's command-line tools share: the `main` that runs a tool and turns its outcome into
an exit code, and writing a tool's text output (`write_output`).

A tool's `run(argv) -> int` reports bad input itself (located errors, exit 1). `tool_main`
adds the rest, the same for every tool: a closed pipe is a quiet success, Ctrl-C exits 130,
and any other exception is an internal bug, printed as one line naming the tool (exit 2; set
MESHC_TRACEBACK=1 for the Python traceback).
"""

from __future__ import annotations

import os
import sys
import traceback
from collections.abc import Callable


def tool_main(prog: str, run: Callable[[list[str] | None], int], argv: list[str] | None = None) -> None:
    """Run `run(argv)` as the tool `prog` and exit with its code (see the module docstring)."""
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
    sys.exit(code)


def write_output(prog: str, path: str | None, text: str) -> bool:
    """`text` into the file `path` (stdout when None); False, after saying why as `prog`, when
    the file cannot be written."""
    if not path:
        sys.stdout.write(text)
        return True
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as e:
        print(f"{prog}: error: cannot write '{path}': {e.strerror}", file=sys.stderr)
        return False
    return True
