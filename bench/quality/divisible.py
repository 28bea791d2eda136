"""Whether a floor division is exact by what the code itself states, read from the text alone
(never from boundcheck's model): flooring a ceiling there is no bug, so it makes no mutant."""

from __future__ import annotations

import re
from functools import lru_cache


def _bare(text: str) -> str:
    text = text.strip()
    while text.startswith("(") and text.endswith(")"):
        text = text[1:-1].strip()
    return text


_MACRO = re.compile(r"#[ \t]*define[ \t]+(\w+)\(\s*(\w+)\s*\)((?:[^\n]*\\\n)*[^\n]*)")
_CONSTANT = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)[ \t]+\(?\s*(\d+)\s*\)?[ \t]*$", re.MULTILINE)


@lru_cache(maxsize=4)
def _expanded(scope: str) -> str:
    """``scope`` (a file, asked about once per floor division in it) with the checks a one-parameter macro makes at each use written out:
    ``ASSERT_K_IS_MULTIBLE_OF(32)`` of ``#define ASSERT_K_IS_MULTIBLE_OF(V) if (K % (V) != 0) …``
    adds ``if (K % (32) != 0) …``."""
    extra = []
    for name, param, body in _MACRO.findall(scope):
        if "%" not in body:
            continue
        body = body.replace("\\\n", " ")
        for arg in re.findall(rf"\b{re.escape(name)}\s*\(([^()]*)\)", scope):
            if arg.strip() != param:
                extra.append(re.sub(rf"\b{re.escape(param)}\b", arg.strip(), body))
    return scope + "\n" + "\n".join(extra) if extra else scope


@lru_cache(maxsize=4)
def _constants(scope: str) -> dict[str, list[str]]:
    """The literal each ``#define NAME <number>`` gives, by name."""
    out: dict[str, list[str]] = {}
    for name, value in _CONSTANT.findall(scope):
        out.setdefault(name, []).append(value)
    return out


def stated_multiple(scope: str, extent: str, tile: str) -> str | None:
    """Why ``extent / tile`` is exact, or None: two integer literals that divide, or a check of
    ``extent % tile`` against 0 anywhere in ``scope`` (an assert, a ``TORCH_CHECK``, a
    ``static_assert`` or an ``if (... % ... != 0)`` rejection, also one a one-parameter macro
    makes at its use; the tile also as the literal a ``#define`` gives it)."""
    e, t = _bare(extent), _bare(tile)
    if e.isdigit() and t.isdigit():
        return "the extent is a literal multiple of the tile" if int(t) and int(e) % int(t) == 0 else None
    tiles = [t, *_constants(scope).get(t, [])]
    text = _expanded(scope)
    side = r"\(?\s*{}\s*\)?"
    for each in tiles:
        pattern = side.format(re.escape(e)) + r"\s*%\s*" + side.format(re.escape(each)) + r"\s*[!=]=\s*0\b"
        if re.search(pattern, text):
            return "the code checks that the extent is a multiple of the tile"
    return None
