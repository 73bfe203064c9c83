"""meshc's fuzz harness: mutated MLIR through meshc-opt / meshc-run and random Python API calls.

Every input runs in-process in a forked worker (meshc imported once) under a per-input time
limit and an address-space limit, and its outcome is classified (`fuzz.classify`): ok, located
user error, unlocated error, internal error, hang, out of memory. Run it with
`python -m fuzz --inputs N --seed S` (see `python -m fuzz --help` and the README's Robustness
section); `make fuzz` runs the long campaign, `make test` a short one.
"""
