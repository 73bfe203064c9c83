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


LLAMA_MLP = """
module {
  func.func @main(%x: tensor<65536x8192xbf16> {tt.sharding = #tt.sharding<[S0, R]>},
                  %w1: tensor<8192x28672xbf16> {tt.sharding = #tt.sharding<[R, S1]>},
                  %w2: tensor<28672x8192xbf16> {tt.sharding = #tt.sharding<[S1, R]>}) -> (tensor<65536x8192xbf16> {tt.sharding = #tt.sharding<[S0, R]>}) {
    %h = "ttir.matmul"(%x, %w1) : (tensor<65536x8192xbf16>, tensor<8192x28672xbf16>) -> tensor<65536x28672xbf16>
    %g = "ttir.gelu"(%h) : (tensor<65536x28672xbf16>) -> tensor<65536x28672xbf16>
    %y = "ttir.matmul"(%g, %w2) : (tensor<65536x28672xbf16>, tensor<28672x8192xbf16>) -> tensor<65536x8192xbf16>
    return %y : tensor<65536x8192xbf16>
  }
}
"""


def test_an_abstract_run_holds_no_tensor_bytes():
    # a Llama-70B-sized MLP layer (32 x 2048 tokens, hidden 8192, FFN 28672, bf16) on 8x4: its six
    # tensors hold 2 * (2*65536*8192 + 2*8192*28672 + 2*65536*28672) B = 9.9 GiB; the run allocates,
    # routes and counts them but holds none (traced numpy and Python allocations stay under 64 MiB)
    import tracemalloc

    module = meshc.compile(LLAMA_MLP, "ttir-to-ttnn-pipeline{mesh-shape=8,4 spill-to-dram=true}")
    tracemalloc.start()
    try:
        result = meshc.run(module, abstract=True)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert result.mode == "abstract" and result.traffic.link_bytes > 0
    assert peak < 64 * 2**20
