"""The model zoo (issue 23, item 5): every model of examples/zoo x {2x4, 8x4} x {ttnn, ttmetal} x
{f32, bf16}, imported with meshc.from_jax, lowered, run on the simulator and compared with JAX's
own output on CPU (examples/zoo/harness.py: f32 within 1e-4, bf16 within the bf16 tolerance,
finite wherever JAX is). The 8x4 mesh needs 32 JAX CPU devices (conftest.py asks for them).

Skipped when jax is not installed (`pip install meshc[jax]`; the `test` extra installs it).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np
import pytest

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=32")
jax = pytest.importorskip("jax")
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repo root: examples.zoo

from examples.zoo import MODELS  # noqa: E402
from examples.zoo.harness import BACKENDS, DTYPES, MESHES, check, run_case  # noqa: E402


@pytest.mark.parametrize("dtype", sorted(DTYPES))
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("mesh", sorted(MESHES))
@pytest.mark.parametrize("model", sorted(MODELS))
def test_zoo_model_matches_jax(model, mesh, backend, dtype):
    result = run_case(model, mesh, backend, dtype)
    check(result)
    assert result.ops > 0 and result.sim_time > 0


@pytest.mark.parametrize("mesh, rows, cols", [("2x4", 2, 4), ("8x4", 8, 4)])
def test_the_ring_moves_what_its_ppermutes_send(mesh, rows, cols):
    """shard_map_ring's link bytes by hand. Each device holds a (64 / rows) x 64 f32 block of
    partial sums; each of the cols - 1 ppermute steps sends it one place right along its mesh row.
    A T3K's and a Galaxy's rows are lines of chips (no link from a row's last chip back to its
    first), so the wrap-around send crosses cols - 1 links: (cols - 1) + (cols - 1) links a row a
    step. The psum over x of one 1 x 64 f32 row (256 B) is a ring all-reduce down each column:
    2 (rows - 1) x 256 B a column."""
    result = run_case("shard_map_ring", mesh, "ttnn", "f32")
    check(result)
    block = (64 // rows) * 64 * 4
    ring = (cols - 1) * rows * (2 * (cols - 1)) * block
    psum = cols * 2 * (rows - 1) * 256
    assert result.link_bytes == ring + psum


def test_bf16_halves_the_link_bytes_of_the_gpt2_block():
    """The same program in bf16 moves the same elements in half the bytes: every collective the
    GPT-2 block's Megatron sharding makes sends bf16 activations where the f32 run sends f32."""
    f32 = run_case("gpt2_block", "2x4", "ttnn", "f32")
    bf16 = run_case("gpt2_block", "2x4", "ttnn", "bf16")
    assert f32.link_bytes > 0 and bf16.link_bytes * 2 == f32.link_bytes


def test_the_scalar_loss_comes_back_0d():
    """The vocab-parallel cross-entropy averages to one number, as JAX's jnp.mean gives it."""
    result = run_case("vocab_parallel_xent", "2x4", "ttmetal", "f32")
    check(result)
    assert np.ndim(result.outputs[0]) == 0 and np.ndim(result.expected[0]) == 0
