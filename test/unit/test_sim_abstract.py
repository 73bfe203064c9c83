"""An abstract (shape-only) run reports exactly what a data run reports: the same traffic on every
counter, the same ops and times, the same memory; only the tensors are missing."""

from pathlib import Path

import numpy as np
import pytest

import meshc

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

CASES = [
    ("dp_2d.mlir", "ttnn"), ("dp_batch.mlir", "ttnn"), ("t3k_height_shard.mlir", "ttnn"),
    ("t3k_width_shard.mlir", "ttnn"), ("t3k_block_shard.mlir", "ttnn"), ("moe_ep8.mlir", "ttnn"),
    ("dp_2d.mlir", "ttmetal"), ("t3k_block_shard.mlir", "ttmetal"), ("reinterpret_transpose.mlir", "ttmetal"),
]  # fmt: skip


@pytest.mark.parametrize("name,target", CASES)
def test_abstract_run_reports_what_the_data_run_reports(name, target):
    module = meshc.parse((EXAMPLES / name).read_text())
    data = meshc.run(module, seed=0, target=target)
    shapes = meshc.run(module, target=target, abstract=True)
    assert shapes.mode == "abstract"
    assert shapes.traffic.as_dict() == data.traffic.as_dict()
    assert [(o.name, o.seconds) for o in shapes.ops] == [(o.name, o.seconds) for o in data.ops]
    assert shapes.time_estimate == data.time_estimate
    assert shapes.memory == data.memory
    assert [np.shape(v) for v in shapes.outputs] == [np.shape(v) for v in data.outputs]


def test_abstract_outputs_hold_no_bytes():
    module = meshc.parse((EXAMPLES / "t3k_block_shard.mlir").read_text())
    (out,) = meshc.run(module, abstract=True).outputs
    assert out.shape == (1, 1, 128, 256) and out.strides == (0, 0, 0, 0)
