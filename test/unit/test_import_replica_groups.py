"""meshc/importers/manual.py reads the mesh axes of a collective from its replica_groups: lines
of devices along mesh axes, listed row-major over the axes in the program's order. Derived by
hand from row-major device ids; the ten-axis mesh checks the axes are read off the groups, not
searched (10! orders would hang)."""

import math

import numpy as np
import pytest
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, TensorType, i64
from xdsl.dialects.builtin import UnregisteredOp
from xdsl.ir import Operation

from meshc.errors import LocatedError
from meshc.importers.manual import _axes_of


def collective(groups: list[list[int]]) -> Operation:
    rows, cols = len(groups), len(groups[0])
    attr = DenseIntOrFPElementsAttr.from_list(TensorType(i64, [rows, cols]), [x for g in groups for x in g])
    return UnregisteredOp.with_name("stablehlo.all_gather").create(attributes={"replica_groups": attr})


def test_one_axis_and_both_orders_on_a_2x4_mesh():
    # device id = 4 * x + y on a 2x4 mesh
    assert _axes_of(collective([[0, 4], [1, 5], [2, 6], [3, 7]]), (2, 4)) == (0,)
    assert _axes_of(collective([[0, 1, 2, 3], [4, 5, 6, 7]]), (2, 4)) == (1,)
    assert _axes_of(collective([[0, 1, 2, 3, 4, 5, 6, 7]]), (2, 4)) == (0, 1)  # x-major
    assert _axes_of(collective([[0, 4, 1, 5, 2, 6, 3, 7]]), (2, 4)) == (1, 0)  # y-major


def test_ten_axes_in_a_scrambled_order():
    mesh = (2,) * 10
    order = (7, 2, 9, 0, 5, 1, 8, 3, 6, 4)  # slowest first
    ids = np.arange(math.prod(mesh)).reshape(mesh)
    group = [int(v) for v in np.transpose(ids, order).reshape(-1)]
    assert _axes_of(collective([group]), mesh) == order


@pytest.mark.parametrize("groups", [[[0, 1], [2, 3], [4, 5], [6, 7]], [[0, 5], [1, 4], [2, 7], [3, 6]], [[0, 4, 1], [5, 2, 6]]],
                         ids=["pairs-across-a-line", "diagonals", "not-a-line"])
def test_groups_that_are_not_lines_are_refused(groups):
    with pytest.raises(LocatedError, match="which are not the lines of devices along mesh axes of the 2x4 mesh"):
        _axes_of(collective(groups), (2, 4))
