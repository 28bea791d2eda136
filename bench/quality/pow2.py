"""Whether a size divides a tile by what the host code assigns them, read from the text alone:
both only ever powers of two (literals, ``next_power_of_2``, and ``min`` / ``max`` / conditionals
of those), the size's largest value no larger than the tile's smallest."""

from __future__ import annotations

import ast
import math
from functools import lru_cache

_Range = tuple[int, float]  # (smallest, largest) value of a power of two
_DEPTH = 4


def pow2_divides(source: str, tile: str, size: str) -> bool:
    """Every value the module gives ``size`` divides every value it gives ``tile``."""
    values = _module_values(source)
    if values is None:
        return False
    t, s = _range_of(tile, values, 0), _range_of(size, values, 0)
    return t is not None and s is not None and s[1] <= t[0]


@lru_cache(maxsize=4)
def _module_values(source: str) -> dict[str, list[ast.expr] | None] | None:
    try:
        return _values(ast.parse(source))
    except (SyntaxError, ValueError, RecursionError):
        return None


def _values(tree: ast.Module) -> dict[str, list[ast.expr] | None]:
    """Each name's assigned values (assignments, keyword arguments, string-keyed dict entries, the
    elements a loop over a literal list gives it); None where it also comes from outside (a host
    function's parameter, an augmented assignment, a loop over anything else)."""
    out: dict[str, list[ast.expr] | None] = {}

    def add(name: str, value: ast.expr | None) -> None:
        if out.get(name, []) is None:
            return
        out[name] = None if value is None else [*out.get(name, []), value]  # type: ignore[list-item]

    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    add(target.id, node.value)
                elif isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple) \
                        and len(target.elts) == len(node.value.elts):
                    for t, v in zip(target.elts, node.value.elts):
                        if isinstance(t, ast.Name):
                            add(t.id, v)
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            add(node.target.id, None)
        elif isinstance(node, ast.keyword) and node.arg:
            if not (isinstance(node.value, ast.Name) and node.value.id == node.arg):
                add(node.arg, node.value)
        elif isinstance(node, ast.Dict):
            for k, v in zip(node.keys, node.values):
                if isinstance(k, ast.Constant) and isinstance(k.value, str) \
                        and not (isinstance(v, ast.Name) and v.id == k.value):
                    add(k.value, v)
        elif isinstance(node, (ast.For, ast.comprehension)) and isinstance(node.target, ast.Name):
            # `for BT in [64, 128]` (autotune configs built in a comprehension): each element
            elements = node.iter.elts if isinstance(node.iter, (ast.List, ast.Tuple, ast.Set)) else None
            for v in elements if elements is not None else [None]:
                add(node.target.id, v)
        elif isinstance(node, ast.FunctionDef) and not any("jit" in ast.unparse(d) for d in node.decorator_list):
            for a in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]:
                add(a.arg, None)
    return out


def _range_of(name: str, values: dict[str, list[ast.expr] | None], depth: int) -> _Range | None:
    given = values.get(name)
    if not given or depth > _DEPTH:
        return None
    ranges = [_range(v, values, depth + 1) for v in given]
    if any(r is None for r in ranges):
        return None
    return min(r[0] for r in ranges), max(r[1] for r in ranges)  # type: ignore[index]


def _range(e: ast.expr, values: dict[str, list[ast.expr] | None], depth: int) -> _Range | None:
    """The smallest and largest power of two ``e`` can be, or None when it may be no power of two."""
    if isinstance(e, ast.Constant) and type(e.value) is int:
        return (e.value, e.value) if e.value > 0 and e.value & (e.value - 1) == 0 else None
    if isinstance(e, ast.Name):
        return _range_of(e.id, values, depth)
    if isinstance(e, ast.IfExp):
        a, b = _range(e.body, values, depth), _range(e.orelse, values, depth)
        return None if a is None or b is None else (min(a[0], b[0]), max(a[1], b[1]))
    if isinstance(e, ast.Call):
        fn = ast.unparse(e.func).split(".")[-1]
        if fn == "next_power_of_2":
            return 1, math.inf
        if fn in ("min", "max") and e.args and not e.keywords:
            rs = [_range(a, values, depth) for a in e.args]
            if any(r is None for r in rs):
                return None
            lo, hi = [r[0] for r in rs], [r[1] for r in rs]  # type: ignore[index]
            return (min(lo), min(hi)) if fn == "min" else (max(lo), max(hi))
    return None
