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
