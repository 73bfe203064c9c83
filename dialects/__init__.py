"""meshc's dialects (installed as `meshc.dialects`): tt, ttir, ttnn, ttmetal.

`get_all_dialects()` is the lazy registry the tools use: dialect name -> factory.
"""

from collections.abc import Callable

from xdsl.ir import Dialect


def get_all_dialects() -> dict[str, Callable[[], Dialect]]:
    def builtin():
        from xdsl.dialects.builtin import Builtin

        return Builtin

    def func():
        from xdsl.dialects.func import Func

        return Func

    def arith():
        from xdsl.dialects.arith import Arith

        return Arith

    def tensor():
        from xdsl.dialects.tensor import Tensor

        return Tensor

    def tt():
        from meshc.dialects.tt import TT

        return TT

    def ttir():
        from meshc.dialects.ttir import TTIR

        return TTIR

    def ttnn():
        from meshc.dialects.ttnn import TTNN

        return TTNN

    def ttmetal():
        from meshc.dialects.ttmetal import TTMetal

        return TTMetal

    return {
        "builtin": builtin,
        "func": func,
        "arith": arith,
        "tensor": tensor,
        "tt": tt,
        "ttir": ttir,
        "ttnn": ttnn,
        "ttmetal": ttmetal,
    }
