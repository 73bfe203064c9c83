"""The ttmetal dialect: mesh buffers, host transfers and programs over core grids."""

from xdsl.ir import Dialect

TTMetal = Dialect("ttmetal", [], [])
