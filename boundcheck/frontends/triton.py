"""The Triton frontend: find ``@triton.jit`` kernels and their launch sites, and model them.

Cost is kept to what holds kernels: stdlib ``ast`` (fast) finds the top-level statements that
define a jit function or launch one, and only those are parsed with libcst, each as its own
small module, so position metadata is computed for kernel code alone.
"""

from __future__ import annotations

import ast
import re
import textwrap
from dataclasses import dataclass

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from boundcheck.frontends.triton_host import analyse_host
from boundcheck.frontends.triton_kernel import KernelAnalyser, ModuleContext
from boundcheck.model import Language, Module, Span

_JIT_NAMES = {"jit", "autotune", "heuristics"}
_ASSUME = re.compile(r"#\s*boundcheck:\s*assume\s+(.+?)\s*$")


def _decorator_names(node: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    names = set()
    for dec in node.decorator_list:
        target = dec.func if isinstance(dec, ast.Call) else dec
        while isinstance(target, ast.Attribute):
            names.add(target.attr)
            target = target.value
        if isinstance(target, ast.Name):
            names.add(target.id)
    return names


def _is_jit(node: ast.AST, jit_aliases: set[str]) -> bool:
    return isinstance(node, ast.FunctionDef) and bool(_decorator_names(node) & jit_aliases)


def _jit_aliases(tree: ast.Module) -> set[str]:
    """``jit`` under any name it was imported as (``from triton import jit as tjit``)."""
    aliases = set(_JIT_NAMES)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("triton"):
            for alias in node.names:
                if alias.name in _JIT_NAMES and alias.asname:
                    aliases.add(alias.asname)
    return aliases


@dataclass
class Segment:
    """A top-level statement re-parsed with libcst, and where it sits in the file."""

    node: cst.Module
    positions: dict
    first_line: int  # 1-based file line of the segment's first line
    indent: int  # columns removed by dedenting

    def span(self, node: cst.CSTNode) -> Span:
        r = self.positions[node]
        off = self.first_line - 1
        return Span(r.start.line + off, r.start.column + self.indent, r.end.line + off,
                    r.end.column + self.indent)


def _segment(lines: list[str], start: int, end: int) -> Segment:
    text = "\n".join(lines[start - 1:end]) + "\n"
    dedented = textwrap.dedent(text)
    indent = len(text) - len(text.lstrip(" ")) if dedented != text else 0
    module = cst.parse_module(dedented)
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    return Segment(module, wrapper.resolve(PositionProvider), start, indent)


def _statement_range(node: ast.stmt) -> tuple[int, int]:
    first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
    return first, node.end_lineno or node.lineno


def parse_module(path: str, source: str) -> Module:
    module = Module(path, Language.TRITON, source)
    try:
        tree = ast.parse(source)
    except SyntaxError as exc:
        line = exc.lineno or 1
        module.errors.append((Span(line, max((exc.offset or 1) - 1, 0), line, max(exc.offset or 1, 1)),
                              f"syntax error: {exc.msg}"))
        return module
    except (ValueError, RecursionError) as exc:
        module.errors.append((Span(1, 0, 1, 0), f"cannot parse: {exc}"))
        return module
    aliases = _jit_aliases(tree)
    jit_names = {n.name for n in ast.walk(tree) if _is_jit(n, aliases)}
    if not jit_names:
        return module
    lines = source.splitlines()
    wanted = []
    for stmt in tree.body:
        names = {n.id for n in ast.walk(stmt) if isinstance(n, ast.Name)}
        defines = any(_is_jit(n, aliases) for n in ast.walk(stmt))
        if defines or names & jit_names:
            wanted.append(_statement_range(stmt))
    functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name not in jit_names}
    context = ModuleContext(assumes=_assume_comments(lines), functions=functions)
    segments = []
    for start, end in wanted:
        try:
            segments.append(_segment(lines, start, end))
        except (cst.ParserSyntaxError, RecursionError) as exc:
            module.errors.append((Span(start, 0, start, 0), f"libcst could not parse this statement: {exc}"))
    for seg in segments:
        for fn in _functions(seg.node):
            if _cst_is_jit(fn, aliases):
                context.jit[fn.name.value] = (fn, seg)
    for seg in segments:
        module.launches.extend(analyse_host(seg, context))
    helpers = _called_from_jit(context)
    for name, (fn, seg) in context.jit.items():
        if name in helpers:
            continue  # a jit helper is analysed inlined, with its caller's masks and offsets
        try:
            module.kernels.append(KernelAnalyser(context, fn, seg).run())
        except RecursionError:
            module.errors.append((seg.span(fn.name), f"kernel `{name}` is too deeply nested to analyse"))
    return module


def _functions(node: cst.CSTNode) -> list[cst.FunctionDef]:
    out: list[cst.FunctionDef] = []

    class _Collect(cst.CSTVisitor):
        def visit_FunctionDef(self, fn: cst.FunctionDef) -> None:
            out.append(fn)

    node.visit(_Collect())
    return out


def _called_from_jit(context: ModuleContext) -> set[str]:
    called: set[str] = set()

    class _Calls(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            if isinstance(node.func, cst.Name) and node.func.value in context.jit:
                called.add(node.func.value)

    for name, (fn, _seg) in context.jit.items():
        fn.body.visit(_Calls())
    return called


def _cst_is_jit(fn: cst.FunctionDef, aliases: set[str]) -> bool:
    for dec in fn.decorators:
        target = dec.decorator.func if isinstance(dec.decorator, cst.Call) else dec.decorator
        while isinstance(target, cst.Attribute):
            if target.attr.value in aliases:
                return True
            target = target.value
        if isinstance(target, cst.Name) and target.value in aliases:
            return True
    return False


def _assume_comments(lines: list[str]) -> dict[int, str]:
    """``# boundcheck: assume K % BLOCK_K == 0`` by line: contracts, not suppressions."""
    return {i: m.group(1) for i, text in enumerate(lines, start=1)
            if "boundcheck" in text and (m := _ASSUME.search(text))}
