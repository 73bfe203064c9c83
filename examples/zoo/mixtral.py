"""A Mixtral-style mixture-of-experts block as its users write it in JAX: RMSNorm, a router
(logits, softmax), top-2 routing with `jax.lax.top_k`, the two weights renormalised to sum to 1,
SwiGLU experts, the experts' outputs combined by the routing weights, a residual.

Every expert runs on every token of its device and the combine weights (zero for the experts a
token was not routed to) pick the two that count: the dense form small JAX MoE layers use, no
capacity and no token dropping. Expert parallelism on a ("x", "y") mesh: the batch over x, the
experts' stacked weights split over y by expert (each device holds EXPERTS / y experts whole);
the router's weights replicated. Only the weights' in_shardings place the experts (no constraint
inside): each device runs its own experts on its rows, and the combine, a sum over the experts,
leaves a partial sum over y that one all_reduce completes.
"""

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

BATCH, SEQ, D_MODEL, D_FF, EXPERTS, TOP_K = 8, 8, 32, 64, 8, 2
EPS = 1e-5


def rms_norm(x, weight):
    var = jnp.mean(jnp.square(x.astype(jnp.float32)), axis=-1, keepdims=True)
    return (x * jax.lax.rsqrt(var + EPS)).astype(x.dtype) * weight


def model(mesh):
    """The block for `mesh` (its constraints name the mesh's axes)."""
    rows = NamedSharding(mesh, P("x", None, None))

    def mixtral_moe(x, norm, w_router, w1, w3, w2):
        h = rms_norm(x, norm)
        logits = h @ w_router
        probs = jax.nn.softmax(logits.astype(jnp.float32), axis=-1)
        top_w, top_i = jax.lax.top_k(probs, TOP_K)
        top_w = top_w / jnp.sum(top_w, axis=-1, keepdims=True)
        combine = jnp.sum(jax.nn.one_hot(top_i, EXPERTS, dtype=jnp.float32) * top_w[..., None], axis=-2)
        gate = jnp.einsum("bsd,edf->ebsf", h, w1)
        up = jnp.einsum("bsd,edf->ebsf", h, w3)
        y = jnp.einsum("ebsf,efd->ebsd", jax.nn.silu(gate) * up, w2)
        out = jnp.einsum("ebsd,bse->bsd", y, combine.astype(x.dtype))
        return jax.lax.with_sharding_constraint(x + out, rows)

    return mixtral_moe


def example_inputs(dtype):
    """The block's arguments in `dtype`. The seed is one whose tokens all have a clear second
    choice: the 2nd and 3rd router logits of every token are at least 3% of its largest |logit|
    apart (8 bf16 steps), so that rounding cannot change which experts a token goes to."""
    rng = np.random.default_rng(201)
    d, f, e = D_MODEL, D_FF, EXPERTS

    def w(*shape, scale):
        return (rng.standard_normal(shape) * scale).astype(np.float32)

    args = (w(BATCH, SEQ, d, scale=1.0), 1.0 + w(d, scale=0.1), w(d, e, scale=0.5),
            w(e, d, f, scale=0.18), w(e, d, f, scale=0.18), w(e, f, d, scale=0.125))
    return tuple(np.asarray(a).astype(dtype) for a in args)


def in_specs(mesh_shape):
    """One PartitionSpec an argument: the batch over x, the experts over y."""
    rep = P()
    return (P("x", None, None), rep, rep, P("y", None, None), P("y", None, None), P("y", None, None))
