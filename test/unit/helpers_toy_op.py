"""A toy elementwise op, `toy_cube` (x ** 3), written as a new op is: one entry of the compute-op
registry. test_op_derivation.py adds it to the registry (before the layers are imported, in a
fresh interpreter, for the end-to-end run) and checks that every layer takes it.

Only meshc.layout is imported here, so registering the toy first is possible."""

from meshc.layout.compute_ops import COMPUTE_OPS, unary

TOY = unary("toy_cube", lambda x: x * x * x, "x ** 3", stablehlo=("stablehlo.toy_cube",), jax="")
"""The toy's registry entry: an SFPU unary op with the identity sharding rule, TTNN op
`ttnn.toy_cube`, TTMetal kernel `tile_unary {op = "toy_cube"}`, StableHLO spelling
`stablehlo.toy_cube`."""


def register() -> None:
    """Add the toy to the registry (for a process that imports the layers afterwards)."""
    COMPUTE_OPS[TOY.name] = TOY
