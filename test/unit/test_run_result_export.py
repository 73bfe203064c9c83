"""RunResult.summary() / to_json(), the Chrome trace, and the input type rules of meshc.run.

The two-chip all_gather moves each chip's 4x4 f32 piece (64 B) to the other: 64 B on each link
direction (hand count from the program). Its ethernet time is the CCL report's 2-device line
all_gather: (N - 1) x 64 B over one link at 12.5 GB/s x 0.51 utilisation = 10.0392 ns; its
latency 5.25 us + 1.75 us a hop x 1 hop = 7 us (the report's fit, tech_reports/CCLs)."""

from __future__ import annotations

import json

import ml_dtypes
import numpy as np
import pytest

import meshc
from meshc.interp.result_export import chrome_trace
from meshc.interp.runner import RunError

PROGRAM = """
module attributes {tt.device = #tt.device<workerGrid = #tt.grid<8x16, (d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)>, meshShape = 1x2, chipIds = [0, 1]>} {
  func.func @main(%x: tensor<4x8xTYPE>) -> tensor<4x8xTYPE> {
    %s = "ttir.mesh_shard"(%x) {shard_type = #ttir.shard_type<devices>, shard_direction = #ttir.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 2>, shard_dims = array<i64: -1, 1>} : (tensor<4x8xTYPE>) -> tensor<4x4xTYPE>
    %g = "ttir.all_gather"(%s) {all_gather_dim = 1 : si32, cluster_axis = 1 : ui32} : (tensor<4x4xTYPE>) -> tensor<4x8xTYPE>
    %o = "ttir.mesh_shard"(%g) {shard_type = #ttir.shard_type<replicate>, shard_direction = #ttir.shard_direction<shard_to_full>, shard_shape = array<i64: 1, 1>, shard_dims = array<i64: -1, -1>} : (tensor<4x8xTYPE>) -> tensor<4x8xTYPE>
    func.return %o : tensor<4x8xTYPE>
  }
}
"""


@pytest.fixture(scope="module")
def result():
    x = np.arange(32, dtype=np.float32).reshape(4, 8)
    return meshc.run(meshc.parse(PROGRAM.replace("TYPE", "f32")), {"x": x})


def test_to_json_and_summary(result, tmp_path):
    data = json.loads(result.to_json(str(tmp_path / "r.json")))
    assert data == json.loads((tmp_path / "r.json").read_text())
    assert data["traffic"]["link"] == {"0->1": 64, "1->0": 64}
    assert data["outputs"] == [{"name": "result0", "shape": [4, 8], "dtype": "float32"}]
    assert abs(data["time_model"]["seconds"] - sum(o["seconds"] for o in data["ops"])) < 1e-15
    starts = [o["start_s"] for o in data["ops"]]
    assert starts == sorted(starts) and starts[0] == 0.0
    text = result.summary()
    assert "1x2 mesh" in text and "ethernet 128 B" in text and "result0 4x8 float32" in text


def test_trace_has_a_track_per_resource_and_link(result):
    t = chrome_trace(result)["traceEvents"]
    names = {e["args"]["name"] for e in t if e["ph"] == "M"}
    assert {"compute", "dram", "noc", "ethernet", "latency", "host", "resources",
            "chip 0 -> chip 1", "chip 1 -> chip 0", "ethernet links"} <= names
    eth = [e for e in t if e["ph"] == "X" and e["cat"] == "ethernet"]
    # one event on the resources' ethernet lane, one on each link direction's lane
    assert [round(e["dur"], 7) for e in eth] == [0.0100392] * 3  # microseconds
    latency = [e for e in t if e["ph"] == "X" and e["cat"] == "latency" and e["name"] == "ttnn.all_gather"]
    assert [round(e["dur"], 6) for e in latency] == [7.0]
    ops = [e for e in t if e["ph"] == "X" and e["cat"] == "op"]
    for a, b in zip(ops, ops[1:]):  # one after the other
        assert abs(a["ts"] + a["dur"] - b["ts"]) < 1e-9


def test_input_types_are_never_narrowed_silently():
    m = meshc.parse(PROGRAM.replace("TYPE", "f32"))
    with pytest.raises(RunError, match="input 'x' holds float64 values, but @main takes tensor<4x8xf32>"):
        meshc.run(m, {"x": np.zeros((4, 8))})
    r = meshc.run(m, {"x": np.ones((4, 8), np.int16)})  # int16 widens to f32 exactly
    assert (r.outputs[0] == 1).all()


def test_bf16_inputs_via_ml_dtypes():
    m = meshc.parse(PROGRAM.replace("TYPE", "bf16"))
    third = np.full((4, 8), 1 / 3, np.float32)  # 1/3 is not a bf16 value
    with pytest.raises(RunError, match="values a bf16 tensor cannot hold exactly"):
        meshc.run(m, {"x": third})
    r = meshc.run(m, {"x": third.astype(ml_dtypes.bfloat16)})
    # bf16(1/3) = 0x3EAB = 0.333984375 (8 mantissa bits, rounded to nearest even)
    assert (r.outputs[0] == np.float32(0.333984375)).all()
