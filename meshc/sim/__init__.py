"""The multi-chip core-grid simulator.

- `machine`: chips (core grid, L1 per core, DRAM banks), device mesh, host transfers, counting;
- `allocator`: checked first-fit allocators, lockstep across a mesh buffer;
- `memory`: a device tensor's shards in one chip's memories (`ShardLayout`), `MeshBuffer`;
- `encoding`: how stored elements are viewed (bytes from meshc.layout.numerics);
- `links`: dimension-ordered ethernet routing;
- `traffic`: the counters and the time model;
- `collectives`: ring / line collectives as real moves over links;
- `compute`: numpy kernels (the meaning of every compute op), shared with the golden run.
See docs/simulator.md.
"""
