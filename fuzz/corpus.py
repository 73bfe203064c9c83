"""The seed corpus the mutators start from: the repository's examples and lit files.

Each file becomes one or more `Seed`s (the whole file, and each `// -----` chunk of it) with
the pass pipelines its RUN lines use; `PIPELINES` adds the standard ones. A file whose RUN lines
call meshc-import holds StableHLO, and its seeds also go to meshc-import.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from meshc.layout.limits import MAX_ELEMENTS

ROOT = Path(__file__).resolve().parent.parent

PIPELINES = (
    "",
    "ttir-to-ttnn-pipeline",
    "ttir-to-ttmetal-pipeline",
    "ttir-to-ttnn-pipeline{system=t3k mesh-shape=2,4}",
    "ttir-to-ttnn-pipeline{system=n300 mesh-shape=1,2}",
    "tt-register-device{system=t3k mesh-shape=2,4},ttir-layout",
    "ttir-layout,convert-ttir-to-ttmetal",
    "ttir-layout,convert-ttir-to-ttnn",
    "reshard-to-collectives",
)
"""Pipelines every seed may be run through, besides those named in its own RUN lines."""

_PIPELINE_IN_RUN = re.compile(r"-p\s+(?:'([^']*)'|\"([^\"]*)\"|(\S+))")


@dataclass(frozen=True)
class Seed:
    """One unmutated input: MLIR text, where it came from, pipelines that fit it."""

    origin: str
    text: str
    split: bool
    """Whether the text holds `// -----` chunks (run with --split-input-file)."""
    pipelines: tuple[str, ...]
    runnable: bool
    """Whether it holds a function meshc-run may execute within the harness's per-input limits (no
    tensor over RUN_ELEMENTS elements)."""
    stablehlo: bool = False
    """Whether it is StableHLO that its file's RUN lines give to meshc-import."""


RUN_ELEMENTS = 1 << 24
"""Elements of the largest tensor a seed meshc-run executes may have (64 MiB of f32), unless the
simulator refuses it at once (past MAX_ELEMENTS). A 8192x8192 f32 relu takes meshc-run 16 s and
1.7 GB, and 47 s and 4.1 GB with --check: past the 10 CPU seconds and 2 GiB an input gets, by size
and not by a defect; such seeds still go to meshc-opt."""
_TENSOR = re.compile(r"tensor<((?:\d+x)+)")


def _runs_in_limits(text: str) -> bool:
    """Whether no static tensor type in `text` is too big to run in the limits yet small enough
    for the simulator to hold (RUN_ELEMENTS < elements <= MAX_ELEMENTS)."""
    for m in _TENSOR.finditer(text):
        n = 1
        for d in m.group(1).rstrip("x").split("x"):
            n *= int(d)
        if RUN_ELEMENTS < n <= MAX_ELEMENTS:
            return False
    return True


def _pipelines_of(text: str) -> tuple[str, ...]:
    found = []
    for line in text.splitlines():
        if "RUN:" not in line:
            continue
        for m in _PIPELINE_IN_RUN.finditer(line):
            p = next(g for g in m.groups() if g is not None)
            if "%" not in p and p not in found:
                found.append(p)
    return tuple(found)


def _strip_run_lines(text: str) -> str:
    return "\n".join(line for line in text.split("\n") if "RUN:" not in line)


def corpus_files(root: Path = ROOT) -> list[Path]:
    files = sorted((root / "examples").glob("*.mlir")) + sorted((root / "test" / "lit").rglob("*.mlir"))
    return [f for f in files if f.is_file() and "Output" not in f.parts]  # lit's Output/: test products


def load_corpus(root: Path = ROOT) -> list[Seed]:
    """Every file whole, and every `// -----` chunk of it, as seeds (in a fixed order)."""
    seeds: list[Seed] = []
    for path in corpus_files(root):
        raw = path.read_text(encoding="utf-8")
        pipes = _pipelines_of(raw)
        text = _strip_run_lines(raw)
        origin = str(path.relative_to(root))
        chunks = [c for c in re.split(r"(?m)^// -----\s*$", text) if c.strip()]
        runnable = "func.func" in text and _runs_in_limits(text)
        hlo = "meshc-import" in raw
        seeds.append(Seed(origin, text, len(chunks) > 1, pipes, runnable, hlo))
        if len(chunks) > 1:
            for i, c in enumerate(chunks):
                seeds.append(Seed(f"{origin}#{i}", c.strip("\n") + "\n", False, pipes,
                                  "func.func" in c and _runs_in_limits(c), hlo))
    return seeds
