"""Scratch laid out in whole tiles: ``P + pid * BM * BN + arange(0, BM)[:, None] * BN + arange(0, BN)[None, :]``.

Stream-K and split-K kernels hand partial tiles between programs through a scratch buffer with one
tile-sized slot per program. The index is one dense tile (the innermost lane at unit stride, each
outer lane's pitch the product of the widths inside it) plus slot terms that step by the whole
tile's footprint: every lane stays inside its slot, and no dimension has a partial last tile (a
slot the buffer lacks is a question of how many the host allocates, not of a tail).

The same text reads a row-major matrix whose row length is a tile (``BN`` standing for ``N``) as
rows ``pid * BM + arange(0, BM)``, whose last tile can be partial. The reading is therefore kept
for widths the kernel cuts a real extent into elsewhere (a tile, not a size: ``BLOCK_M`` of
``pid_m * BLOCK_M + arange(0, BLOCK_M)``) and that no launch gives a tensor's size.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from boundcheck import symbolic as sy


@dataclass(frozen=True)
class TileSlot:
    """A dense tile of lanes at slot offsets: its lane sources and the widths of their tiles."""

    sources: frozenset[str]
    widths: frozenset[str]


def tile_slot(index: sy.Expr, buffer: str) -> TileSlot | None:
    """The dense tile ``index`` addresses inside a slot of its footprint, or None."""
    terms = sy.expand(index)
    if sy.constant(terms):
        return None
    lanes: list[tuple[str, str, Counter[str]]] = []  # (source, width, the other factors)
    slots: list[sy.Term] = []
    for t in sy.variable(terms):
        found = {name for f in t.factors for name, _ in sy.lanes(f)}
        if not found:
            if not (len(t.factors) == 1 and sy.render(t.factors[0]) == buffer and t.coeff == 1):
                slots.append(t)
            continue
        lane = [f for f in t.factors if sy.lanes(f)]
        source = next(iter(found))
        width = _width(source)
        if t.coeff != 1 or len(found) != 1 or len(lane) != 1 or width is None or not _bare(lane[0], source):
            return None
        lanes.append((source, width, Counter(sy.render(f) for f in t.factors if f is not lane[0])))
    if len(lanes) < 2 or not slots or len({s for s, _, _ in lanes}) != len(lanes):
        return None
    lanes.sort(key=lambda entry: sum(entry[2].values()))
    inside: Counter[str] = Counter()
    for _, width, pitch in lanes:
        if pitch != inside:
            return None
        inside[width] += 1
    for t in slots:
        if not isinstance(t.coeff, int) or t.coeff < 1 or Counter(sy.render(f) for f in t.factors) & inside != inside:
            return None
    return TileSlot(frozenset(s for s, _, _ in lanes), frozenset(w for _, w, _ in lanes))


def _width(source: str) -> str | None:
    """``arange(0, BM)`` -> ``BM`` (a name); lanes from another start are no whole tile."""
    if not source.startswith("arange(0,"):
        return None
    width = source[len("arange(0,"):-1].strip()
    return width if width.isidentifier() else None


def _bare(factor: sy.Expr, source: str) -> bool:
    """The lane factor is the arange itself, broadcast or not (not ``arange(0, B) % M``)."""
    inner = factor.expr if isinstance(factor, sy.Axis) else factor
    return isinstance(inner, sy.Sym) and inner.name == source
