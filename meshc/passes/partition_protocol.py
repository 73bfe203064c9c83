"""What the strategies of ttir-partition kept in their own modules (windowed slices and concats,
scans and selections, the vocab-parallel lookup) need of its function partitioner: one
structural type, so they depend on no partitioner class and the partitioner on no strategy's."""

from __future__ import annotations

from typing import Protocol

from xdsl.ir import Operation, SSAValue

from meshc.layout.mesh import Mesh, ShardingSpec


class Partitioner(Protocol):
    """The function partitioner as a strategy sees it: the mesh, each value's sharding and global
    shape, where to put new ops, and a reshard of a value to another sharding."""

    mesh: Mesh
    spec: dict[SSAValue, ShardingSpec]
    globals: dict[SSAValue, tuple[int, ...]]

    def insert(self, new: Operation, before: Operation) -> Operation: ...

    def reshard(self, v: SSAValue, target: ShardingSpec, before: Operation) -> SSAValue: ...

    def global_shape(self, v: SSAValue) -> tuple[int, ...]: ...
