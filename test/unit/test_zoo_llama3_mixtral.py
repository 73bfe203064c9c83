"""The zoo's Llama-3 decode step and Mixtral MoE block (examples/zoo/llama3.py, mixtral.py) beyond
test_zoo's match with JAX: their link bytes derived by hand, the KV cache written at run-time
positions (one past the end, a negative one), the block on a 4-token chunk, and the MoE block
against a numpy top-2 router written here, with a check that the routing is what decides the
output.

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
jnp = pytest.importorskip("jax.numpy")
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repo root: examples.zoo

from jax.sharding import NamedSharding  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402
from xdsl.dialects import func  # noqa: E402

import meshc  # noqa: E402
from examples.zoo import llama3, mixtral  # noqa: E402
from examples.zoo.harness import check, jax_mesh, run_case  # noqa: E402

F32 = 4


def _ring_all_reduce(nbytes: int, group: int, devices: int) -> int:
    """Link bytes of an all_reduce of `nbytes` a device over groups of `group` devices: a
    reduce-scatter and an all-gather, each sending (group - 1) / group of the buffer out of every
    device."""
    return devices * 2 * (group - 1) * nbytes // group


def _tiled_bytes(*shape: int, element: int = F32) -> int:
    """Bytes of a device tensor in TTNN's tile layout: the last two dims padded to 32 x 32 tiles
    (what the host reads of a piece)."""
    *batch, rows, cols = shape
    return int(np.prod(batch, dtype=np.int64)) * (-(-rows // 32) * 32) * (-(-cols // 32) * 32) * element


@pytest.mark.parametrize("mesh", ["2x4", "8x4"])
def test_llama3_decode_link_bytes_by_hand(mesh):
    """Megatron decode step, batch 8 over x (rows r = 8 / x a device), heads over y: the two
    row-parallel matmuls (wo, w2) each leave an (r, 1, 64) f32 partial sum all_reduced over y.
    The harness's jit names no out_shardings, so the results are unconstrained and leave where
    the step leaves them: x (8, 1, 64) split over x, each cache (8, 16, 4, 8) split over x and
    its heads over y, the host reading each device's piece in tiles: x's (r, 1, 64) and each
    cache's (r, 16, 1, 8). Only the all_reduces cross links (24,576 B on both meshes;
    replicating the results gathered x over x and each cache over x then y as well: 237,568 B
    more on 2x4)."""
    rows, cols = map(int, mesh.split("x"))
    devices, r = rows * cols, 8 // rows
    all_reduces = 2 * _ring_all_reduce(r * 64 * F32, cols, devices)
    result = run_case("llama3_decode", mesh, "ttnn", "f32")
    check(result)
    assert result.link_bytes == all_reduces
    assert result.device_to_host_bytes == devices * (_tiled_bytes(r, 1, 64) + 2 * _tiled_bytes(r, 16, 1, 8))


def _decode_args(pos: int, dtype=np.float32):
    args = list(llama3.example_inputs(dtype))
    args[3] = np.int32(pos)
    return args


def _run_llama3(args, target: str, out_shardings: bool):
    """meshc's outputs and run of the decode step on 2x4 with `args`, and JAX's outputs; with
    `out_shardings` the results stay where Megatron leaves them (x [x, -, -], caches [x, -, y, -])."""
    mesh = jax_mesh((2, 4))
    ins = tuple(NamedSharding(mesh, s) for s in llama3.in_specs((2, 4)))
    outs = tuple(NamedSharding(mesh, s) for s in (P("x", None, None), P("x", None, "y", None),
                                                  P("x", None, "y", None))) if out_shardings else None
    fn = jax.jit(llama3.model(mesh), in_shardings=ins, out_shardings=outs)
    module = meshc.from_jax(fn, *args, mesh=mesh)
    (entry,) = [op for op in module.walk() if isinstance(op, func.FuncOp)]
    names = [a.name_hint for a in entry.body.blocks.first.args]
    got = meshc.run(module, dict(zip(names, args)), target=target)
    return got, [np.asarray(w, np.float32) for w in fn(*args)]


def test_llama3_decode_step_moves_only_the_two_megatron_all_reduces():
    """With the results left sharded (jit's out_shardings) the step moves the all_reduces of the
    wo and w2 outputs only: 2 x 8 devices x 2 x 3/4 x (4 x 1 x 64 x 4 B) = 24,576 B; the cache
    update, the rotary tables, the repeat of the K/V heads and the attention are each device's own.
    Nothing constrains the attention output: the heads' split comes back from wo's (before
    ttir-propagate-sharding kept a weight's split of K in its wishes, the caches and queries were
    gathered along the heads: 129,024 B)."""
    got, want = _run_llama3(_decode_args(llama3.POS), "ttmetal", out_shardings=True)
    for g, w in zip(got.outputs, want, strict=True):
        np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-4)
    assert got.traffic.link_bytes == 2 * 8 * 2 * 3 * (4 * 64 * F32) // 4 == 24576


@pytest.mark.parametrize("pos, row", [(16, 15), (-2, 14)])
def test_llama3_cache_is_written_at_the_run_time_position(pos, row):
    """One past the end (StableHLO clamps the start into [0, 15]: the last position) and a
    negative one (JAX wraps -2 to 14 first): the caches come back equal to the ones given but at
    `row`, which holds the new key / value (not the old one), and every output matches JAX."""
    args = _decode_args(pos)
    got, want = _run_llama3(args, "ttnn", out_shardings=True)
    for g, w in zip(got.outputs, want, strict=True):
        np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-4)
    for cache_in, cache_out in ((args[1], got.outputs[1]), (args[2], got.outputs[2])):
        others = np.arange(llama3.MAX_SEQ) != row
        np.testing.assert_array_equal(cache_out[:, others], cache_in[:, others])
        assert np.all(np.abs(cache_out[:, row] - cache_in[:, row]) > 0)


def test_llama3_block_on_a_chunk_of_four_tokens_at_a_run_time_position():
    """The same block on 4 new tokens a sequence at position 5 (a chunk of a prompt, as Meta's
    reference runs `forward(tokens, start_pos)`): the caches are written at positions 5..8 by a
    run-time dynamic_update_slice of 4 positions and the causal mask over the cache is 2-d (query
    i sees keys 0..5 + i). Matches JAX on TTMetal; with the results left sharded it moves the two
    Megatron all_reduces of (4, 4, 64) f32 partial sums: 2 x 8 x 2 x 3/4 x 4,096 B = 98,304 B."""
    args = _decode_args(5)
    args[0] = np.random.default_rng(9).standard_normal((8, 4, llama3.D_MODEL)).astype(np.float32)
    got, want = _run_llama3(args, "ttmetal", out_shardings=True)
    for g, w in zip(got.outputs, want, strict=True):
        np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-4)
    np.testing.assert_array_equal(got.outputs[1][:, 9:], args[1][:, 9:])  # past the chunk: untouched
    assert got.traffic.link_bytes == 2 * 8 * 2 * 3 * (4 * 4 * 64 * F32) // 4 == 98304


def _numpy_moe(x, norm, w_router, w1, w3, w2, k=2):
    """The Mixtral block by hand in float64: the top-k experts a token by router probability,
    their weights renormalised to sum to 1, SwiGLU experts, a residual."""
    x, norm, w_router, w1, w3, w2 = (np.asarray(a, np.float64) for a in (x, norm, w_router, w1, w3, w2))
    h = x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + mixtral.EPS) * norm
    logits = h @ w_router
    probs = np.exp(logits - logits.max(-1, keepdims=True))
    probs /= probs.sum(-1, keepdims=True)
    top = np.argsort(-probs, axis=-1, kind="stable")[..., :k]
    weights = np.take_along_axis(probs, top, -1)
    weights /= weights.sum(-1, keepdims=True)
    out = np.zeros_like(x)
    for e in range(mixtral.EXPERTS):
        g, u = h @ w1[e], h @ w3[e]
        y = (g / (1 + np.exp(-g)) * u) @ w2[e]
        out += y * np.sum(np.where(top == e, weights, 0.0), axis=-1, keepdims=True)
    return x + out, top, logits


def test_mixtral_matches_a_numpy_top2_router_and_the_routing_decides():
    """meshc's MoE output (2x4, TTNN, f32) equals the numpy block above; every token's 2nd and
    3rd router logits are apart by at least 3% of its largest |logit| (what example_inputs'
    docstring promises, so bf16 rounding cannot flip a choice); and routing each token to its
    top 3 experts instead of 2 changes the output by far more than the tolerance. The link bytes
    by hand (batch 8 over x: 4 rows a device, experts over y: 2 a device): the combine's sum
    over the experts leaves a (4, 8, 32) f32 partial sum a device (4,096 B), all_reduced over y
    (8 x 2 x 3/4 x 4,096 B = 49,152 B); the result is unconstrained (no out_shardings) and leaves
    split over x, the host reading each device's piece, (4, 8, 32) in 4 tiles of 32 x 32
    (replicated, it was gathered over x: one 4,096 B piece into each device, 32,768 B more on
    the links)."""
    args = mixtral.example_inputs(np.float32)
    result = run_case("mixtral_moe", "2x4", "ttnn", "f32")
    check(result)
    piece = 4 * 8 * 32 * F32
    assert result.link_bytes == _ring_all_reduce(piece, 4, 8)
    assert result.device_to_host_bytes == 8 * _tiled_bytes(4, 8, 32)
    want, top, logits = _numpy_moe(*args)
    np.testing.assert_allclose(result.outputs[0], want, rtol=1e-4, atol=1e-4)
    ordered = np.sort(logits, axis=-1)[..., ::-1]
    assert np.all(ordered[..., 1] - ordered[..., 2] >= 0.03 * np.abs(logits).max(-1))
    assert len(np.unique(top)) == mixtral.EXPERTS  # every expert gets tokens: all devices compute
    top3_out, _, _ = _numpy_moe(*args, k=3)
    assert np.abs(top3_out - want).max() > 100 * 1e-4 * max(1.0, np.abs(want).max())


def test_mixtral_bf16_moves_half_the_bytes():
    """The same block in bf16 (2x4, TTNN): the same all_reduce of 2-byte elements, (4, 8, 32) x
    2 B = 2,048 B a device: 8 x 2 x 3/4 x 2,048 = 24,576 B, half the f32 case's 49,152."""
    result = run_case("mixtral_moe", "2x4", "ttnn", "bf16")
    check(result)
    piece = 4 * 8 * 32 * 2
    assert result.link_bytes == _ring_all_reduce(piece, 4, 8) == 24576
