"""The lowering passes through the Python API: seed golden values and hand-derived layouts."""

import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import meshc
from meshc.errors import DiagnosticError
from meshc.layout.sharded_buffer import ShardedBufferConfig
from meshc.passes.ttir_layout import layout_grid

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def ops_named(module, name):
    return [op for op in module.walk() if op.name == name]


@pytest.mark.parametrize(
    "example, shard, global_shape, orientation, size",
    [
        # the TT-Mesh sharding spec, field by field: (x, y) shard and global shapes, orientation, bytes (f32)
        ("t3k_height_shard", (0, 96), (32, 4 * 3 * 32), "row_major", 4 * 3 * 32 * 32 * 4),
        ("t3k_width_shard", (128, 0), (256, 32 * 3 * 128), "col_major", 32 * 3 * 128 * 256 * 4),
        ("t3k_block_shard", (64, 64), (256, 128), "row_major", 128 * 256 * 4),
    ],
)
def test_t3k_examples_lower_to_the_seed_configs(example, shard, global_shape, orientation, size):
    text = (EXAMPLES / f"{example}.mlir").read_text()
    module = meshc.compile(text, "ttir-to-ttnn-pipeline{system=t3k mesh-shape=2,4}")
    (dist,) = ops_named(module, "ttnn.distribute_tensor")
    cfg = dist.attributes["config"].data
    assert isinstance(cfg, ShardedBufferConfig)  # the 2D form: the config's class says it
    assert tuple(cfg.shard_shape) == shard
    assert tuple(cfg.global_buffer_shape) == global_shape
    assert cfg.mesh_shard_orientation == orientation
    assert cfg.global_buffer_size == size


def test_reinterpreted_transpose_runs_on_transposed_cores():
    text = (EXAMPLES / "reinterpret_transpose.mlir").read_text()
    module = meshc.compile(text, "ttir-to-ttmetal-pipeline")
    programs = ops_named(module, "ttmetal.enqueue_program")
    assert len(programs) == 3  # exp, transpose, relu
    maps = [str(p.attributes["core_map"].data) if "core_map" in p.attributes else None for p in programs]
    assert maps == [None, "(d0, d1) -> (d1, d0)", "(d0, d1) -> (d1, d0)"]


def test_staircase_is_a_located_ttnn_error():
    text = (EXAMPLES / "reinterpret_staircase.mlir").read_text()
    with pytest.raises(DiagnosticError) as e:
        meshc.compile(text, "ttir-to-ttnn-pipeline", name="stair.mlir")
    (d,) = e.value.diagnostics
    assert (d.file, d.line) == ("stair.mlir", 4)
    assert "TTNN cannot realise the device grid 8x8 with map (d0, d1) -> (0, d0, (d0 + d1) mod 8)" in d.message
    # ... while TTMetal lowers it
    assert ops_named(meshc.compile(text, "ttir-to-ttmetal-pipeline"), "ttmetal.enqueue_program")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(1, 300), min_size=2, max_size=4), st.booleans())
def test_layout_grid_is_the_largest_even_split(shape, tiled):
    h, w = math.prod(shape[:-1]), shape[-1]
    units = (-(-h // 32), -(-w // 32)) if tiled else (h, w)
    grid = layout_grid(tuple(shape), (8, 8), tiled, True)
    for g, n in zip(grid, units):
        assert 1 <= g <= 8 and n % g == 0
        assert all(n % k for k in range(g + 1, min(n, 8) + 1))  # no larger divisor fits
    assert layout_grid(tuple(shape), (8, 8), tiled, False) == (1, 1)
