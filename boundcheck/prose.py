"""Divisibility a kernel's own documentation states in words: ``WARNING: This kernel assumes that
K is a multiple of BLOCK_SIZE_K.``, ``// n must be divisible by 4``. A documented precondition is a
contract as much as an assert is (the checklist's rule); a condition (``if K is a multiple of …``)
or a negation states none."""

from __future__ import annotations

import re

_NAME = r"[A-Za-z_]\w*"
_TILE = rf"(?:{_NAME}|\d+)(?:\s*\*\s*(?:{_NAME}|\d+))*"
_BE = r"(?:is|are|must\s+be|should\s+be|has\s+to\s+be|have\s+to\s+be|needs\s+to\s+be|need\s+to\s+be)"
_STATED = re.compile(
    rf"\b(?P<extent>{_NAME})\s+{_BE}\s+(?:always\s+)?(?:"
    rf"(?:an?\s+)?(?:integer\s+|exact\s+)?multiples?\s+of|(?:evenly\s+|exactly\s+)?divisible\s+by)"
    rf"\s+(?:the\s+)?(?P<tile>\(\s*{_TILE}\s*\)|{_TILE})")
_CONDITIONAL = re.compile(r"\b(?:if|when|whenever|whether|unless|otherwise|in\s+case|not)\b", re.IGNORECASE)
_SENTENCE_END = re.compile(r"[.;!?](?:\s|$)|\n\s*\n")


def stated_multiples(text: str) -> list[tuple[str, str]]:
    """(extent, tile) for each ``X is a multiple of Y`` / ``X must be divisible by Y`` that its
    sentence states outright (no ``if``, ``when``, ``unless`` or ``not`` before it)."""
    out = []
    for m in _STATED.finditer(text):
        start = max((e.end() for e in _SENTENCE_END.finditer(text, 0, m.start())), default=0)
        if _CONDITIONAL.search(text, start, m.start()):
            continue
        tile = " * ".join(p.strip() for p in m.group("tile").strip("() ").split("*"))
        out.append((m.group("extent"), tile))
    return out
