"""A Llama-3 decoder block as its users write it in JAX, run as one decode step with a KV cache:
RMSNorm, rotary embeddings (sin / cos of the positions times Llama-3's inverse frequencies, the
rotate-half form), grouped-query attention (8 query heads, 4 K/V heads `jnp.repeat`ed up), a
SwiGLU MLP, residuals.

The step takes the new token of each sequence at the run-time position `pos` (an int32
argument): its key and value are written into the caches with `jax.lax.dynamic_update_slice` at
`pos`, and the query attends over the whole cache under the causal mask of the cache's positions
(key position <= the query's), as Meta's reference `Attention.forward(x, start_pos, ...)` does.
The block returns its output and both updated caches. The code takes T tokens (T = 1 here, a
decode step; test_zoo_llama3_mixtral also runs a chunk of 4 tokens at a run-time position, whose
causal mask is 2-d).

Megatron sharding on a ("x", "y") mesh: the batch over x, the heads (query and K/V) and the MLP's
hidden units over y (wq, wk, wv, w1, w3 column-parallel; wo, w2 row-parallel); the caches are
split like the keys, [x, -, y, -]. Nothing constrains the attention output: the row-parallel
wo carries the heads' split back to it (ttir-propagate-sharding keeps a weight's split of a
summed factor in its backward wishes), and the step moves only Megatron's two all_reduces.
"""

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

BATCH, T, MAX_SEQ, D_MODEL = 8, 1, 16, 64
HEADS, KV_HEADS, D_FF = 8, 4, 128
D_HEAD = D_MODEL // HEADS
ROPE_THETA = 500000.0
EPS = 1e-5
POS = 5
"""Where the example's new token goes in the cache (position 5 of 16; positions 0..4 are filled)."""


def rms_norm(x, weight):
    var = jnp.mean(jnp.square(x.astype(jnp.float32)), axis=-1, keepdims=True)
    return (x * jax.lax.rsqrt(var + EPS)).astype(x.dtype) * weight


def rotate_half(x):
    x1, x2 = jnp.split(x, 2, axis=-1)
    return jnp.concatenate([-x2, x1], axis=-1)


def rope_tables(positions):
    """cos and sin of the positions (t,) times Llama-3's inverse frequencies, as (1, t, 1, dh)."""
    inv_freq = 1.0 / (ROPE_THETA ** (np.arange(0, D_HEAD, 2, dtype=np.float32) / D_HEAD))
    angles = positions.astype(jnp.float32)[:, None] * inv_freq[None, :]
    angles = jnp.concatenate([angles, angles], axis=-1)
    return jnp.cos(angles)[None, :, None, :], jnp.sin(angles)[None, :, None, :]


def rope(x, cos, sin):
    """Rotary embedding of x (b, t, h, dh) by the tables of rope_tables."""
    return x * cos.astype(x.dtype) + rotate_half(x) * sin.astype(x.dtype)


def model(mesh):
    """The decoder step for `mesh` (its constraints name the mesh's axes)."""
    heads = NamedSharding(mesh, P("x", None, "y", None))

    def llama3_block(x, cache_k, cache_v, pos, attn_norm, wq, wk, wv, wo, mlp_norm, w1, w3, w2):
        b, t, d = x.shape
        h = rms_norm(x, attn_norm)
        q = jax.lax.with_sharding_constraint((h @ wq).reshape(b, t, HEADS, D_HEAD), heads)
        k = jax.lax.with_sharding_constraint((h @ wk).reshape(b, t, KV_HEADS, D_HEAD), heads)
        v = jax.lax.with_sharding_constraint((h @ wv).reshape(b, t, KV_HEADS, D_HEAD), heads)
        positions = pos + jnp.arange(t)
        cos, sin = rope_tables(positions)
        q, k = rope(q, cos, sin), rope(k, cos, sin)
        cache_k = jax.lax.dynamic_update_slice(cache_k, k, (0, pos, 0, 0))
        cache_v = jax.lax.dynamic_update_slice(cache_v, v, (0, pos, 0, 0))
        keys = jnp.repeat(cache_k, HEADS // KV_HEADS, axis=2)
        values = jnp.repeat(cache_v, HEADS // KV_HEADS, axis=2)
        scores = jnp.einsum("bthd,bshd->bhts", q, keys) / np.sqrt(D_HEAD).astype(x.dtype)
        causal = jnp.arange(cache_k.shape[1])[None, :] <= positions[:, None]
        scores = jnp.where(causal, scores, jnp.finfo(x.dtype).min)
        att = jax.nn.softmax(scores.astype(jnp.float32), axis=-1).astype(x.dtype)
        out = jnp.einsum("bhts,bshd->bthd", att, values).reshape(b, t, d)
        x = x + out @ wo
        h = rms_norm(x, mlp_norm)
        x = x + (jax.nn.silu(h @ w1) * (h @ w3)) @ w2
        rows = NamedSharding(mesh, P("x", None, None))
        return (jax.lax.with_sharding_constraint(x, rows), jax.lax.with_sharding_constraint(cache_k, heads),
                jax.lax.with_sharding_constraint(cache_v, heads))

    return llama3_block


def example_inputs(dtype):
    """The step's arguments in `dtype` (the position an int32): caches filled up to POS."""
    rng = np.random.default_rng(3)
    d, f, kv = D_MODEL, D_FF, KV_HEADS * D_HEAD

    def w(*shape, scale=0.02):
        return (rng.standard_normal(shape) * scale).astype(np.float32)

    filled = (np.arange(MAX_SEQ) < POS)[None, :, None, None].astype(np.float32)
    cache_k = w(BATCH, MAX_SEQ, KV_HEADS, D_HEAD, scale=1.0) * filled
    cache_v = w(BATCH, MAX_SEQ, KV_HEADS, D_HEAD, scale=1.0) * filled
    args = (w(BATCH, T, d, scale=1.0), cache_k, cache_v, None, 1.0 + w(d, scale=0.1), w(d, d, scale=0.125),
            w(d, kv, scale=0.125), w(d, kv, scale=0.125), w(d, d, scale=0.125), 1.0 + w(d, scale=0.1),
            w(d, f, scale=0.125), w(d, f, scale=0.125), w(f, d, scale=0.09))
    return tuple(np.int32(POS) if a is None else np.asarray(a).astype(dtype) for a in args)


def in_specs(mesh_shape):
    """One PartitionSpec an argument: the batch over x; heads and hidden units over y."""
    rep = P()
    cache = P("x", None, "y", None)
    return (P("x", None, None), cache, cache, rep, rep, P(None, "y"), P(None, "y"), P(None, "y"),
            P("y", None), rep, P(None, "y"), P(None, "y"), P("y", None))
