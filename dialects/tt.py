"""The tt dialect: devices, grids, system descriptors, tiles, data types and tensor layouts.

Attributes only; every fact they carry is computed by meshc.layout.
"""

from xdsl.ir import Dialect

TT = Dialect("tt", [], [])
