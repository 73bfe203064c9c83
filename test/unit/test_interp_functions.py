"""The interpreters as static classes: every op of a dialect has its `@impl`, and each op of a
family names the kernel or collective kind it runs (the family's one implementation)."""

import pytest
from xdsl.interpreter import register_impls

from meshc.dialects import ttir, ttmetal, ttnn
from meshc.interp.op_families import TTIRCollectiveImpls, TTIRComputeImpls, TTNNCollectiveImpls, TTNNComputeImpls
from meshc.interp.ttir import GoldenFunctions
from meshc.interp.ttmetal import TTMetalSimFunctions
from meshc.interp.ttnn import TTNNSimFunctions
from meshc.layout.collectives import COLLECTIVES
from meshc.sim.compute import KINDS


def implemented(functions) -> set:
    return {op for op, _ in functions._impls()}


def test_golden_runs_every_ttir_and_ttnn_op():
    assert set(ttir.TTIR.operations) <= implemented(GoldenFunctions)
    assert set(ttnn.TTNN.operations) <= implemented(GoldenFunctions)


def test_simulators_run_every_op_of_their_dialect():
    assert set(ttnn.TTNN.operations) <= implemented(TTNNSimFunctions)
    assert set(ttmetal.TTMetal.operations) <= implemented(TTMetalSimFunctions)


def test_the_ttnn_simulator_runs_no_ttir_op():
    """A ttir program is lowered before it runs: the simulator does not read ttir ops."""
    assert not implemented(TTNNSimFunctions) & set(ttir.TTIR.operations)


@register_impls
class _Probe(TTIRComputeImpls, TTNNComputeImpls, TTIRCollectiveImpls, TTNNCollectiveImpls):
    """Answers with the kind an op's impl asks its family for."""

    def compute(self, kind, op, args):
        return ("compute", kind)

    def collective(self, kind, op, args):
        return ("collective", kind)


@pytest.mark.parametrize("op, fn", sorted(_Probe._impls(), key=lambda kv: kv[0].name), ids=lambda x: getattr(x, "name", ""))
def test_each_family_op_names_its_own_kind(op, fn):
    family, kind = fn(_Probe(), None, None, ()).values
    assert kind == op.name.split(".", 1)[1]
    assert kind in (KINDS if family == "compute" else COLLECTIVES)


def test_the_families_cover_every_compute_op_and_collective():
    for dialect in (ttir.TTIR, ttnn.TTNN):
        have = {op for op in implemented(_Probe) if op in dialect.operations}
        want = {op for op in dialect.operations if op.name.split(".", 1)[1] in KINDS | set(COLLECTIVES)}
        assert have == want, dialect.name


def test_dialect_ops_keep_no_run_time_semantics():
    """What an op computes lives in meshc/interp (spmd.py, the op families), not on its class."""
    for dialect in (ttir.TTIR, ttnn.TTNN, ttmetal.TTMetal):
        for op in dialect.operations:
            for method in ("spmd", "reference", "plan"):
                assert not hasattr(op, method), f"{op.name}.{method}"
