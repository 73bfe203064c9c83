"""meshc.viz.values: values found by the names meshc-opt prints, and their placement read from
the ops that state it (the TT-Mesh sharding spec's Example 3 on a T3K, lowered to ttnn and ttmetal)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import meshc
from meshc.driver import print_module
from meshc.layout.errors import LayoutError
from meshc.viz.values import describe_value, value_names

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
PIPE = "{system=t3k mesh-shape=2,4}"


@pytest.fixture(scope="module")
def ttir():
    return meshc.parse((EXAMPLES / "t3k_block_shard.mlir").read_text())


def test_numbers_are_the_printed_ones(ttir):
    m = meshc.compile(ttir.clone(), "ttir-to-ttnn-pipeline" + PIPE)
    text = print_module(m)
    printed = dict(re.findall(r"(%\d+) = \"([\w.]+)\"", text))
    names = {n: v for n, v in value_names(m)}
    for name, op_name in printed.items():
        assert names[name].owner.name == op_name


def test_ttnn_value_by_number(ttir):
    m = meshc.compile(ttir.clone(), "ttir-to-ttnn-pipeline" + PIPE)
    v = describe_value(m, "%2")  # ttnn.relu of the distributed tensor: Example 3's 2x4 block split
    assert v.shape == (1, 1, 128, 256) and str(v.spec) == "[R, R, S0, S1]"
    assert v.blocks[v.device_block[(1, 2)]].bounds == ((0, 1), (0, 1), (64, 128), (128, 192))
    assert v.local is not None and v.local.pages_by_owner() == {(0, 0): [0], (0, 1): [1], (1, 0): [2], (1, 1): [3]}


def test_ttir_host_value_and_ttmetal_buffer(ttir):
    v = describe_value(ttir, "%x")
    assert v.local is None and "host tensor" in v.label and len(v.blocks) == 8
    metal = meshc.compile(ttir.clone(), "ttir-to-ttmetal-pipeline" + PIPE)
    b = describe_value(metal, "1")
    assert str(b.spec) == "[R, R, S0, S1]" and b.local is not None and len(b.local.owners) == 4


def test_unplaced_value_and_unknown_name(ttir):
    flagship = meshc.parse((EXAMPLES / "flagship_transformer_t3k.mlir").read_text())
    with pytest.raises(LayoutError, match="%q .* has no placement to draw"):
        describe_value(flagship, "%q")
    with pytest.raises(LayoutError, match="no value %nope in the module; its values are %x, %0"):
        describe_value(ttir, "%nope")


def test_run_result_visualize_sharding(ttir, tmp_path):
    r = meshc.run(ttir, seed=0)
    v = r.visualize_sharding("%2", output=str(tmp_path / "r.png"))
    assert str(v.spec) == "[R, R, S0, S1]" and (tmp_path / "r.png").exists()
