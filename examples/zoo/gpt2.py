"""A GPT-2 block as its users write it in JAX: pre-LayerNorm, causal self-attention with a boolean
mask (`jnp.tril` of ones), the tanh-approximated GELU MLP, residuals. Megatron sharding on a
("x", "y") mesh: the batch over x, heads and the MLP's hidden units over y (Q/K/V and the first
MLP matmul column-parallel, the output projections row-parallel).
"""

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

BATCH, SEQ, D_MODEL, HEADS = 8, 32, 64, 4
D_HEAD, D_FF = D_MODEL // HEADS, 4 * D_MODEL


def layer_norm(x, gamma, beta, eps=1e-5):
    mean = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.mean((x - mean) ** 2, axis=-1, keepdims=True)
    return (x - mean) * jax.lax.rsqrt(var + eps) * gamma + beta


def model(mesh):
    """The block for `mesh` (its constraints name the mesh's axes)."""
    heads = NamedSharding(mesh, P("x", None, "y", None))

    def gpt2_block(x, ln1_g, ln1_b, w_qkv, b_qkv, w_o, b_o, ln2_g, ln2_b, w_fc, b_fc, w_proj, b_proj):
        b, s, d = x.shape
        h = layer_norm(x, ln1_g, ln1_b)
        q, k, v = jnp.split(h @ w_qkv + b_qkv, 3, axis=-1)
        q, k, v = (jax.lax.with_sharding_constraint(t.reshape(b, s, HEADS, D_HEAD), heads) for t in (q, k, v))
        scores = jnp.einsum("bqhd,bkhd->bhqk", q, k) / np.sqrt(D_HEAD).astype(x.dtype)
        causal = jnp.tril(jnp.ones((s, s), dtype=bool))
        scores = jnp.where(causal, scores, jnp.finfo(x.dtype).min)
        att = jax.nn.softmax(scores, axis=-1)
        out = jnp.einsum("bhqk,bkhd->bqhd", att, v).reshape(b, s, d)
        x = x + out @ w_o + b_o
        h = layer_norm(x, ln2_g, ln2_b)
        h = jax.nn.gelu(h @ w_fc + b_fc, approximate=True)
        return x + h @ w_proj + b_proj

    return gpt2_block


def example_inputs(dtype):
    """The block's arguments in `dtype` (weights scaled as GPT-2 initialises them)."""
    rng = np.random.default_rng(2)
    d, f = D_MODEL, D_FF

    def w(*shape, scale=0.02):
        return (rng.standard_normal(shape) * scale).astype(np.float32)

    args = (w(BATCH, SEQ, d, scale=1.0), 1.0 + w(d, scale=0.1), w(d, scale=0.1), w(d, 3 * d),
            w(3 * d), w(d, d), w(d), 1.0 + w(d, scale=0.1), w(d, scale=0.1), w(d, f), w(f), w(f, d), w(d))
    return tuple(np.asarray(a).astype(dtype) for a in args)


def in_specs(mesh_shape):
    """One PartitionSpec an argument: the batch over x; Megatron column- then row-parallel over y."""
    rep = P()
    return (P("x", None, None), rep, rep, P(None, "y"), P("y"), P("y", None), rep,
            rep, rep, P(None, "y"), P("y"), P("y", None), rep)
