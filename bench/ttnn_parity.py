"""Parity with TT-Metal's real `ttnn`, host side: mesh mappers, composers, block-float bytes.

ttnn and meshc live in different Pythons (ttnn's wheels are for Python 3.10 and 3.12, and pull
their own numpy), so this runs in two steps:

    python3.12 -m venv /tmp/ttnn-venv && /tmp/ttnn-venv/bin/pip install ttnn==0.81.1
    /tmp/ttnn-venv/bin/python bench/ttnn_parity.py ttnn /tmp/ttnn-answers.json
    .venv/bin/python bench/ttnn_parity.py compare /tmp/ttnn-answers.json

The `ttnn` step imports only numpy and ttnn. It draws the cases from fixed seeds and writes them
with ttnn's answers:

* mappers: a random tensor shape, mesh (1-D to 3-D) and mapper (`ShardTensorToMesh(dim)`, built
  as `shard_tensor_to_mesh_mapper` builds it: one `PlacementShard(dim)` over `MeshShape([devices])`,
  or one placement per mesh axis, `ShardTensor2dMesh` / `ShardTensorNdMesh`), run through
  `create_mesh_mapper(MeshShape, MeshMapperConfig)` and `distribute_tensor`: the devices holding
  a piece (`tensor_topology().mesh_coords()`) and the pieces, or ttnn's refusal;
* block floats: 32x32 f32 tiles (random over the f32 range, ties, subnormals, negative values
  that round to 0) as `ttnn.Tensor(x, data_type=bfloat8_b / bfloat4_b, layout=TILE_LAYOUT)`,
  the tile's bytes read off the end of a `ttnn.dump_tensor` file. Building a tile-layout tensor
  asks TT-Metal for the tile size, which needs a cluster: the step describes a one-chip
  Wormhole n150 in a file and points TT_METAL_MOCK_CLUSTER_DESC_PATH at it (no device is opened).

The `compare` step runs the same cases through meshc (`distribute`, `aggregate` with
`ConcatMeshToTensor` on ttnn's own pieces, `numerics.encode` in face order) and prints one line
a class: cases where both agree, and each way they differ. The composer is compared with what
ttnn's 1-D composer does to the pieces it was given (it concatenates every piece present, in
device order: `MeshToTensor` in TT-Metal's distributed_tensor.cpp); opening a mesh device to run
ttnn's composer itself needs TT-Metal's kernel toolchain, which the wheel does not carry.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile

import numpy as np

MESHES = [[8], [2, 4], [4, 2], [1, 8], [2, 2], [8, 4], [2, 2, 2], [4]]
SIZES = [1, 2, 3, 4, 5, 6, 8, 12, 16]


def mapper_cases(n: int = 600, seed: int = 5840) -> list[dict]:
    rng = np.random.default_rng(seed)
    cases = []
    for _ in range(n):
        mesh = MESHES[rng.integers(len(MESHES))]
        rank = int(rng.integers(1, 4))
        shape = [int(rng.choice(SIZES)) for _ in range(rank)]
        if rng.random() < 0.5:
            cases.append({"mesh": mesh, "shape": shape, "kind": "flat", "dims": [int(rng.integers(-rank, rank))]})
        else:
            dims = [None if rng.random() < 0.25 else int(rng.integers(-rank, rank)) for _ in mesh]
            cases.append({"mesh": mesh, "shape": shape, "kind": "nd", "dims": dims})
    return cases


def tiles(seed: int = 2222) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    out = {}
    for i in range(40):
        e = rng.integers(-140, 128, (32, 32)) if i % 4 == 0 else rng.integers(-20, 20, (32, 32))
        t = np.ldexp(rng.uniform(1, 2, (32, 32)) * rng.choice([-1, 1], (32, 32)), e).astype(np.float32)
        if i % 5 == 1:
            t[rng.random((32, 32)) < 0.3] = 0.0
        out[f"random{i}"] = t
    t = np.zeros((32, 32), np.float32)
    t[0, :16] = [1.0, 2.5 / 64, 3.5 / 64, 0.5 / 64, -2.5 / 64, 1.5 / 64, 127.5 / 64, 126.5 / 64, 0.75, -0.5 / 64,
                 4.5 / 64, 5.5 / 64, 0, 0, 0, 0]  # ties at the bf8 step of a block whose largest value is 1.0
    t[1, :8] = [1.0, 2.5 / 4, 1.5 / 4, 0.5 / 4, -2.5 / 4, -1.5 / 4, 7.5 / 4, 6.5 / 4]  # ties at the bf4 step
    out["ties"] = t
    t = np.zeros((32, 32), np.float32)
    t[0, :5] = [1.0, -2.0**-9, -2.0**-8, 2.0**-9, -1e-5]  # negative values that round to magnitude 0
    t[1, :3] = [1e-40, -1e-40, 1e-39]  # a block of subnormals only
    t[2, :2] = [1e-40, 1.0]  # a subnormal beside a normal value
    t[3, :] = -0.0
    out["zeros"] = t
    t = np.full((32, 32), 1e-40, np.float32)
    t[::2] *= -1
    out["subnormal"] = t
    return out


# ---- step 1: ttnn ------------------------------------------------------------------------------

_N150 = """arch:
  0: wormhole_b0
