"""Kernels a file launches but another module defines (``from .kernels import add_kernel``, then
``add_kernel[grid](...)``): the defining module is found beside the file (relative imports, or a
package root among the file's parents), read and parsed (never imported or run), so the host code
here can bind the launch to the kernel's parameters. What the launch tells the kernel is handed,
through the engine, to the analysis of the defining file (:attr:`Module.foreign_launches`)."""

from __future__ import annotations

import ast
import os
import re
from dataclasses import dataclass
from functools import lru_cache

from boundcheck.frontends.triton_kernel import ModuleContext

# the per-kernel facts a launch leaves in a file's context, each a list with an entry per launch
# (or a dict by parameter); handed to the kernel's own file as they are
_PER_KERNEL = ("host_contracts", "branch_contracts", "flag_facts", "launch_layouts", "launch_grids",
               "launch_sizes", "subtiles", "row_values", "launch_shapes")
_MAX_BYTES = 2_000_000  # a module larger than this is not read for its kernels


@dataclass(frozen=True)
class Imported:
    """A jit function of another module, under the name this file uses for it."""

    path: str  # the defining file, real path
    name: str  # its name there
    fn: ast.FunctionDef


def imported_kernels(tree: ast.Module, path: str, source: str, jit_names: set[str]) -> dict[str, Imported]:
    """Names this file imports from a module beside it and launches (``name[...]`` in the text):
    the jit functions they are, by local name."""
    out: dict[str, Imported] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom) or node.module is None and not node.level:
            continue
        wanted = [(a.asname or a.name, a.name) for a in node.names
                  if a.name != "*" and (a.asname or a.name) not in jit_names
                  and _launched(a.asname or a.name, source)]
        if not wanted:
            continue
        target = _module_file(path, node.module or "", node.level)
        if target is None:
            continue
        defined = _jit_functions(target)
        for local, name in wanted:
            if name in defined:
                out[local] = Imported(target, name, defined[name])
    return out


def _launched(name: str, source: str) -> bool:
    """The text launches ``name``: ``name[grid]`` or ``wrap_triton(name)``; a jit helper of another
    module called inside a kernel stays opaque (its lines are not this file's)."""
    word = re.escape(name)
    return re.search(rf"(?<![\w.]){word}\s*\[|_triton\(\s*{word}\s*\)", source) is not None


def _module_file(path: str, module: str, level: int) -> str | None:
    """The file of ``module`` as imported from ``path``: relative to the file's package for
    ``from .m import`` (``level`` dots), else under the nearest parent directory holding it."""
    parts = [p for p in module.split(".") if p]
    here = os.path.dirname(os.path.realpath(path))
    if level:
        base = here
        for _ in range(level - 1):
            base = os.path.dirname(base)
        roots = [base]
    else:
        roots, d = [], here
        while True:
            roots.append(d)
            parent = os.path.dirname(d)
            if parent == d or len(roots) > 12:
                break
            d = parent
    for root in roots:
        stem = os.path.join(root, *parts)
        for candidate in (stem + ".py", os.path.join(stem, "__init__.py")):
            if parts and os.path.isfile(candidate):
                return candidate
    return None


@lru_cache(maxsize=256)
def _jit_functions(path: str) -> dict[str, ast.FunctionDef]:
    """The module-level jit functions of a file, by name (empty where it cannot be read)."""
    from boundcheck.frontends.triton import _decorator_names, _jit_aliases

    try:
        if os.path.getsize(path) > _MAX_BYTES:
            return {}
        with open(path, encoding="utf-8", errors="replace") as handle:
            text = handle.read()
        if "triton" not in text:
            return {}
        tree = ast.parse(text)
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return {}
    aliases = _jit_aliases(tree)
    return {f.name: f for f in tree.body if isinstance(f, ast.FunctionDef) and _decorator_names(f) & aliases}


def exported(context: ModuleContext, imported: dict[str, Imported]) -> dict[tuple[str, str], list[object]]:
    """What this file's launches left in its context for each imported kernel, keyed as
    :attr:`Module.foreign_launches` is: (defining file, kernel name) → one record per file."""
    out: dict[tuple[str, str], list[object]] = {}
    for local, imp in imported.items():
        record = {field: getattr(context, field)[local] for field in _PER_KERNEL if local in getattr(context, field)}
        if record:
            out.setdefault((imp.path, imp.name), []).append(record)
    return out


def merge(context: ModuleContext, launched: dict[str, list[object]]) -> None:
    """Add the launches other files make of this file's kernels to its context, as if written
    here (their buffers are not followed: no fresh allocation is known for them)."""
    for name, records in launched.items():
        if name not in context.jit:
            continue
        for record in records:
            assert isinstance(record, dict)
            for field, value in record.items():
                table = getattr(context, field)
                if isinstance(value, dict):
                    table.setdefault(name, {}).update(value)
                else:
                    table.setdefault(name, []).extend(value)
            for _ in record.get("launch_layouts", []):
                context.launch_buffers.setdefault(name, []).append((0, {}))
