"""The model zoo (issue 23, item 5): every model of examples/zoo x {2x4, 8x4} x {ttnn, ttmetal} x
{f32, bf16}, imported with meshc.from_jax, lowered, run on the simulator and compared with JAX's
own output on CPU (examples/zoo/harness.py: f32 within 1e-4, bf16 within the bf16 tolerance,
finite wherever JAX is). The 8x4 mesh needs 32 JAX CPU devices (conftest.py asks for them).

Skipped when jax is not installed (`pip install meshc[jax]`; the `test` extra installs it).
"""

from __future__ import annotations

import os
import sys
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=32")
jax = pytest.importorskip("jax")
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repo root: examples.zoo

from jax.sharding import PartitionSpec as P  # noqa: E402
from xdsl.dialects import func  # noqa: E402

import meshc  # noqa: E402
from examples.zoo import MODELS  # noqa: E402
from examples.zoo.harness import BACKENDS, DTYPES, MESHES, CaseResult, check, reference  # noqa: E402
from meshc.passes.propagate_sharding import propagate_module  # noqa: E402
from meshc.passes.sharding_ir import UNCONSTRAINED  # noqa: E402
from examples.zoo.harness import run_case as _run_case  # noqa: E402

run_case = lru_cache(maxsize=None)(_run_case)
"""One run a case in this process (the tests below reuse the parametrized runs)."""


@pytest.mark.parametrize("dtype", sorted(DTYPES))
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("mesh", sorted(MESHES))
@pytest.mark.parametrize("model", sorted(MODELS))
def test_zoo_model_matches_jax(model, mesh, backend, dtype):
    result = run_case(model, mesh, backend, dtype)
    check(result)
    assert result.ops > 0 and result.sim_time > 0


@pytest.mark.parametrize("model", sorted(MODELS))
def test_every_float_argument_is_in_the_dtype_asked_for(model):
    """A bf16 case is a bf16 program: no float argument left in f32 (one would make JAX promote
    the ops it meets to f32, and the case would measure f32 traffic)."""
    for dtype in DTYPES.values():
        for a in MODELS[model].example_inputs(dtype):
            assert not np.issubdtype(a.dtype, np.floating) and a.dtype.kind != "V" or a.dtype == np.dtype(dtype), \
                (model, a.dtype, dtype)


