"""meshc-run's progress counts work, not ops: a program whose time is one big matmul among small
ops is most of the way done once the matmul has run (meshc/tools/run_progress.py)."""

from __future__ import annotations

import io

import meshc
from meshc.interp.common import find_entry
from meshc.tools.run_progress import RunProgress, op_work

PROGRAM = """
func.func @main(%a: tensor<64x32xf32>, %b: tensor<32x16xf32>) -> tensor<64x16xf32> {
  %0 = "ttir.matmul"(%a, %b) : (tensor<64x32xf32>, tensor<32x16xf32>) -> tensor<64x16xf32>
  %1 = "ttir.relu"(%0) : (tensor<64x16xf32>) -> tensor<64x16xf32>
  func.return %1 : tensor<64x16xf32>
}
"""


def test_work_of_an_op():
    body = find_entry(meshc.parse(PROGRAM), None).body.blocks.first
    matmul, relu, ret = list(body.ops)
    assert op_work(matmul) == 64 * 16 * 32  # M * N * K
    assert op_work(relu) == 2 * 64 * 16  # reads and writes 64x16 elements
    assert op_work(ret) == 64 * 16


def test_progress_after_the_matmul_is_its_share_of_the_work():
    body = find_entry(meshc.parse(PROGRAM), None).body.blocks.first
    matmul, relu, ret = list(body.ops)
    out = io.StringIO()
    progress = RunProgress(True, every=0.0, stream=out)
    with progress.phase("simulating", len(body.ops), block=body, by_work=True):
        progress.did_interpret_op(matmul, ())
        line = out.getvalue().strip().splitlines()[-1]
        progress.did_interpret_op(relu, ())
        progress.did_interpret_op(ret, ())
    total = 64 * 16 * 32 + 2 * 64 * 16 + 64 * 16
    share = round(100 * 64 * 16 * 32 / total)  # 91%, where counting ops would say 33%
    assert f"simulating {share}% of the work (1/3 ops)" in line
    assert out.getvalue().strip().splitlines()[-1].startswith("meshc-run: simulating 100% of the work (3/3 ops)")
