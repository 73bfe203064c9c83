"""Ops only tt-mlir spells (SPELLING_OPS) are read and rewritten at once: no dialect lists them, and
no parsed module holds one, so no pass, lowering or interpreter meets them."""

from meshc.dialects import get_all_dialects
from meshc.dialects.ttmlir_spelling import SPELLING_OPS
from meshc.driver import make_context, parse_source

TEXT = """module {
  func.func @f(%a: tensor<32x32xf32>) -> tensor<32x32xf32> {
    %0 = "ttir.all_reduce_async"(%a) <{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<sum>}> : (tensor<32x32xf32>) -> tensor<32x32xf32>
    return %0 : tensor<32x32xf32>
  }
}
"""


def test_no_dialect_lists_a_spelling_op():
    listed = {op for factory in get_all_dialects().values() for op in factory().operations}
    assert not listed & set(SPELLING_OPS.values())


def test_a_parsed_module_holds_no_spelling_op():
    module = parse_source(make_context(), TEXT, "t.mlir")
    names = [op.name for op in module.walk()]
    assert "ttir.all_reduce_async" not in names
    (ar,) = [op for op in module.walk() if op.name == "ttir.all_reduce"]
    assert "async" in ar.attributes and ar.attributes["cluster_axis"].value.data == 1
