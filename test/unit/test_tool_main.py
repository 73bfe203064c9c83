"""meshc.tools.common.tool_main: the exit codes every meshc tool shares (the tool's own code; a
closed pipe 0; an internal bug one line naming the tool, exit 2, no traceback unless asked)."""

import pytest

from meshc.tools.common import tool_main
from meshc.tools.viz import main as viz_main


def _exit_code(prog, run, argv=None) -> int:
    with pytest.raises(SystemExit) as e:
        tool_main(prog, run, argv)
    return e.value.code


def test_the_tool_code_is_the_exit_code():
    seen = []
    assert _exit_code("meshc-x", lambda argv: seen.append(argv) or 1, ["a.mlir"]) == 1
    assert seen == [["a.mlir"]]


def test_a_closed_pipe_is_a_success():
    def run(argv):
        raise BrokenPipeError

    assert _exit_code("meshc-x", run) == 0


def test_an_internal_bug_is_one_line_and_exit_2(capsys, monkeypatch):
    monkeypatch.delenv("MESHC_TRACEBACK", raising=False)

    def run(argv):
        raise KeyError("oops")

    assert _exit_code("meshc-x", run) == 2
    err = capsys.readouterr().err
    assert err == "meshc-x: internal error: KeyError: 'oops' (set MESHC_TRACEBACK=1 for the traceback)\n"


def test_meshc_viz_bad_flags_exit_1(capsys):
    with pytest.raises(SystemExit) as e:
        viz_main(["--shape", "64x64"])
    assert e.value.code == 1
    assert capsys.readouterr().err == "meshc-viz: error: give -o OUT.png (or .svg) for a picture, or --text for tables\n"
