"""meshc's located verification (meshc/verify.py): an op repeating a (class, types, attributes)
combination that verified skips only xDSL's IRDL constraint checks, and reports what xDSL's full
verification reports."""

from xdsl.dialects.builtin import TensorType
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, result_def
from xdsl.irdl.operations import OpDef
from xdsl.utils.exceptions import VerifyException

from meshc.driver import make_context, parse_source
from meshc.errors import first_line, op_diagnostic
from meshc.verify import verify_located


@irdl_op_definition
class ThirdRefusedOp(IRDLOperation):
    """An op whose own verifier reads more than its types: it refuses to be its block's third op."""

    name = "test.third_refused"
    x = operand_def(TensorType)
    r = result_def(TensorType)

    def verify_(self) -> None:
        if self.parent is not None and list(self.parent.ops).index(self) == 2:
            raise VerifyException("the third op of a block")


PROGRAM = ('func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n'
           '  %0 = "test.third_refused"(%x) : (tensor<4xf32>) -> tensor<4xf32>\n'
           '  %1 = "test.third_refused"(%0) : (tensor<4xf32>) -> tensor<4xf32>\n'
           '  %2 = "test.third_refused"(%1) : (tensor<4xf32>) -> tensor<4xf32>\n'
           '  %3 = "test.third_refused"(%2) : (tensor<4xf32>) -> tensor<4xf32>\n'
           '  %4 = "test.third_refused"(%3) : (tensor<4xf32>) -> i32\n'
           '  func.return %3 : tensor<4xf32>\n}\n')


def _module(text):
    ctx = make_context()
    ctx.load_op(ThirdRefusedOp)
    return parse_source(ctx, text, "v.mlir")


def test_a_repeated_combination_reports_what_full_verification_reports():
    m = _module(PROGRAM)
    ops = [o for o in m.walk() if o.name == "test.third_refused"]
    expected = []
    for op in ops:  # xDSL's own verification of each op, whole
        try:
            op.verify(verify_nested_ops=False)
        except VerifyException as e:
            expected.append(op_diagnostic(op, first_line(str(e)), "v.mlir"))
    assert [d.line for d in expected] == [4, 6]  # the third op; the one with an i32 result
    assert expected[0].message == "'test.third_refused' op the third op of a block"
    assert verify_located(m, "v.mlir") == expected


def test_constraints_are_checked_once_per_combination(monkeypatch):
    calls = []
    real = OpDef.verify

    def counting(self, op):
        calls.append(op.name)
        return real(self, op)

    monkeypatch.setattr(OpDef, "verify", counting)
    text = PROGRAM.replace("-> i32", "-> tensor<4xf32>")
    verify_located(_module(text), "v.mlir")
    # the five ops share one combination, but the third's own verifier fails and is re-verified
    # whole; the func and its return (the last op of its block) are verified whole
    assert calls.count("test.third_refused") == 2
    assert calls.count("func.return") == 1 and calls.count("func.func") == 1
