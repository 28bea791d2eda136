"""Index arithmetic read as a sum of products of names, from the text alone (never from
boundcheck's model): enough to tell that two spellings of a tile position are the same value."""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

Form = dict[tuple[str, ...], int]  # sorted factor names -> coefficient; () is the constant


def _add(a: Form, b: Form, sign: int = 1) -> Form:
    out = dict(a)
    for k, v in b.items():
        out[k] = out.get(k, 0) + sign * v
    return {k: v for k, v in out.items() if v}


def _mul(a: Form, b: Form) -> Form:
    out: Form = {}
    for ka, va in a.items():
        for kb, vb in b.items():
            k = tuple(sorted(ka + kb))
            out[k] = out.get(k, 0) + va * vb
    return {k: v for k, v in out.items() if v}


def linear(expr: cst.BaseExpression, value_of: Callable[[str], cst.BaseExpression | None],
           depth: int = 0) -> Form | None:
    """``expr`` as a polynomial over names; ``value_of`` gives a name's assigned value (None keeps
    the name as a factor). ``tl.arange(0, B)`` is the factor ``arange(B)``; ``x.to(...)`` is x.
    None for anything else (a division, a load, a call)."""
    if depth > 12:
        return None
    sub = lambda e: linear(e, value_of, depth + 1)
    if isinstance(expr, cst.Integer):
        return {(): int(expr.evaluated_value)} if int(expr.evaluated_value) else {}
    if isinstance(expr, cst.Name):
        value = value_of(expr.value)
        return {(expr.value,): 1} if value is None else sub(value)
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus):
        inner = sub(expr.expression)
        return None if inner is None else {k: -v for k, v in inner.items()}
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, (cst.Add, cst.Subtract, cst.Multiply)):
        left, right = sub(expr.left), sub(expr.right)
        if left is None or right is None:
            return None
        if isinstance(expr.operator, cst.Multiply):
            return _mul(left, right)
        return _add(left, right, -1 if isinstance(expr.operator, cst.Subtract) else 1)
    if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute):
        if expr.func.attr.value == "to":
            return sub(expr.func.value)
        if expr.func.attr.value == "arange" and len(expr.args) == 2 and \
                isinstance(expr.args[0].value, cst.Integer) and expr.args[0].value.value == "0":
            size = expr.args[1].value
            if isinstance(size, (cst.Name, cst.Integer)):
                return {(f"arange({cst.Module([]).code_for_node(size)})",): 1}
    return None
