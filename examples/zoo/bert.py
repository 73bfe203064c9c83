"""A BERT encoder layer as its users write it in JAX: self-attention with a padding mask (an int
attention_mask of 1s and 0s turned boolean and broadcast over heads and queries), post-LayerNorm
residuals and the exact GELU (`jax.nn.gelu(approximate=False)`, which JAX writes with erf).
Megatron sharding on a ("x", "y") mesh: the batch over x, heads and the FFN's hidden units over y.
"""

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

BATCH, SEQ, D_MODEL, HEADS = 8, 32, 64, 4
D_HEAD, D_FF = D_MODEL // HEADS, 4 * D_MODEL


def layer_norm(x, gamma, beta, eps=1e-12):
    mean = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.var(x, axis=-1, keepdims=True)
    return (x - mean) / jnp.sqrt(var + eps) * gamma + beta


def model(mesh):
    """The layer for `mesh` (its constraints name the mesh's axes)."""
    heads = NamedSharding(mesh, P("x", "y", None, None))

    def bert_layer(x, attention_mask, wq, wk, wv, wo, ln1_g, ln1_b, w_in, b_in, w_out, ln2_g, ln2_b):
        b, s, d = x.shape

        def split_heads(t):
            return jax.lax.with_sharding_constraint(t.reshape(b, s, HEADS, D_HEAD).transpose(0, 2, 1, 3), heads)

        q, k, v = split_heads(x @ wq), split_heads(x @ wk), split_heads(x @ wv)
        scores = q @ k.transpose(0, 1, 3, 2) / np.sqrt(D_HEAD).astype(x.dtype)
        keep = attention_mask.astype(bool)[:, None, None, :]
        probs = jax.nn.softmax(jnp.where(keep, scores, -1e4), axis=-1)
        ctx = (probs @ v).transpose(0, 2, 1, 3).reshape(b, s, d)
        x = layer_norm(x + ctx @ wo, ln1_g, ln1_b)
        h = jax.nn.gelu(x @ w_in + b_in, approximate=False)
        return layer_norm(x + h @ w_out, ln2_g, ln2_b)

    return bert_layer


def example_inputs(dtype):
    """The layer's arguments in `dtype`; sequences padded after 32, 24, 17, 32, 9, 32, 30, 1 tokens."""
    rng = np.random.default_rng(3)
    d, f = D_MODEL, D_FF
    lengths = np.array([32, 24, 17, 32, 9, 32, 30, 1])
    mask = (np.arange(SEQ)[None, :] < lengths[:, None]).astype(np.int32)

    def w(*shape, scale=0.05, mean=0.0):
        return (mean + rng.standard_normal(shape) * scale).astype(np.float32).astype(dtype)

    return (w(BATCH, SEQ, d, scale=1.0), mask, w(d, d), w(d, d), w(d, d), w(d, d),
            w(d, scale=0.1, mean=1.0), w(d, scale=0.1), w(d, f), w(f), w(f, d), w(d, scale=0.1, mean=1.0),
            w(d, scale=0.1))


def in_specs(mesh_shape):
    """One PartitionSpec an argument: the batch over x; Q/K/V and the FFN's first matmul
    column-parallel over y, the output projections row-parallel."""
    rep = P()
    return (P("x", None, None), P("x", None), P(None, "y"), P(None, "y"), P(None, "y"), P("y", None),
            rep, rep, P(None, "y"), P("y"), P("y", None), rep, rep)
