"""The simulator refuses tensors the host cannot hold before it allocates them, at the op.

A ttir program whose op makes a 16 GiB result from a small input: the golden (numpy) run
stops at that op with a RunError naming the size and meshc.layout.limits.MAX_TENSOR_BYTES,
instead of running the host out of memory.
"""

import numpy as np
import pytest

import meshc
from meshc.interp.runner import RunError, run_golden
from meshc.layout.limits import MAX_TENSOR_BYTES

BROADCAST = """
func.func @main(%x: tensor<65536x1xf32>) -> tensor<65536x65536xf32> {
  %0 = "ttir.broadcast"(%x) {broadcast_dimensions = array<i64: 1, 65536>} : (tensor<65536x1xf32>) -> tensor<65536x65536xf32>
  return %0 : tensor<65536x65536xf32>
}
"""


def test_huge_result_is_refused_at_its_op():
    module = meshc.parse(BROADCAST)
    with pytest.raises(RunError) as e:
        run_golden(module, [np.zeros((65536, 1), np.float32)])
    assert e.value.op is not None and e.value.op.name == "ttir.broadcast"
    assert str(65536 * 65536 * 4) in e.value.message
    assert str(MAX_TENSOR_BYTES) in e.value.message


def test_dynamic_input_is_refused_at_the_function():
    module = meshc.parse("func.func @main(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {\n"
                         "  return %x : tensor<?x4xf32>\n}\n")
    with pytest.raises(RunError) as e:
        run_golden(module, seed=0)
    assert e.value.op is not None and e.value.op.name == "func.func"
    assert "dynamic" in e.value.message
