"""The public names of meshc.layout resolve to what docs/design.md says they are."""

import importlib

import meshc.layout as layout


def test_every_export_resolves():
    for name, module in layout._EXPORTS.items():
        obj = getattr(layout, name)
        assert obj is getattr(importlib.import_module(f"meshc.layout.{module}"), name)


def test_system_is_the_builder_even_after_the_submodule_is_imported():
    importlib.import_module("meshc.layout.system")
    assert callable(layout.system)
    assert layout.system("t3k").mesh_shape == (2, 4)


def test_design_names_exist():
    for name in ("derive_device", "MemoryConfig", "place", "distribute", "aggregate", "plan_reshard",
                 "lower_mesh_mapper", "ShardedBufferConfig", "UnsupportedSharding",
                 "ShardTensorToMesh", "ShardTensor2dMesh", "ReplicateTensorToMesh"):
        assert hasattr(layout, name), name
