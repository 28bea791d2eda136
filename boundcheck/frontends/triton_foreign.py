"""Jit helpers a kernel calls by a dotted name or an imported one: ``language.Sum.forward(...)``
with ``from pkg import language`` (a package whose ``__init__`` star-imports the module defining
``class Sum``), ``ops.helper(...)`` with ``import pkg.ops as ops``, ``helper(...)`` with ``from
.ops import helper``, or ``Sum.forward(...)`` for a class of the file itself. Each is found by
reading the modules beside the file (parsed, never imported or run), so that the kernel can be
analysed with the helper's body inlined, under the caller's masks, offsets and flags."""

from __future__ import annotations

import ast
import os
from dataclasses import dataclass, fields, is_dataclass, replace
from functools import lru_cache
from typing import TypeVar

from boundcheck.frontends.pysource import Source, decorator_names, jit_aliases, nested_statements
from boundcheck.model import Span

_MAX_HOPS = 6  # re-exports followed from a name to its definition
_MAX_BYTES = 2_000_000  # a module larger than this is not read
T = TypeVar("T")


@dataclass(frozen=True)
class Helper:
    """A jit function a call names: where it is defined and the jit functions beside it there."""

    path: str  # real path of the defining file
    fn: ast.FunctionDef
    jit: dict[str, ast.FunctionDef]  # the module-level jit functions of that file, by name
    source: Source


class PlacedSource(Source):
    """Another file's text, read for its expressions. Its positions are its own lines moved past
    every line of the analysed file by ``base`` (a multiple of :data:`FAR` that names the call
    reaching it), so that they keep their order while the helper is read; :func:`placed` then
    puts them at that call, where a finding on them is reported."""

    def __init__(self, source: Source, base: int) -> None:  # the file's readings, shared
        self.lines, self._encoded, self._text = source.lines, source._encoded, source._text
        self.base = base

    def span(self, node: ast.AST) -> Span:
        s = self.position(node)
        return Span(s.line + self.base, s.col, s.end_line + self.base, s.end_col)

    def between(self, left: ast.AST, right: ast.AST, token: str) -> Span | None:
        return None  # no fix is offered in another file's text


FAR = 10_000_000  # past any line of a real file
_FIX_SITES = ("op_span", "other_at")  # where a fix would edit: none in another file's text


def placed(obj: T, calls: dict[int, Span]) -> T:
    """``obj`` (a model object, or a list, tuple, set or dict of them) with every position inside
    a placed helper put at the call of the analysed file that reaches it (``calls``: the call of
    each base, itself placed where it is in another helper); a fix site there is dropped."""
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


def called_helpers(tree: ast.Module, path: str, jit: list[ast.FunctionDef]) -> dict[str, Helper]:
    """The jit functions the file's jit functions call by a name no jit function of the file has,
    resolved through its imports and classes, by the call's dotted text."""
    local = {f.name for f in tree.body if isinstance(f, ast.FunctionDef)}
    wanted = {text for fn in jit for n in ast.walk(fn) if isinstance(n, ast.Call)
              and (text := dotted(n.func)) is not None and text.split(".")[0] not in ("tl", "triton", "libdevice")
              and ("." in text or text not in local)}
    if not wanted:
        return {}
    real = os.path.realpath(path)
    bound = _bindings(tree, path)
    out = {}
    for text in sorted(wanted):
        head, *rest = text.split(".")
        found = None
        if head in bound:
            target, name = bound[head]
            found = _lookup(target, [name, *rest] if name else rest, _MAX_HOPS)
        elif rest:
            found = _lookup(real, [head, *rest], 0)  # a class of the file itself: `Sum.forward`
        if found is not None:
            out[text] = found
    return out


def _bindings(tree: ast.Module, path: str) -> dict[str, tuple[str, str]]:
    """Names the file imports, each as (the module file it is looked up in, the name there, or ""
    where the name is the module itself): ``from pkg import language`` binds the package's
    ``language`` module, ``from .ops import helper`` the name ``helper`` of ``ops``."""
    out: dict[str, tuple[str, str]] = {}
    for s in nested_statements(tree.body):
        if isinstance(s, ast.ImportFrom) and (s.module or s.level):
            for a in s.names:
                if a.name == "*":
                    continue
                sub = module_file(path, f"{s.module or ''}.{a.name}".lstrip("."), s.level)
                if sub is not None:
                    out[a.asname or a.name] = (sub, "")
                elif (target := module_file(path, s.module or "", s.level)) is not None:
                    out[a.asname or a.name] = (target, a.name)
        elif isinstance(s, ast.Import):
            for a in s.names:
                if a.asname and (target := module_file(path, a.name, 0)) is not None:
                    out[a.asname] = (target, "")
    return out


def _lookup(path: str, names: list[str], hops: int) -> Helper | None:
    """The jit function ``names`` reaches from module ``path``: a function, a class's method, a
    submodule of a package, or a name the module re-exports (``from .sum import *``)."""
    module = read_module(path)
    if module is None or not names:
        return None
    text, tree = module
    first, rest = names[0], names[1:]
    aliases = jit_aliases(tree)
    for s in tree.body:
        if isinstance(s, ast.FunctionDef) and s.name == first:
            return _helper(path, s, text) if not rest and decorator_names(s) & aliases else None
        if isinstance(s, ast.ClassDef) and s.name == first:
            method = next((m for m in s.body if isinstance(m, ast.FunctionDef) and rest and m.name == rest[0]), None)
            ok = method is not None and len(rest) == 1 and decorator_names(method) & aliases
            return _helper(path, method, text) if ok else None  # type: ignore[arg-type]
    if hops <= 0:
        return None
    if os.path.basename(path) == "__init__.py":
        sub = module_file(path, first, 1)
        if sub is not None and sub != path:
            found = _lookup(sub, rest, hops - 1)
            if found is not None:
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


def _helper(path: str, fn: ast.FunctionDef, text: str) -> Helper:
    return Helper(path, fn, jit_functions(path), _source(path, text))


@lru_cache(maxsize=64)
def _source(path: str, text: str) -> Source:
    """One reading of a file's text per process, shared by every call placed from it."""
    return Source(text)


def module_file(path: str, module: str, level: int) -> str | None:
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
