"""meshc.layout.virtual_devices: tt-mlir's Device spec's pipeline devices on a t3k, their legality
and the link distances between them (derived by hand from the t3k's 2x4 chip mesh)."""

import numpy as np
import pytest

from meshc.layout.affine import parse_map
from meshc.layout.device import Device, derive_device
from meshc.layout.errors import LayoutError
from meshc.layout.system import mesh_system, system
from meshc.layout.virtual_devices import check_linked, check_virtual_devices, hops_between

# the Device spec's "Pipeline Parallel" devices, as it writes them
STAGE0 = Device((2, 8, 16), parse_map("(d0, d1, d2) -> (d0 * 2 + (d1 floordiv 8) * 2 + d2 floordiv 8, d1, d2 mod 8)"),
                (2, 1, 2), (0, 1, 2, 3))
STAGE1 = Device((16, 16), parse_map("(d0, d1) -> ((d0 floordiv 8) * 2 + d1 floordiv 8, d0 mod 8, d1 mod 8)"),
                (2, 2), (4, 5, 6, 7))


def test_spec_devices_are_legal_together():
    check_virtual_devices([STAGE0, STAGE1], system("t3k"))


def test_spec_devices_cover_their_chips_once():
    # every core of the 4 chips, once: 4 x 64 cores, chip ids 0..3 and 4..7
    for dev, chips in ((STAGE0, range(4)), (STAGE1, range(4, 8))):
        phys = dev.locate_all()
        assert sorted(set(phys[:, 0].tolist())) == list(chips)
        assert len({tuple(p) for p in phys.tolist()}) == 256


def test_overlap_is_refused():
    other = derive_device((2, 2), chip_ids=(3, 5, 6, 7))
    with pytest.raises(LayoutError, match=r"devices\[1\] takes chip 3, which devices\[0\] takes too"):
        check_virtual_devices([STAGE0, other], system("t3k"))


def test_device_outside_the_system_is_refused():
    with pytest.raises(LayoutError, match=r"devices\[1\] is not a legal device on the system: chip id 8"):
        check_virtual_devices([STAGE0, derive_device((2, 2), chip_ids=(4, 5, 6, 8))], system("t3k"))


def test_hops_on_a_t3k():
    # t3k: chips 0-3 on row 0, 4-7 on row 1, linked along rows and columns; from chip r to chip
    # 4 + c: one link down, then |r - c| along the row
    expect = np.array([[1 + abs(r - c) for c in range(4)] for r in range(4)])
    assert np.array_equal(hops_between(system("t3k"), range(4), range(4, 8)), expect)
    assert check_linked(system("t3k"), STAGE0.chip_ids, STAGE1.chip_ids) == 1


def test_unlinked_chip_sets_are_refused():
    s = mesh_system((1, 2))
    unlinked = type(s)(s.chips, (), s.mesh_shape)
    with pytest.raises(LayoutError, match="no ethernet link joins chips 0 to chips 1"):
        check_linked(unlinked, [0], [1])
