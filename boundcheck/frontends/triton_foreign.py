"""Jit helpers a kernel calls by a dotted name or an imported one: ``language.Sum.forward(...)``
with ``from pkg import language`` (a package whose ``__init__`` star-imports the module defining
``class Sum``), ``ops.helper(...)`` with ``import pkg.ops as ops``, ``helper(...)`` with ``from
.ops import helper``, or ``Sum.forward(...)`` for a class of the file itself. Each is found by
reading the modules beside the file (parsed, never imported or run), so that the kernel can be
analysed with the helper's body inlined, under the caller's masks, offsets and flags."""

from __future__ import annotations

import ast
import os
import re
from dataclasses import dataclass, fields, is_dataclass, replace
from functools import lru_cache
from typing import TypeVar

from boundcheck.frontends.pysource import Source, decorator_names, jit_aliases, nested_statements
from boundcheck.model import Span

_MAX_HOPS = 6  # re-exports followed from a name to its definition
_LIBRARIES = {"triton", "torch"}  # packages whose functions are no helper of the project
_MAX_BYTES = 2_000_000  # a module larger than this is not read
T = TypeVar("T")


@dataclass(frozen=True)
class Helper:
    """A jit function a call names, and the file that defines it (real path)."""

    path: str
    fn: ast.FunctionDef

    @property
    def jit(self) -> dict[str, ast.FunctionDef]:
        """The module-level jit functions beside it, which its own calls name."""
        return jit_functions(self.path)

    @property
    def source(self) -> Source:
        return _source(self.path)


FAR = 10_000_000  # past any line of a real file: a placed helper's positions are its lines plus a multiple
_FIX_SITES = ("op_span", "other_at")  # where a fix would edit: none in another file's text


