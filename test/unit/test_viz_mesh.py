"""The mesh view (meshc.viz): which chip holds which block, for 1-D to 3-D meshes.

Expected blocks are derived by hand from the TT-Mesh sharding spec's rules (torch.chunk pieces,
row-major device order, `S01` = split over mesh axis 0, then each piece over axis 1) and the
chips from the T3K / galaxy numbering (row-major over the chip mesh; a 2x2 mesh on a T3K takes
its linked corner, chips 0, 1, 4, 5)."""

from __future__ import annotations

import pytest

import meshc
from meshc.layout.errors import LayoutError
from meshc.layout.system import system
from meshc.viz import mesh_view
from meshc.viz.mesh_picture import mesh_figure


def test_t3k_2d_blocks_and_chips():
    v = mesh_view((64, 64), "[S0, S1]", (2, 4))
    assert len(v.blocks) == 8
    assert v.chips == tuple(range(8))
    b = v.blocks[v.device_block[(1, 1)]]  # rows 32:64 (second of 2), cols 16:32 (second of 4)
    assert b.label == "B5" and b.bounds == ((32, 64), (16, 32)) and b.chips == (5,)


def test_replicas_share_a_block():
    v = mesh_view((64, 64), "[S0, R]", (2, 4))
    assert [b.devices for b in v.blocks] == [((0, 0), (0, 1), (0, 2), (0, 3)), ((1, 0), (1, 1), (1, 2), (1, 3))]
    assert v.blocks[1].chips == (4, 5, 6, 7) and v.blocks[1].ranges() == "[32:64, 0:64]"


@pytest.mark.parametrize("spec, piece", [("[S01, R]", 1 * 4 + 2), ("[S10, R]", 2 * 2 + 1)])
def test_multi_axis_split_order(spec, piece):
    v = mesh_view((64, 64), spec, (2, 4))  # 8 pieces of 8 rows; device (1, 2)
    b = v.blocks[v.device_block[(1, 2)]]
    assert b.bounds == ((8 * piece, 8 * piece + 8), (0, 64))


def test_galaxy_8x4_and_2x2_on_t3k():
    v = mesh_view((256, 128), "[S0, S1]", (8, 4))
    assert len(v.blocks) == 32 and v.chips == tuple(range(32))
    assert v.blocks[v.device_block[(7, 3)]].bounds == ((224, 256), (96, 128))
    assert mesh_view((8, 8), "[S0, S1]", (2, 2), system=system("t3k")).chips == (0, 1, 4, 5)


def test_3d_mesh_and_partial_sums():
    v = mesh_view((64, 32, 16), "[S0, S1, S2]", (2, 2, 2))
    assert v.blocks[v.device_block[(1, 0, 1)]].bounds == ((32, 64), (0, 16), (8, 16))
    p = mesh_view((64, 64), "[S0, R] P1", (2, 4))
    assert len(p.blocks) == 2 and p.partial_part((1, 2)) == (2, 4)
    assert p.partial_part((0, 0)) == (0, 4)


def test_errors_name_the_problem():
    with pytest.raises(LayoutError, match="has 2 dims but the tensor 64 has rank 1"):
        mesh_view((64,), "[S0, R]", (2, 4))
    with pytest.raises(LayoutError, match="3 chip ids for the 8 devices"):
        mesh_view((64, 64), "[S0, R]", (2, 4), chips=(0, 1, 2))


def test_visualize_sharding_prints_and_draws(capsys, tmp_path):
    v = meshc.visualize_sharding((64, 64), "[S0, S1]", (2, 4))
    out = capsys.readouterr().out
    assert "[S0, S1] on mesh 2x4" in out and "chip 5" in out and "[32:64, 16:32]" in out
    assert len(v.blocks) == 8
    meshc.visualize_sharding((64, 64), "[S01, R]", (2, 4), output=str(tmp_path / "v.svg"))
    meshc.visualize_sharding((64, 32, 16), "[S0, S1, S2]", (2, 2, 2), output=str(tmp_path / "v.png"))
    assert (tmp_path / "v.svg").read_text().lstrip().startswith("<?xml")
    assert (tmp_path / "v.png").read_bytes()[:4] == b"\x89PNG"


def _overlaps(fig) -> list[tuple[str, str]]:
    """Pairs of labels (texts inside an axes) whose drawn boxes overlap."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    bad = []
    for ax in fig.axes:
        boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in ax.texts if t.get_text()]
        for i, (a, ba) in enumerate(boxes):
            for b, bb in boxes[i + 1:]:
                if ba.overlaps(bb):
                    bad.append((a, b))
    return bad


def test_galaxy_labels_do_not_overlap():
    fig = mesh_figure(mesh_view((256, 128), "[S0, S1]", (8, 4)))
    assert _overlaps(fig) == []
    labels = [t.get_text() for ax in fig.axes for t in ax.texts]
    assert sum(1 for s in labels if s.startswith("chip ")) == 32  # every chip of the mesh named
