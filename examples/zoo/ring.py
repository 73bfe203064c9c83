"""A shard_map ring as JAX users write collectives by hand: a matmul whose contracting dim is
split over y gives partial sums, which a ring of `jax.lax.ppermute` steps (each device passes
what it last received to its right neighbour and adds it) all-reduces over y; a `jax.lax.psum`
over x then normalises the columns over the whole batch.
"""

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P

BATCH, D_IN, D_OUT = 64, 128, 64


def model(mesh):
    """The ring over `mesh`'s y axis (as many steps as y has devices, less one)."""
    n = mesh.shape["y"]
    right = [(i, (i + 1) % n) for i in range(n)]

    def ring_allreduce_matmul(a, w):
        partial = a @ w
        acc, passed = partial, partial
        for _ in range(n - 1):
            passed = jax.lax.ppermute(passed, "y", right)
            acc = acc + passed
        out = jnp.tanh(acc)
        col_sq = jax.lax.psum(jnp.sum(out * out, axis=0, keepdims=True), "x")
        return out * jax.lax.rsqrt(col_sq + 1.0)

    return jax.shard_map(ring_allreduce_matmul, mesh=mesh, in_specs=(P("x", "y"), P("y", None)),
                         out_specs=P("x", None), check_vma=False)


def example_inputs(dtype):
    rng = np.random.default_rng(5)
    return (rng.standard_normal((BATCH, D_IN)).astype(np.float32).astype(dtype),
            (rng.standard_normal((D_IN, D_OUT)) * 0.1).astype(np.float32).astype(dtype))


def in_specs(mesh_shape):
    """a split over both axes, w's rows (the contracting dim) over y, as the shard_map takes them."""
    return P("x", "y"), P("y", None)
