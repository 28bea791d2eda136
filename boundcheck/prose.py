"""Divisibility a kernel's own documentation states in words: ``WARNING: This kernel assumes that
K is a multiple of BLOCK_SIZE_K.``, ``// n must be divisible by 4``. A documented precondition is a
contract as much as an assert is (the checklist's rule); a condition (``if K is a multiple of …``)
or a negation states none."""

from __future__ import annotations

import re
from collections.abc import Collection

from boundcheck.symbolic import tile_factors

_NAME = r"[A-Za-z_]\w*"
_TILE = rf"(?:{_NAME}|\d+)(?:\s*\*\s*(?:{_NAME}|\d+))*"
_BE = r"(?:is|are|must\s+be|should\s+be|has\s+to\s+be|have\s+to\s+be|needs\s+to\s+be|need\s+to\s+be)"
_OF = r"(?:\s+of(?:\s+\w+){1,4}?)?"  # `width of (the) weight matrix`: what the extent is the size of
_MULTIPLE = (rf"(?:always\s+)?(?:(?:an?\s+)?(?:integer\s+|exact\s+)?multiples?\s+of|(?:evenly\s+|exactly\s+)?divisible\s+by)"
             rf"\s+(?:the\s+)?(?P<tile>\(\s*{_TILE}\s*\)|{_TILE})")
# `X is a multiple of Y`, `X must be divisible by Y`; after `assume`, the verb may go unsaid
# (`assume width of weight matrix divisible by THREADS_X`)
_STATED = re.compile(rf"(?:\bassum(?:e|es|ed|ing)\s+(?:that\s+)?(?:the\s+)?(?P<assumed>{_NAME}){_OF}\s+(?:{_BE}\s+)?"
                     rf"|\b(?P<extent>{_NAME}){_OF}\s+{_BE}\s+){_MULTIPLE}")
_CONDITIONAL = re.compile(r"\b(?:if|when|whenever|whether|unless|otherwise|in\s+case|not)\b", re.IGNORECASE)
_SENTENCE_END = re.compile(r"[.;!?](?:\s|$)|\n\s*\n")


def stated_multiples(text: str, names: Collection[str] | None = None) -> list[tuple[str, str]]:
    """(extent, tile) for each ``X is a multiple of Y`` / ``X must be divisible by Y`` that its
    sentence states outright (no ``if``, ``when``, ``unless`` or ``not`` before it); with
    ``names``, only those between them (a tile may also be a literal)."""
    if "multiple" not in text and "divisible" not in text:
        return []
    out = []
    for m in _STATED.finditer(text):
        start = max((e.end() for e in _SENTENCE_END.finditer(text, 0, m.start())), default=0)
        if _CONDITIONAL.search(text, start, m.start()):
            continue
        extent = m.group("extent") or m.group("assumed")
        tile = " * ".join(p.strip() for p in m.group("tile").strip("() ").split("*"))
        if names is None or extent in names and all(f in names or f.isdigit() for f in tile_factors(tile)):
            out.append((extent, tile))
    return out


PYTHON_COMMENT = re.compile(r"#([^\n]*)")
C_COMMENT = re.compile(r"//([^\n]*)|/\*(.*?)\*/", re.DOTALL)


def comment_text(text: str, comment: re.Pattern[str]) -> str:
    """Only the comments of ``text`` (each match's group), each on the lines it stands on: code
    leaves blank lines, so comments on consecutive lines read as one paragraph, others apart."""
    out, last = [], 0
    for m in comment.finditer(text):
        out += ["\n" * text.count("\n", last, m.start()), next(g for g in m.groups() if g is not None)]
        last = m.end()
    return "".join(out)
