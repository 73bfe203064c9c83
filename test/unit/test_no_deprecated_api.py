"""meshc's passes call no deprecated xDSL API: a DeprecationWarning reaching a user's terminal is
an internal error to the fuzz harness (fuzz/classify.py). The lowering of tt-mlir's MoE dispatch
(which reshapes operands with a rewriter) is run with warnings as errors; it called the
rewriter's deprecated insert_op (the fuzz harness's 20,000-input campaign found it)."""

from __future__ import annotations

import warnings
from pathlib import Path

from meshc.driver import apply_pipeline, build_pipeline, make_context, parse_source, split_chunks

SEED = Path(__file__).resolve().parents[1] / "lit" / "interop" / "ttmlir" / "moe-dispatch-metadata.mlir"


def test_the_moe_dispatch_lowering_warns_nothing():
    text = SEED.read_text()
    ran = 0
    for chunk in split_chunks(text):
        ctx = make_context()
        module = parse_source(ctx, chunk, SEED.name)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            apply_pipeline(ctx, module, build_pipeline("ttir-to-ttnn-pipeline{system=n300 mesh-shape=1,2}"), SEED.name)
        ran += 1
    assert ran >= 1
