"""How much of tt-mlir's own multi-device IR meshc takes as written: parse, lower, `--check`.

    python bench/ttmlir_corpus.py DIR [--verbose]

DIR holds .mlir test files from tt-mlir's test tree (any layout); test/lit/interop/ttmlir/ keeps
the copies meshc runs in `make test`. Each `// -----` chunk is one case, run the way its file's
first RUN line runs it:

* `ttir-to-ttnn-backend-pipeline="... mesh-shape=A,B"` (ttir in): `meshc-opt -p
  'ttir-to-ttnn-pipeline{mesh-shape=A,B}'`, then `meshc-run --check`;
* `--stablehlo-pipeline="mesh-shape=A,B ..."` (StableHLO in): `meshc-import --mesh-shape A,B`
  (with `--automatic-arg-analysis` when the pipeline names `automatic-arg-analysis`), the ttnn
  pipeline, then `meshc-run --check`;
* `not ttmlir-opt ...` (a negative test): meshc must refuse it with a located error
  (`file:line:col: error:`) and no traceback;
* anything else (`ttmlir-opt %s`, a parse-and-print test): meshc must parse and verify it.

Prints one line per chunk that fails, then the counts per stage.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

BIN = Path(sys.executable).parent
LOCATED = re.compile(r":\d+:\d+: error: ")


def _tool(name: str) -> str:
    return str(BIN / name)


def _run(cmd: list[str], timeout: float = 300) -> tuple[int, str]:
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return 124, "timeout"
    return p.returncode, p.stdout + p.stderr


def _said(out: str, rc: int, last: bool = False) -> str:
    """The line of a tool's output that says why it failed (its first, or its last for a run)."""
    lines = out.strip().splitlines()
    return (lines[-1] if last else lines[0]) if lines else f"exit {rc}"


def _mode(text: str) -> tuple[str, str | None]:
    """(kind, mesh) from the file's first RUN line."""
    run = next((ln for ln in text.splitlines() if ln.startswith("// RUN:")), "")
    mesh = re.search(r"mesh-shape=(\d+(?:,\d+)*)", run)
    mesh_shape = mesh.group(1) if mesh else None
    if re.match(r"// RUN:\s*not ", run):
        return "negative", mesh_shape
    if "stablehlo-pipeline" in run or "stablehlo-to-ttir" in run:
        return "stablehlo", mesh_shape
    if "ttir-to-ttnn-backend-pipeline" in run:
        return "ttir", mesh_shape
    return "parse", mesh_shape


def _chunks(text: str) -> list[str]:
    parts = re.split(r"^// -----\s*$", text, flags=re.M)
    return [p for p in parts if re.search(r"\b(func\.func|module)\b", p)]


def _import_flags(text: str) -> list[str]:
    """meshc-import's options for what the file's first RUN line asks of tt-mlir's StableHLO pipeline."""
    run = next((ln for ln in text.splitlines() if ln.startswith("// RUN:")), "")
    return ["--automatic-arg-analysis"] if "automatic-arg-analysis" in run else []


def run_case(chunk: str, kind: str, mesh: str | None, tmp: Path, flags: list[str] | None = None) -> tuple[str, str]:
    """(stage reached: 'ok' or the failing stage, the message)."""
    src = tmp / "in.mlir"
    src.write_text(chunk)
    if kind == "negative":
        rc, out = _run([_tool("meshc-opt"), str(src)])
        if rc == 1 and LOCATED.search(out) and "Traceback" not in out:
            return "ok", ""
        if rc == 0 and mesh:
            rc, out = _run([_tool("meshc-opt"), str(src), "-p", f"tt-register-device{{mesh-shape={mesh}}}"])
            if rc == 1 and LOCATED.search(out) and "Traceback" not in out:
                return "ok", ""
        return "negative", _said(out, rc, last=True) if out.strip() else f"accepted (exit {rc})"
    ttir = src
    if kind == "stablehlo":
        ttir = tmp / "imported.mlir"
        cmd = [_tool("meshc-import"), str(src), "-o", str(ttir)] + (["--mesh-shape", mesh] if mesh else []) + (flags or [])
        rc, out = _run(cmd)
        if rc:
            return "import", _said(out, rc)
    rc, out = _run([_tool("meshc-opt"), str(ttir), "-o", str(tmp / "parsed.mlir")])
    if rc:
        return "parse", _said(out, rc)
    if kind == "parse":
        return "ok", ""
    lowered = tmp / "lowered.mlir"
    pipe = f"ttir-to-ttnn-pipeline{{mesh-shape={mesh}}}" if mesh else "ttir-to-ttnn-pipeline"
    rc, out = _run([_tool("meshc-opt"), str(ttir), "-p", pipe, "-o", str(lowered)])
    if rc:
        return "lower", _said(out, rc)
    rc, out = _run([_tool("meshc-run"), str(lowered), "--check"])
    if rc:
        return "check", _said(out, rc, last=True)
    return "ok", ""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir", type=Path)
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args(argv)
    files = sorted(args.dir.rglob("*.mlir"))
    stages: Counter[str] = Counter()
    per_file: dict[Path, bool] = {}
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        for f in files:
            text = f.read_text()
            kind, mesh = _mode(text)
            ok_all = True
            for i, chunk in enumerate(_chunks(text)):
                stage, msg = run_case(chunk, kind, mesh, tmp, _import_flags(text))
                stages[stage] += 1
                if stage != "ok":
                    ok_all = False
                    print(f"{f.relative_to(args.dir)}#{i} [{kind}] {stage}: {msg[:200]}")
                elif args.verbose:
                    print(f"{f.relative_to(args.dir)}#{i} [{kind}] ok")
            per_file[f] = ok_all
    total = sum(stages.values())
    print(f"\nchunks: {total}; ok {stages['ok']}; failing at " +
          ", ".join(f"{k} {v}" for k, v in sorted(stages.items()) if k != "ok"))
    print(f"files wholly ok: {sum(per_file.values())} of {len(per_file)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
