"""Positions and text of stdlib ``ast`` nodes in code points, as the model and SARIF want them
(``ast`` reports UTF-8 byte columns), and what the Triton readings share: the statement walk, and
which functions are jit functions."""

from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

from boundcheck.model import Span


class Source:
    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()
        self._encoded: dict[int, bytes] = {}
        self._text: dict[int, str] = {}
        self.base = 0  # added to the lines of every span: a helper of another file read in place

    def placed(self, base: int) -> Source:
        """This text, read for its expressions, its spans moved past every line of the analysed
        file by ``base`` (``triton_foreign.placed`` then puts them at the call that reached it):
        positions keep their order while it is read, and no fix is offered in its text."""
        out = copy.copy(self)  # the readings are shared
        out.base = base
        return out

    def _col(self, line: int, byte_col: int) -> int:
        text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        if text.isascii():
            return byte_col
        raw = self._encoded.setdefault(line, text.encode("utf-8"))
        return len(raw[:byte_col].decode("utf-8", errors="replace"))

    def span(self, node: ast.AST) -> Span:
        """Where the node stands, moved by ``base``."""
        s = self.position(node)
        return Span(s.line + self.base, s.col, s.end_line + self.base, s.end_col) if self.base else s

    def position(self, node: ast.AST) -> Span:
        """Where the node stands in this text."""
        line, end_line = node.lineno, node.end_lineno or node.lineno  # type: ignore[attr-defined]
        return Span(line, self._col(line, node.col_offset), end_line,  # type: ignore[attr-defined]
                    self._col(end_line, node.end_col_offset or 0))  # type: ignore[attr-defined]

    def text(self, node: ast.AST) -> str:
        """The node's source, whitespace folded (``ast.unparse`` for nodes without positions)."""
        key = id(node)
        if key not in self._text:
            if not hasattr(node, "lineno"):
                self._text[key] = ast.unparse(node)
            else:
                s = self.position(node)
                if s.line == s.end_line:
                    raw = self.lines[s.line - 1][s.col:s.end_col]
                else:
                    parts = [self.lines[s.line - 1][s.col:], *self.lines[s.line:s.end_line - 1],
                             self.lines[s.end_line - 1][:s.end_col]]
                    raw = " ".join(parts)
                self._text[key] = " ".join(raw.split())
        return self._text[key]

    def between(self, left: ast.AST, right: ast.AST, token: str) -> Span | None:
        """Where ``token`` (an operator) stands between two nodes, on one line (None in a placed text)."""
        a, b = self.position(left), self.position(right)
        if a.end_line != b.line or self.base:
            return None
        segment = self.lines[a.end_line - 1][a.end_col:b.col]
        at = segment.find(token)
        if at < 0:
            return None
        col = a.end_col + at
        return Span(a.end_line, col, a.end_line, col + len(token))


def callee(func: ast.expr) -> str:
    """``tl.load`` → ``load``; ``tl.math.exp`` → ``exp``; ``x.to`` → ``to``."""
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return ""


def nested_statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Statements at any depth of statements, nested definitions' bodies too, in source order
    (not inside expressions: cheap)."""
    for stmt in body:
        yield stmt
        for name in ("body", "orelse", "finalbody"):
            inner = getattr(stmt, name, None)
            if isinstance(inner, list):
                yield from nested_statements(inner)
        for handler in getattr(stmt, "handlers", []):
            yield from nested_statements(handler.body)


_JIT_NAMES = {"jit", "autotune", "heuristics"}


def decorator_names(node: ast.FunctionDef) -> set[str]:
    names = set()
    for dec in node.decorator_list:
        target = dec.func if isinstance(dec, ast.Call) else dec
        while isinstance(target, ast.Attribute):
            names.add(target.attr)
            target = target.value
        if isinstance(target, ast.Name):
            names.add(target.id)
    return names


def jit_aliases(tree: ast.Module) -> set[str]:
    """``jit`` under any name it was imported as (``from triton import jit as tjit``)."""
    aliases = set(_JIT_NAMES)
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("triton"):
            aliases.update(a.asname for a in node.names if a.name in _JIT_NAMES and a.asname)
    return aliases
