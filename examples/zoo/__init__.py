"""The model zoo (issue 23, item 5): JAX programs written as their users write them, each imported
with `meshc.from_jax`, lowered through both pipelines, run on the simulator and compared with JAX.

Each model is one module exposing
  model(mesh) -> fn            the JAX function; `mesh` is a jax.sharding.Mesh with axes ("x", "y"),
                               which its with_sharding_constraint / shard_map calls name
  example_inputs(dtype) -> tuple of np.ndarray   the arguments, in `dtype` (np.float32 or jnp.bfloat16)
  in_specs(mesh_shape) -> tuple of PartitionSpec  one an argument, for a (rows, cols) mesh
`examples/zoo/harness.py` runs one case (model x mesh x backend x dtype); test/unit/test_zoo.py
runs them all; bench/zoo.py prints the table. Sizes divide both the 2x4 and the 8x4 mesh.
"""

from examples.zoo import bert, gpt2, llama3, mixtral, ring, vocab_parallel

MODELS = {
    "gpt2_block": gpt2,
    "bert_layer": bert,
    "vocab_parallel_xent": vocab_parallel,
    "shard_map_ring": ring,
    "llama3_decode": llama3,
    "mixtral_moe": mixtral,
}
