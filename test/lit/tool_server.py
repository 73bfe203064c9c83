"""A fork server for the lit suite: meshc's tools and filecheck without a Python start-up per run.

Starting Python and importing xDSL, numpy and meshc's dialects and passes costs a meshc tool
about 0.7 s of CPU before it reads its input, and filecheck 0.1 s; the lit suite runs them
several hundred times. lit.cfg.py starts this server once per lit run and puts small client
scripts named like the tools (`meshc-opt`, `meshc-run`, `meshc-viz`, `meshc-import`,
`filecheck`) first on the tests' PATH. The server imports everything once; for each run a client
sends its argv, working directory, environment and its stdin, stdout and stderr (the descriptors
themselves), the server forks, and the child runs the tool's console entry point on those
descriptors exactly as the installed script would (`sys.exit(main())`), then reports the exit
code, which the client exits with. A child starts from the server's freshly imported state, never
from an earlier run's.

If the server is not there (or MESHC_LIT_DIRECT=1 is set for lit), the clients run the installed
tools directly: `MESHC_LIT_DIRECT=1 lit test/lit` checks the same tests through real start-ups.

    python tool_server.py SOCKET_PATH PARENT_PID     (started by lit.cfg.py; exits with its parent)
    write_clients(directory, socket_path, real_tools) (called by lit.cfg.py)
"""

from __future__ import annotations

import atexit
import importlib
import io
import json
import os
import signal
import socket
import struct
import sys
import traceback

ENTRY_POINTS = {
    "meshc-opt": "meshc.tools.opt:main",
    "meshc-run": "meshc.tools.run:main",
    "meshc-viz": "meshc.tools.viz:main",
    "meshc-import": "meshc.tools.import_stablehlo:main",
    "filecheck": "filecheck.main:main",
}
"""Tool name -> its console-script entry point (pyproject.toml's [project.scripts], filecheck's)."""

PRELOAD = ("meshc.interp.runner", "meshc.driver")
"""Modules the tools import on demand, imported by the server up front (besides every dialect
and pass, and the entry points' modules)."""

_HEADER = struct.Struct("!I")
_CODE = struct.Struct("!i")


def _preload() -> None:
    for target in ENTRY_POINTS.values():
        importlib.import_module(target.split(":")[0])
    for name in PRELOAD:
        importlib.import_module(name)
    from meshc.dialects import get_all_dialects
    from meshc.passes import get_all_passes

    for factory in get_all_dialects().values():
        factory()
    for factory in get_all_passes().values():
        factory()


def _receive(conn: socket.socket) -> tuple[dict, list[int]]:
    data, fds, _, _ = socket.recv_fds(conn, 1 << 16, 3)
    while len(data) < _HEADER.size:
        data += conn.recv(1 << 16)
    (size,) = _HEADER.unpack_from(data)
    while len(data) < _HEADER.size + size:
        more = conn.recv(1 << 20)
        if not more:
            raise EOFError("tool server: the client closed the connection mid-request")
        data += more
    return json.loads(data[_HEADER.size:_HEADER.size + size]), fds


def _run_tool(target: str) -> int:
    """Run a console entry point as its script does (`sys.exit(main())`); the exit code."""
    module, func = target.split(":")
    try:
        sys.exit(getattr(importlib.import_module(module), func)())
    except SystemExit as e:
        code = e.code
    except BaseException:  # what an uncaught exception does to a script: traceback, exit 1
        traceback.print_exc()
        return 1
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


def _fresh_stdio() -> None:
    """Standard streams on the client's descriptors, made as Python's start-up makes them (the
    server's were made for its own descriptors: seekable /dev/null, a log file)."""
    for fd, name, mode in ((0, "stdin", "rb"), (1, "stdout", "wb"), (2, "stderr", "wb")):
        old = getattr(sys, name)
        stream = io.TextIOWrapper(io.open(fd, mode, closefd=False), encoding=old.encoding, errors=old.errors,
                                  newline="\n", line_buffering=name == "stderr" or os.isatty(fd))
        setattr(sys, name, stream)
        setattr(sys, f"__{name}__", stream)


def _child(conn: socket.socket) -> None:
    """In the forked child: take over the client's descriptors, run the tool, report, exit."""
    code = 2
    try:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        request, fds = _receive(conn)
        for target_fd, fd in enumerate(fds):
            os.dup2(fd, target_fd)
            os.close(fd)
        _fresh_stdio()
        conn.sendall(_CODE.pack(os.getpid()))
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        sys.argv = request["argv"]
        code = _run_tool(ENTRY_POINTS[request["tool"]])
        atexit._run_exitfuncs()
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except BrokenPipeError:
                pass
        conn.sendall(_CODE.pack(code))
    finally:
        os._exit(code)


def _reap() -> None:
    """Collect finished children (waited for, so their CPU time counts in the server's, and in
    lit's once lit waits for the server)."""
    try:
        while os.waitpid(-1, os.WNOHANG)[0] > 0:
            pass
    except ChildProcessError:
        pass


def serve(path: str, parent: int) -> None:
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path)
    server.listen(128)  # clients that come while the imports run wait here
    try:
        _preload()
    except Exception:  # a broken import: children import on demand and fail as the tool would
        traceback.print_exc()
    server.settimeout(0.5)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # lit is done: clean up below
    try:
        while True:
            _reap()
            try:
                conn, _ = server.accept()
            except socket.timeout:
                if os.getppid() != parent:  # lit is gone
                    return
                continue
            sys.stdout.flush()
            sys.stderr.flush()
            if os.fork() == 0:
                server.close()
                conn.settimeout(None)
                _child(conn)
            conn.close()
    finally:
        server.close()
        os.unlink(path)
        try:
            while True:
                os.wait()
        except ChildProcessError:
            pass


CLIENT = '''#!{python} -IS
# lit's {tool}: runs in the lit tool server ({server}), or directly when the server is not there.
import json, os, signal, socket, struct, sys
REAL = {real!r}
def direct():
    os.execv(REAL, [REAL] + sys.argv[1:])
if os.environ.get("MESHC_LIT_DIRECT") == "1":
    direct()
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
try:
    s.connect({socket_path!r})
except OSError:
    direct()
body = json.dumps({{"tool": {tool!r}, "argv": [REAL] + sys.argv[1:], "cwd": os.getcwd(),
                   "env": dict(os.environ)}}).encode()
socket.send_fds(s, [struct.pack("!I", len(body)) + body], [0, 1, 2])
def read_int():
    data = b""
    while len(data) < 4:
        more = s.recv(4 - len(data))
        if not more:
            return None
        data += more
    return struct.unpack("!i", data)[0]
pid = read_int()
if pid is not None:
    def forward(signum, frame):
        os.kill(pid, signum)
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, forward)
code = read_int() if pid is not None else None
if code is None:
    sys.stderr.write("lit tool server: {tool} died without an exit code\\n")
    sys.exit(2)
sys.exit(code)
'''


def write_clients(directory: str, socket_path: str, real_tools: dict[str, str]) -> None:
    """Client scripts named like the tools in `directory`, for tools found in `real_tools`."""
    for tool, real in real_tools.items():
        path = os.path.join(directory, tool)
        with open(path, "w") as f:
            f.write(CLIENT.format(python=sys.executable, tool=tool, real=real, socket_path=socket_path,
                                  server=os.path.abspath(__file__)))
        os.chmod(path, 0o755)


if __name__ == "__main__":
    serve(sys.argv[1], int(sys.argv[2]))
