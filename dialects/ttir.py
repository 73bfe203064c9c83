"""The ttir dialect: tensor ops with value semantics, the input of meshc's pipelines."""

from xdsl.ir import Dialect

TTIR = Dialect("ttir", [], [])
