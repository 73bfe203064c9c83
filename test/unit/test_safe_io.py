"""Tools' exit codes and output files whatever happens around them (meshc/tools/safe_io.py):
bad input exits 1 even when stderr is a pipe nobody reads, and an output file is replaced only
whole, keeping its permissions, following a symlink, and written in place when it is a device."""

from __future__ import annotations

import os
import stat
import subprocess
import sys

import pytest

from meshc.tools.safe_io import LossyStream, write_atomic, write_text_atomic

BAD = 'func.func @f() {\n  %0 = "ttir.bogus"() : () -> ()\n  func.return\n}\n'
TOOLS = ["meshc.tools.opt", "meshc.tools.import_stablehlo", "meshc.tools.run"]


@pytest.mark.parametrize("tool", TOOLS)
def test_bad_input_exits_1_when_stderr_is_a_closed_pipe(tool, tmp_path):
    bad = tmp_path / "bad.mlir"
    bad.write_text(BAD)
    r, w = os.pipe()
    os.close(r)  # nobody reads: every write to stderr fails with EPIPE
    try:
        p = subprocess.run([sys.executable, "-m", tool, str(bad)], stderr=w, stdout=subprocess.DEVNULL,
                           stdin=subprocess.DEVNULL, timeout=120)
    finally:
        os.close(w)
    assert p.returncode == 1


@pytest.mark.parametrize("tool", TOOLS)
def test_bad_input_exits_1_with_its_message_when_stderr_is_read(tool, tmp_path):
    bad = tmp_path / "bad.mlir"
    bad.write_text(BAD)
    p = subprocess.run([sys.executable, "-m", tool, str(bad)], capture_output=True, text=True, timeout=120)
    assert p.returncode == 1
    assert "bad.mlir:2:" in p.stderr and "ttir.bogus" in p.stderr


def test_write_atomic_keeps_the_old_file_when_writing_fails(tmp_path):
    out = tmp_path / "out.mlir"
    out.write_text("the input\n")

    def half(f):
        f.write(b"half of the out")
        raise OSError(28, "No space left on device")

    with pytest.raises(OSError):
        write_atomic(str(out), half)
    assert out.read_text() == "the input\n"
    assert os.listdir(tmp_path) == ["out.mlir"]  # the temporary file is gone too


def test_write_atomic_replaces_whole_and_keeps_the_mode(tmp_path):
    out = tmp_path / "out.mlir"
    out.write_text("old\n")
    os.chmod(out, 0o640)
    write_text_atomic(str(out), "new\n")
    assert out.read_text() == "new\n"
    assert stat.S_IMODE(os.stat(out).st_mode) == 0o640


def test_write_atomic_new_file_gets_the_umask_mode(tmp_path):
    old = os.umask(0o022)
    try:
        write_text_atomic(str(tmp_path / "new.mlir"), "x\n")
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(tmp_path / "new.mlir").st_mode) == 0o644


def test_write_atomic_follows_a_symlink(tmp_path):
    real = tmp_path / "real.mlir"
    real.write_text("old\n")
    link = tmp_path / "link.mlir"
    link.symlink_to(real)
    write_text_atomic(str(link), "new\n")
    assert link.is_symlink() and real.read_text() == "new\n"


def test_write_atomic_writes_a_device_in_place():
    write_text_atomic(os.devnull, "discarded\n")  # cannot be renamed onto: written in place
    assert os.path.exists(os.devnull) and not os.path.isfile(os.devnull)


def test_lossy_stream_drops_writes_once_the_reader_is_gone():
    r, w = os.pipe()
    os.close(r)
    stream = LossyStream(os.fdopen(w, "w"))
    assert stream.write("lost\n") == 5
    assert stream.lost
    stream.flush()  # no exception either
