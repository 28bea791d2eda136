"""Kernels a file launches but another module defines (``from .kernels import add_kernel``, then
``add_kernel[grid](...)``; or ``import pkg.kernels as K``, then ``K.add_kernel[grid](...)``): the
defining module is found beside the file (relative imports, or a
package root among the file's parents), read and parsed (never imported or run), so the host code
here can bind the launch to the kernel's parameters. What the launch tells the kernel is handed,
through the engine, to the analysis of the defining file (:attr:`Module.foreign_launches`). A check
function imported the same way (``_validate(A, BLOCK)``) is read for what its body asserts."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass

from boundcheck.frontends.pysource import nested_statements
from boundcheck.frontends.triton_foreign import jit_functions, module_file, read_tree
from boundcheck.frontends.triton_kernel import ModuleContext

# the per-kernel facts a launch leaves in a file's context, each a list with an entry per launch
# (or a dict by parameter); handed to the kernel's own file as they are
_PER_KERNEL = ("host_contracts", "branch_contracts", "flag_facts", "launch_layouts", "launch_grids",
               "launch_sizes", "subtiles", "row_values", "launch_shapes", "launch_bindings", "launch_units")


@dataclass(frozen=True)
class Imported:
    """A jit function of another module, under the name this file uses for it."""

    path: str  # the defining file, real path
    name: str  # its name there
    fn: ast.FunctionDef


def imported_kernels(tree: ast.Module, path: str, source: str, jit_names: set[str]) -> dict[str, Imported]:
    """Names this file imports from a module beside it and launches (``name[grid](...)``,
    ``wrap_triton(name)``): the jit functions they are, by local name."""
    out: dict[str, Imported] = {}
    for node in _imports(tree.body):
        wanted = [(a.asname or a.name, a.name) for a in node.names
                  if (a.asname or a.name) not in jit_names and _launches(a.asname or a.name, source)]
        target = module_file(path, node.module or "", node.level) if wanted else None
        if target is None:
            continue
        defined = jit_functions(target)
        for local, name in wanted:
            if name in defined:
                out[local] = Imported(target, name, defined[name])
    for alias, module in _module_imports(tree.body):
        if not _subscripts_attribute(alias, source):
            continue
        target = module_file(path, module, 0)
        defined = jit_functions(target) if target is not None else {}
        for name, fn in defined.items():  # the launch names the kernel as the attribute it is
            if name not in jit_names and name not in out and f"{alias}.{name}[" in source:
                out[name] = Imported(target, name, fn)  # type: ignore[arg-type]
    return out


def _subscripts_attribute(module: str, source: str) -> bool:
    """The text subscripts an attribute of ``module`` (``K.add_kernel[grid]``): a launch, maybe."""
    return module + "." in source and re.search(rf"(?<![\w.]){re.escape(module)}\.\w+\[", source) is not None


def _module_imports(body: list[ast.stmt]) -> Iterator[tuple[str, str]]:
    """``import a.b.c as k`` and ``import a.b.c`` statements at any depth: (the name the file uses
    for the module, its dotted path); a plain dotted import is used by its whole path."""
    for s in nested_statements(body):
        if isinstance(s, ast.Import):
            for a in s.names:
                yield a.asname or a.name, a.name


def _launches(name: str, source: str) -> bool:
    """The text launches ``name``: ``name[grid]`` (not ``x.name[...]``) or ``wrap_triton(name)``. A
    jit helper of another module called inside a kernel is no launch, and stays opaque (its lines
    are not this file's). Substring searches: a regex over the whole text costs a scan per file."""
    if f"_triton({name})" in source:
        return True
    at = source.find(name + "[")
    while at >= 0:
        if at == 0 or not (source[at - 1].isalnum() or source[at - 1] in "_."):
            return True
        at = source.find(name + "[", at + 1)
    return False


def _imports(body: list[ast.stmt]) -> Iterator[ast.ImportFrom]:
    """``from m import …`` statements at any depth of statements (module level, in functions)."""
    return (s for s in nested_statements(body) if isinstance(s, ast.ImportFrom) and (s.module or s.level))


def imported_check(tree: ast.Module, path: str, name: str) -> ast.FunctionDef | None:
    """The plain function ``name`` that this file imports from a module beside it, where its body
    raises or asserts (``_validate_inputs(A, B)``: checks on what the caller passes)."""
    for node in _imports(tree.body):
        found = next((a.name for a in node.names if (a.asname or a.name) == name), None)
        target = module_file(path, node.module or "", node.level) if found else None
        module = read_tree(target) if target is not None else None
        fn = next((f for f in module.body if isinstance(f, ast.FunctionDef) and f.name == found), None) \
            if module is not None else None
        if fn is not None and any(isinstance(n, (ast.Raise, ast.Assert)) for n in ast.walk(fn)):
            return fn
    return None


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


_FROM_IMPORT = re.compile(r"^[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n]+)", re.MULTILINE)
_IMPORT_AS = re.compile(r"^[ \t]*import[ \t]+([\w.]+)(?:[ \t]+as[ \t]+(\w+))?[ \t]*$", re.MULTILINE)


def launched_modules(path: str, source: str) -> set[str]:
    """The files whose kernels this file imports and launches, read from its text alone (no
    parse): the engine analyses those files after this one, so that they are analysed once, with
    its launches. A guess: a file it misses is analysed again."""
    out = set()
    for module, names in _FROM_IMPORT.findall(source):
        wanted = {part.split(" as ")[-1].strip() for part in names.strip("()").replace("\n", " ").split(",")}
        if any(name.isidentifier() and _launches(name, source) for name in wanted):
            level = len(module) - len(module.lstrip("."))
            target = module_file(path, module.lstrip("."), level)
            if target is not None:
                out.add(target)
    for module, alias in _IMPORT_AS.findall(source):
        if _subscripts_attribute(alias or module, source):
            target = module_file(path, module, 0)
            if target is not None:
                out.add(target)
    return out
