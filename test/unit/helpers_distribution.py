"""Reference mesh distribution for the distribution tests, written independently of meshc.layout.

TTNN's algorithm: chunk the tensor along the dim mesh axis 0 shards, then each chunk along the
dim of axis 1, and so on; an axis that shards nothing repeats every piece along it.
"""

import numpy as np


def reference_pieces(t, mesh, per_axis):
    """The pieces of `t` in row-major device order over `mesh`. `per_axis[i]` is the tensor dim
    mesh axis i splits, or None to replicate along it."""
    pieces = [t]
    for n, d in zip(mesh, per_axis):
        pieces = [q for p in pieces for q in (np.split(p, n, axis=d) if d is not None else [p] * n)]
    return pieces