@pytest.mark.parametrize("mesh, rows, cols", [("2x4", 2, 4), ("8x4", 8, 4)])
def test_the_ring_moves_what_its_ppermutes_send(mesh, rows, cols):
    """shard_map_ring's link bytes by hand. Each device holds a (64 / rows) x 64 f32 block of
    partial sums; each of the cols - 1 ppermute steps sends it one place right along its mesh row.
    A T3K's and a Galaxy's rows are lines of chips (no link from a row's last chip back to its
    first): a step makes cols - 1 sends of one link and the wrap-around send of cols - 1 links,
    2 (cols - 1) link crossings a row. The psum over x of one 1 x 64 f32 row (256 B) is a ring all-reduce down each column:
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


def test_the_gpt2_block_moves_as_megatron_and_its_fused_qkv_say():
    """The GPT-2 block's link bytes by hand (2x4, f32; each mesh row holds 4 of the 8 sequences).

    Megatron's two all-reduces a block (after the row-parallel attention output and MLP down
    projections): a 4 x 32 x 64 f32 piece of partial sums (32 KiB) a chip; a ring all-reduce
    over a row's 4 chips crosses 2 (4 - 1) links with a quarter of it each chip, 2 x 3 x 32 KiB
    a row: 2 rows x 2 all-reduces = 786,432 B.

    The fused QKV's 192 columns are split 48 a chip, the heads 16 columns of each of q, k, v a
    chip: chip j needs q's columns 16j.. (qkv columns 16j..), k's (64 + 16j..), v's (128 + 16j..).
    A 4 x 32 x 16 f32 block is 8 KiB; its sends cross, along the row's line of chips: q: chip 1
    from 0 (1 link), 2 from 0 (2), 3 from 1 (2); k: 0 from 1 (1), 3 from 2 (1); v: 0 from 2
    (2), 1 from 3 (2), 2 from 3 (1). 5 + 2 + 5 = 12 link crossings a row: 196,608 B.

    The jit has no out_shardings, so the result is unconstrained: it leaves as the last residual
    add holds it, each row's 4 sequences on each of its chips, and the host reads every chip's
    32 KiB piece (device to host, over PCIe): no link bytes (replicating it first gathered the
    other row's 32 KiB into each chip over one link, 8 x 32 KiB = 262,144 B). In all 786,432 +
    196,608 = 983,040 B."""
    result = run_case("gpt2_block", "2x4", "ttnn", "f32")
    piece, block = 4 * 32 * 64 * 4, 4 * 32 * 16 * 4
    assert result.link_bytes_by_op == {"ttnn.all_reduce": 2 * 2 * (2 * 3 * piece),
                                       "ttnn.point_to_point": 2 * 12 * block}
    assert result.link_bytes == 983_040
    assert result.device_to_host_bytes == 8 * piece


def test_the_gpt2_block_on_a_galaxy_moves_the_same_bytes():
    """8x4, f32: each chip holds 1 of the 8 sequences; a Galaxy's rows are lines of 4 chips as a
    T3K's. The all-reduces: an 8 KiB (1 x 32 x 64 f32) piece a chip, 2 x 3 x 8 KiB a row, 8 rows,
    2 all-reduces = 786,432 B; the QKV moves: 12 crossings a row of a 1 x 32 x 16 f32 block
    (2 KiB), 8 rows = 196,608 B: the 2x4 figures (a quarter a row, four times the rows). The
    unconstrained result leaves split over x: the host reads 32 pieces of 8 KiB."""
    result = run_case("gpt2_block", "8x4", "ttnn", "f32")
    piece, block = 1 * 32 * 64 * 4, 1 * 32 * 16 * 4
    assert result.link_bytes_by_op == {"ttnn.all_reduce": 8 * 2 * (2 * 3 * piece),
                                       "ttnn.point_to_point": 8 * 12 * block}
    assert result.device_to_host_bytes == 32 * piece


def test_the_bert_layer_moves_only_megatrons_all_reduces():
    """Separate Q/K/V weights split by heads need no moves: the two all-reduces of the GPT-2
    block's derivation, 786,432 B (2x4, f32); the unconstrained result leaves split over x as the
    GPT-2 block's does (no gather: it moved 262,144 B when the result left replicated)."""
    result = run_case("bert_layer", "2x4", "ttnn", "f32")
    piece = 4 * 32 * 64 * 4
    assert result.link_bytes_by_op == {"ttnn.all_reduce": 2 * 2 * (2 * 3 * piece)}
    assert result.device_to_host_bytes == 8 * piece


def _meshc_spec(spec: P, axis_names: tuple[str, ...]) -> tuple[tuple[int, ...], ...]:
    """A JAX PartitionSpec as meshc's dims (mesh axis k is S<k>)."""
    def axes(entry):
        names = () if entry is None else (entry,) if isinstance(entry, str) else tuple(entry)
        return tuple(axis_names.index(n) for n in names)
    return tuple(axes(e) for e in spec)


@pytest.mark.parametrize("mesh", sorted(MESHES))
@pytest.mark.parametrize("model", sorted(set(MODELS) - {"shard_map_ring"}))
def test_unconstrained_results_leave_as_jax_leaves_them(model, mesh):
    """No zoo jit names out_shardings: every result is `tt.unconstrained` after the import, and
    ttir-propagate-sharding gives it the sharding JAX's own compiler gives the same output
    (`jit(...).lower(...).compile().output_shardings`, GSPMD / Shardy propagation on CPU). The
    shard_map ring is an SPMD program: its out_specs place the result."""
    jmesh, fn, args, _ = reference(model, mesh, "f32")
    shardings = jax.tree_util.tree_leaves(fn.lower(*args).compile().output_shardings)
    shapes = [o.shape for o in jax.tree_util.tree_leaves(jax.eval_shape(fn, *args))]
    want = [_meshc_spec(s.spec, jmesh.axis_names) for s in shardings]
    want = [dims + ((),) * (len(shape) - len(dims)) for dims, shape in zip(want, shapes, strict=True)]
    module = meshc.from_jax(fn, *args, mesh=jmesh)
    (entry,) = [op for op in module.body.ops if isinstance(op, func.FuncOp)]
    assert [set(d.data) for d in entry.res_attrs.data] == [{UNCONSTRAINED}] * len(want)
    propagate_module(module)
    got = [d.data["tt.sharding"].spec.dims for d in entry.res_attrs.data]
    assert got == want


def test_the_vocab_parallel_loss_moves():
    """emb[ids] from a table split by rows over y: each device looks up the ids its rows hold and
    one all_reduce over y completes the 8 x 16 x 64 f32 embeddings: a row's devices hold 4 of
    the 8 sequences, 4 x 16 x 64 x 4 = 16 KiB; 2 (4 - 1) x 16 KiB a row, 2 rows = 196,608 B. The
    label's logit (take_along_axis over the split vocabulary) and logsumexp's sum of exps are
    partial sums too, each all-reduced over y: 4 x 16 f32 = 256 B a device, 2 x 3 x 256 a row.
    The mean's sum is partial over x: the 4-byte scalar padded to one element a device of the
    column's 2, one element sent each way to reduce-scatter and one to all-gather, 16 B a
    column, 4 columns. logsumexp's max over the split vocabulary is each device's max of its
    64 logits a position and a max all_reduce over y of those 4 x 16 f32 maxima (256 B a
    device), which TTNN runs as an all_gather of them: on a line of 4 chips each crosses 3
    links, 4 x 3 x 256 B a row, 2 rows = 6,144 B (gathering the 16 KiB of logits a chip first
    moved 2 x 4 x 3 x 16 KiB = 393,216 B)."""
    result = run_case("vocab_parallel_xent", "2x4", "ttnn", "f32")
    lookup = 2 * (2 * 3 * 4 * 16 * 64 * 4)
    small = 2 * (2 * 3 * 4 * 16 * 4)
    mean = 4 * (4 * 4)
    maxima = 2 * (4 * 3 * 4 * 16 * 4)
    assert result.link_bytes_by_op == {"ttnn.all_reduce": lookup + 2 * small + mean, "ttnn.all_gather": maxima}
    assert result.link_bytes == lookup + 2 * small + mean + maxima  # 208,960 B, from 596,032


def test_the_vocab_parallel_loss_moves_on_ttmetal():
    """TTMetal's CCL kernels all-reduce by max: logsumexp's max all_reduce of the 4 x 16 f32
    maxima (256 B a chip) is a ring all-reduce over y as the sums' are, 2 x 3 x 256 B a row;
    the other all-reduces as on TTNN (test_the_vocab_parallel_loss_moves' derivation)."""
    result = run_case("vocab_parallel_xent", "2x4", "ttmetal", "f32")
    lookup = 2 * (2 * 3 * 4 * 16 * 64 * 4)
    small = 2 * (2 * 3 * 4 * 16 * 4)
    mean = 4 * (4 * 4)
    assert result.link_bytes_by_op == {"ttmetal.enqueue_ccl all_reduce": lookup + 3 * small + mean}


def test_the_scalar_loss_comes_back_0d():
    """The vocab-parallel cross-entropy averages to one number, as JAX's jnp.mean gives it."""
    result = run_case("vocab_parallel_xent", "2x4", "ttmetal", "f32")
    check(result)
    assert np.ndim(result.outputs[0]) == 0 and np.ndim(result.expected[0]) == 0


def test_check_refuses_a_wrong_result_and_a_nan():
    """The harness's check fails a case whose output is off by more than the tolerance, or NaN
    where JAX's output is finite, and passes one within it (the tolerance by hand: f32 1e-4
    relative + 1e-4 absolute)."""
    want = np.linspace(-1.0, 1.0, 16, dtype=np.float32).reshape(4, 4)

    def case(got, dtype="f32"):
        return CaseResult("m", "2x4", "ttnn", dtype, 1, 0, 1.0, 0.0, 0.0, {}, [got], [want])

    check(case(want + np.float32(5e-5)))
    with pytest.raises(AssertionError):
        check(case(want + np.float32(1e-3)))
    nan = want.copy()
    nan[1, 2] = np.nan
    with pytest.raises(AssertionError, match="NaN or inf"):
        check(case(nan))
    with pytest.raises(AssertionError):
        check(case(want[:3]))
    check(case(want * np.float32(1 + 2 ** -6), "bf16"))
    with pytest.raises(AssertionError):
        check(case(want + np.float32(0.1), "bf16"))
