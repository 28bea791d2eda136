"""What a kernel's own ``@triton.autotune`` configs give its meta-parameters."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from boundcheck.frontends.pysource import callee


def _config_lists(fn: ast.FunctionDef) -> Iterator[ast.expr | None]:
    """The ``configs=`` argument of each ``@triton.autotune`` on ``fn``."""
    for dec in fn.decorator_list:
        if isinstance(dec, ast.Call) and callee(dec.func) == "autotune":
            yield dec.args[0] if dec.args else next((k.value for k in dec.keywords if k.arg == "configs"), None)


def unread_configs(fn: ast.FunctionDef) -> bool:
    """An ``autotune`` whose configs are not written as ``triton.Config({...})`` literals (made by a
    helper, read from a list elsewhere): which parameters they set is not known here."""
    return any(not isinstance(configs, (ast.List, ast.Tuple)) or not all(
        isinstance(c, ast.Call) and callee(c.func) == "Config" and c.args and isinstance(c.args[0], ast.Dict)
        for c in configs.elts) for configs in _config_lists(fn))


def config_values(fn: ast.FunctionDef) -> dict[str, set[int] | None]:
    """``@triton.autotune(configs=[triton.Config({"BLOCK_M": 128, …}), …])``: the parameters the
    configs set, each with its values where every config gives it an integer literal (else None)."""
    values: dict[str, set[int] | None] = {}
    for configs in _config_lists(fn):
        if not isinstance(configs, (ast.List, ast.Tuple)):
            continue
        tables = [c.args[0] for c in configs.elts if isinstance(c, ast.Call) and c.args]
        if not tables or len(tables) != len(configs.elts) or not all(isinstance(t, ast.Dict) for t in tables):
            continue
        for table in tables:
            assert isinstance(table, ast.Dict)
            for k, v in zip(table.keys, table.values):
                if not (isinstance(k, ast.Constant) and isinstance(k.value, str)):
                    continue
                known = values.get(k.value, set())
                literal = isinstance(v, ast.Constant) and type(v.value) is int
                values[k.value] = known | {v.value} if known is not None and literal else None  # type: ignore[union-attr]
        counts = {k: sum(any(isinstance(x, ast.Constant) and x.value == k for x in t.keys) for t in tables)  # type: ignore[union-attr]
                  for k in values}
        for k, n in counts.items():  # a parameter some configs leave out takes its default there too
            if n != len(tables):
                values[k] = None
    return values