chips:
  0: [0, 0, 0, 0]
chip_unique_ids:
  0: 1
ethernet_connections: []
ethernet_connections_to_remote_devices: []
chips_with_mmio:
  - 0: 0
harvesting:
  0: {noc_translation: true, harvest_mask: 544, dram_harvesting_mask: 0, eth_harvesting_mask: 0, pcie_harvesting_mask: 0}
chip_to_boardtype:
  0: n150
boards:
  -
    - board_id: 72058994491928619
    - board_type: n150
    - chips: [0]
"""


def run_ttnn(out_path: str) -> None:
    tmp = tempfile.mkdtemp(prefix="ttnn-parity-")
    if "TT_METAL_MOCK_CLUSTER_DESC_PATH" not in os.environ:
        desc = os.path.join(tmp, "n150.yaml")
        with open(desc, "w") as f:
            f.write(_N150)
        os.environ["TT_METAL_MOCK_CLUSTER_DESC_PATH"] = desc
    import importlib.metadata

    import ttnn

    def placement(d):
        return ttnn.PlacementReplicate() if d is None else ttnn.PlacementShard(d)

    answers = []
    cases = mapper_cases()
    for c in cases:
        x = np.arange(int(np.prod(c["shape"])), dtype=np.float32).reshape(c["shape"])
        t = ttnn.Tensor(x, data_type=ttnn.float32, layout=ttnn.ROW_MAJOR_LAYOUT)
        try:
            if c["kind"] == "flat":
                cfg = ttnn.MeshMapperConfig([placement(c["dims"][0])], ttnn.MeshShape([int(np.prod(c["mesh"]))]))
            else:
                cfg = ttnn.MeshMapperConfig([placement(d) for d in c["dims"]])
            d = ttnn.distribute_tensor(t, ttnn.create_mesh_mapper(ttnn.MeshShape(c["mesh"]), cfg))
            answers.append({"coords": [list(m) for m in d.tensor_topology().mesh_coords()],
                            "pieces": [p.to_numpy().tolist() for p in ttnn.get_device_tensors(d)]})
        except RuntimeError as e:
            text = str(e)
            answers.append({"error": text.split("info:")[1].split("backtrace")[0].strip() if "info:" in text
                            else text.splitlines()[0]})
    packed = {}
    for name, x in tiles().items():
        for key, dt, size in (("bfp_bf8", ttnn.bfloat8_b, 1088), ("bfp_bf4", ttnn.bfloat4_b, 576)):
            path = os.path.join(tmp, f"{name}-{key}.tensorbin")
            ttnn.dump_tensor(path, ttnn.Tensor(x, data_type=dt, layout=ttnn.TILE_LAYOUT))
            packed[f"{name}/{key}"] = np.fromfile(path, np.uint8)[-size:].tolist()
    with open(out_path, "w") as f:
        json.dump({"ttnn": importlib.metadata.version("ttnn"), "cases": cases, "answers": answers,
                   "bfp": packed}, f)
    print(f"ttnn {importlib.metadata.version('ttnn')}: {len(cases)} mapper cases, {len(packed)} packed tiles "
          f"-> {out_path}")


# ---- step 2: meshc -----------------------------------------------------------------------------

def _faces(x: np.ndarray) -> np.ndarray:
    """A 32x32 tile's values in storage order: faces 0..3 (16x16, row-major), each row-major."""
    return np.concatenate([x[:16, :16].ravel(), x[:16, 16:].ravel(), x[16:, :16].ravel(), x[16:, 16:].ravel()])


