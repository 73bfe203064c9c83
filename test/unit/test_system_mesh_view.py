"""meshc.layout.system: whether a device mesh fits a chip mesh, which chips it takes, and the
system a program runs on when it names none.

Expected chip ids are worked by hand from the named systems' row-major chip meshes
(t3k 2x4: chip id = 4 * row + column; galaxy 8x4: chip id = 4 * row + column).
"""

import pytest

from meshc.layout.errors import LayoutError
from meshc.layout.system import default_system, mesh_fits, mesh_view_chips, system


@pytest.mark.parametrize("mesh, chips, fits", [
    ((2, 4), (2, 4), True),
    ((1, 2), (2, 4), True),
    ((2, 1), (1, 2), True),  # size-1 axes are ignored: two devices in a row
    ((2,), (2, 4), True),
    ((4, 2), (2, 4), False),
    ((2, 2, 2), (2, 4), False),  # three mesh axes on a 2-d chip mesh
    ((8,), (8, 4), False),  # aligned at the last axis: 8 > 4
])
def test_mesh_fits(mesh, chips, fits):
    assert mesh_fits(mesh, chips) is fits


@pytest.mark.parametrize("name, mesh, ids", [
    ("t3k", (2, 4), (0, 1, 2, 3, 4, 5, 6, 7)),
    ("t3k", (2, 2), (0, 1, 4, 5)),  # fits: the origin corner of the 2x4 chip mesh
    ("t3k", (1, 2), (0, 1)),
    ("galaxy", (4, 2), (0, 1, 4, 5, 8, 9, 12, 13)),
    ("t3k", (2, 2, 2), (0, 1, 2, 3, 4, 5, 6, 7)),  # does not fit: a view of the first chips
    ("galaxy", (8,), (0, 1, 2, 3, 4, 5, 6, 7)),
    ("n150", (1,), (0,)),
])
def test_mesh_view_chips(name, mesh, ids):
    assert mesh_view_chips(system(name), mesh) == ids


def test_mesh_view_needs_enough_chips():
    with pytest.raises(LayoutError, match=r"a 4x4 device mesh needs 16 chips, but the system has 8 \(chip mesh 2x4\)"):
        mesh_view_chips(system("t3k"), (4, 4))


@pytest.mark.parametrize("mesh, chip_ids, name", [
    ((1,), (), "n150"),
    ((1, 2), (0, 1), "n300"),
    ((2, 1), (0, 1), "n300"),
    ((2, 2), (0, 1, 2, 3), "t3k"),  # n300 holds neither the shape nor the chips
    ((1, 2), (4, 5), "t3k"),  # the shape fits an n300, but chip 5 needs six chips
    ((2, 2, 2), tuple(range(8)), "t3k"),  # no chip mesh holds the shape: the smallest with 8 chips
    ((4, 4), tuple(range(16)), "galaxy"),
])
def test_default_system_is_the_smallest_named_one_that_holds_the_program(mesh, chip_ids, name):
    assert default_system(mesh, chip_ids) == system(name)


def test_default_system_beyond_a_galaxy_is_a_chip_mesh_of_the_program_shape():
    s = default_system((16, 4), tuple(range(64)))
    assert s.mesh_shape == (16, 4) and s.num_chips == 64
