"""The values a kernel's own ``@triton.autotune`` configs give its meta-parameters."""

from __future__ import annotations

import ast

from boundcheck.frontends.pysource import callee


def config_values(fn: ast.FunctionDef) -> dict[str, set[int] | None]:
    """``@triton.autotune(configs=[triton.Config({"BLOCK_M": 128, …}), …])``: the parameters the
    configs set, each with its values where every config gives it an integer literal (else None)."""
    values: dict[str, set[int] | None] = {}
    for dec in fn.decorator_list:
        if not (isinstance(dec, ast.Call) and callee(dec.func) == "autotune"):
            continue
        configs = dec.args[0] if dec.args else next((k.value for k in dec.keywords if k.arg == "configs"), None)
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
