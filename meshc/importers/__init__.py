"""Programs from the ecosystem -> meshc's ttir.

* `import_stablehlo(text, name, mesh_shape=None, entry=None, system=None)`: StableHLO text with
  Shardy (`sdy`) or GSPMD (`mhlo.sharding`) annotations -> a global-view ttir module
  (stablehlo.py, the op table in stablehlo_ops.py, the annotations in shardings.py);
* `from_jax(fn, *example_args, mesh=None)` (jax_frontend.py): lower a jitted JAX function with
  JAX's own export and import its StableHLO.

`meshc-import` (meshc/tools/import_stablehlo.py) is the command line.
"""

from meshc.importers.jax_frontend import from_jax
from meshc.importers.stablehlo import import_module, import_stablehlo, parse_stablehlo

__all__ = ["from_jax", "import_module", "import_stablehlo", "parse_stablehlo"]