def placed(obj: T, calls: dict[int, Span]) -> T:
    """``obj`` (a model object, or a list, tuple, set or dict of them) with every position inside
    a placed helper (``Source.placed``) put at the call of the analysed file that reaches it
    (``calls``: the call of each base, itself placed where it is in another helper); a fix site
    there is dropped."""
    if isinstance(obj, Span):
        while obj.line >= FAR:
            obj = calls[obj.line // FAR]
        return obj  # type: ignore[return-value]
    if isinstance(obj, (list, tuple, set, frozenset)):
        items = [placed(v, calls) for v in obj]
        same = all(a is b for a, b in zip(items, obj)) if isinstance(obj, (list, tuple)) else False
        return obj if same else type(obj)(items)  # type: ignore[return-value]
    if isinstance(obj, dict):
        return {k: placed(v, calls) for k, v in obj.items()}  # type: ignore[return-value]
    if not (is_dataclass(obj) and type(obj).__module__ == "boundcheck.model"):
        return obj
    changes = {}
    for f in fields(obj):
        value = getattr(obj, f.name)
        if f.name in _FIX_SITES and isinstance(value, Span) and value.line >= FAR:
            changes[f.name] = None
        elif f.name == "end_line" and isinstance(value, int) and value >= FAR:
            changes[f.name] = placed(Span(value, 0, value, 0), calls).end_line
        elif (new := placed(value, calls)) is not value:
            changes[f.name] = new
    return replace(obj, **changes) if changes else obj  # type: ignore[type-var]


def dotted(func: ast.expr) -> str | None:
    """``a.b.c`` for a call's function made of names and attributes only, else None."""
    parts = []
    while isinstance(func, ast.Attribute):
        parts.append(func.attr)
        func = func.value
    if not isinstance(func, ast.Name):
        return None
    parts.append(func.id)
    return ".".join(reversed(parts))


def called_helpers(tree: ast.Module, path: str, lines: list[str], jit: list[ast.FunctionDef]) -> dict[str, Helper]:
    """The jit functions the file's jit functions (``jit``, of the file's ``lines``) call by a name
    it imports (not from triton or torch), or by a class of its own, resolved through its imports
    and classes, by the call's dotted text. The calls are found in the jit functions' text (one
    scan), so a file that imports no helper of its project pays nothing more."""
    imports = {name: imp for name, imp in _imported_names(tree).items()
               if imp[0].split(".")[0] not in _LIBRARIES}
    classes = {c.name for c in tree.body if isinstance(c, ast.ClassDef)}
    if not imports and not classes:
        return {}
    heads = "|".join(map(re.escape, sorted(imports.keys() | classes)))
    kernels = "\n".join("\n".join(lines[f.lineno - 1:f.end_lineno]) for f in jit)
    out = {}
    for text in sorted(set(re.findall(rf"(?<![\w.])((?:{heads})(?:\.\w+)*)\s*\(", kernels))):
        head, *rest = text.split(".")
        if head in imports:
            found = _through_import(path, imports[head], rest)
        elif rest:  # a class of the file itself: `Sum.forward`
            found = _defined(os.path.realpath(path), tree, [head, *rest]) or None
        else:
            continue
        if found is not None:
            out[text] = found
    return out


def _imported_names(tree: ast.Module) -> dict[str, tuple[str, int, str]]:
    """The names the file binds by importing, each as (module, level, the name there; "" where the
    name is the module itself, ``import pkg.ops as ops``), read from the text alone."""
    out: dict[str, tuple[str, int, str]] = {}
    for s in nested_statements(tree.body):
        if isinstance(s, ast.ImportFrom) and (s.module or s.level):
            out.update({a.asname or a.name: (s.module or "", s.level, a.name) for a in s.names if a.name != "*"})
        elif isinstance(s, ast.Import):
            out.update({a.asname: (a.name, 0, "") for a in s.names if a.asname})
    return out


def _through_import(path: str, imported: tuple[str, int, str], rest: list[str]) -> Helper | None:
    """What ``name.rest…`` reaches where ``name`` was imported: ``from pkg import language`` binds
    the package's ``language`` module, ``from .ops import helper`` the name ``helper`` of ``ops``."""
    module, level, name = imported
    if not name:
        target = module_file(path, module, 0)
        return _lookup(target, rest, _MAX_HOPS) if target is not None else None
    sub = module_file(path, f"{module}.{name}".lstrip("."), level)
    if sub is not None:
        return _lookup(sub, rest, _MAX_HOPS)
    target = module_file(path, module, level)
    return _lookup(target, [name, *rest], _MAX_HOPS) if target is not None else None


def _defined(path: str, tree: ast.Module, names: list[str]) -> Helper | None | bool:
    """The jit function ``names`` is where ``tree`` defines its first name (a function, or a class
    and its method); False where the module does not define that name."""
    first, rest = names[0], names[1:]
    aliases = jit_aliases(tree)
    for s in tree.body:
        if isinstance(s, ast.FunctionDef) and s.name == first:
            return Helper(path, s) if not rest and decorator_names(s) & aliases else None
        if isinstance(s, ast.ClassDef) and s.name == first:
            method = next((m for m in s.body if isinstance(m, ast.FunctionDef) and rest and m.name == rest[0]), None)
            ok = method is not None and len(rest) == 1 and decorator_names(method) & aliases
            return Helper(path, method) if ok else None  # type: ignore[arg-type]
    return False


def _lookup(path: str, names: list[str], hops: int) -> Helper | None:
    """The jit function ``names`` reaches from module ``path``: a function, a class's method, a
    submodule of a package, or a name the module re-exports (``from .sum import *``)."""
    tree = read_tree(path)
    if tree is None or not names:
        return None
    found = _defined(path, tree, names)
    if found is not False or hops <= 0:
        return found or None
    first, rest = names[0], names[1:]
    if os.path.basename(path) == "__init__.py":
        sub = module_file(path, first, 1)
        if sub is not None and sub != path and (found := _lookup(sub, rest, hops - 1)) is not None:
            return found
    for s in tree.body:
        if not isinstance(s, ast.ImportFrom):
            continue
        for a in s.names:
            if a.name == "*" or (a.asname or a.name) == first:
                target = module_file(path, s.module or "", s.level)
                name = first if a.name == "*" else a.name
                found = _lookup(target, [name, *rest], hops - 1) if target is not None and target != path else None
                if found is not None:
                    return found
    return None


@lru_cache(maxsize=64)
def _source(path: str) -> Source:
    """One reading of a file's text per process, shared by every call placed from it."""
    module = read_module(path)
    return Source(module[0] if module is not None else "")


def module_file(path: str, module: str, level: int) -> str | None:
    """The file of ``module`` as imported from ``path``: relative to the file's package for
    ``from .m import`` (``level`` dots), else under the nearest parent directory holding it."""
    return _module_in(os.path.dirname(os.path.realpath(path)), module, level)


@lru_cache(maxsize=1024)
def _module_in(here: str, module: str, level: int) -> str | None:
    """:func:`module_file` from the directory ``here``: asked once per directory and module."""
    parts = [p for p in module.split(".") if p]
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
def read_module(path: str) -> tuple[str, ast.Module] | None:
    """Another module of the run, its text and tree, parsed once per process (None where it
    cannot be read)."""
    try:
        if os.path.getsize(path) > _MAX_BYTES:
            return None
        with open(path, encoding="utf-8", errors="replace") as handle:
            text = handle.read()
        return text, ast.parse(text)
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def read_tree(path: str) -> ast.Module | None:
    """A module's tree alone (see :func:`read_module`)."""
    module = read_module(path)
    return module[1] if module is not None else None


@lru_cache(maxsize=256)
def jit_functions(path: str) -> dict[str, ast.FunctionDef]:
    """The module-level jit functions of a file, by name (empty where it cannot be read)."""
    tree = read_tree(path)
    if tree is None:
        return {}
    aliases = jit_aliases(tree)
    return {f.name: f for f in tree.body if isinstance(f, ast.FunctionDef) and decorator_names(f) & aliases}
