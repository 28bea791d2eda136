"""Optional operands: a helper that masks an axis only where its caller passes that axis' offsets
(``if offs_n is not None: mask = offs_n < n``) reads ``offs_n is not None`` as a flag of the
caller's: the argument's value says which (``None`` written, or a lane), or the test that chose
it (``None if not PADDED_HEAD else tl.arange(0, D)``, ``if MASK_STEPS: offs = … else: offs = None``)
carries that test's facts over, as ``if PADDED_HEAD:`` would."""

from __future__ import annotations

import ast
import copy
from dataclasses import dataclass

from boundcheck import symbolic as sy
from boundcheck.model import Divisibility

NONE = sy.Sym("None", sy.Kind.CONST)


def presence(name: str) -> str:
    """The flag name that stands for ``name is not None``."""
    return f"{name} is not None"


@dataclass(frozen=True)
class Optional:
    """A value that is ``None`` on one outcome of a test: the facts of each outcome and, where the
    test's value is known on the path, whether the value is there."""

    present: tuple[Divisibility, ...]
    absent: tuple[Divisibility, ...]
    known: bool | None = None


def rewritten(test: ast.expr, params: set[str]) -> ast.expr | None:
    """``test`` with each ``p is not None`` / ``p is None`` on a parameter ``p`` made the flag
    ``presence(p)`` (negated for ``is None``); None where the test has no such comparison."""
    changed = False

    class _Presence(ast.NodeTransformer):
        def visit_Compare(self, node: ast.Compare) -> ast.AST:
            nonlocal changed
            if len(node.ops) == 1 and isinstance(node.ops[0], (ast.Is, ast.IsNot)) \
                    and isinstance(node.left, ast.Name) and node.left.id in params \
                    and isinstance(node.comparators[0], ast.Constant) and node.comparators[0].value is None:
                changed = True
                flag = ast.copy_location(ast.Name(presence(node.left.id), ast.Load()), node)
                if isinstance(node.ops[0], ast.Is):
                    return ast.copy_location(ast.UnaryOp(ast.Not(), flag), node)
                return flag
            return node

    out = _Presence().visit(copy.deepcopy(test))
    return out if changed else None


def argument_presence(value: sy.Expr | None, optional: Optional | None, number: float | None,
                      ) -> tuple[tuple[list[Divisibility], list[Divisibility]] | None, bool | None]:
    """What an argument's value says of ``param is not None`` in the helper: the facts of each
    outcome (where a test chose it) and the outcome itself where it is settled (``None`` written, a
    lane or number passed, or the choosing test's value known)."""
    if value == NONE:
        return None, False
    if optional is not None:
        return (list(optional.present), list(optional.absent)), optional.known
    if number is not None or (value is not None and sy.lanes(value)):
        return None, True
    return None, None
