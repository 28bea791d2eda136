"""What a kernel's own ``@triton.autotune`` configs give its meta-parameters."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from boundcheck.frontends.pysource import callee

Table = dict[str, set[int] | None]  # one config's parameters, each with the values it may take


def _config_lists(fn: ast.FunctionDef, module: ast.Module | None) -> Iterator[ast.expr | None]:
    """The ``configs=`` argument of each ``@triton.autotune`` on ``fn`` (a module-level list it
    names, ``configs = [...]`` assigned once, read in its place, for a kernel defined at its top)."""
    if module is not None and not any(s is fn for s in module.body):
        module = None  # a kernel of another module, or one nested in a function
    for dec in fn.decorator_list:
        if isinstance(dec, ast.Call) and callee(dec.func) == "autotune":
            arg = dec.args[0] if dec.args else next((k.value for k in dec.keywords if k.arg == "configs"), None)
            yield _module_value(arg, module) if isinstance(arg, ast.Name) else arg


def _module_value(name: ast.Name, module: ast.Module | None) -> ast.expr:
    """The value of a module-level name bound by exactly one plain assignment (else the name)."""
    if module is None:
        return name
    values = [s.value for s in module.body if isinstance(s, ast.Assign)
              and any(isinstance(t, ast.Name) and t.id == name.id for t in s.targets)]
    rebound = any(isinstance(s, (ast.AugAssign, ast.AnnAssign)) and isinstance(s.target, ast.Name)
                  and s.target.id == name.id for s in module.body)
    return values[0] if len(values) == 1 and not rebound else name


def _tables(configs: ast.expr | None, module: ast.Module | None) -> list[Table] | None:
    """Each ``triton.Config({...})`` of a literal list, or of a list comprehension over literal
    lists (``[triton.Config({"BLOCK_M": BM}) for BM in [64, 128]]``); None where one is not read."""
    if isinstance(configs, (ast.List, ast.Tuple)):
        tables = [_table(c, {}) for c in configs.elts]
        return None if not tables or any(t is None for t in tables) else tables  # type: ignore[return-value]
    if isinstance(configs, ast.ListComp):
        ranges: dict[str, set[int] | None] = {}
        for gen in configs.generators:
            ranges.update(_ranges(gen.target, _module_value(gen.iter, module) if isinstance(gen.iter, ast.Name)
                                  else gen.iter))
        table = _table(configs.elt, ranges)
        return None if table is None else [table]
    return None


def _table(config: ast.expr, ranges: dict[str, set[int] | None]) -> Table | None:
    if not (isinstance(config, ast.Call) and callee(config.func) == "Config" and config.args
            and isinstance(config.args[0], ast.Dict)):
        return None
    out: Table = {}
    for k, v in zip(config.args[0].keys, config.args[0].values):
        if isinstance(k, ast.Constant) and isinstance(k.value, str):
            out[k.value] = {v.value} if isinstance(v, ast.Constant) and type(v.value) is int \
                else ranges.get(v.id) if isinstance(v, ast.Name) else None
    return out


def _ranges(target: ast.expr, values: ast.expr) -> dict[str, set[int] | None]:
    """The integers each name of a comprehension's target takes over a literal list: ``BM in [64,
    128]``, ``BM, BN in [(64, 32), (128, 64)]``; None for a name bound otherwise."""
    names = [target] if isinstance(target, ast.Name) else list(target.elts) \
        if isinstance(target, (ast.Tuple, ast.List)) else []
    out: dict[str, set[int] | None] = {n.id: None for n in ast.walk(target) if isinstance(n, ast.Name)}
    items = values.elts if isinstance(values, (ast.List, ast.Tuple, ast.Set)) and values.elts else []
    for i, name in enumerate(names):
        column = [item if isinstance(target, ast.Name) else
                  item.elts[i] if isinstance(item, (ast.Tuple, ast.List)) and len(item.elts) == len(names) else None
                  for item in items]
        if isinstance(name, ast.Name) and column \
                and all(isinstance(c, ast.Constant) and type(c.value) is int for c in column):
            out[name.id] = {c.value for c in column}  # type: ignore[union-attr]
    return out


def unread_configs(fn: ast.FunctionDef, module: ast.Module | None = None) -> bool:
    """An ``autotune`` whose configs are not written as ``triton.Config({...})`` literals (made by a
    helper, read from a list elsewhere): which parameters they set is not known here."""
    return any(_tables(configs, module) is None for configs in _config_lists(fn, module))


def config_values(fn: ast.FunctionDef, module: ast.Module | None = None) -> dict[str, set[int] | None]:
    """``@triton.autotune(configs=[triton.Config({"BLOCK_M": 128, …}), …])``: the parameters the
    configs set, each with its values where every config gives it integer literals (else None)."""
    values: dict[str, set[int] | None] = {}
    for configs in _config_lists(fn, module):
        tables = _tables(configs, module)
        if tables is None:
            continue
        for table in tables:
            for k, v in table.items():
                known = values.get(k, set())
                values[k] = known | v if known is not None and v is not None else None
        for k in values:  # a parameter some configs leave out takes its default there too
            if not all(k in t for t in tables):
                values[k] = None
    return values
