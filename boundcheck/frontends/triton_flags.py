"""Boolean tests on a kernel's path, read as propositions: which operands of the ``if`` tests walked
so far are known true or false, and what a chain of them implies of the rest. A helper that masks an
axis only where its caller says the axis is partial (``if first and second: <both> elif first:
<first only> …``) reads its ``elif first`` branch with ``second`` false: that branch is the caller's
promise that the second axis is full, not an unguarded access."""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass, field

# a flag a test reads (its name and node) with the value it has on the path
Literal = tuple[str, bool, ast.expr]


def _operands(test: ast.expr, conjunction: bool) -> list[ast.expr] | None:
    """The operands of ``a and b`` / ``a & b`` (or of ``a or b`` / ``a | b``), else None."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And if conjunction else ast.Or):
        return list(test.values)
    if isinstance(test, ast.BinOp) and isinstance(test.op, ast.BitAnd if conjunction else ast.BitOr):
        return [test.left, test.right]
    return None


def _literal(node: ast.expr, value: bool, fixed: Callable[[str], bool]) -> Literal | None:
    """``flag`` or ``not flag`` with the value ``flag`` has, for a name the function never assigns
    (a parameter): every test of it reads the same value."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return _literal(node.operand, not value, fixed)
    return (node.id, value, node) if isinstance(node, ast.Name) and fixed(node.id) else None


def _holding(test: ast.expr, taken: bool, fixed: Callable[[str], bool]) -> list[Literal]:
    """Literals that all hold where ``test`` has the outcome ``taken``."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return _holding(test.operand, not taken, fixed)
    parts = _operands(test, conjunction=taken)
    if parts is not None:
        return [lit for p in parts for lit in _holding(p, taken, fixed)]
    lit = _literal(test, taken, fixed)
    return [lit] if lit else []


def _clause(test: ast.expr, taken: bool, fixed: Callable[[str], bool]) -> tuple[Literal, ...]:
    """Literals one of which holds where ``test`` has the outcome ``taken``: the operands of a
    conjunction that failed (or of a disjunction that held); empty where one is no literal."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return _clause(test.operand, not taken, fixed)
    parts = _operands(test, conjunction=not taken)
    if parts is None:
        return ()
    lits = [_literal(p, taken, fixed) for p in parts]
    return tuple(lit for lit in lits if lit) if all(lits) else ()


@dataclass
class FlagPath:
    """What the tests around the current statement say of their operands."""

    known: dict[str, bool] = field(default_factory=dict)
    clauses: list[tuple[Literal, ...]] = field(default_factory=list)
    contradicted: bool = False  # a test's outcome here denies an outer one: no run reaches this path

    def copy(self) -> FlagPath:
        return FlagPath(dict(self.known), list(self.clauses), self.contradicted)

    def learn(self, test: ast.expr, taken: bool, fixed: Callable[[str], bool],
              constant: Callable[[ast.expr], bool | None]) -> None:
        """Take ``test`` with outcome ``taken``; ``fixed`` tells the names no statement reassigns,
        ``constant`` the value a caller passed for one (``True``/``False``), else None."""
        for lit in _holding(test, taken, fixed):
            self.contradicted = self.contradicted or self._value(lit, constant) not in (None, lit[1])
            self.known[lit[0]] = lit[1]
        clause = _clause(test, taken, fixed)
        if len(clause) > 1:
            self.clauses.append(clause)

    def infeasible(self, constant: Callable[[ast.expr], bool | None]) -> bool:
        """No run takes this path: a test denies an outer one, or every literal of a clause is false
        (``if first and second: … elif first:`` with ``second`` passed as ``True``)."""
        return self.contradicted or any(all(self._value(lit, constant) == (not lit[1]) for lit in clause)
                                        for clause in self.clauses)

    def _value(self, lit: Literal, constant: Callable[[ast.expr], bool | None]) -> bool | None:
        known = self.known.get(lit[0])
        return constant(lit[2]) if known is None else known

    def implied(self, constant: Callable[[ast.expr], bool | None]) -> list[tuple[ast.expr, bool]]:
        """Operands a clause forces: every other literal of it is false on the path (known from a
        test, or a flag the caller passed as ``True``/``False``), so this one holds."""
        out = []
        for clause in self.clauses:
            open_ = []
            for lit in clause:
                known, value, node = self._value(lit, constant), lit[1], lit[2]
                if known == value:
                    break  # the clause holds already
                if known is None:
                    open_.append((node, value))
            else:
                if len(open_) == 1:
                    out.append(open_[0])
        return out
