"""How meshc's tools write files and messages without losing anything.

`write_atomic` writes a tool's output file (meshc-opt -o, meshc-import -o, meshc-run
--save-outputs, --report-json, --trace) to a temporary file beside it and renames it into place
only once it is complete, so a failure (bad input, a full disk, Ctrl-C) never leaves a truncated
or half-written file, and never destroys an input the output was meant to replace
(`meshc-opt F -o F`). The tools call it only after their input was processed without an error.

`LossyStream` wraps stderr so that a message nobody can read (stderr a closed pipe) is dropped
instead of raising: a tool's exit code is what its input deserves, never whether its message
could be written.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Callable
from typing import IO


def write_atomic(path: str, write: Callable[[IO[bytes]], None]) -> None:
    """Call `write(f)` on a temporary file in `path`'s folder, then rename it to `path` (replacing
    what was there only now). A `path` that is not a regular file (a symlink is followed; /dev/null,
    a FIFO or a terminal cannot be renamed onto) is written in place. Raises OSError; the
    temporary file is removed whatever happens."""
    target = os.path.realpath(path)
    try:
        st = os.stat(target)
    except FileNotFoundError:
        st = None
    if st is not None and not stat.S_ISREG(st.st_mode):
        with open(target, "wb") as f:
            write(f)
        return
    folder = os.path.dirname(target) or "."
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{os.path.basename(target)}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            write(f)
        if st is not None:
            mode = stat.S_IMODE(st.st_mode)  # the file it replaces keeps its permissions
        else:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask  # what open(path, "w") would have made
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def write_text_atomic(path: str, text: str) -> None:
    """`text` as UTF-8 into `path`, atomically (see `write_atomic`)."""
    data = text.encode("utf-8")
    write_atomic(path, lambda f: f.write(data))


class LossyStream:
    """A text stream (stderr) whose writes are dropped once the reader has gone (a closed pipe,
    EPIPE or another OSError) instead of raising; everything else is the wrapped stream's."""

    def __init__(self, stream):
        self.wrapped = stream
        self.lost = False

    def write(self, text: str) -> int:
        if not self.lost:
            try:
                self.wrapped.write(text)
                if getattr(self.wrapped, "line_buffering", False) or "\n" in text:
                    self.wrapped.flush()
            except (OSError, ValueError):  # BrokenPipeError is an OSError; ValueError: closed
                self.lost = True
        return len(text)

    def flush(self) -> None:
        if not self.lost:
            try:
                self.wrapped.flush()
            except (OSError, ValueError):
                self.lost = True

    def __getattr__(self, name):
        return getattr(self.wrapped, name)
