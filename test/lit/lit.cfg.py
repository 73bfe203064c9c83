# lit configuration for meshc: every .mlir file under test/lit is a test.
import os
import shutil

import lit.formats

config.name = "meshc"
config.test_format = lit.formats.ShTest()
config.suffixes = [".mlir"]
config.excludes = ["Inputs", "README.md"]
config.test_source_root = os.path.dirname(__file__)
config.environment["PATH"] = os.environ.get("PATH", "")
config.environment["PYTHONHASHSEED"] = "0"
for var in ("HOME", "TMPDIR", "MPLBACKEND"):
    if var in os.environ:
        config.environment[var] = os.environ[var]

repo = os.path.dirname(os.path.dirname(config.test_source_root))
config.substitutions.append(("%examples", os.path.join(repo, "examples")))

# Real MLIR, for checking that meshc's generic output is MLIR that mlir-opt accepts.
mlir_opt = shutil.which("mlir-opt")
if mlir_opt is None:
    for v in ("22", "21", "20", "19", "18"):
        cand = f"/usr/lib/llvm-{v}/bin/mlir-opt"
        if os.path.exists(cand):
            mlir_opt = cand
            break
if mlir_opt:
    config.available_features.add("mlir-opt")
    config.substitutions.append(("%mlir-opt", mlir_opt))
else:
    lit_config.note("mlir-opt not found (install Debian's mlir-19-tools): tests needing it are unsupported")

# meshc's tools and filecheck through one preloaded fork server per lit run (tool_server.py): each
# run forks it instead of starting Python and importing xDSL, numpy and meshc again.
# MESHC_LIT_DIRECT=1 runs the installed tools directly instead.
if os.environ.get("MESHC_LIT_DIRECT") != "1":
    import atexit
    import subprocess
    import sys
    import tempfile

    sys.path.insert(0, config.test_source_root)
    from tool_server import ENTRY_POINTS, write_clients

    real = {t: shutil.which(t, path=config.environment["PATH"]) for t in ENTRY_POINTS}
    real = {t: p for t, p in real.items() if p}
    run_dir = tempfile.mkdtemp(prefix="meshc-lit-")
    sock = os.path.join(run_dir, "tools.sock")
    log = open(os.path.join(run_dir, "server.log"), "w")
    server = subprocess.Popen([sys.executable, os.path.join(config.test_source_root, "tool_server.py"), sock,
                               str(os.getpid())], env=dict(config.environment), cwd=run_dir,
                              stdin=subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=True)
    clients = os.path.join(run_dir, "bin")
    os.mkdir(clients)
    write_clients(clients, sock, real)
    config.environment["PATH"] = clients + os.pathsep + config.environment["PATH"]

    def _stop_server():
        server.terminate()
        server.wait()
        shutil.rmtree(run_dir, ignore_errors=True)

    atexit.register(_stop_server)
