"""A vocab-parallel embedding with a cross-entropy loss, as JAX users write a language model's
ends: the token embedding looked up with `emb[ids]` (a gather) from a table split over the
vocabulary, the tied output projection `h @ emb.T`, the loss through `jax.nn.logsumexp` and the
label's logit picked with `jnp.take_along_axis` (another gather), averaged to one scalar.
Sharding on a ("x", "y") mesh: the batch over x, the vocabulary over y (Megatron's
vocab-parallel embedding and its parallel cross-entropy).
"""

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

BATCH, SEQ, D_MODEL, VOCAB = 8, 16, 64, 256


def model(mesh):
    """The loss for `mesh` (its constraint names the mesh's axes)."""
    vocab_split = NamedSharding(mesh, P("x", None, "y"))

    def vocab_parallel_xent(ids, labels, emb, ln_g):
        h = emb[ids]
        h = h * jax.lax.rsqrt(jnp.mean(h * h, axis=-1, keepdims=True) + 1e-6) * ln_g
        logits = jax.lax.with_sharding_constraint(h @ emb.T, vocab_split)
        lse = jax.nn.logsumexp(logits, axis=-1)
        picked = jnp.take_along_axis(logits, labels[..., None], axis=-1)[..., 0]
        return jnp.mean(lse - picked)

    return vocab_parallel_xent


def example_inputs(dtype):
    """Token ids and labels over the whole vocabulary (every device's slice is hit), the table
    and the norm's scale in `dtype`."""
    rng = np.random.default_rng(4)
    ids = rng.integers(0, VOCAB, (BATCH, SEQ)).astype(np.int32)
    labels = np.roll(ids, -1, axis=1)
    emb = (rng.standard_normal((VOCAB, D_MODEL)) * 0.5).astype(np.float32).astype(dtype)
    ln_g = (1.0 + rng.standard_normal(D_MODEL) * 0.1).astype(np.float32).astype(dtype)
    return ids, labels, emb, ln_g


def in_specs(mesh_shape):
    """ids and labels split over the batch (x), the table over the vocabulary (y)."""
    return P("x", None), P("x", None), P("y", None), P()
