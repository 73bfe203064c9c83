"""The checks dialects register beyond their ops' own verifiers, run by `meshc.verify`.

A type checker looks at a whole type (a tensor and its layout encoding); an op checker at an op
in its module (a module's device against its system). Dialects register them when imported.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.ir import Attribute, Operation

TypeChecker = Callable[[Attribute], None]
"""A check of one type (e.g. a tensor against its layout encoding); raises VerifyException."""

_type_checkers: list[TypeChecker] = []

OpChecker = Callable[[Operation], None]
"""A check of one op that needs more than the op itself (e.g. a module's device against its system)."""

_op_checkers: list[OpChecker] = []


def register_op_checker(check: OpChecker) -> None:
    """Dialects register checks run on every op after its own verifier; they raise LocatedError."""
    if check not in _op_checkers:
        _op_checkers.append(check)


def register_type_checker(check: TypeChecker) -> None:
    """Dialects register checks that need a whole type (a tensor and its encoding)."""
    if check not in _type_checkers:
        _type_checkers.append(check)


def unregister_type_checker(check: TypeChecker) -> None:
    """Take a type checker out again (a test's temporary check)."""
    if check in _type_checkers:
        _type_checkers.remove(check)


def type_checkers() -> tuple[TypeChecker, ...]:
    return tuple(_type_checkers)


def op_checkers() -> tuple[OpChecker, ...]:
    return tuple(_op_checkers)
