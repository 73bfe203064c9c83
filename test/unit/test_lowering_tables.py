"""The op tables of convert-ttir-to-ttnn and convert-ttir-to-ttmetal: every ttir op is covered
or named as not lowered, and each entry pairs ops of the same family."""

import pytest
from xdsl.dialects.builtin import IntegerAttr, StringAttr, TensorType, f32, i64
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.test_value import create_ssa_value

import meshc
from meshc.dialects import ttir, ttmetal, ttnn
from meshc.passes.convert_ttir_to_ttmetal_table import BUFFER_OPS, TTIR_TO_TTMETAL, ccl_kind
from meshc.passes.convert_ttir_to_ttnn_table import SPECIAL_OPS, TTIR_TO_TTNN

NOT_TTNN = {ttir.ReshardOp, ttir.ShardingConstraintOp}
"""ttir ops an earlier pass must lower: reshard-to-collectives, ttir-partition."""


def test_every_ttir_op_lowers_to_ttnn_or_is_named_as_not_lowered():
    ops = set(ttir.TTIR.operations)
    covered = set(TTIR_TO_TTNN) | set(SPECIAL_OPS)
    assert covered | NOT_TTNN == ops
    assert not covered & NOT_TTNN


@pytest.mark.parametrize("src, dst", sorted(TTIR_TO_TTNN.items(), key=lambda kv: kv[0].name), ids=lambda c: c.name)
def test_each_ttnn_op_shares_its_ttir_op_family(src, dst):
    """The ttnn op of a ttir op derives from the ttir op's family base (same operands and verifier)."""
    assert dst in ttnn.TTNN.operations
    family = src.__mro__[1]
    assert issubclass(dst, family), (src.name, dst.name, family.__name__)


def test_collectives_pair_by_kind():
    for kind, src in ttir.COLLECTIVE_OPS.items():
        assert TTIR_TO_TTNN[src] is ttnn.COLLECTIVE_OPS[kind]
        assert ccl_kind(src.create(attributes={})) == kind


def _tile_op(family: str, kind: str):
    block = TensorType(f32, (32, 32))
    x = create_ssa_value(block)
    if family in ("unary", "copy"):
        return ttmetal.TileUnaryOp.create(operands=[x], result_types=[block], attributes={"op": StringAttr(kind)})
    if family == "binary":
        return ttmetal.TileBinaryOp.create(operands=[x, x], result_types=[block], attributes={"op": StringAttr(kind)})
    return ttmetal.TileReduceOp.create(operands=[x], result_types=[TensorType(f32, (32, 1))],
                                       attributes={"op": StringAttr(kind), "dim": IntegerAttr(1, i64)})


@pytest.mark.parametrize("op, kernel", sorted(TTIR_TO_TTMETAL.items(), key=lambda kv: kv[0].name),
                         ids=lambda x: getattr(x, "name", ""))
def test_ttmetal_table_names_tile_ops_the_dialect_accepts(op, kernel):
    """An elementwise or reduction kernel's tile op verifies in ttmetal; where, matmul, transpose,
    softmax, the element moves (reshape, permute, broadcast) and the selections (slice, concat,
    embedding) name none."""
    assert op in ttir.TTIR.operations
    assert op not in BUFFER_OPS and op not in ttir.COLLECTIVE_OPS.values()
    if kernel.family in ("unary", "copy", "binary", "reduce"):
        _tile_op(kernel.family, kernel.tile_op).verify_()
    else:
        assert kernel.family in ("where", "matmul", "transpose", "softmax", "reshape", "permute", "broadcast", "slice",
                                 "concat", "embedding") \
            and not kernel.tile_op


def test_a_tile_op_the_dialect_lacks_fails_to_verify():
    with pytest.raises(VerifyException, match="op must be one of"):
        _tile_op("unary", "cosh").verify_()


def test_ttir_to_ttnn_lowers_a_comparison_through_the_table():
    text = """
    func.func @f(%a: tensor<32x32xf32>, %b: tensor<32x32xf32>) -> tensor<32x32xf32> {
      %0 = "ttir.gt"(%a, %b) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
      %1 = "ttir.broadcast"(%0) : (tensor<32x32xf32>) -> tensor<32x32xf32>
      func.return %1 : tensor<32x32xf32>
    }
    """
    module = meshc.compile(text, "convert-ttir-to-ttnn")
    names = [op.name for op in module.walk()]
    assert "ttnn.gt" in names and "ttnn.repeat" in names
    assert not any(n.startswith("ttir.") for n in names)
