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
