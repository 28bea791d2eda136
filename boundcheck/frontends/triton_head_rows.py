"""Heads inside a row: ``row * (H * S) + h * S + arange(0, S)`` with ``h < H`` stated by the code.

A tile offset ``h * S`` next to a row pitch ``H * S`` is syntactically a grouped tile offset
(``(pid * GROUP + u) * BLOCK``), whose last group is partial. It is a head of a row only where the
code bounds the head index by the pitch's count and the row index by a count of rows:

- the head index is ``x % H`` or a program id whose launch grid dimension is the value passed as
  ``H``, at every launch;
- every row term steps by ``H * S`` (both written), or by ``P`` where every launch passes the tile
  as ``P // H`` (``G = HQ // H``: ``H * G <= HQ`` whatever the remainder);
- the row terms' program ids have grid dimensions that are no ceiling (``cdiv(n, GROUP * BLOCK)``
  is the partial group), and their loop variables run no ceiling count of tiles.
"""

from __future__ import annotations

import re

from boundcheck import symbolic as sy
from boundcheck.model import Bound, Loop, Span

PROGRAM_ID = re.compile(r"program_id\((\d)\)")
ROUNDED_GRID = re.compile(r"cdiv|ceil|//|-")  # a grid element that rounds a size up (or down) to tiles

Layout = tuple[dict[str, str], dict[str, list[str]]]


def head_in_row(index: sy.Expr, buffer: str, part: sy.DimPart, span: Span, launches: list[Layout],
                grids: list[tuple[str, ...] | None], loops: dict[str, Loop]) -> Bound | None:
    """The bound a head of a row gives its lane dimension, or None where the code does not state it."""
    tile = part.dim.tile
    if tile is None or not tile.isidentifier() or not launches or len(grids) != len(launches) \
            or sy.constant(sy.expand(index)):
        return None  # `+ 1` would step past the row's end
    stride = list(part.stride)
    heads, rows = [], []
    for t in sy.variable(sy.expand(index)):
        if any(sy.lanes(f) for f in t.factors):
            if not _is_lane_term(t, part):
                return None  # another lane dimension: the rows of whole tiles rule's case
            continue
        if t.coeff != 1:
            return None
        if len(t.factors) == 1 and sy.render(t.factors[0]) == buffer:
            continue
        rest = sy.without(list(t.factors), stride)
        if rest is None:
            return None
        if [sy.render(f) for f in rest if not sy.kinds(f) & {sy.Kind.PROGRAM, sy.Kind.LOOP}] == [tile] and len(rest) == 2:
            heads.append(next(f for f in rest if sy.render(f) != tile))
        else:
            rows.append(rest)
    if len(heads) != 1 or not rows:
        return None
    if not all(_counted_rows(r, grids, loops) for r in rows):
        return None
    count = next((c for c in _head_counts(heads[0], launches, grids)
                  if all(_steps_rows(r, tile, c, launches) for r in rows)), None)
    if count is None:
        return None
    return Bound(part.dim.source, part.dim.label, "<", f"{count} * {tile} row", True, span, wrap=True,
                 axis=part.dim.axis)


def _is_lane_term(t: sy.Term, part: sy.DimPart) -> bool:
    return t.coeff == 1 and sorted(sy.render(f) for f in t.factors if not sy.lanes(f)) == list(part.stride) \
        and {n for f in t.factors for n, _ in sy.lanes(f)} == {part.dim.source}


def _head_counts(head: sy.Expr, launches: list[Layout], grids: list[tuple[str, ...] | None]) -> list[str]:
    """The kernel parameters ``H`` that bound the head index: ``x % H``, or a program id whose grid
    dimension is, at every launch, the host value passed as ``H``."""
    if (count := remainder_count(head)) is not None and sy.Kind.PROGRAM in sy.kinds(head.left):  # type: ignore[union-attr]
        return [count]
    m = PROGRAM_ID.fullmatch(sy.render(head)) if isinstance(head, sy.Sym) else None
    if m is None:
        return []
    axis, names = int(m.group(1)), None
    for (values, _), grid in zip(launches, grids):
        if grid is None or axis >= len(grid):
            return []
        here = {p for p, v in values.items() if v == grid[axis]}
        names = here if names is None else names & here
    return sorted(names or ())


