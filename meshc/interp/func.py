"""Interpreter functions for the func dialect: func.func bodies, func.call, func.return.

The same three implementations as xDSL's `xdsl.interpreters.func.FuncFunctions`. They live here
because importing that module runs `xdsl/interpreters/__init__.py`, which loads the interpreters
of every xDSL dialect (riscv, linalg, pdl, affine, ...): about 40% of meshc-run's start-up.
"""

from __future__ import annotations

from typing import Any

from xdsl.dialects import func
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    ReturnedValues,
    TerminatorValue,
    impl,
    impl_callable,
    impl_terminator,
    register_impls,
)


@register_impls
class FuncFunctions(InterpreterFunctions):
    @impl_terminator(func.ReturnOp)
    def run_return(self, interpreter: Interpreter, op: func.ReturnOp,
                   args: tuple[Any, ...]) -> tuple[TerminatorValue, PythonValues]:
        return ReturnedValues(args), ()

    @impl(func.CallOp)
    def run_call(self, interpreter: Interpreter, op: func.CallOp, args: tuple[Any, ...]) -> tuple[Any, ...]:
        return interpreter.call_op(op.callee, args)

    @impl_callable(func.FuncOp)
    def call_func(self, interpreter: Interpreter, op: func.FuncOp, args: tuple[Any, ...]):
        block = op.body.blocks.first
        if block is None or not block.ops:  # a declaration: an external function
            return interpreter.call_external(op.sym_name.data, op, args)
        return interpreter.run_ssacfg_region(op.body, args, op.sym_name.data)
