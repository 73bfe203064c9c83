"""Save a sharded tensor (one .npy per device + manifest) and merge it back; broken checkpoints
(missing, extra, mis-shaped shards, tampered manifests) are clear errors."""

import json

import numpy as np
import pytest

from meshc.layout import ShardTensor2dMesh, distribute, merge_sharded, parse_spec, save_sharded
from meshc.layout.checkpoint import CheckpointError
from meshc.layout.sharding_spec import from_global


@pytest.fixture
def saved(tmp_path):
    rng = np.random.default_rng(0)
    t = rng.standard_normal((6, 8)).astype(np.float32)
    spec = parse_spec("[S0, S1]", (2, 4))
    path = save_sharded(tmp_path / "ckpt", from_global(t, spec), spec)
    return t, tmp_path / "ckpt", path


def test_round_trip(saved):
    t, root, path = saved
    assert path.name == "manifest.json"
    assert sorted(p.name for p in root.glob("*.npy")) == sorted(f"device_{i}.npy" for i in range(8))
    assert np.array_equal(merge_sharded(root), t)
    m = json.loads(path.read_text())
    assert m["spec"] == "[S0, S1] on 2x4" and m["global_shape"] == [6, 8] and m["dtype"] == "<f4"
    dev5 = next(e for e in m["devices"] if e["device"] == 5)
    assert dev5["coord"] == [1, 1] and dev5["bounds"] == [[3, 6], [2, 4]]  # rows 3-5, columns 2-3


def test_round_trip_named_partial_and_uneven(tmp_path):
    t = np.arange(5 * 3 * 4, dtype=np.int64).reshape(5, 3, 4)
    spec = parse_spec("[B=5/DP=2, S=3, M=4/TP=2] P(CP=2) on [DP=2, CP=2, TP=2]")
    shards = from_global(t, spec)
    shards[(0, 1, 0)] = shards[(0, 1, 0)] + 7  # addends along CP: +7 here, -7 on its partner
    shards[(0, 0, 0)] = shards[(0, 0, 0)] - 7
    save_sharded(tmp_path, shards, spec)
    assert np.array_equal(merge_sharded(tmp_path), t)


def test_mapper_shards_round_trip(tmp_path):
    t = np.arange(4 * 8, dtype=np.uint8).reshape(4, 8)
    shards = distribute(t, (2, 4), ShardTensor2dMesh((None, 1)))
    save_sharded(tmp_path, shards, ShardTensor2dMesh((None, 1)).spec((2, 4), 2))
    assert np.array_equal(merge_sharded(tmp_path), t)


def test_missing_shard(saved):
    _, root, _ = saved
    (root / "device_3.npy").unlink()
    with pytest.raises(CheckpointError, match=r"device_3.npy: missing shard of device \(0, 3\)"):
        merge_sharded(root)


def test_extra_shard_file(saved):
    _, root, _ = saved
    np.save(root / "device_8.npy", np.zeros(1))
    with pytest.raises(CheckpointError, match=r"shard files \['device_8.npy'\] are not in the manifest"):
        merge_sharded(root)


def test_extra_device_in_manifest(saved):
    _, root, path = saved
    m = json.loads(path.read_text())
    m["devices"].append(dict(m["devices"][0], coord=[2, 0], device=8))
    path.write_text(json.dumps(m))
    with pytest.raises(CheckpointError, match=r"extra shard for device \(2, 0\)"):
        merge_sharded(root)


def test_misshaped_shard(saved):
    _, root, _ = saved
    np.save(root / "device_0.npy", np.zeros((2, 2), np.float32))
    with pytest.raises(CheckpointError, match=r"device_0.npy: shard of device \(0, 0\) has shape \(2, 2\), expected \(3, 2\)"):
        merge_sharded(root)


def test_wrong_dtype(saved):
    _, root, _ = saved
    np.save(root / "device_1.npy", np.zeros((3, 2), np.float64))
    with pytest.raises(CheckpointError, match="dtype float64, the manifest says float32"):
        merge_sharded(root)


def test_tampered_bounds_and_device_missing_from_manifest(saved):
    _, root, path = saved
    m = json.loads(path.read_text())
    m["devices"][2]["bounds"] = [[0, 3], [0, 2]]
    path.write_text(json.dumps(m))
    with pytest.raises(CheckpointError, match="listed with bounds"):
        merge_sharded(root)
    del m["devices"][2]
    path.write_text(json.dumps(m))
    with pytest.raises(CheckpointError, match=r"no shard for devices \[\(0, 2\)\]"):
        merge_sharded(root)


def test_not_a_checkpoint(tmp_path):
    with pytest.raises(CheckpointError, match="no manifest.json"):
        merge_sharded(tmp_path)
    (tmp_path / "manifest.json").write_text("{")
    with pytest.raises(CheckpointError, match="not valid JSON"):
        merge_sharded(tmp_path)
    (tmp_path / "manifest.json").write_text('{"format": "other"}')
    with pytest.raises(CheckpointError, match="format"):
        merge_sharded(tmp_path)


def test_save_checks_shapes(tmp_path):
    spec = parse_spec("[S0, R]", (2, 1))
    with pytest.raises(CheckpointError, match="gives it"):
        save_sharded(tmp_path, {(0, 0): np.zeros((2, 2)), (1, 0): np.zeros((2, 2))}, spec, shape=(5, 2))


def test_safetensors_round_trip_keeps_the_manifest_in_metadata(tmp_path):
    import json

    from safetensors import safe_open

    from meshc.layout.checkpoint import save_sharded as save, merge_sharded as merge
    from meshc.layout.sharding_spec import from_global

    x = np.arange(8 * 12, dtype=np.float32).reshape(8, 12)
    path = save(tmp_path, from_global(x, "[S0, S1]", (2, 3)), "[S0, S1]", (2, 3), fmt="safetensors")
    assert path.name == "shards.safetensors" and not (tmp_path / "manifest.json").exists()
    with safe_open(str(path), framework="np") as f:
        manifest = json.loads(f.metadata()["manifest"])
        assert sorted(f.keys()) == [f"device_{i}" for i in range(6)]
        # device 4 = mesh (1, 1): rows 4:8 (second of 2), cols 4:8 (second of 3 pieces of 4)
        assert (f.get_tensor("device_4") == x[4:8, 4:8]).all()
    assert manifest["spec"] == "[S0, S1] on 2x3" and manifest["devices"][4]["bounds"] == [[4, 8], [4, 8]]
    assert (merge(tmp_path) == x).all()


def test_safetensors_without_manifest_is_refused(tmp_path):
    from safetensors.numpy import save_file

    from meshc.layout.checkpoint import CheckpointError, merge_sharded as merge

    save_file({"device_0": np.zeros(2, np.float32)}, str(tmp_path / "shards.safetensors"))
    with pytest.raises(CheckpointError, match="its metadata has no 'manifest'"):
        merge(tmp_path)
