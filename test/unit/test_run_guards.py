"""The simulator refuses tensors the host cannot hold before it allocates them, at the op.

A ttir program whose op makes a 16 GiB result from a small input: the golden (numpy) run
stops at that op with a RunError naming the size and the limit (host_tensor_limit: the larger
of MAX_TENSOR_BYTES and the memory available over RUN_COPIES), instead of running the host out of
memory.
"""

import numpy as np
import pytest

import meshc
from meshc.interp.runner import RunError, run_golden
from meshc.layout import limits

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
    assert str(limits.host_tensor_limit()) in e.value.message and "host_tensor_limit" in e.value.message


def test_dynamic_input_is_refused_at_the_function():
    module = meshc.parse("func.func @main(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {\n"
                         "  return %x : tensor<?x4xf32>\n}\n")
    with pytest.raises(RunError) as e:
        run_golden(module, seed=0)
    assert e.value.op is not None and e.value.op.name == "func.func"
    assert "dynamic" in e.value.message


def test_the_limit_follows_the_memory_available(monkeypatch):
    """The limit is the memory available over RUN_COPIES, never below MAX_TENSOR_BYTES (nor
    when the memory is unknown): 23 GiB available gives 23 / 8 GiB; 1 GiB gives the floor."""
    monkeypatch.setattr(limits, "available_memory", lambda: 23 * 2**30)
    assert limits.host_tensor_limit() == 23 * 2**30 // 8
    monkeypatch.setattr(limits, "available_memory", lambda: 2**30)
    assert limits.host_tensor_limit() == 512 * 2**20
    monkeypatch.setattr(limits, "available_memory", lambda: None)
    assert limits.host_tensor_limit() == 512 * 2**20