def compare(path: str) -> None:
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    from meshc.layout.errors import LayoutError
    from meshc.layout.mesh_mappers import (ConcatMeshToTensor, ReplicateTensorToMesh, ShardTensor2dMesh,
                                           ShardTensorNdMesh, ShardTensorToMesh, aggregate, distribute)
    from meshc.layout.numerics import encode

    with open(path) as f:
        data = json.load(f)
    classes: dict[str, int] = {}
    composed = [0, 0]
    for c, a in zip(data["cases"], data["answers"]):
        x = np.arange(int(np.prod(c["shape"])), dtype=np.float32).reshape(c["shape"])
        mesh = tuple(c["mesh"])
        if c["kind"] == "flat":
            mapper = ShardTensorToMesh(c["dims"][0])
        elif all(d is None for d in c["dims"]):
            mapper = ReplicateTensorToMesh()
        else:
            mapper = ShardTensor2dMesh(tuple(c["dims"])) if len(mesh) == 2 else ShardTensorNdMesh(tuple(c["dims"]))
        try:
            mine = distribute(x, mesh, mapper)
        except LayoutError:
            mine = None
        if "error" in a:
            k = "both refuse" if mine is None else "ttnn refuses, meshc distributes"
            classes[k] = classes.get(k, 0) + 1
            continue
        theirs = {tuple(co): np.array(p, np.float32) for co, p in zip(a["coords"], a["pieces"])}
        if mine is None:
            k = "ttnn distributes, meshc refuses"
        else:
            same = list(mine) == list(theirs) and all(np.array_equal(mine[co], theirs[co]) for co in theirs)
            k = "same pieces on the same devices" if same else "different pieces or devices"
        classes[k] = classes.get(k, 0) + 1
        if c["kind"] == "flat":  # ttnn's 1-D composer concatenates the pieces present, in device order
            try:
                got = aggregate(theirs, mesh, ConcatMeshToTensor(c["dims"][0]))
                ok = np.array_equal(got, np.concatenate(list(theirs.values()), axis=c["dims"][0]))
            except LayoutError:
                ok = False
            composed[0 if ok else 1] += 1
    print(f"mappers against ttnn {data['ttnn']} ({len(data['cases'])} cases):")
    for k, n in sorted(classes.items()):
        print(f"  {k}: {n}")
    print(f"ConcatMeshToTensor on ttnn's pieces: {composed[0]} as ttnn composes, {composed[1]} not")
    same = diff = 0
    for name, x in tiles().items():
        for key in ("bfp_bf8", "bfp_bf4"):
            if encode(_faces(x), key).tolist() == data["bfp"][f"{name}/{key}"]:
                same += 1
            else:
                diff += 1
    print(f"block-float tiles: {same} byte-identical to ttnn's, {diff} differ")


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("ttnn", "compare"):
        sys.exit("usage: ttnn_parity.py ttnn OUT.json (in ttnn's Python) | compare OUT.json (in meshc's)")
    (run_ttnn if sys.argv[1] == "ttnn" else compare)(sys.argv[2])
