"""One fuzz input (`Case`): a tool run (argv plus the files it reads) or a Python API call.

Cases are plain picklable data, built in the parent (deterministically from the seed) and
executed in a forked worker. In `argv`, `{dir}` stands for the worker's scratch directory.
"""

from __future__ import annotations

from dataclasses import dataclass, field


TOOLS = {"opt": "meshc-opt", "run": "meshc-run", "import": "meshc-import"}
"""The console script a tool case's kind runs."""


@dataclass
class Case:
    kind: str
    """"opt" (meshc-opt), "run" (meshc-run), "import" (meshc-import) or "api" (a meshc.layout call)."""
    origin: str
    """The seed it was mutated from, and the mutations applied (for the report)."""
    argv: list[str] = field(default_factory=list)
    files: dict[str, bytes] = field(default_factory=dict)
    """Files written into the scratch directory before the run: name -> bytes."""
    call: str = ""
    """For "api": the meshc.layout function to call."""
    args: tuple = ()
    kwargs: dict = field(default_factory=dict)
    stderr_closed: bool = False
    """Run the tool a second time with stderr a pipe nobody reads: its exit code must not change."""
    must_fail: str = ""
    """Why the input is bad whatever else happens (nesting past the limit, a duplicate mesh axis, an
    input file that is not one): exit 0 is then the class "accepted"."""

    def describe(self) -> str:
        if self.kind == "api":
            parts = [repr(a) for a in self.args] + [f"{k}={v!r}" for k, v in self.kwargs.items()]
            text = f"meshc.layout.{self.call}({', '.join(parts)})"
            return text if len(text) < 2000 else text[:2000] + " ..."
        tool = TOOLS[self.kind]
        line = " ".join([tool] + [_quote(a) for a in self.argv])
        return line + (" 2>&- (stderr closed)" if self.stderr_closed else "")


def _quote(a: str) -> str:
    return a if a and all(c.isalnum() or c in "-_./={}," for c in a) else "'" + a.replace("'", "'\\''") + "'"
