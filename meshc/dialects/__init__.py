"""meshc's dialects (installed as `meshc.dialects`): tt, ttir, ttnn, ttmetal.

`get_all_dialects()` is the lazy registry the tools use: dialect name -> factory, as xDSL's own
registry does (a dialect's module is imported when its factory is called, not before).
"""

from collections.abc import Callable
from importlib import import_module

from xdsl.ir import Dialect

# dialect name -> (module, name of its Dialect object)
_DIALECTS: dict[str, tuple[str, str]] = {
    "builtin": ("xdsl.dialects.builtin", "Builtin"),
    "func": ("xdsl.dialects.func", "Func"),
    "arith": ("xdsl.dialects.arith", "Arith"),
    "tensor": ("xdsl.dialects.tensor", "Tensor"),
    "tt": ("meshc.dialects.tt", "TT"),
    "ttir": ("meshc.dialects.ttir", "TTIR"),
    "ttnn": ("meshc.dialects.ttnn", "TTNN"),
    "ttmetal": ("meshc.dialects.ttmetal", "TTMetal"),
}


def get_all_dialects() -> dict[str, Callable[[], Dialect]]:
    def factory(module: str, name: str) -> Callable[[], Dialect]:
        return lambda: getattr(import_module(module), name)

    return {name: factory(mod, obj) for name, (mod, obj) in _DIALECTS.items()}
