"""The ttnn dialect: memory configs, mesh distribution attributes and TTNN-level ops."""

from xdsl.ir import Dialect

TTNN = Dialect("ttnn", [], [])
