"""ttir mixture-of-experts ops: top-k routing, dispatch to experts, combine back to the tokens
(docs/moe.md). What they compute is defined once in meshc/layout/moe.py, which the
interpreters run (meshc/interp/spmd.py); this file holds their syntax and verifiers."""

from __future__ import annotations

from xdsl.dialects.builtin import AnyTensorTypeConstr, IntegerAttr, IntegerType, TensorType
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import attr_def, irdl_op_definition, operand_def, result_def, traits_def
from xdsl.traits import NoMemoryEffect
from xdsl.utils.exceptions import VerifyException

from meshc.dialects import shape_rules as rules
from meshc.dialects.ttir.base import TTIROpBase, check_same_shape, int_value, tensor_shape


def _int_tensor(value: SSAValue | Attribute, what: str) -> None:
    t = value.type if isinstance(value, SSAValue) else value
    assert isinstance(t, TensorType)
    if not isinstance(t.element_type, IntegerType):
        raise VerifyException(f"{what} must be a tensor of integers, got element type {t.element_type}")


def _need_rank(shape: tuple[int, ...], rank: int, what: str, layout: str) -> None:
    if len(shape) != rank:
        raise VerifyException(f"{what} must be {layout} (rank {rank}), got {rules.fmt(shape)}")


class MoeRouteBase(TTIROpBase):
    """Top-k routing: logits [..., E] -> expert ids [..., k] (integers) and weights [..., k]
    (softmax of the chosen logits). See docs/moe.md."""

    logits = operand_def(AnyTensorTypeConstr)
    experts = result_def(AnyTensorTypeConstr)
    weights = result_def(AnyTensorTypeConstr)
    k = attr_def(IntegerAttr)

    def verify_(self) -> None:
        shape = tensor_shape(self.logits)
        k = int_value(self.k)
        if not shape:
            raise VerifyException("logits need at least one dim (the experts)")
        if not 1 <= k <= shape[-1]:
            raise VerifyException(f"k = {k} must lie in [1, {shape[-1]}] (the number of experts)")
        want = shape[:-1] + (k,)
        check_same_shape("expert ids shape", tensor_shape(self.experts), want)
        check_same_shape("weights shape", tensor_shape(self.weights), want)
        _int_tensor(self.experts, "expert ids")


@irdl_op_definition
class MoeRouteOp(MoeRouteBase):
    name = "ttir.moe_route"
    traits = traits_def(NoMemoryEffect())


class MoeDispatchBase(TTIROpBase):
    """Tokens [B, S, M] and expert ids [B, S, k] -> dispatched [E, G, C, M] and slots [B, S, k]
    (-1: dropped). E, G (DP groups of the batch) and C (capacity) are read off the result type.
    Top-1 choices claim slots before top-2 choices, then by token position (docs/moe.md)."""

    tokens = operand_def(AnyTensorTypeConstr)
    experts = operand_def(AnyTensorTypeConstr)
    dispatched = result_def(AnyTensorTypeConstr)
    slots = result_def(AnyTensorTypeConstr)

    def verify_(self) -> None:
        tok, ex, out = tensor_shape(self.tokens), tensor_shape(self.experts), tensor_shape(self.dispatched)
        _need_rank(tok, 3, "tokens", "[B, S, M]")
        _need_rank(ex, 3, "expert ids", "[B, S, k]")
        _need_rank(out, 4, "the dispatched result", "[E, G, C, M]")
        _int_tensor(self.experts, "expert ids")
        _int_tensor(self.slots, "slots")
        if ex[:2] != tok[:2]:
            raise VerifyException(f"expert ids {rules.fmt(ex)} and tokens {rules.fmt(tok)} disagree on [B, S]")
        e, g, _, m = out
        if g < 1 or tok[0] % g:
            raise VerifyException(f"the batch ({tok[0]}) does not split into G = {g} DP groups")
        if m != tok[2]:
            raise VerifyException(f"dispatched model dim {m} differs from the tokens' {tok[2]}")
        if ex[2] > e:
            raise VerifyException(f"{ex[2]} choices a token but only {e} experts")
        check_same_shape("slots shape", tensor_shape(self.slots), ex)


@irdl_op_definition
class MoeDispatchOp(MoeDispatchBase):
    name = "ttir.moe_dispatch"
    traits = traits_def(NoMemoryEffect())


class MoeCombineBase(TTIROpBase):
    """Expert outputs [E, G, C, N] back to the tokens: [B, S, N], each token the sum of its
    choices' outputs times their router weights; a dropped choice (slot -1) adds zero."""

    expert_out = operand_def(AnyTensorTypeConstr)
    experts = operand_def(AnyTensorTypeConstr)
    weights = operand_def(AnyTensorTypeConstr)
    slots = operand_def(AnyTensorTypeConstr)
    result = result_def(AnyTensorTypeConstr)

    def verify_(self) -> None:
        out, ex = tensor_shape(self.expert_out), tensor_shape(self.experts)
        _need_rank(out, 4, "expert outputs", "[E, G, C, N]")
        _need_rank(ex, 3, "expert ids", "[B, S, k]")
        _int_tensor(self.experts, "expert ids")
        _int_tensor(self.slots, "slots")
        check_same_shape("weights shape", tensor_shape(self.weights), ex)
        check_same_shape("slots shape", tensor_shape(self.slots), ex)
        if out[1] < 1 or ex[0] % out[1]:
            raise VerifyException(f"the batch ({ex[0]}) does not split into G = {out[1]} DP groups")
        self.expect_result((ex[0], ex[1], out[3]))


@irdl_op_definition
class MoeCombineOp(MoeCombineBase):
    name = "ttir.moe_combine"
    traits = traits_def(NoMemoryEffect())
