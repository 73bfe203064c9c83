"""A device mesh whose shape is not the system's chip mesh but whose volume fits is a view of the
system's first chips in row-major chip order (device i on chip i), routed over the system's links."""

import pytest

import meshc
from meshc.dialects.tt import system_or_default
from meshc.layout.errors import LayoutError
from meshc.layout.system import system
from meshc.sim.machine import Machine


def test_machine_maps_a_2x2x2_mesh_onto_the_t3k_chips_in_order():
    m = Machine(system("t3k"), (2, 2, 2))
    assert m.devices == (0, 1, 2, 3, 4, 5, 6, 7)
    # device 3 is chip 3 at (0, 3) of the 2x4 chip mesh, device 4 is chip 4 at (1, 0): the route
    # between them crosses 1 + 3 = 4 links (dimension-ordered: down, then left three times)
    assert len(m.router.route(m.devices[3], m.devices[4])) == 4


def test_machine_on_a_galaxy_takes_its_first_two_rows():
    m = Machine(system("galaxy"), (2, 2, 2))
    assert m.devices == tuple(range(8))


def test_machine_refuses_more_devices_than_chips():
    with pytest.raises(LayoutError, match=r"a 2x2x2 device mesh needs 8 chips, but the system has 2 \(chip mesh 1x2\)"):
        Machine(system("n300"), (2, 2, 2))


def test_a_2x2x2_module_runs_on_a_t3k():
    text = ('module attributes {tt.device = #tt.device<workerGrid = #tt.grid<2x16x16, (d0, d1, d2) -> '
            '(d2 floordiv 8 + (d1 floordiv 8) * 2 + d0 * 4, d1 mod 8, d2 mod 8)>, meshShape = 2x2x2, '
            'chipIds = [0, 1, 2, 3, 4, 5, 6, 7]>} {}')
    sysdesc = system_or_default(meshc.parse(text))
    assert tuple(sysdesc.mesh_shape) == (2, 4) and sysdesc.num_chips == 8
