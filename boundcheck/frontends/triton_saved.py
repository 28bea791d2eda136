"""Values an autograd ``Function``'s ``forward`` saves on ``ctx`` for its ``backward``.

``ctx.BT = BT`` in ``forward`` (with ``BT = 64`` there) makes ``ctx.BT`` in ``backward`` the 64
that the backward's launches pass on. Only a value saved once, and closed (literals and calls
of literals once the forward's single assignments are put in), is taken; anything else stays
the opaque ``ctx.BT`` it was."""

from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

_SAVING = ("forward", "setup_context")  # the methods that write ctx; backward reads it
_MAX_DEPTH = 6


def saved_values(tree: ast.Module) -> dict[int, dict[str, ast.expr]]:
    """Each method (by node id) of a class whose ``forward`` saves values: attribute -> value."""
    out: dict[int, dict[str, ast.expr]] = {}
    for cls in ast.walk(tree):
        if not isinstance(cls, ast.ClassDef):
            continue
        methods = [s for s in cls.body if isinstance(s, ast.FunctionDef) and first_param(s)]
        stores: dict[str, list[ast.expr | None]] = {}
        for method in methods:
            ctx, names = first_param(method), _single_assignments(method)
            for target, value in _assigned(method):
                if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == ctx:
                    stores.setdefault(target.attr, []).append(_closed(value, names) if method.name in _SAVING else None)
        saved = {attr: values[0] for attr, values in stores.items() if len(values) == 1 and values[0] is not None}
        if saved:
            for method in methods:
                out[id(method)] = saved
    return out


def first_param(fn: ast.FunctionDef) -> str | None:
    """The name of a method's first parameter (``ctx`` of ``forward(ctx, …)``)."""
    params = [*fn.args.posonlyargs, *fn.args.args]
    return params[0].arg if params else None


def _assigned(fn: ast.FunctionDef) -> Iterator[tuple[ast.expr, ast.expr | None]]:
    """Every target fn binds, as the innermost target of a tuple (``a, ctx.X = 1, b``), with its
    value where one ``=`` pairs it with one expression (else None: ``+=``, a loop, a ``with``)."""
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                yield from _pairs(target, node.value)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.comprehension, ast.NamedExpr)):
            yield from _pairs(node.target, None)
        elif isinstance(node, ast.With):
            for item in node.items:
                if item.optional_vars is not None:
                    yield from _pairs(item.optional_vars, None)


def _pairs(target: ast.expr, value: ast.expr | None) -> Iterator[tuple[ast.expr, ast.expr | None]]:
    if isinstance(target, (ast.Tuple, ast.List)):
        values = value.elts if isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(target.elts) \
            else [None] * len(target.elts)
        for t, v in zip(target.elts, values):
            yield from _pairs(t, v)
    elif isinstance(target, ast.Starred):
        yield from _pairs(target.value, None)
    else:
        yield target, value


def _single_assignments(fn: ast.FunctionDef) -> dict[str, ast.expr]:
    """Names fn binds exactly once, by one plain ``=`` (and never as a parameter or loop target)."""
    values: dict[str, list[ast.expr | None]] = {}
    for a in [*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs]:
        values.setdefault(a.arg, []).append(None)
    for target, value in _assigned(fn):
        if isinstance(target, ast.Name):
            values.setdefault(target.id, []).append(value)
    return {name: vs[0] for name, vs in values.items() if len(vs) == 1 and vs[0] is not None}


def _closed(value: ast.expr | None, names: dict[str, ast.expr], depth: int = 0) -> ast.expr | None:
    """value with the single assignments put in, if that leaves no name but the callee of a call."""
    if value is None or depth > _MAX_DEPTH:
        return None
    value = copy.deepcopy(value)
    callees = {id(n) for c in ast.walk(value) if isinstance(c, ast.Call) for n in ast.walk(c.func)}
    replaced = _Replace(names, callees, depth)
    value = replaced.visit(value)
    return None if replaced.open else value


class _Replace(ast.NodeTransformer):
    def __init__(self, names: dict[str, ast.expr], callees: set[int], depth: int) -> None:
        self.names, self.callees, self.depth, self.open = names, callees, depth, False

    def visit_Name(self, node: ast.Name) -> ast.expr:
        if id(node) in self.callees:
            return node
        value = _closed(self.names.get(node.id), self.names, self.depth + 1)
        if value is None:
            self.open = True
            return node
        return value

    def visit_Attribute(self, node: ast.Attribute) -> ast.expr:
        if id(node) in self.callees:
            return node
        self.open = True  # x.shape[0], self.block: not a value the forward fixed
        return node