def remainder_count(head: sy.Expr | None) -> str | None:
    """``C`` of a head index ``x % C`` (C a name, x no lane): C heads whatever x is; the callers
    hold C to what the launches pass."""
    if isinstance(head, sy.Bin) and head.op == "%" and isinstance(head.right, sy.Sym) and not sy.lanes(head.left):
        return head.right.name
    return None


def _steps_rows(rest: list[sy.Expr], tile: str, count: str, launches: list[Layout]) -> bool:
    """A row term steps by ``count * tile`` (both factors) or by ``P`` with the tile passed as
    ``P // count`` at every launch."""
    sizes = [sy.render(f) for f in rest if not sy.kinds(f) & {sy.Kind.PROGRAM, sy.Kind.LOOP} and not sy.is_loaded(f)]
    if len(sizes) == len(rest):
        return False  # no row index at all: a fixed offset, not a row
    if sy.without([sy.Sym(s, sy.Kind.CONST) for s in sizes], [count, tile]) is not None:
        return True
    return any(all(values.get(tile) == f"{_atom(values.get(p, p))} // {_atom(values.get(count, count))}"
                   for values, _ in launches) for p in sizes)


def _atom(text: str) -> str:
    """A rendered host value as one operand: ``a + b`` is parenthesised, so ``G = a + b // h``
    is not read as ``(a + b) // h``."""
    return text if not any(c.isspace() for c in text) else f"({text})"


def _counted_rows(rest: list[sy.Expr], grids: list[tuple[str, ...] | None], loops: dict[str, Loop]) -> bool:
    """The row index counts rows, not groups of tiles: its program ids have grid dimensions that
    are no ceiling at every launch, and its loops run no ceiling count of tiles."""
    for f in rest:
        for s in sy.syms(f):
            if s.kind is sy.Kind.PROGRAM:
                m = PROGRAM_ID.fullmatch(s.name)
                if m is None or any(g is None or int(m.group(1)) >= len(g) or ROUNDED_GRID.search(g[int(m.group(1))])
                                    for g in grids):
                    return False
            elif s.kind is sy.Kind.LOOP:
                loop = loops.get(s.name)
                if loop is None or loop.walks_tail or loop.walks is not None or loop.trip is not None:
                    return False
    return True


def whole_last_dimension(index: sy.Expr, buffer: str, part: sy.DimPart, span: Span, launches: list[Layout],
                         sizes: list[dict[str, tuple[str, int]]]) -> Bound | None:
    """``s + i * M + arange(0, M)`` where every launch passes ``M`` as the last dimension of the
    tensor it passes as ``s`` (``M = s.shape[-1]``): the tile is that whole dimension, unit-strided,
    and every other term steps by whole rows of it, so the lanes never leave row ``i``."""
    tile = part.dim.tile
    if tile is None or not tile.isidentifier() or part.stride or not launches \
            or len(sizes) != len(launches) or sy.constant(sy.expand(index)):
        return None
    for (values, _), given in zip(launches, sizes):
        if buffer not in values or given.get(tile) != (values[buffer], -1):
            return None
    for t in sy.variable(sy.expand(index)):
        if any(sy.lanes(f) for f in t.factors):
            if not _is_lane_term(t, part):
                return None
        elif not (len(t.factors) == 1 and sy.render(t.factors[0]) == buffer and t.coeff == 1) \
                and tile not in [sy.render(f) for f in t.factors]:
            return None
    return Bound(part.dim.source, part.dim.label, "<", f"{buffer}.shape[-1]", True, span, wrap=True,
                 axis=part.dim.axis)
