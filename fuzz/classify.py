"""The outcome classes of one fuzz input, and how a tool's exit code and output map onto them.

- ok: exit 0 (an API call that returned).
- located: exit 1 and every error names its place: `file:line:col: error:` with line >= 1, or
  an error about a command-line argument that names it (`meshc-opt: error: invalid pass
  pipeline ...`, `meshc-run: error: --input ...`). An API call that raised meshc's own
  `LayoutError` (or a subclass) counts here too.
- unlocated: exit 1 with an error that says neither (`file: error:`, `file:0:0: error:`).
- internal: exit 2, an uncaught exception, a Python warning leaking to the terminal, or an API
  call raising anything but a LayoutError.
- hang: past the per-input time limit.
- oom: past the per-input memory limit (MemoryError, or the worker killed).
- mismatch: meshc-run --check found the simulator and the golden run disagree.
- lost: a run that failed (exit != 0) changed or added a file: an input overwritten (`meshc-opt F
  --split-input-file -o F`), a partial output left behind (`--save-outputs`).
- accepted: an input that must be refused (nesting past MAX_NESTING, a duplicate mesh axis, an
  --input file that is not an .npy / .npz) exited 0.
- unread: the exit code changed when stderr was a pipe nobody reads.
The gate (`make test`, `make fuzz`) fails on internal, hang, oom, unlocated, lost, accepted and
unread.
"""

from __future__ import annotations

import re

CLASSES = ("ok", "located", "unlocated", "internal", "hang", "oom", "mismatch", "lost", "accepted", "unread")
FAILING = ("internal", "hang", "oom", "unlocated", "lost", "accepted", "unread")

_LOCATED = re.compile(r"^(?P<file>\S.*?):(?P<line>\d+):(?P<col>\d+): error: ")
_ERROR = re.compile(r"^\S.*?: error: ")
_COMMAND_LINE = re.compile(r"^meshc-(?:opt|run): error: ")
"""An error about the command line (pipeline, option, .npy or output path): the tool names the argument."""
_USAGE = re.compile(r"^usage: meshc-", re.M)
_CARET = re.compile(r"^\s*\^~*\s*$")


def error_lines(err: str) -> list[str]:
    """The head lines of the diagnostics in `err`, without the quoted source line and caret."""
    lines = err.split("\n")
    heads, i = [], 0
    while i < len(lines):
        line = lines[i]
        if _LOCATED.match(line) and i + 2 < len(lines) and _CARET.match(lines[i + 2]):
            heads.append(line)
            i += 3
            continue
        if _ERROR.match(line) or "internal error" in line:
            heads.append(line)
        i += 1
    return heads


def is_located(line: str) -> bool:
    m = _LOCATED.match(line)
    if m:
        return int(m.group("line")) >= 1 and int(m.group("col")) >= 1
    return bool(_COMMAND_LINE.match(line))


def classify_tool(code: int | None, out: str, err: str) -> str:
    """The class of a tool run from its exit code and its stdout / stderr text."""
    if re.search(r"\b\w+Warning: ", err):
        return "internal"
    if code == 0:
        return "ok"
    if code == 1:
        if re.search(r"^check: MISMATCH", err, re.M) and code == 1 and "error:" not in err:
            return "mismatch"
        heads = error_lines(err)
        if not heads or not all(is_located(h) for h in heads):
            return "unlocated"
        return "located"
    if code == 2 and _USAGE.search(err):  # argparse's own usage errors: about the command line
        return "located"
    if code == 2 and "MemoryError" in err:
        return "oom"
    return "internal"


def signature(klass: str, message: str) -> str:
    """A short key grouping failures of one cause: the class and the first error line, numbers and
    names blurred."""
    lines = error_lines(message) or [line for line in message.splitlines() if "error" in line.lower()]
    internal = [line for line in message.splitlines() if "internal error" in line or "Warning: " in line]
    if klass == "unlocated":
        lines = [line for line in lines if not is_located(line)] or lines
    first = (internal or lines or message.strip().splitlines() or [""])[0]
    first = re.sub(r"^\S+?:\d+:\d+: ", "", first)
    first = re.sub(r"\S*/in\.mlir", "FILE", first)
    first = re.sub(r"byte 0x[0-9a-f]+|'utf-8' codec|position \d+(-\d+)?", "", first)
    first = re.sub(r"'[^']*'|\"[^\"]*\"", "'_'", first)
    first = re.sub(r"-?\d+", "N", first)
    return f"{klass}: {first[:160]}"
