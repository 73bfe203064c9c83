"""xDSL interpreter functions for meshc's dialects.

- `ttir`: the golden reference on numpy (distributed values are lists of arrays);
- `ttnn`: ttnn programs on the simulator (meshc/sim);
- `runner`: `run(module, inputs, **kw) -> RunResult`, what `meshc.run` and `meshc-run` call.
"""
