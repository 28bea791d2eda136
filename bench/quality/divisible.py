"""Whether a floor division is exact by what the code itself states, read from the text alone
(never from boundcheck's model): flooring a ceiling there is no bug, so it makes no mutant."""

from __future__ import annotations

import re


def _bare(text: str) -> str:
    text = text.strip()
    while text.startswith("(") and text.endswith(")"):
        text = text[1:-1].strip()
    return text


def stated_multiple(scope: str, extent: str, tile: str) -> str | None:
    """Why ``extent / tile`` is exact, or None: two integer literals that divide, or a check of
    ``extent % tile`` against 0 anywhere in ``scope`` (an assert, a ``TORCH_CHECK``, a
    ``static_assert`` or an ``if (... % ... != 0)`` rejection)."""
    e, t = _bare(extent), _bare(tile)
    if e.isdigit() and t.isdigit():
        return "the extent is a literal multiple of the tile" if int(t) and int(e) % int(t) == 0 else None
    side = r"\(?\s*{}\s*\)?"
    pattern = side.format(re.escape(e)) + r"\s*%\s*" + side.format(re.escape(t)) + r"\s*[!=]=\s*0\b"
    if re.search(pattern, scope):
        return "the code checks that the extent is a multiple of the tile"
    return None


def stated_multiple_of_max(scope: str, extent: str, tile: str) -> str | None:
    """Why ``extent`` is a multiple of ``tile`` by a check of ``extent % max(tile, other)`` against
    0 (either order) where ``scope`` also asserts ``tile >= other`` (``static_assert(Br >= Bc)``),
    so the larger of the two is ``tile`` itself."""
    e, t = re.escape(_bare(extent)), re.escape(_bare(tile))
    other = r"([A-Za-z_]\w*|\d+)"
    for m in re.finditer(e + r"\s*%\s*\(?\s*max\s*\(\s*(?:" + t + r"\s*,\s*" + other + r"|" + other
                         + r"\s*,\s*" + t + r")\s*\)\s*\)?\s*[!=]=\s*0\b", scope):
        u = re.escape(m.group(1) or m.group(2))
        larger = r"\b" + t + r"\s*>=?\s*" + u + r"\b|\b" + u + r"\s*<=?\s*" + t + r"\b"
        if re.search(r"\b(?:static_assert|assert)\s*\([^;]*?(?:" + larger + ")", scope):
            return "the code checks that the extent is a multiple of the larger tile, and states which is larger"
    return None
